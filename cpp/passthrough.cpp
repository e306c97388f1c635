// Pass-through dialects for `tpu`, `stablehlo`, `sdy` and `chlo`, and a bytecode writer with a
// settable producer string.
//
// Upstream MLIR does not have the `tpu` (Mosaic) or `stablehlo` dialects. With
// unregistered dialects allowed, MLIR handles their *operations* (generic form)
// and most of their attributes as opaque attributes, but three things fail:
//   * `memref<8x128xf32, #tpu.memory_space<vmem>>`: an OpaqueAttr is rejected as
//     a memref memory space;
//   * `memref<2x!tpu.dma_semaphore>`: an OpaqueType is not a valid memref
//     element type;
//   * `memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, ...>`: a memref layout must
//     implement MemRefLayoutAttrInterface.
// So we register tiny dialects named `tpu` and `stablehlo` whose attribute
// class and type class keep the full symbol text (`memory_space<vmem>`) and
// print it back verbatim. The type implements MemRefElementTypeInterface so it
// can be a memref element. The `tpu` dialect has a second attribute class, for
// the `tiled` mnemonic only: it keeps and prints its text the same way and
// implements MemRefLayoutAttrInterface as jaxlib 0.12's TiledLayoutAttr does
// (see TiledAttr). Both dialects allow unknown operations, so their ops keep
// parsing in generic form.
//
// There is no logic here beyond parse/print and what the layout interface
// requires: everything else lives in Rust. The file is compiled with -fno-rtti
// to match the LLVM build; every class has an explicit TypeID.

#include "tcc.h"
#include "asm_format.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Bytecode/Encoding.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir-c/IR.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

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

// Storage of `#tpu.tiled<...>`: the symbol text, uniqued, and what it says
// (read from the text once, when it is parsed): the tiles, flattened, the rank
// of each, and the tile strides (`?` is ShapedType::kDynamic).
struct TiledKey {
  llvm::StringRef text;
  llvm::ArrayRef<int64_t> tileDims;
  llvm::ArrayRef<int64_t> tileRanks;
  llvm::ArrayRef<int64_t> strides;
};

struct TiledStorage : public mlir::AttributeStorage {
  using KeyTy = TiledKey;
  explicit TiledStorage(const TiledKey &key) : key(key) {}
  // The parsed parts follow from the text: it alone identifies the attribute.
  bool operator==(const KeyTy &other) const { return other.text == key.text; }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(key.text);
  }
  static TiledStorage *construct(mlir::AttributeStorageAllocator &allocator,
                                 const KeyTy &key) {
    TiledKey copy{allocator.copyInto(key.text),
                  allocator.copyInto(key.tileDims),
                  allocator.copyInto(key.tileRanks),
                  allocator.copyInto(key.strides)};
    return new (allocator.allocate<TiledStorage>()) TiledStorage(copy);
  }
  TiledKey key;
};

} // namespace detail

// A number per dialect instance, never reused in the process: it names a
// context for caches kept across calls (see tcc_context_serial).
inline uint64_t nextSerial() {
  static std::atomic<uint64_t> next{0};
  return ++next;
}

namespace tpu {

// `#tpu.tiled<(8,128)(2,1),[1,1]>`, the layout Mosaic gives memrefs (jaxlib's
// TiledLayoutAttr): a list of tiles, then one tile stride per memref
// dimension. Parsed with jaxlib 0.12's grammar (the same parser calls, so the
// same accepted forms and messages; `?` is a dynamic stride), printed back as
// its text. The layout interface answers as jaxlib 0.12 does:
//   * verifyLayout: the number of strides must be the memref's rank, else
//     "Layout rank does not match shape rank" (jaxlib checks nothing else);
//   * getAffineMap: jaxlib's map, tile by tile (see below); isIdentity and
//     getStridesAndOffset are the interface defaults, computed from it, as in
//     jaxlib (so `vector.load` refuses an (8,128)-tiled memref there and here).
// Where jaxlib's getAffineMap crashes (a tile of higher rank than the dims it
// tiles, nested tiles that do not divide the first one or divide by zero),
// and for nested tiles of negative size, this one returns a map without
// results: not the identity and without strides (unless the memref has
// rank 0).
class TiledAttr
    : public mlir::Attribute::AttrBase<TiledAttr, mlir::Attribute,
                                       detail::TiledStorage,
                                       mlir::MemRefLayoutAttrInterface::Trait> {
public:
  using Base::Base;
  static constexpr llvm::StringLiteral name = "tpu.tiled";

  // Whether `spec` (the text after `#tpu.`) has the mnemonic `tiled`.
  static bool isTiled(llvm::StringRef spec) {
    if (!spec.consume_front("tiled"))
      return false;
    if (spec.empty())
      return true;
    char c = spec.front();
    return !(llvm::isAlnum(c) || c == '_' || c == '$' || c == '.');
  }

  // jaxlib 0.12's TiledLayoutAttr::parse, after the mnemonic.
  static mlir::Attribute parse(mlir::DialectAsmParser &parser) {
    llvm::StringRef text = parser.getFullSymbolSpec();
    if (mlir::failed(parser.parseKeyword("tiled")) ||
        mlir::failed(parser.parseLess()))
      return {};
    llvm::SmallVector<int64_t> dims, ranks, strides;
    while (mlir::succeeded(parser.parseOptionalLParen())) {
      int64_t rank = 0;
      while (mlir::failed(parser.parseOptionalRParen())) {
        int64_t size;
        if ((rank > 0 && mlir::failed(parser.parseComma())) ||
            mlir::failed(parser.parseInteger(size)))
          return {};
        dims.push_back(size);
        ++rank;
      }
      ranks.push_back(rank);
    }
    if (mlir::failed(parser.parseComma()) ||
        mlir::failed(parser.parseOptionalLSquare()))
      return {};
    while (mlir::failed(parser.parseOptionalRSquare())) {
      int64_t stride;
      if (!strides.empty() && mlir::failed(parser.parseComma()))
        return {};
      if (mlir::succeeded(parser.parseOptionalQuestion()))
        stride = mlir::ShapedType::kDynamic;
      else if (mlir::failed(parser.parseInteger(stride)))
        return {};
      strides.push_back(stride);
    }
    if (mlir::failed(parser.parseGreater()))
      return {};
    return Base::get(parser.getContext(),
                     detail::TiledKey{text, dims, ranks, strides});
  }

  llvm::StringRef getText() const { return getImpl()->key.text; }
  llvm::ArrayRef<int64_t> getTileStrides() const {
    return getImpl()->key.strides;
  }

  mlir::LogicalResult
  verifyLayout(llvm::ArrayRef<int64_t> shape,
               llvm::function_ref<mlir::InFlightDiagnostic()> emitError) const {
    if (getTileStrides().size() != shape.size())
      return emitError() << "Layout rank does not match shape rank";
    return mlir::success();
  }

  // jaxlib's map: start from the dims (d0, ..., dn); each tile replaces the
  // trailing dims it tiles by their floordiv by the tile, then their mod; the
  // result is the sum of these times the expanded strides (a symbol for each
  // dynamic one). Arithmetic wraps, as it does in jaxlib.
  mlir::AffineMap getAffineMap() const {
    mlir::MLIRContext *ctx = getContext();
    const detail::TiledKey &key = getImpl()->key;
    unsigned rank = key.strides.size();
    mlir::AffineMap none = mlir::AffineMap::get(rank, 0, {}, ctx);
    llvm::SmallVector<int64_t> strides;
    if (!expandedStrides(strides))
      return none;
    llvm::SmallVector<mlir::AffineExpr> exprs;
    for (unsigned i = 0; i < rank; ++i)
      exprs.push_back(mlir::getAffineDimExpr(i, ctx));
    llvm::ArrayRef<int64_t> dims = key.tileDims;
    for (int64_t tileRank : key.tileRanks) {
      llvm::ArrayRef<int64_t> tile = dims.take_front(tileRank);
      dims = dims.drop_front(tileRank);
      if (tile.size() > exprs.size())
        return none;
      size_t untiled = exprs.size() - tile.size();
      for (size_t i = 0; i < tile.size(); ++i) {
        mlir::AffineExpr tiled = exprs[untiled + i];
        exprs[untiled + i] = tiled.floorDiv(tile[i]);
        exprs.push_back(tiled % tile[i]);
      }
    }
    if (strides.size() != exprs.size())
      return none;
    unsigned symbols = 0;
    mlir::AffineExpr result = mlir::getAffineConstantExpr(0, ctx);
    for (size_t i = 0; i < exprs.size(); ++i) {
      mlir::AffineExpr stride =
          mlir::ShapedType::isDynamic(strides[i])
              ? mlir::getAffineSymbolExpr(symbols++, ctx)
              : mlir::getAffineConstantExpr(strides[i], ctx);
      result = result + exprs[i] * stride;
    }
    return mlir::AffineMap::get(rank, symbols, result);
  }

private:
  static int64_t wrappingMul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) *
                                static_cast<uint64_t>(b));
  }

  // jaxlib's getExpandedStrides: the tile strides times the first tile's
  // size, then the strides inside the first tile as the nested tiles expand
  // it. False where jaxlib aborts: a nested tile that does not divide what it
  // tiles (or divides by zero), or tiles more dims than there are; and for a
  // nested tile of negative size, on which jaxlib goes on (a negative size
  // "divides" everything) and nests the map one level deeper per tile.
  bool expandedStrides(llvm::SmallVectorImpl<int64_t> &strides) const {
    const detail::TiledKey &key = getImpl()->key;
    strides.assign(key.strides.begin(), key.strides.end());
    if (key.tileRanks.empty())
      return true;
    llvm::ArrayRef<int64_t> dims = key.tileDims;
    llvm::ArrayRef<int64_t> first = dims.take_front(key.tileRanks.front());
    dims = dims.drop_front(first.size());
    llvm::SmallVector<int64_t> shape(first.begin(), first.end());
    for (int64_t tileRank : key.tileRanks.drop_front()) {
      llvm::ArrayRef<int64_t> tile = dims.take_front(tileRank);
      dims = dims.drop_front(tileRank);
      if (tile.size() > shape.size())
        return false;
      size_t at = shape.size() - tile.size();
      llvm::SmallVector<int64_t> tiled(2 * tile.size());
      for (size_t i = 0; i < tile.size(); ++i) {
        int64_t size = shape[at + i];
        if (mlir::ShapedType::isDynamic(size) || tile[i] < 1 ||
            size % tile[i] != 0)
          return false;
        // llvm::divideCeil on int64_t values divides them as unsigned.
        tiled[i] = static_cast<int64_t>(llvm::divideCeil(
            static_cast<uint64_t>(size), static_cast<uint64_t>(tile[i])));
        tiled[tile.size() + i] = tile[i];
      }
      shape.resize(at);
      shape.append(tiled.begin(), tiled.end());
    }
    int64_t firstSize = 1;
    for (int64_t d : first)
      firstSize = wrappingMul(firstSize, d);
    size_t rank = strides.size();
    strides.resize(rank + shape.size());
    int64_t tileSize = 1;
    for (size_t d = strides.size(); d-- > 0;) {
      if (d >= rank) {
        strides[d] = tileSize;
        tileSize = wrappingMul(tileSize, shape[d - rank]);
      } else if (!mlir::ShapedType::isDynamic(strides[d])) {
        strides[d] = wrappingMul(strides[d], firstSize);
      }
    }
    return true;
  }
};

} // namespace tpu

// One attribute class, one type class and one dialect class per namespace,
// plus LAYOUT (a memref layout attribute class for one mnemonic, or void). A
// macro keeps the two namespaces identical; each class needs its own TypeID.
#define TCC_PASSTHROUGH_CLASSES(NS, NAME, LAYOUT)                              \
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
      addLayout<LAYOUT>();                                                     \
      addTypes<TextType>();                                                    \
      allowUnknownOperations();                                                \
      allowUnknownTypes();                                                     \
    }                                                                          \
    static constexpr llvm::StringLiteral getDialectNamespace() {               \
      return NAME;                                                             \
    }                                                                          \
    /* The custom (pretty) form of the ops of asm_format.cpp's table. */       \
    std::optional<ParseOpHook>                                                 \
    getParseOperationHook(llvm::StringRef opName) const override {             \
      return asmfmt::parseHook(opName);                                        \
    }                                                                          \
    llvm::unique_function<void(mlir::Operation *, mlir::OpAsmPrinter &)>       \
    getOperationPrinter(mlir::Operation *op) const override {                  \
      return asmfmt::printHook(op);                                            \
    }                                                                          \
    void *getRegisteredInterfaceForOp(mlir::TypeID iface,                      \
                                      mlir::OperationName name) override {     \
      return asmfmt::interfaceFor(iface, name);                                \
    }                                                                          \
    mlir::Attribute parseAttribute(mlir::DialectAsmParser &parser,             \
                                   mlir::Type) const override {                \
      llvm::StringRef spec = parser.getFullSymbolSpec();                       \
      if (isLayout<LAYOUT>(spec))                                              \
        return parseLayout<LAYOUT>(parser);                                    \
      return TextAttr::get(getContext(), spec);                                \
    }                                                                          \
    void printAttribute(mlir::Attribute attr,                                  \
                        mlir::DialectAsmPrinter &printer) const override {     \
      if (auto text = llvm::dyn_cast<TextAttr>(attr))                          \
        printer << text.getText();                                             \
      else                                                                     \
        printLayout<LAYOUT>(attr, printer);                                    \
    }                                                                          \
    mlir::Type parseType(mlir::DialectAsmParser &parser) const override {      \
      return TextType::get(getContext(), parser.getFullSymbolSpec());          \
    }                                                                          \
    void printType(mlir::Type type,                                            \
                   mlir::DialectAsmPrinter &printer) const override {          \
      printer << llvm::cast<TextType>(type).getText();                         \
    }                                                                          \
    /* One printer state for the context's lifetime (see tcc_print_type),    \
       used under its lock (passes may print from several threads). */        \
    mlir::AsmState &printState(std::unique_lock<std::mutex> &lock) const {     \
      lock = std::unique_lock<std::mutex>(stateMutex);                         \
      if (!state)                                                              \
        state = std::make_unique<mlir::AsmState>(getContext());                \
      return *state;                                                           \
    }                                                                          \
    uint64_t serial() const { return id; }                                     \
    /* Whether ops of the custom-form table print in it in this context      \
       (`tpu` ops: set only in a plugin host, see                            \
       tcc_register_passthrough_dialects; the crate prints them from text). */ \
    bool printsCustomForm = false;                                             \
                                                                               \
  private:                                                                     \
    /* The LAYOUT hooks; a no-op when it is void. */                           \
    template <typename L> void addLayout() {                                   \
      if constexpr (!std::is_void_v<L>)                                        \
        addAttributes<L>();                                                    \
    }                                                                          \
    template <typename L> static bool isLayout(llvm::StringRef spec) {         \
      if constexpr (std::is_void_v<L>)                                         \
        return false;                                                          \
      else                                                                     \
        return L::isTiled(spec);                                               \
    }                                                                          \
    template <typename L>                                                      \
    static mlir::Attribute parseLayout(mlir::DialectAsmParser &parser) {       \
      if constexpr (std::is_void_v<L>)                                         \
        return {};                                                             \
      else                                                                     \
        return L::parse(parser);                                               \
    }                                                                          \
    template <typename L>                                                      \
    static void printLayout(mlir::Attribute attr,                              \
                            mlir::DialectAsmPrinter &printer) {                \
      if constexpr (!std::is_void_v<L>)                                        \
        printer << llvm::cast<L>(attr).getText();                              \
    }                                                                          \
    mutable std::unique_ptr<mlir::AsmState> state;                             \
    mutable std::mutex stateMutex;                                             \
    uint64_t id = nextSerial();                                                \
  };                                                                           \
  }

TCC_PASSTHROUGH_CLASSES(tpu, "tpu", TiledAttr)
TCC_PASSTHROUGH_CLASSES(stablehlo, "stablehlo", void)
TCC_PASSTHROUGH_CLASSES(sdy, "sdy", void)
TCC_PASSTHROUGH_CLASSES(chlo, "chlo", void)

} // namespace tcc

MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::tpu::TextAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::tpu::TextAttr)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::tpu::TiledAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::tpu::TiledAttr)
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
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::sdy::TextAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::sdy::TextAttr)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::sdy::TextType)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::sdy::TextType)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::sdy::PassThroughDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::sdy::PassThroughDialect)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::chlo::TextAttr)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::chlo::TextAttr)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::chlo::TextType)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::chlo::TextType)
MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::chlo::PassThroughDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::chlo::PassThroughDialect)

namespace tcc {

mlir::Attribute passthroughAttr(mlir::MLIRContext *ctx,
                                llvm::StringRef dialect,
                                llvm::StringRef text) {
  if (dialect == "stablehlo")
    return stablehlo::TextAttr::get(ctx, text);
  if (dialect == "sdy")
    return sdy::TextAttr::get(ctx, text);
  if (dialect == "tpu")
    return tpu::TextAttr::get(ctx, text);
  if (dialect == "chlo")
    return chlo::TextAttr::get(ctx, text);
  return {};
}

bool tpuPrintsCustomForm(mlir::MLIRContext *ctx) {
  auto *d = ctx->getLoadedDialect<tpu::PassThroughDialect>();
  return d && d->printsCustomForm;
}

std::optional<llvm::StringRef> passthroughText(mlir::Attribute attr,
                                               llvm::StringRef dialect) {
  if (!attr)
    return std::nullopt;
  if (dialect == "stablehlo")
    if (auto t = llvm::dyn_cast<stablehlo::TextAttr>(attr))
      return t.getText();
  if (dialect == "sdy")
    if (auto t = llvm::dyn_cast<sdy::TextAttr>(attr))
      return t.getText();
  if (dialect == "tpu")
    if (auto t = llvm::dyn_cast<tpu::TextAttr>(attr))
      return t.getText();
  if (dialect == "chlo")
    if (auto t = llvm::dyn_cast<chlo::TextAttr>(attr))
      return t.getText();
  return std::nullopt;
}

} // namespace tcc

extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccTpu, tcc_tpu);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccStablehlo, tcc_stablehlo);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccSdy, tcc_sdy);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TccChlo, tcc_chlo);
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccTpu, tcc_tpu,
                                      tcc::tpu::PassThroughDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccStablehlo, tcc_stablehlo,
                                      tcc::stablehlo::PassThroughDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccSdy, tcc_sdy,
                                      tcc::sdy::PassThroughDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TccChlo, tcc_chlo,
                                      tcc::chlo::PassThroughDialect)

/// Registers the pass-through dialects (`tpu`, `stablehlo`, `sdy`, `chlo`, with the
/// custom assembly of asm_format.cpp) in `registry`: what a host that is not
/// our crate (an `mlir-opt` plugin) calls.
void tcc_register_passthrough_dialects(mlir::DialectRegistry &registry) {
  // In a host other than the crate (mlir-opt), MLIR prints the `tpu` ops:
  // in their custom form, as jaxlib does. The crate's own contexts (made
  // without this registry) keep printing them generic, which its text-level
  // printer (src/pretty) turns into the custom form.
  registry.addExtension(+[](mlir::MLIRContext *, tcc::tpu::PassThroughDialect *d) {
    d->printsCustomForm = true;
  });
  registry.insert<tcc::tpu::PassThroughDialect,
                  tcc::stablehlo::PassThroughDialect,
                  tcc::sdy::PassThroughDialect,
                  tcc::chlo::PassThroughDialect>();
}

extern "C" {

/// The properties of `op` as one attribute (a dictionary for unregistered ops
/// and for most registered ones), or null when it has none. The C API has no
/// way to enumerate inherent attributes; this fills that gap and nothing more.
MlirAttribute tcc_operation_get_properties(MlirOperation op) {
  return wrap(unwrap(op)->getPropertiesAsAttribute());
}

/// Gives `op`, if registered, the default value of each default-valued
/// property it lacks, as MLIR's text parser does when it creates an op.
/// `mlirOperationCreate` with the property among the plain attributes
/// missing leaves it null (an `arith.addf` re-created from a body without
/// `fastmath`), and the op's custom printer then dereferences it (found by
/// the `inspect` fuzz target: a segfault).
void tcc_operation_populate_default_properties(MlirOperation op) {
  mlir::Operation *o = unwrap(op);
  if (o->isRegistered() && o->getPropertiesStorageSize() != 0)
    o->getName().populateDefaultProperties(o->getPropertiesStorage());
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
/// `#tpu.reduction_kind<maxf>`, `tiled<(8,128),[1,1]>` for a tiled layout), or
/// a null string for any other attribute.
MlirStringRef tcc_tpu_attr_text(MlirAttribute attr) {
  if (auto text = llvm::dyn_cast<tcc::tpu::TextAttr>(unwrap(attr)))
    return wrap(text.getText());
  if (auto tiled = llvm::dyn_cast<tcc::tpu::TiledAttr>(unwrap(attr)))
    return wrap(tiled.getText());
  return mlirStringRefCreate(nullptr, 0);
}

/// The pass-through `tpu` attribute `#tpu.<text>`, as parsing it gives. A
/// `tiled<...>` text is parsed (a tiled layout); if it does not parse, the
/// result is the plain text attribute, and the diagnostics are dropped.
MlirAttribute tcc_tpu_attr_get(MlirContext ctx, MlirStringRef text) {
  mlir::MLIRContext *context = unwrap(ctx);
  llvm::StringRef spec = unwrap(text);
  if (tcc::tpu::TiledAttr::isTiled(spec)) {
    mlir::ScopedDiagnosticHandler quiet(
        context, [](mlir::Diagnostic &) { return mlir::success(); });
    context->getOrLoadDialect<tcc::tpu::PassThroughDialect>();
    if (mlir::Attribute attr =
            mlir::parseAttribute(("#tpu." + spec).str(), context))
      if (llvm::isa<tcc::tpu::TiledAttr>(attr))
        return wrap(attr);
  }
  return wrap(tcc::tpu::TextAttr::get(context, spec));
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
static mlir::AsmState *sharedPrintState(mlir::MLIRContext *ctx,
                                        std::unique_lock<std::mutex> &lock) {
  auto *dialect = ctx->getLoadedDialect<tcc::tpu::PassThroughDialect>();
  return dialect ? &dialect->printState(lock) : nullptr;
}

template <typename T>
static void printShared(T value, MlirStringCallback callback, void *user_data) {
  std::string text;
  bool shared = false;
  {
    llvm::raw_string_ostream os(text);
    std::unique_lock<std::mutex> lock;
    if (mlir::AsmState *state = sharedPrintState(value.getContext(), lock)) {
      value.print(os, *state);
      shared = true;
    }
  }
  if (!shared || text.find("distinct[") != std::string::npos) {
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
