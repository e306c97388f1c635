// `tpu.enqueue_indirect_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<64x128xf32, #tpu.memory_space<hbm>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<8xi32, #tpu.memory_space<vmem>>, %arg3: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg4: i32) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    tpu.enqueue_indirect_dma source(%arg0 : memref<64x128xf32, #tpu.memory_space<hbm>>) target(%arg1 : memref<8x128xf32, #tpu.memory_space<vmem>>) offsets(%arg2 : memref<8xi32, #tpu.memory_space<vmem>>) semaphore(%arg3 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    tpu.enqueue_indirect_dma source(%arg0 : memref<64x128xf32, #tpu.memory_space<hbm>>) target(%arg1 : memref<8x128xf32, #tpu.memory_space<vmem>>) offsets(%arg2 : memref<8xi32, #tpu.memory_space<vmem>>) offset_filter(%arg4) semaphore(%arg3 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    return
  }
}
