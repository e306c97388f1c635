// `tpu.memref_slice` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<16x256xf32, #tpu.memory_space<vmem>>, %arg1: i32) {
    %c0_i32 = arith.constant 0 : i32
    %0 = tpu.memref_slice %arg0[%c0_i32, %arg1] : memref<16x256xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, strided<[256, 1], offset: ?>, #tpu.memory_space<vmem>>
    return
  }
}
