#!/usr/bin/env python3
"""Replay every case of the suite corpus with our CLI and summarize the failures by class.

    python3 scripts/jaxref/suite/replay.py --cases /work/suite-corpus/cases [--bin PATH] [-j 2]
        [--results /work/suite-corpus/replay.jsonl] [--report /work/suite-corpus/REPORT.md]

Per case (a folder written by corpus.py), each step with the built `tpu-custom-call`:
  inspect   `inspect module.mlir --json` decodes the one call; its `params` are written to params.json
  emit-jax  `emit kernel_pre_serde.generic.mlir --signature SIG --params params.json --jax-rules-only
            --producer MLIR24.0.0git --bytecode-encodings 24` succeeds
  bytes     the emitted backend_config is JAX's, byte for byte (config, hence body and debug_locations)
  diff      `diff module.mlir EMITTED` says equal (exit 0)
  pretty    `kernel kernel_pre_serde.mlir` loads JAX's pretty kernel
  target    `emit ... --target CHIP` (all rules) accepts, for each chip the case was lowered for
A step runs only when the ones it needs passed. Results go to --results (one JSON line per case) and a
summary (counts per failure class, one example each, message first line) to --report and stdout.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

BC = re.compile(r'backend_config = ("(?:[^"\\]|\\.)*")')


def run(cmd, timeout=300):
  try:
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")
  except subprocess.TimeoutExpired:
    return -9, b"", "timeout"


def mlir_unescape(literal):
  """The value of an MLIR string literal as printed (`\\XX` hex escapes, `\\\\`, `\\"`, ...)."""
  body, out, i = literal[1:-1], bytearray(), 0
  while i < len(body):
    c = body[i]
    if c == "\\":
      nxt = body[i + 1]
      if nxt in "\\\"":
        out += nxt.encode()
        i += 2
      elif nxt == "n":
        out += b"\n"
        i += 2
      elif nxt == "t":
        out += b"\t"
        i += 2
      else:
        out.append(int(body[i + 1:i + 3], 16))
        i += 3
    else:
      out += c.encode()
      i += 1
  return out.decode()


def first_line(text):
  """The message's first line; when it only announces what follows (ends with ':'), the next one too."""
  lines = [l.strip() for l in text.splitlines() if l.strip()]
  if not lines:
    return ""
  if lines[0].endswith(":") and len(lines) > 1:
    return f"{lines[0]} {lines[1]}"
  return lines[0]


def normalize(message):
  """A failure class from an error message: the case-specific parts blanked out."""
  m = message
  m = re.sub(r"(?<![\w.])(/[^\s:]+)+", "PATH", m)
  m = re.sub(r"(tensor|memref|vector)<[^>]*(<[^>]*>[^>]*)*>", r"\1<..>", m)
  m = re.sub(r"'[^']*'", "'..'", m)
  m = re.sub(r"`[^`]*`", "`..`", m)
  m = re.sub(r"\d+", "N", m)
  return m[:160]


def replay_case(binary, case_dir, work, prior=None):
  """Every step for one case; with `prior` (an earlier result of the same case: same kernel, config and
  types, hence the same name) only `inspect` (it writes params.json) and the chips it lacks are run."""
  case = json.load(open(os.path.join(case_dir, "case.json")))
  name = case["case"]
  res = {"case": name, "chips": case["chips"], "core": case["core"], "steps": {}}
  steps = res["steps"]
  stale = prior is not None and any(
      s.get("message") == "no kernel captured" for s in prior["steps"].values())
  if prior is not None and case.get("kernel_captured") and not stale:
    steps.update(prior["steps"])

  def fail(step, message):
    steps[step] = {"ok": False, "message": first_line(message)}

  module = os.path.join(case_dir, "module.mlir")
  code, out, err = run([binary, "inspect", module, "--json"])
  if code != 0:
    fail("inspect", err)
    return res
  calls = json.loads(out)
  if len(calls) != 1:
    fail("inspect", f"{len(calls)} calls decoded, not 1")
    return res
  params_path = os.path.join(case_dir, "params.json")
  with open(params_path, "w") as f:
    json.dump(calls[0]["params"], f, indent=2)
  steps["inspect"] = {"ok": True}

  kernel = os.path.join(case_dir, "kernel_pre_serde.generic.mlir")
  if not os.path.exists(kernel):
    fail("emit-jax", "no kernel captured")
    return res
  emitted = os.path.join(work, name + ".emitted.mlir")
  base = [binary, "emit", kernel, "--signature", case["signature"], "--params", params_path,
          "--producer", "MLIR24.0.0git", "--bytecode-encodings", "24"]
  code, err = 0, ""
  if "emit-jax" not in steps:
    code, _, err = run(base + ["--jax-rules-only", "-o", emitted])
  if "emit-jax" in steps:
    pass
  elif code != 0:
    fail("emit-jax", err)
  else:
    steps["emit-jax"] = {"ok": True}
    ours = BC.search(open(emitted).read())
    theirs = BC.search(open(module).read())
    if ours and theirs and ours.group(1) == theirs.group(1):
      steps["bytes"] = {"ok": True}
    else:
      try:
        ours_cfg = json.loads(mlir_unescape(ours.group(1))) if ours else {}
      except ValueError:
        ours_cfg = {}
      theirs_cfg = json.loads(open(os.path.join(case_dir, "backend_config.json")).read())
      differ = []
      a, b = ours_cfg.get("custom_call_config", {}), theirs_cfg.get("custom_call_config", {})
      for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
          differ.append(key)
      for key in sorted(set(ours_cfg) | set(theirs_cfg)):
        if key != "custom_call_config" and ours_cfg.get(key) != theirs_cfg.get(key):
          differ.append(key)
      fail("bytes", "backend_config differs: " + (", ".join(differ) or "formatting"))
    code, out, err = run([binary, "diff", module, emitted])
    if code == 0:
      steps["diff"] = {"ok": True}
    else:
      fail("diff", (out.decode(errors="replace") + err))
    os.remove(emitted)

  pretty = os.path.join(case_dir, "kernel_pre_serde.mlir")
  if "pretty" not in steps:
    code, _, err = run([binary, "kernel", pretty])
    if code == 0:
      steps["pretty"] = {"ok": True}
    else:
      fail("pretty", err)

  for chip in case["chips"]:
    if f"target-{chip}" in steps:
      continue
    code, _, err = run(base + ["--target", chip, "-o", os.devnull])
    steps[f"target-{chip}"] = {"ok": code == 0, "message": first_line(err)} if code else {"ok": True}
  return res


def safe_replay(binary, case_dir, work, prior):
  try:
    return replay_case(binary, case_dir, work, prior)
  except Exception as e:  # a bug of this script, reported as a failure of the case
    case = json.load(open(os.path.join(case_dir, "case.json")))
    return {"case": case["case"], "chips": case["chips"], "core": case["core"],
            "steps": {"replay-script": {"ok": False, "message": f"{type(e).__name__}: {e}"}}}


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--cases", required=True)
  ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"),
                                                 "release/tpu-custom-call"))
  ap.add_argument("-j", type=int, default=2)
  ap.add_argument("--results", default=None)
  ap.add_argument("--report", default=None)
  ap.add_argument("--limit", type=int, default=0)
  ap.add_argument("--reuse", action="append", default=[],
                  help="results of an earlier replay (jsonl) whose cases are not run again")
  args = ap.parse_args()
  binary = os.path.abspath(args.bin)
  case_dirs = sorted(os.path.join(args.cases, d) for d in os.listdir(args.cases)
                     if os.path.exists(os.path.join(args.cases, d, "case.json")))
  if args.limit:
    case_dirs = case_dirs[:args.limit]
  results_path = args.results or os.path.join(os.path.dirname(os.path.abspath(args.cases)), "replay.jsonl")
  prior = {}
  for path in args.reuse:
    for line in open(path):
      r = json.loads(line)
      prior[r["case"]] = r
  start = time.time()
  results = []
  with tempfile.TemporaryDirectory() as work, open(results_path, "w") as out:
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
      for res in pool.map(
          lambda d: safe_replay(binary, d, work, prior.get(os.path.basename(d))), case_dirs):
        results.append(res)
        out.write(json.dumps(res) + "\n")
  took = time.time() - start
  report = summarize(results, took)
  print(report)
  if args.report:
    open(args.report, "w").write(report)


def summarize(results, took):
  total = len(results)
  lines = [f"# Suite corpus replay\n", f"{total} calls replayed in {took:.0f} s.\n"]
  by_chip = collections.Counter(c for r in results for c in r["chips"])
  by_core = collections.Counter(r["core"] for r in results)
  lines.append("calls per chip: " + ", ".join(f"{k} {v}" for k, v in sorted(by_chip.items())) +
               "; per core type: " + ", ".join(f"{k} {v}" for k, v in sorted(by_core.items())) + "\n")
  steps = ["inspect", "emit-jax", "bytes", "diff", "pretty"] + sorted(
      {s for r in results for s in r["steps"] if s.startswith("target-")})
  lines.append("\n| step | ran | ok | failed |\n|---|---|---|---|")
  for step in steps:
    ran = [r for r in results if step in r["steps"]]
    ok = sum(r["steps"][step]["ok"] for r in ran)
    lines.append(f"| {step} | {len(ran)} | {ok} | {len(ran) - ok} |")
  all_ok = sum(all(s["ok"] for s in r["steps"].values()) and "bytes" in r["steps"] for r in results)
  lines.append(f"\nevery step ok: {all_ok} of {total}\n")
  lines.append("## Failure classes (step: normalized first line of the message), one example each\n")
  classes = collections.defaultdict(list)
  for r in results:
    for step, s in r["steps"].items():
      if not s["ok"]:
        classes[(step, normalize(s["message"]))].append((r["case"], s["message"]))
  for (step, cls), members in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    case, message = members[0]
    lines.append(f"- **{len(members)}** `{step}`: {cls}\n  - e.g. `{case}`: {message[:300]}")
  return "\n".join(lines) + "\n"


if __name__ == "__main__":
  sys.exit(main())
