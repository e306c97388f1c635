#!/usr/bin/env python3
"""Whole-program corpus (issue 48): JAX programs lowered for TPU, their inputs, and what JAX computes.

Usage (the jaxref venv's python, JAX 0.12.0.1 CPU):
  ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/programs/make_programs.py \
      [--out tests/data/programs] [--shardings-out tests/data/program-shardings] [--only NAME...] [--list]

For each program it writes <out>/<name>/:
  module.mlir      what JAX lowers for TPU, cross-lowered on this CPU host
                   (`jax.jit(f, keep_unused=True).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()`,
                   or `jax.export.export(...).mlir_module()` for the export programs)
  input<i>.npy     one per argument of @main, in order (global arrays; bf16 as ml_dtypes writes it, `<V2`)
  expected<i>.npy  one per result of @main: the same function run by JAX on CPU with every pallas_call in
                   TPU interpret mode (`pltpu.force_tpu_interpret_mode(pltpu.InterpretParams())`), on 4 CPU
                   devices for the sharded programs
  program.json     devices, per-result tolerances, what the program covers, kernels, StableHLO op counts,
                   the generator version
and <shardings-out>/: sharding texts as JAX writes them (GSPMD `mhlo.sharding`, Shardy `sdy.sharding` with
its `sdy.mesh`) with the shards `jax.device_put` makes of a global array (cases.json + .npy files).

Deterministic: fixed seeds; the script re-executes itself with 4 host CPU devices, JAX_PLATFORMS=cpu and
JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/" (source locations are file base names).
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NDEV = 4
GENERATOR_VERSION = 1


def _reexec():
  if os.environ.get("PROGRAMS_CHILD") == "1":
    return
  argv = list(sys.argv[1:])
  for flag in ("--out", "--shardings-out"):
    if flag in argv:
      i = argv.index(flag)
      argv[i + 1] = os.path.abspath(argv[i + 1])
  env = dict(os.environ, PROGRAMS_CHILD="1", JAX_PLATFORMS="cpu",
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={NDEV}").strip(),
             PYTHONHASHSEED="0",
             JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/")
  os.chdir(HERE)
  os.execve(sys.executable, [sys.executable, os.path.basename(__file__), *argv], env)


if __name__ == "__main__":
  _reexec()

import argparse  # noqa: E402
import collections  # noqa: E402
import contextlib  # noqa: E402
import dataclasses  # noqa: E402
import functools  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402
from typing import Any, Callable  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
F32 = jnp.float32
BF16 = np.dtype(ml_dtypes.bfloat16)


# ---------------------------------------------------------------------------------------------
# programs

@dataclasses.dataclass
class Program:
  name: str
  description: str
  covers: list[str]
  fn: Callable                                  # the function of @main's arguments
  inputs: Callable[[np.random.Generator], list]  # @main's arguments, in order
  tol: list[tuple[float, float]] | tuple[float, float] = (0.0, 0.0)  # (rtol, atol), per result or all
  tolerance_source: str = ""
  devices: int = 1
  in_shardings: Callable[[], Any] | None = None  # () -> shardings (needs the 4 CPU devices)
  out_shardings: Callable[[], Any] | None = None
  shardy: bool = True                            # False: GSPMD `mhlo.sharding` annotations
  lowering: str = "jit"                          # jit | export | export_poly
  poly_specs: Callable[[], list] | None = None    # export_poly: the symbolic argument specs
  interpret_params: dict = dataclasses.field(default_factory=dict)  # InterpretParams(**this)
  extra: dict = dataclasses.field(default_factory=dict)


PROGRAMS: dict[str, Program] = {}
NOT_DONE: dict[str, str] = {}


def program(p: Program) -> Program:
  assert p.name not in PROGRAMS, p.name
  PROGRAMS[p.name] = p
  return p


def seeded(name: str) -> np.random.Generator:
  return np.random.default_rng(zlib.crc32(name.encode()))


def normal(rng, shape, dtype=np.float32, scale=1.0):
  return (rng.standard_normal(shape) * scale).astype(np.float32).astype(dtype)


def mesh1d():
  return jax.sharding.Mesh(np.array(jax.devices()[:NDEV]), ("x",))


def mesh2d():
  return jax.sharding.Mesh(np.array(jax.devices()[:NDEV]).reshape(2, 2), ("x", "y"))


# --- production kernels (jax.experimental.pallas.ops.tpu), lowered whole
from jax.experimental.pallas.ops.tpu import flash_attention as fa_mod  # noqa: E402
from jax.experimental.pallas.ops.tpu import matmul as mm_mod  # noqa: E402
from jax.experimental.pallas.ops.tpu.megablox import ops as gmm_ops  # noqa: E402
from jax.experimental.pallas.ops.tpu.paged_attention import paged_attention_kernel as pa_mod  # noqa: E402
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_kernel as sa_mod  # noqa: E402
from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_mask as sa_mask  # noqa: E402

FA_TOL_SRC = ("tests/pallas/tpu_splash_attention_kernel_test.py:415 (forward output vs reference: atol "
              "3e-3, rtol 3e-3) (jax-ml/jax cec06d1); the executor's documented f32 tolerance is within it")
GRAD_TOL_SRC = ("tests/pallas/tpu_splash_attention_kernel_test.py:575-577 (gradient tolerances of the "
                "splash backward kernels: dv atol/rtol 4e-3, dq and dk 0.05) (jax-ml/jax cec06d1)")
GMM_TOL_SRC = ("tests/pallas/tpu_gmm_test.py:132-143 tolerances(): bf16 atol 1e-3 / rtol 1e-2 "
               "(jax-ml/jax cec06d1)")
PA_TOL_SRC = "tests/pallas/tpu_paged_attention_kernel_test.py:181 (f32: atol 2e-3, rtol 2e-3)"
PLAIN_TOL_SRC = ("no kernel: XLA's CPU compiler runs the same StableHLO ops JAX's CPU lowering emits; "
                 "transcendental and reduction-order differences between the TPU- and CPU-lowered "
                 "modules stay within 1e-5 relative (f32); integers exact")


def fa_blocks(b):
  return fa_mod.BlockSizes(block_q=b, block_k_major=b, block_k=b, block_b=1,
                           block_q_major_dkv=b, block_k_major_dkv=b, block_k_dkv=b, block_q_dkv=b,
                           block_k_major_dq=b, block_k_dq=b, block_q_dq=b)


def flash_fwd(q, k, v):
  return fa_mod.flash_attention(q, k, v, causal=True, sm_scale=0.125, block_sizes=fa_blocks(128))


program(Program(
    "flash_attention_fwd",
    "JAX's flash attention forward (causal, sm_scale 0.125, all blocks 128), f32 q/k/v [1, 2, 256, 32].",
    ["production kernel: jax.experimental.pallas.ops.tpu.flash_attention.flash_attention", "causal mask"],
    flash_fwd, lambda rng: [normal(rng, (1, 2, 256, 32)) for _ in range(3)],
    (3e-3, 3e-3), FA_TOL_SRC))


def flash_bwd(q, k, v, do):
  def loss(q, k, v):
    return jnp.sum(flash_fwd(q, k, v) * do)
  return jax.grad(loss, argnums=(0, 1, 2))(q, k, v)


program(Program(
    "flash_attention_bwd",
    "jax.grad of sum(flash_attention(q, k, v) * do) w.r.t. q, k, v (causal, blocks 128), f32 [1, 2, 256, "
    "32]: the forward with residuals (l, m), the dK/dV kernel and the dQ kernel, with the StableHLO "
    "between them (di = sum(o * do)).",
    ["production kernels: flash attention forward + _flash_attention_bwd_dkv + _flash_attention_bwd_dq",
     "jax.grad through a custom_vjp", "three pallas_calls wired by StableHLO"],
    flash_bwd, lambda rng: [normal(rng, (1, 2, 256, 32)) for _ in range(4)],
    [(5e-2, 5e-2), (5e-2, 5e-2), (4e-3, 4e-3)], GRAD_TOL_SRC))


def splash_kernel(heads, seq, bwd):
  mask = sa_mask.MultiHeadMask([sa_mask.CausalMask((seq, seq)) for _ in range(heads)])
  kw = dict(block_q=128, block_kv=128, block_kv_compute=128)
  if bwd:
    kw.update(block_q_dkv=128, block_kv_dkv=128, block_kv_dkv_compute=128, block_q_dq=128,
              block_kv_dq=128)
  return sa_mod.make_splash_mha_single_device(mask, block_sizes=sa_mod.BlockSizes(**kw))


def splash_fwd(q, k, v):
  return splash_kernel(2, 256, False)(q, k, v)


def splash_bwd(q, k, v, do):
  kern = splash_kernel(1, 256, True)

  def loss(q, k, v):
    return jnp.sum(kern(q, k, v) * do)
  return jax.grad(loss, argnums=(0, 1, 2))(q, k, v)


program(Program(
    "splash_attention_fwd",
    "JAX's splash attention forward, causal MultiHeadMask, f32 q/k/v [2 heads, 256, 64], blocks 128; the "
    "mask info (block masks, next-block tables) is computed by the wrapper at trace time and lands in "
    "the module as constants fed to the kernel's scalar prefetch.",
    ["production kernel: jax.experimental.pallas.ops.tpu.splash_attention (make_splash_mha_single_device)",
     "scalar prefetch operands from constants"],
    splash_fwd, lambda rng: [normal(rng, (2, 256, 64)) for _ in range(3)], (3e-3, 3e-3), FA_TOL_SRC))
program(Program(
    "splash_attention_bwd",
    "jax.grad of sum(splash(q, k, v) * do) w.r.t. q, k, v (causal, 1 head, 256, 64, blocks 128): the "
    "forward with residuals, the dQ and the dK/dV kernels.",
    ["production kernels: splash attention forward + _splash_attention_bwd_dq + _splash_attention_bwd_dkv",
     "jax.grad through a custom_vjp"],
    splash_bwd, lambda rng: [normal(rng, (1, 256, 64)) for _ in range(4)],
    [(5e-2, 5e-2), (5e-2, 5e-2), (4e-3, 4e-3)], GRAD_TOL_SRC))


GMM_SIZES = np.array([100, 0, 200, 84], np.int32)


def gmm_inputs(rng):
  return [normal(rng, (384, 128), BF16), normal(rng, (4, 128, 128), BF16), GMM_SIZES.copy()]


def gmm_fwd(lhs, rhs, group_sizes):
  return gmm_ops.gmm(lhs, rhs, group_sizes, jnp.float32, (128, 128, 128))


def gmm_grad(lhs, rhs, group_sizes, dout):
  def loss(lhs, rhs):
    return jnp.sum(gmm_ops.gmm(lhs, rhs, group_sizes, jnp.float32, (128, 128, 128)) * dout)
  return jax.grad(loss, argnums=(0, 1))(lhs, rhs)


program(Program(
    "megablox_gmm",
    "Megablox grouped matmul: lhs bf16 [384, 128] in groups of sizes [100, 0, 200, 84] (given as an "
    "input), rhs bf16 [4, 128, 128], f32 out, tiling (128, 128, 128); the group metadata (offsets, group "
    "ids, m tile ids) is computed in StableHLO around the kernel from the group sizes.",
    ["production kernel: jax.experimental.pallas.ops.tpu.megablox (gmm)", "bf16 operands",
     "int32 input feeding StableHLO that computes scalar-prefetch operands"],
    gmm_fwd, gmm_inputs, (1e-2, 1e-3), GMM_TOL_SRC))
program(Program(
    "megablox_gmm_grad",
    "jax.grad of sum(gmm(lhs, rhs, group_sizes) * dout) w.r.t. lhs and rhs: gmm with transposed rhs for "
    "dlhs and tgmm for drhs (bf16 results), shapes as megablox_gmm, dout f32 [384, 128].",
    ["production kernels: megablox gmm (transpose_rhs) + tgmm", "jax.grad through a custom_vjp",
     "bf16 results"],
    gmm_grad, lambda rng: gmm_inputs(rng) + [normal(rng, (384, 128))],
    (2e-2, 2e-2), GMM_TOL_SRC + "; doubled for the bf16-rounded gradients (1-2 bf16 ulps)"))


def pa_inputs(rng):
  batch, q_heads, kv_heads, d, page_size, pages_per_seq, total_pages = 2, 4, 2, 128, 16, 4, 8
  return [normal(rng, (batch, q_heads, d)),
          normal(rng, (kv_heads, total_pages, page_size, d)),
          normal(rng, (kv_heads, total_pages, page_size, d)),
          np.array([37, 64], np.int32),
          rng.permutation(total_pages)[:batch * pages_per_seq].reshape(batch, pages_per_seq)
          .astype(np.int32)]


program(Program(
    "paged_attention",
    "Paged grouped-query attention: q f32 [2, 4, 128], k/v pages f32 [2 kv heads, 8 pages, 16, 128], "
    "lengths [37, 64], a permuted page table [2, 4], pages_per_compute_block 2.",
    ["production kernel: jax.experimental.pallas.ops.tpu.paged_attention", "int32 inputs as scalar prefetch"],
    lambda q, k, v, lengths, idx: pa_mod.paged_attention(q, k, v, lengths, idx,
                                                         pages_per_compute_block=2),
    pa_inputs, (2e-3, 2e-3), PA_TOL_SRC))


# --- ring all-gather over 4 devices (shard_map, remote DMAs between the devices' kernels)
RING_ROWS = 8


def ring_all_gather_kernel(x_ref, o_ref, local_sem, send_sem, recv_sem):
  my = lax.axis_index("x")
  right = lax.rem(my + 1, NDEV)
  left = lax.rem(my + NDEV - 1, NDEV)
  barrier = pltpu.get_barrier_semaphore()
  pl.semaphore_signal(barrier, 1, device_id=(left,))
  pl.semaphore_signal(barrier, 1, device_id=(right,))
  pl.semaphore_wait(barrier, 2)
  own = pltpu.make_async_copy(x_ref, o_ref.at[pl.ds(my * RING_ROWS, RING_ROWS)], local_sem)
  own.start()
  own.wait()
  for step in range(NDEV - 1):
    slot = lax.rem(my + NDEV - step, NDEV)
    blk = o_ref.at[pl.ds(slot * RING_ROWS, RING_ROWS)]
    cp = pltpu.make_async_remote_copy(blk, blk, send_sem, recv_sem, device_id=(right,))
    cp.start()
    cp.wait_send()
    cp.wait_recv()


def ring_all_gather(x):
  call = pl.pallas_call(
      ring_all_gather_kernel, out_shape=jax.ShapeDtypeStruct((NDEV * RING_ROWS, 128), F32),
      in_specs=[pl.BlockSpec(memory_space=pl.ANY)], out_specs=pl.BlockSpec(memory_space=pl.ANY),
      scratch_shapes=[pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.DMA],
      compiler_params=pltpu.CompilerParams(collective_id=0))

  def body(xs):
    return call(xs) * 2.0
  return jax.shard_map(body, mesh=mesh1d(), in_specs=P("x"), out_specs=P(), check_vma=False)(x)


program(Program(
    "ring_all_gather_4dev",
    "All-gather of x f32 [32, 128] sharded 4 ways over a ring of 4 devices, in one Pallas kernel per "
    "device (shard_map): barrier with both neighbours, a local DMA of the own block, then 3 steps each "
    "forwarding the block received last to the right neighbour by remote DMA; the kernel's result "
    "doubled by StableHLO. The result is replicated: every device's copy must agree.",
    ["4 devices (mhlo.num_partitions = 4), Shardy shardings on @main", "remote DMA and semaphores between "
     "devices", "barrier semaphore (collective_id 0)", "replicated result"],
    ring_all_gather, lambda rng: [normal(rng, (NDEV * RING_ROWS, 128))], (0.0, 0.0),
    "data movement and one exact multiply by 2: exact", devices=NDEV,
    in_shardings=lambda: (NamedSharding(mesh1d(), P("x")),),
    out_shardings=lambda: NamedSharding(mesh1d(), P()),
    # The default dma_execution_mode='on_wait' returns one 8x128 block still NaN (a different one from
    # run to run: 2 of 3 runs differ); 'eager' runs each DMA at its start and is reproducible.
    interpret_params={"dma_execution_mode": "eager"}))


# --- a kernel on each of 4 devices, then an all-reduce (lax.psum) over the mesh
def scale_kernel(x_ref, o_ref):
  o_ref[...] = x_ref[...] * 2.0 + 1.0


def kernel_psum(x):
  def body(xs):
    y = pl.pallas_call(scale_kernel, out_shape=jax.ShapeDtypeStruct(xs.shape, xs.dtype))(xs)
    return lax.psum(y, "x")
  return jax.shard_map(body, mesh=mesh1d(), in_specs=P(None, "x"), out_specs=P(), check_vma=False)(x)


program(Program(
    "kernel_psum_4dev",
    "x f32 [16, 512] sharded by columns over 4 devices (shard_map): a Pallas kernel 2x + 1 on each "
    "device's [16, 128] block, then lax.psum over the devices (an all-reduce inside the manual "
    "computation): the replicated [16, 128] sum.",
    ["4 devices, Shardy shardings on @main (column sharding)", "a kernel per device without communication",
     "all-reduce in StableHLO"],
    kernel_psum, lambda rng: [normal(rng, (16, 512))], (1e-6, 1e-6),
    "an f32 sum of 4 terms: the all-reduce's order may differ (1 ulp)", devices=NDEV,
    in_shardings=lambda: (NamedSharding(mesh1d(), P(None, "x")),),
    out_shardings=lambda: NamedSharding(mesh1d(), P())))


# --- plain SPMD program with GSPMD annotations (no kernel), 2x2 mesh
def sharded_mlp(x, w1, w2, b):
  h = jnp.tanh(x @ w1 + b)
  y = h @ w2
  return y, jnp.sum(y, axis=0), jnp.argmax(y, axis=1).astype(jnp.int32)


program(Program(
    "sharded_mlp_gspmd_4dev",
    "Plain jnp MLP (no kernel) over a 2x2 device mesh with GSPMD `mhlo.sharding` annotations "
    "(jax_use_shardy_partitioner off): x f32 [16, 32] sharded on x, w1 [32, 64] on y, w2 [64, 16] "
    "on (y, x) rows, b replicated; results y (x-sharded), its column sums (replicated), argmax per row "
    "(x-sharded, last_tile_dim_replicate).",
    ["no kernel", "4 devices, GSPMD mhlo.sharding annotations: tiled, transposed iota, "
     "last_tile_dim_replicate, replicated", "collectives inserted by the SPMD partitioner",
     "integer result (argmax)"],
    sharded_mlp,
    lambda rng: [normal(rng, (16, 32)), normal(rng, (32, 64), scale=0.2), normal(rng, (64, 16), scale=0.2),
                 normal(rng, (64,), scale=0.1)],
    [(1e-5, 1e-5), (1e-5, 1e-5), (0.0, 0.0)], PLAIN_TOL_SRC, devices=NDEV,
    in_shardings=lambda: (NamedSharding(mesh2d(), P("x", None)), NamedSharding(mesh2d(), P(None, "y")),
                          NamedSharding(mesh2d(), P(("y", "x"), None)), NamedSharding(mesh2d(), P())),
    out_shardings=lambda: (NamedSharding(mesh2d(), P("x", None)), NamedSharding(mesh2d(), P()),
                           NamedSharding(mesh2d(), P("x"))),
    shardy=False))


# --- a transformer-ish block: RMS norm kernel, JAX's flash attention, JAX's tiled matmul, GELU (erf), top_k
def rmsnorm_kernel(x_ref, w_ref, o_ref):
  x = x_ref[...]
  ms = jnp.mean(x * x, axis=-1, keepdims=True)
  o_ref[...] = x * lax.rsqrt(ms + 1e-6) * w_ref[...]


def rmsnorm(x, w):
  s, d = x.shape
  return pl.pallas_call(
      rmsnorm_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(s // 64,),
      in_specs=[pl.BlockSpec((64, d), lambda i: (i, 0)), pl.BlockSpec((1, d), lambda i: (0, 0))],
      out_specs=pl.BlockSpec((64, d), lambda i: (i, 0)),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)))(x, w)


TB_S, TB_D, TB_H, TB_F, TB_E = 128, 128, 2, 256, 8


def transformer_block(x, wn1, wqkv, wo, wn2, w1, w2, wr):
  h = rmsnorm(x, wn1)
  qkv = (h @ wqkv).reshape(TB_S, 3, TB_H, TB_D // TB_H).transpose(1, 2, 0, 3)[:, None]
  a = flash_fwd(qkv[0], qkv[1], qkv[2])                     # [1, H, S, dh]
  x = x + a[0].transpose(1, 0, 2).reshape(TB_S, TB_D) @ wo
  h2 = rmsnorm(x, wn2)
  up = mm_mod.matmul(h2, w1, block_shape=(128, 128), block_k=128)
  m = (0.5 * up * (1.0 + lax.erf(up * np.float32(2 ** -0.5)))) @ w2   # exact GELU through lax.erf
  logits = h2 @ wr
  vals, idx = lax.top_k(logits, 2)
  gate = jax.nn.softmax(vals, axis=-1)
  return x + m * gate[:, :1], idx.astype(jnp.int32)


def tb_inputs(rng):
  d = TB_D
  return [normal(rng, (TB_S, d)), 1.0 + normal(rng, (1, d), scale=0.1),
          normal(rng, (d, 3 * d), scale=d ** -0.5), normal(rng, (d, d), scale=d ** -0.5),
          1.0 + normal(rng, (1, d), scale=0.1), normal(rng, (d, TB_F), scale=d ** -0.5),
          normal(rng, (TB_F, d), scale=TB_F ** -0.5), normal(rng, (d, TB_E))]


program(Program(
    "transformer_block",
    f"A pre-norm transformer block on x f32 [{TB_S}, {TB_D}]: RMS norm (a Pallas kernel, twice), "
    f"{TB_H}-head causal attention with JAX's flash attention kernel, output projection and residual, "
    "an MLP whose up projection is JAX's tiled matmul kernel, exact GELU written with lax.erf (chlo.erf), a router "
    f"of {TB_E} experts with lax.top_k(2) (chlo.top_k) whose softmax gate scales the MLP. Results: the "
    "block's output and the top-2 expert ids.",
    ["several kernels in one module (rms norm x2, flash attention, matmul)",
     "CHLO ops (erf, top_k)", "integer result (top_k indices)"],
    transformer_block, tb_inputs, [(3e-3, 3e-3), (0.0, 0.0)],
    FA_TOL_SRC + "; top_k ids exact (program.json's top_k_min_gap: the smallest gap between "
    "the 1st and 2nd or the 2nd and 3rd logit of a row, far above the float error)"))


# --- no kernel at all
def plain_f32(x, w, y):
  z = jax.nn.softmax(x @ w, axis=-1)
  c = jnp.cumsum(z, axis=1)
  s = jnp.sort(y, axis=-1)
  g = jax.nn.gelu(x, approximate=False)
  return c, s, jnp.max(g, axis=0), jnp.linalg.norm(x, axis=1)


program(Program(
    "plain_jnp_f32",
    "No kernel: softmax(x @ w) and its cumsum, a sort, exact GELU (jax.nn.gelu: chlo.erfc) and a row norm, f32.",
    ["no kernel (no tpu_custom_call)", "CHLO (jax.nn.gelu(approximate=False) lowers to chlo.erfc)",
     "sort, cumsum (reduce_window), reductions"],
    plain_f32, lambda rng: [normal(rng, (16, 64)), normal(rng, (64, 32), scale=0.2), normal(rng, (8, 33))],
    (1e-5, 1e-6), PLAIN_TOL_SRC))


def plain_int(a, b, m):
  c = (a * 3 + b) % 17
  d = jnp.where(m, c, -c)
  return (jnp.cumsum(d, axis=0), jnp.argsort(b, axis=1, stable=True).astype(jnp.int32),
          jnp.bitwise_xor(a, b) >> 2, jnp.sum(m.astype(jnp.int32)), (a.astype(jnp.uint8) + 250))


program(Program(
    "plain_jnp_int",
    "No kernel, integers only: modular arithmetic, a bool mask (where), cumsum, a stable argsort, xor "
    "and shift, a count, uint8 wraparound. Exact.",
    ["no kernel", "int32 / uint8 / bool (i1) inputs and results", "exact comparison"],
    plain_int,
    lambda rng: [rng.integers(-1000, 1000, (12, 10)).astype(np.int32),
                 rng.integers(-50, 50, (12, 10)).astype(np.int32),
                 rng.integers(0, 2, (12, 10)).astype(bool)],
    (0.0, 0.0), "integers: exact"))


# --- jax.export: Exported.mlir_module()
def export_kernel_fn(x, y):
  def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = jnp.exp(x_ref[...]) * y_ref[...] + 1.0

  z = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(x.shape[0] // 8,),
                     in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))] * 2,
                     out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x, y)
  return jnp.sum(z, axis=1), z.astype(jnp.bfloat16)


program(Program(
    "export_kernel",
    "jax.export.export(jax.jit(f), platforms=['tpu'])(...).mlir_module(): a Pallas kernel exp(x) * y + 1 "
    "over f32 [32, 128] in (8, 128) blocks, its row sums and a bf16 copy.",
    ["jax.export module (Exported.mlir_module(), forward-compatible lowering)", "bf16 result"],
    export_kernel_fn, lambda rng: [normal(rng, (32, 128), scale=0.5), normal(rng, (32, 128))],
    [(1e-5, 1e-4), (1e-2, 1e-2)], "f32: the executor's exp within 1e-5 relative; bf16: one bf16 ulp",
    lowering="export"))


def export_poly_fn(x):
  def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0 + 1.0

  b = x.shape[0]
  z = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(b // 8,),
                     in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                     out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x)
  return jnp.max(z, axis=0)


program(Program(
    "export_shape_poly",
    "jax.export with a symbolic dimension: x f32 [8*b, 128] (b symbolic), a Pallas kernel 2x + 1 over "
    "grid (b,), then a max over rows. The module's @main takes tensor<?x128xf32>; the data is for b = 3 "
    "(x [24, 128]): a runner refines the module from the inputs' shapes, as JAX does when it calls an "
    "Exported.",
    ["jax.export with shape polymorphism (dynamic dimension in @main)", "refinement from input shapes"],
    export_poly_fn, lambda rng: [normal(rng, (24, 128))], (0.0, 0.0), "2x + 1 and max: exact",
    lowering="export_poly",
    poly_specs=lambda: [jax.ShapeDtypeStruct((8 * jax.export.symbolic_shape("b")[0], 128), F32)]))


# ---------------------------------------------------------------------------------------------
# lowering, running, writing

@contextlib.contextmanager
def partitioner(shardy: bool):
  old = jax.config.jax_use_shardy_partitioner
  jax.config.update("jax_use_shardy_partitioner", shardy)
  try:
    yield
  finally:
    jax.config.update("jax_use_shardy_partitioner", old)


def jitted(p: Program):
  kw: dict[str, Any] = {"keep_unused": True}
  if p.in_shardings is not None:
    kw["in_shardings"] = p.in_shardings()
  if p.out_shardings is not None:
    kw["out_shardings"] = p.out_shardings()
  return jax.jit(p.fn, **kw)


def lower(p: Program, args) -> str:
  specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
  with partitioner(p.shardy):
    if p.lowering == "jit":
      return jitted(p).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
    if p.lowering == "export":
      return jax.export.export(jitted(p), platforms=["tpu"])(*specs).mlir_module()
    if p.lowering == "export_poly":
      return jax.export.export(jitted(p), platforms=["tpu"])(*p.poly_specs()).mlir_module()
  raise ValueError(p.lowering)


def run_interpret(p: Program, args):
  with partitioner(p.shardy), pltpu.force_tpu_interpret_mode(pltpu.InterpretParams(**p.interpret_params)):
    fn = jitted(p)
    t0 = time.perf_counter()
    out = jax.block_until_ready(fn(*[jnp.asarray(a) for a in args]))
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    out2 = jax.block_until_ready(fn(*[jnp.asarray(a) for a in args]))
    later = time.perf_counter() - t0
  leaves = [np.asarray(o) for o in jax.tree.leaves(out)]
  again = [np.asarray(o) for o in jax.tree.leaves(out2)]
  for i, (a, b) in enumerate(zip(leaves, again)):
    if not np.array_equal(a.view(np.uint8) if a.dtype == BF16 else a,
                          b.view(np.uint8) if b.dtype == BF16 else b, equal_nan=True):
      raise RuntimeError(f"interpret mode is not reproducible: result {i} differs between two runs")
  return leaves, first, later


def dtype_name(dt) -> str:
  dt = np.dtype(dt)
  return "bfloat16" if dt == BF16 else dt.name


def save(path: str, a) -> None:
  # ml_dtypes' bfloat16 is saved as NumPy saves it: two-byte void ('<V2'), the bf16 bit patterns.
  # (np.ascontiguousarray would make a 0-d array 1-d)
  np.save(path, np.asarray(a, order="C"), allow_pickle=False)


OP_RE = re.compile(r'^\s*(?:%[^=]*=\s*)?"?([a-z_][a-z0-9_]*\.[a-z0-9_.]+)"?[\s(<{@%:]')


def op_counts(text: str) -> dict:
  """Ops of the module (pretty text) by name: each statement's op, `func.return` printed as return."""
  counts: collections.Counter = collections.Counter()
  for line in text.splitlines():
    s = line.strip()
    if s.startswith("return ") or s == "return":
      counts["func.return"] += 1
      continue
    if re.match(r"(?:%[^=]*=\s*)?call @", s):
      counts["func.call"] += 1
      continue
    m = OP_RE.match(line)
    if m:
      counts[m.group(1)] += 1
  return dict(sorted(counts.items()))


CC_NAME_RE = re.compile(r'stablehlo\.custom_call @tpu_custom_call\(.*?kernel_name = "([^"]*)"')


def kernels(text: str) -> list[str]:
  return [m.group(1) for m in CC_NAME_RE.finditer(text)]


def main_shardings(text: str) -> dict:
  """@main's argument and result sharding annotations, as written (for program.json only; the Rust
  side parses the module itself)."""
  m = re.search(r"func\.func public @main\((.*)$", text, re.M)
  line = m.group(1) if m else ""
  found = re.findall(r'(mhlo\.sharding = "[^"]*"|sdy\.sharding = #sdy\.sharding<[^>]*>)', line)
  return {"annotations": len(found), "distinct": sorted(set(found))}


def write_program(p: Program, out_root: str) -> dict:
  rng = seeded(p.name)
  args = p.inputs(rng)
  text = lower(p, args)
  outs, first, later = run_interpret(p, args)
  print(f"  {p.name}: interpret mode {first:.2f} s first run (tracing and compiling), {later:.2f} s later",
        flush=True)
  tols = p.tol if isinstance(p.tol, list) else [p.tol] * len(outs)
  assert len(tols) == len(outs), (p.name, len(tols), len(outs))
  d = os.path.join(out_root, p.name)
  tmp = d + ".tmp"
  shutil.rmtree(tmp, ignore_errors=True)
  os.makedirs(tmp)
  with open(os.path.join(tmp, "module.mlir"), "w") as f:
    f.write(text)
  inputs, results, nbytes = [], [], 0
  for i, a in enumerate(args):
    save(os.path.join(tmp, f"input{i}.npy"), a)
    nbytes += np.asarray(a).nbytes
    inputs.append({"file": f"input{i}.npy", "dtype": dtype_name(np.asarray(a).dtype),
                   "shape": list(np.shape(a))})
  for i, (o, (rtol, atol)) in enumerate(zip(outs, tols)):
    save(os.path.join(tmp, f"expected{i}.npy"), o)
    nbytes += o.nbytes
    results.append({"file": f"expected{i}.npy", "dtype": dtype_name(o.dtype), "shape": list(o.shape),
                    "rtol": rtol, "atol": atol})
  ops = op_counts(text)
  ks = kernels(text)
  meta = {
      "name": p.name,
      "description": p.description,
      "covers": p.covers,
      "devices": p.devices,
      "lowering": {"jit": "jax.jit(f, keep_unused=True).trace(*specs).lower(lowering_platforms=('tpu',))"
                          ".as_text()",
                   "export": "jax.export.export(jax.jit(f, keep_unused=True), platforms=['tpu'])(*specs)"
                             ".mlir_module()",
                   "export_poly": "jax.export.export(jax.jit(f, keep_unused=True), platforms=['tpu'])"
                                  "(*symbolic_specs).mlir_module()"}[p.lowering],
      "partitioner": (None if p.devices == 1 else ("shardy" if p.shardy else "gspmd")),
      "shardings": main_shardings(text),
      "inputs": inputs,
      "results": results,
      "tolerance_source": p.tolerance_source,
      "reference": "the same function run by JAX on CPU (jax.jit) with every pallas_call in TPU interpret "
                   f"mode: pltpu.force_tpu_interpret_mode(pltpu.InterpretParams({interp_args(p)}))"
                   + (f", on {p.devices} CPU devices" if p.devices > 1 else ""),
      "kernels": ks,
      "tpu_custom_calls": len(ks),
      "ops": ops,
      "stablehlo_ops": sum(v for k, v in ops.items() if k.startswith("stablehlo.")),
      "chlo_ops": sum(v for k, v in ops.items() if k.startswith("chlo.")),
      "data_bytes": nbytes,
      "generator": "scripts/jaxref/programs/make_programs.py",
      "generator_version": GENERATOR_VERSION,
      "jax_version": jax.__version__,
      "jaxlib_version": jaxlib.__version__,
  }
  meta.update(p.extra)
  if p.name == "transformer_block":
    meta["top_k_min_gap"] = top_k_gap(args)
  with open(os.path.join(tmp, "program.json"), "w") as f:
    json.dump(meta, f, indent=1)
    f.write("\n")
  shutil.rmtree(d, ignore_errors=True)
  os.rename(tmp, d)
  return meta


def interp_args(p: Program) -> str:
  return ", ".join(f"{k}={v!r}" for k, v in sorted(p.interpret_params.items()))


def top_k_gap(args) -> float:
  """The smallest gap between the 1st and 2nd or the 2nd and 3rd router logit of a row (interpret
  mode's), so the int ids of top_k (and their order) are robust against float error."""
  x, wn1, wqkv, wo, wn2, w1, w2, wr = [jnp.asarray(a) for a in args]

  def logits(x, wn1, wqkv, wo, wn2, wr):
    h = rmsnorm(x, wn1)
    qkv = (h @ wqkv).reshape(TB_S, 3, TB_H, TB_D // TB_H).transpose(1, 2, 0, 3)[:, None]
    a = flash_fwd(qkv[0], qkv[1], qkv[2])
    x = x + a[0].transpose(1, 0, 2).reshape(TB_S, TB_D) @ wo
    return rmsnorm(x, wn2) @ wr

  with pltpu.force_tpu_interpret_mode(pltpu.InterpretParams()):
    lg = np.asarray(jax.jit(logits)(x, wn1, wqkv, wo, wn2, wr))
  s = -np.sort(-lg, axis=1)
  return float(min(np.min(s[:, 0] - s[:, 1]), np.min(s[:, 1] - s[:, 2])))


# ---------------------------------------------------------------------------------------------
# shardings: JAX's texts and jax.device_put's shards

def sharding_cases():
  d = jax.devices()[:NDEV]
  m1 = jax.sharding.Mesh(np.array(d), ("x",))
  m2 = jax.sharding.Mesh(np.array(d).reshape(2, 2), ("x", "y"))
  m2p = jax.sharding.Mesh(np.array([d[0], d[2], d[3], d[1]]).reshape(2, 2), ("x", "y"))
  m1p = jax.sharding.Mesh(np.array([d[1], d[0], d[3], d[2]]), ("x",))
  return [
      ("rows_4", m1, P("x"), (8, 6)),
      ("cols_4", m1, P(None, "x"), (6, 8)),
      ("replicated", m1, P(), (4, 6)),
      ("scalar_replicated", m1, P(), ()),
      ("grid_2x2", m2, P("x", "y"), (4, 6)),
      ("grid_2x2_transposed", m2, P("y", "x"), (4, 6)),
      ("rows_over_x_replicated_y", m2, P("x"), (4, 6)),
      ("cols_over_y_replicated_x", m2, P(None, "y"), (4, 6)),
      ("rows_over_yx", m2, P(("y", "x")), (8, 3)),
      ("rank3_middle", m2, P(None, "x", "y"), (3, 4, 2)),
      ("permuted_mesh_rows", m1p, P("x"), (8, 2)),
      ("permuted_mesh_grid", m2p, P("y", "x"), (4, 4)),
  ]


def lowered_annotation(sharding, shape, shardy: bool) -> tuple[str, list[str]]:
  """The annotation JAX writes on @main's argument for `sharding`, and the module's sdy.mesh lines."""
  spec = jax.ShapeDtypeStruct(shape, jnp.int32, sharding=sharding)
  with partitioner(shardy):
    text = jax.jit(lambda x: x + 1).trace(spec).lower(lowering_platforms=("tpu",)).as_text()
  main = re.search(r"func\.func public @main\(%arg0: [^{]*\{([^\n]*?)\}\) ->", text)
  attr = main.group(1) if main else ""
  if shardy:
    m = re.search(r"sdy\.sharding = (#sdy\.sharding<.*?>)(?:,|$)", attr)
  else:
    m = re.search(r'mhlo\.sharding = "([^"]*)"', attr)
  meshes = [l.strip() for l in text.splitlines() if l.strip().startswith("sdy.mesh ")]
  return (m.group(1) if m else None), meshes


def write_shardings(out: str) -> list[dict]:
  from jax._src.lib import xla_client as xc
  tmp = out + ".tmp"
  shutil.rmtree(tmp, ignore_errors=True)
  os.makedirs(tmp)
  cases = []
  for name, mesh, spec, shape in sharding_cases():
    s = NamedSharding(mesh, spec)
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape) * 7 + 3
    arr = jax.device_put(x, s)
    save(os.path.join(tmp, f"{name}.npy"), x)
    shards = []
    for sh in sorted(arr.addressable_shards, key=lambda z: z.device.id):
      f = f"{name}.dev{sh.device.id}.npy"
      save(os.path.join(tmp, f), np.asarray(sh.data))
      shards.append({"device": sh.device.id, "file": f,
                     "index": [[sl.start or 0, sl.stop if sl.stop is not None else n]
                               for sl, n in zip(sh.index, shape)]})
    # GSPMD: as JAX converts the sharding (physical device ids: the mesh's own order), and as it
    # writes it on @main (logical ids: positions in the mesh, the program's device assignment)
    physical = xc.HloSharding.from_proto(s._to_xla_hlo_sharding(len(shape)).to_proto())
    tile = s._to_xla_hlo_sharding(len(shape)).to_proto()
    flat_ids = [dv.id for dv in mesh.devices.flat]
    if not tile.replicate_on_last_tile_dim and list(tile.tile_assignment_dimensions) == [] or \
       tile.type == xc.OpSharding.Type.REPLICATED:
      physical_text = str(physical)
    else:
      # tile assignment in physical device ids
      ps = xc.OpSharding()
      ps.type = tile.type
      ps.tile_assignment_dimensions = list(tile.tile_assignment_dimensions)
      logical = np.arange(NDEV)
      if tile.iota_reshape_dims:
        logical = logical.reshape(list(tile.iota_reshape_dims)).transpose(
            list(tile.iota_transpose_perm)).reshape(-1)
      elif tile.tile_assignment_devices:
        logical = np.array(list(tile.tile_assignment_devices))
      ps.tile_assignment_devices = [flat_ids[i] for i in logical]
      ps.replicate_on_last_tile_dim = tile.replicate_on_last_tile_dim
      ps.last_tile_dims = list(tile.last_tile_dims)
      physical_text = str(xc.HloSharding.from_proto(ps))
    gspmd, _ = lowered_annotation(s, shape, False)
    sdy, meshes = lowered_annotation(s, shape, True)
    cases.append({"name": name, "shape": list(shape), "dtype": "int32", "global": f"{name}.npy",
                  "mesh": {"axes": list(mesh.axis_names), "shape": list(mesh.devices.shape),
                           "device_ids": flat_ids},
                  "spec": str(spec),
                  "mhlo_sharding_lowered": gspmd,
                  "mhlo_sharding_physical": physical_text,
                  "sdy_sharding_lowered": sdy, "sdy_meshes": meshes,
                  "device_put_shards": shards})
  # a maximal sharding (no NamedSharding lowers to it on @main): XLA's printer, which JAX uses
  mx = xc.OpSharding()
  mx.type = xc.OpSharding.Type.MAXIMAL
  mx.tile_assignment_devices = [2]
  extra = {"maximal_device_2": str(xc.HloSharding.from_proto(mx))}
  with open(os.path.join(tmp, "cases.json"), "w") as f:
    json.dump({"generator": "scripts/jaxref/programs/make_programs.py",
               "generator_version": GENERATOR_VERSION, "jax_version": jax.__version__,
               "devices": NDEV,
               "note": "device_put_shards are keyed by physical CPU device id; `mhlo_sharding_lowered` and "
                       "`sdy_sharding_lowered` use logical ids (positions in the mesh = the program's "
                       "device assignment), `mhlo_sharding_physical` physical ids (XLA's printer).",
               "cases": cases, "printed_by_xla": extra}, f, indent=1)
    f.write("\n")
  shutil.rmtree(out, ignore_errors=True)
  os.rename(tmp, out)
  return cases


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", default=os.path.join(REPO, "tests", "data", "programs"))
  ap.add_argument("--shardings-out", default=os.path.join(REPO, "tests", "data", "program-shardings"))
  ap.add_argument("--only", nargs="*")
  ap.add_argument("--list", action="store_true")
  ap.add_argument("--no-shardings", action="store_true")
  a = ap.parse_args()
  if a.list:
    for n, p in PROGRAMS.items():
      print(f"{n}: {p.description}")
    return
  os.makedirs(a.out, exist_ok=True)
  names = a.only or list(PROGRAMS)
  failed = {}
  for n in names:
    t0 = time.perf_counter()
    try:
      m = write_program(PROGRAMS[n], a.out)
      print(f"{n}: {m['tpu_custom_calls']} kernels {m['kernels']}, {m['stablehlo_ops']} stablehlo ops, "
            f"{m['data_bytes']} bytes, {time.perf_counter() - t0:.1f} s", flush=True)
    except Exception as e:  # recorded, the others still written
      traceback.print_exc()
      failed[n] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
      print(f"{n}: FAILED {failed[n]}", flush=True)
  if not a.no_shardings and not a.only:
    cs = write_shardings(a.shardings_out)
    print(f"shardings: {len(cs)} cases", flush=True)
  if failed:
    print(json.dumps(failed, indent=1))
    sys.exit(1)


if __name__ == "__main__":
  main()
