"builtin.module"() <{sym_name = "jit_shard_mapped"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}} : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "mesh_0"}> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, manual_axes = #sdy<manual_axes{"x"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<2x8xf32>):
      %1 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
      %2 = "stablehlo.convert"(%1) : (tensor<i32>) -> tensor<f32>
      %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8xf32>
      %4 = "stablehlo.multiply"(%arg1, %3) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
      %5 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "x">]>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %7 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%7) : (tensor<f32>) -> ()
      }) : (tensor<2x8xf32>) -> tensor<2x8xf32>
      %6 = "stablehlo.add"(%4, %5) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
      "sdy.return"(%6) : (tensor<2x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
