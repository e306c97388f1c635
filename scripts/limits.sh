#!/usr/bin/env bash
# Measures the limits of docs/robustness.md: time and max RSS (/usr/bin/time -v) of the release CLI on
#   - kernels with a large constant (a body of MB megabytes), through `emit`, then `inspect` of the module;
#   - modules of N placeholder calls, through `opt` (tpu-custom-call-lower), then `inspect` of the lowered module;
#   - kernels of N ops, through `emit`, then `inspect`.
# Usage: scripts/limits.sh [body MBs (default "10 100")] [call counts (default "1000 10000")] [op counts (default "100000 1000000")]
# Inputs are generated in a temporary folder (about 1 GB at the defaults) and removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin tpu-custom-call >&2
CLI="$PWD/target/release/tpu-custom-call"
ROOT="$PWD"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -v "$@" 2>time.txt >/dev/null || { cat time.txt >&2; echo "$label: FAILED" ; return; }
  local user wall rss
  user=$(grep "User time" time.txt | awk '{print $NF}')
  wall=$(grep "Elapsed (wall" time.txt | awk '{print $NF}')
  rss=$(grep "Maximum resident" time.txt | awk '{print $NF}')
  printf '%-40s user %6ss  wall %8s  max RSS %6d MiB\n' "$label" "$user" "$wall" $((rss / 1024))
}

for mb in ${1:-10 100}; do
  python3 - "$mb" <<'PY'
import os, sys
mb = int(sys.argv[1]); n = mb * 1024 * 1024 // 4
with open(f"big{mb}.mlir", "w") as f:
    f.write('"builtin.module"() <{sym_name = "big"}> ({\n  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "big"}> ({\n  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>):\n')
    f.write('    %0 = "arith.constant"() <{value = dense<"0x')
    chunk = os.urandom(1 << 20).hex().upper()
    for _ in range(mb):
        f.write(chunk)
    f.write(f'"> : vector<{n}xf32>}}> : () -> vector<{n}xf32>\n')
    f.write('    "func.return"() : () -> ()\n  }) {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} : () -> ()\n}) : () -> ()\n')
PY
  measure "emit, ${mb} MB constant" "$CLI" emit "big$mb.mlir" --signature '(tensor<8x128xf32>) -> ()' -o "bigmod$mb.mlir"
  measure "inspect, ${mb} MB body" "$CLI" inspect "bigmod$mb.mlir" -o "bigmod$mb.txt"
  rm -f "big$mb.mlir" "bigmod$mb.mlir"
done

for n in ${2:-1000 10000}; do
  python3 - "$n" "$ROOT/mlir-fixtures/pipeline/three_calls.mlir" <<'PY'
import sys
n = int(sys.argv[1]); src = open(sys.argv[2]).read()
main = '  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "main"'
head = src[: src.index(main)]
out = [head, main + ', sym_visibility = "public"}> ({\n  ^bb0(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>):\n']
prev = "%x"
for i in range(n):
    if i % 2 == 0:
        out.append(f'    %{i} = "tpu_custom_call.call"({prev}, %y) {{kernel = @_add_kernel, kernel_name = "_add_kernel", metadata = {{}}}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>\n')
    else:
        out.append(f'    %{i} = "tpu_custom_call.call"({prev}) {{kernel = @_copy_add1_kernel, kernel_name = "_copy_add1_kernel", metadata = {{}}}} : (tensor<8x128xf32>) -> tensor<8x128xf32>\n')
    prev = f"%{i}"
out.append(f'    "func.return"({prev}) : (tensor<8x128xf32>) -> ()\n  }}) : () -> ()\n}}) : () -> ()\n')
open(f"calls{n}.mlir", "w").write("".join(out))
PY
  measure "opt (lower), $n calls" "$CLI" opt "calls$n.mlir" --pass-pipeline 'builtin.module(tpu-custom-call-lower)' -o "lowered$n.mlir"
  measure "inspect, $n calls" "$CLI" inspect "lowered$n.mlir" -o "lowered$n.txt"
  test "$(grep -c '^tpu_custom_call #' "lowered$n.txt")" = "$n" || echo "inspect of $n calls: wrong count" >&2
  rm -f "calls$n.mlir" "lowered$n.mlir"
done

for n in ${3:-100000 1000000}; do
  python3 - "$n" <<'PY'
import sys
n = int(sys.argv[1])
with open(f"ops{n}.mlir", "w") as f:
    f.write('"builtin.module"() <{sym_name = "ops"}> ({\n  "func.func"() <{function_type = (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<8x128xf32, #tpu.memory_space<vmem>>) -> (), sym_name = "ops"}> ({\n  ^bb0(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>):\n')
    f.write('    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index\n')
    f.write('    %v0 = "vector.load"(%arg0, %c0, %c0) : (memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> vector<8x128xf32>\n')
    for i in range(1, n + 1):
        f.write(f'    %v{i} = "arith.addf"(%v{i-1}, %v0) <{{fastmath = #arith.fastmath<none>}}> : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>\n')
    f.write(f'    "tpu.vector_store"(%v{n}, %arg1, %c0, %c0) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : (vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>, index, index) -> ()\n')
    f.write('    "func.return"() : () -> ()\n  }) {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} : () -> ()\n}) : () -> ()\n')
PY
  measure "emit, $n ops" "$CLI" emit "ops$n.mlir" --signature '(tensor<8x128xf32>) -> tensor<8x128xf32>' -o "opsmod$n.mlir"
  measure "inspect, $n ops" "$CLI" inspect "opsmod$n.mlir" -o "opsmod$n.txt"
  rm -f "ops$n.mlir" "opsmod$n.mlir"
done
