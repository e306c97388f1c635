"""Reads MLIR bytecode files with real jaxlib 0.12 and prints each module.

Usage: python print_bytecode.py FILE...
Each module is parsed with the real `tpu` dialect registered (its attributes
and types, e.g. `!tpu.dma_semaphore` memref elements, need it) and unregistered
dialects allowed (serialized kernels hold only unregistered `stable_mosaic.*`
ops), verified, and printed in generic op form with locations. Modules are separated by a line `// -----`. Exit 1 on any failure.
"""
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir


def main(paths):
    out = []
    for path in paths:
        ctx = jmlir.make_ir_context()
        tpu.register_dialect(ctx)
        ctx.allow_unregistered_dialects = True
        with ctx:
            with open(path, "rb") as f:
                module = ir.Module.parse(f.read())
            if not module.operation.verify():
                print(f"{path}: does not verify", file=sys.stderr)
                return 1
            out.append(module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True))
    sys.stdout.write("// -----\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
