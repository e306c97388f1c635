// One placeholder lowered by upstream mlir-opt with the plugin: the nested kernel module is
// serialized into the custom call's backend_config and removed, the placeholder replaced.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" %s | FileCheck %s
// The body decodes back to the kernel and the call's parameters (the CLI reads mlir-opt's output):
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" %s | %tcc inspect - | FileCheck %s --check-prefix=DECODED
// ... and the lowered module passes the verify pass:
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower,tpu-custom-call-verify{target=v5e})" %s \
// RUN:   | FileCheck %s

// In generic form, every inherent attribute of the custom call, defaults included:
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin --mlir-print-op-generic \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" %s | FileCheck %s --check-prefix=GENERIC
// GENERIC: "stablehlo.custom_call"(%{{.*}}, %{{.*}}) <{api_version = 1 : i32, backend_config = "{\22custom_call_config
// GENERIC-SAME: call_target_name = "tpu_custom_call", called_computations = [], has_side_effect = false,
// GENERIC-SAME: output_operand_aliases = [], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}>
// GENERIC-SAME: {kernel_name = "add", mhlo.frontend_attributes = {kernel_metadata = "{}"}}

// CHECK-LABEL: module {
// CHECK-NOT: module @add
// CHECK: func.func @main(%[[X:.*]]: tensor<8x128xf32>, %[[Y:.*]]: tensor<8x128xf32>)
// CHECK-NEXT: %[[R:.*]] = stablehlo.custom_call @tpu_custom_call(%[[X]], %[[Y]])
// CHECK-SAME: {backend_config = "{\22custom_call_config\22: {\22body\22: \22TUzvUgFNTElSMjIuMS44
// CHECK-SAME: \22serialization_format\22: 1, \22needs_layout_passes\22: true, \22debug_locations\22:
// CHECK-SAME: kernel_name = "add", mhlo.frontend_attributes = {kernel_metadata = "{}"},
// CHECK-SAME: operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>],
// CHECK-SAME: result_layouts = [dense<[1, 0]> : tensor<2xindex>]}
// CHECK-SAME: : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
// CHECK-NEXT: return %[[R]] : tensor<8x128xf32>
// CHECK-NOT: tpu_custom_call.call

// DECODED: tpu_custom_call #0
// DECODED-NEXT: kernel_name: add
// DECODED-NEXT: signature: (tensor<8x128xf32>, tensor<8x128xf32>) -> (tensor<8x128xf32>)
// DECODED-NEXT: device_type: tensorcore
// DECODED-NEXT: ir_version: {{[0-9]+}}
// DECODED-NOT: tpu_custom_call #1

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
