module @jit_run_mpmd attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xbf16>) -> (tensor<8xbf16> {jax.result_info = "result"}) {
    %0 = call @run_mpmd(%arg0) : (tensor<8xbf16>) -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
  }
  func.func private @run_mpmd(%arg0: tensor<8xbf16>) -> tensor<8xbf16> {
    %0 = stablehlo.custom_call @tpu_custom_call(%arg0) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEXBwEDBQEDBwMFCQsDTzULAS8HCwsPExsLD0sLDwsLCwszCwsLCxMLGwUHjWGJAQsbDw8bBwIaAx8FDQUPEQMBAwMrLQMFDQ8DBQUREQM9AxETFRcZHR8hByMHAwUlMycpBRMBAy8FFQ0HLwkFFyMDAxEBAAAAAAAAAAUZBRsFHQUfAQUJCQUhLw8BAwUBI3RwdS5kaW1lbnNpb25fc2VtYW50aWNzPHBhcmFsbGVsPgAjdHB1Lm1lbW9yeV9zcGFjZTxzbWVtPgAjdHB1LmNvcmVfdHlwZTxzY19zY2FsYXJfc3ViY29yZT4AFzEDIQkbAQIEAQICBQcFAQEBBwQ3BQERAQsHAwEFAxEBEQcDBwcHBQEBAQEBBQABBgMBBQEAzgMjJR0dIyEjHSktExMZFQ8JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AG1vZHVsZQBmdW5jLmZ1bmMAZnVuYy5yZXR1cm4Ac3ltX25hbWUAX2xhbWJkYV8Ac3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAZnVuY3Rpb25fdHlwZQBpdGVyYXRpb25fYm91bmRzAHNjYWxhcl9wcmVmZXRjaABzY3JhdGNoX29wZXJhbmRzAHRwdS5jb3JlX3R5cGUAd2luZG93X3BhcmFtcwB0cmFuc2Zvcm1faW5kaWNlcwA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDGREBAREHEwsjDwsPCwIzHwMDBQcFBQENAQEBCQ0BHQsBBQcdDwEFCQQTBQERAQMHAwEBBgMBBQEAUQsLCxMPEWJ1aWx0aW4AbW9kdWxlAHRwdS5sb2NzAF9bMF0AX1sxXQA=\22}, \22sparse_core_config\22: {\0A\22tiling\22:\22TILING_COMPACT\22\0A}, \22device_type\22: \22DEVICE_TYPE_SPARSECORE\22}", kernel_name = "_lambda_", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<8xbf16>) -> tensor<8xbf16>
    return %0 : tensor<8xbf16>
  }
}
