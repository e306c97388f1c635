// Registration of tpu-custom-call's passes with MLIR's pass registry, so that
// pipeline strings (`builtin.module(tpu-custom-call-lower{ir-version=15})`)
// find them, with their options.
//
// The C API can create external passes but cannot register them by name or
// give them options; this file fills that gap and nothing more: each pass's
// runOnOperation hands the module and its option values, as data, to its Rust
// function (`tcc_rust_run_lower_pass` / `tcc_rust_run_verify_pass`, in
// src/pass.rs), where the work happens.

#include <limits>
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir-c/IR.h"
#include "tcc.h"

#include <string>

extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccStablehlo, tcc_stablehlo);
}

namespace tcc {
namespace {

template <typename Derived>
struct RustPass
    : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
  MlirOperation module() {
    mlir::Operation *op = this->getOperation();
    return wrap(op);
  }
};

/// A string option as data (no copy: the option outlives the call).
MlirStringRef toRef(const std::string &text) {
  return mlirStringRefCreate(text.data(), text.size());
}

struct LowerPass : public RustPass<LowerPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerPass)

  LowerPass() = default;
  LowerPass(const LowerPass &other) : RustPass<LowerPass>(other) {}

  llvm::StringRef getArgument() const final { return "tpu-custom-call-lower"; }
  // The name in pipeline instruments' output (--mlir-timing,
  // --mlir-print-ir-after-all), instead of the C++ type's.
  llvm::StringRef getName() const final { return "TpuCustomCallLower"; }
  llvm::StringRef getDescription() const final {
    return "Serialize nested Mosaic kernels and replace tpu_custom_call.call "
           "placeholders with stablehlo.custom_call @tpu_custom_call";
  }

  Option<int> irVersion{*this, "ir-version",
                        llvm::cl::desc("Mosaic IR version of the bodies (11-18; "
                                       "default: the placeholder's, else 15)"),
                        // Not given (any other value, negative ones
                        // included, is checked by the Rust side).
                        llvm::cl::init(std::numeric_limits<int>::min())};
  Option<std::string> debugLocations{
      *this, "debug-locations",
      llvm::cl::desc("unzip | inline | strip (default: the placeholder's, "
                     "else unzip)"),
      llvm::cl::init("")};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("TPU chip to check against (e.g. v5p); default none"),
      llvm::cl::init("")};
  Option<std::string> producer{
      *this, "producer",
      llvm::cl::desc("Producer string of the body bytecode"),
      llvm::cl::init("")};
  Option<bool> jaxRulesOnly{
      *this, "jax-rules-only",
      llvm::cl::desc("Check only JAX's rules, not libtpu's (as `emit "
                     "--jax-rules-only`); libtpu's warnings are still given"),
      llvm::cl::init(false)};
  Option<std::string> libtpuVersion{
      *this, "libtpu-version",
      llvm::cl::desc("The libtpu release that will compile the calls (as "
                     "`emit --libtpu-version`; default 0.0.50.1)"),
      llvm::cl::init("")};

  // The ops the pass creates (`stablehlo.custom_call`) must have their
  // dialect loaded before the pass runs (mlir-opt loads only the dialects
  // its input uses).
  void getDependentDialects(mlir::DialectRegistry &registry) const final {
    mlirDialectHandleInsertDialect(mlirGetDialectHandle__tcc_stablehlo__(),
                                   wrap(&registry));
  }

  void runOnOperation() final {
    TccLowerPassOptions options{static_cast<int64_t>(irVersion),
                                toRef(debugLocations), toRef(target),
                                toRef(producer),
                                static_cast<bool>(jaxRulesOnly),
                                toRef(libtpuVersion)};
    if (!tcc_rust_run_lower_pass(module(), &options))
      this->signalPassFailure();
  }
};

struct VerifyPass : public RustPass<VerifyPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyPass)

  VerifyPass() = default;
  VerifyPass(const VerifyPass &other) : RustPass<VerifyPass>(other) {}

  llvm::StringRef getArgument() const final { return "tpu-custom-call-verify"; }
  llvm::StringRef getName() const final { return "TpuCustomCallVerify"; }
  llvm::StringRef getDescription() const final {
    return "Decode and validate every stablehlo.custom_call @tpu_custom_call";
  }

  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("TPU chip to check against (e.g. v5p); default none"),
      llvm::cl::init("")};

  Option<bool> compile{
      *this, "compile",
      llvm::cl::desc("Also compile the module with libtpu for `target` "
                     "(as `tpu-custom-call compile`)"),
      llvm::cl::init(false)};

  Option<bool> jaxRulesOnly{
      *this, "jax-rules-only",
      llvm::cl::desc("Check only JAX's rules, not libtpu's (as the lower "
                     "pass's option); libtpu's warnings are still given"),
      llvm::cl::init(false)};

  void runOnOperation() final {
    TccVerifyPassOptions options{toRef(target), static_cast<bool>(compile),
                                 static_cast<bool>(jaxRulesOnly)};
    if (!tcc_rust_run_verify_pass(module(), &options))
      this->signalPassFailure();
  }
};

} // namespace
} // namespace tcc

extern "C" {
/// Registers the passes (both Rust-backed ones and `tcc-bufferize-vectors`)
/// with MLIR's global pass registry. Call once.
void tcc_register_passes(void) {
  mlir::PassRegistration<tcc::LowerPass>();
  mlir::PassRegistration<tcc::VerifyPass>();
  tcc_register_bufferize_vectors_pass();
  tcc_register_approximate_math_pass();
}

/// Creates the lower pass with default options (for melior pass managers).
MlirPass tcc_create_lower_pass(void) {
  return wrap(static_cast<mlir::Pass *>(new tcc::LowerPass()));
}

/// Creates the verify pass with default options.
MlirPass tcc_create_verify_pass(void) {
  return wrap(static_cast<mlir::Pass *>(new tcc::VerifyPass()));
}

/// Emits a warning diagnostic (the C API only has mlirEmitError).
void tcc_emit_warning(MlirLocation location, MlirStringRef message) {
  mlir::emitWarning(unwrap(location)) << unwrap(message);
}
}
