"""Lowers the Pallas kernels of mlir-fixtures/jax-lowered/ with real JAX 0.12 for TPU (no TPU needed) and writes,
per case, what JAX gives: `module.mlir` (`Lowered.as_text()`) and `kernel.mlir` (the call's body deserialized by
jaxlib's own mosaic-serde pass and printed by jaxlib, the pretty form JAX users see; no locations).

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/lower_upstream_cases.py [OUT_DIR]   (default mlir-fixtures/jax-lowered)

Cases (issue 27, found on JAX's own Pallas TPU test suite):
- scf_while: a `lax.while_loop` in a kernel, lowered to `scf.while`, whose two regions both have block arguments:
  JAX's `debug_locations` list the arguments of both regions before the ops of either.
- strided_slice: value slices of loaded vectors, lowered to `vector.extract_strided_slice` and
  `vector.insert_strided_slice`, which MLIR 24 (jaxlib 0.12) prints as `offsets = [...], sizes = [...], ...`
  where LLVM 22 keeps them in the attribute dictionary.
"""
import base64
import json
import os
import re
import sys

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jaxlib.mlir import ir
from jaxlib.mlir.passmanager import PassManager

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "ref"))
from check_body import mosaic_context, mlir_unescape  # noqa: E402


def scf_while(x_ref, o_ref):
    def cond(c):
        return c[0] < 4

    def body(c):
        i, acc = c
        return i + 1, acc + x_ref[...] * 2.0

    _, acc = jax.lax.while_loop(cond, body, (0, jnp.zeros((8, 128), jnp.float32)))

    @pl.when(acc[0, 0] > 0)
    def _():
        o_ref[...] = acc


def strided_slice(x_ref, o_ref):
    x = x_ref[...]
    left, right = x[:, :64], x[:, 64:]
    o_ref[...] = jnp.concatenate([right + 1.0, left * 2.0], axis=1)
    o_ref[:, 32:96] = x[:, 16:80]


CASES = {"scf_while": scf_while, "strided_slice": strided_slice}


def lower(kernel):
    def f(x):
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(x)

    x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
    return jax.jit(f).trace(x).lower(lowering_platforms=("tpu",)).as_text()


def kernel_text(module_text):
    config = re.search(r'backend_config = "((?:[^"\\]|\\.)*)"', module_text).group(1)
    body = base64.b64decode(json.loads(mlir_unescape(config))["custom_call_config"]["body"])
    with mosaic_context(), ir.Location.unknown():
        module = ir.Module.parse(body)
        PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
        return module.operation.get_asm(enable_debug_info=False)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..",
                                                             "mlir-fixtures", "jax-lowered")
    for name, kernel in CASES.items():
        os.makedirs(os.path.join(out, name), exist_ok=True)
        text = lower(kernel)
        with open(os.path.join(out, name, "module.mlir"), "w") as f:
            f.write(text)
        with open(os.path.join(out, name, "kernel.mlir"), "w") as f:
            f.write(kernel_text(text))
        print(name, "written")


if __name__ == "__main__":
    main()
