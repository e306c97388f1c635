// `tpu.conv` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: vector<1x8x8x128xf32>, %arg1: vector<3x3x128x128xf32>, %arg2: vector<1x6x6x128xf32>):
    %0 = "tpu.conv"(%arg0, %arg1, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32>) -> vector<1x6x6x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
