// `tpu.unpack_subelements` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: vector<16x128xbf16>) {
    %0 = tpu.unpack_subelements %arg0, 0 {pack_format = #tpu.pack_format<interleaved>} : vector<16x128xbf16> -> vector<8x128xf32>
    return
  }
}
