module @scf_while attributes {stable_mosaic.version = 15 : i64} {
  func.func @scf_while(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = vector.broadcast %cst : f32 to vector<8x128xf32>
    %c0_i32 = arith.constant 0 : i32
    %1:2 = scf.while (%arg2 = %c0_i32, %arg3 = %0) : (i32, vector<8x128xf32>) -> (i32, vector<8x128xf32>) {
      %c4_i32 = arith.constant 4 : i32
      %7 = arith.cmpi slt, %arg2, %c4_i32 : i32
      scf.condition(%7) %arg2, %arg3 : i32, vector<8x128xf32>
    } do {
    ^bb0(%arg2: i32, %arg3: vector<8x128xf32>):
      %c1_i32 = arith.constant 1 : i32
      %7 = arith.addi %arg2, %c1_i32 : i32
      %c0 = arith.constant 0 : index
      %c0_2 = arith.constant 0 : index
      %8 = vector.load %arg0[%c0, %c0_2] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %cst_3 = arith.constant 2.000000e+00 : f32
      %9 = vector.broadcast %cst_3 : f32 to vector<8x128xf32>
      %10 = arith.mulf %8, %9 : vector<8x128xf32>
      %11 = arith.addf %arg3, %10 : vector<8x128xf32>
      scf.yield %7, %11 : i32, vector<8x128xf32>
    }
    %2 = vector.extract_strided_slice %1#1 offsets = [0, 0], sizes = [1, 1], strides = [1, 1] : vector<8x128xf32> to vector<1x1xf32>
    %3 = vector.extract %2[0, 0] : f32 from vector<1x1xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %4 = arith.cmpf ogt, %3, %cst_0 : f32
    %5 = arith.extui %4 : i1 to i32
    %c0_i32_1 = arith.constant 0 : i32
    %6 = arith.cmpi ne, %5, %c0_i32_1 : i32
    scf.if %6 {
      %c0 = arith.constant 0 : index
      %c0_2 = arith.constant 0 : index
      %7 = vector.load %arg1[%c0, %c0_2] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      tpu.vector_store %arg1[%c0, %c0_2], %1#1 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    } else {
    }
    return
  }
}
