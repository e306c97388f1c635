"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, vector<16xi32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: vector<16xi32>):
    %0 = "tpu.vector_load_idx"(%arg0, %arg1, %arg1) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<8x128xf32, #tpu.memory_space<vmem>>, vector<16xi32>, vector<16xi32>) -> vector<16xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
