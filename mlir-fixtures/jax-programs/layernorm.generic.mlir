"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<16x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<16x256xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<16x256xf32>, %arg10: tensor<256xf32>, %arg11: tensor<256xf32>):
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%arg9, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %48 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%48) : (tensor<f32>) -> ()
    }) : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %29 = "stablehlo.constant"() <{value = dense<2.560000e+02> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %31 = "stablehlo.divide"(%28, %30) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %33 = "stablehlo.subtract"(%arg9, %32) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %34 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %35 = "func.call"(%arg9, %34) <{callee = @_var}> : (tensor<16x256xf32>, tensor<i32>) -> tensor<16x1xf32>
    %36 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %38 = "stablehlo.add"(%35, %37) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %39 = "stablehlo.rsqrt"(%38) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %41 = "stablehlo.multiply"(%33, %40) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %42 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 1>}> : (tensor<256xf32>) -> tensor<1x256xf32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %44 = "stablehlo.multiply"(%41, %43) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %45 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 1>}> : (tensor<256xf32>) -> tensor<1x256xf32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %47 = "stablehlo.add"(%44, %46) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    "func.return"(%47) : (tensor<16x256xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x256xf32>, tensor<i32>) -> tensor<16x1xf32>, sym_name = "_var", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16x256xf32>, %arg4: tensor<i32>):
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%arg3, %3) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %25 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%25) : (tensor<f32>) -> ()
    }) : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %6 = "stablehlo.constant"() <{value = dense<2.560000e+02> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %8 = "stablehlo.divide"(%5, %7) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %10 = "stablehlo.subtract"(%arg3, %9) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %11 = "chlo.square"(%10) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %12 = "stablehlo.convert"(%arg4) : (tensor<i32>) -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<2.560000e+02> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.subtract"(%13, %12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%11, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %24 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %18 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %19 = "stablehlo.divide"(%17, %18) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.compare"(%14, %20) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %22 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %23 = "func.call"(%21, %19, %22) <{callee = @_where}> : (tensor<i1>, tensor<16x1xf32>, tensor<f32>) -> tensor<16x1xf32>
    "func.return"(%23) : (tensor<16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<16x1xf32>, tensor<f32>) -> tensor<16x1xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<16x1xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<i1>, tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    "func.return"(%2) : (tensor<16x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
