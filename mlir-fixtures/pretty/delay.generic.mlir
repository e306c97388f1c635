// `tpu.delay` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: i32):
    "tpu.delay"(%arg0) : (i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
