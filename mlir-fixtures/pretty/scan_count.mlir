// `tpu.scan_count` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<16xi1>, %arg1: vector<16xi32>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %out_mask, %counts = tpu.scan_count mask(%arg0 : vector<16xi1>) value(%arg1 : vector<16xi32>) : vector<16xi1>, vector<16xi32>
    return
  }
}
