#!/usr/bin/env bash
# Fuzz smoke: every cargo-fuzz target of fuzz/ runs for a bounded time on its
# committed corpus and the seeds, under AddressSanitizer with debug assertions
# (so Rust's unsafe-precondition checks fire too), and any crash, leak of a
# Rust panic, timeout or out-of-memory fails the run. CI runs it on every
# landing (`make fuzz-smoke`, called by .ci/run); see fuzz/README.md.
#
#   scripts/fuzz-smoke.sh [TARGET...]        (default: every target)
#   FUZZ_SMOKE_SECONDS=N                     seconds per target (default 45)
#
# The committed corpus is only read: new inputs go to a scratch folder, so a
# smoke run never changes the repository. A crashing input is kept under
# fuzz/artifacts/<target>/ (libFuzzer's default), named in the output.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."
seconds="${FUZZ_SMOKE_SECONDS:-45}"
# cargo-fuzz version the runs in fuzz/README.md used; installed once.
cargo_fuzz_version="0.13.1"
if ! cargo fuzz --version 2>/dev/null | grep -q "$cargo_fuzz_version"; then
  echo "fuzz-smoke: installing cargo-fuzz $cargo_fuzz_version"
  cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked --quiet
fi
# Only the stable toolchain exists here; cargo-fuzz needs nightly flags.
export RUSTC_BOOTSTRAP=1
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=0"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list --fuzz-dir fuzz)
fi
fuzz/seed.sh >/dev/null
start=$SECONDS
cargo fuzz build --fuzz-dir fuzz --debug-assertions >/dev/null
echo "fuzz-smoke: built ${#targets[@]} targets (AddressSanitizer, debug assertions) in $((SECONDS - start)) s"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
dict_of() {
  case "$1" in
    config_reader) echo -dict=fuzz/dicts/config.dict ;;
    params_reader) echo -dict=fuzz/dicts/params.dict ;;
    # Its input is a generator's choices, not text: no dictionary; long
    # inputs (more ops) from the start (it runs ~1-5 inputs a second).
    jit) echo -len_control=0 -max_len=256 ;;
    *) echo -dict=fuzz/dicts/mlir.dict ;;
  esac
}
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t" "fuzz/artifacts/$t"
  log="$scratch/$t.log"
  corpora=()
  [ -d "fuzz/corpus/$t" ] && corpora+=("fuzz/corpus/$t")
  [ -d "fuzz/seeds/$t" ] && corpora+=("fuzz/seeds/$t")
  # The scratch folder comes first: libFuzzer writes new inputs there.
  if cargo fuzz run --fuzz-dir fuzz --debug-assertions "$t" "$scratch/$t" "${corpora[@]}" -- \
      -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=60 $(dict_of "$t") \
      -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" >"$log" 2>&1; then
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')"
    echo "fuzz-smoke: $t: ${seconds} s, $runs executions, cov $cov, no crash"
  else
    echo "fuzz-smoke: $t: FAILED (last lines of libFuzzer's output below)"
    tail -40 "$log"
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz-smoke: ${#failed[@]} target(s) failed: ${failed[*]}"
  exit 1
fi
echo "fuzz-smoke: ${#targets[@]} targets, ${seconds} s each, no crash"
