module @jit_gmm_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<384x128xbf16>, %arg1: tensor<4x128x128xbf16>, %arg2: tensor<4xi32>, %arg3: tensor<384x128xf32>) -> (tensor<384x128xbf16> {jax.result_info = "result[0]"}, tensor<4x128x128xbf16> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<384x128xf32>
    %1 = stablehlo.multiply %0, %arg3 : tensor<384x128xf32>
    %2 = call @gmm(%1, %arg1, %arg2) : (tensor<384x128xf32>, tensor<4x128x128xbf16>, tensor<4xi32>) -> tensor<384x128xbf16>
    %3 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<384x128xbf16>) -> tensor<128x384xbf16>
    %4 = call @tgmm(%3, %1, %arg2) : (tensor<128x384xbf16>, tensor<384x128xf32>, tensor<4xi32>) -> tensor<4x128x128xbf16>
    return %2, %4 : tensor<384x128xbf16>, tensor<4x128x128xbf16>
  }
  func.func private @gmm(%arg0: tensor<384x128xf32>, %arg1: tensor<4x128x128xbf16>, %arg2: tensor<4xi32>) -> tensor<384x128xbf16> {
    %c = stablehlo.constant dense<0> : tensor<1xi32>
    %cst = stablehlo.constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %0 = stablehlo.reshape %c : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.add %0, %c_0 : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.subtract %1, %c_1 : tensor<i32>
    %3 = call @cumsum(%arg2) : (tensor<4xi32>) -> tensor<4xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %3, dim = 0 : (tensor<1xi32>, tensor<4xi32>) -> tensor<5xi32>
    %c_3 = stablehlo.constant dense<128> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %7 = stablehlo.add %3, %6 : tensor<4xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %9 = stablehlo.subtract %7, %8 : tensor<4xi32>
    %c_5 = stablehlo.constant dense<128> : tensor<i32>
    %10 = call @floor_divide(%9, %c_5) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_6 = stablehlo.constant dense<128> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %12 = stablehlo.multiply %10, %11 : tensor<4xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.slice %3 [0:3] : (tensor<4xi32>) -> tensor<3xi32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
    %c_8 = stablehlo.constant dense<128> : tensor<i32>
    %16 = call @floor_divide(%15, %c_8) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_9 = stablehlo.constant dense<128> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %18 = stablehlo.multiply %16, %17 : tensor<4xi32>
    %19 = stablehlo.subtract %12, %18 : tensor<4xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %21 = stablehlo.compare EQ, %arg2, %20, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %22 = call @_where_1(%21, %c_11, %19) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %c_12 = stablehlo.constant dense<128> : tensor<i32>
    %23 = call @floor_divide(%22, %c_12) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %24 = stablehlo.iota dim = 0 : tensor<4xi32>
    %25 = call @_roll_static(%23) : (tensor<4xi32>) -> tensor<4xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %27 = "stablehlo.scatter"(%25, %26, %c_14) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<4xi32>, tensor<1xi32>, tensor<i32>) -> tensor<4xi32>
    %28 = call @cumsum(%27) : (tensor<4xi32>) -> tensor<4xi32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %31 = stablehlo.compare LT, %28, %30, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_17 = stablehlo.constant dense<6> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %33 = stablehlo.add %28, %32 : tensor<4xi32>
    %34 = stablehlo.select %31, %33, %28 : tensor<4xi1>, tensor<4xi32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %c_18 = stablehlo.constant dense<1> : tensor<i32>
    %36 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %37 = "stablehlo.scatter"(%29, %35, %36) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %124 = stablehlo.add %arg3, %arg4 : tensor<i32>
      stablehlo.return %124 : tensor<i32>
    }) : (tensor<6xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<6xi32>
    %38 = call @cumsum_2(%37) : (tensor<6xi32>) -> tensor<6xi32>
    %c_19 = stablehlo.constant dense<1> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %40 = stablehlo.subtract %38, %39 : tensor<6xi32>
    %41 = call @_take(%24, %40) : (tensor<4xi32>, tensor<6xi32>) -> tensor<6xi32>
    %42 = stablehlo.slice %5 [0:4] : (tensor<5xi32>) -> tensor<4xi32>
    %c_20 = stablehlo.constant dense<128> : tensor<i32>
    %43 = call @remainder(%42, %c_20) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %44 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %45 = stablehlo.compare EQ, %43, %44, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_22 = stablehlo.constant dense<0> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %47 = stablehlo.compare EQ, %arg2, %46, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %48 = stablehlo.or %45, %47 : tensor<4xi1>
    %49 = stablehlo.slice %5 [0:4] : (tensor<5xi32>) -> tensor<4xi32>
    %c_23 = stablehlo.constant dense<128> : tensor<i32>
    %50 = call @floor_divide(%49, %c_23) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_24 = stablehlo.constant dense<3> : tensor<i32>
    %51 = call @_where_1(%48, %c_24, %50) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %52 = stablehlo.convert %51 : (tensor<4xi32>) -> tensor<4xf32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %54 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.compare EQ, %54, %cst_26, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %56 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %57 = stablehlo.reshape %56 : (tensor<1xf32>) -> tensor<f32>
    %cst_27 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %58 = stablehlo.subtract %57, %cst_27 : tensor<f32>
    %59 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %60 = stablehlo.reshape %59 : (tensor<1xf32>) -> tensor<f32>
    %61 = call @_where_6(%55, %58, %60) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %62 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.compare EQ, %62, %cst_28, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %64 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %65 = stablehlo.reshape %64 : (tensor<1xf32>) -> tensor<f32>
    %cst_29 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %66 = stablehlo.add %65, %cst_29 : tensor<f32>
    %67 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %68 = stablehlo.reshape %67 : (tensor<1xf32>) -> tensor<f32>
    %69 = call @_where_6(%63, %66, %68) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %70 = call @_linspace(%61, %69) : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
    %71 = call @searchsorted(%70, %52) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
    %72 = stablehlo.slice %70 [3:4] : (tensor<4xf32>) -> tensor<1xf32>
    %73 = stablehlo.reshape %72 : (tensor<1xf32>) -> tensor<f32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %75 = stablehlo.compare EQ, %52, %74, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %c_30 = stablehlo.constant dense<3> : tensor<i32>
    %76 = call @_where_1(%75, %c_30, %71) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %c_32 = stablehlo.constant dense<0> : tensor<i32>
    %78 = stablehlo.broadcast_in_dim %c_32, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %79 = stablehlo.compare LT, %76, %78, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_33 = stablehlo.constant dense<4> : tensor<i32>
    %80 = stablehlo.broadcast_in_dim %c_33, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %81 = stablehlo.add %76, %80 : tensor<4xi32>
    %82 = stablehlo.select %79, %81, %76 : tensor<4xi1>, tensor<4xi32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %84 = "stablehlo.scatter"(%77, %83, %53) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %124 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %124 : tensor<f32>
    }) : (tensor<4xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4xf32>
    %85 = stablehlo.slice %84 [1:4] : (tensor<4xf32>) -> tensor<3xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %87 = stablehlo.add %85, %86 : tensor<3xf32>
    %88 = stablehlo.iota dim = 0 : tensor<3xi32>
    %89 = stablehlo.convert %87 : (tensor<3xf32>) -> tensor<3xi32>
    %90 = call @_roll_static_9(%89) : (tensor<3xi32>) -> tensor<3xi32>
    %c_35 = stablehlo.constant dense<0> : tensor<i32>
    %91 = stablehlo.broadcast_in_dim %c_35, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_36 = stablehlo.constant dense<0> : tensor<i32>
    %92 = "stablehlo.scatter"(%90, %91, %c_36) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
    %93 = call @cumsum_10(%92) : (tensor<3xi32>) -> tensor<3xi32>
    %c_37 = stablehlo.constant dense<0> : tensor<i32>
    %94 = stablehlo.broadcast_in_dim %c_37, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_38 = stablehlo.constant dense<0> : tensor<i32>
    %95 = stablehlo.broadcast_in_dim %c_38, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %96 = stablehlo.compare LT, %93, %95, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_39 = stablehlo.constant dense<6> : tensor<i32>
    %97 = stablehlo.broadcast_in_dim %c_39, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %98 = stablehlo.add %93, %97 : tensor<3xi32>
    %99 = stablehlo.select %96, %98, %93 : tensor<3xi1>, tensor<3xi32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_40 = stablehlo.constant dense<1> : tensor<i32>
    %101 = stablehlo.broadcast_in_dim %c_40, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %102 = "stablehlo.scatter"(%94, %100, %101) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %124 = stablehlo.add %arg3, %arg4 : tensor<i32>
      stablehlo.return %124 : tensor<i32>
    }) : (tensor<6xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<6xi32>
    %103 = call @cumsum_2(%102) : (tensor<6xi32>) -> tensor<6xi32>
    %c_41 = stablehlo.constant dense<1> : tensor<i32>
    %104 = stablehlo.broadcast_in_dim %c_41, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %105 = stablehlo.subtract %103, %104 : tensor<6xi32>
    %106 = call @_take_12(%88, %105) : (tensor<3xi32>, tensor<6xi32>) -> tensor<6xi32>
    %107 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %108 = stablehlo.compare LT, %41, %107, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %109 = stablehlo.convert %108 : (tensor<6xi1>) -> tensor<6xi32>
    %c_42 = stablehlo.constant dense<0> : tensor<i32>
    %110 = stablehlo.reduce(%109 init: %c_42) applies stablehlo.add across dimensions = [0] : (tensor<6xi32>, tensor<i32>) -> tensor<i32>
    %111 = stablehlo.negate %110 : tensor<i32>
    %112 = call @_roll_dynamic(%41, %111) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %113 = stablehlo.negate %110 : tensor<i32>
    %114 = call @_roll_dynamic(%106, %113) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %115 = stablehlo.iota dim = 0 : tensor<4xi32>
    %116 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %117 = stablehlo.compare LE, %115, %116, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %118 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %119 = stablehlo.compare GE, %115, %118, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %120 = stablehlo.and %117, %119 : tensor<4xi1>
    %c_43 = stablehlo.constant dense<0> : tensor<i32>
    %121 = call @_where_14(%120, %23, %c_43) : (tensor<4xi1>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_44 = stablehlo.constant dense<0> : tensor<i32>
    %122 = stablehlo.reduce(%121 init: %c_44) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %123 = stablehlo.custom_call @tpu_custom_call(%122, %5, %112, %114, %c, %arg0, %arg1) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAFDCQEDBQcBAwkDLwsNDxETFRcZGx0fISMlJykrLS8xMzU3A/GzKQGjBxMTCwsLEwsPIwsLCwsLDwtTCwsLExMTKxMbCw9LCxcLCwtzCw8LCwsXGwsbC3MbCxsbCxsPDwsPHwsLCwsLCwtTCxMTDxMTEwsjEw8TDxMPBQ1hYZGNTSoCBwVZWQEpDwcfGw8bGwsfHycHBx8rJyM7MzcCsgsfAwMHbQMDB2sFOQU7BT0DA2+vBT8RDwADB38RgYOFhy8JBUEFQwVFLxERCQUFRyMJBSGAAAAAAAAAAIAAAAAAAAAABUkFSw0lAwMPcQMDDx8DAwdzAwl1rXcReRF7EQMDfbEDBTc5CRsFTREJPQMRPT8LQUVHSUtNHwkbT6tRUwVPAQepp6cNIy8ZBVEjCQcxAQAAAAAAAAAAAAAAAAAAgAEAAAAAAAAABVMRCREFVQVXBVkBB1VZXwMFF1cZIwkhAwUXWxldCSUjCQcxAQAAAAAAAACAAAAAAAAAAIAAAAAAAAAAAwUXYRkjCScDBQspCSEDBQtnCSUNJwMFCykJJxEBAREDAQVbEQkBJQUJAAAAAAVdBV8FYQVjBWUFZwVpIwEJIQEAAAABAAAAAgAAAAAAAAAFayMBAQEDAweLEQEFAwMHjxEBAgQDA5OVBW0jAQMJAAAAAAMDD5kRCRUDAw+dEQkJAwMHoRMXASN0cHUubWVtb3J5X3NwYWNlPHNtZW0+ACN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxhcmJpdHJhcnk+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxwYXJhbGxlbD4AI3RwdS5jb3JlX3R5cGU8dGM+ACN0cHUuZG90X2RpbWVuc2lvbl9udW1iZXJzPFsxXSwgWzFdLCBbMF0sIFswXSwgWzAsIDAsIDEsIDBdLCBbXSwgW10+ACNhcml0aC5vdmVyZmxvdzxub25lPgAjYXJpdGguZmFzdG1hdGg8bm9uZT4AAQICAycFAgQCBBcXowMZARUBAgQXowMVARUXowMFARUBCScFAgQCBBknBQIEAgQBF6UFAgQCBBcdCwcnBQIEAgQPF6UHBQIEAgQZQxelBQIEAgQZHScHBQIEAgQZBRcBAQELBwcNFR0fFQEFDwEBAQsHBw0FAQEFDwEBAQsHBw0HAQEBBP4NBQERATUHAwERDREBOwcDKzcXAQEBAQEBCwEHAQcBDQEVAR0BHwEVAQMDAQUDAQsHASsDDwUFFxkGAQMBAxkDAwEFAwELBwEtAw8FGx0bFAEDHwkDCx0DAwGfAxcVBgEDBQMrAwMBAwMDAwMBAwMDBQYBAwUHFS8xEQUBEwktFS8xEwABAwEFEwABAwMBBQMBCwcBKwMPBQUhGQYBAwEDIwMDAQUDAQsHAS0DDwUlJxsUAQMpCQNl1QMDAQMDAwMDAQMDAwUGAQMFBw8rLQMDAQMDAwMDAQMDAwMDAQMDAwUGAQMhCRExMzUdBgEDEQM3AwMBAwMDAwMBAwMDBQYBAwUHFTs9FwYBAwUDOQMDAS8DBR8HATEDBQcvQUMhBwEzAwUFP0UDAwEDAwMDAwEDAwMFBgEDBQcVSUsRBQETCUcVSUsJBgEDAwMDBwYBAwEFCU8JBgEDAwNRBwYBAwEFB1MDAwGJAwEjBwENAwEFUVcJBgEDAwNZBwYBAwEFB1sJBgEDAwMDBwYBAwEFC18DAwGNAwEnBwENAwEFYWMpAwGRAxMVBgEDEwNlIwcBDQMTBWdpFQYBAxMDVQsHAZcDGwVrbRUGAQMTA10LBwGbAxsFa3ErBgEDGwVvcwMDAQMDAwMDAQMDAwUGAQMFBxV3eQMDAQMDAwMDAQMDAwUGAQMRBxN9fxcGAQMFA4EtBgEDBQd1e4MvBgEDEQOFAwMBAwMDAwMBAwMDBQYBAxEHE4mLEQUBEwmHE4mLEwABAyVRAwMBAwMDAwMBAwMDBQYBAwUHDystAwMBAwMDAwMBAwMDAwMBAwMDBQYBAyEJETEzNR0GAQMRAzcDAwEDAwMDAwEDAwMFBgEDBQcVOz0XBgEDBQM5AwMBLwMFHwcBMQMFBy9BQyEHATMDBQU/RQMDAQMDAwMDAQMDAwUGAQMFBxVJSxEFARMJRxVJSxMAAQ8AAQ0RAWMHAxUTDwEBAQEBAQsBBwEHAQ0BCQYBAwMDAwcGAQMBBQsPAwMBBQMBDwQBBREFDREBZQcDGx8PAQEBAQEBCwEHAQcBDQEJBgEDAwMDBwYBAwEFCQ8DAwEDAwMHBgEDAQUNEyUHAQ0DAQURFQMDAQUDAQ8EAQcXAQUNEQFpBwMVEw8BAQEBAQELAQcBBwENAQkGAQMDAwMHBgEDAQULDwMDAQUDAQ8EAQURAQYDAQUBAJoLbxcRKQkTHScdJR0dHSMhIyktGRkZDx0lFR0TDRsbFxMXFxcXFyUPGRcjFSMZFRcjGRkfDw0JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AGFyaXRoAG1vZHVsZQBhcml0aC5jb25zdGFudAB2ZWN0b3IubG9hZABtZW1yZWYubG9hZABhcml0aC5pbmRleF9jYXN0AGFyaXRoLmNtcGkAZnVuYy5mdW5jAGZ1bmMucmV0dXJuAHRwdS52ZWN0b3Jfc3RvcmUAc2NmLnlpZWxkAHZlY3Rvci5icm9hZGNhc3QAYXJpdGguZXh0ZgBhcml0aC5leHR1aQBzY2YuaWYAdmVjdG9yLnNoYXBlX2Nhc3QAdHB1Lm1hdG11bABhcml0aC5hZGRmAGFyaXRoLmFkZGkAYXJpdGguc3ViaQBhcml0aC5tdWxpAHRwdS5pb3RhAGFyaXRoLmFuZGkAYXJpdGguc2VsZWN0AGFyaXRoLnRydW5jZgB2YWx1ZQBzeW1fbmFtZQBmdW5jdGlvbl90eXBlAHByZWRpY2F0ZQB0cmFuc2Zvcm1faW5kaWNlcwB3aW5kb3dfYm91bmRzAGtlcm5lbAB0cmFuc2Zvcm1fMAB0cmFuc2Zvcm1fMQB0cmFuc2Zvcm1fMgBzdGFibGVfbW9zYWljLnZlcnNpb24AZGltZW5zaW9uX3NlbWFudGljcwBpdGVyYXRpb25fYm91bmRzAHNjYWxhcl9wcmVmZXRjaABzY3JhdGNoX29wZXJhbmRzAHRwdS5jb3JlX3R5cGUAd2luZG93X3BhcmFtcwBvdmVyZmxvd0ZsYWdzAGRpbWVuc2lvbl9udW1iZXJzAHRyYW5zcG9zZV9saHMAdHJhbnNwb3NlX2xoc19oaW50AHRyYW5zcG9zZV9yaHMAZmFzdG1hdGgAYWRkAG9wZXJhbmRTZWdtZW50U2l6ZXMAc3RyaWRlcwBkaW1lbnNpb25zAA==\22, \22cost_estimate\22: {\0A\22bytes_accessed\22:491520,\0A\22flops\22:12582912,\0A\22remote_bytes_transferred\22:0,\0A\22transcendentals\22:0\0A}, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMD1csBAcsHDw8PDw8PDw8PCwsPCwsLDw8PDw8TC64EDwsPCw8LDwsPCw8LDwsPCw8LDwsfDwsfDwsLDwsLDwsPDwsPDwsLDwsPCwsPCw8LDwsLDwsPCw8LCw8LCw8LDwsPCw8LDwsPCw8LDwsCagYfHR2DHX1/FQsLHWttFVVbHWVnHYeJHR+NHRVRBQUFBx0VYQUJBQsFDR0fkR2Vlx2jpR2pqx0dvwMDLS8FDwFKAgEBAQEBMTU5PUFFSU0TGQ0JCQlxdwUFBQUJCRMZDQkJCQMDAwMDAwMDAwMDDQ8PEQUFBQUDAwMDISEDAwMDIyObERElJScnrwMDAwMDAw23DQUFBQUJAwMDAwMDAwMDAwMNDw8RBQUFBQkBAQEBAQEBAQEDAwEBAQEBAQEBAQEDAykpwwEBAQEBAQEBAQEDAwEBHTMBBREdNwEFEx07AQUVHT8BBRcdQwEFGR1HAQUbHUsBBR0dTwEFHx1TCwUhHVdZBSMtFwfGAyenHV1fBSUtFwfKAxNjHWMHBScFKR1pBwUrBS0dbwsFLx0bcx11CwUxHRt5HXsHBTMFNR2BBwU3HYUHBTkFOx2LBwU9HY8HBT8dkwsFQQVDHZkLBUUdnZ8FRx2hBwVJBUsdpwcFTQVPHa0HBVEdsbMFUx21BwVVHbm7BVcdvQcFWR3BCwVbHcXHBV0dyQcFXwQTBQERASsHAwEBBgMBBQEAsghhEQsJJRURCw0JDQkVDQkLCRExGxEVDUUjCw1VLQ0TLwcZCQkJGyUlJRMLCyUjCQ8RYnVpbHRpbgBtb2R1bGUAZXE6AG1ha2VfcHJvZ3JhbXMucHkAYnJvYWRjYXN0X2luX2RpbToAZ2V0OgBhZGQ6AHRwdS5sb2NzAGdyb3VwX21ldGFkYXRhWzBdAGdyb3VwX21ldGFkYXRhWzFdAGdyb3VwX21ldGFkYXRhWzJdAGdyb3VwX29mZnNldABsaHMAcmhzAG91dABhY2Nfc2NyYXRjaABlcQBnbW1fZ3JhZC48bG9jYWxzPi5sb3NzAGdtbV9ncmFkAGVxL2VxAGNvbnZlcnRfZWxlbWVudF90eXBlOgBjb252ZXJ0X2VsZW1lbnRfdHlwZS9jb252ZXJ0X2VsZW1lbnRfdHlwZQBjb25kOgBjb25kAGJyb2FkY2FzdF9pbl9kaW0AYnJvYWRjYXN0X2luX2RpbS9icm9hZGNhc3RfaW5fZGltAHN3YXA6AHN3YXAvc3dhcABnZXQvZ2V0AGRvdF9nZW5lcmFsOgBkb3RfZ2VuZXJhbC9kb3RfZ2VuZXJhbABhZGQvYWRkAGFkZABtdWw6AG11bABpb3RhOgBpb3RhL2lvdGEAZ2U6AGdlL2dlAGx0OgBsdC9sdABhbmQ6AGFuZC9hbmQAc2VsZWN0X246AHNlbGVjdF9uL3NlbGVjdF9uAGdldABzdWI6AHN1Yi9zdWIA\22}}", kernel_name = "kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[2, 1, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<i32>, tensor<5xi32>, tensor<6xi32>, tensor<6xi32>, tensor<1xi32>, tensor<384x128xf32>, tensor<4x128x128xbf16>) -> tensor<384x128xbf16>
    return %123 : tensor<384x128xbf16>
  }
  func.func private @cumsum(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %0 = call @cumsum_0(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func private @cumsum_0(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[3, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 4>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    return %1 : tensor<4xi32>
  }
  func.func private @floor_divide(%arg0: tensor<4xi32>, %arg1: tensor<i32>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.divide %arg0, %1 : tensor<4xi32>
    %3 = stablehlo.sign %arg0 : tensor<4xi32>
    %4 = stablehlo.sign %0 : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %6 = stablehlo.compare NE, %3, %5, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %8 = stablehlo.remainder %arg0, %7 : tensor<4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %10 = stablehlo.compare NE, %8, %9, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %11 = stablehlo.and %6, %10 : tensor<4xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %13 = stablehlo.subtract %2, %12 : tensor<4xi32>
    %14 = call @_where(%11, %13, %2) : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    return %14 : tensor<4xi32>
  }
  func.func private @_where(%arg0: tensor<4xi1>, %arg1: tensor<4xi32>, %arg2: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4xi1>, tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func private @_where_1(%arg0: tensor<4xi1>, %arg1: tensor<i32>, %arg2: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<4xi1>, tensor<4xi32>
    return %2 : tensor<4xi32>
  }
  func.func private @_roll_static(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %0 = stablehlo.slice %arg0 [3:4] : (tensor<4xi32>) -> tensor<1xi32>
    %1 = stablehlo.slice %arg0 [0:3] : (tensor<4xi32>) -> tensor<3xi32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
    return %2 : tensor<4xi32>
  }
  func.func private @cumsum_2(%arg0: tensor<6xi32>) -> tensor<6xi32> {
    %0 = call @cumsum_3(%arg0) : (tensor<6xi32>) -> tensor<6xi32>
    return %0 : tensor<6xi32>
  }
  func.func private @cumsum_3(%arg0: tensor<6xi32>) -> tensor<6xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[5, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 6>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    return %1 : tensor<6xi32>
  }
  func.func private @_take(%arg0: tensor<4xi32>, %arg1: tensor<6xi32>) -> tensor<6xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xi32>
    %4 = call @_where_4(%1, %3, %arg1) : (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<6x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<6x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<6x1xi1>, tensor<i1>) -> tensor<6xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xi32>, tensor<6x1xi32>) -> tensor<6xi32>
    %c_4 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %15 = stablehlo.select %12, %13, %14 : tensor<6xi1>, tensor<6xi32>
    return %15 : tensor<6xi32>
  }
  func.func private @_where_4(%arg0: tensor<6xi1>, %arg1: tensor<6xi32>, %arg2: tensor<6xi32>) -> tensor<6xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6xi1>, tensor<6xi32>
    return %0 : tensor<6xi32>
  }
  func.func private @remainder(%arg0: tensor<4xi32>, %arg1: tensor<i32>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where_5(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<4xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    %12 = stablehlo.and %11, %6 : tensor<4xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %14 = stablehlo.add %4, %13 : tensor<4xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<4xi1>, tensor<4xi32>
    return %15 : tensor<4xi32>
  }
  func.func private @_where_5(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_ptp(%arg0: tensor<2xf32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.minimum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.subtract %0, %1 : tensor<f32>
    return %2 : tensor<f32>
  }
  func.func private @_where_6(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @_linspace(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<4xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<3xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.divide %0, %1 : tensor<3xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.subtract %4, %2 : tensor<3xf32>
    %6 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<3xf32>
    %8 = stablehlo.reshape %arg1 : (tensor<f32>) -> tensor<1xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %12 = stablehlo.multiply %11, %0 : tensor<3xf32>
    %13 = stablehlo.add %7, %12 : tensor<3xf32>
    %14 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<3xf32>, tensor<1xf32>) -> tensor<4xf32>
    return %15 : tensor<4xf32>
  }
  func.func private @searchsorted(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xi32> {
    %0 = call @_searchsorted_scan_impl_7(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func private @_searchsorted_scan_impl_7(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_6 = stablehlo.constant dense<3> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.subtract %iterArg_5, %iterArg_4 : tensor<4xui32>
      %c_6 = stablehlo.constant dense<2> : tensor<i32>
      %5 = func.call @floor_divide_8(%4, %c_6) : (tensor<4xui32>, tensor<i32>) -> tensor<4xui32>
      %6 = stablehlo.add %iterArg_4, %5 : tensor<4xui32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<4xui32>) -> tensor<4x1xui32>
      %8 = "stablehlo.gather"(%iterArg, %7) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<4x1xui32>) -> tensor<4x1xf32>
      %9 = stablehlo.reshape %8 : (tensor<4x1xf32>) -> tensor<4xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %11 = stablehlo.compare EQ, %iterArg_2, %10, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %13 = stablehlo.select %11, %12, %iterArg_2 : tensor<4xi1>, tensor<4xf32>
      %14 = stablehlo.compare NE, %iterArg_2, %iterArg_2, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %cst_8 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %15 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %16 = stablehlo.select %14, %15, %13 : tensor<4xi1>, tensor<4xf32>
      %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %18 = stablehlo.compare EQ, %9, %17, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %19 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %20 = stablehlo.select %18, %19, %9 : tensor<4xi1>, tensor<4xf32>
      %21 = stablehlo.compare NE, %9, %9, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %cst_11 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %22 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %23 = stablehlo.select %21, %22, %20 : tensor<4xi1>, tensor<4xf32>
      %24 = stablehlo.compare LT, %16, %23, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      %25 = stablehlo.select %24, %iterArg_4, %6 : tensor<4xi1>, tensor<4xui32>
      %26 = stablehlo.select %24, %6, %iterArg_5 : tensor<4xi1>, tensor<4xui32>
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %27 = stablehlo.add %iterArg_3, %c_12 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %27, %25, %26 : tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xui32>, tensor<4xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<4xui32>) -> tensor<4xi32>
    return %3 : tensor<4xi32>
  }
  func.func private @floor_divide_8(%arg0: tensor<4xui32>, %arg1: tensor<i32>) -> tensor<4xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<4xui32>
    return %2 : tensor<4xui32>
  }
  func.func private @_roll_static_9(%arg0: tensor<3xi32>) -> tensor<3xi32> {
    %0 = stablehlo.slice %arg0 [2:3] : (tensor<3xi32>) -> tensor<1xi32>
    %1 = stablehlo.slice %arg0 [0:2] : (tensor<3xi32>) -> tensor<2xi32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> tensor<3xi32>
    return %2 : tensor<3xi32>
  }
  func.func private @cumsum_10(%arg0: tensor<3xi32>) -> tensor<3xi32> {
    %0 = call @cumsum_11(%arg0) : (tensor<3xi32>) -> tensor<3xi32>
    return %0 : tensor<3xi32>
  }
  func.func private @cumsum_11(%arg0: tensor<3xi32>) -> tensor<3xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 3>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    return %1 : tensor<3xi32>
  }
  func.func private @_take_12(%arg0: tensor<3xi32>, %arg1: tensor<6xi32>) -> tensor<6xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xi32>
    %4 = call @_where_4(%1, %3, %arg1) : (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<6x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<6x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<6x1xi1>, tensor<i1>) -> tensor<6xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<3xi32>, tensor<6x1xi32>) -> tensor<6xi32>
    %c_4 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %15 = stablehlo.select %12, %13, %14 : tensor<6xi1>, tensor<6xi32>
    return %15 : tensor<6xi32>
  }
  func.func private @_roll_dynamic(%arg0: tensor<6xi32>, %arg1: tensor<i32>) -> tensor<6xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.slice %0 [0:1] : (tensor<1xi32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<6> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.maximum %c, %c_0 : tensor<i32>
    %4 = call @remainder_13(%2, %3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<6xi32>, tensor<6xi32>) -> tensor<12xi32>
    %c_1 = stablehlo.constant dense<6> : tensor<i32>
    %6 = stablehlo.subtract %c_1, %4 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %6, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<12> : tensor<i32>
    %8 = stablehlo.add %6, %c_3 : tensor<i32>
    %9 = stablehlo.select %7, %8, %6 : tensor<i1>, tensor<i32>
    %10 = stablehlo.dynamic_slice %5, %9, sizes = [6] : (tensor<12xi32>, tensor<i32>) -> tensor<6xi32>
    return %10 : tensor<6xi32>
  }
  func.func private @remainder_13(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where_5(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where_14(%arg0: tensor<4xi1>, %arg1: tensor<4xi32>, %arg2: tensor<i32>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg2 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<4xi1>, tensor<4xi32>
    return %2 : tensor<4xi32>
  }
  func.func private @tgmm(%arg0: tensor<128x384xbf16>, %arg1: tensor<384x128xf32>, %arg2: tensor<4xi32>) -> tensor<4x128x128xbf16> {
    %c = stablehlo.constant dense<0> : tensor<1xi32>
    %cst = stablehlo.constant dense<[0.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %0 = stablehlo.reshape %c : (tensor<1xi32>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.add %0, %c_0 : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.subtract %1, %c_1 : tensor<i32>
    %3 = call @cumsum(%arg2) : (tensor<4xi32>) -> tensor<4xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %3, dim = 0 : (tensor<1xi32>, tensor<4xi32>) -> tensor<5xi32>
    %c_3 = stablehlo.constant dense<128> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %7 = stablehlo.add %3, %6 : tensor<4xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %9 = stablehlo.subtract %7, %8 : tensor<4xi32>
    %c_5 = stablehlo.constant dense<128> : tensor<i32>
    %10 = call @floor_divide(%9, %c_5) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_6 = stablehlo.constant dense<128> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %12 = stablehlo.multiply %10, %11 : tensor<4xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.slice %3 [0:3] : (tensor<4xi32>) -> tensor<3xi32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xi32>, tensor<3xi32>) -> tensor<4xi32>
    %c_8 = stablehlo.constant dense<128> : tensor<i32>
    %16 = call @floor_divide(%15, %c_8) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_9 = stablehlo.constant dense<128> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %18 = stablehlo.multiply %16, %17 : tensor<4xi32>
    %19 = stablehlo.subtract %12, %18 : tensor<4xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %21 = stablehlo.compare EQ, %arg2, %20, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %22 = call @_where_1(%21, %c_11, %19) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %c_12 = stablehlo.constant dense<128> : tensor<i32>
    %23 = call @floor_divide(%22, %c_12) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %25 = stablehlo.compare EQ, %arg2, %24, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_14 = stablehlo.constant dense<1> : tensor<i32>
    %26 = call @_where_1(%25, %c_14, %23) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %27 = stablehlo.iota dim = 0 : tensor<4xi32>
    %28 = call @_roll_static(%26) : (tensor<4xi32>) -> tensor<4xi32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %30 = "stablehlo.scatter"(%28, %29, %c_16) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<4xi32>, tensor<1xi32>, tensor<i32>) -> tensor<4xi32>
    %31 = call @cumsum(%30) : (tensor<4xi32>) -> tensor<4xi32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %34 = stablehlo.compare LT, %31, %33, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_19 = stablehlo.constant dense<6> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %36 = stablehlo.add %31, %35 : tensor<4xi32>
    %37 = stablehlo.select %34, %36, %31 : tensor<4xi1>, tensor<4xi32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %c_20 = stablehlo.constant dense<1> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %40 = "stablehlo.scatter"(%32, %38, %39) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %131 = stablehlo.add %arg3, %arg4 : tensor<i32>
      stablehlo.return %131 : tensor<i32>
    }) : (tensor<6xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<6xi32>
    %41 = call @cumsum_2(%40) : (tensor<6xi32>) -> tensor<6xi32>
    %c_21 = stablehlo.constant dense<1> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %43 = stablehlo.subtract %41, %42 : tensor<6xi32>
    %44 = call @_take(%27, %43) : (tensor<4xi32>, tensor<6xi32>) -> tensor<6xi32>
    %45 = stablehlo.slice %5 [0:4] : (tensor<5xi32>) -> tensor<4xi32>
    %c_22 = stablehlo.constant dense<128> : tensor<i32>
    %46 = call @remainder(%45, %c_22) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %47 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %48 = stablehlo.compare EQ, %46, %47, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_24 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.broadcast_in_dim %c_24, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %50 = stablehlo.compare EQ, %arg2, %49, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %51 = stablehlo.or %48, %50 : tensor<4xi1>
    %c_25 = stablehlo.constant dense<0> : tensor<i32>
    %52 = stablehlo.broadcast_in_dim %c_25, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %53 = stablehlo.compare EQ, %arg2, %52, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_26 = stablehlo.constant dense<0> : tensor<i32>
    %54 = call @_where_15(%53, %c_26, %51) : (tensor<4xi1>, tensor<i32>, tensor<4xi1>) -> tensor<4xi32>
    %55 = stablehlo.slice %5 [0:4] : (tensor<5xi32>) -> tensor<4xi32>
    %c_27 = stablehlo.constant dense<128> : tensor<i32>
    %56 = call @floor_divide(%55, %c_27) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_28 = stablehlo.constant dense<3> : tensor<i32>
    %57 = call @_where_16(%54, %c_28, %56) : (tensor<4xi32>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %58 = stablehlo.convert %57 : (tensor<4xi32>) -> tensor<4xf32>
    %cst_29 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %60 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %61 = stablehlo.compare EQ, %60, %cst_30, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %62 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %63 = stablehlo.reshape %62 : (tensor<1xf32>) -> tensor<f32>
    %cst_31 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %64 = stablehlo.subtract %63, %cst_31 : tensor<f32>
    %65 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %66 = stablehlo.reshape %65 : (tensor<1xf32>) -> tensor<f32>
    %67 = call @_where_6(%61, %64, %66) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %68 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.compare EQ, %68, %cst_32, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %70 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %71 = stablehlo.reshape %70 : (tensor<1xf32>) -> tensor<f32>
    %cst_33 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %72 = stablehlo.add %71, %cst_33 : tensor<f32>
    %73 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %74 = stablehlo.reshape %73 : (tensor<1xf32>) -> tensor<f32>
    %75 = call @_where_6(%69, %72, %74) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %76 = call @_linspace(%67, %75) : (tensor<f32>, tensor<f32>) -> tensor<4xf32>
    %77 = call @searchsorted(%76, %58) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
    %78 = stablehlo.slice %76 [3:4] : (tensor<4xf32>) -> tensor<1xf32>
    %79 = stablehlo.reshape %78 : (tensor<1xf32>) -> tensor<f32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %81 = stablehlo.compare EQ, %58, %80, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %c_34 = stablehlo.constant dense<3> : tensor<i32>
    %82 = call @_where_1(%81, %c_34, %77) : (tensor<4xi1>, tensor<i32>, tensor<4xi32>) -> tensor<4xi32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %c_36 = stablehlo.constant dense<0> : tensor<i32>
    %84 = stablehlo.broadcast_in_dim %c_36, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %85 = stablehlo.compare LT, %82, %84, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_37 = stablehlo.constant dense<4> : tensor<i32>
    %86 = stablehlo.broadcast_in_dim %c_37, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %87 = stablehlo.add %82, %86 : tensor<4xi32>
    %88 = stablehlo.select %85, %87, %82 : tensor<4xi1>, tensor<4xi32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %90 = "stablehlo.scatter"(%83, %89, %59) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %131 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %131 : tensor<f32>
    }) : (tensor<4xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<4xf32>
    %91 = stablehlo.slice %90 [1:4] : (tensor<4xf32>) -> tensor<3xf32>
    %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %93 = stablehlo.add %91, %92 : tensor<3xf32>
    %94 = stablehlo.iota dim = 0 : tensor<3xi32>
    %95 = stablehlo.convert %93 : (tensor<3xf32>) -> tensor<3xi32>
    %96 = call @_roll_static_9(%95) : (tensor<3xi32>) -> tensor<3xi32>
    %c_39 = stablehlo.constant dense<0> : tensor<i32>
    %97 = stablehlo.broadcast_in_dim %c_39, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c_40 = stablehlo.constant dense<0> : tensor<i32>
    %98 = "stablehlo.scatter"(%96, %97, %c_40) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
    %99 = call @cumsum_10(%98) : (tensor<3xi32>) -> tensor<3xi32>
    %c_41 = stablehlo.constant dense<0> : tensor<i32>
    %100 = stablehlo.broadcast_in_dim %c_41, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_42 = stablehlo.constant dense<0> : tensor<i32>
    %101 = stablehlo.broadcast_in_dim %c_42, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %102 = stablehlo.compare LT, %99, %101, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_43 = stablehlo.constant dense<6> : tensor<i32>
    %103 = stablehlo.broadcast_in_dim %c_43, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %104 = stablehlo.add %99, %103 : tensor<3xi32>
    %105 = stablehlo.select %102, %104, %99 : tensor<3xi1>, tensor<3xi32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_44 = stablehlo.constant dense<1> : tensor<i32>
    %107 = stablehlo.broadcast_in_dim %c_44, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %108 = "stablehlo.scatter"(%100, %106, %107) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      %131 = stablehlo.add %arg3, %arg4 : tensor<i32>
      stablehlo.return %131 : tensor<i32>
    }) : (tensor<6xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<6xi32>
    %109 = call @cumsum_2(%108) : (tensor<6xi32>) -> tensor<6xi32>
    %c_45 = stablehlo.constant dense<1> : tensor<i32>
    %110 = stablehlo.broadcast_in_dim %c_45, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %111 = stablehlo.subtract %109, %110 : tensor<6xi32>
    %112 = call @_take_12(%94, %111) : (tensor<3xi32>, tensor<6xi32>) -> tensor<6xi32>
    %113 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %114 = stablehlo.compare LT, %44, %113, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %115 = stablehlo.convert %114 : (tensor<6xi1>) -> tensor<6xi32>
    %c_46 = stablehlo.constant dense<0> : tensor<i32>
    %116 = stablehlo.reduce(%115 init: %c_46) applies stablehlo.add across dimensions = [0] : (tensor<6xi32>, tensor<i32>) -> tensor<i32>
    %117 = stablehlo.negate %116 : tensor<i32>
    %118 = call @_roll_dynamic(%44, %117) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %119 = stablehlo.negate %116 : tensor<i32>
    %120 = call @_roll_dynamic(%112, %119) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %121 = stablehlo.iota dim = 0 : tensor<4xi32>
    %122 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %123 = stablehlo.compare LE, %121, %122, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %124 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %125 = stablehlo.compare GE, %121, %124, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %126 = stablehlo.and %123, %125 : tensor<4xi1>
    %c_47 = stablehlo.constant dense<0> : tensor<i32>
    %127 = call @_where_14(%126, %26, %c_47) : (tensor<4xi1>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %c_48 = stablehlo.constant dense<0> : tensor<i32>
    %128 = stablehlo.reduce(%127 init: %c_48) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %129 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<128x384xbf16>) -> tensor<384x128xbf16>
    %130 = stablehlo.custom_call @tpu_custom_call(%128, %5, %118, %120, %c, %129, %arg1) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAFJCQEDBQcBAwkDNQsNDxETFRcZGx0fISMlJykrLS8xMzU3OTs9AwYCxSkBtQcTExMLEwsLEw8LCwsLEwsLDw8LUwsLCxMTCwsLExMTExMjGwsPSwsXCwsLcwsLCwsXGwsbCxsLcxsbGwsPCw8PDxMLDyNTEwsjDw8PEwtTEx8rCwsLCxMLUwUNYWGRjU0qAgcFWVkBKQ8HHxsLDx8bGwcfBycfJysjOzM3Ar4MHwMDCXsDA33BAwMJfwU/AwMJgQVBBUMDAw8lEQkABUUvCQVHBUkDAwmZBUsvERELERELBQVNIwsFIYAAAAAAAAAAgAAAAAAAAAAFTwVRDSUDAw8jAwMPgwVTBVUFVyMBAQEDAwmPAwORkwMDD5UDAw+XAwc1EzezOTsDBUlLDR8FWRELPQMRT1EVU1dZWyNdJQ0fX71hYwVbAQe7ubkNIy8ZBV0jCwcxAQAAAAAAAAABAAAAAAAAAAAAAAAAAACABV8FYQVjBWUBB2VpbQMFGWcbKQknAwUZaxspCSsDBRlvG3EJLSMLBzEBAAAAAAAAAIAAAAAAAAAAgAAAAAAAAAADBRUvDScDBRUvDSsDBRV5DS0NJxEDAQVnEQEBEQEFEQsBAwOHiQVpEQEJAwc1EzeNOTsjAQkhAQAAAAEAAAADAAAAAAAAABEBAgQFayMBAwkAAAAAEQsVEQsJExMBAwOdnwVtIwsFIQEAAAAAAAAAAAAAAAAAAAADAwmjJQUJAAAAAAMJp7+pE6sTrRMFbwVxBXMFdQMDscMFdyMBCSEBAAAAAQAAAAIAAAAAAAAAI3RwdS5tZW1vcnlfc3BhY2U8c21lbT4AI3RwdS5tZW1vcnlfc3BhY2U8dm1lbT4AI3RwdS5kaW1lbnNpb25fc2VtYW50aWNzPGFyYml0cmFyeT4AI3RwdS5kaW1lbnNpb25fc2VtYW50aWNzPHBhcmFsbGVsPgAjdHB1LmNvcmVfdHlwZTx0Yz4AI3RwdS5kb3RfZGltZW5zaW9uX251bWJlcnM8WzFdLCBbMF0sIFswXSwgWzFdLCBbMCwgMCwgMSwgMV0sIFtdLCBbXT4AI2FyaXRoLm92ZXJmbG93PG5vbmU+ACNhcml0aC5mYXN0bWF0aDxub25lPgABAgIDJwUCBAIEExe1AxkBFwEJAQIEJwUCBAIEARe1AxUBFxe1AwUBFwsnBQIEAgQJBxe3BQIEAgQTIScFAgQCBBcXtwUCBAIEFyEXtwcFAgQCBBdVJwcFAgQCBBcFFwEBAQ8HBxEdGR8ZAQUPAQEBDwcHEQUBAQUPAQEBDwcHEQcBAQEEDhMFAREBRwcDARETEQFNBwNxxxcBAQEBAQEPAQcBBwERAR0BGQEfARkBBwYBAwMDBQUGAQMBBQkXAwMBBwMBCQcBMQMJBQUbAwMBCwMBFQcBBQMBBQUfAwMBBwMBGQYBAwEHHSEjBwYBAwMDJQUGAQMBBQknAwMBBwMBCQcBMwMJBQUrCQcBEQMJBSkZIQYBAwkFLS8bBgEDAQMxAwMBBwMBCQcBEQMJBTM1HRQBAzcJAwsdAwMBHQMTCwYBAwUDcQMDAQMDAwMDAQMDAw0GAQMFBxV1dx8FAUUJcxV1dxEAAQMBBREAAQcGAQMDAwUFBgEDAQUJOQcGAQMDAzsFBgEDAQUHPQMDAQsDAQ8HAQUDAQU7QQcGAQMDA0MFBgEDAQUHRRUHAQUDAQVHPwMDAQcDAQkHATEDCQVJSxsGAQMBA00DAwEHAwEJBwERAwkFT1EdFAEDUwkDfwoCBwYBAwMDBQUGAQMBBQlxBwYBAwMDcwUGAQMBBQd1AwMBCwMBDwcBBQMBBXN5BwYBAwMDewUGAQMBBQd9BwYBAwMDBQUGAQMBBQuBAwMBPQMBJQcBBQMBBYOFJwMBPwMNCwYBAw0Dhw8HAQUDDQWJiwsGAQMNA3cJBwFBAxUFjY8LBgEDDQN/CQcBQwMVBY2TKQYBAxUFkZUHBgEDAwMFBQYBAwEFCZkHBgEDAwObBQYBAwEFB50DAwELAwEPBwEFAwEFm6EHBgEDAwOjBQYBAwEFB6UHBgEDAwMFBQYBAwEFC6kDAwE9AwElBwEFAwEFq60nAwE/Aw0LBgEDDQOvDwcBBQMNBbGzCwYBAw0DnwkHAUEDFQW1twsGAQMNA6cJBwFDAxUFtbspBgEDFQW5vQMDAQMDAwMDAQMDAw0GAQMbBw/BwwMDAQMDAwMDAQMDAw0GAQMFBxHHyS8GAQMFA8UDAwEdAxMLBgEDBQPPGQYBAwUHv83RMQcBmwMFA9MDAwEdAxMLBgEDBQPXGQYBAwUHl8vZAwMBAwMDAwMBAwMDDQYBAwUHFd3fAwMBoQMFMwcBpQMFB9Xb4zUHAa8DBQXh5QMDAQMDAwMDAQMDAw0GAQMFBxXp6x8FAUUJ5xXp6xEAAQMBBREAASsDAYUDAQMDAQsDARUHAQUDAQVVVwkHATMDCQUFWQMDAQsDAQ8HAQUDAQUFXRkGAQMBB1sFXwcGAQMDA2EFBgEDAQUJYwkHAREDCQUZZSEGAQMJBVtnGwYBAwEDaQMDAQcDAQkHAREDCQVrbR0UAQNvCQMVMQMDAQMDAwMDAQMDAw0GAQMFBxVxcy0GAQMbA3UDAwEDAwMDAwEDAwMDAwEDAwMNBgEDIQkTeXt9IwYBAxsDfyMGAQMhA3cfBQGLC4MTeXt9EQABAwEFEQABFwABExEBcwcDFRMPAQEBAQEBDwEHAQcBEQEHBgEDAwMFBQYBAwEFCw8DAwEHAwEXBAEFEQMTEQF1BwMVEw8BAQEBAQEPAQcBBwERAQcGAQMDAwUFBgEDAQULDwMDAQcDARcEAQURARMRAXcHAxsfDwEBAQEBAQ8BBwEHAREBBwYBAwMDBQUGAQMBBQkPAwMBAwMDBQYBAwEFDRMVBwEFAwEFERUDAwEHAwEXBAEHFwMBBgMBBQEAngx5Ex0nHSUZFwkdHR0jISMpLREpCRkZGQ8dJR0VEw0XFx0XGykXExclFSMPGRsZFxUVFxkjFyMZHw8NCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBhcml0aABtb2R1bGUAYXJpdGguY29uc3RhbnQAbWVtcmVmLmxvYWQAYXJpdGguaW5kZXhfY2FzdABhcml0aC5jbXBpAHZlY3Rvci5icm9hZGNhc3QAdmVjdG9yLmxvYWQAYXJpdGguYWRkaQBzY2YueWllbGQAZnVuYy5mdW5jAGFyaXRoLnN1YmkAZnVuYy5yZXR1cm4AYXJpdGguc2VsZWN0AGFyaXRoLmV4dHVpAHNjZi5pZgB0cHUudmVjdG9yX3N0b3JlAGFyaXRoLm9yaQB2ZWN0b3Iuc2hhcGVfY2FzdABhcml0aC5tdWxpAHRwdS5pb3RhAGFyaXRoLmFuZGkAdHB1Lml0ZXJhdGlvbl9ib3VuZABhcml0aC50cnVuY2YAYXJpdGguZXh0ZgB0cHUudHJhbnNwb3NlAHRwdS5tYXRtdWwAYXJpdGguYWRkZgB2YWx1ZQBzeW1fbmFtZQBwcmVkaWNhdGUAZnVuY3Rpb25fdHlwZQB0cmFuc2Zvcm1faW5kaWNlcwB3aW5kb3dfYm91bmRzAGtlcm5lbAB0cmFuc2Zvcm1fMAB0cmFuc2Zvcm1fMQB0cmFuc2Zvcm1fMgBhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAG92ZXJmbG93RmxhZ3MAZGltAGRpbWVuc2lvbnMAcGVybXV0YXRpb24AZGltZW5zaW9uX251bWJlcnMAdHJhbnNwb3NlX2xocwB0cmFuc3Bvc2VfbGhzX2hpbnQAdHJhbnNwb3NlX3JocwBmYXN0bWF0aAA=\22, \22cost_estimate\22: {\0A\22bytes_accessed\22:425984,\0A\22flops\22:12582912,\0A\22remote_bytes_transferred\22:0,\0A\22transcendentals\22:0\0A}, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDKgIOAgEBDgIPBw8PDw8PDw8PDw8PDw8PCwsPCw8LCw8PDwsLDw8PDxMTC/4FDwsPCw8LDwsPCw8LDwsPCw8LDwsfDwsfDwsPCw8LDwsPCwsPCw8PCw8LCw8LCw8LCw8LCw8LDwsPCwsPCw8LDwsLDwsLDwsPCwsPCwsPCwsPCw8LDwsLDwsPCxMLEwsCTggdIWkfFQsLHa+xHb2/FW1zHTfDHamrHTfXHSuBHY2PHcvNHdvdHeHjHTW1HTW5BQUFBx0neQUJHSd9BQsFDR0tmR2dnx2jpQUPBREdK8cd0dMd5+kd9fcdIQYCAwNFRwUTAfICAwMDAwNJTVFVWV1hZQEBJSkTE4UVAQGTLzEzDwcHBx0fCQkJCQcHAQEBAQ0NAQE5JSkPBwcHAQEBAQ0NAQEBARcXOxERGRkbGz0BAQEBDQ0BAQEBFxc7EREZGRsbPQEBAQEBAQ8dHxXtHR8VAQEBPz8RCQkJCQcH+xMTLw0NFQEBMTMPBwcHAQEBDwkJCQkJCQkHBwMDAwMDAwMDAwEBAwMDAwMDAwMDAwEBAwMDAwMDAwMDAwEBQUE5AwMdSwMFFR1PAwUXHVMDBRkdVwMFGx1bAwUdHV8DBR8dYwMFIR1nAwUjHWsFBSUdb3EFJy0jB8YDJ6cddXcFKS0jB8oDE2MdewsFKx1/BQUtHYMLBS8dh4kFMR2LCwUzBTUdkQUFNx0tlR2XCwU5HZsFBTsFPR2hBQU/BUEdpwUFQwVFHa0FBUcFSR2zCwVLHbcLBU0duwUFTwVRHcEFBVMdxQsFVR3JBQVXBVkdzwsFWwVdHdUFBV8d2QUFYQVjHd8FBWUFZx3lBQVpBWsd6wUFbR3v8QVvHfMFBXEFcx35BQV1Hf3/BXcdAgILBXkdCgILBXsEEwUBEQNDBwMBAQYDAQUBAIoKfQkbHTEbKRcRCw0JDQkRFQ0JCxEJFQ1FIwsNVS0NCQ0JDQclFQkLCQ0HEy8RGQkJCRslJSUTCyUJCwkjCw8RYnVpbHRpbgBtb2R1bGUAZ2V0OgBtYWtlX3Byb2dyYW1zLnB5AGd0OgBzdWI6AGVxOgBicm9hZGNhc3RfaW5fZGltOgBhZGQ6AHRwdS5sb2NzAGdyb3VwX21ldGFkYXRhWzBdAGdyb3VwX21ldGFkYXRhWzFdAGdyb3VwX21ldGFkYXRhWzJdAGdyb3VwX29mZnNldABsaHMAcmhzAG91dABhY2Nfc2NyYXRjaABnZXQvZ2V0AGdtbV9ncmFkLjxsb2NhbHM+Lmxvc3MAZ21tX2dyYWQAZ3QAZ3QvZ3QAc3ViAGppdDoAaml0AHNlbGVjdF9uOgBzZWxlY3Rfbi9zZWxlY3RfbgBlcQBlcS9lcQBuZToAbmUvbmUAb3I6AG9yL29yAGNvbnZlcnRfZWxlbWVudF90eXBlOgBjb252ZXJ0X2VsZW1lbnRfdHlwZS9jb252ZXJ0X2VsZW1lbnRfdHlwZQBjb25kOgBjb25kAGJyb2FkY2FzdF9pbl9kaW0AYnJvYWRjYXN0X2luX2RpbS9icm9hZGNhc3RfaW5fZGltAHN3YXA6AHN3YXAvc3dhcABhZGQAc3ViL3N1YgBtdWw6AG11bABpb3RhOgBpb3RhL2lvdGEAYWRkL2FkZABnZToAZ2UvZ2UAbHQ6AGx0L2x0AGFuZDoAYW5kL2FuZAB0cmFuc3Bvc2U6AHRyYW5zcG9zZS90cmFuc3Bvc2UAZG90X2dlbmVyYWw6AGRvdF9nZW5lcmFsL2RvdF9nZW5lcmFsAG51bV9wcm9ncmFtczoAbnVtX3Byb2dyYW1zAGdldAA=\22}}", kernel_name = "kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[2, 1, 0]> : tensor<3xindex>]} : (tensor<i32>, tensor<5xi32>, tensor<6xi32>, tensor<6xi32>, tensor<1xi32>, tensor<384x128xbf16>, tensor<384x128xf32>) -> tensor<4x128x128xbf16>
    return %130 : tensor<4x128x128xbf16>
  }
  func.func private @_where_15(%arg0: tensor<4xi1>, %arg1: tensor<i32>, %arg2: tensor<4xi1>) -> tensor<4xi32> {
    %0 = stablehlo.convert %arg2 : (tensor<4xi1>) -> tensor<4xi32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.select %arg0, %1, %0 : tensor<4xi1>, tensor<4xi32>
    return %2 : tensor<4xi32>
  }
  func.func private @_where_16(%arg0: tensor<4xi32>, %arg1: tensor<i32>, %arg2: tensor<4xi32>) -> tensor<4xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %1 = stablehlo.compare NE, %arg0, %0, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %2 = stablehlo.convert %arg1 : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<4xi1>, tensor<4xi32>
    return %4 : tensor<4xi32>
  }
}
