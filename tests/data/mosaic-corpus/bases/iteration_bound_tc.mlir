"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "tpu.iteration_bound"() <{dim = 0 : i32}> : () -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
