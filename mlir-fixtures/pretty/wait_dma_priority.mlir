// `tpu.wait_dma` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<any>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
    tpu.wait_dma source(%arg0 : memref<8x128xf32, #tpu.memory_space<any>>) target(%arg1 : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {priority = 1 : i32, wait_target = true}
    return
  }
}
