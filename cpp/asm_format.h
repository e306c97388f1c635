// The custom (pretty) assembly of the pass-through dialects' operations: a
// table of ODS declarative assembly formats (copied verbatim from the .td
// files of StableHLO and Shardy) and an interpreter of them over
// OpAsmParser / OpAsmPrinter, plus the few ops whose syntax is hand-written
// upstream (`stablehlo.constant`, `reduce`, `while`).
//
// The `tpu` ops' formats come from the crate's table (src/pretty/ops.rs, read
// once over tcc_rust_tpu_op_table): those ops parse here and print
// generic (the crate prints their custom form from the generic text).
//
// The dialects stay op-less: MLIR's parser asks a dialect for a parse hook
// when it meets a custom-form op it has no registered op for
// (Dialect::getParseOperationHook), and its printer asks for a printer for an
// unregistered op (Dialect::getOperationPrinter). The ops read this way are
// unregistered ops whose inherent attributes are their properties (a
// DictionaryAttr, `<{...}>` in the generic form), as jaxlib's generic print
// shows them.
#pragma once

#include "tcc.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/FunctionExtras.h"

#include <optional>

namespace tcc {
namespace asmfmt {

/// The parse hook for the custom form of `opName` (`stablehlo.add`), or
/// nothing when the op has none (MLIR then reports the op as unknown).
std::optional<mlir::Dialect::ParseOpHook> parseHook(llvm::StringRef opName);

/// The printer of the custom form of `op`, or null when `op` is not in the
/// table or its custom form cannot show it (it is then printed generic).
llvm::unique_function<void(mlir::Operation *, mlir::OpAsmPrinter &)>
printHook(mlir::Operation *op);

/// The OpAsmOpInterface model (result and block argument names, as the
/// upstream ops give them: `%c`, `%cst`, `%iterArg`) for `name`, if the
/// interface asked for is that one and the op names its values; else null.
void *interfaceFor(mlir::TypeID interface, mlir::OperationName name);

} // namespace asmfmt

/// The pass-through attribute `#<dialect>.<text>` (or `#<dialect><text>`) of
/// the loaded pass-through dialect `dialect` (`stablehlo`, `sdy`, `tpu`).
mlir::Attribute passthroughAttr(mlir::MLIRContext *ctx,
                                llvm::StringRef dialect, llvm::StringRef text);

/// Whether `tpu` ops print in their custom form in `ctx` (a plugin host's
/// context: see tcc_register_passthrough_dialects); else they print generic.
bool tpuPrintsCustomForm(mlir::MLIRContext *ctx);

/// The text of `attr` if it is a pass-through attribute of `dialect`.
std::optional<llvm::StringRef> passthroughText(mlir::Attribute attr,
                                               llvm::StringRef dialect);

} // namespace tcc

/// Registers the pass-through dialects `tpu`, `stablehlo`, `sdy` and `chlo` (with
/// the custom assembly above) in `registry`: what a host other than our crate
/// (an `mlir-opt` plugin) calls. Unknown ops of these dialects stay allowed.
void tcc_register_passthrough_dialects(mlir::DialectRegistry &registry);
