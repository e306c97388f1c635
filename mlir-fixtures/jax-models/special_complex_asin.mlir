module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>) -> (tensor<8x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<8x128xcomplex<f32>>
    %1 = chlo.asin %0 : tensor<8x128xcomplex<f32>> -> tensor<8x128xcomplex<f32>>
    %2 = stablehlo.real %1 : (tensor<8x128xcomplex<f32>>) -> tensor<8x128xf32>
    %3 = stablehlo.imag %1 : (tensor<8x128xcomplex<f32>>) -> tensor<8x128xf32>
    %4 = stablehlo.abs %2 : tensor<8x128xf32>
    %5 = stablehlo.abs %3 : tensor<8x128xf32>
    %6 = stablehlo.maximum %4, %5 : tensor<8x128xf32>
    %cst = stablehlo.constant dense<9.22337203E+18> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %8 = stablehlo.compare GE, %6, %7, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %cst_0 = stablehlo.constant dense<2.44140625E-4> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %10 = stablehlo.compare LE, %6, %9, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %cst_1 = stablehlo.constant dense<2.64697796E-23> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %cst_2 = stablehlo.constant dense<3.77789319E+22> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %14 = stablehlo.multiply %2, %11 : tensor<8x128xf32>
    %15 = stablehlo.multiply %2, %12 : tensor<8x128xf32>
    %16 = stablehlo.select %10, %15, %2 : tensor<8x128xi1>, tensor<8x128xf32>
    %17 = stablehlo.select %8, %14, %16 : tensor<8x128xi1>, tensor<8x128xf32>
    %18 = stablehlo.multiply %3, %11 : tensor<8x128xf32>
    %19 = stablehlo.multiply %3, %12 : tensor<8x128xf32>
    %20 = stablehlo.select %10, %19, %3 : tensor<8x128xi1>, tensor<8x128xf32>
    %21 = stablehlo.select %8, %18, %20 : tensor<8x128xi1>, tensor<8x128xf32>
    %22 = stablehlo.select %10, %11, %13 : tensor<8x128xi1>, tensor<8x128xf32>
    %23 = stablehlo.select %8, %12, %22 : tensor<8x128xi1>, tensor<8x128xf32>
    %24 = chlo.square %17 : tensor<8x128xf32> -> tensor<8x128xf32>
    %25 = chlo.square %21 : tensor<8x128xf32> -> tensor<8x128xf32>
    %26 = stablehlo.add %24, %25 : tensor<8x128xf32>
    %27 = stablehlo.sqrt %26 : tensor<8x128xf32>
    %28 = stablehlo.multiply %27, %23 : tensor<8x128xf32>
    %cst_4 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %30 = stablehlo.compare EQ, %4, %29, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %31 = stablehlo.compare EQ, %5, %29, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %32 = stablehlo.or %30, %31 : tensor<8x128xi1>
    %33 = stablehlo.select %32, %29, %28 : tensor<8x128xi1>, tensor<8x128xf32>
    %34 = stablehlo.divide %17, %27 : tensor<8x128xf32>
    %35 = stablehlo.divide %21, %27 : tensor<8x128xf32>
    return %33 : tensor<8x128xf32>
  }
}
