// `tpu.erase_memref_layout` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, strided<[128, 1]>, #tpu.memory_space<vmem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, strided<[128, 1]>, #tpu.memory_space<vmem>>):
    %0 = "tpu.erase_memref_layout"(%arg0) : (memref<8x128xf32, strided<[128, 1]>, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
