// `tpu.reduce` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xf32>, %arg1: vector<8x128xi32>) {
    %0 = tpu.reduce <maxf>, %arg0 [1] : vector<8x128xf32> -> vector<8x1xf32>
    %1 = tpu.reduce <sum>, %arg1 [0, 1] : vector<8x128xi32> -> vector<1x1xi32>
    return
  }
}
