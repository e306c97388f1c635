// Copied verbatim from the JAX 0.12 golden sparsecore_scan_reduce/kernel_pre_serde.mlir (jax printed it; tpu ops in custom syntax).
#map = affine_map<(d0, d1) -> (0)>
module @sc_scan {
  func.func @sc_scan(%arg0: i32, %arg1: i32, %arg2: memref<16xf32, #tpu.memory_space<hbm>>, %arg3: memref<16xi32, #tpu.memory_space<hbm>>, %arg4: memref<16xf32, #tpu.memory_space<hbm>>, %arg5: memref<16xf32, #tpu.memory_space<hbm>>, %arg6: memref<16xi32, #tpu.memory_space<hbm>>, %arg7: memref<16xf32, #tpu.memory_space<vmem>>, %arg8: memref<16xi32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<core_parallel>, #tpu.dimension_semantics<subcore_parallel>], iteration_bounds = array<i64: 1, 16>, scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<sc_vector_subcore>, window_params = [{transform_indices = #map}, {transform_indices = #map}, {transform_indices = #map}, {transform_indices = #map}, {transform_indices = #map}]} {
    "tpu.region"() ({
      %24 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg2 : memref<16xf32, #tpu.memory_space<hbm>>) target(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg2 : memref<16xf32, #tpu.memory_space<hbm>>) target(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    "tpu.region"() ({
      %24 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg3 : memref<16xi32, #tpu.memory_space<hbm>>) target(%arg8 : memref<16xi32, #tpu.memory_space<vmem>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg3 : memref<16xi32, #tpu.memory_space<hbm>>) target(%arg8 : memref<16xi32, #tpu.memory_space<vmem>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    %c0 = arith.constant 0 : index
    %0 = tpu.vector_load %arg7[%c0] {strides = array<i32>} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>, 
    %1 = vector.shape_cast %0 : vector<16xf32> to vector<16xf32>
    %true = arith.constant true
    %2 = vector.broadcast %true : i1 to vector<16xi1>
    %3 = tpu.scan <sum>, %1 masked %2 {dimension = 0 : i64} : vector<16xf32>, vector<16xi1> -> vector<16xf32>
    %c0_0 = arith.constant 0 : index
    %4 = tpu.vector_load %arg7[%c0_0] {strides = array<i32>} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>, 
    %5 = vector.shape_cast %4 : vector<16xf32> to vector<16xf32>
    %6 = vector.shape_cast %3 : vector<16xf32> to vector<16xf32>
    tpu.vector_store %arg7[%c0_0], %6 {strides = array<i32>} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>, 
    "tpu.region"() ({
      %24 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target(%arg4 : memref<16xf32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target(%arg4 : memref<16xf32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    %true_1 = arith.constant true
    %7 = vector.broadcast %true_1 : i1 to vector<16xi1>
    %8 = tpu.scan <maxf>, %1 masked %7 {dimension = 0 : i64} : vector<16xf32>, vector<16xi1> -> vector<16xf32>
    %c0_2 = arith.constant 0 : index
    %9 = tpu.vector_load %arg7[%c0_2] {strides = array<i32>} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>, 
    %10 = vector.shape_cast %9 : vector<16xf32> to vector<16xf32>
    %11 = vector.shape_cast %8 : vector<16xf32> to vector<16xf32>
    tpu.vector_store %arg7[%c0_2], %11 {strides = array<i32>} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>, 
    "tpu.region"() ({
      %24 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target(%arg5 : memref<16xf32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg7 : memref<16xf32, #tpu.memory_space<vmem>>) target(%arg5 : memref<16xf32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    %c0_3 = arith.constant 0 : index
    %12 = tpu.vector_load %arg8[%c0_3] {strides = array<i32>} : memref<16xi32, #tpu.memory_space<vmem>>, vector<16xi32>, 
    %13 = vector.shape_cast %12 : vector<16xi32> to vector<16xi32>
    %true_4 = arith.constant true
    %14 = vector.broadcast %true_4 : i1 to vector<16xi1>
    %c-2147483648_i32 = arith.constant -2147483648 : i32
    %15 = vector.broadcast %c-2147483648_i32 : i32 to vector<16xi32>
    %16 = arith.xori %13, %15 : vector<16xi32>
    %17 = tpu.scan <maxui>, %16 masked %14 {dimension = 0 : i64} : vector<16xi32>, vector<16xi1> -> vector<16xi32>
    %18 = arith.xori %17, %15 : vector<16xi32>
    %19 = vector.extract %18[15] : i32 from vector<16xi32>
    %20 = vector.broadcast %19 : i32 to vector<16xi32>
    %c0_5 = arith.constant 0 : index
    %21 = tpu.vector_load %arg8[%c0_5] {strides = array<i32>} : memref<16xi32, #tpu.memory_space<vmem>>, vector<16xi32>, 
    %22 = vector.shape_cast %21 : vector<16xi32> to vector<16xi32>
    %23 = vector.shape_cast %20 : vector<16xi32> to vector<16xi32>
    tpu.vector_store %arg8[%c0_5], %23 {strides = array<i32>} : memref<16xi32, #tpu.memory_space<vmem>>, vector<16xi32>, 
    "tpu.region"() ({
      %24 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.enqueue_dma source(%arg8 : memref<16xi32, #tpu.memory_space<vmem>>) target(%arg6 : memref<16xi32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
      tpu.wait_dma source(%arg8 : memref<16xi32, #tpu.memory_space<vmem>>) target(%arg6 : memref<16xi32, #tpu.memory_space<hbm>>) target_semaphore(%24 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
      tpu.yield
    }) : () -> ()
    return
  }
}
