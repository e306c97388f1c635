"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %1 = "stablehlo.convert"(%0) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %2 = "stablehlo.convert"(%1) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %3 = "chlo.polygamma"(%2, %arg1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%3) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
