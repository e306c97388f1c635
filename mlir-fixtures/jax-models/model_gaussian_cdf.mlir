module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg0 : tensor<8x128xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.sqrt %cst : tensor<f32>
    %2 = stablehlo.convert %1 : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %4 = stablehlo.divide %0, %3 : tensor<8x128xf32>
    %5 = chlo.erfc %4 : tensor<8x128xf32> -> tensor<8x128xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<8x128xf32>
    return %7 : tensor<8x128xf32>
  }
}
