"builtin.module"() ({
  "func.func"() <{function_type = (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8xi32>) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %arg1: memref<64x128xf32, #tpu.memory_space<hbm>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: vector<8xi32>):
    "tpu.enqueue_indirect_dma"(%arg1, %arg2, %arg3, %arg0) <{add = false}> : (memref<64x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8xi32>, memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) -> ()
    "func.return"() : () -> ()
  }) {tpu.core_type = #tpu.core_type<sc_vector_subcore>} : () -> ()
}) : () -> ()
