"builtin.module"() <{sym_name = "jit_integer"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xi32>, tensor<4x8xi32>, tensor<8x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %1 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x8xi32>
    %3 = "stablehlo.shift_right_logical"(%0, %2) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %4 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x8xi32>
    %6 = "stablehlo.and"(%0, %5) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %7 = "stablehlo.or"(%3, %6) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %8 = "stablehlo.sign"(%arg1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = "stablehlo.minimum"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = "stablehlo.add"(%8, %9) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %11 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %12 = "stablehlo.subtract"(%10, %11) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = "stablehlo.bitcast_convert"(%12) : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %14 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xi32>) -> tensor<1x8xi32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xi32>) -> tensor<4x8xi32>
    %17 = "stablehlo.add"(%7, %16) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
    %18 = "stablehlo.reshape"(%12) : (tensor<4x8xf32>) -> tensor<8x4xf32>
    "func.return"(%17, %13, %18) : (tensor<4x8xi32>, tensor<4x8xi32>, tensor<8x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
