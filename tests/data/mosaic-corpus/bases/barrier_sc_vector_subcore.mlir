"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: index):
    "tpu.barrier"(%arg0) : (index) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
