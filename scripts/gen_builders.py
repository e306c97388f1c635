#!/usr/bin/env python3
"""Generates src/mosaic/ops.rs: one typed builder per `tpu` op of jaxlib 0.12.

Input: data/mosaic/tpu-ops.json, the op table the verifier uses (operands
with their kinds, segment sizes, results, attributes with jaxlib's defaults,
regions, result inference), read from jaxlib 0.12 (documented in
data/mosaic/README.md).

Run: python3 scripts/gen_builders.py  (then `cargo fmt`).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from op_table import ROOT, RUST_KEYWORDS, TABLE, load_table  # noqa: E402

ops, defaults = load_table()


# Attribute kind -> (parameter type, expression making the attribute from `v`).
ATTR_KINDS = {
    "BoolAttr": ("bool", "attrs::bool_attr(ctx, {v})"),
    "I32Attr": ("i32", "attrs::i32_attr(ctx, {v})"),
    "SI32Attr": ("i32", "attrs::si32_attr(ctx, {v})"),
    "I64Attr": ("i64", "attrs::i64_attr(ctx, {v})"),
    "StrAttr": ("&str", "attrs::str_attr(ctx, {v})"),
    "TypeAttr": ("Type<'c>", "attrs::type_attr({v})"),
    "DenseI32ArrayAttr": ("&[i32]", "attrs::i32_array_attr(ctx, {v})"),
    "DenseI64ArrayAttr": ("&[i64]", "attrs::i64_array_attr(ctx, {v})"),
    "DenseBoolArrayAttr": ("&[bool]", "attrs::bool_array_attr(ctx, {v})"),
    "tpu.TPU_RoundingModeEnum": ("RoundingMode", "{v}.attribute(ctx)"),
    "tpu.TPU_ReductionKindAttr": ("ReductionKind", "{v}.attribute(ctx)"),
    "tpu.TPU_ContractPrecisionEnum": ("ContractPrecision", "{v}.attribute(ctx)"),
    "tpu.TPU_PackFormatEnum": ("PackFormat", "{v}.attribute(ctx)"),
    "TPU_DotDimensionNumbersAttr": ("&DotDimensionNumbers", "{v}.attribute(ctx)"),
    "TPU_ConvDimensionNumbersAttr": ("&ConvDimensionNumbers", "{v}.attribute(ctx)"),
    "TPU_MemorySpaceAttr": ("(MemorySpace, Option<CoreType>)", "attrs::memory_space(ctx, {v}.0, {v}.1)"),
}

# Result types jaxlib infers (InferTypeOpInterface), probed with jaxlib 0.12:
# op -> list of Rust expressions (one per result); `?` marks a fallible rule.
INFER = {
    "tpu.annotate": ["operand.r#type()"],
    "tpu.assume_multiple": ["value.r#type()"],
    "tpu.concatenate": ["support::concatenate_type(sources, dimension)?"],
    "tpu.core_id": ["support::i32_type(ctx)"],
    "tpu.device_id": ["support::i32_type(ctx)"],
    "tpu.subcore_id": ["support::i32_type(ctx)"],
    "tpu.iteration_bound": ["support::i32_type(ctx)"],
    "tpu.sem_read": ["support::i32_type(ctx)"],
    "tpu.tile_size": ["support::i32_type(ctx)"],
    "tpu.dynamic_gather": ["source.r#type()"],
    "tpu.dynamic_rotate": ["value.r#type()"],
    "tpu.fetch_and_add_sync": ["value.r#type()"],
    "tpu.logistic": ["input.r#type()"],
    "tpu.memref_memory_space_is": ["support::i1_type(ctx)"],
    "tpu.reciprocal": ["input.r#type()"],
    "tpu.reduce_precision": ["input.r#type()"],
    "tpu.scan_count": ["in_mask.r#type()", "support::scan_count_type(ctx, values)?"],
    "tpu.sublane_shuffle": ["lhs.r#type()"],
}


def snake(name):
    name = name.rstrip("_")
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return name + "_" if name in RUST_KEYWORDS else name


def fn_name(op):
    short = op[len("tpu."):]
    return "r#" + short if short in RUST_KEYWORDS else short


def default_expr(kind, text):
    if kind == "BoolAttr":
        return text
    m = re.fullmatch(r"(-?\d+) : (i32|si32|i64)", text)
    if m:
        return m.group(1)
    raise SystemExit(f"unsupported default {text!r} of kind {kind}")


def gen_op(name, op):
    segmented = op["segmented"]
    params, doc_args, body = [], [], []
    operand_pieces = []  # (rust name, kind): kind in single/optional/variadic
    for oname, kind in op["operands"]:
        rname = snake(oname)
        ty = {"single": "Value<'c, '_>", "optional": "Option<Value<'c, '_>>",
              "variadic": "&[Value<'c, '_>]"}[kind]
        params.append(f"{rname}: {ty}")
        doc_args.append(f"/// - `{rname}`: operand `{oname.rstrip('_')}`"
                        + {"single": "", "optional": " (optional)", "variadic": " (variadic)"}[kind] + ".")
        operand_pieces.append((rname, kind))
    infer = INFER.get(name)
    fallible = bool(infer) and any(e.endswith("?") for e in infer)
    if op["infer"] and infer is None:
        raise SystemExit(f"no inference rule for {name}")
    result_exprs = []
    if infer:
        result_exprs = infer
    else:
        for rname, mode in op["results"]:
            r = snake(rname) + "_type"
            if mode == "variadic":
                params.append(f"{r}: &[Type<'c>]")
                doc_args.append(f"/// - `{r}`: the types of the variadic result `{rname.rstrip('_')}`.")
                result_exprs.append(f"..{r}")
            else:
                params.append(f"{r}: Type<'c>")
                doc_args.append(f"/// - `{r}`: the type of result `{rname}`.")
                result_exprs.append(r)
    op_defaults = defaults.get(name, {})
    props = []
    for aname, kind in op["req_attrs"]:
        pty, expr = ATTR_KINDS[kind]
        rname = snake(aname)
        params.append(f"{rname}: {pty}")
        doc_args.append(f"/// - `{rname}`: attribute `{aname}` ({kind}).")
        props.append(f"props.push((\"{aname}\", {expr.format(v=rname)}));")
    for aname, kind in op["opt_attrs"]:
        pty, expr = ATTR_KINDS[kind]
        rname = snake(aname)
        params.append(f"{rname}: Option<{pty}>")
        if aname in op_defaults:
            d = default_expr(kind, op_defaults[aname])
            doc_args.append(f"/// - `{rname}`: attribute `{aname}` ({kind}); `None` is jaxlib's default `{op_defaults[aname]}`.")
            props.append(f"props.push((\"{aname}\", {expr.format(v=f'{rname}.unwrap_or({d})')}));")
        else:
            doc_args.append(f"/// - `{rname}`: optional attribute `{aname}` ({kind}); `None` leaves it out.")
            props.append(f"if let Some(v) = {rname} {{ props.push((\"{aname}\", {expr.format(v='v')})); }}")
    nregions = op["regions"]
    if nregions:
        params.append("region: Region<'c>")
        doc_args.append("/// - `region`: the op's region.")
    params.append("location: Location<'c>")

    lines = []
    lines.append(f"/// Builds `{name}` (jaxlib `{op['class']}`), as jaxlib's builder makes it.")
    lines.append("///")
    lines.extend(doc_args)
    if infer:
        lines.append("///")
        lines.append("/// The result types are inferred as jaxlib infers them.")
    if fallible:
        lines.append("///")
        lines.append("/// Fails when the operand types do not allow the inference.")
    ret = "Result<Operation<'c>, BuildError>" if fallible else "Operation<'c>"
    uses_ctx = True
    lines.append(f"pub fn {fn_name(name)}<'c>(ctx: &'c MlirContext, {', '.join(params)}) -> {ret} {{")
    body = []
    if operand_pieces:
        body.append("let mut operands: Vec<Value<'c, '_>> = Vec::new();")
        for rname, kind in operand_pieces:
            if kind == "single":
                body.append(f"operands.push({rname});")
            elif kind == "optional":
                body.append(f"operands.extend({rname});")
            else:
                body.append(f"operands.extend_from_slice({rname});")
    else:
        body.append("let operands: Vec<Value<'c, '_>> = Vec::new();")
    if any(e.startswith("..") for e in result_exprs):
        body.append("let mut results: Vec<Type<'c>> = Vec::new();")
        for e in result_exprs:
            if e.startswith(".."):
                body.append(f"results.extend_from_slice({e[2:]});")
            else:
                body.append(f"results.push({e});")
    else:
        body.append(f"let results: Vec<Type<'c>> = vec![{', '.join(result_exprs)}];")
    if props:
        body.append("let mut props: Vec<(&str, Attribute<'c>)> = Vec::new();")
        body.extend(props)
    else:
        body.append("let props: Vec<(&str, Attribute<'c>)> = Vec::new();")
    if segmented:
        sizes = []
        for rname, kind in operand_pieces:
            sizes.append({"single": "1", "optional": f"i32::from({rname}.is_some())",
                          "variadic": f"support::count({rname})"}[kind])
        body.append(f"let segments = Some([{', '.join(sizes)}]);")
        seg = "segments.as_ref().map(|s| &s[..])"
    else:
        seg = "None"
    regions = "Some(region)" if nregions else "None"
    call = f"support::tpu_op(ctx, \"{name}\", &operands, &results, props, {seg}, {regions}, location)"
    body.append(f"Ok({call})" if fallible else call)
    lines.extend("    " + b for b in body)
    lines.append("}")
    return "\n".join(lines)


out = [
    f"// Generated by scripts/gen_builders.py from {TABLE} (the verifier's op table).",
    "// Do not edit; rerun the script.",
    "",
    "//! One builder per op of the `tpu` dialect of jaxlib 0.12 (all "
    f"{len(ops)}), generated",
    "//! from the op table the verifier uses. Each builder takes the op's operands by",
    "//! name (optional ones as `Option`, variadic ones as slices), its attributes as",
    "//! typed values (`None` for an optional attribute leaves it out, or gives jaxlib's",
    "//! default when the attribute has one), and its result types unless jaxlib",
    "//! infers them; it sets the properties (`operandSegmentSizes` included) exactly",
    "//! as jaxlib's builder does. Ops with many optional parts also have a",
    "//! hand-written builder with Pallas's defaults (`ops::Matmul::new(lhs, rhs,",
    "//! acc).transpose_rhs(true).build(ctx, loc)`, from `src/mosaic/op_options.rs`;",
    "//! `ops::EnqueueDma::new(src, dst, sem).device(id).priority(1)`, from",
    "//! `src/mosaic/dma_options.rs`).",
    "",
    "#![allow(clippy::too_many_arguments, clippy::vec_init_then_push)]",
    "#![allow(unused_mut)]",
    "",
    "use melior::Context as MlirContext;",
    "use melior::ir::{Attribute, Location, Operation, Region, Type, Value, ValueLike};",
    "",
    "use super::BuildError;",
    "use super::attrs::{",
    "    self, ContractPrecision, ConvDimensionNumbers, CoreType, DotDimensionNumbers, MemorySpace,",
    "    PackFormat, ReductionKind, RoundingMode,",
    "};",
    "use super::support;",
    "",
    "pub use super::dma_options::{EnqueueDma, SemSignal, WaitDma};",
    "pub use super::op_options::Matmul;",
    "",
    "/// The name of every op with a builder here, sorted.",
    "pub const OP_NAMES: &[&str] = &[" + ", ".join(f'"{n}"' for n in sorted(ops)) + "];",
    "",
]
for name in sorted(ops):
    out.append(gen_op(name, ops[name]))
    out.append("")
# `--out PATH` writes elsewhere (the up-to-date test compares the output).
path = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else os.path.join(ROOT, "src/mosaic/ops.rs")
open(path, "w").write("\n".join(out))
print(f"wrote {path}: {len(ops)} builders from {TABLE}")
