"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<16xf32>) -> tensor<16xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<16xf32>):
    %2 = "func.call"(%arg1) <{callee = @fft}> : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %3 = "stablehlo.real"(%2) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %4 = "stablehlo.imag"(%2) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %5 = "stablehlo.abs"(%3) : (tensor<16xf32>) -> tensor<16xf32>
    %6 = "stablehlo.abs"(%4) : (tensor<16xf32>) -> tensor<16xf32>
    %7 = "stablehlo.maximum"(%5, %6) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %8 = "stablehlo.constant"() <{value = dense<9.22337203E+18> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %10 = "stablehlo.compare"(%7, %9) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %11 = "stablehlo.constant"() <{value = dense<2.44140625E-4> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %13 = "stablehlo.compare"(%7, %12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %14 = "stablehlo.constant"() <{value = dense<2.64697796E-23> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %16 = "stablehlo.constant"() <{value = dense<3.77789319E+22> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %18 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %20 = "stablehlo.multiply"(%3, %15) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %21 = "stablehlo.multiply"(%3, %17) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %22 = "stablehlo.select"(%13, %21, %3) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %23 = "stablehlo.select"(%10, %20, %22) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %24 = "stablehlo.multiply"(%4, %15) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %25 = "stablehlo.multiply"(%4, %17) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %26 = "stablehlo.select"(%13, %25, %4) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %27 = "stablehlo.select"(%10, %24, %26) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %28 = "stablehlo.select"(%13, %15, %19) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %29 = "stablehlo.select"(%10, %17, %28) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %30 = "chlo.square"(%23) : (tensor<16xf32>) -> tensor<16xf32>
    %31 = "chlo.square"(%27) : (tensor<16xf32>) -> tensor<16xf32>
    %32 = "stablehlo.add"(%30, %31) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %33 = "stablehlo.sqrt"(%32) : (tensor<16xf32>) -> tensor<16xf32>
    %34 = "stablehlo.multiply"(%33, %29) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %35 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %37 = "stablehlo.compare"(%5, %36) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %38 = "stablehlo.compare"(%6, %36) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %39 = "stablehlo.or"(%37, %38) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %40 = "stablehlo.select"(%39, %36, %34) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %41 = "stablehlo.divide"(%23, %33) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %42 = "stablehlo.divide"(%27, %33) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%40) : (tensor<16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xf32>) -> tensor<16xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %1 = "stablehlo.fft"(%0) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    "func.return"(%1) : (tensor<16xcomplex<f32>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
