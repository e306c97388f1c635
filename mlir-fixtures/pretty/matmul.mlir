// `tpu.matmul` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<128x128xbf16>, %arg1: vector<128x128xbf16>, %arg2: vector<128x128xf32>) {
    %0 = tpu.matmul %arg0, %arg1, %arg2 {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<128x128xbf16>, vector<128x128xbf16>, vector<128x128xf32> -> vector<128x128xf32>
    return
  }
}
