// `tpu.log` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "kernel"}> ({
    "tpu.log"() <{formatted = false, tag = "hello"}> : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
