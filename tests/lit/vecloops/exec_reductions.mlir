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

func.func @k(%a: memref<8x32xf32>, %i: memref<8x32xi32>, %o: memref<8x32xf32>, %rows: memref<8xf32>, %cols: memref<32xf32>, %irows: memref<8xi32>, %all: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %pf = arith.constant 0.0 : f32
  %pi = arith.constant 0 : i32
  %ph = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%c0, %c0], %pf {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %n = vector.transfer_read %i[%c0, %c0], %pi {in_bounds = [true, true]} : memref<8x32xi32>, vector<8x32xi32>
  %z8 = arith.constant dense<0.0> : vector<8xf32>
  %ninf = arith.constant dense<0xFF800000> : vector<8xf32>
  %m = vector.multi_reduction <maximumf>, %x, %ninf [1] : vector<8x32xf32> to vector<8xf32>
  %mb = vector.broadcast %m : vector<8xf32> to vector<32x8xf32>
  %mt = vector.transpose %mb, [1, 0] : vector<32x8xf32> to vector<8x32xf32>
  %d = arith.subf %x, %mt : vector<8x32xf32>
  %e = math.exp %d : vector<8x32xf32>
  %s = vector.multi_reduction <add>, %e, %z8 [1] : vector<8x32xf32> to vector<8xf32>
  %s2 = vector.shape_cast %s : vector<8xf32> to vector<8x1xf32>
  %sb = vector.broadcast %s2 : vector<8x1xf32> to vector<8x32xf32>
  %r = arith.divf %e, %sb : vector<8x32xf32>
  vector.transfer_write %r, %o[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  vector.transfer_write %s, %rows[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  %z32 = arith.constant dense<1.5> : vector<32xf32>
  %cs = vector.multi_reduction <add>, %x, %z32 [0] : vector<8x32xf32> to vector<32xf32>
  vector.transfer_write %cs, %cols[%c0] {in_bounds = [true]} : vector<32xf32>, memref<32xf32>
  %i0 = arith.constant dense<3> : vector<8xi32>
  %ir = vector.multi_reduction <xor>, %n, %i0 [1] : vector<8x32xi32> to vector<8xi32>
  %ir2 = vector.multi_reduction <add>, %n, %ir [1] : vector<8x32xi32> to vector<8xi32>
  vector.transfer_write %ir2, %irows[%c0] {in_bounds = [true]} : vector<8xi32>, memref<8xi32>
  %acc = arith.constant 0.25 : f32
  %tot = vector.multi_reduction <add>, %r, %acc [0, 1] : vector<8x32xf32> to f32
  %flat = vector.shape_cast %x : vector<8x32xf32> to vector<256xf32>
  %mn = vector.reduction <minimumf>, %flat, %tot : vector<256xf32> into f32
  %pr = vector.reduction <mul>, %flat : vector<256xf32> into f32
  %sum2 = arith.addf %mn, %pr : f32
  memref.store %sum2, %all[%c0] : memref<1xf32>
  return
}
