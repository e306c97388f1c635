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

func.func @k(%a: memref<8x32xf32>, %flag: memref<1xi32>, %o: memref<8x32xf32>, %o2: memref<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %pf = arith.constant 0.0 : f32
  %pi = arith.constant 0 : i32
  %ph = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%c0, %c0], %pf {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = arith.constant dense<1.0> : vector<8x32xf32>
  %tenth = arith.constant dense<0.1> : vector<8x32xf32>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init, %k = %pf) -> (vector<8x32xf32>, f32) {
    %m = arith.mulf %acc, %x : vector<8x32xf32>
    %n = arith.addf %m, %tenth : vector<8x32xf32>
    %one = arith.constant 1.0 : f32
    %k2 = arith.addf %k, %one : f32
    scf.yield %n, %k2 : vector<8x32xf32>, f32
  }
  %fl = memref.load %flag[%c0] : memref<1xi32>
  %zero = arith.constant 0 : i32
  %cond = arith.cmpi sgt, %fl, %zero : i32
  %sel = scf.if %cond -> (vector<8x32xf32>) {
    %e = math.exp %r#0 : vector<8x32xf32>
    scf.yield %e : vector<8x32xf32>
  } else {
    %kb = vector.broadcast %r#1 : f32 to vector<8x32xf32>
    scf.yield %kb : vector<8x32xf32>
  }
  vector.transfer_write %sel, %o[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  vector.transfer_write %r#0, %o2[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  return
}
