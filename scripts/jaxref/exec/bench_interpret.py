#!/usr/bin/env python3
"""JAX 0.12's Pallas TPU interpret mode timed on the executor's benchmark kernels, and the same
kernels lowered for TPU, so `bench/compare-jax.sh` can time `tpu-custom-call run` on exactly them.

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/exec/bench_interpret.py OUT_DIR [--later N]

Writes OUT_DIR/<name>/{module.mlir, in<k>.npy} and prints one JSON line per kernel:
{"name", "first_seconds" (trace + compile + run of a fresh jit), "later_seconds" (median of N)}.
Kernels (the sizes of issue 28):
  flash_attention_fwd_causal  jax.experimental.pallas.ops.tpu.flash_attention, f32 [1, 2, 512, 128],
                              causal, default block sizes
  matmul_bf16_512x1024x256    jax.experimental.pallas.ops.tpu.matmul, bf16 512x1024 @ 1024x256,
                              block_shape (128, 128), block_k 256
"""
import argparse
import json
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.experimental.pallas.ops.tpu import flash_attention as fa  # noqa: E402
from jax.experimental.pallas.ops.tpu import matmul as mm  # noqa: E402

REAL_PALLAS_CALL = pl.pallas_call


def with_interpret(flag):
  """pallas_call with interpret mode forced on or off for the production kernels."""
  def patched(*a, **kw):
    kw["interpret"] = pltpu.InterpretParams() if flag else False
    return REAL_PALLAS_CALL(*a, **kw)
  return patched


def flash(q, k, v):
  return fa.flash_attention(q, k, v, causal=True, sm_scale=0.125)


def matmul(x, y):
  return mm.matmul(x, y, block_shape=(128, 128), block_k=256)


def kernels():
  rng = np.random.default_rng(0)
  q, k, v = (rng.standard_normal((1, 2, 512, 128)).astype(np.float32) for _ in range(3))
  x = rng.standard_normal((512, 1024)).astype(ml_dtypes.bfloat16)
  y = rng.standard_normal((1024, 256)).astype(ml_dtypes.bfloat16)
  return [("flash_attention_fwd_causal", flash, [q, k, v]),
          ("matmul_bf16_512x1024x256", matmul, [x, y])]


def block(x):
  return jax.tree.map(lambda a: a.block_until_ready(), x)


def patch(flag):
  for mod in (fa, mm):
    mod.pl.pallas_call = with_interpret(flag)


def main() -> int:
  ap = argparse.ArgumentParser()
  ap.add_argument("out")
  ap.add_argument("--later", type=int, default=5)
  a = ap.parse_args()
  for name, fn, args in kernels():
    d = os.path.join(a.out, name)
    os.makedirs(d, exist_ok=True)
    patch(False)
    specs = [jax.ShapeDtypeStruct(x.shape, x.dtype) for x in args]
    text = jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
    with open(os.path.join(d, "module.mlir"), "w") as f:
      f.write(text)
    for i, x in enumerate(args):
      np.save(os.path.join(d, f"in{i}.npy"), x.view(np.uint16) if x.dtype == ml_dtypes.bfloat16 else x)
    patch(True)
    jax.clear_caches()  # the production entry points are jitted: drop the TPU trace
    jitted = jax.jit(fn)
    t0 = time.perf_counter()
    out = block(jitted(*args))
    first = time.perf_counter() - t0
    later = []
    for _ in range(a.later):
      t0 = time.perf_counter()
      block(jitted(*args))
      later.append(time.perf_counter() - t0)
    out = np.asarray(out)
    np.save(os.path.join(d, "out0.npy"), out.view(np.uint16) if out.dtype == ml_dtypes.bfloat16 else out)
    print(json.dumps({"name": name, "first_seconds": round(first, 4),
                      "later_seconds": round(statistics.median(later), 4)}), flush=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
