// `tpu.scan` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<16xf32>, vector<16xi1>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<16xf32>, %arg2: vector<16xi1>):
    %0 = "tpu.scan"(%arg0) <{dimension = 1 : i64, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x128xf32>
    %1 = "tpu.scan"(%arg1, %arg2) <{dimension = 0 : i64, kind = #tpu.reduction_kind<maxf>}> : (vector<16xf32>, vector<16xi1>) -> vector<16xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
