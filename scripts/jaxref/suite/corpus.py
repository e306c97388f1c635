#!/usr/bin/env python3
"""Turn the raw captures of `capture.py` into one case folder per distinct tpu_custom_call.

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/suite/corpus.py --out /work/suite-corpus

Reads OUT/raw/<chip>/{records-*.jsonl,modules/,kernels/}; writes OUT/cases/<case>/ and OUT/cases.jsonl.
Calls are deduplicated by (backend_config, operand types, result types) over all chips; a case records
every chip and (up to 20) tests that lowered it. Per case, in the layout of tests/data/jax-goldens:
  module.mlir                    a StableHLO module holding only this call, the op's attributes exactly as
                                 JAX printed them (`Lowered.as_text()`), its operands the function's
                                 arguments; checked by parsing it with jaxlib
  module_full.mlir               (corpus only) JAX's whole lowered module the call came from
  backend_config.json            the backend_config string, byte for byte
  kernel_pre_serde.mlir          the Mosaic kernel as JAX printed it before serialization (pretty, no locations)
  kernel_pre_serde.generic.mlir  the same in generic form with its locations (what `emit` reads)
  custom_calls.json              the op: attribute names and printed values, operand and result types
  case.json                      chips, core type (tc/sc), tests, signature, JAX revision, kernel_name
"""

import argparse
import base64
import glob
import hashlib
import json
import os
import re
import shutil
import sys

from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir

REV = "cec06d116c05f0d52adfceee3d3b730fdbcb0ce5"
CALL_LINE = re.compile(r"^(\s*)(?:(%[\w#:]+) = )?stablehlo\.custom_call @tpu_custom_call\(([^)]*)\)(.*)$")


def tpu_calls(module):
  calls = []

  def walk(op):
    op = op.operation
    if op.name == "stablehlo.custom_call" and str(op.attributes["call_target_name"]) == '"tpu_custom_call"':
      calls.append(op)
    for region in op.regions:
      for block in region.blocks:
        for inner in block.operations:
          walk(inner)

  walk(module.operation)
  return calls


def single_call_module(header, line, operand_types, result_types):
  """The module holding only this call: JAX's op line, operands renamed to the function's arguments."""
  m = CALL_LINE.match(line)
  assert m, line
  rest = m.group(4)
  args = ", ".join(f"%arg{i}" for i in range(len(operand_types)))
  params = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(operand_types))
  n = len(result_types)
  if n == 0:
    lhs, ret = "", "    return\n"
  elif n == 1:
    lhs, ret = "%0 = ", f"    return %0 : {result_types[0]}\n"
  else:
    lhs = f"%0:{n} = "
    ret = "    return " + ", ".join(f"%0#{i}" for i in range(n)) + " : " + ", ".join(result_types) + "\n"
  results = ", ".join(result_types)
  return (f"{header}\n  func.func public @main({params}) -> ({results}) {{\n"
          f"    {lhs}stablehlo.custom_call @tpu_custom_call({args}){rest}\n{ret}  }}\n}}\n")


def sanitize(name):
  return re.sub(r"[^A-Za-z0-9_]+", "_", name)[:48].strip("_") or "kernel"


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--out", required=True)
  ap.add_argument("--chips", default="v6e,v7x")
  args = ap.parse_args()
  out = os.path.abspath(args.out)
  cases_dir = os.path.join(out, "cases")
  if os.path.isdir(cases_dir):
    shutil.rmtree(cases_dir)
  os.makedirs(cases_dir)

  ctx = mlir.make_ir_context()
  ctx.allow_unregistered_dialects = True
  cases = {}  # key -> case record
  order = []
  stats = {"modules": 0, "calls_seen": 0, "missing_kernel": 0, "module_parse_errors": 0,
           "kernel_locations_mismatch": 0}
  for chip in args.chips.split(","):
    raw = os.path.join(out, "raw", chip)
    tests_of = {}
    for path in sorted(glob.glob(os.path.join(raw, "records-*.jsonl"))):
      for line in open(path):
        rec = json.loads(line)
        tests_of.setdefault(rec["module"], []).append(rec["test"])
    for sha in sorted(tests_of):
      text = open(os.path.join(raw, "modules", sha + ".mlir")).read()
      stats["modules"] += 1
      try:
        with ctx:
          module = ir.Module.parse(text)
      except Exception as e:
        stats["module_parse_errors"] += 1
        print(f"{chip} {sha}: {e}", file=sys.stderr)
        continue
      ops = tpu_calls(module)
      lines = [l for l in text.splitlines() if CALL_LINE.match(l)]
      assert len(lines) == len(ops), (sha, len(lines), len(ops))
      header = text.splitlines()[0]
      assert header.startswith("module"), header
      for index, (op, line) in enumerate(zip(ops, lines)):
        stats["calls_seen"] += 1
        config = ir.StringAttr(op.attributes["backend_config"]).value
        operand_types = [str(v.type) for v in op.operands]
        result_types = [str(r.type) for r in op.results]
        key = hashlib.sha256(json.dumps([config, operand_types, result_types]).encode()).hexdigest()
        case = cases.get(key)
        if case is None:
          ccc = json.loads(config)["custom_call_config"]
          body = base64.b64decode(ccc["body"])
          debug_locations = base64.b64decode(ccc["debug_locations"]) if "debug_locations" in ccc else b""
          kernel_sha = hashlib.sha256(body + b"\0" + debug_locations).hexdigest()
          kernel_name = ir.StringAttr(op.attributes["kernel_name"]).value if "kernel_name" in op.attributes else ""
          named = [op.attributes[i] for i in range(len(op.attributes))]
          attrs = {na.name: str(na.attr) for na in named}
          attrs["backend_config"] = {"len": len(config.encode()),
                                     "sha256": hashlib.sha256(config.encode()).hexdigest()}
          # JAX appends one shape operand per result of a shape-polymorphic call
          # (indices_of_shape_operands): not part of the call's --signature.
          n_shape = len(result_types) if "indices_of_shape_operands" in op.attributes else 0
          signature_operands = operand_types[:len(operand_types) - n_shape]
          case = {
              "key": key, "name": f"{sanitize(kernel_name)}-{key[:10]}", "kernel_name": kernel_name,
              "chips": [], "tests": [], "num_tests": 0, "core": "sc" if "DEVICE_TYPE_SPARSECORE" in config else "tc",
              "operand_types": operand_types, "result_types": result_types,
              "signature_operand_types": signature_operands,
              "signature": f"({', '.join(signature_operands)}) -> ({', '.join(result_types)})",
              "kernel_sha256": kernel_sha, "body_sha256": hashlib.sha256(body).hexdigest(),
              "_debug_locations": debug_locations, "module_sha256": sha, "module_chip": chip, "call_index": index,
              "custom_call": {"index": 0, "attribute_names": [na.name for na in named],
                              "attributes": attrs, "operand_types": operand_types,
                              "result_types": result_types},
              "_config": config, "_line": line, "_header": header, "_text": text,
          }
          cases[key] = case
          order.append(key)
        if chip not in case["chips"]:
          case["chips"].append(chip)
        case["num_tests"] += len(tests_of[sha])
        for t in tests_of[sha]:
          if t not in case["tests"] and len(case["tests"]) < 20:
            case["tests"].append(t)

  index = open(os.path.join(out, "cases.jsonl"), "w")
  for key in order:
    case = cases[key]
    d = os.path.join(cases_dir, case["name"])
    os.makedirs(d)
    # Kernels are keyed by body and debug locations; captures made before that keyed them by body
    # only, so that a kernel written in two tests could carry the other test's locations: such a kernel
    # is used only when every location string of it is in this call's debug_locations blob.
    kbase, case["kernel_key"] = None, None
    for key, kind in ((case["kernel_sha256"], "body+debug_locations"), (case["body_sha256"], "body")):
      for chip in [case["module_chip"]] + args.chips.split(","):
        alt = os.path.join(out, "raw", chip, "kernels", key)
        if kbase is None and os.path.exists(alt + ".generic.mlir"):
          kbase, case["kernel_key"] = alt, kind
    if kbase is not None and case["kernel_key"] == "body" and case["_debug_locations"]:
      strings = set(re.findall(r'loc\("((?:[^"\\]|\\.)*)"', open(kbase + ".generic.mlir").read()))
      missing = [t for t in strings if t.encode() not in case["_debug_locations"]]
      if missing:
        case["kernel_mismatch"] = missing[:3]
        kbase = None
    if kbase is not None:
      shutil.copy(kbase + ".mlir", os.path.join(d, "kernel_pre_serde.mlir"))
      shutil.copy(kbase + ".generic.mlir", os.path.join(d, "kernel_pre_serde.generic.mlir"))
      case["lower_kwargs"] = json.load(open(kbase + ".json"))["lower_kwargs"]
      case["kernel_captured"] = True
    else:
      stats["missing_kernel"] += 1
      stats["kernel_locations_mismatch"] += "kernel_mismatch" in case
      case["kernel_captured"] = False
    module_text = single_call_module(case["_header"], case["_line"], case["operand_types"],
                                     case["result_types"])
    with ctx:
      parsed = ir.Module.parse(module_text)
      [op] = tpu_calls(parsed)
      assert ir.StringAttr(op.attributes["backend_config"]).value == case["_config"]
    open(os.path.join(d, "module.mlir"), "w").write(module_text)
    open(os.path.join(d, "module_full.mlir"), "w").write(case["_text"])
    open(os.path.join(d, "backend_config.json"), "w").write(case["_config"])
    json.dump([case["custom_call"]], open(os.path.join(d, "custom_calls.json"), "w"), indent=2)
    meta = {k: v for k, v in case.items() if not k.startswith("_") and k != "custom_call"}
    meta.update({"case": case["name"], "jax_revision": REV, "jax_version": "0.12.0.1",
                 "jaxlib_version": "0.12.0.1", "lowering_platforms": ["tpu"], "host_backend": "cpu",
                 "source": "JAX's tests/pallas at jax_revision, run by scripts/jaxref/suite/capture.py"})
    json.dump(meta, open(os.path.join(d, "case.json"), "w"), indent=2)
    index.write(json.dumps(meta) + "\n")
  index.close()
  stats["cases"] = len(order)
  for chip in args.chips.split(","):
    stats[f"cases_{chip}"] = sum(chip in cases[k]["chips"] for k in order)
  for core in ("tc", "sc"):
    stats[f"cases_{core}"] = sum(cases[k]["core"] == core for k in order)
  json.dump(stats, open(os.path.join(out, "corpus_stats.json"), "w"), indent=2)
  print(json.dumps(stats))


if __name__ == "__main__":
  main()
