module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xf32> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %2 = stablehlo.imag %0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %3 = stablehlo.abs %1 : tensor<16xf32>
    %4 = stablehlo.abs %2 : tensor<16xf32>
    %5 = stablehlo.maximum %3, %4 : tensor<16xf32>
    %cst = stablehlo.constant dense<9.22337203E+18> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %7 = stablehlo.compare GE, %5, %6, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %cst_0 = stablehlo.constant dense<2.44140625E-4> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.compare LE, %5, %8, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %cst_1 = stablehlo.constant dense<2.64697796E-23> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_2 = stablehlo.constant dense<3.77789319E+22> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %13 = stablehlo.multiply %1, %10 : tensor<16xf32>
    %14 = stablehlo.multiply %1, %11 : tensor<16xf32>
    %15 = stablehlo.select %9, %14, %1 : tensor<16xi1>, tensor<16xf32>
    %16 = stablehlo.select %7, %13, %15 : tensor<16xi1>, tensor<16xf32>
    %17 = stablehlo.multiply %2, %10 : tensor<16xf32>
    %18 = stablehlo.multiply %2, %11 : tensor<16xf32>
    %19 = stablehlo.select %9, %18, %2 : tensor<16xi1>, tensor<16xf32>
    %20 = stablehlo.select %7, %17, %19 : tensor<16xi1>, tensor<16xf32>
    %21 = stablehlo.select %9, %10, %12 : tensor<16xi1>, tensor<16xf32>
    %22 = stablehlo.select %7, %11, %21 : tensor<16xi1>, tensor<16xf32>
    %23 = chlo.square %16 : tensor<16xf32> -> tensor<16xf32>
    %24 = chlo.square %20 : tensor<16xf32> -> tensor<16xf32>
    %25 = stablehlo.add %23, %24 : tensor<16xf32>
    %26 = stablehlo.sqrt %25 : tensor<16xf32>
    %27 = stablehlo.multiply %26, %22 : tensor<16xf32>
    %cst_4 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %29 = stablehlo.compare EQ, %3, %28, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %30 = stablehlo.compare EQ, %4, %28, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %31 = stablehlo.or %29, %30 : tensor<16xi1>
    %32 = stablehlo.select %31, %28, %27 : tensor<16xi1>, tensor<16xf32>
    %33 = stablehlo.divide %16, %26 : tensor<16xf32>
    %34 = stablehlo.divide %20, %26 : tensor<16xf32>
    return %32 : tensor<16xf32>
  }
  func.func private @fft(%arg0: tensor<16xf32>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %1 = stablehlo.fft %0, type = FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %1 : tensor<16xcomplex<f32>>
  }
}
