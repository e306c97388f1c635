#!/usr/bin/env bash
# Times our whole emit and JAX 0.12's own path on the same kernel files, in the same run, and prints
# the ratio per kernel; then peak memory for the 100k-op kernel, context creation, CLI wall time of
# emitting the add kernel, and parallel emission.
#
# Usage: bench/compare-jax.sh [SECONDS_PER_KERNEL_AND_SIDE]   (default 3; ROUNDS=3 alternating rounds)
# JAX's side needs the jaxref venv: REFCHECK_VENV (default ~/.cache/tpu-custom-call/jaxref-venv, where `make refs` puts it).
# Ours:  examples/perf.rs `time` (load kernel text + lower + print the StableHLO module, in-process).
# JAX's: scripts/jaxref/time_emit.py `time` (parse + _lower_to_custom_call_config + to_json, in-process).
# Both also time the text parse alone (`time-parse`): MLIR's parser is the floor under either emit, so
# the table also compares what comes after it ("rest").
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3}
VENV=${REFCHECK_VENV:-$HOME/.cache/tpu-custom-call/jaxref-venv}
[ -x "$VENV/bin/python" ] || VENV=scripts/jaxref/ref/.venv
PY="$VENV/bin/python"
HAVE_JAX=1
if [ ! -x "$PY" ]; then
  echo "jaxref venv not found (set REFCHECK_VENV): timing ours only" >&2
  HAVE_JAX=0
fi

cargo build --release --quiet --example perf --bin tpu-custom-call
PERF=target/release/examples/perf
CLI=target/release/tpu-custom-call
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for n in 1000 10000 100000; do "$PERF" gen "$n" "$TMP/synthetic_$n.mlir"; done
echo '{"kernel_name": "bench", "metadata": {}}' > "$TMP/bench.json"

F32=tensor\<8x128xf32\>
KERNELS=(
  "add|mlir-fixtures/kernels/add.mlir|($F32, $F32) -> $F32|mlir-fixtures/params/add_basic.json"
  "matmul|mlir-fixtures/kernels/matmul.mlir|(tensor<256x512xbf16>, tensor<512x384xbf16>) -> tensor<256x384xf32>|mlir-fixtures/params/matmul_grid.json"
  "1k ops|$TMP/synthetic_1000.mlir|($F32) -> $F32|$TMP/bench.json"
  "10k ops|$TMP/synthetic_10000.mlir|($F32) -> $F32|$TMP/bench.json"
  "100k ops|$TMP/synthetic_100000.mlir|($F32) -> $F32|$TMP/bench.json"
)

field() { tr "\n" " " | sed -E "s/.*\"$1\": ([0-9.]+).*/\1/"; }
min2() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Each side is timed ROUNDS times, alternating (ours, JAX, ours, JAX, ...), SECS/ROUNDS seconds a
# round; per side the lowest round median is kept, so a burst of load on the shared machine hits
# both sides alike. Wall time and the thread's CPU time (less disturbed by other processes).
ROUNDS=${ROUNDS:-3}
ROUND_SECS=$(awk -v s="$SECS" -v r="$ROUNDS" 'BEGIN { print s / r }')
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ); $ROUNDS alternating rounds of ${ROUND_SECS}s a side"
printf '%-10s %9s %9s %6s %6s | %9s %9s | %9s %9s %6s\n' kernel "ours ms" "jax ms" ratio "cpu" \
  "parse ours" "parse jax" "rest ours" "rest jax" ratio
for entry in "${KERNELS[@]}"; do
  IFS='|' read -r name file sig params <<<"$entry"
  om=; oc=; jm=; jc=; op=; jp=
  for _ in $(seq "$ROUNDS"); do
    ours=$("$PERF" time "$file" "$sig" "$params" "$ROUND_SECS")
    om=$(min2 "$(field median_ms <<<"$ours")" "$om"); oc=$(min2 "$(field cpu_median_ms <<<"$ours")" "$oc")
    op=$(min2 "$("$PERF" time-parse "$file" "$ROUND_SECS" | field median_ms)" "$op")
    if [ "$HAVE_JAX" = 1 ]; then
      jax=$("$PY" scripts/jaxref/time_emit.py time "$file" "$ROUND_SECS")
      jm=$(min2 "$(field median_ms <<<"$jax")" "$jm"); jc=$(min2 "$(field cpu_median_ms <<<"$jax")" "$jc")
      jp=$(min2 "$("$PY" scripts/jaxref/time_emit.py time-parse "$file" "$ROUND_SECS" | field median_ms)" "$jp")
    fi
  done
  if [ "$HAVE_JAX" = 1 ]; then
    orest=$(awk -v a="$om" -v b="$op" 'BEGIN { printf "%.4f", a - b }')
    jrest=$(awk -v a="$jm" -v b="$jp" 'BEGIN { printf "%.4f", a - b }')
    printf '%-10s %9s %9s %6s %6s | %9s %9s | %9s %9s %6s\n' "$name" "$om" "$jm" "$(ratio "$om" "$jm")" \
      "$(ratio "$oc" "$jc")" "$op" "$jp" "$orest" "$jrest" "$(ratio "$orest" "$jrest")"
  else
    printf '%-10s %9s %9s %6s %6s | %9s %9s | %9s %9s %6s\n' "$name" "$om" - - - "$op" - - - -
  fi
done
echo "(ms = median of a round, best round; ratio = ours / JAX wall, cpu = the same in thread CPU time;"
echo " parse = MLIR's text parse alone, which both sides run first (JAX's verifies the tpu ops too);"
echo " rest = whole - parse: everything after the parse, the part each side's own code decides)"
echo "(load now $(cut -d' ' -f1-3 /proc/loadavg))"

peak_kib() { /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
echo
echo "peak memory, 100k-op kernel (max RSS, /usr/bin/time -v):"
ours_kib=$(peak_kib "$CLI" emit "$TMP/synthetic_100000.mlir" --signature "($F32) -> $F32" --params "$TMP/bench.json" --jax-rules-only -o "$TMP/out.mlir")
echo "  ours (CLI emit):                    $((ours_kib / 1024)) MiB"
if [ "$HAVE_JAX" = 1 ]; then
  jax_kib=$(peak_kib "$PY" scripts/jaxref/time_emit.py once "$TMP/synthetic_100000.mlir")
  base_kib=$(peak_kib "$PY" scripts/jaxref/time_emit.py baseline)
  echo "  jax (python, import + emit):        $((jax_kib / 1024)) MiB (import + context alone: $((base_kib / 1024)) MiB)"
  awk -v a="$ours_kib" -v b="$jax_kib" -v c="$base_kib" \
    'BEGIN { printf "  ratio ours/jax: %.2f (against jax minus its import baseline: %.2f)\n", a / b, a / (b - c) }'
fi

echo
echo "context creation: $("$PERF" context)"

echo
ADD=(emit mlir-fixtures/kernels/add.mlir --signature "($F32, $F32) -> $F32" --params mlir-fixtures/params/add_basic.json -o "$TMP/add.mlir")
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 3 --runs 30 --style basic "$CLI ${ADD[*]@Q}" 2>&1 | grep -E "Time|Range" | sed 's/^/CLI emit add (process start included): /'
else
  start=$(date +%s%N)
  for _ in $(seq 20); do "$CLI" "${ADD[@]}"; done
  echo "CLI emit add (process start included): $(( ($(date +%s%N) - start) / 20000000 )) ms per run (mean of 20)"
fi

echo
echo "parallel emission (16 independent 1k-op kernels, one context per thread):"
"$PERF" parallel 16 1 2

echo
echo "execute on the CPU (tpu-custom-call run) vs JAX 0.12's Pallas TPU interpret mode, same kernels and inputs:"
if [ "$HAVE_JAX" = 1 ]; then
  EXEC_DIR="$TMP/exec"
  "$PY" scripts/jaxref/exec/bench_interpret.py "$EXEC_DIR" --later 5 > "$TMP/exec-jax.jsonl"
  printf '%-28s %12s %12s %7s | %12s %12s %7s | %s\n' kernel "ours first" "jax first" ratio "ours later" "jax later" ratio "results"
  while read -r line; do
    name=$(sed -E 's/.*"name": "([^"]+)".*/\1/' <<<"$line")
    jf=$(field first_seconds <<<"$line"); jl=$(field later_seconds <<<"$line")
    d="$EXEC_DIR/$name"
    ins=(); for f in $(ls "$d" | grep -E '^in[0-9]+\.npy$' | sort -V); do ins+=(--input "$d/$f"); done
    # First call: a fresh process (read + decode + compile + run); later: median of 5 in that process.
    # Tolerances of JAX's own tests: bf16 matmul rtol 1e-2 / atol 1e-3 (tpu_gmm_test.py), attention 3e-3.
    case "$name" in matmul_bf16*) tol=(1e-2 1e-3) ;; *) tol=(3e-3 3e-3) ;; esac
    ours=$("$CLI" run "$d/module.mlir" "${ins[@]}" --repeat 6 --json --compare "$d" --rtol "${tol[0]}" --atol "${tol[1]}" 2>&1) && same=equal || same=DIFFERENT
    of=$(awk -v c="$(field compile_seconds <<<"$ours")" -v r="$(field run_seconds <<<"$ours")" 'BEGIN { printf "%.4f", c + r }')
    ol=$(field later_run_seconds <<<"$ours")
    printf '%-28s %12s %12s %7s | %12s %12s %7s | %s\n' "$name" "$of" "$jf" "$(ratio "$jf" "$of")x" "$ol" "$jl" "$(ratio "$jl" "$ol")x" "$same (rtol ${tol[0]}, atol ${tol[1]})"
  done < "$TMP/exec-jax.jsonl"
  echo "(seconds; ours first = read + decode + compile + run in a fresh process, JAX first = trace + compile + run of a"
  echo " fresh jit in a warm process; later = median of 5 further calls; ratio = JAX / ours, higher is faster for us)"
else
  echo "  (needs the jaxref venv)"
fi
