module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xi32>, %arg1: tensor<4x5xi32>) -> (tensor<4x5xi32> {jax.result_info = "result[0]"}, tensor<4x5xi1> {jax.result_info = "result[1]"}, tensor<4x5xi32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4x5xi32>
    %2 = stablehlo.add %1, %arg1 : tensor<4x5xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<i64>
    %3 = call @floor_divide(%2, %c_0) : (tensor<4x5xi32>, tensor<i64>) -> tensor<4x5xi32>
    %4 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %5 = stablehlo.xor %arg0, %arg1 : tensor<4x5xi32>
    return %3, %4, %5 : tensor<4x5xi32>, tensor<4x5xi1>, tensor<4x5xi32>
  }
  func.func private @floor_divide(%arg0: tensor<4x5xi32>, %arg1: tensor<i64>) -> tensor<4x5xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %2 = stablehlo.divide %arg0, %1 : tensor<4x5xi32>
    %3 = stablehlo.sign %arg0 : tensor<4x5xi32>
    %4 = stablehlo.sign %0 : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %6 = stablehlo.compare NE, %3, %5, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %8 = stablehlo.remainder %arg0, %7 : tensor<4x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %10 = stablehlo.compare NE, %8, %9, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %11 = stablehlo.and %6, %10 : tensor<4x5xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %13 = stablehlo.subtract %2, %12 : tensor<4x5xi32>
    %14 = call @_where(%11, %13, %2) : (tensor<4x5xi1>, tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi32>
    return %14 : tensor<4x5xi32>
  }
  func.func private @_where(%arg0: tensor<4x5xi1>, %arg1: tensor<4x5xi32>, %arg2: tensor<4x5xi32>) -> tensor<4x5xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x5xi1>, tensor<4x5xi32>
    return %0 : tensor<4x5xi32>
  }
}
