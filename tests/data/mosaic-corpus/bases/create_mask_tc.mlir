"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "tpu.create_mask"(%arg0, %arg1) : (index, index) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
