"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "tpu.sem_alloc"() : () -> memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
