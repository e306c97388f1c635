// `tpu.tile_size` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>) {
    %0 = tpu.tile_size %arg0, 0 : memref<8x128xf32, #tpu.memory_space<vmem>>
    return
  }
}
