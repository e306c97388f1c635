"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "tpu.region"() ({
      %1 = "arith.constant"() <{value = 0 : i32}> : () -> i32
      "tpu.yield"(%1) : (i32) -> ()
    }) : () -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
