// Attributes of upstream dialects that MLIR's C API cannot build: the
// `vector` dialect's combining kind (`#vector.kind<add>`), built from its
// enum value, never from text.

#include "tcc.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

extern "C" {

MlirAttribute tcc_vector_combining_kind_get(MlirContext ctx, uint32_t kind) {
  auto value = mlir::vector::symbolizeCombiningKind(kind);
  if (!value)
    return MlirAttribute{nullptr};
  mlir::MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<mlir::vector::VectorDialect>();
  return wrap(mlir::vector::CombiningKindAttr::get(context, *value));
}

}
