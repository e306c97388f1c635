// `tpu.enqueue_indirect_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8xi32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<64x128xf32, #tpu.memory_space<hbm>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<8xi32, #tpu.memory_space<vmem>>, %arg3: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg4: i32):
    "tpu.enqueue_indirect_dma"(%arg0, %arg1, %arg2, %arg3) <{add = false}> : (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8xi32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> ()
    "tpu.enqueue_indirect_dma"(%arg0, %arg1, %arg2, %arg3, %arg4) <{add = false}> : (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8xi32, #tpu.memory_space<vmem>>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
