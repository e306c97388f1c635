"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    %0 = "stablehlo.complex"(%arg0, %arg1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xcomplex<f32>>
    %1 = "chlo.asin"(%0) : (tensor<8x128xcomplex<f32>>) -> tensor<8x128xcomplex<f32>>
    %2 = "stablehlo.real"(%1) : (tensor<8x128xcomplex<f32>>) -> tensor<8x128xf32>
    %3 = "stablehlo.imag"(%1) : (tensor<8x128xcomplex<f32>>) -> tensor<8x128xf32>
    %4 = "stablehlo.abs"(%2) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %5 = "stablehlo.abs"(%3) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %6 = "stablehlo.maximum"(%4, %5) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %7 = "stablehlo.constant"() <{value = dense<9.22337203E+18> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %9 = "stablehlo.compare"(%6, %8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %10 = "stablehlo.constant"() <{value = dense<2.44140625E-4> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %12 = "stablehlo.compare"(%6, %11) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %13 = "stablehlo.constant"() <{value = dense<2.64697796E-23> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %15 = "stablehlo.constant"() <{value = dense<3.77789319E+22> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %17 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %19 = "stablehlo.multiply"(%2, %14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %20 = "stablehlo.multiply"(%2, %16) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %21 = "stablehlo.select"(%12, %20, %2) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %22 = "stablehlo.select"(%9, %19, %21) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %23 = "stablehlo.multiply"(%3, %14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %24 = "stablehlo.multiply"(%3, %16) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %25 = "stablehlo.select"(%12, %24, %3) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %26 = "stablehlo.select"(%9, %23, %25) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %27 = "stablehlo.select"(%12, %14, %18) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %28 = "stablehlo.select"(%9, %16, %27) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %29 = "chlo.square"(%22) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %30 = "chlo.square"(%26) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %31 = "stablehlo.add"(%29, %30) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %32 = "stablehlo.sqrt"(%31) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %33 = "stablehlo.multiply"(%32, %28) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %34 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %36 = "stablehlo.compare"(%4, %35) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %37 = "stablehlo.compare"(%5, %35) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %38 = "stablehlo.or"(%36, %37) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %39 = "stablehlo.select"(%38, %35, %33) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %40 = "stablehlo.divide"(%22, %32) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %41 = "stablehlo.divide"(%26, %32) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%39) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
