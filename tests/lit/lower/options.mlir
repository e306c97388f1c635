// The lower pass's options, each seen in what it produces (decoded by `tpu-custom-call inspect`).
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{ir-version=11})" %s \
// RUN:   | %tcc inspect - | FileCheck %s --check-prefix=V11
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{ir-version=18})" %s \
// RUN:   | %tcc inspect - | FileCheck %s --check-prefix=V18
// V11: ir_version: 11
// V18: ir_version: 18

// Debug locations: unzipped into their own bytecode (the default), inlined, or stripped.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{debug-locations=unzip})" %s \
// RUN:   | FileCheck %s --check-prefix=UNZIP
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{debug-locations=inline})" %s \
// RUN:   | FileCheck %s --check-prefix=NOZIP
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{debug-locations=strip})" %s \
// RUN:   | FileCheck %s --check-prefix=NOZIP
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{debug-locations=inline})" %s \
// RUN:   | %tcc inspect - | FileCheck %s --check-prefix=INLINE
// UNZIP: \22needs_layout_passes\22: true, \22debug_locations\22: \22TUzv
// NOZIP: \22needs_layout_passes\22: true}}"
// INLINE: "debug_locations": "inline"

// The producer string of the body's bytecode ("ML\xefR\x01xyz\x00" in base64: TUzvUgF4eXoA).
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{producer=xyz})" %s \
// RUN:   | FileCheck %s --check-prefix=PRODUCER
// PRODUCER: \22body\22: \22TUzvUgF4eXoA

// A target: the call is checked against the chip (see warnings.mlir for what v5e says of a 300 MB
// VMEM limit); here v5p accepts the call and the output is the same as without a target.
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{target=v5p})" %s > %t.v5p
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" %s > %t.none
// RUN: diff %t.v5p %t.none

// Options mlir-opt's pass-pipeline parser accepts but the pass refuses: an error at the module.
// RUN: not mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{ir-version=99})" %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADVERSION
// BADVERSION: error: The highest supported version is 18 but requested serialization at version 99
// RUN: not mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower{debug-locations=zip})" %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADLOCS
// BADLOCS: :[[@LINE+3]]:1: error: tpu-custom-call pass options: debug-locations=zip: expected unzip, inline or strip
// RUN: not mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin --pass-pipeline="builtin.module(tpu-custom-call-verify{target=v99})" %s 2>&1 | FileCheck %s --check-prefix=BADTARGET
// BADTARGET: error: tpu-custom-call pass options: unknown TPU target `v99`: known chips are v2, v3, v4i, v4, v5e, v5p, v6e, v7, v7x, v8i, v8t
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
