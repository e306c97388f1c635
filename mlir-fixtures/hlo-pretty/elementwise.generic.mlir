"builtin.module"() <{sym_name = "jit_elementwise"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8x8xi32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<4x8xf32>, %arg9: tensor<4x8xf32>):
    %23 = "stablehlo.slice"(%arg8) <{limit_indices = array<i64: 1, 8>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %24 = "stablehlo.reshape"(%23) : (tensor<1x8xf32>) -> tensor<8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4x8xf32>
    %26 = "stablehlo.add"(%25, %arg9) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %27 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %29 = "stablehlo.compare"(%26, %28) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %30 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %32 = "stablehlo.multiply"(%26, %31) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %33 = "stablehlo.negate"(%26) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %34 = "func.call"(%29, %32, %33) <{callee = @_where}> : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %35 = "stablehlo.exponential"(%26) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %36 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %38 = "stablehlo.divide"(%35, %37) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %39 = "stablehlo.subtract"(%34, %38) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %40 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.reduce"(%39, %40) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %53 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%53) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %42 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.reduce"(%39, %42) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %52 = "stablehlo.maximum"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%52) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %44 = "stablehlo.slice"(%43) <{limit_indices = array<i64: 4>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>
    %45 = "stablehlo.add"(%41, %44) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %46 = "stablehlo.transpose"(%39) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %47 = "stablehlo.dot_general"(%46, %39) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %48 = "stablehlo.convert"(%47) : (tensor<8x8xf32>) -> tensor<8x8xi32>
    %49 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %50 = "func.call"(%48, %49) <{callee = @remainder}> : (tensor<8x8xi32>, tensor<i32>) -> tensor<8x8xi32>
    %51 = "stablehlo.concatenate"(%45, %45) <{dimension = 0 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    "func.return"(%45, %50, %51) : (tensor<4xf32>, tensor<8x8xi32>, tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<4x8xi1>, %arg6: tensor<4x8xf32>, %arg7: tensor<4x8xf32>):
    %22 = "stablehlo.select"(%arg5, %arg6, %arg7) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%22) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xi32>, tensor<i32>) -> tensor<8x8xi32>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x8xi32>, %arg4: tensor<i32>):
    %1 = "stablehlo.convert"(%arg4) : (tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.compare"(%1, %2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %5 = "func.call"(%3, %4, %1) <{callee = @_where_0}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %7 = "stablehlo.remainder"(%arg3, %6) : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %10 = "stablehlo.compare"(%7, %9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %13 = "stablehlo.compare"(%7, %12) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.compare"(%5, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<8x8xi1>
    %17 = "stablehlo.compare"(%13, %16) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %18 = "stablehlo.and"(%17, %10) : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
    %19 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x8xi32>
    %20 = "stablehlo.add"(%7, %19) : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    %21 = "stablehlo.select"(%18, %20, %7) : (tensor<8x8xi1>, tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
    "func.return"(%21) : (tensor<8x8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%0) : (tensor<i32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
