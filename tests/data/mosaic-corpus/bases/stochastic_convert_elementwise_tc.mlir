"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xi32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xi32>):
    %0 = "tpu.stochastic_convert_elementwise"(%arg0, %arg1) <{dst_type = bf16}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xi32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
