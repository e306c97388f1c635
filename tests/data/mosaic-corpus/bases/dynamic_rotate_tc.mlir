"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: i32):
    %0 = "tpu.dynamic_rotate"(%arg0, %arg1) <{dimension = 1 : si32}> : (vector<8x128xf32>, i32) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
