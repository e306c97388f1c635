"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x16x128xf32>, vector<3x128x128xf32>, vector<8x14x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x16x128xf32>, %arg1: vector<3x128x128xf32>, %arg2: vector<8x14x128xf32>):
    %0 = "tpu.conv"(%arg0, %arg1, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #tpu.conv_dimension_numbers<0, 2, [1], 1, 2, [0], 0, 2, [1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = array<i64: 0, 0>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (vector<8x16x128xf32>, vector<3x128x128xf32>, vector<8x14x128xf32>) -> vector<8x14x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
