"""Writes JAX 0.12's module for a Pallas elementwise add to argv[1]:
`jax.jit(f).trace(x, y).lower(lowering_platforms=("tpu",)).as_text()` (no TPU needed).

The README's "Testing your lowering against JAX" example; `tests/integration/diff.rs`
(`real_jax_module_equals_our_emission`) diffs it against our emission of
mlir-fixtures/kernels/add.mlir.
"""
import sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def f(x, y):
    return pl.pallas_call(_add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, y)


x = jnp.zeros((8, 128), jnp.float32)
with open(sys.argv[1], "w") as out:
    out.write(jax.jit(f).trace(x, x).lower(lowering_platforms=("tpu",)).as_text())
