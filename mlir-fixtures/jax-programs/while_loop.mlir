module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.while(%iterArg = %arg0) : tensor<4xf32>
    cond {
      %1 = stablehlo.slice %iterArg [0:1] : (tensor<4xf32>) -> tensor<1xf32>
      %2 = stablehlo.reshape %1 : (tensor<1xf32>) -> tensor<f32>
      %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %3 = stablehlo.compare LT, %2, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %2 = stablehlo.multiply %iterArg, %1 : tensor<4xf32>
      stablehlo.return %2 : tensor<4xf32>
    }
    return %0 : tensor<4xf32>
  }
}
