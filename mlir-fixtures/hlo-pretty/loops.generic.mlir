"builtin.module"() <{sym_name = "jit_loops"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<i32>):
    %0:2 = "stablehlo.while"(%arg1, %arg0) ({
    ^bb0(%arg6: tensor<i32>, %arg7: tensor<4x8xf32>):
      %25 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %26 = "stablehlo.compare"(%arg6, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%26) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<4x8xf32>):
      %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %7 = "stablehlo.compare"(%arg4, %6) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %8 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %9 = "stablehlo.add"(%arg4, %8) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %10 = "stablehlo.select"(%7, %9, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %12 = "stablehlo.dynamic_slice"(%arg5, %10, %11) <{slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
      %13 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x8xf32>
      %15 = "stablehlo.multiply"(%12, %14) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
      %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %17 = "stablehlo.compare"(%arg4, %16) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %18 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %19 = "stablehlo.add"(%arg4, %18) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %20 = "stablehlo.select"(%17, %19, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %21 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %22 = "stablehlo.dynamic_update_slice"(%arg5, %15, %20, %21) : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
      %23 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %24 = "stablehlo.add"(%arg4, %23) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%24, %22) : (tensor<i32>, tensor<4x8xf32>) -> ()
    }) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>)
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0#1, %1) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %3 = "stablehlo.multiply"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %5 = "stablehlo.add"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    "func.return"(%0#1, %2) : (tensor<4x8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
