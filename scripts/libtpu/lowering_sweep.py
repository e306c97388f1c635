#!/usr/bin/env python3
"""Lowering sweep: small generated Mosaic kernels (ops x element types x memory spaces, plus structural and
window-parameter mutants) emitted by our CLI with JAX's rules only and compiled by libtpu for each chip; writes
the kernels with their verdicts to tests/data/libtpu-lowering/sweep.json (what tests/integration/libtpu_lowering.rs
replays) and the rule table derived from them to data/libtpu/lowering.json (what `libtpu::lowering` reads).

Usage: scripts/libtpu/lowering_sweep.py [--cli target/debug/tpu-custom-call] [--chips v5e,v6e,v7x] [--out FILE]
Needs libtpu 0.0.50.1 where `tpu-custom-call compile` finds it (scripts/install-deps.sh). About 300 kernels per
chip, a few minutes per chip (one libtpu worker per chip, `compile --json`).

Each row is one kernel: its text, the call's signature, the keys it measures (`subjects`: an op with the
shape-free types of its operands and results, as `libtpu::lowering::op_key` writes them; or a structural rule),
and per chip libtpu's verdict: null when it compiled, else libtpu's message (the line that says why, without the
"Mosaic failed to compile TPU kernel ... HLO name ...:" prefix, at most 300 characters) and the operation it names.
Element-type rows (ops on a type) are compiled on a chip only where the plain copy of that type (load + store)
compiled on it; elsewhere the load refusal stands for the type and the row has no verdict for the chip.
"""
import argparse, json, os, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ATTRS = ('attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, '
         'tpu.core_type = #tpu.core_type<tc>}')
FLOATS = ["f32", "bf16", "f16", "f8E4M3FN", "f8E5M2", "f64"]
INTS = ["i32", "i16", "i8", "i4", "i64"]
BITS = {"f32": 32, "bf16": 16, "f16": 16, "f8E4M3FN": 8, "f8E5M2": 8, "f64": 64,
        "i32": 32, "i16": 16, "i8": 8, "i4": 4, "i64": 64, "i1": 1}
FLOAT_BINARY = ["arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf", "arith.minimumf",
                "arith.remf", "math.powf", "math.atan2", "math.copysign"]
FLOAT_UNARY = ["arith.negf", "math.absf", "math.exp", "math.exp2", "math.log", "math.log1p", "math.expm1",
               "math.sqrt", "math.rsqrt", "math.tanh", "math.sin", "math.cos", "math.tan", "math.atan", "math.erf",
               "math.floor", "math.ceil", "math.round", "math.roundeven", "math.cbrt", "math.sinh", "math.cosh",
               "math.asin", "math.acos"]
INT_BINARY = ["arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi", "arith.andi",
              "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui", "arith.maxsi", "arith.minsi",
              "arith.maxui", "arith.minui"]
INT_UNARY = ["math.absi", "math.ctpop"]
CASTS = [("arith.truncf", "f32", "bf16"), ("arith.truncf", "f32", "f16"), ("arith.truncf", "f32", "f8E4M3FN"),
         ("arith.truncf", "f32", "f8E5M2"), ("arith.truncf", "bf16", "f8E4M3FN"),
         ("arith.extf", "bf16", "f32"), ("arith.extf", "f8E4M3FN", "f32"), ("arith.extf", "f8E5M2", "bf16"),
         ("arith.trunci", "i32", "i16"), ("arith.trunci", "i32", "i8"), ("arith.trunci", "i32", "i4"),
         ("arith.trunci", "i16", "i8"), ("arith.extsi", "i8", "i32"), ("arith.extsi", "i16", "i32"),
         ("arith.extsi", "i4", "i32"), ("arith.extui", "i8", "i32"), ("arith.extsi", "i8", "i16"),
         ("arith.sitofp", "i32", "f32"), ("arith.sitofp", "i32", "bf16"), ("arith.sitofp", "i8", "f32"),
         ("arith.sitofp", "i16", "bf16"), ("arith.uitofp", "i32", "f32"), ("arith.fptosi", "f32", "i32"),
         ("arith.fptosi", "f32", "i8"), ("arith.fptosi", "bf16", "i32"), ("arith.fptoui", "f32", "i32"),
         ("arith.bitcast", "f32", "i32"), ("arith.bitcast", "bf16", "i16")]
SPACES = ["vmem", "smem", "hbm", "any", "semaphore_mem", "vmem_shared"]
ROWS = {32: 8, 64: 8, 16: 16, 8: 32, 4: 64, 1: 8}


def shape(t):
    return f"{ROWS[BITS[t]]}x128"


def mem(s, t, space="vmem"):
    return f"memref<{s}x{t}, #tpu.memory_space<{space}>>"


def vec(s, t):
    return f"vector<{s}x{t}>"


def key(op, operands, results):
    """The shape-free key of an op (libtpu::lowering::op_key's format)."""
    def free(t):
        m = re.match(r"(vector|memref)<(?:[0-9?]+x)*([a-zA-Z0-9]+)(?:, #tpu.memory_space<([a-z_]+)>)?>$", t)
        if not m:
            return t
        kind, elem, space = m.groups()
        return f"{kind}<{elem}>" if kind == "vector" else f"memref<{elem},{space or 'none'}>"
    return f"{op}({','.join(free(t) for t in operands)})->({','.join(free(t) for t in results)})"


def kernel(args, body):
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    lines = "\n".join("    " + l for l in body)
    return (f"module {{\n  func.func @k({sig}) {ATTRS} {{\n    %c0 = arith.constant 0 : index\n{lines}\n"
            f"    return\n  }}\n}}\n")


def tensor(m):
    s, t = re.match(r"memref<([0-9x]+)x([a-zA-Z0-9]+)", m).groups()
    return f"tensor<{s}x{t}>"


def row(case, kind, args, body, subjects, inputs=None, gate=None, signature=None):
    inputs = len(args) - 1 if inputs is None else inputs
    sig = signature or (f"({', '.join(tensor(t) for _, t in args[:inputs])}) -> "
                        f"({', '.join(tensor(t) for _, t in args[inputs:])})")
    return {"case": case, "kind": kind, "subjects": subjects, "gate": gate, "signature": sig,
            "kernel": kernel(args, body) if isinstance(body, list) else body}


def load(n, m, s, t):
    return f"%{n} = vector.load %{m}[%c0, %c0] : {mem(s, t)}, {vec(s, t)}"


def store(v, m, s, t):
    return f"vector.store %{v}, %{m}[%c0, %c0] : {mem(s, t)}, {vec(s, t)}"


def load_key(t, space="vmem"):
    return key("vector.load", [mem("8x128", t, space), "index", "index"], [vec("8x128", t)])


def store_key(t, space="vmem"):
    return key("vector.store", [vec("8x128", t), mem("8x128", t, space), "index", "index"], [])


def elementwise_rows():
    out = []
    for t in FLOATS + INTS:
        s = shape(t)
        out.append(row(f"copy/{t}", "copy", [("x", mem(s, t)), ("o", mem(s, t))],
                       [load("a", "x", s, t), store("a", "o", s, t)], [load_key(t), store_key(t)]))
    for t in FLOATS + INTS:
        s, v = shape(t), vec(shape(t), t)
        binary = FLOAT_BINARY if t in FLOATS else INT_BINARY
        unary = FLOAT_UNARY if t in FLOATS else INT_UNARY
        for op in binary:
            out.append(row(f"{op}/{t}", "elementwise", [("x", mem(s, t)), ("y", mem(s, t)), ("o", mem(s, t))],
                           [load("a", "x", s, t), load("b", "y", s, t), f"%r = {op} %a, %b : {v}",
                            store("r", "o", s, t)], [key(op, [v, v], [v])], gate=t))
        for op in unary:
            out.append(row(f"{op}/{t}", "elementwise", [("x", mem(s, t)), ("o", mem(s, t))],
                           [load("a", "x", s, t), f"%r = {op} %a : {v}", store("r", "o", s, t)],
                           [key(op, [v], [v])], gate=t))
        cmp = ("arith.cmpf", "olt") if t in FLOATS else ("arith.cmpi", "slt")
        m = vec(s, "i1")
        out.append(row(f"{cmp[0]}+select/{t}", "elementwise",
                       [("x", mem(s, t)), ("y", mem(s, t)), ("o", mem(s, t))],
                       [load("a", "x", s, t), load("b", "y", s, t), f"%m = {cmp[0]} {cmp[1]}, %a, %b : {v}",
                        f"%r = arith.select %m, %a, %b : {m}, {v}", store("r", "o", s, t)],
                       [key(cmp[0], [v, v], [m]), key("arith.select", [m, v, v], [v])], gate=t))
    s = "8x128"
    out.append(row("math.fpowi/f32", "elementwise", [("x", mem(s, "f32")), ("o", mem(s, "f32"))],
                   [load("a", "x", s, "f32"), f"%n = arith.constant dense<3> : {vec(s, 'i32')}",
                    f"%r = math.fpowi %a, %n : {vec(s, 'f32')}, {vec(s, 'i32')}", store("r", "o", s, "f32")],
                   [key("math.fpowi", [vec(s, "f32"), vec(s, "i32")], [vec(s, "f32")])], gate="f32"))
    for op, a, b in CASTS:
        s = shape(max([a, b], key=lambda t: 32 - BITS[t]))
        out.append(row(f"{op}/{a}->{b}", "cast", [("x", mem(s, a)), ("o", mem(s, b))],
                       [load("a", "x", s, a), f"%r = {op} %a : {vec(s, a)} to {vec(s, b)}", store("r", "o", s, b)],
                       [key(op, [vec(s, a)], [vec(s, b)])], gate=a))
    return out


def vector_rows():
    out = []
    for t in ["f32", "bf16", "i32"]:
        r = ROWS[BITS[t]]
        s, s2 = f"{r}x128", f"{2 * r}x128"
        out.append(row(f"vector.insert_strided_slice/{t}", "vector",
                       [("x", mem(s, t)), ("y", mem(s2, t)), ("o", mem(s2, t))],
                       [load("a", "x", s, t), load("b", "y", s2, t),
                        f"%r = vector.insert_strided_slice %a, %b {{offsets = [{r}, 0], strides = [1, 1]}} : "
                        f"{vec(s, t)} into {vec(s2, t)}", store("r", "o", s2, t)],
                       [key("vector.insert_strided_slice", [vec(s, t), vec(s2, t)], [vec(s2, t)])], gate=t))
        out.append(row(f"vector.extract_strided_slice/{t}", "vector", [("x", mem(s2, t)), ("o", mem(s, t))],
                       [load("a", "x", s2, t),
                        f"%r = vector.extract_strided_slice %a {{offsets = [{r}, 0], sizes = [{r}, 128], "
                        f"strides = [1, 1]}} : {vec(s2, t)} to {vec(s, t)}", store("r", "o", s, t)],
                       [key("vector.extract_strided_slice", [vec(s2, t)], [vec(s, t)])], gate=t))
        q = "128x128"
        out.append(row(f"vector.transpose/{t}", "vector", [("x", mem(q, t)), ("o", mem(q, t))],
                       [load("a", "x", q, t), f"%r = vector.transpose %a, [1, 0] : {vec(q, t)} to {vec(q, t)}",
                        store("r", "o", q, t)], [key("vector.transpose", [vec(q, t)], [vec(q, t)])], gate=t))
        c = "1.0" if t != "i32" else "1"
        out.append(row(f"vector.broadcast/{t}", "vector", [("o", mem(s, t))],
                       [f"%s = arith.constant {c} : {t}", f"%r = vector.broadcast %s : {t} to {vec(s, t)}",
                        store("r", "o", s, t)], [key("vector.broadcast", [t], [vec(s, t)])], inputs=0, gate=t))
        kind = "add"
        out.append(row(f"vector.multi_reduction/{t}", "vector", [("x", mem(s, t)), ("o", mem(f"{r}x1", t))],
                       [load("a", "x", s, t), f"%z = arith.constant dense<0{'.0' if t != 'i32' else ''}> : "
                        f"{vec(str(r), t)}",
                        f"%v = vector.multi_reduction <{kind}>, %a, %z [1] : {vec(s, t)} to {vec(str(r), t)}",
                        f"%r = vector.shape_cast %v : {vec(str(r), t)} to {vec(f'{r}x1', t)}",
                        f"vector.store %r, %o[%c0, %c0] : {mem(f'{r}x1', t)}, {vec(f'{r}x1', t)}"],
                       [key("vector.multi_reduction", [vec(s, t), vec(str(r), t)], [vec(str(r), t)])], gate=t))
    return out


def memory_rows():
    out = []
    s, t = "8x128", "f32"
    for space in SPACES:
        out.append(row(f"vector.load/{space}", "memory", [("x", mem(s, t, space)), ("o", mem(s, t))],
                       [f"%a = vector.load %x[%c0, %c0] : {mem(s, t, space)}, {vec(s, t)}", store("a", "o", s, t)],
                       [load_key(t, space)]))
        out.append(row(f"vector.store/{space}", "memory", [("x", mem(s, t)), ("o", mem(s, t, space))],
                       [load("a", "x", s, t), f"vector.store %a, %o[%c0, %c0] : {mem(s, t, space)}, {vec(s, t)}"],
                       [store_key(t, space)]))
        for st in ["f32", "i32"]:
            m = mem(s, st, space)
            out.append(row(f"memref.load/{st}/{space}", "memory", [("x", m), ("o", mem(s, st))],
                           [f"%a = memref.load %x[%c0, %c0] : {m}", f"%r = vector.broadcast %a : {st} to {vec(s, st)}",
                            store("r", "o", s, st)], [key("memref.load", [m, "index", "index"], [st])]))
            c = "1.0" if st == "f32" else "1"
            out.append(row(f"memref.store/{st}/{space}", "memory", [("x", mem(s, st)), ("o", m)],
                           [f"%a = arith.constant {c} : {st}", f"memref.store %a, %o[%c0, %c0] : {m}"],
                           [key("memref.store", [st, m, "index", "index"], [])]))
    for st in ["i64", "f64"]:
        m = mem("8x128", st, "smem")
        out.append(row(f"memref.load/{st}/smem", "memory", [("x", m), ("o", mem("8x128", "i32", "smem"))],
                       [f"%a = memref.load %x[%c0, %c0] : {m}", "%c = arith.constant 1 : i32",
                        f"memref.store %c, %o[%c0, %c0] : {mem('8x128', 'i32', 'smem')}"],
                       [key("memref.load", [m, "index", "index"], [st])]))
    out.append(row("arith.addi/i64/scalar", "scalar", [("o", mem("8x128", "i32", "smem"))],
                   ["%a = arith.constant 7 : i64", "%b = arith.addi %a, %a : i64", "%c = arith.trunci %b : i64 to i32",
                    f"memref.store %c, %o[%c0, %c0] : {mem('8x128', 'i32', 'smem')}"],
                   [key("arith.addi", ["i64", "i64"], ["i64"])], inputs=0))
    return out


GRID = ('attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<parallel>, '
        '#tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2, 3, 1>, scalar_prefetch = SP : i64, '
        'scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [WIN]}')


def grid_kernel(t0="@t0", t0_args=3, t0_results=2, prefetch=0):
    pre = ", %s: memref<4xi32, #tpu.memory_space<smem>>" if prefetch else ""
    win = (f'{{transform_indices = {t0}, window_bounds = array<i64: 8, 128>}}, '
           '{transform_indices = @t1, window_bounds = array<i64: 8, 128>}')
    attrs = GRID.replace("SP", str(prefetch)).replace("WIN", win)
    args = ", ".join(f"%g{i}: i32" for i in range(t0_args))
    rets = ", ".join(f"%g{i % t0_args}" for i in range(t0_results))
    t1_args = "%i: i32, %j: i32, %k: i32" + (", %q: memref<4xi32, #tpu.memory_space<smem>>" if prefetch else "")
    return (f"module {{\n  func.func @k(%i: i32, %j: i32, %k: i32{pre}, %x: {mem('8x128', 'f32')}, "
            f"%o: {mem('8x128', 'f32')}) {attrs} {{\n    %c0 = arith.constant 0 : index\n"
            f"    {load('a', 'x', '8x128', 'f32')}\n    {store('a', 'o', '8x128', 'f32')}\n    return\n  }}\n"
            f"  func.func @t0({args}) -> ({', '.join(['i32'] * t0_results)}) {{\n"
            f"    return {rets} : {', '.join(['i32'] * t0_results)}\n  }}\n"
            f"  func.func @t1({t1_args}) -> (i32, i32) {{\n    return %i, %j : i32, i32\n  }}\n}}\n")


def structural_rows():
    out = []
    sig = "(tensor<16x384xf32>) -> (tensor<16x384xf32>)"
    psig = "(tensor<4xi32>, tensor<16x384xf32>) -> (tensor<16x384xf32>)"
    for case, kw, s in [("window/valid", {}, sig), ("window/no-function", {"t0": "@nope"}, sig),
                        ("window/arity-2-of-3", {"t0_args": 2}, sig), ("window/arity-4-of-3", {"t0_args": 4}, sig),
                        ("window/results-1-of-2", {"t0_results": 1}, sig),
                        ("window/results-3-of-2", {"t0_results": 3}, sig),
                        ("window/prefetch-valid", {"prefetch": 1, "t0_args": 4}, psig),
                        ("window/prefetch-arity-3-of-4", {"prefetch": 1, "t0_args": 3}, psig)]:
        k = grid_kernel(**kw)
        if kw.get("prefetch") and kw.get("t0_args") == 4:
            k = k.replace("func.func @t0(%g0: i32, %g1: i32, %g2: i32, %g3: i32)",
                          "func.func @t0(%g0: i32, %g1: i32, %g2: i32, %g3: memref<4xi32, #tpu.memory_space<smem>>)")
        out.append({"case": case, "kind": "window", "subjects": [case.split("/")[1]], "gate": None,
                    "signature": s, "kernel": k})
    s, t = "8x128", "f32"
    two = (f"module {{\n  func.func @k(%x: {mem(s, t)}, %o: {mem(s, t)}) {ATTRS} {{\n"
           f"    %c0 = arith.constant 0 : index\n    {load('a', 'x', s, t)}\n    cf.br ^bb1\n  ^bb1:\n"
           f"    {store('a', 'o', s, t)}\n    return\n  }}\n}}\n")
    out.append({"case": "function/two-blocks", "kind": "structure", "subjects": ["two-blocks"], "gate": None,
                "signature": "(tensor<8x128xf32>) -> (tensor<8x128xf32>)", "kernel": two})
    copy = kernel([("x", mem(s, t)), ("o", mem(s, t))], [load("a", "x", s, t), store("a", "o", s, t)])
    for case, sig in [("shape/dynamic-operand", "(tensor<?x128xf32>) -> (tensor<8x128xf32>)"),
                      ("shape/dynamic-result", "(tensor<8x128xf32>) -> (tensor<?x128xf32>)"),
                      ("shape/static", "(tensor<8x128xf32>) -> (tensor<8x128xf32>)")]:
        out.append({"case": case, "kind": "structure", "subjects": [case.split("/")[1]], "gate": None,
                    "signature": sig, "kernel": copy})
    return out


def why(err):
    """The line of libtpu's error that says why, and the operation it names."""
    lines = [l.strip() for l in err.splitlines() if l.strip()]
    first = lines[0] if lines else err
    first = re.sub(r"^Mosaic failed to compile TPU kernel with MLIR module name `[^`]*` HLO name `[^`]*`: ", "", first)
    op = None
    for i, l in enumerate(lines):
        if l.startswith("The MLIR operation involved:") and i + 1 < len(lines):
            m = re.search(r'"([a-z_]+\.[a-z_.]+)"', lines[i + 1])
            op = m.group(1) if m else None
            break
    m = re.match(r"failed to legalize operation '([a-z_.]+)'", first)
    if m:  # the op's text (operands, attributes) says no more than its name
        first, op = m.group(0), m.group(1)
    first = re.sub(r" XLA encountered an HLO for which this rewriting is not implemented: .*",
                   " XLA encountered an HLO for which this rewriting is not implemented", first)
    return {"message": first[:400], "op": op}


# Ops Mosaic rewrites before it lowers them: libtpu names the rewritten op.
TPU_OPS = {"tpu.load": "vector.load", "tpu.store": "vector.store"}


def derive(rows, chips):
    """The rule table: per op key (and structural rule) and chip, null (compiled) or libtpu's message. A refusal is
    the key's when libtpu names its op (a row's only key also when libtpu names none); a key compiled in any row
    is compiled; the other keys of a refused row are not measured by it."""
    ops, structure = {}, {}
    for r in rows:
        for chip in chips:
            if chip not in r["libtpu"]:
                continue
            v = r["libtpu"][chip]
            if r["kind"] in ("window", "structure"):
                structure.setdefault(r["subjects"][0], {})[chip] = v
                continue
            if v is not None and v["message"].startswith("While rewriting computation to not contain X{64|128}"):
                structure.setdefault("x64", {})[chip] = v
                continue
            if v is None:  # every generated kernel has `%c0 = arith.constant 0 : index`
                for k in r["subjects"] + ["arith.constant()->(index)"]:
                    ops.setdefault(k, {})[chip] = None
                continue
            named = TPU_OPS.get(v["op"], v["op"])
            blamed = [k for k in r["subjects"] if k.split("(")[0] == named]
            if not blamed and named is None and len(r["subjects"]) == 1:
                blamed = r["subjects"]
            for k in blamed:
                if ops.get(k, {}).get(chip, "absent") is not None:  # compiled elsewhere wins
                    ops.setdefault(k, {})[chip] = {"message": v["message"]}
    return {"ops": dict(sorted(ops.items())), "structure": dict(sorted(structure.items()))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/debug/tpu-custom-call"))
    ap.add_argument("--chips", default="v5e,v6e,v7x")
    ap.add_argument("--out", default=os.path.join(ROOT, "data/libtpu/lowering.json"))
    ap.add_argument("--rows", default=os.path.join(ROOT, "tests/data/libtpu-lowering/sweep.json"))
    ap.add_argument("--derive", action="store_true", help="re-derive --out from --rows without compiling")
    a = ap.parse_args()
    if a.derive:
        d = json.load(open(a.rows))
        write_table(a.out, d["rows"], d["chips"])
        return
    rows = elementwise_rows() + vector_rows() + memory_rows() + structural_rows()
    tmp = tempfile.mkdtemp(prefix="tcc-lowering-")
    paths = {}
    for i, r in enumerate(rows):
        stem = os.path.join(tmp, f"{i:04d}")
        open(stem + ".k.mlir", "w").write(r["kernel"])
        p = subprocess.run([a.cli, "emit", stem + ".k.mlir", "--signature", r["signature"], "--jax-rules-only",
                            "-o", stem + ".mlir"], capture_output=True, text=True)
        r["emit_error"] = p.stderr.strip().splitlines()[0][:300] if p.returncode else None
        r["libtpu"] = {}
        if not p.returncode:
            paths[i] = stem + ".mlir"
    print(f"{len(rows)} kernels, {len(paths)} emitted", file=sys.stderr)

    def compile_all(chip, idx):
        if not idx:
            return
        t = time.time()
        p = subprocess.run([a.cli, "compile", "--target", chip, "--json", "--timeout", "120"]
                           + [paths[i] for i in idx], capture_output=True, text=True)
        verdicts = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
        by_path = {v["path"]: v for v in verdicts}
        for i in idx:
            v = by_path.get(paths[i])
            if v is None:
                rows[i]["libtpu"][chip] = {"message": "no verdict", "op": None}
            elif v["ok"]:
                rows[i]["libtpu"][chip] = None
            else:
                w = why(v.get("error") or "")
                if v.get("crashed"):
                    w["crashed"] = True
                rows[i]["libtpu"][chip] = w
        print(f"{chip}: {len(idx)} compiles in {time.time() - t:.0f} s", file=sys.stderr)

    for chip in a.chips.split(","):
        first = [i for i in paths if rows[i]["gate"] is None]
        compile_all(chip, first)
        ok_types = {r["case"].split("/")[1] for r in rows if r["kind"] == "copy" and chip in r["libtpu"]
                    and r["libtpu"][chip] is None}
        gated = []
        for i in paths:
            g = rows[i]["gate"]
            if g is None:
                continue
            if all(t in ok_types for t in ([g] if isinstance(g, str) else g)):
                gated.append(i)
        compile_all(chip, gated)
    chips = a.chips.split(",")
    out = {
        "about": "Generated Mosaic kernels (ops x element types x memory spaces; structural and window-parameter "
                 "mutants) emitted by `tpu-custom-call emit --jax-rules-only` and compiled by libtpu per chip "
                 "(null = compiled, else libtpu's message and the operation it names; a chip missing: not compiled "
                 "there, the copy of its element type being refused). Made by scripts/libtpu/lowering_sweep.py; "
                 "replayed by tests/integration/libtpu_lowering.rs.",
        "libtpu": "0.0.50.1", "chips": chips, "rows": [
            {k: r[k] for k in ("case", "kind", "subjects", "gate", "signature", "emit_error", "libtpu", "kernel")}
            for r in rows],
    }
    os.makedirs(os.path.dirname(a.rows), exist_ok=True)
    with open(a.rows, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    write_table(a.out, out["rows"], chips)


def write_table(path, rows, chips):
    table = {
        "about": "libtpu's lowering rules by op key (op name with the shape-free types of its operands and results, "
                 "as libtpu::lowering::op_key writes them) and structural rule, per chip: null = compiled, else "
                 "libtpu's message. Derived by scripts/libtpu/lowering_sweep.py from its kernels "
                 "(tests/data/libtpu-lowering/sweep.json); read by src/libtpu/lowering.rs.",
        "libtpu": "0.0.50.1", "chips": chips, **derive(rows, chips),
    }
    with open(path, "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
