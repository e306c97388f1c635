module @jit_elementwise attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<8x8xi32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:8] : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8xf32>) -> tensor<8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %3 = stablehlo.add %2, %arg1 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %5 = stablehlo.compare GT, %3, %4, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.multiply %3, %6 : tensor<4x8xf32>
    %8 = stablehlo.negate %3 : tensor<4x8xf32>
    %9 = call @_where(%5, %7, %8) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = stablehlo.exponential %3 : tensor<4x8xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x8xf32>
    %13 = stablehlo.subtract %9, %12 : tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.reduce(%13 init: %cst_3) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %16 = stablehlo.slice %15 [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    %17 = stablehlo.add %14, %16 : tensor<4xf32>
    %18 = stablehlo.transpose %13, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %19 = stablehlo.dot_general %18, %13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %20 = stablehlo.convert %19 : (tensor<8x8xf32>) -> tensor<8x8xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %21 = call @remainder(%20, %c) : (tensor<8x8xi32>, tensor<i32>) -> tensor<8x8xi32>
    %22 = stablehlo.concatenate %17, %17, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    return %17, %21, %22 : tensor<4xf32>, tensor<8x8xi32>, tensor<8xf32>
  }
  func.func private @_where(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x8xi1>, tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func private @remainder(%arg0: tensor<8x8xi32>, %arg1: tensor<i32>) -> tensor<8x8xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where_0(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<8x8xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %12 = stablehlo.and %11, %6 : tensor<8x8xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %14 = stablehlo.add %4, %13 : tensor<8x8xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<8x8xi1>, tensor<8x8xi32>
    return %15 : tensor<8x8xi32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
