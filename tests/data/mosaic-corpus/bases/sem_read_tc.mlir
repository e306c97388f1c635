"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>):
    %0 = "tpu.sem_read"(%arg0) : (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
