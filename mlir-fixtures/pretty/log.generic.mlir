// `tpu.log` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: i32, %arg1: i32):
    "tpu.log"(%arg0, %arg1) <{formatted = true, tag = "x: {} {}"}> : (i32, i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
