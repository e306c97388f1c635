"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>):
    %0 = "stablehlo.custom_call"(%arg0, %arg1) <{backend_config = "", call_target_name = "tpu_custom_call", operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}> {kernel_name = "_add_kernel", mhlo.frontend_attributes = {kernel_metadata = "{}"}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%0) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()

