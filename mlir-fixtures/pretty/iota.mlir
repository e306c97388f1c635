// `tpu.iota` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel() {
    %0 = tpu.iota {dimensions = array<i32: 1>} : vector<8x128xi32>
    %1 = tpu.iota {dimensions = array<i32: 0, 1>} : vector<8x128xi32>
    return
  }
}
