"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.pack_subelements"(%arg0, %arg0) <{pack_format = #tpu.pack_format<compressed>, positions = array<i32: 0, 1>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x256xbf16>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
