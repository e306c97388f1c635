// `tpu.vector_store` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: vector<8x128xf32>) {
    %c0 = arith.constant 0 : index
    tpu.vector_store %arg0[%c0, %c0], %arg1 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    return
  }
}
