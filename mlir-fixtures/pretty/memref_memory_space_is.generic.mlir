// `tpu.memref_memory_space_is` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<any>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<any>>):
    %0 = "tpu.memref_memory_space_is"(%arg0) <{memory_space = #tpu.memory_space<hbm>}> : (memref<8x128xf32, #tpu.memory_space<any>>) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
