// `tpu.wait_indirect_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<64x128xf32, #tpu.memory_space<hbm>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    tpu.wait_indirect_dma semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%arg0 : memref<64x128xf32, #tpu.memory_space<hbm>>) dst(%arg1 : memref<8x128xf32, #tpu.memory_space<vmem>>)
    return
  }
}
