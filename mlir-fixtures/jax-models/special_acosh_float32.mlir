module @jit_arccosh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = chlo.acosh %arg0 : tensor<8x128xf32> -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}
