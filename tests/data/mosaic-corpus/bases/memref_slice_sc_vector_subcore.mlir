"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x256xf32, #tpu.memory_space<vmem>>, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<16x256xf32, #tpu.memory_space<vmem>>, %arg1: i32):
    %0 = "tpu.memref_slice"(%arg0, %arg1, %arg1) <{operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<16x256xf32, #tpu.memory_space<vmem>>, i32, i32) -> memref<8x128xf32, #tpu.memory_space<vmem>>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
