// `tpu.fptosi` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xf32>) {
    %0 = tpu.fptosi %arg0 {rounding_mode = #tpu.rounding_mode<towards_zero>} : vector<8x128xf32> -> vector<8x128xi16>
    return
  }
}
