#!/usr/bin/env python3
"""Reference data for the Mosaic CPU executor (issue 28): TPU-lowered modules, seeded inputs and the
outputs of JAX 0.12's Pallas TPU interpret mode for the same kernels.

Usage (with the jaxref venv's python; `make exec-refs` runs it):
  make_refs.py --out tests/data/exec [--only NAME...] [--list] [--retime] [--no-mutants]

For each case it writes tests/data/exec/<case>/: module.mlir (cross-lowered for TPU, not interpret),
in<i>.npy (custom-call operand order; bf16 as uint16 bit patterns), out<i>.npy (interpret mode's
results), case.json, and for production cases mutants.json + mutant_<name>.mlir.
Deterministic: fixed seeds; the script re-executes itself with
JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/" so the source locations in the kernels'
debug_locations are file base names (make_refs.py), independent of the checkout path. Timings are the
only varying data: case.json keeps the recorded interpret_seconds unless --retime is given.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NDEV = 4


def _reexec():
  if os.environ.get("EXEC_REFS_CHILD") == "1":
    return
  argv = list(sys.argv[1:])
  for flag in ("--out",):
    if flag in argv:
      i = argv.index(flag)
      argv[i + 1] = os.path.abspath(argv[i + 1])
  env = dict(os.environ, EXEC_REFS_CHILD="1", JAX_PLATFORMS="cpu",
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={NDEV}").strip(),
             PYTHONHASHSEED="0",
             # source locations in the kernels' debug_locations: file base names only
             JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/")
  os.chdir(HERE)
  os.execve(sys.executable, [sys.executable, os.path.basename(__file__), *argv], env)


if __name__ == "__main__":
  _reexec()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import dataclasses  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402
from typing import Any, Callable  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

sys.path.insert(0, HERE)
import refs_lib as rl  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
GOLDENS = os.path.join(REPO, "tests", "data", "jax-goldens")
F32 = jnp.float32
BF16 = rl.BF16


@dataclasses.dataclass
class Mutant:
  name: str
  what: str
  python: str
  build: Callable[[bool], Callable]


@dataclasses.dataclass
class Case:
  name: str
  source: str
  description: str
  build: Callable[[bool], Callable]          # interpret? -> function of the arrays
  inputs: Callable[[np.random.Generator], list]  # custom-call operand order
  tol: Any = (0.0, 0.0)                       # (rtol, atol) for all outputs, or a list per output
  tolerance_source: str | None = None
  golden: str | None = None
  devices: int = 1
  lower: Callable[[Callable, list], str] | None = None   # custom lowering (default jit cross-lowering)
  lower_ctx: Callable[[], Any] = contextlib.nullcontext
  run_ctx: Callable[[], Any] = contextlib.nullcontext
  fn_args: list[int] | None = None           # which inputs the function takes (default all)
  mutants: list[Mutant] = dataclasses.field(default_factory=list)
  extra: dict = dataclasses.field(default_factory=dict)
  kind: str = "golden"


CASES: dict[str, Case] = {}
NOT_RUNNABLE: dict[str, str] = {}


def case(c: Case) -> Case:
  assert c.name not in CASES, c.name
  CASES[c.name] = c
  return c


def seeded(name: str) -> np.random.Generator:
  return np.random.default_rng(zlib.crc32(name.encode()))


def normal(rng, shape, dtype=np.float32, scale=1.0):
  return (rng.standard_normal(shape) * scale).astype(np.float32).astype(dtype)


def sds(shape, dtype=F32):
  return jax.ShapeDtypeStruct(shape, dtype)


def cross_lower(fn, args) -> str:
  specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
  return jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()


warnings.filterwarnings("ignore", category=DeprecationWarning)


# ============================================================================================
# a. the goldens' kernels (tests/data/jax-goldens/<name>/kernel.mlir)

def _add_kernel(x_ref, y_ref, o_ref):
  o_ref[...] = x_ref[...] + y_ref[...]


def _copy_add1_kernel(x_ref, o_ref):
  o_ref[...] = x_ref[...] + 1


def two_8x128(rng):
  return [normal(rng, (8, 128)), normal(rng, (8, 128))]


def one_8x128(rng):
  return [normal(rng, (8, 128))]


def add_call(interpret, **kw):
  return lambda x, y: pl.pallas_call(_add_kernel, out_shape=sds((8, 128)),
                                     interpret=rl.interp(interpret), **kw)(x, y)


def add1_call(interpret, **kw):
  return lambda x: pl.pallas_call(_copy_add1_kernel, out_shape=sds((8, 128)),
                                  interpret=rl.interp(interpret), **kw)(x)


@contextlib.contextmanager
def jax_config(**kw):
  old = {k: getattr(jax.config, k) for k in kw}
  for k, v in kw.items():
    jax.config.update(k, v)
  try:
    yield
  finally:
    for k, v in old.items():
      jax.config.update(k, v)


@contextlib.contextmanager
def ir_version_none():
  from jax._src import tpu_custom_call as tcc
  old = tcc.get_ir_version
  tcc.get_ir_version = lambda ctx: None
  try:
    yield
  finally:
    tcc.get_ir_version = old


def g(name, desc, build, inputs, **kw):
  return case(Case(name=name, source=f"golden:{name}", description=desc, build=build,
                   inputs=inputs, golden=name, **kw))


g("add_basic", "x + y, f32 8x128, no grid.", add_call, two_8x128)
g("add_export", "Same kernel as add_basic; module from jax.export (Exported.mlir_module()).",
  add_call, two_8x128,
  lower=lambda fn, args: jax.export.export(jax.jit(fn), platforms=["tpu"])(
      *[sds(a.shape, a.dtype) for a in args]).mlir_module())
g("allow_input_fusion", "add_basic with CompilerParams(allow_input_fusion=[True, False]).",
  lambda i: add_call(i, compiler_params=pltpu.CompilerParams(allow_input_fusion=[True, False])),
  two_8x128)
g("debug_locations_disabled", "add_basic lowered with jax_mosaic_unzip_debug_locations=False.",
  add_call, two_8x128, lower_ctx=lambda: jax_config(jax_mosaic_unzip_debug_locations=False))
g("input_output_aliases", "add_basic with input_output_aliases={1: 0}: operand 1 is output 0's buffer.",
  lambda i: add_call(i, input_output_aliases={1: 0}), two_8x128)
g("cost_estimate", "x + 1 with a CostEstimate.",
  lambda i: add1_call(i, cost_estimate=pl.CostEstimate(
      flops=1024, transcendentals=16, bytes_accessed=8192, remote_bytes_transferred=256)),
  one_8x128)
g("collective_id_without_barrier_allowed", "x + 1 with collective_id=5 and no barrier.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(
      collective_id=5, allow_collective_id_without_custom_barrier=True)), one_8x128)
g("flags", "x + 1 with Mosaic flags.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(flags={
      "XLA_TPU_FORCE_LP_LLO_SCHEDULER": True, "xla_tpu_example_int_flag": 42,
      "xla_tpu_example_float_flag": 0.5, "xla_tpu_example_false_flag": False})), one_8x128)
g("internal_scratch", "x + 1 with internal_scratch_in_bytes=8192.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(internal_scratch_in_bytes=8192)),
  one_8x128)
g("needs_hlo_passes", "x + 1 lowered with jax_mosaic_allow_hlo=True.", add1_call, one_8x128,
  lower_ctx=lambda: jax_config(jax_mosaic_allow_hlo=True))
g("serialization_format_0", "x + 1 with serialization_format=0.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(serialization_format=0)), one_8x128)
g("side_effects", "x + 1 with has_side_effects=True.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(has_side_effects=True)), one_8x128)
g("vmem_limit", "x + 1 with vmem_limit_bytes=64 MiB.",
  lambda i: add1_call(i, compiler_params=pltpu.CompilerParams(vmem_limit_bytes=67108864)),
  one_8x128)
g("ir_version_current_SYNTHETIC",
  "x + 1 serialized at the current serde version 18 (get_ir_version monkeypatched to None, as on a "
  "current TPU backend).", add1_call, one_8x128, lower_ctx=ir_version_none)
g("ir_version_18_override_SYNTHETIC",
  "Same kernel and body version (18) as ir_version_current_SYNTHETIC (the golden reached it through "
  "the ir_version_override hook; here get_ir_version is patched to None, which gives the same body).",
  add1_call, one_8x128, lower_ctx=ir_version_none)
g("kernel_name_metadata", "x + 1 with name='my-kernel.v2' and metadata.",
  lambda i: add1_call(i, name="my-kernel.v2", metadata={"author": "refcheck", "zz": "1", "aa": "2"}),
  one_8x128)


def bool_io(interpret):
  def kernel(a_ref, o_ref):
    o_ref[...] = jnp.logical_not(a_ref[...])

  call = pl.pallas_call(kernel, out_shape=sds((8, 128), jnp.bool_), interpret=rl.interp(interpret))
  # The custom call takes and returns int32 (JAX converts bool around it); the function takes the
  # custom call's int32 operand so in0/out0 are exactly what the kernel sees.
  return lambda a: call(a != 0).astype(jnp.int32)


g("bool_io", "not(a) on bool 8x128; bools are int32 0/1 at the custom call (in0/out0 are those "
  "int32s; the module converts around the call).", bool_io,
  lambda rng: [rng.integers(0, 2, (8, 128)).astype(np.int32)])


def tpu_abstract_mesh(kind, num_cores=1):
  def ctx():
    from jax.sharding import AbstractDevice, AbstractMesh
    return jax.sharding.use_abstract_mesh(AbstractMesh(
        (), (), abstract_device=AbstractDevice(device_kind=kind, num_cores=num_cores,
                                               platform="tpu")))
  return ctx


def memory_spaces(interpret):
  def kernel(x_ref, o_hbm, o_vmem):
    pltpu.sync_copy(x_ref, o_hbm)
    pltpu.sync_copy(x_ref, o_vmem)

  def f(x):
    x = pltpu.with_memory_space_constraint(x, pltpu.HBM)
    return pl.pallas_call(
        kernel, out_shape=(pltpu.HBM((8, 128), F32), pltpu.VMEM((8, 128), F32)),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=(pl.BlockSpec(memory_space=pl.ANY), pl.BlockSpec(memory_space=pl.ANY)),
        interpret=rl.interp(interpret))(x)
  return f


g("memory_spaces", "Two DMA copies of x (HBM input) to an HBM and a VMEM output.", memory_spaces,
  one_8x128, lower_ctx=tpu_abstract_mesh("TPU v6 lite"))


def scalar_prefetch(interpret):
  def kernel(idx_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2

  return lambda idx, x: pl.pallas_call(
      kernel, out_shape=sds((32, 128)),
      grid_spec=pltpu.PrefetchScalarGridSpec(
          num_scalar_prefetch=1, grid=(4,),
          in_specs=[pl.BlockSpec((8, 128), lambda i, idx: (idx[i], 0))],
          out_specs=pl.BlockSpec((8, 128), lambda i, idx: (i, 0))),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
      interpret=rl.interp(interpret))(idx, x)


g("scalar_prefetch", "out block i = 2 * x block idx[i]; grid (4,), x 64x128 (8 blocks), idx prefetched.",
  scalar_prefetch,
  lambda rng: [np.array([5, 0, 7, 2], np.int32), normal(rng, (64, 128))])


def copy_add1_grid(interpret):
  def f(x):
    return pl.pallas_call(
        _copy_add1_kernel, out_shape=sds(x.shape), grid=(x.shape[0] // 8,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        interpret=rl.interp(interpret))(x)
  return f


def lower_shape_poly(fn, args):
  b, = jax.export.symbolic_shape("b")
  return jax.export.export(jax.jit(fn), platforms=["tpu"])(
      sds((8 * b, 128))).mlir_module()


g("shape_poly_export",
  "x + 1 over a symbolic 8*b x 128 array, grid (b,) (jax.export). Data for b = 3. The custom call's "
  "operands are (b: tensor<i32>, x, result shape tensor<2xi32>); in0..in2 are those, the function "
  "takes in1 only.", copy_add1_grid,
  lambda rng: [np.array(3, np.int32), normal(rng, (24, 128)), np.array([24, 128], np.int32)],
  lower=lambda fn, args: lower_shape_poly(fn, args), fn_args=[1])


def tensorcore_mesh_kernel(interpret):
  mesh = pltpu.TensorCoreMesh(axis_name="core", num_cores=2)

  def f(x):
    @functools.partial(pl.kernel, out_type=sds((16, 128)), mesh=mesh,
                       interpret=rl.interp(interpret))
    def k(x_hbm, o_hbm):
      pltpu.sync_copy(x_hbm, o_hbm)
    return k(x)
  return f


g("tensorcore_mesh_kernel", "pl.kernel on a 2-TensorCore mesh: each core DMA-copies x to the output.",
  tensorcore_mesh_kernel, lambda rng: [normal(rng, (16, 128))],
  lower_ctx=tpu_abstract_mesh("TPU v5p", 2))


def remote_single(interpret):
  def kernel(in_ref, out_ref, send_sem, recv_sem):
    cp = pltpu.make_async_remote_copy(in_ref, out_ref, send_sem, recv_sem, device_id=0,
                                      device_id_type=pl.DeviceIdType.LOGICAL)
    cp.start()
    cp.wait_send()
    cp.wait_recv()

  return lambda x: pl.pallas_call(
      kernel, out_shape=sds((8, 128)),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
      scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
      interpret=rl.interp(interpret))(x)


g("remote_dma_single_device_logical", "Remote DMA of x to logical device 0 (itself), 1 device.",
  remote_single, one_8x128)


def ring_kernel_factory(tag=None, use_tag=False):
  def kernel(in_ref, out_ref, send_sem, recv_sem):
    my_id = lax.axis_index("x")
    right = lax.rem(my_id + 1, NDEV)
    barrier = pltpu.get_barrier_semaphore(tag) if use_tag else pltpu.get_barrier_semaphore()
    pl.semaphore_signal(barrier, 1, device_id=(right,))
    pl.semaphore_wait(barrier, 1)
    cp = pltpu.make_async_remote_copy(in_ref, out_ref, send_sem, recv_sem, device_id=(right,))
    cp.start()
    cp.wait_send()
    cp.wait_recv()
  return kernel


def ring_call(interpret, name="kernel", collective_id=7, tag=None, use_tag=False):
  kernel = ring_kernel_factory(tag, use_tag)
  kernel.__name__ = name
  return pl.pallas_call(
      kernel, out_shape=sds((8, 128)),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
      scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
      compiler_params=pltpu.CompilerParams(collective_id=collective_id),
      interpret=rl.interp(interpret))


def mesh4():
  return jax.sharding.Mesh(np.array(jax.devices()[:NDEV]), ("x",))


def sharded(body):
  return jax.shard_map(body, mesh=mesh4(), in_specs=P("x"), out_specs=P("x"), check_vma=False)


def ring_inputs(rng):
  return [normal(rng, (NDEV, 8, 128))]


INTERPRET_COLLECTIVE_NOTE = (
    "Interpret mode cannot run a barrier semaphore whose collective id is assigned at lowering: "
    "interpret_pallas_call.py:613 get_barrier_semaphore does int(collective_id) and gets None "
    "(TypeError). The interpret-mode run passes the id the lowering assigns explicitly; the kernel "
    "computation is otherwise the same.")


g("remote_dma_collective",
  "Right-permute on a 4-device ring: barrier semaphore signal/wait, then a remote DMA of the "
  "device's 8x128 slice to device (id+1)%4. Inputs/outputs: [device, 8, 128].",
  lambda i: sharded(ring_call(i)), ring_inputs, devices=NDEV)
g("barrier_semaphore_tag",
  "remote_dma_collective's kernel with get_barrier_semaphore(tag='ring') and no collective_id.",
  lambda i: sharded(ring_call(i, name="tagged", collective_id=0 if i else None, tag="ring",
                              use_tag=not i)),
  ring_inputs, devices=NDEV,
  extra={"interpret_variant": INTERPRET_COLLECTIVE_NOTE + " Here: get_barrier_semaphore() with "
         "collective_id=0, the id the lowering assigns to the tag."})


def auto_assign(interpret):
  ids = (0, 0, 2, 1) if interpret else (None, None, None, 1)
  a1 = ring_call(interpret, name="barrier_a", collective_id=ids[0])
  a2 = ring_call(interpret, name="barrier_a", collective_id=ids[1])
  b1 = ring_call(interpret, name="barrier_b", collective_id=ids[2])
  b2 = ring_call(interpret, name="barrier_b", collective_id=ids[3])
  return sharded(lambda x: b2(b1(a2(a1(x)))))


g("collective_id_auto_assign",
  "FOUR chained right-permute kernels in one module (jax_pallas_auto_assign_collective_ids='yes'), "
  "barrier_a, barrier_a, barrier_b, barrier_b(collective_id=1). Not a single custom call: the "
  "outputs are after all four (a shift by 4 on 4 devices = identity), out0 == in0.",
  auto_assign, ring_inputs, devices=NDEV,
  lower_ctx=lambda: jax_config(jax_pallas_auto_assign_collective_ids="yes"),
  run_ctx=lambda: jax_config(jax_pallas_auto_assign_collective_ids="yes"),
  extra={"interpret_variant": INTERPRET_COLLECTIVE_NOTE + " Here: collective ids 0, 0, 2, 1 as "
         "the golden's lowering assigns them."})


def matmul_grid(interpret, nk=4, swap=False, no_reset=False, shift_k=False):
  def kernel(a_ref, b_ref, o_ref, acc_ref):
    if not no_reset:
      @pl.when(pl.program_id(2) == 0)
      def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)
    if swap:
      acc_ref[...] += jnp.dot(b_ref[...], a_ref[...], preferred_element_type=jnp.float32)
    else:
      acc_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)

    @pl.when(pl.program_id(2) == nk - 1)
    def _():
      o_ref[...] = acc_ref[...]

  def f(a, b):
    m, k = a.shape
    n = b.shape[1]
    return pl.pallas_call(
        kernel, out_shape=sds((m, n)),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0, grid=(m // 128, n // 128, k // 128),
            in_specs=[pl.BlockSpec((128, 128), lambda i, j, k: (i, k)),
                      pl.BlockSpec((128, 128), lambda i, j, k: (k, j))],
            out_specs=pl.BlockSpec((128, 128), lambda i, j, k: (i, j)),
            scratch_shapes=[pltpu.VMEM((128, 128), F32)]),
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel", "arbitrary")),
        interpret=rl.interp(interpret))(a, b)
  return f


MATMUL_TOL_SRC = ("tests/pallas/tpu_pallas_test.py / pallas_call_tpu_test matmul tests compare bf16-input "
                  "f32-accumulated kernels with np.testing.assert_allclose(..., atol=1e-2 .. 5e-2); "
                  "interpret mode on CPU runs the same jnp.dot, so we keep rtol=1e-3, atol=1e-3 "
                  "for f32 accumulation of bf16 products (see README)")

g("matmul_grid",
  "Tiled bf16 matmul 256x512 @ 512x384 -> f32, blocks 128, grid (2,3,4), f32 VMEM accumulator "
  "reset under pl.when(k == 0), written under pl.when(k == 3).",
  matmul_grid,
  lambda rng: [normal(rng, (256, 512), BF16), normal(rng, (512, 384), BF16)],
  tol=(1e-3, 1e-3), tolerance_source=MATMUL_TOL_SRC)



@contextlib.contextmanager
def tpu7x():
  with tpu_abstract_mesh("TPU7x")():
    yield


def sc_params(**kw):
  if "opt_level" in kw:
    from jax._src.tpu_custom_call import OptLevel
    kw["opt_level"] = getattr(OptLevel, kw["opt_level"])
  return pltpu.CompilerParams(**kw) if kw else None


def sc_copy(num_cores=1, **params):
  def build(interpret):
    from jax.experimental.pallas import tpu_sc as plsc

    def f(x):
      mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s",
                                    num_cores=num_cores, num_subcores=16)

      @functools.partial(pl.kernel, out_type=sds((16, 128)), mesh=mesh,
                         scratch_types=[pltpu.VMEM((16, 128), F32)],
                         compiler_params=sc_params(**params), interpret=rl.interp(interpret))
      def sc_copy(x_hbm, o_hbm, buf):
        @pl.when((lax.axis_index("c") == 0) & (lax.axis_index("s") == 0))
        def _():
          pltpu.sync_copy(x_hbm, buf)
          pltpu.sync_copy(buf, o_hbm)
      return sc_copy(x)
    return f
  return build


def export_lower(fn, args):
  return jax.export.export(jax.jit(fn), platforms=["tpu"])(
      *[sds(a.shape, a.dtype) for a in args]).mlir_module()


SC_NOTE = ("SparseCore kernel: interpret mode runs it on the CPU under the same "
           "use_abstract_mesh(AbstractDevice('TPU7x')) context the lowering needs.")
for _name, _cores, _params, _lower in [
    ("sparsecore_vector_1core", 1, {}, None),
    ("sparsecore_vector_1core_export", 1, {}, export_lower),
    ("sparsecore_vector_2cores_sc_tiling", 2, {"use_tc_tiling_on_sc": False}, None),
    ("sparsecore_vector_explicit_tc_tiling", 1, {"use_tc_tiling_on_sc": True}, None),
    ("sparsecore_vector_opt_level_export", 1, {"opt_level": "O1", "use_tc_tiling_on_sc": False},
     export_lower)]:
  g(_name, f"SparseCore vector-subcore copy x -> VMEM -> out on subcore (0, 0) of a {_cores}-core x "
    f"16-subcore mesh; params {_params}.", sc_copy(_cores, **_params),
    lambda rng: [normal(rng, (16, 128))], lower=_lower, lower_ctx=tpu7x, run_ctx=tpu7x,
    extra={"note": SC_NOTE})


def sc_scalar(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def f(x):
    mesh = plsc.ScalarSubcoreMesh(axis_name="c", num_cores=1)

    @functools.partial(pl.kernel, out_type=sds((8,), jnp.int32), mesh=mesh,
                       scratch_types=[pltpu.SMEM((8,), jnp.int32)],
                       compiler_params=sc_params(opt_level="O0", use_tc_tiling_on_sc=False),
                       interpret=rl.interp(interpret))
    def sc_scalar(x_hbm, o_hbm, buf):
      pltpu.sync_copy(x_hbm, buf)
      pltpu.sync_copy(buf, o_hbm)
    return sc_scalar(x)
  return f


g("sparsecore_scalar_opt_level_O0_sc_tiling", "SparseCore scalar-subcore copy x -> SMEM -> out.",
  sc_scalar, lambda rng: [rng.integers(-1000, 1000, (8,)).astype(np.int32)], lower_ctx=tpu7x,
  run_ctx=tpu7x, extra={"note": SC_NOTE})


def sc_scan(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def f(x, i):
    mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                  num_subcores=16)

    @functools.partial(pl.kernel, out_type=(sds((16,)), sds((16,)), sds((16,), jnp.int32)),
                       mesh=mesh, scratch_types=[pltpu.VMEM((16,), F32), pltpu.VMEM((16,), jnp.int32)],
                       interpret=rl.interp(interpret))
    def sc_scan(x_hbm, i_hbm, cumsum_hbm, cummax_hbm, max_hbm, fbuf, ibuf):
      pltpu.sync_copy(x_hbm, fbuf)
      pltpu.sync_copy(i_hbm, ibuf)
      x = fbuf[...]
      fbuf[...] = jnp.cumsum(x)
      pltpu.sync_copy(fbuf, cumsum_hbm)
      # interpret mode has no CPU rule for plsc.cummax's primitive (masked_cummax): it runs
      # lax.cummax, the same values for an all-true mask
      fbuf[...] = lax.cummax(x, axis=0) if interpret else plsc.cummax(x)
      pltpu.sync_copy(fbuf, cummax_hbm)
      ibuf[...] = jnp.broadcast_to(jnp.max(ibuf[...]), (16,))
      pltpu.sync_copy(ibuf, max_hbm)
    return sc_scan(x, i)
  return f


for _name, _ctx in [("sparsecore_scan_reduce", tpu7x), ("sparsecore_scan_reduce_v18_SYNTHETIC", None)]:
  def _lctx(_ctx=_ctx):
    if _ctx is not None:
      return _ctx()
    st = contextlib.ExitStack()
    st.enter_context(tpu7x())
    st.enter_context(ir_version_none())
    return st
  g(_name, "SparseCore: cumsum(x f32[16]), cummax(x), broadcast max(i i32[16]) on every one of the "
    "16 subcores (identical writes)" + (" (body at serde version 18)" if _ctx is None else "") + ".",
    sc_scan, lambda rng: [normal(rng, (16,)), rng.integers(-1000, 1000, (16,)).astype(np.int32)],
    lower_ctx=_lctx, run_ctx=tpu7x,
    extra={"note": SC_NOTE, "interpret_variant": (
        "plsc.cummax(x) does not run in interpret mode (NotImplementedError: MLIR translation rule "
        "for primitive 'masked_cummax' not found for platform cpu); the interpret-mode run uses "
        "lax.cummax(x, axis=0) in its place (same values: the mask is all true)")})


def mosaic_ctx():
  from jax._src import tpu_custom_call as tcc
  from jax._src.interpreters import mlir as jmlir
  from jax._src.lib import tpu as tpu_lib
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  for loader in getattr(tcc, "_extra_dialect_loaders", []):
    loader(ctx)
  return ctx


def direct(golden, out_type, equiv, **kw):
  text = json.load(open(os.path.join(GOLDENS, golden, "case.json")))["params"]["mosaic_text"]

  def build(interpret):
    if interpret:
      return equiv

    def f(*xs):
      from jax._src import tpu_custom_call as tcc
      from jaxlib.mlir import ir
      with mosaic_ctx(), ir.Location.unknown():
        module = ir.Module.parse(text)
        return tcc.as_tpu_kernel(module, out_type, **kw)(*xs)
    return f
  return build


DIRECT_NOTE = ("Not a Pallas kernel: the module is as_tpu_kernel of the golden's Mosaic text; interpret "
               "mode only runs Pallas kernels (it interprets their jaxpr), so the outputs come from "
               "interpret mode running an equivalent Pallas kernel (`pallas_equivalent`).")


def direct_add_equiv(x, y):
  return pl.pallas_call(_add_kernel, out_shape=sds((8, 128)), interpret=rl.interp(True))(x, y)


g("direct_as_tpu_kernel", "x + y via as_tpu_kernel (vector.store, not tpu.vector_store).",
  direct("direct_as_tpu_kernel", sds((8, 128)), direct_add_equiv), two_8x128,
  extra={"note": DIRECT_NOTE, "pallas_equivalent": "o_ref[...] = x_ref[...] + y_ref[...]"})


def reduce_scan_kernel(x_ref, i_ref, of_ref, oi_ref):
  x = x_ref[...]
  i = i_ref[...]
  rmax = jnp.max(x, axis=1, keepdims=True)
  rmin = jnp.min(i, axis=1, keepdims=True)
  rsum = jnp.sum(x, axis=1, keepdims=True)
  smin = lax.cummin(x, axis=1)
  smaxu = lax.bitcast_convert_type(
      lax.cummax(lax.bitcast_convert_type(i, jnp.uint32), axis=1), jnp.int32)
  ssum = lax.cumsum(x, axis=1)
  of_ref[...] = smin + rmax + ssum + rsum
  oi_ref[...] = smaxu + rmin


def reduce_scan_equiv(x, i):
  return pl.pallas_call(reduce_scan_kernel, out_shape=(sds((8, 128)), sds((8, 128), jnp.int32)),
                        interpret=rl.interp(True))(x, i)


g("direct_tpu_reduce_scan",
  "as_tpu_kernel with tpu.reduce (maxf, minsi, sum over dim 1) and tpu.scan (minf, maxui = unsigned, "
  "sum over dim 1): out0 = cummin(x) + rowmax(x) + cumsum(x) + rowsum(x), out1 = cummax_unsigned(i) "
  "+ rowmin_signed(i).",
  direct("direct_tpu_reduce_scan", (sds((8, 128)), sds((8, 128), jnp.int32)), reduce_scan_equiv,
         kernel_name="direct_reduce_scan"),
  lambda rng: [normal(rng, (8, 128)), rng.integers(-2**31, 2**31 - 1, (8, 128), dtype=np.int64)
               .astype(np.int32)],
  tol=[(1e-5, 1e-4), (0.0, 0.0)],
  tolerance_source="f32 sums in a different association order (tpu.reduce/scan vs jnp.sum/cumsum "
                   "on CPU): rtol 1e-5, atol 1e-4 over 128 terms of N(0,1); integer output exact",
  extra={"note": DIRECT_NOTE, "pallas_equivalent": "see reduce_scan_kernel in make_refs.py"})


# ============================================================================================
# c. small kernels for distinct semantics (sem_*)

def sem(name, desc, build, inputs, tol=(0.0, 0.0), tol_src=None, **kw):
  return case(Case(name=f"sem_{name}", source=f"sem:make_refs.py sem_{name}", description=desc,
                   build=build, inputs=inputs, tol=tol, tolerance_source=tol_src, kind="sem", **kw))


def call(kernel, out_shape, interpret, **kw):
  return pl.pallas_call(kernel, out_shape=out_shape, interpret=rl.interp(interpret), **kw)


def masked_store(interpret):
  def kernel(x_ref, o_ref):
    o_ref[...] = jnp.zeros_like(o_ref)
    x = x_ref[...]
    pltpu.store(o_ref, x * 3.0, mask=x > 0)
  return lambda x: call(kernel, sds((8, 128)), interpret)(x)


sem("masked_store", "o = 0, then pltpu.store(o, 3x, mask=x > 0) (masked vector store).",
    masked_store, one_8x128)


def when_acc(interpret):
  def kernel(x_ref, o_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
      o_ref[...] = jnp.zeros_like(o_ref)
    o_ref[...] += x_ref[...]
  return lambda x: call(kernel, sds((8, 128)), interpret, grid=(4,),
                        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                        out_specs=pl.BlockSpec((8, 128), lambda i: (0, 0)),
                        compiler_params=pltpu.CompilerParams(dimension_semantics=("arbitrary",)))(x)


sem("when_accumulator", "Output block revisited over an 'arbitrary' grid of 4: zeroed under "
    "pl.when(i == 0), then o += x block i (x 32x128 -> o 8x128 sum of the 4 blocks). f32 adds in "
    "grid order.", when_acc, lambda rng: [normal(rng, (32, 128))])


def fori(interpret):
  def kernel(x_ref, o_ref):
    def body(i, carry):
      row = x_ref[pl.ds(i, 1), :]
      o_ref[pl.ds(i, 1), :] = carry * 0.5 + row
      return carry * 0.5 + row
    lax.fori_loop(0, 16, body, jnp.zeros((1, 128), F32))
  return lambda x: call(kernel, sds((16, 128)), interpret)(x)


sem("fori_loop", "lax.fori_loop over 16 rows with a carried (1, 128) vector and dynamic pl.ds row "
    "loads/stores: o[i] = 0.5 * o[i-1] + x[i].", fori, lambda rng: [normal(rng, (16, 128))])


def prefetch_gather(interpret):
  def kernel(idx_ref, s_ref, x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[...] = x_ref[...] * s_ref[i] + idx_ref[i].astype(F32)
  return lambda idx, sc, x: pl.pallas_call(
      kernel, out_shape=sds((48, 128)),
      grid_spec=pltpu.PrefetchScalarGridSpec(
          num_scalar_prefetch=2, grid=(6,),
          in_specs=[pl.BlockSpec((8, 128), lambda i, idx, sc: (idx[i], 0))],
          out_specs=pl.BlockSpec((8, 128), lambda i, idx, sc: (i, 0))),
      interpret=rl.interp(interpret))(idx, sc, x)


sem("scalar_prefetch_gather", "Two scalar-prefetch operands (int32 block indices, f32 scales): out "
    "block i = x block idx[i] * scale[i] + idx[i]; the index map and the body both read SMEM.",
    prefetch_gather, lambda rng: [np.array([3, 3, 0, 1, 2, 0], np.int32),
                                  normal(rng, (6,)), normal(rng, (32, 128))])


def alias_partial(interpret):
  def kernel(x_ref, o_ref):
    o_ref[...] = -x_ref[...]
  return lambda x: call(kernel, sds((32, 128)), interpret, grid=(2,),
                        in_specs=[pl.BlockSpec((8, 128), lambda i: (2 * i, 0))],
                        out_specs=pl.BlockSpec((8, 128), lambda i: (2 * i, 0)),
                        input_output_aliases={0: 0})(x)


sem("input_output_alias_partial", "input_output_aliases={0: 0} with a grid that only visits blocks 0 "
    "and 2 of 4: those become -x, blocks 1 and 3 keep the input's values (the output IS the input "
    "buffer).", alias_partial, lambda rng: [normal(rng, (32, 128))])


def manual_dma(interpret):
  def kernel(x_hbm, o_ref, buf, sems):
    # double-buffered manual DMA from ANY (HBM) into VMEM scratch
    nb = 4
    pltpu.make_async_copy(x_hbm.at[pl.ds(0, 8)], buf.at[0], sems.at[0]).start()

    def body(i, acc):
      slot = i % 2

      @pl.when(i + 1 < nb)
      def _():
        pltpu.make_async_copy(x_hbm.at[pl.ds((i + 1) * 8, 8)], buf.at[1 - slot],
                              sems.at[1 - slot]).start()
      pltpu.make_async_copy(x_hbm.at[pl.ds(i * 8, 8)], buf.at[slot], sems.at[slot]).wait()
      return acc + buf[slot] * (i + 1).astype(F32)
    o_ref[...] = lax.fori_loop(0, nb, body, jnp.zeros((8, 128), F32))
  return lambda x: call(kernel, sds((8, 128)), interpret,
                        in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                        scratch_shapes=[pltpu.VMEM((2, 8, 128), F32),
                                        pltpu.SemaphoreType.DMA((2,))])(x)


sem("manual_dma_double_buffer", "x in pl.ANY (HBM); double-buffered pltpu.make_async_copy of its "
    "four 8x128 row blocks into a (2, 8, 128) VMEM scratch with two DMA semaphores, start/wait in a "
    "fori_loop: o = sum_i (i + 1) * x block i.", manual_dma, lambda rng: [normal(rng, (32, 128))])


def partial_block(interpret):
  def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0 + 1.0
  return lambda x: call(kernel, sds(x.shape), interpret, grid=(pl.cdiv(x.shape[0], 8),),
                        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x)


sem("cdiv_partial_block", "x 20x128, blocks 8x128, grid pl.cdiv(20, 8) = 3: the last block is "
    "partial (rows 16..19 real, 4 padding rows); elementwise 2x + 1, only real rows reach the output.",
    partial_block, lambda rng: [normal(rng, (20, 128))])


def partial_block_reduce(interpret):
  def kernel(x_ref, o_ref):
    o_ref[...] = jnp.broadcast_to(jnp.sum(x_ref[...], axis=0, keepdims=True), (8, 128))
  return lambda x: call(kernel, sds((24, 128)), interpret, grid=(3,),
                        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x)


sem("partial_block_reads_padding", "x 20x128 in 8-row blocks (grid 3): each output block is the "
    "column sum of its input block. The last input block has 4 padding rows, which interpret mode "
    "fills with NaN (uninitialized_memory='nan'), so output rows 16..23 are NaN. On a TPU those rows "
    "read whatever is in VMEM: the executor must reproduce interpret mode's NaN padding to match.",
    partial_block_reduce, lambda rng: [normal(rng, (20, 128))])


def int_wrap(interpret):
  def kernel(a8, b8, au8, bu8, a32, b32, o8, ou8, o32):
    o8[...] = a8[...] * b8[...] + a8[...]
    ou8[...] = au8[...] * bu8[...] - bu8[...]
    o32[...] = a32[...] * b32[...] + a32[...]
  shp = (32, 128)
  return lambda *xs: call(kernel, (sds(shp, jnp.int8), sds(shp, jnp.uint8), sds((8, 128), jnp.int32)),
                          interpret)(*xs)


sem("int_wraparound", "int8: a*b + a, uint8: a*b - b, int32: a*b + a, all wrapping modulo 2^n "
    "(two's complement).", int_wrap,
    lambda rng: [rng.integers(-128, 128, (32, 128)).astype(np.int8),
                 rng.integers(-128, 128, (32, 128)).astype(np.int8),
                 rng.integers(0, 256, (32, 128)).astype(np.uint8),
                 rng.integers(0, 256, (32, 128)).astype(np.uint8),
                 rng.integers(-2**31, 2**31, (8, 128), dtype=np.int64).astype(np.int32),
                 rng.integers(-2**31, 2**31, (8, 128), dtype=np.int64).astype(np.int32)])


def transc(interpret):
  def kernel(x_ref, oe, ot, ol):
    x = x_ref[...]
    oe[...] = jnp.exp(x)
    ot[...] = jnp.tanh(x)
    ol[...] = jnp.log(jnp.abs(x) + 0.5)
  return lambda x: call(kernel, (sds((8, 128)),) * 3, interpret)(x)


TRANSC_TOL = ("tests/pallas/ops_test.py elementwise tests (OpsTest.test_elementwise*) compare "
              "exp/tanh/log with the XLA result at rtol 1e-6 for float32 on TPU "
              "(jax-ml/jax cec06d1); we allow rtol 2e-6, atol 1e-6 for the executor's libm")

sem("transcendentals", "exp(x), tanh(x), log(|x| + 0.5) on f32 x ~ 2 N(0,1).", transc,
    lambda rng: [normal(rng, (8, 128), scale=2.0)], tol=(2e-6, 1e-6), tol_src=TRANSC_TOL)


def reductions(interpret):
  def kernel(x_ref, i_ref, omax, osum, omin):
    x = x_ref[...]
    omax[...] = jnp.broadcast_to(jnp.max(x, axis=1, keepdims=True), (16, 128))
    osum[...] = jnp.broadcast_to(jnp.sum(x, axis=0, keepdims=True), (16, 128))
    omin[...] = jnp.broadcast_to(jnp.min(i_ref[...], axis=1, keepdims=True), (16, 128))
  return lambda x, i: call(kernel, (sds((16, 128)), sds((16, 128)), sds((16, 128), jnp.int32)),
                           interpret)(x, i)


sem("reductions_keepdims", "jnp.max(x, axis=1, keepdims=True), jnp.sum(x, axis=0, keepdims=True) "
    "(f32, order-dependent), jnp.min(i, axis=1, keepdims=True) (int32), broadcast back.",
    reductions, lambda rng: [normal(rng, (16, 128)),
                             rng.integers(-1000, 1000, (16, 128)).astype(np.int32)],
    tol=[(0.0, 0.0), (1e-6, 1e-5), (0.0, 0.0)],
    tol_src="max/min exact; the 16-term f32 column sum may associate differently: rtol 1e-6, "
            "atol 1e-5")


def dots(interpret):
  def kernel(a_ref, b_ref, c_ref, d_ref, of, oi):
    of[...] = jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    oi[...] = jnp.dot(c_ref[...], d_ref[...], preferred_element_type=jnp.int32)
  return lambda a, b, c, d: call(kernel, (sds((128, 128)), sds((128, 128), jnp.int32)),
                                 interpret)(a, b, c, d)


sem("dot_preferred_type", "jnp.dot(bf16, bf16, preferred_element_type=f32) and jnp.dot(int8, int8, "
    "preferred_element_type=int32), 128x128x128.", dots,
    lambda rng: [normal(rng, (128, 128), BF16), normal(rng, (128, 128), BF16),
                 rng.integers(-128, 128, (128, 128)).astype(np.int8),
                 rng.integers(-128, 128, (128, 128)).astype(np.int8)],
    tol=[(1e-5, 1e-4), (0.0, 0.0)],
    tol_src="bf16 x bf16 products are exact in f32; only the f32 summation order differs "
            "(rtol 1e-5, atol 1e-4 over 128 terms); int8 -> int32 exact")


def roll_iota(interpret):
  def kernel(x_ref, o1, o2, o3):
    x = x_ref[...]
    o1[...] = pltpu.roll(x, 3, 1)
    o2[...] = pltpu.roll(x, 5, 0)
    o3[...] = (lax.broadcasted_iota(jnp.int32, (8, 128), 0) * 1000 +
               lax.broadcasted_iota(jnp.int32, (8, 128), 1))
  return lambda x: call(kernel, (sds((8, 128)), sds((8, 128)), sds((8, 128), jnp.int32)),
                        interpret)(x)


sem("roll_iota", "pltpu.roll(x, 3, axis=1), pltpu.roll(x, 5, axis=0) (jnp.roll direction: element "
    "i moves to i + shift), and 1000 * iota(0) + iota(1).", roll_iota, one_8x128)


def parallel_2d(interpret):
  def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + (pl.program_id(0) * 10 + pl.program_id(1)).astype(F32)
  return lambda x: call(kernel, sds((16, 256)), interpret, grid=(2, 2),
                        in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],
                        out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
                        compiler_params=pltpu.CompilerParams(
                            dimension_semantics=("parallel", "parallel")))(x)


sem("program_id_2d", "2-D parallel grid (2, 2): o block (i, j) = x block (i, j) + 10 i + j.",
    parallel_2d, lambda rng: [normal(rng, (16, 256))])


# ============================================================================================
# b. production kernels (jax.experimental.pallas.ops.tpu), one case per pallas_call

import copy  # noqa: E402

import production as prod  # noqa: E402


def shift_in_spec(call, which: int, dim: int, nblocks: int, by: int = 1) -> dict:
  """kwargs for the captured pallas_call with in_specs[which]'s index map shifted by `by` blocks
  (mod nblocks) along block dimension `dim`: still in bounds, wrong block."""
  kw = call["kwargs"]

  def shifted(spec):
    im = spec.index_map

    def new_im(*a):
      r = list(im(*a))
      r[dim] = lax.rem(r[dim] + by, nblocks)
      return tuple(r)
    return pl.BlockSpec(spec.block_shape, new_im, memory_space=spec.memory_space,
                        pipeline_mode=spec.pipeline_mode)
  if "grid_spec" in kw and kw["grid_spec"] is not None:
    gs = copy.copy(kw["grid_spec"])
    specs = list(gs.in_specs)
    specs[which] = shifted(specs[which])
    gs.in_specs = tuple(specs)
    return {"grid_spec": gs}
  specs = list(kw["in_specs"])
  specs[which] = shifted(specs[which])
  return {"in_specs": type(kw["in_specs"])(specs) if isinstance(kw["in_specs"], (list, tuple)) else specs}


class Prod:
  """A production entry point run once (cached) with captured pallas_calls."""

  def __init__(self, name, fn):
    self.name, self.fn, self._cap = name, fn, None

  def calls(self):
    if self._cap is None:
      self._cap = self.fn(seeded(self.name))
    return self._cap


def prod_case(name, source, desc, p: Prod, index: int, tol, tol_src, mutants=(), extra=None,
              devices=1):
  extra = dict(extra or {})
  extra.setdefault("captured", f"pallas_call #{index} of the production call, with its operands "
                                "(refs_lib.pallas_mode capture, production.py)")

  def build(interpret):
    return prod.rebuild(p.calls()[index])(interpret)

  def dyn_bounds():
    call = p.calls()[index]
    kw = call["kwargs"]
    grid = (kw["grid_spec"].grid if kw.get("grid_spec") is not None else kw.get("grid", ())) or ()
    return [np.asarray(d, np.int32) for d in grid if not isinstance(d, (int, np.integer))]

  def fn_args():
    n = len(dyn_bounds())
    return None if n == 0 else list(range(n, n + len(p.calls()[index]["operands"])))

  def inputs(rng):
    dyn = dyn_bounds()
    if dyn:
      # a grid bound that is an array (not a Python int) is a dynamic grid bound: JAX passes it to
      # the custom call as a leading tensor<i32> operand
      extra["dynamic_grid_operands"] = (
          f"in0..in{len(dyn) - 1}: the dynamic grid bound(s) (a constant in the module, the custom "
          "call's leading tensor<i32> operand(s)); the function takes the other inputs")
    return dyn + list(p.calls()[index]["operands"])
  muts = [Mutant(m[0], m[1], m[2], (lambda mk: (lambda i: mk(p.calls()[index])(i)))(m[3]))
          for m in mutants]
  return case(Case(name=name, source=source, description=desc, build=build, inputs=inputs, tol=tol,
                   tolerance_source=tol_src, mutants=muts, extra=extra, kind="production",
                   devices=devices, fn_args=fn_args))


def mut_kernel_src(fn_getter, replacements, module=None, attr=None):
  """Mutant builder: the captured call with its kernel function (or a module-level helper it calls)
  recompiled from source with textual replacements."""
  def mk(call):
    kern = call["args"][0]
    if module is not None:
      new_helper = prod.mutate_source(getattr(module, attr), replacements)
      return prod.with_patch(prod.rebuild(call, kernel=prod.fresh(kern)), module, **{attr: new_helper})
    base = kern.func if isinstance(kern, functools.partial) else kern
    new = prod.mutate_source(base, replacements)
    if isinstance(kern, functools.partial):
      new = functools.partial(new, *kern.args, **kern.keywords)
    return prod.rebuild(call, kernel=new)
  return mk


def mut_shift(which, dim, nblocks, by=1):
  return lambda call: prod.rebuild(call, **shift_in_spec(call, which, dim, nblocks, by))


# --- tiled matmul
from jax.experimental.pallas.ops.tpu import matmul as mm_mod  # noqa: E402

MM_TOL = ("tests/pallas/tpu_gmm_test.py:132-143 tolerances() (the megablox matmul test): bf16 "
          "atol 1e-3 / rtol 1e-2, f32 atol 1e-3 / rtol 1e-5 (jax-ml/jax cec06d1)")


def mm_prod(m, k, n, dtype, bs, bk):
  def run(rng):
    x = normal(rng, (m, k), dtype)
    y = normal(rng, (k, n), dtype)
    return prod.capture(mm_mod.matmul, jnp.asarray(x), jnp.asarray(y), block_shape=bs, block_k=bk)
  return run


MM_MUTANTS = [
    ("acc_reset_never", "accumulator reset removed (pl.when(k == 0) init never runs: the VMEM "
     "scratch keeps its uninitialized / previous contents)",
     "matmul_kernel with `@pl.when(pl.program_id(2) == 0)` -> `@pl.when(pl.program_id(2) == -1)`",
     mut_kernel_src(None, [("pl.program_id(2) == 0", "pl.program_id(2) == -1")])),
    ("operands_swapped", "matmul operands swapped (square 128x128 blocks, so shapes still check)",
     "matmul_kernel with jnp.dot(y_tile_ref[...], x_tile_ref[...]) instead of (x, y)",
     mut_kernel_src(None, [("x_tile_ref[...],\n      y_tile_ref[...],",
                            "y_tile_ref[...],\n      x_tile_ref[...],")])),
]

for _name, _m, _k, _n, _dt, _tol in [("matmul_f32", 128, 256, 256, np.float32, (1e-5, 1e-3)),
                                      ("matmul_bf16", 256, 256, 256, BF16, (1e-2, 1e-3))]:
  _p = Prod(_name, mm_prod(_m, _k, _n, _dt, (128, 128), 128))
  _nk = _k // 128
  prod_case(_name, "production:jax.experimental.pallas.ops.tpu.matmul.matmul",
            f"Tiled matmul {_m}x{_k} @ {_k}x{_n} {rl.dtype_name(_dt)} -> {rl.dtype_name(_dt)}, "
            f"block_shape (128, 128), block_k 128, grid ({_m // 128}, {_n // 128}, {_nk}); f32 "
            "VMEM accumulator; output written every k step.", _p, 0, _tol, MM_TOL,
            mutants=MM_MUTANTS + [
                ("x_index_map_shifted", "index map shifted within bounds (x block (i, k) -> "
                 "(i, (k+1) % nk))", "in_specs[0] index map lambda i, _, k: (i, (k + 1) % nk)",
                 mut_shift(0, 1, _nk))])


# --- flash attention
from jax.experimental.pallas.ops.tpu import flash_attention as fa_mod  # noqa: E402

FA_TOL_SRC = ("jax has no test of ops/tpu/flash_attention.py in tests/pallas; the closest is "
              "tests/pallas/tpu_splash_attention_kernel_test.py:415 (forward output vs reference: "
              "atol 3e-3, rtol 3e-3) (jax-ml/jax cec06d1)")


def fa_blocks(b):
  return fa_mod.BlockSizes(block_q=b, block_k_major=b, block_k=b, block_b=1,
                           block_q_major_dkv=b, block_k_major_dkv=b, block_k_dkv=b, block_q_dkv=b,
                           block_k_major_dq=b, block_k_dq=b, block_q_dq=b)


def fa_fwd(shape, causal):
  def run(rng):
    q, k, v = (jnp.asarray(normal(rng, shape)) for _ in range(3))
    return prod.capture(fa_mod.flash_attention, q, k, v, causal=causal, sm_scale=0.125,
                        block_sizes=fa_blocks(128))
  return run


FA_KERNEL_MUTANTS = [
    ("rescale_removed", "online-softmax accumulator correction removed (acc not rescaled by "
     "l_corr / l_next when a new kv block raises the running max)",
     "_flash_attention_kernel_single_batch without `acc_scratch_ref[batch_idx] *= "
     "l_broadcast(l_corr * l_next_inv_safe)`",
     mut_kernel_src(None, [("acc_scratch_ref[batch_idx] *= l_broadcast(l_corr * l_next_inv_safe)",
                            "pass")], module=fa_mod, attr="_flash_attention_kernel_single_batch")),
    ("stale_max_in_exp", "exp(s - m_prev) instead of exp(s - m_next) (stale running max)",
     "_flash_attention_kernel_single_batch with `p = jnp.exp(s - jnp.tile(m_prev, ...))`",
     mut_kernel_src(None, [("p = jnp.exp(s - jnp.tile(m_next, (1, block_k_repeats)))",
                            "p = jnp.exp(s - jnp.tile(m_prev, (1, block_k_repeats)))")],
                    module=fa_mod, attr="_flash_attention_kernel_single_batch")),
]

_fa = Prod("flash_attention_fwd", fa_fwd((1, 2, 256, 32), False))
prod_case("flash_attention_fwd", "production:jax.experimental.pallas.ops.tpu.flash_attention.flash_attention",
          "Flash attention forward, non-causal, f32 q/k/v [1, 2, 256, 32], sm_scale 0.125, all "
          "blocks 128: grid (1, 2, 2, 2) over (batch, head, q block, kv block).", _fa, 0,
          (3e-3, 3e-3), FA_TOL_SRC,
          mutants=FA_KERNEL_MUTANTS + [
              ("k_index_map_shifted", "k index map shifted within bounds (kv block j -> (j+1) % 2; "
               "v keeps j)", "in_specs[1] index map with the kv block index + 1 mod 2",
               mut_shift(1, 2, 2))])
_fac = Prod("flash_attention_fwd_causal", fa_fwd((1, 1, 256, 64), True))
prod_case("flash_attention_fwd_causal",
          "production:jax.experimental.pallas.ops.tpu.flash_attention.flash_attention",
          "Flash attention forward, causal, f32 [1, 1, 256, 64], sm_scale 0.125, blocks 128 "
          "(the kv block above the diagonal is skipped by pl.when).", _fac, 0, (3e-3, 3e-3), FA_TOL_SRC,
          mutants=FA_KERNEL_MUTANTS + [
              ("causal_mask_flipped", "causal mask flipped (col >= row instead of col <= row)",
               "_flash_attention_kernel_single_batch with `causal_mask = col_ids >= row_ids`",
               mut_kernel_src(None, [("causal_mask = col_ids <= row_ids",
                                      "causal_mask = col_ids >= row_ids")],
                              module=fa_mod, attr="_flash_attention_kernel_single_batch"))])


# --- flash attention backward (dkv and dq kernels), captured from jax.grad
FA_BWD_TOL_SRC = ("tests/pallas/tpu_splash_attention_kernel_test.py:575-577 (gradient tolerances of "
                  "the splash backward kernels: dv atol/rtol 4e-3, dq and dk 0.05) (jax-ml/jax "
                  "cec06d1)")


def fa_bwd(rng):
  shape = (1, 1, 256, 32)
  q, k, v, do = (jnp.asarray(normal(rng, shape)) for _ in range(4))

  def loss(q, k, v):
    o = fa_mod.flash_attention(q, k, v, causal=True, sm_scale=0.125, block_sizes=fa_blocks(128))
    return jnp.sum(o * do)
  return prod.capture(jax.grad(loss, argnums=(0, 1, 2)), q, k, v)


_fab = Prod("flash_attention_bwd", fa_bwd)
prod_case("flash_attention_bwd_dkv",
          "production:jax.experimental.pallas.ops.tpu.flash_attention._flash_attention_bwd_dkv",
          "Flash attention backward dK/dV kernel (causal, f32 [1, 1, 256, 32], blocks 128), "
          "captured from jax.grad of sum(flash_attention(q, k, v) * do): the grad runs three "
          "pallas_calls (forward with residuals, dkv, dq); this is #1, dkv. Operands: q, k, v, "
          "ab (none), segment ids (none), l, m, do, di.", _fab, 1,
          [(5e-2, 5e-2), (4e-3, 4e-3)], FA_BWD_TOL_SRC,
          mutants=[("dkv_causal_mask_flipped", "causal mask flipped in the dkv kernel",
                    "_flash_attention_dkv_kernel with `mask = col_ids >= row_ids` ... see python",
                    mut_kernel_src(None, [("causal_mask = col_ids <= row_ids",
                                           "causal_mask = col_ids >= row_ids")]))],
          extra={"pallas_calls_in_production_call": 3})
prod_case("flash_attention_bwd_dq",
          "production:jax.experimental.pallas.ops.tpu.flash_attention._flash_attention_bwd_dq",
          "Flash attention backward dQ kernel, pallas_call #2 of the same jax.grad (see "
          "flash_attention_bwd_dkv). Outputs: dq and ds (ds unused: None output spec).", _fab, 2,
          (5e-2, 5e-2), FA_BWD_TOL_SRC, extra={"pallas_calls_in_production_call": 3})


# --- megablox gmm
import importlib  # noqa: E402

gmm_mod = importlib.import_module("jax.experimental.pallas.ops.tpu.megablox.gmm")

GMM_TOL_SRC = "tests/pallas/tpu_gmm_test.py:132-143 tolerances(): bf16 atol 1e-3 / rtol 1e-2 (jax-ml/jax cec06d1)"


def gmm_run(rng):
  m, k, n, g = 384, 128, 128, 4
  lhs = jnp.asarray(normal(rng, (m, k), BF16))
  rhs = jnp.asarray(normal(rng, (g, k, n), BF16))
  group_sizes = jnp.asarray(np.array([100, 0, 200, 84], np.int32))
  return prod.capture(gmm_mod.gmm, lhs, rhs, group_sizes, preferred_element_type=jnp.float32,
                      tiling=(128, 128, 128))


_gmm = Prod("megablox_gmm", gmm_run)
prod_case("megablox_gmm", "production:jax.experimental.pallas.ops.tpu.megablox.gmm.gmm",
          "Grouped matmul: lhs bf16 [384, 128] split into groups of sizes [100, 0, 200, 84] (an "
          "empty group and groups straddling 128-row tiles), rhs bf16 [4, 128, 128], f32 out, "
          "tiling (128, 128, 128). Scalar-prefetch operands: group_offsets, group_ids, m_tile_ids, "
          "group_offset (the custom call's first operands).", _gmm, 0, (1e-2, 1e-3), GMM_TOL_SRC,
          mutants=[("group_mask_removed", "rows outside the group not masked (mask flipped to "
                    "all-true at tile boundaries)",
                    "_mask / masked store in the gmm kernel: `mask = jnp.logical_and(iota >= "
                    "group_start, iota < group_end)` replaced by iota >= 0",
                    mut_kernel_src(None, [("jnp.logical_and(iota >= group_start, iota < group_end)",
                                           "iota >= 0")], module=gmm_mod, attr="_get_store_mask"))])


# --- paged attention
from jax.experimental.pallas.ops.tpu.paged_attention import paged_attention_kernel as pa_mod  # noqa: E402

PA_TOL_SRC = ("tests/pallas/tpu_paged_attention_kernel_test.py:181 (f32: atol 2e-3, rtol 2e-3) "
              "(jax-ml/jax cec06d1)")


def pa_run(rng):
  batch, q_heads, kv_heads, d, page_size, pages_per_seq, total_pages = 2, 4, 2, 128, 16, 4, 8
  q = jnp.asarray(normal(rng, (batch, q_heads, d)))
  k_pages = jnp.asarray(normal(rng, (kv_heads, total_pages, page_size, d)))
  v_pages = jnp.asarray(normal(rng, (kv_heads, total_pages, page_size, d)))
  lengths = jnp.asarray(np.array([37, 64], np.int32))
  page_indices = jnp.asarray(rng.permutation(total_pages)[:batch * pages_per_seq]
                             .reshape(batch, pages_per_seq).astype(np.int32))
  return prod.capture(pa_mod.paged_attention, q, k_pages, v_pages, lengths, page_indices,
                      pages_per_compute_block=2)


_pa = Prod("paged_attention", pa_run)
prod_case("paged_attention", "production:jax.experimental.pallas.ops.tpu.paged_attention.paged_attention",
          "Paged grouped-query attention: q f32 [2, 4, 128], k/v pages f32 [2 kv heads, 8 pages, "
          "16, 128], lengths [37, 64], permuted page table [2, 4], pages_per_compute_block 2. "
          "Scalar prefetch: lengths, page_indices, buffer index, step.", _pa, 0, (2e-3, 2e-3), PA_TOL_SRC,
          mutants=[("length_mask_off_by_one", "sequence-length mask off by one (attends to one "
                    "position past the length)", "paged_flash_attention_kernel: `mask = i * bk + "
                    "iota < length` -> `<= length`",
                    mut_kernel_src(None, [("jax.lax.broadcasted_iota(jnp.int32, qk.shape, 1) < length",
                                           "jax.lax.broadcasted_iota(jnp.int32, qk.shape, 1) <= length")],
                                   module=pa_mod, attr="paged_flash_attention_kernel"))])


# --- splash attention (forward, causal mask)
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_kernel as sa_mod  # noqa: E402
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_mask as sa_mask  # noqa: E402

SA_TOL_SRC = ("tests/pallas/tpu_splash_attention_kernel_test.py:415 (forward output: atol 3e-3, "
              "rtol 3e-3) (jax-ml/jax cec06d1)")


def sa_run(rng):
  heads, seq, d = 1, 256, 64
  mask = sa_mask.MultiHeadMask([sa_mask.CausalMask((seq, seq)) for _ in range(heads)])
  bs = sa_mod.BlockSizes(block_q=128, block_kv=128, block_kv_compute=128)
  kernel = sa_mod.make_splash_mha_single_device(mask, block_sizes=bs)
  q, k, v = (jnp.asarray(normal(rng, (heads, seq, d))) for _ in range(3))
  return prod.capture(kernel, q, k, v)


_sa = Prod("splash_attention_fwd", sa_run)
prod_case("splash_attention_fwd",
          "production:jax.experimental.pallas.ops.tpu.splash_attention.make_splash_mha_single_device",
          "Splash attention forward, causal MultiHeadMask, f32 q/k/v [1 head, 256, 64], blocks "
          "128. Scalar-prefetch operands: the mask info (data_next, mask_next, block_mask) the "
          "production wrapper computes; then q, k, v, mask blocks, q_sequence.", _sa, 0,
          (3e-3, 3e-3), SA_TOL_SRC,
          mutants=[("q_index_map_shifted", "q index map shifted within bounds (q block i -> "
                    "(i + 1) % 2)", "in_specs[0] (q) index map with the q block index + 1 mod 2",
                    mut_shift(0, 1, 2))])


# --- ragged paged attention: interpret mode cannot run it
NOT_RUNNABLE["ragged_paged_attention (production)"] = (
    "jax.experimental.pallas.ops.tpu.ragged_paged_attention.kernel.ragged_paged_attention "
    "(2 sequences, f32 [32, 4, 128] q, [16, 16, 4, 128] kv pages): interpret mode raises "
    "AttributeError: 'ReshapeTransform' object has no attribute 'indices' "
    "(jax/_src/pallas/mosaic/interpret/utils.py:441 to_range, called from "
    "interpret_pallas_call.py:669 get): the kernel reads a reshaped ref (ref.reshape(...)) "
    "and interpret mode's memory model only handles indexer transforms")


# --- PRNG (threefry) kernel
from jax.experimental.pallas.ops.tpu.random import threefry as tf_mod  # noqa: E402


def tf_run(rng):
  key = jax.random.key_data(jax.random.key(42, impl="threefry2x32"))
  return prod.capture(
      lambda k: tf_mod.threefry_2x32_count(k, (16, 256), (16, 256), block_size=(8, 128)), key)


_tf = Prod("prng_threefry", tf_run)
prod_case("prng_threefry", "production:jax.experimental.pallas.ops.tpu.random.threefry.threefry_2x32_count",
          "Threefry-2x32 counter-mode random bits [16, 256] in (8, 128) blocks (grid (2, 2)): pure "
          "integer arithmetic in the kernel (no hardware PRNG), so exact.", _tf, 0, (0.0, 0.0), None)


# --- all_gather on 4 devices
from jax.experimental.pallas.ops.tpu import all_gather as ag_mod  # noqa: E402


def all_gather_build(interpret):
  def f(x):
    with rl.pallas_mode(interpret):
      # all_gather is jax.jit-decorated: call the undecorated function so its jit cache cannot
      # return the other mode's trace
      return ag_mod.all_gather.__wrapped__(x, mesh=mesh4(), axis_name="x")
  return f


NOT_RUNNABLE["all_gather (production)"] = (
    "jax.experimental.pallas.ops.tpu.all_gather.all_gather on 4 CPU devices (shard_map, x [32, 128] "
    "f32 sharded 4 ways, out_specs P(None)): interpret mode runs it without an error but the "
    "result is not reproducible: two runs of the same inputs returned the gathered [32, 128] with "
    "different 8x128 blocks still NaN (uninitialized_memory='nan'), 512 vs 1024 NaNs. The "
    "replicated result is one device's output, and the blocks its kernel receives by remote DMA "
    "are not all written when that device's kernel returns. `all_gather_build` in make_refs.py "
    "keeps the case definition; it is not registered")


# ============================================================================================
# d. op coverage (op_*): the smallest kernels whose TPU lowering contains a given Mosaic op the
# executor may not run yet. extra["ops"] lists the ops of interest; write_case checks that the
# decoded kernel contains each of them. extra["semantics"]: what the op computes, from interpret
# mode / the lowering rule (jax 0.12.0.1 paths under jax/_src/pallas/mosaic/).
import re  # noqa: E402

from jax._src.pallas.mosaic import primitives as tpu_prims  # noqa: E402
from jax._src.pallas.mosaic.interpret import interpret_pallas_call as ipc  # noqa: E402

U = {8: jnp.uint8, 16: jnp.uint16, 32: jnp.uint32}


def _bits(dt):
  return jnp.dtype(dt).itemsize * 8


# interpret mode has no rule for pack_elementwise / unpack_elementwise ("MLIR translation rule for
# primitive 'pack_elementwise' not found for platform cpu"); its documented hook for primitives with
# only a Mosaic lowering, register_tpu_interpret_impl (interpret_pallas_call.py:1309-1320), gets the
# expected values of JAX's own test (tests/pallas/tpu_ops_test.py:887-905, :998).
@ipc.register_tpu_interpret_impl(tpu_prims.pack_elementwise_p)
def _pack_elementwise_impl(*xs, packed_dtype):
  w, pw = _bits(xs[0].dtype), _bits(packed_dtype)
  out = jnp.zeros(xs[0].shape, jnp.uint32)
  for i, x in enumerate(xs):
    part = x.astype(packed_dtype).view(U[pw]).astype(jnp.uint32)
    out = out | (part << jnp.uint32(i * pw))
  return out.astype(U[w])


@ipc.register_tpu_interpret_impl(tpu_prims.unpack_elementwise_p)
def _unpack_elementwise_impl(x, *, index, packed_dtype, unpacked_dtype):
  pw = _bits(packed_dtype)
  part = (x.view(U[_bits(x.dtype)]).astype(jnp.uint32) >> jnp.uint32(index * pw)) & jnp.uint32(
      (1 << pw) - 1)
  return part.astype(U[pw]).view(packed_dtype).astype(unpacked_dtype)


OP_IMPL_NOTE = ("interpret mode has no implementation of this primitive (NotImplementedError: MLIR "
                "translation rule for primitive '{p}' not found for platform cpu); make_refs.py "
                "registers one with interpret mode's hook register_tpu_interpret_impl "
                "(interpret_pallas_call.py:1309-1320), written from the expected values of JAX's "
                "test (tests/pallas/tpu_ops_test.py:887-905 _pack_unpack_elementwise_test_data, "
                ":998 expected = sources[index].astype(packed).astype(unpacked)) and the op's "
                "description (jaxlib/mosaic/dialect/tpu/tpu_ops.td:662-710). The kernel is the same "
                "in both runs.")


def op(name, desc, build, inputs, ops, semantics, tol=(0.0, 0.0), tol_src=None, extra=None, **kw):
  ex = {"ops": ops, "semantics": semantics, **(extra or {})}
  if name.startswith("sc_"):  # SparseCore: lowered and interpreted under the TPU7x abstract mesh
    ex.setdefault("note", SC_NOTE)
    kw.setdefault("lower_ctx", tpu7x)
    kw.setdefault("run_ctx", tpu7x)
  return case(Case(name=f"op_{name}", source=f"op:make_refs.py op_{name}", description=desc,
                   build=build, inputs=inputs, tol=tol, tolerance_source=tol_src, kind="op",
                   extra=ex, **kw))


def tc_call(kernel, outs, interpret, **kw):
  return pl.pallas_call(kernel, out_shape=tuple(outs), interpret=rl.interp(interpret), **kw)


def int_bits(rng, shape, dtype):
  """Integers covering the whole range of dtype (bits above a narrower packed type included)."""
  info = np.iinfo(dtype)
  return rng.integers(int(info.min), int(info.max), shape, dtype=np.int64, endpoint=True).astype(dtype)


# --- tpu.pack_elementwise
def pack_ew(interpret):
  def kernel(f_ref, i_ref, h_ref, of, oi, oh):
    of[...] = pltpu.pack_elementwise([f_ref[0], f_ref[1]], packed_dtype=jnp.bfloat16)
    oi[...] = pltpu.pack_elementwise([i_ref[k] for k in range(4)], packed_dtype=jnp.int8)
    oh[...] = pltpu.pack_elementwise([h_ref[0], h_ref[1]], packed_dtype=jnp.int8)
  return lambda f, i, h: tc_call(kernel, [sds((8, 128), jnp.uint32), sds((8, 128), jnp.uint32),
                                          sds((16, 128), jnp.uint16)], interpret)(f, i, h)


op("pack_elementwise",
   "pltpu.pack_elementwise: 2 f32 -> bf16 halves of a uint32; 4 int32 -> int8 bytes of a uint32; "
   "2 int16 -> int8 bytes of a uint16 (sources are the leading index of each input).",
   pack_ew, lambda rng: [normal(rng, (2, 8, 128)), int_bits(rng, (4, 8, 128), np.int32),
                         int_bits(rng, (2, 16, 128), np.int16)],
   ["tpu.pack_elementwise"],
   "tpu.pack_elementwise(sources..., target_type=T) -> iW (W = source bit width, result stored as "
   "uintW): elementwise, source k goes to bits [k*b, (k+1)*b) of the result (b = bit width of T; "
   "source 0 in the LOWEST bits). A float source (f32 -> bf16) is first converted to T "
   "(astype: round to nearest even, NaN stays NaN), then its b-bit pattern is taken; an integer "
   "source is truncated to its low b bits (no saturation: 0x1F3 -> 0xF3). "
   "Sources: lowering.py:5169-5179 (pack_elementwise_p -> tpu.pack_elementwise(out_type, xs, "
   "target_type)); primitives.py:1037-1059 docstring; values: tpu_ops_test.py:887-905.",
   extra={"interpret_variant": OP_IMPL_NOTE.format(p="pack_elementwise")})


# --- tpu.unpack_elementwise
def unpack_ew(interpret):
  def kernel(b_ref, i_ref, h_ref, o0, o1, o2, o3, o4):
    b = b_ref[...]
    o0[...] = pltpu.unpack_elementwise(b, index=0, packed_dtype=jnp.bfloat16, unpacked_dtype=F32)
    o1[...] = pltpu.unpack_elementwise(b, index=1, packed_dtype=jnp.bfloat16, unpacked_dtype=F32)
    o2[...] = pltpu.unpack_elementwise(i_ref[...], index=1, packed_dtype=jnp.int8,
                                       unpacked_dtype=jnp.int32)
    o3[...] = pltpu.unpack_elementwise(i_ref[...], index=3, packed_dtype=jnp.int8,
                                       unpacked_dtype=jnp.int32)
    o4[...] = pltpu.unpack_elementwise(h_ref[...], index=1, packed_dtype=jnp.int16,
                                       unpacked_dtype=jnp.int32)
  outs = [sds((8, 128)), sds((8, 128)), sds((8, 128), jnp.int32), sds((8, 128), jnp.int32),
          sds((8, 128), jnp.int32)]
  return lambda b, i, h: tc_call(kernel, outs, interpret)(b, i, h)


def unpack_inputs(rng):
  hi = normal(rng, (8, 128), BF16).view(np.uint16).astype(np.uint32)
  lo = normal(rng, (8, 128), BF16).view(np.uint16).astype(np.uint32)
  return [(hi << 16) | lo, rng.integers(0, 2**32, (8, 128), dtype=np.uint64).astype(np.uint32),
          rng.integers(0, 2**32, (8, 128), dtype=np.uint64).astype(np.uint32)]


op("unpack_elementwise",
   "pltpu.unpack_elementwise on uint32 words: bf16 halves index 0 and 1 -> f32; int8 bytes index 1 "
   "and 3 -> int32; int16 half index 1 -> int32.",
   unpack_ew, unpack_inputs, ["tpu.unpack_elementwise"],
   "tpu.unpack_elementwise(x: iW, index=k, source_type=T) -> result type R: elementwise, take "
   "bits [k*b, (k+1)*b) of the W-bit word (b = bit width of T; index 0 = the LOWEST bits), read "
   "them as T and convert to R: bf16 -> f32 exactly (the bf16 pattern << 16: NaN/inf kept); a "
   "signed integer T is SIGN-extended (byte 0x80 -> -128). Sources: lowering.py:5182-5192 "
   "(unpack_elementwise_p -> tpu.unpack_elementwise(out_type, x, source_type, index)); "
   "primitives.py:1092-1130 docstring (the reverse of pack_elementwise); values: "
   "tpu_ops_test.py:998.",
   extra={"interpret_variant": OP_IMPL_NOTE.format(p="unpack_elementwise")})


# --- tpu.dynamic_gather (jnp.take_along_axis)
GATHER_SEM = (
    "jnp.take_along_axis(x, idx, axis=a) in a kernel lowers (lowering.py:3476-3536, the lax.gather "
    "rule for take_along_axis-like gathers) to: idx' = select(idx < 0, idx + n, idx) (arith.cmpi / "
    "addi / select emitted by jnp's index normalisation, n = x.shape[a]), vector.shape_cast, then "
    "tpu.dynamic_gather x[idx'] in [a]: out[i, j] = x[idx'[i, j], j] for a = 0, x[i, idx'[i, j]] "
    "for a = 1 (indices have the output's shape; repeated indices allowed). Interpret mode runs "
    "the same jaxpr's lax.gather on the CPU. Out-of-range indices (after the wrap) are NOT in the "
    "data: interpret mode's gather (mode fill) would return the fill value (NaN / int min), while "
    "the lowering drops fill_value (lowering.py:3503 `del fill_value`) and tpu.dynamic_gather "
    "takes the index mod n (tpu_ops.td:748-765). mode='promise_in_bounds' lowers the same way "
    "(no index normalisation ops).")


def gather32(interpret):
  def kernel(x_ref, i1_ref, i0_ref, y_ref, j_ref, o1, o0, o2):
    o1[...] = jnp.take_along_axis(x_ref[...], i1_ref[...], axis=1)
    o0[...] = jnp.take_along_axis(x_ref[...], i0_ref[...], axis=0)
    o2[...] = jnp.take_along_axis(y_ref[...], j_ref[...], axis=1, mode="promise_in_bounds")
  outs = [sds((8, 128)), sds((8, 128)), sds((16, 256), jnp.int32)]
  return lambda *a: tc_call(kernel, outs, interpret)(*a)


op("dynamic_gather_32bit",
   "take_along_axis on f32 (8, 128) along axis 1 (indices in [-128, 128)) and axis 0 (indices in "
   "[-8, 8)); int32 (16, 256) along axis 1 with mode='promise_in_bounds' (indices in [0, 256)).",
   gather32, lambda rng: [normal(rng, (8, 128)), rng.integers(-128, 128, (8, 128)).astype(np.int32),
                          rng.integers(-8, 8, (8, 128)).astype(np.int32),
                          rng.integers(-2**31, 2**31 - 1, (16, 256)).astype(np.int32),
                          rng.integers(0, 256, (16, 256)).astype(np.int32)],
   ["tpu.dynamic_gather"], GATHER_SEM)


def gather16(interpret):
  def kernel(x_ref, i0_ref, i1_ref, o0, o1):
    o0[...] = jnp.take_along_axis(x_ref[...], i0_ref[...], axis=0)
    o1[...] = jnp.take_along_axis(x_ref[...], i1_ref[...], axis=1)
  outs = [sds((16, 128), BF16), sds((16, 128), BF16)]
  return lambda *a: tc_call(kernel, outs, interpret)(*a)


op("dynamic_gather_bf16",
   "take_along_axis on bf16 (16, 128) (packed type: 2 rows per 32-bit sublane on TPU) along axis "
   "0 (indices in [-16, 16)) and axis 1 (indices in [-128, 128)).",
   gather16, lambda rng: [normal(rng, (16, 128), BF16),
                          rng.integers(-16, 16, (16, 128)).astype(np.int32),
                          rng.integers(-128, 128, (16, 128)).astype(np.int32)],
   ["tpu.dynamic_gather"], GATHER_SEM + " For bf16 the gather is on logical elements (rows), "
   "independent of how the TPU packs them.")


# --- tpu.bitcast
BITCAST_SEM = (
    "tpu.bitcast (lowering.py:5195-5216 pltpu.bitcast: dim == ndim-2 -> tpu.bitcast; dim == ndim-1 "
    "only for equal bit widths on TC; lowering.py:5219-5236 lax.bitcast_convert_type: equal widths "
    "only -> tpu.bitcast). Interpret mode runs bitcast_p's CPU rule, primitives.py:127-150: move "
    "the scaled dim last, then numpy-view-like little-endian packing. Along the second-minor dim "
    "(dim -2) with bit widths s -> d: narrowing (s > d, r = s/d): out[r*a + k, b] = bits [k*d, "
    "(k+1)*d) of in[a, b] (k = 0 the LOWEST bits), i.e. the rows of one wide element become r "
    "consecutive rows; widening (s < d): out[a, b] = sum_k in[r*a + k, b] << (k*s) (row r*a in "
    "the lowest bits). Equal widths: the same bits reinterpreted (f32 -> i32 bit pattern, NaN "
    "payloads kept).")


def bitcast_vals(interpret):
  def kernel(x_ref, b_ref, o_bf, o_i32, o_lane, o_conv):
    x = x_ref[...]
    o_bf[...] = pltpu.bitcast(x, jnp.bfloat16)
    o_i32[...] = pltpu.bitcast(b_ref[...], jnp.int32)
    o_lane[...] = pltpu.bitcast(x, jnp.int32, dim=-1)
    o_conv[...] = lax.bitcast_convert_type(x, jnp.int32) ^ 1
  outs = [sds((16, 128), BF16), sds((8, 128), jnp.int32), sds((8, 128), jnp.int32),
          sds((8, 128), jnp.int32)]
  return lambda x, b: tc_call(kernel, outs, interpret)(x, b)


op("bitcast",
   "pltpu.bitcast f32 (8, 128) -> bf16 (16, 128) (dim -2, narrowing); int8 (32, 128) -> int32 "
   "(8, 128) (dim -2, widening); f32 -> int32 along dim -1 (same width); "
   "lax.bitcast_convert_type f32 -> int32 (then ^ 1).",
   bitcast_vals, lambda rng: [normal(rng, (8, 128)), int_bits(rng, (32, 128), np.int8)],
   ["tpu.bitcast"], BITCAST_SEM)


# --- tpu.memref_bitcast
def memref_bitcast(interpret):
  def kernel(x_ref, y_ref, o_bf, o_i8):
    if interpret:
      o_bf[...] = pltpu.bitcast(x_ref[...], jnp.bfloat16)
      o_i8[...] = pltpu.bitcast(y_ref[...], jnp.int8)
    else:
      o_bf[...] = x_ref.bitcast(jnp.bfloat16)[...]
      o_i8.bitcast(jnp.int32)[...] = y_ref[...]
  outs = [sds((16, 128), BF16), sds((32, 128), jnp.int8)]
  return lambda x, y: tc_call(kernel, outs, interpret)(x, y)


op("memref_bitcast",
   "Ref bitcasts: load f32 x_ref (8, 128) through x_ref.bitcast(bf16) (a (16, 128) view); store "
   "int32 y (8, 128) through o_ref.bitcast(int32) of an int8 (32, 128) output.",
   memref_bitcast, lambda rng: [normal(rng, (8, 128)), int_bits(rng, (8, 128), np.int32)],
   ["tpu.memref_bitcast"],
   "tpu.memref_bitcast (lowering.py:2125-2175 _bitcast_memref: the second-minor block dim scales "
   "by src_bits / dst_bits, other dims unchanged): the view has the same bytes as the tiled TPU "
   "buffer; its logical semantics (the ref transform's, state/utils.py:83-107 `bitcast`) are "
   "exactly pltpu.bitcast along dim -2 (see op_bitcast): narrowing f32 -> bf16: view[2a + k, b] "
   "= bits [16k, 16k+16) of x[a, b] (k = 0 low half); widening int8 -> int32 for the store: "
   "o_int8[4a + k, b] = byte k (k = 0 lowest) of y[a, b].",
   extra={"interpret_variant": (
       "interpret mode cannot read or write through a bitcast ref (AttributeError: "
       "'BitcastTransform' object has no attribute 'indices', interpret/utils.py:441 to_range, "
       "from interpret_pallas_call.py:669 get / :883 swap); the interpret run bitcasts the values "
       "instead (o_bf = pltpu.bitcast(x_ref[...], bf16), o_i8 = pltpu.bitcast(y_ref[...], int8)), "
       "which is what the ref transform means (state/utils.py:83-107 is the same packing as "
       "primitives.py:127-150)")})


# --- tpu.concatenate of packed types
def concat_packed(interpret):
  def kernel(a_ref, b_ref, c_ref, d_ref, o0, o1, o2, o3):
    a, b = a_ref[...], b_ref[...]
    o0[...] = jnp.concatenate([a, b], axis=0)
    o1[...] = jnp.concatenate([a, b], axis=1)
    o2[...] = jnp.concatenate([c_ref[...], d_ref[...]], axis=0)
    o3[...] = jnp.concatenate([a[:8], b[:8], a[8:]], axis=0)
  outs = [sds((32, 128), BF16), sds((16, 256), BF16), sds((64, 128), jnp.int8),
          sds((24, 128), BF16)]
  return lambda *x: tc_call(kernel, outs, interpret)(*x)


op("concatenate_packed",
   "jnp.concatenate of bf16 (16, 128) blocks along axis 0 and 1, of int8 (32, 128) along axis 0, "
   "and of three bf16 (8, 128) pieces (half a packed bf16 tile each) along axis 0.",
   concat_packed, lambda rng: [normal(rng, (16, 128), BF16), normal(rng, (16, 128), BF16),
                               int_bits(rng, (32, 128), np.int8), int_bits(rng, (32, 128), np.int8)],
   ["tpu.concatenate", "vector.extract_strided_slice"],
   "tpu.concatenate(xs, dimension=d) (lowering.py:3370-3373): the operands placed one after "
   "another along d, in operand order (logical elements; the TPU packing of bf16 (16 rows per "
   "tile) and int8 (32 rows per tile) does not change the values). Interpret mode runs "
   "lax.concatenate. The a[:8] / a[8:] slices are vector.extract_strided_slice.")


# --- PRNG
def prng(interpret):
  def kernel(s_ref, o_ref, o2_ref):
    pltpu.prng_seed(s_ref[0], s_ref[1])
    o_ref[...] = pltpu.prng_random_bits((8, 128))
    o2_ref[...] = pltpu.prng_random_bits((8, 128))
  return lambda s: tc_call(kernel, [sds((8, 128), jnp.int32), sds((8, 128), jnp.int32)], interpret,
                           in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM)])(s)


op("prng_random_bits",
   "pltpu.prng_seed(s[0], s[1]) (SMEM seeds) then two pltpu.prng_random_bits((8, 128)) draws.",
   prng, lambda rng: [np.array([42, 7], np.int32)], ["tpu.prng_set_seed_32", "tpu.prng_random_bits"],
   "Hardware PRNG. Interpret mode does NOT emulate it: prng_seed_p is a no-op "
   "(interpret_pallas_call.py:1433-1435, `# TODO(jburnim): Implement this properly?` out = []) "
   "and prng_random_bits_p returns ZEROS of the requested shape (:1442-1444, jnp.zeros(shape, "
   "int32)); so both outputs are all 0 here. On a TPU the bits come from the core's hardware "
   "generator (tpu.prng_set_seed_32 with the seed scalars, lowering.py:5942-5956; "
   "tpu.prng_random_bits -> vector<8x128xi32>, :5960-5967) and are neither zero nor reproducible "
   "off-TPU. This case documents the difference: an executor may refuse these ops, or reproduce "
   "interpret mode's zeros; it cannot match hardware bits.")


# --- SparseCore (vector subcore, TPU7x: 16 lanes)
SC_LANES = 16


def sc_vec(body, out_sds, interpret, nlp=True):
  """A vector-subcore kernel on a 1-core x 16-subcore mesh: subcore (0, 0) copies the inputs to
  VMEM, runs body(in refs..., out refs...) and copies the outputs back to HBM."""
  from jax.experimental.pallas import tpu_sc as plsc

  def f(*xs):
    mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                  num_subcores=16)
    n, m = len(xs), len(out_sds)
    scratch = [pltpu.VMEM(x.shape, x.dtype) for x in xs] + [pltpu.VMEM(o.shape, o.dtype)
                                                            for o in out_sds]

    @functools.partial(pl.kernel, out_type=tuple(out_sds), mesh=mesh, scratch_types=scratch,
                       compiler_params=(pltpu.CompilerParams(needs_layout_passes=False)
                                        if nlp else None),
                       interpret=rl.interp(interpret))
    def sc_op(*refs):
      hin, hout, vin, vout = refs[:n], refs[n:n + m], refs[n + m:2 * n + m], refs[2 * n + m:]

      @pl.when((lax.axis_index("c") == 0) & (lax.axis_index("s") == 0))
      def _():
        for h, v in zip(hin, vin):
          pltpu.sync_copy(h, v)
        body(*vin, *vout)
        for h, v in zip(hout, vout):
          pltpu.sync_copy(v, h)
    return sc_op(*xs)
  return f


def lanes(rng, lo, hi, dtype=np.int32):
  return rng.integers(lo, hi, (SC_LANES,)).astype(dtype)


SC_OP_NOTE = (SC_NOTE + " Subcore (0, 0) copies inputs HBM -> VMEM, computes, copies results "
              "back; the other subcores do nothing. CompilerParams(needs_layout_passes=False) as in "
              "JAX's tests of these ops (tests/pallas/tpu_sparsecore_pallas_test.py).")


def sc_sort(interpret):
  def body(k, v, f, ok, ov, of, od):
    ok[...], ov[...] = lax.sort((k[...], v[...]), num_keys=1, is_stable=True)
    of[...] = jnp.sort(f[...])
    od[...] = jnp.sort(f[...], descending=True)
  outs = [sds((16,), jnp.int32), sds((16,), F32), sds((16,), F32), sds((16,), F32)]
  return lambda *x: sc_vec(body, outs, interpret)(*x)


def sc_sort_inputs(rng):
  # duplicates: stability visible through the values. Non-negative (as JAX's test_sort): see
  # "semantics" on the sign of int32 keys
  keys = lanes(rng, 0, 8)
  f = normal(rng, (SC_LANES,))
  f[3] = -0.0
  f[5] = 0.0
  return [keys, np.arange(SC_LANES, dtype=np.float32) + 0.5, f]


op("sc_sort",
   "SparseCore: lax.sort((k int32[16] in [0, 8) with duplicates, v f32[16]), num_keys=1), "
   "jnp.sort(f f32[16]) ascending and descending (f has -0.0 and 0.0).",
   sc_sort, sc_sort_inputs, ["tpu.sort"],
   "lax.sort on the vector subcore (sc_lowering.py:1000-1038): one tpu.sort(keys, value, mask = "
   "all-true constant) per value operand (keys-only sorts pass keys as the value too), ascending "
   "(descending attribute false), results (output_mask, sorted_keys, sorted_values); is_stable is "
   "ignored: 'always stable' (:1006; tpu_ops.td:182-189: 'stable sort of key/value pairs'), so "
   "equal keys keep their input order (values 0.5, 1.5, ... show it). Interpret mode runs "
   "lax.sort on the CPU (stable here: is_stable=True). Signed int32 keys compare as signed; f32 "
   "keys by lax.sort's TOTAL order (lax.py:9607-9614, lt_to_p): -0.0 sorts before 0.0 (f[3] = "
   "-0.0, f[5] = 0.0 in the data), NaN would sort last (none in the data). jnp.sort(descending=True) "
   "is lax.rev of the ascending sort: on SC lax.rev lowers to tpu.iota + tpu.dynamic_gather "
   "(sc_lowering.py:1041-1050), so out3 has 0.0 BEFORE -0.0 (the reverse of out2). "
   "SIGN OF int32 KEYS: this lowering passes int32 keys to tpu.sort unchanged, while "
   "plsc.sort_key_val XORs them with 0x80000000 because 'tpu.sort comparisons assume unsigned "
   "int predicates' (sc_primitives.py:805-813, op_sc_sort_masked). So tpu.sort compares i32 keys "
   "as UNSIGNED, and lax.sort of negative int32 keys on SC would put negatives last on a TPU, "
   "unlike interpret mode's signed lax.sort (JAX's test_sort uses only keys >= 0). The keys here "
   "are non-negative, where both agree.",
   extra={"note": SC_OP_NOTE})


def sc_sort_masked(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def body(k, v, m, ok, ov, om):
    mask = m[...] != 0
    if interpret:
      # the expected values of JAX's test (tpu_sparsecore_pallas_test.py:2318-2333): stable argsort
      # of (descending: -key), masked-out keys replaced by max + 1 (so they go last, in input order)
      key = -k[...]
      key = jnp.where(mask, key, jnp.max(key) + 1)
      perm = jnp.argsort(key, stable=True)
      ok[...], ov[...] = k[...][perm], v[...][perm]
      om[...] = (lax.iota(jnp.int32, SC_LANES) < jnp.sum(mask.astype(jnp.int32))).astype(jnp.int32)
    else:
      ok[...], ov[...], omask = plsc.sort_key_val(k[...], v[...], mask=mask, descending=True)
      om[...] = omask.astype(jnp.int32)
  outs = [sds((16,), jnp.int32), sds((16,), F32), sds((16,), jnp.int32)]
  return lambda *x: sc_vec(body, outs, interpret)(*x)


op("sc_sort_masked",
   "SparseCore: plsc.sort_key_val(k int32[16] with duplicates, v f32[16], mask=m != 0, "
   "descending=True); out2 = the output mask as int32.",
   sc_sort_masked, lambda rng: [lanes(rng, -4, 4), np.arange(SC_LANES, dtype=np.float32) + 0.5,
                                lanes(rng, 0, 3)],
   ["tpu.sort", "arith.xori"],
   "plsc.sort_key_val with a mask (sc_primitives.py:793-823): int32 keys are XORed with "
   "0x80000000 before tpu.sort and after it ('tpu.sort comparisons assume unsigned int "
   "predicates', :805-813), so tpu.sort itself compares its keys as UNSIGNED i32 (f32 keys would "
   "compare as floats); tpu.sort(keys, values, masked mask, descending = true) is a STABLE sort "
   "(tpu_ops.td:182-189): the valid (mask true) pairs sorted by key, descending, equal keys in "
   "input order; the masked-out pairs placed after them, in input order; output_mask[i] = i < "
   "number of valid elements. (JAX's test: stable argsort of -key with masked keys replaced by "
   "max + 1, tpu_sparsecore_pallas_test.py:2318-2333.)",
   extra={"note": SC_OP_NOTE, "interpret_variant": (
       "plsc.sort_key_val does not run in interpret mode (NotImplementedError: MLIR translation "
       "rule for primitive 'masked_sort' not found for platform cpu); the interpret run computes "
       "the expected values of JAX's test in jnp (stable argsort of -key, masked-out keys "
       "replaced by max + 1, output mask = iota < popcount(mask); "
       "tpu_sparsecore_pallas_test.py:2318-2333)")})


def sc_vgather(interpret):
  def body(x, i, y, j, o, o2):
    o[...] = x[...][i[...]]
    o2[...] = jnp.take_along_axis(y[...], j[...], axis=0, mode="promise_in_bounds")
  return lambda *a: sc_vec(body, [sds((16,)), sds((16,), jnp.int32)], interpret)(*a)


def sc_vgather_inputs(rng):
  i = lanes(rng, -16, 16)
  i[[0, 14]] = 2  # repeated index
  i[1] = -2       # negative index
  return [normal(rng, (SC_LANES,)), i, lanes(rng, -1000, 1000), lanes(rng, 0, 16)]


op("sc_dynamic_gather",
   "SparseCore: x[idx] on a loaded f32[16] vector (indices in [-16, 16), repeated and negative, "
   "as JAX's test_vector_gather), take_along_axis(int32[16], idx in [0, 16), promise_in_bounds).",
   sc_vgather, sc_vgather_inputs, ["tpu.dynamic_gather"],
   "x[idx] (jnp indexing of a vector) and take_along_axis lower through lax.gather to "
   "tpu.dynamic_gather x[idx'] in [0] (lowering.py:3476-3536, the same rule on SC; "
   "sc_lowering.py registers no other): out[i] = x[idx'[i]], idx' = select(idx < 0, idx + 16, "
   "idx) computed by the kernel's arith ops for x[idx]. Out-of-range indices are not in the data "
   "(interpret mode's CPU gather would clamp for x[idx] / fill for take_along_axis; the op takes "
   "the index mod n, tpu_ops.td:748-765).",
   extra={"note": SC_OP_NOTE})


def sc_bitcast(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def body(x, o16, o8, of):
    o16[...] = plsc.bitcast(x[...], jnp.int16)
    o8[...] = plsc.bitcast(x[...], jnp.int8)
    of[...] = plsc.bitcast(x[...], F32)
  outs = [sds((32,), jnp.int16), sds((64,), jnp.int8), sds((16,), F32)]
  return lambda x: sc_vec(body, outs, interpret)(x)


op("sc_vector_bitcast",
   "SparseCore: plsc.bitcast of int32[16] to int16[32], int8[64] (minor dim, width change) and "
   "f32[16] (as JAX's test_bitcast).",
   sc_bitcast, lambda rng: [int_bits(rng, (SC_LANES,), np.int32)], ["vector.bitcast"],
   "pltpu.bitcast / plsc.bitcast along the minormost dim on SC lowers to vector.bitcast "
   "(lowering.py:5195-5216: dim == ndim-1 and kernel type not TC -> vector.bitcast; equal widths "
   "also vector.bitcast there). Semantics = numpy .view (primitives.py:73-82 docstring, CPU rule "
   ":127-150), little-endian: narrowing int32 -> int16: out[2i + k] = bits [16k, 16k+16) of x[i] "
   "(k = 0 the LOWEST half); int8: out[4i + k] = byte k of x[i]; int32 -> f32 reinterprets the "
   "bits (NaN payloads kept).",
   extra={"note": SC_OP_NOTE})


def sc_gather_scatter(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def body(x, i, j, og, os_):
    if interpret:
      og[...] = x[...][i[...]]
      os_[...] = jnp.zeros((SC_LANES,), F32).at[j[...]].set(x[...])
    else:
      og[...] = plsc.load_gather(x, [i[...]])
      os_[...] = jnp.zeros_like(os_)
      plsc.store_scatter(os_, [j[...]], x[...])
  return lambda *a: sc_vec(body, [sds((16,)), sds((16,))], interpret)(*a)


def sc_gs_inputs(rng):
  i = lanes(rng, 0, 16)
  i[[0, 9]] = 4  # repeated gather index
  return [normal(rng, (SC_LANES,)), i, rng.permutation(SC_LANES).astype(np.int32)]


op("sc_load_gather_store_scatter",
   "SparseCore: plsc.load_gather(x_ref f32[16], [idx]) (indices in [0, 16), repeats) and "
   "plsc.store_scatter(o_ref, [perm], x) into a zeroed o_ref (perm a permutation: no collisions).",
   sc_gather_scatter, sc_gs_inputs, ["tpu.vector_load_idx", "tpu.vector_store_idx"],
   "tpu.vector_load_idx base[indices...] (sc_primitives.py:279-325 load_gather, one index vector "
   "per ref dim): out[i] = base[idx0[i], idx1[i], ...] (here 1-D: out[i] = x[idx[i]]), masked-off "
   "lanes (optional mask, none here) not loaded. tpu.vector_store_idx (sc_primitives.py:357-416 "
   "store_scatter): base[idx[i]] = x[i] for each lane i; 'when multiple vector elements have the "
   "same index, the data from the highest lane is stored; with add=true (addupdate_scatter) the "
   "values are added from the lowest lane to the highest' (tpu_ops.td:378-396); lanes not "
   "written keep the old contents. Indices are in range here (no bounds rule is documented).",
   extra={"note": SC_OP_NOTE, "interpret_variant": (
       "plsc.load_gather / store_scatter do not run in interpret mode (its refs are int16 buffer "
       "ids there: TypeError: ref.dtype=int16 must be int32 or float32, sc_primitives.py:283); "
       "the interpret run computes x_ref[...][idx] and zeros.at[perm].set(x) (the expected "
       "values of JAX's test_load_gather_1d / test_store_scatter, "
       "tpu_sparsecore_pallas_test.py:984-997, 1075-1090)")})


def sc_expand_compress(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def body(x, oe, oc):
    v = x[...]
    mask = v % 2 == 0
    if interpret:
      pos = jnp.cumsum(mask.astype(jnp.int32)) - 1
      oe[...] = jnp.where(mask, v[jnp.clip(pos, 0, SC_LANES - 1)], 0)
      oc[...] = jnp.zeros((SC_LANES,), jnp.int32).at[jnp.where(mask, pos, SC_LANES)].set(
          v, mode="drop")
    else:
      oe[...] = jnp.where(mask, plsc.load_expanded(x.at[...], mask=mask), 0)
      oc[...] = jnp.zeros_like(oc)
      plsc.store_compressed(oc.at[...], v, mask=mask)
  outs = [sds((16,), jnp.int32), sds((16,), jnp.int32)]
  return lambda x: sc_vec(body, outs, interpret)(x)


op("sc_expand_compress",
   "SparseCore: mask = x % 2 == 0 on int32[16]; oe = where(mask, plsc.load_expanded(x_ref, "
   "mask), 0); oc zeroed then plsc.store_compressed(oc, x, mask) (as JAX's test_load_expanded / "
   "test_store_compressed).",
   sc_expand_compress, lambda rng: [lanes(rng, -100, 100)],
   ["tpu.expand_load_vreg", "tpu.compress_store_vreg"],
   "load_expanded (sc_lowering.py:84-95 _load_vreg with expand -> tpu.expand_load_vreg ref[starts] "
   "masked): the i-th TRUE lane of the mask receives ref[start + i'] where i' = number of true "
   "lanes before it (consecutive memory elements expanded into the masked lanes); false lanes are "
   "unspecified (JAX's test compares only the masked lanes, tpu_sparsecore_pallas_test.py:"
   "1176-1190), hence the where(mask, ., 0). store_compressed (sc_primitives.py:197-225, "
   "sc_lowering.py _store_lowering_rule compress=True; the module shows it as tpu.expand_load_vreg "
   "+ tpu.compress_store_vreg, see ops): the true lanes of x are written to ref[0], ref[1], ... in "
   "lane order; ref[count:] keeps its contents (0 here; JAX's test checks only [:count], "
   ":1192-1206).",
   extra={"note": SC_OP_NOTE, "interpret_variant": (
       "plsc.load_expanded / store_compressed do not run in interpret mode (AttributeError: 'Fake' "
       "object has no attribute 'arg_names' / TypeError: Ref and value must have the same dtype, "
       "got int16 and int32: its refs are int16 buffer ids); the interpret run computes the "
       "documented values with cumsum(mask) - 1 positions (sc_primitives.py:197-215 docstring)")})


def sc_scan_count(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def ref_count(v):
    eq = (v[:, None] == v[None, :])
    lower = lax.broadcasted_iota(jnp.int32, (SC_LANES, SC_LANES), 1) <= lax.broadcasted_iota(
        jnp.int32, (SC_LANES, SC_LANES), 0)
    upper = ~lower
    counts = jnp.sum((eq & lower).astype(jnp.int32), axis=1)
    last = ~jnp.any(eq & upper, axis=1)
    return counts, last

  def body(x, f, oc, om, ofc, ofm):
    for src, c_ref, m_ref in ((x, oc, om), (f, ofc, ofm)):
      if interpret:
        c, m = ref_count(src[...])
      else:
        c, m = plsc.scan_count(src[...])
      c_ref[...] = c
      m_ref[...] = m.astype(jnp.int32)
  outs = [sds((16,), jnp.int32)] * 4
  return lambda *a: sc_vec(body, outs, interpret)(*a)


op("sc_scan_count",
   "SparseCore: plsc.scan_count on int32[16] in [0, 4) and on f32[16] with 3 distinct values "
   "(counts and last-occurrence mask as int32), as JAX's test_scan_count.",
   sc_scan_count, lambda rng: [lanes(rng, 0, 4), (lanes(rng, 0, 3) * 0.5 - 0.25).astype(np.float32)],
   ["tpu.scan_count"],
   "tpu.scan_count(mask, values) -> (output_mask, counts) (sc_primitives.py:546-550: the MLIR op "
   "returns the mask first; plsc.scan_count returns (counts, mask)), mask all true here "
   "(:570). counts[i] = number of j <= i with values[j] == values[i] (running duplicate count in "
   "ascending lane order, 1 for the first occurrence); output_mask[i] = true iff lane i is the "
   "LAST occurrence of its value (tpu_ops.td:430-452; JAX's test_scan_count expected values, "
   "tpu_sparsecore_pallas_test.py:1325-1354). A masked-off lane would count 1 (tpu_ops.td; not "
   "exercised). f32 compares by value.",
   extra={"note": SC_OP_NOTE, "interpret_variant": (
       "plsc.scan_count does not run in interpret mode (NotImplementedError: MLIR translation rule "
       "for primitive 'scan_count' not found for platform cpu); the interpret run computes the "
       "expected values of JAX's test in jnp (pairwise equality: counts = #equal at or before, "
       "mask = no equal after)")})


def sc_indirect(interpret):
  from jax.experimental.pallas import tpu_sc as plsc

  def f(x, idx):
    mesh = plsc.VectorSubcoreMesh(core_axis_name="c", subcore_axis_name="s", num_cores=1,
                                  num_subcores=16)

    @functools.partial(pl.kernel, out_type=(sds((16,)), sds((16,))), mesh=mesh,
                       scratch_types=[pltpu.VMEM((16,), jnp.int32), pltpu.VMEM((16,), F32)],
                       interpret=rl.interp(interpret))
    def sc_indirect(x_hbm, i_hbm, og_hbm, os_hbm, iv, v):
      @pl.when((lax.axis_index("c") == 0) & (lax.axis_index("s") == 0))
      def _():
        pltpu.sync_copy(i_hbm, iv)
        if interpret:  # interpret mode's DMA takes only scalar indices: gather / scatter in VMEM
          pltpu.sync_copy(x_hbm, v)
          v[...] = v[...][iv[...]]
          pltpu.sync_copy(v, og_hbm)
          pltpu.sync_copy(x_hbm, v)
          v[...] = jnp.zeros((SC_LANES,), F32).at[iv[...]].set(v[...])
          pltpu.sync_copy(v, os_hbm)
        else:
          pltpu.sync_copy(x_hbm.at[iv[...]], v)       # gather: v[k] = x[idx[k]]
          pltpu.sync_copy(v, og_hbm)
          pltpu.sync_copy(x_hbm, v)
          pltpu.sync_copy(v, os_hbm.at[iv[...]])      # scatter: os[idx[k]] = x[k]
    return sc_indirect(x, idx)
  return f


op("sc_indirect_dma",
   "SparseCore: indirect DMA gather x_hbm.at[idx] -> VMEM -> out0, and scatter x -> "
   "out1_hbm.at[idx] (idx a permutation of 16), as JAX's test_gather_1d / test_scatter_1d (kind "
   "'array').",
   sc_indirect, lambda rng: [normal(rng, (SC_LANES,)), rng.permutation(SC_LANES).astype(np.int32)],
   ["tpu.enqueue_indirect_dma", "tpu.wait_indirect_dma"],
   "sync_copy with a ref indexed by an index vector lowers to tpu.enqueue_indirect_dma + "
   "tpu.wait_indirect_dma (sc_lowering.py:700-760, the dma_start rule for a ref indexed by a "
   "vector): gather: dst[k] = src[idx[k]]; scatter: dst[idx[k]] = src[k], for k in index order. "
   "The "
   "gather / scatter has no out-of-range or duplicate index in the data (a permutation).",
   extra={"note": SC_OP_NOTE, "interpret_variant": (
       "interpret mode cannot run a DMA whose ref is indexed by a vector (TypeError: Only scalar "
       "arrays can be converted to Python scalars, from interpret_pallas_call.py:1103 "
       "`src_transforms = jax.tree.map(int, src_transforms)` in dma_start); the interpret run "
       "copies x whole and gathers / scatters in VMEM with jnp (v[idx]; zeros.at[idx].set(v)), "
       "the expected values of JAX's test_gather_1d / test_scatter_1d "
       "(tpu_sparsecore_pallas_test.py:689-704)")})


# ============================================================================================
# driver

def fn_inputs(c: Case, ins: list) -> list:
  """The function's arguments from the stored inputs (multi-device: [N, d0, ...] -> [N*d0, ...])."""
  fa = c.fn_args() if callable(c.fn_args) else c.fn_args
  sel = [ins[i] for i in (fa if fa is not None else range(len(ins)))]
  if c.devices > 1:
    sel = [a.reshape((-1,) + a.shape[2:]) for a in sel]
  return [jnp.asarray(a) for a in sel]


def split_outputs(c: Case, out) -> list[np.ndarray]:
  outs = [np.asarray(o) for o in jax.tree.leaves(out)]
  if c.devices > 1:
    outs = [o.reshape((c.devices, -1) + o.shape[1:]) for o in outs]
  return outs


def lower_case(c: Case, build: Callable[[bool], Callable], args) -> str:
  with c.lower_ctx():
    fn = build(False)
    if c.lower is not None:
      return c.lower(fn, args)
    return cross_lower(fn, args)


def run_interpret(c: Case, build, args, later=3):
  with c.run_ctx():
    return rl.time_calls(lambda: jax.jit(build(True)), args, later=later)


def tol_list(c: Case, n: int) -> list[tuple[float, float]]:
  if isinstance(c.tol, list):
    assert len(c.tol) == n, (c.name, c.tol, n)
    return c.tol
  return [c.tol] * n


def check_operands(c: Case, text: str, ins: list) -> dict:
  ccs = rl.custom_calls(text)
  info: dict[str, Any] = {"num_custom_calls": len(ccs)}
  if len(ccs) == 1 and c.devices == 1 and not c.extra.get("operands_differ"):
    want = [f"tensor<{'x'.join(map(str, a.shape)) + ('x' if a.shape else '')}" for a in ins]
    got = [t.split("x" if False else ">")[0] for t in ccs[0]["operand_types"]]
    shapes_ok = all(g_.startswith(w) for g_, w in zip(got, want)) and len(got) == len(want)
    if not shapes_ok and c.lower is None:
      raise AssertionError(f"{c.name}: custom call operands {ccs[0]['operand_types']} != inputs "
                           f"{[(a.shape, a.dtype) for a in ins]}")
  return info


OP_RE = re.compile(r"(?:=\s*|^\s*)\"?((?:tpu|vector)\.[a-z_0-9]+)\"?", re.M)


def check_ops(c: Case, text: str) -> list[str]:
  """The tpu./vector. ops of the case's kernel(s); raises unless every op in extra["ops"] (or an
  arith op named there) occurs."""
  found: set[str] = set()
  for cc in rl.custom_calls(text):
    k = rl.decode_kernel(cc["config"]["custom_call_config"]["body"])
    found |= set(OP_RE.findall(k))
    found |= {o for o in c.extra["ops"] if re.search(r"\b" + re.escape(o) + r"\b", k)}
  missing = [o for o in c.extra["ops"] if o not in found]
  if missing:
    raise AssertionError(f"{c.name}: kernel lacks {missing}; has {sorted(found)}")
  return sorted(o for o in found if o.startswith(("tpu.", "vector.")))


def write_case(c: Case, out_root: str, retime: bool, do_mutants: bool) -> dict:
  d = os.path.join(out_root, c.name)
  old = {}
  if os.path.exists(os.path.join(d, "case.json")):
    old = json.load(open(os.path.join(d, "case.json")))
  tmp = d + ".tmp"
  shutil.rmtree(tmp, ignore_errors=True)
  os.makedirs(tmp)
  ins = c.inputs(seeded(c.name))
  ins = [np.asarray(a) for a in ins]
  args = fn_inputs(c, ins)
  text = lower_case(c, c.build, args)
  open(os.path.join(tmp, "module.mlir"), "w").write(text)
  info = check_operands(c, text, ins)
  if c.extra.get("ops"):
    info["kernel_ops"] = check_ops(c, text)
  keep_time = (not retime) and "interpret_seconds" in old
  out, first, later = run_interpret(c, c.build, args, later=0 if keep_time else 3)
  outs = split_outputs(c, out)
  for i, a in enumerate(ins):
    rl.save_npy(os.path.join(tmp, f"in{i}.npy"), a)
  for i, a in enumerate(outs):
    rl.save_npy(os.path.join(tmp, f"out{i}.npy"), a)
  tols = tol_list(c, len(outs))
  meta: dict[str, Any] = {
      "name": c.name, "source": c.source, "description": c.description,
      "inputs": [{"dtype": rl.dtype_name(a.dtype), "shape": list(a.shape)} for a in ins],
      "outputs": [{"dtype": rl.dtype_name(a.dtype), "shape": list(a.shape), "rtol": t[0], "atol": t[1]}
                  for a, t in zip(outs, tols)],
  }
  if c.tolerance_source:
    meta["tolerance_source"] = c.tolerance_source
  meta["devices"] = c.devices
  if c.devices > 1:
    meta["device_axis"] = ("inputs and outputs have a leading axis of devices: slice d is what the "
                           "custom call on device d takes/returns; the module's function takes the "
                           "concatenation along axis 0")
  fa = c.fn_args() if callable(c.fn_args) else c.fn_args
  if fa is not None:
    meta["function_inputs"] = fa
  meta.update(info)
  meta.update(c.extra)
  if c.golden:
    gk = os.path.join(GOLDENS, c.golden, "kernel.mlir")
    ccs = rl.custom_calls(text)
    ours = rl.decode_kernel(ccs[0]["config"]["custom_call_config"]["body"])
    ok, why = rl.compare_kernels(ours, open(gk).read())
    meta["golden_kernel_match"] = ok
    meta["golden_kernel_match_detail"] = why
  meta["interpret_seconds"] = (old["interpret_seconds"] if keep_time else
                               {"first": round(first, 3), "later": round(later, 4)})
  meta["interpret_params"] = "pltpu.InterpretParams() (defaults)"
  meta["jax_version"] = jax.__version__
  if do_mutants and c.mutants:
    meta["mutants"] = write_mutants(c, tmp, args, outs)
  json.dump(meta, open(os.path.join(tmp, "case.json"), "w"), indent=1, sort_keys=False)
  open(os.path.join(tmp, "case.json"), "a").write("\n")
  shutil.rmtree(d, ignore_errors=True)
  os.rename(tmp, d)
  return meta


def write_mutants(c: Case, d: str, args, ref_outs) -> int:
  rows = []
  for m in c.mutants:
    try:
      text = lower_case(c, m.build, args)
    except Exception as e:  # the mutant does not pass JAX's checks: leave it out
      print(f"  mutant {m.name}: does not lower ({type(e).__name__}: {str(e)[:200]}); skipped")
      continue
    out, _, _ = run_interpret(c, m.build, args, later=0)
    outs = split_outputs(c, out)
    diffs = [rl.max_abs_diff(a, b) for a, b in zip(outs, ref_outs)]
    tols = tol_list(c, len(ref_outs))
    differs = any(not rl.allclose(a, b, *t) for a, b, t in zip(outs, ref_outs, tols))
    if not differs:
      print(f"  mutant {m.name}: outputs within tolerance of the reference; skipped")
      continue
    open(os.path.join(d, f"mutant_{m.name}.mlir"), "w").write(text)
    rows.append({"name": m.name, "what": m.what, "python": m.python,
                 "module": f"mutant_{m.name}.mlir",
                 "outputs_differ_beyond_tolerance": True,
                 "diff_per_output": diffs})
    print(f"  mutant {m.name}: max abs diff {[x['max_abs_diff'] for x in diffs]}")
  json.dump(rows, open(os.path.join(d, "mutants.json"), "w"), indent=1)
  open(os.path.join(d, "mutants.json"), "a").write("\n")
  return len(rows)


def main() -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--out", default=os.path.join(REPO, "tests", "data", "exec"))
  ap.add_argument("--only", nargs="*")
  ap.add_argument("--list", action="store_true")
  ap.add_argument("--retime", action="store_true", help="re-measure interpret_seconds")
  ap.add_argument("--no-mutants", action="store_true")
  a = ap.parse_args()
  if a.list:
    for n, c in CASES.items():
      print(f"{n}\t{c.source}")
    for n, why in NOT_RUNNABLE.items():
      print(f"{n}\tNOT RUNNABLE: {why}")
    return 0
  names = a.only or list(CASES)
  os.makedirs(a.out, exist_ok=True)
  bad = 0
  for n in names:
    c = CASES[n]
    print(f"== {n}", flush=True)
    try:
      meta = write_case(c, a.out, a.retime, not a.no_mutants)
      print(f"   ok: {meta['interpret_seconds']} golden_match={meta.get('golden_kernel_match')} "
            f"{meta.get('golden_kernel_match_detail', '')[:300]}", flush=True)
    except Exception:
      bad += 1
      traceback.print_exc()
      shutil.rmtree(os.path.join(a.out, n + ".tmp"), ignore_errors=True)
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main())
