// `tpu.reinterpret_cast` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<?x128xf32, #tpu.memory_space<vmem>>, %arg1: i32) {
    %0 = tpu.reinterpret_cast %arg0 %arg1<%arg1> [%arg1] : memref<?x128xf32, #tpu.memory_space<vmem>> -> memref<?x128xf32, strided<[?, 1], offset: ?>, #tpu.memory_space<vmem>>
    return
  }
}
