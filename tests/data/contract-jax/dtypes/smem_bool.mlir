module @jit_smem attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xi1>) -> (tensor<4xi1> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<4xi1>) -> tensor<4xi32>
    %1 = stablehlo.custom_call @tpu_custom_call(%0) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEhBwEDBQEDBwMPCQsNDxETFQNRNQ0BMQcLCw8TCxMTGwsPOwsLCwsLCwsLDw8LDwUFYU0BDQ8bDwcLFwImAh8FFwUZEQUBAwMLKQUbAwMLKwMDLS8DBRMVAwUFHREFPQMNGRsdHyMHJQcDBSczBR8BAQUhDQsvCQUjBSUFJxEHAREBAQUpEQUFI3RwdS5tZW1vcnlfc3BhY2U8c21lbT4AI3RwdS5jb3JlX3R5cGU8dGM+AAECAhcxAxEBIQECBAMBCQUFAwMBBMMFAREBEQcDAQUJEQEXBwMXLwUDAQMBAwMBCQMHBQYBAwEFAQUDAwENAwEHBwEPAwkFBwkDAwEJAwcFBgEDAQUDDQMDAQ0DAQcHAQ8DCQUPEQsGAQMBAwsNBAEHFQMNDwABBgMBBQEAOgQrFR0jIR0pLQ0FExkbGRUXGR8PCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBtb2R1bGUAYXJpdGguY29uc3RhbnQAbWVtcmVmLmxvYWQAYXJpdGguY21waQBmdW5jLmZ1bmMAYXJpdGguZXh0dWkAbWVtcmVmLnN0b3JlAGZ1bmMucmV0dXJuAHN5bV9uYW1lAGsAdmFsdWUAc3RhYmxlX21vc2FpYy52ZXJzaW9uAGRpbWVuc2lvbl9zZW1hbnRpY3MAZnVuY3Rpb25fdHlwZQBzY2FsYXJfcHJlZmV0Y2gAc2NyYXRjaF9vcGVyYW5kcwB0cHUuY29yZV90eXBlAHByZWRpY2F0ZQA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDNS0BAS0HDw8LCxMLRw8LDwsLDwsPGwsPCw8bApkfHSMlHRkbBQUFBwMDDQ8FCQEfAQERFQUFBQUDAwMDAwMBHRMBBQsdFwEFDQUPHR0fBREdByEtCQdjJzcFEx0nKQUVHQcrLQkHYxEhBBMFAREBCwcDAQEGAwEFAQAGAhcLDQkLDQ0TWyEPEWJ1aWx0aW4AbW9kdWxlAHNtZW0uPGxvY2Fscz4uawAvd29yay93dC1jb250cmFjdC9zY3JpcHRzL2NvbnRyYWN0L2R0eXBlcy5weQB0cHUubG9jcwB4X3JlZgBvX3JlZgBnZXQ6AGdldABzd2FwOgBzd2FwAA==\22}}", kernel_name = "k", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<4xi32>) -> tensor<4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %4 = stablehlo.convert %3 : tensor<4xi1>
    return %4 : tensor<4xi1>
  }
}
