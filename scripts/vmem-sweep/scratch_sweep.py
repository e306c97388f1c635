#!/usr/bin/env python3
"""The scoped-VMEM sweep with VMEM scratch: Pallas kernels that use their scratch, lowered by real JAX 0.12 (CPU
wheels, `lowering_platforms=('tpu',)`) and compiled by libtpu 0.0.50.1 for v4, v5e, v5p, v6e and v7x. Writes
tests/data/vmem-sweep/scratch.json.

Usage (with the CPU venv's python, which lowers; compiles go to the TPU venv's python):
    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/vmem-sweep/scratch_sweep.py [--chips v5e,...]
        [--only FAMILY,...] [--ids N,...] [--append] [--out DIR] [--tpu-python PY] [--compile-script tpu_compile.py]
        [--print]
    python3 scripts/vmem-sweep/scratch_sweep.py --check [--every K] [--chips ...] [--only ...]
        (compiles the committed modules again and compares the verdicts; no JAX needed)

Every kernel is compiled once per chip, as JAX lowered it (the chip's default scoped-VMEM limit, or the case's
`vmem_limit_bytes`, `limit_mib`); the row keeps libtpu's verdict (`ok`, and the "Scoped allocation with size X and
limit Y" part of an E1001 error, else the first line of the error) and the module JAX lowered (replayed by
tests/integration/vmem_scratch.rs through the call contract, without JAX). About 12 minutes on 2 cores.
(A tiny `vmem_limit_bytes` does not make libtpu state a kernel's whole figure: it reports the first allocation that
does not fit, so the figures here are those of kernels refused at their own limits.)

Families (Pallas kernels that read and write their scratch every grid step, unless said otherwise):
- `matmul`: the Pallas docs' matmul, f32 accumulator scratch (bm, bn), grid (2, 2, 2), blocks (bm, bk), (bk, bn),
  (bm, bn); inputs bf16, f32 or int8 (int32 accumulator), output f32, bf16 or int32;
- `rowsum`: 1-grid accumulation of `(b, lanes)` blocks into a scratch of the same shape (f32, bf16, int32);
- `big`: blocks `(b, 128)` written into a scratch of `(s, lanes)` rows at the grid step's offset and read back
  (scratch larger than the blocks);
- `multi`: two or three scratch buffers (f32, bf16, int8), all used;
- `d3`, `d1`: 3-D and 1-D blocks with a scratch of the block's shape;
- `narrow`: lanes not a multiple of 128 (full-width blocks of 200, 640+72 lanes, and 100);
- `nogrid`: no grid (whole VMEM operands) with a used scratch;
- `dead`: a scratch that is only written (never read);
- `partial` (read 8 rows off where written), `loop` (`fori_loop`s), `dma` (an HBM operand copied into the scratch),
  `sliced` (`.at[slot]`), `nogrid_acc` (no grid, read before written), `dma_slot` (a DMA into `.at[0]`);
- `matmul_out`: the docs' matmul without scratch, accumulating in its f32 (int32) output block;
- the same kernels with `vmem_limit_bytes` (`limit_mib`) around their figures.
"""
import argparse, functools, json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CHIPS = ["v4", "v5e", "v5p", "v6e", "v7x"]
MIB = 1 << 20


def lazy_jax():
    global jax, jnp, pl, pltpu
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu
    from jax._src import tpu_info
    # Pallas asks the device for its sublanes and lanes (rank-1 blocks); there is none on a CPU host. Every chip here
    # has 8 x 128.
    tpu_info.get_device_kind = lambda: "TPU v5 lite"
    tpu_info.get_num_device_cores = lambda: 1


def dt(name):
    return {"f32": jnp.float32, "bf16": jnp.bfloat16, "i8": jnp.int8, "i32": jnp.int32}[name]


def cparams(sem, limit):
    kw = {"dimension_semantics": sem}
    if limit:
        kw["vmem_limit_bytes"] = limit
    return pltpu.CompilerParams(**kw)


# ------------------------------------------------------------------ kernels


def matmul(c, limit):
    bm, bn, bk = c["bm"], c["bn"], c["bk"]
    ind, outd = dt(c["in"]), dt(c["out"])
    accd = jnp.int32 if c["in"] == "i8" else jnp.float32

    def kernel(x_ref, y_ref, z_ref, acc_ref):
        @pl.when(pl.program_id(2) == 0)
        def _():
            acc_ref[...] = jnp.zeros_like(acc_ref)

        acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=accd)

        @pl.when(pl.program_id(2) == 1)
        def _():
            z_ref[...] = acc_ref[...].astype(z_ref.dtype)

    f = pl.pallas_call(
        kernel,
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)), pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
            out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
            scratch_shapes=[pltpu.VMEM((bm, bn), accd)],
            grid=(2, 2, 2)),
        out_shape=jax.ShapeDtypeStruct((2 * bm, 2 * bn), outd),
        compiler_params=cparams(("parallel", "parallel", "arbitrary"), limit))
    return f, [jax.ShapeDtypeStruct((2 * bm, 2 * bk), ind), jax.ShapeDtypeStruct((2 * bk, 2 * bn), ind)]


def rowsum(c, limit):
    """Blocks of `shape` (any rank) accumulated into a scratch of the same shape over a grid of 2 steps."""
    shape, d, sd = tuple(c["block"]), dt(c["dtype"]), dt(c.get("scratch_dtype", c["dtype"]))
    steps = 2
    full = (steps * shape[0],) + shape[1:]
    zeros = (0,) * (len(shape) - 1)

    def kernel(x_ref, o_ref, acc_ref):
        @pl.when(pl.program_id(0) == 0)
        def _():
            acc_ref[...] = jnp.zeros_like(acc_ref)

        acc_ref[...] += x_ref[...].astype(sd)
        o_ref[...] = acc_ref[...].astype(o_ref.dtype)

    f = pl.pallas_call(
        kernel, grid=(steps,),
        in_specs=[pl.BlockSpec(shape, lambda i: (i,) + zeros)],
        out_specs=pl.BlockSpec(shape, lambda i: (i,) + zeros),
        scratch_shapes=[pltpu.VMEM(shape, sd)],
        out_shape=jax.ShapeDtypeStruct(full, d),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct(full, d)]


def big(c, limit):
    """Blocks (b, lanes) stored at row offset i * b of a scratch (s, lanes) and read back; s >= steps * b."""
    b, lanes, s, steps = c["b"], c["lanes"], c["s"], c["steps"]
    d = dt(c["dtype"])

    def kernel(x_ref, o_ref, scr):
        i = pl.program_id(0)
        start = pl.multiple_of(i * b, 8)
        scr[pl.ds(start, b), :] = x_ref[...]
        o_ref[...] = scr[pl.ds(start, b), :] + scr[pl.ds(s - b, b), :]

    f = pl.pallas_call(
        kernel, grid=(steps,),
        in_specs=[pl.BlockSpec((b, lanes), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, lanes), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((s, lanes), d)],
        out_shape=jax.ShapeDtypeStruct((steps * b, lanes), d),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((steps * b, lanes), d)]


def multi(c, limit):
    """Blocks (b, lanes) f32 with scratch buffers [(rows, lanes, dtype)], each written from the block and read."""
    b, lanes, scr = c["b"], c["lanes"], c["scratch"]

    def kernel(x_ref, o_ref, *refs):
        acc = x_ref[...]
        for r, (rows, _, _) in zip(refs, scr):
            r[pl.ds(0, b), :] = x_ref[...].astype(r.dtype)
            r[pl.ds(rows - b, b), :] = (x_ref[...] * 2).astype(r.dtype)
            acc = acc + r[pl.ds(0, b), :].astype(jnp.float32) + r[pl.ds(rows - b, b), :].astype(jnp.float32)
        o_ref[...] = acc

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec((b, lanes), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, lanes), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((rows, ln), dt(d)) for rows, ln, d in scr],
        out_shape=jax.ShapeDtypeStruct((2 * b, lanes), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((2 * b, lanes), jnp.float32)]


def nogrid(c, limit):
    """Whole VMEM operands (rows, lanes) f32, no grid, scratch (s, lanes) f32 written and read."""
    n, lanes, s = c["rows"], c["lanes"], c["s"]

    def kernel(x_ref, y_ref, o_ref, scr):
        scr[pl.ds(0, n), :] = x_ref[...] + y_ref[...]
        scr[pl.ds(s - n, n), :] = x_ref[...]
        o_ref[...] = scr[pl.ds(0, n), :] * scr[pl.ds(s - n, n), :]

    f = pl.pallas_call(
        kernel,
        in_specs=[pl.BlockSpec(memory_space=pltpu.VMEM)] * 2,
        out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
        scratch_shapes=[pltpu.VMEM((s, lanes), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((n, lanes), jnp.float32),
        compiler_params=cparams((), limit) if limit else None)
    return f, [jax.ShapeDtypeStruct((n, lanes), jnp.float32)] * 2


def dead(c, limit):
    """Blocks (b, 1024) f32 added; a scratch (s, 128) f32 only written."""
    b, s = c["b"], c["s"]

    def kernel(x_ref, o_ref, scr):
        scr[pl.ds(0, 8), :] = x_ref[pl.ds(0, 8), pl.ds(0, 128)]
        o_ref[...] = x_ref[...] + 1

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec((b, 1024), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((s, 128), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32)]


def partial(c, limit):
    """Blocks (b, 1024) f32 stored at row 0 of a scratch (s, 1024) and read back 8 rows further (not forwardable)."""
    b, s = c["b"], c["s"]

    def kernel(x_ref, o_ref, scr):
        scr[pl.ds(0, b), :] = x_ref[...]
        o_ref[...] = scr[pl.ds(8, b), :]

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec((b, 1024), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((s, 1024), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32)]


def loop(c, limit):
    """A fori_loop writing `n` row groups of a scratch (n * 8, 1024) f32 and a second one reading them back."""
    b, n = c["b"], c["n"]

    def kernel(x_ref, o_ref, scr):
        def put(j, carry):
            scr[pl.ds(pl.multiple_of(j * 8, 8), 8), :] = x_ref[pl.ds(0, 8), :] + j.astype(jnp.float32)
            return carry

        def get(j, acc):
            return acc + scr[pl.ds(pl.multiple_of(j * 8, 8), 8), :]

        jax.lax.fori_loop(0, n, put, 0)
        acc = jax.lax.fori_loop(0, n, get, jnp.zeros((8, 1024), jnp.float32))
        o_ref[...] = x_ref[...]
        o_ref[pl.ds(0, 8), :] = acc

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec((b, 1024), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((n * 8, 1024), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32)]


def dma(c, limit):
    """An HBM (`pl.ANY`) operand (n, 1024) f32 copied by DMA into a VMEM scratch and read from there; output
    blocks (8, 1024)."""
    n = c["rows"]

    def kernel(x_hbm, o_ref, scr, sem):
        @pl.when(pl.program_id(0) == 0)
        def _():
            cp = pltpu.make_async_copy(x_hbm, scr, sem)
            cp.start()
            cp.wait()

        o_ref[...] = scr[pl.ds(pl.multiple_of(pl.program_id(0) * 8, 8), 8), :]

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec((8, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((n, 1024), jnp.float32), pltpu.SemaphoreType.DMA],
        out_shape=jax.ShapeDtypeStruct((16, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((n, 1024), jnp.float32)]


def sliced(c, limit):
    """Blocks (b, 1024) f32 and a scratch (2, s, 1024) f32 used through `.at[slot]` (a memref slice)."""
    b, s = c["b"], c["s"]

    def kernel(x_ref, o_ref, scr):
        slot = pl.program_id(0) % 2
        scr.at[slot][pl.ds(0, b), :] = x_ref[...]
        o_ref[...] = scr.at[1 - slot][pl.ds(0, b), :]

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec((b, 1024), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((b, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((2, s, 1024), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((2 * b, 1024), jnp.float32)]


def nogrid_acc(c, limit):
    """No grid: whole (rows, 1024) f32 operands, a scratch of their shape read before it is written."""
    n = c["rows"]

    def kernel(x_ref, o_ref, scr):
        o_ref[...] = scr[...] + x_ref[...]
        scr[...] = x_ref[...]

    f = pl.pallas_call(
        kernel,
        in_specs=[pl.BlockSpec(memory_space=pltpu.VMEM)],
        out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
        scratch_shapes=[pltpu.VMEM((n, 1024), jnp.float32)],
        out_shape=jax.ShapeDtypeStruct((n, 1024), jnp.float32),
        compiler_params=cparams((), limit) if limit else None)
    return f, [jax.ShapeDtypeStruct((n, 1024), jnp.float32)]


def matmul_out(c, limit):
    """The docs' matmul without scratch: the f32 output block accumulates (no VMEM scratch; Mosaic's internal
    scratch only)."""
    bm, bn, bk = c["bm"], c["bn"], c["bk"]
    ind = dt(c["in"])

    def kernel(x_ref, y_ref, z_ref):
        @pl.when(pl.program_id(2) == 0)
        def _():
            z_ref[...] = jnp.zeros_like(z_ref)

        z_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=z_ref.dtype)

    f = pl.pallas_call(
        kernel,
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)), pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
            out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
            grid=(2, 2, 2)),
        out_shape=jax.ShapeDtypeStruct((2 * bm, 2 * bn), jnp.int32 if c["in"] == "i8" else jnp.float32),
        compiler_params=cparams(("parallel", "parallel", "arbitrary"), limit))
    return f, [jax.ShapeDtypeStruct((2 * bm, 2 * bk), ind), jax.ShapeDtypeStruct((2 * bk, 2 * bn), ind)]


def dma_slot(c, limit):
    """Like `dma`, into `.at[0]` of a (2, n, 1024) f32 scratch (a view), read from there."""
    n = c["rows"]

    def kernel(x_hbm, o_ref, scr, sem):
        @pl.when(pl.program_id(0) == 0)
        def _():
            cp = pltpu.make_async_copy(x_hbm, scr.at[0], sem)
            cp.start()
            cp.wait()

        o_ref[...] = scr[0, pl.ds(pl.multiple_of(pl.program_id(0) * 8, 8), 8), :]

    f = pl.pallas_call(
        kernel, grid=(2,),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=pl.BlockSpec((8, 1024), lambda i: (i, 0)),
        scratch_shapes=[pltpu.VMEM((2, n, 1024), jnp.float32), pltpu.SemaphoreType.DMA],
        out_shape=jax.ShapeDtypeStruct((16, 1024), jnp.float32),
        compiler_params=cparams(("arbitrary",), limit))
    return f, [jax.ShapeDtypeStruct((n, 1024), jnp.float32)]


BUILD = {"dma_slot": dma_slot, "matmul_out": matmul_out, "partial": partial, "loop": loop, "dma": dma, "sliced": sliced, "nogrid_acc": nogrid_acc,
         "matmul": matmul, "rowsum": rowsum, "big": big, "multi": multi, "nogrid": nogrid, "dead": dead}


# ------------------------------------------------------------------ cases


def cases():
    out = []
    # The matmuls and a ladder around 16 and 32 MiB.
    for bm, bn, bk, i, o in [(1024, 1024, 1024, "bf16", "f32"), (1024, 1024, 512, "bf16", "f32"),
                             (2048, 1024, 1024, "bf16", "f32"), (2048, 2048, 1024, "bf16", "f32"),
                             (512, 512, 512, "f32", "f32"), (1024, 512, 512, "f32", "f32"),
                             (1024, 1024, 256, "bf16", "bf16"), (1024, 1024, 512, "bf16", "bf16"),
                             (1024, 1024, 1024, "i8", "i32"), (2048, 1024, 512, "i8", "i32"),
                             (1024, 512, 1024, "f32", "f32"), (512, 1024, 2048, "bf16", "f32"),
                             (2048, 512, 512, "bf16", "f32"), (1536, 1024, 512, "bf16", "bf16")]:
        out.append({"family": "matmul", "bm": bm, "bn": bn, "bk": bk, "in": i, "out": o})
    # Accumulators of the block's shape: 2-D (lanes multiple of 128 or not), 3-D, 1-D; several dtypes.
    for block, d, sd in [((1024, 1024), "f32", "f32"), ((1360, 1024), "f32", "f32"), ((1368, 1024), "f32", "f32"),
                         ((1024, 1024), "bf16", "f32"), ((2048, 1024), "bf16", "bf16"), ((2040, 1024), "bf16", "bf16"),
                         ((2720, 1024), "bf16", "bf16"), ((2736, 1024), "bf16", "bf16"),
                         ((4096, 1024), "i8", "i32"), ((4064, 1024), "i8", "i32"), ((2720, 1024), "i8", "i32"),
                         ((1024, 1024), "i32", "i32"), ((1032, 1024), "bf16", "f32"),
                         ((1024, 1000), "f32", "f32"), ((1360, 1000), "f32", "f32"), ((1368, 1000), "f32", "f32"),
                         ((2048, 712), "f32", "f32"), ((2048, 200), "bf16", "bf16"),
                         ((16, 85, 1024), "f32", "f32"), ((16, 86, 1024), "f32", "f32"), ((8, 170, 1024), "f32", "f32"),
                         ((4, 8, 128, 1024), "f32", "f32"),
                         ((1 << 20,), "f32", "f32"), ((1392640,), "f32", "f32"), ((1400832,), "f32", "f32"),
                         ((2736, 1024), "f32", "f32"), ((2728, 1024), "f32", "f32")]:
        out.append({"family": "rowsum", "block": list(block), "dtype": d, "scratch_dtype": sd})
    # Scratch larger than the blocks.
    for b, lanes, s, d in [(256, 1024, 2048, "f32"), (256, 1024, 3072, "f32"), (256, 1024, 2560, "f32"),
                           (512, 1024, 2048, "f32"), (512, 1024, 1024, "f32"), (256, 1024, 6144, "f32"),
                           (256, 1024, 5632, "f32"), (512, 1024, 4096, "bf16"), (512, 1024, 5632, "bf16"),
                           (512, 1024, 2048, "i32"), (512, 1024, 3072, "i32"), (256, 1000, 3072, "f32")]:
        out.append({"family": "big", "b": b, "lanes": lanes, "s": s, "steps": 2, "dtype": d})
    # Several scratch buffers.
    for b, lanes, scr in [(256, 1024, [(1024, 1024, "f32"), (1024, 1024, "bf16")]),
                          (256, 1024, [(2048, 1024, "f32"), (1024, 1024, "bf16"), (1024, 1024, "i8")]),
                          (256, 1024, [(2048, 1024, "f32"), (2048, 1024, "f32")]),
                          (256, 1024, [(1536, 1024, "f32"), (1536, 1024, "f32")]),
                          (256, 1024, [(3072, 1024, "f32"), (2048, 1024, "bf16")]),
                          (256, 1024, [(4096, 1024, "f32"), (4096, 1024, "f32")]),
                          (256, 1024, [(3584, 1024, "f32"), (3584, 1024, "f32")])]:
        out.append({"family": "multi", "b": b, "lanes": lanes, "scratch": [list(x) for x in scr]})
    # No grid.
    for n, lanes, s in [(512, 1024, 2048), (1024, 1024, 1024), (1024, 1024, 1280), (1024, 1024, 2048),
                        (512, 1024, 3072), (512, 1024, 2560), (1024, 1024, 3072), (2048, 1024, 3072)]:
        out.append({"family": "nogrid", "rows": n, "lanes": lanes, "s": s})
    # A scratch that is only written.
    for b, s in [(512, 16384), (1024, 16384), (512, 32768)]:
        out.append({"family": "dead", "b": b, "s": s})
    out += [dict({k: v for k, v in c.items() if k != "limits"}, limit_mib=l) for c in PROBES for l in c["limits"]]
    out += [{"family": "matmul", "bm": bm, "bn": bn, "bk": bk, "in": "bf16", "out": "f32"}
            for bm, bn, bk in [(1024, 1024, 128), (1024, 1024, 256), (512, 2048, 256), (2048, 512, 256),
                               (512, 512, 2048), (1024, 2048, 512), (2048, 2048, 512), (1024, 2048, 1024)]]
    # Other uses of the scratch: reads Mosaic cannot forward, loops, DMAs, slices, a read before any write without a
    # grid.
    out += [{"family": "partial", "b": b, "s": s} for b, s in [(256, 2048), (256, 3072), (512, 2048), (256, 1024),
                                                                        (256, 4096)]]
    out += [{"family": "loop", "b": b, "n": n} for b, n in [(256, 256), (256, 384), (512, 256), (256, 128),
                                                                    (256, 448), (256, 512)]]
    out += [{"family": "dma", "rows": n} for n in [2048, 4096, 4104, 8192]]
    out += [{"family": "sliced", "b": b, "s": s} for b, s in [(256, 1024), (256, 1536), (512, 1024)]]
    out += [{"family": "nogrid_acc", "rows": n} for n in [1024, 1360, 1368, 2048]]
    # No scratch: a matmul accumulating in its output block, at the limits.
    out += [{"family": "matmul_out", "bm": bm, "bn": bn, "bk": bk, "in": i} for bm, bn, bk, i in
            [(1024, 1024, 1024, "bf16"), (1024, 1024, 512, "bf16"), (1024, 512, 1024, "f32"), (2048, 1024, 1024, "bf16"),
             (1024, 1024, 2048, "bf16"), (1024, 1024, 1024, "i8"), (2048, 2048, 1024, "i8")]]
    out += [{"family": "dma_slot", "rows": n} for n in [1024, 2048, 2056, 4096]]
    for i, c in enumerate(out):
        c["id"] = i
    return out


# With `vmem_limit_bytes` (MiB).
PROBES = [{"family": "rowsum", "block": [1024, 1000], "dtype": "f32", "scratch_dtype": "f32", "limits": [12, 20]},
          {"family": "rowsum", "block": [16, 85, 1024], "dtype": "f32", "scratch_dtype": "f32", "limits": [12, 20]},
          {"family": "rowsum", "block": [1024, 1024], "dtype": "f32", "scratch_dtype": "f32", "limits": [18, 20, 40]},
          {"family": "matmul", "bm": 2048, "bn": 1024, "bk": 1024, "in": "bf16", "out": "f32", "limits": [35, 36, 64]},
          {"family": "matmul", "bm": 1024, "bn": 1024, "bk": 512, "in": "bf16", "out": "f32",
           "limits": [16, 17, 24]},
          {"family": "big", "b": 256, "lanes": 1024, "s": 6144, "steps": 2, "dtype": "f32", "limits": [24, 28, 29]},
          {"family": "nogrid", "rows": 1024, "lanes": 1024, "s": 3072, "limits": [12, 24, 25]}]


def name(c):
    keys = [k for k in c if k not in ("family", "id")]
    return c["family"] + "(" + ", ".join(f"{k}={c[k]}" for k in keys) + ")"


def lower(c, limit):
    f, args = BUILD[c["family"]](c, limit)
    return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()


SCOPED = re.compile(r"Scoped allocation with size (\S+) and limit (\S+)")


def summary(error):
    if error is None:
        return None
    m = SCOPED.search(error)
    if m:
        return m.group(0)
    first = [l for l in error.splitlines() if l.strip()]
    return (first[0] if first else error)[:300]


def compile_all(a, chip, paths):
    cmd = [a.tpu_python, a.compile_script, "--chip", chip, "--json"] + paths
    out = subprocess.run(cmd, capture_output=True, text=True)
    results = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if len(results) != len(paths):
        sys.exit(f"{len(results)} verdicts for {len(paths)} modules: {out.stderr[-2000:]}")
    return [r["error"] for r in results]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chips", default=",".join(CHIPS))
    ap.add_argument("--only", default=None, help="comma-separated families")
    ap.add_argument("--ids", default=None, help="comma-separated case ids")
    ap.add_argument("--out", default=os.path.join(REPO, "tests/data/vmem-sweep"))
    ap.add_argument("--tpu-python", default=os.path.expanduser("~/.cache/tpu-custom-call/jaxref-tpu-venv/bin/python"))
    ap.add_argument("--compile-script", default="/work/shared/jaxref/tpu_compile.py")
    ap.add_argument("--print", action="store_true", help="print the verdicts, write nothing")
    ap.add_argument("--append", action="store_true", help="replace or add the selected kernels in scratch.json")
    ap.add_argument("--check", action="store_true",
                    help="compile the committed modules again (every --every-th kernel) and compare the verdicts; "
                         "writes nothing, exits 1 on a difference")
    ap.add_argument("--every", type=int, default=1)
    a = ap.parse_args()
    chips = a.chips.split(",")
    if a.check:
        return check(a, chips)
    lazy_jax()
    selected = cases()
    if a.only:
        selected = [c for c in selected if c["family"] in a.only.split(",")]
    if a.ids:
        selected = [c for c in selected if str(c["id"]) in a.ids.split(",")]
    work = tempfile.mkdtemp(prefix="vmem-scratch-")
    kernels = []
    for c in selected:
        mpath = os.path.join(work, f"{c['id']}.mlir")
        module = lower(c, c.get("limit_mib") and c["limit_mib"] * MIB)
        open(mpath, "w").write(module)
        kernels.append({"case": c, "module": module, "path": mpath})
    for chip in chips:
        errors = compile_all(a, chip, [k["path"] for k in kernels])
        for k, err in zip(kernels, errors):
            k.setdefault("verdicts", {})[chip] = {"ok": err is None, "error": summary(err)}
            print(f"{chip} {name(k['case'])}: {'ok' if err is None else summary(err)}", flush=True)
    if a.print:
        return
    rows = [{"case": k["case"], "name": name(k["case"]), "verdicts": k["verdicts"], "module": k["module"]}
            for k in kernels]
    if a.append:
        new = {r["name"] for r in rows}
        old = json.load(open(os.path.join(a.out, "scratch.json")))["kernels"]
        rows = [r for r in old if r["name"] not in new] + rows
    with open(os.path.join(a.out, "scratch.json"), "w") as f:
        json.dump({"made_by": "scripts/vmem-sweep/scratch_sweep.py (jax 0.12.0.1 lowering, libtpu 0.0.50.1 through "
                              "tpu_compile.py)", "kernels": rows}, f, indent=1)
        f.write("\n")


def check(a, chips):
    kernels = json.load(open(os.path.join(a.out, "scratch.json")))["kernels"][::max(1, a.every)]
    if a.only:
        kernels = [k for k in kernels if k["case"]["family"] in a.only.split(",")]
    work = tempfile.mkdtemp(prefix="vmem-scratch-check-")
    paths = []
    for i, k in enumerate(kernels):
        paths.append(os.path.join(work, f"{i}.mlir"))
        open(paths[-1], "w").write(k["module"])
    differ = 0
    for chip in chips:
        for k, err in zip(kernels, compile_all(a, chip, paths)):
            now = {"ok": err is None, "error": summary(err)}
            if now != k["verdicts"][chip]:
                differ += 1
                print(f"DIFFERS {chip} {k['name']}: committed {k['verdicts'][chip]}, now {now}")
    print(f"{len(kernels) * len(chips)} verdicts compiled again: {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
