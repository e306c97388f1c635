"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xcomplex<f32>>, tensor<4x8xi32>, tensor<8xf32>, tensor<2x8x16xf32>, tensor<2xi32>) -> (), sym_name = "chlo_ops"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xcomplex<f32>>, %arg2: tensor<4x8xi32>, %arg3: tensor<8xf32>, %arg4: tensor<2x8x16xf32>, %arg5: tensor<2xi32>):
    %0 = "chlo.acos"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = "chlo.acosh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "chlo.asin"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "chlo.asinh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = "chlo.atan"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = "chlo.atanh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = "chlo.bessel_i1e"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = "chlo.conj"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %8 = "chlo.cosh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = "chlo.sinh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = "chlo.tan"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %11 = "chlo.digamma"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %12 = "chlo.erf"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = "chlo.erf_inv"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %14 = "chlo.erfc"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %15 = "chlo.lgamma"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %16 = "chlo.square"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %17 = "chlo.acos"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %18 = "chlo.asin"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %19 = "chlo.conj"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %20 = "chlo.square"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %21 = "chlo.tan"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %22 = "chlo._asin_acos_kernel"(%arg1) : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %23 = "chlo.is_inf"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %24 = "chlo.is_neg_inf"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %25 = "chlo.is_pos_inf"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %26 = "chlo.broadcast_add"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %27 = "chlo.broadcast_atan2"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %28 = "chlo.broadcast_divide"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %29 = "chlo.broadcast_maximum"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %30 = "chlo.broadcast_minimum"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %31 = "chlo.broadcast_multiply"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %32 = "chlo.broadcast_next_after"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %33 = "chlo.broadcast_polygamma"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %34 = "chlo.broadcast_power"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %35 = "chlo.broadcast_remainder"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %36 = "chlo.broadcast_subtract"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %37 = "chlo.broadcast_zeta"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %38 = "chlo.broadcast_add"(%arg0, %arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %39 = "chlo.broadcast_multiply"(%arg0, %arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %40 = "chlo.broadcast_and"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %41 = "chlo.broadcast_or"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %42 = "chlo.broadcast_xor"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %43 = "chlo.broadcast_shift_left"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %44 = "chlo.broadcast_shift_right_arithmetic"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %45 = "chlo.broadcast_shift_right_logical"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %46 = "chlo.broadcast_complex"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>
    %47 = "chlo.broadcast_compare"(%arg0, %arg0) <{comparison_direction = #chlo<comparison_direction LT>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %48 = "chlo.broadcast_compare"(%arg0, %arg3) <{broadcast_dimensions = array<i64: 1>, compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xi1>
    %49 = "chlo.broadcast_select"(%47, %arg0, %arg0) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %50 = "chlo.next_after"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %51 = "chlo.polygamma"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %52 = "chlo.zeta"(%arg0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %53 = "chlo.mulhi"(%arg2, %arg2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %54 = "chlo.constant"() <{value = dense<1.500000e+00> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
    %55 = "chlo.constant_like"(%arg0) <{value = 1.000000e+00 : f32}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %56:2 = "chlo.top_k"(%arg0) <{k = 4 : i64}> : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xi32>)
    %57:2 = "chlo.top_k"(%arg0) <{is_stable = false, k = 2 : i64}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
    %58:2 = "chlo.top_k"(%arg0) <{k = 3 : i64}> : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
    %59:2 = "chlo.top_k"(%arg0) <{k = 1 : i64}> {mhlo.frontend_attributes = {x = "y"}} : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
    %60 = "chlo.ragged_dot"(%arg0, %arg4, %arg5) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<2x8x16xf32>, tensor<2xi32>) -> tensor<4x16xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
