"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    %0 = "tpu.annotate"(%arg0) <{no_bank_conflict = false, no_hazard = false, no_hazard_no_deps = false, no_store = false}> : (memref<8x128xf32, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
