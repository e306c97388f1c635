// `tpu.vector_store_idx` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi32>, %arg2: vector<16xi1>, %arg3: vector<16xf32>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    tpu.vector_store_idx %arg0[%arg1], %arg3 : memref<64xf32, #tpu.memory_space<vmem>>[vector<16xi32>], vector<16xf32>, 
    tpu.vector_store_idx %arg0[%arg1], %arg3 masked %arg2 {add = true} : memref<64xf32, #tpu.memory_space<vmem>>[vector<16xi32>], vector<16xf32>, vector<16xi1>
    return
  }
}
