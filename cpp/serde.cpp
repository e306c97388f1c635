// The hot loops of serialization and printing, in C++ so that they run without
// one C API call per op field: the mangled copy of a kernel (`mosaic-serde`'s
// renaming), the debug-location walk, and buffered printing / bytecode writing
// (MLIR's C API streams are unbuffered: one callback per character printed).
//
// Decisions stay in Rust: which ops get a downgrade rule (the names are passed
// in, the matching mangled ops handed back), what the rules do, the errors.

#include "tcc.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir-c/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace {

constexpr llvm::StringLiteral kMangledPrefix = "stable_mosaic.";
constexpr llvm::StringLiteral kVersionAttr = "stable_mosaic.version";

// Builds the mangled copy of a kernel module in one pre-order pass: every op
// but `builtin.module` is created under `stable_mosaic.<name>` with all of its
// attributes (inherent and discardable) as plain attributes, which is what
// cloning the module and then re-creating each op under its mangled name gives,
// without the intermediate clone.
class Mangler {
public:
  Mangler(mlir::MLIRContext *ctx, llvm::ArrayRef<llvm::StringRef> ruleNames)
      : ctx(ctx), ruleNames(ruleNames) {}

  mlir::Operation *run(mlir::Operation *top) {
    mlir::Operation *copy = copyOp(top);
    // Forward references (a use placed before its definition in block order,
    // as graph regions and some CFGs allow) were created with the original
    // value; point them at the copy now that every value exists.
    for (mlir::OpOperand *operand : pending)
      operand->set(mapper.lookupOrDefault(operand->get()));
    return copy;
  }

  // Mangled ops whose original name is one of `ruleNames`, in post-order, with
  // the index of the name.
  std::vector<std::pair<mlir::Operation *, intptr_t>> ruleOps;

private:
  mlir::Operation *copyOp(mlir::Operation *op) {
    mlir::Operation *copy;
    if (llvm::isa<mlir::ModuleOp>(op)) {
      // Modules keep their name and properties (JAX's pass skips them).
      copy = op->cloneWithoutRegions(mapper);
    } else {
      llvm::SmallVector<mlir::Value, 8> operands;
      llvm::SmallVector<unsigned, 2> forward;
      operands.reserve(op->getNumOperands());
      for (mlir::Value v : op->getOperands()) {
        mlir::Value mapped = mapper.lookupOrNull(v);
        if (!mapped)
          forward.push_back(operands.size());
        operands.push_back(mapped ? mapped : v);
      }
      llvm::SmallVector<mlir::Block *, 2> successors;
      for (mlir::Block *b : op->getSuccessors())
        successors.push_back(mapper.lookupOrDefault(b));
      copy = mlir::Operation::create(
          op->getLoc(), mangledName(op->getName()), op->getResultTypes(),
          operands, attributes(op), /*properties=*/nullptr, successors,
          op->getNumRegions());
      mapper.map(op->getResults(), copy->getResults());
      for (unsigned i : forward)
        pending.push_back(&copy->getOpOperand(i));
    }
    for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
      copyRegion(op->getRegion(i), copy->getRegion(i));
    intptr_t rule = ruleIndex(op->getName());
    if (rule >= 0)
      ruleOps.emplace_back(copy, rule);
    return copy;
  }

  void copyRegion(mlir::Region &from, mlir::Region &to) {
    // Blocks first (successors may name later ones), then their ops.
    for (mlir::Block &block : from) {
      auto *copy = new mlir::Block();
      to.push_back(copy);
      mapper.map(&block, copy);
      for (mlir::BlockArgument arg : block.getArguments())
        mapper.map(arg, copy->addArgument(arg.getType(), arg.getLoc()));
    }
    for (mlir::Block &block : from) {
      mlir::Block *copy = mapper.lookup(&block);
      for (mlir::Operation &op : block)
        copy->push_back(copyOp(&op));
    }
  }

  // What JAX's `op->getAttrs()` gives: inherent (properties) and discardable
  // attributes, as one dictionary.
  mlir::DictionaryAttr attributes(mlir::Operation *op) {
    if (op->isRegistered())
      return op->getAttrDictionary();
    auto properties =
        llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getPropertiesAsAttribute());
    if (!properties || properties.empty())
      return op->getAttrDictionary();
    mlir::NamedAttrList list(properties);
    for (mlir::NamedAttribute named : op->getDiscardableAttrs())
      if (!properties.contains(named.getName()))
        list.push_back(named);
    return list.getDictionary(ctx);
  }

  mlir::OperationName mangledName(mlir::OperationName name) {
    auto [it, inserted] =
        names.try_emplace(name.getAsOpaquePointer(), std::nullopt);
    if (inserted) {
      llvm::SmallString<64> mangled(kMangledPrefix);
      mangled += name.getStringRef();
      it->second.emplace(mangled, ctx);
    }
    return *it->second;
  }

  intptr_t ruleIndex(mlir::OperationName name) {
    auto [it, inserted] = rules.try_emplace(name.getAsOpaquePointer(), -1);
    if (inserted)
      for (size_t i = 0; i < ruleNames.size(); ++i)
        if (ruleNames[i] == name.getStringRef())
          it->second = static_cast<intptr_t>(i);
    return it->second;
  }

  mlir::MLIRContext *ctx;
  llvm::ArrayRef<llvm::StringRef> ruleNames;
  mlir::IRMapping mapper;
  std::vector<mlir::OpOperand *> pending;
  llvm::DenseMap<void *, std::optional<mlir::OperationName>> names;
  llvm::DenseMap<void *, intptr_t> rules;
};

// The location slots of `op` in `tpu.private_unzip_debug_locations` order: the
// op, then the block arguments of all its regions (every region and block in
// order), then the nested ops (every region and block in order, each
// recursively). An op with several regions (`scf.while`) lists the arguments
// of all of them before the ops of any, as jaxlib does. Mirrored by
// `walk_locations` in src/serde/mod.rs.
template <typename F> void walkLocations(mlir::Operation *op, F &f) {
  op->setLoc(f(op->getLoc()));
  for (mlir::Region &region : op->getRegions())
    for (mlir::Block &block : region)
      for (mlir::BlockArgument arg : block.getArguments())
        arg.setLoc(f(arg.getLoc()));
  for (mlir::Region &region : op->getRegions())
    for (mlir::Block &block : region)
      for (mlir::Operation &child : block)
        walkLocations(&child, f);
}

// A buffered stream into a string (LLVM's string streams are unbuffered: each
// character printed would be a virtual call).
class StringStream : public llvm::raw_ostream {
public:
  explicit StringStream(std::string &out) : out(out) {
    SetBufferSize(1 << 16);
  }
  ~StringStream() override { flush(); }

private:
  void write_impl(const char *ptr, size_t size) override {
    out.append(ptr, size);
  }
  uint64_t current_pos() const override { return out.size(); }
  std::string &out;
};

// Hands `bytes` to the caller in one callback.
void flushTo(const std::string &bytes, MlirStringCallback callback,
             void *userData) {
  callback(mlirStringRefCreate(bytes.data(), bytes.size()), userData);
}

} // namespace

extern "C" {

/// Builds the mangled copy of the kernel module `kernel` (see `Mangler`), with
/// `stable_mosaic.version = <version> : i64` on the top module. For every op
/// whose original name is one of `rule_names`, `found(copy, name index,
/// user_data)` is called, in post-order. The returned module is detached and
/// owned by the caller. `kernel` is not modified.
MlirOperation tcc_serde_mangle(MlirOperation kernel, int64_t version,
                               const MlirStringRef *rule_names,
                               intptr_t num_rule_names,
                               void (*found)(MlirOperation, intptr_t, void *),
                               void *user_data) {
  mlir::Operation *op = unwrap(kernel);
  mlir::MLIRContext *ctx = op->getContext();
  llvm::SmallVector<llvm::StringRef, 16> names;
  for (intptr_t i = 0; i < num_rule_names; ++i)
    names.push_back(unwrap(rule_names[i]));
  Mangler mangler(ctx, names);
  mlir::Operation *copy = mangler.run(op);
  copy->setDiscardableAttr(
      mlir::StringAttr::get(ctx, kVersionAttr),
      mlir::IntegerAttr::get(mlir::IntegerType::get(ctx, 64), version));
  for (auto [ruleOp, index] : mangler.ruleOps)
    found(wrap(ruleOp), index, user_data);
  return wrap(copy);
}

/// Replaces every location slot of `module` (see `walkLocations`) by
/// `loc(unknown)`. With `collect`, returns the replaced locations as an array
/// attribute, in slot order (the `tpu.locs` of the `debug_locations` blob);
/// otherwise a null attribute.
MlirAttribute tcc_serde_take_locations(MlirOperation module, bool collect) {
  mlir::Operation *op = unwrap(module);
  mlir::MLIRContext *ctx = op->getContext();
  mlir::Location unknown = mlir::UnknownLoc::get(ctx);
  llvm::SmallVector<mlir::Attribute, 0> locs;
  auto take = [&](mlir::Location loc) -> mlir::Location {
    if (collect)
      locs.push_back(loc);
    return unknown;
  };
  walkLocations(op, take);
  if (!collect)
    return MlirAttribute{nullptr};
  return wrap(mlir::ArrayAttr::get(ctx, locs));
}

/// Prints `op` as text (generic form and locations as asked), handing the
/// whole text to `callback` at once. With `assume_verified`, the printer does
/// not run the verifier first (it does otherwise, to fall back to the generic
/// form on invalid IR).
void tcc_print_operation(MlirOperation op, bool generic, bool debug_info,
                         bool assume_verified, MlirStringCallback callback,
                         void *user_data) {
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  if (debug_info)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  if (assume_verified)
    flags.assumeVerified();
  std::string text;
  {
    StringStream stream(text);
    unwrap(op)->print(stream, flags);
  }
  flushTo(text, callback, user_data);
}

/// Writes `op` as MLIR bytecode with the given producer string and bytecode
/// format version (negative: the writer's current version), handing the bytes
/// to `callback` at once. Returns false when the writer refuses (for example a
/// version older than a feature the IR uses); diagnostics go to the context's
/// handlers.
bool tcc_write_bytecode(MlirOperation op, MlirStringRef producer,
                        int64_t version, MlirStringCallback callback,
                        void *user_data) {
  mlir::BytecodeWriterConfig config(unwrap(producer));
  if (version >= 0)
    config.setDesiredBytecodeVersion(version);
  std::string bytes;
  mlir::LogicalResult result = mlir::failure();
  {
    StringStream stream(bytes);
    result = mlir::writeBytecodeToFile(unwrap(op), stream, config);
  }
  if (mlir::failed(result))
    return false;
  flushTo(bytes, callback, user_data);
  return true;
}
}
