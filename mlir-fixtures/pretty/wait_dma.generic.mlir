// `tpu.wait_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<any>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<any>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>):
    "tpu.wait_dma"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0, 0>, priority = 0 : i32, strict_ordering = false, wait_target = true}> : (memref<8x128xf32, #tpu.memory_space<any>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
