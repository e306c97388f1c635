module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<8x128xf32>
    %1 = stablehlo.convert %0 : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %2 = stablehlo.convert %1 : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %3 = chlo.polygamma %2, %arg1 : tensor<8x128xf32>, tensor<8x128xf32> -> tensor<8x128xf32>
    return %3 : tensor<8x128xf32>
  }
}
