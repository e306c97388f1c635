module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8x128xf32>) -> (tensor<16x8x128xf32> {jax.result_info = "result"}) {
    %0 = call @f(%arg0) : (tensor<16x8x128xf32>) -> tensor<16x8x128xf32>
    return %0 : tensor<16x8x128xf32>
  }
  func.func private @f(%arg0: tensor<16x8x128xf32>) -> tensor<16x8x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x8x128xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0, %iterArg_3 = %0) : tensor<i32>, tensor<i32>, tensor<16x8x128xf32>, tensor<16x8x128xf32>
    cond {
      %c_4 = stablehlo.constant dense<16> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      %3 = stablehlo.broadcast_in_dim %iterArg_1, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %4:3 = stablehlo.custom_call @tpu_custom_call(%3, %iterArg_2) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEhBwEDBQEDBwMPCQsNDxETFQN3SxkBQwcLCwsLEw8LGwsPOwsLCwsLCwsLDwsPCxMPE0MjgwsLDwUJXWGFTQEXDycPByMbFwcjJwsFA00C8gQfBRcFGS8ZBRsDAwkNEQEBBR0DBRMVAwUFHxEFPQMNGRsdHycpKy0DBS9JBSEBAQUjDREvCS8RLwEFJREFBQUnEQUBBSkDAwkzEQ8BAwMPNyMBBxkBAAAAAwAAAAAAAAADBw87PQ0/QSMBDzkBAAAAAAAAAAEAAAABAAAAAAAAAAAAAAAAAAAABSsFLREVACN0cHUubWVtb3J5X3NwYWNlPGFueT4AI3RwdS5tZW1vcnlfc3BhY2U8c21lbT4AI3RwdS5tZW1vcnlfc3BhY2U8c2VtYXBob3JlX21lbT4AI3RwdS5jb3JlX3R5cGU8dGM+AAECAhdDB0EhAgQHBwECBAsXQwUhAgQHIxdFAwUBIRdHARclAwULCwMDCQ0BF0MHBSECBAcHAQkhdHB1LmRtYV9zZW1hcGhvcmUABKcFAREBEQcDAQUFEQEXBwMXIwsLAQMBAwEJAQ0BAwMBMQMPBwYBAwEFAQsDAwELAwEDAwELAwEJBwE1AxMJAw0PEQsGAQMJAxMNBQE5BxUHCQ8AAQYDAQUBAG4FLyETHSMhHSktKQ01ExkhJyMZFR8PCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBtb2R1bGUAYXJpdGguY29uc3RhbnQAZnVuYy5mdW5jAG1lbXJlZi5sb2FkAHRwdS5tZW1yZWZfc2xpY2UAdHB1Lm1lbXJlZl9zcXVlZXplAHRwdS5lbnF1ZXVlX2RtYQBmdW5jLnJldHVybgBzeW1fbmFtZQBhc3luY19kc2xpY2Vfc3RhcnRfa2VybmVsAHZhbHVlAG9wZXJhbmRTZWdtZW50U2l6ZXMAc3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAZnVuY3Rpb25fdHlwZQBzY2FsYXJfcHJlZmV0Y2gAc2NyYXRjaF9vcGVyYW5kcwB0cHUuY29yZV90eXBlAHByaW9yaXR5AHN0cmljdF9vcmRlcmluZwA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22output_memory_space_colors\22: [{\22color\22:2,\22shape_index\22:[2]}], \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDQzsBATsHDw8LCw8TC0cPCw8LDwsPCw8LCw8LDx8LDwsPHwLBHx0xMx0nKQUFBQcdBzkDAw8RBQkBHwEBExcbHyMFBQMDAwMDAR0VAQULHRkBBQ0dHQEFDx0hAQURHSUBBRMFFR0rLQUXHQcvLQkHUgJHXwUZHTU3BRsVCwstCQdSAgmLBBMFAREBDQcDAQEGAwEFAQB2Ax0pFwkLCQ0dDRUTVXkPEWJ1aWx0aW4AbW9kdWxlAG1ha2VfYXN5bmNfZHluYW1pY19zbGljZS48bG9jYWxzPi5hc3luY19kc2xpY2Vfc3RhcnRfa2VybmVsAC90bXAvdG1wNWs1MHVja2svdHB1X3BhbGxhc19hc3luY190ZXN0LnB5AHRwdS5sb2NzAGluZGV4X3JlZgB4X3JlZgBhbGlhc2VkX3hfcmVmAG9fcmVmAHNlbQBnZXQ6AGdldABkbWFfc3RhcnQ6AGRtYV9zdGFydC9kbWFfc3RhcnQA\22}}", kernel_name = "async_dslice_start_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<0> : tensor<1xindex>, dense<[2, 1, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[2, 1, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<1xi32>, tensor<16x8x128xf32>) -> (tensor<16x8x128xf32>, tensor<8x128xf32>, tensor<i32>)
      %5 = stablehlo.custom_call @tpu_custom_call(%4#0, %4#1, %4#2) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEfBwEDBQEDBwMNCQsNDxETA21FFQE/BxMLCwsPDwsbCw87CwsLCwsLCwsLCxNDK4MLCw8LDwUHXYVNARMPIwcPJxcLHycFA00CXgQfAwMrDQUVBRcvGREHAREBAQUZAwUTFQUHBRsRBz0DDRkbHR8lCycLBQcpQwUdAQEFHw0PLxEvAQUhBSMFJQUnAwMPLyMBBxkBAAAAAwAAAAAAAAADCQ8zNQ03OTs9IwEPOQEAAAAAAAAAAQAAAAEAAAAAAAAAAAAAAAAAAAAFKQUrEQ0ABS0RDQEjdHB1Lm1lbW9yeV9zcGFjZTxhbnk+ACN0cHUubWVtb3J5X3NwYWNlPHNlbWFwaG9yZV9tZW0+ACN0cHUuY29yZV90eXBlPHRjPgABAgIXPwUhAgQFIQsBAgQXPwdBIQIEBQkXQQETIwEJBQkJAwsDARc/BwUhAgQFCSF0cHUuZG1hX3NlbWFwaG9yZQAEkwUBEQERBwMBBQURARcHAxMfCQkBAwELAQMBAwMBAwMBAwMBAwMBAwMBAwMBBwcBLQMRCQEJCw0JBgEDAwMPCwUBMQcRAwUNAAEGAwEFAQBeBS8ZIRMNHSMhHSktKTMTGRsnIxUfDwkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAbW9kdWxlAGFyaXRoLmNvbnN0YW50AGZ1bmMuZnVuYwB0cHUubWVtcmVmX3NsaWNlAHRwdS5tZW1yZWZfc3F1ZWV6ZQB0cHUud2FpdF9kbWEAZnVuYy5yZXR1cm4Ac3ltX25hbWUAYXN5bmNfZHNsaWNlX2RvbmVfa2VybmVsAG9wZXJhbmRTZWdtZW50U2l6ZXMAc3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAZnVuY3Rpb25fdHlwZQBzY2FsYXJfcHJlZmV0Y2gAc2NyYXRjaF9vcGVyYW5kcwB0cHUuY29yZV90eXBlAHZhbHVlAHByaW9yaXR5AHN0cmljdF9vcmRlcmluZwB3YWl0X3RhcmdldAA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDOTEBATEHDw8LEws/DwsPCw8LDwsPDwsLHwsPCw8Cmx8dBysdJScFBQMDCw0FBwEbAQEPExcbHwMDAwMDAR0RAQUJHRUBBQsdGQEFDR0dAQUPHQchHSMFBREFEy0pB2ICCXMFFR0tLwUXFQUFBBMFAREBCQcDAQEGAwEFAQA2AxklVXcTHQkNDRMVDxFidWlsdGluAG1vZHVsZQBkbWFfd2FpdDoAdHB1LmxvY3MAeF9yZWYAb19yZWYAc2VtAGFsaWFzZWRfb19yZWYAZG1hX3dhaXQAbWFrZV9hc3luY19keW5hbWljX3NsaWNlLjxsb2NhbHM+LmFzeW5jX2RzbGljZV9kb25lX2tlcm5lbAAvdG1wL3RtcDVrNTB1Y2trL3RwdV9wYWxsYXNfYXN5bmNfdGVzdC5weQBkbWFfd2FpdC9kbWFfd2FpdAA=\22}}", kernel_name = "async_dslice_done_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<[2, 1, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<> : tensor<0xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<16x8x128xf32>, tensor<8x128xf32>, tensor<i32>) -> tensor<8x128xf32>
      %c_5 = stablehlo.constant dense<0> : tensor<i32>
      %6 = stablehlo.compare LT, %iterArg_1, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_6 = stablehlo.constant dense<16> : tensor<i32>
      %7 = stablehlo.add %iterArg_1, %c_6 : tensor<i32>
      %8 = stablehlo.select %6, %7, %iterArg_1 : tensor<i1>, tensor<i32>
      %9 = stablehlo.convert %8 : tensor<i32>
      %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %11 = "stablehlo.scatter"(%iterArg_3, %10, %5) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
      ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
        stablehlo.return %arg2 : tensor<f32>
      }) : (tensor<16x8x128xf32>, tensor<1xi32>, tensor<8x128xf32>) -> tensor<16x8x128xf32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %12 = stablehlo.add %iterArg, %c_7 : tensor<i32>
      stablehlo.return %12, %2, %4#0, %11 : tensor<i32>, tensor<i32>, tensor<16x8x128xf32>, tensor<16x8x128xf32>
    }
    return %1#3 : tensor<16x8x128xf32>
  }
}
