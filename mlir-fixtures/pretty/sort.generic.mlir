// `tpu.sort` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi1>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xf32>, %arg2: vector<8x128xi1>):
    %0:3 = "tpu.sort"(%arg0, %arg1) <{descending = false}> : (vector<8x128xf32>, vector<8x128xf32>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)
    %1:3 = "tpu.sort"(%arg0, %arg1, %arg2) <{descending = true}> : (vector<8x128xf32>, vector<8x128xf32>, vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
