// `tpu.wait_dma2` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: memref<8x128xf32, #tpu.memory_space<any>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: i32) {
    tpu.wait_dma2 semaphore(%arg0 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%arg1 : memref<8x128xf32, #tpu.memory_space<any>>) dst(%arg2 : memref<8x128xf32, #tpu.memory_space<vmem>>) device_id(%arg3) core_id(%arg3) {strict_ordering = true}
    return
  }
}
