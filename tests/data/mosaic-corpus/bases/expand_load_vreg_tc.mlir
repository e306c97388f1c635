"builtin.module"() ({
  "func.func"() <{function_type = (memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<128xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<16xi1>):
    %0 = "tpu.expand_load_vreg"(%arg0, %arg1, %arg2) : (memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> vector<16xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
