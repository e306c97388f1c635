"""The reference folder of tests/suite.rs: seeded random inputs and the result
JAX's Pallas computes for `o_ref[...] = x_ref[...] + y_ref[...]` (interpret
mode, jax 0.12.0.1). Run with the jaxref venv from this folder:
~/.cache/tpu-custom-call/jaxref-venv/bin/python tests/reference/make.py"""
import jax, jax.numpy as jnp, numpy as np
from jax.experimental import pallas as pl

def _add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]

rng = np.random.default_rng(0)
x = rng.standard_normal((8, 128), dtype=np.float32)
y = rng.standard_normal((8, 128), dtype=np.float32)
out = pl.pallas_call(_add_kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)(x, y)
np.save("tests/reference/input0.npy", x)
np.save("tests/reference/input1.npy", y)
np.save("tests/reference/result0.npy", np.asarray(out))
