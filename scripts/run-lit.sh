#!/usr/bin/env bash
# Runs the lit tests of tests/lit: builds the mlir-opt plugin (scripts/build-plugin.sh --debug) and the
# CLI (the tests compare mlir-opt's output with `tpu-custom-call opt`'s), then LLVM 22's lit.
# Extra arguments go to lit (e.g. `scripts/run-lit.sh -v --filter errors`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
llvm_bin=${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}/bin
cd "$root"
plugin=$(scripts/build-plugin.sh --debug | tail -n 1)
cargo build --quiet --bin tpu-custom-call
exec "$llvm_bin/lit" tests/lit -sv --param plugin="$plugin" \
  --param tcc="$target/debug/tpu-custom-call" --param exec_root="$target/lit" --param llvm_bin="$llvm_bin" "$@"
