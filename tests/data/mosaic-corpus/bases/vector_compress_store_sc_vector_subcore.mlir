"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, index, vector<8x128xf32>, vector<8x128xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<8x128xf32>, %arg3: vector<8x128xi1>):
    "tpu.vector_compress_store"(%arg2, %arg0, %arg1, %arg1, %arg3) <{add = false, compress_dim = 1 : i32}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index, vector<8x128xi1>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
