#!/usr/bin/env bash
# Builds the mlir-opt plugin (plugin/): a shared library that upstream mlir-opt-22 loads with
# --load-dialect-plugin and --load-pass-plugin. Prints its path on the last line.
# `--check-only`: runs clippy on the plugin instead (make lint).
#
# The plugin links MLIR as the host's shared libMLIR.so.22.1 (MLIR_SYS_LINK_SHARED=1, see
# plugin/build.rs and docs/architecture.md); mlir-sys does not rerun its build script when that
# variable changes, so the plugin has a target folder of its own: <target>/plugin.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target_root=${CARGO_TARGET_DIR:-$root/target}
case $target_root in /*) ;; *) target_root=$root/$target_root ;; esac
target=$target_root/plugin
cd "$root"
export MLIR_SYS_LINK_SHARED=1 CARGO_TARGET_DIR=$target
if [ "${1:-}" = "--check-only" ]; then
  # `make lint`: clippy on the plugin's own code, warnings as errors.
  exec cargo clippy --release --quiet --manifest-path plugin/Cargo.toml -- -D warnings
fi
cargo build --release --quiet --manifest-path plugin/Cargo.toml "$@"
library=$target/release/libtpu_custom_call_plugin.so
test -f "$library"
echo "$library"
