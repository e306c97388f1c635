// `tpu.yield` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel() {
    %0 = "tpu.region"() ({
      %1 = tpu.device_id : i32
      tpu.yield %1 : i32
    }) : () -> i32
    return
  }
}
