#!/usr/bin/env bash
# Issue 52's kernels timed in ONE run: our executor (`tpu-custom-call run --call 0`, release build, each engine),
# JAX 0.12's Pallas TPU interpret mode on the same kernel (second and later calls, after compile) and NumPy
# computing the same math; checks that our output equals interpret mode's (the tolerances of each kernel's
# tests/data/bench/<name>/case.json) and prints the markdown table of docs/performance.md.
#
# Usage: bench/kernels.sh [KERNEL,...]          (default: all of tests/data/bench)
#   ENGINES="jit interpreter"  engines to time (default: every engine the CLI's `run --engine` offers, else the
#                              interpreter alone)
#   RUN_TIMEOUT=600            seconds a kernel's run (all repeats) may take on one engine before it is reported as failed
#   LATER=3                    later calls per side (medians; the 65536-row softmax takes half as many)
#   REFCHECK_VENV              the jaxref venv (default ~/.cache/tpu-custom-call/jaxref-venv)
# Kernels and inputs: scripts/jaxref/exec/bench_kernels.py (inputs from the case's seed, written as .npy).
set -euo pipefail
cd "$(dirname "$0")/.."
ONLY=${1:-}
LATER=${LATER:-3}
VENV=${REFCHECK_VENV:-$HOME/.cache/tpu-custom-call/jaxref-venv}
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
  echo "SKIPPED: the jaxref venv ($VENV) is missing: no interpret mode or NumPy to compare with" >&2
  exit 0
fi
cargo build --release --quiet --bin tpu-custom-call
CLI=target/release/tpu-custom-call
# The one place choosing the engines: every engine `run --engine` accepts, else the interpreter (today's only one).
HAS_ENGINE=0; "$CLI" run --help | grep -q -- '--engine' && HAS_ENGINE=1
if [ -z "${ENGINES:-}" ]; then
  if [ "$HAS_ENGINE" = 1 ]; then ENGINES="jit interpreter"; else ENGINES=interpreter; fi
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start; $(date -u +%FT%TZ); engines: $ENGINES" >&2

# JAX and NumPy first (they write each kernel's inputs and interpret mode's output), then ours on the same files.
"$PY" scripts/jaxref/exec/bench_kernels.py time "$TMP" --later "$LATER" --only "$ONLY" > "$TMP/jax.jsonl"
: > "$TMP/ours.jsonl"
while read -r line; do
  name=$(jq -r .name <<<"$line")
  d="$TMP/$name"
  rtol=$(jq -r .rtol <<<"$line"); atol=$(jq -r .atol <<<"$line")
  ins=(); for f in $(ls "$d" | grep -E '^in[0-9]+\.npy$' | sort -V); do ins+=(--input "$d/$f"); done
  repeat=$((LATER + 1)); case "$name" in softmax_65536*) repeat=$((LATER / 2 + 2)) ;; esac
  for engine in $ENGINES; do
    eng=(); [ "$HAS_ENGINE" = 1 ] && eng=(--engine "$engine")
    # First run = compile (decode + compile of the call, then the engine's compile: `engine.compile_seconds`) + run;
    # later_run_seconds = median of the later runs (the same inputs, same process, the compiled kernel cached).
    if out=$(timeout "${RUN_TIMEOUT:-600}" "$CLI" run "tests/data/bench/$name/module.mlir" --call 0 "${ins[@]}" "${eng[@]}" --repeat "$repeat" \
      --json --compare "$d" --rtol "$rtol" --atol "$atol" 2>"$TMP/err"); then same=yes; else same=NO; fi
    if jq -e .compile_seconds >/dev/null 2>&1 <<<"$out"; then
      jq -c --arg n "$name" --arg e "$engine" --arg s "$same (rtol $rtol, atol $atol)" \
        '{name: $n, engine: $e, ran: (.engine.name // $e), fallback: (.engine.fallback // null),
          decode_seconds: .compile_seconds, jit_compile_seconds: (.engine.compile_seconds // 0),
          compile_seconds: (.compile_seconds + (.engine.compile_seconds // 0)),
          run_seconds: .later_run_seconds, first_run_seconds: .run_seconds, same: $s}' \
        <<<"$out" >> "$TMP/ours.jsonl"
    else
      jq -nc --arg n "$name" --arg e "$engine" --arg err "$( (head -c 300 "$TMP/err"; [ -s "$TMP/err" ] || echo "no output (exit or timeout after ${RUN_TIMEOUT:-600} s)") | tr -cd '[:print:]')" \
        '{name: $n, engine: $e, error: $err}' >> "$TMP/ours.jsonl"
    fi
    echo "  $name / $engine: $(tail -1 "$TMP/ours.jsonl")" >&2
  done
done < "$TMP/jax.jsonl"
echo "machine: load $(cut -d' ' -f1-3 /proc/loadavg) at end; $(date -u +%FT%TZ)" >&2
echo "raw: interpret mode / NumPy:" >&2; cat "$TMP/jax.jsonl" >&2
"$PY" scripts/jaxref/exec/bench_kernels.py table "$TMP/jax.jsonl" "$TMP/ours.jsonl"
