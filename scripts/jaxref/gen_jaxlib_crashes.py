"""Generates tests/data/mosaic-corpus/jaxlib-crashes.jsonl: kernels on which jaxlib 0.12 itself cannot give a
verdict (it dies of a signal: a failed CHECK, a division by zero; or it never returns), each judged by jaxlib in
its own process with a timeout, and the outcome recorded. The crate refuses these kernels with a message saying
that jaxlib aborts or never returns (tests/integration/mosaic_verify.rs checks it against this file).

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/gen_jaxlib_crashes.py > tests/data/mosaic-corpus/jaxlib-crashes.jsonl

Line format (JSON, after a `{"_generated": ...}` header line):
  {"op", "why", "text", "outcome": "signal N" | "timeout" | "ok" | "error", "message"}
"""
import json
import subprocess
import sys

import jaxlib

V = "#tpu.memory_space<vmem>"
TIMEOUT = 30


def tiled(shape, tiling, elem="f32"):
    return f"memref<{shape}x{elem}, #tpu.tiled<{tiling}>, {V}>"


def kernel(op, src, dst):
    return (f"func.func @k(%m: {src}) attributes {{tpu.core_type = #tpu.core_type<tc>}} {{\n"
            f"  %r = \"tpu.{op}\"(%m) : ({src}) -> {dst}\n  return\n}}\n")


CASES = [
    ("memref_bitcast", "a CHECK fails inferring the tiling of a bf16 source with a (1,128) tile before (2,1)",
     kernel("memref_bitcast", tiled("32x128", "(16,128)(1,128)(2,1),[1,1]", "bf16"), f"memref<16x128xf32, {V}>")),
    ("memref_reshape", "zero-size dimensions: division by zero",
     kernel("memref_reshape", tiled("0x128", "(8,128),[1,1]"), tiled("0x256", "(8,128),[1,1]"))),
    ("memref_reshape", "a first tile with a size of 0: division by zero",
     kernel("memref_reshape", tiled("16x128", "(0,128),[1,1]"), tiled("8x256", "(0,128),[1,1]"))),
    ("memref_reshape", "a first tile with a size of 0, the shape kept",
     kernel("memref_reshape", tiled("16x128", "(8,0),[1,1]"), tiled("16x128", "(8,0),[1,1]"))),
    ("memref_reshape", "a rank-1 tile of 0",
     kernel("memref_reshape", tiled("2048", "(0),[1]"), tiled("16x128", "(0),[1,1]"))),
    ("memref_reshape", "re-tiling loop that consumes nothing",
     kernel("memref_reshape", tiled("2x4", "(128),[1,1]"), tiled("4x2", "(128),[1,1]"))),
]

JUDGE = r'''
import sys, json
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir
ctx = jmlir.make_ir_context()
tpu.register_dialect(ctx)
with ctx:
    try:
        ir.Module.parse(sys.stdin.read())
        print(json.dumps(["ok", ""]))
    except Exception as e:
        lines = [l for l in str(e).splitlines() if l.startswith("error: ")]
        print(json.dumps(["error", lines[0] if lines else str(e)]))
'''


def judge(text):
    try:
        r = subprocess.run([sys.executable, "-c", JUDGE], input=text, capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "timeout", f"no verdict after {TIMEOUT} s"
    if r.returncode < 0:
        # The failed CHECK's own line (the rest of stderr holds addresses that change from run to run).
        checks = [l[l.index("Check failed"):] for l in r.stderr.splitlines() if "Check failed" in l]
        return f"signal {-r.returncode}", checks[0] if checks else ""
    return tuple(json.loads(r.stdout))


def main():
    print(json.dumps({"_generated": f"scripts/jaxref/gen_jaxlib_crashes.py with jaxlib {jaxlib.__version__}, "
                                    f"each kernel in its own process, timeout {TIMEOUT} s"}))
    for op, why, text in CASES:
        outcome, message = judge(text)
        print(json.dumps({"op": op, "why": why, "text": text, "outcome": outcome, "message": message}))


if __name__ == "__main__":
    main()
