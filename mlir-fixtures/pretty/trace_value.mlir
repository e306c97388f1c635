// `tpu.trace_value` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: i32) {
    tpu.trace_value %arg0, "x" : i32
    return
  }
}
