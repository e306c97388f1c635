"builtin.module"() <{sym_name = "jit_population_count"}> ({
  "func.func"() <{function_type = (tensor<16x32xi8>) -> tensor<16x32xi8>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xi8>):
    %0 = "stablehlo.popcnt"(%arg0) : (tensor<16x32xi8>) -> tensor<16x32xi8>
    "func.return"(%0) : (tensor<16x32xi8>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
