// Bit-for-bit: an elementwise op whose operand is big (> 64 bytes) and result small (`arith.trunci`
// of a `vector<16xi64>`, as the compiled engine emits for an i32 vector loaded from i64 storage) is
// computed chunk by chunk into a spill slot and read back as the small vector its users take.
// RUN: python3 %S/harness.py %s > %t.main.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.main.mlir > %t.unrolled
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tcc-bufferize-vectors)" %t.main.mlir -o %t.loops.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.loops.mlir > %t.loops
// RUN: diff %t.unrolled %t.loops
// RUN: python3 %S/check_native.py k < %t.loops.mlir

func.func @k(%a: memref<16xi64>, %b: memref<2x8xf64>, %o: memref<16xi32>, %of: memref<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0 : i64
  %pf = arith.constant 0.0 : f64
  %x = vector.transfer_read %a[%c0], %p {in_bounds = [true]} : memref<16xi64>, vector<16xi64>
  %t = arith.trunci %x : vector<16xi64> to vector<16xi32>
  %k = arith.constant dense<3> : vector<16xi32>
  %m = arith.muli %t, %k : vector<16xi32>
  vector.transfer_write %m, %o[%c0] {in_bounds = [true]} : vector<16xi32>, memref<16xi32>
  %y = vector.transfer_read %b[%c0, %c0], %pf {in_bounds = [true, true]} : memref<2x8xf64>, vector<2x8xf64>
  %f = arith.truncf %y : vector<2x8xf64> to vector<2x8xf32>
  vector.transfer_write %f, %of[%c0, %c0] {in_bounds = [true, true]} : vector<2x8xf32>, memref<2x8xf32>
  return
}
