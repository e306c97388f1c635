"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = () -> tensor<4x8xi32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
    "func.return"(%0) : (tensor<4x8xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
