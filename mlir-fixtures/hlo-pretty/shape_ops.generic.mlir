"builtin.module"() <{sym_name = "jit_shape_ops"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<7x15xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x1x4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<1x4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3x7xf32>, tensor<2x8xf32>, tensor<4xf32>, tensor<1x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3][0]"}, {jax.result_info = "result[3][1]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg26: tensor<4x8xf32>):
    %108 = "stablehlo.constant"() <{value = dense<[0, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %109 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %110 = "stablehlo.pad"(%arg26, %109) <{edge_padding_high = array<i64: 2, 0>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x15xf32>
    %111 = "stablehlo.reverse"(%arg26) <{dimensions = array<i64: 0>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %112 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
    %113:2 = "stablehlo.optimization_barrier"(%arg26, %111) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
    %114 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %115 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %116 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1x3x3xf32>
    %117 = "stablehlo.convolution"(%114, %116) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x1x4x8xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x8xf32>
    %118 = "stablehlo.convert"(%arg26) : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
    %119 = "func.call"(%118) <{callee = @fft}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %120 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %121 = "stablehlo.broadcast_in_dim"(%arg26) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %122 = "stablehlo.dot_general"(%120, %121) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x4xf32>
    %123 = "stablehlo.sort"(%arg26) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %163 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %164 = "stablehlo.compare"(%arg29, %163) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %165 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %166 = "stablehlo.select"(%164, %165, %arg29) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %167 = "stablehlo.compare"(%arg29, %arg29) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %168 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %169 = "stablehlo.select"(%167, %168, %166) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %170 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %171 = "stablehlo.compare"(%arg30, %170) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %172 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %173 = "stablehlo.select"(%171, %172, %arg30) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %174 = "stablehlo.compare"(%arg30, %arg30) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %175 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %176 = "stablehlo.select"(%174, %175, %173) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %177 = "stablehlo.compare"(%169, %176) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%177) : (tensor<i1>) -> ()
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %124 = "stablehlo.slice"(%arg26) <{limit_indices = array<i64: 1, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x1xf32>
    %125 = "stablehlo.reshape"(%124) : (tensor<1x1xf32>) -> tensor<f32>
    %126 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %127 = "stablehlo.compare"(%125, %126) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %128 = "stablehlo.convert"(%127) : (tensor<i1>) -> tensor<i32>
    %129 = "stablehlo.case"(%128) ({
      %160 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %161 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
      %162 = "stablehlo.subtract"(%arg26, %161) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "stablehlo.return"(%162) : (tensor<4x8xf32>) -> ()
    }, {
      %157 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %158 = "stablehlo.broadcast_in_dim"(%157) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
      %159 = "stablehlo.multiply"(%arg26, %158) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "stablehlo.return"(%159) : (tensor<4x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<4x8xf32>
    %130 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %132 = "stablehlo.reduce_window"(%arg26, %131) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %156 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%156) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
    %133 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %134 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %135 = "stablehlo.compare"(%108, %134) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %136 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %137 = "stablehlo.broadcast_in_dim"(%136) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %138 = "stablehlo.add"(%108, %137) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %139 = "stablehlo.select"(%135, %138, %108) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %140 = "stablehlo.broadcast_in_dim"(%139) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xi32>) -> tensor<2x1xi32>
    %141 = "stablehlo.gather"(%arg26, %140) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<2x1xi32>) -> tensor<2x8xf32>
    %142 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %143 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %144 = "stablehlo.shift_right_logical"(%142, %143) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %145 = "stablehlo.convert"(%144) : (tensor<i32>) -> tensor<ui32>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %147 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
    %148 = "stablehlo.and"(%142, %147) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %149 = "stablehlo.convert"(%148) : (tensor<i32>) -> tensor<ui32>
    %150 = "stablehlo.broadcast_in_dim"(%149) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %151 = "stablehlo.concatenate"(%146, %150) <{dimension = 0 : i64}> : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %152 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %153 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %154 = "func.call"(%151, %152, %153) <{callee = @_uniform}> : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    %155 = "stablehlo.slice"(%arg26) <{limit_indices = array<i64: 3, 8>, start_indices = array<i64: 1, 0>, strides = array<i64: 2, 3>}> : (tensor<4x8xf32>) -> tensor<1x3xf32>
    "func.return"(%110, %111, %112, %113#0, %113#1, %117, %119, %122, %123, %129, %132, %141, %154, %155) : (tensor<7x15xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x1x4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<1x4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3x7xf32>, tensor<2x8xf32>, tensor<4xf32>, tensor<1x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg25: tensor<4x8xcomplex<f32>>):
    %107 = "stablehlo.fft"(%arg25) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    "func.return"(%107) : (tensor<4x8xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>, sym_name = "_uniform", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<2xui32>, %arg23: tensor<f32>, %arg24: tensor<f32>):
    %71 = "stablehlo.convert"(%arg23) : (tensor<f32>) -> tensor<f32>
    %72 = "stablehlo.convert"(%arg24) : (tensor<f32>) -> tensor<f32>
    %73 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1xf32>
    %74 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1xf32>
    %75 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %76 = "stablehlo.reshape"(%75) : (tensor<1xui32>) -> tensor<ui32>
    %77 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %78 = "stablehlo.reshape"(%77) : (tensor<1xui32>) -> tensor<ui32>
    %79 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xui64>
    %80 = "stablehlo.constant"() <{value = dense<1> : tensor<ui64>}> : () -> tensor<ui64>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<4xui64>
    %82 = "stablehlo.multiply"(%81, %79) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
    %83 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<4xui64>
    %85 = "stablehlo.shift_right_logical"(%82, %84) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
    %86 = "stablehlo.convert"(%82) : (tensor<4xui64>) -> tensor<4xui32>
    %87 = "stablehlo.convert"(%85) : (tensor<4xui64>) -> tensor<4xui32>
    %88:2 = "func.call"(%76, %78, %87, %86) <{callee = @threefry2x32}> : (tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>)
    %89 = "stablehlo.xor"(%88#0, %88#1) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %90 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %92 = "stablehlo.shift_right_logical"(%89, %91) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %93 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %95 = "stablehlo.or"(%92, %94) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %96 = "stablehlo.bitcast_convert"(%95) : (tensor<4xui32>) -> tensor<4xf32>
    %97 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %98 = "stablehlo.broadcast_in_dim"(%97) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %99 = "stablehlo.subtract"(%96, %98) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %100 = "stablehlo.subtract"(%74, %73) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64: 0>}> : (tensor<1xf32>) -> tensor<4xf32>
    %102 = "stablehlo.multiply"(%99, %101) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %103 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0>}> : (tensor<1xf32>) -> tensor<4xf32>
    %104 = "stablehlo.add"(%102, %103) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %105 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0>}> : (tensor<1xf32>) -> tensor<4xf32>
    %106 = "stablehlo.maximum"(%105, %104) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%106) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>), sym_name = "threefry2x32", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<4xui32>, %arg3: tensor<4xui32>):
    %0 = "stablehlo.constant"() <{value = dense<[13, 15, 26, 6]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %1 = "stablehlo.constant"() <{value = dense<[17, 29, 16, 24]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %2 = "stablehlo.xor"(%arg0, %arg1) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %3 = "stablehlo.constant"() <{value = dense<466688986> : tensor<ui32>}> : () -> tensor<ui32>
    %4 = "stablehlo.xor"(%2, %3) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %5 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %6 = "stablehlo.add"(%arg2, %5) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %7 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
    %8 = "stablehlo.add"(%arg3, %7) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11:9 = "stablehlo.while"(%10, %9, %6, %8, %arg1, %4, %arg0, %0, %1) ({
    ^bb0(%arg13: tensor<i32>, %arg14: tensor<i32>, %arg15: tensor<4xui32>, %arg16: tensor<4xui32>, %arg17: tensor<ui32>, %arg18: tensor<ui32>, %arg19: tensor<ui32>, %arg20: tensor<4xui32>, %arg21: tensor<4xui32>):
      %69 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %70 = "stablehlo.compare"(%arg13, %69) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%70) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>, %arg8: tensor<ui32>, %arg9: tensor<ui32>, %arg10: tensor<ui32>, %arg11: tensor<4xui32>, %arg12: tensor<4xui32>):
      %12 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %13 = "stablehlo.add"(%arg5, %12) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %14 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %15 = "stablehlo.reshape"(%14) : (tensor<1xui32>) -> tensor<ui32>
      %16 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %17 = "stablehlo.reshape"(%16) : (tensor<1xui32>) -> tensor<ui32>
      %18 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 3>, start_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %19 = "stablehlo.reshape"(%18) : (tensor<1xui32>) -> tensor<ui32>
      %20 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 4>, start_indices = array<i64: 3>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %21 = "stablehlo.reshape"(%20) : (tensor<1xui32>) -> tensor<ui32>
      %22 = "stablehlo.add"(%arg6, %arg7) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %23 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %24 = "stablehlo.shift_left"(%arg7, %23) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %25 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %26 = "stablehlo.subtract"(%25, %15) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %28 = "stablehlo.shift_right_logical"(%arg7, %27) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %29 = "stablehlo.or"(%24, %28) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %30 = "stablehlo.xor"(%22, %29) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %31 = "stablehlo.add"(%22, %30) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %32 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %33 = "stablehlo.shift_left"(%30, %32) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %34 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %35 = "stablehlo.subtract"(%34, %17) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %37 = "stablehlo.shift_right_logical"(%30, %36) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %38 = "stablehlo.or"(%33, %37) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %39 = "stablehlo.xor"(%31, %38) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %40 = "stablehlo.add"(%31, %39) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %41 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %42 = "stablehlo.shift_left"(%39, %41) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %43 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %44 = "stablehlo.subtract"(%43, %19) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %46 = "stablehlo.shift_right_logical"(%39, %45) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %47 = "stablehlo.or"(%42, %46) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %48 = "stablehlo.xor"(%40, %47) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %49 = "stablehlo.add"(%40, %48) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %50 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %51 = "stablehlo.shift_left"(%48, %50) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %52 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %53 = "stablehlo.subtract"(%52, %21) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %55 = "stablehlo.shift_right_logical"(%48, %54) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %56 = "stablehlo.or"(%51, %55) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %57 = "stablehlo.xor"(%49, %56) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %58 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %59 = "stablehlo.add"(%49, %58) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %60 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %61 = "stablehlo.add"(%57, %60) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %62 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %63 = "stablehlo.add"(%arg5, %62) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %64 = "stablehlo.convert"(%63) : (tensor<i32>) -> tensor<ui32>
      %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<4xui32>
      %66 = "stablehlo.add"(%61, %65) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
      %67 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %68 = "stablehlo.add"(%arg4, %67) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%68, %13, %59, %66, %arg9, %arg10, %arg8, %arg12, %arg11) : (tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
    "func.return"(%11#2, %11#3) : (tensor<4xui32>, tensor<4xui32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
