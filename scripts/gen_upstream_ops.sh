#!/usr/bin/env bash
# Writes data/mosaic/upstream-ops.txt: the op names of the upstream dialects Mosaic kernels use (arith,
# math, vector, scf, memref, func, cf), read from MLIR 22's generated op headers (libmlir-22-dev). The
# list feeds the "did you mean" of unknown op names (src/spelling.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
inc=/usr/lib/llvm-22/include/mlir/Dialect
{
  echo "# Op names of MLIR 22's arith, math, vector, scf, memref, func and cf dialects (scripts/gen_upstream_ops.sh)."
  for d in Arith Math Vector SCF MemRef Func ControlFlow; do
    cat "$inc/$d"/IR/*Ops.h.inc
  done | grep -ohE 'return ::llvm::StringLiteral\("(arith|math|vector|scf|memref|func|cf)\.[a-z_.0-9]+"\)' \
    | sed -E 's/.*\("(.*)"\)/\1/' | sort -u
} > data/mosaic/upstream-ops.txt
wc -l data/mosaic/upstream-ops.txt
