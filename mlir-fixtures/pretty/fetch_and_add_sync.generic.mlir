// `tpu.fetch_and_add_sync` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<16xi32, #tpu.memory_space<smem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<16xi32, #tpu.memory_space<smem>>, %arg1: i32):
    %0 = "tpu.fetch_and_add_sync"(%arg0, %arg1, %arg1, %arg1) : (memref<16xi32, #tpu.memory_space<smem>>, i32, i32, i32) -> i32
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
