#!/usr/bin/env python3
"""Re-runs JAX's Pallas TPU interpret mode for one executor reference case and compares with its
stored outputs; prints one JSON object (first-call and later-call seconds, per-output comparison).

Usage: $REFCHECK_VENV/bin/python scripts/jaxref/exec/run_interpret.py NAME_OR_DIR [--later N]
NAME is a case under tests/data/exec (or give the case folder). The kernel is rebuilt from
make_refs.py's case definition; the inputs come from the folder's in*.npy. Exit status 1 if an
output is outside the case's tolerance.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_force_host_platform_device_count=4").strip()
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import make_refs as mr  # noqa: E402
import refs_lib as rl  # noqa: E402


def main() -> int:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("case")
  ap.add_argument("--later", type=int, default=3, help="later calls to time (median)")
  a = ap.parse_args()
  d = a.case if os.path.isdir(a.case) else os.path.join(mr.REPO, "tests", "data", "exec", a.case)
  meta = json.load(open(os.path.join(d, "case.json")))
  c = mr.CASES[meta["name"]]
  ins = [rl.from_disk(np.load(os.path.join(d, f"in{i}.npy")), s["dtype"])
         for i, s in enumerate(meta["inputs"])]
  args = mr.fn_inputs(c, ins)
  out, first, later = mr.run_interpret(c, c.build, args, later=a.later)
  outs = mr.split_outputs(c, out)
  rows, ok = [], True
  for i, (o, spec) in enumerate(zip(outs, meta["outputs"])):
    ref = rl.from_disk(np.load(os.path.join(d, f"out{i}.npy")), spec["dtype"])
    good = o.shape == ref.shape and rl.allclose(o, ref, spec["rtol"], spec["atol"])
    ok &= good
    rows.append({"output": i, "within_tolerance": good, **rl.max_abs_diff(o, ref)})
  print(json.dumps({"name": meta["name"], "first_seconds": round(first, 4),
                    "later_seconds": None if later is None else round(later, 5),
                    "later_calls": a.later, "outputs_match": ok, "outputs": rows}))
  return 0 if ok else 1


if __name__ == "__main__":
  sys.exit(main())
