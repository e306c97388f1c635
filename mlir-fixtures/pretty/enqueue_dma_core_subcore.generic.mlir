// `tpu.enqueue_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<any>>, memref<8x128xf32, #tpu.memory_space<any>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<any>>, %arg1: memref<8x128xf32, #tpu.memory_space<any>>, %arg2: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg3: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg4: i32):
    "tpu.enqueue_dma"(%arg0, %arg2, %arg1, %arg3, %arg4, %arg4) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 1>, priority = 0 : i32, strict_ordering = false}> : (memref<8x128xf32, #tpu.memory_space<any>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<any>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
