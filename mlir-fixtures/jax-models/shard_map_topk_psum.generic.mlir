"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["i"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}} : () -> ()
  "sdy.mesh"() <{mesh = #sdy.mesh<["i"=4]>, sym_name = "mesh_0"}> {stablehlo.mesh = {axes = [{name = "i", size = 4 : i64}]}} : () -> ()
  "func.func"() <{function_type = (tensor<16x128xf32>) -> tensor<4x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x128xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"i"}, {}]>]>, manual_axes = #sdy<manual_axes{"i"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x128xf32>):
      %1:2 = "chlo.top_k"(%arg1) <{k = 4 : i64}> : (tensor<4x128xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
      %2 = "stablehlo.all_reduce"(%1#0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "i">]>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %3 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%3) : (tensor<f32>) -> ()
      }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      "sdy.return"(%2) : (tensor<4x4xf32>) -> ()
    }) : (tensor<16x128xf32>) -> tensor<4x4xf32>
    "func.return"(%0) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
