// `tpu.create_mask` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: index) {
    %0 = tpu.create_mask[%arg0, %arg0] [%arg0, %arg0] : vector<8x128xi1>
    return
  }
}
