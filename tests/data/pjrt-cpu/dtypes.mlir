module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf64>, %arg1: tensor<2x3xf32>, %arg2: tensor<2x3xbf16>, %arg3: tensor<2x3xf16>, %arg4: tensor<2x3xf8E4M3FN>, %arg5: tensor<2x3xf8E5M2>, %arg6: tensor<2x3xf8E4M3B11FNUZ>, %arg7: tensor<2x3xi8>, %arg8: tensor<2x3xi16>, %arg9: tensor<2x3xi32>, %arg10: tensor<2x3xi64>, %arg11: tensor<2x3xui8>, %arg12: tensor<2x3xui16>, %arg13: tensor<2x3xui32>, %arg14: tensor<2x3xui64>, %arg15: tensor<2x3xi1>) -> (tensor<2x3xf64> {jax.result_info = "result[0]"}, tensor<2x3xf32> {jax.result_info = "result[1]"}, tensor<2x3xbf16> {jax.result_info = "result[2]"}, tensor<2x3xf16> {jax.result_info = "result[3]"}, tensor<2x3xf8E4M3FN> {jax.result_info = "result[4]"}, tensor<2x3xf8E5M2> {jax.result_info = "result[5]"}, tensor<2x3xf8E4M3B11FNUZ> {jax.result_info = "result[6]"}, tensor<2x3xi8> {jax.result_info = "result[7]"}, tensor<2x3xi16> {jax.result_info = "result[8]"}, tensor<2x3xi32> {jax.result_info = "result[9]"}, tensor<2x3xi64> {jax.result_info = "result[10]"}, tensor<2x3xui8> {jax.result_info = "result[11]"}, tensor<2x3xui16> {jax.result_info = "result[12]"}, tensor<2x3xui32> {jax.result_info = "result[13]"}, tensor<2x3xui64> {jax.result_info = "result[14]"}, tensor<2x3xi1> {jax.result_info = "result[15]"}) {
    %0 = call @_flip(%arg0) : (tensor<2x3xf64>) -> tensor<2x3xf64>
    %1 = call @_flip_0(%arg1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = call @_flip_1(%arg2) : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
    %3 = call @_flip_2(%arg3) : (tensor<2x3xf16>) -> tensor<2x3xf16>
    %4 = call @_flip_3(%arg4) : (tensor<2x3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN>
    %5 = call @_flip_4(%arg5) : (tensor<2x3xf8E5M2>) -> tensor<2x3xf8E5M2>
    %6 = call @_flip_5(%arg6) : (tensor<2x3xf8E4M3B11FNUZ>) -> tensor<2x3xf8E4M3B11FNUZ>
    %7 = call @_flip_6(%arg7) : (tensor<2x3xi8>) -> tensor<2x3xi8>
    %8 = call @_flip_7(%arg8) : (tensor<2x3xi16>) -> tensor<2x3xi16>
    %9 = call @_flip_8(%arg9) : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %10 = call @_flip_9(%arg10) : (tensor<2x3xi64>) -> tensor<2x3xi64>
    %11 = call @_flip_10(%arg11) : (tensor<2x3xui8>) -> tensor<2x3xui8>
    %12 = call @_flip_11(%arg12) : (tensor<2x3xui16>) -> tensor<2x3xui16>
    %13 = call @_flip_12(%arg13) : (tensor<2x3xui32>) -> tensor<2x3xui32>
    %14 = call @_flip_13(%arg14) : (tensor<2x3xui64>) -> tensor<2x3xui64>
    %15 = call @_flip_14(%arg15) : (tensor<2x3xi1>) -> tensor<2x3xi1>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf16>, tensor<2x3xf8E4M3FN>, tensor<2x3xf8E5M2>, tensor<2x3xf8E4M3B11FNUZ>, tensor<2x3xi8>, tensor<2x3xi16>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xui8>, tensor<2x3xui16>, tensor<2x3xui32>, tensor<2x3xui64>, tensor<2x3xi1>
  }
  func.func private @_flip(%arg0: tensor<2x3xf64>) -> tensor<2x3xf64> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf64>
    return %0 : tensor<2x3xf64>
  }
  func.func private @_flip_0(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func private @_flip_1(%arg0: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xbf16>
    return %0 : tensor<2x3xbf16>
  }
  func.func private @_flip_2(%arg0: tensor<2x3xf16>) -> tensor<2x3xf16> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf16>
    return %0 : tensor<2x3xf16>
  }
  func.func private @_flip_3(%arg0: tensor<2x3xf8E4M3FN>) -> tensor<2x3xf8E4M3FN> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf8E4M3FN>
    return %0 : tensor<2x3xf8E4M3FN>
  }
  func.func private @_flip_4(%arg0: tensor<2x3xf8E5M2>) -> tensor<2x3xf8E5M2> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf8E5M2>
    return %0 : tensor<2x3xf8E5M2>
  }
  func.func private @_flip_5(%arg0: tensor<2x3xf8E4M3B11FNUZ>) -> tensor<2x3xf8E4M3B11FNUZ> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf8E4M3B11FNUZ>
    return %0 : tensor<2x3xf8E4M3B11FNUZ>
  }
  func.func private @_flip_6(%arg0: tensor<2x3xi8>) -> tensor<2x3xi8> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xi8>
    return %0 : tensor<2x3xi8>
  }
  func.func private @_flip_7(%arg0: tensor<2x3xi16>) -> tensor<2x3xi16> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xi16>
    return %0 : tensor<2x3xi16>
  }
  func.func private @_flip_8(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xi32>
    return %0 : tensor<2x3xi32>
  }
  func.func private @_flip_9(%arg0: tensor<2x3xi64>) -> tensor<2x3xi64> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xi64>
    return %0 : tensor<2x3xi64>
  }
  func.func private @_flip_10(%arg0: tensor<2x3xui8>) -> tensor<2x3xui8> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xui8>
    return %0 : tensor<2x3xui8>
  }
  func.func private @_flip_11(%arg0: tensor<2x3xui16>) -> tensor<2x3xui16> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xui16>
    return %0 : tensor<2x3xui16>
  }
  func.func private @_flip_12(%arg0: tensor<2x3xui32>) -> tensor<2x3xui32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xui32>
    return %0 : tensor<2x3xui32>
  }
  func.func private @_flip_13(%arg0: tensor<2x3xui64>) -> tensor<2x3xui64> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xui64>
    return %0 : tensor<2x3xui64>
  }
  func.func private @_flip_14(%arg0: tensor<2x3xi1>) -> tensor<2x3xi1> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xi1>
    return %0 : tensor<2x3xi1>
  }
}
