"""Shared helpers for the executor reference data (make_refs.py, run_interpret.py).

Every case is a function of arrays whose only op of interest is one (or, where stated, a few)
pallas_call(s). It is lowered for TPU on this CPU host (cross-lowering, not interpret) and run in JAX's
Pallas TPU interpret mode (`interpret=pltpu.InterpretParams()`) for the reference outputs.
"""
from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import re
import statistics
import time
from typing import Any, Callable

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BF16 = np.dtype(ml_dtypes.bfloat16)
REAL_PALLAS_CALL = pl.pallas_call
REAL_KERNEL = pl.kernel


# ---------------------------------------------------------------------------------------------
# interpret / lowering switch for kernels that call pl.pallas_call themselves (production ops)

_MODE: dict[str, Any] = {"interpret": False, "capture": None}


def _patched_pallas_call(*args, **kwargs):
  kwargs.pop("interpret", None)
  if _MODE["interpret"]:
    kwargs["interpret"] = pltpu.InterpretParams()
  call = REAL_PALLAS_CALL(*args, **kwargs)
  cap = _MODE["capture"]
  if cap is None:
    return call

  def capturing(*operands):
    cap.append({"kernel": args[0] if args else kwargs.get("kernel"),
                "args": args, "kwargs": dict(kwargs), "operands": operands})
    return call(*operands)
  return capturing


@contextlib.contextmanager
def pallas_mode(interpret: bool, capture: list | None = None):
  """Within: every pl.pallas_call is built with interpret=InterpretParams() iff `interpret`
  (whatever the caller passed), and, with `capture`, records its kernel, arguments and operands."""
  old = dict(_MODE)
  _MODE["interpret"], _MODE["capture"] = interpret, capture
  saved = pl.pallas_call
  pl.pallas_call = _patched_pallas_call
  try:
    yield
  finally:
    pl.pallas_call = saved
    _MODE.update(old)


def interp(flag: bool):
  """The value for pallas_call's interpret= argument."""
  return pltpu.InterpretParams() if flag else False


# ---------------------------------------------------------------------------------------------
# arrays on disk

def dtype_name(dt) -> str:
  dt = np.dtype(dt)
  return "bfloat16" if dt == BF16 else dt.name


def to_disk(a) -> np.ndarray:
  a = np.asarray(a)
  if a.dtype == BF16:
    return a.view(np.uint16)
  return a


def from_disk(a: np.ndarray, dtype: str) -> np.ndarray:
  if dtype == "bfloat16":
    return a.view(BF16)
  return a.astype(np.dtype(dtype), copy=False)


def save_npy(path: str, a) -> None:
  np.save(path, np.ascontiguousarray(to_disk(a)), allow_pickle=False)


def max_abs_diff(a, b) -> dict:
  """Compares two outputs: max |a-b| over positions where neither is NaN, and NaN mismatches."""
  a = np.asarray(a).astype(np.float64)
  b = np.asarray(b).astype(np.float64)
  an, bn = np.isnan(a), np.isnan(b)
  both = ~(an | bn)
  d = np.abs(a[both] - b[both])
  d = d[np.isfinite(d)] if d.size else d
  inf_mismatch = int(np.sum(both & (np.isinf(a) | np.isinf(b)) & (a != b)))
  return {"max_abs_diff": float(d.max()) if d.size else 0.0,
          "nan_mismatches": int(np.sum(an != bn)),
          "inf_mismatches": inf_mismatch,
          "differing_elements": int(np.sum((a != b) & ~(an & bn)))}


def allclose(a, b, rtol: float, atol: float) -> bool:
  a = np.asarray(a).astype(np.float64)
  b = np.asarray(b).astype(np.float64)
  if rtol == 0 and atol == 0:
    return bool(np.array_equal(a, b, equal_nan=True))
  return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


# ---------------------------------------------------------------------------------------------
# the custom calls of a lowered module

def _mlir_unescape(s: str) -> bytes:
  raw, out, i = s.encode("utf-8"), bytearray(), 0
  while i < len(raw):
    c = raw[i]
    if c == 0x5C and i + 1 < len(raw):
      n = raw[i + 1]
      if n in b'\\"':
        out.append(n); i += 2; continue
      hx = raw[i + 1:i + 3]
      if len(hx) == 2 and all(ch in b"0123456789abcdefABCDEF" for ch in hx):
        out.append(int(hx, 16)); i += 3; continue
    out.append(c)
    i += 1
  return bytes(out)


CC_RE = re.compile(
    r'stablehlo\.custom_call\s+@tpu_custom_call\((?P<ops>[^)]*)\)\s*\{backend_config\s*=\s*'
    r'"(?P<bc>(?:[^"\\]|\\.)*)"(?P<rest>.*?)\}\s*:\s*\((?P<in>[^)]*)\)\s*->\s*(?P<out>[^\n]*)')


def custom_calls(module_text: str) -> list[dict]:
  out = []
  for m in CC_RE.finditer(module_text):
    cfg = json.loads(_mlir_unescape(m.group("bc")))
    kn = re.search(r'kernel_name = "([^"]*)"', m.group("rest"))
    out.append({"config": cfg, "kernel_name": kn.group(1) if kn else None,
                "operand_types": [t.strip() for t in _split_types(m.group("in"))],
                "result_types": [t.strip() for t in _split_types(m.group("out").strip().strip("()"))]})
  return out


def _split_types(s: str) -> list[str]:
  parts, depth, cur = [], 0, ""
  for ch in s:
    if ch == "<":
      depth += 1
    elif ch == ">":
      depth -= 1
    if ch == "," and depth == 0:
      parts.append(cur); cur = ""
    else:
      cur += ch
  if cur.strip():
    parts.append(cur)
  return [p for p in (x.strip() for x in parts) if p.startswith("tensor")]


def decode_kernel(body_b64: str) -> str:
  """The Mosaic kernel of a custom call body as JAX prints it after mosaic-serde deserialization
  (the form of the goldens' kernel.mlir)."""
  from jax._src import tpu_custom_call as tcc
  from jax._src.interpreters import mlir as jmlir
  from jax._src.lib import tpu as tpu_lib
  from jaxlib.mlir import ir
  from jaxlib.mlir.passmanager import PassManager
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  for loader in getattr(tcc, "_extra_dialect_loaders", []):
    loader(ctx)
  ctx.allow_unregistered_dialects = True
  with ctx, ir.Location.unknown():
    module = ir.Module.parse(base64.b64decode(body_b64))
    PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
    return module.operation.get_asm()


def normalize_kernel(text: str) -> str:
  """Drops loc(...) and renames SSA values / block args in order of appearance."""
  text = re.sub(r"\s*loc\((?:[^()]|\([^()]*\))*\)", "", text)
  names: dict[str, str] = {}

  def ren(m):
    k = m.group(0)
    if k not in names:
      names[k] = f"%v{len(names)}"
    return names[k]
  text = re.sub(r"%[A-Za-z0-9_#.$-]+", ren, text)
  return "\n".join(l.rstrip() for l in text.strip().splitlines())


def op_sequence(text: str) -> list[str]:
  ops = []
  for line in text.splitlines():
    m = re.search(r"(?:=\s*|^\s*)\"?([a-z_]+\.[a-z_.]+)\"?", line)
    if m:
      ops.append(m.group(1))
  return ops


def compare_kernels(ours: str, golden: str) -> tuple[bool, str]:
  if ours.strip() == golden.strip():
    return True, "kernel.mlir identical"
  if normalize_kernel(ours) == normalize_kernel(golden):
    return True, "kernel.mlir identical up to SSA names and locations"
  a, b = normalize_kernel(ours).splitlines(), normalize_kernel(golden).splitlines()
  for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
      same_ops = op_sequence(ours) == op_sequence(golden)
      return False, (f"differs at line {i + 1}: ours {x.strip()[:200]!r} / golden {y.strip()[:200]!r}"
                     f"; same op sequence: {same_ops}")
  return False, f"line counts differ: ours {len(a)} / golden {len(b)}"


# ---------------------------------------------------------------------------------------------
# timing

def block(x):
  return jax.tree.map(lambda a: a.block_until_ready() if hasattr(a, "block_until_ready") else a, x)


def time_calls(make_fn: Callable[[], Callable], args, later: int = 3):
  """(outputs, first seconds, median later seconds). make_fn builds a fresh jitted function so
  the first call includes tracing and compilation."""
  fn = make_fn()
  t0 = time.perf_counter()
  out = block(fn(*args))
  first = time.perf_counter() - t0
  times = []
  for _ in range(later):
    t0 = time.perf_counter()
    block(fn(*args))
    times.append(time.perf_counter() - t0)
  return out, first, (statistics.median(times) if times else None)
