module @misc {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<?xf32>, %arg2: tensor<i32>, %arg3: tensor<2xi64>) -> tensor<4xf32> {
    %0 = stablehlo.create_token : !stablehlo.token
    %1 = stablehlo.after_all %0, %0 : !stablehlo.token
    %2 = stablehlo.tuple %arg0, %arg2 : tuple<tensor<4xf32>, tensor<i32>>
    %3 = stablehlo.get_tuple_element %2[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %4 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?xf32>) -> tensor<i32>
    %5 = stablehlo.set_dimension_size %arg1, %4, dim = 0 : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
    %6 = stablehlo.dynamic_iota %arg3, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>
    %7 = stablehlo.dynamic_reshape %arg0, %arg3 : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %8 = stablehlo.einsum %arg0, %arg0, config = "i,i->i" : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %9 = stablehlo.unary_einsum %arg0, config = "i->i" : (tensor<4xf32>) -> tensor<4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<4> : tensor<1xi64>
    %10 = stablehlo.rng %cst, %cst_0, %c, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %c_1 = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %c_1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %11 = stablehlo.composite "my.op" %arg0 {composite_attributes = {k = 1 : i64}, decomposition = @dec, version = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %12 = stablehlo.composite "my.op2" %arg0 {decomposition = @dec} : (tensor<4xf32>) -> tensor<4xf32>
    %13 = stablehlo.replica_id : tensor<ui32>
    %14 = stablehlo.partition_id : tensor<ui32>
    %15 = stablehlo.broadcast %arg0, sizes = [4] : (tensor<4xf32>) -> tensor<4x4xf32>
    %16 = stablehlo.cholesky %15, lower = true : tensor<4x4xf32>
    %17 = stablehlo.cholesky %15 : tensor<4x4xf32>
    %18 = stablehlo.dot %arg0, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %19 = stablehlo.dot %arg0, %arg0, precision = [HIGHEST, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    stablehlo.optimization_barrier()
    %20 = stablehlo.compare EQ, %arg2, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %21 = stablehlo.select %20, %arg0, %arg0 : tensor<i1>, tensor<4xf32>
    %22 = stablehlo.convert %arg0 : tensor<4xf32>
    %23 = stablehlo.add %arg0, %3 : tensor<4xf32>
    %24 = stablehlo.compare EQ, %arg0, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %25:2 = stablehlo.custom_call @foo(%arg0) {api_version = 4 : i32, backend_config = {a = 1 : i32}, called_computations = [@dec], has_side_effect = true, x = 1 : i64} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    stablehlo.custom_call @"foo bar"() : () -> ()
    %26 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %27 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
    %28:2 = stablehlo.while(%iterArg = %arg2, %iterArg_2 = %arg0) : tensor<i32>, tensor<4xf32> attributes {foo = 1 : i32}
    cond {
      %30 = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %30 : tensor<i1>
    } do {
      stablehlo.return %iterArg, %iterArg_2 : tensor<i32>, tensor<4xf32>
    }
    %29:2 = stablehlo.reduce(%arg0 init: %cst), (%arg0 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
     reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<f32>, %arg7: tensor<f32>)  {
      %30 = stablehlo.add %arg4, %arg6 : tensor<f32>
      stablehlo.return %30, %30 : tensor<f32>, tensor<f32>
    }
    return %arg0 : tensor<4xf32>
  }
  func.func private @dec(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
