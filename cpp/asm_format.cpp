// An interpreter of ODS declarative assembly formats for unregistered ops (see
// asm_format.h). Each op of the table gives its operand, result, attribute and
// region names (as the .td declares them) and its `assemblyFormat` verbatim;
// the format is read once into a tree of elements, which the parser and the
// printer walk. Printing follows the spacing rules of mlir-tblgen's generated
// printers (OpFormatGen.cpp), so the text is what the registered op prints.
// Parsing a format that does not fit the op, or printing an op that does not
// fit its format (a missing attribute, an attribute of another kind), never
// aborts: the parser reports a diagnostic, the printer falls back to the
// generic form.

#include "asm_format.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpAsmSupport.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace mlir;
using llvm::SmallVector;
using llvm::StringRef;

namespace tcc {
namespace asmfmt {
namespace {

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

// One op: names as in the .td (`operands`: `*` marks a variadic group, `?` an
// optional one; `attrs`: `name:kind` or `name:kind=default`, the default as
// the attribute prints, `=!default` when the parser stores it if absent;
// `implied`: `operand=result` or `result=operand` groups whose types the
// format leaves to a trait) and the `assemblyFormat`, verbatim. Attribute
// kinds: i64arr (DenseI64ArrayAttr), i64 / i32 (IntegerAttr), bool, str,
// sym (a StringAttr written as a symbol name), any, i32enum.A,B,.. (an
// integer enum written as its case name), enum.M (a StableHLO enum
// `#stablehlo<M VALUE>`, written `VALUE`), sdy.M (a Shardy attribute
// `#sdy.M<...>` / `#sdy<M{...}>`, written without its prefix).
struct OpSpec {
  const char *name;
  const char *operands;
  const char *results;
  const char *attrs;
  const char *regions;
  const char *implied;
  const char *format;
};

#define UNARY_FORMAT                                                           \
  "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), "  \
  "type($result))"
#define BINARY_FORMAT                                                          \
  "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), " \
  "type($rhs), type($result))"
#define RESULT_ACCURACY "result_accuracy:any"
#define UNARY(NAME) {"stablehlo." NAME, "operand", "result", "", "", "", UNARY_FORMAT}
#define UNARY_ACC(NAME)                                                        \
  {"stablehlo." NAME, "operand", "result", RESULT_ACCURACY, "", "", UNARY_FORMAT}
#define BINARY(NAME) {"stablehlo." NAME, "lhs rhs", "result", "", "", "", BINARY_FORMAT}
#define FUNCTIONAL "attr-dict `:` functional-type(operands, results)"
#define CHLO_UNARY(NAME)                                                       \
  {"chlo." NAME, "operand", "result", "", "", "",                              \
   "$operand attr-dict `:` type($operand) `->` type($result)"}
#define CHLO_BCAST_ATTRS(NAME, ATTRS)                                           \
  {"chlo.broadcast_" NAME, "lhs rhs", "result", ATTRS, "", "",                 \
   "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` "       \
   "type(results)"}
#define CHLO_BCAST(NAME) CHLO_BCAST_ATTRS(NAME, "broadcast_dimensions:any")
#define CHLO_BINARY(NAME, A, B)                                                \
  {"chlo." NAME, A " " B, "result", "", "", "",                                \
   "$" A " `,` $" B " attr-dict `:` type($" A ") `,` type($" B                 \
   ") `->` type(results)"}

const OpSpec kOps[] = {
    // StableHLO (stablehlo/dialect/StablehloOps.td).
    {"stablehlo.iota", "", "output", "iota_dimension:i64", "", "",
     "`dim` `=` $iota_dimension attr-dict `:` type($output)"},
    {"stablehlo.dynamic_iota", "output_shape", "result", "iota_dimension:i64",
     "", "", "$output_shape `,` `dim` `=` $iota_dimension " FUNCTIONAL},
    {"stablehlo.create_token", "", "output", "", "", "",
     "attr-dict `:` type(results)"},
    UNARY("abs"), UNARY_ACC("cbrt"), UNARY("ceil"), UNARY("convert"),
    UNARY("count_leading_zeros"), UNARY_ACC("cosine"), UNARY_ACC("exponential"),
    UNARY_ACC("exponential_minus_one"), UNARY("floor"), UNARY("imag"),
    {"stablehlo.is_finite", "x", "y", "", "", "",
     "operands attr-dict `:` functional-type(operands, results)"},
    UNARY_ACC("log"), UNARY_ACC("log_plus_one"), UNARY_ACC("logistic"),
    UNARY("not"), UNARY("negate"), UNARY("popcnt"), UNARY("real"),
    UNARY("round_nearest_afz"), UNARY("round_nearest_even"), UNARY_ACC("rsqrt"),
    UNARY("sign"), UNARY_ACC("sine"), UNARY_ACC("sqrt"), UNARY_ACC("tan"),
    UNARY_ACC("tanh"), UNARY("uniform_quantize"), UNARY("uniform_dequantize"),
    BINARY("add"), BINARY("atan2"),
    {"stablehlo.complex", "lhs rhs", "result", "", "", "",
     "operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), "
     "type($result))"},
    BINARY("divide"), BINARY("maximum"), BINARY("minimum"), BINARY("multiply"),
    BINARY("power"), BINARY("remainder"), BINARY("shift_left"),
    BINARY("shift_right_arithmetic"), BINARY("shift_right_logical"),
    BINARY("subtract"), BINARY("and"), BINARY("or"), BINARY("xor"),
    {"stablehlo.replica_id", "", "result", "", "", "", "attr-dict `:` type(results)"},
    {"stablehlo.partition_id", "", "result", "", "", "", "attr-dict `:` type(results)"},
    {"stablehlo.after_all", "inputs*", "result", "", "", "",
     "$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>("
     "ref($inputs), type($inputs), type($result))"},
    {"stablehlo.get_tuple_element", "operand", "result", "index:i32", "", "",
     "$operand `[` $index `]` " FUNCTIONAL},
    {"stablehlo.tuple", "val*", "result", "", "", "",
     "$val attr-dict `:` custom<TupleOpType>(type($val), type($result))"},
    {"stablehlo.compare", "lhs rhs", "result",
     "comparison_direction:enum.comparison_direction "
     "compare_type:enum.comparison_type",
     "", "",
     "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? " FUNCTIONAL},
    {"stablehlo.dynamic_slice", "operand start_indices*", "result",
     "slice_sizes:i64arr", "", "",
     "$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` "
     "`=` $slice_sizes " FUNCTIONAL},
    {"stablehlo.dynamic_update_slice", "operand update start_indices*",
     "result", "", "", "", "operands " FUNCTIONAL},
    {"stablehlo.bitcast_convert", "operand", "result", "", "", "",
     "operands " FUNCTIONAL},
    {"stablehlo.broadcast", "operand", "result", "broadcast_sizes:i64arr", "",
     "", "$operand `,` `sizes` `=` $broadcast_sizes " FUNCTIONAL},
    {"stablehlo.broadcast_in_dim", "operand", "result",
     "broadcast_dimensions:i64arr", "", "",
     "$operand `,` `dims` `=` $broadcast_dimensions " FUNCTIONAL},
    {"stablehlo.cholesky", "a", "result", "lower:bool=false", "", "",
     "$a (`,` `lower` `=` $lower^)? attr-dict `:` "
     "custom<SameOperandsAndResultType>(type($a), type($result))"},
    {"stablehlo.clamp", "min operand max", "result", "", "", "",
     "$min `,` $operand `,` $max attr-dict `:` "
     "custom<SameOperandsAndResultType>(type($min), type($operand), "
     "type($max), type($result))"},
    {"stablehlo.concatenate", "inputs*", "result", "dimension:i64", "", "",
     "custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension " FUNCTIONAL},
    {"stablehlo.custom_call", "inputs*", "results*",
     "call_target_name:str has_side_effect:bool=false backend_config:any "
     "api_version:any=1 : i32 called_computations:any=[] "
     "operand_layouts:any result_layouts:any output_operand_aliases:any=[] "
     "result_tilings:any",
     "", "",
     "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` " FUNCTIONAL},
    {"stablehlo.dot", "lhs rhs", "result", "precision_config:any", "", "",
     "$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) " FUNCTIONAL},
    {"stablehlo.dot_general", "lhs rhs", "result",
     "dot_dimension_numbers:any precision_config:any algorithm:any", "", "",
     "$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` "
     "custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) " FUNCTIONAL},
    {"stablehlo.einsum", "lhs rhs", "result", "einsum_config:str", "", "",
     "$lhs `,` $rhs `,` `config` `=` $einsum_config " FUNCTIONAL},
    {"stablehlo.unary_einsum", "operand", "result", "einsum_config:str", "", "",
     "$operand `,` `config` `=` $einsum_config " FUNCTIONAL},
    {"stablehlo.fft", "operand", "result",
     "fft_type:enum.fft_type fft_length:i64arr", "", "",
     "$operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length " FUNCTIONAL},
    {"stablehlo.get_dimension_size", "operand", "result", "dimension:i64", "",
     "", "$operand `,` `dim` `=` $dimension " FUNCTIONAL},
    {"stablehlo.reshape", "operand", "result", "", "", "", "operands " FUNCTIONAL},
    {"stablehlo.dynamic_reshape", "operand output_shape", "result", "", "", "",
     "operands " FUNCTIONAL},
    {"stablehlo.select", "pred on_true on_false", "result", "", "", "",
     "operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), "
     "type($on_false), type($result))"},
    {"stablehlo.set_dimension_size", "operand size", "result", "dimension:i64",
     "", "", "$operand `,` $size `,` `dim` `=` $dimension " FUNCTIONAL},
    {"stablehlo.reverse", "operand", "result", "dimensions:i64arr", "", "",
     "$operand `,` `dims` `=` $dimensions attr-dict `:` "
     "custom<SameOperandsAndResultType>(type($operand), type($result))"},
    {"stablehlo.pad", "operand padding_value", "result",
     "edge_padding_low:i64arr edge_padding_high:i64arr interior_padding:i64arr",
     "", "",
     "$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` "
     "`=` $edge_padding_high `,` `interior` `=` $interior_padding " FUNCTIONAL},
    {"stablehlo.transpose", "operand", "result", "permutation:i64arr", "", "",
     "$operand `,` `dims` `=` $permutation " FUNCTIONAL},
    {"stablehlo.slice", "operand", "result",
     "start_indices:i64arr limit_indices:i64arr strides:i64arr", "", "",
     "$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) " FUNCTIONAL},
    {"stablehlo.return", "results*", "", "", "", "",
     "$results attr-dict (`:` type($results)^)?"},
    {"stablehlo.optimization_barrier", "operand*", "result*", "", "", "",
     "attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), "
     "type($result))):(`(` `)`)?"},
    {"stablehlo.rng", "a b shape", "result",
     "rng_distribution:enum.rng_distribution", "", "",
     "$a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution " FUNCTIONAL},
    {"stablehlo.rng_bit_generator", "initial_state", "output_state output",
     "rng_algorithm:enum.rng_algorithm", "", "",
     "$initial_state `,` `algorithm` `=` $rng_algorithm " FUNCTIONAL},
    {"stablehlo.reduce_precision", "operand", "output",
     "exponent_bits:i32 mantissa_bits:i32", "", "",
     "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, "
     "$mantissa_bits) attr-dict `:` "
     "custom<SameOperandsAndResultType>(type($operand), type($output))"},
    {"stablehlo.convolution", "lhs rhs", "result",
     "window_strides:any padding:any lhs_dilation:any rhs_dilation:any "
     "window_reversal:any dimension_numbers:any feature_group_count:i64 "
     "batch_group_count:i64 precision_config:any",
     "", "",
     "`(`operands`)` `dim_numbers` `=` "
     "custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` "
     "custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, "
     "$rhs_dilation, $window_reversal) `}` " FUNCTIONAL},
    {"stablehlo.dynamic_pad",
     "operand padding_value edge_padding_low edge_padding_high interior_padding",
     "result", "", "", "", "operands " FUNCTIONAL},
    {"stablehlo.composite", "inputs*", "results*",
     "name:str composite_attributes:any={} decomposition:any version:any=0 : i32",
     "", "", "$name operands attr-dict `:` functional-type(operands, results)"},
    // Shardy (shardy/dialect/sdy/ir/ops.td).
    {"sdy.mesh", "", "", "sym_name:sym mesh:sdy.mesh", "", "",
     "$sym_name `=` $mesh attr-dict"},
    {"sdy.sharding_constraint", "input", "result", "sharding:sdy.sharding", "",
     "input=result", "$input $sharding attr-dict `:` type($result)"},
    {"sdy.reshard", "input", "result", "sharding:sdy.sharding", "",
     "input=result", "$input $sharding attr-dict `:` type($result)"},
    {"sdy.return", "results*", "", "", "", "",
     "attr-dict ($results^ `:` type($results))?"},
    {"sdy.manual_computation", "tensors*", "results*",
     "in_shardings:sdy.sharding_per_value out_shardings:sdy.sharding_per_value "
     "manual_axes:sdy.manual_axes",
     "body", "",
     "`(`operands`)` "
     "`in_shardings````=```custom<StrippedTensorShardingPerValueAttr>($in_"
     "shardings) "
     "`out_shardings````=```custom<StrippedTensorShardingPerValueAttr>($out_"
     "shardings) "
     "`manual_axes````=```$manual_axes custom<SingleBlockRegionNoBlockId>($body) "
     "attr-dict `:` functional-type(operands, results)"},
    {"sdy.sharding_group", "input", "", "group_id:i64", "", "",
     "$input `group_id````=```$group_id attr-dict `:` type($input)"},
    {"sdy.propagation_barrier", "input", "result",
     "allowed_direction:i32enum.NONE,FORWARD,BACKWARD,BOTH", "", "result=input",
     "$input `allowed_direction````=```$allowed_direction attr-dict `:` "
     "type($input)"},
    {"sdy.func_data_flow_edge", "operand", "result", "", "", "operand=result",
     "$operand attr-dict `:` type($result)"},
    {"sdy.data_flow_edge", "input", "result", "sharding:sdy.sharding", "",
     "input=result",
     "$input (`sharding````=``` $sharding^)? attr-dict `:` type($result)"},
    {"sdy.all_gather", "tensor", "result",
     "gathering_axes:sdy.list_of_axis_ref_lists out_sharding:sdy.sharding", "",
     "tensor=result",
     "$gathering_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` "
     "type($result)"},
    {"sdy.all_slice", "tensor", "result",
     "slicing_axes:sdy.list_of_axis_ref_lists out_sharding:sdy.sharding", "",
     "tensor=result",
     "$slicing_axes $tensor `out_sharding````=```$out_sharding attr-dict `:` "
     "type($result)"},
    {"sdy.all_to_all", "tensor", "result",
     "params:sdy.all_to_all_param_list out_sharding:sdy.sharding", "",
     "tensor=result",
     "$params $tensor `out_sharding````=```$out_sharding attr-dict `:` "
     "type($result)"},
    {"sdy.collective_permute", "tensor", "result", "out_sharding:sdy.sharding",
     "", "tensor=result",
     "$tensor `out_sharding````=```$out_sharding attr-dict `:` type($result)"},
    {"sdy.all_reduce", "tensor", "result",
     "reduction_axes:sdy.axis_ref_list "
     "reduction_op:i32enum.sum,max,min=!0 : i32 out_sharding:sdy.sharding",
     "", "tensor=result",
     "($reduction_op^)? $reduction_axes $tensor `out_sharding````=```$out_"
     "sharding attr-dict `:` type($result)"},
    {"sdy.reduce_scatter", "tensor", "result",
     "reduce_scatter_axes:sdy.list_of_axis_ref_lists "
     "reduction_op:i32enum.sum,max,min=!0 : i32 out_sharding:sdy.sharding",
     "", "tensor=result",
     "($reduction_op^)? $reduce_scatter_axes $tensor `out_sharding````=```$out_"
     "sharding attr-dict `:` type($result)"},
    {"sdy.sharded_to_unreduced", "tensor", "result",
     "axes:sdy.list_of_axis_ref_lists out_sharding:sdy.sharding", "",
     "tensor=result",
     "$axes $tensor `out_sharding````=```$out_sharding attr-dict `:` "
     "type($result)"},
    {"sdy.replicated_to_unreduced", "tensor", "result",
     "axes:sdy.axis_ref_list out_sharding:sdy.sharding", "", "tensor=result",
     "$axes $tensor `out_sharding````=```$out_sharding attr-dict `:` "
     "type($result)"},
    {"sdy.named_computation", "operands*", "results*",
     "name:str in_shardings:any out_shardings:any", "body", "",
     "`<`$name`>` `` `(` $operands `)` "
     "(`in_shardings````=```custom<StrippedTensorShardingPerValueAttr>($in_"
     "shardings)^)? "
     "(`out_shardings````=```custom<StrippedTensorShardingPerValueAttr>($out_"
     "shardings)^)? custom<SingleBlockRegionNoBlockId>($body) attr-dict `:` "
     "functional-type($operands, results)"},
    // CHLO (stablehlo/dialect/ChloOps.td of jaxlib 0.12's StableHLO; the ops
    // without an assembly format, `constant_like` and `ragged_dot`, print
    // generic there too; `scan`'s hand-written form is not here: JAX 0.12
    // does not emit it).
    CHLO_UNARY("acos"), CHLO_UNARY("acosh"), CHLO_UNARY("_asin_acos_kernel"),
    CHLO_UNARY("asin"), CHLO_UNARY("asinh"), CHLO_UNARY("atan"),
    CHLO_UNARY("atanh"), CHLO_UNARY("bessel_i1e"), CHLO_UNARY("conj"),
    CHLO_UNARY("cosh"), CHLO_UNARY("sinh"), CHLO_UNARY("tan"),
    CHLO_UNARY("digamma"), CHLO_UNARY("erf"), CHLO_UNARY("erf_inv"),
    CHLO_UNARY("erfc"), CHLO_UNARY("is_inf"), CHLO_UNARY("is_neg_inf"),
    CHLO_UNARY("is_pos_inf"), CHLO_UNARY("lgamma"), CHLO_UNARY("square"),
    CHLO_BCAST("add"), CHLO_BCAST("atan2"), CHLO_BCAST("divide"),
    CHLO_BCAST("maximum"), CHLO_BCAST("minimum"), CHLO_BCAST("multiply"),
    CHLO_BCAST("next_after"), CHLO_BCAST("polygamma"), CHLO_BCAST("power"),
    CHLO_BCAST("remainder"), CHLO_BCAST("shift_left"),
    CHLO_BCAST("shift_right_arithmetic"), CHLO_BCAST("shift_right_logical"),
    CHLO_BCAST("subtract"), CHLO_BCAST("zeta"), CHLO_BCAST("and"),
    CHLO_BCAST("or"), CHLO_BCAST("xor"), CHLO_BCAST("complex"),
    CHLO_BCAST_ATTRS("compare", "broadcast_dimensions:any "
                                "comparison_direction:any compare_type:any"),
    {"chlo.broadcast_select", "pred on_true on_false", "result", "", "", "",
     "$pred `,` $on_true `,` $on_false attr-dict `:` `(` type($pred) `,` "
     "type($on_true) `,` type($on_false) `)` `->` type(results)"},
    CHLO_BINARY("next_after", "x", "y"), CHLO_BINARY("polygamma", "n", "x"),
    CHLO_BINARY("zeta", "x", "q"), CHLO_BINARY("mulhi", "lhs", "rhs"),
    {"chlo.top_k", "operand", "values indices", "k:i64 is_stable:bool=true", "",
     "",
     "`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` "
     "attr-dict `:` type($operand) `->` `(`type($values)`,` type($indices)`)`"},
};

#undef UNARY
#undef UNARY_ACC
#undef BINARY
#undef FUNCTIONAL
#undef CHLO_UNARY
#undef CHLO_BCAST
#undef CHLO_BCAST_ATTRS
#undef CHLO_BINARY

//===----------------------------------------------------------------------===//
// The format, read into elements
//===----------------------------------------------------------------------===//

struct Elem {
  enum Kind {
    Literal,  // `x` (text), `` (empty: no space), ` ` (a space)
    Var,      // $name
    AttrDict, // attr-dict (text: "keyword" for attr-dict-with-keyword)
    Operands, // operands
    Results,  // results
    TypeOf,   // type($x) / type(operands) / type(results): args[0]
    RefOf,    // ref($x): args[0]
    FuncType, // functional-type(a, b)
    Custom,   // custom<text>(args)
    Optional, // ( children )? or ( children ):( elseChildren )?
  } kind;
  std::string text;
  std::vector<Elem> args;
  std::vector<Elem> children, elseChildren;
  bool anchor = false;
};

enum class Group { None, Operand, Result, Attr, Region };

struct Named {
  std::string name;
  char mark = 0; // '*', '?' or 0
  std::string kind, dflt;
  // A `DefaultValuedAttr` (not optional): the parser stores the default when
  // the text leaves the attribute out (spelled `=!default` in the table).
  bool materialize = false;
};

struct Spec {
  std::string name;
  std::vector<Named> operands, results, attrs, regions;
  std::vector<std::pair<std::string, std::string>> implied;
  // `tpu` ops (from the crate's table, src/pretty/ops.rs): operands or
  // results of a fixed type the format leaves out (`device_id=i32`), and
  // whether the op has AttrSizedOperandSegments (`operandSegmentSizes`).
  std::vector<std::pair<std::string, std::string>> fixedTypes;
  bool segments = false;
  bool tpu = false;
  std::vector<Elem> elems;
  bool ok = true;
};

class FormatReader {
public:
  explicit FormatReader(StringRef text) : s(text) {}
  bool read(std::vector<Elem> &out) {
    if (!readList(out))
      return false;
    skipWs();
    return s.empty();
  }

private:
  void skipWs() { s = s.ltrim(); }
  bool readList(std::vector<Elem> &out) {
    while (true) {
      skipWs();
      if (s.empty() || s.front() == ')')
        return true;
      Elem e;
      if (!readElem(e))
        return false;
      skipWs();
      if (s.consume_front("^"))
        e.anchor = true;
      out.push_back(std::move(e));
    }
  }
  bool readIdent(std::string &out) {
    size_t n = 0;
    while (n < s.size() && (llvm::isAlnum(s[n]) || s[n] == '_' || s[n] == '-'))
      ++n;
    if (n == 0)
      return false;
    out = s.take_front(n).str();
    s = s.drop_front(n);
    return true;
  }
  bool readArgs(std::vector<Elem> &args) {
    skipWs();
    if (!s.consume_front("("))
      return false;
    while (true) {
      skipWs();
      if (s.consume_front(")"))
        return true;
      Elem e;
      if (!readElem(e))
        return false;
      args.push_back(std::move(e));
      skipWs();
      s.consume_front(",");
    }
  }
  bool readElem(Elem &e) {
    if (s.consume_front("`")) {
      // A literal; two backquotes in a row inside `...` are not used here,
      // except as the empty literal ``.
      size_t end = s.find('`');
      if (end == StringRef::npos)
        return false;
      e.kind = Elem::Literal;
      e.text = s.take_front(end).str();
      s = s.drop_front(end + 1);
      return true;
    }
    if (s.consume_front("$")) {
      e.kind = Elem::Var;
      return readIdent(e.text);
    }
    if (s.consume_front("(")) {
      e.kind = Elem::Optional;
      if (!readList(e.children) || !s.consume_front(")"))
        return false;
      skipWs();
      if (s.consume_front(":")) {
        skipWs();
        if (!s.consume_front("(") || !readList(e.elseChildren) ||
            !s.consume_front(")"))
          return false;
        skipWs();
      }
      return s.consume_front("?");
    }
    std::string word;
    if (!readIdent(word))
      return false;
    if (word == "attr-dict") {
      e.kind = Elem::AttrDict;
      return true;
    }
    if (word == "attr-dict-with-keyword") {
      e.kind = Elem::AttrDict;
      e.text = "keyword";
      return true;
    }
    if (word == "operands") {
      e.kind = Elem::Operands;
      return true;
    }
    if (word == "results") {
      e.kind = Elem::Results;
      return true;
    }
    if (word == "type") {
      e.kind = Elem::TypeOf;
      return readArgs(e.args) && e.args.size() == 1;
    }
    if (word == "ref") {
      e.kind = Elem::RefOf;
      return readArgs(e.args) && e.args.size() == 1;
    }
    if (word == "functional-type") {
      e.kind = Elem::FuncType;
      return readArgs(e.args) && e.args.size() == 2;
    }
    if (word == "custom") {
      e.kind = Elem::Custom;
      if (!s.consume_front("<"))
        return false;
      size_t end = s.find('>');
      if (end == StringRef::npos)
        return false;
      e.text = s.take_front(end).str();
      s = s.drop_front(end + 1);
      return readArgs(e.args);
    }
    return false;
  }
  StringRef s;
};

void splitNamed(StringRef list, std::vector<Named> &out, bool attrs) {
  SmallVector<StringRef> words;
  // Attribute defaults may hold spaces (`1 : i32`): split on ' ' but glue a
  // word without ':' to the previous default.
  list.split(words, ' ', -1, false);
  for (StringRef w : words) {
    if (attrs && !out.empty() && !out.back().dflt.empty() && !w.contains(':') &&
        !w.contains('.')) {
      out.back().dflt += " " + w.str();
      continue;
    }
    if (attrs && !out.empty() && !out.back().dflt.empty() &&
        w.starts_with(":") == false && w == "i32") {
      out.back().dflt += " " + w.str();
      continue;
    }
    if (attrs && !out.empty() && !out.back().dflt.empty() && w == ":") {
      out.back().dflt += " :";
      continue;
    }
    Named n;
    if (attrs) {
      auto [name, rest] = w.split(':');
      auto [kind, dflt] = rest.split('=');
      n.name = name.str();
      n.kind = kind.str();
      n.materialize = dflt.consume_front("!");
      n.dflt = dflt.str();
    } else {
      if (w.ends_with("*") || w.ends_with("?")) {
        n.mark = w.back();
        w = w.drop_back();
      }
      n.name = w.str();
    }
    out.push_back(std::move(n));
  }
}

const llvm::StringMap<std::unique_ptr<Spec>> &specs() {
  static llvm::StringMap<std::unique_ptr<Spec>> *table = [] {
    auto *map = new llvm::StringMap<std::unique_ptr<Spec>>();
    for (const OpSpec &op : kOps) {
      auto spec = std::make_unique<Spec>();
      spec->name = op.name;
      splitNamed(op.operands, spec->operands, false);
      splitNamed(op.results, spec->results, false);
      splitNamed(op.attrs, spec->attrs, true);
      splitNamed(op.regions, spec->regions, false);
      SmallVector<StringRef> pairs;
      StringRef(op.implied).split(pairs, ' ', -1, false);
      for (StringRef p : pairs) {
        auto [a, b] = p.split('=');
        spec->implied.emplace_back(a.str(), b.str());
      }
      spec->ok = FormatReader(op.format).read(spec->elems);
      (*map)[op.name] = std::move(spec);
    }
    return map;
  }();
  return *table;
}

// A `tpu` attribute kind of the crate's table in this engine's terms:
// `#tpu.reduction_kind` -> `tpuenum.reduction_kind`, `array<i32>` ->
// `arr.i32`; the others (i32, i64, si32, bool, str, any) as they are.
std::string tpuKind(StringRef kind) {
  if (kind.consume_front("#tpu."))
    return "tpuenum." + kind.str();
  if (kind.consume_front("array<") && kind.consume_back(">"))
    return "arr." + kind.str();
  return kind.str();
}

std::unique_ptr<Spec> tpuSpec(const TccTpuOpDef &def) {
  auto str = [](MlirStringRef s) { return StringRef(s.data, s.length); };
  auto spec = std::make_unique<Spec>();
  spec->name = ("tpu." + str(def.name)).str();
  spec->tpu = true;
  spec->segments = def.segments;
  splitNamed(str(def.operands), spec->operands, false);
  splitNamed(str(def.results), spec->results, false);
  SmallVector<StringRef> attrs;
  str(def.attrs).split(attrs, ';', -1, false);
  for (StringRef a : attrs) {
    a = a.trim();
    if (a.empty())
      continue;
    auto [name, rest] = a.split(':');
    auto [kind, dflt] = rest.split('=');
    Named n;
    n.name = name.trim().str();
    n.kind = tpuKind(kind.trim());
    n.dflt = dflt.trim().str();
    // Every default is stored when the text leaves it out, as jaxlib's
    // generic print shows (the crate does the same).
    n.materialize = !n.dflt.empty();
    spec->attrs.push_back(std::move(n));
  }
  SmallVector<StringRef> pairs;
  str(def.implied).split(pairs, ' ', -1, false);
  for (StringRef p : pairs) {
    auto [a, b] = p.split('=');
    if (b.consume_front("$"))
      spec->implied.emplace_back(a.str(), b.str());
    else
      spec->fixedTypes.emplace_back(a.str(), b.str());
  }
  spec->ok = FormatReader(str(def.format)).read(spec->elems);
  return spec;
}

const Spec *lookup(StringRef name) {
  if (name.starts_with("tpu.")) {
    static llvm::StringMap<std::unique_ptr<Spec>> *table = [] {
      auto *map = new llvm::StringMap<std::unique_ptr<Spec>>();
      size_t count = 0;
      const TccTpuOpDef *defs = tcc_rust_tpu_op_table(&count);
      for (size_t i = 0; i < count; ++i) {
        auto spec = tpuSpec(defs[i]);
        std::string key = spec->name;
        (*map)[key] = std::move(spec);
      }
      return map;
    }();
    auto it = table->find(name);
    if (it == table->end() || !it->second->ok)
      return nullptr;
    return it->second.get();
  }
  auto &map = specs();
  auto it = map.find(name);
  if (it == map.end() || !it->second->ok)
    return nullptr;
  return it->second.get();
}

const Named *find(const std::vector<Named> &list, StringRef name) {
  for (const Named &n : list)
    if (n.name == name)
      return &n;
  return nullptr;
}

int indexOf(const std::vector<Named> &list, StringRef name) {
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name)
      return static_cast<int>(i);
  return -1;
}

Group groupOf(const Spec &spec, StringRef name) {
  if (find(spec.operands, name))
    return Group::Operand;
  if (find(spec.results, name))
    return Group::Result;
  if (find(spec.attrs, name))
    return Group::Attr;
  if (find(spec.regions, name))
    return Group::Region;
  return Group::None;
}

// Every attribute a format element names (they are elided from attr-dict).
void collectAttrs(const Spec &spec, const std::vector<Elem> &elems,
                  SmallVectorImpl<StringRef> &out) {
  for (const Elem &e : elems) {
    if (e.kind == Elem::Var && groupOf(spec, e.text) == Group::Attr)
      out.push_back(e.text);
    collectAttrs(spec, e.args, out);
    collectAttrs(spec, e.children, out);
    collectAttrs(spec, e.elseChildren, out);
  }
}

//===----------------------------------------------------------------------===//
// Attribute kinds
//===----------------------------------------------------------------------===//

// The dialect of a pass-through attribute kind (`enum.M`: stablehlo,
// `sdy.M`: sdy) and its mnemonic.
std::pair<StringRef, StringRef> kindParts(StringRef kind) {
  auto [dialect, mnemonic] = kind.split('.');
  if (dialect == "enum")
    return {"stablehlo", mnemonic};
  return {dialect, mnemonic};
}

// Scans the balanced text that starts at `p` (one of `<[{(`), skipping string
// literals; returns its end, or null.
const char *balancedEnd(const char *p, const char *limit) {
  SmallVector<char> stack;
  for (; p < limit && *p; ++p) {
    char c = *p;
    if (c == '"') {
      for (++p; p < limit && *p && *p != '"'; ++p)
        if (*p == '\\' && p + 1 < limit)
          ++p;
      if (p >= limit || !*p)
        return nullptr;
      continue;
    }
    if (c == '-' && p + 1 < limit && p[1] == '>') {
      // An arrow (`0->1` in Shardy's all-to-all params), not a closer.
      ++p;
      continue;
    }
    if (c == '<' || c == '[' || c == '{' || c == '(') {
      stack.push_back(c == '<' ? '>' : c == '[' ? ']' : c == '{' ? '}' : ')');
    } else if (c == '>' || c == ']' || c == '}' || c == ')') {
      if (stack.empty() || stack.back() != c)
        return nullptr;
      stack.pop_back();
      if (stack.empty())
        return p + 1;
    } else if (stack.empty()) {
      return nullptr;
    }
  }
  return nullptr;
}

// Consumes one token of any kind; false if none could be consumed.
bool consumeToken(OpAsmParser &p) {
  std::string str;
  if (succeeded(p.parseOptionalString(&str)))
    return true;
  StringRef kw;
  if (succeeded(p.parseOptionalKeyword(&kw)))
    return true;
  if (succeeded(p.parseOptionalLess()) || succeeded(p.parseOptionalGreater()) ||
      succeeded(p.parseOptionalLSquare()) ||
      succeeded(p.parseOptionalRSquare()) ||
      succeeded(p.parseOptionalLBrace()) ||
      succeeded(p.parseOptionalRBrace()) ||
      succeeded(p.parseOptionalLParen()) ||
      succeeded(p.parseOptionalRParen()) ||
      succeeded(p.parseOptionalComma()) || succeeded(p.parseOptionalEqual()) ||
      succeeded(p.parseOptionalColon()) ||
      succeeded(p.parseOptionalQuestion()) ||
      succeeded(p.parseOptionalStar()) || succeeded(p.parseOptionalPlus()) ||
      succeeded(p.parseOptionalArrow()) ||
      succeeded(p.parseOptionalVerticalBar()) ||
      succeeded(p.parseOptionalEllipsis()))
    return true;
  llvm::APInt value;
  OptionalParseResult integer = p.parseOptionalInteger(value);
  if (integer.has_value())
    return succeeded(*integer);
  StringAttr sym;
  if (succeeded(p.parseOptionalSymbolName(sym)))
    return true;
  Attribute attr;
  OptionalParseResult any = p.parseOptionalAttribute(attr);
  return any.has_value() && succeeded(*any);
}

// Reads the balanced text at the parser's position (`<...>`, `[...]`,
// `{...}`) verbatim, moving the parser past it.
ParseResult parseRawBalanced(OpAsmParser &p, std::string &out) {
  SMLoc start = p.getCurrentLocation();
  const char *begin = start.getPointer();
  const char *end = begin ? balancedEnd(begin, begin + (1u << 30)) : nullptr;
  if (!end)
    return p.emitError(start, "expected a balanced `<...>`, `[...]` or `{...}`");
  out.assign(begin, end);
  while (p.getCurrentLocation().getPointer() < end)
    if (!consumeToken(p))
      return p.emitError(p.getCurrentLocation(), "unexpected token");
  if (p.getCurrentLocation().getPointer() < end)
    return failure();
  return success();
}

ParseResult parseI64List(OpAsmParser &p, SmallVectorImpl<int64_t> &out) {
  return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    return p.parseInteger(out.emplace_back());
  });
}

void printI64List(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

// Reads a keyword: required, or (`optional`) absent, which sets `present`
// to false and succeeds.
ParseResult parseWord(OpAsmParser &p, bool optional, bool &present,
                      StringRef &word) {
  if (!optional)
    return p.parseKeyword(&word);
  present = succeeded(p.parseOptionalKeyword(&word));
  return success();
}

// Parses an attribute of `kind`; `present` tells, for an optional group's
// anchor, whether it was there at all (then failures are errors).
ParseResult parseAttrKind(OpAsmParser &p, StringRef kind, Attribute &attr,
                          bool optional, bool &present) {
  MLIRContext *ctx = p.getContext();
  Builder b(ctx);
  present = true;
  if (kind == "i64arr") {
    if (optional && !p.getCurrentLocation().getPointer())
      return failure();
    SmallVector<int64_t> values;
    if (optional) {
      if (failed(p.parseOptionalLSquare())) {
        present = false;
        return success();
      }
      if (failed(p.parseOptionalRSquare())) {
        if (failed(p.parseCommaSeparatedList(
                [&] { return p.parseInteger(values.emplace_back()); })) ||
            p.parseRSquare())
          return failure();
      }
    } else if (parseI64List(p, values)) {
      return failure();
    }
    attr = b.getDenseI64ArrayAttr(values);
    return success();
  }
  if (kind == "i64" || kind == "i32" || kind == "si32") {
    int64_t value;
    if (optional) {
      OptionalParseResult r = p.parseOptionalInteger(value);
      if (!r.has_value()) {
        present = false;
        return success();
      }
      if (failed(*r))
        return failure();
    } else if (p.parseInteger(value)) {
      return failure();
    }
    if (kind == "i64")
      attr = b.getI64IntegerAttr(value);
    else if (kind == "i32")
      attr = b.getI32IntegerAttr(static_cast<int32_t>(value));
    else
      attr = IntegerAttr::get(IntegerType::get(ctx, 32, IntegerType::Signed),
                              value);
    return success();
  }
  if (kind == "sym") {
    StringAttr name;
    if (optional) {
      if (failed(p.parseOptionalSymbolName(name))) {
        present = false;
        return success();
      }
    } else if (p.parseSymbolName(name)) {
      return failure();
    }
    attr = name;
    return success();
  }
  if (kind.starts_with("tpuenum.") || kind.starts_with("arr.")) {
    // `<sum>` for `#tpu.reduction_kind<sum>`; `[1, 2]` for
    // `array<i32: 1, 2>`.
    bool isEnum = kind.starts_with("tpuenum.");
    const char *ptr = p.getCurrentLocation().getPointer();
    if (optional && (!ptr || *ptr != (isEnum ? '<' : '['))) {
      present = false;
      return success();
    }
    SMLoc loc = p.getCurrentLocation();
    std::string raw;
    if (parseRawBalanced(p, raw))
      return failure();
    if (isEnum) {
      attr = passthroughAttr(
          ctx, "tpu", (kind.drop_front(strlen("tpuenum.")) + raw).str());
      return success(static_cast<bool>(attr));
    }
    StringRef items = StringRef(raw).drop_front().drop_back().trim();
    std::string text = "array<" + kind.drop_front(strlen("arr.")).str();
    if (!items.empty())
      text += ": " + items.str();
    text += ">";
    attr = parseAttribute(text, ctx);
    if (!attr)
      return p.emitError(loc, "expected `[...]` of ") << kind.drop_front(4);
    return success();
  }
  if (kind.starts_with("enum.")) {
    StringRef word;
    if (failed(parseWord(p, optional, present, word)))
      return failure();
    if (!present)
      return success();
    auto [dialect, mnemonic] = kindParts(kind);
    attr = passthroughAttr(ctx, dialect, (mnemonic + " " + word).str());
    return success(static_cast<bool>(attr));
  }
  if (kind.starts_with("i32enum.")) {
    SmallVector<StringRef> cases;
    kind.drop_front(strlen("i32enum.")).split(cases, ',');
    SMLoc loc = p.getCurrentLocation();
    StringRef word;
    if (failed(parseWord(p, optional, present, word)))
      return failure();
    if (!present)
      return success();
    auto it = llvm::find(cases, word);
    if (it == cases.end())
      return p.emitError(loc, "unknown value `") << word << "`";
    attr = b.getI32IntegerAttr(static_cast<int32_t>(it - cases.begin()));
    return success();
  }
  if (kind.starts_with("sdy.")) {
    SMLoc loc = p.getCurrentLocation();
    const char *ptr = loc.getPointer();
    if (optional && (!ptr || (*ptr != '<' && *ptr != '{' && *ptr != '['))) {
      present = false;
      return success();
    }
    std::string raw;
    if (parseRawBalanced(p, raw))
      return failure();
    auto [dialect, mnemonic] = kindParts(kind);
    attr = passthroughAttr(ctx, dialect, (mnemonic + raw).str());
    return success(static_cast<bool>(attr));
  }
  // bool, str, any: MLIR's own attribute syntax.
  if (optional) {
    OptionalParseResult r = p.parseOptionalAttribute(attr);
    if (!r.has_value()) {
      present = false;
      return success();
    }
    return *r;
  }
  SMLoc loc = p.getCurrentLocation();
  // A string or boolean takes no `: type` (which would eat the format's `:`).
  Type none = (kind == "str" || kind == "bool") ? Type(NoneType::get(ctx))
                                                 : Type();
  if (p.parseAttribute(attr, none))
    return failure();
  if (kind == "bool" && !isa<BoolAttr>(attr))
    return p.emitError(loc, "expected a boolean");
  if (kind == "str" && !isa<StringAttr>(attr))
    return p.emitError(loc, "expected a string");
  return success();
}

std::string printedText(Attribute attr);

// Whether `attr` can be printed as `kind`.
bool fitsKind(Attribute attr, StringRef kind) {
  if (!attr)
    return false;
  if (kind == "i64arr")
    return isa<DenseI64ArrayAttr>(attr);
  if (kind == "i64" || kind == "i32") {
    auto i = dyn_cast<IntegerAttr>(attr);
    return i && i.getType().isSignlessInteger(kind == "i64" ? 64 : 32);
  }
  if (kind == "sym" || kind == "str")
    return isa<StringAttr>(attr);
  if (kind.starts_with("i32enum.")) {
    auto i = dyn_cast<IntegerAttr>(attr);
    SmallVector<StringRef> cases;
    kind.drop_front(strlen("i32enum.")).split(cases, ',');
    return i && i.getType().isSignlessInteger(32) && i.getInt() >= 0 &&
           i.getInt() < static_cast<int64_t>(cases.size());
  }
  if (kind == "bool")
    return isa<BoolAttr>(attr);
  if (kind == "si32") {
    auto i = dyn_cast<IntegerAttr>(attr);
    return i && i.getType().isSignedInteger(32);
  }
  if (kind.starts_with("tpuenum.")) {
    std::optional<StringRef> text = passthroughText(attr, "tpu");
    StringRef mnemonic = kind.drop_front(strlen("tpuenum."));
    return text && text->starts_with(mnemonic) &&
           text->drop_front(mnemonic.size()).starts_with("<");
  }
  if (kind.starts_with("arr.")) {
    // `array<i32: 1, 2>` of the element type the kind names.
    std::string head = ("array<" + kind.drop_front(strlen("arr."))).str();
    std::string text = printedText(attr);
    StringRef rest = StringRef(text);
    return rest.consume_front(head) && (rest == ">" || rest.starts_with(":"));
  }
  if (kind.starts_with("enum.") || kind.starts_with("sdy.")) {
    auto [dialect, mnemonic] = kindParts(kind);
    std::optional<StringRef> text = passthroughText(attr, dialect);
    if (!text || !text->starts_with(mnemonic))
      return false;
    StringRef rest = text->drop_front(mnemonic.size());
    if (kind.starts_with("enum."))
      return rest.size() > 1 && rest.front() == ' ' &&
             llvm::all_of(rest.drop_front(),
                          [](char c) { return llvm::isAlnum(c) || c == '_'; });
    return !rest.empty() &&
           (rest.front() == '<' || rest.front() == '{' || rest.front() == '[');
  }
  return true;
}

void printAttrKind(OpAsmPrinter &p, Attribute attr, StringRef kind) {
  if (kind == "i64arr")
    return printI64List(p, cast<DenseI64ArrayAttr>(attr).asArrayRef());
  if (kind == "i64" || kind == "i32" || kind == "si32") {
    p << cast<IntegerAttr>(attr).getValue().getSExtValue();
    return;
  }
  if (kind.starts_with("tpuenum.")) {
    // `<sum>` for `#tpu.reduction_kind<sum>`.
    p << passthroughText(attr, "tpu")->drop_front(kind.size() - strlen("tpuenum."));
    return;
  }
  if (kind.starts_with("arr.")) {
    // `[1, 2]` for `array<i32: 1, 2>`, `[]` for `array<i32>`.
    std::string text = printedText(attr);
    StringRef items = StringRef(text).drop_back();
    size_t colon = items.find(':');
    items = colon == StringRef::npos ? StringRef() : items.drop_front(colon + 1).trim();
    p << '[' << items << ']';
    return;
  }
  if (kind == "sym")
    return p.printSymbolName(cast<StringAttr>(attr).getValue());
  if (kind.starts_with("i32enum.")) {
    SmallVector<StringRef> cases;
    kind.drop_front(strlen("i32enum.")).split(cases, ',');
    p << cases[cast<IntegerAttr>(attr).getInt()];
    return;
  }
  if (kind.starts_with("enum.") || kind.starts_with("sdy.")) {
    auto [dialect, mnemonic] = kindParts(kind);
    StringRef rest = passthroughText(attr, dialect)->drop_front(mnemonic.size());
    p << (kind.starts_with("enum.") ? rest.drop_front() : rest);
    return;
  }
  p.printAttribute(attr);
}

std::string printedText(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

struct ParseCtx {
  OpAsmParser &p;
  OperationState &result;
  const Spec &spec;
  SMLoc loc;
  std::vector<SmallVector<OpAsmParser::UnresolvedOperand>> operands;
  std::vector<SmallVector<Type>> operandTypes;
  std::vector<bool> operandTyped;
  std::vector<SmallVector<Type>> resultTypes;
  std::vector<bool> resultTyped;
  NamedAttrList attrs; // inherent
  NamedAttrList extra; // from attr-dict
  std::vector<std::unique_ptr<Region>> regions;
  bool sawFuncType = false;
};

ParseResult parseElems(ParseCtx &c, const std::vector<Elem> &elems);

ParseResult parseLiteral(OpAsmParser &p, StringRef lit, bool optional,
                         bool &present) {
  present = true;
  auto opt = [&](ParseResult r) -> ParseResult {
    if (optional) {
      present = succeeded(r);
      return success();
    }
    return r;
  };
  if (lit.empty() || lit == " " || lit == "\\n")
    return success();
  if (lit == ",")
    return optional ? opt(p.parseOptionalComma()) : p.parseComma();
  if (lit == "=")
    return optional ? opt(p.parseOptionalEqual()) : p.parseEqual();
  if (lit == ":")
    return optional ? opt(p.parseOptionalColon()) : p.parseColon();
  if (lit == "(")
    return optional ? opt(p.parseOptionalLParen()) : p.parseLParen();
  if (lit == ")")
    return optional ? opt(p.parseOptionalRParen()) : p.parseRParen();
  if (lit == "[")
    return optional ? opt(p.parseOptionalLSquare()) : p.parseLSquare();
  if (lit == "]")
    return optional ? opt(p.parseOptionalRSquare()) : p.parseRSquare();
  if (lit == "{")
    return optional ? opt(p.parseOptionalLBrace()) : p.parseLBrace();
  if (lit == "}")
    return optional ? opt(p.parseOptionalRBrace()) : p.parseRBrace();
  if (lit == "<")
    return optional ? opt(p.parseOptionalLess()) : p.parseLess();
  if (lit == ">")
    return optional ? opt(p.parseOptionalGreater()) : p.parseGreater();
  if (lit == "->")
    return optional ? opt(p.parseOptionalArrow()) : p.parseArrow();
  return optional ? opt(p.parseOptionalKeyword(lit)) : p.parseKeyword(lit);
}

// The type list for `type($x)`, `type(operands)`, `type(results)`.
SmallVectorImpl<Type> *typeSlot(ParseCtx &c, const Elem &arg, bool &variadic) {
  if (arg.kind == Elem::Var) {
    int i = indexOf(c.spec.operands, arg.text);
    if (i >= 0) {
      variadic = c.spec.operands[i].mark != 0;
      c.operandTyped[i] = true;
      return &c.operandTypes[i];
    }
    i = indexOf(c.spec.results, arg.text);
    if (i >= 0) {
      variadic = c.spec.results[i].mark != 0;
      c.resultTyped[i] = true;
      return &c.resultTypes[i];
    }
  }
  return nullptr;
}

// Assigns a flat list of types to the operand (or result) groups, in order:
// every group but the one variadic group takes one.
bool distribute(ArrayRef<Type> types, const std::vector<Named> &groups,
                std::vector<SmallVector<Type>> &slots,
                std::vector<bool> &typed) {
  size_t variadic = 0, singles = 0;
  for (const Named &n : groups)
    n.mark ? ++variadic : ++singles;
  if (variadic > 1 || (variadic == 0 && types.size() != singles) ||
      types.size() < singles)
    return false;
  size_t at = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    size_t n = groups[i].mark ? types.size() - singles : 1;
    slots[i].assign(types.begin() + at, types.begin() + at + n);
    typed[i] = true;
    at += n;
  }
  return true;
}

ParseResult parseCustom(ParseCtx &c, const Elem &e) {
  OpAsmParser &p = c.p;
  StringRef name = e.text;
  auto typeArg = [&](size_t i, bool &variadic) -> SmallVectorImpl<Type> * {
    if (i >= e.args.size() || e.args[i].kind != Elem::TypeOf)
      return nullptr;
    return typeSlot(c, e.args[i].args[0], variadic);
  };
  auto attrArg = [&](size_t i) -> StringRef {
    return i < e.args.size() ? StringRef(e.args[i].text) : StringRef();
  };
  if (name == "SameOperandsAndResultType" ||
      name == "VariadicSameOperandsAndResultType" || name == "SelectOpType" ||
      name == "ComplexOpType") {
    size_t first = name == "VariadicSameOperandsAndResultType" ? 1 : 0;
    SmallVector<SmallVectorImpl<Type> *> slots;
    SmallVector<bool> variadic;
    for (size_t i = first; i < e.args.size(); ++i) {
      bool v = false;
      SmallVectorImpl<Type> *slot = typeArg(i, v);
      if (!slot)
        return p.emitError(c.loc, "bad format for ") << c.spec.name;
      slots.push_back(slot);
      variadic.push_back(v);
    }
    SMLoc loc = p.getCurrentLocation();
    SmallVector<Type> types;
    if (p.parseTypeList(types))
      return failure();
    auto operandCount = [&](size_t k) -> size_t {
      if (!variadic[k])
        return 1;
      int g = indexOf(c.spec.operands, e.args[first + k].args[0].text);
      return g >= 0 ? c.operands[g].size() : 1;
    };
    size_t nslots = slots.size();
    if (types.size() == 1 && isa<FunctionType>(types[0])) {
      auto fn = cast<FunctionType>(types[0]);
      size_t want = 0;
      for (size_t k = 0; k + 1 < nslots; ++k)
        want += operandCount(k);
      if (fn.getNumInputs() != want)
        return p.emitError(loc) << want << " operands present, but expected "
                                << fn.getNumInputs();
      if (fn.getNumResults() != 1)
        return p.emitError(loc, "expected single output");
      size_t at = 0;
      for (size_t k = 0; k + 1 < nslots; ++k) {
        size_t n = operandCount(k);
        slots[k]->assign(fn.getInputs().begin() + at,
                         fn.getInputs().begin() + at + n);
        at += n;
      }
      slots.back()->assign(1, fn.getResult(0));
      return success();
    }
    if (name == "SelectOpType") {
      if (types.size() != 2)
        return p.emitError(loc,
                           "expected functional type or list of two types");
      slots[0]->assign(1, types[0]);
      for (size_t k = 1; k < nslots; ++k)
        slots[k]->assign(1, types[1]);
      return success();
    }
    if (name == "ComplexOpType") {
      if (types.size() != 1)
        return p.emitError(loc, "expected a single type");
      auto shaped = dyn_cast<ShapedType>(types[0]);
      auto complex =
          shaped ? dyn_cast<ComplexType>(shaped.getElementType()) : nullptr;
      if (!complex)
        return p.emitError(loc, "expected tensor with complex element type");
      Type part = shaped.clone(complex.getElementType());
      slots[0]->assign(1, part);
      slots[1]->assign(1, part);
      slots[2]->assign(1, types[0]);
      return success();
    }
    if (types.size() != 1)
      return p.emitError(loc, "expected a single type or a function type");
    for (size_t k = 0; k < nslots; ++k)
      slots[k]->assign(operandCount(k), types[0]);
    return success();
  }
  if (name == "TupleOpType") {
    bool v;
    SmallVectorImpl<Type> *ops = typeArg(0, v), *res = typeArg(1, v);
    SMLoc loc = p.getCurrentLocation();
    Type type;
    if (!ops || !res || p.parseType(type))
      return failure();
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return p.emitError(loc, "expected tuple type");
    ops->assign(tuple.getTypes().begin(), tuple.getTypes().end());
    res->assign(1, type);
    return success();
  }
  if (name == "PairwiseOpType") {
    bool v;
    SmallVectorImpl<Type> *ops = typeArg(0, v), *res = typeArg(1, v);
    SmallVector<Type> types;
    if (!ops || !res || p.parseTypeList(types))
      return failure();
    ops->assign(types.begin(), types.end());
    res->assign(types.begin(), types.end());
    return success();
  }
  if (name == "VariadicOperandWithAttribute") {
    int g = indexOf(c.spec.operands, attrArg(0));
    if (g < 0)
      return failure();
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult r = p.parseOptionalOperand(operand);
    while (r.has_value()) {
      if (failed(*r))
        return failure();
      c.operands[g].push_back(operand);
      if (p.parseComma())
        return failure();
      r = p.parseOptionalOperand(operand);
    }
    return success();
  }
  if (name == "CustomCallTarget") {
    StringAttr target;
    if (p.parseSymbolName(target))
      return failure();
    c.attrs.set(attrArg(0), target);
    return success();
  }
  if (name == "SliceRanges") {
    SmallVector<int64_t> start, limit, stride;
    if (p.parseLSquare())
      return failure();
    if (failed(p.parseOptionalRSquare())) {
      do {
        if (p.parseInteger(start.emplace_back()) || p.parseColon() ||
            p.parseInteger(limit.emplace_back()))
          return failure();
        if (succeeded(p.parseOptionalColon())) {
          if (p.parseInteger(stride.emplace_back()))
            return failure();
        } else {
          stride.push_back(1);
        }
        if (succeeded(p.parseOptionalRSquare()))
          break;
        if (p.parseComma())
          return failure();
      } while (true);
    }
    Builder b(p.getContext());
    c.attrs.set(attrArg(0), b.getDenseI64ArrayAttr(start));
    c.attrs.set(attrArg(1), b.getDenseI64ArrayAttr(limit));
    c.attrs.set(attrArg(2), b.getDenseI64ArrayAttr(stride));
    return success();
  }
  if (name == "DotDimensionNumbers") {
    SmallVector<int64_t> lb, rb, lc, rc;
    if (succeeded(p.parseOptionalKeyword("batching_dims"))) {
      if (p.parseEqual() || parseI64List(p, lb) || p.parseKeyword("x") ||
          parseI64List(p, rb) || p.parseComma())
        return failure();
    }
    if (p.parseKeyword("contracting_dims") || p.parseEqual() ||
        parseI64List(p, lc) || p.parseKeyword("x") || parseI64List(p, rc))
      return failure();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "dot<";
    bool first = true;
    auto field = [&](StringRef key, ArrayRef<int64_t> v) {
      if (v.empty())
        return;
      os << (first ? "" : ", ") << key << " = [";
      llvm::interleaveComma(v, os);
      os << "]";
      first = false;
    };
    field("lhs_batching_dimensions", lb);
    field("rhs_batching_dimensions", rb);
    field("lhs_contracting_dimensions", lc);
    field("rhs_contracting_dimensions", rc);
    os << ">";
    c.attrs.set(attrArg(0), passthroughAttr(p.getContext(), "stablehlo", text));
    return success();
  }
  if (name == "PrecisionConfig" || name == "PrecisionConfigAndAlgorithm") {
    if (failed(p.parseOptionalComma()))
      return success();
    auto parseAlgorithm = [&]() -> ParseResult {
      std::string raw;
      if (p.parseEqual() || parseRawBalanced(p, raw))
        return failure();
      c.attrs.set(attrArg(1), passthroughAttr(p.getContext(), "stablehlo",
                                              "dot_algorithm" + raw));
      return success();
    };
    if (name == "PrecisionConfigAndAlgorithm" &&
        succeeded(p.parseOptionalKeyword("algorithm")))
      return parseAlgorithm();
    SmallVector<Attribute> precision;
    if (p.parseKeyword("precision") || p.parseEqual() ||
        p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          StringRef word;
          if (p.parseKeyword(&word))
            return failure();
          precision.push_back(passthroughAttr(p.getContext(), "stablehlo",
                                              ("precision " + word).str()));
          return success();
        }))
      return failure();
    c.attrs.set(attrArg(0), ArrayAttr::get(p.getContext(), precision));
    if (name == "PrecisionConfigAndAlgorithm" &&
        succeeded(p.parseOptionalComma())) {
      if (p.parseKeyword("algorithm"))
        return failure();
      return parseAlgorithm();
    }
    return success();
  }
  if (name == "ExponentMantissa") {
    SMLoc loc = p.getCurrentLocation();
    StringRef word;
    if (p.parseKeyword(&word))
      return failure();
    unsigned exponent, mantissa;
    StringRef rest = word;
    if (!rest.consume_front("e"))
      return p.emitError(loc, "expected format e#m#");
    size_t m = rest.find('m');
    if (m == StringRef::npos || rest.take_front(m).getAsInteger(10, exponent) ||
        rest.drop_front(m + 1).getAsInteger(10, mantissa))
      return p.emitError(loc, "expected format e#m#");
    Builder b(p.getContext());
    c.attrs.set(attrArg(0), b.getI32IntegerAttr(exponent));
    c.attrs.set(attrArg(1), b.getI32IntegerAttr(mantissa));
    return success();
  }
  if (name == "ConvolutionDimensions") {
    std::string lhs, rhs, out;
    if (parseRawBalanced(p, lhs) || p.parseKeyword("x") ||
        parseRawBalanced(p, rhs) || p.parseArrow() ||
        parseRawBalanced(p, out))
      return failure();
    c.attrs.set(attrArg(0),
                passthroughAttr(p.getContext(), "stablehlo",
                                "conv<" + lhs + "x" + rhs + "->" + out + ">"));
    return success();
  }
  if (name == "WindowAttributes") {
    Builder b(p.getContext());
    StringRef key;
    llvm::StringMap<bool> seen;
    while (succeeded(p.parseOptionalKeyword(&key))) {
      SMLoc loc = p.getCurrentLocation();
      int slot = key == "stride"       ? 0
                 : key == "pad"        ? 1
                 : key == "lhs_dilate" ? 2
                 : key == "rhs_dilate" ? 3
                 : key == "reverse"    ? 4
                                       : -1;
      if (slot < 0 || !seen.insert({key, true}).second)
        return p.emitError(loc, "Unexpected keyword ") << key;
      if (p.parseEqual())
        return failure();
      SmallVector<int64_t> values;
      if (slot == 1) {
        if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                      [&]() -> ParseResult {
              size_t before = values.size();
              if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
                    return p.parseInteger(values.emplace_back());
                  }))
                return failure();
              if (values.size() - before != 2)
                return p.emitError(p.getCurrentLocation(),
                                   "Expected array with 2 elements");
              return success();
            }))
          return failure();
        auto type = RankedTensorType::get(
            {static_cast<int64_t>(values.size() / 2), 2}, b.getIntegerType(64));
        c.attrs.set(attrArg(1), DenseIntElementsAttr::get(type, values));
      } else if (slot == 4) {
        SmallVector<bool> flags;
        if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                      [&]() -> ParseResult {
              if (succeeded(p.parseOptionalKeyword("true")))
                flags.push_back(true);
              else if (succeeded(p.parseOptionalKeyword("false")))
                flags.push_back(false);
              else if (p.parseInteger(values.emplace_back()))
                return failure();
              else
                flags.push_back(values.back() != 0);
              return success();
            }))
          return failure();
        c.attrs.set(attrArg(4), DenseBoolArrayAttr::get(p.getContext(), flags));
      } else {
        if (parseI64List(p, values))
          return failure();
        c.attrs.set(attrArg(slot), b.getDenseI64ArrayAttr(values));
      }
      if (failed(p.parseOptionalComma()))
        break;
    }
    return success();
  }
  if (name == "StrippedTensorShardingPerValueAttr") {
    std::string raw;
    if (parseRawBalanced(p, raw))
      return failure();
    c.attrs.set(attrArg(0), passthroughAttr(p.getContext(), "sdy",
                                            "sharding_per_value<" + raw + ">"));
    return success();
  }
  if (name == "SingleBlockRegionNoBlockId") {
    int r = indexOf(c.spec.regions, attrArg(0));
    if (r < 0)
      return failure();
    SmallVector<OpAsmParser::Argument> args;
    if (p.parseArgumentList(args, AsmParser::Delimiter::Paren,
                            /*allowType=*/true) ||
        p.parseRegion(*c.regions[r], args))
      return failure();
    return success();
  }
  return p.emitError(c.loc, "unsupported directive custom<") << name << ">";
}

// Whether the first element of an optional group is present (consuming it
// if so).
ParseResult parseElem(ParseCtx &c, const Elem &e, bool optional,
                      bool &present);

ParseResult parseElems(ParseCtx &c, const std::vector<Elem> &elems) {
  for (const Elem &e : elems) {
    bool present;
    if (parseElem(c, e, false, present))
      return failure();
  }
  return success();
}

ParseResult parseOperandList(ParseCtx &c, int g, bool optional,
                             bool &present) {
  OpAsmParser &p = c.p;
  const Named &n = c.spec.operands[g];
  if (n.mark == '*') {
    if (p.parseOperandList(c.operands[g]))
      return failure();
    present = !c.operands[g].empty();
    return success();
  }
  OpAsmParser::UnresolvedOperand operand;
  if (n.mark == '?' || optional) {
    OptionalParseResult r = p.parseOptionalOperand(operand);
    present = r.has_value();
    if (present) {
      if (failed(*r))
        return failure();
      c.operands[g].push_back(operand);
    }
    return success();
  }
  if (p.parseOperand(operand))
    return failure();
  c.operands[g].push_back(operand);
  return success();
}

ParseResult parseElem(ParseCtx &c, const Elem &e, bool optional,
                      bool &present) {
  OpAsmParser &p = c.p;
  present = true;
  switch (e.kind) {
  case Elem::Literal:
    return parseLiteral(p, e.text, optional, present);
  case Elem::Var: {
    switch (groupOf(c.spec, e.text)) {
    case Group::Operand:
      return parseOperandList(c, indexOf(c.spec.operands, e.text), optional,
                              present);
    case Group::Attr: {
      const Named *n = find(c.spec.attrs, e.text);
      Attribute attr;
      if (parseAttrKind(p, n->kind, attr, optional, present))
        return failure();
      if (present)
        c.attrs.set(e.text, attr);
      return success();
    }
    case Group::Region: {
      int r = indexOf(c.spec.regions, e.text);
      if (optional) {
        OptionalParseResult res = p.parseOptionalRegion(*c.regions[r]);
        present = res.has_value();
        return present ? *res : success();
      }
      return p.parseRegion(*c.regions[r]);
    }
    default:
      return p.emitError(c.loc, "bad format for ") << c.spec.name;
    }
  }
  case Elem::AttrDict:
    if (e.text == "keyword")
      return p.parseOptionalAttrDictWithKeyword(c.extra);
    return p.parseOptionalAttrDict(c.extra);
  case Elem::Operands: {
    SmallVector<OpAsmParser::UnresolvedOperand> all;
    if (p.parseOperandList(all))
      return failure();
    // Distribute: single groups take one each, the variadic one the rest.
    size_t singles = 0, variadic = 0;
    for (const Named &n : c.spec.operands)
      n.mark ? ++variadic : ++singles;
    if (variadic > 1 || all.size() < singles ||
        (variadic == 0 && all.size() != singles))
      return p.emitError(c.loc)
             << c.spec.name << " takes " << singles << " operands, not "
             << all.size();
    size_t at = 0;
    for (size_t g = 0; g < c.spec.operands.size(); ++g) {
      size_t n = c.spec.operands[g].mark ? all.size() - singles : 1;
      c.operands[g].assign(all.begin() + at, all.begin() + at + n);
      at += n;
    }
    present = !all.empty();
    return success();
  }
  case Elem::TypeOf: {
    const Elem &arg = e.args[0];
    SmallVector<Type> types;
    if (arg.kind == Elem::Results || arg.kind == Elem::Operands) {
      if (p.parseTypeList(types))
        return failure();
      bool ok = arg.kind == Elem::Results
                    ? distribute(types, c.spec.results, c.resultTypes,
                                 c.resultTyped)
                    : distribute(types, c.spec.operands, c.operandTypes,
                                 c.operandTyped);
      if (!ok)
        return p.emitError(c.loc, "wrong number of types");
      return success();
    }
    bool variadic = false;
    SmallVectorImpl<Type> *slot = typeSlot(c, arg, variadic);
    if (!slot)
      return p.emitError(c.loc, "bad format for ") << c.spec.name;
    if (variadic && c.spec.tpu) {
      // As ODS parses a variadic or optional type: none, or a list.
      Type type;
      OptionalParseResult r = p.parseOptionalType(type);
      slot->clear();
      if (!r.has_value())
        return success();
      if (failed(*r))
        return failure();
      slot->push_back(type);
      if (c.spec.operands.size() > 0 && arg.kind == Elem::Var) {
        int g = indexOf(c.spec.operands, arg.text);
        if (g >= 0 && c.spec.operands[g].mark == '?')
          return success();
      }
      while (succeeded(p.parseOptionalComma()))
        if (p.parseType(slot->emplace_back()))
          return failure();
      return success();
    }
    if (variadic) {
      if (p.parseTypeList(types))
        return failure();
      slot->assign(types.begin(), types.end());
      return success();
    }
    Type type;
    if (p.parseType(type))
      return failure();
    slot->assign(1, type);
    return success();
  }
  case Elem::FuncType: {
    FunctionType fn;
    if (p.parseType(fn))
      return failure();
    if (!distribute(fn.getInputs(), c.spec.operands, c.operandTypes,
                    c.operandTyped) ||
        !distribute(fn.getResults(), c.spec.results, c.resultTypes,
                    c.resultTyped))
      return p.emitError(c.loc, "wrong number of types in the function type");
    return success();
  }
  case Elem::Custom:
    return parseCustom(c, e);
  case Elem::Optional: {
    // The first element decides; the rest is then required.
    if (e.children.empty())
      return failure();
    bool first;
    if (parseElem(c, e.children.front(), true, first))
      return failure();
    if (first) {
      for (size_t i = 1; i < e.children.size(); ++i) {
        bool unused;
        if (parseElem(c, e.children[i], false, unused))
          return failure();
      }
      return success();
    }
    return parseElems(c, e.elseChildren);
  }
  case Elem::Results:
  case Elem::RefOf:
    break;
  }
  return p.emitError(c.loc, "bad format for ") << c.spec.name;
}

// Splits the parsed attr-dict: the op's inherent attributes become
// properties, the rest stay discardable.
void finishAttributes(ParseCtx &c) {
  for (const NamedAttribute &a : c.extra) {
    if (find(c.spec.attrs, a.getName().getValue()))
      c.attrs.set(a.getName(), a.getValue());
    else
      c.result.attributes.push_back(a);
  }
  for (const Named &n : c.spec.attrs)
    if (n.materialize && !c.attrs.get(n.name))
      if (Attribute value = parseAttribute(n.dflt, c.p.getContext()))
        c.attrs.set(n.name, value);
  if (!c.attrs.empty())
    c.result.propertiesAttr = c.attrs.getDictionary(c.p.getContext());
}

ParseResult parseWithSpec(OpAsmParser &p, OperationState &result,
                          const Spec &spec) {
  ParseCtx c{p, result, spec, p.getCurrentLocation()};
  c.operands.resize(spec.operands.size());
  c.operandTypes.resize(spec.operands.size());
  c.operandTyped.assign(spec.operands.size(), false);
  c.resultTypes.resize(spec.results.size());
  c.resultTyped.assign(spec.results.size(), false);
  for (size_t i = 0; i < spec.regions.size(); ++i)
    c.regions.push_back(std::make_unique<Region>());
  if (parseElems(c, spec.elems))
    return failure();
  for (auto &[to, from] : spec.implied) {
    int o = indexOf(spec.operands, to), r = indexOf(spec.results, from);
    if (o >= 0 && r >= 0) {
      c.operandTypes[o] = c.resultTypes[r];
      c.operandTyped[o] = true;
      continue;
    }
    // `result=operand`: the result's types are the operand's.
    r = indexOf(spec.results, to);
    o = indexOf(spec.operands, from);
    if (o < 0 || r < 0)
      return p.emitError(c.loc, "bad format for ") << spec.name;
    c.resultTypes[r] = c.operandTypes[o];
    c.resultTyped[r] = true;
  }
  for (auto &[name, typeText] : spec.fixedTypes) {
    Type type = parseType(typeText, p.getContext());
    if (!type)
      return p.emitError(c.loc, "bad format for ") << spec.name;
    int o = indexOf(spec.operands, name);
    if (o >= 0) {
      c.operandTypes[o].assign(c.operands[o].size(), type);
      c.operandTyped[o] = true;
      continue;
    }
    int r = indexOf(spec.results, name);
    if (r < 0)
      return p.emitError(c.loc, "bad format for ") << spec.name;
    c.resultTypes[r].assign(1, type);
    c.resultTyped[r] = true;
  }
  if (spec.segments) {
    SmallVector<int32_t> sizes;
    for (auto &group : c.operands)
      sizes.push_back(static_cast<int32_t>(group.size()));
    c.attrs.set("operandSegmentSizes",
                DenseI32ArrayAttr::get(p.getContext(), sizes));
  }
  for (size_t g = 0; g < spec.operands.size(); ++g) {
    // An untyped group with no operands is fine (an empty `return`).
    if (c.operands[g].empty())
      continue;
    if (c.operandTypes[g].size() != c.operands[g].size())
      return p.emitError(c.loc) << "expected " << c.operands[g].size()
                                << " types for `" << spec.operands[g].name
                                << "` of " << spec.name;
    if (p.resolveOperands(c.operands[g], c.operandTypes[g], c.loc,
                          result.operands))
      return failure();
  }
  for (auto &types : c.resultTypes)
    result.addTypes(types);
  for (auto &region : c.regions)
    result.addRegion(std::move(region));
  finishAttributes(c);
  return success();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

struct PrintCtx {
  Operation *op;
  const Spec &spec;
  OpAsmPrinter *p; // null: a dry run that only checks the op fits
  DictionaryAttr props;
  // The operand / result ranges of each group.
  std::vector<std::pair<unsigned, unsigned>> operandRanges, resultRanges;
  bool shouldEmitSpace = true, lastWasPunctuation = false;
};

Attribute propOf(PrintCtx &c, StringRef name) {
  return c.props ? c.props.get(name) : Attribute();
}

bool groupRanges(const std::vector<Named> &groups, unsigned total,
                 std::vector<std::pair<unsigned, unsigned>> &out) {
  size_t singles = 0, others = 0;
  for (const Named &n : groups)
    n.mark ? ++others : ++singles;
  if (total < singles || (others == 0 && total != singles))
    return false;
  // Several variadic groups without segment sizes: SameVariadicOperandSize
  // (`tpu.create_mask`'s `low` and `high`), each the same share.
  if (others > 1 && (total - singles) % others != 0)
    return false;
  unsigned share = others ? (total - singles) / others : 0;
  unsigned at = 0;
  for (const Named &n : groups) {
    unsigned len = n.mark ? share : 1;
    if (n.mark == '?' && len > 1)
      return false;
    out.emplace_back(at, len);
    at += len;
  }
  return true;
}

// Whether an element (as an optional group's anchor) has something to print.
bool isPresent(PrintCtx &c, const Elem &e) {
  switch (e.kind) {
  case Elem::Var:
    switch (groupOf(c.spec, e.text)) {
    case Group::Operand:
      return c.operandRanges[indexOf(c.spec.operands, e.text)].second > 0;
    case Group::Result:
      return c.resultRanges[indexOf(c.spec.results, e.text)].second > 0;
    case Group::Attr: {
      Attribute a = propOf(c, e.text);
      if (!a)
        return false;
      // A default-valued attribute equal to its default is not shown.
      const Named *n = find(c.spec.attrs, e.text);
      return n->dflt.empty() || printedText(a) != n->dflt;
    }
    case Group::Region: {
      Region &r = c.op->getRegion(indexOf(c.spec.regions, e.text));
      return !r.empty();
    }
    default:
      return false;
    }
  case Elem::TypeOf:
    return isPresent(c, e.args[0]);
  case Elem::Custom:
    // A custom directive is there when its first argument is.
    return !e.args.empty() && isPresent(c, e.args[0]);
  case Elem::Operands:
    return c.op->getNumOperands() > 0;
  case Elem::Results:
    return c.op->getNumResults() > 0;
  default:
    return false;
  }
}

void space(PrintCtx &c) {
  if (c.p)
    *c.p << ' ';
}

bool printElems(PrintCtx &c, const std::vector<Elem> &elems);

void printLiteral(PrintCtx &c, StringRef value) {
  if (value.empty() || value == " ") {
    // A spacing literal.
    if (value == " ") {
      space(c);
      c.lastWasPunctuation = false;
    } else {
      c.lastWasPunctuation = true;
    }
    c.shouldEmitSpace = false;
    return;
  }
  bool emit;
  if (value.size() != 1 && value != "->")
    emit = true;
  else if (c.lastWasPunctuation)
    emit = !StringRef(">)}],").contains(value.front());
  else
    emit = !StringRef("<>(){}[],").contains(value.front());
  if (c.shouldEmitSpace && emit)
    space(c);
  if (c.p)
    *c.p << value;
  c.shouldEmitSpace =
      value.size() != 1 || !StringRef("<({[").contains(value.front());
  c.lastWasPunctuation = value.front() != '_' && !llvm::isAlpha(value.front());
}

ValueRange operandGroup(PrintCtx &c, int g) {
  auto [at, len] = c.operandRanges[g];
  return c.op->getOperands().slice(at, len);
}

TypeRange typesOf(PrintCtx &c, const Elem &arg) {
  if (arg.kind == Elem::Operands)
    return c.op->getOperandTypes();
  if (arg.kind == Elem::Results)
    return c.op->getResultTypes();
  int g = indexOf(c.spec.operands, arg.text);
  if (g >= 0) {
    auto [at, len] = c.operandRanges[g];
    return TypeRange(c.op->getOperands().slice(at, len));
  }
  g = indexOf(c.spec.results, arg.text);
  if (g >= 0) {
    auto [at, len] = c.resultRanges[g];
    return TypeRange(c.op->getResults().slice(at, len));
  }
  return TypeRange();
}

// The `key = [a, b]` fields of a `#stablehlo.dot<...>` text.
bool dotFields(StringRef text, llvm::StringMap<SmallVector<int64_t>> &out) {
  if (!text.consume_front("dot<") || !text.consume_back(">"))
    return false;
  while (!text.empty()) {
    auto [key, rest] = text.split(" = [");
    auto [list, tail] = rest.split(']');
    SmallVector<int64_t> &values = out[key.trim()];
    SmallVector<StringRef> items;
    list.split(items, ',', -1, false);
    for (StringRef item : items) {
      int64_t v;
      if (item.trim().getAsInteger(10, v))
        return false;
      values.push_back(v);
    }
    StringRef key2 = key.trim();
    if (key2 != "lhs_batching_dimensions" && key2 != "rhs_batching_dimensions" &&
        key2 != "lhs_contracting_dimensions" &&
        key2 != "rhs_contracting_dimensions")
      return false;
    text = tail;
    if (!text.empty() && !text.consume_front(", "))
      return false;
  }
  return true;
}

bool printCustom(PrintCtx &c, const Elem &e) {
  StringRef name = e.text;
  OpAsmPrinter *p = c.p;
  auto attrArg = [&](size_t i) -> StringRef {
    return i < e.args.size() ? StringRef(e.args[i].text) : StringRef();
  };
  if (name == "SameOperandsAndResultType" ||
      name == "VariadicSameOperandsAndResultType") {
    size_t first = name == "VariadicSameOperandsAndResultType" ? 1 : 0;
    SmallVector<Type> operandTypes;
    for (size_t i = first; i + 1 < e.args.size(); ++i)
      llvm::append_range(operandTypes, typesOf(c, e.args[i].args[0]));
    TypeRange results = typesOf(c, e.args.back().args[0]);
    if (results.size() != 1)
      return false;
    if (!p)
      return true;
    Type result = results[0];
    if (operandTypes.empty() ||
        llvm::all_of(operandTypes, [&](Type t) { return t == result; }))
      p->printType(result);
    else
      p->printFunctionalType(c.op);
    return true;
  }
  if (name == "SelectOpType") {
    if (c.op->getNumOperands() != 3 || c.op->getNumResults() != 1)
      return false;
    if (!p)
      return true;
    Type result = c.op->getResult(0).getType();
    if (c.op->getOperand(1).getType() != result ||
        c.op->getOperand(2).getType() != result)
      p->printFunctionalType(c.op);
    else
      *p << c.op->getOperand(0).getType() << ", " << result;
    return true;
  }
  if (name == "ComplexOpType") {
    if (c.op->getNumOperands() != 2 || c.op->getNumResults() != 1)
      return false;
    Type lhs = c.op->getOperand(0).getType(), rhs = c.op->getOperand(1).getType();
    auto result = dyn_cast<ShapedType>(c.op->getResult(0).getType());
    if (!result || !isa<ComplexType>(result.getElementType()))
      return false;
    Type part =
        result.clone(cast<ComplexType>(result.getElementType()).getElementType());
    if (!p)
      return true;
    if (lhs != part || rhs != part)
      p->printFunctionalType(c.op);
    else
      p->printType(result);
    return true;
  }
  if (name == "TupleOpType") {
    if (c.op->getNumResults() != 1)
      return false;
    if (p)
      p->printType(c.op->getResult(0).getType());
    return true;
  }
  if (name == "PairwiseOpType") {
    if (p)
      llvm::interleaveComma(c.op->getOperandTypes(), *p);
    return true;
  }
  if (name == "VariadicOperandWithAttribute") {
    int g = indexOf(c.spec.operands, attrArg(0));
    if (g < 0)
      return false;
    if (p) {
      llvm::interleaveComma(operandGroup(c, g), *p);
      *p << ",";
    }
    return true;
  }
  if (name == "CustomCallTarget") {
    auto target = dyn_cast_or_null<StringAttr>(propOf(c, attrArg(0)));
    // An empty name has no symbol spelling that reads back: generic form.
    if (!target || target.getValue().empty())
      return false;
    if (p)
      p->printSymbolName(target.getValue());
    return true;
  }
  if (name == "SliceRanges") {
    auto start = dyn_cast_or_null<DenseI64ArrayAttr>(propOf(c, attrArg(0)));
    auto limit = dyn_cast_or_null<DenseI64ArrayAttr>(propOf(c, attrArg(1)));
    auto stride = dyn_cast_or_null<DenseI64ArrayAttr>(propOf(c, attrArg(2)));
    if (!start || !limit || !stride || start.size() != limit.size() ||
        start.size() != stride.size())
      return false;
    if (!p)
      return true;
    *p << "[";
    for (int64_t i = 0; i < start.size(); ++i) {
      if (i)
        *p << ", ";
      *p << start[i] << ":" << limit[i];
      if (stride[i] != 1)
        *p << ":" << stride[i];
    }
    *p << "]";
    return true;
  }
  if (name == "DotDimensionNumbers") {
    std::optional<StringRef> text =
        passthroughText(propOf(c, attrArg(0)), "stablehlo");
    llvm::StringMap<SmallVector<int64_t>> fields;
    if (!text || !dotFields(*text, fields))
      return false;
    if (!p)
      return true;
    auto &lb = fields["lhs_batching_dimensions"];
    auto &rb = fields["rhs_batching_dimensions"];
    if (!lb.empty() || !rb.empty()) {
      *p << "batching_dims = ";
      printI64List(*p, lb);
      *p << " x ";
      printI64List(*p, rb);
      *p << ", ";
    }
    *p << "contracting_dims = ";
    printI64List(*p, fields["lhs_contracting_dimensions"]);
    *p << " x ";
    printI64List(*p, fields["rhs_contracting_dimensions"]);
    return true;
  }
  if (name == "PrecisionConfig" || name == "PrecisionConfigAndAlgorithm") {
    Attribute precision = propOf(c, attrArg(0));
    Attribute algorithm =
        name == "PrecisionConfigAndAlgorithm" ? propOf(c, attrArg(1)) : nullptr;
    SmallVector<StringRef> words;
    if (precision) {
      auto array = dyn_cast<ArrayAttr>(precision);
      if (!array)
        return false;
      for (Attribute a : array) {
        std::optional<StringRef> t = passthroughText(a, "stablehlo");
        if (!t || !t->starts_with("precision "))
          return false;
        words.push_back(t->drop_front(strlen("precision ")));
      }
    }
    std::optional<StringRef> algo;
    if (algorithm) {
      algo = passthroughText(algorithm, "stablehlo");
      if (!algo || !algo->starts_with("dot_algorithm<"))
        return false;
    }
    if (!p)
      return true;
    if (precision) {
      *p << ", precision = [";
      llvm::interleaveComma(words, *p);
      *p << "]";
    }
    if (algo)
      *p << ", algorithm = " << algo->drop_front(strlen("dot_algorithm"));
    return true;
  }
  if (name == "ExponentMantissa") {
    auto e = dyn_cast_or_null<IntegerAttr>(propOf(c, attrArg(0)));
    auto m = dyn_cast_or_null<IntegerAttr>(propOf(c, attrArg(1)));
    if (!e || !m || !e.getType().isSignlessInteger(32) ||
        !m.getType().isSignlessInteger(32) || e.getInt() < 0 || m.getInt() < 0)
      return false;
    if (p)
      *p << "e" << e.getInt() << "m" << m.getInt();
    return true;
  }
  if (name == "ConvolutionDimensions") {
    std::optional<StringRef> t =
        passthroughText(propOf(c, attrArg(0)), "stablehlo");
    if (!t || !t->starts_with("conv<[") || !t->ends_with("]>"))
      return false;
    if (p)
      *p << t->drop_front(strlen("conv<")).drop_back();
    return true;
  }
  if (name == "WindowAttributes") {
    const char *keys[] = {"stride", "pad", "lhs_dilate", "rhs_dilate",
                          "reverse"};
    bool first = true;
    for (int i = 0; i < 5; ++i) {
      Attribute a = propOf(c, attrArg(i));
      if (!a)
        continue;
      if (i == 1) {
        auto pad = dyn_cast<DenseIntElementsAttr>(a);
        if (!pad || pad.getNumElements() % 2)
          return false;
      } else if (i == 4) {
        if (!isa<DenseBoolArrayAttr>(a))
          return false;
      } else if (!isa<DenseI64ArrayAttr>(a)) {
        return false;
      }
      if (!p)
        continue;
      *p << (first ? "" : ", ") << keys[i] << " = [";
      first = false;
      if (i == 1) {
        auto pad = cast<DenseIntElementsAttr>(a);
        SmallVector<int64_t> v;
        for (const llvm::APInt &x : pad.getValues<llvm::APInt>())
          v.push_back(x.getSExtValue());
        for (size_t k = 0; k + 1 < v.size(); k += 2)
          *p << (k ? ", " : "") << '[' << v[k] << ", " << v[k + 1] << ']';
      } else if (i == 4) {
        llvm::interleaveComma(cast<DenseBoolArrayAttr>(a).asArrayRef(), *p,
                              [&](bool f) { *p << (f ? "true" : "false"); });
      } else {
        llvm::interleaveComma(cast<DenseI64ArrayAttr>(a).asArrayRef(), *p);
      }
      *p << ']';
    }
    return true;
  }
  if (name == "StrippedTensorShardingPerValueAttr") {
    std::optional<StringRef> t = passthroughText(propOf(c, attrArg(0)), "sdy");
    if (!t || !t->starts_with("sharding_per_value<") || !t->ends_with(">"))
      return false;
    if (p)
      *p << t->drop_front(strlen("sharding_per_value<")).drop_back();
    return true;
  }
  if (name == "SingleBlockRegionNoBlockId") {
    int r = indexOf(c.spec.regions, attrArg(0));
    if (r < 0)
      return false;
    Region &region = c.op->getRegion(r);
    if (!region.hasOneBlock())
      return false;
    if (!p)
      return true;
    *p << "(";
    llvm::interleaveComma(region.getArguments(), *p, [&](BlockArgument arg) {
      p->printRegionArgument(arg);
    });
    *p << ") ";
    p->printRegion(region, /*printEntryBlockArgs=*/false);
    return true;
  }
  return false;
}

bool printElem(PrintCtx &c, const Elem &e) {
  if (e.kind == Elem::Literal) {
    printLiteral(c, e.text);
    return true;
  }
  if (e.kind == Elem::AttrDict) {
    SmallVector<StringRef> elided;
    collectAttrs(c.spec, c.spec.elems, elided);
    NamedAttrList all(c.op->getDiscardableAttrDictionary());
    if (c.props)
      for (const NamedAttribute &a : c.props) {
        if (c.spec.segments && a.getName() == "operandSegmentSizes")
          continue;
        const Named *n = find(c.spec.attrs, a.getName().getValue());
        if (n && !n->dflt.empty() && printedText(a.getValue()) == n->dflt)
          continue;
        all.set(a.getName(), a.getValue());
      }
    if (c.p) {
      if (e.text == "keyword")
        c.p->printOptionalAttrDictWithKeyword(all.getAttrs(), elided);
      else
        c.p->printOptionalAttrDict(all.getAttrs(), elided);
    }
    c.lastWasPunctuation = false;
    return true;
  }
  if (e.kind == Elem::Optional) {
    if (e.children.empty())
      return false;
    const Elem *anchor = nullptr;
    for (const Elem &child : e.children)
      if (child.anchor)
        anchor = &child;
    if (!anchor)
      return false;
    if (isPresent(c, *anchor))
      return printElems(c, e.children);
    return printElems(c, e.elseChildren);
  }
  // Every other element: a space first unless after punctuation.
  if (c.shouldEmitSpace || !c.lastWasPunctuation)
    space(c);
  c.lastWasPunctuation = false;
  c.shouldEmitSpace = true;
  OpAsmPrinter *p = c.p;
  switch (e.kind) {
  case Elem::Var:
    switch (groupOf(c.spec, e.text)) {
    case Group::Operand:
      if (p)
        *p << operandGroup(c, indexOf(c.spec.operands, e.text));
      return true;
    case Group::Attr: {
      const Named *n = find(c.spec.attrs, e.text);
      Attribute a = propOf(c, e.text);
      if (!fitsKind(a, n->kind))
        return false;
      if (p)
        printAttrKind(*p, a, n->kind);
      return true;
    }
    case Group::Region: {
      Region &r = c.op->getRegion(indexOf(c.spec.regions, e.text));
      if (p)
        p->printRegion(r);
      return true;
    }
    default:
      return false;
    }
  case Elem::Operands:
    if (p)
      *p << c.op->getOperands();
    return true;
  case Elem::TypeOf: {
    TypeRange types = typesOf(c, e.args[0]);
    if (p)
      llvm::interleaveComma(types, *p);
    return true;
  }
  case Elem::FuncType:
    // `functional-type(operands, results)`, or `($x, results)` with `$x`
    // the op's only operand group.
    if ((e.args[0].kind != Elem::Operands &&
         !(e.args[0].kind == Elem::Var && c.spec.operands.size() == 1 &&
           c.spec.operands[0].name == e.args[0].text)) ||
        e.args[1].kind != Elem::Results)
      return false;
    if (p)
      p->printFunctionalType(c.op);
    return true;
  case Elem::Custom:
    return printCustom(c, e);
  default:
    return false;
  }
}

bool printElems(PrintCtx &c, const std::vector<Elem> &elems) {
  for (const Elem &e : elems)
    if (!printElem(c, e))
      return false;
  return true;
}

// Whether `op` fits `spec` well enough to print it in the custom form.
bool fits(Operation *op, const Spec &spec, PrintCtx &c) {
  if (op->getNumRegions() != spec.regions.size() ||
      op->getNumSuccessors() != 0)
    return false;
  Attribute props = op->getPropertiesAsAttribute();
  if (props && !isa<DictionaryAttr>(props))
    return false;
  c.props = dyn_cast_or_null<DictionaryAttr>(props);
  // Every property must be an attribute the op declares.
  if (c.props)
    for (const NamedAttribute &a : c.props)
      if (!find(spec.attrs, a.getName().getValue()) &&
          !(spec.segments && a.getName() == "operandSegmentSizes"))
        return false;
  // An inherent attribute among the discardable ones would move on a round
  // trip.
  for (const NamedAttribute &a : op->getDiscardableAttrs())
    if (find(spec.attrs, a.getName().getValue()))
      return false;
  if (spec.segments) {
    // The operand groups from `operandSegmentSizes` (AttrSizedOperandSegments).
    auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(
        c.props ? c.props.get("operandSegmentSizes") : Attribute());
    if (!sizes || sizes.size() != static_cast<int64_t>(spec.operands.size()))
      return false;
    unsigned start = 0;
    c.operandRanges.clear();
    for (size_t g = 0; g < spec.operands.size(); ++g) {
      int32_t n = sizes[g];
      if (n < 0 || (spec.operands[g].mark == 0 && n != 1) ||
          (spec.operands[g].mark == '?' && n > 1))
        return false;
      c.operandRanges.push_back({start, static_cast<unsigned>(n)});
      start += n;
    }
    if (start != op->getNumOperands())
      return false;
  } else if (!groupRanges(spec.operands, op->getNumOperands(),
                          c.operandRanges)) {
    return false;
  }
  if (!groupRanges(spec.results, op->getNumResults(), c.resultRanges))
    return false;
  // Types the format leaves implied must be what it implies.
  for (auto &[to, from] : spec.implied) {
    int o = indexOf(spec.operands, to), r = indexOf(spec.results, from);
    if (o < 0 || r < 0) {
      o = indexOf(spec.operands, from);
      r = indexOf(spec.results, to);
    }
    if (o < 0 || r < 0)
      return false;
    auto [oa, ol] = c.operandRanges[o];
    auto [ra, rl] = c.resultRanges[r];
    if (ol != rl)
      return false;
    for (unsigned i = 0; i < ol; ++i)
      if (op->getOperand(oa + i).getType() != op->getResult(ra + i).getType())
        return false;
  }
  return printElems(c, spec.elems);
}

//===----------------------------------------------------------------------===//
// Hand-written ops: stablehlo.constant (and sdy / chlo.constant), reduce, while
//===----------------------------------------------------------------------===//

ParseResult parseConstant(OpAsmParser &p, OperationState &result) {
  MLIRContext *ctx = p.getContext();
  if (succeeded(p.parseOptionalLParen())) {
    if (p.parseRParen())
      return failure();
    if (succeeded(p.parseOptionalLess()) &&
        (failed(p.parseAttribute(result.propertiesAttr)) ||
         failed(p.parseGreater())))
      return failure();
    Type type;
    if (p.parseOptionalAttrDict(result.attributes) || p.parseColon() ||
        p.parseLParen() || p.parseRParen() || p.parseArrow() ||
        p.parseType(type))
      return failure();
    result.addTypes(type);
    return success();
  }
  NamedAttrList attrs;
  if (p.parseOptionalAttrDict(attrs))
    return failure();
  SMLoc loc = p.getCurrentLocation();
  Attribute value;
  if (p.parseAttribute(value))
    return failure();
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || !isa<ElementsAttr>(value))
    return p.emitError(loc, "expected an elements attribute");
  NamedAttrList props;
  for (const NamedAttribute &a : attrs) {
    if (a.getName() == "value")
      props.set(a.getName(), a.getValue());
    else
      result.attributes.push_back(a);
  }
  props.set("value", value);
  result.propertiesAttr = props.getDictionary(ctx);
  result.addTypes(typed.getType());
  return success();
}

bool printConstant(Operation *op, OpAsmPrinter *p) {
  if (op->getNumOperands() || op->getNumResults() != 1 || op->getNumRegions())
    return false;
  auto props = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (!props || props.size() != 1)
    return false;
  auto value = dyn_cast_or_null<TypedAttr>(props.get("value"));
  if (!value || !isa<ElementsAttr>(value))
    return false;
  if (!p)
    return true;
  if (value.getType() != op->getResult(0).getType()) {
    p->printGenericOp(op, /*printOpName=*/false);
    return true;
  }
  p->printOptionalAttrDict(op->getAttrs(), {"value"});
  *p << ' ';
  p->printAttribute(value);
  return true;
}

bool isCommutativeBinary(StringRef name) {
  return name == "stablehlo.add" || name == "stablehlo.and" ||
         name == "stablehlo.maximum" || name == "stablehlo.minimum" ||
         name == "stablehlo.multiply" || name == "stablehlo.or" ||
         name == "stablehlo.xor";
}

ParseResult parseReduce(OpAsmParser &p, OperationState &result) {
  SMLoc loc = p.getCurrentLocation();
  Location here = p.getEncodedSourceLoc(loc);
  MLIRContext *ctx = p.getContext();
  Builder b(ctx);
  SmallVector<OpAsmParser::UnresolvedOperand, 2> operands, inits;
  if (p.parseCommaSeparatedList([&]() -> ParseResult {
        if (p.parseLParen() || p.parseOperand(operands.emplace_back()) ||
            p.parseKeyword("init") || p.parseColon() ||
            p.parseOperand(inits.emplace_back()) || p.parseRParen())
          return failure();
        return success();
      }))
    return failure();
  operands.append(inits);
  SmallVector<int64_t> dims;
  NamedAttrList attrs;
  auto parseTail = [&](FunctionType &fn) -> ParseResult {
    if (p.parseKeyword("across") || p.parseKeyword("dimensions") ||
        p.parseEqual() || parseI64List(p, dims) ||
        p.parseOptionalAttrDict(attrs) || p.parseColon() || p.parseType(fn))
      return failure();
    return success();
  };
  auto finish = [&]() {
    NamedAttrList props;
    for (const NamedAttribute &a : attrs) {
      if (a.getName() == "dimensions")
        props.set(a.getName(), a.getValue());
      else
        result.attributes.push_back(a);
    }
    props.set("dimensions", b.getDenseI64ArrayAttr(dims));
    result.propertiesAttr = props.getDictionary(ctx);
  };
  if (failed(p.parseOptionalKeyword("applies"))) {
    FunctionType fn;
    if (parseTail(fn) || p.parseKeyword("reducer"))
      return failure();
    SmallVector<OpAsmParser::Argument> elems, accs;
    while (succeeded(p.parseOptionalLParen())) {
      OpAsmParser::Argument &x = elems.emplace_back();
      OpAsmParser::Argument &y = accs.emplace_back();
      if (p.parseArgument(x, /*allowType=*/true, /*allowAttrs=*/false) ||
          p.parseComma() ||
          p.parseArgument(y, /*allowType=*/true, /*allowAttrs=*/false) ||
          p.parseRParen())
        return failure();
    }
    elems.append(accs);
    if (p.resolveOperands(operands, fn.getInputs(), loc, result.operands))
      return failure();
    result.addTypes(fn.getResults());
    if (p.parseRegion(*result.addRegion(), elems))
      return failure();
    finish();
    return success();
  }
  StringRef inner;
  SMLoc innerLoc = p.getCurrentLocation();
  if (p.parseKeyword(&inner))
    return failure();
  if (!isCommutativeBinary(inner))
    return p.emitError(innerLoc,
                       "expected the inner-op to be a commutative binary-op "
                       "from the stablehlo dialect, with zero region, "
                       "producing single result");
  FunctionType fn;
  std::optional<Location> explicitLoc;
  if (parseTail(fn) || p.parseOptionalLocationSpecifier(explicitLoc))
    return failure();
  if (fn.getNumInputs() == 0)
    return p.emitError(loc, "input types missing in reduce-op function type");
  if (p.resolveOperands(operands, fn.getInputs(), loc, result.operands))
    return failure();
  auto shaped = dyn_cast<ShapedType>(fn.getInput(0));
  if (!shaped)
    return p.emitError(loc, "expected a shaped input type");
  Location opLoc = explicitLoc.value_or(here);
  Type elem = RankedTensorType::get({}, shaped.getElementType());
  Region &region = *result.addRegion();
  Block &block = region.emplaceBlock();
  Value lhs = block.addArgument(elem, opLoc), rhs = block.addArgument(elem, opLoc);
  OperationState innerState(opLoc, inner);
  innerState.addOperands({lhs, rhs});
  innerState.addTypes(elem);
  Operation *innerOp = Operation::create(innerState);
  block.push_back(innerOp);
  OperationState ret(opLoc, "stablehlo.return");
  ret.addOperands(innerOp->getResults());
  block.push_back(Operation::create(ret));
  result.addTypes(fn.getResults());
  result.location = opLoc;
  finish();
  return success();
}

bool reduceCompact(Operation *op) {
  Region &body = op->getRegion(0);
  Block &block = body.front();
  if (block.empty() || std::next(block.begin()) == block.end() ||
      std::next(block.begin(), 2) != block.end())
    return false;
  Operation &inner = block.front();
  Operation &ret = block.back();
  if (!isCommutativeBinary(inner.getName().getStringRef()) ||
      inner.getNumOperands() != 2 || inner.getNumResults() != 1 ||
      inner.getNumRegions() != 0 || !inner.getAttrs().empty() ||
      inner.getPropertiesAsAttribute())
    return false;
  Type t = inner.getResult(0).getType();
  if (inner.getOperand(0).getType() != t || inner.getOperand(1).getType() != t)
    return false;
  if (op->getNumOperands() == 0)
    return false;
  auto shaped = dyn_cast<ShapedType>(op->getOperand(0).getType());
  if (!shaped || t != RankedTensorType::get({}, shaped.getElementType()))
    return false;
  if (!llvm::equal(block.getArguments(), inner.getOperands()))
    return false;
  if (ret.getName().getStringRef() != "stablehlo.return")
    return false;
  return llvm::equal(inner.getResults(), ret.getOperands());
}

bool printReduce(Operation *op, OpAsmPrinter *p) {
  unsigned n = op->getNumOperands();
  if (n == 0 || n % 2 || op->getNumRegions() != 1 ||
      !op->getRegion(0).hasOneBlock())
    return false;
  auto props = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (!props || props.size() != 1)
    return false;
  auto dims = dyn_cast_or_null<DenseI64ArrayAttr>(props.get("dimensions"));
  Block &block = op->getRegion(0).front();
  if (!dims || block.getNumArguments() != n)
    return false;
  if (!p)
    return true;
  unsigned pairs = n / 2;
  for (unsigned i = 0; i < pairs; ++i) {
    if (i)
      *p << ", ";
    *p << "(" << op->getOperand(i) << " init: " << op->getOperand(i + pairs)
       << ")";
  }
  bool compact = reduceCompact(op);
  if (compact) {
    *p << " applies ";
    p->printKeywordOrString(block.front().getName().getStringRef());
  }
  *p << " across dimensions = ";
  printI64List(*p, dims.asArrayRef());
  p->printOptionalAttrDict(op->getAttrs(), {"dimensions"});
  *p << " : ";
  p->printFunctionalType(op);
  if (!compact) {
    p->printNewline();
    *p << " reducer";
    for (unsigned i = 0; i < pairs; ++i) {
      *p << "(";
      p->printRegionArgument(block.getArgument(i));
      *p << ", ";
      p->printRegionArgument(block.getArgument(i + pairs));
      *p << ") ";
    }
    *p << ' ';
    p->printRegion(op->getRegion(0), /*printEntryBlockArgs=*/false);
  }
  return true;
}

ParseResult parseWhile(OpAsmParser &p, OperationState &result) {
  SMLoc loc = p.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> operands, iterArgs;
  if (p.parseLParen())
    return failure();
  do {
    if (succeeded(p.parseOptionalRParen()))
      break;
    OpAsmParser::UnresolvedOperand operand, iterArg;
    if (p.parseOperand(iterArg) || p.parseEqual() || p.parseOperand(operand))
      return failure();
    iterArgs.push_back(iterArg);
    operands.push_back(operand);
    if (succeeded(p.parseOptionalRParen()))
      break;
    if (failed(p.parseComma()))
      return failure();
  } while (true);
  if (!operands.empty() &&
      (p.parseColon() || p.parseTypeList(result.types)))
    return failure();
  if (result.types.size() != operands.size())
    return p.emitError(loc) << operands.size() << " operands but "
                            << result.types.size() << " types";
  SmallVector<OpAsmParser::Argument> args;
  for (auto [name, type] : llvm::zip(iterArgs, result.types)) {
    OpAsmParser::Argument &arg = args.emplace_back();
    arg.ssaName = name;
    arg.type = type;
  }
  if (p.resolveOperands(operands, result.types, loc, result.operands) ||
      p.parseOptionalAttrDictWithKeyword(result.attributes) ||
      p.parseKeyword("cond") || p.parseRegion(*result.addRegion(), args) ||
      p.parseKeyword("do") || p.parseRegion(*result.addRegion(), args))
    return failure();
  return success();
}

bool printWhile(Operation *op, OpAsmPrinter *p) {
  if (op->getNumRegions() != 2 || op->getPropertiesAsAttribute() ||
      op->getNumOperands() != op->getNumResults())
    return false;
  Region &cond = op->getRegion(0), &body = op->getRegion(1);
  if (!cond.hasOneBlock() || !body.hasOneBlock() ||
      body.getNumArguments() != op->getNumOperands() ||
      cond.getNumArguments() != op->getNumOperands())
    return false;
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    Type t = op->getOperand(i).getType();
    if (op->getResult(i).getType() != t || body.getArgument(i).getType() != t ||
        cond.getArgument(i).getType() != t)
      return false;
  }
  if (!p)
    return true;
  *p << '(';
  llvm::interleaveComma(llvm::zip(body.getArguments(), op->getOperands()), *p,
                        [&](auto zip) {
                          p->printOperand(std::get<0>(zip));
                          *p << " = ";
                          p->printOperand(std::get<1>(zip));
                        });
  *p << ")";
  if (op->getNumOperands()) {
    *p << " : ";
    llvm::interleaveComma(op->getOperandTypes(), *p);
  }
  p->printOptionalAttrDictWithKeyword(op->getAttrs());
  p->printNewline();
  *p << "cond ";
  p->printRegion(cond, /*printEntryBlockArgs=*/false);
  *p << " do ";
  p->printRegion(body, /*printEntryBlockArgs=*/false);
  return true;
}

using HandParse = ParseResult (*)(OpAsmParser &, OperationState &);
using HandPrint = bool (*)(Operation *, OpAsmPrinter *);

struct HandOp {
  const char *name;
  HandParse parse;
  HandPrint print;
};

const HandOp kHandOps[] = {
    {"stablehlo.constant", parseConstant, printConstant},
    {"stablehlo.reduce", parseReduce, printReduce},
    {"stablehlo.while", parseWhile, printWhile},
    {"sdy.constant", parseConstant, printConstant},
    // `attr-dict $value` with the result type inferred from the value: what
    // the hand-written stablehlo.constant prints and reads.
    {"chlo.constant", parseConstant, printConstant},
};

const HandOp *lookupHand(StringRef name) {
  for (const HandOp &h : kHandOps)
    if (name == h.name)
      return &h;
  return nullptr;
}

ParseResult parseAny(OpAsmParser &p, OperationState &result) {
  StringRef name = result.name.getStringRef();
  if (const HandOp *h = lookupHand(name))
    return h->parse(p, result);
  if (const Spec *spec = lookup(name))
    return parseWithSpec(p, result, *spec);
  return p.emitError(p.getCurrentLocation(), "custom op '")
         << name << "' is unknown";
}

//===----------------------------------------------------------------------===//
// Value names (OpAsmOpInterface for unregistered ops)
//===----------------------------------------------------------------------===//

// Ops whose results mlir-tblgen names after their ODS names (two or more
// results, all named: it then gives the op OpAsmOpInterface).
struct NamedResults {
  const char *op;
  const char *names[3];
};
const NamedResults kNamedResults[] = {
    {"stablehlo.rng_bit_generator", {"output_state", "output", nullptr}},
    {"stablehlo.batch_norm_training", {"output", "batch_mean", "batch_var"}},
    {"stablehlo.batch_norm_grad", {"grad_operand", "grad_scale", "grad_offset"}},
    {"chlo.top_k", {"values", "indices", nullptr}},
    // Named only where `tpu` ops print in their custom form (a plugin host).
    {"tpu.sort", {"output_mask", "sorted_keys", "sorted_values"}},
    {"tpu.scan_count", {"out_mask", "counts", nullptr}},
};

const NamedResults *namedResults(StringRef op) {
  for (const NamedResults &n : kNamedResults)
    if (op == n.op)
      return &n;
  return nullptr;
}

struct AsmNames
    : public detail::OpAsmOpInterfaceInterfaceTraits::FallbackModel<AsmNames> {
  void getAsmResultNames(Operation *op, OpAsmSetValueNameFn setName) const {
    if (const NamedResults *n = namedResults(op->getName().getStringRef())) {
      unsigned count = n->names[2] ? 3 : 2;
      if (op->getNumResults() == count)
        for (unsigned i = 0; i < count; ++i)
          setName(op->getResult(i), n->names[i]);
      return;
    }
    if (op->getName().getStringRef() != "stablehlo.constant" ||
        op->getNumResults() != 1)
      return;
    auto shaped = dyn_cast<ShapedType>(op->getResult(0).getType());
    bool integer = shaped && isa<IntegerType>(shaped.getElementType());
    setName(op->getResult(0), integer ? "c" : "cst");
  }
  void getAsmBlockArgumentNames(Operation *op, Region &region,
                                OpAsmSetValueNameFn setName) const {
    if (op->getName().getStringRef() != "stablehlo.while")
      return;
    for (BlockArgument arg : region.getArguments())
      setName(arg, "iterArg");
  }
  void getAsmBlockNames(Operation *, OpAsmSetBlockNameFn) const {}
  static StringRef getDefaultDialect() { return ""; }
};

} // namespace

std::optional<Dialect::ParseOpHook> parseHook(StringRef opName) {
  if (lookupHand(opName) || lookup(opName))
    return Dialect::ParseOpHook(parseAny);
  return std::nullopt;
}

llvm::unique_function<void(Operation *, OpAsmPrinter &)>
printHook(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (const HandOp *h = lookupHand(name)) {
    if (!h->print(op, nullptr))
      return nullptr;
    HandPrint print = h->print;
    return [print](Operation *op, OpAsmPrinter &p) { print(op, &p); };
  }
  const Spec *spec = lookup(name);
  // `tpu` ops print generic in the crate's contexts: the crate prints their
  // custom form from the generic text (src/pretty, generic_to_pretty). In a
  // plugin host (mlir-opt) they print in their custom form here.
  if (!spec || (spec->tpu && !tpuPrintsCustomForm(op->getContext())))
    return nullptr;
  PrintCtx dry{op, *spec, nullptr};
  if (!fits(op, *spec, dry))
    return nullptr;
  return [spec](Operation *op, OpAsmPrinter &p) {
    PrintCtx c{op, *spec, &p};
    fits(op, *spec, c);
  };
}

void *interfaceFor(TypeID interface, OperationName name) {
  if (interface != OpAsmOpInterface::getInterfaceID())
    return nullptr;
  StringRef n = name.getStringRef();
  if (n != "stablehlo.constant" && n != "stablehlo.while" && !namedResults(n))
    return nullptr;
  if (n.starts_with("tpu.") && !tpuPrintsCustomForm(name.getContext()))
    return nullptr;
  static AsmNames *model = new AsmNames();
  return static_cast<detail::OpAsmOpInterfaceInterfaceTraits::Concept *>(model);
}

} // namespace asmfmt
} // namespace tcc
