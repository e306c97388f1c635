"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xf32>):
    %0 = "tpu.concatenate"(%arg0, %arg1) <{dimension = 0 : i32}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<16x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
