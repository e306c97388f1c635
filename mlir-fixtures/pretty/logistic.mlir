// `tpu.logistic` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xf32>) {
    %0 = tpu.logistic %arg0 : vector<8x128xf32> -> vector<8x128xf32>
    return
  }
}
