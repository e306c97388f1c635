#!/usr/bin/env python3
"""Writes the Pallas TPU matmul guide's kernels (JAX docs/pallas/tpu/matmul.ipynb, run on a TPU v5e) as
StableHLO modules, lowered for TPU on this CPU-only machine by real JAX 0.12:

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/estimate/matmul_guide.py OUT_DIR

One module per (bm, bk, bn, m=k=n) the guide timed, plus the transposed-RHS and fused-ReLU variants, named
`mm_<variant>_b<bm>x<bk>x<bn>_<m>.mlir`. The kernel is the guide's own code (copied verbatim below)."""
import functools
import os
import sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def matmul_kernel(x_ref, y_ref, z_ref, acc_ref, *, nsteps, transpose_rhs=False, activation=lambda x: x):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  if transpose_rhs:
    dims = ((1,), (1,)), ((), ())
  else:
    dims = ((1,), (0,)), ((), ())
  acc_ref[...] += jax.lax.dot_general(
      x_ref[...], y_ref[...], dims, preferred_element_type=jnp.float32,
  )

  @pl.when(pl.program_id(2) == nsteps - 1)
  def _():
    z_ref[...] = activation(acc_ref[...]).astype(z_ref.dtype)


def matmul(x, y, *, bm=128, bk=128, bn=128, transpose_rhs=False, activation=lambda x: x):
  if transpose_rhs:
    n, _ = y.shape
    y_block_spec = pl.BlockSpec((bn, bk), lambda i, j, k: (j, k))
  else:
    _, n = y.shape
    y_block_spec = pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))
  m, k = x.shape
  return pl.pallas_call(
      functools.partial(matmul_kernel, nsteps=k // bk, transpose_rhs=transpose_rhs, activation=activation),
      grid_spec=pltpu.PrefetchScalarGridSpec(
          num_scalar_prefetch=0,
          in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)), y_block_spec],
          out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
          scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
          grid=(m // bm, n // bn, k // bk),
      ),
      out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
  )(x, y)


def lower(f, *shapes):
  args = [jax.ShapeDtypeStruct(s, jnp.bfloat16) for s in shapes]
  return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()


def main():
  out = sys.argv[1]
  os.makedirs(out, exist_ok=True)
  sizes = [1024, 4096, 8192]
  blocks = [(128, 128, 128), (512, 1024, 1024)]
  # Extra block sizes (no public timing): the sweep of examples/estimate_sweep.rs and docs/estimate.md.
  if "--sweep" in sys.argv:
    blocks += [(256, 256, 256), (512, 512, 512), (256, 512, 512), (1024, 1024, 1024), (512, 512, 1024)]
  variants = {
      "plain": {},
      "trans": {"transpose_rhs": True},
      "relu": {"activation": jax.nn.relu},
  }
  for variant, kw in variants.items():
    for bm, bk, bn in blocks:
      if variant != "plain" and (bm, bk, bn) not in [(128, 128, 128), (512, 1024, 1024)]:
        continue
      for s in sizes:
        f = functools.partial(matmul, bm=bm, bk=bk, bn=bn, **kw)
        yshape = (s, s)
        text = lower(f, (s, s), yshape)
        name = f"mm_{variant}_b{bm}x{bk}x{bn}_{s}.mlir"
        with open(os.path.join(out, name), "w") as fh:
          fh.write(text)
        print(name)


if __name__ == "__main__":
  main()
