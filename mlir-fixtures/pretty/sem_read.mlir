// `tpu.sem_read` fixture: a hand-written generic-form kernel parsed, verified and printed in custom (pretty) form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
module {
  func.func @kernel(%arg0: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {
    %0 = tpu.sem_read %arg0 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>> -> i32
    return
  }
}
