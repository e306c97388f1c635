"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<16x128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<16x128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128x128xf32>, %arg7: tensor<128x128xf32>, %arg8: tensor<128x128xf32>, %arg9: tensor<128x256xf32>, %arg10: tensor<256x128xf32>):
    %12 = "stablehlo.reshape"(%arg5) : (tensor<128xf32>) -> tensor<1x128xf32>
    %13 = "stablehlo.custom_call"(%arg4, %12) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEvCwEDBQcJAQMLAxkNDxETFRcZGx0fISMDu4kbAX0HExMTCwsLCwsLCwsPC1MLCxsLD0sLDwsLMwsLCwsXGwsjCwtTGwsbGxsPDwsTHxsLCzMTHxMfIwsPC1MLEwUJYZFNgQcDWQkDSQEbDwcHGw8XIxMjHxsbCwLaBx8DAwtVAwMLVwMDWYUFJQUnBSkFKwUtDRUFLy8REQkBBTEjCQUhCAAAAAAAAACAAAAAAAAAAAUzBTUDBSUnCRUFNxEJPQMRKy0NLzEzNRk3GQkVOYE7PQU5AQN/DRMFOyMJAxECAAAAAAAAAAU9BT8FQQVDAQc/Q0sDBQ9BER0JGwMHRYMPRxFJBUUJHyMJBSEBAAAAAAAAAIAAAAAAAAAAAwUPTREdCSEDBQ0TCRsDBQ0TCR8DBQ0TCSERAQERBQEFRwMDC10lDwkAAAAAAwVhh2NlBUkFSyMJAxEBAAAAAAAAAAMDC2kTAxAAAMAQAwMLbRMDUO+NYQ0DB3FzdXd5ewVNERkABU8jAQkhAQAAAAEAAAACAAAAAAAAAAVRIwEBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxhcmJpdHJhcnk+ACN0cHUuY29yZV90eXBlPHRjPgAjdHB1LnBpcGVsaW5lX21vZGU8c3luY2hyb25vdXM+ACNhcml0aC5mYXN0bWF0aDxub25lPgAjdmVjdG9yLmtpbmQ8YWRkPgABAgILAycFIQIEAwECBCcFIQUDF30FIQIEAxcnAyEDF30FBQIEAxcFCQENEQ0BBQMBBQEBJwUFAgQDAQkE1gQFAREBIwcDAREFEQEpBwM5awkBAQ0BEQENAQMDAQUDBQMDAQUDBQsGAQMHBwMJCw0HAQcDBwUNDQMDAVsDDw8HAV8DDwUPEREGAQMLAxMDAwFnAwMJBgEDCwMXEwcBBwMLBRUZAwMBawMDCQYBAwsDHRUHAQcDCwUbHxcHAQcDCwMhCQYBAwcDIw0HAQcDBwUNJQMDAQUDBQMDAQUDBQsGAQMXBwUpKwkGAQMHAy0NBwEHAwcFJy8DAwEFAwUDAwEFAwULBgEDBwcHMzUZBQFvCTEHMzUHAAEFEQFPBwMHDwMBAQMDAQMDAQMDAQMDAQcEAQUBAwURAVEHAwkTAwEBAwMBAwMBAwMBAwMBAwMBAwMBBwQBBQMFBREBUwcDBw8DAQEDAwEDAwEDAwEDAwEHBAEFAQMGAwEFAQDSCFMRKQkfCxMdHR0jISMpLRkZGSEdJR0NEyMXFxclLxcZIxkVHw8PDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAdmVjdG9yAG1vZHVsZQBhcml0aC5jb25zdGFudABmdW5jLmZ1bmMAZnVuYy5yZXR1cm4AdmVjdG9yLmJyb2FkY2FzdAB2ZWN0b3IubG9hZABhcml0aC5tdWxmAHZlY3Rvci5tdWx0aV9yZWR1Y3Rpb24AdmVjdG9yLnNoYXBlX2Nhc3QAYXJpdGguZGl2ZgBhcml0aC5hZGRmAG1hdGgucnNxcnQAdHB1LnZlY3Rvcl9zdG9yZQBzeW1fbmFtZQB2YWx1ZQBmdW5jdGlvbl90eXBlAHRyYW5zZm9ybV9pbmRpY2VzAHdpbmRvd19ib3VuZHMAcm1zX25vcm1fa2VybmVsAHRyYW5zZm9ybV8wAHRyYW5zZm9ybV8xAHRyYW5zZm9ybV8yAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAHBpcGVsaW5lX21vZGUAZmFzdG1hdGgAa2luZAByZWR1Y3Rpb25fZGltcwBhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDoZkBAZkHCwsPDwsLDw8PDwsLDw8PDw8PDw8PDw8TC8sPCw8LDwsPDxsPDw8bCw8LGw8LDwsLDwsLDwsPGw8LDwsPGw8PGw8PGw8PGwsPCw8bAl4EHwUFBQcdj5EdF0MFCQULHQNXHWFjHWdpHReDBQ0FDx0DRx0DTx1RUxUPDx0Dex0LfR0DgR0Dhx0LiR0DjR0DlwMDMzUFEQFhAQEBNzs/CQkJSR8fWRERERMTE3ElJRUVFSsrBwcHBwEBAQEBAQEBAQEBAQEBAQEBHTkBBRMdPQEFFR1BAQUXHRlFFRsbLQUHTRElHQtLHQ1NFR0dLQUHT1FbBRkdVSEFGy0FB08/jR1bXQUdHV8hBR8FIR1lDwUjBSUda20FJx0Dby0FB08/mx1zdQUpHXd5BSsVIyMtBQdPK50dDX8VJyctBQdPI50dGYUVKSktBQdPo7cdDYsVLS0tBQdPI7cFLR2TlQUvFS8vLQUHTwkdBBMFAREBMQcDAQEGAwEFAQCeBDEVDRkPCQsJC0UlLRkNDQ0TEQsRC18hDxFidWlsdGluAG1vZHVsZQBybXNfbm9ybV9rZXJuZWwAL3dvcmsvd3Q0MS9zY3JpcHRzL2pheHJlZi9tb2RlbHMvZ2VuX21vZGVscy5weQBtdWw6AG11bC9tdWwAZ2V0OgBnZXQvZ2V0AHRwdS5sb2NzAHhfcmVmAGdfcmVmAG9fcmVmAHJlZHVjZV9zdW06AHJlZHVjZV9zdW0vcmVkdWNlX3N1bQBicm9hZGNhc3RfaW5fZGltOgBicm9hZGNhc3RfaW5fZGltL2Jyb2FkY2FzdF9pbl9kaW0AZGl2OgBkaXYAYWRkOgBhZGQAcnNxcnQ6AHJzcXJ0L3JzcXJ0AHN3YXA6AHN3YXAvc3dhcAA=\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "rms_norm_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<16x128xf32>, tensor<1x128xf32>) -> tensor<16x128xf32>
    %14 = "stablehlo.dot_general"(%13, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %15 = "stablehlo.dot_general"(%13, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %16 = "stablehlo.dot_general"(%13, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32>
    %17 = "stablehlo.transpose"(%15) <{permutation = array<i64: 1, 0>}> : (tensor<16x128xf32>) -> tensor<128x16xf32>
    %18 = "stablehlo.dot_general"(%14, %17) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x16xf32>) -> tensor<16x16xf32>
    %19 = "stablehlo.constant"() <{value = dense<1.280000e+02> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.sqrt"(%19) : (tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.convert"(%20) : (tensor<f32>) -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x16xf32>
    %23 = "stablehlo.divide"(%18, %22) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %24 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %26 = "func.call"(%25) <{callee = @tril}> : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %27 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %28 = "func.call"(%26, %23, %27) <{callee = @_where}> : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) -> tensor<16x16xf32>
    %29 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %60 = "stablehlo.maximum"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %31 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %33 = "stablehlo.maximum"(%32, %30) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %36 = "stablehlo.subtract"(%28, %35) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %37 = "stablehlo.exponential"(%36) : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %38 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%37, %38) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %59 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%59) : (tensor<f32>) -> ()
    }) : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %42 = "stablehlo.divide"(%37, %41) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %43 = "stablehlo.dot_general"(%42, %16) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x16xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %44 = "stablehlo.add"(%arg4, %43) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    %45 = "stablehlo.reshape"(%arg5) : (tensor<128xf32>) -> tensor<1x128xf32>
    %46 = "stablehlo.custom_call"(%44, %45) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEvCwEDBQcJAQMLAxkNDxETFRcZGx0fISMDu4kbAX0HExMTCwsLCwsLCwsPC1MLCxsLD0sLDwsLMwsLCwsXGwsjCwtTGwsbGxsPDwsTHxsLCzMTHxMfIwsPC1MLEwUJYZFNgQcDWQkDSQEbDwcHGw8XIxMjHxsbCwLaBx8DAwtVAwMLVwMDWYUFJQUnBSkFKwUtDRUFLy8REQkBBTEjCQUhCAAAAAAAAACAAAAAAAAAAAUzBTUDBSUnCRUFNxEJPQMRKy0NLzEzNRk3GQkVOYE7PQU5AQN/DRMFOyMJAxECAAAAAAAAAAU9BT8FQQVDAQc/Q0sDBQ9BER0JGwMHRYMPRxFJBUUJHyMJBSEBAAAAAAAAAIAAAAAAAAAAAwUPTREdCSEDBQ0TCRsDBQ0TCR8DBQ0TCSERAQERBQEFRwMDC10lDwkAAAAAAwVhh2NlBUkFSyMJAxEBAAAAAAAAAAMDC2kTAxAAAMAQAwMLbRMDUO+NYQ0DB3FzdXd5ewVNERkABU8jAQkhAQAAAAEAAAACAAAAAAAAAAVRIwEBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuZGltZW5zaW9uX3NlbWFudGljczxhcmJpdHJhcnk+ACN0cHUuY29yZV90eXBlPHRjPgAjdHB1LnBpcGVsaW5lX21vZGU8c3luY2hyb25vdXM+ACNhcml0aC5mYXN0bWF0aDxub25lPgAjdmVjdG9yLmtpbmQ8YWRkPgABAgILAycFIQIEAwECBCcFIQUDF30FIQIEAxcnAyEDF30FBQIEAxcFCQENEQ0BBQMBBQEBJwUFAgQDAQkE1gQFAREBIwcDAREFEQEpBwM5awkBAQ0BEQENAQMDAQUDBQMDAQUDBQsGAQMHBwMJCw0HAQcDBwUNDQMDAVsDDw8HAV8DDwUPEREGAQMLAxMDAwFnAwMJBgEDCwMXEwcBBwMLBRUZAwMBawMDCQYBAwsDHRUHAQcDCwUbHxcHAQcDCwMhCQYBAwcDIw0HAQcDBwUNJQMDAQUDBQMDAQUDBQsGAQMXBwUpKwkGAQMHAy0NBwEHAwcFJy8DAwEFAwUDAwEFAwULBgEDBwcHMzUZBQFvCTEHMzUHAAEFEQFPBwMHDwMBAQMDAQMDAQMDAQMDAQcEAQUBAwURAVEHAwkTAwEBAwMBAwMBAwMBAwMBAwMBAwMBBwQBBQMFBREBUwcDBw8DAQEDAwEDAwEDAwEDAwEHBAEFAQMGAwEFAQDSCFMRKQkfCxMdHR0jISMpLRkZGSEdJR0NEyMXFxclLxcZIxkVHw8PDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAdmVjdG9yAG1vZHVsZQBhcml0aC5jb25zdGFudABmdW5jLmZ1bmMAZnVuYy5yZXR1cm4AdmVjdG9yLmJyb2FkY2FzdAB2ZWN0b3IubG9hZABhcml0aC5tdWxmAHZlY3Rvci5tdWx0aV9yZWR1Y3Rpb24AdmVjdG9yLnNoYXBlX2Nhc3QAYXJpdGguZGl2ZgBhcml0aC5hZGRmAG1hdGgucnNxcnQAdHB1LnZlY3Rvcl9zdG9yZQBzeW1fbmFtZQB2YWx1ZQBmdW5jdGlvbl90eXBlAHRyYW5zZm9ybV9pbmRpY2VzAHdpbmRvd19ib3VuZHMAcm1zX25vcm1fa2VybmVsAHRyYW5zZm9ybV8wAHRyYW5zZm9ybV8xAHRyYW5zZm9ybV8yAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAHBpcGVsaW5lX21vZGUAZmFzdG1hdGgAa2luZAByZWR1Y3Rpb25fZGltcwBhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDoZkBAZkHCwsPDwsLDw8PDwsLDw8PDw8PDw8PDw8TC8sPCw8LDwsPDxsPDw8bCw8LGw8LDwsLDwsLDwsPGw8LDwsPGw8PGw8PGw8PGwsPCw8bAl4EHwUFBQcdj5EdF0MFCQULHQNXHWFjHWdpHReDBQ0FDx0DRx0DTx1RUxUPDx0Dex0LfR0DgR0Dhx0LiR0DjR0DlwMDMzUFEQFhAQEBNzs/CQkJSR8fWRERERMTE3ElJRUVFSsrBwcHBwEBAQEBAQEBAQEBAQEBAQEBHTkBBRMdPQEFFR1BAQUXHRlFFRsbLQUHTRElHQtLHQ1NFR0dLQUHT1FbBRkdVSEFGy0FB08/jR1bXQUdHV8hBR8FIR1lDwUjBSUda20FJx0Dby0FB08/mx1zdQUpHXd5BSsVIyMtBQdPK50dDX8VJyctBQdPI50dGYUVKSktBQdPo7cdDYsVLS0tBQdPI7cFLR2TlQUvFS8vLQUHTwkdBBMFAREBMQcDAQEGAwEFAQCeBDEVDRkPCQsJC0UlLRkNDQ0TEQsRC18hDxFidWlsdGluAG1vZHVsZQBybXNfbm9ybV9rZXJuZWwAL3dvcmsvd3Q0MS9zY3JpcHRzL2pheHJlZi9tb2RlbHMvZ2VuX21vZGVscy5weQBtdWw6AG11bC9tdWwAZ2V0OgBnZXQvZ2V0AHRwdS5sb2NzAHhfcmVmAGdfcmVmAG9fcmVmAHJlZHVjZV9zdW06AHJlZHVjZV9zdW0vcmVkdWNlX3N1bQBicm9hZGNhc3RfaW5fZGltOgBicm9hZGNhc3RfaW5fZGltL2Jyb2FkY2FzdF9pbl9kaW0AZGl2OgBkaXYAYWRkOgBhZGQAcnNxcnQ6AHJzcXJ0L3JzcXJ0AHN3YXA6AHN3YXAvc3dhcAA=\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "rms_norm_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<16x128xf32>, tensor<1x128xf32>) -> tensor<16x128xf32>
    %47 = "stablehlo.dot_general"(%46, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x128xf32>, tensor<128x256xf32>) -> tensor<16x256xf32>
    %48 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %50 = "stablehlo.multiply"(%49, %47) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %51 = "stablehlo.negate"(%47) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %52 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %54 = "stablehlo.multiply"(%51, %53) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %55 = "chlo.erfc"(%54) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %56 = "stablehlo.multiply"(%50, %55) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %57 = "stablehlo.dot_general"(%56, %arg10) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x256xf32>, tensor<256x128xf32>) -> tensor<16x128xf32>
    %58 = "stablehlo.add"(%44, %57) : (tensor<16x128xf32>, tensor<16x128xf32>) -> tensor<16x128xf32>
    "func.return"(%58) : (tensor<16x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>) -> tensor<16x16xi1>, sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16x16xi1>):
    %3 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16x16xi32>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x16xi32>
    %6 = "stablehlo.add"(%3, %5) : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi32>
    %7 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x16xi32>
    %8 = "stablehlo.compare"(%6, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %9 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %11 = "stablehlo.select"(%8, %arg3, %10) : (tensor<16x16xi1>, tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    "func.return"(%11) : (tensor<16x16xi1>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>, tensor<16x16xf32>, tensor<f32>) -> tensor<16x16xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x16xi1>, %arg1: tensor<16x16xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x16xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<16x16xi1>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    "func.return"(%2) : (tensor<16x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
