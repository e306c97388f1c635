module @jit_moe attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x128xf32>, %arg1: tensor<128x8xf32>, %arg2: tensor<8x128x128xf32>) -> (tensor<16x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x8xf32>) -> tensor<16x8xf32>
    %values, %indices = chlo.top_k(%0, k = 2) : tensor<16x8xf32> -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%values init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %6 = stablehlo.subtract %values, %5 : tensor<16x2xf32>
    %7 = stablehlo.exponential %6 : tensor<16x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %11 = stablehlo.divide %7, %10 : tensor<16x2xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %13 = stablehlo.slice %indices [0:16, 0:1] : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %14 = stablehlo.reshape %13 : (tensor<16x1xi32>) -> tensor<16xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %16 = stablehlo.compare LT, %14, %15, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %c_3 = stablehlo.constant dense<8> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %18 = stablehlo.add %14, %17 : tensor<16xi32>
    %19 = stablehlo.select %16, %18, %14 : tensor<16xi1>, tensor<16xi32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %21 = "stablehlo.gather"(%arg2, %20) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128, 128>}> : (tensor<8x128x128xf32>, tensor<16x1xi32>) -> tensor<16x128x128xf32>
    %22 = stablehlo.slice %11 [0:16, 0:1] : (tensor<16x2xf32>) -> tensor<16x1xf32>
    %23 = stablehlo.dot_general %arg0, %21, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<16x128x128xf32>) -> tensor<16x128xf32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x128xf32>
    %25 = stablehlo.multiply %24, %23 : tensor<16x128xf32>
    %26 = stablehlo.add %12, %25 : tensor<16x128xf32>
    %27 = stablehlo.slice %indices [0:16, 1:2] : (tensor<16x2xi32>) -> tensor<16x1xi32>
    %28 = stablehlo.reshape %27 : (tensor<16x1xi32>) -> tensor<16xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %30 = stablehlo.compare LT, %28, %29, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %c_5 = stablehlo.constant dense<8> : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %32 = stablehlo.add %28, %31 : tensor<16xi32>
    %33 = stablehlo.select %30, %32, %28 : tensor<16xi1>, tensor<16xi32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %35 = "stablehlo.gather"(%arg2, %34) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128, 128>}> : (tensor<8x128x128xf32>, tensor<16x1xi32>) -> tensor<16x128x128xf32>
    %36 = stablehlo.slice %11 [0:16, 1:2] : (tensor<16x2xf32>) -> tensor<16x1xf32>
    %37 = stablehlo.dot_general %arg0, %35, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<16x128x128xf32>) -> tensor<16x128xf32>
    %38 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x128xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<16x128xf32>
    %40 = stablehlo.add %26, %39 : tensor<16x128xf32>
    return %40 : tensor<16x128xf32>
  }
}
