"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32, i32, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg4: i32, %arg5: i32, %arg6: i32):
    "tpu.enqueue_dma"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, priority = 0 : i32, strict_ordering = false}> : (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32, i32, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
