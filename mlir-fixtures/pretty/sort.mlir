// `tpu.sort` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xf32>, %arg1: vector<8x128xf32>, %arg2: vector<8x128xi1>) {
    %output_mask, %sorted_keys, %sorted_values = tpu.sort %arg0, %arg1 : (vector<8x128xf32>, vector<8x128xf32>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)
    %output_mask_0, %sorted_keys_1, %sorted_values_2 = tpu.sort %arg0, %arg1 masked %arg2 {descending = true} : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)
    return
  }
}
