#!/usr/bin/env bash
# Builds the mlir-opt plugin (plugin/): a shared library that upstream mlir-opt-22 loads with
# --load-dialect-plugin and --load-pass-plugin. Prints its path on the last line.
#   scripts/build-plugin.sh               release build (make plugin)
#   scripts/build-plugin.sh --debug       dev-profile build (make test: shares the tests' dependencies)
#   scripts/build-plugin.sh --check-only  clippy on the plugin, warnings as errors (make lint)
#
# The plugin links MLIR as the host's shared libMLIR.so.22.1 (MLIR_SYS_LINK_SHARED=1; see
# plugin/build.rs and docs/architecture.md). It is a workspace of its own, built in the crate's target
# folder with the crate's Cargo.lock copied beside it, so every dependency but mlir-sys and what
# depends on it is shared with the crate's build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
case $target in /*) ;; *) target=$root/$target ;; esac
cd "$root"
cp Cargo.lock plugin/Cargo.lock
export MLIR_SYS_LINK_SHARED=1 CARGO_TARGET_DIR=$target
manifest=(--manifest-path plugin/Cargo.toml)
case ${1:-} in
  --check-only) exec cargo clippy --quiet "${manifest[@]}" -- -D warnings ;;
  --debug) cargo build --quiet "${manifest[@]}"; library=$target/debug/libtpu_custom_call_plugin.so ;;
  "") cargo build --release --quiet "${manifest[@]}"; library=$target/release/libtpu_custom_call_plugin.so ;;
  *) echo "usage: $0 [--debug | --check-only]" >&2; exit 2 ;;
esac
test -f "$library"
echo "$library"
