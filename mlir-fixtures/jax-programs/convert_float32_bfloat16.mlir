module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<8x16xf32>) -> tensor<8x16xbf16>
    return %0 : tensor<8x16xbf16>
  }
}
