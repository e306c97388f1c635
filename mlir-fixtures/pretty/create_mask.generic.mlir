// `tpu.create_mask` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: index):
    %0 = "tpu.create_mask"(%arg0, %arg0, %arg0, %arg0) : (index, index, index, index) -> vector<8x128xi1>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
