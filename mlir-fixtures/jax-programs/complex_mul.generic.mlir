"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>):
    %0 = "stablehlo.complex"(%arg0, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %1 = "stablehlo.complex"(%arg1, %arg0) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %2 = "stablehlo.multiply"(%0, %1) : (tensor<8xcomplex<f32>>, tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
    %3 = "stablehlo.real"(%2) : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    "func.return"(%3) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
