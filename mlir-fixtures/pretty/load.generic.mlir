// `tpu.load` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "tpu.load"(%arg0, %0, %0) <{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_stride = 1 : i32}> : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
