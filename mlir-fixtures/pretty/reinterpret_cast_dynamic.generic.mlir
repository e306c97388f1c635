// `tpu.reinterpret_cast` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<?x128xf32, #tpu.memory_space<vmem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<?x128xf32, #tpu.memory_space<vmem>>, %arg1: i32):
    %0 = "tpu.reinterpret_cast"(%arg0, %arg1, %arg1, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (memref<?x128xf32, #tpu.memory_space<vmem>>, i32, i32, i32) -> memref<?x128xf32, strided<[?, 1], offset: ?>, #tpu.memory_space<vmem>>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
