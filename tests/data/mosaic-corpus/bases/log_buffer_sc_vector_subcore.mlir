"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    "tpu.log_buffer"(%arg0) <{shape = array<i64: 8, 128>, tag = "x"}> : (memref<8x128xf32, #tpu.memory_space<vmem>>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
