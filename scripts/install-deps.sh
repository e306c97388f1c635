#!/usr/bin/env bash
# Installs the LLVM/MLIR 22 toolchain tpu-custom-call builds against (Debian
# packages), only when something is missing: a second run does nothing.
#   llvm-22: llvm-config, which mlir-sys asks for include/lib dirs and link flags
#   llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev: MLIR 22 static libraries,
#     headers and tools (mlir-sys links MLIR statically)
#   libclang1-22: libclang for bindgen (mlir-sys generates its bindings at build time)
#   libclang-common-22-dev: clang's resource headers (stdbool.h ...) bindgen's libclang needs
#   libzstd-dev libz3-dev libxml2-dev zlib1g-dev: what libLLVM links against
set -euo pipefail
PACKAGES=(llvm-22 llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev libclang1-22 libclang-common-22-dev
          libzstd-dev libz3-dev libxml2-dev zlib1g-dev)
missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
