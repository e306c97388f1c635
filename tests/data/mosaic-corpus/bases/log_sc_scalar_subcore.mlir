"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: i32):
    "tpu.log"(%arg0) <{formatted = false, tag = "x"}> : (i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
