"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, index) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: index):
    %0 = "tpu.load"(%arg0, %arg1) <{sublane_mask = array<i1>, sublane_stride = 1 : i32}> : (memref<8x128xf32, #tpu.memory_space<vmem>>, index) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
