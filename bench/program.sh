#!/usr/bin/env bash
# Whole programs (issue 48): each program of tests/data/programs (the corpus: JAX 0.12's TPU lowering,
# inputs, JAX's CPU results with interpret mode and interpret mode's own times, recorded when the corpus
# was made) run whole by `tpu-custom-call run` (release build): a fresh process's wall time for the
# first run (read, decode every kernel once, XLA compile, run), XLA's compile time alone, and the
# median of later runs in the same process; next to interpret mode's first and later call.
#
# Usage: bench/program.sh [PROGRAM...]   (default: transformer_block flash_attention_fwd megablox_gmm_grad)
# Needs the PJRT CPU plugin (`make refs`, or TPU_CUSTOM_CALL_PJRT_CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin tpu-custom-call
CLI=target/release/tpu-custom-call
ROOT=tests/data/programs
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -gt 0 ] || PROGRAMS=(transformer_block flash_attention_fwd megablox_gmm_grad)
printf '%-22s %8s %12s %10s %12s %14s %14s\n' program devices first_wall xla_compile later_runs interpret_1st interpret_later
for p in "${PROGRAMS[@]}"; do
  dir=$ROOT/$p
  devices=$(python3 -c "import json;print(json.load(open('$dir/program.json')).get('devices',1))")
  inputs=()
  for f in $(ls "$dir"/input*.npy | sort -V); do inputs+=(--input "$f"); done
  start=$(date +%s.%N)
  json=$("$CLI" run "$dir/module.mlir" "${inputs[@]}" --devices "$devices" --repeat 6 --json 2>/dev/null)
  end=$(date +%s.%N)
  python3 - "$p" "$devices" "$start" "$end" "$dir/program.json" <<PY
import json, sys
name, devices, start, end, meta = sys.argv[1:]
r = json.loads('''$json''')
i = json.load(open(meta)).get("interpret_seconds", {})
wall = float(end) - float(start)
# The wall time covers the first run and 5 later ones: subtract the later ones.
first = wall - 5 * (r["later_run_seconds"] or 0)
print(f"{name:<22} {devices:>8} {first:>11.3f}s {r['xla_compile_seconds']:>9.3f}s {r['later_run_seconds']:>11.4f}s "
      f"{i.get('first', float('nan')):>13.3f}s {i.get('later', float('nan')):>13.3f}s")
PY
done
