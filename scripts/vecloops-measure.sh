#!/usr/bin/env bash
# Measures what tcc-bufferize-vectors buys on one kernel body (func/arith/math/vector/scf/memref
# ops): the size of the LLVM IR and the time of each step (MLIR conversions to the LLVM dialect,
# translation to LLVM IR, llc -O2 codegen), with and without the pass before the conversions.
# Usage: scripts/vecloops-measure.sh KERNEL.mlir [TIMEOUT_SECONDS (default 120, per step)]
# Needs the mlir-opt plugin (scripts/build-plugin.sh --debug). Prints one TSV row per variant.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}/bin
kernel=$1
limit=${2:-120}
plugin=${TCC_PLUGIN:-$root/target/debug/libtpu_custom_call_plugin.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lower=(--lower-vector-multi-reduction --convert-vector-to-scf --lower-affine --convert-scf-to-cf
  --expand-strided-metadata --lower-affine --convert-vector-to-llvm --convert-math-to-llvm
  --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-ub-to-llvm
  --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts)
now() { date +%s.%N; }
printf 'variant\tpass_s\tto_llvm_dialect_s\ttranslate_s\tllc_O2_s\tllvm_ir_bytes\tllvm_ir_lines\tobject_bytes\n'
for variant in unrolled bufferized; do
  t0=$(now)
  if [ $variant = bufferized ]; then
    "$bin/mlir-opt" --load-dialect-plugin="$plugin" --load-pass-plugin="$plugin" \
      --pass-pipeline="builtin.module(tcc-bufferize-vectors)" "$kernel" -o "$work/in.mlir" || exit 1
  else
    cp "$kernel" "$work/in.mlir"
  fi
  t1=$(now)
  timeout "$limit" "$bin/mlir-opt" "${lower[@]}" "$work/in.mlir" -o "$work/llvm.mlir" \
    || { printf '%s\t%.3f\t>%s (timeout)\n' $variant "$(echo "$t1 - $t0" | bc)" "$limit"; continue; }
  t2=$(now)
  timeout "$limit" "$bin/mlir-translate" --mlir-to-llvmir "$work/llvm.mlir" -o "$work/out.ll" \
    || { printf '%s\t%.3f\t%.3f\t>%s (timeout)\n' $variant "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$limit"; continue; }
  t3=$(now)
  timeout "$limit" "$bin/llc" -O2 -filetype=obj "$work/out.ll" -o "$work/out.o" \
    || { printf '%s\t%.3f\t%.3f\t%.3f\t>%s (timeout)\t%s\n' $variant "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t3 - $t2" | bc)" "$limit" "$(stat -c %s "$work/out.ll")"; continue; }
  t4=$(now)
  printf '%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s\n' $variant "$(echo "$t1 - $t0" | bc)" \
    "$(echo "$t2 - $t1" | bc)" "$(echo "$t3 - $t2" | bc)" "$(echo "$t4 - $t3" | bc)" \
    "$(stat -c %s "$work/out.ll")" "$(wc -l < "$work/out.ll")" "$(stat -c %s "$work/out.o")"
done
