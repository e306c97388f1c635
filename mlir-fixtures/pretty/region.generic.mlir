// `tpu.region` fixture: a hand-written generic-form kernel parsed, verified and printed in generic form by jaxlib 0.12.0.1 (scripts/jaxref/gen_pretty_fixtures.py); do not edit.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "kernel"}> ({
  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):
    "tpu.region"() ({
      %0 = "tpu.sem_alloc"() : () -> memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      "tpu.yield"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
