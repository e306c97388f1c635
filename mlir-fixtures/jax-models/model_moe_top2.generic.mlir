"builtin.module"() <{sym_name = "jit_moe"}> ({
  "func.func"() <{function_type = (tensor<16x128xf32>, tensor<128x8xf32>, tensor<8x128x128xf32>) -> tensor<16x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x128xf32>, %arg1: tensor<128x8xf32>, %arg2: tensor<8x128x128xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x8xf32>) -> tensor<16x8xf32>
    %1:2 = "chlo.top_k"(%0) <{k = 2 : i64}> : (tensor<16x8xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1#0, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %51 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%51) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %6 = "stablehlo.maximum"(%5, %3) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %9 = "stablehlo.subtract"(%1#0, %8) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %10 = "stablehlo.exponential"(%9) : (tensor<16x2xf32>) -> tensor<16x2xf32>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.reduce"(%10, %11) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %50 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%50) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %15 = "stablehlo.divide"(%10, %14) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x128xf32>
    %18 = "stablehlo.slice"(%1#1) <{limit_indices = array<i64: 16, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %19 = "stablehlo.reshape"(%18) : (tensor<16x1xi32>) -> tensor<16xi32>
    %20 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %22 = "stablehlo.compare"(%19, %21) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %23 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %25 = "stablehlo.add"(%19, %24) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %26 = "stablehlo.select"(%22, %25, %19) : (tensor<16xi1>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %28 = "stablehlo.gather"(%arg2, %27) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128, 128>}> : (tensor<8x128x128xf32>, tensor<16x1xi32>) -> tensor<16x128x128xf32>
    %29 = "stablehlo.slice"(%15) <{limit_indices = array<i64: 16, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<16x2xf32>) -> tensor<16x1xf32>
    %30 = "stablehlo.dot_general"(%arg0, %28) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<16x128x128xf32>) -> tensor<16x128xf32>
    %31 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x128xf32>
    %32 = "stablehlo.multiply"(%31, %30) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %33 = "stablehlo.add"(%17, %32) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %34 = "stablehlo.slice"(%1#1) <{limit_indices = array<i64: 16, 2>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %35 = "stablehlo.reshape"(%34) : (tensor<16x1xi32>) -> tensor<16xi32>
    %36 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %38 = "stablehlo.compare"(%35, %37) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %39 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %41 = "stablehlo.add"(%35, %40) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %42 = "stablehlo.select"(%38, %41, %35) : (tensor<16xi1>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %44 = "stablehlo.gather"(%arg2, %43) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128, 128>}> : (tensor<8x128x128xf32>, tensor<16x1xi32>) -> tensor<16x128x128xf32>
    %45 = "stablehlo.slice"(%15) <{limit_indices = array<i64: 16, 2>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<16x2xf32>) -> tensor<16x1xf32>
    %46 = "stablehlo.dot_general"(%arg0, %44) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<16x128x128xf32>) -> tensor<16x128xf32>
    %47 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x128xf32>
    %48 = "stablehlo.multiply"(%47, %46) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %49 = "stablehlo.add"(%33, %48) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    "func.return"(%49) : (tensor<16x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
