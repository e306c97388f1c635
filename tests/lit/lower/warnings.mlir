// The lower pass's warnings (libtpu's and the chip's) are MLIR warnings at the placeholder; the
// module is lowered. With jax-rules-only the warnings are still given.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{target=v5e})" \
// RUN:   --verify-diagnostics %s | FileCheck %s
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{target=v5e jax-rules-only=true})" \
// RUN:   --verify-diagnostics %s | FileCheck %s

// CHECK: stablehlo.custom_call @tpu_custom_call(
// CHECK-NOT: tpu_custom_call.call
module {
  module @add {
    func.func @add(%a: memref<8x128xf32, #tpu.memory_space<vmem>>, %b: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
      %c0 = arith.constant 0 : index
      %x = vector.load %a[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %y = vector.load %b[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %s = arith.addf %x, %y : vector<8x128xf32>
      vector.store %s, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      return
    }
  }
  func.func @main(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>) -> tensor<8x128xf32> {
    // expected-warning @below {{`vmem_limit_bytes` = 286.10 MiB (300000000 bytes) exceeds the 128 MiB of VMEM on v5e}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}, vmem_limit_bytes = 300000000 : i64} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}
