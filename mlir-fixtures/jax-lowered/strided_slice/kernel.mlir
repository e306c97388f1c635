module @strided_slice attributes {stable_mosaic.version = 15 : i64} {
  func.func @strided_slice(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %1 = vector.extract_strided_slice %0 offsets = [0, 0], sizes = [8, 64], strides = [1, 1] : vector<8x128xf32> to vector<8x64xf32>
    %2 = vector.extract_strided_slice %0 offsets = [0, 64], sizes = [8, 64], strides = [1, 1] : vector<8x128xf32> to vector<8x64xf32>
    %cst = arith.constant 1.000000e+00 : f32
    %3 = vector.broadcast %cst : f32 to vector<8x64xf32>
    %4 = arith.addf %2, %3 : vector<8x64xf32>
    %cst_1 = arith.constant 2.000000e+00 : f32
    %5 = vector.broadcast %cst_1 : f32 to vector<8x64xf32>
    %6 = arith.mulf %1, %5 : vector<8x64xf32>
    %7 = tpu.concatenate %4, %6 in 1 : vector<8x64xf32>, vector<8x64xf32> -> vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %8 = vector.load %arg1[%c0_2, %c0_3] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg1[%c0_2, %c0_3], %7 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    %9 = vector.extract_strided_slice %0 offsets = [0, 16], sizes = [8, 64], strides = [1, 1] : vector<8x128xf32> to vector<8x64xf32>
    %c0_4 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %10 = vector.load %arg1[%c0_4, %c32] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x64xf32>
    tpu.vector_store %arg1[%c0_4, %c32], %9 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x64xf32>, 
    return
  }
}
