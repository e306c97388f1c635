"""Checks with real jaxlib 0.12 that texts we print parse as their references do.

Usage: python check_pretty.py OURS REFERENCE [OURS REFERENCE ...]
Each OURS file (a kernel printed by tpu-custom-call: `tpu` ops in custom
(pretty) syntax, or rewritten into generic form) and its REFERENCE (a module
JAX printed) are parsed by jaxlib with the real `tpu` dialect, verified, and
printed in generic op form without locations; the two printings must be equal.
Prints one line per mismatch or failure; exit 1 if there is any.
"""
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir


def generic(path):
    ctx = jmlir.make_ir_context()
    tpu.register_dialect(ctx)
    with ctx:
        with open(path) as f:
            module = ir.Module.parse(f.read())
        if not module.operation.verify():
            raise ValueError("does not verify")
        return module.operation.get_asm(print_generic_op_form=True)


def main(args):
    if len(args) % 2:
        print("usage: check_pretty.py OURS REFERENCE [OURS REFERENCE ...]", file=sys.stderr)
        return 2
    failed = 0
    for ours, reference in zip(args[::2], args[1::2]):
        try:
            if generic(ours) != generic(reference):
                print(f"{ours}: jaxlib reads it differently from {reference}")
                failed += 1
        except Exception as e:  # noqa: BLE001 (report every file)
            print(f"{ours}: {e}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
