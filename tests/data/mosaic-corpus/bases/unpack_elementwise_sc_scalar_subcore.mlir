"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xi32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xi32>):
    %0 = "tpu.unpack_elementwise"(%arg0) <{index = 0 : i32, source_type = bf16}> : (vector<8x128xi32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
