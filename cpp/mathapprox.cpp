// `tcc-approximate-math`: f32 transcendentals of the compiled engine as MLIR's
// own polynomial approximations (docs/jit.md, "Math").
//
// After `tcc-bufferize-vectors`, a kernel's `math.exp` / `log` / `tanh` / `erf`
// work on native-width vectors (`vector<16xf32>`). Lowered as they are, LLVM
// scalarises each into 16 calls of libm (and `erf` has no libm f32 function
// the interpreter's f64 series matches anyway). MLIR's polynomial
// approximations (mlir/Dialect/Math/Transforms) rewrite them into vector
// arithmetic instead; their error against the interpreter's results is
// measured and documented (the ulp bounds of docs/jit.md). Only f32 ops (and
// vectors of f32) are rewritten: other element types keep their libm calls.

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tcc.h"

using namespace mlir;

namespace tcc {
namespace mathapprox {
namespace {

/// The `math` ops rewritten (by operation name): the ones whose
/// approximations were measured against the interpreter (docs/jit.md).
bool approximated(StringRef name) {
  return name == "math.exp" || name == "math.log" || name == "math.tanh" ||
         name == "math.erf";
}

LogicalResult approximate(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<arith::ArithDialect, math::MathDialect,
                   vector::VectorDialect>();
  RewritePatternSet patterns(ctx);
  populateMathPolynomialApproximationPatterns(patterns, approximated);
  GreedyRewriteConfig config;
  config.enableFolding(false);
  return applyPatternsGreedily(module, std::move(patterns), config);
}

struct ApproximateMathPass
    : public PassWrapper<ApproximateMathPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMathPass)

  StringRef getArgument() const final { return "tcc-approximate-math"; }
  StringRef getName() const final { return "TccApproximateMath"; }
  StringRef getDescription() const final {
    return "Rewrite f32 math.exp/log/tanh/erf into MLIR's polynomial "
           "approximations (the compiled engine's math)";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }
  void runOnOperation() final {
    if (failed(approximate(getOperation())))
      signalPassFailure();
  }
};

} // namespace
} // namespace mathapprox
} // namespace tcc

extern "C" {

void tcc_register_approximate_math_pass(void) {
  PassRegistration<tcc::mathapprox::ApproximateMathPass>();
}

bool tcc_jit_approximate_math(MlirOperation module) {
  auto mod = dyn_cast<ModuleOp>(unwrap(module));
  if (!mod) {
    unwrap(module)->emitOpError(
        "tcc-approximate-math: expects a builtin.module");
    return false;
  }
  return succeeded(tcc::mathapprox::approximate(mod));
}
}
