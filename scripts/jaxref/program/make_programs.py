#!/usr/bin/env python3
"""Whole-program references (issue 48): JAX programs with 0, 1, 2+ Pallas TPU kernels and StableHLO
around them, the module JAX 0.12 lowers for TPU (`jax.jit(f).trace(...).lower(lowering_platforms=
("tpu",)).as_text()`), seeded inputs, and the results of the same function on CPU with every
pallas_call in TPU interpret mode (`pltpu.force_tpu_interpret_mode(pltpu.InterpretParams())`).

Usage (the jaxref venv's python):  make_programs.py --out tests/data/program [--only NAME...]

Writes <out>/<case>/: module.mlir, in<k>.npy (@main's arguments), out<k>.npy (@main's results; bf16
as uint16 bit patterns), case.json (description, tolerance, kernel count). Deterministic: fixed seeds.
"""
from __future__ import annotations

import os
import sys

NDEV = 4


def _reexec():
  if os.environ.get("PROGRAM_REFS_CHILD") == "1":
    return
  argv = list(sys.argv[1:])
  if "--out" in argv:
    i = argv.index("--out")
    argv[i + 1] = os.path.abspath(argv[i + 1])
  env = dict(os.environ, PROGRAM_REFS_CHILD="1", JAX_PLATFORMS="cpu",
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={NDEV}").strip(),
             PYTHONHASHSEED="0", JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/")
  here = os.path.dirname(os.path.abspath(__file__))
  os.chdir(here)
  os.execve(sys.executable, [sys.executable, os.path.basename(__file__), *argv], env)


if __name__ == "__main__":
  _reexec()

import argparse  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import zlib  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402

F32 = jnp.float32


def seeded(name):
  return np.random.default_rng(zlib.crc32(name.encode()))


def normal(rng, shape):
  return rng.standard_normal(shape).astype(np.float32)


# ----------------------------------------------------------------------------- kernels
def _add_kernel(x_ref, y_ref, o_ref):
  o_ref[...] = x_ref[...] + y_ref[...]


def pallas_add(x, y):
  return pl.pallas_call(_add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x, y)


def _matmul_kernel(x_ref, y_ref, o_ref, acc_ref):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

  @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
  def _():
    o_ref[...] = acc_ref[...].astype(o_ref.dtype)


def pallas_matmul(x, y, bm=128, bn=128, bk=128):
  m, k = x.shape
  _, n = y.shape
  return pl.pallas_call(
      _matmul_kernel,
      grid=(m // bm, n // bn, k // bk),
      in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
      out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)),
      out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
      scratch_shapes=[pltpu.VMEM((bm, bn), jnp.float32)],
  )(x, y)


def _rowsum_kernel(x_ref, s_ref, c_ref):
  s_ref[...] = jnp.sum(x_ref[...], axis=1, keepdims=True)
  c_ref[...] = jnp.sum((x_ref[...] > 0).astype(jnp.int32), axis=1, keepdims=True)


def pallas_rowsum_count(x):
  m, n = x.shape
  return pl.pallas_call(
      _rowsum_kernel,
      grid=(m // 8,),
      in_specs=[pl.BlockSpec((8, n), lambda i: (i, 0))],
      out_specs=[pl.BlockSpec((8, 1), lambda i: (i, 0)), pl.BlockSpec((8, 1), lambda i: (i, 0))],
      out_shape=[jax.ShapeDtypeStruct((m, 1), jnp.float32), jax.ShapeDtypeStruct((m, 1), jnp.int32)],
  )(x)


def _scale_inplace_kernel(x_ref, o_ref):
  o_ref[...] = x_ref[...] * 3.0


def pallas_scale_aliased(x):
  return pl.pallas_call(_scale_inplace_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        input_output_aliases={0: 0})(x)


def _stale_scratch_kernel(x_ref, o_ref, s_ref):
  # Reads scratch nothing wrote: interpret mode gives NaN there; with
  # --detect-uninitialized the executor names the read.
  o_ref[...] = x_ref[...] + s_ref[...]


def pallas_stale(x):
  return pl.pallas_call(_stale_scratch_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        scratch_shapes=[pltpu.VMEM(x.shape, jnp.float32)])(x)


def _ring_kernel(in_ref, out_ref, send_sem, recv_sem):
  # Right-permute on the ring: barrier with the right neighbour, then a
  # remote DMA of the own block into the right neighbour's output.
  my_id = jax.lax.axis_index("x")
  right = jax.lax.rem(my_id + 1, NDEV)
  barrier = pltpu.get_barrier_semaphore()
  pl.semaphore_signal(barrier, 1, device_id=(right,))
  pl.semaphore_wait(barrier, 1)
  cp = pltpu.make_async_remote_copy(in_ref, out_ref, send_sem, recv_sem, device_id=(right,))
  cp.start()
  cp.wait_send()
  cp.wait_recv()


def pallas_ring(x):
  return pl.pallas_call(
      _ring_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
      scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
      # An explicit id: interpret mode cannot run one assigned at lowering.
      compiler_params=pltpu.CompilerParams(collective_id=7))(x)


# ----------------------------------------------------------------------------- programs
def no_kernel(x, w):
  h = jnp.tanh(x @ w)
  return jax.nn.gelu(h, approximate=False) + 1.0, jnp.argmax(h, axis=1).astype(jnp.int32)


def one_kernel(x, y):
  s = pallas_add(x * 2.0, jnp.exp(y))
  return jnp.sum(s, axis=0), s


def two_kernels(x, w, b):
  h = pallas_matmul(x, w)
  h = jax.nn.relu(h + b[None, :])
  sums, counts = pallas_rowsum_count(h - 1.0)
  return sums[:, 0] * 0.5, counts, pallas_add(h, h)


def aliased(x):
  y = x + 1.0
  z = pallas_scale_aliased(y)
  return z, y * 2.0


def stale_scratch(x):
  return pallas_stale(x * 1.0) * 0.0 + x


def mesh4():
  return jax.sharding.Mesh(np.array(jax.devices()[:NDEV]), ("x",))


def rows4():
  return jax.sharding.NamedSharding(mesh4(), jax.sharding.PartitionSpec("x"))


def replicated4():
  return jax.sharding.NamedSharding(mesh4(), jax.sharding.PartitionSpec())


def ring_4dev(x, y):
  mesh = mesh4()
  P = jax.sharding.PartitionSpec

  def body(a, b):
    return pallas_ring(pallas_add(a, b) * 2.0)

  r = jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=P("x"), check_vma=False)(x, y)
  return r + 1.0, jnp.sum(r, axis=0)


def _device_offset_kernel(x_ref, o_ref):
  # Asks which device it runs on, talks to no other.
  o_ref[...] = x_ref[...] + jax.lax.axis_index("x").astype(jnp.float32) * 100.0


def device_id_4dev(x):
  P = jax.sharding.PartitionSpec

  def body(a):
    return pl.pallas_call(_device_offset_kernel, out_shape=jax.ShapeDtypeStruct(a.shape, a.dtype))(a)

  return jax.shard_map(body, mesh=mesh4(), in_specs=P("x"), out_specs=P("x"), check_vma=False)(x)


def psum_unannotated_4dev(x):
  # jit(shard_map) without in_shardings: @main's argument carries no
  # annotation; XLA's partitioner shards it (JAX reads the sharding back).
  P = jax.sharding.PartitionSpec

  def body(a):
    return jax.lax.psum(pallas_add(a, a), "x")

  return jax.shard_map(body, mesh=mesh4(), in_specs=P("x"), out_specs=P(), check_vma=False)(x) * 0.5


CASES = {
    "no_kernel": dict(fn=no_kernel, kernels=0, tol=[1e-5, 0],
                      inputs=lambda r: [normal(r, (16, 32)), normal(r, (32, 64)) * 0.2],
                      description="StableHLO only: matmul, tanh, exact GELU (CHLO erf), argmax"),
    "one_kernel": dict(fn=one_kernel, kernels=1, tol=[1e-6, 0],
                       inputs=lambda r: [normal(r, (8, 128)), normal(r, (8, 128))],
                       description="elementwise add kernel between multiply/exp and a reduction"),
    "two_kernels": dict(fn=two_kernels, kernels=3, tol=[1e-5, 1e-5],
                        inputs=lambda r: [normal(r, (256, 256)), normal(r, (256, 128)) * 0.1,
                                          normal(r, (128,))],
                        description="tiled matmul kernel (grid 2x1x2, f32 scratch accumulator), bias and "
                                    "relu, a two-output row-sum/count kernel (f32 and i32), the add "
                                    "kernel again"),
    "aliased": dict(fn=aliased, kernels=1, tol=[0, 0], inputs=lambda r: [normal(r, (8, 128))],
                    description="a kernel whose output aliases its input (input_output_aliases={0: 0})"),
    "ring_4dev": dict(fn=ring_4dev, kernels=2, tol=[1e-6, 1e-6], devices=4,
                      jit=lambda: dict(in_shardings=(rows4(), rows4()),
                                       out_shardings=(rows4(), replicated4())),
                      inputs=lambda r: [normal(r, (32, 128)), normal(r, (32, 128))],
                      description="4 devices (shard_map over a 4-device mesh): per device the add kernel (no "
                                  "communication), then a right-permute ring kernel (barrier semaphore, "
                                  "remote DMA to the right neighbour); StableHLO after: +1 and a sum over "
                                  "the sharded rows (a cross-device reduction by XLA)"),
    "psum_unannotated_4dev": dict(fn=psum_unannotated_4dev, kernels=1, tol=[1e-6, 1e-6], devices=4,
                                  inputs=lambda r: [normal(r, (32, 128))],
                                  description="4 devices, @main unannotated (jit of shard_map without "
                                              "in_shardings): the add kernel per device, then psum over the "
                                              "mesh (JAX 0.12's replica_group_mesh_axes)"),
    "device_id_4dev": dict(fn=device_id_4dev, kernels=1, tol=[0, 0], devices=4,
                           jit=lambda: dict(in_shardings=(rows4(),), out_shardings=rows4()),
                           inputs=lambda r: [normal(r, (32, 128))],
                           description="4 devices: a kernel adding 100 * its device's mesh index "
                                       "(tpu.device_id, no communication)"),
    "stale_scratch": dict(fn=stale_scratch, kernels=1, tol=[0, 0], inputs=lambda r: [normal(r, (8, 128))],
                          description="a kernel reading scratch nothing wrote (an executor error under "
                                      "--detect-uninitialized); its NaNs are multiplied by 0 (NaN)"),
}


def save(path, a):
  a = np.asarray(a)
  if a.dtype == jnp.bfloat16:
    a = a.view(np.uint16)
  np.save(path, np.ascontiguousarray(a), allow_pickle=False)


def write(name, c, out):
  d = os.path.join(out, name)
  shutil.rmtree(d, ignore_errors=True)
  os.makedirs(d)
  args = c["inputs"](seeded(name))
  specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
  jit_kwargs = c["jit"]() if "jit" in c else {}
  text = jax.jit(c["fn"], **jit_kwargs).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
  assert text.count("@tpu_custom_call(") == c["kernels"], (name, text.count("@tpu_custom_call("))
  with open(os.path.join(d, "module.mlir"), "w") as f:
    f.write(text)
  with pltpu.force_tpu_interpret_mode(pltpu.InterpretParams()):
    outs = jax.jit(c["fn"], **jit_kwargs)(*args)
  outs = outs if isinstance(outs, (tuple, list)) else [outs]
  for k, a in enumerate(args):
    save(os.path.join(d, f"in{k}.npy"), a)
  for k, a in enumerate(outs):
    save(os.path.join(d, f"out{k}.npy"), a)
  meta = {"description": c["description"], "kernels": c["kernels"], "rtol": c["tol"][0],
          "devices": c.get("devices", 1),
          "atol": c["tol"][1], "jax": jax.__version__,
          "made_by": "scripts/jaxref/program/make_programs.py"}
  with open(os.path.join(d, "case.json"), "w") as f:
    json.dump(meta, f, indent=1, sort_keys=True)
    f.write("\n")
  print(name, "ok", [np.asarray(o).shape for o in outs])


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  ap.add_argument("--only", nargs="*")
  a = ap.parse_args()
  for name, c in CASES.items():
    if a.only and name not in a.only:
      continue
    write(name, c, a.out)


if __name__ == "__main__":
  main()
