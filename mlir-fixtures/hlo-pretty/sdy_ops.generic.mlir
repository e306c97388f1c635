"builtin.module"() <{sym_name = "sdy_ops"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "sdy.data_flow_edge"(%0) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = "stablehlo.add"(%arg0, %arg0) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = "sdy.data_flow_edge"(%2) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %4 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"x"}, {}]>, out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %5 = "sdy.all_slice"(%4) <{out_sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, slicing_axes = #sdy<list_of_axis_ref_lists[{"x"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = "sdy.collective_permute"(%5) <{out_sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %7 = "sdy.all_reduce"(%6) <{out_sharding = #sdy.sharding<@mesh, [{"y"}, {}]>, reduction_axes = #sdy<axis_ref_list{"x"}>, reduction_op = 0 : i32}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %8 = "sdy.all_to_all"(%7) <{out_sharding = #sdy.sharding<@mesh, [{}, {"y"}]>, params = #sdy<all_to_all_param_list[{"y"}: 0->1]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %9 = "sdy.reshard"(%8) <{sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "sdy.sharding_group"(%9) <{group_id = 3 : i64}> : (tensor<8x8xf32>) -> ()
    %10 = "sdy.propagation_barrier"(%9) <{allowed_direction = 2 : i32}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %11 = "sdy.named_computation"(%10) <{name = "foo"}> ({
    ^bb0(%arg2: tensor<8x8xf32>):
      "sdy.return"(%arg2) : (tensor<8x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %12 = "sdy.named_computation"(%11) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, name = "bar", out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<8x8xf32>):
      "sdy.return"(%arg1) : (tensor<8x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %13 = "sdy.constant"() <{value = dense<1.000000e+00> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
    "func.return"(%12) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
