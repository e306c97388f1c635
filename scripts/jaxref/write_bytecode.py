#!/usr/bin/env python3
"""Writes MLIR bytecode with real jaxlib 0.12 (the oracle of the bytecode transcoder).

Usage (with the jaxref venv's python, e.g. /work/venvs/jaxref/bin/python):
  write_bytecode.py goldens GOLDENS_DIR OUT_DIR
      For every golden case, parses each kernel_serialized[.N].mlir with jaxlib's MLIR (tpu dialect
      registered, unregistered dialects allowed, as JAX does), strips locations (strip-debuginfo:
      JAX's bodies carry unknown locations) and writes the module as bytecode at version 0 to
      OUT_DIR/<case>/body[.N].jaxlib.mlirbc, exactly as JAX writes Mosaic bodies
      (module.operation.write_bytecode(f, desired_version=0)).
  write_bytecode.py encodings LIST OUT
      For every line of LIST (a builtin attribute or type in MLIR syntax; `#` lines are comments),
      writes the module
          module {
            "foo.op"() {a = <LINE>} : () -> () loc(unknown)
          } loc(unknown)
      with jaxlib at bytecode version 0 and appends `<hex bytes>\t<LINE>` to OUT.
  write_bytecode.py versions MLIR_FILE OUT_PREFIX
      Parses MLIR_FILE like `goldens` does (locations stripped) and writes it at every bytecode
      version jaxlib writes (0 to 6) to OUT_PREFIX.v<N>.jaxlib.mlirbc.
All outputs are committed under mlir-fixtures/bytecode/ so tests run without the venv.
"""

import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


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


def write_v0(module) -> bytes:
  f = io.BytesIO()
  module.operation.write_bytecode(f, desired_version=0)
  return f.getvalue()


def encoding_module(line: str) -> str:
  return ('module {\n  "foo.op"() {a = ' + line +
          '} : () -> () loc(unknown)\n} loc(unknown)\n')


def main(argv):
  from jaxlib.mlir import ir
  from jaxlib.mlir.passmanager import PassManager
  if len(argv) != 4 or argv[1] not in ("goldens", "encodings", "versions"):
    print(__doc__, file=sys.stderr)
    return 2
  ctx = mosaic_context()
  if argv[1] == "versions":
    with ctx:
      module = ir.Module.parse(open(argv[2]).read())
      PassManager.parse("builtin.module(strip-debuginfo)").run(module.operation)
      for version in range(7):
        f = io.BytesIO()
        module.operation.write_bytecode(f, desired_version=version)
        with open(f"{argv[3]}.v{version}.jaxlib.mlirbc", "wb") as out:
          out.write(f.getvalue())
    print("wrote versions 0 to 6", file=sys.stderr)
  elif argv[1] == "goldens":
    goldens, out_dir = argv[2], argv[3]
    n = 0
    for case in sorted(os.listdir(goldens)):
      case_dir = os.path.join(goldens, case)
      if not os.path.isfile(os.path.join(case_dir, "case.json")):
        continue
      for name in sorted(os.listdir(case_dir)):
        if not (name.startswith("kernel_serialized") and name.endswith(".mlir")):
          continue
        suffix = name[len("kernel_serialized"):-len(".mlir")]
        with ctx:
          module = ir.Module.parse(open(os.path.join(case_dir, name)).read())
          PassManager.parse("builtin.module(strip-debuginfo)").run(module.operation)
          data = write_v0(module)
        os.makedirs(os.path.join(out_dir, case), exist_ok=True)
        with open(os.path.join(out_dir, case, f"body{suffix}.jaxlib.mlirbc"), "wb") as f:
          f.write(data)
        n += 1
    print(f"wrote {n} bodies", file=sys.stderr)
  else:
    lines = [l.rstrip("\n") for l in open(argv[2])]
    lines = [l for l in lines if l.strip() and not l.startswith("#")]
    with open(argv[3], "w") as out:
      out.write("# jaxlib 0.12 bytecode (version 0) of one module per attribute, written by "
                "scripts/jaxref/write_bytecode.py encodings; do not edit\n")
      for line in lines:
        with ctx:
          module = ir.Module.parse(encoding_module(line))
          data = write_v0(module)
        out.write(data.hex() + "\t" + line + "\n")
    print(f"wrote {len(lines)} modules", file=sys.stderr)
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv))
