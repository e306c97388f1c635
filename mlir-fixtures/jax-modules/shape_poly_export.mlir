// Made by: scripts/jaxref/generic_modules.py from ../shared/jax-goldens/shape_poly_export/module.mlir (JAX 0.12.0.1), printed in generic op form by jaxlib 0.12.0.1.
"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<?x128xf32>) -> tensor<?x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg11: tensor<?x128xf32>):
    %34 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %35 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %37 = "stablehlo.get_dimension_size"(%arg11) <{dimension = 0 : i64}> : (tensor<?x128xf32>) -> tensor<i32>
    %38:2 = "func.call"(%37, %36) <{callee = @divmod}> : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %39 = "stablehlo.compare"(%38#1, %35) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %40:2 = "func.call"(%37, %36) <{callee = @divmod}> : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    "stablehlo.custom_call"(%39, %40#1) <{api_version = 2 : i32, call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "Input shapes do not match the polymorphic shapes specification. Division had remainder {0} when computing the value of 'b'. Using the following polymorphic shapes specifications: args[0].shape = (8*b, 128). Obtained dimension variables: . Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html#shape-assertion-errors for more details."} : (tensor<i1>, tensor<i32>) -> ()
    %41:2 = "func.call"(%37, %36) <{callee = @divmod}> : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %42 = "stablehlo.compare"(%41#0, %34) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %43:2 = "func.call"(%37, %36) <{callee = @divmod}> : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    "stablehlo.custom_call"(%42, %43#0, %37) <{api_version = 2 : i32, call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (8*b, 128). Obtained dimension variables: 'b' = {0} from specification '8*b' for dimension args[0].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html#shape-assertion-errors for more details."} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %44:2 = "func.call"(%37, %36) <{callee = @divmod}> : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %45 = "func.call"(%44#0, %arg11) <{callee = @_wrapped_jax_export_main}> : (tensor<i32>, tensor<?x128xf32>) -> tensor<?x128xf32>
    "func.return"(%45) : (tensor<?x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = "b"}, {}], function_type = (tensor<i32>, tensor<?x128xf32>) -> tensor<?x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "_wrapped_jax_export_main", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<i32>, %arg10: tensor<?x128xf32>):
    %27 = "stablehlo.constant"() <{value = dense<128> : tensor<1xi32>}> : () -> tensor<1xi32>
    %28 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %29 = "stablehlo.convert"(%arg9) : (tensor<i32>) -> tensor<i32>
    %30 = "stablehlo.multiply"(%29, %28) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %31 = "stablehlo.reshape"(%30) : (tensor<i32>) -> tensor<1xi32>
    %32 = "stablehlo.concatenate"(%31, %27) <{dimension = 0 : i64}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = "stablehlo.custom_call"(%arg9, %arg10, %32) <{backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjQuMC4wZ2l0AAEjCQEDBQcBAwkDDwsNDxETFRcDv5kTAZEHCwsTEw8LCw8LDw8LCwtTCwsPCw8bCw9LCw8LCwszCwsLCxMbCxsLGxsPDwsPCw8LDwsPHxMfCw8PHxMLCw8LDx8jDwtTCxMFB5FhTQcDWQETDwcPIwcbGxsLAo4GHwUZBRsDAw9VAwMPXx17fQUdBR8dYWMFIR1vcREFAQUjBSUFJyMFBSEIAAAAAAAAAIAAAAAAAAAABSkNDx0DaQUrHQODAwUtLwUDBS0RBT0DETM1DTc7PT8XQRcFA0OVRUcFLwEDkQ0NLxEFMSMFAxEAAAAAAAAAgAUzBTUFNwU5AQVJTQMFGUsdHwkbAwUZTx0fCSEDBQ0jBRsDBQ0jBSERAQEdWQEFOx1dAQU9EQMBBT8dZWcFQRUlJS0TB9YFHzMDAw9tEwkQAADgDwVDHSdzHQN1LRMH1gUfPwMDeZcFRQVHHX+BBUkVKSktEwfWBQUZAwcnh4mLjY8REQAFSyMBCSEBAAAAAQAAAAIAAAAAAAAABU0jAQEBI3RwdS5kaW1lbnNpb25fc2VtYW50aWNzPGFyYml0cmFyeT4AI3RwdS5tZW1vcnlfc3BhY2U8dm1lbT4AI3RwdS5jb3JlX3R5cGU8dGM+ACNhcml0aC5mYXN0bWF0aDxub25lPgABAgIDAQIEF5MFIQIECTkLJwUhAgQJBQcBBwcBBQMBBQEBAQkEegIFAREBKwcDAQ0FEQExBwMZLwcBAQdXB1sDAxEJAwMDAxEJAwMJBhEDCwcDBwkDAxVrAwkLBhUDCwMNDQcVdwMLBQsPAwMLCQMDAwMLCQMDCQYLAwsHBRMVDwULhQkRBRMVBwABBREBUQcDBw8DAQEDAwEHAwEDAwEHAwEHBAEFAQMFEQFTBwMHDwMBAQMDAQcDAQMDAQcDAQcEAQUBAwYDAQUBAMoHTxEpFQ0TCxELDQ0dHSMhIyktCRkdGSUfDR0TJSMXIxkZFR8PDQkdEWJ1aWx0aW4Ac3RhYmxlX21vc2FpYwB0cHUAYXJpdGgAbW9kdWxlAGFyaXRoLmNvbnN0YW50AGZ1bmMuZnVuYwBmdW5jLnJldHVybgB2ZWN0b3IubG9hZAB2ZWN0b3IuYnJvYWRjYXN0AGFyaXRoLmFkZGYAdHB1LnZlY3Rvcl9zdG9yZQBfY29weV9hZGQxX2tlcm5lbABzeW1fbmFtZQBmdW5jdGlvbl90eXBlAHZhbHVlAGdlbl9nb2xkZW5zLnB5AHRyYW5zZm9ybV9pbmRpY2VzAHRyYW5zZm9ybV8wAHdpbmRvd19ib3VuZHMAdHJhbnNmb3JtXzEAYWRkAHN0YWJsZV9tb3NhaWMudmVyc2lvbgBkaW1lbnNpb25fc2VtYW50aWNzAGl0ZXJhdGlvbl9ib3VuZHMAc2NhbGFyX3ByZWZldGNoAHNjcmF0Y2hfb3BlcmFuZHMAdHB1LmNvcmVfdHlwZQB3aW5kb3dfcGFyYW1zAHhfcmVmAG9fcmVmAGdldDoAZ2V0L2dldABhZGQ6AGZhc3RtYXRoAHN3YXA6AHN3YXAvc3dhcABvcGVyYW5kU2VnbWVudFNpemVzAHN0cmlkZXMA\22, \22serialization_format\22: 1, \22needs_layout_passes\22: true}}", call_target_name = "tpu_custom_call", operand_layouts = [dense<> : tensor<0xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {indices_of_shape_operands = dense<2> : tensor<1xi64>, kernel_name = "_copy_add1_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<i32>, tensor<?x128xf32>, tensor<2xi32>) -> tensor<?x128xf32>
    "func.return"(%33) : (tensor<?x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = ""}, {jax.global_constant = ""}], function_type = (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>), sym_name = "divmod", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<i32>, %arg8: tensor<i32>):
    %24 = "stablehlo.convert"(%arg7) : (tensor<i32>) -> tensor<i32>
    %25 = "func.call"(%24, %arg8) <{callee = @floor_divide}> : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %26 = "func.call"(%24, %arg8) <{callee = @remainder}> : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%25, %26) : (tensor<i32>, tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = ""}, {jax.global_constant = ""}], function_type = (tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "floor_divide", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<i32>, %arg6: tensor<i32>):
    %13 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.divide"(%arg5, %arg6) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %16 = "stablehlo.sign"(%arg5) : (tensor<i32>) -> tensor<i32>
    %17 = "stablehlo.sign"(%arg6) : (tensor<i32>) -> tensor<i32>
    %18 = "stablehlo.compare"(%16, %17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %19 = "stablehlo.remainder"(%arg5, %arg6) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %20 = "stablehlo.compare"(%19, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %21 = "stablehlo.and"(%18, %20) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %22 = "stablehlo.subtract"(%15, %13) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %23 = "func.call"(%21, %22, %15) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%23) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = ""}, {jax.global_constant = ""}, {jax.global_constant = ""}], function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<i1>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %12 = "stablehlo.select"(%arg2, %arg3, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%12) : (tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = ""}, {jax.global_constant = ""}], function_type = (tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<i32>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = "func.call"(%2, %0, %arg1) <{callee = @_where}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = "stablehlo.remainder"(%arg0, %3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.compare"(%4, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = "stablehlo.compare"(%4, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = "stablehlo.compare"(%3, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %8 = "stablehlo.compare"(%6, %7) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %9 = "stablehlo.and"(%8, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %10 = "stablehlo.add"(%4, %3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %11 = "stablehlo.select"(%9, %10, %4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%11) : (tensor<i32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
