// `libtpu-version`: the placeholders lowered for the libtpu release that will compile them. For
// 0.0.47.1 (no `debug_locations` field) the locations stay in the body: no `debug_locations` key in
// the config; the default release (0.0.50.1) unzips them. An explicit `ir_version` above what the
// release reads is an error naming the release that first reads it.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{libtpu-version=0.0.47.1})" %s \
// RUN:   | FileCheck %s --check-prefix=OLD
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" %s | FileCheck %s --check-prefix=DEFAULT
// RUN: not mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{libtpu-version=0.0.47.1 ir-version=17})" %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REFUSED

// OLD: stablehlo.custom_call @tpu_custom_call(
// OLD-NOT: debug_locations
// DEFAULT: debug_locations
// REFUSED: ir_version 17 is above 16, the newest Mosaic serialization version libtpu 0.0.47.1 reads
// REFUSED-SAME: libtpu 0.0.48 or newer
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
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}
