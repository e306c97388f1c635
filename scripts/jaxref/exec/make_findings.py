#!/usr/bin/env python3
"""Reference cases for defects of the Mosaic CPU executor, and detection cases (kernels that are
wrong on a TPU).

Usage (with the jaxref venv's python, ~/.cache/tpu-custom-call/jaxref-venv/bin/python):
  make_findings.py [--out tests/data/exec] [--detect-out tests/data/exec-detect] [--only NAME...]
                   [--list] [--retime]

Reuses make_refs.py's machinery (imported as a module: Case, write_case, prod_case; make_refs.py is
not edited, so the existing cases' bytes do not change). Same determinism rules: fixed seeds (crc32
of the case name), re-executed with JAX_PLATFORMS=cpu, 4 host devices, PYTHONHASHSEED=0 and
JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/" (debug locations name make_findings.py; editing
this file above a kernel changes that kernel's module.mlir debug_locations blob only).

1. tests/data/exec/<name>/ (the format of tests/data/exec/README.md, source "sem:<name>"):
   strided_load, strided_store, uint32_signed, erf_special, isfinite, subnormal_f32,
   masked_store_edge, paged_attention_megacore(_batch) (kv_head / batch), f32_transcendentals,
   aliased_output_partial_write, fma_contraction (section 1b, at the end of the file).
2. tests/data/exec-detect/<name>/: module.mlir, in*.npy, out*.npy (interpret mode, default params,
   where it completes), case.json with "expect" (race | revisited_block | uninitialized_read |
   megacore), a description and "interpret_mode": what interpret mode reports/computes under each
   relevant InterpretParams (exception type and message, races_found, outputs).
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NDEV = 4


def _reexec():
  # the same environment as make_refs.py's _reexec (which would re-execute make_refs.py itself)
  if os.environ.get("EXEC_REFS_CHILD") == "1":
    return
  argv = list(sys.argv[1:])
  for flag in ("--out", "--detect-out"):
    if flag in argv:
      i = argv.index(flag)
      argv[i + 1] = os.path.abspath(argv[i + 1])
  env = dict(os.environ, EXEC_REFS_CHILD="1", JAX_PLATFORMS="cpu",
             XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                        f" --xla_force_host_platform_device_count={NDEV}").strip(),
             PYTHONHASHSEED="0",
             JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=".*/")
  os.chdir(HERE)
  os.execve(sys.executable, [sys.executable, os.path.basename(__file__), *argv], env)


if __name__ == "__main__":
  _reexec()

import argparse  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import traceback  # noqa: E402
from typing import Any, Callable  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402
from jax.experimental.pallas import tpu as pltpu  # noqa: E402

sys.path.insert(0, HERE)
import make_refs as mr  # noqa: E402
import production as prod  # noqa: E402
import refs_lib as rl  # noqa: E402

REPO = mr.REPO
F32 = jnp.float32
BF16 = rl.BF16
I32 = jnp.int32
U32 = jnp.uint32
sds = mr.sds

FINDINGS: dict[str, mr.Case] = {}
POST: dict[str, Callable[[str, dict], None]] = {}   # name -> fn(case dir, meta) adds notes


def finding(name, desc, build, inputs, tol=(0.0, 0.0), tol_src=None, post=None, **extra):
  c = mr.Case(name=name, source=f"sem:{name}", description=desc, build=build, inputs=inputs,
              tol=tol, tolerance_source=tol_src, kind="sem", extra=extra)
  FINDINGS[name] = c
  if post is not None:
    POST[name] = post
  return c


def call(kernel, out_shape, interpret, **kw):
  return pl.pallas_call(kernel, out_shape=out_shape, interpret=rl.interp(interpret), **kw)


def f32_bits(a):
  return np.asarray(a, np.float32).view(np.int32)


# ============================================================================================
# 1. defects of the executor

# --- strided load / store (tpu.strided_load, tpu.strided_store)
def strided_load(interpret):
  def kernel(x_ref, o0, o1):
    o0[...] = x_ref[pl.ds(0, 8, stride=4), :]
    o1[...] = x_ref[pl.ds(3, 8, stride=3), :] * 2.0
  return lambda x: call(kernel, (sds((8, 128)), sds((8, 128))), interpret)(x)


finding("strided_load",
        "Strided sublane loads from a (32, 128) f32 ref: out0 = x[0:32:4] (pl.ds(0, 8, stride=4)), "
        "out1 = 2 * x[3:27:3] (pl.ds(3, 8, stride=3)). Lowers to tpu.strided_load {strides = [4, 1]} "
        "/ [3, 1].", strided_load,
        lambda rng: [mr.normal(rng, (32, 128))], ops=["tpu.strided_load"],
        notes="interpret mode: out0 == x[0::4][:8], out1 == 2 * x[3::3][:8] (checked when written)")


def strided_store(interpret):
  def kernel(x_ref, y_ref, a_ref, o0, o1):
    o0[...] = y_ref[...]
    o0[pl.ds(1, 8, stride=2), :] = x_ref[...] * 2.0
    # (with input_output_aliases={2: 1} instead of this full write, interpret mode gives NaN in
    # the rows the strided store skips: an aliased output's VMEM block is not loaded from the input)
    o1[...] = a_ref[...]
    o1[pl.ds(0, 4, stride=3), :] = x_ref[0:4, :] + 1.0
  return lambda x, y, a: call(kernel, (sds((24, 128)), sds((16, 128))), interpret)(x, y, a)


finding("strided_store",
        "Strided sublane stores: out0 (24, 128) = y, then rows 1, 3, .., 15 = 2x (pl.ds(1, 8, "
        "stride=2)); out1 (16, 128) = in2, then rows 0, 3, 6, 9 = x[0:4] + 1 (pl.ds(0, 4, stride=3)). Lowers to tpu.strided_store (each "
        "preceded by a tpu.strided_load of the same window whose result is unused).",
        strided_store,
        lambda rng: [mr.normal(rng, (8, 128)), mr.normal(rng, (24, 128)), mr.normal(rng, (16, 128))],
        ops=["tpu.strided_store"])


# --- uint32 operands reinterpreted as int32 (signed ops on i32 memrefs of ui32 data)
U32_SPECIAL = [0, 1, 2, 7, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE, 0xF0000000,
               0x0FFFFFFF, 0x10000000, 0xC0000000, 0x8000000F, 0xFFFFFFF9, 0x7FFFFFFE,
               0x00800000, 0x01000001, 0xFF7FFFFF, 0x4B000001]
U32_DIVISORS = [1, 0xFFFFFFFF, 7, 0xFFFFFFF9, 0x80000000, 0x7FFFFFFF, 2, 0xFFFFFFFE, 3, 0x10000000]


def u32_inputs(rng):
  n = 8 * 128
  x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
  y = rng.integers(1, 2**32, n, dtype=np.uint64).astype(np.uint32)
  sp = np.array(U32_SPECIAL, np.uint32)
  dv = np.array(U32_DIVISORS, np.uint32)
  # every special dividend against every special divisor
  k = 0
  for a in sp:
    for b in dv:
      x[k], y[k] = a, b
      k += 1
  # signed INT_MIN / -1 overflows (undefined in LLVM, a trap on x86): replaced by INT_MIN / 1
  bad = (x == 0x80000000) & (y == 0xFFFFFFFF)
  y[bad] = 1
  assert not np.any(y == 0)
  return [x.reshape(8, 128), y.reshape(8, 128)]


def uint32_signed(interpret):
  def kernel(x_ref, y_ref, sra, cmp, sdiv, srem, smax, sabs, s2f, u2f, ushr, udiv, urem, umax):
    x = x_ref[...]
    y = y_ref[...]
    xs = x.astype(I32)           # bit-preserving: 0x80000000 -> INT_MIN
    ys = y.astype(I32)
    sra[...] = xs >> 28          # arith.shrsi
    cmp[...] = ((xs < ys).astype(I32) + 2 * (x < y).astype(I32)
                + 4 * (xs >= 0).astype(I32) + 8 * (xs > ys).astype(I32))
    sdiv[...] = lax.div(xs, ys)  # arith.divsi (truncating)
    srem[...] = lax.rem(xs, ys)  # arith.remsi
    smax[...] = jnp.maximum(xs, ys) ^ jnp.minimum(xs, 5)
    sabs[...] = jnp.abs(xs)
    s2f[...] = xs.astype(F32)    # arith.sitofp
    u2f[...] = x.astype(F32)     # arith.uitofp
    ushr[...] = lax.shift_right_arithmetic(x, jnp.full_like(x, 28)) ^ (x >> 28)  # shrsi ^ shrui
    udiv[...] = x // y           # arith.divui
    urem[...] = x % y            # arith.remui
    umax[...] = jnp.maximum(x, y) ^ jnp.minimum(x, jnp.uint32(0x80000000))
  outs = (sds((8, 128), I32), sds((8, 128), I32), sds((8, 128), I32), sds((8, 128), I32),
          sds((8, 128), I32), sds((8, 128), I32), sds((8, 128), F32), sds((8, 128), F32),
          sds((8, 128), U32), sds((8, 128), U32), sds((8, 128), U32), sds((8, 128), U32))
  return lambda x, y: call(kernel, outs, interpret)(x, y)


finding("uint32_signed",
        "uint32 operands x, y (specials 0x80000000, 0xFFFFFFFF, ... against divisors incl. -1, "
        "INT_MIN as int32) reinterpreted with astype(int32), then signed ops: out0 xs >> 28 "
        "(shrsi), out1 compare bits (xs<ys) + 2(x<y unsigned) + 4(xs>=0) + 8(xs>ys), out2 "
        "lax.div (divsi), out3 lax.rem (remsi), out4 max(xs, ys) ^ min(xs, 5), out5 abs(xs) "
        "(abs(INT_MIN) = INT_MIN), out6 xs -> f32 (sitofp), out7 x -> f32 (uitofp), out8 "
        "shift_right_arithmetic(x u32, 28) ^ (x >> 28 logical), out9 x // y (divui), out10 x % y "
        "(remui), out11 max_u(x, y) ^ min_u(x, 0x80000000). The kernel's memrefs are i32 "
        "(signless): the signedness is only in the ops. No INT_MIN / -1 pair (overflow).",
        uint32_signed, u32_inputs,
        ops=["arith.shrsi", "arith.shrui", "arith.divsi", "arith.remsi", "arith.divui",
             "arith.remui", "arith.sitofp", "arith.uitofp", "arith.maxsi", "arith.maxui"])


# --- erf on special values
F32_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-30, -1e-30, 1e-38, 1e-45, -1e-45,
               1e-7, -1e-7, 0.5, -0.5, 1.0, -1.0, 3.0, 3.9, 4.0, 10.0, -10.0, 1e10, -1e10, 1e30,
               3.4028235e38, -3.4028235e38, 1.1754944e-38, 2.0, 0.1]


def erf_inputs(rng):
  x = mr.normal(rng, (8, 128), scale=2.0)
  x.flat[:len(F32_SPECIAL)] = np.array(F32_SPECIAL, np.float32)
  sp = np.zeros((8, 128), np.float32)
  exact = [0.0, -0.0, np.inf, -np.inf, np.nan, 10.0, -10.0, 1e10, -1e10, 1e30, -1e30,
           3.4028235e38, -3.4028235e38, 6.0, -6.0, 4.5]
  sp.flat[:] = np.resize(np.array(exact, np.float32), sp.size)
  xb = mr.normal(rng, (16, 128), scale=2.0)
  xb.flat[:len(F32_SPECIAL)] = np.array(F32_SPECIAL, np.float32)
  return [x, sp, xb.astype(BF16)]


def erf_special(interpret):
  def kernel(x_ref, s_ref, b_ref, o0, o1, o2, o3):
    o0[...] = lax.erf(x_ref[...])
    e = lax.erf(s_ref[...])
    o1[...] = e
    # sign bit of erf(s) (NaN results: 2) so that erf(-0) = -0 is checked bit-exactly
    # isnan written as not(e == e): jnp.isnan is `e != e`, which Pallas lowers to `arith.cmpf one`
    # (ORDERED not-equal: false for NaN), unlike XLA/interpret mode (true); see isfinite's notes
    o2[...] = jnp.where(jnp.logical_not(e == e), 2, jnp.signbit(e).astype(I32))
    o3[...] = lax.erf(b_ref[...])
  outs = (sds((8, 128)), sds((8, 128)), sds((8, 128), I32), sds((16, 128), BF16))
  return lambda x, s, b: call(kernel, outs, interpret)(x, s, b)


finding("erf_special",
        "lax.erf (math.erf) on f32 and bf16: out0 erf(in0 f32: normal*2 with specials +-0, +-inf, "
        "NaN, tiny (1e-30, 1e-38, 1e-45 subnormal), large (1e10, 1e30, max)); out1 erf(in1: values "
        "whose erf is exact in f32: +-0, +-inf, NaN, |x| >= 4.5 -> +-1) bit-exact; out2 signbit of "
        "out1 as int32 (2 where NaN) so -0 -> -0 is checked; out3 erf(in2 bf16 (16, 128), same "
        "specials).", erf_special, erf_inputs,
        tol=[(2e-6, 0.0), (0.0, 0.0), (0.0, 0.0), (8e-3, 0.0)],
        tol_src=("f32: 2e-6 relative (transcendental, libm vs XLA's polynomial; see f32_transcendentals "
                 "notes for measured ulp); atol 0 so tiny inputs (erf(x) ~ 1.128 x) are checked "
                 "relatively; exact-valued inputs 0/0; bf16: 8e-3 = 2 bf16 ulp (XLA computes bf16 erf "
                 "in f32 and rounds)"),
        ops=["math.erf"])


# --- isfinite (tpu.weird)
def isfinite_inputs(rng):
  x = mr.normal(rng, (8, 128), scale=100.0)
  sp = [np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 3.4028235e38, -3.4028235e38, 1e-45, -1e-45,
        1.1754944e-38, 1e-40, 1.0, -1.0]
  x.flat[:len(sp)] = np.array(sp, np.float32)
  # non-canonical NaNs (quiet with payload, signalling bit pattern)
  x.view(np.uint32).flat[20:24] = np.array([0x7FC00001, 0x7F800001, 0xFFFFFFFF, 0x7FBFFFFF], np.uint32)
  xb = mr.normal(rng, (16, 128), scale=100.0)
  xb.flat[:len(sp)] = np.array(sp, np.float32)
  return [x, xb.astype(BF16)]


def isfinite(interpret):
  def kernel(x_ref, b_ref, o0, o1, o2, o3):
    x = x_ref[...]
    o0[...] = jnp.isfinite(x).astype(I32)
    o1[...] = jnp.where(jnp.isfinite(x), x, 0.0)
    o2[...] = jnp.isfinite(b_ref[...].astype(F32)).astype(I32)  # tpu.weird takes f32 only
    # isnan as not(x == x) (arith.cmpf oeq + xori): jnp.isnan(x) = (x != x) lowers to
    # `arith.cmpf one` (ordered: false for NaN) while interpret mode computes true
    o3[...] = (jnp.logical_not(x == x).astype(I32) + 2 * jnp.isinf(x).astype(I32))
  outs = (sds((8, 128), I32), sds((8, 128)), sds((16, 128), I32), sds((8, 128), I32))
  return lambda x, b: call(kernel, outs, interpret)(x, b)


finding("isfinite",
        "jnp.isfinite on f32 (8, 128) with +-inf, NaN (incl. payload / signalling bit patterns), "
        "+-0, max, subnormals, finite: out0 isfinite as int32, out1 where(isfinite(x), x, 0), out2 "
        "isfinite of a bf16 (16, 128) input extended to f32 (tpu.weird on bf16 fails Mosaic's verifier: 'Input type must be F32'), out3 isnan + 2 isinf (isnan written not(x == x)). jnp.isfinite lowers to "
        "`tpu.weird` (true for inf and NaN) followed by arith.xori with true.",
        isfinite, isfinite_inputs, ops=["tpu.weird"],
        notes=("jnp.isnan(x) is lax.ne(x, x), and Pallas's TPU lowering maps lax.ne on floats to "
               "arith.cmpf ONE (lowering.py:4354-4361 _cmpf_lowering_types; ordered not-equal, FALSE "
               "when an operand is NaN), while XLA (interpret mode) computes an unordered != (TRUE "
               "for NaN). So a kernel's jnp.isnan / x != x is false for NaN per the lowered MLIR but "
               "true in interpret mode: interpret mode is not a faithful reference for float != with "
               "NaN operands. This case computes isnan as not(x == x) (cmpf oeq + xori), where both "
               "agree."))


# --- subnormal f32
SUBN = [1e-39, -1e-40, 1.4e-45, -1.4e-45, 1.1754942e-38, 5.877472e-39, 1e-38, 2.9e-39, -2.9e-39,
        1.1754944e-38, -1.1754944e-38, 2.3509887e-38, 0.0, -0.0, 1.0, 1e-45 * 3]


def subnormal_inputs(rng):
  x = np.resize(np.array(SUBN, np.float32), (8, 128)).copy()
  y = np.resize(np.array(SUBN[::-1], np.float32), (8, 128)).copy()
  # the rest: random subnormal bit patterns and small normals
  r = rng.integers(1, 0x00800000, 8 * 128 - 64, dtype=np.uint32) | (
      rng.integers(0, 2, 8 * 128 - 64, dtype=np.uint32) << 31)
  x.view(np.uint32).flat[64:] = r
  y.view(np.uint32).flat[64:] = rng.permutation(r)
  return [x, y]


def subnormal_f32(interpret):
  def kernel(x_ref, y_ref, o_mul2, o_floor, o_add, o_sub, o_mul, o_half, o_max, o_abs, o_eq0, o_bits,
             o_bf16):
    x = x_ref[...]
    y = y_ref[...]
    o_mul2[...] = x * 2.0
    o_floor[...] = jnp.floor(x)
    o_add[...] = x + y
    o_sub[...] = x - y
    o_mul[...] = x * 1e30 * y    # (x * 1e30) * y
    o_half[...] = (x + 1e-37) * 0.0625   # normal input, subnormal result
    o_max[...] = jnp.maximum(x, y)
    o_abs[...] = jnp.abs(x) + (-x)
    o_eq0[...] = (x == 0.0).astype(I32) + 2 * (x < y).astype(I32)
    o_bits[...] = lax.bitcast_convert_type(x, I32)   # loads/bitcasts keep subnormal bits
    o_bf16[...] = x.astype(BF16)
  outs = tuple([sds((8, 128))] * 8 + [sds((8, 128), I32), sds((8, 128), I32), sds((8, 128), BF16)])
  return lambda x, y: call(kernel, outs, interpret)(x, y)


def ftz(a):
  """Subnormals flushed to zero of the same sign."""
  a = np.asarray(a, np.float32)
  sub = (a != 0) & (np.abs(a) < np.float32(1.1754944e-38))
  return np.where(sub, np.copysign(np.float32(0), a), a).astype(np.float32)


def subnormal_post(d, meta):
  x, y = np.load(os.path.join(d, "in0.npy")), np.load(os.path.join(d, "in1.npy"))
  outs = [np.load(os.path.join(d, f"out{i}.npy")) for i in range(11)]
  xf, yf = ftz(x), ftz(y)

  def ops(x, y):
    with np.errstate(all="ignore"):
      return [x * np.float32(2), np.floor(x), x + y, x - y, (x * np.float32(1e30)) * y,
              (x + np.float32(1e-37)) * np.float32(0.0625), np.maximum(x, y), np.abs(x) + (-x)]
  names = ["x*2", "floor(x)", "x+y", "x-y", "x*1e30*y", "(x+1e-37)*0.0625", "max(x,y)", "abs(x)-x"]
  per = {}
  for n, o, r, m in zip(names, outs, ops(x, y), ops(xf, yf)):
    m = ftz(m)
    per[n] = {"elements_differing_from_numpy_ieee": int((o != r).sum()),
              "ieee_subnormal_results": int(((r != 0) & (np.abs(r) < np.float32(1.1754944e-38))).sum()),
              "interpret_subnormal_results": int(((o != 0) & (np.abs(o) < np.float32(1.1754944e-38))).sum()),
              "equals_ftz_daz_model": bool(np.array_equal(o, m)),
              "bits_equal_ftz_daz_model": bool(np.array_equal(o.view(np.int32), m.view(np.int32)))}
  subn = (x != 0) & (np.abs(x) < np.float32(1.1754944e-38))
  bf = outs[10].view(np.uint16)
  meta["measured"] = {
      "per_op": per,
      "subnormal_x": int(subn.sum()),
      "x_eq_0_true_for_subnormal_x": int((outs[8] & 1)[subn].sum()),
      "out8_equals_ftz_model": bool(np.array_equal(outs[8], (xf == 0) + 2 * (xf < yf))),
      "out9_bitcast_keeps_subnormal_bits": bool(np.array_equal(outs[9], x.view(np.int32))),
      "out10_bf16_equals_numpy_astype_of_unflushed_x": bool(np.array_equal(
          bf, x.astype(BF16).view(np.uint16))),
  }
  meta["notes"] = (
      "interpret mode (XLA:CPU) runs with flush-to-zero and denormals-are-zero: every f32 "
      "arithmetic op and compare treats subnormal operands as zero of the same sign and flushes "
      "subnormal results to signed zero (out0..out8 equal numpy on ftz(x), ftz(y) with the result "
      "flushed; e.g. floor(-1e-40) = -0, not -1; x == 0 is true for subnormal x). Not flushed: "
      "out9 bitcast(x) (a load and a bitcast, no arithmetic), and out10 x -> bf16 "
      "keeps subnormals (bf16 subnormals, rounded from the unflushed x: the conversion is integer "
      "bit arithmetic). out6 max(x, y): values equal the model; the sign of a zero result from a "
      "+0/-0 pair follows interpret mode (compare with equal values: allclose does not see the "
      "sign of zero). A real TPU also flushes f32 subnormals in the VPU. Avoided on purpose: "
      "bitcast(x * 1.0) - XLA's algebraic simplifier removes x * 1, so interpret mode returns the "
      "subnormal bits, while the lowered kernel keeps the arith.mulf (a flushing executor gives 0).")


finding("subnormal_f32",
        "f32 subnormal operands (1e-39, -1e-40, 1.4e-45, 0.5 * FLT_MIN, random subnormal bit "
        "patterns) and results: out0 x*2, out1 floor(x), out2 x+y, out3 x-y, out4 x*1e30*y, out5 "
        "(x + 1e-37) * 0.0625 (normal -> subnormal result), out6 max(x, y), out7 abs(x) + (-x), "
        "out8 (x == 0) + 2 (x < y) int32, out9 bitcast(x) int32 (loads keep subnormal bits), out10 x -> bf16.",
        subnormal_f32, subnormal_inputs, post=subnormal_post)


# --- masked store whose window reaches past the buffer
def masked_store_edge(interpret):
  def kernel(s_ref, x_ref, o_ref, p_ref):
    o_ref[...] = jnp.zeros_like(o_ref)
    start = s_ref[0]                      # 16: rows 16..23 of a 20-row buffer
    rows = lax.broadcasted_iota(I32, (8, 128), 0) + start
    pltpu.store(o_ref.at[pl.ds(start, 8), :], x_ref[...], mask=rows < 20)
    # the same with a (dynamic) start in the lane dimension of a (8, 200) ref: lanes 128..255
    p_ref[...] = jnp.full_like(p_ref, -1.0)
    c0 = s_ref[1]
    cols = lax.broadcasted_iota(I32, (8, 128), 1) + c0
    pltpu.store(p_ref.at[:, pl.ds(pl.multiple_of(c0, 128), 128)], x_ref[...] * 2.0, mask=cols < 200)
  return lambda s, x: call(
      kernel, (sds((20, 128)), sds((8, 200))), interpret,
      in_specs=[pl.BlockSpec(memory_space=pltpu.SMEM), pl.BlockSpec(memory_space=pltpu.VMEM)])(s, x)


finding("masked_store_edge",
        "Masked stores whose window reaches past the buffer, with only masked-in elements inside: "
        "out0 (20, 128) = 0, then pltpu.store(o.at[pl.ds(s[0], 8)], x, mask=row < 20) with s[0] = 16 "
        "(rows 16..23; 20..23 are outside and masked off); out1 (8, 200) = -1, then "
        "pltpu.store(p.at[:, pl.ds(s[1], 128)], 2x, mask=col < 200) with s[1] = 128 (lanes "
        "128..255; 200..255 outside, masked off). in0 = s (SMEM int32[2]). Each masked "
        "tpu.vector_store is preceded by an unmasked vector.load of the same window (result unused) "
        "that reaches past the buffer.",
        masked_store_edge,
        lambda rng: [np.array([16, 128], np.int32), mr.normal(rng, (8, 128))],
        ops=["tpu.vector_store"],
        notes=("interpret mode (shared_memory.py swap_buffer_content): a masked swap may run past "
               "the buffer as long as every out-of-bounds element is masked off; in-bounds masked-in "
               "elements are written, masked-off ones keep the buffer's values. Result: out0 rows "
               "16..19 = x[0:4], rows 0..15 = 0; out1 lanes 128..199 = 2 x[:, 0:72], lanes 0..127 = "
               "-1. The kernel is correct; an executor must not fault on the unused vector.load of "
               "the window nor on the masked-off out-of-bounds lanes of the store."))


# --- paged attention with megacore (production)
from jax.experimental.pallas.ops.tpu.paged_attention import paged_attention_kernel as pa_mod  # noqa: E402


MEGACORE_PARAMS = dict(num_cores_or_threads=2)


def capture_with(params, fn, *args, **kwargs) -> list[dict]:
  """production.capture with interpret=params (instead of InterpretParams() defaults)."""
  cap: list[dict] = []

  def patched(*a, **kw):
    kw.pop("interpret", None)
    kw["interpret"] = params
    call_ = rl.REAL_PALLAS_CALL(*a, **kw)

    def capturing(*operands):
      cap.append({"kernel": a[0] if a else kw.get("kernel"), "args": a, "kwargs": dict(kw),
                  "operands": operands})
      return call_(*operands)
    return capturing
  saved = pl.pallas_call
  pl.pallas_call = patched
  try:
    with jax.disable_jit():
      jax.block_until_ready(fn(*args, **kwargs))
  finally:
    pl.pallas_call = saved
  for c in cap:
    leaves, c["treedef"] = jax.tree.flatten(tuple(c["operands"]))
    c["operands"] = [np.asarray(o) for o in leaves]
  return cap


def pa_mc_run(mode):
  def run(rng):
    batch, q_heads, kv_heads, d, page_size, pages_per_seq, total_pages = 2, 4, 2, 128, 16, 4, 8
    q = jnp.asarray(mr.normal(rng, (batch, q_heads, d)))
    k_pages = jnp.asarray(mr.normal(rng, (kv_heads, total_pages, page_size, d)))
    v_pages = jnp.asarray(mr.normal(rng, (kv_heads, total_pages, page_size, d)))
    lengths = jnp.asarray(np.array([37, 64], np.int32))
    page_indices = jnp.asarray(rng.permutation(total_pages)[:batch * pages_per_seq]
                               .reshape(batch, pages_per_seq).astype(np.int32))
    return capture_with(pltpu.InterpretParams(**MEGACORE_PARAMS), pa_mod.paged_attention, q,
                        k_pages, v_pages, lengths, page_indices, pages_per_compute_block=2,
                        megacore_mode=mode)
  return run


MEGACORE_VARIANT = (
    "interpret run with pltpu.InterpretParams(num_cores_or_threads=2) (2 TensorCores per device, "
    "as the kernel assumes): with the default single core interpret mode DEADLOCKS in dma_wait "
    "(interpret_pallas_call.py:1193 -> shared_memory.py:205 threading wait, observed: no progress "
    "in 10 min). Reason: the kernel keeps its 'first step' flag (init_flag, scalar-prefetch "
    "operand 3) and the double-buffer index in SMEM, which each core of a megacore chip has its "
    "own copy of; run sequentially on one core, the second value of the core grid index starts "
    "with init_flag already 0, so it does not start the DMA of its first kv block, then waits "
    "for it. With 2 cores interpret mode splits the parallel core dimension between the cores "
    "(each with its own SMEM/VMEM scratch); outputs are bit-identical to the megacore_mode=None kernel's "
    "(checked for these inputs). An executor running the grid sequentially on one core with "
    "shared scalar-prefetch state reproduces the deadlock (or waits on a DMA never started).")


def prod_finding(name, mode):
  p = mr.Prod(name, pa_mc_run(mode))

  def build(interpret):
    call_ = p.calls()[0]
    kw = dict(call_["kwargs"])
    kw["interpret"] = pltpu.InterpretParams(**MEGACORE_PARAMS) if interpret else False
    treedef = call_["treedef"]
    return lambda *ops: rl.REAL_PALLAS_CALL(*call_["args"], **kw)(*jax.tree.unflatten(treedef, ops))

  desc = (f"Paged grouped-query attention with megacore_mode={mode!r}: q f32 [2, 4, 128], k/v pages "
          f"f32 [2 kv heads, 8 pages, 16, 128], lengths [37, 64], permuted page table [2, 4], "
          f"pages_per_compute_block 2. Grid (2 cores, {'1' if mode == 'batch' else '2'} batch, "
          f"{'1' if mode == 'kv_head' else '2'} kv heads, 2 kv blocks), dimension_semantics "
          "(parallel, arbitrary, arbitrary, arbitrary); the index maps and the kernel use the core "
          "index (grid dim 0) to pick the " + ("kv head (h * 2 + core)" if mode == "kv_head" else
                                               "sequence (b * 2 + core)") +
          ". Scalar prefetch: lengths, page_indices, buffer index, init flag.")
  FINDINGS[name] = mr.Case(
      name=name, source=f"sem:{name}", description=desc, build=build,
      inputs=lambda rng: list(p.calls()[0]["operands"]), tol=(2e-3, 2e-3),
      tolerance_source=mr.PA_TOL_SRC, kind="sem",
      extra={"production_source": "jax.experimental.pallas.ops.tpu.paged_attention.paged_attention",
             "captured": "pallas_call #0 of the production call, with its operands (captured like "
                         "production.py, but under InterpretParams(num_cores_or_threads=2))",
             "interpret_variant": MEGACORE_VARIANT,
             "cores": 2,
             "cores_note": "run with 2 TensorCores per device (executor: --cores 2 / --target v5p); "
                           "the leading parallel grid dimension is the core index"})

  def post(d, meta):
    meta["interpret_params"] = "pltpu.InterpretParams(num_cores_or_threads=2)"
  POST[name] = post


prod_finding("paged_attention_megacore", "kv_head")
prod_finding("paged_attention_megacore_batch", "batch")


# --- f32 transcendentals and exact ops
def tr_inputs(rng):
  g = mr.normal(rng, (8, 128), scale=3.0)                          # general
  p = np.exp(mr.normal(rng, (8, 128), scale=2.0)).astype(np.float32)  # positive
  u = rng.uniform(-0.999, 0.999, (8, 128)).astype(np.float32)     # (-1, 1)
  return [g, p, u]


try:
  from scipy import special as _sp
except Exception:  # pragma: no cover
  _sp = None

TRANS = [  # name, jax fn, float64 numpy reference
    ("exp", lambda g, p, u: jnp.exp(g), lambda g, p, u: np.exp(g)),
    ("log", lambda g, p, u: jnp.log(p), lambda g, p, u: np.log(p)),
    ("log1p", lambda g, p, u: jnp.log1p(p), lambda g, p, u: np.log1p(p)),
    ("log1p_small", lambda g, p, u: jnp.log1p(u * 1e-3), lambda g, p, u: np.log1p(
        (u.astype(np.float32) * np.float32(1e-3)).astype(np.float64))),
    ("tanh", lambda g, p, u: jnp.tanh(g), lambda g, p, u: np.tanh(g)),
    ("logistic", lambda g, p, u: jax.nn.sigmoid(g), lambda g, p, u: 1.0 / (1.0 + np.exp(-g))),
    ("sin", lambda g, p, u: jnp.sin(g), lambda g, p, u: np.sin(g)),
    ("cos", lambda g, p, u: jnp.cos(g), lambda g, p, u: np.cos(g)),
    ("tan", lambda g, p, u: jnp.tan(u), lambda g, p, u: np.tan(u)),
    ("rsqrt", lambda g, p, u: lax.rsqrt(p), lambda g, p, u: 1.0 / np.sqrt(p)),
    ("erf", lambda g, p, u: lax.erf(g), lambda g, p, u: _sp.erf(g)),
    ("erf_inv", lambda g, p, u: lax.erf_inv(u), lambda g, p, u: _sp.erfinv(u)),
    ("pow", lambda g, p, u: lax.pow(p, u * 4.0), lambda g, p, u: np.power(
        p, (u.astype(np.float32) * np.float32(4.0)).astype(np.float64))),
    ("atan2", lambda g, p, u: jnp.arctan2(g, u), lambda g, p, u: np.arctan2(g, u)),
]
EXACT = [
    ("add", lambda g, p, u: g + p), ("sub", lambda g, p, u: g - u), ("mul", lambda g, p, u: g * p),
    ("div", lambda g, p, u: g / p), ("sqrt", lambda g, p, u: jnp.sqrt(p)),
    ("floor", lambda g, p, u: jnp.floor(g)), ("ceil", lambda g, p, u: jnp.ceil(g)),
    ("round_even", lambda g, p, u: jnp.round(g * 4.0)), ("abs", lambda g, p, u: jnp.abs(g)),
    ("neg", lambda g, p, u: -g), ("max", lambda g, p, u: jnp.maximum(g, u)),
    ("min", lambda g, p, u: jnp.minimum(g, u)), ("rem", lambda g, p, u: lax.rem(g, p)),
    ("square", lambda g, p, u: g * g),
    ("reciprocal", lambda g, p, u: 1.0 / p),
]
EXACT_NP = {
    "add": lambda g, p, u: g + p, "sub": lambda g, p, u: g - u, "mul": lambda g, p, u: g * p,
    "div": lambda g, p, u: g / p, "sqrt": lambda g, p, u: np.sqrt(p),
    "floor": lambda g, p, u: np.floor(g), "ceil": lambda g, p, u: np.ceil(g),
    "round_even": lambda g, p, u: np.round(g * np.float32(4.0)), "abs": lambda g, p, u: np.abs(g),
    "neg": lambda g, p, u: -g, "max": lambda g, p, u: np.maximum(g, u),
    "min": lambda g, p, u: np.minimum(g, u), "rem": lambda g, p, u: np.fmod(g, p),
    "square": lambda g, p, u: g * g,
    "reciprocal": lambda g, p, u: np.float32(1.0) / p,
}
TRANS_RTOL = 1e-6
TRANS_ATOL = 1e-6


def transcendentals(interpret):
  fns = [f for _, f, _ in TRANS] + [f for _, f in EXACT]

  def kernel(g_ref, p_ref, u_ref, *outs):
    g, p, u = g_ref[...], p_ref[...], u_ref[...]
    for o, f in zip(outs, fns):
      o[...] = f(g, p, u)
  return lambda g, p, u: call(kernel, tuple(sds((8, 128)) for _ in fns), interpret)(g, p, u)


def ulp_dist(a, b):
  """|a - b| in f32 ulps (ordered bit patterns); NaN vs NaN = 0."""
  def ordered(x):
    i = np.asarray(x, np.float32).view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)
  d = np.abs(ordered(a) - ordered(b))
  both_nan = np.isnan(a) & np.isnan(b)
  return np.where(both_nan, 0, d)


def tr_tols():
  """(rtol, atol) per output; transcendental ones widened where a correctly rounded result
  (float64 rounded to f32) would fall outside rtol 1e-6 / atol 1e-6 of interpret mode's value."""
  return ([(2e-6 if n == "erf_inv" else TRANS_RTOL, TRANS_ATOL) for n, _, _ in TRANS]
          + [(0.0, 0.0)] * len(EXACT))


def tr_post(d, meta):
  g, p, u = (np.load(os.path.join(d, f"in{i}.npy")) for i in range(3))
  g64, p64, u64 = (a.astype(np.float64) for a in (g, p, u))
  per: dict[str, Any] = {}
  for i, (n, _, ref) in enumerate(TRANS):
    o = np.load(os.path.join(d, f"out{i}.npy"))
    with np.errstate(all="ignore"):
      r = ref(g64, p64, u64).astype(np.float32)
    ul = ulp_dist(o, r)
    rel = np.abs(o.astype(np.float64) - r) / np.maximum(np.abs(r.astype(np.float64)), 1e-30)
    ok = np.allclose(r, o, rtol=meta["outputs"][i]["rtol"], atol=meta["outputs"][i]["atol"],
                     equal_nan=True)
    per[n] = {"output": i, "max_ulp": int(ul.max()), "mean_ulp": round(float(ul.mean()), 3),
              "elements_over_1ulp": int((ul > 1).sum()), "max_rel_diff": float(f"{rel.max():.3g}"),
              "correctly_rounded_within_tolerance": bool(ok)}
  for j, (n, _) in enumerate(EXACT):
    i = len(TRANS) + j
    o = np.load(os.path.join(d, f"out{i}.npy"))
    with np.errstate(all="ignore"):
      r = np.asarray(EXACT_NP[n](g, p, u), np.float32)
    per[n] = {"output": i, "max_ulp": int(ulp_dist(o, r).max()),
              "bit_equal_numpy_f32": bool(np.array_equal(o.view(np.int32), r.view(np.int32)))}
  meta["measured_ulp_vs_float64_reference"] = per
  meta["notes"] = (
      "measured_ulp_vs_float64_reference: per op, interpret mode's f32 result vs the float64 numpy/"
      "scipy result rounded to f32 (the correctly rounded value, up to double rounding), distance "
      "in f32 ulps over the 1024 elements. Exact ops vs numpy's f32 op. Inputs: in0 normal*3, "
      "in1 exp(normal*2) > 0, in2 uniform(-0.999, 0.999). Ops and operands: " +
      ", ".join(f"out{i} {n}" for i, n in enumerate([t[0] for t in TRANS] + [e[0] for e in EXACT])) +
      ". Operands: exp/tanh/logistic/sin/cos/erf(in0), log/log1p/rsqrt(in1), log1p_small(in2*1e-3), "
      "tan/erf_inv(in2), pow(in1, 4 in2), atan2(in0, in2); add in0+in1, sub in0-in2, mul in0*in1, "
      "div in0/in1, sqrt(in1), floor/ceil/abs/neg/square(in0), round_even(4 in0), "
      "max/min(in0, in2), rem(in0, in1) (fmod), reciprocal 1/in1.")


finding("f32_transcendentals",
        "f32 transcendental ops (each its own output, few-ulp tolerance) and ops that must be exact "
        "(0/0), on three seeded (8, 128) inputs; see notes for the operands and measured ulp "
        "differences of interpret mode vs float64 references.",
        transcendentals, tr_inputs, tol=tr_tols(),
        tol_src=("transcendentals: rtol 1e-6, atol 1e-6 (a few f32 ulp; atol for results near 0, "
                 "e.g. sin near pi); exact IEEE ops (add, sub, mul, div, sqrt, floor, ceil, "
                 "round-half-even, abs, neg, max, min, rem, square, reciprocal) 0/0; erf_inv "
                 "rtol 2e-6 (interpret mode's own result is up to 9 ulp from the correctly rounded "
                 "one)"),
        post=tr_post,
        ops=["math.exp", "math.log", "math.log1p", "math.tanh", "tpu.logistic", "math.sin",
             "math.cos", "math.tan", "math.rsqrt", "math.erf", "math.powf", "math.atan2",
             "math.sqrt", "math.floor", "math.ceil", "math.roundeven", "arith.remf",
             "arith.maximumf", "arith.minimumf", "arith.divf"])


# --- aliased output whose visited block is only partly written
def aliased_partial(interpret):
  def kernel(x_ref, a_ref, o_ref):
    del a_ref
    o_ref[0:4, :] = x_ref[0:4, :] * 2.0     # rows 4..7 of the visited block are never written
  return lambda x, a: call(kernel, sds((16, 128)), interpret, grid=(1,),
                           in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0)),
                                     pl.BlockSpec((8, 128), lambda i: (i, 0))],
                           out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
                           input_output_aliases={1: 0})(x, a)


finding("aliased_output_partial_write",
        "Output (16, 128) aliased to in1 (input_output_aliases {1: 0}), grid (1,), (8, 128) blocks: "
        "the kernel writes only rows 0..3 of output block 0 (2 x). Block 1 is never visited and "
        "keeps in1's values; rows 4..7 of the visited block 0 were never written, and the block is "
        "written back whole: interpret mode gives NaN there (the output block's VMEM buffer starts "
        "uninitialized; it is not loaded from the aliased input), as on a TPU (stale VMEM).",
        aliased_partial, lambda rng: [mr.normal(rng, (8, 128)), mr.normal(rng, (16, 128))],
        notes="out0: rows 0..3 = 2 x[0:4], rows 4..7 NaN, rows 8..15 = in1[8:16].")


# ============================================================================================
# 2. detection cases (kernels that are wrong on a TPU)

class Detect:
  def __init__(self, name, expect, description, build, inputs, runs, main_params=None, notes=None,
               lower_ctx=None):
    self.name, self.expect, self.description = name, expect, description
    self.build = build            # build(params or False) -> fn
    self.inputs = inputs
    self.runs = runs              # list of (label, InterpretParams kwargs, file prefix or None)
    self.main_params = main_params or {}
    self.notes = notes
    self.lower_ctx = lower_ctx


DETECTS: dict[str, Detect] = {}


def detect(d: Detect):
  DETECTS[d.name] = d
  return d


def params_str(kw):
  if not kw:
    return "pltpu.InterpretParams() (defaults)"
  return "pltpu.InterpretParams(" + ", ".join(f"{k}={v!r}" for k, v in kw.items()) + ")"


def summarize(outs, ref_outs=None):
  s = []
  for i, o in enumerate(outs):
    o = np.asarray(o)
    e = {"output": i, "dtype": rl.dtype_name(o.dtype), "shape": list(o.shape)}
    if o.dtype.kind == "f" or o.dtype == BF16:
      of = o.astype(np.float32)
      e["nan"] = int(np.isnan(of).sum())
    if ref_outs is not None:
      e["equals_default_run"] = bool(np.array_equal(np.asarray(ref_outs[i]).astype(np.float64),
                                                    o.astype(np.float64), equal_nan=True))
    s.append(e)
  return s


def clean_msg(msg: str) -> str:
  # drop absolute paths (keep base names) and object addresses so the message is reproducible
  msg = re.sub(r"(/[^\s:'\"]+/)([^/\s:'\"]+\.py)", r"\2", msg)
  return re.sub(r" at 0x[0-9a-f]+", "", msg)


class _Capture(logging.Handler):
  def __init__(self):
    super().__init__(logging.WARNING)
    self.msgs: list[str] = []

  def emit(self, record):
    m = record.getMessage()
    if "RACE DETECTED" in m:
      self.msgs.append(m)


def interpret_run(d: Detect, kw: dict, args, record_grid=False):
  from jax._src.pallas.mosaic.interpret import interpret_pallas_call as ipc
  ipc.reset_tpu_interpret_mode_state()
  grid_points = []
  kw = dict(kw)
  if record_grid:
    def recorder(token, gp, core):
      grid_points.append(([int(x) for x in gp], int(core)))
      return token
    kw["grid_point_recorder"] = recorder
  params = pltpu.InterpretParams(**kw)
  res: dict[str, Any] = {}
  outs = None
  cap = _Capture()
  logging.getLogger().addHandler(cap)
  try:
    out = jax.block_until_ready(jax.jit(d.build(params))(*args))
    outs = [np.asarray(o) for o in jax.tree.leaves(out)]
    res["result"] = "completed"
  except Exception as e:  # noqa: BLE001
    res["result"] = "raised"
    res["exception"] = type(e).__name__
    msg = str(e)
    inner = re.search(r"(?:\n(\w+): )?(RACE DETECTED.*|Revisited block.*|Out-of-bounds.*)", msg,
                      re.S)
    if inner:
      # the interpret-mode error raised inside the io_callback (wrapped by XLA's CpuCallback error)
      res["inner_exception"] = inner.group(1) or "RuntimeError"
      res["message"] = clean_msg(inner.group(2)).strip()[:3000]
    else:
      res["message"] = clean_msg(msg)[:3000]
  logging.getLogger().removeHandler(cap)
  if cap.msgs:
    res["race_warnings"] = len(cap.msgs)
    res["first_race_warning"] = clean_msg(cap.msgs[0]).strip()
  if ipc.races is not None:
    res["races_found"] = bool(ipc.races.races_found)
    if res["result"] == "raised" and "RACE DETECTED" in res.get("message", ""):
      res["races_found_note"] = ("races_found is set only after a race with on_race='warn'; "
                                 "on_race='raise' raises before setting it")
  ipc.reset_tpu_interpret_mode_state()
  if record_grid:
    # per core, in that core's visiting order (threads of different cores interleave freely)
    res["grid_points_visited_per_core"] = {
        str(c): [gp for gp, cc in grid_points if cc == c]
        for c in sorted({cc for _, cc in grid_points})}
  return res, outs


def write_detect(d: Detect, out_root: str):
  dd = os.path.join(out_root, d.name)
  tmp = dd + ".tmp"
  shutil.rmtree(tmp, ignore_errors=True)
  os.makedirs(tmp)
  ins = [np.asarray(a) for a in d.inputs(mr.seeded(d.name))]
  args = [jnp.asarray(a) for a in ins]
  if d.lower_ctx is not None:
    with d.lower_ctx():
      text = mr.cross_lower(d.build(False), args)
  else:
    text = mr.cross_lower(d.build(False), args)
  open(os.path.join(tmp, "module.mlir"), "w").write(text)
  for i, a in enumerate(ins):
    rl.save_npy(os.path.join(tmp, f"in{i}.npy"), a)
  runs = []
  default_outs = None
  files: dict[str, list[str]] = {}
  for label, kw, prefix in d.runs:
    r, outs = interpret_run(d, kw, args, record_grid=kw.pop("_record_grid", False)
                            if isinstance(kw, dict) else False)
    entry = {"run": label, "params": params_str({k: v for k, v in kw.items()
                                                 if not k.startswith("_")}), **r}
    if outs is not None:
      if default_outs is None and prefix == "out":
        default_outs = outs
      entry["outputs"] = summarize(outs, default_outs if prefix != "out" else None)
      if prefix is not None:
        names = []
        for i, o in enumerate(outs):
          fn = f"{prefix}{i}.npy"
          rl.save_npy(os.path.join(tmp, fn), o)
          names.append(fn)
        entry["files"] = names
        files[label] = names
    runs.append(entry)
    print(f"   {label}: {r.get('result')} {r.get('exception', '')} "
          f"{(r.get('message') or '')[:160]!r} races={r.get('races_found')}",
          flush=True)
  ccs = rl.custom_calls(text)
  meta = {
      "name": d.name, "expect": d.expect, "description": d.description,
      "inputs": [{"dtype": rl.dtype_name(a.dtype), "shape": list(a.shape)} for a in ins],
      "num_custom_calls": len(ccs),
      "interpret_mode": runs,
  }
  if d.notes:
    meta["notes"] = d.notes
  meta["jax_version"] = jax.__version__
  json.dump(meta, open(os.path.join(tmp, "case.json"), "w"), indent=1)
  open(os.path.join(tmp, "case.json"), "a").write("\n")
  shutil.rmtree(dd, ignore_errors=True)
  os.rename(tmp, dd)
  return meta


def dcall(kernel, out_shape, params, **kw):
  return pl.pallas_call(kernel, out_shape=out_shape, interpret=params if params else False, **kw)


# --- DMA races
def race_dma_read(params):
  def kernel(x_hbm, o_ref, t_ref, sem):
    copy = pltpu.make_async_copy(x_hbm, t_ref, sem)
    copy.start()
    o_ref[...] = t_ref[...]       # reads the DMA destination while the DMA is in flight
    copy.wait()
  return lambda x: dcall(kernel, sds((8, 128)), params,
                         in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                         scratch_shapes=[pltpu.VMEM((8, 128), F32), pltpu.SemaphoreType.DMA])(x)


def race_free_dma(params):
  def kernel(x_hbm, o_ref, t_ref, sem):
    copy = pltpu.make_async_copy(x_hbm, t_ref, sem)
    copy.start()
    copy.wait()
    o_ref[...] = t_ref[...] + 1.0
  return lambda x: dcall(kernel, sds((8, 128)), params,
                         in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                         scratch_shapes=[pltpu.VMEM((8, 128), F32), pltpu.SemaphoreType.DMA])(x)


def race_dma_write(params):
  def kernel(x_ref, o_hbm, s_ref, sem):
    s_ref[...] = x_ref[...]
    copy = pltpu.make_async_copy(s_ref, o_hbm, sem)
    copy.start()
    s_ref[...] = x_ref[...] * 2.0   # overwrites the DMA source while the DMA is in flight
    copy.wait()
  return lambda x: dcall(kernel, sds((8, 128)), params,
                         out_specs=pl.BlockSpec(memory_space=pl.ANY),
                         scratch_shapes=[pltpu.VMEM((8, 128), F32), pltpu.SemaphoreType.DMA])(x)


RACE_RUNS = [
    ("default", {}, "out"),
    ("detect_races", {"detect_races": True}, None),
    ("detect_races_warn", {"detect_races": True, "on_race": "warn"}, None),
    ("eager_dma", {"dma_execution_mode": "eager"}, "eager_out"),
    ("eager_dma_detect_races", {"detect_races": True, "dma_execution_mode": "eager", "on_race": "warn"},
     None),
]

detect(Detect(
    "race_dma_read", "race",
    "copy = pltpu.make_async_copy(x_hbm, t_vmem, sem); copy.start(); o_ref[...] = t_ref[...]; "
    "copy.wait(): the kernel reads the DMA's destination while the DMA is in flight (on a TPU the "
    "output is the old scratch contents, the new ones, or a mix). x is f32 (8, 128) in HBM "
    "(memory_space ANY), t a VMEM scratch, out0 VMEM.",
    race_dma_read, lambda rng: [mr.normal(rng, (8, 128))], RACE_RUNS,
    notes="out0.npy: default params (dma_execution_mode 'on_wait': the copy happens at wait, so the "
          "read sees the uninitialized scratch, NaN); eager_out0.npy: dma_execution_mode='eager' "
          "(the copy happens at start: out == x)."))

detect(Detect(
    "race_dma_write", "race",
    "s = x; copy = make_async_copy(s_vmem, o_hbm, sem); copy.start(); s[...] = 2x; copy.wait(): "
    "the kernel overwrites the DMA's source while a DMA out of it is in flight (on a TPU the "
    "output is x, 2x or a mix). out0 in HBM (memory_space ANY).",
    race_dma_write, lambda rng: [mr.normal(rng, (8, 128))], RACE_RUNS,
    notes="out0.npy: default ('on_wait': the DMA reads its source at wait, after the overwrite: 2x); "
          "eager_out0.npy: dma_execution_mode='eager' (x)."))

detect(Detect(
    "race_free_dma", "none",
    "Race-free twin of race_dma_read: copy.start(); copy.wait(); o_ref[...] = t_ref[...] + 1. "
    "expect 'none': this kernel has NO race; an executor's race check must stay silent and "
    "out0 = x + 1.",
    race_free_dma, lambda rng: [mr.normal(rng, (8, 128))], RACE_RUNS,
    notes="race-free (twin of race_dma_read); out0.npy (default params) = x + 1, the same under "
          "every DMA schedule."))


# --- revisited output block
def revisited(params):
  def kernel(x_ref, o_ref):
    j = pl.program_id(1)

    @pl.when((j & 1) == 0)     # j % 2 == 0 (integer rem needs a TPU generation to lower)
    def _():
      o_ref[...] = jnp.zeros_like(o_ref)
    o_ref[...] += x_ref[...]
  return lambda x: dcall(kernel, sds((16, 256)), params, grid=(4, 4),
                         in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],
                         out_specs=pl.BlockSpec((8, 128), lambda i, j: (j >> 1, i & 1)))(x)


detect(Detect(
    "revisited_block", "revisited_block",
    "Grid (4, 4) (arbitrary, arbitrary), x f32 (32, 512) in (8, 128) blocks (i, j), output (16, 256) "
    "in (8, 128) blocks with index map (i, j) -> (j // 2, i % 2) (written j >> 1, i & 1); kernel: zero the output block when "
    "j is even, then o += x. Output block (0, 0) is visited at (0, 0), (0, 1), then again at (2, 0), "
    "(2, 1) after other blocks: a non-consecutive revisit. On a TPU the pipeline writes the block "
    "back when the index changes and does not re-read it: the second visit re-zeroes and the first "
    "visit's contribution is lost (the intent, sum over i = 0 and 2, is not computed).",
    revisited, lambda rng: [mr.normal(rng, (32, 512))],
    [("default", {}, "out"),
     ("detect_races", {"detect_races": True}, None)],
    notes="interpret mode checks revisits unconditionally (_check_for_revisiting, "
          "interpret_pallas_call.py:265-303; skipped only for outputs aliased to inputs)."))


# --- accumulator never initialized
def uninit_acc(params):
  def kernel(a_ref, b_ref, o_ref):
    o_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=F32)
  return lambda a, b: dcall(
      kernel, sds((16, 128)), params, grid=(4,),
      in_specs=[pl.BlockSpec((16, 128), lambda k: (0, k)), pl.BlockSpec((128, 128), lambda k: (k, 0))],
      out_specs=pl.BlockSpec((16, 128), lambda k: (0, 0)),
      compiler_params=pltpu.CompilerParams(dimension_semantics=("arbitrary",)))(a, b)


detect(Detect(
    "uninit_accumulator", "uninitialized_read",
    "Matmul (16, 512) @ (512, 128) -> f32 over a k grid (4,) (arbitrary), o_ref[...] += "
    "jnp.dot(a, b) with NO pl.when(k == 0) initialization: the first step reads the output "
    "block before anything wrote it (on a TPU: whatever the VMEM buffer held).",
    uninit_acc, lambda rng: [mr.normal(rng, (16, 512)), mr.normal(rng, (512, 128))],
    [("default", {}, "out"),
     ("uninitialized_zero", {"uninitialized_memory": "zero"}, "zero_out"),
     ("detect_races", {"detect_races": True}, None)],
    notes="out0.npy: default (uninitialized_memory='nan': the output buffer starts as NaN, so the "
          "result is all NaN); zero_out0.npy: uninitialized_memory='zero' (the result a @ b with "
          "f32 accumulation over 4 k blocks). Interpret mode does not report the uninitialized "
          "read itself: it only fills uninitialized memory with NaN (or zero)."))


# --- megacore-dependent result
def megacore_dep(params):
  def kernel(x_ref, o_ref, acc_ref):
    i, j = pl.program_id(0), pl.program_id(1)

    @pl.when((i == 0) & (j == 0))
    def _():
      acc_ref[...] = jnp.zeros_like(acc_ref)
    acc_ref[...] += x_ref[...]

    @pl.when(j == pl.num_programs(1) - 1)
    def _():
      o_ref[...] = acc_ref[...]
  return lambda x: dcall(
      kernel, sds((16, 128)), params, grid=(2, 4),
      in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i * 4 + j, 0))],
      out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, 0)),
      scratch_shapes=[pltpu.VMEM((8, 128), F32)],
      compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "arbitrary")))(x)


detect(Detect(
    "megacore_dependent", "megacore",
    "Grid (2, 4), dimension_semantics (parallel, arbitrary); a VMEM scratch accumulator zeroed "
    "only at grid point (0, 0) and carried across the parallel dim: acc += x block (i*4 + j); out "
    "block i = acc at j == 3. Sequentially in grid order: out block 0 = sum of x blocks 0..3, "
    "block 1 = sum of blocks 0..7. On a 2-TensorCore (megacore) chip each core runs one i with its "
    "own scratch: the core running i = 1 never zeroes its accumulator (garbage), and even on one "
    "core the parallel dim may run in any order.",
    megacore_dep, lambda rng: [mr.normal(rng, (64, 128))],
    [("default_one_core", {"_record_grid": True}, "out"),
     ("two_cores", {"num_cores_or_threads": 2, "_record_grid": True}, "megacore_out"),
     ("two_cores_detect_races", {"num_cores_or_threads": 2, "detect_races": True, "on_race": "warn"},
      None),
     ("one_core_random_seed_4", {"random_seed": 4, "_record_grid": True}, "seed4_out")],
    notes="out0.npy: one core (num_cores_or_threads=1, default); megacore_out0.npy: "
          "num_cores_or_threads=2 (interpret mode splits the parallel sub-grid between the cores, "
          "each core with its own VMEM scratch); seed4_out0.npy: one core with random_seed=4 (the "
          "parallel dim visited in the order [1, 0]: i = 1 runs first on a never-zeroed "
          "accumulator, so out block 1 is NaN; seeds 0..3 give the order [0, 1]). "
          "grid_points_visited_per_core: core -> [i, j] in that core's visiting order (from "
          "InterpretParams.grid_point_recorder). Parallel dims are visited in a permutation drawn with "
          "jax.random.key(random_seed or 0) (interpret_pallas_call.py:1911-1956)."))


# ============================================================================================
# 1b. (after the detection cases so that adding it moved no other kernel's lines)

# --- which multiplies XLA:CPU (interpret mode) contracts into an FMA
def fma_contraction(interpret):
  def kernel(a_ref, b_ref, c_ref, d_ref, xb_ref, o_lhs, o_sub, o_shared, o_bf16, o_bf16_add):
    a, b, c, d = a_ref[...], b_ref[...], c_ref[...], d_ref[...]
    o_lhs[...] = a * b + c * d              # two single-use products: XLA fuses a*b (the lhs)
    o_sub[...] = a * b - c * d
    sq = a * a                              # a*a twice in the kernel: XLA CSEs them into one
    o_shared[...] = a * a + jnp.where(sq > 1.0, sq, -1.0) * c   # multiply with two users
    xb = xb_ref[...]
    o_bf16[...] = xb * xb - xb              # bf16: the product is rounded to bf16 first
    o_bf16_add[...] = xb * xb + xb
  outs = (sds((8, 128)), sds((8, 128)), sds((8, 128)), sds((16, 128), BF16), sds((16, 128), BF16))
  return lambda a, b, c, d, xb: call(kernel, outs, interpret)(a, b, c, d, xb)


finding("fma_contraction",
        "Multiply-add chains whose rounding depends on FMA contraction in interpret mode (XLA:CPU): "
        "out0 a*b + c*d, out1 a*b - c*d (f32, two single-use products), out2 a*a + where(a*a > 1, "
        "a*a, -1) * c (the kernel has two identical arith.mulf a, a), out3 xb*xb - xb and out4 "
        "xb*xb + xb in bf16 (16, 128). Inputs: f32 normal * 1000 (large products, so a fused and "
        "an unfused result differ in many elements).",
        fma_contraction,
        lambda rng: [mr.normal(rng, (8, 128), scale=1000.0) for _ in range(4)] +
                    [mr.normal(rng, (16, 128), BF16, scale=300.0)],
        notes=("Measured in interpret mode: out0/out1 = fma(a, b, +-c*d) (the LHS product fused, "
               "c*d rounded); out2: XLA CSEs the two a*a into one multiply with two users, which is "
               "not fused although it is the LHS: round(a*a) + w*c with w*c (the RHS) fused, i.e. "
               "fma(w, c, round(a*a)); "
               "out3/out4: bf16 products are rounded to bf16 before the add/sub (no contraction across "
               "a bf16 rounding). See measured_models for the element counts per model."),
        post=None)


def fma_post(d, meta):
  a, b, c, dd = (np.load(os.path.join(d, f"in{i}.npy")) for i in range(4))
  xb = np.load(os.path.join(d, "in4.npy")).view(BF16).astype(np.float32)
  o = [np.load(os.path.join(d, f"out{i}.npy")) for i in range(5)]
  o[3] = o[3].view(BF16).astype(np.float32)
  o[4] = o[4].view(BF16).astype(np.float32)
  f32 = np.float32

  def fma(p, q, r):
    return (p.astype(np.float64) * q.astype(np.float64) + r.astype(np.float64)).astype(f32)

  def rb(v):
    return np.asarray(v, f32).astype(BF16).astype(f32)
  ab, cd, aa = (a * b).astype(f32), (c * dd).astype(f32), (a * a).astype(f32)
  w = np.where(aa > 1, aa, f32(-1)).astype(f32)
  models = {
      "out0 a*b + c*d": {"fuse lhs": fma(a, b, cd), "fuse rhs": fma(c, dd, ab), "none": ab + cd},
      "out1 a*b - c*d": {"fuse lhs": fma(a, b, -cd), "fuse rhs": fma(-c, dd, ab), "none": ab - cd},
      "out2 a*a + w*c": {"fuse w*c": fma(w, c, aa), "fuse a*a": fma(a, a, (w * c).astype(f32)),
                         "none": ((w * c).astype(f32) + aa).astype(f32)},
      "out3 xb*xb - xb (bf16)": {"product rounded to bf16": rb(rb(xb * xb) - xb),
                                 "fused (f32 product)": rb(fma(xb, xb, -xb))},
      "out4 xb*xb + xb (bf16)": {"product rounded to bf16": rb(rb(xb * xb) + xb),
                                 "fused (f32 product)": rb(fma(xb, xb, xb))},
  }
  k = 0
  res = {}
  for name, ms in models.items():
    res[name] = {m: int((v != o[k]).sum()) for m, v in ms.items()}
    k += 1
  meta["measured_models"] = {"elements differing from interpret mode's output, per model": res}


POST["fma_contraction"] = fma_post


# ============================================================================================
# driver

def write_finding(c: mr.Case, out_root: str, retime: bool):
  meta = mr.write_case(c, out_root, retime, do_mutants=False)
  d = os.path.join(out_root, c.name)
  if c.name in POST:
    POST[c.name](d, meta)
    json.dump(meta, open(os.path.join(d, "case.json"), "w"), indent=1, sort_keys=False)
    open(os.path.join(d, "case.json"), "a").write("\n")
  return meta


def main() -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--out", default=os.path.join(REPO, "tests", "data", "exec"))
  ap.add_argument("--detect-out", default=os.path.join(REPO, "tests", "data", "exec-detect"))
  ap.add_argument("--only", nargs="*")
  ap.add_argument("--list", action="store_true")
  ap.add_argument("--retime", action="store_true")
  a = ap.parse_args()
  if a.list:
    for n, c in FINDINGS.items():
      print(f"{n}\texec\t{c.description[:100]}")
    for n, d in DETECTS.items():
      print(f"{n}\tdetect:{d.expect}\t{d.description[:100]}")
    return 0
  names = a.only or (list(FINDINGS) + list(DETECTS))
  bad = 0
  for n in names:
    print(f"== {n}", flush=True)
    try:
      if n in FINDINGS:
        os.makedirs(a.out, exist_ok=True)
        meta = write_finding(FINDINGS[n], a.out, a.retime)
        print(f"   ok: {meta['interpret_seconds']} ops={meta.get('kernel_ops')}", flush=True)
      elif n in DETECTS:
        os.makedirs(a.detect_out, exist_ok=True)
        write_detect(DETECTS[n], a.detect_out)
      else:
        raise KeyError(n)
    except Exception:
      bad += 1
      traceback.print_exc()
      shutil.rmtree(os.path.join(a.out, n + ".tmp"), ignore_errors=True)
      shutil.rmtree(os.path.join(a.detect_out, n + ".tmp"), ignore_errors=True)
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main())
