#!/usr/bin/env bash
# Runs the integration tests under LeakSanitizer (the test binary and every CLI process the tests spawn are built
# with -Zsanitizer=leak; a leak makes a process exit with code 23, so a CLI leak fails its test and a library leak
# fails the run at exit). First proves the checker is live: `examples/lsan_canary.rs` leaks one MLIR module on
# purpose and must be reported. (A leaked MLIR *context* is not reported: MLIR keeps it reachable from thread-local
# caches; contexts are only created by `Context::new` and destroyed by melior's `Drop`.)
#
# Usage: scripts/leak-check.sh [test filter...]     (default: the whole integration suite)
# Needs the stable toolchain only (RUSTC_BOOTSTRAP=1 unlocks -Z flags) and its own target dir (first build: ~30 min
# on 2 cores, since every crate is rebuilt with the sanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
export RUSTFLAGS="-Zsanitizer=leak"
export CARGO_TARGET_DIR="${LSAN_TARGET_DIR:-/tmp/lsan-target}"
TARGET=x86_64-unknown-linux-gnu
export LSAN_OPTIONS="${LSAN_OPTIONS:-detect_leaks=1:exitcode=23}"

cargo build --target "$TARGET" --example lsan_canary
set +e
"$CARGO_TARGET_DIR/$TARGET/debug/examples/lsan_canary" 2>canary.log
code=$?
set -e
if [ "$code" != 23 ] || ! grep -q "LeakSanitizer: detected memory leaks" canary.log; then
  echo "leak-check: the canary's deliberate leak was not reported (exit $code): the checker is not live" >&2
  cat canary.log >&2
  rm -f canary.log
  exit 1
fi
echo "leak-check: the canary's leaked module was reported, as it must be" >&2
rm -f canary.log

cargo test --target "$TARGET" --test integration -- "$@"
echo "leak-check: no leaks reported" >&2
