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
#include "mlir/IR/TypeUtilities.h"
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

bool isF32(Type t) {
  return getElementTypeOrSelf(t).isF32();
}

/// Guards each f32 `math.erf` for the inputs MLIR's approximation gets wrong
/// (measured: `erf(-0)` is `+0`; it is only accurate to a few ulp where
/// f32's erf is exactly +-1): `x` where `x == 0`, `copysign(1, x)` where
/// `|x| >= 4` (erfc(4) < 2^-25, so f32's erf is exactly 1 there), the
/// approximation elsewhere (NaN included).
void guardErf(ModuleOp module) {
  SmallVector<math::ErfOp> erfs;
  module.walk([&](math::ErfOp op) {
    if (isF32(op.getType()))
      erfs.push_back(op);
  });
  for (math::ErfOp op : erfs) {
    OpBuilder b(op);
    b.setInsertionPointAfter(op);
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type t = x.getType();
    auto splat = [&](double v) -> Value {
      TypedAttr a = b.getF32FloatAttr(static_cast<float>(v));
      if (auto vt = dyn_cast<VectorType>(t))
        a = DenseElementsAttr::get(vt, a);
      return arith::ConstantOp::create(b, loc, t, a);
    };
    Value mag = math::AbsFOp::create(b, loc, x);
    Value inRange = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ULT,
                                          mag, splat(4.0));
    Value one = math::CopySignOp::create(b, loc, splat(1.0), x);
    Value r = arith::SelectOp::create(b, loc, inRange, op.getResult(), one);
    Value zero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                       splat(0.0));
    Value out = arith::SelectOp::create(b, loc, zero, x, r);
    op.getResult().replaceAllUsesExcept(out, r.getDefiningOp());
  }
}

LogicalResult approximate(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  ctx->loadDialect<arith::ArithDialect, math::MathDialect,
                   vector::VectorDialect>();
  guardErf(module);
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
