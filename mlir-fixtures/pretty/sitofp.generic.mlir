// `tpu.sitofp` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xi32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xi32>):
    %0 = "tpu.sitofp"(%arg0) <{rounding_mode = #tpu.rounding_mode<to_nearest_even>}> : (vector<8x128xi32>) -> vector<8x128xbf16>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
