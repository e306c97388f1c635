#!/usr/bin/env python3
"""Decodes pairs of Mosaic bodies with real jaxlib 0.12 and compares them.

Usage: /work/venvs/jaxref/bin/python scripts/jaxref/compare_bodies.py MANIFEST
MANIFEST has one line per pair, tab-separated:
  LABEL  OUR_BODY  OUR_DEBUG_LOCATIONS|-  JAX_BODY  JAX_DEBUG_LOCATIONS|-
For each pair, with jaxlib (real `tpu` dialect, unregistered dialects allowed):
  1. both bodies parse and carry the same stable_mosaic.version;
  2. the serialized (stable_mosaic.*) modules print identically in generic form
     with locations;
  3. mosaic-serde{serialize=false} succeeds on both, both verify, and the
     deserialized kernels print identically with locations (custom form);
  4. both debug_locations blobs are absent, or both parse and print
     identically with locations (same tpu.locs).
Prints `OK LABEL` or `DIFF LABEL: reason` per pair; exit status 1 if any differ.
"""
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib import tpu as tpu_lib  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402
from jaxlib.mlir.passmanager import PassManager  # noqa: E402


def context():
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  ctx.allow_unregistered_dialects = True
  return ctx


def decode(body_path: str, dbg_path: str):
  with context():
    module = ir.Module.parse(open(body_path, "rb").read())
    version = ir.IntegerAttr(module.operation.attributes["stable_mosaic.version"]).value
    mangled = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
    PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
    if not module.operation.verify():
      raise ValueError("deserialized kernel does not verify")
    kernel = module.operation.get_asm(enable_debug_info=True)
    dbg = None
    if dbg_path != "-":
      dm = ir.Module.parse(open(dbg_path, "rb").read())
      dbg = dm.operation.get_asm(enable_debug_info=True)
  return version, mangled, kernel, dbg


def first_diff(a: str, b: str) -> str:
  for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
    if x != y:
      return f"line {i + 1}: ours {x!r} / jax {y!r}"
  return "lengths differ"


def main(manifest: str) -> int:
  bad = 0
  for line in open(manifest):
    if not line.strip():
      continue
    label, ob, od, jb, jd = line.rstrip("\n").split("\t")
    try:
      ours = decode(ob, od)
      jax = decode(jb, jd)
    except Exception as e:  # MLIRError, ValueError
      print(f"DIFF {label}: {e}")
      bad += 1
      continue
    reason = None
    if ours[0] != jax[0]:
      reason = f"stable_mosaic.version {ours[0]} != {jax[0]}"
    elif ours[1] != jax[1]:
      reason = "serialized module: " + first_diff(ours[1], jax[1])
    elif ours[2] != jax[2]:
      reason = "deserialized kernel: " + first_diff(ours[2], jax[2])
    elif (ours[3] is None) != (jax[3] is None):
      reason = "debug_locations present in only one"
    elif ours[3] != jax[3]:
      reason = "debug_locations: " + first_diff(ours[3], jax[3])
    if reason:
      print(f"DIFF {label}: {reason}")
      bad += 1
    else:
      print(f"OK {label}")
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1]))
