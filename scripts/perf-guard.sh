#!/usr/bin/env bash
# The emit-speed regression guard (issue 41): instruction counts of whole emits (load the kernel text,
# validate, lower, print: examples/perf.rs `loop`) under valgrind's callgrind, which are deterministic
# where wall time is not, compared with the committed baseline bench/callgrind-baseline.tsv.
#
# Per kernel: (instructions of N emits - instructions of 1 emit) / (N - 1), so process start, context
# creation and the first emit's one-time work drop out. Fails when a count exceeds its baseline by more
# than TOLERANCE_PCT (default 2: Rust's randomly seeded hash maps and the libc a machine has move the
# counts by under 0.1% between runs here); says so when a count fell by more (bless the new baseline then).
#
# The baseline records the rustc that built the example; another rustc widens the tolerance to 6%.
#
# Usage: scripts/perf-guard.sh            check (CI: run by `make test` after the suite)
#        BLESS=1 scripts/perf-guard.sh    rewrite bench/callgrind-baseline.tsv from this machine
# The dev-profile example is measured (`cargo test --all-targets` has built it; no release build in CI):
# its counts weigh our Rust code more than a release build would, which makes the guard stricter on it.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
TOLERANCE_PCT_SAME=${TOLERANCE_PCT:-2}
TOLERANCE_PCT=$TOLERANCE_PCT_SAME
BASELINE=bench/callgrind-baseline.tsv
N=3
if ! command -v valgrind >/dev/null; then
  echo "perf-guard: valgrind missing: run scripts/install-deps.sh" >&2
  exit 1
fi
cargo build --quiet --example perf
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Without its DWARF 5 debug info, which Debian bookworm's valgrind 3.19 cannot read (symbols stay).
PERF=$TMP/perf
objcopy --strip-debug "$target/debug/examples/perf" "$PERF"
"$PERF" gen 1000 "$TMP/synthetic_1000.mlir"
echo '{"kernel_name": "bench", "metadata": {}}' > "$TMP/bench.json"
F32='tensor<8x128xf32>'
KERNELS=(
  "add|mlir-fixtures/kernels/add.mlir|($F32, $F32) -> $F32|mlir-fixtures/params/add_basic.json"
  "matmul|mlir-fixtures/kernels/matmul.mlir|(tensor<256x512xbf16>, tensor<512x384xbf16>) -> tensor<256x384xf32>|mlir-fixtures/params/matmul_grid.json"
  "synthetic_1k|$TMP/synthetic_1000.mlir|($F32) -> $F32|$TMP/bench.json"
)

# Instructions of `perf loop ... n` (callgrind's total).
count() {
  local file=$1 sig=$2 params=$3 n=$4 out
  out=$TMP/cg.out
  valgrind --tool=callgrind --callgrind-out-file="$out" "$PERF" loop "$file" "$sig" "$params" "$n" \
    >/dev/null 2>"$TMP/cg.log" || { cat "$TMP/cg.log" >&2; return 1; }
  sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$TMP/cg.log"
}

# The counts depend on the compiler that built the example (and a little on libc and the CPU): with
# another rustc than the baseline's, the tolerance widens to OTHER_TOOLCHAIN_PCT (still far below a
# regression of the size issue 41 met) and the guard says to bless a baseline for that toolchain.
toolchain="$(rustc -V)"
declare -A base=()
base_toolchain=
if [ -f "$BASELINE" ]; then
  while IFS=$'\t' read -r name value; do
    case $name in ''|'#'*) continue ;; toolchain) base_toolchain=$value; continue ;; esac
    base[$name]=$value
  done <"$BASELINE"
fi
if [ -z "${BLESS:-}" ] && [ -n "$base_toolchain" ] && [ "$base_toolchain" != "$toolchain" ]; then
  TOLERANCE_PCT=${OTHER_TOOLCHAIN_PCT:-6}
  echo "perf-guard: baseline made with $base_toolchain, this is $toolchain: tolerance ${TOLERANCE_PCT}%" \
    "(BLESS=1 $0 on this toolchain restores ${TOLERANCE_PCT_SAME:-2}%)"
fi
status=0
lines=()
for entry in "${KERNELS[@]}"; do
  IFS='|' read -r name file sig params <<<"$entry"
  one=$(count "$file" "$sig" "$params" 1)
  many=$(count "$file" "$sig" "$params" "$N")
  per=$(( (many - one) / (N - 1) ))
  lines+=("$name	$per")
  if [ -n "${BLESS:-}" ]; then
    echo "perf-guard: $name: $per instructions per whole emit"
    continue
  fi
  ref=${base[$name]:-}
  if [ -z "$ref" ]; then
    echo "perf-guard: $name: no baseline in $BASELINE (BLESS=1 $0 writes it)" >&2
    status=1
    continue
  fi
  pct=$(awk -v a="$per" -v b="$ref" 'BEGIN { printf "%+.2f", (a - b) * 100 / b }')
  echo "perf-guard: $name: $per instructions per whole emit, baseline $ref ($pct%, tolerance ${TOLERANCE_PCT}%)"
  if awk -v a="$per" -v b="$ref" -v t="$TOLERANCE_PCT" 'BEGIN { exit !(a > b * (1 + t / 100)) }'; then
    echo "perf-guard: FAIL: $name's whole emit costs $pct% more instructions than the baseline; find the cause" \
      "(callgrind_annotate on \`valgrind --tool=callgrind $PERF loop ...\`), or, if the cost is meant," \
      "BLESS=1 $0 and say why in the commit" >&2
    status=1
  elif awk -v a="$per" -v b="$ref" -v t="$TOLERANCE_PCT" 'BEGIN { exit !(a < b * (1 - t / 100)) }'; then
    echo "perf-guard: $name is $pct% below its baseline: BLESS=1 $0 to keep the gain"
  fi
done
if [ -n "${BLESS:-}" ]; then
  {
    echo "# Instructions per whole emit (scripts/perf-guard.sh: callgrind, dev-profile examples/perf loop,"
    echo "# (N emits - 1 emit) / (N - 1)); written by BLESS=1 scripts/perf-guard.sh on $(date -u +%F)."
    printf 'toolchain\t%s\n' "$toolchain"
    printf '%s\n' "${lines[@]}"
  } >"$BASELINE"
  echo "perf-guard: wrote $BASELINE"
fi
exit $status
