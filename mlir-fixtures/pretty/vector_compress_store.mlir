// `tpu.vector_compress_store` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi1>, %arg2: vector<16xf32>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %c0 = arith.constant 0 : index
    tpu.vector_compress_store %arg0[%c0], %arg2, %arg1 {compress_dim = 0 : i32} : memref<64xf32, #tpu.memory_space<vmem>>, vector<16xf32>, vector<16xi1>
    return
  }
}
