"""Runs jaxlib 0.12's `canonicalize` over a Mosaic kernel and says which ops remain.

Usage: python canonicalize.py KERNEL.mlir OP [OP ...]
Parses KERNEL.mlir with JAX's context and the real `tpu` dialect, runs MLIR's canonicalizer (which erases
ops whose results are unused and that only read memory: what Mosaic's pipeline does before a TPU runs the
kernel), and prints one line `OP present|absent` per OP.
"""
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir, passmanager


def main(path, ops):
  ctx = jmlir.make_ir_context()
  tpu.register_dialect(ctx)
  with ctx:
    with open(path) as f:
      module = ir.Module.parse(f.read())
    passmanager.PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    text = module.operation.get_asm(print_generic_op_form=True)
  for op in ops:
    print(op, "present" if f'"{op}"' in text else "absent")


if __name__ == "__main__":
  main(sys.argv[1], sys.argv[2:])
