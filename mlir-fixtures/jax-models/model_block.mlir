module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128x128xf32>, %arg3: tensor<128x128xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128x256xf32>, %arg6: tensor<256x128xf32>) -> (tensor<16x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg1 : (tensor<128xf32>) -> tensor<1x128xf32>
    %1 = stablehlo.custom_call @tpu_custom_call(%arg0, %0) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEvCwEDBQcJAQMLAxkNDxETFRcZGx0fISMDu4kbAX0HExMTCwsLCwsLCwsPC1MLCxsLD0sLDwsLMwsLCwsXGwsjCwtTGwsbGxsPDwsTHxsLCzMTHxMfIwsPC1MLEwUJYZFNgQcDWQkDSQEbDwcHGw8XIxMjHxsbCwLaBx8DAwtVAwMLVwMDWYUFJQUnBSkFKwUtDRUFLy8REQkBBTEjCQUhCAAAAAAAAACAAAAAAAAAAAUzBTUDBSUnCRUFNxEJPQMRKy0NLzEzNRk3GQkVOYE7PQU5AQN/DRMFOyMJAxECAAAAAAAAAAU9BT8FQQVDAQc/Q0sDBQ9BER0JGwMHRYMPRxFJBUUJHyMJBSEBAAAAAAAAAIAAAAAAAAAAAwUPTREdCSEDBQ0TCRsDBQ0TCR8DBQ0TCSERAQERBQEFRwMDC10lDwkAAAAAAwVhh2NlBUkFSyMJAxEBAAAAAAAAAAMDC2kTAxAAAMAQAwMLbRMDUO+NYQ0DB3FzdXd5ewVNERkABU8jAQkhAQAAAAEAAAACAAAAAAAAAAVRIwEBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxhcmJpdHJhcnk+ACN0cHUuY29yZV90eXBlPHRjPgAjdHB1LnBpcGVsaW5lX21vZGU8c3luY2hyb25vdXM+ACNhcml0aC5mYXN0bWF0aDxub25lPgAjdmVjdG9yLmtpbmQ8YWRkPgABAgILAycFIQIEAwECBCcFIQUDF30FIQIEAxcnAyEDF30FBQIEAxcFCQENEQ0BBQMBBQEBJwUFAgQDAQkE1gQFAREBIwcDAREFEQEpBwM5awkBAQ0BEQENAQMDAQUDBQMDAQUDBQsGAQMHBwMJCw0HAQcDBwUNDQMDAVsDDw8HAV8DDwUPEREGAQMLAxMDAwFnAwMJBgEDCwMXEwcBBwMLBRUZAwMBawMDCQYBAwsDHRUHAQcDCwUbHxcHAQcDCwMhCQYBAwcDIw0HAQcDBwUNJQMDAQUDBQMDAQUDBQsGAQMXBwUpKwkGAQMHAy0NBwEHAwcFJy8DAwEFAwUDAwEFAwULBgEDBwcHMzUZBQFvCTEHMzUHAAEFEQFPBwMHDwMBAQMDAQMDAQMDAQMDAQcEAQUBAwURAVEHAwkTAwEBAwMBAwMBAwMBAwMBAwMBAwMBBwQBBQMFBREBUwcDBw8DAQEDAwEDAwEDAwEDAwEHBAEFAQMGAwEFAQDSCFMRKQkfCxMdHR0jISMpLRkZGSEdJR0NEyMXFxclLxcZIxkVHw8PDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAdmVjdG9yAG1vZHVsZQBhcml0aC5jb25zdGFudABmdW5jLmZ1bmMAZnVuYy5yZXR1cm4AdmVjdG9yLmJyb2FkY2FzdAB2ZWN0b3IubG9hZABhcml0aC5tdWxmAHZlY3Rvci5tdWx0aV9yZWR1Y3Rpb24AdmVjdG9yLnNoYXBlX2Nhc3QAYXJpdGguZGl2ZgBhcml0aC5hZGRmAG1hdGgucnNxcnQAdHB1LnZlY3Rvcl9zdG9yZQBzeW1fbmFtZQB2YWx1ZQBmdW5jdGlvbl90eXBlAHRyYW5zZm9ybV9pbmRpY2VzAHdpbmRvd19ib3VuZHMAcm1zX25vcm1fa2VybmVsAHRyYW5zZm9ybV8wAHRyYW5zZm9ybV8xAHRyYW5zZm9ybV8yAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAHBpcGVsaW5lX21vZGUAZmFzdG1hdGgAa2luZAByZWR1Y3Rpb25fZGltcwBhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDoZkBAZkHCwsPDwsLDw8PDwsLDw8PDw8PDw8PDw8TC8sPCw8LDwsPDxsPDw8bCw8LGw8LDwsLDwsLDwsPGw8LDwsPGw8PGw8PGw8PGwsPCw8bAl4EHwUFBQcdj5EdF0MFCQULHQNXHWFjHWdpHReDBQ0FDx0DRx0DTx1RUxUPDx0Dex0LfR0DgR0Dhx0LiR0DjR0DlwMDMzUFEQFhAQEBNzs/CQkJSR8fWRERERMTE3ElJRUVFSsrBwcHBwEBAQEBAQEBAQEBAQEBAQEBHTkBBRMdPQEFFR1BAQUXHRlFFRsbLQUHTRElHQtLHQ1NFR0dLQUHT1FbBRkdVSEFGy0FB08/jR1bXQUdHV8hBR8FIR1lDwUjBSUda20FJx0Dby0FB08/mx1zdQUpHXd5BSsVIyMtBQdPK50dDX8VJyctBQdPI50dGYUVKSktBQdPo7cdDYsVLS0tBQdPI7cFLR2TlQUvFS8vLQUHTwkdBBMFAREBMQcDAQEGAwEFAQCeBDEVDRkPCQsJC0UlLRkNDQ0TEQsRC18hDxFidWlsdGluAG1vZHVsZQBybXNfbm9ybV9rZXJuZWwAL3dvcmsvd3Q0MS9zY3JpcHRzL2pheHJlZi9tb2RlbHMvZ2VuX21vZGVscy5weQBtdWw6AG11bC9tdWwAZ2V0OgBnZXQvZ2V0AHRwdS5sb2NzAHhfcmVmAGdfcmVmAG9fcmVmAHJlZHVjZV9zdW06AHJlZHVjZV9zdW0vcmVkdWNlX3N1bQBicm9hZGNhc3RfaW5fZGltOgBicm9hZGNhc3RfaW5fZGltL2Jyb2FkY2FzdF9pbl9kaW0AZGl2OgBkaXYAYWRkOgBhZGQAcnNxcnQ6AHJzcXJ0L3JzcXJ0AHN3YXA6AHN3YXAvc3dhcAA=\22}}", kernel_name = "rms_norm_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<16x128xf32>, tensor<1x128xf32>) -> tensor<16x128xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %3 = stablehlo.dot_general %1, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %4 = stablehlo.dot_general %1, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %5 = stablehlo.transpose %3, dims = [1, 0] : (tensor<16x128xf32>) -> tensor<128x16xf32>
    %6 = stablehlo.dot_general %2, %5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x16xf32>) -> tensor<16x16xf32>
    %cst = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %7 = stablehlo.sqrt %cst : tensor<f32>
    %8 = stablehlo.convert %7 : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %10 = stablehlo.divide %6, %9 : tensor<16x16xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %11 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %12 = call @tril(%11) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %13 = call @_where(%12, %10, %cst_0) : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) -> tensor<16x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %16 = stablehlo.maximum %15, %14 : tensor<16xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %19 = stablehlo.subtract %13, %18 : tensor<16x16xf32>
    %20 = stablehlo.exponential %19 : tensor<16x16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %24 = stablehlo.divide %20, %23 : tensor<16x16xf32>
    %25 = stablehlo.dot_general %24, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x16xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %26 = stablehlo.add %arg0, %25 : tensor<16x128xf32>
    %27 = stablehlo.reshape %arg1 : (tensor<128xf32>) -> tensor<1x128xf32>
    %28 = stablehlo.custom_call @tpu_custom_call(%26, %27) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEvCwEDBQcJAQMLAxkNDxETFRcZGx0fISMDu4kbAX0HExMTCwsLCwsLCwsPC1MLCxsLD0sLDwsLMwsLCwsXGwsjCwtTGwsbGxsPDwsTHxsLCzMTHxMfIwsPC1MLEwUJYZFNgQcDWQkDSQEbDwcHGw8XIxMjHxsbCwLaBx8DAwtVAwMLVwMDWYUFJQUnBSkFKwUtDRUFLy8REQkBBTEjCQUhCAAAAAAAAACAAAAAAAAAAAUzBTUDBSUnCRUFNxEJPQMRKy0NLzEzNRk3GQkVOYE7PQU5AQN/DRMFOyMJAxECAAAAAAAAAAU9BT8FQQVDAQc/Q0sDBQ9BER0JGwMHRYMPRxFJBUUJHyMJBSEBAAAAAAAAAIAAAAAAAAAAAwUPTREdCSEDBQ0TCRsDBQ0TCR8DBQ0TCSERAQERBQEFRwMDC10lDwkAAAAAAwVhh2NlBUkFSyMJAxEBAAAAAAAAAAMDC2kTAxAAAMAQAwMLbRMDUO+NYQ0DB3FzdXd5ewVNERkABU8jAQkhAQAAAAEAAAACAAAAAAAAAAVRIwEBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxhcmJpdHJhcnk+ACN0cHUuY29yZV90eXBlPHRjPgAjdHB1LnBpcGVsaW5lX21vZGU8c3luY2hyb25vdXM+ACNhcml0aC5mYXN0bWF0aDxub25lPgAjdmVjdG9yLmtpbmQ8YWRkPgABAgILAycFIQIEAwECBCcFIQUDF30FIQIEAxcnAyEDF30FBQIEAxcFCQENEQ0BBQMBBQEBJwUFAgQDAQkE1gQFAREBIwcDAREFEQEpBwM5awkBAQ0BEQENAQMDAQUDBQMDAQUDBQsGAQMHBwMJCw0HAQcDBwUNDQMDAVsDDw8HAV8DDwUPEREGAQMLAxMDAwFnAwMJBgEDCwMXEwcBBwMLBRUZAwMBawMDCQYBAwsDHRUHAQcDCwUbHxcHAQcDCwMhCQYBAwcDIw0HAQcDBwUNJQMDAQUDBQMDAQUDBQsGAQMXBwUpKwkGAQMHAy0NBwEHAwcFJy8DAwEFAwUDAwEFAwULBgEDBwcHMzUZBQFvCTEHMzUHAAEFEQFPBwMHDwMBAQMDAQMDAQMDAQMDAQcEAQUBAwURAVEHAwkTAwEBAwMBAwMBAwMBAwMBAwMBAwMBBwQBBQMFBREBUwcDBw8DAQEDAwEDAwEDAwEDAwEHBAEFAQMGAwEFAQDSCFMRKQkfCxMdHR0jISMpLRkZGSEdJR0NEyMXFxclLxcZIxkVHw8PDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAdmVjdG9yAG1vZHVsZQBhcml0aC5jb25zdGFudABmdW5jLmZ1bmMAZnVuYy5yZXR1cm4AdmVjdG9yLmJyb2FkY2FzdAB2ZWN0b3IubG9hZABhcml0aC5tdWxmAHZlY3Rvci5tdWx0aV9yZWR1Y3Rpb24AdmVjdG9yLnNoYXBlX2Nhc3QAYXJpdGguZGl2ZgBhcml0aC5hZGRmAG1hdGgucnNxcnQAdHB1LnZlY3Rvcl9zdG9yZQBzeW1fbmFtZQB2YWx1ZQBmdW5jdGlvbl90eXBlAHRyYW5zZm9ybV9pbmRpY2VzAHdpbmRvd19ib3VuZHMAcm1zX25vcm1fa2VybmVsAHRyYW5zZm9ybV8wAHRyYW5zZm9ybV8xAHRyYW5zZm9ybV8yAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAHBpcGVsaW5lX21vZGUAZmFzdG1hdGgAa2luZAByZWR1Y3Rpb25fZGltcwBhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDoZkBAZkHCwsPDwsLDw8PDwsLDw8PDw8PDw8PDw8TC8sPCw8LDwsPDxsPDw8bCw8LGw8LDwsLDwsLDwsPGw8LDwsPGw8PGw8PGw8PGwsPCw8bAl4EHwUFBQcdj5EdF0MFCQULHQNXHWFjHWdpHReDBQ0FDx0DRx0DTx1RUxUPDx0Dex0LfR0DgR0Dhx0LiR0DjR0DlwMDMzUFEQFhAQEBNzs/CQkJSR8fWRERERMTE3ElJRUVFSsrBwcHBwEBAQEBAQEBAQEBAQEBAQEBHTkBBRMdPQEFFR1BAQUXHRlFFRsbLQUHTRElHQtLHQ1NFR0dLQUHT1FbBRkdVSEFGy0FB08/jR1bXQUdHV8hBR8FIR1lDwUjBSUda20FJx0Dby0FB08/mx1zdQUpHXd5BSsVIyMtBQdPK50dDX8VJyctBQdPI50dGYUVKSktBQdPo7cdDYsVLS0tBQdPI7cFLR2TlQUvFS8vLQUHTwkdBBMFAREBMQcDAQEGAwEFAQCeBDEVDRkPCQsJC0UlLRkNDQ0TEQsRC18hDxFidWlsdGluAG1vZHVsZQBybXNfbm9ybV9rZXJuZWwAL3dvcmsvd3Q0MS9zY3JpcHRzL2pheHJlZi9tb2RlbHMvZ2VuX21vZGVscy5weQBtdWw6AG11bC9tdWwAZ2V0OgBnZXQvZ2V0AHRwdS5sb2NzAHhfcmVmAGdfcmVmAG9fcmVmAHJlZHVjZV9zdW06AHJlZHVjZV9zdW0vcmVkdWNlX3N1bQBicm9hZGNhc3RfaW5fZGltOgBicm9hZGNhc3RfaW5fZGltL2Jyb2FkY2FzdF9pbl9kaW0AZGl2OgBkaXYAYWRkOgBhZGQAcnNxcnQ6AHJzcXJ0L3JzcXJ0AHN3YXA6AHN3YXAvc3dhcAA=\22}}", kernel_name = "rms_norm_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<16x128xf32>, tensor<1x128xf32>) -> tensor<16x128xf32>
    %29 = stablehlo.dot_general %28, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<16x256xf32>
    %32 = stablehlo.negate %29 : tensor<16x256xf32>
    %cst_5 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %34 = stablehlo.multiply %32, %33 : tensor<16x256xf32>
    %35 = chlo.erfc %34 : tensor<16x256xf32> -> tensor<16x256xf32>
    %36 = stablehlo.multiply %31, %35 : tensor<16x256xf32>
    %37 = stablehlo.dot_general %36, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
    %38 = stablehlo.add %26, %37 : tensor<16x128xf32>
    return %38 : tensor<16x128xf32>
  }
  func.func private @tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<16x16xi1>, tensor<16x16xi1>
    return %6 : tensor<16x16xi1>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<16x16xf32>, %arg2: tensor<f32>) -> tensor<16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<16x16xi1>, tensor<16x16xf32>
    return %2 : tensor<16x16xf32>
  }
}
