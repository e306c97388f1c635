// `tpu.scan` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xf32>, %arg1: vector<16xf32>, %arg2: vector<16xi1>) {
    %0 = tpu.scan <sum>, %arg0 {dimension = 1 : i64} : vector<8x128xf32>,  -> vector<8x128xf32>
    %1 = tpu.scan <maxf>, %arg1 masked %arg2 {dimension = 0 : i64} : vector<16xf32>, vector<16xi1> -> vector<16xf32>
    return
  }
}
