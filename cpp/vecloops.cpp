// `tcc-bufferize-vectors`: whole-block vector values -> loops over native
// vectors (docs/jit.md).
//
// Mosaic's vectors are whole blocks (`vector<256x1024xf32>`); MLIR's upstream
// conversions to LLVM unroll n-D vectors fully (a softmax body becomes a
// million `llvm.extractvalue`). This pass rewrites a `func.func` of upstream
// ops so that no vector value is wider than a native vector (64 bytes):
//
// * every "big" vector value (more than 64 bytes) is either a memref buffer
//   (`memref.alloc`/`dealloc` on the heap, a `memref.subview` of a ref for a
//   load that may be a view, a `memref.global` for a dense constant) or *lazy*:
//   an elementwise op, broadcast, splat constant, `vector.step` or mask whose
//   native-width chunks are recomputed inside the loop nest of its consumer
//   (that is the fusion of elementwise chains);
// * each consumer (a store, a materialisation, a reduction, ...) is one
//   `scf.for` nest over the value's shape, the last dimension stepped by the
//   chunk width `c` (the largest divisor of the last dimension with `c` times
//   the widest element of the fused expression <= 64 bytes), its body working
//   on `vector<c x T>`;
// * values crossing `scf.for` (iter_args) and `scf.if` (results) live in
//   buffers allocated before the op.
//
// An op it does not know on a big vector fails the pass with an error naming
// the op: never a silent change.

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "tcc.h"

#include <string>

using namespace mlir;

namespace tcc {
namespace vecloops {
namespace {

/// The widest native vector, in bytes (AVX-512's zmm).
constexpr int64_t kNativeBytes = 64;

int64_t elemBytes(Type t) {
  if (t.isIndex())
    return 8;
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits <= 8 ? 1 : bits / 8;
}

/// Whether `t` is a vector wider than a native vector.
bool isBig(Type t) {
  auto v = dyn_cast<VectorType>(t);
  if (!v || v.isScalable() || v.getRank() == 0)
    return false;
  return v.getNumElements() * elemBytes(v.getElementType()) > kNativeBytes;
}

bool anyBig(TypeRange types) {
  for (Type t : types)
    if (isBig(t))
      return true;
  return false;
}

/// The element type of a buffer holding elements of `t` (i1 is kept as i8:
/// LLVM packs `<N x i1>` in memory, scalar i1 accesses use bytes).
Type storageType(Type t) {
  if (t.isInteger(1))
    return IntegerType::get(t.getContext(), 8);
  return t;
}

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

class Bufferizer {
public:
  Bufferizer(func::FuncOp func) : func(func), ctx(func.getContext()) {}

  LogicalResult run();

private:
  func::FuncOp func;
  MLIRContext *ctx;
  /// Big values that live in memory: buffer and whether it is contiguous
  /// (identity layout).
  llvm::DenseMap<Value, Value> bufOf;
  llvm::DenseSet<Value> contiguous;
  /// Big values recomputed chunk by chunk at each use.
  llvm::DenseSet<Operation *> lazy;
  /// Original ops to erase at the end (in reverse order).
  SmallVector<Operation *> toErase;
  /// Heap buffers to free before their block's terminator.
  SmallVector<std::pair<Value, Block *>> allocs;
  /// Loop buffers of big iter_args, per rewritten scf.yield operand.
  llvm::DenseMap<Operation *, SmallVector<std::pair<unsigned, Value>>>
      pendingYields;
  /// Stand-ins of loop and if buffers (not to process).
  llvm::DenseSet<Operation *> standIns;
  bool failed = false;

  InFlightDiagnostic fail(Operation *op, const Twine &why) {
    failed = true;
    return op->emitOpError() << "tcc-bufferize-vectors: " << why;
  }

  // ----- buffers ---------------------------------------------------------

  Value alloc(OpBuilder &b, Location loc, VectorType t) {
    auto mt = MemRefType::get(t.getShape(), storageType(t.getElementType()));
    Value buf = memref::AllocOp::create(b, loc, mt, b.getI64IntegerAttr(64));
    allocs.push_back({buf, b.getInsertionBlock()});
    return buf;
  }

  /// A buffer for a small vector: an alloca at the function's entry (never
  /// inside a loop: the stack does not grow per iteration).
  Value entryAlloca(VectorType t) {
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&func.getBody().front());
    auto mt = MemRefType::get(t.getShape(), storageType(t.getElementType()));
    return memref::AllocaOp::create(b, func.getLoc(), mt,
                                    b.getI64IntegerAttr(64));
  }

  Value index(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// `vector<c x T>` read from `buf` at `idx` (i1 from i8 storage).
  Value loadVec(OpBuilder &b, Location loc, Value buf, ValueRange idx,
                VectorType t) {
    Type st = storageType(t.getElementType());
    auto lt = VectorType::get(t.getShape(), st);
    Value v = vector::LoadOp::create(b, loc, lt, buf, idx);
    if (st != t.getElementType())
      v = arith::TruncIOp::create(b, loc, t, v);
    return v;
  }

  void storeVec(OpBuilder &b, Location loc, Value v, Value buf,
                ValueRange idx) {
    auto t = cast<VectorType>(v.getType());
    Type st = storageType(t.getElementType());
    if (st != t.getElementType())
      v = arith::ExtUIOp::create(b, loc, VectorType::get(t.getShape(), st), v);
    vector::StoreOp::create(b, loc, v, buf, idx);
  }

  Value loadScalar(OpBuilder &b, Location loc, Value buf, ValueRange idx,
                   Type t) {
    Value v = memref::LoadOp::create(b, loc, buf, idx);
    if (storageType(t) != t)
      v = arith::TruncIOp::create(b, loc, t, v);
    return v;
  }

  void storeScalar(OpBuilder &b, Location loc, Value v, Value buf,
                   ValueRange idx) {
    Type t = v.getType();
    if (storageType(t) != t)
      v = arith::ExtUIOp::create(b, loc, storageType(t), v);
    memref::StoreOp::create(b, loc, v, buf, idx);
  }

  /// A small n-D vector read row by row from `buf` (shape = `t`'s).
  Value loadSmall(OpBuilder &b, Location loc, Value buf, VectorType t) {
    int64_t rank = t.getRank();
    int64_t last = t.getShape().back();
    auto rowT = VectorType::get({last}, t.getElementType());
    Value zero = index(b, loc, 0);
    if (rank == 1)
      return loadVec(b, loc, buf, ValueRange{zero}, t);
    Value result = arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t));
    SmallVector<int64_t> lead(t.getShape().drop_back());
    int64_t rows = 1;
    for (int64_t d : lead)
      rows *= d;
    for (int64_t r = 0; r < rows; ++r) {
      SmallVector<int64_t> pos(lead.size());
      int64_t rem = r;
      for (int64_t d = lead.size() - 1; d >= 0; --d) {
        pos[d] = rem % lead[d];
        rem /= lead[d];
      }
      SmallVector<Value> idx;
      for (int64_t p : pos)
        idx.push_back(index(b, loc, p));
      idx.push_back(zero);
      Value row = loadVec(b, loc, buf, idx, rowT);
      result = vector::InsertOp::create(b, loc, row, result, pos);
    }
    return result;
  }

  void storeSmall(OpBuilder &b, Location loc, Value v, Value buf) {
    auto t = cast<VectorType>(v.getType());
    Value zero = index(b, loc, 0);
    if (t.getRank() == 1) {
      storeVec(b, loc, v, buf, ValueRange{zero});
      return;
    }
    SmallVector<int64_t> lead(t.getShape().drop_back());
    int64_t rows = 1;
    for (int64_t d : lead)
      rows *= d;
    for (int64_t r = 0; r < rows; ++r) {
      SmallVector<int64_t> pos(lead.size());
      int64_t rem = r;
      for (int64_t d = lead.size() - 1; d >= 0; --d) {
        pos[d] = rem % lead[d];
        rem /= lead[d];
      }
      SmallVector<Value> idx;
      for (int64_t p : pos)
        idx.push_back(index(b, loc, p));
      idx.push_back(zero);
      Value row = vector::ExtractOp::create(b, loc, v, pos);
      storeVec(b, loc, row, buf, idx);
    }
  }

  /// A loop nest over `shape`, the last dimension stepped by `c`.
  void nest(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, int64_t c,
            function_ref<void(OpBuilder &, Location, ValueRange)> body) {
    SmallVector<Value> lbs, ubs, steps;
    for (size_t d = 0; d < shape.size(); ++d) {
      lbs.push_back(index(b, loc, 0));
      ubs.push_back(index(b, loc, shape[d]));
      steps.push_back(index(b, loc, d + 1 == shape.size() ? c : 1));
    }
    scf::buildLoopNest(b, loc, lbs, ubs, steps, body);
  }

  // ----- chunk generation --------------------------------------------------

  /// The widest element (bytes) of the expression computing `v`'s chunks.
  int64_t widest(Value v) {
    int64_t w = 1;
    if (auto vt = dyn_cast<VectorType>(v.getType()))
      w = elemBytes(vt.getElementType());
    else if (v.getType().isIntOrIndexOrFloat())
      w = elemBytes(v.getType());
    Operation *op = v.getDefiningOp();
    if (op && lazy.contains(op) && !bufOf.count(v))
      for (Value o : op->getOperands())
        w = std::max(w, widest(o));
    return w;
  }

  /// The chunk width of a nest over a value of shape `shape` computed by an
  /// expression whose widest element is `bytes`.
  int64_t chunkWidth(ArrayRef<int64_t> shape, int64_t bytes) {
    int64_t last = shape.back();
    int64_t most = std::max<int64_t>(1, kNativeBytes / bytes);
    for (int64_t c = std::min(last, most); c > 1; --c)
      if (last % c == 0)
        return c;
    return 1;
  }

  /// A buffer holding the small vector `v` (written at the builder's point).
  Value spill(OpBuilder &b, Location loc, Value v) {
    auto t = cast<VectorType>(v.getType());
    Value buf = entryAlloca(t);
    storeSmall(b, loc, v, buf);
    return buf;
  }

  /// Chunk `vector<c x T>` of `v` at `idx` (full rank, the last one the
  /// chunk's start).
  Value gen(OpBuilder &b, Location loc, Value v, ValueRange idx, int64_t c) {
    auto vt = cast<VectorType>(v.getType());
    auto ct = VectorType::get({c}, vt.getElementType());
    if (Value buf = bufOf.lookup(v))
      return loadVec(b, loc, buf, idx, ct);
    Operation *op = v.getDefiningOp();
    if (!op || !lazy.contains(op)) {
      // A small vector: its row when the chunk is a whole row, else
      // through a spill.
      if (c == vt.getShape().back() && vt.getRank() == 1)
        return v;
      Value buf = spill(b, loc, v);
      return loadVec(b, loc, buf, idx, ct);
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = cast<SplatElementsAttr>(cst.getValue());
      return arith::ConstantOp::create(
          b, loc, ct,
          SplatElementsAttr::get(ct, dense.getSplatValue<Attribute>()));
    }
    if (auto bc = dyn_cast<vector::BroadcastOp>(op))
      return genBroadcast(b, loc, bc.getSource(), vt, idx, c);
    if (op->getName().getStringRef() == "vector.splat")
      return vector::BroadcastOp::create(b, loc, ct, op->getOperand(0));
    if (isa<vector::StepOp>(op)) {
      Value step = vector::StepOp::create(b, loc, ct);
      Value base = vector::BroadcastOp::create(b, loc, ct, idx.back());
      return arith::AddIOp::create(b, loc, step, base);
    }
    if (isa<vector::CreateMaskOp, vector::ConstantMaskOp>(op))
      return genMask(b, loc, op, vt, idx, c);
    // Elementwise.
    IRMapping map;
    for (Value o : op->getOperands())
      if (isa<VectorType>(o.getType()))
        map.map(o, gen(b, loc, o, idx, c));
    Operation *clone = b.clone(*op, map);
    for (OpResult r : clone->getResults())
      r.setType(VectorType::get(
          {c}, cast<VectorType>(r.getType()).getElementType()));
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  }

  /// Element of `v` at `idx` (a scalar).
  Value genScalar(OpBuilder &b, Location loc, Value v, ValueRange idx) {
    auto vt = cast<VectorType>(v.getType());
    if (Value buf = bufOf.lookup(v))
      return loadScalar(b, loc, buf, idx, vt.getElementType());
    Operation *op = v.getDefiningOp();
    if (!op || !lazy.contains(op)) {
      Value buf = spill(b, loc, v);
      return loadScalar(b, loc, buf, idx, vt.getElementType());
    }
    Value chunk = gen(b, loc, v, idx, 1);
    return vector::ExtractOp::create(b, loc, chunk, ArrayRef<int64_t>{0});
  }

  Value genBroadcast(OpBuilder &b, Location loc, Value src, VectorType vt,
                     ValueRange idx, int64_t c) {
    auto ct = VectorType::get({c}, vt.getElementType());
    auto st = dyn_cast<VectorType>(src.getType());
    if (!st || st.getRank() == 0) {
      Value s = src;
      if (st)
        s = vector::ExtractOp::create(b, loc, src, ArrayRef<int64_t>{});
      return vector::BroadcastOp::create(b, loc, ct, s);
    }
    int64_t lead = vt.getRank() - st.getRank();
    SmallVector<Value> sidx;
    Value zero;
    for (int64_t d = 0; d < st.getRank(); ++d) {
      if (st.getDimSize(d) == 1 && vt.getDimSize(lead + d) != 1) {
        if (!zero)
          zero = index(b, loc, 0);
        sidx.push_back(zero);
      } else {
        sidx.push_back(idx[lead + d]);
      }
    }
    if (st.getShape().back() == 1 && vt.getShape().back() != 1) {
      Value s = isBig(st) ? genScalar(b, loc, src, sidx)
                          : smallElement(b, loc, src, sidx);
      return vector::BroadcastOp::create(b, loc, ct, s);
    }
    return gen(b, loc, src, sidx, c);
  }

  /// An element of a small vector at dynamic `idx`.
  Value smallElement(OpBuilder &b, Location loc, Value v, ValueRange idx) {
    auto vt = cast<VectorType>(v.getType());
    if (vt.getRank() == 1)
      return vector::ExtractOp::create(b, loc, v, OpFoldResult(idx[0]));
    // n-D dynamic positions do not lower to LLVM: extract from the flat
    // vector at the linear index.
    Value flat = vector::ShapeCastOp::create(
        b, loc, VectorType::get({vt.getNumElements()}, vt.getElementType()),
        v);
    Value lin = idx[0];
    for (int64_t d = 1; d < vt.getRank(); ++d)
      lin = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, lin, index(b, loc, vt.getDimSize(d))),
          idx[d]);
    return vector::ExtractOp::create(b, loc, flat, OpFoldResult(lin));
  }

  Value genMask(OpBuilder &b, Location loc, Operation *op, VectorType vt,
                ValueRange idx, int64_t c) {
    int64_t rank = vt.getRank();
    SmallVector<Value> bounds;
    if (auto cm = dyn_cast<vector::CreateMaskOp>(op)) {
      bounds.assign(cm.getOperands().begin(), cm.getOperands().end());
    } else {
      for (int64_t s : cast<vector::ConstantMaskOp>(op).getMaskDimSizes())
        bounds.push_back(index(b, loc, s));
    }
    auto ct = VectorType::get({c}, b.getIndexType());
    Value lanes = arith::AddIOp::create(
        b, loc, vector::StepOp::create(b, loc, ct),
        vector::BroadcastOp::create(b, loc, ct, idx.back()));
    Value mask = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, lanes,
        vector::BroadcastOp::create(b, loc, ct, bounds.back()));
    Value all = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    for (int64_t d = 0; d + 1 < rank; ++d)
      all = arith::AndIOp::create(
          b, loc, all,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx[d],
                                bounds[d]));
    auto bt = VectorType::get({c}, b.getI1Type());
    Value none = arith::ConstantOp::create(
        b, loc, bt, DenseElementsAttr::get(bt, false));
    return arith::SelectOp::create(b, loc, all, mask, none);
  }

  /// `v` (big) in a buffer: its own, or a new one (contiguous if asked).
  Value buffer(OpBuilder &b, Location loc, Value v, bool needContiguous) {
    Value buf = bufOf.lookup(v);
    if (buf && (!needContiguous || contiguous.contains(v)))
      return buf;
    auto vt = cast<VectorType>(v.getType());
    Value fresh = alloc(b, loc, vt);
    writeInto(b, loc, v, fresh);
    bufOf[v] = fresh;
    contiguous.insert(v);
    return fresh;
  }

  /// Writes every element of `v` into `dest` (a memref of `v`'s shape).
  void writeInto(OpBuilder &b, Location loc, Value v, Value dest) {
    auto vt = cast<VectorType>(v.getType());
    if (!isBig(vt)) {
      storeSmall(b, loc, v, dest);
      return;
    }
    int64_t c = chunkWidth(vt.getShape(), widest(v));
    nest(b, loc, vt.getShape(), c,
         [&](OpBuilder &nb, Location l, ValueRange ivs) {
           storeVec(nb, l, gen(nb, l, v, ivs, c), dest, ivs);
         });
  }

  /// Copies the memref `from` into `to` (same shape) with native vectors.
  void copyBuffer(OpBuilder &b, Location loc, Value from, Value to) {
    auto mt = cast<MemRefType>(from.getType());
    int64_t c = chunkWidth(mt.getShape(), elemBytes(mt.getElementType()));
    auto ct = VectorType::get({c}, mt.getElementType());
    nest(b, loc, mt.getShape(), c,
         [&](OpBuilder &nb, Location l, ValueRange ivs) {
           Value v = vector::LoadOp::create(nb, l, ct, from, ivs);
           vector::StoreOp::create(nb, l, v, to, ivs);
         });
  }

  /// Records that `v` is now in `buf`.
  void setBuffer(Value v, Value buf, bool isContiguous) {
    bufOf[v] = buf;
    if (isContiguous)
      contiguous.insert(v);
  }

  // ----- views of refs -------------------------------------------------------

  /// The memref `v` is a view of (through subviews and casts).
  Value rootOf(Value v) {
    while (Operation *op = v.getDefiningOp()) {
      if (auto sv = dyn_cast<memref::SubViewOp>(op))
        v = sv.getSource();
      else if (auto c = dyn_cast<memref::CastOp>(op))
        v = c.getSource();
      else if (auto c = dyn_cast<memref::ReinterpretCastOp>(op))
        v = c.getSource();
      else if (auto c = dyn_cast<memref::CollapseShapeOp>(op))
        v = c.getSrc();
      else if (auto c = dyn_cast<memref::ExpandShapeOp>(op))
        v = c.getSrc();
      else
        break;
    }
    return v;
  }

  /// Whether `op` (or an op nested in it) may write memory that `root`
  /// (a function argument or an allocation) holds.
  bool mayWrite(Operation *op, Value root) {
    bool writes = false;
    op->walk([&](Operation *inner) {
      if (writes)
        return WalkResult::interrupt();
      auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
      if (!effects) {
        if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance();
        if (inner->getNumRegions() == 0 &&
            !isa<func::ReturnOp, scf::YieldOp>(inner) &&
            !inner->hasTrait<OpTrait::IsTerminator>())
          writes = true; // unknown effects
        return WalkResult::advance();
      }
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (auto &e : list) {
        if (!isa<MemoryEffects::Write>(e.getEffect()))
          continue;
        Value on = e.getValue();
        if (!on || rootOf(on) == root || !isNoAlias(rootOf(on), root))
          writes = true;
      }
      return WalkResult::advance();
    });
    return writes;
  }

  /// Distinct function arguments (the kernel's refs) and distinct
  /// allocations do not alias (docs/jit.md).
  bool isNoAlias(Value a, Value b) {
    auto known = [](Value v) {
      return isa<BlockArgument>(v) ||
             isa_and_nonnull<memref::AllocOp, memref::AllocaOp,
                             memref::GetGlobalOp>(v.getDefiningOp());
    };
    return a != b && known(a) && known(b);
  }

  /// Whether a big load by `op` of `base` may stay a view: nothing after it
  /// in its block writes the ref.
  bool viewIsLegal(Operation *op, Value base) {
    Value root = rootOf(base);
    for (Operation *o = op->getNextNode(); o; o = o->getNextNode())
      if (mayWrite(o, root))
        return false;
    return true;
  }

  /// The view of `base` at `indices` with the shape of `vt` (rank-reduced).
  Value subview(OpBuilder &b, Location loc, Value base, ValueRange indices,
                VectorType vt) {
    auto mt = cast<MemRefType>(base.getType());
    int64_t lead = mt.getRank() - vt.getRank();
    SmallVector<OpFoldResult> offsets(indices.begin(), indices.end());
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t d = 0; d < mt.getRank(); ++d) {
      sizes.push_back(b.getIndexAttr(d < lead ? 1 : vt.getDimSize(d - lead)));
      strides.push_back(b.getIndexAttr(1));
    }
    auto rt = memref::SubViewOp::inferRankReducedResultType(
        vt.getShape(), mt, offsets, sizes, strides);
    return memref::SubViewOp::create(b, loc, cast<MemRefType>(rt), base,
                                     offsets, sizes, strides);
  }

  // ----- ops -----------------------------------------------------------------

  bool touchesBig(Operation *op) {
    return anyBig(op->getOperandTypes()) || anyBig(op->getResultTypes());
  }

  /// Whether `v` is used once, by an op of the same block.
  bool singleLocalUse(Value v, Operation *def) {
    if (!v.hasOneUse())
      return false;
    Operation *user = *v.getUsers().begin();
    return user->getBlock() == def->getBlock();
  }

  void processBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (failed)
        return;
      processOp(&op);
    }
  }

  void processOp(Operation *op) {
    if (standIns.contains(op))
      return;
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      if (anyBig(forOp.getResultTypes()))
        return rewriteFor(forOp);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (anyBig(ifOp.getResultTypes()))
        return rewriteIf(ifOp);
    } else if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      if (anyBig(yield.getOperandTypes()))
        return rewriteYield(yield);
      return;
    }
    if (op->getNumRegions() > 0) {
      if (anyBig(op->getResultTypes()) || anyBig(op->getOperandTypes())) {
        fail(op, "cannot bufferize '") << op->getName()
                                       << "' with a big vector result";
        return;
      }
      for (Region &r : op->getRegions())
        for (Block &blk : r)
          processBlock(blk);
      return;
    }
    if (!touchesBig(op))
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    toErase.push_back(op);
    // A dead big value (the old-value load of a Pallas `swap`) is dropped.
    if (op->getNumResults() > 0 && op->use_empty() &&
        (isMemoryEffectFree(op) ||
         isa<vector::LoadOp, vector::TransferReadOp>(op)))
      return;

    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (isa<SplatElementsAttr>(cst.getValue())) {
        lazy.insert(op);
        return;
      }
      return constantGlobal(b, cst);
    }
    if (isa<vector::BroadcastOp, vector::StepOp, vector::CreateMaskOp,
            vector::ConstantMaskOp>(op) ||
        op->getName().getStringRef() == "vector.splat") {
      if (isa<vector::StepOp>(op) &&
          cast<VectorType>(op->getResult(0).getType()).getRank() != 1)
        return (void)fail(op, "only 1-D vector.step");
      lazy.insert(op);
      return;
    }
    if (isElementwise(op)) {
      if (llvm::none_of(op->getResultTypes(), [](Type t) { return isBig(t); })) {
        // Big operands, small results (`arith.trunci` of a loaded
        // `vector<16xi64>`): each result computed chunk by chunk into a
        // spill slot, then read back as the small vector its users take.
        lazy.insert(op);
        for (Value res : op->getResults()) {
          auto rt = cast<VectorType>(res.getType());
          Value buf = entryAlloca(rt);
          int64_t c = chunkWidth(rt.getShape(), widest(res));
          nest(b, loc, rt.getShape(), c,
               [&](OpBuilder &nb, Location l, ValueRange ivs) {
                 storeVec(nb, l, gen(nb, l, res, ivs, c), buf, ivs);
               });
          res.replaceAllUsesWith(loadSmall(b, loc, buf, rt));
        }
        return;
      }
      Value r = op->getResult(0);
      if (op->getNumResults() == 1 && singleLocalUse(r, op)) {
        lazy.insert(op);
        return;
      }
      lazy.insert(op);
      for (Value res : op->getResults())
        buffer(b, loc, res, true);
      return;
    }
    if (auto ld = dyn_cast<vector::LoadOp>(op))
      return load(b, op, ld.getBase(), ld.getIndices(), ld.getVectorType());
    if (auto rd = dyn_cast<vector::TransferReadOp>(op)) {
      if (!isa<MemRefType>(rd.getBase().getType()) || rd.getMask() ||
          !rd.getPermutationMap().isMinorIdentity() ||
          llvm::any_of(rd.getInBoundsValues(), [](bool x) { return !x; }))
        return (void)fail(op, "only in-bounds, unmasked, minor-identity "
                              "vector.transfer_read of a memref on big "
                              "vectors");
      return load(b, op, rd.getBase(), rd.getIndices(), rd.getVectorType());
    }
    if (auto st = dyn_cast<vector::StoreOp>(op))
      return store(b, loc, st.getValueToStore(), st.getBase(),
                   st.getIndices());
    if (auto wr = dyn_cast<vector::TransferWriteOp>(op)) {
      if (!isa<MemRefType>(wr.getBase().getType()) || wr.getMask() ||
          !wr.getPermutationMap().isMinorIdentity() ||
          llvm::any_of(wr.getInBoundsValues(), [](bool x) { return !x; }))
        return (void)fail(op, "only in-bounds, unmasked, minor-identity "
                              "vector.transfer_write to a memref on big "
                              "vectors");
      return store(b, loc, wr.getVector(), wr.getBase(), wr.getIndices());
    }
    if (auto red = dyn_cast<vector::MultiDimReductionOp>(op))
      return multiReduction(b, red);
    if (auto red = dyn_cast<vector::ReductionOp>(op))
      return reduction(b, red);
    if (auto sc = dyn_cast<vector::ShapeCastOp>(op))
      return shapeCast(b, sc);
    if (auto tr = dyn_cast<vector::TransposeOp>(op))
      return transpose(b, tr);
    if (auto ex = dyn_cast<vector::ExtractOp>(op))
      return extract(b, ex);
    if (auto ex = dyn_cast<vector::ExtractStridedSliceOp>(op))
      return extractSlice(b, ex);
    if (auto in = dyn_cast<vector::InsertOp>(op))
      return insert(b, in);
    if (auto in = dyn_cast<vector::InsertStridedSliceOp>(op))
      return insertSlice(b, in);
    toErase.pop_back();
    fail(op, "cannot bufferize '")
        << op->getName() << "' on a vector wider than " << kNativeBytes
        << " bytes";
  }

  bool isElementwise(Operation *op) {
    // Every arith and math op but arith.constant (handled before) is
    // elementwise on vectors (a trait check would depend on TypeIDs, which
    // differ between a plugin and its host for some traits).
    if (op->getNumResults() == 0)
      return false;
    StringRef ns = op->getName().getDialectNamespace();
    if (ns != "arith" && ns != "math" && !isa<vector::FMAOp>(op))
      return false;
    for (Type t : op->getResultTypes())
      if (!isa<VectorType>(t))
        return false;
    return true;
  }

  void constantGlobal(OpBuilder &b, arith::ConstantOp cst) {
    auto vt = cast<VectorType>(cst.getType());
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense)
      return (void)fail(cst, "only dense big constants");
    auto mt = MemRefType::get(vt.getShape(), storageType(vt.getElementType()));
    if (storageType(vt.getElementType()) != vt.getElementType()) {
      dense = dense.mapValues(storageType(vt.getElementType()),
                              [](const APInt &v) { return v.zext(8); });
    }
    // memref.global wants its initial value as a tensor.
    dense = dense.reshape(
        RankedTensorType::get(vt.getShape(), dense.getElementType()));
    auto module = func->getParentOfType<ModuleOp>();
    static unsigned counter = 0;
    std::string name;
    OpBuilder gb(ctx);
    gb.setInsertionPoint(func);
    do {
      name = ("__tcc_vec_const_" + Twine(counter++)).str();
    } while (module && module.lookupSymbol(name));
    auto global = memref::GlobalOp::create(
        gb, cst.getLoc(), name, gb.getStringAttr("private"), mt, dense,
        /*constant=*/true, gb.getI64IntegerAttr(64));
    (void)global;
    Value buf = memref::GetGlobalOp::create(b, cst.getLoc(), mt, name);
    setBuffer(cst.getResult(), buf, true);
  }

  void load(OpBuilder &b, Operation *op, Value base, ValueRange indices,
            VectorType vt) {
    Location loc = op->getLoc();
    Value view = subview(b, loc, base, indices, vt);
    Value res = op->getResult(0);
    if (viewIsLegal(op, base)) {
      setBuffer(res, view, false);
      return;
    }
    Value fresh = alloc(b, loc, vt);
    int64_t c = chunkWidth(vt.getShape(), elemBytes(vt.getElementType()));
    nest(b, loc, vt.getShape(), c,
         [&](OpBuilder &nb, Location l, ValueRange ivs) {
           auto ct = VectorType::get({c}, vt.getElementType());
           storeVec(nb, l, loadVec(nb, l, view, ivs, ct), fresh, ivs);
         });
    setBuffer(res, fresh, true);
  }

  void store(OpBuilder &b, Location loc, Value v, Value base,
             ValueRange indices) {
    auto vt = cast<VectorType>(v.getType());
    Value view = subview(b, loc, base, indices, vt);
    int64_t c = chunkWidth(vt.getShape(), widest(v));
    nest(b, loc, vt.getShape(), c,
         [&](OpBuilder &nb, Location l, ValueRange ivs) {
           storeVec(nb, l, gen(nb, l, v, ivs, c), view, ivs);
         });
  }

  // ----- reductions ----------------------------------------------------------

  /// The neutral element of `kind` on `t`; null for a float add/mul (those
  /// accumulate in order, see `ordered`).
  Attribute identity(OpBuilder &b, vector::CombiningKind kind, Type t) {
    using K = vector::CombiningKind;
    if (auto ft = dyn_cast<FloatType>(t)) {
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      switch (kind) {
      case K::MINIMUMF:
      case K::MINNUMF:
        return b.getFloatAttr(t, APFloat::getInf(sem, false));
      case K::MAXIMUMF:
      case K::MAXNUMF:
        return b.getFloatAttr(t, APFloat::getInf(sem, true));
      default:
        return {};
      }
    }
    unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    switch (kind) {
    case K::ADD:
    case K::OR:
    case K::XOR:
    case K::MAXUI:
      return b.getIntegerAttr(t, APInt::getZero(w));
    case K::MUL:
      return b.getIntegerAttr(t, APInt(w, 1));
    case K::AND:
    case K::MINUI:
      return b.getIntegerAttr(t, APInt::getAllOnes(w));
    case K::MINSI:
      return b.getIntegerAttr(t, APInt::getSignedMaxValue(w));
    case K::MAXSI:
      return b.getIntegerAttr(t, APInt::getSignedMinValue(w));
    default:
      return {};
    }
  }

  /// Float add and mul reduce in source order (bit for bit as the unrolled
  /// lowering and the interpreter); the rest accumulate across lanes.
  bool ordered(vector::CombiningKind kind, Type t) {
    return isa<FloatType>(t) && (kind == vector::CombiningKind::ADD ||
                                 kind == vector::CombiningKind::MUL);
  }

  /// Reduces `src` (big) over `dims` into: a scalar (no kept dims, returned)
  /// or `out` (a buffer of the kept shape, already holding the accumulator
  /// when the last dim is kept). `accAt` gives the accumulator at kept
  /// indices when the last dim is reduced.
  Value reduce(OpBuilder &b, Location loc, vector::CombiningKind kind,
               Value src, ArrayRef<int64_t> dims, Value out,
               function_ref<Value(OpBuilder &, Location, ValueRange)> accAt) {
    auto st = cast<VectorType>(src.getType());
    int64_t rank = st.getRank();
    Type et = st.getElementType();
    llvm::SmallBitVector reduced(rank);
    for (int64_t d : dims)
      reduced.set(d);
    SmallVector<int64_t> keptShape, redShape;
    for (int64_t d = 0; d < rank; ++d)
      (reduced.test(d) ? redShape : keptShape).push_back(st.getDimSize(d));
    int64_t c = chunkWidth(st.getShape(), widest(src));
    auto ct = VectorType::get({c}, et);

    auto fullIdx = [&](ValueRange kept, ValueRange red) {
      SmallVector<Value> idx;
      size_t k = 0, r = 0;
      for (int64_t d = 0; d < rank; ++d)
        idx.push_back(reduced.test(d) ? red[r++] : kept[k++]);
      return idx;
    };

    if (!reduced.test(rank - 1)) {
      // Last dim kept: out[kept] = combine(src chunk, out[kept]) in source
      // order.
      nest(b, loc, st.getShape(), c,
           [&](OpBuilder &nb, Location l, ValueRange ivs) {
             SmallVector<Value> kept;
             for (int64_t d = 0; d < rank; ++d)
               if (!reduced.test(d))
                 kept.push_back(ivs[d]);
             Value s = gen(nb, l, src, ivs, c);
             Value o = loadVec(nb, l, out, kept, ct);
             storeVec(nb, l, vector::makeArithReduction(nb, l, kind, s, o),
                      out, kept);
           });
      return {};
    }

    // Last dim reduced: per kept index, a register accumulator.
    bool inOrder = ordered(kind, et);
    Attribute id = inOrder ? Attribute() : identity(b, kind, et);
    if (!inOrder && !id) {
      fail(src.getDefiningOp() ? src.getDefiningOp() : func.getOperation(),
           "unsupported reduction kind");
      return {};
    }
    auto perKept = [&](OpBuilder &kb, Location l, ValueRange kept) -> Value {
      Value acc = accAt(kb, l, kept);
      SmallVector<Value> lbs, ubs, steps;
      for (size_t d = 0; d < redShape.size(); ++d) {
        lbs.push_back(index(kb, l, 0));
        ubs.push_back(index(kb, l, redShape[d]));
        steps.push_back(index(kb, l, d + 1 == redShape.size() ? c : 1));
      }
      Value init =
          inOrder ? acc
                  : arith::ConstantOp::create(
                        kb, l, ct,
                        SplatElementsAttr::get(ct, ArrayRef<Attribute>{id}))
                        .getResult();
      scf::LoopNest ln = scf::buildLoopNest(
          kb, l, lbs, ubs, steps, ValueRange{init},
          [&](OpBuilder &rb, Location rl, ValueRange red,
              ValueRange args) -> scf::ValueVector {
            Value s = gen(rb, rl, src, fullIdx(kept, red), c);
            if (inOrder)
              return {vector::ReductionOp::create(rb, rl, kind, s, args[0])
                          .getResult()};
            return {vector::makeArithReduction(rb, rl, kind, s, args[0])};
          });
      Value r = ln.results[0];
      if (!inOrder) {
        r = vector::ReductionOp::create(kb, l, kind, r).getResult();
        r = vector::makeArithReduction(kb, l, kind, r, acc);
      }
      return r;
    };
    if (keptShape.empty())
      return perKept(b, loc, ValueRange{});
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t s : keptShape) {
      lbs.push_back(index(b, loc, 0));
      ubs.push_back(index(b, loc, s));
      steps.push_back(index(b, loc, 1));
    }
    scf::buildLoopNest(b, loc, lbs, ubs, steps,
                       [&](OpBuilder &kb, Location l, ValueRange kept) {
                         Value r = perKept(kb, l, kept);
                         storeScalar(kb, l, r, out, kept);
                       });
    return {};
  }

  void multiReduction(OpBuilder &b, vector::MultiDimReductionOp red) {
    Location loc = red.getLoc();
    Value src = red.getSource();
    Value acc = red.getAcc();
    if (!isBig(src.getType())) {
      toErase.pop_back();
      return (void)fail(red, "big accumulator of a small reduction");
    }
    auto st = cast<VectorType>(src.getType());
    if (st.getElementType().isInteger(1))
      return (void)fail(red, "reductions of i1 vectors");
    SmallVector<int64_t> dims(red.getReductionDims());
    auto rt = dyn_cast<VectorType>(red.getType());
    bool lastKept = !llvm::is_contained(dims, st.getRank() - 1);
    Value out;
    if (rt) {
      out = isBig(rt) ? alloc(b, loc, rt) : entryAlloca(rt);
      if (lastKept)
        writeInto(b, loc, acc, out);
    }
    auto accAt = [&](OpBuilder &kb, Location l, ValueRange kept) -> Value {
      if (!rt)
        return acc;
      if (isBig(rt))
        return genScalar(kb, l, acc, kept);
      return smallElement(kb, l, acc, kept);
    };
    Value scalar = reduce(b, loc, red.getKind(), src, dims, out, accAt);
    if (failed)
      return;
    if (!rt) {
      red.getResult().replaceAllUsesWith(scalar);
      return;
    }
    if (isBig(rt)) {
      setBuffer(red.getResult(), out, true);
      return;
    }
    red.getResult().replaceAllUsesWith(loadSmall(b, loc, out, rt));
  }

  void reduction(OpBuilder &b, vector::ReductionOp red) {
    Location loc = red.getLoc();
    Value src = red.getVector();
    Type et = cast<VectorType>(src.getType()).getElementType();
    Value acc = red.getAcc();
    if (!acc) {
      Attribute id = identity(b, red.getKind(), et);
      if (!id && isa<FloatType>(et))
        id = red.getKind() == vector::CombiningKind::ADD
                 ? b.getFloatAttr(et, APFloat::getZero(
                                          cast<FloatType>(et)
                                              .getFloatSemantics(),
                                          /*Negative=*/true))
                 : b.getFloatAttr(et, 1.0);
      if (!id)
        return (void)fail(red, "unsupported reduction kind");
      acc = arith::ConstantOp::create(b, loc, cast<TypedAttr>(id));
    }
    Value r = reduce(b, loc, red.getKind(), src, {0}, {},
                     [&](OpBuilder &, Location, ValueRange) { return acc; });
    if (failed)
      return;
    red.getResult().replaceAllUsesWith(r);
  }

  // ----- data movement -----------------------------------------------------

  /// Gives `res` (of type `rt`) the contents of the memref `view` (of `rt`'s
  /// shape): as its buffer if big, as a small vector otherwise.
  void fromView(OpBuilder &b, Location loc, Value res, Value view,
                bool isContiguous) {
    auto rt = cast<VectorType>(res.getType());
    if (isBig(rt))
      setBuffer(res, view, isContiguous);
    else
      res.replaceAllUsesWith(loadSmall(b, loc, view, rt));
  }

  void shapeCast(OpBuilder &b, vector::ShapeCastOp sc) {
    Location loc = sc.getLoc();
    Value src = sc.getSource();
    auto st = cast<VectorType>(src.getType());
    auto rt = cast<VectorType>(sc.getType());
    Value buf = isBig(st) ? buffer(b, loc, src, true) : spill(b, loc, src);
    auto mt = cast<MemRefType>(buf.getType());
    // Collapse to 1-D, then expand to the result's shape.
    Value flat = buf;
    if (mt.getRank() != 1) {
      ReassociationIndices all;
      for (int64_t d = 0; d < mt.getRank(); ++d)
        all.push_back(d);
      flat = memref::CollapseShapeOp::create(
          b, loc, flat, ArrayRef<ReassociationIndices>{all});
    }
    Value shaped = flat;
    if (rt.getRank() != 1) {
      ReassociationIndices all;
      for (int64_t d = 0; d < rt.getRank(); ++d)
        all.push_back(d);
      auto et = cast<MemRefType>(flat.getType()).getElementType();
      shaped = memref::ExpandShapeOp::create(
          b, loc, MemRefType::get(rt.getShape(), et), flat,
          ArrayRef<ReassociationIndices>{all});
    }
    fromView(b, loc, sc.getResult(), shaped, true);
  }

  void transpose(OpBuilder &b, vector::TransposeOp tr) {
    Location loc = tr.getLoc();
    Value src = tr.getVector();
    auto rt = cast<VectorType>(tr.getType());
    ArrayRef<int64_t> perm = tr.getPermutation();
    Value out = isBig(rt) ? alloc(b, loc, rt) : entryAlloca(rt);
    Value sbuf = isBig(src.getType()) ? buffer(b, loc, src, false)
                                      : spill(b, loc, src);
    Type et = rt.getElementType();
    nest(b, loc, rt.getShape(), 1,
         [&](OpBuilder &nb, Location l, ValueRange ivs) {
           SmallVector<Value> sidx(ivs.size());
           for (size_t d = 0; d < perm.size(); ++d)
             sidx[perm[d]] = ivs[d];
           storeScalar(nb, l, loadScalar(nb, l, sbuf, sidx, et), out, ivs);
         });
    fromView(b, loc, tr.getResult(), out, true);
  }

  void extract(OpBuilder &b, vector::ExtractOp ex) {
    Location loc = ex.getLoc();
    Value src = ex.getSource();
    if (!isBig(src.getType())) {
      toErase.pop_back();
      return (void)fail(ex, "big result from a small source");
    }
    auto st = cast<VectorType>(src.getType());
    SmallVector<Value> pos;
    for (OpFoldResult p : ex.getMixedPosition()) {
      if (auto v = dyn_cast<Value>(p))
        pos.push_back(v);
      else
        pos.push_back(
            index(b, loc, cast<IntegerAttr>(cast<Attribute>(p)).getInt()));
    }
    Value res = ex.getResult();
    auto rt = dyn_cast<VectorType>(res.getType());
    if (!rt || rt.getRank() == 0) {
      while ((int64_t)pos.size() < st.getRank())
        pos.push_back(index(b, loc, 0));
      Value s = genScalar(b, loc, src, pos);
      if (rt)
        s = vector::BroadcastOp::create(b, loc, rt, s);
      res.replaceAllUsesWith(s);
      return;
    }
    Value buf = buffer(b, loc, src, false);
    while ((int64_t)pos.size() < st.getRank())
      pos.push_back(index(b, loc, 0));
    fromView(b, loc, res, subview(b, loc, buf, pos, rt), false);
  }

  void extractSlice(OpBuilder &b, vector::ExtractStridedSliceOp ex) {
    Location loc = ex.getLoc();
    Value src = ex.getSource();
    if (!isBig(src.getType())) {
      toErase.pop_back();
      return (void)fail(ex, "big result from a small source");
    }
    for (Attribute s : ex.getStrides())
      if (cast<IntegerAttr>(s).getInt() != 1)
        return (void)fail(ex, "strided slices with strides other than 1");
    auto st = cast<VectorType>(src.getType());
    auto rt = cast<VectorType>(ex.getType());
    SmallVector<Value> offsets;
    for (Attribute o : ex.getOffsets())
      offsets.push_back(index(b, loc, cast<IntegerAttr>(o).getInt()));
    while ((int64_t)offsets.size() < st.getRank())
      offsets.push_back(index(b, loc, 0));
    Value buf = buffer(b, loc, src, false);
    fromView(b, loc, ex.getResult(), subview(b, loc, buf, offsets, rt), false);
  }

  /// A fresh buffer holding a copy of `dest` (big), for an insert.
  Value copyOf(OpBuilder &b, Location loc, Value dest) {
    auto dt = cast<VectorType>(dest.getType());
    Value out = alloc(b, loc, dt);
    writeInto(b, loc, dest, out);
    return out;
  }

  void insert(OpBuilder &b, vector::InsertOp in) {
    Location loc = in.getLoc();
    Value dest = in.getDest();
    if (!isBig(dest.getType())) {
      toErase.pop_back();
      return (void)fail(in, "big value inserted into a small vector");
    }
    auto dt = cast<VectorType>(dest.getType());
    Value out = copyOf(b, loc, dest);
    SmallVector<Value> pos;
    for (OpFoldResult p : in.getMixedPosition()) {
      if (auto v = dyn_cast<Value>(p))
        pos.push_back(v);
      else
        pos.push_back(
            index(b, loc, cast<IntegerAttr>(cast<Attribute>(p)).getInt()));
    }
    Value val = in.getValueToStore();
    auto vt = dyn_cast<VectorType>(val.getType());
    while ((int64_t)pos.size() < dt.getRank())
      pos.push_back(index(b, loc, 0));
    if (!vt || vt.getRank() == 0) {
      Value s = val;
      if (vt)
        s = vector::ExtractOp::create(b, loc, val, ArrayRef<int64_t>{});
      storeScalar(b, loc, s, out, pos);
    } else {
      writeInto(b, loc, val, subview(b, loc, out, pos, vt));
    }
    setBuffer(in.getResult(), out, true);
  }

  void insertSlice(OpBuilder &b, vector::InsertStridedSliceOp in) {
    Location loc = in.getLoc();
    Value dest = in.getDest();
    if (!isBig(dest.getType())) {
      toErase.pop_back();
      return (void)fail(in, "big value inserted into a small vector");
    }
    for (Attribute s : in.getStrides())
      if (cast<IntegerAttr>(s).getInt() != 1)
        return (void)fail(in, "strided slices with strides other than 1");
    Value out = copyOf(b, loc, dest);
    SmallVector<Value> offsets;
    for (Attribute o : in.getOffsets())
      offsets.push_back(index(b, loc, cast<IntegerAttr>(o).getInt()));
    Value val = in.getValueToStore();
    writeInto(b, loc, val,
              subview(b, loc, out, offsets, cast<VectorType>(val.getType())));
    setBuffer(in.getResult(), out, true);
  }

  // ----- control flow ------------------------------------------------------

  /// A stand-in SSA value of type `t` for the buffer `buf` (the original
  /// uses keep a value to look up; erased at the end).
  Value standIn(OpBuilder &b, Location loc, Value buf, Type t) {
    auto cast = UnrealizedConversionCastOp::create(b, loc, TypeRange{t},
                                                   ValueRange{buf});
    toErase.push_back(cast);
    standIns.insert(cast);
    return cast.getResult(0);
  }

  void rewriteFor(scf::ForOp forOp) {
    OpBuilder b(forOp);
    Location loc = forOp.getLoc();
    SmallVector<Value> inits;
    SmallVector<Type> types;
    SmallVector<Value> loopBufs(forOp.getNumResults());
    for (auto [i, init] : llvm::enumerate(forOp.getInitArgs())) {
      if (isBig(init.getType())) {
        Value buf = alloc(b, loc, cast<VectorType>(init.getType()));
        writeInto(b, loc, init, buf);
        loopBufs[i] = buf;
      } else {
        inits.push_back(init);
      }
    }
    auto newFor =
        scf::ForOp::create(b, loc, forOp.getLowerBound(),
                           forOp.getUpperBound(), forOp.getStep(), inits);
    newFor->setAttrs(forOp->getDiscardableAttrDictionary());
    Block *oldBody = forOp.getBody();
    Block *newBody = newFor.getBody();
    // Drop the builder's yield; take the old body's ops.
    if (!newBody->empty())
      newBody->getTerminator()->erase();
    OpBuilder ib = OpBuilder::atBlockBegin(newBody);
    oldBody->getArgument(0).replaceAllUsesWith(newFor.getInductionVar());
    SmallVector<std::pair<unsigned, Value>> pend;
    unsigned small = 0;
    for (unsigned i = 0; i < forOp.getNumResults(); ++i) {
      BlockArgument arg = oldBody->getArgument(i + 1);
      if (loopBufs[i]) {
        Value s = standIn(ib, loc, loopBufs[i], arg.getType());
        setBuffer(s, loopBufs[i], true);
        arg.replaceAllUsesWith(s);
        pend.push_back({i, loopBufs[i]});
      } else {
        arg.replaceAllUsesWith(newBody->getArgument(1 + small++));
      }
    }
    newBody->getOperations().splice(newBody->end(), oldBody->getOperations());
    pendingYields[newBody->getTerminator()] = pend;
    // Results.
    b.setInsertionPointAfter(newFor);
    small = 0;
    for (unsigned i = 0; i < forOp.getNumResults(); ++i) {
      Value r = forOp.getResult(i);
      if (loopBufs[i]) {
        Value s = standIn(b, loc, loopBufs[i], r.getType());
        setBuffer(s, loopBufs[i], true);
        r.replaceAllUsesWith(s);
      } else {
        r.replaceAllUsesWith(newFor.getResult(small++));
      }
    }
    forOp.erase();
    processBlock(*newBody);
  }

  void rewriteIf(scf::IfOp ifOp) {
    OpBuilder b(ifOp);
    Location loc = ifOp.getLoc();
    SmallVector<Type> types;
    SmallVector<Value> bufs(ifOp.getNumResults());
    SmallVector<std::pair<unsigned, Value>> pend;
    for (auto [i, t] : llvm::enumerate(ifOp.getResultTypes())) {
      if (isBig(t)) {
        bufs[i] = alloc(b, loc, cast<VectorType>(t));
        pend.push_back({(unsigned)i, bufs[i]});
      } else {
        types.push_back(t);
      }
    }
    auto newIf = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                   /*withElseRegion=*/true);
    newIf->setAttrs(ifOp->getDiscardableAttrDictionary());
    for (int k = 0; k < 2; ++k) {
      Region &from = k ? ifOp.getElseRegion() : ifOp.getThenRegion();
      Region &to = k ? newIf.getElseRegion() : newIf.getThenRegion();
      if (from.empty())
        continue;
      to.getBlocks().clear();
      to.takeBody(from);
      pendingYields[to.front().getTerminator()] = pend;
    }
    b.setInsertionPointAfter(newIf);
    unsigned small = 0;
    for (unsigned i = 0; i < ifOp.getNumResults(); ++i) {
      Value r = ifOp.getResult(i);
      if (bufs[i]) {
        Value s = standIn(b, loc, bufs[i], r.getType());
        setBuffer(s, bufs[i], true);
        r.replaceAllUsesWith(s);
      } else {
        r.replaceAllUsesWith(newIf.getResult(small++));
      }
    }
    ifOp.erase();
    for (Region &r : newIf->getRegions())
      for (Block &blk : r)
        processBlock(blk);
  }

  void rewriteYield(scf::YieldOp yield) {
    auto it = pendingYields.find(yield);
    if (it == pendingYields.end()) {
      fail(yield, "big vector yielded by an unsupported op");
      return;
    }
    OpBuilder b(yield);
    Location loc = yield.getLoc();
    llvm::DenseMap<unsigned, Value> dest(it->second.begin(), it->second.end());
    // Compute every yielded big value before writing any loop buffer (a
    // value may read another iter_arg's buffer).
    SmallVector<std::pair<Value, Value>> copies;
    SmallVector<Value> kept;
    llvm::DenseSet<Value> loopBufs;
    for (auto &entry : it->second)
      loopBufs.insert(entry.second);
    for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
      Value to = dest.lookup(i);
      if (!to) {
        kept.push_back(v);
        continue;
      }
      Value from = bufOf.lookup(v);
      if (from == to)
        continue;
      if (!from || loopBufs.contains(from)) {
        from = alloc(b, loc, cast<VectorType>(v.getType()));
        writeInto(b, loc, v, from);
      }
      copies.push_back({from, to});
    }
    for (auto [from, to] : copies)
      copyBuffer(b, loc, from, to);
    scf::YieldOp::create(b, loc, kept);
    pendingYields.erase(it);
    yield.erase();
  }

public:
  LogicalResult finish() {
    if (failed)
      return failure();
    for (Operation *op : llvm::reverse(toErase)) {
      if (!op->use_empty()) {
        op->emitOpError("tcc-bufferize-vectors: internal error: a rewritten "
                        "op still has uses");
        return failure();
      }
      op->erase();
    }
    for (auto [buf, block] : allocs) {
      OpBuilder b = OpBuilder::atBlockTerminator(block);
      memref::DeallocOp::create(b, buf.getLoc(), buf);
    }
    return success();
  }
};

LogicalResult Bufferizer::run() {
  for (Type t : func.getFunctionType().getInputs())
    if (isBig(t))
      return func.emitOpError("tcc-bufferize-vectors: big vector argument ")
             << typeText(t);
  for (Type t : func.getFunctionType().getResults())
    if (isBig(t))
      return func.emitOpError("tcc-bufferize-vectors: big vector result ")
             << typeText(t);
  if (func.isExternal())
    return success();
  if (!func.getBody().hasOneBlock()) {
    bool any = false;
    func.walk([&](Operation *op) {
      any |= anyBig(op->getResultTypes());
    });
    if (any)
      return func.emitOpError("tcc-bufferize-vectors: big vectors in a "
                              "function of several blocks");
    return success();
  }
  processBlock(func.getBody().front());
  return finish();
}

struct BufferizeVectorsPass
    : public PassWrapper<BufferizeVectorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BufferizeVectorsPass)

  StringRef getArgument() const final { return "tcc-bufferize-vectors"; }
  StringRef getName() const final { return "TccBufferizeVectors"; }
  StringRef getDescription() const final {
    return "Rewrite vector values wider than 64 bytes into memref buffers and "
           "scf.for loop nests over native-width vectors";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect, vector::VectorDialect>();
  }
  void runOnOperation() final {
    SmallVector<func::FuncOp> funcs;
    getOperation().walk([&](func::FuncOp f) { funcs.push_back(f); });
    for (func::FuncOp f : funcs) {
      Bufferizer bz(f);
      if (failed(bz.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace vecloops
} // namespace tcc

extern "C" {

void tcc_register_bufferize_vectors_pass(void) {
  PassRegistration<tcc::vecloops::BufferizeVectorsPass>();
}

MlirPass tcc_create_bufferize_vectors_pass(void) {
  return wrap(static_cast<mlir::Pass *>(
      new tcc::vecloops::BufferizeVectorsPass()));
}

bool tcc_jit_bufferize_vectors(MlirOperation module) {
  auto mod = dyn_cast<ModuleOp>(unwrap(module));
  if (!mod) {
    unwrap(module)->emitOpError(
        "tcc-bufferize-vectors: expects a builtin.module");
    return false;
  }
  mod.getContext()->loadDialect<arith::ArithDialect, memref::MemRefDialect,
                                scf::SCFDialect, vector::VectorDialect>();
  SmallVector<func::FuncOp> funcs;
  mod.walk([&](func::FuncOp f) { funcs.push_back(f); });
  for (func::FuncOp f : funcs) {
    tcc::vecloops::Bufferizer bz(f);
    if (failed(bz.run()))
      return false;
  }
  return true;
}
}
