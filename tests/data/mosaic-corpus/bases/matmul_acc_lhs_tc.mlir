"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>):
    "tpu.matmul_acc_lhs"(%arg0) <{acc = 0 : i32, mxu_index = 0 : i32}> : (vector<8x128xf32>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
