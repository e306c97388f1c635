"""Writes the benchmark's JAX module (benches/jax_module.rs): one unrolled jnp
program of about 1,100 StableHLO ops (gen_programs.big_program), lowered on
the CPU and printed by JAX, in both forms jaxlib 0.12 prints:

  benches/data/jax_unrolled.mlir          `jax.jit(f).lower(...).as_text()` (pretty)
  benches/data/jax_unrolled.generic.mlir  the same module, `get_asm(print_generic_op_form=True)`

The bench repeats the module's function ten times (renamed) to read a module
of about 11k StableHLO ops in either form.

Usage: ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/pretty/gen_bench_module.py [OPS]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
from jax._src.interpreters import mlir as jm  # noqa: E402
from jax._src.lib.mlir import ir  # noqa: E402

import gen_programs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main():
    ops = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    f, specs = gen_programs.big_program(ops)
    text = jax.jit(f).lower(*specs).as_text()
    with jm.make_ir_context():
        generic = ir.Module.parse(text).operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    out = os.path.join(ROOT, "benches", "data")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "jax_unrolled.mlir"), "w") as fh:
        fh.write(text)
    with open(os.path.join(out, "jax_unrolled.generic.mlir"), "w") as fh:
        fh.write(generic)
    n = text.count("= stablehlo.") + sum(line.lstrip().startswith("stablehlo.") for line in text.splitlines())
    print(f"{n} ops, {len(text)} bytes pretty, {len(generic)} bytes generic", file=sys.stderr)


if __name__ == "__main__":
    main()
