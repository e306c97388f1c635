"""Generates tests/data/mosaic-corpus/corpus.jsonl: mutated Mosaic kernels with jaxlib 0.12's verdicts.

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/gen_verify_corpus.py [--max N] [--seed S] > tests/data/mosaic-corpus/corpus.jsonl
(the committed corpus: defaults, N = 2600 golden-derived and 2 * N one-op kernels, seed 17; `--max 40000` takes every
candidate mutation, ~15,000 kernels, a probe kept out of the repository).

Besides the golden kernels, it writes tests/data/mosaic-corpus/bases/*.mlir: one small kernel per op that jaxlib
accepts (types from data/mosaic/tpu-ops.json), on TC and on the SC vector subcore; those are mutated too
(`golden` is then `bases/<name>`, read from tests/data/mosaic-corpus/).

Each kernel is a golden kernel (tests/data/jax-goldens/*/kernel_pre_serde.generic.mlir) with one mutation:
op renames, operands dropped/duplicated, segment sizes changed or removed, properties removed, attribute
kinds and enum values changed, operand types changed (a fresh value of another type), result types changed,
operand and result shapes changed (each dimension doubled/halved, a leading 1 added, the leading one dropped),
core types and memory spaces changed, and mutations jaxlib accepts. jaxlib (Module.parse, which verifies)
gives the verdict and the first message (the text after `error: <location>: `).

Line format (JSON, one kernel per line, after a `{"_generated": ...}` header line):
  {"id", "golden", "mutation", "op", "edits": [[line, text]], "replace": [[old, new]],
   "verdict": "ok"|"error", "message"}
The kernel is rebuilt by taking the golden's lines, replacing line `line` (0-based) by `text` (which may hold
several lines; "" deletes it), then applying each `replace` to the whole text, in order.
"""
import glob
import hashlib
import json
import os
import random
import re
import sys

import jaxlib
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

ALL_OPS = None  # filled from data/mosaic/tpu-ops.json


def split_top(s):
    out, depth, cur, q = [], 0, "", False
    for ch in s:
        if ch == '"':
            q = not q
        if not q:
            if ch in "<([{":
                depth += 1
            elif ch in ">)]}":
                depth -= 1
        if ch == "," and depth == 0 and not q:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def match_close(s, i, open_ch, close_ch):
    """Index of the bracket closing s[i] (== open_ch)."""
    depth, q = 0, False
    for j in range(i, len(s)):
        ch = s[j]
        if ch == '"':
            q = not q
        if q:
            continue
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
            if depth == 0:
                return j
    return -1


OP_RE = re.compile(r'^(\s*)(%[\w#]+(?::\d+)? = )?"(tpu\.\w+)"\(')


def parse_op(line):
    m = OP_RE.match(line)
    if not m:
        return None
    indent, lhs, name = m.group(1), m.group(2) or "", m.group(3)
    i = m.end() - 1
    j = match_close(line, i, "(", ")")
    operands = [x for x in split_top(line[i + 1:j])]
    rest = line[j + 1:]
    props = []
    if rest.startswith(" <{"):
        k = match_close(rest, 1, "<", ">")
        props = split_top(rest[3:k - 1])
        rest = rest[k + 1:]
    if rest.startswith(" ({") or rest.startswith(" {"):
        return None  # region ops / discardable attrs: rename-only handled elsewhere
    if not rest.startswith(" : ("):
        return None
    k = match_close(rest, 3, "(", ")")
    otypes = split_top(rest[4:k])
    rest = rest[k + 1:]
    if not rest.startswith(" -> "):
        return None
    rest = rest[4:]
    if rest.startswith("("):
        k = match_close(rest, 0, "(", ")")
        rtypes = split_top(rest[1:k])
        tail = rest[k + 1:]
    else:
        k = rest.find(" loc(")
        rtypes = [rest[:k] if k >= 0 else rest]
        tail = rest[k:] if k >= 0 else ""
    return {"indent": indent, "lhs": lhs, "name": name, "operands": operands, "props": props,
            "otypes": otypes, "rtypes": rtypes, "tail": tail}


def render(p):
    props = (" <{" + ", ".join(p["props"]) + "}>") if p["props"] else ""
    r = p["rtypes"]
    rt = r[0] if len(r) == 1 and not r[0].startswith("(") and r[0] else "(" + ", ".join(r) + ")"
    return (f'{p["indent"]}{p["lhs"]}"{p["name"]}"({", ".join(p["operands"])}){props} : '
            f'({", ".join(p["otypes"])}) -> {rt}{p["tail"]}')


def prop_get(p, key):
    for i, kv in enumerate(p["props"]):
        if kv.split(" = ", 1)[0] == key:
            return i, kv.split(" = ", 1)[1]
    return None, None


def segs_of(p):
    i, v = prop_get(p, "operandSegmentSizes")
    if v is None:
        return None
    return [int(x) for x in v.split(":", 1)[1].rstrip(">").split(",")] if ":" in v else []


def with_segs(p, segs):
    q = dict(p, props=list(p["props"]))
    i, _ = prop_get(q, "operandSegmentSizes")
    q["props"][i] = "operandSegmentSizes = array<i32: " + ", ".join(map(str, segs)) + ">"
    return q


FRESH = {
    "i32": '"arith.constant"() <{value = 0 : i32}> : () -> i32',
    "i64": '"arith.constant"() <{value = 0 : i64}> : () -> i64',
    "index": '"arith.constant"() <{value = 0 : index}> : () -> index',
    "f32": '"arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32',
}


def fresh(t):
    if t in FRESH:
        return FRESH[t]
    if t.startswith("vector<"):
        el = t[:-1].split("x")[-1]
        v = "true" if el == "i1" else ("0" if el.startswith("i") else "0.000000e+00")
        return f'"arith.constant"() <{{value = dense<{v}> : {t}}}> : () -> {t}'
    if t.startswith("memref<"):
        return f'"memref.alloca"() <{{operandSegmentSizes = array<i32: 0, 0>}}> : () -> {t}'
    return None


TYPES = ["i32", "index", "f32", "i64", "vector<8x128xf32>", "vector<8x128xi32>", "vector<8x128xbf16>",
         "vector<1x128xi1>", "vector<8x128xi1>",
         "memref<8x128xf32, #tpu.memory_space<vmem>>", "memref<16x128xf32, #tpu.memory_space<vmem>>",
         "memref<8x128xbf16, #tpu.memory_space<vmem>>", "memref<8x128xf32, #tpu.memory_space<hbm>>",
         "memref<8x128xf32, #tpu.memory_space<smem>>", "memref<8x128xf32>",
         "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>",
         "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>",
         "memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>",
         "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem, sc_vector_subcore>>",
         "memref<8x128xf32, #tpu.memory_space<vmem, tc>>", "memref<8x128xf32, #tpu.memory_space<smem, tc>>",
         "memref<8x128xi32, #tpu.memory_space<vmem>>"]

REDUCTION = ["sum", "max", "min", "arg_max", "arg_min", "find_first_set", "maxf", "minf", "maxsi", "minsi",
             "maxui", "minui", "prod"]


def kind_changes(v):
    out = []
    if v in ("true", "false"):
        out += ["1 : i32", "0 : i64", "array<i1: true>", '"x"']
    elif re.fullmatch(r"-?\d+ : i32", v):
        out += [v.replace("i32", "i64"), "true", v.replace("i32", "si32"), "array<i32: 0>"]
    elif re.fullmatch(r"-?\d+ : i64", v) or re.fullmatch(r"-?\d+", v):
        out += [v.split(" ")[0] + " : i32", "false"]
    elif v.startswith("array<i32"):
        out += [v.replace("array<i32", "array<i64"), "[]", "0 : i32"]
    elif v.startswith("array<i64"):
        out += [v.replace("array<i64", "array<i32"), "[]"]
    elif v.startswith("#tpu."):
        out += ["1 : i32", "#tpu.pack_format<compressed>", "#tpu.contract_precision<fp32>"]
    return out


def value_changes(key, v):
    """Other values of the same kind (jaxlib may accept them)."""
    out = []
    if v in ("true", "false"):
        out.append("false" if v == "true" else "true")
    elif re.fullmatch(r"-?\d+ : (i32|si32)", v):
        t = v.split(" : ")[1]
        out += [f"1 : {t}", f"2 : {t}", f"-1 : {t}", f"5 : {t}"]
    elif re.fullmatch(r"-?\d+ : i64", v):
        out += ["1 : i64", "2 : i64", "-1 : i64", "5 : i64"]
    elif v.startswith("#tpu.reduction_kind<"):
        out += [f"#tpu.reduction_kind<{k}>" for k in REDUCTION]
    elif v.startswith("array<i32") and key == "strides":
        out += ["array<i32: 1, 1>", "array<i32: 1>"]
    elif v.startswith("array<i32"):
        out += ["array<i32>", "array<i32: 0>", "array<i32: 1>", "array<i32: 5>", "array<i32: 0, 0>", "array<i32: 1, 0>"]
    elif v.startswith("array<i64"):
        out += ["array<i64>", "array<i64: 0>", "array<i64: 1>", "array<i64: 0, 1>", "array<i64: 1, 0>", "array<i64: 0, 0>",
                "array<i64: 5>"]
    return out


def used_later(lines, li, lhs):
    name = lhs.split("=")[0].strip().split(":")[0]
    pat = re.compile(re.escape(name) + r"(?![\w])")
    return any(pat.search(l) for l in lines[li + 1:])


def shape_variants(t):
    """Other shapes of a vector/memref type: each dimension doubled and halved, a leading 1 added, the leading
    dimension dropped."""
    m = re.match(r"^(vector|memref)<((?:\d+x)+)(.*)>$", t)
    if not m:
        return []
    kind, dims, rest = m.group(1), [int(d) for d in m.group(2)[:-1].split("x")], m.group(3)
    out = []
    for i, d in enumerate(dims):
        for nd in (d * 2, d // 2):
            if nd > 0:
                out.append(dims[:i] + [nd] + dims[i + 1:])
    out.append([1] + dims)
    if len(dims) > 1:
        out.append(dims[1:])
    return [f"{kind}<{'x'.join(map(str, s))}x{rest}>" for s in out]


def line_mutations(lines, li, p, rng, shapes=False):
    """(mutation, new_text) pairs for the op on line li (`shapes`: also operand and result shapes changed)."""
    out = []
    name = p["name"]
    ind = p["indent"]
    out.append(("rename_typo", render(dict(p, name=name[:-1]))))
    out.append(("rename_unknown", render(dict(p, name=name + "x"))))
    for other in rng.sample(ALL_OPS, 4):
        out.append(("rename_other", render(dict(p, name=other))))
    segs = segs_of(p)
    n = len(p["operands"])
    # Group index of each flat operand.
    group = []
    if segs:
        for g, s in enumerate(segs):
            group += [g] * s
    for i in range(n):
        q = dict(p, operands=p["operands"][:i] + p["operands"][i + 1:], otypes=p["otypes"][:i] + p["otypes"][i + 1:])
        out.append(("drop_operand", render(q)))
        if segs and i < len(group):
            s2 = list(segs)
            s2[group[i]] -= 1
            out.append(("drop_operand_fix_segments", render(with_segs(q, s2))))
        q = dict(p, operands=p["operands"][:i + 1] + p["operands"][i:], otypes=p["otypes"][:i + 1] + p["otypes"][i:])
        out.append(("dup_operand", render(q)))
        if segs and i < len(group):
            s2 = list(segs)
            s2[group[i]] += 1
            out.append(("dup_operand_fix_segments", render(with_segs(q, s2))))
    if segs is not None:
        for g in range(len(segs)):
            for d in (1, -1):
                s2 = list(segs)
                s2[g] += d
                if s2[g] >= 0:
                    out.append(("segment_sizes_changed", render(with_segs(p, s2))))
        out.append(("segment_sizes_short", render(with_segs(p, segs[:-1]))))
        out.append(("segment_sizes_long", render(with_segs(p, segs + [0]))))
    for i, kv in enumerate(p["props"]):
        key, v = kv.split(" = ", 1)
        out.append(("property_removed", render(dict(p, props=p["props"][:i] + p["props"][i + 1:]))))
        if key == "operandSegmentSizes":
            continue
        for nv in kind_changes(v):
            props = list(p["props"])
            props[i] = f"{key} = {nv}"
            out.append(("attribute_kind_changed", render(dict(p, props=props))))
        for nv in value_changes(key, v):
            props = list(p["props"])
            props[i] = f"{key} = {nv}"
            out.append(("attribute_value_changed", render(dict(p, props=props))))
        if v.startswith("#tpu.reduction_kind<"):
            props = list(p["props"])
            props[i] = f"{key} = #tpu.reduction_kind<bogus>"
            out.append(("enum_value_invalid", render(dict(p, props=props))))
    # Accepted by jaxlib: an unknown property is dropped; a discardable attribute is kept.
    out.append(("accepted_unknown_property", render(dict(p, props=p["props"] + ["foo_unknown = 1 : i32"]))))
    # Types: operand i replaced by a fresh value of another type.
    for i in range(n):
        for t in rng.sample(TYPES, 6):
            if t == p["otypes"][i]:
                continue
            f = fresh(t)
            q = dict(p, operands=list(p["operands"]), otypes=list(p["otypes"]))
            q["operands"][i] = "%mutfresh"
            q["otypes"][i] = t
            out.append(("operand_type_changed", f"{ind}%mutfresh = {f}\n" + render(q)))
    # Result types, when the result is not used later.
    if p["lhs"] and len(p["rtypes"]) == 1 and not used_later(lines, li, p["lhs"]):
        for t in rng.sample(TYPES, 5):
            if t != p["rtypes"][0]:
                out.append(("result_type_changed", render(dict(p, rtypes=[t]))))
    if shapes:
        for i in range(n):
            for t in shape_variants(p["otypes"][i]):
                f = fresh(t)
                if f is None:
                    continue
                q = dict(p, operands=list(p["operands"]), otypes=list(p["otypes"]))
                q["operands"][i] = "%mutfresh"
                q["otypes"][i] = t
                out.append(("operand_shape_changed", f"{ind}%mutfresh = {f}\n" + render(q)))
        if p["lhs"] and not used_later(lines, li, p["lhs"]):
            for k, rt in enumerate(p["rtypes"]):
                for t in shape_variants(rt):
                    r = list(p["rtypes"])
                    r[k] = t
                    out.append(("result_shape_changed", render(dict(p, rtypes=r))))
    if not p["lhs"] and not "".join(p["rtypes"]):
        out.append(("result_added", render(dict(p, lhs="%mutres = ", rtypes=["i32"]))))
    return out


def file_mutations(text):
    out = []
    for old in ["#tpu.core_type<tc>", "#tpu.core_type<sc_vector_subcore>", "#tpu.core_type<sc_scalar_subcore>"]:
        if old in text:
            for new in ["tc", "sc_vector_subcore", "sc_scalar_subcore", "gpu"]:
                nv = f"#tpu.core_type<{new}>"
                if nv != old:
                    out.append(("core_type_changed", [[old, nv]]))
            out.append(("core_type_removed", [[", tpu.core_type = " + old, ""]]))
    spaces = sorted(set(re.findall(r"#tpu\.memory_space<([\w, ]+)>", text)))
    for s in spaces:
        for new in ["vmem", "smem", "hbm", "any", "semaphore_mem", "vmem_shared", "cmem", "vmemx",
                    "vmem, tc", "vmem, sc_scalar_subcore", "vmem, sc_vector_subcore", "hbm, tc", "any, tc",
                    "smem, tc", "smem, sc_scalar_subcore", "semaphore_mem, sc_vector_subcore",
                    "semaphore_mem, tc", "cmem, sc_vector_subcore", "vmem_shared, tc"]:
            if new != s:
                out.append(("memory_space_changed", [[f"#tpu.memory_space<{s}>", f"#tpu.memory_space<{new}>"]]))
    return out


ATTR_SAMPLE = {
    "I32Attr": "0 : i32", "I64Attr": "0 : i64", "SI32Attr": "0 : si32", "BoolAttr": "false",
    "DenseI32ArrayAttr": "array<i32>", "DenseI64ArrayAttr": "array<i64>", "DenseBoolArrayAttr": "array<i1>",
    "StrAttr": '""', "TypeAttr": "f32",
    "tpu.TPU_RoundingModeEnum": "#tpu.rounding_mode<to_nearest_even>",
    "tpu.TPU_ContractPrecisionEnum": "#tpu.contract_precision<fp32>",
    "tpu.TPU_PackFormatEnum": "#tpu.pack_format<compressed>",
    "tpu.TPU_ReductionKindAttr": "#tpu.reduction_kind<sum>",
    "TPU_DotDimensionNumbersAttr": "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>",
    "TPU_ConvDimensionNumbersAttr": "#tpu.conv_dimension_numbers<0, 1, [2], 0, 1, [2], 0, 1, [2]>",
    "TPU_MemorySpaceAttr": "#tpu.memory_space<vmem>",
}


def synthetic_bases(ctx, table):
    """One small kernel per op that jaxlib accepts (types from the op table's examples), on TC and on the
    SC vector subcore; printed by jaxlib in generic form."""
    out = {}
    for name, op in sorted(table["ops"].items()):
        if op["regions"]:
            continue
        flat = [o["example"] for o in op["operands"]]
        rflat = [r["example"] for r in op["results"]]
        attrs = [f"{a['name']} = {ATTR_SAMPLE[a['kind']]}" for a in op["attributes"] if a["required"]]
        if op["attributed_sized_operands"]:
            attrs.append("operandSegmentSizes = array<i32: " + ", ".join("1" for _ in flat) + ">")
        props = ("<{" + ", ".join(attrs) + "}>") if attrs else ""
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(flat))
        use = ", ".join(f"%a{i}" for i in range(len(flat)))
        lhs = "" if not rflat else ("%r = " if len(rflat) == 1 else f"%r:{len(rflat)} = ")
        for core in ["tc", "sc_vector_subcore"]:
            text = (f"func.func @k({args}) attributes {{tpu.core_type = #tpu.core_type<{core}>}} {{\n"
                    f"  {lhs}\"{name}\"({use}){props} : ({', '.join(flat)}) -> ({', '.join(rflat)})\n  return\n}}\n")
            with ctx:
                try:
                    m = ir.Module.parse(text)
                except Exception:  # noqa: BLE001 - not a valid base
                    continue
                out[f"{name[4:]}_{core}"] = m.operation.get_asm(print_generic_op_form=True)
    return out


VMEM_T = "memref<16x256xf32, #tpu.memory_space<vmem>>"
# Hand-written bases for ops whose verifier rejects the table's example types (kept only if jaxlib accepts).
HAND_BASES = {
    "iota": ("", "%r = \"tpu.iota\"() <{dimensions = array<i32: 0>}> : () -> vector<8x128xi32>"),
    "concatenate": ("%a: vector<8x128xf32>, %b: vector<8x128xf32>",
                    "%r = \"tpu.concatenate\"(%a, %b) <{dimension = 0 : i32}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<16x128xf32>"),
    "transpose": ("%a: vector<8x128xf32>",
                  "%r = \"tpu.transpose\"(%a) <{permutation = array<i64: 1, 0>}> : (vector<8x128xf32>) -> vector<128x8xf32>"),
    "reshape": ("%a: vector<8x128xf32>", "%r = \"tpu.reshape\"(%a) : (vector<8x128xf32>) -> vector<16x64xf32>"),
    "dynamic_rotate": ("%a: vector<8x128xf32>, %n: i32",
                       "%r = \"tpu.dynamic_rotate\"(%a, %n) <{dimension = 1 : si32}> : (vector<8x128xf32>, i32) -> vector<8x128xf32>"),
    "reciprocal": ("%a: vector<8x128xf32>",
                   "%r = \"tpu.reciprocal\"(%a) <{approx = false, full_range = true}> : (vector<8x128xf32>) -> vector<8x128xf32>"),
    "memref_slice": (f"%m: {VMEM_T}, %i: i32",
                     f"%r = \"tpu.memref_slice\"(%m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 2, 0>}}> : ({VMEM_T}, i32, i32) -> memref<8x128xf32, #tpu.memory_space<vmem>>"),
    "memref_squeeze": ("%m: memref<1x8x128xf32, #tpu.memory_space<vmem>>",
                       "%r = \"tpu.memref_squeeze\"(%m) : (memref<1x8x128xf32, #tpu.memory_space<vmem>>) -> memref<8x128xf32, #tpu.memory_space<vmem>>"),
    "matmul": ("%a: vector<8x128xbf16>, %b: vector<128x128xbf16>, %c: vector<8x128xf32>",
               "%r = \"tpu.matmul\"(%a, %b, %c) <{dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false}> : (vector<8x128xbf16>, vector<128x128xbf16>, vector<8x128xf32>) -> vector<8x128xf32>"),
    "all_reduce": ("%a: vector<8x128xf32>",
                   "%r = \"tpu.all_reduce\"(%a) <{dim = 0 : i64, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x128xf32>"),
    "assume_multiple": ("%a: i32", "%r = \"tpu.assume_multiple\"(%a) <{multiple = 8 : i32}> : (i32) -> i32"),
    "vector_load": (f"%m: {VMEM_T}, %i: index",
                    f"%r = \"tpu.vector_load\"(%m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 2, 0>, strides = array<i32>}}> : ({VMEM_T}, index, index) -> vector<8x128xf32>"),
    "strided_load": (f"%m: {VMEM_T}, %i: index",
                     f"%r = \"tpu.strided_load\"(%m, %i, %i) <{{strides = array<i32: 1, 1>}}> : ({VMEM_T}, index, index) -> vector<8x128xf32>"),
    "wait_dma2": ("%s: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %a: memref<8x128xf32, #tpu.memory_space<hbm>>, %b: memref<8x128xf32, #tpu.memory_space<vmem>>",
                  "\"tpu.wait_dma2\"(%s, %a, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, memref<8x128xf32, #tpu.memory_space<hbm>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> ()"),
    "log": ("%a: i32", "\"tpu.log\"(%a) <{tag = \"x\"}> : (i32) -> ()"),
    "core_id": ("", "%r = \"tpu.core_id\"() : () -> i32"),
    "reduce_index": ("%a: vector<8x128xf32>",
                     "%r = \"tpu.reduce_index\"(%a) <{axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>}> : (vector<8x128xf32>) -> vector<8xi32>"),
    "gather": ("%a: vector<8x128xf32>",
               "%r = \"tpu.gather\"(%a) <{indices = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>, dimension = 0 : i32}> : (vector<8x128xf32>) -> vector<8x128xf32>"),
    "dynamic_gather": ("%a: vector<8x128xf32>, %i: vector<8x128xi32>",
                       "%r = \"tpu.dynamic_gather\"(%a, %i) <{dimensions = array<i32: 0>}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xf32>"),
    "mask_cast": ("%a: vector<8x128xi1>", "%r = \"tpu.mask_cast\"(%a) : (vector<8x128xi1>) -> vector<8x128x2xi1>"),
    "shuffled_load": (f"%m: {VMEM_T}, %i: index",
                      f"%r = \"tpu.shuffled_load\"(%m, %i, %i) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}}> : ({VMEM_T}, index, index) -> vector<8x128xf32>"),
    "region": ("", "%r = \"tpu.region\"() ({\n    %c = \"arith.constant\"() <{value = 0 : i32}> : () -> i32\n    \"tpu.yield\"(%c) : (i32) -> ()\n  }) : () -> i32"),
    "sem_signal": ("%s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32",
                   "\"tpu.sem_signal\"(%s, %n) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, i32) -> ()"),
    "strided_store": (f"%m: {VMEM_T}, %i: index, %v: vector<8x128xf32>",
                      f"\"tpu.strided_store\"(%v, %m, %i, %i) <{{strides = array<i32: 1, 1>}}> : (vector<8x128xf32>, {VMEM_T}, index, index) -> ()"),
    "vector_store": (f"%m: {VMEM_T}, %i: index, %v: vector<8x128xf32>",
                     f"\"tpu.vector_store\"(%v, %m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : (vector<8x128xf32>, {VMEM_T}, index, index) -> ()"),
    "scan": ("%a: vector<8x128xf32>",
             "%r = \"tpu.scan\"(%a) <{dimension = 1 : i64, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x128xf32>"),
    "reduce": ("%a: vector<8x128xf32>",
               "%r = \"tpu.reduce\"(%a) <{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<sum>}> : (vector<8x128xf32>) -> vector<8x1xf32>"),
}

M_T = "memref<8x128xf32, #tpu.memory_space<vmem>>"
HBM_T = "memref<64x128xf32, #tpu.memory_space<hbm>>"
DSEM_T = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
# Bases for the ops with a hand-written verifier that the table's examples do not reach (issue 17: a passing and
# a failing fixture per verifier); most are SparseCore-only.
HAND_BASES.update({
    "reinterpret_cast": (f"%m: {M_T}",
                         f"%r = \"tpu.reinterpret_cast\"(%m) <{{operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({M_T}) -> memref<8x128xi32, #tpu.memory_space<vmem>>"),
    "log_buffer": (f"%m: {M_T}", f"\"tpu.log_buffer\"(%m) <{{shape = array<i64: 8, 128>, tag = \"x\"}}> : ({M_T}) -> ()"),
    "vector_compress_store": (f"%m: {M_T}, %i: index, %v: vector<8x128xf32>, %k: vector<8x128xi1>",
                              f"\"tpu.vector_compress_store\"(%v, %m, %i, %i, %k) <{{compress_dim = 1 : i32}}> : (vector<8x128xf32>, {M_T}, index, index, vector<8x128xi1>) -> ()"),
    "vector_expand_load": (f"%m: {M_T}, %i: index, %k: vector<8x128xi1>",
                           f"%r = \"tpu.vector_expand_load\"(%m, %i, %i, %k) <{{expand_dim = 1 : i32}}> : ({M_T}, index, index, vector<8x128xi1>) -> vector<8x128xf32>"),
    "compress_store_vreg": ("%m: memref<128xf32, #tpu.memory_space<vmem>>, %i: index, %v: vector<16xf32>, %k: vector<16xi1>",
                            "\"tpu.compress_store_vreg\"(%v, %m, %i, %k) : (vector<16xf32>, memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> ()"),
    "expand_load_vreg": ("%m: memref<128xf32, #tpu.memory_space<vmem>>, %i: index, %k: vector<16xi1>",
                         "%r = \"tpu.expand_load_vreg\"(%m, %i, %k) : (memref<128xf32, #tpu.memory_space<vmem>>, index, vector<16xi1>) -> vector<16xf32>"),
    "conv": ("%a: vector<8x16x128xf32>, %b: vector<3x128x128xf32>, %c: vector<8x14x128xf32>",
             "%r = \"tpu.conv\"(%a, %b, %c) <{dimension_numbers = #tpu.conv_dimension_numbers<0, 2, [1], 1, 2, [0], 0, 2, [1]>, window_strides = array<i64: 1>, padding = array<i64: 0, 0>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>}> : (vector<8x16x128xf32>, vector<3x128x128xf32>, vector<8x14x128xf32>) -> vector<8x14x128xf32>"),
    "shared_memref_slice": ("%m: memref<8x128xf32, #tpu.memory_space<vmem_shared>>",
                            f"%r = \"tpu.shared_memref_slice\"(%m) : (memref<8x128xf32, #tpu.memory_space<vmem_shared>>) -> {M_T}"),
    "vector_load_idx": (f"%m: {M_T}, %i: vector<16xi32>",
                        f"%r = \"tpu.vector_load_idx\"(%m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 2, 0>}}> : ({M_T}, vector<16xi32>, vector<16xi32>) -> vector<16xf32>"),
    "vector_store_idx": (f"%m: {M_T}, %i: vector<16xi32>, %v: vector<16xf32>",
                         f"\"tpu.vector_store_idx\"(%v, %m, %i, %i) <{{operandSegmentSizes = array<i32: 1, 1, 2, 0>}}> : (vector<16xf32>, {M_T}, vector<16xi32>, vector<16xi32>) -> ()"),
    "shuffled_store": (f"%m: {M_T}, %i: index, %v: vector<8x128xf32>",
                       f"\"tpu.shuffled_store\"(%v, %m, %i, %i) <{{sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}}> : (vector<8x128xf32>, {M_T}, index, index) -> ()"),
    "enqueue_indirect_dma": (f"%s: {DSEM_T}, %a: {HBM_T}, %b: {M_T}, %o: vector<8xi32>",
                             f"\"tpu.enqueue_indirect_dma\"(%a, %b, %o, %s) : ({HBM_T}, {M_T}, vector<8xi32>, {DSEM_T}) -> ()"),
    "wait_indirect_dma": (f"%s: {DSEM_T}, %a: {HBM_T}, %b: {M_T}",
                          f"\"tpu.wait_indirect_dma\"(%s, %a, %b) : ({DSEM_T}, {HBM_T}, {M_T}) -> ()"),
    "pack_elementwise": ("%a: vector<8x128xf32>",
                         "%r = \"tpu.pack_elementwise\"(%a, %a) <{target_type = bf16}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xi32>"),
    "unpack_elementwise": ("%a: vector<8x128xi32>",
                           "%r = \"tpu.unpack_elementwise\"(%a) <{source_type = bf16, index = 0 : i32}> : (vector<8x128xi32>) -> vector<8x128xf32>"),
    "pack_subelements": ("%a: vector<8x128xf32>",
                         "%r = \"tpu.pack_subelements\"(%a, %a) <{positions = array<i32: 0, 1>, pack_format = #tpu.pack_format<compressed>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x256xbf16>"),
    "pack_vmsk": ("%a: vector<8x128xi1>",
                  "%r = \"tpu.pack_vmsk\"(%a, %a) <{positions = array<i32: 0, 1>}> : (vector<8x128xi1>, vector<8x128xi1>) -> vector<8x256xi1>"),
    "stochastic_convert_elementwise": ("%a: vector<8x128xf32>, %b: vector<8x128xi32>",
                                       "%r = \"tpu.stochastic_convert_elementwise\"(%a, %b) <{dst_type = bf16}> : (vector<8x128xf32>, vector<8x128xi32>) -> vector<8x128xi32>"),
    "sublane_shuffle": ("%a: vector<8x128xf32>",
                        "%r = \"tpu.sublane_shuffle\"(%a, %a) <{pattern = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>"),
    "weird": ("%a: vector<8x128xf32>", "%r = \"tpu.weird\"(%a) : (vector<8x128xf32>) -> vector<8x128xi1>"),
    "fetch_and_add_sync": ("%m: memref<8x128xi32, #tpu.memory_space<vmem>>, %i: i32",
                           "%r = \"tpu.fetch_and_add_sync\"(%m, %i, %i, %i, %i) : (memref<8x128xi32, #tpu.memory_space<vmem>>, i32, i32, i32, i32) -> i32"),
})


def hand_bases(ctx):
    out = {}
    for name, (args, body) in sorted(HAND_BASES.items()):
        for core in ["tc", "sc_vector_subcore", "sc_scalar_subcore"]:
            text = (f"func.func @k({args}) attributes {{tpu.core_type = #tpu.core_type<{core}>}} {{\n"
                    f"  {body}\n  return\n}}\n")
            with ctx:
                try:
                    m = ir.Module.parse(text)
                except Exception:  # noqa: BLE001 - not valid on this core
                    continue
                out[f"{name}_{core}"] = m.operation.get_asm(print_generic_op_form=True)
    return out


def jaxlib_verdict(ctx, text):
    with ctx:
        try:
            m = ir.Module.parse(text)
            if not m.operation.verify():
                return "error", ""
            return "ok", ""
        except Exception as e:  # noqa: BLE001 - MLIRError
            msg = str(e)
            for line in msg.splitlines():
                if line.startswith("error: "):
                    return "error", strip_loc(line[len("error: "):])
            return "error", ""


def strip_loc(s):
    depth, q = 0, False
    for i, ch in enumerate(s):
        if ch == '"':
            q = not q
        elif not q:
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                depth -= 1
            elif ch == ":" and depth == 0 and s[i + 1:i + 2] == " ":
                # `"-":7:179: msg` has `:` without space inside the location.
                return s[i + 2:]
    return s


def apply(lines, edits, replace):
    ls = list(lines)
    for li, t in edits:
        ls[li] = t
    text = "\n".join(l for l in ls) + "\n"
    for old, new in replace:
        text = text.replace(old, new)
    return text


class Judge:
    """jaxlib in a child process: some mutated kernels crash jaxlib (it reads operands through accessors a
    wrong operandSegmentSizes shifts); such kernels get the verdict `crash` and the child is restarted."""

    def __init__(self):
        self.proc = None

    def start(self):
        import subprocess
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def __call__(self, text):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc = None
            return "crash", ""
        return tuple(json.loads(line))


def worker():
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    for line in sys.stdin:
        print(json.dumps(jaxlib_verdict(ctx, json.loads(line))), flush=True)


def main():
    global ALL_OPS
    if "--worker" in sys.argv:
        return worker()
    max_n = 2600
    if "--max" in sys.argv:
        max_n = int(sys.argv[sys.argv.index("--max") + 1])
    table = json.load(open(os.path.join(ROOT, "data/mosaic/tpu-ops.json")))
    ALL_OPS = sorted(table["ops"])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 17
    rng = random.Random(seed)
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    cands = []
    texts = {}
    bases_dir = os.path.join(ROOT, "tests/data/mosaic-corpus/bases")
    os.makedirs(bases_dir, exist_ok=True)
    for bname, btext in {**synthetic_bases(ctx, table), **hand_bases(ctx)}.items():
        with open(os.path.join(bases_dir, bname + ".mlir"), "w") as f:
            f.write(btext)
        texts["bases/" + bname] = btext.rstrip("\n").split("\n")
    sources = [(os.path.basename(os.path.dirname(p)), open(p).read()) for p in
               sorted(glob.glob(os.path.join(ROOT, "tests/data/jax-goldens/*/kernel_pre_serde.generic.mlir")))]
    sources += [("bases/" + n, open(os.path.join(bases_dir, n + ".mlir")).read())
                for n in sorted(x[:-5] for x in os.listdir(bases_dir))]
    for golden, text in sources:
        lines = text.rstrip("\n").split("\n")
        texts[golden] = lines
        for li, line in enumerate(lines):
            p = parse_op(line)
            if p is None:
                m = OP_RE.match(line)
                if m:  # region op: renames only
                    nm = m.group(3)
                    cands.append((golden, "rename_typo", nm, [[li, line.replace(f'"{nm}"', f'"{nm[:-1]}"', 1)]], []))
                continue
            for mut, new in line_mutations(lines, li, p, rng, shapes=True):
                cands.append((golden, mut, p["name"], [[li, new]], []))
        for mut, rep in file_mutations(text):
            cands.append((golden, mut, "", [], rep))
    # Dedupe by resulting text; balance by (mutation, op).
    rng.shuffle(cands)
    seen, buckets = set(), {}
    for c in cands:
        t = apply(texts[c[0]], c[3], c[4])
        h = hashlib.sha1(t.encode()).hexdigest()
        if h in seen:
            continue
        seen.add(h)
        buckets.setdefault((c[1], c[2]), []).append((c, t))
    chosen = []
    # Golden kernels and synthetic bases are balanced separately (max_n and 2 * max_n kernels).
    for synthetic, limit in [(False, max_n), (True, 2 * max_n)]:
        keys = sorted(k for k in buckets if any(c[0].startswith("bases/") == synthetic for c, _ in buckets[k]))
        part = []
        while len(part) < limit and any(buckets[k] for k in keys):
            for k in keys:
                while buckets[k] and buckets[k][-1][0][0].startswith("bases/") != synthetic:
                    buckets[k].pop()
                if buckets[k] and len(part) < limit:
                    part.append(buckets[k].pop())
        chosen += part
    print(json.dumps({"_generated": "by scripts/jaxref/gen_verify_corpus.py from the golden kernels, verdicts by "
                      "jaxlib " + jaxlib.__version__ + " Module.parse (which verifies); see the script's docstring"}))
    stats = {}
    judge = Judge()
    for n, (c, t) in enumerate(sorted(chosen, key=lambda x: (x[0][0], x[0][1], x[0][2], json.dumps(x[0][3])))):
        verdict, msg = judge(t)
        if verdict == "crash":
            continue
        stats[verdict] = stats.get(verdict, 0) + 1
        print(json.dumps({"id": n, "golden": c[0], "mutation": c[1], "op": c[2], "edits": c[3], "replace": c[4],
                          "verdict": verdict, "message": msg}))
    print(stats, file=sys.stderr)


if __name__ == "__main__":
    main()
