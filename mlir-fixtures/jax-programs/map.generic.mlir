"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<4x8xf32>):
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %7 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8:3 = "stablehlo.while"(%arg5, %7, %6) ({
    ^bb0(%arg11: tensor<4x8xf32>, %arg12: tensor<i32>, %arg13: tensor<4xf32>):
      %17 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %18 = "stablehlo.compare"(%arg12, %17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%18) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg6: tensor<4x8xf32>, %arg7: tensor<i32>, %arg8: tensor<4xf32>):
      %9 = "func.call"(%arg6, %arg7) <{callee = @dynamic_index_in_dim}> : (tensor<4x8xf32>, tensor<i32>) -> tensor<8xf32>
      %10 = "stablehlo.multiply"(%9, %9) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %12 = "stablehlo.reduce"(%10, %11) <{dimensions = array<i64: 0>}> ({
      ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
        %16 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%16) : (tensor<f32>) -> ()
      }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
      %13 = "func.call"(%arg8, %12, %arg7) <{callee = @dynamic_update_index_in_dim}> : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
      %14 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %15 = "stablehlo.add"(%arg7, %14) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg6, %15, %13) : (tensor<4x8xf32>, tensor<i32>, tensor<4xf32>) -> ()
    }) : (tensor<4x8xf32>, tensor<i32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<i32>, tensor<4xf32>)
    "func.return"(%8#2) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<i32>) -> tensor<8xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<4x8xf32>, %arg4: tensor<i32>):
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.dynamic_slice"(%arg3, %arg4, %2) <{slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<1x8xf32>) -> tensor<8xf32>
    "func.return"(%4) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1xf32>
    %1 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2) : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
    "func.return"(%1) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
