"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: memref<8x128xf32, #tpu.memory_space<hbm>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>):
    "tpu.wait_dma2"(%arg0, %arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, strict_ordering = false}> : (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_scalar_subcore>} : () -> ()
}) : () -> ()
