"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: i32):
    "tpu.sem_signal"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
