// An op the pass does not handle on a big vector fails the pass with an error naming it
// (the engine then falls back to the interpreter): never a silent change.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tcc-bufferize-vectors)" %s -verify-diagnostics -split-input-file

// expected-error@+1 {{tcc-bufferize-vectors: big vector argument vector<256xi32>}}
func.func @gather(%m: memref<1024xf32>, %i: vector<256xi32>, %mask: vector<256xi1>, %p: vector<256xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %g = vector.gather %m[%c0] [%i], %mask, %p : memref<1024xf32>, vector<256xi32>, vector<256xi1>, vector<256xf32> into vector<256xf32>
  %z = arith.constant 0.0 : f32
  return %z : f32
}

// -----

func.func @contract(%a: memref<32x32xf32>, %o: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0, %c0] : memref<32x32xf32>, vector<32x32xf32>
  // expected-error@+1 {{'vector.contract' op tcc-bufferize-vectors: cannot bufferize 'vector.contract' on a vector wider than 64 bytes}}
  %y = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %x, %x : vector<32x32xf32>, vector<32x32xf32> into vector<32x32xf32>
  vector.store %y, %o[%c0, %c0] : memref<32x32xf32>, vector<32x32xf32>
  return
}
