#!/usr/bin/env python3
"""The Pallas kernels of examples/pallas_examples (issue 40), lowered for TPU by JAX 0.12.

Prints, for each example, a line `// ----- <name>` then the module (Lowered.as_text()):
`flash_attention` (forward, causal), `paged_attention` (decode, manual double-buffered DMAs of
pages named by a scalar-prefetched page table), `embedding_lookup` (a SparseCore gather on a
vector-subcore mesh: each subcore gathers its rows of the table with an indirect DMA). With `--refs DIR`, also writes seeded inputs
`<name>_in<i>.npy` and the reference outputs `<name>_out.npy` (numpy, float64 then f32) there.
tests/integration/examples.rs builds the same kernels in Rust and checks them against both. Each
kernel is counted in non-blank lines (the 1.3x rule of issue 40) between its begin and end markers.
Run with the jaxref venv's python (JAX_PLATFORMS=cpu)."""
import functools
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc
from jax.sharding import AbstractDevice, AbstractMesh

F32, I32 = jnp.float32, jnp.int32
S = jax.ShapeDtypeStruct

# begin flash_attention
# flash: begin
def flash_kernel(q_ref, k_ref, v_ref, o_ref, m_ref, l_ref, acc_ref, *, bq, bk, scale):
  qi, ki = pl.program_id(0), pl.program_id(1)

  @pl.when(ki == 0)
  def _():
    m_ref[...] = jnp.full_like(m_ref, -jnp.inf)
    l_ref[...] = jnp.zeros_like(l_ref)
    acc_ref[...] = jnp.zeros_like(acc_ref)

  @pl.when(ki * bk <= qi * bq + bq - 1)  # skip blocks above the diagonal
  def _():
    s = lax.dot_general(q_ref[...], k_ref[...], (((1,), (1,)), ((), ())),
                        preferred_element_type=F32) * scale
    rows = qi * bq + lax.broadcasted_iota(I32, (bq, bk), 0)
    cols = ki * bk + lax.broadcasted_iota(I32, (bq, bk), 1)
    s = jnp.where(cols <= rows, s, -jnp.inf)
    m_prev = m_ref[...]
    m_new = jnp.maximum(m_prev, jnp.max(s, axis=1, keepdims=True))
    p = jnp.exp(s - m_new)
    alpha = jnp.exp(m_prev - m_new)
    l_ref[...] = alpha * l_ref[...] + jnp.sum(p, axis=1, keepdims=True)
    acc_ref[...] = alpha * acc_ref[...] + jnp.dot(p, v_ref[...], preferred_element_type=F32)
    m_ref[...] = m_new

  @pl.when(ki == pl.num_programs(1) - 1)
  def _():
    o_ref[...] = acc_ref[...] / l_ref[...]

def flash_attention(q, k, v, *, bq=128, bk=128):
  (n, d) = q.shape
  kernel = functools.partial(flash_kernel, bq=bq, bk=bk, scale=d ** -0.5)
  return pl.pallas_call(
      kernel,
      out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
      grid=(n // bq, n // bk),
      in_specs=[pl.BlockSpec((bq, d), lambda i, j: (i, 0)),
                pl.BlockSpec((bk, d), lambda i, j: (j, 0)),
                pl.BlockSpec((bk, d), lambda i, j: (j, 0))],
      out_specs=pl.BlockSpec((bq, d), lambda i, j: (i, 0)),
      scratch_shapes=[pltpu.VMEM((bq, 1), F32), pltpu.VMEM((bq, 1), F32),
                      pltpu.VMEM((bq, d), F32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")),
  )(q, k, v)
# flash: end
# end flash_attention


# begin paged_attention
# paged: begin
def paged_kernel(pt_ref, q_ref, k_hbm, v_hbm, o_ref, k_buf, v_buf, sems, *, pages):
  b = pl.program_id(0)

  def copies(j, slot):  # the DMAs of page j of sequence b into buffer slot
    page = pt_ref[b, j]
    return (pltpu.make_async_copy(k_hbm.at[page], k_buf.at[slot], sems.at[0, slot]),
            pltpu.make_async_copy(v_hbm.at[page], v_buf.at[slot], sems.at[1, slot]))

  for c in copies(0, 0):
    c.start()

  def body(j, carry):
    m, l, acc = carry
    slot = j % 2

    @pl.when(j + 1 < pages)  # prefetch the next page into the other slot
    def _():
      for c in copies(j + 1, 1 - slot):
        c.start()

    for c in copies(j, slot):
      c.wait()
    s = lax.dot_general(q_ref[...], k_buf[slot], (((1,), (1,)), ((), ())),
                        preferred_element_type=F32)
    m_new = jnp.maximum(m, jnp.max(s, axis=1, keepdims=True))
    p = jnp.exp(s - m_new)
    alpha = jnp.exp(m - m_new)
    l = alpha * l + jnp.sum(p, axis=1, keepdims=True)
    acc = alpha * acc + jnp.dot(p, v_buf[slot], preferred_element_type=F32)
    return m_new, l, acc

  (h, d) = q_ref.shape
  init = (jnp.full((h, 1), -jnp.inf, F32), jnp.zeros((h, 1), F32), jnp.zeros((h, d), F32))
  _, l, acc = lax.fori_loop(0, pages, body, init)
  o_ref[...] = acc / l

def paged_attention(page_table, q, k_pages, v_pages):
  (batch, h, d), (_, page_size, _) = q.shape, k_pages.shape
  pages = page_table.shape[1]
  return pl.pallas_call(
      functools.partial(paged_kernel, pages=pages),
      out_shape=jax.ShapeDtypeStruct(q.shape, q.dtype),
      grid_spec=pltpu.PrefetchScalarGridSpec(
          num_scalar_prefetch=1,
          grid=(batch,),
          in_specs=[pl.BlockSpec((None, h, d), lambda b, pt: (b, 0, 0)),
                    pl.BlockSpec(memory_space=pl.ANY),
                    pl.BlockSpec(memory_space=pl.ANY)],
          out_specs=pl.BlockSpec((None, h, d), lambda b, pt: (b, 0, 0)),
          scratch_shapes=[pltpu.VMEM((2, page_size, d), F32), pltpu.VMEM((2, page_size, d), F32),
                          pltpu.SemaphoreType.DMA((2, 2))]),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
  )(page_table, q, k_pages, v_pages)
# paged: end
# end paged_attention


# begin embedding_lookup
# gather: begin
def embedding_lookup(table, ids, *, subcores=16):
  (n,), (_, d) = ids.shape, table.shape
  rows = n // subcores  # ids looked up by each vector subcore
  mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                num_subcores=subcores)

  @functools.partial(pl.kernel, out_type=jax.ShapeDtypeStruct((n, d), table.dtype), mesh=mesh,
                     scratch_types=[pltpu.VMEM((rows,), I32), pltpu.VMEM((rows, d), table.dtype)])
  def gather_kernel(table_hbm, ids_hbm, out_hbm, ids_vmem, rows_vmem):
    start = lax.axis_index("s") * rows
    pltpu.sync_copy(ids_hbm.at[pl.ds(start, rows)], ids_vmem)
    pltpu.sync_copy(table_hbm.at[ids_vmem], rows_vmem)  # the gather: rows_vmem[k] = table[ids[k]]
    pltpu.sync_copy(rows_vmem, out_hbm.at[pl.ds(start, rows)])

  return gather_kernel(table, ids)
# gather: end
# end embedding_lookup


def flash_reference(q, k, v):
  q, k, v = (a.astype(np.float64) for a in (q, k, v))
  s = q @ k.T * q.shape[1] ** -0.5
  s = np.where(np.tril(np.ones(s.shape, bool)), s, -np.inf)
  p = np.exp(s - s.max(axis=1, keepdims=True))
  return (p / p.sum(axis=1, keepdims=True)) @ v


def paged_reference(page_table, q, k_pages, v_pages):
  out = np.zeros(q.shape)
  for b in range(q.shape[0]):
    k = np.concatenate([k_pages[p] for p in page_table[b]]).astype(np.float64)
    v = np.concatenate([v_pages[p] for p in page_table[b]]).astype(np.float64)
    s = q[b].astype(np.float64) @ k.T
    p = np.exp(s - s.max(axis=1, keepdims=True))
    out[b] = (p / p.sum(axis=1, keepdims=True)) @ v
  return out


def examples():
  """(name, function, argument shapes, seeded inputs, numpy reference)."""
  rng = np.random.default_rng(40)
  normal = lambda *shape: rng.standard_normal(shape).astype(np.float32)
  qkv = [normal(256, 128) for _ in range(3)]
  page_table = rng.permutation(16)[:8].reshape(2, 4).astype(np.int32)
  paged = [page_table, normal(2, 8, 128), normal(16, 16, 128), normal(16, 16, 128)]
  table, ids = normal(1000, 128), rng.integers(0, 1000, (256,)).astype(np.int32)
  return [("flash_attention", flash_attention, qkv, flash_reference),
          ("paged_attention", paged_attention, paged, paged_reference),
          ("embedding_lookup", embedding_lookup, [table, ids], lambda t, i: t[i])]


def lower(name, f, shapes):
  lowered = lambda: jax.jit(f).trace(*shapes).lower(lowering_platforms=("tpu",)).as_text()
  if name != "embedding_lookup":
    return lowered()
  # A SparseCore kernel lowers for a TPU with SparseCores: an abstract TPU7x
  # device (only here: it changes how TensorCore kernels lower).
  device = AbstractDevice(device_kind="TPU7x", num_cores=1, platform="tpu")
  with jax.sharding.use_abstract_mesh(AbstractMesh((), (), abstract_device=device)):
    return lowered()


if __name__ == "__main__":
  # sync_copy's push stream (VMEM to HBM) ignores its semaphore on SparseCore.
  warnings.simplefilter("ignore")
  refs = sys.argv[sys.argv.index("--refs") + 1] if "--refs" in sys.argv else None
  for name, f, inputs, reference in examples():
    shapes = [S(x.shape, x.dtype) for x in inputs]
    print(f"// ----- {name}")
    print(lower(name, f, shapes))
    if refs:
      for i, x in enumerate(inputs):
        np.save(f"{refs}/{name}_in{i}.npy", x)
      np.save(f"{refs}/{name}_out.npy", reference(*inputs).astype(np.float32))
