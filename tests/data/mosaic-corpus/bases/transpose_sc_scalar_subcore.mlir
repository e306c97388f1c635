"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (vector<8x128xf32>) -> vector<128x8xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
