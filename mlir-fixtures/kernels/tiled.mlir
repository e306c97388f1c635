module @kernel {
  func.func @kernel(%arg0: memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>>, %arg1: memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>>, %arg2: memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>>, %arg3: memref<!tpu.dma_semaphore, #tpu.tiled<,[]>, #tpu.memory_space<semaphore_mem, tc>> {llo.passthrough_operand}) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %cst = arith.constant dense<1.000000e+00> : vector<8x128xf32>
    %c0 = arith.constant 0 : index
    %c8_i32 = arith.constant 8 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tpu.reinterpret_cast %arg0 : memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>> -> memref<16x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>
    %1 = tpu.reinterpret_cast %arg1 : memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>> -> memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>
    %2 = tpu.reinterpret_cast %arg2 : memref<16x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, tc>> -> memref<16x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>
    %3 = tpu.memref_slice %2[%c0_i32, %c0_i32] : memref<16x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>> -> memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>
    %4 = tpu.memref_slice %0[%c8_i32, %c0_i32] : memref<16x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>> -> memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>
    tpu.enqueue_dma source(%4 : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>) target(%3 : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>) target_semaphore(%arg3 : memref<!tpu.dma_semaphore, #tpu.tiled<,[]>, #tpu.memory_space<semaphore_mem, tc>>)
    tpu.wait_dma source(%4 : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>) target(%3 : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>) target_semaphore(%arg3 : memref<!tpu.dma_semaphore, #tpu.tiled<,[]>, #tpu.memory_space<semaphore_mem, tc>>) {wait_target = true}
    %5 = tpu.vector_load %2[%c0, %c0] {strides = array<i32>} : memref<16x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>, vector<8x128xf32>, 
    %6 = arith.addf %5, %cst : vector<8x128xf32>
    tpu.vector_store %1[%c0, %c0], %6 {strides = array<i32>} : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem, tc>>, vector<8x128xf32>, 
    return
  }
}
