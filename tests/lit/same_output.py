#!/usr/bin/env python3
"""same_output.py MLIR_OPT_OUT CLI_OUT: exit 0 if the two outputs are the same module text.

`mlir-opt` ends its output with one more newline than `tpu-custom-call opt` (it prints the module,
which ends in a newline, then a newline of its own); that byte is the only difference allowed.
"""
import sys

opt, cli = (open(path, "rb").read() for path in sys.argv[1:3])
if opt == cli + b"\n":
    sys.exit(0)
lines = zip(opt.decode(errors="replace").splitlines(), cli.decode(errors="replace").splitlines())
for number, (a, b) in enumerate(lines, 1):
    if a != b:
        print(f"line {number} differs:\n  mlir-opt: {a[:300]}\n  tpu-custom-call opt: {b[:300]}")
        break
else:
    print(f"lengths differ: mlir-opt {len(opt)} bytes, tpu-custom-call opt {len(cli)} bytes")
sys.exit(1)
