#!/usr/bin/env python3
"""The no-memory-space sweep: kernels as a hand-written client writes them (a plain `func @main` over memrefs with
no `#tpu.memory_space`, `dimension_semantics = []`, no grid, no windows), around each chip's scoped-VMEM limit,
emitted with our CLI and compiled by libtpu 0.0.50.1 (`tpu-custom-call compile --json`, deviceless).
Writes tests/data/vmem-sweep/nospace.json.

Usage: nospace_sweep.py [--cli target/debug/tpu-custom-call] [--out DIR] [--check]

Kernels (`body`), all `rows x 1024` buffers of one element type:
- `add`: two inputs, one output (`out = a + b`), f32 and bf16;
- `copy`: two inputs, two outputs (`out_i = in_i`: loads and stores only), f32, bf16 and i8 (Mosaic has no i8
  vector arithmetic);
- `add_grid`: `add` with a grid (4,) of `rows x 1024` blocks (index map i -> (i, 0)), still without memory
  space: whether libtpu double-buffers such blocks as it does VMEM ones;
- `bare`: `add` whose function has no attribute at all (no `dimension_semantics`), in a module without a name:
  how the main function is found.
Sizes: the largest row count (a multiple of 8) whose buffers fit the limit and the next one, for each chip's default
limit (v4, v5e, v5p 16 MiB; v6e, v7x 32 MiB; v7x also 48 and 64 MiB), and with `vmem_limit_bytes` (8, 64 and
100 MiB, 200 MiB above v5e's and v6e's 128 MiB of VMEM). Every kernel is compiled for every chip.

With --check: nothing is written; the kernels are compiled again and the verdicts compared with the committed
nospace.json (`ok` and the "Scoped allocation" figure); exits 1 on a difference.
"""
import argparse, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CHIPS = ["v4", "v5e", "v5p", "v6e", "v7x"]
MIB = 1024 * 1024
BYTES = {"f32": 4, "bf16": 2, "i8": 1}
COLS = 1024


def kernel(body, dtype, rows):
    """The kernel text (generic form), as the Rust test writes it too (tests/integration/vmem_nospace.rs)."""
    grid = body == "add_grid"
    ty = f"memref<{rows}x{COLS}x{dtype}>"
    vec = f"vector<{rows}x{COLS}x{dtype}>"
    n_buf = 4 if body == "copy" else 3
    pre, pre_ty = ("%i: i32, ", "i32, ") if grid else ("", "")
    args = ", ".join(f"%a{k}: {ty}" for k in range(n_buf))
    c0 = '    %c = "arith.constant"() <{value = 0 : index}> : () -> index\n'
    load = lambda k: f'    %v{k} = "vector.load"(%a{k}, %c, %c) : ({ty}, index, index) -> {vec}\n'
    store = lambda v, k: f'    "vector.store"(%{v}, %a{k}, %c, %c) : ({vec}, {ty}, index, index) -> ()\n'
    if body == "copy":
        ops = load(0) + load(1) + store("v0", 2) + store("v1", 3)
    else:
        ops = (load(0) + load(1) + f'    %s = "arith.addf"(%v0, %v1) <{{fastmath = #arith.fastmath<none>}}> : '
               f'({vec}, {vec}) -> {vec}\n' + store("s", 2))
    if body == "bare":
        attrs, module = "", '"builtin.module"() ({'
    elif grid:
        win = f"{{transform_indices = @transform_0, window_bounds = array<i64: {rows}, {COLS}>}}"
        attrs = (" {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 4>, "
                 f"window_params = [{win}, {win}, {win}]}}")
        module = '"builtin.module"() <{sym_name = "main"}> ({'
    else:
        attrs, module = " {dimension_semantics = []}", '"builtin.module"() <{sym_name = "main"}> ({'
    transform = ""
    if grid:
        transform = ('  "func.func"() <{function_type = (i32) -> (i32, i32), sym_name = "transform_0"}> ({\n'
                     '  ^bb0(%g: i32):\n    %z = "arith.constant"() <{value = 0 : i32}> : () -> i32\n'
                     '    "func.return"(%g, %z) : (i32, i32) -> ()\n  }) : () -> ()\n')
    return (f'{module}\n  "func.func"() <{{function_type = ({pre_ty}{", ".join([ty] * n_buf)}) -> (), '
            f'sym_name = "main"}}> ({{\n  ^bb0({pre}{args}):\n{c0}{ops}    "func.return"() : () -> ()\n'
            f'  }}){attrs} : () -> ()\n{transform}}}) : () -> ()\n')


def signature(body, dtype, rows):
    t = f"tensor<{rows * (4 if body == 'add_grid' else 1)}x{COLS}x{dtype}>"
    return f"({t}, {t}) -> ({t}, {t})" if body == "copy" else f"({t}, {t}) -> {t}"


def buffers(body):
    return 4 if body == "copy" else 3


def around(limit, body, dtype):
    """Row counts (multiples of 8) just fitting `limit` and just over it."""
    per_row = buffers(body) * COLS * BYTES[dtype] * (2 if body == "add_grid" else 1)
    fit = limit // per_row // 8 * 8
    return [fit, fit + 8]


def cases():
    seen = set()
    def case(body, dtype, rows, limit=None):
        k = (body, dtype, rows, limit)
        if k not in seen:
            seen.add(k)
            yield {"body": body, "dtype": dtype, "rows": rows, "vmem_limit_bytes": limit}
    defaults = [16 * MIB, 32 * MIB, 48 * MIB, 64 * MIB]
    for limit in defaults:
        for body, dtypes in (("add", ["f32", "bf16"]), ("copy", ["f32", "bf16", "i8"])):
            for dt in dtypes:
                for rows in around(limit, body, dt):
                    yield from case(body, dt, rows)
    for limit in (16 * MIB, 32 * MIB):
        for rows in around(limit, "add_grid", "f32"):
            yield from case("add_grid", "f32", rows)
        for rows in around(limit, "bare", "f32"):
            yield from case("bare", "f32", rows)
    for limit in (8 * MIB, 64 * MIB, 100 * MIB):
        for body, dt in (("add", "f32"), ("copy", "bf16"), ("copy", "i8")):
            for rows in around(limit, body, dt):
                yield from case(body, dt, rows, limit)
    for rows in around(128 * MIB, "add", "f32"):
        yield from case("add", "f32", rows, 200 * MIB)
    # The size of the client's decode-layer kernels (64.09 and 64.47 MiB of buffers).
    yield from case("copy", "f32", 4104)


SCOPED = re.compile(r"Scoped allocation with size \S+ and limit \S+|Used \S+ of \S+ vmem")


def verdict(res):
    err = res["error"]
    if err is None:
        return None
    m = SCOPED.search(err)
    return m.group(0) if m else err.splitlines()[0][:200]


def run(a):
    work = tempfile.mkdtemp(prefix="vmem-nospace-")
    rows = []
    for i, c in enumerate(cases()):
        kpath, ppath, mpath = (os.path.join(work, f"{i}.{ext}") for ext in ("kernel.mlir", "params.json", "mlir"))
        open(kpath, "w").write(kernel(c["body"], c["dtype"], c["rows"]))
        params = {"kernel_name": "main"}
        if c["vmem_limit_bytes"]:
            params["vmem_limit_bytes"] = c["vmem_limit_bytes"]
        json.dump(params, open(ppath, "w"))
        subprocess.run([a.cli, "emit", kpath, "--signature", signature(c["body"], c["dtype"], c["rows"]),
                        "--params", ppath, "-o", mpath], check=True)
        rows.append(dict(c, module=mpath))
    out = []
    for chip in CHIPS:
        cmd = [a.cli, "compile", "--target", chip, "--json"] + [r["module"] for r in rows]
        res = subprocess.run(cmd, capture_output=True, text=True)
        results = [json.loads(l) for l in res.stdout.splitlines() if l.startswith("{")]
        if len(results) != len(rows):
            sys.exit(f"compile gave {len(results)} verdicts for {len(rows)} modules: {res.stderr[-2000:]}")
        for r, v in zip(rows, results):
            per = buffers(r["body"]) * r["rows"] * COLS * BYTES[r["dtype"]]
            out.append({"body": r["body"], "dtype": r["dtype"], "rows": r["rows"], "cols": COLS, "chip": chip,
                        "vmem_limit_bytes": r["vmem_limit_bytes"], "buffer_bytes": per, "ok": v["ok"],
                        "error": verdict(v)})
    return out


def key(v):
    return (v["body"], v["dtype"], v["rows"], v["chip"], v["vmem_limit_bytes"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(REPO, "target/debug/tpu-custom-call"))
    ap.add_argument("--out", default=os.path.join(REPO, "tests/data/vmem-sweep"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    result = run(a)
    path = os.path.join(a.out, "nospace.json")
    if a.check:
        committed = {key(v): v for v in json.load(open(path))["verdicts"]}
        differ = [v for v in result if (committed.get(key(v)) or {}).get("ok") != v["ok"]
                  or committed[key(v)]["error"] != v["error"]]
        for v in differ:
            print("DIFFERS", key(v), "committed:", committed.get(key(v)), "now:", v["ok"], v["error"])
        print(f"{len(result)} verdicts: {len(result) - len(differ)} equal the committed ones, {len(differ)} differ")
        sys.exit(1 if differ else 0)
    with open(path, "w") as f:
        json.dump({"made_by": "scripts/vmem-sweep/nospace_sweep.py (libtpu 0.0.50.1 through "
                              "`tpu-custom-call compile --json`, deviceless 2x2 topologies)",
                   "columns": "body (add: 2 inputs 1 output; copy: 2 inputs 2 outputs; add_grid: add over a grid "
                              "(4,) of rows x cols blocks; bare: add without function attributes), dtype, rows, "
                              "cols, chip, vmem_limit_bytes (null: the chip's default), buffer_bytes (every "
                              "input and output whole, once), ok, error (libtpu's scoped-allocation figure or "
                              "the first line of its error)",
                   "verdicts": result}, f, indent=1)
        f.write("\n")
    for v in result:
        print(v["body"], v["dtype"], v["rows"], v["chip"], v["vmem_limit_bytes"], v["buffer_bytes"] / MIB,
              "OK" if v["ok"] else "FAIL " + (v["error"] or ""))


if __name__ == "__main__":
    main()
