"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<i32>, tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.clamp"(%0, %arg0, %1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %6 = "stablehlo.sine"(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%6) : (tensor<8xf32>) -> ()
    }, {
      %5 = "stablehlo.cosine"(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%5) : (tensor<8xf32>) -> ()
    }, {
      %4 = "stablehlo.tanh"(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
      "stablehlo.return"(%4) : (tensor<8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8xf32>
    "func.return"(%3) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
