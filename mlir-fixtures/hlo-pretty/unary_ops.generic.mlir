"builtin.module"() <{sym_name = "jit_unary_ops"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xcomplex<f32>>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}, {jax.result_info = "result[13]"}, {jax.result_info = "result[14]"}, {jax.result_info = "result[15]"}, {jax.result_info = "result[16]"}, {jax.result_info = "result[17]"}, {jax.result_info = "result[18]"}, {jax.result_info = "result[19]"}, {jax.result_info = "result[20]"}, {jax.result_info = "result[21]"}, {jax.result_info = "result[22]"}, {jax.result_info = "result[23]"}, {jax.result_info = "result[24]"}, {jax.result_info = "result[25]"}, {jax.result_info = "result[26]"}, {jax.result_info = "result[27]"}, {jax.result_info = "result[28]"}, {jax.result_info = "result[29]"}, {jax.result_info = "result[30]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xcomplex<f32>>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %1 = "stablehlo.abs"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "stablehlo.cbrt"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "stablehlo.ceil"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = "stablehlo.floor"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = "stablehlo.count_leading_zeros"(%0) : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %6 = "stablehlo.cosine"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = "stablehlo.sine"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %8 = "stablehlo.tan"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = "stablehlo.tanh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = "stablehlo.exponential"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %11 = "stablehlo.exponential_minus_one"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %12 = "stablehlo.log"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = "stablehlo.log_plus_one"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %14 = "stablehlo.negate"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %15 = "stablehlo.exponential"(%14) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %16 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %18 = "stablehlo.add"(%17, %15) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %21 = "stablehlo.divide"(%20, %18) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %22 = "stablehlo.rsqrt"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %23 = "stablehlo.sqrt"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %24 = "stablehlo.round_nearest_afz"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %25 = "stablehlo.round_nearest_even"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %26 = "stablehlo.popcnt"(%0) : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %27 = "stablehlo.not"(%0) : (tensor<4x8xi32>) -> tensor<4x8xi32>
    %28 = "stablehlo.is_finite"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %29 = "stablehlo.real"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %30 = "stablehlo.imag"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %31 = "stablehlo.complex"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
    %32 = "stablehlo.atan2"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %33 = "stablehlo.power"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %34 = "stablehlo.shift_left"(%0, %0) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %35 = "stablehlo.shift_right_arithmetic"(%0, %0) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %36 = "stablehlo.xor"(%0, %0) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %37 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %40 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %41 = "stablehlo.clamp"(%39, %arg0, %40) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %42 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %41, %42) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
