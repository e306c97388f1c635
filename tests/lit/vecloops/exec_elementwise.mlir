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

func.func @k(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %i: memref<8x32xi32>, %h: memref<8x32xbf16>, %o: memref<8x32xf32>, %oi: memref<8x32xi32>, %oh: memref<8x32xbf16>) {
  %c0 = arith.constant 0 : index
  %pf = arith.constant 0.0 : f32
  %pi = arith.constant 0 : i32
  %ph = arith.constant 0.0 : bf16
  %x = vector.transfer_read %a[%c0, %c0], %pf {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %y = vector.transfer_read %b[%c0, %c0], %pf {in_bounds = [true, true]} : memref<8x32xf32>, vector<8x32xf32>
  %n = vector.transfer_read %i[%c0, %c0], %pi {in_bounds = [true, true]} : memref<8x32xi32>, vector<8x32xi32>
  %hh = vector.transfer_read %h[%c0, %c0], %ph {in_bounds = [true, true]} : memref<8x32xbf16>, vector<8x32xbf16>
  %s = arith.mulf %x, %y : vector<8x32xf32>
  %t = math.tanh %s : vector<8x32xf32>
  %e = arith.extf %hh : vector<8x32xbf16> to vector<8x32xf32>
  %u = arith.addf %t, %e : vector<8x32xf32>
  %cmp = arith.cmpf olt, %u, %y : vector<8x32xf32>
  %sel = arith.select %cmp, %u, %x : vector<8x32xi1>, vector<8x32xf32>
  %half = arith.constant dense<0.5> : vector<8x32xf32>
  %f = math.fma %sel, %half, %x : vector<8x32xf32>
  vector.transfer_write %f, %o[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32>
  %fi = arith.fptosi %f : vector<8x32xf32> to vector<8x32xi32>
  %seven = arith.constant dense<7> : vector<8x32xi32>
  %m = arith.remsi %n, %seven : vector<8x32xi32>
  %sh = arith.shli %m, %seven : vector<8x32xi32>
  %g = arith.addi %fi, %sh : vector<8x32xi32>
  %mx = arith.maxsi %g, %n : vector<8x32xi32>
  vector.transfer_write %mx, %oi[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xi32>, memref<8x32xi32>
  %back = arith.sitofp %mx : vector<8x32xi32> to vector<8x32xf32>
  %tr = arith.truncf %back : vector<8x32xf32> to vector<8x32xbf16>
  %hx = arith.mulf %tr, %hh : vector<8x32xbf16>
  vector.transfer_write %hx, %oh[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xbf16>, memref<8x32xbf16>
  return
}
