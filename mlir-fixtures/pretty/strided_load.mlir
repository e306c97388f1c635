// `tpu.strided_load` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<16x128xf32, #tpu.memory_space<vmem>>) {
    %c0 = arith.constant 0 : index
    %0 = tpu.strided_load %arg0[%c0, %c0] {strides = array<i32: 2, 1>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
}
