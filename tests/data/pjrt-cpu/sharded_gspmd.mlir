module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<8x4xf32> {jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, tensor<f32> {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}) {
    %0 = stablehlo.exponential %arg0 : tensor<8x4xf32>
    %1 = stablehlo.exponential %arg0 : tensor<8x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<8x4xf32>
    %5 = stablehlo.divide %0, %4 : tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    return %5, %6 : tensor<8x4xf32>, tensor<f32>
  }
}
