#!/usr/bin/env python3
"""Rewrite the KNOWN_FAILING list of tests/integration/suite.rs from a run of that test.

    cargo test --test integration suite:: 2>&1 | python3 scripts/jaxref/suite/known_failing.py

Run it with the list emptied (or after a fix, to shrink it): every "CASE: CHECK: message" failure line of
the test's output becomes an entry, grouped under a comment naming its class (issue 27).
"""

import re
import sys

SUITE_RS = "tests/integration/suite.rs"
CLASSES = [
    ("pretty", None, "pretty kernels that do not load: MLIR 24's `vector.extract_strided_slice %x offsets = [0], ...` syntax"),
    ("bytes", None, "debug_locations differ from JAX's (kernels with scf.while: JAX lists the block arguments of all regions first)"),
    (None, "Ratio of bitwidths", "SparseCore `tpu.pack_subelements` refused by our verifier where jaxlib verifies it"),
    (None, "reductions must have the same", "SparseCore `tpu.all_reduce` sum of i1 to i32 refused by our verifier where jaxlib verifies it"),
    (None, "input_memory_spaces has", "PARAMS from `inspect`: input_memory_spaces shorter than the operand list (new: not in issue 27's list)"),
    (None, "dma_semaphore in", "tensor<i32> operands/results for semaphore kernel arguments (async copies across calls)"),
    (None, "semaphore in", "tensor<i32> operands/results for semaphore kernel arguments (async copies across calls)"),
    (None, "(ui", "unsigned operand/result types (tensor<..xui8/16/32/4>) for signless kernel memrefs"),
    (None, "dynamic grid bound", "a tensor<1xi32> dynamic grid bound"),
    (None, "ranked tensors", "a memref result (the pinned-buffer test)"),
    (None, "block index", "the block-index check on the VMEM-OOM test kernels"),
    (None, "scoped VMEM", "scoped-VMEM budget: refused where libtpu compiles"),
    (None, "accepted; libtpu", "false accepts: validation accepts, libtpu refuses"),
]


def classify(check, message):
  for want_check, needle, label in CLASSES:
    if want_check is not None and check != want_check:
      continue
    if needle is not None and needle not in message:
      continue
    return label
  return "other"


def main():
  entries = {}
  for line in sys.stdin:
    m = re.match(r"^([A-Za-z0-9_]+-[0-9a-f]{10}): ([a-z0-9-]+): (.*)$", line.rstrip("\n"))
    if not m or m.group(2).startswith("passes now"):
      continue
    case, check, message = m.groups()
    if "passes now" in message:
      continue
    entries.setdefault(classify(check, message), []).append((case, check))
  body = []
  order = [label for _, _, label in CLASSES] + ["other"]
  seen = set()
  for label in order:
    if label in seen or label not in entries:
      continue
    seen.add(label)
    body.append(f"    // {label}")
    for case, check in sorted(entries[label]):
      body.append(f'    ("{case}", "{check}"),')
  text = open(SUITE_RS).read()
  start = text.index("const KNOWN_FAILING: &[(&str, &str)] = &[\n") + len("const KNOWN_FAILING: &[(&str, &str)] = &[\n")
  end = text.index("];", start)
  header = "    // -- known failing, issue 27 (scripts/jaxref/suite/known_failing.py) --\n"
  text = text[:start] + header + "\n".join(body) + "\n" + text[end:]
  open(SUITE_RS, "w").write(text)
  print(f"{sum(len(v) for v in entries.values())} entries in {len(entries)} classes", file=sys.stderr)


if __name__ == "__main__":
  main()
