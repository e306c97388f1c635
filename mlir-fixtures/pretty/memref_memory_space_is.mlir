// `tpu.memref_memory_space_is` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<any>>) {
    %0 = tpu.memref_memory_space_is %arg0, <hbm> : memref<8x128xf32, #tpu.memory_space<any>>
    return
  }
}
