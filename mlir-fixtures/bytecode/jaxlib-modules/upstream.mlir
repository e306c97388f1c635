// Made by: hand-written; upstream dialects only (func, arith, scf, vector, memref), whose ops MLIR 22 registers
// too: jaxlib's native property encodings of them must decode in MLIR 22 as jaxlib prints them.
module @m {
  func.func private @g(%arg0: tensor<4xf32> {jax.arg = 1 : i32}) -> (tensor<4xf32> {jax.result_info = "r"}) attributes {no_inline} {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    %0 = arith.addf %arg0, %c fastmath<fast> : tensor<4xf32>
    %1 = arith.cmpf olt, %0, %c : tensor<4xf32>
    %i = arith.constant 3 : index
    %true = arith.constant true
    %2 = scf.if %true -> tensor<4xf32> { scf.yield %0 : tensor<4xf32> } else { scf.yield %c : tensor<4xf32> }
    %v = vector.broadcast %i : index to vector<8xindex>
    %m = memref.alloca() : memref<8xf32>
    return %2 : tensor<4xf32>
  }
  func.func @h() { %t = arith.constant true
   return }
}
