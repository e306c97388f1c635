// `tpu.load` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>) {
    %c0 = arith.constant 0 : index
    %0 = tpu.load %arg0[%c0, %c0] sublanes [true, true, true, true, true, true, true, true] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
}
