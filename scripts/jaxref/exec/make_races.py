#!/usr/bin/env python3
"""Race-detection cases of issue 51 for the Mosaic CPU executor: tests/data/exec-races/<case>/.

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/exec/make_races.py [--out DIR]

Each case folder holds `module.mlir` (JAX 0.12's `Lowered.as_text()`, lowered for TPU on this CPU
host), seeded inputs `in<i>.npy` and `case.json` (`expect`, a description, and what JAX's interpret
mode does where it can run the kernel). SparseCore kernels are lowered for an abstract TPU7x
device (v7x: 16 vector subcores, 16 f32 lanes), as scripts/jaxref/authoring_examples.py lowers
its SparseCore example; interpret mode cannot run them (it has no SparseCore rules), so their
reference is the JAX test's own assertion, computed here with numpy (`want0.npy`).

Cases:
- scatter_add_barriers / scatter_add_no_barriers: JAX's test_scatter_add (tpu_sparsecore_pallas_test)
  on v7x, f32 (16, 32): subcore 0 initialises a VMEM_SHARED accumulator, every subcore scatter-adds its
  row (an indirect DMA with add=True), subcore 0 copies the accumulator out. With its two
  plsc.subcore_barrier() calls the result is x[0] + x.sum(0)[::-1]; without them, nothing orders
  subcore 0's initialisation and read-back against the other subcores' adds.
- indirect_gather_store / indirect_scatter_store: a gather (table.at[ids] -> rows) or a scatter
  (rows -> out.at[ids]) started with async_copy, then a vector store into `rows` before the wait:
  the store writes the gather's target (or the scatter's source) while the DMA is in flight.
- indirect_gather_ok: the same gather with the store after the wait (no race).
- sem_signal_left: a TensorCore kernel signals a REGULAR semaphore and never waits on it.
- dma_never_waited: a TensorCore kernel starts a DMA and never waits for it.
  Both run in interpret mode (dma_execution_mode on_wait and eager); its printed message (it prints
  the first semaphore with a non-zero count at kernel exit, no exception) is recorded verbatim.
"""
import argparse
import contextlib
import functools
import io
import json
import os
import shutil
import warnings

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.experimental.pallas import tpu_sc as plsc  # noqa: E402
from jax.sharding import AbstractDevice, AbstractMesh  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
S = jax.ShapeDtypeStruct
SUBCORES = 16


def on_v7x():
  """An abstract TPU7x (a chip with SparseCores): SparseCore meshes are built and lowered in it."""
  device = AbstractDevice(device_kind="TPU7x", num_cores=1, platform="tpu")
  return jax.sharding.use_abstract_mesh(AbstractMesh((), (), abstract_device=device))


def lower_sc(f, *shapes):
  with on_v7x():
    return jax.jit(f).trace(*shapes).lower(lowering_platforms=("tpu",)).as_text()


def lower_tc(f, *shapes):
  return jax.jit(f).trace(*shapes).lower(lowering_platforms=("tpu",)).as_text()


def mesh():
  return plsc.VectorSubcoreMesh(core_axis_name="core", subcore_axis_name="subcore", num_cores=1,
                                num_subcores=SUBCORES)


def scatter_add(barriers):
  shape = (SUBCORES, 32)
  barrier = plsc.subcore_barrier if barriers else (lambda: None)

  @functools.partial(
      pl.kernel, out_type=S(shape[1:], jnp.float32), mesh=mesh(),
      scratch_types=dict(shared=pltpu.VMEM_SHARED(shape[1:], jnp.float32),
                         scratch=pltpu.VMEM(shape[1:], jnp.float32),
                         indices=pltpu.VMEM([32], jnp.int32)))
  def kernel(x_hbm, indices_hbm, o_hbm, *, shared, scratch, indices):
    subcore = lax.axis_index("subcore")
    pltpu.sync_copy((indices_hbm, x_hbm.at[subcore]), (indices, scratch))

    @pl.when(subcore == 0)
    def _():
      pltpu.sync_copy(scratch, shared)
    barrier()
    pltpu.sync_copy(scratch, shared.at[indices], add=True)
    barrier()

    @pl.when(subcore == 0)
    def _():
      pltpu.sync_copy(shared, scratch)
      pltpu.sync_copy(scratch, o_hbm)

  x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
  idx = (31 - np.arange(32)).astype(np.int32)
  want = x[0] + x.sum(0)[::-1]
  return kernel, [x, idx], [want]


def indirect(scatter, store_before_wait):
  rows, d, n = 8, 16, 64  # each subcore moves 8 rows of 16 f32

  @functools.partial(
      pl.kernel, out_type=S((n, d), jnp.float32), mesh=mesh(),
      scratch_types=[pltpu.VMEM((rows,), jnp.int32), pltpu.VMEM((rows, d), jnp.float32),
                     pltpu.SemaphoreType.DMA])
  def kernel(table_hbm, ids_hbm, out_hbm, ids, buf, sem):
    subcore = lax.axis_index("subcore")

    @pl.when(subcore < n // rows)
    def _():
      start = subcore * rows
      pltpu.sync_copy(ids_hbm.at[pl.ds(start, rows)], ids)
      if scatter:
        pltpu.sync_copy(table_hbm.at[pl.ds(start, rows)], buf)
        copy = pltpu.async_copy(buf, out_hbm.at[ids], sem)
      else:
        copy = pltpu.async_copy(table_hbm.at[ids], buf, sem)
      if store_before_wait:
        buf[0] = jnp.zeros((d,), jnp.float32)
      copy.wait()
      if not store_before_wait:
        buf[0] = jnp.zeros((d,), jnp.float32)
      if not scatter:
        pltpu.sync_copy(buf, out_hbm.at[pl.ds(start, rows)])

  table = np.arange(n * d, dtype=np.float32).reshape(n, d)
  ids = np.random.default_rng(51).permutation(n).astype(np.int32)
  if scatter:
    want = np.zeros_like(table)
    want[ids] = table
  else:
    want = table[ids]
    want[::rows] = 0
  return kernel, [table, ids], [want]


def sem_signal_left(interpret=False):
  def kernel(x_ref, o_ref, sem):
    pl.semaphore_signal(sem, 1)
    o_ref[...] = x_ref[...] + 1

  f = pl.pallas_call(kernel, out_shape=S((8, 128), jnp.float32),
                     scratch_shapes=[pltpu.SemaphoreType.REGULAR], interpret=interpret)
  return f, [np.arange(8 * 128, dtype=np.float32).reshape(8, 128)]


def dma_never_waited(interpret=False):
  def kernel(x_hbm, o_ref, buf, sem):
    pltpu.make_async_copy(x_hbm, buf, sem).start()
    o_ref[...] = jnp.ones((8, 128), jnp.float32)

  f = pl.pallas_call(kernel, out_shape=S((8, 128), jnp.float32),
                     in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                     scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32), pltpu.SemaphoreType.DMA],
                     interpret=interpret)
  return f, [np.arange(8 * 128, dtype=np.float32).reshape(8, 128)]


def interpret_runs(make, inputs):
  """Interpret mode's result and printed text under both DMA execution modes."""
  runs = []
  for mode in ("on_wait", "eager"):
    f = make(pltpu.InterpretParams(dma_execution_mode=mode))
    out = io.StringIO()
    entry = {"dma_execution_mode": mode}
    try:
      with contextlib.redirect_stdout(out):
        r = np.asarray(jax.block_until_ready(f(*inputs)))
      entry["result"] = "completed"
      entry["out0_sum"] = float(r.sum())
    except Exception as e:  # noqa: BLE001
      entry["result"] = "raised"
      entry["message"] = f"{type(e).__name__}: {e}"[:2000]
    entry["printed"] = out.getvalue()
    runs.append(entry)
  return runs


def write(out, name, module, inputs, wants, meta):
  d = os.path.join(out, name)
  shutil.rmtree(d, ignore_errors=True)
  os.makedirs(d)
  with open(os.path.join(d, "module.mlir"), "w") as f:
    f.write(module)
  for i, x in enumerate(inputs):
    np.save(os.path.join(d, f"in{i}.npy"), x)
  for i, w in enumerate(wants):
    np.save(os.path.join(d, f"want{i}.npy"), w)
  with open(os.path.join(d, "case.json"), "w") as f:
    json.dump(meta, f, indent=2, sort_keys=True)
    f.write("\n")
  print(name)


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--out", default=os.path.join(ROOT, "tests/data/exec-races"))
  args = ap.parse_args()
  warnings.simplefilter("ignore")
  for barriers in (True, False):
    with on_v7x():
      k, ins, wants = scatter_add(barriers)
    name = "scatter_add_barriers" if barriers else "scatter_add_no_barriers"
    module = lower_sc(k, *[S(x.shape, x.dtype) for x in ins])
    write(args.out, name, module, ins, wants if barriers else [], {
        "expect": "none" if barriers else "race",
        "description": "JAX's test_scatter_add on v7x (f32, 16 subcores)" +
                       ("" if barriers else ", its two plsc.subcore_barrier() calls removed"),
        "reference": "want0.npy = x[0] + x.sum(0)[::-1] (the JAX test's assertion)" if barriers
                     else "none: the result depends on the order the subcores run in"})
  for scatter in (False, True):
    for racy in (True, False):
      if scatter and not racy:
        continue
      with on_v7x():
        k, ins, wants = indirect(scatter, racy)
      name = f"indirect_{'scatter' if scatter else 'gather'}_{'store' if racy else 'ok'}"
      module = lower_sc(k, *[S(x.shape, x.dtype) for x in ins])
      write(args.out, name, module, ins, [] if racy else wants, {
          "expect": "race" if racy else "none",
          "description": ("an indirect scatter rows -> out.at[ids]" if scatter else
                          "an indirect gather table.at[ids] -> rows") +
                         (", then buf[0] = 0 before the wait" if racy else
                          ", waited, then buf[0] = 0"),
          "reference": "want0.npy (numpy)" if not racy else "none: a race"})
  for name, make_case in (("sem_signal_left", sem_signal_left), ("dma_never_waited", dma_never_waited)):
    f, ins = make_case()
    module = lower_tc(f, *[S(x.shape, x.dtype) for x in ins])
    write(args.out, name, module, ins, [], {
        "expect": "semaphore_left" if name == "sem_signal_left" else "dma_in_flight",
        "description": "a REGULAR semaphore signalled, never waited" if name == "sem_signal_left"
                       else "a DMA started, never waited",
        "interpret_mode": interpret_runs(lambda p, m=make_case: m(p)[0], ins)})


if __name__ == "__main__":
  main()
