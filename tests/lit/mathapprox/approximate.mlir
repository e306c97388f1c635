// tcc-approximate-math: f32 exp/log/tanh/erf (scalars and native-width vectors) become MLIR's
// polynomial approximations (arith + math.fma/floor/absf, no call of libm); other math ops,
// and the four on f64, are left for the libm lowering.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tcc-approximate-math)" %s | FileCheck %s

// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: return
func.func @approximated(%x: vector<16xf32>, %s: f32) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, f32) {
  %e = math.exp %x : vector<16xf32>
  %l = math.log %x : vector<16xf32>
  %t = math.tanh %x : vector<16xf32>
  %r = math.erf %s : f32
  return %e, %l, %t, %r : vector<16xf32>, vector<16xf32>, vector<16xf32>, f32
}

// CHECK-LABEL: func.func @kept
// CHECK: math.exp {{.*}} : vector<8xf64>
// CHECK: math.sin {{.*}} : vector<16xf32>
// CHECK: math.sqrt {{.*}} : vector<16xf32>
func.func @kept(%x: vector<8xf64>, %y: vector<16xf32>) -> (vector<8xf64>, vector<16xf32>, vector<16xf32>) {
  %e = math.exp %x : vector<8xf64>
  %s = math.sin %y : vector<16xf32>
  %q = math.sqrt %y : vector<16xf32>
  return %e, %s, %q : vector<8xf64>, vector<16xf32>, vector<16xf32>
}
