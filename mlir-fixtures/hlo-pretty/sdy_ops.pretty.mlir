module @sdy_ops {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %2 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
    %3 = sdy.data_flow_edge %2 : tensor<8x8xf32>
    %4 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %5 = sdy.all_slice [{"x"}, {}] %4 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %6 = sdy.collective_permute %5 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
    %7 = sdy.all_reduce {"x"} %6 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
    %8 = sdy.all_to_all [{"y"}: 0->1] %7 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %9 = sdy.reshard %8 <@mesh, [{}, {}]> : tensor<8x8xf32>
    sdy.sharding_group %9 group_id=3 : tensor<8x8xf32>
    %10 = sdy.propagation_barrier %9 allowed_direction=BACKWARD : tensor<8x8xf32>
    %11 = sdy.named_computation<"foo">(%10) (%arg1: tensor<8x8xf32>) {
      sdy.return %arg1 : tensor<8x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %12 = sdy.named_computation<"bar">(%11) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<8x8xf32>) {
      sdy.return %arg1 : tensor<8x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %13 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
    return %12 : tensor<8x8xf32>
  }
}
