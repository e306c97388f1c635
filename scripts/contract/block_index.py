#!/usr/bin/env python3
"""Kernels whose index maps address blocks outside their arrays (small blocks, nothing near a VMEM limit),
lowered by JAX 0.12 for TPU into OUT_DIR/<case>.mlir, to ask libtpu whether it refuses them at compile time
(`/work/shared/jaxref/tpu_compile.py --chip v6e OUT_DIR/*.mlir`).

Usage (the CPU venv): block_index.py OUT_DIR
"""
import os, sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jaxtpu  # noqa: E402


def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def case(rows, grid, index_map, out_map=None):
    def f(x):
        return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=grid,
                              in_specs=[pl.BlockSpec((8, 128), index_map)],
                              out_specs=pl.BlockSpec((8, 128), out_map or (lambda *g: (0, 0))))(x)
    return f, jax.ShapeDtypeStruct((rows, 128), jnp.float32)


CASES = {
    "in_next_block": case(8, (2,), lambda i: (i, 0)),         # block 1 of an 8-row array: rows 8..15
    "in_far_block": case(16, (2,), lambda i: (i + 5, 0)),      # blocks 5, 6 of a 16-row array
    "in_element_offsets": case(16, (2,), lambda i: (i * 8, 0)),  # element offsets used as block indices
    "out_next_block": case(8, (2,), lambda i: (0, 0), lambda i: (i, 0)),
    "in_negative_block": case(16, (2,), lambda i: (i - 1, 0)),
    "in_bounds": case(16, (2,), lambda i: (i, 0)),              # the control: compiles
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    jaxtpu.pretend("TPU v6e")
    for name, (f, x) in CASES.items():
        with open(os.path.join(out, name + ".mlir"), "w") as fh:
            fh.write(jaxtpu.lower(f, x))
        print(name)


if __name__ == "__main__":
    main()
