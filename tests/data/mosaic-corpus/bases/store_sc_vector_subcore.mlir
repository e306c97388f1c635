"builtin.module"() ({
  "func.func"() <{function_type = (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: vector<8x128xf32>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: index, %arg3: i32):
    "tpu.store"(%arg0, %arg1, %arg2, %arg3) <{add = false, operandSegmentSizes = array<i32: 1, 1, 1, 1>, sublane_mask = array<i1>, sublane_stride = 1 : i32}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, i32) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
