"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x256xf32, #tpu.memory_space<vmem>>, index, vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<16x256xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<8x128xf32>):
    "tpu.vector_store"(%arg2, %arg0, %arg1, %arg1) <{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}> : (vector<8x128xf32>, memref<16x256xf32, #tpu.memory_space<vmem>>, index, index) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
