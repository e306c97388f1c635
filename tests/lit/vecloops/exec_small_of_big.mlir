// Bit-for-bit: an elementwise op with a native-width result and a wider operand (an
// `i64 -> i32` truncation of `vector<16xi64>`, as the compiled engine emits around its runtime
// ops) is computed chunk by chunk into a stack buffer and read back by its users, which the pass
// leaves alone (a regression: the pass once failed with "a rewritten op still has uses").
// RUN: python3 %S/harness.py %s > %t.main.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.main.mlir > %t.unrolled
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tcc-bufferize-vectors)" %t.main.mlir -o %t.loops.mlir
// RUN: bash %S/lower.sh %llvm_bin < %t.loops.mlir > %t.loops
// RUN: diff %t.unrolled %t.loops
// RUN: python3 %S/check_native.py k < %t.loops.mlir

func.func @k(%a: memref<16xi64>, %b: memref<16x4xf64>, %o: memref<16x128xi64>, %of: memref<16x4xf32>) {
  %c0 = arith.constant 0 : index
  %pi = arith.constant 0 : i64
  %pf = arith.constant 0.0 : f64
  %x = vector.transfer_read %a[%c0], %pi {in_bounds = [true]} : memref<16xi64>, vector<16xi64>
  %t = arith.trunci %x : vector<16xi64> to vector<16xi32>
  %s = vector.shape_cast %t : vector<16xi32> to vector<16x1xi32>
  %w = vector.broadcast %s : vector<16x1xi32> to vector<16x128xi32>
  %e = arith.extsi %w : vector<16x128xi32> to vector<16x128xi64>
  vector.transfer_write %e, %o[%c0, %c0] {in_bounds = [true, true]} : vector<16x128xi64>, memref<16x128xi64>
  %y = vector.transfer_read %b[%c0, %c0], %pf {in_bounds = [true, true]} : memref<16x4xf64>, vector<16x4xf64>
  %f = arith.truncf %y : vector<16x4xf64> to vector<16x4xf32>
  vector.transfer_write %f, %of[%c0, %c0] {in_bounds = [true, true]} : vector<16x4xf32>, memref<16x4xf32>
  return
}
