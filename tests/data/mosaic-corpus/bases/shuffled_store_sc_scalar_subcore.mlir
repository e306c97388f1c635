"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, index, vector<8x128xf32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: index, %arg2: vector<8x128xf32>):
    "tpu.shuffled_store"(%arg2, %arg0, %arg1, %arg1) <{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
