// `tpu.sublane_shuffle` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xf32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xf32>):
    %0 = "tpu.sublane_shuffle"(%arg0, %arg1) <{pattern = array<i32: 0, 1, 2, 3, 8, 9, 10, 11>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
