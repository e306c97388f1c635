#!/usr/bin/env python3
"""The block-tiling sweep: Pallas copy kernels with a grid over block shapes x dtypes (1-D, 2-D and 3-D blocks),
judged by JAX 0.12 and by libtpu 0.0.50.1.

For each point JAX's own check (`_check_block_mappings` of jax/_src/pallas/mosaic/lowering.py: "the last two
dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the respective
dimensions of the overall array"; the rank-1 rule) gives JAX's verdict; the module is then lowered with that
check turned off, so that libtpu can judge the same kernel (`tpu_compile.py`, run by `--compile`).

Usage:
  CPU venv:  tiling_sweep.py lower OUT_DIR           writes OUT_DIR/<point>.mlir and OUT_DIR/jax.jsonl
  TPU venv:  tiling_sweep.py compile OUT_DIR CHIP    runs /work/shared/jaxref/tpu_compile.py on them,
                                                     writes OUT_DIR/libtpu-CHIP.jsonl
  any:       tiling_sweep.py merge OUT_DIR FIXTURE   writes the fixture (one JSON object per point: name,
                                                     dtype, array, block, jax (null or JAX's message), libtpu
                                                     per chip (null or the first line of libtpu's error))
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = ["float32", "bfloat16", "int8", "bool", "float8_e4m3fn", "int16", "int4", "uint8"]
POINTS = []  # (array shape, block shape)
for arr in [(64, 512), (12, 384)]:
    for r in [1, 4, 8, 12, 16, 24, 32, 64]:
        for c in [100, 128, 200, 256, 384, 512]:
            if r <= arr[0] and c <= arr[1]:
                POINTS.append((arr, (r, c)))
for blk in [(1, 8, 128), (2, 8, 128), (1, 12, 128), (1, 64, 100), (1, 16, 256), (2, 64, 512), (1, 4, 512)]:
    POINTS.append(((4, 64, 512), blk))
for arr in [(4096,), (3000,)]:
    for b in [64, 128, 256, 384, 512, 1000, 1024, 2048, 3000, 4096]:
        if b <= arr[0]:
            POINTS.append((arr, (b,)))


def name(dtype, arr, blk):
    return f"{dtype}_a{'x'.join(map(str, arr))}_b{'x'.join(map(str, blk))}"


def lower(out):
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax._src.pallas.mosaic import lowering
    sys.path.insert(0, HERE)
    import jaxtpu
    jaxtpu.pretend("TPU v6e")
    check = lowering._check_block_mappings
    verdict = {}

    def judged(block_mappings, *a, **k):
        try:
            check(block_mappings, *a, **k)
        except ValueError as e:
            verdict["jax"] = str(e)
    lowering._check_block_mappings = judged
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "jax.jsonl"), "w") as log:
        for dtype in DTYPES:
            for arr, blk in POINTS:
                n = name(dtype, arr, blk)
                grid = tuple(-(-a // b) for a, b in zip(arr, blk))
                spec = pl.BlockSpec(blk, lambda *g: g)

                def f(x):
                    return pl.pallas_call(lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]),
                                          out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=grid,
                                          in_specs=[spec], out_specs=spec)(x)
                verdict.clear()
                try:
                    text = jaxtpu.lower(f, jax.ShapeDtypeStruct(arr, getattr(jnp, dtype)))
                except Exception as e:  # noqa: BLE001 - JAX refuses otherwise (recorded)
                    log.write(json.dumps({"name": n, "lower_error": f"{type(e).__name__}: {e}"[:300]}) + "\n")
                    continue
                with open(os.path.join(out, n + ".mlir"), "w") as fh:
                    fh.write(text)
                log.write(json.dumps({"name": n, "dtype": dtype, "array": arr, "block": blk,
                                      "jax": verdict.get("jax")}) + "\n")
                print(n, "refused" if verdict.get("jax") else "ok", flush=True)


def compile_(out, chip):
    names = [json.loads(l)["name"] for l in open(os.path.join(out, "jax.jsonl"))]
    paths = [os.path.join(out, n + ".mlir") for n in names if os.path.exists(os.path.join(out, n + ".mlir"))]
    res = subprocess.run([sys.executable, "/work/shared/jaxref/tpu_compile.py", "--chip", chip, "--json", *paths],
                         capture_output=True, text=True)
    with open(os.path.join(out, f"libtpu-{chip}.jsonl"), "w") as fh:
        fh.write(res.stdout)


def merge(out, fixture):
    rows = {}
    for l in open(os.path.join(out, "jax.jsonl")):
        v = json.loads(l)
        if "lower_error" in v:
            continue
        v["libtpu"] = {}
        rows[v["name"]] = v
    for fn in sorted(os.listdir(out)):
        if fn.startswith("libtpu-") and fn.endswith(".jsonl"):
            for l in open(os.path.join(out, fn)):
                v = json.loads(l)
                n = os.path.basename(v["path"])[:-5]
                err = None if v["ok"] else (v.get("error") or "").splitlines()[0][:400]
                rows[n]["libtpu"][v["chip"]] = err
    with open(fixture, "w") as fh:
        for v in rows.values():
            fh.write(json.dumps(v) + "\n")


if __name__ == "__main__":
    {"lower": lambda: lower(sys.argv[2]), "compile": lambda: compile_(sys.argv[2], sys.argv[3]),
     "merge": lambda: merge(sys.argv[2], sys.argv[3])}[sys.argv[1]]()
