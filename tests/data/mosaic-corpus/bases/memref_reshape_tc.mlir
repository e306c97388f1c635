"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    %0 = "tpu.memref_reshape"(%arg0) : (memref<8x128xf32, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<tc>} : () -> ()
}) : () -> ()
