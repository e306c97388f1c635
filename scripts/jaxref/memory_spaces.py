#!/usr/bin/env python3
"""Which `#tpu.memory_space<...>` values real jaxlib 0.12 parses (its `tpu` dialect, registered as JAX does).

Usage: /work/venvs/jaxref/bin/python scripts/jaxref/memory_spaces.py
Prints `<value> OK` or `<value> ERR` per candidate; `kernel::MEMORY_SPACES` is the OK list (jaxlib 0.12.0.1:
any, vmem, smem, hbm, cmem, semaphore_mem, vmem_shared, host; l2_cache, VMEM, sc_scalar_smem are errors).
"""
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib import tpu as tpu_lib  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402

CANDIDATES = ["any", "vmem", "smem", "hbm", "cmem", "semaphore_mem", "vmem_shared", "host",
              "l2_cache", "VMEM", "sc_scalar_smem", "sc_vector_smem", "semaphore"]


def main():
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  ctx.allow_unregistered_dialects = True
  for value in CANDIDATES:
    try:
      with ctx:
        ir.Attribute.parse(f"#tpu.memory_space<{value}>")
      print(value, "OK")
    except Exception:  # jaxlib raises MLIRError on a parse failure
      print(value, "ERR")


if __name__ == "__main__":
  main()
