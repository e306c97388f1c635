#!/usr/bin/env python3
"""Issue 52's benchmark kernels: lowered for TPU (the committed test data of `benches/kernels.rs`), and timed in
JAX 0.12's Pallas TPU interpret mode and in NumPy for `bench/kernels.sh`.

Usage:
  $PY scripts/jaxref/exec/bench_kernels.py lower DIR
      Writes DIR/<name>/module.mlir (the jitted function lowered for TPU: one `tpu_custom_call`, whose operands are
      the function's arguments) and DIR/<name>/case.json (shapes, input seed, tolerances, what NumPy computes).
  $PY scripts/jaxref/exec/bench_kernels.py time DIR [--later N] [--only NAME,...]
      For each kernel: makes its inputs from its seed, writes DIR/<name>/in<k>.npy (the call's operands), runs
      interpret mode (first call = trace + compile + run, then N further calls: median), writes
      DIR/<name>/out0.npy, times NumPy computing the same math (median of N) and checks NumPy against interpret
      mode. Prints one JSON line per kernel.
  $PY scripts/jaxref/exec/bench_kernels.py table JAX.jsonl OURS.jsonl
      The markdown table of docs/performance.md from the two sides' JSON lines.

Kernels (fresh Pallas code except flash attention and philox, which are JAX's own production kernels):
  softmax_{256,4096,65536}x1024  f32 row softmax, (256, 1024) blocks
  layer_norm_bf16_4096x1024      bf16 in/out, f32 statistics, bf16 scale and bias, (256, 1024) blocks
  gelu_erf_4096x1024             exact GELU 0.5 x (1 + erf(x / sqrt 2)) with lax.erf, f32, (256, 1024) blocks
  matmul_f32_1024                1024^3 f32, (256, 256, 256) blocks, f32 VMEM accumulator, k innermost
  flash_attention_causal         jax.experimental.pallas.ops.tpu.flash_attention, f32 1x4x1024x128, causal,
                                 sm_scale 1/sqrt(128), default block sizes
  philox_1024x1024               jax.experimental.pallas.ops.tpu.random.philox.philox_4x32_kernel (the kernel of
                                 philox_4x32_count / the `pallas_philox4x32` PRNG's random_bits), 1024x1024,
                                 its (256, 256) blocks
"""
import argparse
import functools
import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import scipy.special  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402
from jax.experimental.pallas.ops.tpu import flash_attention as fa  # noqa: E402
from jax.experimental.pallas.ops.tpu.random import philox as px  # noqa: E402

BF16 = ml_dtypes.bfloat16
REAL_PALLAS_CALL = pl.pallas_call
INTERPRET = [False]


def pallas_call(*a, **kw):
  """pl.pallas_call in interpret mode or not, as INTERPRET says (our kernels and JAX's alike)."""
  kw["interpret"] = pltpu.InterpretParams() if INTERPRET[0] else False
  return REAL_PALLAS_CALL(*a, **kw)


for _mod in (fa, px):
  _mod.pl.pallas_call = pallas_call  # both modules reach pallas_call through their `pl`

ROWS = 256  # row block of the row-wise kernels


def rowwise(kernel, n, out_dtype, *extra_specs):
  """A (n, 1024) row-wise kernel on (ROWS, 1024) blocks, parallel grid."""
  def call(x, *extra):
    return pallas_call(
        kernel,
        grid=(n // ROWS,),
        in_specs=[pl.BlockSpec((ROWS, 1024), lambda i: (i, 0)), *extra_specs],
        out_specs=pl.BlockSpec((ROWS, 1024), lambda i: (i, 0)),
        out_shape=jax.ShapeDtypeStruct((n, 1024), out_dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
    )(x, *extra)
  return call


# --- softmax
def softmax_kernel(x_ref, o_ref):
  x = x_ref[...]
  e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
  o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


def softmax_np(x):
  e = np.exp(x - x.max(axis=-1, keepdims=True))
  return e / e.sum(axis=-1, keepdims=True)


# --- layer norm, bf16
EPS = 1e-5


def layer_norm_kernel(x_ref, w_ref, b_ref, o_ref):
  x = x_ref[...].astype(jnp.float32)
  mean = jnp.mean(x, axis=-1, keepdims=True)
  c = x - mean
  var = jnp.mean(c * c, axis=-1, keepdims=True)
  y = c * lax.rsqrt(var + EPS)
  o_ref[...] = (y * w_ref[...].astype(jnp.float32) + b_ref[...].astype(jnp.float32)).astype(o_ref.dtype)


def bf16_to_f32(x):
  """Exact widening by bits (ml_dtypes' astype is an element-by-element loop, 10x slower)."""
  return (x.view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16(y):
  """Round to nearest even by bits (finite values), as astype(bfloat16) does."""
  u = y.view(np.uint32)
  u = (u + (np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1)))) >> np.uint32(16)
  return u.astype(np.uint16).view(BF16)


def layer_norm_np(x, w, b):
  x = bf16_to_f32(x)
  mean = x.mean(axis=-1, keepdims=True)
  c = x - mean
  var = (c * c).mean(axis=-1, keepdims=True)
  y = c / np.sqrt(var + np.float32(EPS))
  return f32_to_bf16(y * bf16_to_f32(w) + bf16_to_f32(b))


# --- exact GELU
SQRT_HALF = 1.0 / math.sqrt(2.0)


def gelu_kernel(x_ref, o_ref):
  x = x_ref[...]
  o_ref[...] = 0.5 * x * (1.0 + lax.erf(x * SQRT_HALF))


def gelu_np(x):
  return np.float32(0.5) * x * (np.float32(1.0) + scipy.special.erf(x * np.float32(SQRT_HALF)))


# --- blocked matmul, f32 accumulator
MB = 256


def matmul_kernel(x_ref, y_ref, o_ref, acc_ref):
  @pl.when(pl.program_id(2) == 0)
  def _():
    acc_ref[...] = jnp.zeros_like(acc_ref)

  acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

  @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
  def _():
    o_ref[...] = acc_ref[...]


def matmul(x, y):
  n = x.shape[0]
  g = n // MB
  return pallas_call(
      matmul_kernel,
      grid=(g, g, g),
      in_specs=[pl.BlockSpec((MB, MB), lambda i, j, k: (i, k)), pl.BlockSpec((MB, MB), lambda i, j, k: (k, j))],
      out_specs=pl.BlockSpec((MB, MB), lambda i, j, k: (i, j)),
      out_shape=jax.ShapeDtypeStruct((n, n), jnp.float32),
      scratch_shapes=[pltpu.VMEM((MB, MB), jnp.float32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
  )(x, y)


# --- JAX's causal flash attention
SM_SCALE = 1.0 / math.sqrt(128.0)


def flash(q, k, v):
  return fa.flash_attention(q, k, v, causal=True, sm_scale=SM_SCALE)


def flash_np(q, k, v):
  s = np.einsum("bhqd,bhkd->bhqk", q, k) * np.float32(SM_SCALE)
  n = q.shape[2]
  s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, np.float32(-np.inf))
  p = np.exp(s - s.max(axis=-1, keepdims=True))
  p /= p.sum(axis=-1, keepdims=True)
  return np.einsum("bhqk,bhkd->bhqd", p, v)


# --- JAX's philox random bits
PHILOX_SHAPE = (1024, 1024)


def philox(offset, key):
  # The kernel's operands are exactly (offset (1,), key (1, 2)) after philox_4x32_kernel's reshapes.
  return px.philox_4x32_kernel(key.reshape(2), PHILOX_SHAPE, PHILOX_SHAPE, block_size=px.BLOCK_SIZE,
                               offset=offset[0], fuse_output=True)


def philox_np(offset, key):
  """Philox-4x32 (10 rounds) of counter (0, i + offset, 0, 0), output hi0 ^ lo0: the same math in NumPy."""
  n = PHILOX_SHAPE[0] * PHILOX_SHAPE[1]
  lo0 = (np.arange(n, dtype=np.uint64) + np.uint64(offset[0])) & np.uint64(0xFFFFFFFF)
  hi0 = np.zeros(n, np.uint64)
  hi1 = np.zeros(n, np.uint64)
  lo1 = np.zeros(n, np.uint64)
  k_hi, k_lo = np.uint64(key[0, 0]), np.uint64(key[0, 1])
  m32 = np.uint64(0xFFFFFFFF)
  for i in range(10):
    p0 = np.uint64(px.MUL_A) * hi1
    p1 = np.uint64(px.MUL_B) * hi0
    hi0, lo0, hi1, lo1 = ((p0 >> np.uint64(32)) ^ lo0 ^ k_hi, p0 & m32,
                          (p1 >> np.uint64(32)) ^ lo1 ^ k_lo, p1 & m32)
    if i != 9:
      k_hi = (k_hi + np.uint64(px.K_HI_32)) & m32
      k_lo = (k_lo + np.uint64(px.K_LO_32)) & m32
  return (hi0 ^ lo0).astype(np.uint32).reshape(PHILOX_SHAPE)


# --- the table: name -> (function, inputs(rng), numpy, elements, (rtol, atol), tolerance note)
def normal(rng, shape, dtype=np.float32, scale=1.0):
  return (rng.standard_normal(shape) * scale).astype(dtype)


def softmax_case(n):
  return (rowwise(softmax_kernel, n, jnp.float32), lambda r: [normal(r, (n, 1024), scale=3.0)], softmax_np,
          n * 1024, (1e-5, 1e-7),
          "exp within a few ulp of XLA's, sums reordered by XLA: rtol 1e-5 (JAX's f32 softmax tests use 1e-5..1e-6)")


KERNELS = {
    "softmax_256x1024": softmax_case(256),
    "softmax_4096x1024": softmax_case(4096),
    "softmax_65536x1024": softmax_case(65536),
    "layer_norm_bf16_4096x1024": (
        rowwise(layer_norm_kernel, 4096, BF16, pl.BlockSpec((1, 1024), lambda i: (0, 0)),
                pl.BlockSpec((1, 1024), lambda i: (0, 0))),
        lambda r: [normal(r, (4096, 1024), BF16, 2.0), normal(r, (1, 1024), BF16), normal(r, (1, 1024), BF16)],
        layer_norm_np, 4096 * 1024, (1e-2, 1e-2),
        "bf16 output: one bf16 ulp (2^-8 relative) where XLA's reordered f32 statistics round the other way"),
    "gelu_erf_4096x1024": (
        rowwise(gelu_kernel, 4096, jnp.float32), lambda r: [normal(r, (4096, 1024), scale=3.0)], gelu_np,
        4096 * 1024, (1e-5, 1e-6), "erf within its documented ulp bound of XLA's approximation"),
    "matmul_f32_1024": (
        matmul, lambda r: [normal(r, (1024, 1024)), normal(r, (1024, 1024))], lambda x, y: x @ y,
        1024 ** 3, (1e-4, 1e-4), "1024-term f32 dot products summed in another order than XLA's"),
    "flash_attention_causal": (
        flash, lambda r: [normal(r, (1, 4, 1024, 128)) for _ in range(3)], flash_np, 4 * 1024 * 1024 * 128 // 2,
        (3e-3, 3e-3), "JAX's flash attention tests (3e-3); exp and reordered sums"),
    "philox_1024x1024": (
        philox, lambda r: [np.array([r.integers(0, 2 ** 20)], np.uint32),
                           r.integers(0, 2 ** 32, size=(1, 2), dtype=np.uint64).astype(np.uint32)],
        philox_np, 1024 * 1024, (0.0, 0.0), "integer arithmetic: bit for bit"),
}
SEED = 52


def inputs(name):
  return KERNELS[name][1](np.random.default_rng(SEED))


def as_saved(x):
  x = np.asarray(x)
  return x.view(np.uint16) if x.dtype == BF16 else x


def lower(out):
  INTERPRET[0] = False
  for name, (fn, _, _, elements, (rtol, atol), why) in KERNELS.items():
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    args = inputs(name)
    specs = [jax.ShapeDtypeStruct(x.shape, x.dtype) for x in args]
    text = jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
    with open(os.path.join(d, "module.mlir"), "w") as f:
      f.write(text)
    case = {"name": name, "seed": SEED, "elements": elements, "rtol": rtol, "atol": atol, "tolerance": why,
            "operands": [f"{x.dtype}{list(x.shape)}" for x in args],
            "made_by": "scripts/jaxref/exec/bench_kernels.py lower (JAX " + jax.__version__ + ")"}
    with open(os.path.join(d, "case.json"), "w") as f:
      json.dump(case, f, indent=1)
      f.write("\n")
    print(name, len(text), "bytes", file=sys.stderr)


def block(x):
  return jax.tree.map(lambda a: a.block_until_ready(), x)


def median_time(f, n):
  ts = []
  out = None
  for _ in range(n):
    t0 = time.perf_counter()
    out = f()
    ts.append(time.perf_counter() - t0)
  return statistics.median(ts), out


def time_all(out, later, only):
  INTERPRET[0] = True
  for name, (fn, _, npf, elements, (rtol, atol), _) in KERNELS.items():
    if only and name not in only:
      continue
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    args = inputs(name)
    for i, x in enumerate(args):
      np.save(os.path.join(d, f"in{i}.npy"), as_saved(x))
    jax.clear_caches()
    jitted = jax.jit(fn)
    t0 = time.perf_counter()
    block(jitted(*args))
    first = time.perf_counter() - t0
    reps = max(1, later // 2) if name == "softmax_65536x1024" else later  # ~4 s a call in interpret mode
    jt, res = median_time(lambda: block(jitted(*args)), reps)
    res = np.asarray(res)
    np.save(os.path.join(d, "out0.npy"), as_saved(res))
    nt, ref = median_time(lambda: npf(*args), reps)
    a = np.asarray(res, np.float64)
    b = np.asarray(ref, np.float64)
    diff = float(np.max(np.abs(a - b))) if a.size else 0.0
    print(json.dumps({"name": name, "elements": elements, "rtol": rtol, "atol": atol,
                      "interpret_first_seconds": round(first, 4), "interpret_seconds": round(jt, 5),
                      "numpy_seconds": round(nt, 5), "numpy_max_abs_diff": diff}), flush=True)


def fmt(s):
  if s is None:
    return "—"
  return f"{s * 1000:.1f} ms" if s < 1 else f"{s:.2f} s"


def geomean(xs):
  xs = [x for x in xs if x]
  return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def table(jax_lines, ours_lines):
  jx = {j["name"]: j for j in map(json.loads, open(jax_lines)) if j}
  ours = {}
  engines = []
  for o in map(json.loads, open(ours_lines)):
    ours[(o["name"], o["engine"])] = o
    if o["engine"] not in engines:
      engines.append(o["engine"])
  head = "| kernel | interpret mode | NumPy |"
  rule = "|---|---|---|"
  for e in engines:
    head += f" ours ({e}): compile | run | interpret / ours | ours / NumPy | equal to interpret mode |"
    rule += "---|---|---|---|---|"
  print(head)
  print(rule)
  ratios = {e: ([], []) for e in engines}
  for name, j in jx.items():
    row = f"| {name} | {fmt(j['interpret_seconds'])} | {fmt(j['numpy_seconds'])} |"
    for e in engines:
      o = ours.get((name, e))
      if o is None or o.get("run_seconds") is None:
        row += " — | — | — | — | " + (o or {}).get("error", "not run")[:60] + " |"
        continue
      run = o["run_seconds"]
      vi = j["interpret_seconds"] / run
      vn = run / j["numpy_seconds"]
      if not name.startswith("softmax_") or name == "softmax_4096x1024":
        ratios[e][0].append(vi)
        ratios[e][1].append(vn)
      same = o["same"]
      if o.get("ran", e) != e:
        same += f"; ran on the {o['ran']}: {o.get('fallback') or '?'}"
      row += f" {fmt(o['compile_seconds'])} | {fmt(run)} | {vi:.2f} | {vn:.2f} | {same} |"
    print(row)
  print()
  for e in engines:
    gi, gn = geomean(ratios[e][0]), geomean(ratios[e][1])
    if gi:
      k = len(ratios[e][0])
      met = sum(1 for r in ratios[e][0] if r >= 10)
      print(f"- ours ({e}), geometric mean over {k} kernels (softmax at 4096x1024 only): interpret / ours "
            f"{gi:.2f} (target: every kernel >= 10; {met} of {k} are), ours / NumPy {gn:.2f} (target <= 3)")
  print()
  print("Softmax, time per element (ns):")
  print()
  print("| rows x 1024 | interpret mode | NumPy | " + " | ".join(f"ours ({e})" for e in engines) + " |")
  print("|---|---|---|" + "---|" * len(engines))
  for n in (256, 4096, 65536):
    name = f"softmax_{n}x1024"
    if name not in jx:
      continue
    j = jx[name]
    el = j["elements"]
    cells = [f"{j['interpret_seconds'] / el * 1e9:.2f}", f"{j['numpy_seconds'] / el * 1e9:.2f}"]
    for e in engines:
      o = ours.get((name, e))
      cells.append(f"{o['run_seconds'] / el * 1e9:.2f}" if o and o.get("run_seconds") else "—")
    print(f"| {n} | " + " | ".join(cells) + " |")


def main() -> int:
  ap = argparse.ArgumentParser()
  ap.add_argument("what", choices=["lower", "time", "table"])
  ap.add_argument("paths", nargs="+")
  ap.add_argument("--later", type=int, default=3)
  ap.add_argument("--only", default="")
  a = ap.parse_args()
  if a.what == "lower":
    lower(a.paths[0])
  elif a.what == "time":
    time_all(a.paths[0], a.later, set(filter(None, a.only.split(","))))
  else:
    table(*a.paths)
  return 0


if __name__ == "__main__":
  sys.exit(main())
