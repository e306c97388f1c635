#!/usr/bin/env python3
"""Run JAX's own Pallas TPU test files without a TPU and capture every tpu_custom_call JAX lowers.

    python3 scripts/jaxref/suite/capture.py --out /work/suite-corpus [--chips v6e,v7x] [--files a.py,b.py]

Needs: the CPU jaxlib venv (`make refs`: ~/.cache/tpu-custom-call/jaxref-venv, or --python) and JAX's
repository at the pinned revision (--jax-repo, a git directory; `fetch` it). It
  1. extracts the test files and JAX's test-only helpers at REV into OUT/jaxtests, OUT/jaxsrc;
  2. installs pytest, pytest-timeout, absl-py and hypothesis into OUT/pydeps (pip --target; the venv
     itself is left alone);
  3. runs pytest once per chip with the `suite_plugin` of this folder (see its docstring), one process,
     `-p no:cacheprovider`, a time limit per test; raw captures go to OUT/raw/<chip>/ and pytest's
     output to OUT/raw/<chip>/pytest.log.
`corpus.py` then turns the raw captures into case folders.
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REV = "cec06d116c05f0d52adfceee3d3b730fdbcb0ce5"
FILES = [
    "tpu_pallas_test.py", "tpu_ops_test.py", "tpu_sparsecore_pallas_test.py",
    "tpu_pallas_pipeline_test.py", "tpu_pallas_state_test.py", "tpu_pallas_memory_space_test.py",
    "tpu_pallas_async_test.py", "tpu_pallas_call_print_test.py", "tpu_trace_value_test.py",
    "tpu_side_effects_test.py",
]
TEST_ONLY = {"hypothesis_test_util.py": "jax/_src/hypothesis_test_util.py",
             "pallas_test_util.py": "jax/_src/pallas/pallas_test_util.py"}


def git_show(repo, path):
  return subprocess.run(["git", "-C", repo, "show", f"{REV}:{path}"], check=True,
                        capture_output=True).stdout


def main():
  ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  ap.add_argument("--out", required=True)
  ap.add_argument("--chips", default="v6e,v7x")
  ap.add_argument("--files", default=",".join(FILES))
  ap.add_argument("--jax-repo", default="/work/.mirror/jax-ml+jax/repo")
  ap.add_argument("--python", default=os.path.expanduser("~/.cache/tpu-custom-call/jaxref-venv/bin/python"))
  ap.add_argument("--per-test-timeout", type=int, default=120)
  ap.add_argument("--total-timeout", type=int, default=3600, help="seconds per chip")
  ap.add_argument("-k", default=None, help="pytest -k expression")
  args = ap.parse_args()

  out = os.path.abspath(args.out)
  tests_dir, src_dir, deps = (os.path.join(out, d) for d in ("jaxtests", "jaxsrc", "pydeps"))
  os.makedirs(tests_dir, exist_ok=True)
  os.makedirs(src_dir, exist_ok=True)
  files = args.files.split(",")
  for name in files:
    with open(os.path.join(tests_dir, name), "wb") as f:
      f.write(git_show(args.jax_repo, f"tests/pallas/{name}"))
  for name, path in TEST_ONLY.items():
    with open(os.path.join(src_dir, name), "wb") as f:
      f.write(git_show(args.jax_repo, path))
  if not os.path.exists(os.path.join(deps, "pytest_timeout.py")):
    subprocess.run([args.python, "-m", "pip", "install", "-q", "--target", deps, "pytest",
                    "pytest-timeout", "absl-py", "hypothesis"], check=True)

  for chip in args.chips.split(","):
    raw = os.path.join(out, "raw", chip)
    os.makedirs(raw, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=f"{deps}:{HERE}", SUITE_CHIP=chip, SUITE_OUT=raw,
               SUITE_JAXSRC=src_dir, JAX_PLATFORMS="cpu")
    cmd = [args.python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "suite_plugin", "-q",
           "-rfE", "--timeout", str(args.per_test_timeout), *files]
    if args.k:
      cmd += ["-k", args.k]
    start = time.time()
    with open(os.path.join(raw, "pytest.log"), "w") as log:
      try:
        rc = subprocess.run(cmd, cwd=tests_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
                            timeout=args.total_timeout).returncode
      except subprocess.TimeoutExpired:
        rc = "timeout"
    took = time.time() - start
    with open(os.path.join(raw, "timing.txt"), "w") as f:
      f.write(f"chip={chip} seconds={took:.0f} pytest_rc={rc} rev={REV}\n")
    print(f"{chip}: {took:.0f} s, pytest exit {rc}", flush=True)


if __name__ == "__main__":
  sys.exit(main())
