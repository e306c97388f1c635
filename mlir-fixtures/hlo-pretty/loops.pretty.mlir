module @jit_loops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<i32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0:2 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %arg0) : tensor<i32>, tensor<4x8xf32>
    cond {
      %c = stablehlo.constant dense<4> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_1 = stablehlo.constant dense<4> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %4 = stablehlo.select %2, %3, %iterArg : tensor<i1>, tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %5 = stablehlo.dynamic_slice %iterArg_0, %4, %c_2, sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
      %7 = stablehlo.multiply %5, %6 : tensor<1x8xf32>
      %c_4 = stablehlo.constant dense<0> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_5 = stablehlo.constant dense<4> : tensor<i32>
      %9 = stablehlo.add %iterArg, %c_5 : tensor<i32>
      %10 = stablehlo.select %8, %9, %iterArg : tensor<i1>, tensor<i32>
      %c_6 = stablehlo.constant dense<0> : tensor<i32>
      %11 = stablehlo.dynamic_update_slice %iterArg_0, %7, %10, %c_6 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %12 = stablehlo.add %iterArg, %c_7 : tensor<i32>
      stablehlo.return %12, %11 : tensor<i32>, tensor<4x8xf32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0#1 init: %cst) across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
      %2 = stablehlo.multiply %arg2, %arg3 : tensor<f32>
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %3 = stablehlo.add %2, %cst_0 : tensor<f32>
      stablehlo.return %3 : tensor<f32>
    }
    return %0#1, %1 : tensor<4x8xf32>, tensor<8xf32>
  }
}
