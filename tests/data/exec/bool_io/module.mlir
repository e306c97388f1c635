module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x128xi32>) -> (tensor<8x128xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x128xi32>
    %1 = stablehlo.compare NE, %arg0, %0, SIGNED : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %2 = stablehlo.convert %1 : (tensor<8x128xi1>) -> tensor<8x128xi32>
    %3 = stablehlo.custom_call @tpu_custom_call(%2) {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEjBwEDBQEDBwMRCQsNDxETFRcDZ0cRAUMHEwsLCw8TExsLDzsLCwsLCwsLCw8fCw8TEyMLDwtTCxMFBWFNAREbBxsjDw8LFwIyAx8DAwUpBRkFGwUdEQsBAwMFKwMDLS8DBRMVBwkFHxELPQMNGRsdHyMLJQsHCSdFBSEBAQUjDQ8vEQUlBScFKREDASUBCQAAAAAFKxELBQMDBTMlBQP/Awc3OTs9P0EFLRENAAUvIwkJIQEAAAABAAAAAgAAAAAAAAAFMSMJAQEjdHB1Lm1lbW9yeV9zcGFjZTx2bWVtPgAjdHB1LmNvcmVfdHlwZTx0Yz4AJwUhAgQJAycFIQIEDRdDBSECBAkhAQICAQIEAQkFBQcHAQT/BQERAREHAwEFCREBFwcDHz8FBwEHAQMDAQMDAwMDAQMDAwUGAQMBBwEFBwMDAQ0DAQcHAQ8DBQUJCwMDATEDBQsGAQMFBQ0PAwMBAwMDAwMBAwMDBQYBAwEHAxMVDQYBAwEDEQMDAQ0DAQcHAQ8DBQUXGw8FATUJGQMTFREAAQYDAQUBABoFMxEpCRUdIyEdKS0PEw0ZIxkXFRcZHw8JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AG1vZHVsZQBhcml0aC5jb25zdGFudAB2ZWN0b3IubG9hZABhcml0aC5jbXBpAGZ1bmMuZnVuYwBhcml0aC54b3JpAGFyaXRoLmV4dHVpAHRwdS52ZWN0b3Jfc3RvcmUAZnVuYy5yZXR1cm4AdmFsdWUAc3ltX25hbWUAa2VybmVsAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGZ1bmN0aW9uX3R5cGUAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQBwcmVkaWNhdGUAYWRkAG9wZXJhbmRTZWdtZW50U2l6ZXMAc3RyaWRlcwA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDRz8BAT8PBw8LCw8PDw8TC1cPCw8LCw8LDx8LDwsPHwsPCw8fAt8dNTcfHSEjBQUFBx0HKR0rLR0HMx0HPQMDFRcFCQEnAwMZHQUFBQUFDQ0BAQEBAQEBAx0bAwULHR8DBQ0FDx0lJwURFQsLLQkHugNDVwUTHS8xBRUVDw8tCQe6AyNZBRcdOTsFGRURES0JB7oDCR0EEwUBEQMTBwMBAQYDAQUBAAYCGxUNEQsRCw0NExsxDxFidWlsdGluAG1vZHVsZQBib29sX2lvLjxsb2NhbHM+Lmtlcm5lbABtYWtlX3JlZnMucHkAdHB1LmxvY3MAYV9yZWYAb19yZWYAZ2V0OgBnZXQvZ2V0AG5vdDoAbm90L25vdABzd2FwOgBzd2FwL3N3YXAA\22}}", kernel_name = "kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x128xi32>) -> tensor<8x128xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x128xi32>
    %5 = stablehlo.compare NE, %3, %4, SIGNED : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %6 = stablehlo.convert %5 : tensor<8x128xi1>
    %7 = stablehlo.convert %6 : (tensor<8x128xi1>) -> tensor<8x128xi32>
    return %7 : tensor<8x128xi32>
  }
}
