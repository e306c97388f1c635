"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xi32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xi32>):
    %0 = "tpu.dynamic_gather"(%arg0, %arg1) <{dimensions = array<i32: 0>}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
