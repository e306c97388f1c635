module @jit_wrapper attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = call @wrapper() : () -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @wrapper() -> tensor<8xf32> {
    %0 = stablehlo.custom_call @tpu_custom_call() {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEXBwEDBQEDBwMFCQsDTzULAS8HCwsPGwsPSwsPCwsLCzMLCwsLDxMLGwUHjWGJAQsPDxsXBwISAx8FDQUPEQEBAwULDQMFBRERAT0DERETFRcbHR8HIQcDBSMzJScFEwEDLwUVDQcvCQUXIwEDEQEAAAAAAAAABRkFGwUdBR8BAykDAystBSEvDwEDBQEjdHB1LmRpbWVuc2lvbl9zZW1hbnRpY3M8cGFyYWxsZWw+ACN0cHUubWVtb3J5X3NwYWNlPHNtZW0+ACN0cHUuY29yZV90eXBlPHNjX3NjYWxhcl9zdWJjb3JlPgABAgQBAgIXMQMhCRkFBQMFAQsEMwUBEQEJBwMBBQMRAQ8HAwUHBQMBBQEFAAEGAwEFAQDGAyMlHR0jISMdKS0PExkVDwkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAbW9kdWxlAGZ1bmMuZnVuYwBmdW5jLnJldHVybgBzeW1fbmFtZQBrZXJuZWwAc3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAZnVuY3Rpb25fdHlwZQBpdGVyYXRpb25fYm91bmRzAHNjYWxhcl9wcmVmZXRjaABzY3JhdGNoX29wZXJhbmRzAHRwdS5jb3JlX3R5cGUAd2luZG93X3BhcmFtcwB0cmFuc2Zvcm1faW5kaWNlcwA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDFQ0BAQ0HEwsfDwsCJx8DAwUHBQUBCwEBAQkBHQsBBQcEEwUBEQEDBwMBAQYDAQUBAE8JFRMPEWJ1aWx0aW4AbW9kdWxlAHRwdS5sb2NzAG9faGJtX3JlZgA=\22}, \22sparse_core_config\22: {\0A\22tiling\22:\22TILING_COMPACT\22\0A}, \22device_type\22: \22DEVICE_TYPE_SPARSECORE\22}", kernel_name = "kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [], result_layouts = [dense<0> : tensor<1xindex>]} : () -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
