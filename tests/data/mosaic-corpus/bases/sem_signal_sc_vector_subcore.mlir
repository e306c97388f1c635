"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32, i32, i32, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32):
    "tpu.sem_signal"(%arg0, %arg1, %arg2, %arg3, %arg4) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}> : (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32, i32, i32, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
