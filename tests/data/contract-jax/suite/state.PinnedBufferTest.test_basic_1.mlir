module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = call @f(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func private @f(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.custom_call @Pin(%arg0) {api_version = 2 : i32, backend_config = ""} : (tensor<3xf32>) -> memref<3xf32>
    %1 = stablehlo.custom_call @tpu_custom_call(%0) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEXBwEDBQEDBwMFCQsDPSUJASEHCwsPGwsPOwsLCwsLCwsLBQVdTQEJGw8XBwLVHwUNBQ8RAwEDBQsNAwUFEREDPQMNERMVFxsHHQcDBR8jBRMBAQUVDQUvCQUXBRkFGyN0cHUubWVtb3J5X3NwYWNlPGFueT4AI3RwdS5jb3JlX3R5cGU8dGM+ABchAw0HGQECBAUFAQEBCwQzBQERAQkHAwEFAxEBDwcDBQcFAQEBAQUAAQYDAQUBAP4CHR0jIR0pLRMTGRUPCR0RYnVpbHRpbgBzdGFibGVfbW9zYWljAHRwdQBtb2R1bGUAZnVuYy5mdW5jAGZ1bmMucmV0dXJuAHN5bV9uYW1lAF9sYW1iZGFfAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGZ1bmN0aW9uX3R5cGUAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDGREBAREHEwsfDwsPCwIxHwMDBQcFBQELAQEJDQEdCwEFBx0PAQUJBBMFAREBAwcDAQEGAwEFAQBRCwsLEw8RYnVpbHRpbgBtb2R1bGUAdHB1LmxvY3MAX1swXQBfWzFdAA==\22}}", kernel_name = "_lambda_", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>]} : (memref<3xf32>) -> memref<3xf32>
    %2 = stablehlo.custom_call @Unpin(%1) {api_version = 2 : i32, backend_config = ""} : (memref<3xf32>) -> tensor<3xf32>
    return %2 : tensor<3xf32>
  }
}
