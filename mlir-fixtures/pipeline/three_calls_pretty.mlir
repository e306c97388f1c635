// Made by: three_calls.mlir with each nested kernel printed by `tpu-custom-call kernel K --pretty`
// (tpu ops in JAX's custom syntax).
// three_calls.mlir was: hand-written around two JAX 0.12 golden kernels (add_basic and vmem_limit,
// kernel_pre_serde.generic.mlir, locations dropped): three tpu_custom_call.call
// placeholders (two to @_add_kernel, one to @_copy_add1_kernel) for the
// tpu-custom-call-lower pass.
"builtin.module"() <{sym_name = "jit_model"}> ({
  module @_add_kernel {
    func.func @_add_kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
      %c0 = arith.constant 0 : index
      %c0_0 = arith.constant 0 : index
      %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %c0_1 = arith.constant 0 : index
      %c0_2 = arith.constant 0 : index
      %1 = vector.load %arg1[%c0_1, %c0_2] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %2 = arith.addf %0, %1 : vector<8x128xf32>
      %c0_3 = arith.constant 0 : index
      %c0_4 = arith.constant 0 : index
      %3 = vector.load %arg2[%c0_3, %c0_4] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      tpu.vector_store %arg2[%c0_3, %c0_4], %2 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
      return
    }
  }
  module @_copy_add1_kernel {
    func.func @_copy_add1_kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
      %c0 = arith.constant 0 : index
      %c0_0 = arith.constant 0 : index
      %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %cst = arith.constant 1.000000e+00 : f32
      %1 = vector.broadcast %cst : f32 to vector<8x128xf32>
      %2 = arith.addf %0, %1 : vector<8x128xf32>
      %c0_1 = arith.constant 0 : index
      %c0_2 = arith.constant 0 : index
      %3 = vector.load %arg1[%c0_1, %c0_2] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      tpu.vector_store %arg1[%c0_1, %c0_2], %2 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
      return
    }
  }
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>):
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @_add_kernel, kernel_name = "_add_kernel", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1 = "tpu_custom_call.call"(%0, %y) {kernel = @_add_kernel, kernel_name = "_add_kernel", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %2 = "tpu_custom_call.call"(%1) {kernel = @_copy_add1_kernel, kernel_name = "_copy_add1_kernel", metadata = {}, vmem_limit_bytes = 67108864 : i64} : (tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%2) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) : () -> ()
