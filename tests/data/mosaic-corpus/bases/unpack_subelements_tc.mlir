"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    %0 = "tpu.unpack_subelements"(%arg0) <{index = 0 : i32, integer_extended = true, pack_format = #tpu.pack_format<compressed>, unsigned_integers = false}> : (vector<8x128xf32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
