"""Parses and verifies StableHLO modules with real jaxlib 0.12 (stablehlo, chlo,
sdy and tpu dialects registered, as JAX's own lowering context has them) and
checks that every stablehlo.custom_call is the registered op.

Usage: python verify_modules.py FILE...   Exit 1 on the first failure.
"""
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir


def main(paths):
    for path in paths:
        ctx = jmlir.make_ir_context()
        tpu.register_dialect(ctx)
        with ctx:
            try:
                module = ir.Module.parse(open(path).read())
            except Exception as e:  # noqa: BLE001 - report any parse failure
                print(f"{path}: jaxlib cannot parse: {e}", file=sys.stderr)
                return 1
            if not module.operation.verify():
                print(f"{path}: does not verify in jaxlib", file=sys.stderr)
                return 1
            calls = []

            def walk(op):
                if op.operation.name == "stablehlo.custom_call":
                    calls.append(op)
                for region in op.operation.regions:
                    for block in region.blocks:
                        for inner in block.operations:
                            walk(inner)

            walk(module.operation)
            if not calls:
                print(f"{path}: no stablehlo.custom_call", file=sys.stderr)
                return 1
            if not ctx.is_registered_operation("stablehlo.custom_call"):
                print("stablehlo.custom_call is not registered in this jaxlib", file=sys.stderr)
                return 1
    print(f"{len(paths)} modules parse and verify")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
