module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xbf16>, %arg1: tensor<16x4xbf16>) -> (tensor<8x16xbf16> {jax.result_info = "result[0]"}, tensor<8x4xbf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<8x16xbf16>
    %2 = stablehlo.add %0, %1 : tensor<8x16xbf16>
    %3 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
    return %2, %3 : tensor<8x16xbf16>, tensor<8x4xbf16>
  }
}
