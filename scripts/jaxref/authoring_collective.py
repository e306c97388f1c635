#!/usr/bin/env python3
"""The collective Pallas kernels of examples/pallas_examples/collective.rs (issue 51), lowered for TPU by JAX 0.12.

Each runs under `jax.shard_map` over a 4-device mesh (axis "x") and is cross-lowered for TPU. Prints,
for each, a line `// ----- <name>` then the module (Lowered.as_text()):
`ring_matmul` (the collective matmul: x row-sharded, all-gathered around the ring by remote DMAs
overlapped with the matmul of the chunk at hand), `ring_logical` (a right shift by a remote copy and
a barrier signal addressed by LOGICAL device ids), `axis_offset` (a load under shard_map, `lax.axis_index`
and `pl.multiple_of`). With `--refs DIR`, also writes seeded inputs `<name>_in<i>.npy` (the global
arrays) and the outputs of JAX's Pallas TPU interpret mode on 4 CPU devices `<name>_out.npy` there.
The Rust kernels are counted against the lines between `# begin <name>` and `# end <name>`
(scripts/line-count.py). Run with the jaxref venv's python (it re-executes itself with 4 CPU devices).
"""
import functools
import os
import sys
import warnings

if os.environ.get("COLLECTIVE_CHILD") != "1":
  env = dict(os.environ, COLLECTIVE_CHILD="1", JAX_PLATFORMS="cpu",
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        " --xla_force_host_platform_device_count=4").strip())
  os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], env)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

F32 = jnp.float32
N_DEV = 4
INTERPRET = False  # set by main: interpret mode for the reference outputs


def mesh():
  return jax.sharding.Mesh(np.array(jax.devices()[:N_DEV]), ("x",))


def params(**kw):
  return pltpu.CompilerParams(**kw)


def interpret():
  return pltpu.InterpretParams() if INTERPRET else False


# begin ring_matmul
def ring_matmul_kernel(x_ref, w_ref, o_ref, buf, send_sems, recv_sems, *, n_dev, m):
  me = lax.axis_index("x")
  right, left = lax.rem(me + 1, n_dev), lax.rem(me + n_dev - 1, n_dev)
  # Both neighbours are in the kernel before the first remote DMA.
  barrier = pltpu.get_barrier_semaphore()
  pl.semaphore_signal(barrier, 1, device_id=(left,))
  pl.semaphore_signal(barrier, 1, device_id=(right,))
  pl.semaphore_wait(barrier, 2)
  buf[0] = x_ref[...]

  def step(s, carry):  # buf[s] holds the chunk of device me - s
    copy = pltpu.make_async_remote_copy(buf.at[s], buf.at[s + 1], send_sems.at[s],
                                        recv_sems.at[s + 1], device_id=(right,))

    @pl.when(s < n_dev - 1)
    def _():
      copy.start()

    row = pl.multiple_of(lax.rem(me - s + n_dev, n_dev) * m, m)
    o_ref[pl.ds(row, m), :] = jnp.dot(buf[s], w_ref[...], preferred_element_type=F32)

    @pl.when(s < n_dev - 1)
    def _():
      copy.wait()
    return carry

  lax.fori_loop(0, n_dev, step, 0)

def ring_matmul(x, w):
  (m, k), (_, n) = x.shape, w.shape
  return pl.pallas_call(
      functools.partial(ring_matmul_kernel, n_dev=N_DEV, m=m),
      out_shape=jax.ShapeDtypeStruct((N_DEV * m, n), F32),
      scratch_shapes=[pltpu.VMEM((N_DEV, m, k), F32), pltpu.SemaphoreType.DMA((N_DEV,)),
                      pltpu.SemaphoreType.DMA((N_DEV,))],
      compiler_params=pltpu.CompilerParams(collective_id=0),
      interpret=interpret(),
  )(x, w)
# end ring_matmul


# begin ring_logical
def ring_logical_kernel(x_ref, o_ref, sems, *, n_dev):
  right = lax.rem(lax.axis_index("x") + 1, n_dev)
  logical = pl.DeviceIdType.LOGICAL
  barrier = pltpu.get_barrier_semaphore()
  pl.semaphore_signal(barrier, 1, device_id=right, device_id_type=logical)
  pl.semaphore_wait(barrier, 1)
  copy = pltpu.make_async_remote_copy(x_ref, o_ref, sems.at[0], sems.at[1], device_id=right,
                                      device_id_type=logical)
  copy.start()
  copy.wait()

def ring_logical(x):
  return pl.pallas_call(
      functools.partial(ring_logical_kernel, n_dev=N_DEV),
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
      out_specs=pl.BlockSpec(memory_space=pl.ANY),
      scratch_shapes=[pltpu.SemaphoreType.DMA((2,))],
      compiler_params=pltpu.CompilerParams(collective_id=0),
      interpret=interpret(),
  )(x)
# end ring_logical


# begin axis_offset
def axis_offset_kernel(x_ref, o_ref):
  me = lax.axis_index("x")
  o_ref[...] = x_ref[...] + pl.multiple_of(me * 8, 8).astype(F32)

def axis_offset(x):
  return pl.pallas_call(
      axis_offset_kernel,
      out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      interpret=interpret(),
  )(x)
# end axis_offset


def sharded(f, in_specs, out_specs=P("x")):
  return jax.shard_map(f, mesh=mesh(), in_specs=in_specs, out_specs=out_specs,
                       check_vma=False)


def examples():
  """(name, per-device function, global inputs, shard specs)."""
  rng = np.random.default_rng(51)
  normal = lambda *shape: rng.standard_normal(shape).astype(np.float32)
  return [
      ("ring_matmul", sharded(ring_matmul, (P("x"), P(None, "x")), P(None, "x")), [normal(N_DEV * 64, 128), normal(128, N_DEV * 128)]),
      ("ring_logical", sharded(ring_logical, P("x")), [normal(N_DEV * 8, 128)]),
      ("axis_offset", sharded(axis_offset, P("x")), [normal(N_DEV * 8, 128)]),
  ]


if __name__ == "__main__":
  warnings.simplefilter("ignore")  # device_id_type's deprecation
  refs = sys.argv[sys.argv.index("--refs") + 1] if "--refs" in sys.argv else None
  for name, f, inputs in examples():
    shapes = [jax.ShapeDtypeStruct(x.shape, x.dtype) for x in inputs]
    print(f"// ----- {name}")
    print(jax.jit(f).trace(*shapes).lower(lowering_platforms=("tpu",)).as_text())
    if refs:
      INTERPRET = True
      jax.clear_caches()
      out = np.asarray(jax.jit(f)(*inputs))
      INTERPRET = False
      for i, x in enumerate(inputs):
        np.save(f"{refs}/{name}_in{i}.npy", x)
      np.save(f"{refs}/{name}_out.npy", out)
