#!/usr/bin/env bash
# Whole programs (issue 48), in one run: for each program of the corpus (tests/data/programs), JAX 0.12 runs
# the function with every pallas_call in TPU interpret mode (scripts/jaxref/programs/make_programs.py, into a
# scratch folder: it prints interpret mode's first call, tracing and compiling included, and a later call),
# then `tpu-custom-call run` (release build) runs the TPU-lowered module whole on the same inputs: a fresh
# process's first run (read, decode every kernel once, XLA compile, run), XLA's compile time alone, and the
# median of later runs in the same process.
#
# Usage: bench/program.sh [PROGRAM...]   (default: transformer_block flash_attention_fwd megablox_gmm_grad)
# Needs the PJRT CPU plugin and the jaxref venv (`make refs`; REFCHECK_VENV names another venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${REFCHECK_VENV:-$HOME/.cache/tpu-custom-call/jaxref-venv}
cargo build --release --quiet --bin tpu-custom-call
CLI=target/release/tpu-custom-call
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -gt 0 ] || PROGRAMS=(transformer_block flash_attention_fwd megablox_gmm_grad)
printf '%-22s %7s %11s %11s %11s %14s %15s\n' program devices first_run xla_compile later_runs interpret_first interpret_later
for p in "${PROGRAMS[@]}"; do
  jax=$(nice "$VENV/bin/python" scripts/jaxref/programs/make_programs.py --out "$TMP/jax" --only "$p" --no-shardings 2>/dev/null |
        grep -o "interpret mode [0-9.]* s first run.*, [0-9.]* s later" || true)
  dir=$TMP/jax/$p
  [ -d "$dir" ] || dir=tests/data/programs/$p
  devices=$(python3 -c "import json;print(json.load(open('$dir/program.json')).get('devices',1))")
  inputs=()
  for f in $(ls "$dir"/input*.npy | sort -V); do inputs+=(--input "$f"); done
  start=$(date +%s.%N)
  "$CLI" run "$dir/module.mlir" "${inputs[@]}" --devices "$devices" --repeat 6 --json > "$TMP/ours.json" 2>/dev/null
  end=$(date +%s.%N)
  python3 - "$p" "$devices" "$start" "$end" "$TMP/ours.json" "$jax" <<'PY'
import json, re, sys
name, devices, start, end, ours, jax = sys.argv[1:]
r = json.load(open(ours))
later = r["later_run_seconds"] or 0.0
# The process ran the first run and 5 later ones: the first is the rest.
first = float(end) - float(start) - 5 * later
m = re.findall(r"[0-9.]+", jax)
ij = (f"{float(m[0]):>13.3f}s {float(m[1]):>14.3f}s" if len(m) >= 2 else f"{'-':>14} {'-':>15}")
print(f"{name:<22} {devices:>7} {first:>10.3f}s {r['xla_compile_seconds']:>10.3f}s {later:>10.4f}s {ij}")
PY
done
