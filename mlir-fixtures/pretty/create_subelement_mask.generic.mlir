// `tpu.create_subelement_mask` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "kernel"}> ({
    %0 = "tpu.create_subelement_mask"() <{from = 3 : i32, to = 9 : i32}> : () -> vector<8x128x2xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
