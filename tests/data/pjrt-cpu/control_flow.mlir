module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>) -> (tensor<32xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i64>, tensor<i64>, tensor<32xf32>
    cond {
      %c_3 = stablehlo.constant dense<5> : tensor<i64>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i64>
      %1 = stablehlo.add %iterArg_1, %c_3 : tensor<i64>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32xf32>
      %3 = stablehlo.multiply %iterArg_2, %2 : tensor<32xf32>
      %4 = stablehlo.cosine %iterArg_2 : tensor<32xf32>
      %5 = stablehlo.convert %iterArg_1 : (tensor<i64>) -> tensor<f32>
      %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<32xf32>
      %7 = stablehlo.multiply %4, %6 : tensor<32xf32>
      %8 = stablehlo.add %3, %7 : tensor<32xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i64>
      %9 = stablehlo.add %iterArg, %c_4 : tensor<i64>
      stablehlo.return %9, %1, %8 : tensor<i64>, tensor<i64>, tensor<32xf32>
    }
    return %0#2 : tensor<32xf32>
  }
}
