// `tpu.shuffled_store` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: vector<8x128xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    "tpu.shuffled_store"(%arg1, %arg0, %0, %0) <{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 7, 6, 5, 4, 3, 2, 1, 0>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
