#!/usr/bin/env bash
# Lowers a module of func/arith/math/vector/scf/memref ops to the LLVM dialect with MLIR's upstream
# conversions (what the compiled engine's pipeline does after tcc-bufferize-vectors) and runs its
# @main with mlir-runner. Usage: lower.sh LLVM_BIN < module.mlir
set -euo pipefail
bin=$1
"$bin/mlir-opt" --lower-vector-multi-reduction --convert-vector-to-scf --lower-affine \
  --convert-scf-to-cf --expand-strided-metadata --lower-affine --convert-vector-to-llvm \
  --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \
  --convert-ub-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
  | "$bin/mlir-runner" -e main -entry-point-result=void \
      -shared-libs="$bin/../lib/libmlir_c_runner_utils.so"
