// `tpu.fetch_and_add_sync` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<16xi32, #tpu.memory_space<smem>>, %arg1: i32) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %0 = tpu.fetch_and_add_sync %arg0[%arg1], %arg1, %arg1 : memref<16xi32, #tpu.memory_space<smem>>, i32 -> i32
    return
  }
}
