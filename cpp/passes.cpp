// Registration of tpu-custom-call's passes with MLIR's pass registry, so that
// pipeline strings (`builtin.module(tpu-custom-call-lower{ir-version=15})`)
// find them, with their options.
//
// The C API can create external passes but cannot register them by name or
// give them options; this file fills that gap and nothing more: each pass's
// runOnOperation hands the module and its option values to a Rust function
// (`tcc_rust_run_pass`, in src/pass.rs), where the work happens.

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir-c/IR.h"

#include <string>

extern "C" {
/// Implemented in Rust: runs pass `kind` (0 = lower, 1 = verify) on `op` with
/// options as `key=value` lines. Returns false when the pass fails (it has
/// emitted its diagnostics on the op).
bool tcc_rust_run_pass(int kind, MlirOperation op, MlirStringRef options);
}

namespace tcc {
namespace {

template <typename Derived>
struct RustPass
    : public mlir::PassWrapper<Derived, mlir::OperationPass<mlir::ModuleOp>> {
  void runWithOptions(int kind, const std::string &options) {
    mlir::Operation *op = this->getOperation();
    if (!tcc_rust_run_pass(kind, wrap(op),
                           mlirStringRefCreate(options.data(), options.size())))
      this->signalPassFailure();
  }
};

struct LowerPass : public RustPass<LowerPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerPass)

  LowerPass() = default;
  LowerPass(const LowerPass &other) : RustPass<LowerPass>(other) {}

  llvm::StringRef getArgument() const final { return "tpu-custom-call-lower"; }
  llvm::StringRef getDescription() const final {
    return "Serialize nested Mosaic kernels and replace tpu_custom_call.call "
           "placeholders with stablehlo.custom_call @tpu_custom_call";
  }

  Option<int> irVersion{*this, "ir-version",
                        llvm::cl::desc("Mosaic IR version of the bodies (11-18; "
                                       "default: the placeholder's, else 15)"),
                        llvm::cl::init(-1)};
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

  void runOnOperation() final {
    std::string options;
    if (irVersion >= 0)
      options += "ir-version=" + std::to_string(irVersion) + "\n";
    if (!debugLocations.empty())
      options += "debug-locations=" + debugLocations + "\n";
    if (!target.empty())
      options += "target=" + target + "\n";
    if (!producer.empty())
      options += "producer=" + producer + "\n";
    runWithOptions(0, options);
  }
};

struct VerifyPass : public RustPass<VerifyPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyPass)

  VerifyPass() = default;
  VerifyPass(const VerifyPass &other) : RustPass<VerifyPass>(other) {}

  llvm::StringRef getArgument() const final { return "tpu-custom-call-verify"; }
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

  void runOnOperation() final {
    std::string options;
    if (!target.empty())
      options += "target=" + target + "\n";
    if (compile)
      options += "compile=1\n";
    runWithOptions(1, options);
  }
};

} // namespace
} // namespace tcc

extern "C" {
/// Registers both passes with MLIR's global pass registry. Call once.
void tcc_register_passes(void) {
  mlir::PassRegistration<tcc::LowerPass>();
  mlir::PassRegistration<tcc::VerifyPass>();
}

/// Creates the lower pass with default options (for melior pass managers).
MlirPass tcc_create_lower_pass(void) {
  return wrap(static_cast<mlir::Pass *>(new tcc::LowerPass()));
}

/// Creates the verify pass with default options.
MlirPass tcc_create_verify_pass(void) {
  return wrap(static_cast<mlir::Pass *>(new tcc::VerifyPass()));
}
}
