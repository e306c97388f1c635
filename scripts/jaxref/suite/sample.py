#!/usr/bin/env python3
"""Pick a deduplicated sample of the suite corpus for tests/data/suite, and record libtpu's verdicts.

    python3 scripts/jaxref/suite/sample.py --corpus /work/suite-corpus --dest tests/data/suite
        [--per-class 3] [--tpu-python ~/.cache/tpu-custom-call/jaxref-tpu-venv/bin/python]

Needs replay.py's results (CORPUS/replay.jsonl; each case's params.json). The sample holds:
  - up to --per-class cases of every failure class of the replay (step + normalized message);
  - a smallest-first cover of every op name (`tpu.*` and the upstream dialects), every element type and
    every memory space seen in the corpus kernels, of every backend_config key, and of both chips and
    both core types (TensorCore, SparseCore);
  - the smallest case of each (chip, core type) pair.
Each sampled case is copied without module_full.mlir. libtpu (scripts/jaxref/ref/tpu_compile.py)
compiles, for every chip the call was lowered for, JAX's whole module (module_full.mlir) -> case.json's
"libtpu" (the verdict: "ok" or "error: " and the error's first line; "libtpu_devices": 1, or 4 when one
device is refused for a missing device assignment), and the one-call module.mlir -> "libtpu_single_call". The replay outcome (failing steps) goes to
case.json's "replay".
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from replay import normalize  # noqa: E402

OP = re.compile(r'"([a-z_]+\.[a-z_0-9.]+)"\(')
ELEM = re.compile(r"(?:x|<)(i1|i2|i4|i8|i16|i32|i64|ui\d+|si\d+|bf16|f16|f32|f64|f8E\w+|f4E\w+|index)[>,]")
SPACE = re.compile(r"#tpu\.memory_space<(\w+)>")
TYPE_KIND = re.compile(r"!tpu\.(\w+)")


def features(case_dir, meta):
  feats = set()
  path = os.path.join(case_dir, "kernel_pre_serde.generic.mlir")
  text = open(path).read() if os.path.exists(path) else ""
  feats |= {"op:" + m for m in OP.findall(text)}
  feats |= {"elem:" + m for m in ELEM.findall(text)}
  feats |= {"space:" + m for m in SPACE.findall(text)}
  feats |= {"tputype:" + m for m in TYPE_KIND.findall(text)}
  for t in meta["operand_types"] + meta["result_types"]:
    m = re.search(r"[<x]([a-z][A-Za-z0-9]*)>$", t)
    if m:
      feats.add("call_elem:" + m.group(1))
  config = json.load(open(os.path.join(case_dir, "backend_config.json")))
  feats |= {"config:" + k for k in config}
  feats |= {"ccc:" + k for k in config.get("custom_call_config", {})}
  for chip in meta["chips"]:
    feats.add(f"chip:{chip}")
    feats.add(f"chipcore:{chip}-{meta['core']}")
  feats.add("core:" + meta["core"])
  return feats


def size_of(case_dir):
  return sum(os.path.getsize(os.path.join(case_dir, f)) for f in os.listdir(case_dir)
             if f != "module_full.mlir")


def compile_verdicts(tpu_python, compile_script, paths_by_chip, devices):
  out = {}
  for chip, paths in paths_by_chip.items():
    if not paths:
      continue
    p = subprocess.run([tpu_python, compile_script, "--chip", chip, "--devices", str(devices), "--json",
                        *paths], capture_output=True, text=True)
    for line in p.stdout.splitlines():
      if not line.startswith("{"):
        continue
      rec = json.loads(line)
      if "path" not in rec:
        continue
      err = rec.get("error")
      out[(rec["path"], chip)] = "ok" if rec["ok"] else "error: " + " | ".join((err or "").splitlines()[:3])[:400]
  return out


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--corpus", required=True)
  ap.add_argument("--dest", required=True)
  ap.add_argument("--per-class", type=int, default=3)
  ap.add_argument("--tpu-python", default=os.path.expanduser("~/.cache/tpu-custom-call/jaxref-tpu-venv/bin/python"))
  ap.add_argument("--no-compile", action="store_true")
  args = ap.parse_args()
  cases_dir = os.path.join(args.corpus, "cases")
  results = {}
  for line in open(os.path.join(args.corpus, "replay.jsonl")):
    r = json.loads(line)
    results[r["case"]] = r

  metas, feats, sizes = {}, {}, {}
  for name in sorted(results):
    d = os.path.join(cases_dir, name)
    meta = json.load(open(os.path.join(d, "case.json")))
    if not meta.get("kernel_captured"):
      continue  # no kernel as JAX printed it (see corpus.py): nothing to replay without JAX
    metas[name] = meta
    feats[name] = features(d, metas[name])
    sizes[name] = size_of(d)

  chosen = {}
  # every failure class
  classes = collections.defaultdict(list)
  for name, r in results.items():
    if name not in metas:
      continue
    for step, s in r["steps"].items():
      if not s["ok"]:
        classes[(step, normalize(s["message"]))].append(name)
  for (step, cls), names in sorted(classes.items()):
    for name in sorted(names, key=lambda n: sizes[n])[:args.per_class]:
      chosen.setdefault(name, f"failure {step}: {cls}")
  # smallest of each chip x core
  by_pair = collections.defaultdict(list)
  for name, m in metas.items():
    for chip in m["chips"]:
      by_pair[(chip, m["core"])].append(name)
  for pair, names in sorted(by_pair.items()):
    chosen.setdefault(min(names, key=lambda n: sizes[n]), f"smallest {pair[0]} {pair[1]}")
  # greedy cover of every feature, cheapest first
  covered = set().union(*(feats[n] for n in chosen))
  universe = set().union(*feats.values())
  while covered != universe:
    best = min((n for n in metas if n not in chosen and feats[n] - covered),
               key=lambda n: sizes[n] / len(feats[n] - covered))
    new = sorted(feats[best] - covered)
    chosen[best] = "covers " + ", ".join(new[:6]) + (" ..." if len(new) > 6 else "")
    covered |= feats[best]

  if os.path.isdir(args.dest):
    for entry in os.listdir(args.dest):
      p = os.path.join(args.dest, entry)
      if os.path.isdir(p):
        shutil.rmtree(p)
  os.makedirs(args.dest, exist_ok=True)
  for name, why in chosen.items():
    src, dst = os.path.join(cases_dir, name), os.path.join(args.dest, name)
    os.makedirs(dst)
    for f in os.listdir(src):
      if f != "module_full.mlir":
        shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    meta = metas[name]
    meta["sampled_because"] = why
    meta["replay"] = {s: v.get("message") for s, v in results[name]["steps"].items() if not v["ok"]}
    json.dump(meta, open(os.path.join(dst, "case.json"), "w"), indent=2)

  if not args.no_compile:
    # libtpu's verdict on the module JAX lowered (module_full.mlir: an async copy started in one call
    # and waited in another only compiles together), and on the one-call module.mlir.
    compile_script = os.path.join(HERE, "..", "ref", "tpu_compile.py")

    def verdicts_of(path_of):
      by_chip = collections.defaultdict(list)
      for name in chosen:
        for chip in metas[name]["chips"]:
          by_chip[chip].append(path_of(name))
      verdicts = compile_verdicts(args.tpu_python, compile_script, by_chip, 1)
      retry = collections.defaultdict(list)
      for (path, chip), v in verdicts.items():
        if v != "ok" and ("device assignment" in v or "replicas" in v):
          retry[chip].append(path)
      retried = compile_verdicts(args.tpu_python, compile_script, retry, 4)
      out = {}
      for (path, chip), v in verdicts.items():
        out[(path, chip)] = (retried[(path, chip)], 4) if (path, chip) in retried else (v, 1)
      return out

    full_of = lambda n: os.path.join(cases_dir, n, "module_full.mlir")
    single_of = lambda n: os.path.join(args.dest, n, "module.mlir")
    full = verdicts_of(full_of)
    single = verdicts_of(single_of)
    for name in chosen:
      path = os.path.join(args.dest, name, "case.json")
      meta = json.load(open(path))
      meta["libtpu"], meta["libtpu_devices"], meta["libtpu_single_call"] = {}, {}, {}
      for chip in meta["chips"]:
        if (full_of(name), chip) in full:
          meta["libtpu"][chip], meta["libtpu_devices"][chip] = full[(full_of(name), chip)]
        if (single_of(name), chip) in single:
          meta["libtpu_single_call"][chip] = single[(single_of(name), chip)][0]
      json.dump(meta, open(path, "w"), indent=2)

  total = sum(size_of(os.path.join(args.dest, n)) for n in chosen)
  print(json.dumps({"sampled": len(chosen), "bytes": total, "features": len(universe),
                    "failure_classes": len(classes)}))


if __name__ == "__main__":
  main()
