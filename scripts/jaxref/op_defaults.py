#!/usr/bin/env python3
"""Writes the default-valued properties of every `tpu` op of jaxlib 0.12.

For each op of data/mosaic/mosaic-ops.json, creates the op with no operands and
no attributes in a context where jaxlib's `tpu` dialect is registered (creation
materialises the DefaultValued properties, as the parser and jaxlib's builders
do), prints it generically and records each property except
`operandSegmentSizes` as its printed text. Output: data/mosaic/tpu-op-defaults.json
(input of scripts/gen_builders.py).

Run: $REFCHECK_VENV/bin/python scripts/jaxref/op_defaults.py [REPO_ROOT]
"""
import json
import os
import re
import sys

from jax._src import tpu_custom_call as tcc
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import tpu as tpu_lib
from jax._src.lib.mlir import ir

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
ops = json.load(open(os.path.join(root, "data/mosaic/mosaic-ops.json")))

ctx = jmlir.make_ir_context()
tpu_lib.register_dialect(ctx)
for loader in getattr(tcc, "_extra_dialect_loaders", []):
  loader(ctx)

out = {}
with ctx, ir.Location.unknown():
  for name in sorted(ops):
    op = ir.Operation.create(name, regions=ops[name]["regions"][0])
    text = op.get_asm(print_generic_op_form=True, assume_verified=True)
    m = re.search(r"<\{(.*)\}>", text)
    props = {}
    if m:
      # Split the top-level `key = value` entries (values hold no `, key =`).
      for entry in re.split(r", (?=[A-Za-z_]+ = )", m.group(1)):
        key, value = entry.split(" = ", 1)
        if key != "operandSegmentSizes":
          props[key] = value
    out[name] = props

path = os.path.join(root, "data/mosaic/tpu-op-defaults.json")
with open(path, "w") as f:
  json.dump(out, f, indent=1, sort_keys=True)
  f.write("\n")
print(f"wrote {path}: {sum(len(v) for v in out.values())} defaults over {len(out)} ops")
