module @jit_shape_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>) -> (tensor<7x15xf32> {jax.result_info = "result[0]"}, tensor<4x8xf32> {jax.result_info = "result[1]"}, tensor<2x4x8xf32> {jax.result_info = "result[2]"}, tensor<4x8xf32> {jax.result_info = "result[3][0]"}, tensor<4x8xf32> {jax.result_info = "result[3][1]"}, tensor<1x1x4x8xf32> {jax.result_info = "result[4]"}, tensor<4x8xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<1x4x4xf32> {jax.result_info = "result[6]"}, tensor<4x8xf32> {jax.result_info = "result[7]"}, tensor<4x8xf32> {jax.result_info = "result[8]"}, tensor<3x7xf32> {jax.result_info = "result[9]"}, tensor<2x8xf32> {jax.result_info = "result[10]"}, tensor<4xf32> {jax.result_info = "result[11]"}, tensor<1x3xf32> {jax.result_info = "result[12]"}) {
    %c = stablehlo.constant dense<[0, 2]> : tensor<2xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [1, 0], high = [2, 0], interior = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<7x15xf32>
    %1 = stablehlo.reverse %arg0, dims = [0] : tensor<4x8xf32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
    %3:2 = stablehlo.optimization_barrier %arg0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x3x3xf32>
    %6 = stablehlo.convolution(%4, %5) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x4x8xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x8xf32>
    %7 = stablehlo.convert %arg0 : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
    %8 = call @fft(%7) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %10 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %11 = stablehlo.dot_general %9, %10, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x4xf32>
    %12 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %36 = stablehlo.compare EQ, %arg1, %cst_10, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %37 = stablehlo.select %36, %cst_11, %arg1 : tensor<i1>, tensor<f32>
      %38 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_12 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %39 = stablehlo.select %38, %cst_12, %37 : tensor<i1>, tensor<f32>
      %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %40 = stablehlo.compare EQ, %arg2, %cst_13, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %41 = stablehlo.select %40, %cst_14, %arg2 : tensor<i1>, tensor<f32>
      %42 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_15 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %43 = stablehlo.select %42, %cst_15, %41 : tensor<i1>, tensor<f32>
      %44 = stablehlo.compare LT, %39, %43, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %44 : tensor<i1>
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = stablehlo.slice %arg0 [0:1, 0:1] : (tensor<4x8xf32>) -> tensor<1x1xf32>
    %14 = stablehlo.reshape %13 : (tensor<1x1xf32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.compare GT, %14, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %16 = stablehlo.convert %15 : (tensor<i1>) -> tensor<i32>
    %17 = "stablehlo.case"(%16) ({
      %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %37 = stablehlo.subtract %arg0, %36 : tensor<4x8xf32>
      stablehlo.return %37 : tensor<4x8xf32>
    }, {
      %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
      %37 = stablehlo.multiply %arg0, %36 : tensor<4x8xf32>
      stablehlo.return %37 : tensor<4x8xf32>
    }) : (tensor<i32>) -> tensor<4x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<f32>
    %19 = "stablehlo.reduce_window"(%arg0, %18) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %36 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %36 : tensor<f32>
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x7xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %21 = stablehlo.compare LT, %c, %20, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_4 = stablehlo.constant dense<4> : tensor<i32>
    %22 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %23 = stablehlo.add %c, %22 : tensor<2xi32>
    %24 = stablehlo.select %21, %23, %c : tensor<2xi1>, tensor<2xi32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %26 = "stablehlo.gather"(%arg0, %25) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<2x1xi32>) -> tensor<2x8xf32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %c_6 = stablehlo.constant dense<32> : tensor<i32>
    %27 = stablehlo.shift_right_logical %c_5, %c_6 : tensor<i32>
    %28 = stablehlo.convert %27 : (tensor<i32>) -> tensor<ui32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %c_7 = stablehlo.constant dense<-1> : tensor<i32>
    %30 = stablehlo.and %c_5, %c_7 : tensor<i32>
    %31 = stablehlo.convert %30 : (tensor<i32>) -> tensor<ui32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [] : (tensor<ui32>) -> tensor<1xui32>
    %33 = stablehlo.concatenate %29, %32, dim = 0 : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = call @_uniform(%33, %cst_8, %cst_9) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    %35 = stablehlo.slice %arg0 [1:3:2, 0:8:3] : (tensor<4x8xf32>) -> tensor<1x3xf32>
    return %0, %1, %2, %3#0, %3#1, %6, %8, %11, %12, %17, %19, %26, %34, %35 : tensor<7x15xf32>, tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x1x4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<1x4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<3x7xf32>, tensor<2x8xf32>, tensor<4xf32>, tensor<1x3xf32>
  }
  func.func private @fft(%arg0: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    return %0 : tensor<4x8xcomplex<f32>>
  }
  func.func private @_uniform(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %4 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.iota dim = 0 : tensor<4xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<4xui64>
    %10 = stablehlo.multiply %9, %8 : tensor<4xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %11 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<4xui64>
    %12 = stablehlo.shift_right_logical %10, %11 : tensor<4xui64>
    %13 = stablehlo.convert %10 : (tensor<4xui64>) -> tensor<4xui32>
    %14 = stablehlo.convert %12 : (tensor<4xui64>) -> tensor<4xui32>
    %15:2 = call @threefry2x32(%5, %7, %14, %13) : (tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>)
    %16 = stablehlo.xor %15#0, %15#1 : tensor<4xui32>
    %c_1 = stablehlo.constant dense<9> : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %18 = stablehlo.shift_right_logical %16, %17 : tensor<4xui32>
    %c_2 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %19 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %20 = stablehlo.or %18, %19 : tensor<4xui32>
    %21 = stablehlo.bitcast_convert %20 : (tensor<4xui32>) -> tensor<4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %23 = stablehlo.subtract %21, %22 : tensor<4xf32>
    %24 = stablehlo.subtract %3, %2 : tensor<1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<1xf32>) -> tensor<4xf32>
    %26 = stablehlo.multiply %23, %25 : tensor<4xf32>
    %27 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xf32>) -> tensor<4xf32>
    %28 = stablehlo.add %26, %27 : tensor<4xf32>
    %29 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<1xf32>) -> tensor<4xf32>
    %30 = stablehlo.maximum %29, %28 : tensor<4xf32>
    return %30 : tensor<4xf32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<4xui32>, %arg3: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<4xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<4xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_4, %c_12 : tensor<i32>
      %8 = stablehlo.slice %iterArg_10 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
      %9 = stablehlo.reshape %8 : (tensor<1xui32>) -> tensor<ui32>
      %10 = stablehlo.slice %iterArg_10 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
      %11 = stablehlo.reshape %10 : (tensor<1xui32>) -> tensor<ui32>
      %12 = stablehlo.slice %iterArg_10 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
      %13 = stablehlo.reshape %12 : (tensor<1xui32>) -> tensor<ui32>
      %14 = stablehlo.slice %iterArg_10 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
      %15 = stablehlo.reshape %14 : (tensor<1xui32>) -> tensor<ui32>
      %16 = stablehlo.add %iterArg_5, %iterArg_6 : tensor<4xui32>
      %17 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %18 = stablehlo.shift_left %iterArg_6, %17 : tensor<4xui32>
      %c_13 = stablehlo.constant dense<32> : tensor<ui32>
      %19 = stablehlo.subtract %c_13, %9 : tensor<ui32>
      %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %21 = stablehlo.shift_right_logical %iterArg_6, %20 : tensor<4xui32>
      %22 = stablehlo.or %18, %21 : tensor<4xui32>
      %23 = stablehlo.xor %16, %22 : tensor<4xui32>
      %24 = stablehlo.add %16, %23 : tensor<4xui32>
      %25 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %26 = stablehlo.shift_left %23, %25 : tensor<4xui32>
      %c_14 = stablehlo.constant dense<32> : tensor<ui32>
      %27 = stablehlo.subtract %c_14, %11 : tensor<ui32>
      %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %29 = stablehlo.shift_right_logical %23, %28 : tensor<4xui32>
      %30 = stablehlo.or %26, %29 : tensor<4xui32>
      %31 = stablehlo.xor %24, %30 : tensor<4xui32>
      %32 = stablehlo.add %24, %31 : tensor<4xui32>
      %33 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %34 = stablehlo.shift_left %31, %33 : tensor<4xui32>
      %c_15 = stablehlo.constant dense<32> : tensor<ui32>
      %35 = stablehlo.subtract %c_15, %13 : tensor<ui32>
      %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %37 = stablehlo.shift_right_logical %31, %36 : tensor<4xui32>
      %38 = stablehlo.or %34, %37 : tensor<4xui32>
      %39 = stablehlo.xor %32, %38 : tensor<4xui32>
      %40 = stablehlo.add %32, %39 : tensor<4xui32>
      %41 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %42 = stablehlo.shift_left %39, %41 : tensor<4xui32>
      %c_16 = stablehlo.constant dense<32> : tensor<ui32>
      %43 = stablehlo.subtract %c_16, %15 : tensor<ui32>
      %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %45 = stablehlo.shift_right_logical %39, %44 : tensor<4xui32>
      %46 = stablehlo.or %42, %45 : tensor<4xui32>
      %47 = stablehlo.xor %40, %46 : tensor<4xui32>
      %48 = stablehlo.broadcast_in_dim %iterArg_7, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %49 = stablehlo.add %40, %48 : tensor<4xui32>
      %50 = stablehlo.broadcast_in_dim %iterArg_8, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %51 = stablehlo.add %47, %50 : tensor<4xui32>
      %c_17 = stablehlo.constant dense<1> : tensor<i32>
      %52 = stablehlo.add %iterArg_4, %c_17 : tensor<i32>
      %53 = stablehlo.convert %52 : (tensor<i32>) -> tensor<ui32>
      %54 = stablehlo.broadcast_in_dim %53, dims = [] : (tensor<ui32>) -> tensor<4xui32>
      %55 = stablehlo.add %51, %54 : tensor<4xui32>
      %c_18 = stablehlo.constant dense<1> : tensor<i32>
      %56 = stablehlo.add %iterArg, %c_18 : tensor<i32>
      stablehlo.return %56, %7, %49, %55, %iterArg_8, %iterArg_9, %iterArg_7, %iterArg_11, %iterArg_10 : tensor<i32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<4xui32>, tensor<4xui32>
  }
}
