// `tpu.strided_load` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<16x128xf32, #tpu.memory_space<vmem>>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tpu.strided_load"(%arg0, %0, %0) <{strides = array<i32: 2, 1>}> : (memref<16x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
