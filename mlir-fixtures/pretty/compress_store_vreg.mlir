// `tpu.compress_store_vreg` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<64xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xf32>, %arg2: vector<16xi1>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %c0 = arith.constant 0 : index
    tpu.compress_store_vreg %arg0[%c0], %arg1, %arg2 : memref<64xf32, #tpu.memory_space<vmem>>, vector<16xf32>, vector<16xi1>
    return
  }
}
