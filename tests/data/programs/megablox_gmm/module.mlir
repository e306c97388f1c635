module @jit_gmm_fwd attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<384x128xbf16>, %arg1: tensor<4x128x128xbf16>, %arg2: tensor<4xi32>) -> (tensor<384x128xf32> {jax.result_info = "result"}) {
    %0 = call @gmm(%arg0, %arg1, %arg2) : (tensor<384x128xbf16>, tensor<4x128x128xbf16>, tensor<4xi32>) -> tensor<384x128xf32>
    return %0 : tensor<384x128xf32>
  }
  func.func private @gmm(%arg0: tensor<384x128xbf16>, %arg1: tensor<4x128x128xbf16>, %arg2: tensor<4xi32>) -> tensor<384x128xf32> {
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
    %123 = stablehlo.custom_call @tpu_custom_call(%122, %5, %112, %114, %c, %arg0, %arg1) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAE/CQEDBQcBAwkDKwsNDxETFRcZGx0fISMlJykrLS8xMwPxsykBowcTEwsLCxMLDyMLCwsLCw8LUwsLCxMTEysTGwsPSwsXCwsLcwsPCwsLFxsLGwtzGwsbGwsbDw8LDx8LCwsLCwsLUwsTEw8TExMLIxMPEw8TDwUNYWGRjU0qAgcFWVkBKQ8HHxsPGxsLHwcnBx8fJysjOzM3ArILHwMDB20DAwdrBTUFNwU5AwNvrwU7EQ8AAwd/EYGDhYcvCQU9BT8FQS8REQkFBUMjCQUhgAAAAAAAAACAAAAAAAAAAAVFBUcNJQMDD3EDAw8fAwMHcwMJda13EXkRexEDA32xAwU3OQkbBUkRCT0DET0/C0FFR0lLTR8JG0+rUVMFSwEHqaenDSMvGQVNIwkHMQEAAAAAAAAAAAAAAAAAAIABAAAAAAAAAAVPEQkRBVEFUwVVAQdVWV8DBRdXGSMJIQMFF1sZXQklIwkHMQEAAAAAAAAAgAAAAAAAAACAAAAAAAAAAAMFF2EZIwknAwULKQkhAwULZwklDScDBQspCScRAQERAwEFVxEJASUFCQAAAAAFWQVbBV0FXwVhBWMFZSMBCSEBAAAAAQAAAAIAAAAAAAAABWcjAQEBAwMHixEBBQMDB48RAQIEAwOTlQVpIwEDCQAAAAADAw+ZEQkVAwMPnREJCQMDB6ETFwEjdHB1Lm1lbW9yeV9zcGFjZTxzbWVtPgAjdHB1Lm1lbW9yeV9zcGFjZTx2bWVtPgAjdHB1LmRpbWVuc2lvbl9zZW1hbnRpY3M8YXJiaXRyYXJ5PgAjdHB1LmRpbWVuc2lvbl9zZW1hbnRpY3M8cGFyYWxsZWw+ACN0cHUuY29yZV90eXBlPHRjPgAjdHB1LmRvdF9kaW1lbnNpb25fbnVtYmVyczxbMV0sIFswXSwgWzBdLCBbMV0sIFswLCAwLCAxLCAxXSwgW10sIFtdPgAjYXJpdGgub3ZlcmZsb3c8bm9uZT4AI2FyaXRoLmZhc3RtYXRoPG5vbmU+AAECAgMnBQIEAgQXF6MDGQEVAQIEF6MDFQEVF6MDBQEVAQknBQIEAgQBBxelBQIEAgQXHQsnBQIEAgQTJwUCBAIEDxelBQIEAgQTHRelBwUCBAIEE0MnBwUCBAIEEwUXAQEBCwcHDR0fFRUBBQ8BAQELBwcNBQEBBQ8BAQELBwcNBwEBAQSODQUBEQE1BwMBEQ0RATsHAys3FwEBAQEBAQsBBwEHAQ0BHQEfARUBFQEDAwEFAwELBwErAw8FBRcXBgEDAQMZAwMBBQMBCwcBLQMPBRsdGRQBAx8JAwsdAwMBnwMXFQYBAwUDKwMDAQMDAwMDAQMDAwUGAQMFBxUvMREFARMJLRUvMRMAAQMBBRMAAQMDAQUDAQsHASsDDwUFIRcGAQMBAyMDAwEFAwELBwEtAw8FJScZFAEDKQkDX8kDAwEDAwMDAwEDAwMFBgEDGQcPKy0DAwEDAwMDAwEDAwMDAwEDAwMFBgEDIQkRMTM1GwYBAxkDNwMDAQMDAwMDAQMDAwUGAQMFBxU7PQMDAS8DBR0HATEDBQcvOUEfBwEzAwUFP0MDAwEDAwMDAwEDAwMFBgEDBQcVR0kRBQETCUUVR0kJBgEDAwMDBwYBAwEFCU0JBgEDAwNPBwYBAwEFB1EDAwGJAwEhBwENAwEFT1UJBgEDAwNXBwYBAwEFB1kJBgEDAwMDBwYBAwEFC10DAwGNAwElBwENAwEFX2EnAwGRAxEVBgEDEQNjIQcBDQMRBWVnFQYBAxEDUwsHAZcDGwVpaxUGAQMRA1sLBwGbAxsFaW8pBgEDGwVtcQMDAQMDAwMDAQMDAwUGAQMFBxV1dwMDAQMDAwMDAQMDAwUGAQMFBxN7fSsGAQMFB3N5fwMDAQMDAwMDAQMDAwUGAQMFBxODhREFARMJgRODhRMAAQMjTQMDAQMDAwMDAQMDAwUGAQMZBw8rLQMDAQMDAwMDAQMDAwMDAQMDAwUGAQMhCRExMzUbBgEDGQM3AwMBAwMDAwMBAwMDBQYBAwUHFTs9AwMBLwMFHQcBMQMFBy85QR8HATMDBQU/QwMDAQMDAwMDAQMDAwUGAQMFBxVHSREFARMJRRVHSRMAAQ8AAQ0RAWMHAxUTDwEBAQEBAQsBBwEHAQ0BCQYBAwMDAwcGAQMBBQsPAwMBBQMBDwQBBREFDREBZQcDGx8PAQEBAQEBCwEHAQcBDQEJBgEDAwMDBwYBAwEFCQ8DAwEDAwMHBgEDAQUNEyMHAQ0DAQURFQMDAQUDAQ8EAQcXBQENEQFpBwMVEw8BAQEBAQELAQcBBwENAQkGAQMDAwMHBgEDAQULDwMDAQUDAQ8EAQURAQYDAQUBADILaxcRKQkTHScdJR0dHSMhIyktGRkZDx0lFR0TDRsXExcXFxcXJQ8ZIxUjGRUXIxkZHw8NCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBhcml0aABtb2R1bGUAYXJpdGguY29uc3RhbnQAdmVjdG9yLmxvYWQAbWVtcmVmLmxvYWQAYXJpdGguaW5kZXhfY2FzdABhcml0aC5jbXBpAGZ1bmMuZnVuYwBmdW5jLnJldHVybgB0cHUudmVjdG9yX3N0b3JlAHNjZi55aWVsZAB2ZWN0b3IuYnJvYWRjYXN0AGFyaXRoLmV4dHVpAHNjZi5pZgB2ZWN0b3Iuc2hhcGVfY2FzdAB0cHUubWF0bXVsAGFyaXRoLmFkZGYAYXJpdGguYWRkaQBhcml0aC5zdWJpAGFyaXRoLm11bGkAdHB1LmlvdGEAYXJpdGguYW5kaQBhcml0aC5zZWxlY3QAdmFsdWUAc3ltX25hbWUAZnVuY3Rpb25fdHlwZQBwcmVkaWNhdGUAdHJhbnNmb3JtX2luZGljZXMAd2luZG93X2JvdW5kcwBrZXJuZWwAdHJhbnNmb3JtXzAAdHJhbnNmb3JtXzEAdHJhbnNmb3JtXzIAc3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAaXRlcmF0aW9uX2JvdW5kcwBzY2FsYXJfcHJlZmV0Y2gAc2NyYXRjaF9vcGVyYW5kcwB0cHUuY29yZV90eXBlAHdpbmRvd19wYXJhbXMAb3ZlcmZsb3dGbGFncwBkaW1lbnNpb25fbnVtYmVycwB0cmFuc3Bvc2VfbGhzAHRyYW5zcG9zZV9saHNfaGludAB0cmFuc3Bvc2VfcmhzAGZhc3RtYXRoAGFkZABvcGVyYW5kU2VnbWVudFNpemVzAHN0cmlkZXMAZGltZW5zaW9ucwA=\22, \22cost_estimate\22: {\0A\22bytes_accessed\22:491520,\0A\22flops\22:12582912,\0A\22remote_bytes_transferred\22:0,\0A\22transcendentals\22:0\0A}, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMD/gPiAwEB4gMHCwsLCxMPEw8LEw8PCxMLDwsPDxMXExcPCwsPCxMTExMLCwsLCwsLCwsPDw8TExMLExMTExMTFxMTExcTFxMTExMTExMTExMTC64EDwsPCw8LDwsPCw8LDwsPCw8PHw8PDw8PDx8PDw8LHw8PCw8PDx8PDx8PDw8PDw8nDw8PHxMPHxMPHwsXCw8nEw8nEw8TDxMfEycfEw8THxcLExMfExMTEx8TExMTHwsXCxMTHxcLFwsPEx8TDxMfCxcLDxMfCxcLDxMfFwsXCw8THxMTExMfEw8THxcLFwsPEycTDxMfEw8LHxMTEx8XCxMfFwsXCw8fExMXCx8CHhEfBQUFBwUJBQsVTgIdHQX/HTM2Ah0F+QUNHQUKAh1Nyx1N9wUPHRNWAgURHSO7BRMdI8kdM90dExICHRYCGgIdM3YDHY4DkgMdU9MFFQUXHVPhBRkVRgILFWICCx0FNgMdBUoDBRsFHQUfBSEFIwUlBScFKQUrHSPnHSP1HRP9HRMGAh0TJgIdOSoCBS0dEzICHQU+Ah0FWgIdOWoCHQV+Ah0FkgIdpgKqAhXSAgsdOdoCFeICCx3qAu4CFfoCCx0CAwYDFRIDCxUuAwsVUgMdFW4DHRV+Ax0dBYYDHQWWAx0FpgMdQ8oDHQXOAwMDk5UFLwE6AgEBAQEBl5ufo6err7O3vcMXFxfN1ScnJycXF+Pp7xkZGREREQ0NDQ0NFRUVKytfDw8PD2VlZ2dpaWtrbW1vb74Cc3N3d3t7GgM/Pz9BQUFaAy0tLS0ZERERDQ0NDQ0VFRUrK18PDw8PGQEBAQEBAQEBAYeHAQEBAQEBAQEBAYmJi4u2AwEBAQEBAQEBAQGPjwEBHZkBBTEdnQEFMx2hAQU1HaUBBTcdqQEFOR2tAQU7HbEBBT0dtQEFPx0fuR1FIS0DB2IGGysdH78dR8EVISEdScUdS8cVJSUtAwdiBgstHU8lHVHPHdExBUEtAwdqBjNpHVHXHdnbBUMVMTEdNd8VNzctAwdqBg0tHR/lHUVVLQMHXgcRNR0f6x1H7RUhVR1J8R1L8xUlVy0DCVoHCWoHCx1PVx0H+xVZWS0DByoHJzcdBwICFVtbLQMHLgcnNx0HDgIVKSktAwcyBw0tBUUdHgIiAgVHFV1dLQMJMgc1RgcPHWEuAhVjYy0DCTIHDUYHDx01OgIVNykdB0ICFTs7HQlKAi0DB1oEGz8dG1ICLQMJygYb3gYPLQMHUgcRLR0HXgIVPT0dCWYCLQMHXgQhTx1uAnICBUkVdgILHQl6Ai0DB2IEOVEdB4ICFT2GAhWKAgsdCY4CLQMHYgQdUx0HlgIVO5oCFZ4CCx0JogItAwdmBBM5BUsdrgKyAgVNFbYCCx0JugItAwdmBBNDHcICxgIFTx3KAs4CBVEVcXEdCdYCLQMHagQTcx1h3gIVdXUdCeYCLQMHagQTgQVTHfIC9gIFVRV5eR0J/gItAwduBDNZBVcdCgMOAwVZFX19HQkWAy0DB24EXX0dHgMiAwVbHSYDKgMFXRV/fx0JMgMtAwduBBN/HQc6AxUpPgMVQgMdHRtGAy0DB+IGI0MdB04DFYGBHRtWAy0DB+oGP08dXgNiAwVfHWYDagMFYRWDgx0bcgMtAwnmBiPuBg8dNXoDFYWFHRuCAy0DB+YGDR0dB4oDFS8vBWMtAweCBxc9HQeaAxUvngMdQ6IDLQMHtgcXOx2qA64DBWUdQ7IDLQMHtgdBXx26A74DBWcdwgPGAwVpFY2NLQMHtgcXXx0H0gMVL9YDHdoD3gMFay0DB84HFz0EEwUBEQGRBwMBAQYDAQUBACoMbUcRCwlHJRURCw0JDQkVDQkLCTEbRSMZCQkJGyUlJRMRTyULDVUtDQdHCxUNKQlVSSERCw8PEWJ1aWx0aW4AbW9kdWxlAGdtbS5weQBnZXQ6AGdldC9nZXQAX2dldF9zdG9yZV9tYXNrAGdtbS48bG9jYWxzPi5rZXJuZWwuPGxvY2Fscz4uX2FjY3VtAGdtbS48bG9jYWxzPi5rZXJuZWwuPGxvY2Fscz4uX3N0b3JlX2FjY3VtAGVxOgBnbW0uPGxvY2Fscz4ua2VybmVsAHN3YXA6AHN3YXAvc3dhcABhZGQ6AGdtbS48bG9jYWxzPi5yaHNfdHJhbnNmb3JtX2luZGljZXMAZXEAZXEvZXEAY29udmVydF9lbGVtZW50X3R5cGU6AGNvbnZlcnRfZWxlbWVudF90eXBlL2NvbnZlcnRfZWxlbWVudF90eXBlAGNvbmQ6AGNvbmQAYnJvYWRjYXN0X2luX2RpbToAZ21tLjxsb2NhbHM+Lmtlcm5lbC48bG9jYWxzPi5femVyb19hY2MAYWRkL2FkZAB0cHUubG9jcwBncm91cF9tZXRhZGF0YVswXQBncm91cF9tZXRhZGF0YVsxXQBncm91cF9tZXRhZGF0YVsyXQBncm91cF9vZmZzZXQAbGhzAHJocwBvdXQAYWNjX3NjcmF0Y2gAYnJvYWRjYXN0X2luX2RpbQBicm9hZGNhc3RfaW5fZGltL2Jyb2FkY2FzdF9pbl9kaW0AZG90X2dlbmVyYWw6AGRvdF9nZW5lcmFsL2RvdF9nZW5lcmFsAGFkZABtdWw6AG11bABpb3RhOgBpb3RhL2lvdGEAZ2U6AGdlL2dlAGx0OgBsdC9sdABhbmQ6AGFuZC9hbmQAc2VsZWN0X246AHNlbGVjdF9uL3NlbGVjdF9uAGdtbS48bG9jYWxzPi5saHNfdHJhbnNmb3JtX2luZGljZXMAZ2V0AHN1YjoAc3ViL3N1YgBnbW0uPGxvY2Fscz4ub3V0X3RyYW5zZm9ybV9pbmRpY2VzAA==\22}}", kernel_name = "kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<> : tensor<0xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[2, 1, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<i32>, tensor<5xi32>, tensor<6xi32>, tensor<6xi32>, tensor<1xi32>, tensor<384x128xbf16>, tensor<4x128x128xbf16>) -> tensor<384x128xf32>
    return %123 : tensor<384x128xf32>
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
}
