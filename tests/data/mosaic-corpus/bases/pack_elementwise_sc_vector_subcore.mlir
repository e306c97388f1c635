"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.pack_elementwise"(%arg0, %arg0) <{target_type = bf16}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xi32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
