#!/usr/bin/env python3
"""StableHLO modules as bytecode with real jaxlib 0.12, both ways (issue 15 items 3 and 4).

Usage (with the jaxref venv's python, $REFCHECK_VENV/bin/python):
  module_bytecode.py write GOLDENS_DIR OUT_DIR
      For every golden case, parses <case>/module.mlir (JAX's Lowered.as_text()) with jaxlib's MLIR as
      JAX's lowering context has it (stablehlo, chlo, sdy registered, tpu registered) and writes it the
      way a JAX user does, `module.operation.write_bytecode(f)` (jaxlib's newest format version), to
      OUT_DIR/<case>.mlirbc, and with `desired_version=4` (before native op properties) to
      OUT_DIR/<case>.v4.mlirbc.
  module_bytecode.py compare TEXT BYTECODE [TEXT BYTECODE ...]
      For each pair (a module we printed as text and the same module we wrote as bytecode): jaxlib
      parses both, verifies both, and prints both in generic form without locations; the two printouts
      must be identical. Exit 1 at the first pair that fails, naming it.
  module_bytecode.py native SRC OUT_BYTECODE OUT_GENERIC
      Parses SRC in JAX's context and writes it with `write_bytecode(f)` (native properties of the
      registered ops) to OUT_BYTECODE, and jaxlib's generic printout (no locations) to OUT_GENERIC.
  module_bytecode.py generic IN OUT [IN OUT ...]
      Writes each module IN (e.g. JAX's pretty StableHLO text) in generic form to OUT, as the one-line
      conversion `tpu-custom-call opt` suggests for pretty StableHLO does.
"""

import io
import os
import sys


def jax_context():
  from jax._src.interpreters import mlir as jmlir
  from jax._src.lib import tpu
  ctx = jmlir.make_ir_context()
  tpu.register_dialect(ctx)
  return ctx


def generic(module) -> str:
  return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


def write(goldens, out):
  from jaxlib.mlir import ir
  os.makedirs(out, exist_ok=True)
  cases = sorted(c for c in os.listdir(goldens)
                 if os.path.isfile(os.path.join(goldens, c, "case.json")))
  for case in cases:
    ctx = jax_context()
    with ctx:
      module = ir.Module.parse(open(os.path.join(goldens, case, "module.mlir")).read())
      for suffix, kwargs in (("", {}), (".v4", {"desired_version": 4})):
        f = io.BytesIO()
        module.operation.write_bytecode(f, **kwargs)
        with open(os.path.join(out, case + suffix + ".mlirbc"), "wb") as g:
          g.write(f.getvalue())
  print(f"{len(cases)} modules written twice to {out}")
  return 0


def compare(paths):
  from jaxlib.mlir import ir
  if len(paths) % 2:
    print("compare takes pairs TEXT BYTECODE", file=sys.stderr)
    return 2
  ctx = jax_context()
  for text_path, bc_path in zip(paths[0::2], paths[1::2]):
    printed = []
    for path in (text_path, bc_path):
      with ctx:
        try:
          module = ir.Module.parse(open(path, "rb").read())
        except Exception as e:  # noqa: BLE001 - report any parse failure
          print(f"{path}: jaxlib cannot parse: {e}", file=sys.stderr)
          return 1
        if not module.operation.verify():
          print(f"{path}: does not verify in jaxlib", file=sys.stderr)
          return 1
        # The pretty print too: a text in pretty form (ours or JAX's) does
        # not spell default-valued attributes (`api_version = 1`), which the
        # bytecode may carry; the pretty prints agree where only those differ.
        printed.append((generic(module), module.operation.get_asm(enable_debug_info=False)))
    if printed[0][0] != printed[1][0] and printed[0][1] != printed[1][1]:
      printed = [p[0] for p in printed]
      import difflib
      diff = "".join(difflib.unified_diff(printed[0].splitlines(True), printed[1].splitlines(True),
                                          text_path, bc_path, n=1))
      print(f"{bc_path}: jaxlib reads a different module than from {text_path}:\n{diff[:4000]}",
            file=sys.stderr)
      return 1
  print(f"{len(paths) // 2} bytecode modules read by jaxlib as their text")
  return 0


def to_generic(paths):
  from jaxlib.mlir import ir
  ctx = jax_context()
  for src, dst in zip(paths[0::2], paths[1::2]):
    module = ir.Module.parse(open(src).read(), context=ctx)
    with open(dst, "w") as f:
      f.write(module.operation.get_asm(print_generic_op_form=True))
  print(f"{len(paths) // 2} modules written in generic form")
  return 0


def native(src, out_bc, out_generic):
  from jaxlib.mlir import ir
  with jax_context():
    module = ir.Module.parse(open(src).read())
    f = io.BytesIO()
    module.operation.write_bytecode(f)
    with open(out_bc, "wb") as g:
      g.write(f.getvalue())
    with open(out_generic, "w") as g:
      g.write(generic(module))
  return 0


def main(argv):
  if len(argv) >= 2 and argv[1] == "write" and len(argv) == 4:
    return write(argv[2], argv[3])
  if len(argv) == 5 and argv[1] == "native":
    return native(argv[2], argv[3], argv[4])
  if len(argv) >= 2 and argv[1] == "generic" and len(argv) % 2 == 0:
    return to_generic(argv[2:])
  if len(argv) >= 2 and argv[1] == "compare":
    return compare(argv[2:])
  print(__doc__, file=sys.stderr)
  return 2


if __name__ == "__main__":
  sys.exit(main(sys.argv))
