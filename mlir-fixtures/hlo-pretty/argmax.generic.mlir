"builtin.module"() <{sym_name = "jit_argmax"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4xi32>, tensor<4x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<4x8xf32>):
    %18 = "func.call"(%arg9) <{callee = @argmax}> : (tensor<4x8xf32>) -> tensor<4xi32>
    %19 = "func.call"(%arg9) <{callee = @cumsum}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%18, %19) : (tensor<4xi32>, tensor<4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<4x8xf32>):
    %5 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    %6 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8:2 = "stablehlo.reduce"(%arg4, %5, %6, %7) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
      %9 = "stablehlo.compare"(%arg5, %arg7) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %10 = "stablehlo.compare"(%arg5, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = "stablehlo.or"(%9, %10) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %12 = "stablehlo.compare"(%arg5, %arg7) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %13 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %14 = "stablehlo.and"(%12, %13) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %15 = "stablehlo.or"(%11, %14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %16 = "stablehlo.select"(%11, %arg5, %arg7) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %17 = "stablehlo.select"(%15, %arg6, %arg8) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%16, %17) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    "func.return"(%8#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<4x8xf32>):
    %4 = "func.call"(%arg3) <{callee = @cumsum_0}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%4) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "cumsum_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{base_dilations = array<i64: 1, 1>, padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    "func.return"(%2) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
