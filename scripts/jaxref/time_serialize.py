#!/usr/bin/env python3
"""Times JAX 0.12's serialization of an already-parsed Mosaic kernel: the kernel
text is parsed once with jaxlib's MLIR (tpu dialect registered, as JAX does),
then each iteration runs jax._src.tpu_custom_call._lower_to_custom_call_config
(analysis, _lower_mosaic_module_to_asm = clone + mosaic-serde + bytecode write,
validation) with Pallas's defaults and ir_version=15, then to_json(). The Rust
side is `cargo run --release --example build_kernel -- bench OPS KERNEL` (the
kernel built in memory, no text parsed), which also writes KERNEL.

Usage: time_serialize.py KERNEL SECS   Prints {"kernel", "iters", "median_ms", "min_ms"}.
"""
import json
import sys
import time

from jax._src import tpu_custom_call as tcc
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu as tpu_lib
from jaxlib.mlir import ir


def main(path, budget):
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  for loader in getattr(tcc, "_extra_dialect_loaders", []):
    loader(ctx)
  ctx.allow_unregistered_dialects = True
  with ctx, ir.Location.unknown():
    module = ir.Module.parse(open(path).read())

    def emit():
      config = tcc._lower_to_custom_call_config(
          module, vmem_limit_bytes=None, cost_estimate=None, flags=None,
          allow_input_fusion=None, internal_scratch_in_bytes=None, collective_id=None,
          serialization_format=1, ir_version=15, shape_invariant_numerics=True)
      return config.to_json()

    emit()  # warm-up
    samples = []
    start = time.perf_counter()
    while len(samples) < 5 or (time.perf_counter() - start < budget and len(samples) < 1000):
      t = time.perf_counter()
      emit()
      samples.append(time.perf_counter() - t)
  samples.sort()
  print(json.dumps({"kernel": path, "iters": len(samples),
                    "median_ms": round(samples[len(samples) // 2] * 1e3, 4),
                    "min_ms": round(samples[0] * 1e3, 4)}))


if __name__ == "__main__":
  if len(sys.argv) != 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
  main(sys.argv[1], float(sys.argv[2]))
