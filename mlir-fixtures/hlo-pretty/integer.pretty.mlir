module @jit_integer attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xi32> {jax.result_info = "result[0]"}, tensor<4x8xi32> {jax.result_info = "result[1]"}, tensor<8x4xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %2 = stablehlo.shift_right_logical %0, %1 : tensor<4x8xi32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %4 = stablehlo.and %0, %3 : tensor<4x8xi32>
    %5 = stablehlo.or %2, %4 : tensor<4x8xi32>
    %6 = stablehlo.sign %arg1 : tensor<4x8xf32>
    %7 = stablehlo.minimum %arg0, %arg1 : tensor<4x8xf32>
    %8 = stablehlo.add %6, %7 : tensor<4x8xf32>
    %9 = stablehlo.maximum %arg0, %arg1 : tensor<4x8xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<4x8xf32>
    %11 = stablehlo.bitcast_convert %10 : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %12 = stablehlo.iota dim = 0 : tensor<8xi32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<4x8xi32>
    %15 = stablehlo.add %5, %14 : tensor<4x8xi32>
    %16 = stablehlo.reshape %10 : (tensor<4x8xf32>) -> tensor<8x4xf32>
    return %15, %11, %16 : tensor<4x8xi32>, tensor<4x8xi32>, tensor<8x4xf32>
  }
}
