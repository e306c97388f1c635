module @jit_floor_divide attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<8x128xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %2 = stablehlo.compare EQ, %arg1, %1, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %3 = stablehlo.subtract %arg0, %0 : tensor<8x128xf32>
    %4 = call @_where(%2, %arg0, %3) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %5 = stablehlo.divide %4, %arg1 : tensor<8x128xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %7 = stablehlo.compare NE, %0, %6, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %8 = stablehlo.sign %arg1 : tensor<8x128xf32>
    %9 = stablehlo.sign %0 : tensor<8x128xf32>
    %10 = stablehlo.compare NE, %8, %9, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %11 = stablehlo.and %7, %10 : tensor<8x128xi1>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %13 = stablehlo.subtract %5, %12 : tensor<8x128xf32>
    %14 = stablehlo.select %11, %13, %5 : tensor<8x128xi1>, tensor<8x128xf32>
    %15 = stablehlo.round_nearest_afz %14 : tensor<8x128xf32>
    return %15 : tensor<8x128xf32>
  }
  func.func private @_where(%arg0: tensor<8x128xi1>, %arg1: tensor<8x128xf32>, %arg2: tensor<8x128xf32>) -> tensor<8x128xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x128xi1>, tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}
