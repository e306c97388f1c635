"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<2xui32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg27: tensor<2xui32>):
    %118 = "func.call"(%arg27) <{callee = @_normal}> : (tensor<2xui32>) -> tensor<8x16xf32>
    "func.return"(%118) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xui32>) -> tensor<8x16xf32>, sym_name = "_normal", sym_visibility = "private"}> ({
  ^bb0(%arg26: tensor<2xui32>):
    %117 = "func.call"(%arg26) <{callee = @_normal_real}> : (tensor<2xui32>) -> tensor<8x16xf32>
    "func.return"(%117) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xui32>) -> tensor<8x16xf32>, sym_name = "_normal_real", sym_visibility = "private"}> ({
  ^bb0(%arg25: tensor<2xui32>):
    %110 = "stablehlo.constant"() <{value = dense<-0.99999994> : tensor<f32>}> : () -> tensor<f32>
    %111 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %112 = "func.call"(%arg25, %110, %111) <{callee = @_uniform}> : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
    %113 = "chlo.erf_inv"(%112) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %114 = "stablehlo.constant"() <{value = dense<1.41421354> : tensor<f32>}> : () -> tensor<f32>
    %115 = "stablehlo.broadcast_in_dim"(%114) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %116 = "stablehlo.multiply"(%115, %113) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%116) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>, sym_name = "_uniform", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<2xui32>, %arg23: tensor<f32>, %arg24: tensor<f32>):
    %71 = "stablehlo.broadcast_in_dim"(%arg23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %72 = "stablehlo.broadcast_in_dim"(%arg24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %73 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %74 = "stablehlo.reshape"(%73) : (tensor<1xui32>) -> tensor<ui32>
    %75 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %76 = "stablehlo.reshape"(%75) : (tensor<1xui32>) -> tensor<ui32>
    %77 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x16xui64>
    %78 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x16xui64>
    %79 = "stablehlo.constant"() <{value = dense<16> : tensor<ui64>}> : () -> tensor<ui64>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x16xui64>
    %81 = "stablehlo.multiply"(%80, %77) : (tensor<8x16xui64>, tensor<8x16xui64>) -> tensor<8x16xui64>
    %82 = "stablehlo.constant"() <{value = dense<1> : tensor<ui64>}> : () -> tensor<ui64>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x16xui64>
    %84 = "stablehlo.multiply"(%83, %78) : (tensor<8x16xui64>, tensor<8x16xui64>) -> tensor<8x16xui64>
    %85 = "stablehlo.add"(%81, %84) : (tensor<8x16xui64>, tensor<8x16xui64>) -> tensor<8x16xui64>
    %86 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<8x16xui64>
    %88 = "stablehlo.shift_right_logical"(%85, %87) : (tensor<8x16xui64>, tensor<8x16xui64>) -> tensor<8x16xui64>
    %89 = "stablehlo.convert"(%85) : (tensor<8x16xui64>) -> tensor<8x16xui32>
    %90 = "stablehlo.convert"(%88) : (tensor<8x16xui64>) -> tensor<8x16xui32>
    %91:2 = "func.call"(%74, %76, %90, %89) <{callee = @threefry2x32}> : (tensor<ui32>, tensor<ui32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>)
    %92 = "stablehlo.xor"(%91#0, %91#1) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %93 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
    %95 = "stablehlo.shift_right_logical"(%92, %94) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %96 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
    %98 = "stablehlo.or"(%95, %97) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %99 = "stablehlo.bitcast_convert"(%98) : (tensor<8x16xui32>) -> tensor<8x16xf32>
    %100 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %102 = "stablehlo.subtract"(%99, %101) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %103 = "stablehlo.subtract"(%72, %71) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %104 = "stablehlo.broadcast_in_dim"(%103) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %105 = "stablehlo.multiply"(%102, %104) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %106 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %107 = "stablehlo.add"(%105, %106) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %108 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<8x16xf32>
    %109 = "stablehlo.maximum"(%108, %107) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%109) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<ui32>, tensor<ui32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>), sym_name = "threefry2x32", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<8x16xui32>, %arg3: tensor<8x16xui32>):
    %0 = "stablehlo.constant"() <{value = dense<[13, 15, 26, 6]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %1 = "stablehlo.constant"() <{value = dense<[17, 29, 16, 24]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %2 = "stablehlo.xor"(%arg0, %arg1) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %3 = "stablehlo.constant"() <{value = dense<466688986> : tensor<ui32>}> : () -> tensor<ui32>
    %4 = "stablehlo.xor"(%2, %3) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %5 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
    %6 = "stablehlo.add"(%arg2, %5) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %7 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
    %8 = "stablehlo.add"(%arg3, %7) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11:9 = "stablehlo.while"(%10, %9, %6, %8, %arg1, %4, %arg0, %0, %1) ({
    ^bb0(%arg13: tensor<i32>, %arg14: tensor<i32>, %arg15: tensor<8x16xui32>, %arg16: tensor<8x16xui32>, %arg17: tensor<ui32>, %arg18: tensor<ui32>, %arg19: tensor<ui32>, %arg20: tensor<4xui32>, %arg21: tensor<4xui32>):
      %69 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %70 = "stablehlo.compare"(%arg13, %69) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%70) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<8x16xui32>, %arg7: tensor<8x16xui32>, %arg8: tensor<ui32>, %arg9: tensor<ui32>, %arg10: tensor<ui32>, %arg11: tensor<4xui32>, %arg12: tensor<4xui32>):
      %12 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %13 = "stablehlo.add"(%arg5, %12) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %14 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %15 = "stablehlo.reshape"(%14) : (tensor<1xui32>) -> tensor<ui32>
      %16 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %17 = "stablehlo.reshape"(%16) : (tensor<1xui32>) -> tensor<ui32>
      %18 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 3>, start_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %19 = "stablehlo.reshape"(%18) : (tensor<1xui32>) -> tensor<ui32>
      %20 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 4>, start_indices = array<i64: 3>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %21 = "stablehlo.reshape"(%20) : (tensor<1xui32>) -> tensor<ui32>
      %22 = "stablehlo.add"(%arg6, %arg7) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %23 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %24 = "stablehlo.shift_left"(%arg7, %23) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %25 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %26 = "stablehlo.subtract"(%25, %15) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %28 = "stablehlo.shift_right_logical"(%arg7, %27) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %29 = "stablehlo.or"(%24, %28) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %30 = "stablehlo.xor"(%22, %29) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %31 = "stablehlo.add"(%22, %30) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %32 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %33 = "stablehlo.shift_left"(%30, %32) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %34 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %35 = "stablehlo.subtract"(%34, %17) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %37 = "stablehlo.shift_right_logical"(%30, %36) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %38 = "stablehlo.or"(%33, %37) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %39 = "stablehlo.xor"(%31, %38) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %40 = "stablehlo.add"(%31, %39) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %41 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %42 = "stablehlo.shift_left"(%39, %41) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %43 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %44 = "stablehlo.subtract"(%43, %19) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %46 = "stablehlo.shift_right_logical"(%39, %45) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %47 = "stablehlo.or"(%42, %46) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %48 = "stablehlo.xor"(%40, %47) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %49 = "stablehlo.add"(%40, %48) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %50 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %51 = "stablehlo.shift_left"(%48, %50) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %52 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %53 = "stablehlo.subtract"(%52, %21) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %55 = "stablehlo.shift_right_logical"(%48, %54) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %56 = "stablehlo.or"(%51, %55) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %57 = "stablehlo.xor"(%49, %56) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %58 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %59 = "stablehlo.add"(%49, %58) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %60 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %61 = "stablehlo.add"(%57, %60) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %62 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %63 = "stablehlo.add"(%arg5, %62) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %64 = "stablehlo.convert"(%63) : (tensor<i32>) -> tensor<ui32>
      %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
      %66 = "stablehlo.add"(%61, %65) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
      %67 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %68 = "stablehlo.add"(%arg4, %67) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%68, %13, %59, %66, %arg9, %arg10, %arg8, %arg12, %arg11) : (tensor<i32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
    "func.return"(%11#2, %11#3) : (tensor<8x16xui32>, tensor<8x16xui32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
