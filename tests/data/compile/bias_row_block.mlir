// A kernel with a one-row bias block (not in whole 8 x 128 tiles, so its size is not modelled) whose other
// blocks alone exceed v5e's 16 MiB scoped-VMEM default: libtpu 0.0.50.1 refuses it at 32.00M (issue 40).
module {
  func.func @bias_add(%i: i32, %x: memref<2048x1024xf32, #tpu.memory_space<vmem>>, %b: memref<1x1024xf32, #tpu.memory_space<vmem>>, %o: memref<2048x1024xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @tx, window_bounds = array<i64: 2048, 1024>}, {transform_indices = @tb, window_bounds = array<i64: 1, 1024>}, {transform_indices = @tx, window_bounds = array<i64: 2048, 1024>}]} {
    %c0 = arith.constant 0 : index
    %x0 = vector.load %x[%c0, %c0] : memref<2048x1024xf32, #tpu.memory_space<vmem>>, vector<2048x1024xf32>
    %b0 = vector.load %b[%c0, %c0] : memref<1x1024xf32, #tpu.memory_space<vmem>>, vector<1x1024xf32>
    %bb = vector.broadcast %b0 : vector<1x1024xf32> to vector<2048x1024xf32>
    %s = arith.addf %x0, %bb : vector<2048x1024xf32>
    vector.store %s, %o[%c0, %c0] : memref<2048x1024xf32, #tpu.memory_space<vmem>>, vector<2048x1024xf32>
    return
  }
  func.func @tx(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }
  func.func @tb(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %c0, %c0 : i32, i32
  }
}
