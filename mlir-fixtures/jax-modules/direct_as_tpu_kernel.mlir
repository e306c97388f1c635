// Made by: scripts/jaxref/generic_modules.py from ../shared/jax-goldens/direct_as_tpu_kernel/module.mlir (JAX 0.12.0.1), printed in generic op form by jaxlib 0.12.0.1.
"builtin.module"() <{sym_name = "jit_apply_kernel"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<8x128xf32>, %arg3: tensor<8x128xf32>):
    %1 = "func.call"(%arg2, %arg3) <{callee = @apply_kernel}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%1) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "apply_kernel", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    %0 = "stablehlo.custom_call"(%arg0, %arg1) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEhCQEDBQcBAwkDDQsNDxETFQNRMQ0BKwcPEwsPOwsLCwsLCwsLCwsTCw8TCwUFYU0HA1kBDSMbDwcHGwJiAh8RBQEDAwcJBRcRBT0DDQ0PERMXAxkDGx0fLQUZAQEFGw0LLxEFHQUfBSEFIwUlAwMjJQUnEQkBAwMpLwUpI3RwdS5tZW1vcnlfc3BhY2U8dm1lbT4AI3RwdS5jb3JlX3R5cGU8dGM+ACNhcml0aC5mYXN0bWF0aDxub25lPgAXKwUhAgQHFScFIQIEBwECBAsDBQcBAQEBBIkFAREBBQcDAQUFEQELBwMPGwcBAQEBAQEHAwEhAwkDBgEDAwcBBwcDBgEDAwcDBwcJBwEnAwMFCQsLBAEJDQUHBw0AAQYDAQUBAEIEKxMNHRcTIyEdKS0ZGxcfFRkPDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAbW9kdWxlAHZlY3Rvci5sb2FkAGZ1bmMuZnVuYwBhcml0aC5jb25zdGFudABhcml0aC5hZGRmAHZlY3Rvci5zdG9yZQBmdW5jLnJldHVybgBzdGFibGVfbW9zYWljLnZlcnNpb24AZGltZW5zaW9uX3NlbWFudGljcwBmdW5jdGlvbl90eXBlAHNjYWxhcl9wcmVmZXRjaABzY3JhdGNoX29wZXJhbmRzAHN5bV9uYW1lAGRpcmVjdF9hZGQAdHB1LmNvcmVfdHlwZQB2YWx1ZQBmYXN0bWF0aAA=\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22shape_invariant_numerics\22: false, \22debug_locations\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAELAwEBAwMDKSEBASELEws3ExMTExMTExMTExMHAoUFBQMDBQcFBwEXCQsNDxETFRcZGx0XAQUDFwEHBxcBBzMXAQeZFwEH/xcBCRcXAQsVFwENFRcBDxUXARELFwETCx8EEwUBER8DBwMBAQYDAQUBAD8JEwUPEWJ1aWx0aW4AbW9kdWxlAC0AdHB1LmxvY3MA\22}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
