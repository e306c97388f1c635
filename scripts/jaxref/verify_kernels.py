"""Parses and verifies Mosaic kernels with real jaxlib 0.12 (`tpu` dialect
registered, unregistered dialects refused, as Mosaic's own context).

Usage: python verify_kernels.py FILE...   Prints one line per file; exit 1 if
any kernel fails to parse or verify.
"""
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir


def main(paths):
  failed = 0
  for path in paths:
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    with ctx:
      try:
        module = ir.Module.parse(open(path).read())
        ok = module.operation.verify()
        print(f"{path}: {'ok' if ok else 'does not verify'}")
      except Exception as e:  # noqa: BLE001 - report any failure
        ok = False
        print(f"{path}: jaxlib rejects it: {e}")
    failed += not ok
  return 1 if failed else 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
