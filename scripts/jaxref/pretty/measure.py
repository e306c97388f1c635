"""Measures how our CLI reads and prints the modules JAX prints, against real
jaxlib 0.12 (issue 31). For every module of each corpus:

  jaxlib    jaxlib parses it; its pretty and generic prints (no locations) are
            the references
  parse     `tpu-custom-call opt M --pass-pipeline 'builtin.module()'` exits 0
  pretty=   that output equals jaxlib's pretty print, byte for byte
  generic=  `... --generic` equals jaxlib's generic print, byte for byte
  verify    `opt M --pass-pipeline 'builtin.module(tpu-custom-call-verify)'` exits 0
  jax<pty   jaxlib parses and verifies our pretty print
  jax<gen   jaxlib parses and verifies our generic print
  gen->gen  jaxlib's generic print, read by `opt --generic`, printed back identically
            (the path that works without the pretty StableHLO/Shardy syntax)

Usage (the jaxref venv, a release build of the CLI):
  ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/pretty/measure.py \
      --cli target/release/tpu-custom-call [--sample N] [--jobs 2] [--json out.json] [CORPUS...]

CORPUS is one of goldens, jax-modules, exec, suite-v6e, suite-v7x, programs
(target/jax-programs, made by gen_programs.py), or NAME=GLOB; default: all.
`--sample N` takes N modules per corpus, evenly spread (sorted by name).
Prints a Markdown table (counts per step) and, per step, the first failures by
op (the op named in our error, or on the first differing line).
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

from jax._src.interpreters import mlir as jm
from jax._src.lib import tpu
from jax._src.lib.mlir import ir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CORPORA = {
    "goldens": "tests/data/jax-goldens/*/module.mlir",
    "jax-modules": "mlir-fixtures/jax-modules/*.mlir",
    "exec": "tests/data/exec/*/module.mlir",
    "suite-v6e": "/work/suite-corpus/raw/v6e/modules/*.mlir",
    "suite-v7x": "/work/suite-corpus/raw/v7x/modules/*.mlir",
    "programs": "target/jax-programs/*.mlir",
}
STEPS = ["jaxlib", "parse", "pretty=", "generic=", "verify", "jax<pty", "jax<gen", "gen->gen"]
OP = re.compile(r"`((?:[a-z_]+\.)+[a-z_0-9]+)`|'((?:[a-z_]+\.)+[a-z_0-9]+)'|\"((?:[a-z_]+\.)+[a-z_0-9]+)\"")
LINE_OP = re.compile(r"(?:=\s*|^\s*)\"?((?:[a-z_]+\.)+[a-z_0-9]+)\"?[\s(<{@:]|(#[a-z_]+\.[a-z_]+)")


class Jax:
    """A jaxlib context, renewed now and then (contexts keep every type and attribute)."""

    def __init__(self):
        self.uses = 0
        self.ctx = None

    def context(self):
        if self.ctx is None or self.uses > 300:
            self.ctx = jm.make_ir_context()
            tpu.register_dialect(self.ctx)
            self.ctx.allow_unregistered_dialects = True
            self.uses = 0
        self.uses += 1
        return self.ctx

    def prints(self, text):
        with self.context():
            m = ir.Module.parse(text)
            return (m.operation.get_asm(print_generic_op_form=False, enable_debug_info=False),
                    m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False))

    def reads(self, text):
        try:
            with self.context():
                m = ir.Module.parse(text)
                if not m.operation.verify():
                    return "does not verify"
            return None
        except Exception as e:  # noqa: BLE001 (jaxlib's MLIRError and friends: the message is the result)
            return str(e).strip().splitlines()[0][:300] if str(e).strip() else type(e).__name__


def run_cli(cli, path, pipeline, generic):
    cmd = [cli, "opt", path, "--pass-pipeline", pipeline] + (["--generic"] if generic else [])
    p = subprocess.run(cmd, capture_output=True, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def cause_of_error(stderr):
    lines = [l for l in stderr.strip().splitlines() if l.strip() and not l.endswith("pass pipeline failed")]
    first = lines[0] if lines else "(no message)"
    m = OP.search(first)
    if m:
        return next(g for g in m.groups() if g)
    first = re.sub(r"^(error: )?[^ :]*(:\d+:\d+)?: (error: )?", "", first)
    return re.sub(r"\d+", "N", first)[:90]


def cause_of_diff(ours, ref):
    a, b = ours.splitlines(), ref.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end>"
        y = b[i] if i < len(b) else "<end>"
        if x != y:
            m = LINE_OP.search(y) or LINE_OP.search(x)
            op = next((g for g in m.groups() if g), "?") if m else "?"
            return op, f"line {i + 1}\nours: {x[:160]}\njax:  {y[:160]}"
    return "trailing bytes", f"ours {len(ours)} bytes, jax {len(ref)}"


def measure_one(cli, path, refs, tmp):
    """Runs the CLI steps on one module; `refs` = (pretty, generic) from jaxlib."""
    out = {}
    jp, jg = refs
    code, pretty, err = run_cli(cli, path, "builtin.module()", False)
    out["parse"] = (code == 0, None if code == 0 else (cause_of_error(err), err.strip()[:400]))
    if code == 0:
        out["pretty="] = (pretty == jp, None if pretty == jp else cause_of_diff(pretty, jp))
        out["_pretty"] = pretty
    code, generic, err = run_cli(cli, path, "builtin.module()", True)
    if code == 0:
        out["generic="] = (generic == jg, None if generic == jg else cause_of_diff(generic, jg))
        out["_generic"] = generic
    code, _, err = run_cli(cli, path, "builtin.module(tpu-custom-call-verify)", False)
    out["verify"] = (code == 0, None if code == 0 else (cause_of_error(err), err.strip()[:400]))
    gpath = os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.-]", "_", path) + ".generic.mlir")
    with open(gpath, "w") as f:
        f.write(jg)
    code, back, err = run_cli(cli, gpath, "builtin.module()", True)
    ok = code == 0 and back == jg
    out["gen->gen"] = (ok, None if ok else ((cause_of_error(err), err.strip()[:400]) if code else cause_of_diff(back, jg)))
    os.unlink(gpath)
    return out


def files_of(spec):
    name, _, pattern = spec.partition("=")
    if not pattern:
        pattern = CORPORA[name]
    if not os.path.isabs(pattern):
        pattern = os.path.join(ROOT, pattern)
    return name, sorted(p for p in glob.glob(pattern) if p.endswith(".mlir"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", default=list(CORPORA))
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/release/tpu-custom-call"))
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--examples", type=int, default=6, help="failure causes listed per step")
    args = ap.parse_args()
    jax = Jax()
    report = {}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.corpora:
            name, files = files_of(spec)
            if args.sample and len(files) > args.sample:
                step = len(files) / args.sample
                files = [files[int(i * step)] for i in range(args.sample)]
            counts = collections.Counter()
            causes = {s: collections.Counter() for s in STEPS}
            examples = {}
            refs = {}
            for path in files:
                try:
                    refs[path] = jax.prints(open(path).read())
                    counts["jaxlib"] += 1
                except Exception as e:  # noqa: BLE001
                    causes["jaxlib"][str(e).strip().splitlines()[0][:100]] += 1
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                futures = {pool.submit(measure_one, args.cli, p, refs[p], tmp): p for p in refs}
                for fut in concurrent.futures.as_completed(futures):
                    path = futures[fut]
                    res = fut.result()
                    for key in ("_pretty", "_generic"):
                        if key in res:
                            problem = jax.reads(res.pop(key))
                            res["jax<pty" if key == "_pretty" else "jax<gen"] = (problem is None, None if problem is None else (problem[:100], problem))
                    for step, (ok, why) in res.items():
                        if ok:
                            counts[step] += 1
                        else:
                            causes[step][why[0]] += 1
                            examples.setdefault((step, why[0]), (os.path.relpath(path, ROOT), why[1]))
            rows.append((name, len(files), counts))
            report[name] = {
                "modules": len(files),
                "counts": dict(counts),
                "failures": {s: c.most_common() for s, c in causes.items() if c},
                "examples": {f"{s}: {c}": e for (s, c), e in examples.items()},
            }
            print(f"{name}: {len(files)} modules done", file=sys.stderr, flush=True)
    print("| corpus | modules | " + " | ".join(STEPS) + " |")
    print("|---|---:|" + "---:|" * len(STEPS))
    for name, n, counts in rows:
        print(f"| {name} | {n} | " + " | ".join(str(counts.get(s, 0)) for s in STEPS) + " |")
    print()
    for name, r in report.items():
        for step, fails in r["failures"].items():
            total = sum(n for _, n in fails)
            listed = ", ".join(f"`{c}` {n}" for c, n in fails[:args.examples])
            print(f"- {name} {step} fails {total}: {listed}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
