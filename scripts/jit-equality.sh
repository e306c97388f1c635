#!/usr/bin/env bash
# The compiled engine against the interpreter on many kernels (issue 52,
# docs/jit.md "Equality"): generates COUNT random Pallas kernels with
# scripts/jaxref/exec/gen_diff.py (JAX venv; interpret mode's outputs are
# not needed here but come with the cases), then runs every call of every
# case with both engines (the `jit_equality` example) and prints per case
# and in all: calls compiled, fell back (by reason), equal, differing.
# Exit 1 if any case differs.
#
#   scripts/jit-equality.sh [--count N] [--seed S] [--out DIR] [--release] [EXTRA_DIR...]
#
# Defaults: 300 cases, seed 52, DIR /tmp/tcc-jit-equality-s<seed> (kept: a
# folder already holding COUNT cases is reused, not regenerated). EXTRA_DIR:
# more case folders to sweep (e.g. tests/data/exec tests/data/suite).
# Generation takes ~25 min for 300 cases on a 2-core machine; the sweep
# ~1-2 min (debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
count=300 seed=52 out="" profile=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --release) profile=(--release); shift ;;
    *) extra+=("$1"); shift ;;
  esac
done
out="${out:-/tmp/tcc-jit-equality-s$seed}"
py="${REFCHECK_VENV:-$HOME/.cache/tpu-custom-call/jaxref-venv}/bin/python"
have=$(find "$out" -maxdepth 2 -name module.mlir 2>/dev/null | wc -l)
if [ "$have" -lt "$count" ]; then
  if [ ! -x "$py" ]; then
    echo "jit-equality: no JAX venv at $py (make refs): cannot generate cases" >&2
    exit 2
  fi
  echo "jit-equality: generating $count cases (seed $seed) into $out"
  "$py" scripts/jaxref/exec/gen_diff.py --count "$count" --seed "$seed" --out "$out" >"$out.gen.log" 2>&1 \
    || { tail -20 "$out.gen.log"; exit 2; }
fi
cargo build --quiet ${profile[@]+"${profile[@]}"} --example jit_equality
dir=debug
[ ${#profile[@]} -gt 0 ] && dir=release
exec "target/$dir/examples/jit_equality" "$out" ${extra[@]+"${extra[@]}"}
