module @jit_plain_int attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x10xi32>, %arg1: tensor<12x10xi32>, %arg2: tensor<12x10xi1>) -> (tensor<12x10xi32> {jax.result_info = "result[0]"}, tensor<12x10xi32> {jax.result_info = "result[1]"}, tensor<12x10xi32> {jax.result_info = "result[2]"}, tensor<i32> {jax.result_info = "result[3]"}, tensor<12x10xui8> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<12x10xi32>
    %2 = stablehlo.add %1, %arg1 : tensor<12x10xi32>
    %c_0 = stablehlo.constant dense<17> : tensor<i32>
    %3 = call @remainder(%2, %c_0) : (tensor<12x10xi32>, tensor<i32>) -> tensor<12x10xi32>
    %4 = stablehlo.negate %3 : tensor<12x10xi32>
    %5 = call @_where_0(%arg2, %3, %4) : (tensor<12x10xi1>, tensor<12x10xi32>, tensor<12x10xi32>) -> tensor<12x10xi32>
    %6 = call @cumsum(%5) : (tensor<12x10xi32>) -> tensor<12x10xi32>
    %7 = call @argsort(%arg1) : (tensor<12x10xi32>) -> tensor<12x10xi32>
    %8 = stablehlo.xor %arg0, %arg1 : tensor<12x10xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %10 = stablehlo.shift_right_arithmetic %8, %9 : tensor<12x10xi32>
    %11 = stablehlo.convert %arg2 : (tensor<12x10xi1>) -> tensor<12x10xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.reduce(%11 init: %c_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<12x10xi32>, tensor<i32>) -> tensor<i32>
    %13 = stablehlo.convert %arg0 : (tensor<12x10xi32>) -> tensor<12x10xui8>
    %c_3 = stablehlo.constant dense<250> : tensor<ui8>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui8>) -> tensor<12x10xui8>
    %15 = stablehlo.add %13, %14 : tensor<12x10xui8>
    return %6, %7, %10, %12, %15 : tensor<12x10xi32>, tensor<12x10xi32>, tensor<12x10xi32>, tensor<i32>, tensor<12x10xui8>
  }
  func.func private @remainder(%arg0: tensor<12x10xi32>, %arg1: tensor<i32>) -> tensor<12x10xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<12x10xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<12x10xi32>, tensor<12x10xi32>) -> tensor<12x10xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<12x10xi32>, tensor<12x10xi32>) -> tensor<12x10xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<12x10xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<12x10xi1>, tensor<12x10xi1>) -> tensor<12x10xi1>
    %12 = stablehlo.and %11, %6 : tensor<12x10xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<12x10xi32>
    %14 = stablehlo.add %4, %13 : tensor<12x10xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<12x10xi1>, tensor<12x10xi32>
    return %15 : tensor<12x10xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<12x10xi1>, %arg1: tensor<12x10xi32>, %arg2: tensor<12x10xi32>) -> tensor<12x10xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12x10xi1>, tensor<12x10xi32>
    return %0 : tensor<12x10xi32>
  }
  func.func private @cumsum(%arg0: tensor<12x10xi32>) -> tensor<12x10xi32> {
    %0 = call @cumsum_1(%arg0) : (tensor<12x10xi32>) -> tensor<12x10xi32>
    return %0 : tensor<12x10xi32>
  }
  func.func private @cumsum_1(%arg0: tensor<12x10xi32>) -> tensor<12x10xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[11, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 12, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<12x10xi32>, tensor<i32>) -> tensor<12x10xi32>
    return %1 : tensor<12x10xi32>
  }
  func.func private @argsort(%arg0: tensor<12x10xi32>) -> tensor<12x10xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<12x10xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %2 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<12x10xi32>, tensor<12x10xi32>) -> (tensor<12x10xi32>, tensor<12x10xi32>)
    return %1#1 : tensor<12x10xi32>
  }
}
