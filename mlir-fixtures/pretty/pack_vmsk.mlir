// `tpu.pack_vmsk` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<8x128xi1>, %arg1: vector<8x128xi1>) {
    %0 = tpu.pack_vmsk %arg0, %arg1 {positions = array<i32: 0, 1>} : vector<8x128xi1>, vector<8x128xi1> -> vector<8x128x2xi1>
    return
  }
}
