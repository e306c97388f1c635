// Bit-for-bit: the kernel lowered by MLIR's upstream conversions alone (n-D vectors unrolled)
// and after tcc-bufferize-vectors print the same bits for every element of every argument.
// RUN: python3 %S/harness.py %s > %t.main.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.main.mlir > %t.unrolled
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tcc-bufferize-vectors)" %t.main.mlir -o %t.loops.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.loops.mlir > %t.loops
// RUN: diff %t.unrolled %t.loops
// No vector wider than 64 bytes is left in the kernel.
// RUN: python3 %S/check_native.py k < %t.loops.mlir

func.func @k(%a: memref<8x32xf32>, %b: memref<4x64xf32>, %v: memref<256xf32>, %o: memref<8x32xf32>, %o2: memref<4x64xf32>, %o3: memref<256xf32>, %o4: memref<32x8xf32>) {
  %c0 = arith.constant 0 : index
  %pf = arith.constant 0.0 : f32
  %pi = arith.constant 0 : i32
  %ph = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%c0, %c0], %pf {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %y = vector.transfer_read %b[%c0, %c0], %pf {in_bounds = [true, true]} : memref<4x64xf32>, vector<4x64xf32>
  %c1 = arith.constant 1 : index
  %flat = vector.load %v[%c0] : memref<256xf32>, vector<256xf32>
  %sc = vector.shape_cast %y : vector<4x64xf32> to vector<8x32xf32>
  %t = vector.transpose %x, [1, 0] : vector<8x32xf32> to vector<32x8xf32>
  vector.transfer_write %t, %o4[%c0, %c0] {in_bounds = [true, true]} : vector<32x8xf32>, memref<32x8xf32>
  %row = vector.extract %x[3] : vector<32xf32> from vector<8x32xf32>
  %el = vector.extract %sc[%c1, 5] : f32 from vector<8x32xf32>
  %sl = vector.extract_strided_slice %x {offsets = [2, 16], sizes = [4, 16], strides = [1, 1]} : vector<8x32xf32> to vector<4x16xf32>
  %w = arith.addf %x, %sc : vector<8x32xf32>
  %ins = vector.insert %row, %w[6] : vector<32xf32> into vector<8x32xf32>
  %ins2 = vector.insert %el, %ins[0, 1] : f32 into vector<8x32xf32>
  %iss = vector.insert_strided_slice %sl, %ins2 {offsets = [4, 0], strides = [1, 1]} : vector<4x16xf32> into vector<8x32xf32>
  vector.transfer_write %iss, %o[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  %bs = vector.broadcast %el : f32 to vector<4x64xf32>
  %brow = vector.broadcast %row : vector<32xf32> to vector<4x2x32xf32>
  %bsc = vector.shape_cast %brow : vector<4x2x32xf32> to vector<4x64xf32>
  %u = arith.addf %bs, %bsc : vector<4x64xf32>
  vector.transfer_write %u, %o2[%c0, %c0] {in_bounds = [true, true]} : vector<4x64xf32>, memref<4x64xf32>
  %dense = arith.constant dense<[-30.0, -29.5, -29.0, -28.5, -28.0, -27.5, -27.0, -26.5, -26.0, -25.5, -25.0, -24.5, -24.0, -23.5, -23.0, -22.5, -22.0, -21.5, -21.0, -20.5, -20.0, -19.5, -19.0, -18.5, -18.0, -17.5, -17.0, -16.5, -16.0, -15.5, -15.0, -14.5, -14.0, -13.5, -13.0, -12.5, -12.0, -11.5, -11.0, -10.5, -10.0, -9.5, -9.0, -8.5, -8.0, -7.5, -7.0, -6.5, -6.0, -5.5, -5.0, -4.5, -4.0, -3.5, -3.0, -2.5, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5, 16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5, 20.0, 20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5, 24.0, 24.5, 25.0, 25.5, 26.0, 26.5, 27.0, 27.5, 28.0, 28.5, 29.0, 29.5, 30.0, 30.5, 31.0, 31.5, 32.0, 32.5, 33.0, 33.5, 34.0, 34.5, 35.0, 35.5, 36.0, 36.5, 37.0, 37.5, 38.0, 38.5, 39.0, 39.5, 40.0, 40.5, 41.0, 41.5, 42.0, 42.5, 43.0, 43.5, 44.0, 44.5, 45.0, 45.5, 46.0, 46.5, 47.0, 47.5, 48.0, 48.5, 49.0, 49.5, 50.0, 50.5, 51.0, 51.5, 52.0, 52.5, 53.0, 53.5, 54.0, 54.5, 55.0, 55.5, 56.0, 56.5, 57.0, 57.5, 58.0, 58.5, 59.0, 59.5, 60.0, 60.5, 61.0, 61.5, 62.0, 62.5, 63.0, 63.5, 64.0, 64.5, 65.0, 65.5, 66.0, 66.5, 67.0, 67.5, 68.0, 68.5, 69.0, 69.5, 70.0, 70.5, 71.0, 71.5, 72.0, 72.5, 73.0, 73.5, 74.0, 74.5, 75.0, 75.5, 76.0, 76.5, 77.0, 77.5, 78.0, 78.5, 79.0, 79.5, 80.0, 80.5, 81.0, 81.5, 82.0, 82.5, 83.0, 83.5, 84.0, 84.5, 85.0, 85.5, 86.0, 86.5, 87.0, 87.5, 88.0, 88.5, 89.0, 89.5, 90.0, 90.5, 91.0, 91.5, 92.0, 92.5, 93.0, 93.5, 94.0, 94.5, 95.0, 95.5, 96.0, 96.5, 97.0, 97.5]> : vector<256xf32>
  %f2 = arith.mulf %flat, %dense : vector<256xf32>
  %st = vector.step : vector<256xindex>
  %sti = arith.index_cast %st : vector<256xindex> to vector<256xi32>
  %stf = arith.sitofp %sti : vector<256xi32> to vector<256xf32>
  %c100 = arith.constant 100 : index
  %mask = vector.create_mask %c100 : vector<256xi1>
  %f3 = arith.select %mask, %f2, %stf : vector<256xi1>, vector<256xf32>
  vector.store %f3, %o3[%c0] : memref<256xf32>, vector<256xf32>
  return
}
