// MLIR's verifier with the ODS checks of repeated ops done once.
//
// A kernel repeats the same op many times: the same `vector.load` of the same
// memref type, the same `arith.addf` on the same vector type. MLIR's verifier
// (`mlir::verify`, which the parser runs after parsing) checks every one of
// them from scratch, and those checks are most of its cost (a `vector.load`
// computes its memref's strides: about 10k instructions). The invariants of
// an `arith`, `math` or `vector` op without regions or successors depend on
// nothing but the op itself: its name, attributes, properties and operand and
// result types (none of those ops looks at its operands' defining ops or a
// symbol table; the parent op, which a few traits look at, is compared too).
// So an op equal in all of these to one verified before, in the same block
// or region, is valid for the same reasons, and its checks are skipped.
//
// Everything else is MLIR 22's `OperationVerifier` (lib/IR/Verifier.cpp)
// step for step: block and region structure, terminators, unregistered ops,
// dialect attribute hooks, dominance. The answer is only ever used when it is
// "valid" and no diagnostic was emitted on the way; otherwise the caller runs
// `mlir::verify` itself, so every diagnostic a user sees is MLIR's own.

#include "tcc.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

/// A hash of what `sameSignature` compares.
static unsigned signatureHash(mlir::Operation &op) {
  llvm::hash_code h = llvm::hash_combine(
      op.getName().getAsOpaquePointer(), op.getParentOp(),
      op.getRawDictionaryAttrs().getAsOpaquePointer(),
      op.getName().hashOpProperties(op.getPropertiesStorage()),
      op.getNumOperands(), op.getNumResults());
  for (mlir::Value v : op.getOperands())
    h = llvm::hash_combine(h, v.getType().getAsOpaquePointer());
  for (mlir::Value v : op.getResults())
    h = llvm::hash_combine(h, v.getType().getAsOpaquePointer());
  return static_cast<unsigned>(static_cast<size_t>(h));
}

/// Same name, parent op, attribute dictionary, properties, operand and
/// result types.
static bool sameSignature(mlir::Operation &a, mlir::Operation &b) {
  if (a.getName() != b.getName() || a.getParentOp() != b.getParentOp() ||
      a.getRawDictionaryAttrs() != b.getRawDictionaryAttrs() ||
      a.getNumOperands() != b.getNumOperands() ||
      a.getNumResults() != b.getNumResults())
    return false;
  for (unsigned i = 0, e = a.getNumOperands(); i < e; ++i)
    if (a.getOperand(i).getType() != b.getOperand(i).getType())
      return false;
  for (unsigned i = 0, e = a.getNumResults(); i < e; ++i)
    if (a.getResult(i).getType() != b.getResult(i).getType())
      return false;
  return a.getName().compareOpProperties(a.getPropertiesStorage(),
                                         b.getPropertiesStorage());
}

namespace {

/// `OperationVerifier` of MLIR 22 with a memo of verified op signatures.
/// Returns failure on anything MLIR's verifier would report (and possibly on
/// more: the caller then asks MLIR).
class MemoVerifier {
public:
  mlir::LogicalResult verifyOpAndDominance(mlir::Operation &op) {
    if (mlir::failed(verifyOperation(op)))
      return mlir::failure();
    if (op.getNumRegions() != 0) {
      mlir::DominanceInfo domInfo;
      if (mlir::failed(verifyDominanceOfContainedRegions(op, domInfo)))
        return mlir::failure();
    }
    return mlir::success();
  }

private:
  /// Whether the invariants of `op` depend on nothing but the op itself.
  bool memoizable(mlir::Operation &op) {
    if (op.getNumRegions() != 0 || op.getNumSuccessors() != 0)
      return false;
    mlir::OperationName name = op.getName();
    auto [it, inserted] = localOps.try_emplace(name.getAsOpaquePointer());
    if (inserted) {
      llvm::StringRef ns = name.getDialectNamespace();
      it->second = (ns == "arith" || ns == "vector" || ns == "math") &&
                   !name.hasTrait<mlir::OpTrait::IsTerminator>();
    }
    return it->second;
  }

  /// An op of the same signature passed both invariant checks before.
  bool seen(mlir::Operation &op, unsigned hash) {
    auto it = verified.find(hash);
    if (it == verified.end())
      return false;
    for (mlir::Operation *other : it->second)
      if (sameSignature(*other, op))
        return true;
    return false;
  }

  static bool mayBeValidWithoutTerminator(mlir::Block *block) {
    if (!block->getParent())
      return true;
    if (!llvm::hasSingleElement(*block->getParent()))
      return false;
    mlir::Operation *op = block->getParentOp();
    return !op || op->mightHaveTrait<mlir::OpTrait::NoTerminator>();
  }

  mlir::LogicalResult verifyOnEntrance(mlir::Block &block) {
    for (mlir::BlockArgument arg : block.getArguments())
      if (arg.getOwner() != &block)
        return mlir::failure();
    if (block.empty())
      return mlir::success(mayBeValidWithoutTerminator(&block));
    for (mlir::Operation &op : block)
      if (op.getNumSuccessors() != 0 && &op != &block.back())
        return mlir::failure();
    return mlir::success();
  }

  mlir::LogicalResult verifyOnExit(mlir::Block &block) {
    for (mlir::Block *successor : block.getSuccessors())
      if (successor->getParent() != block.getParent())
        return mlir::failure();
    if (mayBeValidWithoutTerminator(&block))
      return mlir::success();
    return mlir::success(
        block.back().mightHaveTrait<mlir::OpTrait::IsTerminator>());
  }

  mlir::LogicalResult verifyOnEntrance(mlir::Operation &op) {
    for (mlir::Value operand : op.getOperands())
      if (!operand)
        return mlir::failure();
    for (mlir::NamedAttribute attr : op.getDiscardableAttrDictionary())
      if (mlir::Dialect *dialect = attr.getNameDialect())
        if (mlir::failed(dialect->verifyOperationAttribute(&op, attr)))
          return mlir::failure();

    std::optional<mlir::RegisteredOperationName> info =
        op.getName().getRegisteredInfo();
    if (info) {
      if (memoizable(op)) {
        // Both invariant checks here: the op has no regions, so nothing runs
        // between MLIR's entrance and exit checks of it.
        unsigned hash = signatureHash(op);
        if (!seen(op, hash)) {
          if (mlir::failed(info->verifyInvariants(&op)) ||
              mlir::failed(info->verifyRegionInvariants(&op)))
            return mlir::failure();
          verified[hash].push_back(&op);
        }
        return mlir::success();
      }
      if (mlir::failed(info->verifyInvariants(&op)))
        return mlir::failure();
    }

    unsigned numRegions = op.getNumRegions();
    if (!numRegions)
      return mlir::success();
    auto kindInterface = llvm::dyn_cast<mlir::RegionKindInterface>(&op);
    llvm::MutableArrayRef<mlir::Region> regions = op.getRegions();
    for (unsigned i = 0; i < numRegions; ++i) {
      mlir::Region &region = regions[i];
      mlir::RegionKind kind = kindInterface ? kindInterface.getRegionKind(i)
                                            : mlir::RegionKind::SSACFG;
      if (op.isRegistered() && kind == mlir::RegionKind::Graph &&
          !region.empty() && !region.hasOneBlock())
        return mlir::failure();
      if (region.empty())
        continue;
      if (!region.front().hasNoPredecessors())
        return mlir::failure();
    }
    return mlir::success();
  }

  mlir::LogicalResult verifyOnExit(mlir::Operation &op,
                                   llvm::ArrayRef<mlir::Operation *> isolated) {
    for (mlir::Operation *o : isolated)
      if (mlir::failed(verifyOpAndDominance(*o)))
        return mlir::failure();
    mlir::OperationName name = op.getName();
    std::optional<mlir::RegisteredOperationName> info =
        name.getRegisteredInfo();
    if (info) {
      if (memoizable(op))
        return mlir::success(); // checked on entrance
      return info->verifyRegionInvariants(&op);
    }
    mlir::Dialect *dialect = name.getDialect();
    if (!dialect)
      return mlir::success(op.getContext()->allowsUnregisteredDialects());
    return mlir::success(dialect->allowsUnknownOperations());
  }

  /// The checks of `op` and everything nested in it but the ops isolated
  /// from above, which are verified (with their dominance) when `op` is left,
  /// as MLIR does. Only the verdict matters here, so the checks run depth
  /// first, each op's entrance and exit around its regions.
  mlir::LogicalResult verifyOperation(mlir::Operation &op) {
    if (mlir::failed(verifyOnEntrance(op)))
      return mlir::failure();
    llvm::SmallVector<mlir::Operation *> isolated;
    for (mlir::Region &region : op.getRegions())
      for (mlir::Block &block : region) {
        if (mlir::failed(verifyOnEntrance(block)))
          return mlir::failure();
        for (mlir::Operation &inner : block) {
          if (inner.getNumRegions() != 0 &&
              inner.hasTrait<mlir::OpTrait::IsIsolatedFromAbove>()) {
            isolated.push_back(&inner);
            continue;
          }
          if (mlir::failed(verifyOperation(inner)))
            return mlir::failure();
        }
        if (mlir::failed(verifyOnExit(block)))
          return mlir::failure();
      }
    return verifyOnExit(op, isolated);
  }

  mlir::LogicalResult
  verifyDominanceOfContainedRegions(mlir::Operation &root,
                                    mlir::DominanceInfo &domInfo) {
    llvm::SmallVector<mlir::Operation *, 8> worklist{&root};
    while (!worklist.empty()) {
      mlir::Operation *op = worklist.pop_back_val();
      for (mlir::Region &region : op->getRegions())
        for (mlir::Block &block : region.getBlocks()) {
          bool reachable = domInfo.isReachableFromEntry(&block);
          for (mlir::Operation &inner : block) {
            if (reachable)
              for (mlir::Value operand : inner.getOperands())
                if (!domInfo.properlyDominates(operand, &inner))
                  return mlir::failure();
            if (inner.getNumRegions() != 0 &&
                !inner.hasTrait<mlir::OpTrait::IsIsolatedFromAbove>())
              worklist.push_back(&inner);
          }
        }
    }
    return mlir::success();
  }

  /// Op name -> whether its ops' invariants are local (`memoizable`).
  llvm::DenseMap<const void *, bool> localOps;
  /// Signature hash -> ops of that hash whose invariants held.
  llvm::DenseMap<unsigned, llvm::SmallVector<mlir::Operation *, 1>> verified;
};

} // namespace

/// `mlir::verify(op)`: the memoizing verifier first, and MLIR's own when it
/// finds anything (or anything emitted a diagnostic), so the diagnostics and
/// the verdict are always MLIR's.
mlir::LogicalResult tccVerify(mlir::Operation *op) {
  bool diagnosed = false;
  mlir::LogicalResult fast = mlir::failure();
  {
    mlir::ScopedDiagnosticHandler quiet(
        op->getContext(), [&](mlir::Diagnostic &) {
          diagnosed = true;
          return mlir::success();
        });
    fast = MemoVerifier().verifyOpAndDominance(*op);
  }
  if (mlir::succeeded(fast) && !diagnosed)
    return mlir::success();
  return mlir::verify(op);
}

extern "C" {

/// `mlirModuleCreateParse` (text or bytecode, wrapped in a module as it
/// does), verified by `tccVerify` instead of the parser's `mlir::verify`:
/// the same verdict and diagnostics, the repeated ops' checks done once.
MlirModule tcc_parse_module(MlirContext ctx, MlirStringRef source) {
  mlir::ParserConfig config(unwrap(ctx), /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config);
  if (!module || mlir::failed(tccVerify(module->getOperation())))
    return MlirModule{nullptr};
  return MlirModule{module.release().getOperation()};
}

/// A hash of `op`'s signature: name, attribute dictionary, properties,
/// operand and result types, and its parent op.
uint64_t tcc_op_signature_hash(MlirOperation op) {
  return signatureHash(*unwrap(op));
}

/// Whether `a` and `b` have the same signature and the same parent op.
bool tcc_op_same_signature(MlirOperation a, MlirOperation b) {
  return sameSignature(*unwrap(a), *unwrap(b));
}

/// Whether `value` is the result of an `arith.constant` whose `value` is an
/// integer or index attribute of at most 64 bits; then `*out` is its value
/// (sign-extended).
bool tcc_value_int_constant(MlirValue value, int64_t *out) {
  auto result = llvm::dyn_cast<mlir::OpResult>(unwrap(value));
  if (!result)
    return false;
  mlir::Operation *op = result.getOwner();
  if (op->getName().getStringRef() != "arith.constant")
    return false;
  std::optional<mlir::Attribute> inherent = op->getInherentAttr("value");
  mlir::Attribute attr = inherent && *inherent ? *inherent : op->getAttr("value");
  auto integer = llvm::dyn_cast_or_null<mlir::IntegerAttr>(attr);
  if (!integer || integer.getValue().getBitWidth() > 64)
    return false;
  *out = integer.getValue().getSExtValue();
  return true;
}

/// One entry of `tcc_op_index` (mirrored by `RawEntry` in src/serde/ir.rs).
struct TccOpIndexEntry {
  void *op;
  const void *name;
  uint32_t end;
  uint32_t post;
};

static void indexOps(mlir::Operation *op, std::vector<TccOpIndexEntry> &entries,
                     uint32_t &post) {
  size_t self = entries.size();
  entries.push_back(
      {op, op->getName().getIdentifier().getAsOpaquePointer(), 0, 0});
  for (mlir::Region &region : op->getRegions())
    for (mlir::Block &block : region)
      for (mlir::Operation &child : block)
        indexOps(&child, entries, post);
  entries[self].end = static_cast<uint32_t>(entries.size());
  entries[self].post = post++;
}

/// Every op of `root` (itself first) in pre-order, with its name (the
/// uniqued identifier, what `mlirOperationGetName` returns), the pre-order
/// index just past its last descendant and its rank in post-order (children
/// before their op, ops of a block in order), handed to `done` in one array.
void tcc_op_index(MlirOperation root,
                  void (*done)(const void *entries, size_t count, void *user),
                  void *user) {
  std::vector<TccOpIndexEntry> entries;
  uint32_t post = 0;
  indexOps(unwrap(root), entries, post);
  done(entries.data(), entries.size(), user);
}

/// `tccVerify` of `op` (`mlirOperationVerify` with the memo).
bool tcc_operation_verify(MlirOperation op) {
  return mlir::succeeded(tccVerify(unwrap(op)));
}
}
