"builtin.module"() <{sym_name = "jit_tan"}> ({
  "func.func"() <{function_type = (tensor<8x128xf16>) -> tensor<8x128xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf16>):
    %0 = "stablehlo.tan"(%arg0) : (tensor<8x128xf16>) -> tensor<8x128xf16>
    "func.return"(%0) : (tensor<8x128xf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
