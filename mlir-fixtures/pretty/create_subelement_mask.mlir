// `tpu.create_subelement_mask` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel() {
    %0 = tpu.create_subelement_mask 3, 9 : vector<8x128x2xi1>
    return
  }
}
