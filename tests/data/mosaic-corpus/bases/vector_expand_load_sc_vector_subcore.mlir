"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, index, vector<8x128xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<8x128xi1>):
    %0 = "tpu.vector_expand_load"(%arg0, %arg1, %arg1, %arg2) <{expand_dim = 1 : i32}> : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index, vector<8x128xi1>) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
