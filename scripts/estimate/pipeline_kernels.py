#!/usr/bin/env python3
"""Writes the estimate tests' loop kernels as StableHLO modules, lowered for TPU on this CPU-only machine by real
JAX 0.12 (the kernels of issue 49):

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/estimate/pipeline_kernels.py tests/data/estimate

- `pipeline_matmul.mlir`: a bf16 matmul over HBM operands (`memory_space=pl.ANY`) whose grid (2 parallel steps, one
  per row half) runs `pltpu.emit_pipeline` inside each step: (512x1024) @ (1024x1024) per step in 256x256x256 blocks,
  so each grid step is an scf loop (the pipeline) of 2x4x4 = 32 inner steps, with its buffers and DMA semaphores
  allocated by `run_scoped` in VMEM.
- `fori_matmul.mlir`: a plain blocked grid (2 parallel steps) whose body is a `lax.fori_loop` of 8 dot-adds over
  128-row slices of its VMEM blocks (an scf.for inside a grid step, no pipeline).

Also checks each kernel against jnp in Pallas TPU interpret mode (the same function that is lowered)."""
import functools
import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

M, K, N = 1024, 1024, 1024
BM, BK, BN = 256, 256, 256


def inner_matmul(x_ref, y_ref, z_ref):
  @pl.when(pl.program_id(2) == 0)
  def _():
    z_ref[...] = jnp.zeros_like(z_ref)

  z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)


def pipeline_kernel(x_hbm, y_hbm, o_hbm):
  i = pl.program_id(0)
  rows = M // 2
  pipeline = pltpu.emit_pipeline(
      inner_matmul,
      grid=(rows // BM, N // BN, K // BK),
      in_specs=[pl.BlockSpec((BM, BK), lambda a, b, c: (a, c)),
                pl.BlockSpec((BK, BN), lambda a, b, c: (c, b))],
      out_specs=[pl.BlockSpec((BM, BN), lambda a, b, c: (a, b))],
  )
  pipeline(x_hbm.at[pl.ds(i * rows, rows), :], y_hbm, o_hbm.at[pl.ds(i * rows, rows), :])


def pipeline_matmul(x, y):
  return pl.pallas_call(
      pipeline_kernel,
      grid=(2,),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY), pl.BlockSpec(memory_space=pl.ANY)],
      out_specs=pl.BlockSpec(memory_space=pl.ANY),
      out_shape=jax.ShapeDtypeStruct((M, N), jnp.float32),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x, y)


def fori_kernel(x_ref, y_ref, o_ref):
  def body(r, acc):
    rows = pl.ds(pl.multiple_of(r * 128, 128), 128)
    o_ref[rows, :] = jnp.dot(x_ref[rows, :], y_ref[...], preferred_element_type=jnp.float32)
    return acc

  jax.lax.fori_loop(0, 8, body, 0)


def fori_matmul(x, y):
  return pl.pallas_call(
      fori_kernel,
      grid=(2,),
      in_specs=[pl.BlockSpec((1024, 512), lambda i: (i, 0)), pl.BlockSpec((512, 512), lambda i: (0, 0))],
      out_specs=pl.BlockSpec((1024, 512), lambda i: (i, 0)),
      out_shape=jax.ShapeDtypeStruct((2048, 512), jnp.float32),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(x, y)


def tpu_mesh(kind):
  """The abstract TPU the lowering (emit_pipeline's tiling) is for: JAX reads the chip from it on a CPU host."""
  from jax.sharding import AbstractDevice, AbstractMesh
  return jax.sharding.use_abstract_mesh(AbstractMesh(
      (), (), abstract_device=AbstractDevice(device_kind=kind, num_cores=1, platform="tpu")))


def lower(f, *shapes):
  args = [jax.ShapeDtypeStruct(s, jnp.bfloat16) for s in shapes]
  with tpu_mesh("TPU v6 lite"):
    return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()


def check(f, *shapes):
  rng = np.random.default_rng(0)
  args = [jnp.asarray(rng.standard_normal(s), jnp.bfloat16) for s in shapes]
  with pltpu.force_tpu_interpret_mode(pltpu.InterpretParams()), tpu_mesh("TPU v6 lite"):
    got = np.asarray(jax.jit(f)(*args))
  want = np.asarray(jnp.dot(args[0], args[1], preferred_element_type=jnp.float32))
  np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-1)


def main():
  out = sys.argv[1]
  os.makedirs(out, exist_ok=True)
  kernels = {
      "pipeline_matmul": (pipeline_matmul, (M, K), (K, N)),
      "fori_matmul": (fori_matmul, (2048, 512), (512, 512)),
  }
  for name, (f, *shapes) in kernels.items():
    if "--no-check" not in sys.argv:
      check(f, *shapes)
    path = os.path.join(out, f"{name}.mlir")
    with open(path, "w") as fh:
      fh.write(lower(f, *shapes))
    print(path)


if __name__ == "__main__":
  main()
