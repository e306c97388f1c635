#!/usr/bin/env python3
"""Writes the Pallas TPU sparse guide's block-sparse (DSD) matmul (JAX docs/pallas/tpu/sparse.ipynb, "Sparse Kernel:
8.136 ms" measured on a TPU v5e) as a StableHLO module, lowered for TPU on this CPU-only machine by real JAX 0.12:

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/estimate/sparse_guide.py OUT_DIR

The kernel, its specs and the sampled sparsity (key 0, p=0.1: the number of non-zero blocks fixes the grid) are
the guide's own code, copied verbatim; only the block data is left out (shapes suffice to lower)."""
import os
import sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

M = N = K = 16384
blk_M = blk_N = blk_K = 512

mask_key, _ = jax.random.split(jax.random.key(0))
block_mask = jax.random.bernoulli(mask_key, p=0.1, shape=(M // blk_M, K // blk_K))
num_blocks = int(jnp.sum(block_mask))


def dsd_kernel(idxs_i_ref, idxs_k_ref, x_ref, y_ref, _, o_ref, accum_scratch):
  del idxs_k_ref
  blk_idx = pl.program_id(1)
  is_start = blk_idx == 0
  changed_blocks = (idxs_i_ref[blk_idx] != idxs_i_ref[jnp.maximum(blk_idx-1, 0)])
  @pl.when(is_start | changed_blocks)
  def _():
    accum_scratch[...] = jnp.zeros_like(accum_scratch)
  accum_scratch[...] += jnp.dot(x_ref[0, :, :], y_ref[...], preferred_element_type=jnp.float32)

  next_block_change = (idxs_i_ref[blk_idx] != idxs_i_ref[jnp.minimum(blk_idx+1, num_blocks)])
  is_end = blk_idx == (num_blocks - 1)
  @pl.when(is_end | next_block_change)
  def _():
    o_ref[...] = accum_scratch[...].astype(o_ref.dtype)


def x_map(j, blk_idx, blk_idxs_i, blk_idxs_k):
  del j, blk_idxs_i, blk_idxs_k
  return (blk_idx, 0, 0)
def y_map(j, blk_idx, blk_idxs_i, blk_idxs_k):
  del blk_idxs_i
  return (blk_idxs_k[blk_idx], j)
def o_map(j, blk_idx, blk_idxs_i, blk_idxs_k):
  del blk_idxs_k
  return (blk_idxs_i[blk_idx], j)


grid_spec = pltpu.PrefetchScalarGridSpec(
    num_scalar_prefetch=2,
    grid=(N // blk_N, num_blocks),
    in_specs=[pl.BlockSpec((1, blk_M, blk_K), x_map),
              pl.BlockSpec((blk_K, blk_N), y_map),
              pl.BlockSpec((blk_M, blk_N), o_map),
              ],
    out_specs=pl.BlockSpec((blk_M, blk_N), o_map),
    scratch_shapes=[pltpu.VMEM((blk_M, blk_N), dtype=jnp.float32)]
)
kernel = pl.pallas_call(
    dsd_kernel,
    grid_spec=grid_spec,
    out_shape=jax.ShapeDtypeStruct((M, N), dtype=jnp.bfloat16),
    input_output_aliases={4: 0},
)


def main():
  out = sys.argv[1]
  os.makedirs(out, exist_ok=True)
  args = [
      jax.ShapeDtypeStruct((num_blocks,), jnp.int32),
      jax.ShapeDtypeStruct((num_blocks,), jnp.int32),
      jax.ShapeDtypeStruct((num_blocks, blk_M, blk_K), jnp.bfloat16),
      jax.ShapeDtypeStruct((K, N), jnp.bfloat16),
      jax.ShapeDtypeStruct((M, N), jnp.bfloat16),
  ]
  text = jax.jit(kernel).trace(*args).lower(lowering_platforms=("tpu",)).as_text()
  name = f"dsd_b512_{num_blocks}blocks_16384.mlir"
  with open(os.path.join(out, name), "w") as fh:
    fh.write(text)
  print(name, "grid", (N // blk_N, num_blocks))


if __name__ == "__main__":
  main()
