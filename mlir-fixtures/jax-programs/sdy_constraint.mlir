module @jit__lambda attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32>) -> (tensor<16x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<16x16xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {"x"}]> : tensor<16x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<16x16xf32>
    return %3 : tensor<16x16xf32>
  }
}
