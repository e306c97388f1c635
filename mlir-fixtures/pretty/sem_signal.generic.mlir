// `tpu.sem_signal` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: i32):
    "tpu.sem_signal"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
