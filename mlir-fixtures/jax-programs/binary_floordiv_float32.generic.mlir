"builtin.module"() <{sym_name = "jit_floor_divide"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<8x128xf32>, %arg4: tensor<8x128xf32>):
    %1 = "stablehlo.remainder"(%arg3, %arg4) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %4 = "stablehlo.compare"(%arg4, %3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %5 = "stablehlo.subtract"(%arg3, %1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %6 = "func.call"(%4, %arg3, %5) <{callee = @_where}> : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %7 = "stablehlo.divide"(%6, %arg4) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %10 = "stablehlo.compare"(%1, %9) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %11 = "stablehlo.sign"(%arg4) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %12 = "stablehlo.sign"(%1) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %13 = "stablehlo.compare"(%11, %12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %14 = "stablehlo.and"(%10, %13) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %17 = "stablehlo.subtract"(%7, %16) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %18 = "stablehlo.select"(%14, %17, %7) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %19 = "stablehlo.round_nearest_afz"(%18) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%19) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x128xi1>, %arg1: tensor<8x128xf32>, %arg2: tensor<8x128xf32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
