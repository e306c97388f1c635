// `tpu.subcore_id` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel() attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %0 = tpu.subcore_id : i32
    return
  }
}
