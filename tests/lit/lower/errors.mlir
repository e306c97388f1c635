// Every error the lower pass reports, at the placeholder it is about, in MLIR's
// --verify-diagnostics form; the module is left unchanged on error (the pipeline fails).
// RUN: mlir-opt-22 --load-dialect-plugin=%plugin --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline="builtin.module(tpu-custom-call-lower)" \
// RUN:   --split-input-file --verify-diagnostics %s
// no kernel attribute
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
    // expected-error @below {{tpu_custom_call.call: has no `kernel = @name` attribute}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// a kernel that is not nested
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
    // expected-error @below {{tpu_custom_call.call: kernel `@nope` is not a module nested in this module}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @nope, kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// a kernel that is not a symbol
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
    // expected-error @below {{tpu_custom_call.call: `kernel = "add"` must be a symbol reference (`kernel = @name`)}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = "add", kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// an attribute of the wrong kind
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
    // expected-error @below {{tpu_custom_call.call: `vmem_limit_bytes` must be an integer attribute (e.g. `vmem_limit_bytes = 1024 : i64`), not a string (`"64"`)}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}, vmem_limit_bytes = "64"} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// an unknown parameter
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
    // expected-error @below {{unknown parameter "foo" in PARAMS.json (did you mean "flags"?)}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}, foo = 1} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// a parameter combination JAX refuses (its own message)
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
    // expected-error @below {{explicit tiling is only supported for SparseCore kernels.}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}, tiling = "compact"} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// a flag libtpu refuses
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
    // expected-error @below {{flags: libtpu does not know `xla_tpu_force_lp_llo_schedular`}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}, flags = {xla_tpu_force_lp_llo_schedular = true}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// a kernel jaxlib's Mosaic verifier refuses
module {
  module @add {
    func.func @add(%a: memref<8x128xf32, #tpu.memory_space<vmem>>, %b: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
      %c0 = arith.constant 0 : index
      %x = vector.load %a[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %y = vector.load %b[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %s = arith.addf %x, %y : vector<8x128xf32>
      "tpu.vector_store"(%s, %o, %c0, %c0) <{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32: 1>}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()
      return
    }
  }
  func.func @main(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>) -> tensor<8x128xf32> {
    // expected-error @below {{kernel `@add`: kernel is not valid Mosaic (jaxlib 0.12 refuses it)}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add, kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %0 : tensor<8x128xf32>
  }
}

// -----

// every failing placeholder is reported, not only the first
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
    // expected-error @below {{kernel `@nope` is not a module nested in this module}}
    %0 = "tpu_custom_call.call"(%x, %y) {kernel = @nope, kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    // expected-error @below {{has no `kernel = @name` attribute}}
    %1 = "tpu_custom_call.call"(%0, %y) {kernel_name = "add", metadata = {}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    return %1 : tensor<8x128xf32>
  }
}
