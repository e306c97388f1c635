#!/usr/bin/env bash
# ulp error of the compiled engine's f32 math against the interpreter's
# (docs/jit.md, "Measured ulp error of f32 math"): y = op(x) on both engines
# over every f32 bit pattern (or every N-th: --stride N), per op the largest
# distance in ulps and where, a histogram, NaN/inf agreement, and whether the
# op is lowered natively. Prints a Markdown table to paste into docs/jit.md.
#
#   scripts/jit-ulp.sh [--stride N] [--ops exp,log,tanh,erf,rsqrt,sqrt,logistic,pow,sin,cos,log1p,exp2]
#
# Release build (the first build takes minutes); all 2^32 patterns take
# minutes per op on a 2-core machine: --stride 16 for a quick look.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --example jit_ulp
exec target/release/examples/jit_ulp "$@"
