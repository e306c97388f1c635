#!/usr/bin/env python3
"""The scoped-VMEM sweep: Pallas add kernels of N x 1024 f32 around each chip's limit, emitted with our CLI
and compiled by libtpu 0.0.50.1. Writes tests/data/vmem-sweep/verdicts.json.

Usage: sweep.py [--cli target/debug/tpu-custom-call] [--compiler cli|python] [--python $TPU_VENV/bin/python]
                [--out DIR] [--shapes] [--check [--every K] [--chips v5e,v7x]]

The compiler is our own `tpu-custom-call compile --json` (libtpu through PJRT, src/compile; `--compiler cli`,
the default: no Python needed) or JAX's ahead-of-time compile, scripts/jaxref/ref/tpu_compile.py
(`--compiler python`, with the TPU venv's python), which made the committed verdicts. Both give the same verdicts
(`--check`); their messages differ only in JAX's status prefix (`RESOURCE_EXHAUSTED: `), which `compile` does
not print and which is stripped when they are compared.

With --v7x-grid: the v7x grid sweep instead (`v7x_grid.json`): add kernels with a grid of 1, 2, 4 or 8 blocks of
`B x 1024 f32` (parallel dimension), without and with `vmem_limit_bytes`, with libtpu's "Scoped allocation" figure.

With --check: nothing is written; every K-th kernel (default every one) is emitted and compiled again for the
chips given (default all) and its verdict compared with the committed verdicts.json (`ok` and the first line of
the error, status prefix stripped); exits 1 on any difference.

With --shapes: the padding sweep instead (`shapes.json`, v5e only): no-grid add kernels of other shapes and
element types (`rows x cols dtype`), to see how libtpu pads buffers to tiles.

Three families (all kernels are the add_basic golden's kernel with its shapes scaled):
- `add`: no grid, three whole `N x 1024 f32` VMEM operands (needs 3 * N * 4 KiB);
- `add_grid`: grid (4,), blocks `B x 1024` of `4B x 1024` operands, index map i -> (i, 0) (needs 3 * 2 * B * 4 KiB);
- `add_limit`: `add` with `vmem_limit_bytes` = 40, 8, 16, 64 and 100 MiB;
- `add_scratch`: with a used VMEM scratch argument (`scratch_rows x 128 f32`), `add_internal`: with
  `internal_scratch_in_bytes` (libtpu counts neither: the scratch is only written, and Mosaic drops such
  scratch; scratch_sweep.py has kernels whose scratch counts).
Each module is emitted without `--target` (so that our own budget does not refuse it first), then compiled for
every chip; the verdict is libtpu's (`ok`, and the first line of its error).
"""
import argparse, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CHIPS = ["v4", "v5e", "v5p", "v6e", "v7x"]
ADD_N = [1024, 1280, 1344, 1352, 1360, 1368, 1376, 1408, 2048, 2560, 2688, 2720, 2728, 2736, 2744, 2816, 3072,
         4096, 4104, 4112, 4776, 5440, 5456, 5464, 5472, 6144]
GRID_B = [512, 672, 680, 688, 696, 1024, 1360, 1368, 1376, 1536, 1792, 2048, 2720, 2736, 2744]
# (family, rows, grid, scratch rows of 128 f32, internal_scratch_in_bytes)
SCRATCH = [("add_scratch", 512, 4, 16384, None), ("add_scratch", 1360, None, 2048, None),
           ("add_scratch", 1368, None, 2048, None), ("add_internal", 1360, None, 0, 1 << 20),
           ("add_internal", 1368, None, 0, 1 << 20)]
MIB = 1024 * 1024
LIMITS = [(40 * MIB, [3408, 3416, 3584, 4096, 4104]), (8 * MIB, [680, 688, 2048, 4096]), (16 * MIB, [1360, 1368, 4096, 4104]),
          (64 * MIB, [5448, 5456]), (100 * MIB, [5456, 8528, 8536])]


def memref(shape):
    return f"memref<{shape}xf32, #tpu.memory_space<vmem>>"


def add_kernel(n, grid=None, scratch_rows=0):
    ty = memref(f"{n}x1024")
    attrs = "dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>"
    args, pre, transforms = "", "", ""
    if grid:
        args, pre = "i32, ", "%g: i32, "
        win = f"{{transform_indices = @transform_0, window_bounds = array<i64: {n}, 1024>}}"
        attrs = (f"dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: {grid}>, "
                 f"scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, "
                 f"window_params = [{win}, {win}, {win}]")
        transforms = """  "func.func"() <{function_type = (i32) -> (i32, i32), sym_name = "transform_0"}> ({
  ^bb0(%i: i32):
    %z = "arith.constant"() <{value = 0 : i32}> : () -> i32
    "func.return"(%i, %z) : (i32, i32) -> ()
  }) : () -> ()
"""
    vec = f"vector<{n}x1024xf32>"
    scratch_ty, scratch_arg, scratch_use = "", "", ""
    if scratch_rows:
        st = memref(f"{scratch_rows}x128")
        scratch_ty, scratch_arg = f", {st}", f", %scr: {st}"
        attrs = attrs.replace("scratch_operands = 0", "scratch_operands = 1")
        scratch_use = f"""    %s = "vector.load"(%arg0, %0, %0) : ({ty}, index, index) -> vector<8x128xf32>
    "tpu.vector_store"(%s, %scr, %0, %0) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : (vector<8x128xf32>, {st}, index, index) -> ()
"""
    return f""""builtin.module"() <{{sym_name = "_add_kernel"}}> ({{
  "func.func"() <{{function_type = ({args}{ty}, {ty}, {ty}{scratch_ty}) -> (), sym_name = "_add_kernel"}}> ({{
  ^bb0({pre}%arg0: {ty}, %arg1: {ty}, %arg2: {ty}{scratch_arg}):
    %0 = "arith.constant"() <{{value = 0 : index}}> : () -> index
    %2 = "vector.load"(%arg0, %0, %0) : ({ty}, index, index) -> {vec}
    %5 = "vector.load"(%arg1, %0, %0) : ({ty}, index, index) -> {vec}
    %6 = "arith.addf"(%2, %5) <{{fastmath = #arith.fastmath<none>}}> : ({vec}, {vec}) -> {vec}
    "tpu.vector_store"(%6, %arg2, %0, %0) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : ({vec}, {ty}, index, index) -> ()
{scratch_use}    "func.return"() : () -> ()
  }}) {{{attrs}}} : () -> ()
{transforms}}}) : () -> ()
"""


def cases():
    for n in ADD_N:
        yield {"family": "add", "rows": n, "kernel": add_kernel(n), "operand": f"{n}x1024", "params": {}}
    for b in GRID_B:
        yield {"family": "add_grid", "rows": b, "kernel": add_kernel(b, grid=4), "operand": f"{4 * b}x1024",
               "params": {}}
    for family, n, grid, scratch, internal in SCRATCH:
        params = {} if internal is None else {"internal_scratch_in_bytes": internal}
        yield {"family": family, "rows": n, "grid": grid, "scratch_rows": scratch,
               "kernel": add_kernel(n, grid=grid, scratch_rows=scratch),
               "operand": f"{(grid or 1) * n}x1024", "params": params}
    for limit, ns in LIMITS:
        for n in ns:
            yield {"family": "add_limit", "rows": n, "kernel": add_kernel(n), "operand": f"{n}x1024",
                   "params": {"vmem_limit_bytes": limit}}


# (rows, cols, dtype) of the padding sweep, around v5e's 16 MiB.
SHAPES = [(1365, 1024, "f32"), (1360, 1024, "f32"), (2728, 1024, "bf16"), (2730, 1024, "bf16"),
          (2736, 1024, "bf16"), (1365, 1000, "f32"), (1360, 1000, "f32"), (2728, 1000, "bf16"),
          (2, 698880, "f32"), (2, 699051, "f32"), (4, 349440, "f32"), (4, 349526, "f32"), (8, 174763, "f32"),
          (13984, 100, "f32"), (20000, 100, "f32"), (40000, 100, "f32")]


def compile_modules(a, chip, paths):
    """libtpu's verdict on each module for `chip`: dicts with `ok` and `error` (the full message), in order."""
    if a.compiler == "cli":
        cmd = [a.cli, "compile", "--target", chip, "--json"] + paths
    else:
        cmd = [a.python, os.path.join(REPO, "scripts/jaxref/ref/tpu_compile.py"), "--chip", chip, "--json"] + paths
    out = subprocess.run(cmd, capture_output=True, text=True)
    results = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if len(results) != len(paths):
        sys.exit(f"{cmd[0]} gave {len(results)} verdicts for {len(paths)} modules: {out.stderr[-2000:]}")
    return [{"ok": r["ok"], "error": r["error"]} for r in results]


STATUS = re.compile(r"^[A-Z][A-Z_]+: (?=.)")


def comparable(error):
    """The first line of an error without JAX's status prefix (`RESOURCE_EXHAUSTED: `), which `compile`
    does not print, cut to what a committed row holds."""
    if error is None:
        return None
    # Rows keep 300 characters of the first line, the prefix included: compare what both have.
    return STATUS.sub("", error.splitlines()[0])[:250]


def made_by(a, what):
    via = ("`tpu-custom-call compile --json` (src/compile)" if a.compiler == "cli"
           else "scripts/jaxref/ref/tpu_compile.py")
    return f"scripts/vmem-sweep/{what} (libtpu 0.0.50.1 through {via})"


# (grid, block rows, vmem_limit_bytes in MiB) of the v7x grid sweep.
V7X_GRID = ([(g, b, None) for g in (1, 2, 4, 8) for b in (1376, 1384, 1392, 1400, 1408, 1416, 1440, 1472, 1536)]
            + [(4, b, lim) for lim in (8, 16, 24, 40)
               for b in (336, 344, 680, 688, 1024, 1032, 1360, 1368, 1704, 1712)])


def v7x_grid(a):
    work = tempfile.mkdtemp(prefix="vmem-v7x-grid-")
    paths = []
    for i, (grid, b, lim) in enumerate(V7X_GRID):
        kpath, ppath, mpath = (os.path.join(work, f"{i}.{ext}") for ext in ("kernel.mlir", "params.json", "mlir"))
        open(kpath, "w").write(add_kernel(b, grid=grid))
        params = {"kernel_name": "_add_kernel"}
        if lim:
            params["vmem_limit_bytes"] = lim * MIB
        json.dump(params, open(ppath, "w"))
        t = f"tensor<{grid * b}x1024xf32>"
        subprocess.run([a.cli, "emit", kpath, "--signature", f"({t}, {t}) -> {t}", "--params", ppath, "-o", mpath],
                       check=True)
        paths.append(mpath)
    result = []
    for (grid, b, lim), res in zip(V7X_GRID, compile_modules(a, "v7x", paths)):
        err = res["error"] or ""
        scoped = re.search(r"Scoped allocation with size \S+ and limit \S+", err)
        result.append({"grid": grid, "rows": b, "operand": f"{grid * b}x1024", "chip": "v7x",
                       "vmem_limit_bytes": lim and lim * MIB, "blocks_twice": 6 * b * 4096, "ok": res["ok"],
                       "error": None if res["error"] is None else
                       (scoped.group(0) if scoped else comparable(res["error"]))})
    with open(os.path.join(a.out, "v7x_grid.json"), "w") as f:
        json.dump({"made_by": made_by(a, "sweep.py --v7x-grid"), "verdicts": result}, f, indent=1)
        f.write("\n")
    for v in result:
        print(v)


def shapes(a):
    work = tempfile.mkdtemp(prefix="vmem-shapes-")
    ppath = os.path.join(work, "params.json")
    json.dump({"kernel_name": "_add_kernel"}, open(ppath, "w"))
    paths = []
    for i, (n, c, dt) in enumerate(SHAPES):
        kpath, mpath = os.path.join(work, f"{i}.kernel.mlir"), os.path.join(work, f"{i}.mlir")
        open(kpath, "w").write(add_kernel(n).replace(f"{n}x1024xf32", f"{n}x{c}x{dt}"))
        t = f"tensor<{n}x{c}x{dt}>"
        subprocess.run([a.cli, "emit", kpath, "--signature", f"({t}, {t}) -> {t}", "--params", ppath, "-o", mpath],
                       check=True)
        paths.append(mpath)
    result = []
    for (n, c, dt), res in zip(SHAPES, compile_modules(a, "v5e", paths)):
        err = res["error"]
        scoped = [l for l in (err or "").splitlines() if "Scoped allocation" in l]
        result.append({"rows": n, "cols": c, "dtype": dt, "chip": "v5e", "ok": res["ok"],
                       "error": None if err is None else (scoped[0][scoped[0].index("Scoped allocation"):][:120]
                                                          if scoped else err.splitlines()[0][:300])})
    with open(os.path.join(a.out, "shapes.json"), "w") as f:
        json.dump({"made_by": made_by(a, "sweep.py --shapes"), "verdicts": result}, f, indent=1)
        f.write("\n")
    for v in result:
        print(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(REPO, "target/debug/tpu-custom-call"))
    ap.add_argument("--python", default=os.path.expanduser(
        "~/.cache/tpu-custom-call/jaxref-tpu-venv/bin/python"))
    ap.add_argument("--out", default=os.path.join(REPO, "tests/data/vmem-sweep"))
    ap.add_argument("--shapes", action="store_true")
    ap.add_argument("--v7x-grid", action="store_true")
    ap.add_argument("--compiler", choices=["cli", "python"], default="cli")
    ap.add_argument("--check", action="store_true", help="compare with the committed verdicts, write nothing")
    ap.add_argument("--every", type=int, default=1, help="with --check: every K-th kernel")
    ap.add_argument("--chips", default=",".join(CHIPS), help="with --check: comma-separated chips")
    a = ap.parse_args()
    if a.shapes:
        return shapes(a)
    if a.v7x_grid:
        return v7x_grid(a)
    chips = CHIPS
    selected = list(cases())
    if a.check:
        chips = [c for c in a.chips.split(",") if c]
        selected = selected[::max(1, a.every)]
    work = tempfile.mkdtemp(prefix="vmem-sweep-")
    rows = []
    for i, case in enumerate(selected):
        kpath, ppath, mpath = (os.path.join(work, f"{i}.{ext}") for ext in ("kernel.mlir", "params.json", "mlir"))
        open(kpath, "w").write(case["kernel"])
        json.dump(dict(kernel_name="_add_kernel", metadata={}, **case["params"]), open(ppath, "w"))
        t = f"tensor<{case['operand']}xf32>"
        subprocess.run([a.cli, "emit", kpath, "--signature", f"({t}, {t}) -> {t}", "--params", ppath, "-o", mpath],
                       check=True)
        rows.append(dict(case, module=mpath))
    verdicts = {}
    for chip in chips:
        for r, res in zip(rows, compile_modules(a, chip, [r["module"] for r in rows])):
            verdicts[(r["module"], chip)] = res
    result = []
    for r in rows:
        for chip in chips:
            res = verdicts[(r["module"], chip)]
            err = res["error"]
            result.append({"family": r["family"], "rows": r["rows"], "operand": r["operand"], "chip": chip,
                           "grid": r.get("grid", 4 if r["family"] == "add_grid" else None),
                           "scratch_rows": r.get("scratch_rows", 0),
                           "internal_scratch_in_bytes": r["params"].get("internal_scratch_in_bytes"),
                           "vmem_limit_bytes": r["params"].get("vmem_limit_bytes"), "ok": res["ok"],
                           "error": None if err is None else err.splitlines()[0][:300]})
    if a.check:
        return check(a, result)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "verdicts.json"), "w") as f:
        json.dump({"made_by": made_by(a, "sweep.py"), "verdicts": result}, f, indent=1)
        f.write("\n")
    for v in result:
        print(v["family"], v["rows"], v["chip"], "OK" if v["ok"] else "FAIL " + (v["error"] or "")[:160])


def key(v):
    return (v["family"], v["rows"], v["operand"], v["chip"], v["grid"], v["scratch_rows"],
            v["internal_scratch_in_bytes"], v["vmem_limit_bytes"])


def check(a, result):
    committed = {key(v): v for v in json.load(open(os.path.join(a.out, "verdicts.json")))["verdicts"]}
    differ, missing = [], []
    for v in result:
        old = committed.get(key(v))
        if old is None:
            missing.append(v)
        elif (old["ok"], comparable(old["error"])) != (v["ok"], comparable(v["error"])):
            differ.append((old, v))
    for old, v in differ:
        print("DIFFERS", key(v), "committed:", old["ok"], comparable(old["error"]), "now:", v["ok"],
              comparable(v["error"]))
    for v in missing:
        print("NOT COMMITTED", key(v))
    print(f"{len(result)} verdicts re-made with --compiler {a.compiler}: {len(result) - len(differ) - len(missing)} "
          f"equal the committed ones, {len(differ)} differ, {len(missing)} not committed")
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
