// A known `tpu` op in custom (pretty) form with its types left out.
module {
  func.func @k(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>) {
    %c0 = arith.constant 0 : index
    tpu.vector_store %arg0[%c0, %c0], %v {strides = array<i32>}
    return
  }
}
