"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x256xf32, #tpu.memory_space<vmem>>, index) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<16x256xf32, #tpu.memory_space<vmem>>, %arg1: index):
    %0 = "tpu.vector_load"(%arg0, %arg1, %arg1) <{operandSegmentSizes = array<i32: 1, 2, 0>, strides = array<i32>}> : (memref<16x256xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
