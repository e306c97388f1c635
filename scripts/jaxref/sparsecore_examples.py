#!/usr/bin/env python3
"""Issue 51's SparseCore and emit_pipeline kernels, lowered for TPU by JAX 0.12.

Prints, for each kernel, a line `// ----- <name>` then the module (Lowered.as_text()). Two examples:
`scatter_add` (a SparseCore scatter-add on a v7x vector-subcore mesh: `out = init.at[ids].add(x)`
through an accumulator in VMEM_SHARED, subcore barriers between its phases) and `pipeline_matmul`
(a bf16 matmul over HBM operands with `pltpu.emit_pipeline`, an f32 accumulator scratch, a bf16
output). Then one small kernel per SparseCore idiom (`sc_*`). With `--refs DIR`, also writes the
examples' seeded inputs `<name>_in<i>.npy` and reference outputs `<name>_out.npy` there: numpy's for
the scatter-add (interpret mode cannot run SparseCore kernels), JAX's own in Pallas's TPU interpret
mode for the matmul.
examples/pallas_examples/sparsecore.rs builds the examples in Rust, tests/integration/sparsecore.rs
the idioms; the line counts take each kernel between its `# begin <name>` / `# end <name>` lines.
Run with the jaxref venv's python (JAX_PLATFORMS=cpu)."""
import functools
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc
from jax.sharding import AbstractDevice, AbstractMesh
from jax import lax

F32, BF16, I32 = jnp.float32, jnp.bfloat16, jnp.int32
S = jax.ShapeDtypeStruct


# begin scatter_add
def scatter_add(init, ids, x, *, subcores=16):
  (n, d), (m,) = init.shape, ids.shape
  rows, updates = n // subcores, m // subcores  # accumulator rows, updates per subcore
  mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                num_subcores=subcores)

  @functools.partial(pl.kernel, out_type=S((n, d), init.dtype), mesh=mesh,
                     scratch_types=[pltpu.VMEM_SHARED((n, d), F32), pltpu.VMEM((updates,), I32),
                                    pltpu.VMEM((updates, d), F32)])
  def scatter_add_kernel(init_hbm, ids_hbm, x_hbm, out_hbm, acc_shared, ids_vmem, x_vmem):
    s = lax.axis_index("s")
    mine, first = pl.ds(s * rows, rows), s * updates
    pltpu.sync_copy(init_hbm.at[mine], acc_shared.at[mine])  # the accumulator starts at init
    pltpu.sync_copy(ids_hbm.at[pl.ds(first, updates)], ids_vmem)
    pltpu.sync_copy(x_hbm.at[pl.ds(first, updates)], x_vmem)
    plsc.subcore_barrier()  # every row of the accumulator initialised
    pltpu.sync_copy(x_vmem, acc_shared.at[ids_vmem], add=True)  # acc[ids[k]] += x[k]
    plsc.subcore_barrier()  # every update added
    pltpu.sync_copy(acc_shared.at[mine], out_hbm.at[mine])

  return scatter_add_kernel(init, ids, x)
# end scatter_add


# begin pipeline_matmul
def pipeline_matmul(x, y, *, bm=128, bn=128, bk=128):
  (m, kk), (_, n) = x.shape, y.shape

  def kernel(x_hbm, y_hbm, o_hbm, acc_ref):
    def body(x_ref, y_ref, o_ref):
      @pl.when(pl.program_id(2) == 0)
      def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

      acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=F32)

      @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
      def _():
        o_ref[...] = acc_ref[...].astype(o_ref.dtype)

    pltpu.emit_pipeline(
        body, grid=(m // bm, n // bn, kk // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)),
                  pl.BlockSpec((bk, bn), lambda i, j, k: (k, j))],
        out_specs=[pl.BlockSpec((bm, bn), lambda i, j, k: (i, j))],
    )(x_hbm, y_hbm, o_hbm)

  any_spec = pl.BlockSpec(memory_space=pl.ANY)
  return pl.pallas_call(
      kernel, out_shape=S((m, n), x.dtype), in_specs=[any_spec, any_spec], out_specs=any_spec,
      scratch_shapes=[pltpu.VMEM((bm, bn), F32)],
  )(x, y)
# end pipeline_matmul


# One kernel per SparseCore idiom on 16 vector subcores: x f32[16, 16], i i32[16] in, f32[16, 16] out.
def sc_shared_copy_barrier(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, acc_shared):
  s = lax.axis_index("s")
  pltpu.sync_copy(x_hbm.at[pl.ds(s, 1)], acc_shared.at[pl.ds(15 - s, 1)])  # rows reversed
  plsc.subcore_barrier()
  pltpu.sync_copy(acc_shared.at[pl.ds(s, 1)], o_hbm.at[pl.ds(s, 1)])


def sc_scatter_add_dma(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, acc_shared):
  s = lax.axis_index("s")
  pltpu.sync_copy(x_hbm.at[pl.ds(s, 1)], acc_shared.at[pl.ds(s, 1)])
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  plsc.subcore_barrier()
  pltpu.sync_copy(x_vmem, acc_shared.at[i_vmem], add=True)  # acc[i[k]] += x[k], on each subcore
  plsc.subcore_barrier()
  pltpu.sync_copy(acc_shared.at[pl.ds(s, 1)], o_hbm.at[pl.ds(s, 1)])


def sc_gather_add_dma(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, acc_shared):
  s = lax.axis_index("s")
  pltpu.sync_copy(x_hbm.at[pl.ds(s, 1)], acc_shared.at[pl.ds(s, 1)])
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  plsc.subcore_barrier()
  pltpu.sync_copy(acc_shared.at[i_vmem], x_vmem, add=True)  # x[k] += x[i[k]] (a VMEM_SHARED copy)
  pltpu.sync_copy(x_vmem.at[pl.ds(s, 1)], o_hbm.at[pl.ds(s, 1)])


def sc_addupdate_scatter(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, acc_shared):
  s = lax.axis_index("s")
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  i = i_vmem[...]
  plsc.addupdate_scatter(x_vmem, [i, i], i.astype(F32))  # x[i[k], i[k]] += i[k]
  pltpu.sync_copy(x_vmem.at[pl.ds(s, 1)], o_hbm.at[pl.ds(s, 1)])


SC_CASES = [sc_shared_copy_barrier, sc_scatter_add_dma, sc_gather_add_dma, sc_addupdate_scatter]


def sc_case(kernel):
  mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                num_subcores=16)
  types = [pltpu.VMEM((16, 16), F32), pltpu.VMEM((16,), I32), pltpu.VMEM_SHARED((16, 16), F32)]
  call = pl.kernel(kernel, out_type=S((16, 16), F32), mesh=mesh, scratch_types=types,
                   name=kernel.__name__)
  return call, [S((16, 16), F32), S((16,), I32)]


def examples():
  """(name, function, seeded inputs, numpy reference)."""
  rng = np.random.default_rng(51)
  init = rng.standard_normal((128, 128)).astype(np.float32)
  ids = rng.integers(0, 128, (256,)).astype(np.int32)
  x = rng.standard_normal((256, 128)).astype(np.float32)

  def scatter_reference(init, ids, x):
    out = init.astype(np.float64)
    np.add.at(out, ids, x.astype(np.float64))
    return out

  a = rng.standard_normal((256, 512)).astype(jnp.bfloat16)
  b = rng.standard_normal((512, 256)).astype(jnp.bfloat16)

  def matmul_reference(a, b):  # JAX itself, in Pallas's TPU interpret mode
    with abstract_tpu("TPU v5 lite"), pltpu.force_tpu_interpret_mode(pltpu.InterpretParams()):
      return np.asarray(jax.jit(pipeline_matmul)(a, b))

  return [("scatter_add", scatter_add, [init, ids, x], scatter_reference),
          ("pipeline_matmul", pipeline_matmul, [a, b], matmul_reference)]


def abstract_tpu(kind):
  device = AbstractDevice(device_kind=kind, num_cores=1, platform="tpu")
  return jax.sharding.use_abstract_mesh(AbstractMesh((), (), abstract_device=device))


def lower(f, shapes, kind):
  # SparseCore kernels lower for a TPU with SparseCores (TPU7x); the pipeline asks the chip's
  # tiling (a v5e, as the idioms of authoring_idioms.py).
  with abstract_tpu(kind):
    return jax.jit(f).trace(*shapes).lower(lowering_platforms=("tpu",)).as_text()


if __name__ == "__main__":
  # sync_copy's push stream (VMEM to HBM) ignores its semaphore on SparseCore.
  warnings.simplefilter("ignore")
  refs = sys.argv[sys.argv.index("--refs") + 1] if "--refs" in sys.argv else None
  for name, f, inputs, reference in examples():
    shapes = [S(a.shape, a.dtype) for a in inputs]
    print(f"// ----- {name}")
    print(lower(f, shapes, "TPU7x" if name == "scatter_add" else "TPU v5 lite"))
    if refs:
      for i, a in enumerate(inputs):
        np.save(f"{refs}/{name}_in{i}.npy", a)
      np.save(f"{refs}/{name}_out.npy", reference(*inputs).astype(inputs[-1].dtype))
  for kernel in SC_CASES:
    with abstract_tpu("TPU7x"):
      call, shapes = sc_case(kernel)
    print(f"// ----- {kernel.__name__}")
    print(lower(call, shapes, "TPU7x"))
