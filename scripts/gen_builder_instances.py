#!/usr/bin/env python3
"""Generates tests/integration/builders_all_ops.rs: for every `tpu` op instance
in the jaxlib-verified fixtures mlir-fixtures/pretty/*.generic.mlir, a Rust
function that rebuilds the op with its typed builder from src/mosaic/ops.rs,
taking the operands and result types of the parsed op and the attributes as
typed Rust literals. Attributes equal to jaxlib's default are passed as `None`,
so the test also checks that the builders materialise the defaults.

The test (tests/integration/builders.rs) swaps each op for the rebuilt one,
checks the kernel prints exactly as jaxlib printed it, and has jaxlib parse and
verify the rebuilt kernels.

Run: python3 scripts/gen_builder_instances.py  (then `cargo fmt`).
"""
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from op_table import ROOT, RUST_KEYWORDS, TABLE, load_table  # noqa: E402

ops, defaults = load_table()


def split_top(text, sep=", "):
    """Splits at `sep` outside brackets and quotes."""
    parts, depth, quote, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    parts.append(text[start:])
    return [p for p in parts if p]


def ints(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def bracket_lists(text):
    return [ints(m) for m in re.findall(r"\[([^\]]*)\]", text)]


def enum_value(text):
    return re.search(r"<(.*)>", text).group(1)


def literal(kind, text):
    if kind == "BoolAttr":
        return text
    if kind in ("I32Attr", "SI32Attr", "I64Attr"):
        return str(ints(text)[0])
    if kind == "StrAttr":
        return text
    if kind == "TypeAttr":
        return f'Type::parse(ctx, "{text}").expect("type")'
    if kind == "DenseI32ArrayAttr" or kind == "DenseI64ArrayAttr":
        body = text.split(":", 1)[1] if ":" in text else ""
        return "&[" + ", ".join(str(v) for v in ints(body)) + "]"
    if kind == "DenseBoolArrayAttr":
        body = text.split(":", 1)[1] if ":" in text else ""
        return "&[" + ", ".join(re.findall(r"true|false", body)) + "]"
    enum_types = {
        "tpu.TPU_RoundingModeEnum": "RoundingMode",
        "tpu.TPU_ReductionKindAttr": "ReductionKind",
        "tpu.TPU_ContractPrecisionEnum": "ContractPrecision",
        "tpu.TPU_PackFormatEnum": "PackFormat",
    }
    if kind in enum_types:
        return f'"{enum_value(text)}".parse::<{enum_types[kind]}>().expect("enum")'
    if kind == "TPU_MemorySpaceAttr":
        parts = [p.strip() for p in enum_value(text).split(",")]
        core = f'Some("{parts[1]}".parse::<CoreType>().expect("core type"))' if len(parts) > 1 else "None"
        return f'("{parts[0]}".parse::<MemorySpace>().expect("memory space"), {core})'
    if kind == "TPU_DotDimensionNumbersAttr":
        l = bracket_lists(text)
        names = ["lhs_contracting_dims", "rhs_contracting_dims", "lhs_non_contracting_dims",
                 "rhs_non_contracting_dims", "output_dim_order", "lhs_batch_dims", "rhs_batch_dims"]
        fields = ", ".join(f"{n}: vec!{v}" for n, v in zip(names, l))
        return f"&DotDimensionNumbers {{ {fields} }}"
    if kind == "TPU_ConvDimensionNumbersAttr":
        inner = enum_value(text)
        parts = split_top(inner)
        v = [p.strip() for p in parts]
        as_list = lambda s: "vec!" + str(ints(s))
        return ("&ConvDimensionNumbers { "
                f"input_batch: {v[0]}, input_feature: {v[1]}, input_spatial: {as_list(v[2])}, "
                f"kernel_input_feature: {v[3]}, kernel_output_feature: {v[4]}, kernel_spatial: {as_list(v[5])}, "
                f"output_batch: {v[6]}, output_feature: {v[7]}, output_spatial: {as_list(v[8])} }}")
    raise SystemExit(f"no literal for {kind}: {text}")


OP_RE = re.compile(r'^\s*(?:%[\w#:]+ = )?"(tpu\.\w+)"\((.*?)\)(?: <\{(.*)\}>)?(?: \(\{)?.*?: \((.*?)\) -> (.*)$')


def gen_call(name, line):
    m = re.match(r'^\s*(?:%[\w#:]+ = )?"(tpu\.\w+)"\(([^)]*)\)', line)
    operand_text = m.group(2)
    n_operands = len([x for x in operand_text.split(",") if x.strip()])
    pm = re.search(r"<\{(.*)\}>", line)
    props = {}
    if pm:
        for entry in split_top(pm.group(1)):
            k, v = entry.split(" = ", 1)
            props[k] = v
    op = ops[name]
    args = []
    # Operands.
    if op["segmented"]:
        sizes = ints(props["operandSegmentSizes"].split(":", 1)[1])
    else:
        fixed = sum(1 for o, kind in op["operands"] if kind == "single")
        extra = n_operands - fixed
        n_variadic = sum(1 for o, kind in op["operands"] if kind == "variadic")
        if n_variadic > 1:  # SameVariadicOperandSize: an equal split
            extra //= n_variadic
        sizes = []
        for o, kind in op["operands"]:
            if kind == "variadic":
                sizes.append(extra)
            elif kind == "optional":
                sizes.append(1 if extra > 0 else 0)
            else:
                sizes.append(1)
    index = 0
    for (oname, kind), size in zip(op["operands"], sizes):
        vals = [f"operand({index + i})" for i in range(size)]
        index += size
        if kind == "single":
            args.append(vals[0])
        elif kind == "optional":
            args.append(f"Some({vals[0]})" if vals else "None")
        else:
            args.append("&[" + ", ".join(vals) + "]")
    assert index == n_operands, (name, line)
    # Results.
    if not op["infer"]:
        ri = 0
        for rname, mode in op["results"]:
            if mode == "variadic":
                args.append(f"&(({ri})..old.result_count()).map(result).collect::<Vec<_>>()")
            else:
                args.append(f"result({ri})")
                ri += 1
    op_defaults = defaults.get(name, {})
    for aname, kind in op["req_attrs"]:
        args.append(literal(kind, props[aname]))
    for aname, kind in op["opt_attrs"]:
        if aname not in props:
            args.append("None")
        elif op_defaults.get(aname) == props[aname]:
            args.append("None")
        else:
            args.append(f"Some({literal(kind, props[aname])})")
    if op["regions"]:
        args.append("take_region(old)")
    args.append("location")
    short = name[4:]
    fn = "r#" + short if short in RUST_KEYWORDS else short
    fallible = name in ("tpu.concatenate", "tpu.scan_count")
    call = f"ops::{fn}(ctx, {', '.join(args)})"
    return call + ('.expect("inferable")' if fallible else "")


out = [
    "// Generated by scripts/gen_builder_instances.py from mlir-fixtures/pretty/*.generic.mlir",
    f"// and {TABLE}. Do not edit; rerun the script.",
    "",
    "//! One builder call per `tpu` op instance of the jaxlib-verified fixtures.",
    "",
    "#![allow(unused_variables, unused_imports, clippy::all)]",
    "",
    "use tpu_custom_call::melior::Context as MlirContext;",
    "use tpu_custom_call::melior::ir::operation::OperationLike;",
    "use tpu_custom_call::melior::ir::{Location, Operation, OperationRef, Type, ValueLike};",
    "use tpu_custom_call::mosaic::attrs::{",
    "    ContractPrecision, ConvDimensionNumbers, CoreType, DotDimensionNumbers, MemorySpace,",
    "    PackFormat, ReductionKind, RoundingMode,",
    "};",
    "use tpu_custom_call::mosaic::ops;",
    "",
    "use super::builders::take_region;",
    "",
    "/// Rebuilds one op from the parsed one.",
    "pub type Rebuild = for<'c, 'a> fn(&'c MlirContext, OperationRef<'c, 'a>, Location<'c>) -> Operation<'c>;",
    "",
]
cases = []
for path in sorted(glob.glob(os.path.join(ROOT, "mlir-fixtures/pretty/*.generic.mlir"))):
    fname = os.path.basename(path)
    stem = fname[: -len(".generic.mlir")].replace(".", "_").replace("-", "_")
    fns = []
    for i, line in enumerate(l for l in open(path) if re.match(r'^\s*(?:%[\w#:]+ = )?"tpu\.', l)):
        name = re.search(r'"(tpu\.\w+)"', line).group(1)
        fn_name = f"{stem}_{i}"
        out.append(f"/// `{name}` #{i} of `{fname}`.")
        out.append(f"fn {fn_name}<'c, 'a>(ctx: &'c MlirContext, old: OperationRef<'c, 'a>, location: Location<'c>) -> Operation<'c> {{")
        out.append("    let operand = |i: usize| old.operand(i).expect(\"operand\");")
        out.append("    let result = |i: usize| old.result(i).expect(\"result\").r#type();")
        out.append(f"    {gen_call(name, line)}")
        out.append("}")
        out.append("")
        fns.append(fn_name)
    cases.append((fname, fns))
out.append("/// Every fixture with its ops' rebuilders, in walk order.")
out.append("pub const CASES: &[(&str, &[Rebuild])] = &[")
for fname, fns in cases:
    out.append(f'    ("{fname}", &[{", ".join(fns)}]),')
out.append("];")
# `--out PATH` writes elsewhere (the up-to-date test compares the output).
path = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else os.path.join(ROOT, "tests/integration/builders_all_ops.rs")
open(path, "w").write("\n".join(out) + "\n")
print(f"wrote tests/integration/builders_all_ops.rs: {sum(len(f) for _, f in cases)} op instances in {len(cases)} fixtures")
