



"builtin.module"() <{sym_name = "jit_model"}> ({
  "builtin.module"() <{sym_name = "_add_kernel"}> ({
    "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "_add_kernel"}> ({
    ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>):
      %0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %1 = "arith.constant"() <{value = 0 : index}> : () -> index
      %2 = "vector.load"(%arg0, %0, %1) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
      %3 = "arith.constant"() <{value = 0 : index}> : () -> index
      %4 = "arith.constant"() <{value = 0 : index}> : () -> index
      %5 = "vector.load"(%arg1, %3, %4) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
      %6 = "arith.addf"(%2, %5) <{fastmath = #arith.fastmath<none>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>
      %7 = "arith.constant"() <{value = 0 : index}> : () -> index
      %8 = "arith.constant"() <{value = 0 : index}> : () -> index
      %9 = "vector.load"(%arg2, %7, %8) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
      "tpu.vector_store"(%6, %arg2, %7, %8) <{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
      "func.return"() : () -> ()
    }) {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} : () -> ()
  }) : () -> ()
  "builtin.module"() <{sym_name = "_copy_add1_kernel"}> ({
    "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "_copy_add1_kernel"}> ({
    ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>):
      %0 = "arith.constant"() <{value = 0 : index}> : () -> index
      %1 = "arith.constant"() <{value = 0 : index}> : () -> index
      %2 = "vector.load"(%arg0, %0, %1) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
      %3 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %4 = "vector.broadcast"(%3) : (f32) -> vector<8x128xf32>
      %5 = "arith.addf"(%2, %4) <{fastmath = #arith.fastmath<none>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>
      %6 = "arith.constant"() <{value = 0 : index}> : () -> index
      %7 = "arith.constant"() <{value = 0 : index}> : () -> index
      %8 = "vector.load"(%arg1, %6, %7) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
      "tpu.vector_store"(%5, %arg1, %6, %7) <{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
      "func.return"() : () -> ()
    }) {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>):
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @"", kernel_name = "", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1 = "tpu_custom_call.call"(%0, %y) {kernel = @"", kernel_name = "", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %2 = "tpu_custom_call.call"(%1) {kernel = @_copy_add1_kernel, kernel_name = "_copy_add1_kernel", metadata = {}, vmem_limit_bytes = 67108864 : i64} : (tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%2) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) : () -> ()
