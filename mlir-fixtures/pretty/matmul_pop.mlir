// `tpu.matmul_pop` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel() {
    %0 = tpu.matmul_pop 0 {mxu_index = 0 : i32} : vector<8x128xf32>
    return
  }
}
