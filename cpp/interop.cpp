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
