module @jit_unary_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xcomplex<f32>>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}, tensor<4x8xf32> {jax.result_info = "result[2]"}, tensor<4x8xf32> {jax.result_info = "result[3]"}, tensor<4x8xi32> {jax.result_info = "result[4]"}, tensor<4x8xf32> {jax.result_info = "result[5]"}, tensor<4x8xf32> {jax.result_info = "result[6]"}, tensor<4x8xf32> {jax.result_info = "result[7]"}, tensor<4x8xf32> {jax.result_info = "result[8]"}, tensor<4x8xf32> {jax.result_info = "result[9]"}, tensor<4x8xf32> {jax.result_info = "result[10]"}, tensor<4x8xf32> {jax.result_info = "result[11]"}, tensor<4x8xf32> {jax.result_info = "result[12]"}, tensor<4x8xf32> {jax.result_info = "result[13]"}, tensor<4x8xf32> {jax.result_info = "result[14]"}, tensor<4x8xf32> {jax.result_info = "result[15]"}, tensor<4x8xf32> {jax.result_info = "result[16]"}, tensor<4x8xf32> {jax.result_info = "result[17]"}, tensor<4x8xi32> {jax.result_info = "result[18]"}, tensor<4x8xi32> {jax.result_info = "result[19]"}, tensor<4x8xi1> {jax.result_info = "result[20]"}, tensor<4x8xf32> {jax.result_info = "result[21]"}, tensor<4x8xf32> {jax.result_info = "result[22]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[23]"}, tensor<4x8xf32> {jax.result_info = "result[24]"}, tensor<4x8xf32> {jax.result_info = "result[25]"}, tensor<4x8xi32> {jax.result_info = "result[26]"}, tensor<4x8xi32> {jax.result_info = "result[27]"}, tensor<4x8xi32> {jax.result_info = "result[28]"}, tensor<4x8xf32> {jax.result_info = "result[29]"}, tensor<4x8xf32> {jax.result_info = "result[30]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %1 = stablehlo.abs %arg0 : tensor<4x8xf32>
    %2 = stablehlo.cbrt %arg0 : tensor<4x8xf32>
    %3 = stablehlo.ceil %arg0 : tensor<4x8xf32>
    %4 = stablehlo.floor %arg0 : tensor<4x8xf32>
    %5 = stablehlo.count_leading_zeros %0 : tensor<4x8xi32>
    %6 = stablehlo.cosine %arg0 : tensor<4x8xf32>
    %7 = stablehlo.sine %arg0 : tensor<4x8xf32>
    %8 = stablehlo.tan %arg0 : tensor<4x8xf32>
    %9 = stablehlo.tanh %arg0 : tensor<4x8xf32>
    %10 = stablehlo.exponential %arg0 : tensor<4x8xf32>
    %11 = stablehlo.exponential_minus_one %arg0 : tensor<4x8xf32>
    %12 = stablehlo.log %arg0 : tensor<4x8xf32>
    %13 = stablehlo.log_plus_one %arg0 : tensor<4x8xf32>
    %14 = stablehlo.negate %arg0 : tensor<4x8xf32>
    %15 = stablehlo.exponential %14 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %17 = stablehlo.add %16, %15 : tensor<4x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %19 = stablehlo.divide %18, %17 : tensor<4x8xf32>
    %20 = stablehlo.rsqrt %arg0 : tensor<4x8xf32>
    %21 = stablehlo.sqrt %arg0 : tensor<4x8xf32>
    %22 = stablehlo.round_nearest_afz %arg0 : tensor<4x8xf32>
    %23 = stablehlo.round_nearest_even %arg0 : tensor<4x8xf32>
    %24 = stablehlo.popcnt %0 : tensor<4x8xi32>
    %25 = stablehlo.not %0 : tensor<4x8xi32>
    %26 = stablehlo.is_finite %arg0 : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %27 = stablehlo.real %arg1 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %28 = stablehlo.imag %arg1 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %29 = stablehlo.complex %arg0, %arg0 : tensor<4x8xcomplex<f32>>
    %30 = stablehlo.atan2 %arg0, %arg0 : tensor<4x8xf32>
    %31 = stablehlo.power %arg0, %arg0 : tensor<4x8xf32>
    %32 = stablehlo.shift_left %0, %0 : tensor<4x8xi32>
    %33 = stablehlo.shift_right_arithmetic %0, %0 : tensor<4x8xi32>
    %34 = stablehlo.xor %0, %0 : tensor<4x8xi32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %36 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %37 = stablehlo.clamp %35, %arg0, %36 : tensor<4x8xf32>
    %38 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4x8xf32>
    return %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %37, %38 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
}
