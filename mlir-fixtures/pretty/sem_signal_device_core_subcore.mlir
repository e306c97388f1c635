// `tpu.sem_signal` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: i32, %arg2: i32) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    tpu.sem_signal %arg0, %arg1 device_id %arg2 core_id %arg2 subcore_id %arg2 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    return
  }
}
