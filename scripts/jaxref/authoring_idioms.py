#!/usr/bin/env python3
"""One small Pallas kernel per idiom of `mosaic::pallas::Body` (issue 29), lowered for TPU by JAX 0.12.

Prints, for each case, a line `// ----- <name>` then the module (Lowered.as_text()).
tests/integration/authoring.rs builds the same kernels in Rust with the idioms and checks each
`diff`-equal to these. Run with the jaxref venv's python (JAX_PLATFORMS=cpu)."""
import warnings

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jax.experimental.pallas import tpu_sc as plsc

F32, BF16, I32 = jnp.float32, jnp.bfloat16, jnp.int32
S = jax.ShapeDtypeStruct
CASES = []


def case(name, ins, out, grid=None, specs=None):
  def register(kernel):
    CASES.append((name, kernel, ins, out, grid, specs))
    return kernel
  return register


def rows(block):  # BlockSpec of `block` rows at the grid index
  return pl.BlockSpec(block, lambda i: (i, 0))


@case("slices", [S((16, 128), F32)], S((16, 128), F32))
def _(x_ref, o_ref):
  o_ref[pl.ds(0, 8), :] = x_ref[pl.ds(8, 8), :]


@case("dynamic_slice", [S((32, 128), F32)], S((32, 128), F32), grid=((2,), (16, 128)))
def _(x_ref, o_ref):
  i = pl.program_id(0)
  o_ref[pl.ds(i * 8, 8), :] = x_ref[pl.ds(8, 8), :] + (i * pl.num_programs(0)).astype(F32)


@case("squeeze", [S((16, 128), F32)], S((16, 128), F32))
def _(x_ref, o_ref):
  o_ref[0, :] = x_ref[1, :]


@case("masked_store", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  mask = lax.broadcasted_iota(I32, (8, 128), 1) < 64
  pltpu.store(o_ref, x_ref[...], mask=mask)


@case("fori_carry", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  o_ref[...] = lax.fori_loop(0, 4, lambda i, acc: acc + x_ref[...], jnp.zeros((8, 128), F32))


@case("fori_index", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  body = lambda i, acc: acc + x_ref[...] * i.astype(F32)
  o_ref[...] = lax.fori_loop(1, 5, body, jnp.zeros((8, 128), F32))


@case("fori_unused_from_2", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  o_ref[...] = lax.fori_loop(2, 5, lambda i, acc: acc + x_ref[...], jnp.zeros((8, 128), F32))


@case("fori_two_carries", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  s = x_ref[...]
  a, b = lax.fori_loop(0, 3, lambda i, c: (c[0] + s, c[1] * 2.0), (s, s))
  o_ref[...] = a + b


@case("loop_stores", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  @pl.loop(0, 4)
  def _(i):
    o_ref[...] += x_ref[...]


@case("dot_nt", [S((128, 128), BF16), S((128, 128), BF16)], S((128, 128), F32))
def _(x_ref, y_ref, o_ref):
  o_ref[...] = lax.dot_general(x_ref[...], y_ref[...], (((1,), (1,)), ((), ())),
                               preferred_element_type=F32)


@case("dot_tn_highest", [S((128, 128), F32), S((128, 128), F32)], S((128, 128), F32))
def _(x_ref, y_ref, o_ref):
  o_ref[...] = lax.dot_general(x_ref[...], y_ref[...], (((0,), (0,)), ((), ())),
                               preferred_element_type=F32, precision=lax.Precision.HIGHEST)


@case("reductions", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  x = x_ref[...]
  a = jnp.sum(x, axis=0, keepdims=True)
  b = jnp.min(x, axis=1)
  o_ref[...] = x * 2.0 + a + b.reshape(8, 1) + jnp.max(x)


@case("reductions_all_keepdims", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = x + jnp.sum(x, axis=(0, 1), keepdims=True) + jnp.max(x, axis=-1, keepdims=True)


@case("reduction_int", [S((8, 128), I32)], S((8, 1), I32))
def _(x_ref, o_ref):
  o_ref[...] = jnp.max(x_ref[...], axis=1, keepdims=True)


@case("elementwise", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  x = x_ref[...]
  y = jnp.tanh(x) + jnp.log(x) + lax.rsqrt(x) + jnp.sqrt(x) + jnp.abs(x) + jnp.floor(x)
  y = y + jnp.ceil(x) + jnp.sin(x) + jnp.cos(x) + jnp.log1p(x) + (-x) + jnp.exp2(x)
  y = y + jnp.minimum(x, 0.5) + jnp.maximum(x, 1.0) + jax.nn.sigmoid(x) + lax.erf(x)
  o_ref[...] = y + jnp.where(x > 1.0, 1.0, x) + jnp.where(x == 0.0, x, 2.0)


@case("casts", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  x = x_ref[...].astype(BF16).astype(I32).astype(jnp.int8).astype(I32).astype(F32)
  o_ref[...] = x + lax.broadcasted_iota(I32, (8, 128), 0).astype(F32)


@case("int_arith", [S((8, 128), I32)], S((8, 128), I32))
def _(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = (x + 1) - (x * 3)


@case("when", [S((32, 128), F32)], S((32, 128), F32), grid=((2,), (16, 128)))
def _(x_ref, o_ref):
  i = pl.program_id(0)

  @pl.when(i < 1)
  def _():
    o_ref[...] = x_ref[...]

  @pl.when(i != pl.num_programs(0) - 1)
  def _():
    o_ref[...] = x_ref[...] + 1.0


@case("transpose", [S((128, 256), F32)], S((256, 128), F32))
def _(x_ref, o_ref):
  o_ref[...] = x_ref[...].T


@case("cond_else", [S((32, 128), F32)], S((32, 128), F32), grid=((2,), (16, 128)))
def _(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = lax.cond(pl.program_id(0) == 0, lambda: x + 1.0, lambda: x * 2.0)


@case("fori_dynamic", [S((32, 128), F32)], S((32, 128), F32), grid=((2,), (16, 128)))
def _(x_ref, o_ref):
  n = pl.program_id(0) + 1
  o_ref[...] = lax.fori_loop(0, n, lambda i, acc: acc + x_ref[...], jnp.zeros((16, 128), F32))


@case("strided", [S((16, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  o_ref[...] = x_ref[pl.ds(0, 8, stride=2), :]
  o_ref[pl.ds(1, 4, stride=2), :] = x_ref[pl.ds(8, 4), :]


@case("bool_casts", [S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, o_ref):
  b = x_ref[...] > 0
  o_ref[...] = b.astype(F32) + (b.astype(I32) * 2).astype(F32)


@case("remainder", [S((32, 128), F32)], S((32, 128), F32), grid=((2,), (16, 128)))
def _(x_ref, o_ref):
  rows = lax.broadcasted_iota(I32, (16, 128), 0) - 8
  y = x_ref[...] + ((pl.program_id(0) - 3) % 2).astype(F32)
  o_ref[...] = y + (rows % 3).astype(F32)


@case("remainder_float", [S((8, 128), F32), S((8, 128), F32)], S((8, 128), F32))
def _(x_ref, y_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = x % y_ref[...] + x % 0.75 + (-1.5) % x


@case("manual_dma", [S((16, 128), F32)], S((8, 128), F32),
      specs=([pl.BlockSpec(memory_space=pl.ANY)], None,
             [pltpu.VMEM((8, 128), F32), pltpu.SemaphoreType.DMA]))
def _(x_hbm, o_ref, buf, sem):
  copy = pltpu.make_async_copy(x_hbm.at[pl.ds(8, 8)], buf, sem)
  copy.start()
  copy.wait()
  o_ref[...] = buf[...] + 1.0


@case("semaphores_scoped", [S((8, 128), F32)], S((8, 128), F32),
      specs=(None, None, [pltpu.SemaphoreType.REGULAR]))
def _(x_ref, o_ref, sem):
  pl.semaphore_signal(sem, 2)
  pl.semaphore_wait(sem, 2)

  def scoped(tmp):
    tmp[...] = x_ref[...] * 2.0
    o_ref[...] = tmp[...] + 1.0
  pl.run_scoped(scoped, pltpu.VMEM((8, 128), F32))


@case("pipeline_modes", [S((32, 128), F32), S((1, 128), F32)], S((32, 128), F32), grid=((2,), None),
      specs=([pl.BlockSpec((16, 128), lambda i: (i, 0), pipeline_mode=pl.Buffered(1)),
              pl.BlockSpec((1, 128), lambda i: (0, 0))],  # whole array, zero map: forced synchronous
             pl.BlockSpec((16, 128), lambda i: (i, 0), pipeline_mode=pl.Buffered(2))))
def _(x_ref, b_ref, o_ref):
  o_ref[...] = x_ref[...] + b_ref[...]


@case("remote_copy", [S((8, 128), F32)], S((8, 128), F32), grid=((1,), None),
      specs=([pl.BlockSpec(memory_space=pl.ANY)], pl.BlockSpec(memory_space=pl.ANY),
             [pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA]))
def _(x_ref, o_ref, send_sem, recv_sem):
  dev = lax.rem(pl.program_id(0) + 1, 4)
  copy = pltpu.make_async_remote_copy(x_ref, o_ref, send_sem, recv_sem, device_id=dev,
                                      device_id_type=pl.DeviceIdType.LOGICAL)
  copy.start()
  copy.wait()


# Inner pipelines (pltpu.emit_pipeline over ANY operands, default Buffered(2) BlockSpecs), lowered
# under an abstract v5e (the pipeline asks the chip's tiling). Each: (name, kernel, ins, outs, grid).
PIPELINE_CASES = []


def pipeline_case(name, ins, outs, grid=None):
  def register(kernel):
    PIPELINE_CASES.append((name, kernel, ins, outs, grid))
    return kernel
  return register


def blocks(shape, index_map):
  return pl.BlockSpec(shape, index_map)


@pipeline_case("emit_pipeline_1d", [S((32, 128), F32)], [S((32, 128), F32)])
def _(x_hbm, o_hbm):
  def body(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1.0
  rows = blocks((8, 128), lambda i: (i, 0))
  pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows], out_specs=[rows])(x_hbm, o_hbm)


@pipeline_case("emit_pipeline_2d", [S((16, 256), F32), S((16, 128), F32)], [S((16, 256), F32)])
def _(x_hbm, y_hbm, o_hbm):
  def body(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...] * 2.0
  tiles = blocks((8, 128), lambda i, j: (i, j))
  pltpu.emit_pipeline(body, grid=(2, 2), in_specs=[tiles, blocks((8, 128), lambda i, j: (i, 0))],
                      out_specs=[tiles])(x_hbm, y_hbm, o_hbm)


@pipeline_case("emit_pipeline_two_outputs", [S((32, 128), F32), S((32, 128), F32)],
               [S((32, 128), F32), S((32, 128), F32)])
def _(x_hbm, y_hbm, s_hbm, d_hbm):
  def body(x_ref, y_ref, s_ref, d_ref):
    x, y = x_ref[...], y_ref[...]
    s_ref[...] = x + y
    d_ref[...] = x - y
  rows = blocks((8, 128), lambda i: (i, 0))
  pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows, rows], out_specs=[rows, rows])(
      x_hbm, y_hbm, s_hbm, d_hbm)


@pipeline_case("emit_pipeline_outer_grid", [S((32, 128), F32)], [S((32, 128), F32)], grid=(2,))
def _(x_hbm, o_hbm):
  def body(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0
  i = pl.program_id(0)  # outer program i pipelines over its 16 rows
  rows = blocks((8, 128), lambda j: (j, 0))
  pltpu.emit_pipeline(body, grid=(2,), in_specs=[rows], out_specs=[rows])(
      x_hbm.at[pl.ds(i * 16, 16)], o_hbm.at[pl.ds(i * 16, 16)])


@pipeline_case("emit_pipeline_matmul", [S((16, 256), F32), S((256, 256), F32)], [S((16, 256), F32)])
def _(x_hbm, y_hbm, o_hbm):
  def body(x_ref, y_ref, o_ref):  # o[i, j] = sum over k of x[i, k] @ y[k, j]
    @pl.when(pl.program_id(2) == 0)
    def _():
      o_ref[...] = jnp.zeros((8, 128), F32)
    o_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=F32)
  pltpu.emit_pipeline(body, grid=(2, 2, 2),
                      in_specs=[blocks((8, 128), lambda i, j, k: (i, k)),
                                blocks((128, 128), lambda i, j, k: (k, j))],
                      out_specs=[blocks((8, 128), lambda i, j, k: (i, j))])(x_hbm, y_hbm, o_hbm)


@pipeline_case("emit_pipeline_constant_block", [S((32, 128), F32), S((16, 128), F32)], [S((32, 128), F32)])
def _(x_hbm, b_hbm, o_hbm):
  def body(x_ref, b_ref, o_ref):  # the first op makes its literal before the body's scope
    z = jnp.full((8, 128), 3.0, F32)
    o_ref[...] = z + x_ref[...] + b_ref[...]
  rows = blocks((8, 128), lambda i: (i, 0))
  first = blocks((8, 128), lambda i: (0, 0))  # the same block of b every step
  pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows, first], out_specs=[rows])(x_hbm, b_hbm, o_hbm)


@pipeline_case("emit_pipeline_grid_of_one", [S((16, 256), F32)], [S((16, 256), F32)])
def _(x_hbm, o_hbm):
  def body(x_ref, o_ref):
    o_ref[...] = x_ref[...] - 1.0
  tiles = blocks((8, 128), lambda i, j, k: (i, k))  # j only ever 0
  pltpu.emit_pipeline(body, grid=(2, 1, 2), in_specs=[tiles], out_specs=[tiles])(x_hbm, o_hbm)


@pipeline_case("emit_pipeline_hbm", [S((32, 256), BF16)], [S((32, 256), BF16)])
def _(x_hbm, o_hbm):  # operands in pltpu.HBM (the main loop's spec for names ending in _hbm)
  def body(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0
  tiles = blocks((16, 128), lambda i, j: (j, i))  # column blocks first
  pltpu.emit_pipeline(body, grid=(2, 2), in_specs=[tiles], out_specs=[tiles])(x_hbm, o_hbm)


@pipeline_case("emit_pipeline_buffered", [S((32, 128), F32), S((32, 128), F32)],
               [S((32, 128), F32), S((32, 128), F32)])
def _(x_hbm, y_hbm, s_hbm, p_hbm):
  def body(x_ref, y_ref, s_ref, p_ref):
    x, y = x_ref[...], y_ref[...]
    s_ref[...] = x + y
    p_ref[...] = x * y
  rows = lambda n: pl.BlockSpec((8, 128), lambda i: (i, 0), pipeline_mode=pl.Buffered(n))
  pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows(3), rows(1)], out_specs=[rows(1), rows(3)])(
      x_hbm, y_hbm, s_hbm, p_hbm)


@pipeline_case("emit_pipeline_resident", [S((32, 128), F32), S((8, 128), F32)], [S((32, 128), F32)])
def _(x_hbm, w_hbm, o_hbm):
  def body(x_ref, w_ref, o_ref):  # w: the whole array, copied once before the loop (a trivial window)
    y = x_ref[...] + w_ref[...]
    o_ref[...] = y * w_ref[pl.ds(0, 8), :]
  rows = blocks((8, 128), lambda i: (i, 0))
  whole = blocks((8, 128), lambda i: (0, 0))
  pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows, whole], out_specs=[rows])(x_hbm, w_hbm, o_hbm)


# SparseCore kernels (pl.kernel on a vector-subcore mesh, f32[16] = one vector of TPU7x lanes).
SC_CASES = []


def sc_case(name, ins, scratch, layout_passes=True):
  def register(kernel):
    SC_CASES.append((name, kernel, ins, scratch, layout_passes))
    return kernel
  return register


@sc_case("sc_load_gather_store_scatter", [S((16,), F32), S((16,), I32)],
         [(16,), F32, (16,), I32, (16,), F32])
def _(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, o_vmem):
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  o_vmem[...] = plsc.load_gather(x_vmem, [i_vmem[...]])
  plsc.store_scatter(o_vmem, [i_vmem[...]], x_vmem[...])
  pltpu.sync_copy(o_vmem, o_hbm)


@sc_case("sc_scatter_dma", [S((16,), F32), S((16,), I32)], [(16,), F32, (16,), I32])
def _(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem):
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  pltpu.sync_copy(x_vmem, o_hbm.at[i_vmem])  # o[i[k]] = x[k]


@sc_case("sc_sort_key_val", [S((16,), F32), S((16,), I32)], [(16,), F32, (16,), I32, (16,), F32])
def _(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, o_vmem):
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  _, values = plsc.sort_key_val(i_vmem[...], x_vmem[...])  # x in the order of i
  keys, _ = plsc.sort_key_val(x_vmem[...], i_vmem[...], descending=True)
  o_vmem[...] = values + keys
  pltpu.sync_copy(o_vmem, o_hbm)


# Twice: with the layout passes (JAX's default) and without (whole registers).
@sc_case("sc_expanded_compressed_no_layout", [S((16,), F32), S((16,), I32)],
         [(16,), F32, (16,), I32, (16,), F32], layout_passes=False)
@sc_case("sc_expanded_compressed", [S((16,), F32), S((16,), I32)],
         [(16,), F32, (16,), I32, (16,), F32])
def _(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, o_vmem):
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  mask = i_vmem[...] > 5
  # The lanes where i > 5 take x[0], x[1], ... in order; the others -1.
  o_vmem[...] = jnp.where(mask, plsc.load_expanded(x_vmem.at[...], mask=mask), -1.0)
  # Then x's lanes where i > 5, packed at the front of o.
  plsc.store_compressed(o_vmem.at[...], x_vmem[...], mask=mask)
  pltpu.sync_copy(o_vmem, o_hbm)


# libtpu's layout passes refuse tpu.scan: needs_layout_passes=False, as JAX's own tests run scans.
@sc_case("sc_scans", [S((16,), F32), S((16,), I32)], [(16,), F32, (16,), I32, (16,), F32],
         layout_passes=False)
def _(x_hbm, i_hbm, o_hbm, x_vmem, i_vmem, o_vmem):
  pltpu.sync_copy(x_hbm, x_vmem)
  pltpu.sync_copy(i_hbm, i_vmem)
  x, i = x_vmem[...], i_vmem[...]
  mask = i > 5
  # jnp.cumsum lowers as plsc.cumsum without a mask.
  y = plsc.cumsum(x) + jnp.cumsum(x) + plsc.cumsum(x, mask=mask) + plsc.cummax(x, mask=mask)
  counts, last = plsc.scan_count(i)
  z = plsc.cummax(i - 8) + plsc.cumsum(i, mask=mask) + counts
  o_vmem[...] = y + jnp.where(last, z, 0).astype(F32)
  pltpu.sync_copy(o_vmem, o_hbm)


def abstract_tpu(kind):
  """The abstract mesh of one `kind` TPU: lowering rules that need a device kind read it."""
  from jax.sharding import AbstractDevice, AbstractMesh
  device = AbstractDevice(device_kind=kind, num_cores=1, platform="tpu")
  return jax.sharding.use_abstract_mesh(AbstractMesh((), (), abstract_device=device))


def lower(call, ins):
  return jax.jit(call).trace(*ins).lower(lowering_platforms=("tpu",)).as_text()


if __name__ == "__main__":
  for name, kernel, ins, out, grid, specs in CASES:
    if specs is not None and grid is None:
      kw = {} if specs[0] is None else {"in_specs": specs[0]}
      call = pl.pallas_call(kernel, out_shape=out, scratch_shapes=specs[2], name=name, **kw)
    elif specs is not None:
      call = pl.pallas_call(kernel, out_shape=out, grid=grid[0], in_specs=specs[0],
                            out_specs=specs[1], name=name,
                            scratch_shapes=specs[2] if len(specs) > 2 else ())
    elif grid is None:
      call = pl.pallas_call(kernel, out_shape=out, name=name)
    else:
      (g, block) = grid
      call = pl.pallas_call(kernel, out_shape=out, grid=g, in_specs=[rows(block)] * len(ins),
                            out_specs=rows(block), name=name)
    print(f"// ----- {name}")
    if name.startswith("semaphores") or name == "remote_copy":
      # Semaphore ops need a TPU device kind: an abstract v5e mesh (only
      # here: it changes how other kernels lower).
      with abstract_tpu("TPU v5 lite"):
        print(lower(call, ins))
    else:
      print(lower(call, ins))
  for name, kernel, ins, outs, grid in PIPELINE_CASES:
    any_spec = pl.BlockSpec(memory_space=pltpu.HBM if name.endswith("_hbm") else pl.ANY)
    out_shape = outs[0] if len(outs) == 1 else tuple(outs)
    out_specs = any_spec if len(outs) == 1 else tuple(any_spec for _ in outs)
    kw = {} if grid is None else {"grid": grid}
    call = pl.pallas_call(kernel, out_shape=out_shape, in_specs=[any_spec] * len(ins),
                          out_specs=out_specs, name=name, **kw)
    print(f"// ----- {name}")
    with abstract_tpu("TPU v5 lite"):
      print(lower(call, ins))
  # sync_copy's push stream (VMEM to HBM) ignores its semaphore on SparseCore.
  warnings.simplefilter("ignore")
  with abstract_tpu("TPU7x"):
    mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                  num_subcores=16)
    for name, kernel, ins, scratch, layout_passes in SC_CASES:
      types = [pltpu.VMEM(shape, dtype) for shape, dtype in zip(scratch[::2], scratch[1::2])]
      kw = {} if layout_passes else {
          "compiler_params": pltpu.CompilerParams(needs_layout_passes=False)}
      call = pl.kernel(kernel, out_type=S((16,), F32), mesh=mesh, scratch_types=types, name=name,
                       **kw)
      print(f"// ----- {name}")
      print(lower(call, ins))
