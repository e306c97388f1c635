// `tpu.wait_dma2` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<any>>, memref<8x128xf32, #tpu.memory_space<vmem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: memref<8x128xf32, #tpu.memory_space<any>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: i32):
    "tpu.wait_dma2"(%arg0, %arg1, %arg2, %arg3, %arg3) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, strict_ordering = true}> : (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<any>>, memref<8x128xf32, #tpu.memory_space<vmem>>, i32, i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
