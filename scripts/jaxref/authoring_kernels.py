#!/usr/bin/env python3
"""The Pallas kernels that examples/build_kernel's `softmax` and `matmul_acc` write in Rust,
lowered for TPU by JAX 0.12: prints `softmax` then `matmul_acc` modules (Lowered.as_text()),
separated by a line `// -----`. Run with the jaxref venv's python (tests/integration runs it).
The kernels are counted in non-blank lines (the 1.5x rule of issue 29) between the
begin and end markers of each."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

# softmax: begin
def softmax_kernel(x_ref, o_ref):
  x = x_ref[...]
  m = jnp.max(x, axis=1, keepdims=True)
  e = jnp.exp(x - m)
  o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)

def softmax(x):
  return pl.pallas_call(
      softmax_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      grid=(x.shape[0] // 8,),
      in_specs=[pl.BlockSpec((8, 512), lambda i: (i, 0))],
      out_specs=pl.BlockSpec((8, 512), lambda i: (i, 0)),
  )(x)
# softmax: end

# matmul: begin
def matmul_kernel(x_ref, y_ref, z_ref, acc_ref, *, nsteps):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(
      x_ref[...], y_ref[...], preferred_element_type=jnp.float32
  )

  @pl.when(pl.program_id(2) == nsteps - 1)
  def _():
    z_ref[...] = acc_ref[...].astype(z_ref.dtype)

@functools.partial(jax.jit, static_argnames=['bm', 'bk', 'bn'])
def matmul(x, y, *, bm=128, bk=128, bn=128):
  m, k = x.shape
  _, n = y.shape
  return pl.pallas_call(
      functools.partial(matmul_kernel, nsteps=k // bk),
      grid_spec=pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=0,
        in_specs=[
            pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)),
            pl.BlockSpec((bk, bn), lambda i, j, k: (k, j)),
        ],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
        scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
        grid=(m // bm, n // bn, k // bk),
      ),
      out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
      compiler_params=pltpu.CompilerParams(
          dimension_semantics=("parallel", "parallel", "arbitrary")),
  )(x, y)
# matmul: end


def lower(f, *args):
  return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()


if __name__ == "__main__":
  S = jax.ShapeDtypeStruct
  print(lower(softmax, S((256, 512), jnp.float32)))
  print("// -----")
  print(lower(matmul, S((256, 512), jnp.bfloat16), S((512, 256), jnp.bfloat16)))
