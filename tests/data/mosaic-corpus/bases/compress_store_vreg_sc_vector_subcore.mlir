"builtin.module"() ({
  "func.func"() <{function_type = (memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xf32>, vector<16xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<128xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<16xf32>, %arg3: vector<16xi1>):
    "tpu.compress_store_vreg"(%arg2, %arg0, %arg1, %arg3) <{add = false}> : (vector<16xf32>, memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
