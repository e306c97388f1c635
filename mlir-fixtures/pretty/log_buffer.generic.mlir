// `tpu.log_buffer` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    "tpu.log_buffer"(%arg0) <{shape = array<i64: 8, 128>, tag = "buf"}> : (memref<8x128xf32, #tpu.memory_space<vmem>>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
