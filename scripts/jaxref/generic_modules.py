"""Re-prints every golden StableHLO module (tests/data/jax-goldens/<case>/module.mlir,
which JAX printed in pretty form) in generic op form, with real jaxlib 0.12
(stablehlo, chlo, sdy and tpu dialects registered), so that LLVM 22 without
those dialects can parse them.

Usage: python generic_modules.py GOLDENS_DIR OUT_DIR
Writes OUT_DIR/<case>.mlir, each starting with a `// Made by:` line.
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu
from jaxlib.mlir import ir


def main(goldens, out_dir):
    for case in sorted(os.listdir(goldens)):
        path = os.path.join(goldens, case, "module.mlir")
        if not os.path.isfile(path):
            continue
        ctx = jmlir.make_ir_context()
        tpu.register_dialect(ctx)
        ctx.allow_unregistered_dialects = True
        with ctx:
            module = ir.Module.parse(open(path).read())
            text = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
        with open(os.path.join(out_dir, case + ".mlir"), "w") as f:
            f.write(f"// Made by: scripts/jaxref/generic_modules.py from tests/data/jax-goldens/{case}/module.mlir "
                    "(JAX 0.12.0.1), printed in generic op form by jaxlib 0.12.0.1.\n")
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
