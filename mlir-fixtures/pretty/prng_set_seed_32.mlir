// `tpu.prng_set_seed_32` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: i32, %arg1: i32) {
    "tpu.prng_set_seed_32"(%arg0, %arg1) : (i32, i32) -> ()
    return
  }
}
