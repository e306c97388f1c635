// `tpu.reduce` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, vector<8x128xi32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: vector<8x128xi32>):
    %0 = "tpu.reduce"(%arg0) <{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<maxf>}> : (vector<8x128xf32>) -> vector<8x1xf32>
    %1 = "tpu.reduce"(%arg1) <{dimensions = array<i64: 0, 1>, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xi32>) -> vector<1x1xi32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
