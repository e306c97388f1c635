"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, vector<16xi32>, vector<16xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi32>, %arg2: vector<16xf32>):
    "tpu.vector_store_idx"(%arg2, %arg0, %arg1, %arg1) <{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>}> : (vector<16xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, vector<16xi32>, vector<16xi32>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
