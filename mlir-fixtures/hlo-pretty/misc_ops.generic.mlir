"builtin.module"() <{sym_name = "misc"}> ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<?xf32>, tensor<i32>, tensor<2xi64>) -> tensor<4xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4xf32>, %arg2: tensor<?xf32>, %arg3: tensor<i32>, %arg4: tensor<2xi64>):
    %0 = "stablehlo.create_token"() : () -> !stablehlo.token
    %1 = "stablehlo.after_all"(%0, %0) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    %2 = "stablehlo.tuple"(%arg1, %arg3) : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
    %3 = "stablehlo.get_tuple_element"(%2) <{index = 0 : i32}> : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %4 = "stablehlo.get_dimension_size"(%arg2) <{dimension = 0 : i64}> : (tensor<?xf32>) -> tensor<i32>
    %5 = "stablehlo.set_dimension_size"(%arg2, %4) <{dimension = 0 : i64}> : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
    %6 = "stablehlo.dynamic_iota"(%arg4) <{iota_dimension = 0 : i64}> : (tensor<2xi64>) -> tensor<?x?xf32>
    %7 = "stablehlo.dynamic_reshape"(%arg1, %arg4) : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %8 = "stablehlo.einsum"(%arg1, %arg1) <{einsum_config = "i,i->i"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %9 = "stablehlo.unary_einsum"(%arg1) <{einsum_config = "i->i"}> : (tensor<4xf32>) -> tensor<4xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<4> : tensor<1xi64>}> : () -> tensor<1xi64>
    %13 = "stablehlo.rng"(%10, %11, %12) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %14 = "stablehlo.constant"() <{value = dense<[1, 2]> : tensor<2xui64>}> : () -> tensor<2xui64>
    %15:2 = "stablehlo.rng_bit_generator"(%14) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %16 = "stablehlo.composite"(%arg1) <{composite_attributes = {k = 1 : i64}, decomposition = @dec, name = "my.op", version = 2 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
    %17 = "stablehlo.composite"(%arg1) <{decomposition = @dec, name = "my.op2"}> : (tensor<4xf32>) -> tensor<4xf32>
    %18 = "stablehlo.replica_id"() : () -> tensor<ui32>
    %19 = "stablehlo.partition_id"() : () -> tensor<ui32>
    %20 = "stablehlo.broadcast"(%arg1) <{broadcast_sizes = array<i64: 4>}> : (tensor<4xf32>) -> tensor<4x4xf32>
    %21 = "stablehlo.cholesky"(%20) <{lower = true}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %22 = "stablehlo.cholesky"(%20) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %23 = "stablehlo.dot"(%arg1, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %24 = "stablehlo.dot"(%arg1, %arg1) <{precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    "stablehlo.optimization_barrier"() : () -> ()
    %25 = "stablehlo.compare"(%arg3, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %26 = "stablehlo.select"(%25, %arg1, %arg1) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %27 = "stablehlo.convert"(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    %28 = "stablehlo.add"(%arg1, %3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %29 = "stablehlo.compare"(%arg1, %arg1) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %30:2 = "stablehlo.custom_call"(%arg1) <{api_version = 4 : i32, backend_config = {a = 1 : i32}, call_target_name = "foo", called_computations = [@dec], has_side_effect = true}> {x = 1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    "stablehlo.custom_call"() <{call_target_name = "foo bar"}> : () -> ()
    %31 = "stablehlo.dot_general"(%arg1, %arg1) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %32 = "stablehlo.exponential"(%arg1) <{result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}> : (tensor<4xf32>) -> tensor<4xf32>
    %33:2 = "stablehlo.while"(%arg3, %arg1) ({
    ^bb0(%arg11: tensor<i32>, %arg12: tensor<4xf32>):
      %36 = "stablehlo.compare"(%arg11, %arg11) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%36) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg9: tensor<i32>, %arg10: tensor<4xf32>):
      "stablehlo.return"(%arg9, %arg10) : (tensor<i32>, tensor<4xf32>) -> ()
    }) {foo = 1 : i32} : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    %34:2 = "stablehlo.reduce"(%arg1, %arg1, %10, %10) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<f32>, %arg8: tensor<f32>):
      %35 = "stablehlo.add"(%arg5, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%35, %35) : (tensor<f32>, tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    "func.return"(%arg1) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "dec", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    "func.return"(%arg0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
