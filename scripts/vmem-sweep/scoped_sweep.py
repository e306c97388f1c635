#!/usr/bin/env python3
"""The scoped-VMEM sweep with `run_scoped` allocations: Pallas kernels whose VMEM buffers (and DMA semaphores) are
allocated by `pl.run_scoped` inside the body (`tpu.region` with `memref.alloca` / `tpu.sem_alloc`), lowered by real
JAX 0.12 (CPU wheels, `lowering_platforms=('tpu',)`) and compiled by libtpu 0.0.50.1 (`tpu-custom-call compile
--json`, the real libtpu) for v5e, v5p, v6e and v7x, each just under and just over the chip's default limit.
Writes tests/data/vmem-sweep/scoped.json (libtpu's verdicts) and the modules to tests/data/vmem-sweep/scoped/;
tests/integration/vmem_scratch.rs checks that `validate` gives the same verdicts without libtpu.

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/vmem-sweep/scoped_sweep.py [--bin target/debug/tpu-custom-call]

Families:
- `one`: a (rows, 128) f32 VMEM buffer in one run_scoped region, filled by a DMA from an HBM operand of that shape
  and read back into an (8, 128) output;
- `two`: the same buffer split in two sequential run_scoped regions (the scoped peak is the larger one) plus a DMA
  semaphore each;
- `nested`: a region of half the rows inside another of half the rows (both live: the peak is their sum).
"""
import argparse, json, os, subprocess, sys

MIB = 1 << 20
LIMITS = {"v5e": 16 * MIB, "v5p": 16 * MIB, "v6e": 32 * MIB, "v7x": 32 * MIB}


def kernels():
  import jax, jax.numpy as jnp
  from jax.experimental import pallas as pl
  from jax.experimental.pallas import tpu as pltpu

  def one(rows):
    def kernel(x_hbm, o_ref):
      def body(buf, sem):
        pltpu.async_copy(x_hbm, buf, sem).wait()
        o_ref[...] = buf[0:8, :]
      pl.run_scoped(body, pltpu.VMEM((rows, 128), jnp.float32), pltpu.SemaphoreType.DMA)
    return kernel, [(rows, 128)]

  def two(rows):
    half = rows // 2
    def kernel(x_hbm, o_ref):
      def first(buf, sem):
        pltpu.async_copy(x_hbm.at[0:half], buf, sem).wait()
        o_ref[...] = buf[0:8, :]
      def second(buf, sem):
        pltpu.async_copy(x_hbm.at[half:rows], buf, sem).wait()
        o_ref[...] += buf[0:8, :]
      pl.run_scoped(first, pltpu.VMEM((half, 128), jnp.float32), pltpu.SemaphoreType.DMA)
      pl.run_scoped(second, pltpu.VMEM((half, 128), jnp.float32), pltpu.SemaphoreType.DMA)
    return kernel, [(rows, 128)]

  def nested(rows):
    half = rows // 2
    def kernel(x_hbm, o_ref):
      def outer(a, sem):
        pltpu.async_copy(x_hbm.at[0:half], a, sem).wait()
        def inner(b, sem2):
          pltpu.async_copy(x_hbm.at[half:rows], b, sem2).wait()
          o_ref[...] = a[0:8, :] + b[0:8, :]
        pl.run_scoped(inner, pltpu.VMEM((half, 128), jnp.float32), pltpu.SemaphoreType.DMA)
      pl.run_scoped(outer, pltpu.VMEM((half, 128), jnp.float32), pltpu.SemaphoreType.DMA)
    return kernel, [(rows, 128)]

  from jax.sharding import AbstractDevice, AbstractMesh
  kinds = {"v5e": ("TPU v5 lite", 1), "v5p": ("TPU v5p", 2), "v6e": ("TPU v6 lite", 1), "v7x": ("TPU7x", 1)}

  def lower(make, rows, chip):
    kind, cores = kinds[chip]
    mesh = AbstractMesh((), (), abstract_device=AbstractDevice(device_kind=kind, num_cores=cores, platform="tpu"))
    with jax.sharding.use_abstract_mesh(mesh):
      return lower_for(make, rows)

  def lower_for(make, rows):
    kernel, shapes = make(rows)
    f = pl.pallas_call(kernel, in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
                       out_specs=pl.BlockSpec(memory_space=pltpu.VMEM),
                       out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()

  return {"one": one, "two": two, "nested": nested}, lower


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--bin", default="target/debug/tpu-custom-call")
  ap.add_argument("--out", default="tests/data/vmem-sweep")
  a = ap.parse_args()
  families, lower = kernels()
  rows_per_mib = MIB // (128 * 4)
  out = []
  for chip, limit in LIMITS.items():
    limit_rows = limit // (128 * 4)
    # Just under (room for the 4 KiB output), at, and just over the limit; and 1 MiB either side.
    for family in families:
      for delta in (-rows_per_mib, -16, 16, rows_per_mib):
        rows = limit_rows + delta
        name = f"{family}_{chip}_{rows}"
        path = os.path.join(a.out, "scoped", f"{name}.mlir")
        with open(path, "w") as fh:
          fh.write(lower(families[family], rows, chip))
        r = subprocess.run([a.bin, "compile", path, "--target", chip, "--json"], capture_output=True, text=True)
        verdict = json.loads(r.stdout.splitlines()[-1]) if r.stdout.strip() else {}
        ok = r.returncode == 0
        error = "" if ok else (verdict.get("error") or r.stderr.strip() or "refused")
        error = error.splitlines()[0] if error else error
        print(name, ok, (error or "")[:150], file=sys.stderr)
        out.append({"module": f"scoped/{name}.mlir", "family": family, "chip": chip, "rows": rows,
                    "scoped_bytes": rows * 128 * 4, "libtpu_ok": ok, "libtpu_error": error})
  with open(os.path.join(a.out, "scoped.json"), "w") as fh:
    json.dump({"made_by": "scripts/vmem-sweep/scoped_sweep.py (jax 0.12.0.1 lowering, libtpu 0.0.50.1 through "
               "tpu-custom-call compile --json)", "kernels": out}, fh, indent=1)
    fh.write("\n")


if __name__ == "__main__":
  main()
