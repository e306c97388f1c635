"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<8x128xf32>, %arg2: tensor<128x128xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %6 = "stablehlo.add"(%3, %5) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %7 = "func.call"(%6) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %8 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%7, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg161: tensor<f32>, %arg162: tensor<f32>):
      %1202 = "stablehlo.maximum"(%arg161, %arg162) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1202) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %12 = "stablehlo.subtract"(%7, %11) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %13 = "stablehlo.multiply"(%12, %12) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg159: tensor<f32>, %arg160: tensor<f32>):
      %1201 = "stablehlo.add"(%arg159, %arg160) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1201) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %17 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %19 = "stablehlo.divide"(%16, %18) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %20 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %22 = "stablehlo.add"(%19, %21) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %23 = "stablehlo.rsqrt"(%22) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %25 = "stablehlo.multiply"(%12, %24) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %26 = "stablehlo.slice"(%25) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %27 = "stablehlo.slice"(%25) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %28 = "stablehlo.concatenate"(%26, %27) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %29 = "stablehlo.convert"(%28) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %30 = "stablehlo.convert"(%29) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %31 = "stablehlo.dot_general"(%30, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %32 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %34 = "stablehlo.add"(%31, %33) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %35 = "stablehlo.tanh"(%34) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %36 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.reduce"(%35, %36) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg157: tensor<f32>, %arg158: tensor<f32>):
      %1200 = "stablehlo.maximum"(%arg157, %arg158) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1200) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %40 = "stablehlo.subtract"(%35, %39) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %41 = "stablehlo.multiply"(%40, %40) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %42 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.reduce"(%41, %42) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg155: tensor<f32>, %arg156: tensor<f32>):
      %1199 = "stablehlo.add"(%arg155, %arg156) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1199) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %45 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %47 = "stablehlo.divide"(%44, %46) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %48 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %50 = "stablehlo.add"(%47, %49) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %51 = "stablehlo.rsqrt"(%50) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %53 = "stablehlo.multiply"(%40, %52) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %54 = "stablehlo.slice"(%53) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %55 = "stablehlo.slice"(%53) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %56 = "stablehlo.concatenate"(%54, %55) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %57 = "stablehlo.convert"(%56) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %58 = "stablehlo.convert"(%57) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %59 = "stablehlo.dot_general"(%58, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %60 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %62 = "stablehlo.add"(%59, %61) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %63 = "func.call"(%62) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %64 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %65 = "stablehlo.reduce"(%63, %64) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg153: tensor<f32>, %arg154: tensor<f32>):
      %1198 = "stablehlo.maximum"(%arg153, %arg154) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1198) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %68 = "stablehlo.subtract"(%63, %67) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %69 = "stablehlo.multiply"(%68, %68) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %70 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %71 = "stablehlo.reduce"(%69, %70) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg151: tensor<f32>, %arg152: tensor<f32>):
      %1197 = "stablehlo.add"(%arg151, %arg152) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1197) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %73 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %74 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %75 = "stablehlo.divide"(%72, %74) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %76 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %77 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %78 = "stablehlo.add"(%75, %77) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %79 = "stablehlo.rsqrt"(%78) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %81 = "stablehlo.multiply"(%68, %80) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %82 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %83 = "stablehlo.slice"(%81) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %84 = "stablehlo.concatenate"(%82, %83) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %85 = "stablehlo.convert"(%84) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %86 = "stablehlo.convert"(%85) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %87 = "stablehlo.dot_general"(%86, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %88 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %89 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %90 = "stablehlo.add"(%87, %89) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %91 = "stablehlo.tanh"(%90) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %92 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.reduce"(%91, %92) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg149: tensor<f32>, %arg150: tensor<f32>):
      %1196 = "stablehlo.maximum"(%arg149, %arg150) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1196) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %95 = "stablehlo.broadcast_in_dim"(%94) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %96 = "stablehlo.subtract"(%91, %95) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %97 = "stablehlo.multiply"(%96, %96) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %98 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.reduce"(%97, %98) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg147: tensor<f32>, %arg148: tensor<f32>):
      %1195 = "stablehlo.add"(%arg147, %arg148) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1195) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %100 = "stablehlo.broadcast_in_dim"(%99) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %101 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %102 = "stablehlo.broadcast_in_dim"(%101) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %103 = "stablehlo.divide"(%100, %102) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %104 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %105 = "stablehlo.broadcast_in_dim"(%104) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %106 = "stablehlo.add"(%103, %105) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %107 = "stablehlo.rsqrt"(%106) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %108 = "stablehlo.broadcast_in_dim"(%107) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %109 = "stablehlo.multiply"(%96, %108) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %110 = "stablehlo.slice"(%109) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %111 = "stablehlo.slice"(%109) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %112 = "stablehlo.concatenate"(%110, %111) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %113 = "stablehlo.convert"(%112) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %114 = "stablehlo.convert"(%113) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %115 = "stablehlo.dot_general"(%114, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %116 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %117 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %118 = "stablehlo.add"(%115, %117) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %119 = "func.call"(%118) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %120 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %121 = "stablehlo.reduce"(%119, %120) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg145: tensor<f32>, %arg146: tensor<f32>):
      %1194 = "stablehlo.maximum"(%arg145, %arg146) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1194) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %122 = "stablehlo.broadcast_in_dim"(%121) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %124 = "stablehlo.subtract"(%119, %123) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %125 = "stablehlo.multiply"(%124, %124) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %126 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %127 = "stablehlo.reduce"(%125, %126) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg143: tensor<f32>, %arg144: tensor<f32>):
      %1193 = "stablehlo.add"(%arg143, %arg144) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1193) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %129 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %130 = "stablehlo.broadcast_in_dim"(%129) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %131 = "stablehlo.divide"(%128, %130) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %132 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %133 = "stablehlo.broadcast_in_dim"(%132) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %134 = "stablehlo.add"(%131, %133) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %135 = "stablehlo.rsqrt"(%134) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %136 = "stablehlo.broadcast_in_dim"(%135) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %137 = "stablehlo.multiply"(%124, %136) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %138 = "stablehlo.slice"(%137) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %139 = "stablehlo.slice"(%137) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %140 = "stablehlo.concatenate"(%138, %139) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %141 = "stablehlo.convert"(%140) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %142 = "stablehlo.convert"(%141) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %143 = "stablehlo.dot_general"(%142, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %144 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %145 = "stablehlo.broadcast_in_dim"(%144) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %146 = "stablehlo.add"(%143, %145) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %147 = "stablehlo.tanh"(%146) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %148 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %149 = "stablehlo.reduce"(%147, %148) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg141: tensor<f32>, %arg142: tensor<f32>):
      %1192 = "stablehlo.maximum"(%arg141, %arg142) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1192) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %150 = "stablehlo.broadcast_in_dim"(%149) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %151 = "stablehlo.broadcast_in_dim"(%150) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %152 = "stablehlo.subtract"(%147, %151) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %153 = "stablehlo.multiply"(%152, %152) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %154 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %155 = "stablehlo.reduce"(%153, %154) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg139: tensor<f32>, %arg140: tensor<f32>):
      %1191 = "stablehlo.add"(%arg139, %arg140) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1191) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %156 = "stablehlo.broadcast_in_dim"(%155) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %157 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %158 = "stablehlo.broadcast_in_dim"(%157) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %159 = "stablehlo.divide"(%156, %158) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %160 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %161 = "stablehlo.broadcast_in_dim"(%160) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %162 = "stablehlo.add"(%159, %161) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %163 = "stablehlo.rsqrt"(%162) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %164 = "stablehlo.broadcast_in_dim"(%163) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %165 = "stablehlo.multiply"(%152, %164) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %166 = "stablehlo.slice"(%165) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %167 = "stablehlo.slice"(%165) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %168 = "stablehlo.concatenate"(%166, %167) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %169 = "stablehlo.convert"(%168) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %170 = "stablehlo.convert"(%169) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %171 = "stablehlo.dot_general"(%170, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %172 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %173 = "stablehlo.broadcast_in_dim"(%172) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %174 = "stablehlo.add"(%171, %173) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %175 = "func.call"(%174) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %176 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %177 = "stablehlo.reduce"(%175, %176) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg137: tensor<f32>, %arg138: tensor<f32>):
      %1190 = "stablehlo.maximum"(%arg137, %arg138) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1190) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %178 = "stablehlo.broadcast_in_dim"(%177) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %179 = "stablehlo.broadcast_in_dim"(%178) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %180 = "stablehlo.subtract"(%175, %179) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %181 = "stablehlo.multiply"(%180, %180) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %182 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.reduce"(%181, %182) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg135: tensor<f32>, %arg136: tensor<f32>):
      %1189 = "stablehlo.add"(%arg135, %arg136) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1189) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %184 = "stablehlo.broadcast_in_dim"(%183) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %185 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %186 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %187 = "stablehlo.divide"(%184, %186) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %188 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %189 = "stablehlo.broadcast_in_dim"(%188) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %190 = "stablehlo.add"(%187, %189) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %191 = "stablehlo.rsqrt"(%190) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %192 = "stablehlo.broadcast_in_dim"(%191) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %193 = "stablehlo.multiply"(%180, %192) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %194 = "stablehlo.slice"(%193) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %195 = "stablehlo.slice"(%193) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %196 = "stablehlo.concatenate"(%194, %195) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %197 = "stablehlo.convert"(%196) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %198 = "stablehlo.convert"(%197) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %199 = "stablehlo.dot_general"(%198, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %200 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %202 = "stablehlo.add"(%199, %201) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %203 = "stablehlo.tanh"(%202) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %204 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %205 = "stablehlo.reduce"(%203, %204) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg133: tensor<f32>, %arg134: tensor<f32>):
      %1188 = "stablehlo.maximum"(%arg133, %arg134) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1188) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %206 = "stablehlo.broadcast_in_dim"(%205) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %207 = "stablehlo.broadcast_in_dim"(%206) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %208 = "stablehlo.subtract"(%203, %207) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %209 = "stablehlo.multiply"(%208, %208) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %210 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %211 = "stablehlo.reduce"(%209, %210) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg131: tensor<f32>, %arg132: tensor<f32>):
      %1187 = "stablehlo.add"(%arg131, %arg132) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1187) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %212 = "stablehlo.broadcast_in_dim"(%211) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %213 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %214 = "stablehlo.broadcast_in_dim"(%213) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %215 = "stablehlo.divide"(%212, %214) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %216 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %218 = "stablehlo.add"(%215, %217) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %219 = "stablehlo.rsqrt"(%218) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %220 = "stablehlo.broadcast_in_dim"(%219) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %221 = "stablehlo.multiply"(%208, %220) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %222 = "stablehlo.slice"(%221) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %223 = "stablehlo.slice"(%221) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %224 = "stablehlo.concatenate"(%222, %223) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %225 = "stablehlo.convert"(%224) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %226 = "stablehlo.convert"(%225) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %227 = "stablehlo.dot_general"(%226, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %228 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %229 = "stablehlo.broadcast_in_dim"(%228) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %230 = "stablehlo.add"(%227, %229) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %231 = "func.call"(%230) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %232 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %233 = "stablehlo.reduce"(%231, %232) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg129: tensor<f32>, %arg130: tensor<f32>):
      %1186 = "stablehlo.maximum"(%arg129, %arg130) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1186) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %234 = "stablehlo.broadcast_in_dim"(%233) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %235 = "stablehlo.broadcast_in_dim"(%234) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %236 = "stablehlo.subtract"(%231, %235) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %237 = "stablehlo.multiply"(%236, %236) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %238 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %239 = "stablehlo.reduce"(%237, %238) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg127: tensor<f32>, %arg128: tensor<f32>):
      %1185 = "stablehlo.add"(%arg127, %arg128) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1185) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %240 = "stablehlo.broadcast_in_dim"(%239) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %241 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %242 = "stablehlo.broadcast_in_dim"(%241) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %243 = "stablehlo.divide"(%240, %242) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %244 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %245 = "stablehlo.broadcast_in_dim"(%244) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %246 = "stablehlo.add"(%243, %245) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %247 = "stablehlo.rsqrt"(%246) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %248 = "stablehlo.broadcast_in_dim"(%247) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %249 = "stablehlo.multiply"(%236, %248) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %250 = "stablehlo.slice"(%249) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %251 = "stablehlo.slice"(%249) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %252 = "stablehlo.concatenate"(%250, %251) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %253 = "stablehlo.convert"(%252) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %254 = "stablehlo.convert"(%253) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %255 = "stablehlo.dot_general"(%254, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %256 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %257 = "stablehlo.broadcast_in_dim"(%256) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %258 = "stablehlo.add"(%255, %257) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %259 = "stablehlo.tanh"(%258) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %260 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %261 = "stablehlo.reduce"(%259, %260) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg125: tensor<f32>, %arg126: tensor<f32>):
      %1184 = "stablehlo.maximum"(%arg125, %arg126) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1184) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %262 = "stablehlo.broadcast_in_dim"(%261) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %263 = "stablehlo.broadcast_in_dim"(%262) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %264 = "stablehlo.subtract"(%259, %263) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %265 = "stablehlo.multiply"(%264, %264) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %266 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %267 = "stablehlo.reduce"(%265, %266) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg123: tensor<f32>, %arg124: tensor<f32>):
      %1183 = "stablehlo.add"(%arg123, %arg124) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1183) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %268 = "stablehlo.broadcast_in_dim"(%267) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %269 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %270 = "stablehlo.broadcast_in_dim"(%269) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %271 = "stablehlo.divide"(%268, %270) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %272 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %273 = "stablehlo.broadcast_in_dim"(%272) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %274 = "stablehlo.add"(%271, %273) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %275 = "stablehlo.rsqrt"(%274) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %276 = "stablehlo.broadcast_in_dim"(%275) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %277 = "stablehlo.multiply"(%264, %276) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %278 = "stablehlo.slice"(%277) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %279 = "stablehlo.slice"(%277) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %280 = "stablehlo.concatenate"(%278, %279) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %281 = "stablehlo.convert"(%280) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %282 = "stablehlo.convert"(%281) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %283 = "stablehlo.dot_general"(%282, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %284 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %285 = "stablehlo.broadcast_in_dim"(%284) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %286 = "stablehlo.add"(%283, %285) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %287 = "func.call"(%286) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %288 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %289 = "stablehlo.reduce"(%287, %288) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg121: tensor<f32>, %arg122: tensor<f32>):
      %1182 = "stablehlo.maximum"(%arg121, %arg122) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1182) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %290 = "stablehlo.broadcast_in_dim"(%289) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %291 = "stablehlo.broadcast_in_dim"(%290) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %292 = "stablehlo.subtract"(%287, %291) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %293 = "stablehlo.multiply"(%292, %292) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %294 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %295 = "stablehlo.reduce"(%293, %294) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg119: tensor<f32>, %arg120: tensor<f32>):
      %1181 = "stablehlo.add"(%arg119, %arg120) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1181) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %296 = "stablehlo.broadcast_in_dim"(%295) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %297 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %298 = "stablehlo.broadcast_in_dim"(%297) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %299 = "stablehlo.divide"(%296, %298) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %300 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %301 = "stablehlo.broadcast_in_dim"(%300) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %302 = "stablehlo.add"(%299, %301) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %303 = "stablehlo.rsqrt"(%302) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %304 = "stablehlo.broadcast_in_dim"(%303) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %305 = "stablehlo.multiply"(%292, %304) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %306 = "stablehlo.slice"(%305) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %307 = "stablehlo.slice"(%305) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %308 = "stablehlo.concatenate"(%306, %307) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %309 = "stablehlo.convert"(%308) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %310 = "stablehlo.convert"(%309) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %311 = "stablehlo.dot_general"(%310, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %312 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %313 = "stablehlo.broadcast_in_dim"(%312) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %314 = "stablehlo.add"(%311, %313) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %315 = "stablehlo.tanh"(%314) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %316 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %317 = "stablehlo.reduce"(%315, %316) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg117: tensor<f32>, %arg118: tensor<f32>):
      %1180 = "stablehlo.maximum"(%arg117, %arg118) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1180) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %318 = "stablehlo.broadcast_in_dim"(%317) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %319 = "stablehlo.broadcast_in_dim"(%318) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %320 = "stablehlo.subtract"(%315, %319) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %321 = "stablehlo.multiply"(%320, %320) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %322 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %323 = "stablehlo.reduce"(%321, %322) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg115: tensor<f32>, %arg116: tensor<f32>):
      %1179 = "stablehlo.add"(%arg115, %arg116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1179) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %324 = "stablehlo.broadcast_in_dim"(%323) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %325 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %326 = "stablehlo.broadcast_in_dim"(%325) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %327 = "stablehlo.divide"(%324, %326) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %328 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %329 = "stablehlo.broadcast_in_dim"(%328) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %330 = "stablehlo.add"(%327, %329) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %331 = "stablehlo.rsqrt"(%330) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %332 = "stablehlo.broadcast_in_dim"(%331) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %333 = "stablehlo.multiply"(%320, %332) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %334 = "stablehlo.slice"(%333) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %335 = "stablehlo.slice"(%333) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %336 = "stablehlo.concatenate"(%334, %335) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %337 = "stablehlo.convert"(%336) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %338 = "stablehlo.convert"(%337) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %339 = "stablehlo.dot_general"(%338, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %340 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %341 = "stablehlo.broadcast_in_dim"(%340) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %342 = "stablehlo.add"(%339, %341) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %343 = "func.call"(%342) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %344 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %345 = "stablehlo.reduce"(%343, %344) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg113: tensor<f32>, %arg114: tensor<f32>):
      %1178 = "stablehlo.maximum"(%arg113, %arg114) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1178) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %346 = "stablehlo.broadcast_in_dim"(%345) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %347 = "stablehlo.broadcast_in_dim"(%346) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %348 = "stablehlo.subtract"(%343, %347) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %349 = "stablehlo.multiply"(%348, %348) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %350 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %351 = "stablehlo.reduce"(%349, %350) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg111: tensor<f32>, %arg112: tensor<f32>):
      %1177 = "stablehlo.add"(%arg111, %arg112) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1177) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %352 = "stablehlo.broadcast_in_dim"(%351) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %353 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %354 = "stablehlo.broadcast_in_dim"(%353) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %355 = "stablehlo.divide"(%352, %354) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %356 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %357 = "stablehlo.broadcast_in_dim"(%356) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %358 = "stablehlo.add"(%355, %357) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %359 = "stablehlo.rsqrt"(%358) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %360 = "stablehlo.broadcast_in_dim"(%359) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %361 = "stablehlo.multiply"(%348, %360) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %362 = "stablehlo.slice"(%361) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %363 = "stablehlo.slice"(%361) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %364 = "stablehlo.concatenate"(%362, %363) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %365 = "stablehlo.convert"(%364) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %366 = "stablehlo.convert"(%365) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %367 = "stablehlo.dot_general"(%366, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %368 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %369 = "stablehlo.broadcast_in_dim"(%368) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %370 = "stablehlo.add"(%367, %369) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %371 = "stablehlo.tanh"(%370) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %372 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %373 = "stablehlo.reduce"(%371, %372) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg109: tensor<f32>, %arg110: tensor<f32>):
      %1176 = "stablehlo.maximum"(%arg109, %arg110) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1176) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %374 = "stablehlo.broadcast_in_dim"(%373) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %375 = "stablehlo.broadcast_in_dim"(%374) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %376 = "stablehlo.subtract"(%371, %375) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %377 = "stablehlo.multiply"(%376, %376) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %378 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %379 = "stablehlo.reduce"(%377, %378) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg107: tensor<f32>, %arg108: tensor<f32>):
      %1175 = "stablehlo.add"(%arg107, %arg108) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1175) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %380 = "stablehlo.broadcast_in_dim"(%379) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %381 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %382 = "stablehlo.broadcast_in_dim"(%381) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %383 = "stablehlo.divide"(%380, %382) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %384 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %385 = "stablehlo.broadcast_in_dim"(%384) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %386 = "stablehlo.add"(%383, %385) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %387 = "stablehlo.rsqrt"(%386) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %388 = "stablehlo.broadcast_in_dim"(%387) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %389 = "stablehlo.multiply"(%376, %388) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %390 = "stablehlo.slice"(%389) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %391 = "stablehlo.slice"(%389) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %392 = "stablehlo.concatenate"(%390, %391) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %393 = "stablehlo.convert"(%392) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %394 = "stablehlo.convert"(%393) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %395 = "stablehlo.dot_general"(%394, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %396 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %397 = "stablehlo.broadcast_in_dim"(%396) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %398 = "stablehlo.add"(%395, %397) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %399 = "func.call"(%398) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %400 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %401 = "stablehlo.reduce"(%399, %400) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg105: tensor<f32>, %arg106: tensor<f32>):
      %1174 = "stablehlo.maximum"(%arg105, %arg106) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1174) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %402 = "stablehlo.broadcast_in_dim"(%401) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %403 = "stablehlo.broadcast_in_dim"(%402) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %404 = "stablehlo.subtract"(%399, %403) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %405 = "stablehlo.multiply"(%404, %404) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %406 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %407 = "stablehlo.reduce"(%405, %406) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg103: tensor<f32>, %arg104: tensor<f32>):
      %1173 = "stablehlo.add"(%arg103, %arg104) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1173) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %408 = "stablehlo.broadcast_in_dim"(%407) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %409 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %410 = "stablehlo.broadcast_in_dim"(%409) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %411 = "stablehlo.divide"(%408, %410) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %412 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %413 = "stablehlo.broadcast_in_dim"(%412) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %414 = "stablehlo.add"(%411, %413) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %415 = "stablehlo.rsqrt"(%414) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %416 = "stablehlo.broadcast_in_dim"(%415) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %417 = "stablehlo.multiply"(%404, %416) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %418 = "stablehlo.slice"(%417) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %419 = "stablehlo.slice"(%417) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %420 = "stablehlo.concatenate"(%418, %419) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %421 = "stablehlo.convert"(%420) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %422 = "stablehlo.convert"(%421) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %423 = "stablehlo.dot_general"(%422, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %424 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %425 = "stablehlo.broadcast_in_dim"(%424) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %426 = "stablehlo.add"(%423, %425) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %427 = "stablehlo.tanh"(%426) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %428 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %429 = "stablehlo.reduce"(%427, %428) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg101: tensor<f32>, %arg102: tensor<f32>):
      %1172 = "stablehlo.maximum"(%arg101, %arg102) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1172) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %430 = "stablehlo.broadcast_in_dim"(%429) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %431 = "stablehlo.broadcast_in_dim"(%430) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %432 = "stablehlo.subtract"(%427, %431) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %433 = "stablehlo.multiply"(%432, %432) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %434 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %435 = "stablehlo.reduce"(%433, %434) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg99: tensor<f32>, %arg100: tensor<f32>):
      %1171 = "stablehlo.add"(%arg99, %arg100) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1171) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %436 = "stablehlo.broadcast_in_dim"(%435) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %437 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %438 = "stablehlo.broadcast_in_dim"(%437) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %439 = "stablehlo.divide"(%436, %438) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %440 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %441 = "stablehlo.broadcast_in_dim"(%440) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %442 = "stablehlo.add"(%439, %441) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %443 = "stablehlo.rsqrt"(%442) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %444 = "stablehlo.broadcast_in_dim"(%443) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %445 = "stablehlo.multiply"(%432, %444) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %446 = "stablehlo.slice"(%445) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %447 = "stablehlo.slice"(%445) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %448 = "stablehlo.concatenate"(%446, %447) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %449 = "stablehlo.convert"(%448) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %450 = "stablehlo.convert"(%449) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %451 = "stablehlo.dot_general"(%450, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %452 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %453 = "stablehlo.broadcast_in_dim"(%452) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %454 = "stablehlo.add"(%451, %453) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %455 = "func.call"(%454) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %456 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %457 = "stablehlo.reduce"(%455, %456) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg97: tensor<f32>, %arg98: tensor<f32>):
      %1170 = "stablehlo.maximum"(%arg97, %arg98) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1170) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %458 = "stablehlo.broadcast_in_dim"(%457) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %459 = "stablehlo.broadcast_in_dim"(%458) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %460 = "stablehlo.subtract"(%455, %459) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %461 = "stablehlo.multiply"(%460, %460) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %462 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %463 = "stablehlo.reduce"(%461, %462) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg95: tensor<f32>, %arg96: tensor<f32>):
      %1169 = "stablehlo.add"(%arg95, %arg96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1169) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %464 = "stablehlo.broadcast_in_dim"(%463) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %465 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %466 = "stablehlo.broadcast_in_dim"(%465) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %467 = "stablehlo.divide"(%464, %466) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %468 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %469 = "stablehlo.broadcast_in_dim"(%468) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %470 = "stablehlo.add"(%467, %469) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %471 = "stablehlo.rsqrt"(%470) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %472 = "stablehlo.broadcast_in_dim"(%471) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %473 = "stablehlo.multiply"(%460, %472) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %474 = "stablehlo.slice"(%473) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %475 = "stablehlo.slice"(%473) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %476 = "stablehlo.concatenate"(%474, %475) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %477 = "stablehlo.convert"(%476) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %478 = "stablehlo.convert"(%477) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %479 = "stablehlo.dot_general"(%478, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %480 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %481 = "stablehlo.broadcast_in_dim"(%480) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %482 = "stablehlo.add"(%479, %481) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %483 = "stablehlo.tanh"(%482) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %484 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %485 = "stablehlo.reduce"(%483, %484) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg93: tensor<f32>, %arg94: tensor<f32>):
      %1168 = "stablehlo.maximum"(%arg93, %arg94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1168) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %486 = "stablehlo.broadcast_in_dim"(%485) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %487 = "stablehlo.broadcast_in_dim"(%486) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %488 = "stablehlo.subtract"(%483, %487) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %489 = "stablehlo.multiply"(%488, %488) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %490 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %491 = "stablehlo.reduce"(%489, %490) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg91: tensor<f32>, %arg92: tensor<f32>):
      %1167 = "stablehlo.add"(%arg91, %arg92) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1167) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %492 = "stablehlo.broadcast_in_dim"(%491) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %493 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %494 = "stablehlo.broadcast_in_dim"(%493) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %495 = "stablehlo.divide"(%492, %494) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %496 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %497 = "stablehlo.broadcast_in_dim"(%496) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %498 = "stablehlo.add"(%495, %497) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %499 = "stablehlo.rsqrt"(%498) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %500 = "stablehlo.broadcast_in_dim"(%499) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %501 = "stablehlo.multiply"(%488, %500) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %502 = "stablehlo.slice"(%501) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %503 = "stablehlo.slice"(%501) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %504 = "stablehlo.concatenate"(%502, %503) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %505 = "stablehlo.convert"(%504) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %506 = "stablehlo.convert"(%505) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %507 = "stablehlo.dot_general"(%506, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %508 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %509 = "stablehlo.broadcast_in_dim"(%508) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %510 = "stablehlo.add"(%507, %509) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %511 = "func.call"(%510) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %512 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %513 = "stablehlo.reduce"(%511, %512) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg89: tensor<f32>, %arg90: tensor<f32>):
      %1166 = "stablehlo.maximum"(%arg89, %arg90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1166) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %514 = "stablehlo.broadcast_in_dim"(%513) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %515 = "stablehlo.broadcast_in_dim"(%514) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %516 = "stablehlo.subtract"(%511, %515) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %517 = "stablehlo.multiply"(%516, %516) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %518 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %519 = "stablehlo.reduce"(%517, %518) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg87: tensor<f32>, %arg88: tensor<f32>):
      %1165 = "stablehlo.add"(%arg87, %arg88) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1165) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %520 = "stablehlo.broadcast_in_dim"(%519) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %521 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %522 = "stablehlo.broadcast_in_dim"(%521) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %523 = "stablehlo.divide"(%520, %522) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %524 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %525 = "stablehlo.broadcast_in_dim"(%524) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %526 = "stablehlo.add"(%523, %525) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %527 = "stablehlo.rsqrt"(%526) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %528 = "stablehlo.broadcast_in_dim"(%527) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %529 = "stablehlo.multiply"(%516, %528) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %530 = "stablehlo.slice"(%529) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %531 = "stablehlo.slice"(%529) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %532 = "stablehlo.concatenate"(%530, %531) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %533 = "stablehlo.convert"(%532) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %534 = "stablehlo.convert"(%533) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %535 = "stablehlo.dot_general"(%534, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %536 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %537 = "stablehlo.broadcast_in_dim"(%536) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %538 = "stablehlo.add"(%535, %537) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %539 = "stablehlo.tanh"(%538) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %540 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %541 = "stablehlo.reduce"(%539, %540) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg85: tensor<f32>, %arg86: tensor<f32>):
      %1164 = "stablehlo.maximum"(%arg85, %arg86) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1164) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %542 = "stablehlo.broadcast_in_dim"(%541) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %543 = "stablehlo.broadcast_in_dim"(%542) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %544 = "stablehlo.subtract"(%539, %543) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %545 = "stablehlo.multiply"(%544, %544) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %546 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %547 = "stablehlo.reduce"(%545, %546) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg83: tensor<f32>, %arg84: tensor<f32>):
      %1163 = "stablehlo.add"(%arg83, %arg84) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1163) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %548 = "stablehlo.broadcast_in_dim"(%547) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %549 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %550 = "stablehlo.broadcast_in_dim"(%549) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %551 = "stablehlo.divide"(%548, %550) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %552 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %553 = "stablehlo.broadcast_in_dim"(%552) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %554 = "stablehlo.add"(%551, %553) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %555 = "stablehlo.rsqrt"(%554) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %556 = "stablehlo.broadcast_in_dim"(%555) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %557 = "stablehlo.multiply"(%544, %556) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %558 = "stablehlo.slice"(%557) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %559 = "stablehlo.slice"(%557) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %560 = "stablehlo.concatenate"(%558, %559) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %561 = "stablehlo.convert"(%560) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %562 = "stablehlo.convert"(%561) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %563 = "stablehlo.dot_general"(%562, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %564 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %565 = "stablehlo.broadcast_in_dim"(%564) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %566 = "stablehlo.add"(%563, %565) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %567 = "func.call"(%566) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %568 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %569 = "stablehlo.reduce"(%567, %568) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg81: tensor<f32>, %arg82: tensor<f32>):
      %1162 = "stablehlo.maximum"(%arg81, %arg82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1162) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %570 = "stablehlo.broadcast_in_dim"(%569) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %571 = "stablehlo.broadcast_in_dim"(%570) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %572 = "stablehlo.subtract"(%567, %571) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %573 = "stablehlo.multiply"(%572, %572) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %574 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %575 = "stablehlo.reduce"(%573, %574) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg79: tensor<f32>, %arg80: tensor<f32>):
      %1161 = "stablehlo.add"(%arg79, %arg80) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1161) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %576 = "stablehlo.broadcast_in_dim"(%575) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %577 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %578 = "stablehlo.broadcast_in_dim"(%577) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %579 = "stablehlo.divide"(%576, %578) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %580 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %581 = "stablehlo.broadcast_in_dim"(%580) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %582 = "stablehlo.add"(%579, %581) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %583 = "stablehlo.rsqrt"(%582) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %584 = "stablehlo.broadcast_in_dim"(%583) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %585 = "stablehlo.multiply"(%572, %584) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %586 = "stablehlo.slice"(%585) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %587 = "stablehlo.slice"(%585) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %588 = "stablehlo.concatenate"(%586, %587) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %589 = "stablehlo.convert"(%588) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %590 = "stablehlo.convert"(%589) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %591 = "stablehlo.dot_general"(%590, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %592 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %593 = "stablehlo.broadcast_in_dim"(%592) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %594 = "stablehlo.add"(%591, %593) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %595 = "stablehlo.tanh"(%594) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %596 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %597 = "stablehlo.reduce"(%595, %596) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg77: tensor<f32>, %arg78: tensor<f32>):
      %1160 = "stablehlo.maximum"(%arg77, %arg78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1160) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %598 = "stablehlo.broadcast_in_dim"(%597) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %599 = "stablehlo.broadcast_in_dim"(%598) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %600 = "stablehlo.subtract"(%595, %599) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %601 = "stablehlo.multiply"(%600, %600) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %602 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %603 = "stablehlo.reduce"(%601, %602) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg75: tensor<f32>, %arg76: tensor<f32>):
      %1159 = "stablehlo.add"(%arg75, %arg76) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1159) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %604 = "stablehlo.broadcast_in_dim"(%603) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %605 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %606 = "stablehlo.broadcast_in_dim"(%605) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %607 = "stablehlo.divide"(%604, %606) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %608 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %609 = "stablehlo.broadcast_in_dim"(%608) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %610 = "stablehlo.add"(%607, %609) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %611 = "stablehlo.rsqrt"(%610) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %612 = "stablehlo.broadcast_in_dim"(%611) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %613 = "stablehlo.multiply"(%600, %612) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %614 = "stablehlo.slice"(%613) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %615 = "stablehlo.slice"(%613) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %616 = "stablehlo.concatenate"(%614, %615) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %617 = "stablehlo.convert"(%616) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %618 = "stablehlo.convert"(%617) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %619 = "stablehlo.dot_general"(%618, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %620 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %621 = "stablehlo.broadcast_in_dim"(%620) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %622 = "stablehlo.add"(%619, %621) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %623 = "func.call"(%622) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %624 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %625 = "stablehlo.reduce"(%623, %624) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg73: tensor<f32>, %arg74: tensor<f32>):
      %1158 = "stablehlo.maximum"(%arg73, %arg74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1158) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %626 = "stablehlo.broadcast_in_dim"(%625) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %627 = "stablehlo.broadcast_in_dim"(%626) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %628 = "stablehlo.subtract"(%623, %627) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %629 = "stablehlo.multiply"(%628, %628) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %630 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %631 = "stablehlo.reduce"(%629, %630) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg71: tensor<f32>, %arg72: tensor<f32>):
      %1157 = "stablehlo.add"(%arg71, %arg72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1157) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %632 = "stablehlo.broadcast_in_dim"(%631) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %633 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %634 = "stablehlo.broadcast_in_dim"(%633) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %635 = "stablehlo.divide"(%632, %634) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %636 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %637 = "stablehlo.broadcast_in_dim"(%636) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %638 = "stablehlo.add"(%635, %637) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %639 = "stablehlo.rsqrt"(%638) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %640 = "stablehlo.broadcast_in_dim"(%639) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %641 = "stablehlo.multiply"(%628, %640) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %642 = "stablehlo.slice"(%641) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %643 = "stablehlo.slice"(%641) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %644 = "stablehlo.concatenate"(%642, %643) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %645 = "stablehlo.convert"(%644) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %646 = "stablehlo.convert"(%645) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %647 = "stablehlo.dot_general"(%646, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %648 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %649 = "stablehlo.broadcast_in_dim"(%648) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %650 = "stablehlo.add"(%647, %649) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %651 = "stablehlo.tanh"(%650) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %652 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %653 = "stablehlo.reduce"(%651, %652) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg69: tensor<f32>, %arg70: tensor<f32>):
      %1156 = "stablehlo.maximum"(%arg69, %arg70) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1156) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %654 = "stablehlo.broadcast_in_dim"(%653) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %655 = "stablehlo.broadcast_in_dim"(%654) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %656 = "stablehlo.subtract"(%651, %655) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %657 = "stablehlo.multiply"(%656, %656) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %658 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %659 = "stablehlo.reduce"(%657, %658) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg67: tensor<f32>, %arg68: tensor<f32>):
      %1155 = "stablehlo.add"(%arg67, %arg68) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1155) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %660 = "stablehlo.broadcast_in_dim"(%659) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %661 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %662 = "stablehlo.broadcast_in_dim"(%661) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %663 = "stablehlo.divide"(%660, %662) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %664 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %665 = "stablehlo.broadcast_in_dim"(%664) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %666 = "stablehlo.add"(%663, %665) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %667 = "stablehlo.rsqrt"(%666) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %668 = "stablehlo.broadcast_in_dim"(%667) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %669 = "stablehlo.multiply"(%656, %668) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %670 = "stablehlo.slice"(%669) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %671 = "stablehlo.slice"(%669) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %672 = "stablehlo.concatenate"(%670, %671) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %673 = "stablehlo.convert"(%672) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %674 = "stablehlo.convert"(%673) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %675 = "stablehlo.dot_general"(%674, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %676 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %677 = "stablehlo.broadcast_in_dim"(%676) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %678 = "stablehlo.add"(%675, %677) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %679 = "func.call"(%678) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %680 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %681 = "stablehlo.reduce"(%679, %680) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg65: tensor<f32>, %arg66: tensor<f32>):
      %1154 = "stablehlo.maximum"(%arg65, %arg66) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1154) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %682 = "stablehlo.broadcast_in_dim"(%681) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %683 = "stablehlo.broadcast_in_dim"(%682) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %684 = "stablehlo.subtract"(%679, %683) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %685 = "stablehlo.multiply"(%684, %684) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %686 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %687 = "stablehlo.reduce"(%685, %686) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg63: tensor<f32>, %arg64: tensor<f32>):
      %1153 = "stablehlo.add"(%arg63, %arg64) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1153) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %688 = "stablehlo.broadcast_in_dim"(%687) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %689 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %690 = "stablehlo.broadcast_in_dim"(%689) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %691 = "stablehlo.divide"(%688, %690) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %692 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %693 = "stablehlo.broadcast_in_dim"(%692) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %694 = "stablehlo.add"(%691, %693) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %695 = "stablehlo.rsqrt"(%694) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %696 = "stablehlo.broadcast_in_dim"(%695) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %697 = "stablehlo.multiply"(%684, %696) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %698 = "stablehlo.slice"(%697) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %699 = "stablehlo.slice"(%697) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %700 = "stablehlo.concatenate"(%698, %699) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %701 = "stablehlo.convert"(%700) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %702 = "stablehlo.convert"(%701) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %703 = "stablehlo.dot_general"(%702, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %704 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %705 = "stablehlo.broadcast_in_dim"(%704) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %706 = "stablehlo.add"(%703, %705) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %707 = "stablehlo.tanh"(%706) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %708 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %709 = "stablehlo.reduce"(%707, %708) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg61: tensor<f32>, %arg62: tensor<f32>):
      %1152 = "stablehlo.maximum"(%arg61, %arg62) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1152) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %710 = "stablehlo.broadcast_in_dim"(%709) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %711 = "stablehlo.broadcast_in_dim"(%710) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %712 = "stablehlo.subtract"(%707, %711) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %713 = "stablehlo.multiply"(%712, %712) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %714 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %715 = "stablehlo.reduce"(%713, %714) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg59: tensor<f32>, %arg60: tensor<f32>):
      %1151 = "stablehlo.add"(%arg59, %arg60) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1151) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %716 = "stablehlo.broadcast_in_dim"(%715) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %717 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %718 = "stablehlo.broadcast_in_dim"(%717) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %719 = "stablehlo.divide"(%716, %718) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %720 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %721 = "stablehlo.broadcast_in_dim"(%720) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %722 = "stablehlo.add"(%719, %721) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %723 = "stablehlo.rsqrt"(%722) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %724 = "stablehlo.broadcast_in_dim"(%723) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %725 = "stablehlo.multiply"(%712, %724) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %726 = "stablehlo.slice"(%725) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %727 = "stablehlo.slice"(%725) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %728 = "stablehlo.concatenate"(%726, %727) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %729 = "stablehlo.convert"(%728) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %730 = "stablehlo.convert"(%729) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %731 = "stablehlo.dot_general"(%730, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %732 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %733 = "stablehlo.broadcast_in_dim"(%732) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %734 = "stablehlo.add"(%731, %733) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %735 = "func.call"(%734) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %736 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %737 = "stablehlo.reduce"(%735, %736) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg57: tensor<f32>, %arg58: tensor<f32>):
      %1150 = "stablehlo.maximum"(%arg57, %arg58) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1150) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %738 = "stablehlo.broadcast_in_dim"(%737) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %739 = "stablehlo.broadcast_in_dim"(%738) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %740 = "stablehlo.subtract"(%735, %739) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %741 = "stablehlo.multiply"(%740, %740) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %742 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %743 = "stablehlo.reduce"(%741, %742) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg55: tensor<f32>, %arg56: tensor<f32>):
      %1149 = "stablehlo.add"(%arg55, %arg56) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1149) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %744 = "stablehlo.broadcast_in_dim"(%743) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %745 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %746 = "stablehlo.broadcast_in_dim"(%745) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %747 = "stablehlo.divide"(%744, %746) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %748 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %749 = "stablehlo.broadcast_in_dim"(%748) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %750 = "stablehlo.add"(%747, %749) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %751 = "stablehlo.rsqrt"(%750) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %752 = "stablehlo.broadcast_in_dim"(%751) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %753 = "stablehlo.multiply"(%740, %752) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %754 = "stablehlo.slice"(%753) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %755 = "stablehlo.slice"(%753) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %756 = "stablehlo.concatenate"(%754, %755) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %757 = "stablehlo.convert"(%756) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %758 = "stablehlo.convert"(%757) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %759 = "stablehlo.dot_general"(%758, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %760 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %761 = "stablehlo.broadcast_in_dim"(%760) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %762 = "stablehlo.add"(%759, %761) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %763 = "stablehlo.tanh"(%762) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %764 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %765 = "stablehlo.reduce"(%763, %764) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg53: tensor<f32>, %arg54: tensor<f32>):
      %1148 = "stablehlo.maximum"(%arg53, %arg54) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1148) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %766 = "stablehlo.broadcast_in_dim"(%765) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %767 = "stablehlo.broadcast_in_dim"(%766) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %768 = "stablehlo.subtract"(%763, %767) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %769 = "stablehlo.multiply"(%768, %768) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %770 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %771 = "stablehlo.reduce"(%769, %770) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg51: tensor<f32>, %arg52: tensor<f32>):
      %1147 = "stablehlo.add"(%arg51, %arg52) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1147) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %772 = "stablehlo.broadcast_in_dim"(%771) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %773 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %774 = "stablehlo.broadcast_in_dim"(%773) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %775 = "stablehlo.divide"(%772, %774) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %776 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %777 = "stablehlo.broadcast_in_dim"(%776) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %778 = "stablehlo.add"(%775, %777) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %779 = "stablehlo.rsqrt"(%778) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %780 = "stablehlo.broadcast_in_dim"(%779) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %781 = "stablehlo.multiply"(%768, %780) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %782 = "stablehlo.slice"(%781) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %783 = "stablehlo.slice"(%781) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %784 = "stablehlo.concatenate"(%782, %783) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %785 = "stablehlo.convert"(%784) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %786 = "stablehlo.convert"(%785) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %787 = "stablehlo.dot_general"(%786, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %788 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %789 = "stablehlo.broadcast_in_dim"(%788) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %790 = "stablehlo.add"(%787, %789) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %791 = "func.call"(%790) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %792 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %793 = "stablehlo.reduce"(%791, %792) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg49: tensor<f32>, %arg50: tensor<f32>):
      %1146 = "stablehlo.maximum"(%arg49, %arg50) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1146) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %794 = "stablehlo.broadcast_in_dim"(%793) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %795 = "stablehlo.broadcast_in_dim"(%794) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %796 = "stablehlo.subtract"(%791, %795) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %797 = "stablehlo.multiply"(%796, %796) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %798 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %799 = "stablehlo.reduce"(%797, %798) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg47: tensor<f32>, %arg48: tensor<f32>):
      %1145 = "stablehlo.add"(%arg47, %arg48) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1145) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %800 = "stablehlo.broadcast_in_dim"(%799) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %801 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %802 = "stablehlo.broadcast_in_dim"(%801) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %803 = "stablehlo.divide"(%800, %802) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %804 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %805 = "stablehlo.broadcast_in_dim"(%804) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %806 = "stablehlo.add"(%803, %805) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %807 = "stablehlo.rsqrt"(%806) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %808 = "stablehlo.broadcast_in_dim"(%807) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %809 = "stablehlo.multiply"(%796, %808) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %810 = "stablehlo.slice"(%809) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %811 = "stablehlo.slice"(%809) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %812 = "stablehlo.concatenate"(%810, %811) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %813 = "stablehlo.convert"(%812) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %814 = "stablehlo.convert"(%813) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %815 = "stablehlo.dot_general"(%814, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %816 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %817 = "stablehlo.broadcast_in_dim"(%816) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %818 = "stablehlo.add"(%815, %817) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %819 = "stablehlo.tanh"(%818) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %820 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %821 = "stablehlo.reduce"(%819, %820) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg45: tensor<f32>, %arg46: tensor<f32>):
      %1144 = "stablehlo.maximum"(%arg45, %arg46) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1144) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %822 = "stablehlo.broadcast_in_dim"(%821) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %823 = "stablehlo.broadcast_in_dim"(%822) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %824 = "stablehlo.subtract"(%819, %823) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %825 = "stablehlo.multiply"(%824, %824) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %826 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %827 = "stablehlo.reduce"(%825, %826) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg43: tensor<f32>, %arg44: tensor<f32>):
      %1143 = "stablehlo.add"(%arg43, %arg44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1143) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %828 = "stablehlo.broadcast_in_dim"(%827) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %829 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %830 = "stablehlo.broadcast_in_dim"(%829) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %831 = "stablehlo.divide"(%828, %830) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %832 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %833 = "stablehlo.broadcast_in_dim"(%832) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %834 = "stablehlo.add"(%831, %833) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %835 = "stablehlo.rsqrt"(%834) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %836 = "stablehlo.broadcast_in_dim"(%835) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %837 = "stablehlo.multiply"(%824, %836) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %838 = "stablehlo.slice"(%837) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %839 = "stablehlo.slice"(%837) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %840 = "stablehlo.concatenate"(%838, %839) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %841 = "stablehlo.convert"(%840) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %842 = "stablehlo.convert"(%841) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %843 = "stablehlo.dot_general"(%842, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %844 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %845 = "stablehlo.broadcast_in_dim"(%844) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %846 = "stablehlo.add"(%843, %845) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %847 = "func.call"(%846) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %848 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %849 = "stablehlo.reduce"(%847, %848) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg41: tensor<f32>, %arg42: tensor<f32>):
      %1142 = "stablehlo.maximum"(%arg41, %arg42) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1142) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %850 = "stablehlo.broadcast_in_dim"(%849) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %851 = "stablehlo.broadcast_in_dim"(%850) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %852 = "stablehlo.subtract"(%847, %851) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %853 = "stablehlo.multiply"(%852, %852) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %854 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %855 = "stablehlo.reduce"(%853, %854) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %1141 = "stablehlo.add"(%arg39, %arg40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1141) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %856 = "stablehlo.broadcast_in_dim"(%855) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %857 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %858 = "stablehlo.broadcast_in_dim"(%857) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %859 = "stablehlo.divide"(%856, %858) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %860 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %861 = "stablehlo.broadcast_in_dim"(%860) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %862 = "stablehlo.add"(%859, %861) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %863 = "stablehlo.rsqrt"(%862) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %864 = "stablehlo.broadcast_in_dim"(%863) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %865 = "stablehlo.multiply"(%852, %864) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %866 = "stablehlo.slice"(%865) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %867 = "stablehlo.slice"(%865) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %868 = "stablehlo.concatenate"(%866, %867) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %869 = "stablehlo.convert"(%868) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %870 = "stablehlo.convert"(%869) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %871 = "stablehlo.dot_general"(%870, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %872 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %873 = "stablehlo.broadcast_in_dim"(%872) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %874 = "stablehlo.add"(%871, %873) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %875 = "stablehlo.tanh"(%874) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %876 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %877 = "stablehlo.reduce"(%875, %876) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg37: tensor<f32>, %arg38: tensor<f32>):
      %1140 = "stablehlo.maximum"(%arg37, %arg38) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1140) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %878 = "stablehlo.broadcast_in_dim"(%877) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %879 = "stablehlo.broadcast_in_dim"(%878) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %880 = "stablehlo.subtract"(%875, %879) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %881 = "stablehlo.multiply"(%880, %880) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %882 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %883 = "stablehlo.reduce"(%881, %882) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg35: tensor<f32>, %arg36: tensor<f32>):
      %1139 = "stablehlo.add"(%arg35, %arg36) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1139) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %884 = "stablehlo.broadcast_in_dim"(%883) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %885 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %886 = "stablehlo.broadcast_in_dim"(%885) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %887 = "stablehlo.divide"(%884, %886) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %888 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %889 = "stablehlo.broadcast_in_dim"(%888) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %890 = "stablehlo.add"(%887, %889) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %891 = "stablehlo.rsqrt"(%890) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %892 = "stablehlo.broadcast_in_dim"(%891) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %893 = "stablehlo.multiply"(%880, %892) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %894 = "stablehlo.slice"(%893) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %895 = "stablehlo.slice"(%893) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %896 = "stablehlo.concatenate"(%894, %895) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %897 = "stablehlo.convert"(%896) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %898 = "stablehlo.convert"(%897) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %899 = "stablehlo.dot_general"(%898, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %900 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %901 = "stablehlo.broadcast_in_dim"(%900) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %902 = "stablehlo.add"(%899, %901) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %903 = "func.call"(%902) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %904 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %905 = "stablehlo.reduce"(%903, %904) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %1138 = "stablehlo.maximum"(%arg33, %arg34) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1138) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %906 = "stablehlo.broadcast_in_dim"(%905) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %907 = "stablehlo.broadcast_in_dim"(%906) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %908 = "stablehlo.subtract"(%903, %907) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %909 = "stablehlo.multiply"(%908, %908) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %910 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %911 = "stablehlo.reduce"(%909, %910) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg31: tensor<f32>, %arg32: tensor<f32>):
      %1137 = "stablehlo.add"(%arg31, %arg32) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1137) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %912 = "stablehlo.broadcast_in_dim"(%911) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %913 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %914 = "stablehlo.broadcast_in_dim"(%913) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %915 = "stablehlo.divide"(%912, %914) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %916 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %917 = "stablehlo.broadcast_in_dim"(%916) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %918 = "stablehlo.add"(%915, %917) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %919 = "stablehlo.rsqrt"(%918) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %920 = "stablehlo.broadcast_in_dim"(%919) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %921 = "stablehlo.multiply"(%908, %920) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %922 = "stablehlo.slice"(%921) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %923 = "stablehlo.slice"(%921) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %924 = "stablehlo.concatenate"(%922, %923) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %925 = "stablehlo.convert"(%924) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %926 = "stablehlo.convert"(%925) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %927 = "stablehlo.dot_general"(%926, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %928 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %929 = "stablehlo.broadcast_in_dim"(%928) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %930 = "stablehlo.add"(%927, %929) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %931 = "stablehlo.tanh"(%930) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %932 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %933 = "stablehlo.reduce"(%931, %932) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg29: tensor<f32>, %arg30: tensor<f32>):
      %1136 = "stablehlo.maximum"(%arg29, %arg30) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1136) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %934 = "stablehlo.broadcast_in_dim"(%933) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %935 = "stablehlo.broadcast_in_dim"(%934) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %936 = "stablehlo.subtract"(%931, %935) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %937 = "stablehlo.multiply"(%936, %936) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %938 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %939 = "stablehlo.reduce"(%937, %938) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg27: tensor<f32>, %arg28: tensor<f32>):
      %1135 = "stablehlo.add"(%arg27, %arg28) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1135) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %940 = "stablehlo.broadcast_in_dim"(%939) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %941 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %942 = "stablehlo.broadcast_in_dim"(%941) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %943 = "stablehlo.divide"(%940, %942) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %944 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %945 = "stablehlo.broadcast_in_dim"(%944) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %946 = "stablehlo.add"(%943, %945) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %947 = "stablehlo.rsqrt"(%946) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %948 = "stablehlo.broadcast_in_dim"(%947) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %949 = "stablehlo.multiply"(%936, %948) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %950 = "stablehlo.slice"(%949) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %951 = "stablehlo.slice"(%949) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %952 = "stablehlo.concatenate"(%950, %951) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %953 = "stablehlo.convert"(%952) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %954 = "stablehlo.convert"(%953) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %955 = "stablehlo.dot_general"(%954, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %956 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %957 = "stablehlo.broadcast_in_dim"(%956) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %958 = "stablehlo.add"(%955, %957) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %959 = "func.call"(%958) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %960 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %961 = "stablehlo.reduce"(%959, %960) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg25: tensor<f32>, %arg26: tensor<f32>):
      %1134 = "stablehlo.maximum"(%arg25, %arg26) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1134) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %962 = "stablehlo.broadcast_in_dim"(%961) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %963 = "stablehlo.broadcast_in_dim"(%962) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %964 = "stablehlo.subtract"(%959, %963) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %965 = "stablehlo.multiply"(%964, %964) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %966 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %967 = "stablehlo.reduce"(%965, %966) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %1133 = "stablehlo.add"(%arg23, %arg24) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1133) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %968 = "stablehlo.broadcast_in_dim"(%967) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %969 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %970 = "stablehlo.broadcast_in_dim"(%969) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %971 = "stablehlo.divide"(%968, %970) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %972 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %973 = "stablehlo.broadcast_in_dim"(%972) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %974 = "stablehlo.add"(%971, %973) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %975 = "stablehlo.rsqrt"(%974) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %976 = "stablehlo.broadcast_in_dim"(%975) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %977 = "stablehlo.multiply"(%964, %976) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %978 = "stablehlo.slice"(%977) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %979 = "stablehlo.slice"(%977) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %980 = "stablehlo.concatenate"(%978, %979) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %981 = "stablehlo.convert"(%980) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %982 = "stablehlo.convert"(%981) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %983 = "stablehlo.dot_general"(%982, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %984 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %985 = "stablehlo.broadcast_in_dim"(%984) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %986 = "stablehlo.add"(%983, %985) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %987 = "stablehlo.tanh"(%986) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %988 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %989 = "stablehlo.reduce"(%987, %988) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg21: tensor<f32>, %arg22: tensor<f32>):
      %1132 = "stablehlo.maximum"(%arg21, %arg22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1132) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %990 = "stablehlo.broadcast_in_dim"(%989) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %991 = "stablehlo.broadcast_in_dim"(%990) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %992 = "stablehlo.subtract"(%987, %991) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %993 = "stablehlo.multiply"(%992, %992) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %994 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %995 = "stablehlo.reduce"(%993, %994) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg19: tensor<f32>, %arg20: tensor<f32>):
      %1131 = "stablehlo.add"(%arg19, %arg20) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1131) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %996 = "stablehlo.broadcast_in_dim"(%995) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %997 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %998 = "stablehlo.broadcast_in_dim"(%997) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %999 = "stablehlo.divide"(%996, %998) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1000 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %1001 = "stablehlo.broadcast_in_dim"(%1000) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1002 = "stablehlo.add"(%999, %1001) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1003 = "stablehlo.rsqrt"(%1002) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %1004 = "stablehlo.broadcast_in_dim"(%1003) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1005 = "stablehlo.multiply"(%992, %1004) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1006 = "stablehlo.slice"(%1005) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %1007 = "stablehlo.slice"(%1005) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %1008 = "stablehlo.concatenate"(%1006, %1007) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %1009 = "stablehlo.convert"(%1008) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %1010 = "stablehlo.convert"(%1009) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %1011 = "stablehlo.dot_general"(%1010, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %1012 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %1013 = "stablehlo.broadcast_in_dim"(%1012) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %1014 = "stablehlo.add"(%1011, %1013) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1015 = "func.call"(%1014) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %1016 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1017 = "stablehlo.reduce"(%1015, %1016) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %1130 = "stablehlo.maximum"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1130) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1018 = "stablehlo.broadcast_in_dim"(%1017) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1019 = "stablehlo.broadcast_in_dim"(%1018) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1020 = "stablehlo.subtract"(%1015, %1019) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1021 = "stablehlo.multiply"(%1020, %1020) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1022 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1023 = "stablehlo.reduce"(%1021, %1022) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %1129 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1129) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1024 = "stablehlo.broadcast_in_dim"(%1023) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1025 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %1026 = "stablehlo.broadcast_in_dim"(%1025) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1027 = "stablehlo.divide"(%1024, %1026) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1028 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %1029 = "stablehlo.broadcast_in_dim"(%1028) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1030 = "stablehlo.add"(%1027, %1029) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1031 = "stablehlo.rsqrt"(%1030) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %1032 = "stablehlo.broadcast_in_dim"(%1031) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1033 = "stablehlo.multiply"(%1020, %1032) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1034 = "stablehlo.slice"(%1033) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %1035 = "stablehlo.slice"(%1033) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %1036 = "stablehlo.concatenate"(%1034, %1035) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %1037 = "stablehlo.convert"(%1036) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %1038 = "stablehlo.convert"(%1037) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %1039 = "stablehlo.dot_general"(%1038, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %1040 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1041 = "stablehlo.broadcast_in_dim"(%1040) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %1042 = "stablehlo.add"(%1039, %1041) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1043 = "stablehlo.tanh"(%1042) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %1044 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1045 = "stablehlo.reduce"(%1043, %1044) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %1128 = "stablehlo.maximum"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1128) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1046 = "stablehlo.broadcast_in_dim"(%1045) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1047 = "stablehlo.broadcast_in_dim"(%1046) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1048 = "stablehlo.subtract"(%1043, %1047) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1049 = "stablehlo.multiply"(%1048, %1048) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1050 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1051 = "stablehlo.reduce"(%1049, %1050) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %1127 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1127) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1052 = "stablehlo.broadcast_in_dim"(%1051) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1053 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %1054 = "stablehlo.broadcast_in_dim"(%1053) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1055 = "stablehlo.divide"(%1052, %1054) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1056 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %1057 = "stablehlo.broadcast_in_dim"(%1056) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1058 = "stablehlo.add"(%1055, %1057) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1059 = "stablehlo.rsqrt"(%1058) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %1060 = "stablehlo.broadcast_in_dim"(%1059) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1061 = "stablehlo.multiply"(%1048, %1060) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1062 = "stablehlo.slice"(%1061) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %1063 = "stablehlo.slice"(%1061) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %1064 = "stablehlo.concatenate"(%1062, %1063) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %1065 = "stablehlo.convert"(%1064) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %1066 = "stablehlo.convert"(%1065) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %1067 = "stablehlo.dot_general"(%1066, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %1068 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1069 = "stablehlo.broadcast_in_dim"(%1068) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %1070 = "stablehlo.add"(%1067, %1069) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1071 = "func.call"(%1070) <{callee = @relu}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %1072 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1073 = "stablehlo.reduce"(%1071, %1072) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %1126 = "stablehlo.maximum"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1126) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1074 = "stablehlo.broadcast_in_dim"(%1073) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1075 = "stablehlo.broadcast_in_dim"(%1074) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1076 = "stablehlo.subtract"(%1071, %1075) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1077 = "stablehlo.multiply"(%1076, %1076) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1078 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1079 = "stablehlo.reduce"(%1077, %1078) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %1125 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1125) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1080 = "stablehlo.broadcast_in_dim"(%1079) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1081 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %1082 = "stablehlo.broadcast_in_dim"(%1081) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1083 = "stablehlo.divide"(%1080, %1082) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1084 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %1085 = "stablehlo.broadcast_in_dim"(%1084) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1086 = "stablehlo.add"(%1083, %1085) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1087 = "stablehlo.rsqrt"(%1086) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %1088 = "stablehlo.broadcast_in_dim"(%1087) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1089 = "stablehlo.multiply"(%1076, %1088) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1090 = "stablehlo.slice"(%1089) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %1091 = "stablehlo.slice"(%1089) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %1092 = "stablehlo.concatenate"(%1090, %1091) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %1093 = "stablehlo.convert"(%1092) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %1094 = "stablehlo.convert"(%1093) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    %1095 = "stablehlo.dot_general"(%1094, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
    %1096 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1097 = "stablehlo.broadcast_in_dim"(%1096) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %1098 = "stablehlo.add"(%1095, %1097) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1099 = "stablehlo.tanh"(%1098) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %1100 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1101 = "stablehlo.reduce"(%1099, %1100) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %1124 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1124) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1102 = "stablehlo.broadcast_in_dim"(%1101) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1103 = "stablehlo.broadcast_in_dim"(%1102) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1104 = "stablehlo.subtract"(%1099, %1103) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1105 = "stablehlo.multiply"(%1104, %1104) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1106 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1107 = "stablehlo.reduce"(%1105, %1106) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1123 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%1123) : (tensor<f32>) -> ()
    }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
    %1108 = "stablehlo.broadcast_in_dim"(%1107) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %1109 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %1110 = "stablehlo.broadcast_in_dim"(%1109) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1111 = "stablehlo.divide"(%1108, %1110) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1112 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %1113 = "stablehlo.broadcast_in_dim"(%1112) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %1114 = "stablehlo.add"(%1111, %1113) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %1115 = "stablehlo.rsqrt"(%1114) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %1116 = "stablehlo.broadcast_in_dim"(%1115) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x128xf32>
    %1117 = "stablehlo.multiply"(%1104, %1116) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1118 = "stablehlo.slice"(%1117) <{limit_indices = array<i64: 8, 128>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x127xf32>
    %1119 = "stablehlo.slice"(%1117) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x128xf32>) -> tensor<8x1xf32>
    %1120 = "stablehlo.concatenate"(%1118, %1119) <{dimension = 1 : i64}> : (tensor<8x127xf32>, tensor<8x1xf32>) -> tensor<8x128xf32>
    %1121 = "stablehlo.convert"(%1120) : (tensor<8x128xf32>) -> tensor<8x128xbf16>
    %1122 = "stablehlo.convert"(%1121) : (tensor<8x128xbf16>) -> tensor<8x128xf32>
    "func.return"(%1122) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x128xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%2) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
