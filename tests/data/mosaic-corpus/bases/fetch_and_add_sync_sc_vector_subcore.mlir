"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xi32, #tpu.memory_space<vmem>>, i32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xi32, #tpu.memory_space<vmem>>, %arg1: i32):
    %0 = "tpu.fetch_and_add_sync"(%arg0, %arg1, %arg1, %arg1, %arg1) : (memref<8x128xi32, #tpu.memory_space<vmem>>, i32, i32, i32, i32) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
