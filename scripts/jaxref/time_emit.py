#!/usr/bin/env python3
"""Times JAX 0.12's own kernel-lowering path in-process (used by bench/compare-jax.sh).

Usage (with the jaxref venv's python, e.g. /work/venvs/jaxref/bin/python):
  time_emit.py time KERNEL SECS
      Repeats, for SECS seconds (at least 3 times, after one warm-up): parse the kernel text with
      jaxlib's MLIR (tpu dialect registered, unregistered dialects allowed, as JAX does), then
      jax._src.tpu_custom_call._lower_to_custom_call_config (communication analysis, device type,
      _lower_mosaic_module_to_asm = clone + mosaic-serde pass + debug-location unzip + bytecode v0
      write, active core count, validation) with Pallas's defaults and ir_version=15 (ours), then
      CustomCallBackendConfig.to_json(). Prints one JSON line {"kernel", "iters", "median_ms", "min_ms",
      "cpu_median_ms", "cpu_min_ms"} (wall time, and the thread's CPU time).
  time_emit.py time-parse KERNEL SECS
      The same timing of the parse alone (jaxlib's Module.parse, which verifies the tpu ops too): the floor
      under JAX's emit, to compare with ours (examples/perf.rs `time-parse`).
  time_emit.py once KERNEL
      One such emit (for /usr/bin/time -v peak memory).
  time_emit.py baseline
      Imports JAX and builds the context only (the peak memory JAX has before any kernel).
"""

import json
import sys
import time


def mosaic_context():
  from jax._src.interpreters import mlir as jmlir
  from jax._src.lib import tpu as tpu_lib
  from jax._src import tpu_custom_call as tcc
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  for loader in getattr(tcc, "_extra_dialect_loaders", []):
    loader(ctx)
  ctx.allow_unregistered_dialects = True
  return ctx


def jax_emit(ctx, text: str) -> bytes:
  from jax._src import tpu_custom_call as tcc
  from jaxlib.mlir import ir
  with ctx, ir.Location.unknown():
    module = ir.Module.parse(text)
    config = tcc._lower_to_custom_call_config(
        module,
        vmem_limit_bytes=None,
        cost_estimate=None,
        flags=None,
        allow_input_fusion=None,
        internal_scratch_in_bytes=None,
        collective_id=None,
        serialization_format=1,
        ir_version=15,
        shape_invariant_numerics=True,
    )
    return config.to_json()


def jax_parse(ctx, text: str) -> None:
  from jaxlib.mlir import ir
  with ctx, ir.Location.unknown():
    ir.Module.parse(text)


def main(argv):
  if len(argv) >= 2 and argv[1] == "baseline":
    mosaic_context()
    return 0
  if len(argv) == 3 and argv[1] == "once":
    ctx = mosaic_context()
    with open(argv[2]) as f:
      jax_emit(ctx, f.read())
    return 0
  if len(argv) != 4 or argv[1] not in ("time", "time-parse"):
    print(__doc__, file=sys.stderr)
    return 2
  path, budget = argv[2], float(argv[3])
  with open(path) as f:
    text = f.read()
  ctx = mosaic_context()
  run = jax_emit if argv[1] == "time" else jax_parse
  run(ctx, text)  # warm-up
  samples = []
  cpu_samples = []
  start = time.perf_counter()
  while len(samples) < 3 or (time.perf_counter() - start < budget and len(samples) < 10000):
    c = time.thread_time()
    t = time.perf_counter()
    run(ctx, text)
    samples.append(time.perf_counter() - t)
    cpu_samples.append(time.thread_time() - c)
  samples.sort()
  cpu_samples.sort()
  print(json.dumps({
      "kernel": path,
      "iters": len(samples),
      "median_ms": round(samples[len(samples) // 2] * 1e3, 4),
      "min_ms": round(samples[0] * 1e3, 4),
      "cpu_median_ms": round(cpu_samples[len(cpu_samples) // 2] * 1e3, 4),
      "cpu_min_ms": round(cpu_samples[0] * 1e3, 4),
  }))
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv))
