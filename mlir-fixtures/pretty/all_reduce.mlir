// `tpu.all_reduce` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xi1>) {
    %0 = tpu.all_reduce %arg0 {dim = 1 : i64, kind = #tpu.reduction_kind<find_first_set>} : vector<8x128xi1> -> vector<8x128xi32>
    return
  }
}
