"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    "tpu.matmul_push_rhs"(%arg0) <{mxu_index = 0 : i32, staging_register = 0 : i32, transpose = false}> : (vector<8x128xf32>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
