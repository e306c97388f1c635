#!/usr/bin/env python3
"""Lines of each Pallas idiom example in Rust against its Pallas Python (issue 51).

Every `pub fn` kernel in examples/pallas_examples/*.rs whose doc has a line
`/// Python: <path>::<name>` is measured against the lines between `# begin <name>` and
`# end <name>` of that Python file (the kernel plus its pallas_call). Counted: non-blank,
non-comment lines (Rust as it stands after `cargo fmt`, its doc comments left out; Python
as written). Prints a table (name, Pallas lines, Rust lines, ratio), lists the kernels
without a Python counterpart, and exits 1 when a ratio exceeds 1.5 (or a marker is missing).
Issue 40's kernels (kernels.rs) use the older `# <x>: begin` / `# <x>: end` markers until
their doc says `Python:`; they are listed as without a counterpart then.
Run: python3 scripts/line-count.py  (from the repository root; `make test` runs it)."""
import glob
import os
import re
import sys

LIMIT = 1.5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count(lines, comment):
  return sum(1 for l in lines if l.strip() and not l.strip().startswith(comment))


def rust_kernels(path):
  """(name, python reference or None, Rust lines) of each `pub fn` returning a module."""
  text = open(path).read().split("\n")
  out = []
  for i, line in enumerate(text):
    m = re.match(r"pub fn (\w+)\(", line)
    if not m or "Module" not in " ".join(text[i:i + 3]):
      continue
    doc, j = [], i - 1
    while j >= 0 and text[j].startswith("///"):
      doc.append(text[j]); j -= 1
    ref = next((d.split("Python:", 1)[1].strip() for d in doc if "Python:" in d), None)
    end = next(k for k in range(i, len(text)) if text[k] == "}")
    out.append((m.group(1), ref, count(text[i:end + 1], "//")))
  return out


def python_lines(ref):
  path, name = ref.rsplit("::", 1)
  lines = open(os.path.join(ROOT, path)).read().split("\n")
  try:
    b, e = lines.index(f"# begin {name}"), lines.index(f"# end {name}")
  except ValueError:
    return None
  return count(lines[b + 1:e], "#")


def main():
  rows, missing, bad = [], [], False
  for path in sorted(glob.glob(os.path.join(ROOT, "examples/pallas_examples/*.rs"))):
    for name, ref, rust in rust_kernels(path):
      if ref is None:
        missing.append(f"{os.path.basename(path)}::{name}")
        continue
      py = python_lines(ref)
      if py is None:
        print(f"error: {name}: no `# begin`/`# end` markers for {ref}", file=sys.stderr)
        bad = True
        continue
      rows.append((name, py, rust, rust / py))
  print(f"{'example':<24} {'Pallas':>6} {'Rust':>6} {'ratio':>6}")
  for name, py, rust, ratio in rows:
    flag = "  over 1.5x" if ratio > LIMIT else ""
    print(f"{name:<24} {py:>6} {rust:>6} {ratio:>6.2f}{flag}")
    bad |= ratio > LIMIT
  for m in missing:
    print(f"{m}: no Python counterpart (no `/// Python:` line)")
  return 1 if bad else 0


if __name__ == "__main__":
  sys.exit(main())
