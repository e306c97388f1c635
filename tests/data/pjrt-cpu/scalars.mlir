module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>, %arg1: tensor<i32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %arg1, %c : tensor<i32>
    return %1, %2 : tensor<f32>, tensor<i32>
  }
}
