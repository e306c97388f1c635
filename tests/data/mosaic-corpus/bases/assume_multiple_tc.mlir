"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: i32):
    %0 = "tpu.assume_multiple"(%arg0) <{multiple = 8 : i32}> : (i32) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
