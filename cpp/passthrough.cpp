// Pass-through dialects for `tpu` and `stablehlo`, and a bytecode writer with a
// settable producer string.
//
// Upstream MLIR does not have the `tpu` (Mosaic) or `stablehlo` dialects. With
// unregistered dialects allowed, MLIR handles their *operations* (generic form)
// and most of their attributes as opaque attributes, but two things still fail:
//   * `memref<8x128xf32, #tpu.memory_space<vmem>>`: an OpaqueAttr is rejected as
//     a memref memory space;
//   * `memref<2x!tpu.dma_semaphore>`: an OpaqueType is not a valid memref
//     element type.
// So we register tiny dialects named `tpu` and `stablehlo` whose single
// attribute class and single type class keep the full symbol text
// (`memory_space<vmem>`) and print it back verbatim. The type implements
// MemRefElementTypeInterface so it can be a memref element. Both dialects allow
// unknown operations, so their ops keep parsing in generic form.
//
// There is no logic here beyond parse/print: everything else lives in Rust.
// The file is compiled with -fno-rtti to match the LLVM build; every class has
// an explicit TypeID.

#include "tcc.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Bytecode/Encoding.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir-c/IR.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>
#include <string>

namespace tcc {
namespace detail {

// Storage shared by the attribute and the type: the symbol text, uniqued.
template <typename Base>
struct TextStorage : public Base {
  using KeyTy = llvm::StringRef;
  explicit TextStorage(llvm::StringRef text) : text(text) {}
  bool operator==(const KeyTy &key) const { return key == text; }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(key);
  }
  template <typename Allocator>
  static TextStorage *construct(Allocator &allocator, const KeyTy &key) {
    return new (allocator.template allocate<TextStorage>())
        TextStorage(allocator.copyInto(key));
  }
  llvm::StringRef text;
};

using AttrStorage = TextStorage<mlir::AttributeStorage>;
using TypeStorage = TextStorage<mlir::TypeStorage>;

} // namespace detail

// A number per dialect instance, never reused in the process: it names a
// context for caches kept across calls (see tcc_context_serial).
inline uint64_t nextSerial() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

// One attribute class, one type class and one dialect class per namespace. A
// macro keeps the two namespaces identical; each class needs its own TypeID.
#define TCC_PASSTHROUGH_CLASSES(NS, NAME)                                      \
  namespace NS {                                                               \
  class TextAttr : public mlir::Attribute::AttrBase<TextAttr, mlir::Attribute, \
                                                    detail::AttrStorage> {     \
  public:                                                                      \
    using Base::Base;                                                          \
    static constexpr llvm::StringLiteral name = NAME ".text_attr";             \
    static TextAttr get(mlir::MLIRContext *ctx, llvm::StringRef text) {        \
      return Base::get(ctx, text);                                             \
    }                                                                          \
    llvm::StringRef getText() const { return getImpl()->text; }                \
  };                                                                           \
  class TextType                                                               \
      : public mlir::Type::TypeBase<TextType, mlir::Type, detail::TypeStorage, \
                                    mlir::MemRefElementTypeInterface::Trait> { \
  public:                                                                      \
    using Base::Base;                                                          \
    static constexpr llvm::StringLiteral name = NAME ".text_type";             \
    static TextType get(mlir::MLIRContext *ctx, llvm::StringRef text) {        \
      return Base::get(ctx, text);                                             \
    }                                                                          \
    llvm::StringRef getText() const { return getImpl()->text; }                \
  };                                                                           \
  class PassThroughDialect : public mlir::Dialect {                            \
  public:                                                                      \
    explicit PassThroughDialect(mlir::MLIRContext *ctx)                        \
        : mlir::Dialect(getDialectNamespace(), ctx,                            \
                        mlir::TypeID::get<PassThroughDialect>()) {             \
      addAttributes<TextAttr>();                                               \
      addTypes<TextType>();                                                    \
      allowUnknownOperations();                                                \
      allowUnknownTypes();                                                     \
    }                                                                          \
    static constexpr llvm::StringLiteral getDialectNamespace() {               \
      return NAME;                                                             \
    }                                                                          \
    mlir::Attribute parseAttribute(mlir::DialectAsmParser &parser,             \
                                   mlir::Type) const override {                \
      return TextAttr::get(getContext(), parser.getFullSymbolSpec());          \
    }                                                                          \
    void printAttribute(mlir::Attribute attr,                                  \
                        mlir::DialectAsmPrinter &printer) const override {     \
      printer << llvm::cast<TextAttr>(attr).getText();                         \
    }                                                                          \
    mlir::Type parseType(mlir::DialectAsmParser &parser) const override {      \
      return TextType::get(getContext(), parser.getFullSymbolSpec());          \
    }                                                                          \
    void printType(mlir::Type type,                                            \
                   mlir::DialectAsmPrinter &printer) const override {          \
      printer << llvm::cast<TextType>(type).getText();                         \
    }                                                                          \
    /* One printer state for the context's lifetime (see tcc_print_type). */  \
    mlir::AsmState &printState() const {                                       \
      if (!state)                                                              \
        state = std::make_unique<mlir::AsmState>(getContext());                \
      return *state;                                                           \
    }                                                                          \
    uint64_t serial() const { return id; }                                     \
                                                                               \
  private:                                                                     \
    mutable std::unique_ptr<mlir::AsmState> state;                             \
    uint64_t id = nextSerial();                                                \
  };                                                                           \
  }

TCC_PASSTHROUGH_CLASSES(tpu, "tpu")
TCC_PASSTHROUGH_CLASSES(stablehlo, "stablehlo")

} // namespace tcc

MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::tpu::TextAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::tpu::TextAttr)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::tpu::TextType)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::tpu::TextType)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::tpu::PassThroughDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::tpu::PassThroughDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::stablehlo::TextAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::stablehlo::TextAttr)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::stablehlo::TextType)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::stablehlo::TextType)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::stablehlo::PassThroughDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::stablehlo::PassThroughDialect)

extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccTpu, tcc_tpu);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccStablehlo, tcc_stablehlo);
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccTpu, tcc_tpu,
                                      tcc::tpu::PassThroughDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccStablehlo, tcc_stablehlo,
                                      tcc::stablehlo::PassThroughDialect)

extern "C" {

/// The properties of `op` as one attribute (a dictionary for unregistered ops
/// and for most registered ones), or null when it has none. The C API has no
/// way to enumerate inherent attributes; this fills that gap and nothing more.
MlirAttribute tcc_operation_get_properties(MlirOperation op) {
  return wrap(unwrap(op)->getPropertiesAsAttribute());
}

/// Replaces the properties of `op` with `attr` (for an unregistered op: the
/// dictionary printed as `<{...}>`). The C API can create operations with
/// discardable attributes only; this fills that gap. Returns false if the op
/// rejects the attribute.
bool tcc_operation_set_properties(MlirOperation op, MlirAttribute attr) {
  return mlir::succeeded(
      unwrap(op)->setPropertiesFromAttribute(unwrap(attr), nullptr));
}

/// Whether `op` is a registered operation (known to a loaded dialect).
bool tcc_operation_is_registered(MlirOperation op) {
  return unwrap(op)->isRegistered();
}

/// The text of a pass-through `tpu` attribute (`reduction_kind<maxf>` for
/// `#tpu.reduction_kind<maxf>`), or a null string for any other attribute.
MlirStringRef tcc_tpu_attr_text(MlirAttribute attr) {
  if (auto text = llvm::dyn_cast<tcc::tpu::TextAttr>(unwrap(attr)))
    return wrap(text.getText());
  return mlirStringRefCreate(nullptr, 0);
}

/// The pass-through `tpu` attribute `#tpu.<text>`, as parsing it gives.
MlirAttribute tcc_tpu_attr_get(MlirContext ctx, MlirStringRef text) {
  return wrap(tcc::tpu::TextAttr::get(unwrap(ctx), unwrap(text)));
}

/// The pass-through `tpu` type `!tpu.<text>`, as parsing it gives (used by
/// the typed builders of `src/mosaic/attrs.rs`).
MlirType tcc_tpu_type_get(MlirContext ctx, MlirStringRef text) {
  return wrap(tcc::tpu::TextType::get(unwrap(ctx), unwrap(text)));
}

/// The producer string the bytecode writer uses by default.
const char *tcc_default_producer(void) { return "MLIR" LLVM_VERSION_STRING; }

/// The bytecode format version this MLIR writes by default.
int64_t tcc_current_bytecode_version(void) {
  return mlir::bytecode::kVersion;
}

}

// Printing a type or attribute through the C API builds a fresh printer state
// each time (it collects and sorts every loaded dialect's interfaces: most of
// the cost of printing a small type) and hands the text over one piece at a
// time. These print through one state kept by the context's `tpu` dialect
// (created on first use, destroyed with the context) and hand over the whole
// text at once. A state built from a context alone holds no aliases, so the
// text is what `mlirTypePrint` gives, except for `distinct` attributes, whose
// numbering the state keeps: text with one is printed again through a fresh
// state.
static mlir::AsmState *sharedPrintState(mlir::MLIRContext *ctx) {
  auto *dialect = ctx->getLoadedDialect<tcc::tpu::PassThroughDialect>();
  return dialect ? &dialect->printState() : nullptr;
}

template <typename T>
static void printShared(T value, MlirStringCallback callback, void *user_data) {
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    if (mlir::AsmState *state = sharedPrintState(value.getContext()))
      value.print(os, *state);
  }
  if (text.empty() || text.find("distinct[") != std::string::npos) {
    text.clear();
    llvm::raw_string_ostream os(text);
    value.print(os);
  }
  callback(mlirStringRefCreate(text.data(), text.size()), user_data);
}

extern "C" {

uint64_t tcc_context_serial(MlirContext ctx) {
  auto *dialect =
      unwrap(ctx)->getLoadedDialect<tcc::tpu::PassThroughDialect>();
  return dialect ? dialect->serial() : 0;
}

void tcc_print_type(MlirType type, MlirStringCallback callback,
                    void *user_data) {
  printShared(unwrap(type), callback, user_data);
}

void tcc_print_attribute(MlirAttribute attr, MlirStringCallback callback,
                         void *user_data) {
  printShared(unwrap(attr), callback, user_data);
}
}
