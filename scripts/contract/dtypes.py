#!/usr/bin/env python3
"""Element types as JAX 0.12 lowers them: for each dtype, a Pallas TPU copy kernel (whole VMEM operands and
a blocked one with a grid) lowered by `jax.jit(f).trace(x).lower(lowering_platforms=("tpu",))` on a CPU host;
the module (with its `tpu_custom_call`) is written to OUT/<case>.mlir, and a summary line per case (the call's
operand/result element type and the kernel argument's) to stdout.

Usage (the CPU venv): dtypes.py OUT_DIR
"""
import os, sys

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jaxtpu  # noqa: E402

DTYPES = {
    "bool": jnp.bool_, "int8": jnp.int8, "uint8": jnp.uint8, "int16": jnp.int16, "uint16": jnp.uint16,
    "int32": jnp.int32, "uint32": jnp.uint32, "int4": jnp.int4, "uint4": jnp.uint4,
    "float32": jnp.float32, "bfloat16": jnp.bfloat16, "float16": jnp.float16,
    "float8_e4m3fn": jnp.float8_e4m3fn, "float8_e5m2": jnp.float8_e5m2,
    "float8_e4m3b11fnuz": jnp.float8_e4m3b11fnuz, "float8_e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "float8_e5m2fnuz": ml_dtypes.float8_e5m2fnuz, "float8_e4m3": getattr(ml_dtypes, "float8_e4m3", None),
    "float8_e3m4": getattr(ml_dtypes, "float8_e3m4", None), "float8_e8m0fnu": getattr(ml_dtypes, "float8_e8m0fnu", None),
    "float4_e2m1fn": getattr(ml_dtypes, "float4_e2m1fn", None),
}


def copy_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def whole(x):
    return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)


def blocked(x):
    spec = pl.BlockSpec((32, 128), lambda i: (i, 0))
    return pl.pallas_call(copy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,),
                          in_specs=[spec], out_specs=spec)(x)


def smem(x):
    def k(x_ref, o_ref):
        o_ref[0] = x_ref[0]
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM)],
                          out_specs=pl.BlockSpec(memory_space=pltpu.SMEM))(x)


def any_space(x):
    def k(x_ref, o_ref):
        pltpu.sync_copy(x_ref, o_ref)
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                          out_specs=pl.BlockSpec(memory_space=pl.ANY))(x)


def scalar_prefetch(x):
    # a prefetched (SMEM) operand of this dtype indexing nothing
    def k(s_ref, x_ref, o_ref):
        o_ref[...] = x_ref[...]
    spec = pl.BlockSpec((32, 128), lambda i, s: (i, 0))
    gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(2,), in_specs=[spec], out_specs=spec)
    s = jnp.zeros((4,), x.dtype)
    return pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid_spec=gs)(s, x)


def semaphores(x):
    """Semaphores passed between calls: outputs of one call (a DMA started), inputs of the next (waited)."""
    def start(x_ref, o_ref, sem, sems, regular):
        pltpu.make_async_copy(x_ref, o_ref, sem).start()
        pltpu.make_async_copy(x_ref, o_ref, sems.at[1]).start()
        pl.semaphore_signal(regular.at[2], 1)

    def done(x_ref, o_in, sem, sems, regular, o_ref):
        pltpu.make_async_copy(x_ref, o_ref, sem).wait()
        pltpu.make_async_copy(x_ref, o_ref, sems.at[1]).wait()
        pl.semaphore_wait(regular.at[2], 1)

    anyspec = pl.BlockSpec(memory_space=pl.ANY)
    semspec = pl.BlockSpec(memory_space=pltpu.SEMAPHORE)
    o, sem, sems, regular = pl.pallas_call(
        start, out_shape=(jax.ShapeDtypeStruct(x.shape, x.dtype), pltpu.SemaphoreType.DMA(()),
                          pltpu.SemaphoreType.DMA((2,)), pltpu.SemaphoreType.REGULAR((3,))),
        in_specs=[anyspec], out_specs=(anyspec, semspec, semspec, semspec))(x)
    return pl.pallas_call(
        done, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[anyspec, anyspec, semspec, semspec, semspec], out_specs=anyspec,
        input_output_aliases={1: 0})(x, o, sem, sems, regular)


FAMILIES = {"whole": (whole, (32, 128)), "blocked": (blocked, (64, 128)), "smem": (smem, (4,)),
            "any": (any_space, (32, 128)), "prefetch": (scalar_prefetch, (64, 128)), "semaphores": (semaphores, (8, 128))}




def main():
    out = sys.argv[1]
    jaxtpu.pretend("TPU v6e")
    os.makedirs(out, exist_ok=True)
    for name, dt in DTYPES.items():
        if dt is None:
            print(f"{name}: not in this ml_dtypes")
            continue
        for fam, (f, shape) in FAMILIES.items():
            if fam == "semaphores" and name not in ("float32", "uint32"):
                continue
            case = f"{fam}_{name}"
            try:
                x = jax.ShapeDtypeStruct(shape, dt)
                text = jaxtpu.lower(f, x)
            except Exception as e:  # JAX refuses to lower it
                msg = str(e).splitlines()[0][:200]
                print(f"{case}: JAX refuses: {type(e).__name__}: {msg}")
                continue
            with open(os.path.join(out, case + ".mlir"), "w") as fh:
                fh.write(text)
            print(f"{case}: {'; '.join(jaxtpu.call_types(text))}")


if __name__ == "__main__":
    main()
