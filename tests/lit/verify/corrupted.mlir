// The verify pass on JAX's add_basic module (mlir-fixtures/jax-modules/add_basic.mlir) with its
// custom call corrupted three ways: each is an error at the custom call.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-verify)" \
// RUN:   --split-input-file --verify-diagnostics %s
// The uncorrupted module passes:
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-verify)" %fixtures/jax-modules/add_basic.mlir -o /dev/null

// a body that is not base64
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    // expected-error @below {{base64}}
    %0 = "stablehlo.custom_call"(%arg0, %arg1) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzv!gFNTElSMjQuMC4wZ2l0AAEhCQEDBQcBAwkDDQsNDxETFQNjPxEBOQcTCwsPGwsPOwsLCwsLCwsLCw8TCyMLDwtTCxMFBWFNBwNZAREHIxsPBw8bCwIiAx8DAyMlBRcFGREHAQMFDQ8FBwUbEQc9Aw0TFRcZHQkfCQUHITsFHQEBBR8NDS8RBSEFIwUlBScRAQEDAyk9BSkDBy0vMTM1NwUrEQ8ABS0jCwkhAQAAAAEAAAACAAAAAAAAAAUvIwsBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuY29yZV90eXBlPHRjPgAjYXJpdGguZmFzdG1hdGg8bm9uZT4AAxc5BSECBAkbJwUhAgQJAQIECwECAgUHAwMDAQEJBNkFAREBCwcDAQUHEQERBwMbMwcDAQMBAwEDAwEDAwEDAwEDAwEFBgEDBQcBBwkDAwEDAwEDAwEDAwEFBgEDBQcDDQ8JBwEnAwUFCxEDAwEDAwEDAwEDAwEFBgEDBQcFFRcLBQErCRMFFRcNAAEGAwEFAQDiBDERKQkTDR0jIR0pLRkTGSMXFRkfDw0JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AGFyaXRoAG1vZHVsZQBhcml0aC5jb25zdGFudAB2ZWN0b3IubG9hZABmdW5jLmZ1bmMAYXJpdGguYWRkZgB0cHUudmVjdG9yX3N0b3JlAGZ1bmMucmV0dXJuAHN5bV9uYW1lAF9hZGRfa2VybmVsAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGZ1bmN0aW9uX3R5cGUAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB2YWx1ZQBmYXN0bWF0aABhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDVU0BAU0HCwsPDw8PCwsPDxMLTw8LDwsPCw8PHw8PDx8PCw8LDx8LDwsPHwIWAh8FBQUHHUNFHQ8pHQMtHQ8vBQkFCx0DQR0DSwMDGRsFDQEjAQEdISUJCQkNDQ03BwcHBwEdHwEFDx0jAQURHScBBRMdESsVCwstBQfGBR8zHRExFQszHQM1LQUHxgU5TR05OwUVHT0/BRcVExMtBQfGBR9NBRkdR0kFGxUVFS0FB8YFBRkEEwUBEQEXBwMBAQYDAQUBAP0dFQ0RCw0NDRMRCx8ZDxFidWlsdGluAG1vZHVsZQBfYWRkX2tlcm5lbABnZW5fZ29sZGVucy5weQBnZXQ6AGdldC9nZXQAdHB1LmxvY3MAeF9yZWYAeV9yZWYAb19yZWYAYWRkOgBhZGQvYWRkAHN3YXA6AHN3YXAvc3dhcAA=\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "_add_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()


// -----

// a serialization_format that is not a number
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    // expected-error @below {{serialization_format}}
    %0 = "stablehlo.custom_call"(%arg0, %arg1) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEhCQEDBQcBAwkDDQsNDxETFQNjPxEBOQcTCwsPGwsPOwsLCwsLCwsLCw8TCyMLDwtTCxMFBWFNBwNZAREHIxsPBw8bCwIiAx8DAyMlBRcFGREHAQMFDQ8FBwUbEQc9Aw0TFRcZHQkfCQUHITsFHQEBBR8NDS8RBSEFIwUlBScRAQEDAyk9BSkDBy0vMTM1NwUrEQ8ABS0jCwkhAQAAAAEAAAACAAAAAAAAAAUvIwsBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuY29yZV90eXBlPHRjPgAjYXJpdGguZmFzdG1hdGg8bm9uZT4AAxc5BSECBAkbJwUhAgQJAQIECwECAgUHAwMDAQEJBNkFAREBCwcDAQUHEQERBwMbMwcDAQMBAwEDAwEDAwEDAwEDAwEFBgEDBQcBBwkDAwEDAwEDAwEDAwEFBgEDBQcDDQ8JBwEnAwUFCxEDAwEDAwEDAwEDAwEFBgEDBQcFFRcLBQErCRMFFRcNAAEGAwEFAQDiBDERKQkTDR0jIR0pLRkTGSMXFRkfDw0JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AGFyaXRoAG1vZHVsZQBhcml0aC5jb25zdGFudAB2ZWN0b3IubG9hZABmdW5jLmZ1bmMAYXJpdGguYWRkZgB0cHUudmVjdG9yX3N0b3JlAGZ1bmMucmV0dXJuAHN5bV9uYW1lAF9hZGRfa2VybmVsAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGZ1bmN0aW9uX3R5cGUAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB2YWx1ZQBmYXN0bWF0aABhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: \22x\22, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDVU0BAU0HCwsPDw8PCwsPDxMLTw8LDwsPCw8PHw8PDx8PCw8LDx8LDwsPHwIWAh8FBQUHHUNFHQ8pHQMtHQ8vBQkFCx0DQR0DSwMDGRsFDQEjAQEdISUJCQkNDQ03BwcHBwEdHwEFDx0jAQURHScBBRMdESsVCwstBQfGBR8zHRExFQszHQM1LQUHxgU5TR05OwUVHT0/BRcVExMtBQfGBR9NBRkdR0kFGxUVFS0FB8YFBRkEEwUBEQEXBwMBAQYDAQUBAP0dFQ0RCw0NDRMRCx8ZDxFidWlsdGluAG1vZHVsZQBfYWRkX2tlcm5lbABnZW5fZ29sZGVucy5weQBnZXQ6AGdldC9nZXQAdHB1LmxvY3MAeF9yZWYAeV9yZWYAb19yZWYAYWRkOgBhZGQvYWRkAHN3YXA6AHN3YXAvc3dhcAA=\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "_add_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()


// -----

// operand layouts that are not the row-major ones JAX writes
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    // expected-error @below {{operand_layouts}}
    %0 = "stablehlo.custom_call"(%arg0, %arg1) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEhCQEDBQcBAwkDDQsNDxETFQNjPxEBOQcTCwsPGwsPOwsLCwsLCwsLCw8TCyMLDwtTCxMFBWFNBwNZAREHIxsPBw8bCwIiAx8DAyMlBRcFGREHAQMFDQ8FBwUbEQc9Aw0TFRcZHQkfCQUHITsFHQEBBR8NDS8RBSEFIwUlBScRAQEDAyk9BSkDBy0vMTM1NwUrEQ8ABS0jCwkhAQAAAAEAAAACAAAAAAAAAAUvIwsBASN0cHUubWVtb3J5X3NwYWNlPHZtZW0+ACN0cHUuY29yZV90eXBlPHRjPgAjYXJpdGguZmFzdG1hdGg8bm9uZT4AAxc5BSECBAkbJwUhAgQJAQIECwECAgUHAwMDAQEJBNkFAREBCwcDAQUHEQERBwMbMwcDAQMBAwEDAwEDAwEDAwEDAwEFBgEDBQcBBwkDAwEDAwEDAwEDAwEFBgEDBQcDDQ8JBwEnAwUFCxEDAwEDAwEDAwEDAwEFBgEDBQcFFRcLBQErCRMFFRcNAAEGAwEFAQDiBDERKQkTDR0jIR0pLRkTGSMXFRkfDw0JHRFidWlsdGluAHN0YWJsZV9tb3NhaWMAdHB1AGFyaXRoAG1vZHVsZQBhcml0aC5jb25zdGFudAB2ZWN0b3IubG9hZABmdW5jLmZ1bmMAYXJpdGguYWRkZgB0cHUudmVjdG9yX3N0b3JlAGZ1bmMucmV0dXJuAHN5bV9uYW1lAF9hZGRfa2VybmVsAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGZ1bmN0aW9uX3R5cGUAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB2YWx1ZQBmYXN0bWF0aABhZGQAb3BlcmFuZFNlZ21lbnRTaXplcwBzdHJpZGVzAA==\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDVU0BAU0HCwsPDw8PCwsPDxMLTw8LDwsPCw8PHw8PDx8PCw8LDx8LDwsPHwIWAh8FBQUHHUNFHQ8pHQMtHQ8vBQkFCx0DQR0DSwMDGRsFDQEjAQEdISUJCQkNDQ03BwcHBwEdHwEFDx0jAQURHScBBRMdESsVCwstBQfGBR8zHRExFQszHQM1LQUHxgU5TR05OwUVHT0/BRcVExMtBQfGBR9NBRkdR0kFGxUVFS0FB8YFBRkEEwUBEQEXBwMBAQYDAQUBAP0dFQ0RCw0NDRMRCx8ZDxFidWlsdGluAG1vZHVsZQBfYWRkX2tlcm5lbABnZW5fZ29sZGVucy5weQBnZXQ6AGdldC9nZXQAdHB1LmxvY3MAeF9yZWYAeV9yZWYAb19yZWYAYWRkOgBhZGQvYWRkAHN3YXA6AHN3YXAvc3dhcAA=\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "_add_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

