"""Generates data/mosaic/tpu-ops.json: the `tpu` dialect of jaxlib 0.12, op by op.

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/gen_op_table.py > data/mosaic/tpu-ops.json

How each field is obtained (all from the jaxlib in the venv, nothing from sources):
- operands, results, segments, regions, required/optional attributes and their kinds: read from the
  generated Python bindings `jaxlib.mosaic.python._tpu_ops_gen` (the `__init__` of each OpView class).
- defaults: `ir.Operation.create(name)` with no attributes, printed in generic form: the properties
  jaxlib materialises (`populateDefaultProperties`).
- operand/result type constraints: probing. Each op is parsed by jaxlib with every operand/result
  given candidate types in turn; `operand #N must be <summary>, but got '<type>'` gives the summary,
  the first candidate that passes is recorded as `example`. `accepts` lists every candidate that
  passed (probing continues through the whole candidate list).
- traits: the ODS traits that have a visible check (section 2a of mosaic-dialect.md), confirmed by
  the probe message jaxlib gives once all types are acceptable (`probe_error`).
"""
import inspect
import json
import re
import sys

import jaxlib
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir
from jaxlib.mosaic.python import _tpu_ops_gen as gen

ATTR_SAMPLE = {
    "I32Attr": "0 : i32",
    "I64Attr": "0 : i64",
    "SI32Attr": "0 : si32",
    "BoolAttr": "false",
    "DenseI32ArrayAttr": "array<i32>",
    "DenseI64ArrayAttr": "array<i64>",
    "DenseBoolArrayAttr": "array<i1>",
    "StrAttr": '""',
    "TypeAttr": "f32",
    "tpu.TPU_RoundingModeEnum": "#tpu.rounding_mode<to_nearest_even>",
    "tpu.TPU_ContractPrecisionEnum": "#tpu.contract_precision<fp32>",
    "tpu.TPU_PackFormatEnum": "#tpu.pack_format<compressed>",
    "tpu.TPU_ReductionKindAttr": "#tpu.reduction_kind<sum>",
    "TPU_DotDimensionNumbersAttr": "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>",
    "TPU_ConvDimensionNumbersAttr": "#tpu.conv_dimension_numbers<0, 1, [2], 0, 1, [2], 0, 1, [2]>",
    "TPU_MemorySpaceAttr": "#tpu.memory_space<vmem>",
}

# What an attribute kind is, for a verifier: the storage class property conversion demands, and the
# constraint summary when only the integer width/signedness is wrong.
KINDS = {
    "I32Attr": {"storage": "integer", "width": 32, "signedness": "signless",
                "summary": "32-bit signless integer attribute"},
    "I64Attr": {"storage": "integer", "width": 64, "signedness": "signless",
                "summary": "64-bit signless integer attribute"},
    "SI32Attr": {"storage": "integer", "width": 32, "signedness": "signed",
                 "summary": "32-bit signed integer attribute"},
    "BoolAttr": {"storage": "bool"},
    "DenseI32ArrayAttr": {"storage": "array", "element": "i32"},
    "DenseI64ArrayAttr": {"storage": "array", "element": "i64"},
    "DenseBoolArrayAttr": {"storage": "array", "element": "i1"},
    "StrAttr": {"storage": "string"},
    "TypeAttr": {"storage": "type"},
    "tpu.TPU_RoundingModeEnum": {"storage": "tpu", "mnemonic": "rounding_mode",
                                 "values": ["towards_zero", "to_nearest_even"]},
    "tpu.TPU_ContractPrecisionEnum": {"storage": "tpu", "mnemonic": "contract_precision",
                                      "values": ["bf16", "fp32", "bf16x3"]},
    "tpu.TPU_PackFormatEnum": {"storage": "tpu", "mnemonic": "pack_format",
                               "values": ["compressed", "interleaved"]},
    "tpu.TPU_ReductionKindAttr": {"storage": "tpu", "mnemonic": "reduction_kind",
                                  "values": ["sum", "max", "min", "arg_max", "arg_min", "find_first_set",
                                             "maxf", "minf", "maxsi", "minsi", "maxui", "minui"]},
    "TPU_DotDimensionNumbersAttr": {"storage": "tpu", "mnemonic": "dot_dimension_numbers"},
    "TPU_ConvDimensionNumbersAttr": {"storage": "tpu", "mnemonic": "conv_dimension_numbers"},
    "TPU_MemorySpaceAttr": {"storage": "tpu", "mnemonic": "memory_space",
                            "values": ["any", "vmem", "smem", "hbm", "cmem", "semaphore_mem", "vmem_shared",
                                       "host"]},
}

# ODS traits with a visible check, from mosaic-dialect.md section 2a (confirmed by probe_error).
TRAITS = {
    "SameOperandsAndResultType": ["reciprocal", "logistic", "assume_multiple", "sublane_shuffle",
                                  "reduce_precision", "annotate"],
    "SameOperandsAndResultShape": ["scan_count", "stochastic_convert"],
    "SameOperandsAndResultRank": ["reduce"],
    "SameTypeOperands": ["pack_subelements", "pack_elementwise", "pack_vmsk"],
    "AllTypesMatch(value,result)": ["dynamic_rotate"],
    "AllElementTypesMatch(source,output)": ["dynamic_gather"],
    "InferTypeOpInterface": ["concatenate", "dynamic_gather", "scan_count"],
}

CANDIDATES = [
    "i32", "index", "i1", "f32", "i64", "si32", "bf16",
    "vector<8x128xf32>", "vector<8x128xi32>", "vector<8x128xi1>", "vector<8x128xbf16>", "vector<16xi32>",
    "vector<16xi1>", "vector<8xf32>", "vector<2x8x128xf32>", "vector<8x128xindex>", "vector<f32>",
    "memref<8x128xf32, #tpu.memory_space<vmem>>", "memref<8x128xi32, #tpu.memory_space<vmem>>",
    "memref<16xi32, #tpu.memory_space<vmem>>", "memref<i32, #tpu.memory_space<smem>>",
    "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>",
    "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>",
    "memref<8x128xf32>", "memref<8x128xf32, #tpu.memory_space<hbm>>",
]

OPERAND_RE = re.compile(r"^\s*(if (\w+) is not None: )?operands\.(append|extend)\((_get_op_results_or_values\()?(\w+)")
ATTR_RE = re.compile(r"^\s*(if (\w+) is not None: )?attributes\[\"(\w+)\"\]")
KIND_RE = re.compile(r"AttrBuilder\.get\('([\w.]+)'\)")
RESULT_RE = re.compile(r"^\s*(if (\w+) is not None: )?results\.(append|extend)\((\w+)\)")


def bindings():
    ops = {}
    for _, cls in inspect.getmembers(gen, inspect.isclass):
        name = getattr(cls, "OPERATION_NAME", None)
        if not name or cls.__name__.endswith("Adaptor"):
            continue
        src = inspect.getsource(cls.__init__)
        segs = getattr(cls, "_ODS_OPERAND_SEGMENTS", None)
        rsegs = getattr(cls, "_ODS_RESULT_SEGMENTS", None)
        sig = inspect.signature(cls.__init__)
        operands, attrs, results = [], [], []
        lines = src.splitlines()
        for i, line in enumerate(lines):
            m = OPERAND_RE.match(line)
            if m:
                opt, method, multi, var = m.group(1), m.group(3), m.group(4), m.group(5)
                operands.append({"name": var, "kind": "optional" if opt else (
                    "variadic" if (method == "extend" or multi) else "single")})
                continue
            m = ATTR_RE.match(line)
            if m:
                kind = None
                for j in range(i, min(i + 5, len(lines))):
                    k = KIND_RE.search(lines[j])
                    if k:
                        kind = k.group(1)
                        break
                attrs.append({"name": m.group(3), "kind": kind, "required": not m.group(1)})
                continue
            m = RESULT_RE.match(line)
            if m:
                results.append({"name": m.group(4), "kind": "optional" if m.group(1) else (
                    "variadic" if m.group(3) == "extend" else "single")})
        if segs is not None:
            # The segment spec is authoritative for segmented ops: -1 variadic, 0 optional, 1 single.
            for o, s in zip(operands, segs):
                o["kind"] = {-1: "variadic", 0: "optional", 1: "single"}[s]
        if rsegs is not None:
            for r, s in zip(results, rsegs):
                r["kind"] = {-1: "variadic", 0: "optional", 1: "single"}[s]
        infer = "results" in sig.parameters and not results
        if infer:
            for pname, member in cls.__dict__.items():
                if isinstance(member, property):
                    psrc = inspect.getsource(member.fget)
                    if "self.operation.results" in psrc or "self.operation.result" in psrc:
                        results.append({"name": pname, "kind": "variadic" if "results[" in psrc and ":" in psrc.split("results[")[1].split("]")[0] else "single"})
        for o in operands:
            ann = sig.parameters.get(o["name"])
            o["py_type"] = str(ann.annotation) if ann is not None else None
        regions = getattr(cls, "_ODS_REGIONS", (0, True))
        ops[name] = {
            "name": name,
            "class": cls.__name__,
            "operands": operands,
            "attributed_sized_operands": segs is not None,
            "attributed_sized_results": rsegs is not None,
            "results": results,
            "infers_result_types": infer,
            "result_types_from_operand0": "results = [operands[0].type]" in src,
            "regions": regions[0],
            "attributes": attrs,
        }
    return ops


def fill_defaults(ctx, ops):
    with ctx, ir.Location.unknown():
        for name, op in ops.items():
            o = ir.Operation.create(name, results=[], operands=[], attributes={})
            text = o.get_asm(print_generic_op_form=True, assume_verified=True)
            props = {}
            m = re.search(r"<\{(.*)\}>", text)
            if m:
                for item in split_top(m.group(1)):
                    k, v = item.split(" = ", 1)
                    props[k.strip()] = v.strip()
            for a in op["attributes"]:
                a["default"] = props.get(a["name"])
            op["materialised"] = props
            o.erase()


def split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def op_text(name, op, otypes, rtypes):
    """Generic op text: one func whose arguments are the operands."""
    counts = []
    flat = []
    for o, ts in zip(op["operands"], otypes):
        counts.append(len(ts))
        flat.extend(ts)
    attrs = []
    for a in op["attributes"]:
        if a["required"]:
            attrs.append(f"{a['name']} = {ATTR_SAMPLE.get(a['kind'], 'unit')}")
    if op["attributed_sized_operands"]:
        attrs.append("operandSegmentSizes = array<i32: " + ", ".join(map(str, counts)) + ">")
    rflat = [t for ts in rtypes for t in ts]
    if op["attributed_sized_results"]:
        attrs.append("resultSegmentSizes = array<i32: " + ", ".join(str(len(ts)) for ts in rtypes) + ">")
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(flat))
    use = ", ".join(f"%a{i}" for i in range(len(flat)))
    props = ("<{" + ", ".join(attrs) + "}>") if attrs else ""
    region = ' ({\n  "tpu.yield"() : () -> ()\n})' if op["regions"] else ""
    lhs = ""
    if rflat:
        lhs = "%r = " if len(rflat) == 1 else f"%r:{len(rflat)} = "
    return (f"func.func @k({args}) {{\n  {lhs}\"{name}\"({use}){props}{region} : "
            f"({', '.join(flat)}) -> ({', '.join(rflat)})\n  return\n}}\n")


def parse_error(ctx, text):
    with ctx:
        try:
            ir.Module.parse(text)
            return None
        except Exception as e:  # noqa: BLE001 - jaxlib raises MLIRError
            msg = str(e)
            m = re.search(r"error: [^\n]*?: (.*)", msg)
            return m.group(1) if m else msg


def probe(ctx, name, op):
    ods = []
    for o in op["operands"]:
        ods.append(1)
    rds = [1 for _ in op["results"]]
    oidx = [0] * len(ods)
    ridx = [0] * len(rds)
    osum = [None] * len(ods)
    rsum = [None] * len(rds)
    oacc = [[] for _ in ods]
    racc = [[] for _ in rds]
    last = None
    for _ in range(400):
        otypes = [[CANDIDATES[oidx[i]]] * ods[i] for i in range(len(ods))]
        rtypes = [[CANDIDATES[ridx[i]]] * rds[i] for i in range(len(rds))]
        err = parse_error(ctx, op_text(name, op, otypes, rtypes))
        last = err
        m = re.match(r"'[\w.]+' op (operand|result) #(\d+) must be (.*), but got '(.*)'$", err or "")
        if not m:
            break
        which, n = m.group(1), int(m.group(2))
        idx, counts, sums = (oidx, ods, osum) if which == "operand" else (ridx, rds, rsum)
        # flat index -> def index
        k, acc = 0, 0
        while acc + counts[k] <= n:
            acc += counts[k]
            k += 1
        sums[k] = m.group(3)
        idx[k] += 1
        if idx[k] >= len(CANDIDATES):
            idx[k] = len(CANDIDATES) - 1
            break
    # Operands/results whose first candidate passed: try others to find a constraint.
    def retry(which, k, idx, counts, sums):
        nonlocal last
        for cand in ["index", "vector<8x128xf32>", "f32", "memref<8x128xf32, #tpu.memory_space<vmem>>"]:
            save = idx[k]
            idx[k] = CANDIDATES.index(cand)
            otypes = [[CANDIDATES[oidx[i]]] * ods[i] for i in range(len(ods))]
            rtypes = [[CANDIDATES[ridx[i]]] * rds[i] for i in range(len(rds))]
            err = parse_error(ctx, op_text(name, op, otypes, rtypes))
            idx[k] = save
            m = re.match(r"'[\w.]+' op (operand|result) #(\d+) must be (.*), but got '(.*)'$", err or "")
            if m and m.group(1) == which and sum(counts[:k]) <= int(m.group(2)) < sum(counts[:k + 1]):
                sums[k] = m.group(3)
                return

    for k in range(len(ods)):
        if osum[k] is None:
            retry("operand", k, oidx, ods, osum)
    for k in range(len(rds)):
        if rsum[k] is None:
            retry("result", k, ridx, rds, rsum)
    for i, o in enumerate(op["operands"]):
        o["constraint"] = osum[i]
        o["example"] = CANDIDATES[oidx[i]] if osum[i] is not None or True else None
    for i, r in enumerate(op["results"]):
        r["constraint"] = rsum[i]
        r["example"] = CANDIDATES[ridx[i]]
    op["probe_error"] = last


def main():
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    ops = bindings()
    fill_defaults(ctx, ops)
    for name in sorted(ops):
        probe(ctx, name, ops[name])
    for trait, names in TRAITS.items():
        for n in names:
            ops.setdefault("tpu." + n, {}).setdefault("traits", []).append(trait)
    for op in ops.values():
        op.setdefault("traits", [])
    out = {
        "_generated": ("by scripts/jaxref/gen_op_table.py from jaxlib " + jaxlib.__version__ +
                       " (bindings _tpu_ops_gen.py; defaults from Operation.create; type constraints by "
                       "probing Module.parse with candidate types); fields documented in data/mosaic/README.md"),
        "attribute_kinds": KINDS,
        "ops": {k: ops[k] for k in sorted(ops)},
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
