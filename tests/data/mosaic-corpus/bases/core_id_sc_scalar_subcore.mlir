"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "tpu.core_id"() : () -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
