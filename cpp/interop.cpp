// Bytecode that other MLIRs (jaxlib's, where `stablehlo` and `tpu` are
// registered dialects) read with the same meaning.
//
// Our pass-through `stablehlo` and `tpu` ops are unregistered, so MLIR stores
// their inherent attributes (`<{...}>`) as one dictionary and the bytecode
// writer emits that dictionary as the op's properties. A reader where the op
// is registered decodes properties with the op's own encoding (one attribute
// per ODS property, in ODS order) and misreads the dictionary. MLIR's own
// path for ops without a properties encoding is the attribute dictionary: a
// registered op created from it moves its inherent attributes into its
// properties. So the copy we write keeps every unregistered op's properties
// as plain attributes.

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir-c/IR.h"

extern "C" {

/// A detached copy of `op` in which every unregistered op with properties
/// carries them as discardable attributes instead (properties cleared), or a
/// null operation when no op has properties (write `op` itself). When an op's
/// properties are not a dictionary or name an attribute it also carries as a
/// discardable one, nothing is copied: `*conflict_op` is set to that op and a
/// null operation returned.
MlirOperation tcc_properties_as_attributes(MlirOperation op,
                                           MlirOperation *conflict_op) {
  *conflict_op = MlirOperation{nullptr};
  mlir::Operation *root = unwrap(op);
  bool any = false;
  mlir::Operation *conflict = nullptr;
  root->walk([&](mlir::Operation *o) {
    if (o->isRegistered() || !o->getPropertiesStorageSize())
      return mlir::WalkResult::advance();
    mlir::Attribute props = o->getPropertiesAsAttribute();
    if (!props)
      return mlir::WalkResult::advance();
    auto dict = llvm::dyn_cast<mlir::DictionaryAttr>(props);
    if (!dict) {
      conflict = o;
      return mlir::WalkResult::interrupt();
    }
    for (mlir::NamedAttribute entry : dict) {
      if (o->getDiscardableAttr(entry.getName())) {
        conflict = o;
        return mlir::WalkResult::interrupt();
      }
    }
    any = true;
    return mlir::WalkResult::advance();
  });
  if (conflict) {
    *conflict_op = wrap(conflict);
    return MlirOperation{nullptr};
  }
  if (!any)
    return MlirOperation{nullptr};
  mlir::Operation *copy = root->clone();
  copy->walk([](mlir::Operation *o) {
    if (o->isRegistered() || !o->getPropertiesStorageSize())
      return;
    auto dict =
        llvm::dyn_cast_or_null<mlir::DictionaryAttr>(o->getPropertiesAsAttribute());
    if (!dict)
      return;
    mlir::NamedAttrList attrs(o->getDiscardableAttrDictionary());
    for (mlir::NamedAttribute entry : dict)
      attrs.set(entry.getName(), entry.getValue());
    *o->getPropertiesStorage().as<mlir::Attribute *>() = mlir::Attribute();
    o->setDiscardableAttrs(attrs.getDictionary(o->getContext()));
  });
  return wrap(copy);
}
}

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"

extern "C" {

/// Parses MLIR text into a module (wrapping several top-level ops in one, as
/// `mlirModuleCreateParse` does), naming the buffer `name` in the locations
/// the parser gives ops without one (`mlirModuleCreateParse` names every
/// buffer `-`). `source` must be followed by a NUL byte in memory (MLIR's
/// lexer stops at it). Diagnostics go to the context's handlers; null on
/// failure.
MlirModule tcc_parse_module_named(MlirContext ctx, MlirStringRef source,
                                  MlirStringRef name) {
  mlir::ParserConfig config(unwrap(ctx));
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config,
                                              unwrap(name));
  if (!module)
    return MlirModule{nullptr};
  return MlirModule{module.release().getOperation()};
}

/// Replaces, in `op` and everything nested in it (ops, block arguments), every
/// file location whose file is `file` by `loc(unknown)`.
void tcc_forget_file_locations(MlirOperation op, MlirStringRef file) {
  mlir::Operation *root = unwrap(op);
  llvm::StringRef name = unwrap(file);
  mlir::MLIRContext *ctx = root->getContext();
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](mlir::FileLineColLoc loc) -> std::optional<mlir::Attribute> {
        if (loc.getFilename() == name)
          return mlir::UnknownLoc::get(ctx);
        return std::nullopt;
      });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}
}

#include "mlir/Bytecode/BytecodeImplementation.h"

extern "C" {

/// Whether this context reads attributes and types that the dialect `ns`
/// encodes in its own bytecode encoding: the dialect is registered here
/// (loaded on demand) and implements the bytecode interface.
bool tcc_dialect_reads_bytecode(MlirContext ctx, MlirStringRef ns) {
  mlir::Dialect *dialect = unwrap(ctx)->getOrLoadDialect(unwrap(ns));
  return dialect &&
         dialect->getRegisteredInterface<mlir::BytecodeDialectInterface>();
}
}
