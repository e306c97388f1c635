#!/usr/bin/env python3
"""Seeded random Pallas TPU kernels for differential testing of the Mosaic CPU executor.

  gen_diff.py --count N --seed S --out DIR        # generate N cases into DIR/<case>/
  gen_diff.py --check BIN --out DIR [--only CASE...] [--timeout SEC]
                                                   # run BIN (tpu-custom-call) on each case, compare

Each kernel is built from a random spec (family, dtypes, shapes, grid, block sizes, index maps, an
expression tree over the inputs), lowered for TPU (cross-lowering on this CPU host, not interpret)
and run in JAX's Pallas TPU interpret mode (`interpret=pltpu.InterpretParams()`) for the reference
outputs. A case folder has the format of tests/data/exec/<case>/ (README.md there): module.mlir,
in<i>.npy, out<i>.npy (bf16 as uint16 bits), case.json (with the spec and the expression as text).

Families: elementwise (1-2 D grids, permuted index maps), row/column reductions, accumulation over
an `arbitrary` grid dim under pl.when init, tiled dots with a k accumulation, strided pl.ds loads,
masked stores (pltpu.store(mask=)), manual DMA (make_async_copy HBM -> VMEM), scalar-prefetch block
gathers (index map idx[i]); pltpu.roll and iota inside expressions. Element types f32,
bf16, int32, uint32, with unary/binary ops incl. transcendentals, integer division, shifts,
compares/selects, conversions.

Deterministic: case i of seed S uses np.random.default_rng([S, i]); re-executed with the environment
of make_refs.py (JAX_PLATFORMS=cpu, PYTHONHASHSEED=0, JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX).
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _reexec():
  if os.environ.get("EXEC_REFS_CHILD") == "1" or "--check" in sys.argv:
    return
  argv = list(sys.argv[1:])
  for flag in ("--out",):
    if flag in argv:
      i = argv.index(flag)
      argv[i + 1] = os.path.abspath(argv[i + 1])
  env = dict(os.environ, EXEC_REFS_CHILD="1", JAX_PLATFORMS="cpu",
             # --xla_allow_excess_precision=false: XLA:CPU otherwise drops the bf16 rounding
             # of intermediates (bf16 op -> extf to f32 computed without rounding to bf16), which
             # the Mosaic kernel (and a TPU) does not (GEN_EXCESS_PRECISION=1 keeps XLA's default)
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        " --xla_force_host_platform_device_count=4" +
                        ("" if os.environ.get("GEN_EXCESS_PRECISION") == "1" else
                         " --xla_allow_excess_precision=false")).strip(),
             PYTHONHASHSEED="0", JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/")
  os.chdir(HERE)
  os.execve(sys.executable, [sys.executable, os.path.basename(__file__), *argv], env)


if __name__ == "__main__":
  _reexec()

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)

F32, BF16N, I32, U32 = "float32", "bfloat16", "int32", "uint32"
INEXACT_OPS = {"exp", "log", "tanh", "logistic", "sin", "cos", "rsqrt", "erf", "log1p", "pow",
               "atan2"}


# ============================================================================================
# expression trees: ("in", k) | ("const", dtype, value) | (op, dtype, *children)

UNARY = {
    F32: ["neg", "abs", "exp", "log", "tanh", "logistic", "sin", "cos", "sqrt_abs", "rsqrt", "floor",
          "ceil", "round", "erf", "log1p", "square", "isfinite_sel", "roll_lanes", "roll_rows",
          "add_iota"],
    BF16N: ["neg", "abs", "exp", "tanh", "floor", "square", "logistic"],
    I32: ["neg", "abs", "not", "shl3", "sra5", "srl7", "roll_lanes", "roll_rows", "add_iota"],
    U32: ["not", "shl3", "srl7", "sra5", "roll_lanes"],
}
BINARY = {
    F32: ["add", "sub", "mul", "div", "max", "min", "pow", "atan2", "rem", "select_gt", "fma"],
    BF16N: ["add", "sub", "mul", "max", "min", "select_gt"],
    I32: ["add", "sub", "mul", "and", "or", "xor", "max", "min", "div", "rem", "select_gt", "shl",
          "sra"],
    U32: ["add", "sub", "mul", "and", "or", "xor", "max", "min", "div", "rem", "select_gt", "srl"],
}
CASTS = {  # target <- sources
    F32: [BF16N, I32, U32], BF16N: [F32], I32: [F32, U32], U32: [I32, F32],
}


def gen_expr(rng, dtype, depth, inputs, stats):
  """inputs: list of dtypes of the available input values."""
  if depth == 0 or rng.random() < 0.2:
    same = [k for k, d in enumerate(inputs) if d == dtype]
    if same and rng.random() < 0.85:
      return ("in", int(rng.choice(same)))
    if rng.random() < 0.5 and CASTS[dtype]:
      src = [k for k, d in enumerate(inputs) if d in CASTS[dtype]]
      if src:
        k = int(rng.choice(src))
        stats["ops"].add(f"cast_{inputs[k]}_{dtype}")
        return ("cast", dtype, ("in", k))
    if dtype in (F32, BF16N):
      v = float(np.float32(rng.choice([0.5, 2.0, -1.5, 3.0, 0.1, 1e-3])))
    elif dtype == I32:
      v = int(rng.choice([1, 3, -7, 255, -2**31, 2**31 - 1, 12345]))
    else:
      v = int(rng.choice([1, 3, 7, 0xFFFFFFFF, 0x80000000, 0xFFFF]))
    if not same:
      return ("const", dtype, v) if rng.random() < 0.3 else gen_expr(rng, dtype, 1, inputs, stats)
    return ("const", dtype, v)
  r = rng.random()
  if r < 0.35:
    op = str(rng.choice(UNARY[dtype]))
    stats["ops"].add(op)
    if dtype == BF16N and op in INEXACT_OPS:
      stats["ops"].add("bf16_inexact")
    return (op, dtype, gen_expr(rng, dtype, depth - 1, inputs, stats))
  if r < 0.9:
    op = str(rng.choice(BINARY[dtype]))
    stats["ops"].add(op)
    kids = [gen_expr(rng, dtype, depth - 1, inputs, stats) for _ in range(3 if op == "fma" else 2)]
    return (op, dtype, *kids)
  srcs = CASTS[dtype]
  src = str(rng.choice(srcs))
  stats["ops"].add(f"cast_{src}_{dtype}")
  return ("cast", dtype, gen_expr(rng, src, depth - 1, inputs, stats))


def expr_dtype(e, inputs):
  return inputs[e[1]] if e[0] == "in" else e[1]


def show(e, inputs) -> str:
  if e[0] == "in":
    return f"x{e[1]}"
  if e[0] == "const":
    return f"{e[1]}({e[2]!r})"
  return f"{e[0]}[{e[1]}](" + ", ".join(show(c, inputs) for c in e[2:]) + ")"


def evaluate(e, vals, inputs):
  import jax.numpy as jnp
  from jax import lax
  import jax
  if e[0] == "in":
    return vals[e[1]]
  dt = jnp.dtype(e[1])
  if e[0] == "const":  # a full vector (ops on scalars lower differently or not at all)
    v = np.array(e[2]).astype(np.int64).astype(np.uint32) if e[1] == U32 else e[2]
    return jnp.full(vals[0].shape, v, dtype=dt)
  op = e[0]
  args = [evaluate(c, vals, inputs) for c in e[2:]]
  a = args[0]
  b = args[1] if len(args) > 1 else None
  fl = dt in (jnp.float32, jnp.bfloat16)
  if op == "cast":
    src = jnp.dtype(expr_dtype(e[2], inputs))
    if fl or src == dt:
      return a.astype(dt)
    if jnp.issubdtype(src, jnp.floating):
      # float -> int: clip into range first (out-of-range conversion is implementation defined)
      lo, hi = (-2.0e9, 2.0e9) if dt == jnp.int32 else (0.0, 4.0e9)
      return jnp.clip(jnp.nan_to_num(a.astype(jnp.float32)), lo, hi).astype(dt)
    return lax.bitcast_convert_type(a, dt) if src.itemsize == dt.itemsize else a.astype(dt)
  if op == "neg":
    return -a
  if op == "abs":
    return jnp.abs(a)
  if op == "exp":
    return jnp.exp(a)
  if op == "log":
    return jnp.log(jnp.abs(a))
  if op == "tanh":
    return jnp.tanh(a)
  if op == "logistic":
    return jax.nn.sigmoid(a)
  if op == "sin":
    return jnp.sin(a)
  if op == "cos":
    return jnp.cos(a)
  if op == "sqrt_abs":
    return jnp.sqrt(jnp.abs(a))
  if op == "rsqrt":
    return lax.rsqrt(jnp.abs(a) + 1.0)
  if op == "floor":
    return jnp.floor(a)
  if op == "ceil":
    return jnp.ceil(a)
  if op == "round":
    return jnp.round(a)
  if op == "erf":
    return lax.erf(a)
  if op == "log1p":
    return jnp.log1p(jnp.abs(a))
  if op == "square":
    return a * a
  if op == "isfinite_sel":
    return jnp.where(jnp.isfinite(a), a, jnp.asarray(-1.0, dt))
  if op == "not":
    return ~a
  if op == "roll_lanes":    # pltpu.roll: tpu.dynamic_rotate / rotate along the lanes
    from jax.experimental.pallas import tpu as pltpu
    return pltpu.roll(a, 3, 1)
  if op == "roll_rows":
    from jax.experimental.pallas import tpu as pltpu
    return pltpu.roll(a, 1, 0)
  if op == "add_iota":      # + row * 1000 + column (tpu.iota)
    it = (lax.broadcasted_iota(jnp.int32, a.shape, 0) * 1000
          + lax.broadcasted_iota(jnp.int32, a.shape, 1))
    return a + it.astype(dt)
  if op == "shl3":
    return a << 3
  if op == "sra5":
    return lax.shift_right_arithmetic(a, jnp.full_like(a, 5))
  if op == "srl7":
    return lax.shift_right_logical(a, jnp.full_like(a, 7))
  if op == "add":
    return a + b
  if op == "sub":
    return a - b
  if op == "mul":
    return a * b
  if op == "fma":
    return a * b + args[2]
  if op == "div":
    if fl:
      return a / b
    one = jnp.ones_like(b)
    b = jnp.where(b == 0, one, b)
    if dt == jnp.int32:
      b = jnp.where((a == jnp.iinfo(jnp.int32).min) & (b == -1), one, b)
      return lax.div(a, b)
    return a // b
  if op == "rem":
    if fl:
      return lax.rem(a, b)
    one = jnp.ones_like(b)
    b = jnp.where(b == 0, one, b)
    if dt == jnp.int32:
      b = jnp.where((a == jnp.iinfo(jnp.int32).min) & (b == -1), one, b)
      return lax.rem(a, b)
    return a % b
  if op == "max":
    return jnp.maximum(a, b)
  if op == "min":
    return jnp.minimum(a, b)
  if op == "pow":
    return lax.pow(jnp.abs(a) + 0.5, jnp.clip(b, -4.0, 4.0))
  if op == "atan2":
    return jnp.arctan2(a, b)
  if op == "select_gt":
    return jnp.where(a > b, a, b - a)
  if op == "and":
    return a & b
  if op == "or":
    return a | b
  if op == "xor":
    return a ^ b
  if op == "shl":
    return a << (b & 31)
  if op == "sra":
    return lax.shift_right_arithmetic(a, b & 31)
  if op == "srl":
    return lax.shift_right_logical(a, b & 31)
  raise ValueError(op)


# ============================================================================================
# specs

def np_dtype(d):
  import ml_dtypes
  return np.dtype(ml_dtypes.bfloat16) if d == BF16N else np.dtype(d)


def sublanes(d):
  return 16 if d == BF16N else 8


def rand_input(rng, d, shape):
  if d in (F32, BF16N):
    x = rng.standard_normal(shape).astype(np.float32) * np.float32(rng.choice([1.0, 3.0, 100.0]))
    if rng.random() < 0.3:  # a few specials
      flat = x.reshape(-1)
      k = rng.integers(0, flat.size, 4)
      flat[k] = np.array([0.0, -0.0, 1e-30, 65504.0], np.float32)
    return x.astype(np_dtype(d))
  if d == I32:
    if rng.random() < 0.5:
      return rng.integers(-1000, 1000, shape).astype(np.int32)
    return rng.integers(-2**31, 2**31, shape, dtype=np.int64).astype(np.int32)
  if rng.random() < 0.5:
    return rng.integers(0, 5000, shape).astype(np.uint32)
  return rng.integers(0, 2**32, shape, dtype=np.uint64).astype(np.uint32)


def make_spec(rng, idx):
  fam = str(rng.choice(["elementwise", "elementwise", "elementwise", "reduce", "accumulate",
                        "accumulate", "dot", "strided", "masked_store", "masked_store", "dma",
                        "prefetch"]))
  dt_out = str(rng.choice([F32, F32, BF16N, I32, U32]))
  if fam == "dot":
    dt_out = F32
  if fam == "reduce" and dt_out == U32:       # "Reductions over unsigned integers not implemented"
    dt_out = I32
  if fam == "masked_store" and dt_out == BF16N:   # "masked swap with non-32-bit data"
    dt_out = F32
  n_in = int(rng.integers(1, 3))
  in_dts = [dt_out] + [str(rng.choice([F32, BF16N, I32, U32])) for _ in range(n_in - 1)]
  sub = max(sublanes(d) for d in in_dts + [dt_out])
  spec: dict[str, Any] = {"family": fam, "out_dtype": dt_out, "in_dtypes": in_dts}
  if fam == "dot":
    dt = str(rng.choice([F32, BF16N, BF16N]))
    bm, bk, bn = 16, 128, 128
    gm, gk, gn = 1, int(rng.integers(1, 3)), 1
    if dt == F32:
      gk = 1
    spec.update(in_dtypes=[dt, dt], block=(bm, bk, bn), grid=(gm, gn, gk),
                trans_b=bool(rng.random() < 0.3))
    return spec
  depth = int(rng.integers(1, 4))
  stats = {"ops": set()}
  e = ("in", 0)
  while e[0] in ("in", "const"):   # at least one op
    e = gen_expr(rng, dt_out, depth, in_dts, stats)
  spec["expr"] = e
  spec["ops"] = sorted(stats["ops"])
  ndim_grid = int(rng.integers(1, 3))
  bm = sub * int(rng.choice([1, 1, 2]))
  bn = 128 * int(rng.choice([1, 1, 1, 2]))
  g = [int(rng.integers(1, 3 if ndim_grid == 2 else 4)) for _ in range(ndim_grid)]
  while int(np.prod(g)) * bm * bn > 4096 and max(g) > 1:   # small arrays (small committed sample)
    g[int(np.argmax(g))] -= 1
  if fam in ("strided", "dma"):
    g = [1]
  if fam == "prefetch":     # out block i = f(x blocks idx[i]); idx a scalar-prefetch operand
    g = [int(rng.integers(2, 4))]
    spec["prefetch_idx"] = [int(v) for v in rng.integers(0, g[0] + 1, g[0])]
  spec.update(block=(bm, bn), grid=g)
  spec["index_map"] = str(rng.choice(["identity", "reverse", "swap"])) if ndim_grid == 2 else \
      str(rng.choice(["identity", "reverse"]))
  if fam == "reduce":
    spec["reduce"] = (str(rng.choice(["sum", "max", "min"])), int(rng.integers(0, 2)))
  if fam == "accumulate":
    spec["grid"] = [int(rng.integers(1, 3)), 2] if bm * bn <= 1024 else [1, 2]
    spec["index_map"] = "identity"
  if fam == "strided":
    stride = int(rng.integers(2, 4))
    start = int(rng.integers(0, stride))
    spec["strided"] = (start, stride)
  if fam == "masked_store":
    spec["mask_thresh"] = float(rng.choice([0.0, 0.5, -0.3]))
  return spec


def tol_for(spec, outs):
  """(rtol, atol). Sums whose association order the kernel does not fix (dots, in-block
  reductions): atol relative to the largest |output| (cancellation)."""
  fam, dt = spec["family"], spec["out_dtype"]
  big = 0.0
  for o in outs:
    o = o.astype(np.float64)
    fin = np.abs(o[np.isfinite(o)])
    big = max(big, float(fin.max()) if fin.size else 0.0)
  if fam == "dot":
    return (1e-5, float(f"{max(1e-5, 2e-6 * big):.2g}"))
  ops = set(spec.get("ops", []))
  inexact = bool(ops & INEXACT_OPS)
  if "bf16_inexact" in ops and dt != BF16N:
    # a bf16 transcendental feeds an f32 / integer result: interpret mode's bf16 transcendentals
    # round several times (XLA expands bf16 logistic into exp, add, divide, each rounded to bf16),
    # so a bf16 ulp, amplified, reaches the result
    return (1.6e-2, float(f"{max(1e-2, 8e-3 * big):.2g}")) if dt == F32 else (0.0, 1.0)
  if dt == BF16N:
    # references are computed without XLA's excess precision (see _reexec): exact bf16 ops round
    # per op like the kernel, so 0/0; inexact ones can differ by a bf16 ulp, which a later
    # cancellation keeps: atol scaled by the largest |output|
    if fam == "reduce" and spec["reduce"][0] == "sum":   # f32 sum rounded to bf16: 1 ulp of it
      return (1.6e-2, float(f"{max(1e-3, 8e-3 * big):.2g}"))
    if inexact:
      return (1.6e-2, float(f"{max(1e-2, 8e-3 * big):.2g}"))
    if fam == "accumulate":
      return (1.6e-2, 1e-3)
    return (0.0, 0.0)
  if dt == F32:
    if fam == "reduce" and spec["reduce"][0] == "sum":   # v - sum(v): cancellation
      return (2e-5 if inexact else 1e-5, float(f"{max(1e-5, 2e-6 * big):.2g}"))
    if inexact:
      return (2e-5, 1e-5)
    return (0.0, 0.0)
  # integer outputs: exact unless a float -> int conversion follows an inexact op
  if inexact and any(o.startswith(("cast_float32", "cast_bfloat16")) for o in ops):
    return (0.0, 1.0)
  return (0.0, 0.0)


def build(spec, interpret):
  import jax
  import jax.numpy as jnp
  from jax import lax
  from jax.experimental import pallas as pl
  from jax.experimental.pallas import tpu as pltpu
  ip = pltpu.InterpretParams() if interpret else False
  fam = spec["family"]
  in_dts = spec["in_dtypes"]
  out_dt = jnp.dtype(spec["out_dtype"]) if spec["out_dtype"] != BF16N else jnp.bfloat16

  if fam == "dot":
    bm, bk, bn = spec["block"]
    gm, gn, gk = spec["grid"]
    trans_b = spec["trans_b"]

    def kernel(a_ref, b_ref, o_ref):
      @pl.when(pl.program_id(2) == 0)
      def _():
        o_ref[...] = jnp.zeros_like(o_ref)
      if trans_b:
        o_ref[...] += lax.dot_general(a_ref[...], b_ref[...], (((1,), (1,)), ((), ())),
                                      preferred_element_type=jnp.float32)
      else:
        o_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)
    b_spec = (pl.BlockSpec((bn, bk), lambda i, j, k: (j, k)) if trans_b
              else pl.BlockSpec((bk, bn), lambda i, j, k: (k, j)))
    return lambda a, b: pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((gm * bm, gn * bn), jnp.float32),
        grid=(gm, gn, gk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, k: (i, k)), b_spec],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, k: (i, j)),
        compiler_params=pltpu.CompilerParams(
            dimension_semantics=("parallel", "parallel", "arbitrary")),
        interpret=ip)(a, b)

  e = spec["expr"]
  bm, bn = spec["block"]
  grid = tuple(spec["grid"])

  def f(vals):
    return evaluate(e, vals, in_dts)

  if fam == "strided":
    start, stride = spec["strided"]

    def kernel(*refs):
      ins, o = refs[:-1], refs[-1]
      o[...] = f([r[pl.ds(start, bm, stride=stride), :] for r in ins])
    return lambda *xs: pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((bm, bn), out_dt), interpret=ip)(*xs)

  if fam == "dma":
    def kernel(*refs):
      n = len(in_dts)
      hbm, o, bufs, sem = refs[:n], refs[n], refs[n + 1:2 * n + 1], refs[2 * n + 1]
      copies = [pltpu.make_async_copy(h, b, sem.at[k]) for k, (h, b) in enumerate(zip(hbm, bufs))]
      for c in copies:
        c.start()
      for c in copies:
        c.wait()
      o[...] = f([b[...] for b in bufs])
    return lambda *xs: pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((bm, bn), out_dt),
        in_specs=[pl.BlockSpec(memory_space=pl.ANY) for _ in in_dts],
        scratch_shapes=[pltpu.VMEM((bm, bn), np_dtype(d)) for d in in_dts] +
                       [pltpu.SemaphoreType.DMA((len(in_dts),))],
        interpret=ip)(*xs)

  if fam == "prefetch":
    g0 = grid[0]

    def kernel(idx_ref, *refs):
      ins, o = refs[:-1], refs[-1]
      o[...] = f([r[...] for r in ins])
    return lambda idx, *xs: pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((g0 * bm, bn), out_dt),
        grid_spec=pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1, grid=(g0,),
            in_specs=[pl.BlockSpec((bm, bn), lambda i, idx: (idx[i], 0)) for _ in in_dts],
            out_specs=pl.BlockSpec((bm, bn), lambda i, idx: (i, 0))),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("arbitrary",)),
        interpret=ip)(idx, *xs)

  nd = len(grid)
  im = spec["index_map"]
  if fam == "accumulate":
    gi, gk = grid

    def kernel(*refs):
      ins, o = refs[:-1], refs[-1]

      @pl.when(pl.program_id(1) == 0)
      def _():
        o[...] = jnp.zeros_like(o)
      o[...] += f([r[...] for r in ins])
    return lambda *xs: pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct((gi * bm, bn), out_dt), grid=grid,
        in_specs=[pl.BlockSpec((bm, bn), lambda i, k: (i, k)) for _ in in_dts],
        out_specs=pl.BlockSpec((bm, bn), lambda i, k: (i, 0)),
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")),
        interpret=ip)(*xs)

  if nd == 1:
    g0 = grid[0]
    imap = (lambda i: (i, 0)) if im == "identity" else (lambda i: (g0 - 1 - i, 0))
    shape = (g0 * bm, bn)
  else:
    g0, g1 = grid
    if im == "identity":
      imap = lambda i, j: (i, j)  # noqa: E731
      shape = (g0 * bm, g1 * bn)
    elif im == "reverse":
      imap = lambda i, j: (g0 - 1 - i, g1 - 1 - j)  # noqa: E731
      shape = (g0 * bm, g1 * bn)
    else:  # swap: grid (i, j) visits block (j, i)
      imap = lambda i, j: (j, i)  # noqa: E731
      shape = (g1 * bm, g0 * bn)

  if fam == "reduce":
    kind, axis = spec["reduce"]

    def kernel(*refs):
      ins, o = refs[:-1], refs[-1]
      v = f([r[...] for r in ins])
      red = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min}[kind](v, axis=axis, keepdims=True)
      o[...] = v - red if kind == "sum" or jnp.issubdtype(v.dtype, jnp.floating) else v ^ red
  elif fam == "masked_store":
    th = spec["mask_thresh"]

    def kernel(*refs):
      ins, o = refs[:-1], refs[-1]
      o[...] = jnp.zeros_like(o)
      x0 = ins[0][...]
      m = (x0.astype(jnp.float32) > th) if in_dts[0] in (F32, BF16N) else ((x0 & 1) == 0)
      pltpu.store(o, f([r[...] for r in ins]), mask=m)
  else:
    def kernel(*refs):
      ins, o = refs[:-1], refs[-1]
      o[...] = f([r[...] for r in ins])
  sem = ("parallel",) * nd if im != "swap" else ("arbitrary",) * nd
  return lambda *xs: pl.pallas_call(
      kernel, out_shape=jax.ShapeDtypeStruct(shape, out_dt), grid=grid,
      in_specs=[pl.BlockSpec((bm, bn), imap) for _ in in_dts],
      out_specs=pl.BlockSpec((bm, bn), imap),
      compiler_params=pltpu.CompilerParams(dimension_semantics=sem),
      interpret=ip)(*xs)


def input_shapes(spec):
  fam = spec["family"]
  if fam == "dot":
    bm, bk, bn = spec["block"]
    gm, gn, gk = spec["grid"]
    b = (gn * bn, gk * bk) if spec["trans_b"] else (gk * bk, gn * bn)
    return [(gm * bm, gk * bk), b]
  bm, bn = spec["block"]
  grid = spec["grid"]
  if fam == "strided":
    start, stride = spec["strided"]
    return [(bm * stride + start, bn) for _ in spec["in_dtypes"]]
  if fam == "dma":
    return [(bm, bn) for _ in spec["in_dtypes"]]
  if fam == "prefetch":
    return [((grid[0] + 1) * bm, bn) for _ in spec["in_dtypes"]]
  if fam == "accumulate":
    return [(grid[0] * bm, grid[1] * bn) for _ in spec["in_dtypes"]]
  if len(grid) == 1:
    return [(grid[0] * bm, bn) for _ in spec["in_dtypes"]]
  g0, g1 = grid
  shape = (g1 * bm, g0 * bn) if spec["index_map"] == "swap" else (g0 * bm, g1 * bn)
  return [shape for _ in spec["in_dtypes"]]


def describe(spec):
  fam = spec["family"]
  if fam == "dot":
    return (f"dot {spec['in_dtypes'][0]} -> f32, blocks {spec['block']}, grid (m, n, k) "
            f"{tuple(spec['grid'])}, trans_b={spec['trans_b']}, acc in o_ref under pl.when(k == 0)")
  s = f"{fam}: out[{spec['out_dtype']}] = {show(spec['expr'], spec['in_dtypes'])}"
  s += f"; inputs {spec['in_dtypes']}; block {tuple(spec['block'])}, grid {tuple(spec['grid'])}"
  if fam not in ("strided", "dma", "accumulate", "prefetch"):
    s += f", index map {spec['index_map']}"
  if fam == "prefetch":
    s += (f"; in0 = idx {spec['prefetch_idx']} (scalar prefetch), x_k = in<k+1>; out block i = "
          "expr(x blocks idx[i])")
  if fam == "reduce":
    s += f"; out = v - {spec['reduce'][0]}(v, axis={spec['reduce'][1]}) (ints max/min: v ^ red)"
  if fam == "strided":
    s += f"; inputs read as x[pl.ds({spec['strided'][0]}, {spec['block'][0]}, stride={spec['strided'][1]})]"
  if fam == "masked_store":
    s += f"; o = 0 then pltpu.store(o, expr, mask=x0 > {spec['mask_thresh']} (ints: even x0))"
  return s


def jsonable(o):
  if isinstance(o, tuple):
    return [jsonable(x) for x in o]
  if isinstance(o, list):
    return [jsonable(x) for x in o]
  if isinstance(o, dict):
    return {k: jsonable(v) for k, v in o.items()}
  return o


def write_case(out_root, seed, i):
  import jax
  import jax.numpy as jnp
  sys.path.insert(0, HERE)
  import refs_lib as rl
  rng = np.random.default_rng([seed, i])
  spec = make_spec(rng, i)
  name = f"gen_s{seed}_{i:04d}_{spec['family']}"
  shapes = input_shapes(spec)
  ins = [rand_input(rng, d, s) for d, s in zip(spec["in_dtypes"], shapes)]
  if spec["family"] == "prefetch":
    ins = [np.array(spec["prefetch_idx"], np.int32)] + ins
  args = [jnp.asarray(a) for a in ins]
  specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
  text = jax.jit(build(spec, False)).trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
  rl_reset()
  out = jax.block_until_ready(jax.jit(build(spec, True))(*args))
  outs = [np.asarray(o) for o in jax.tree.leaves(out)]
  d = os.path.join(out_root, name)
  shutil.rmtree(d, ignore_errors=True)
  os.makedirs(d)
  open(os.path.join(d, "module.mlir"), "w").write(text)
  for k, a in enumerate(ins):
    rl.save_npy(os.path.join(d, f"in{k}.npy"), a)
  for k, a in enumerate(outs):
    rl.save_npy(os.path.join(d, f"out{k}.npy"), a)
  rtol, atol = tol_for(spec, [np.asarray(o, np.float32) if o.dtype == np_dtype(BF16N) else o
                              for o in outs])
  meta = {
      "name": name, "source": f"gen:gen_diff.py seed={seed} index={i}",
      "description": describe(spec),
      "inputs": [{"dtype": rl.dtype_name(a.dtype), "shape": list(a.shape)} for a in ins],
      "outputs": [{"dtype": rl.dtype_name(a.dtype), "shape": list(a.shape), "rtol": rtol,
                   "atol": atol} for a in outs],
      "tolerance_source": ("gen_diff.py tol_for: 0/0 for exact ops; f32 with transcendentals / "
                           "pow/atan2 2e-5/1e-5; f32 in-block sums and dots rtol 1e-5, atol "
                           "2e-6 * max|out| (cancellation; summation order not fixed); bf16: exact "
                           "ops 0/0, inexact ops rtol 1.6e-2 atol max(1e-2, 8e-3 * max|out|), "
                           "sums atol 8e-3 * max|out|, accumulation 1.6e-2/1e-3"),
      "devices": 1,
      "spec": jsonable({k: v for k, v in spec.items()}),
      "interpret_params": "pltpu.InterpretParams() (defaults)",
      "xla_flags": os.environ.get("XLA_FLAGS", ""),
      "jax_version": jax.__version__,
  }
  json.dump(meta, open(os.path.join(d, "case.json"), "w"), indent=1)
  open(os.path.join(d, "case.json"), "a").write("\n")
  return name, meta


def rl_reset():
  from jax._src.pallas.mosaic.interpret import interpret_pallas_call as ipc
  ipc.reset_tpu_interpret_mode_state()


def generate(a):
  os.makedirs(a.out, exist_ok=True)
  ok = bad = 0
  for i in range(a.start, a.start + a.count):
    try:
      name, meta = write_case(a.out, a.seed, i)
      ok += 1
      print(f"{name}: {meta['description'][:150]}", flush=True)
    except Exception as e:  # noqa: BLE001 (a spec JAX refuses: skipped, reported)
      bad += 1
      print(f"case {i}: skipped ({type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''})",
            flush=True)
      if a.verbose:
        traceback.print_exc()
  print(f"generated {ok}, skipped {bad}")
  return 0


def check(a):
  cases = sorted(n for n in os.listdir(a.out) if os.path.isfile(os.path.join(a.out, n, "case.json")))
  if a.only:
    cases = [c for c in cases if c in a.only]
  rows = []
  for n in cases:
    d = os.path.join(a.out, n)
    meta = json.load(open(os.path.join(d, "case.json")))
    rtol = max(o["rtol"] for o in meta["outputs"])
    atol = max(o["atol"] for o in meta["outputs"])
    ins = sorted((f for f in os.listdir(d) if f.startswith("in") and f.endswith(".npy")),
                 key=lambda f: int(f[2:-4]))
    cmd = [a.check, "run", os.path.join(d, "module.mlir")]
    for f in ins:
      cmd += ["--input", os.path.join(d, f)]
    cmd += ["--compare", d, "--rtol", str(rtol), "--atol", str(atol), "--fuse-multiply-add"]
    cmd += a.extra
    t0 = time.time()
    try:
      p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
      rc, out = p.returncode, (p.stdout + p.stderr)
    except subprocess.TimeoutExpired:
      rc, out = "timeout", ""
    dt = time.time() - t0
    status = "ok" if rc == 0 else ("DIFF" if rc == 1 else f"ERROR({rc})")
    rows.append((n, status, dt, out))
    tail = " ".join(out.strip().splitlines()[-3:])[:300] if rc != 0 else ""
    print(f"{status:10s} {dt:6.2f}s {n}  {tail}", flush=True)
  print()
  n_ok = sum(1 for r in rows if r[1] == "ok")
  print(f"summary: {n_ok}/{len(rows)} ok; "
        f"{sum(1 for r in rows if r[1] == 'DIFF')} differ; "
        f"{sum(1 for r in rows if r[1].startswith('ERROR'))} errors")
  for n, s, _, out in rows:
    if s != "ok":
      print(f"--- {n} ({s})")
      print("\n".join(out.strip().splitlines()[-12:]))
  return 0 if n_ok == len(rows) else 1


def main():
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--count", type=int, default=30)
  ap.add_argument("--start", type=int, default=0, help="first case index")
  ap.add_argument("--seed", type=int, default=0)
  ap.add_argument("--out", required=True)
  ap.add_argument("--check", metavar="BIN", help="run BIN (tpu-custom-call) on every case in --out")
  ap.add_argument("--only", nargs="*")
  ap.add_argument("--timeout", type=float, default=120)
  ap.add_argument("--verbose", action="store_true")
  ap.add_argument("extra", nargs="*", help="(--check) extra arguments for `run`, after --")
  a = ap.parse_args()
  if a.check:
    return check(a)
  return generate(a)


if __name__ == "__main__":
  sys.exit(main())
