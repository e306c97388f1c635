#!/usr/bin/env bash
# Installs the LLVM/MLIR 22 toolchain tpu-custom-call builds against (Debian
# packages), only when something is missing: a second run does nothing.
#   llvm-22: llvm-config, which mlir-sys asks for include/lib dirs and link flags
#   llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev: MLIR 22 static libraries,
#     headers and tools (mlir-sys links MLIR statically)
#   libclang1-22: libclang for bindgen (mlir-sys generates its bindings at build time)
#   libclang-common-22-dev: clang's resource headers (stdbool.h ...) bindgen's libclang needs
#   libzstd-dev libz3-dev libxml2-dev zlib1g-dev: what libLLVM links against
#   llvm-22-tools python3: lit, FileCheck, not (the mlir-opt plugin's lit tests, tests/lit)
#   valgrind: callgrind's instruction counts, the emit-speed guard (scripts/perf-guard.sh)
# Then libtpu.so (the real TPU compiler, for `tpu-custom-call compile`): the libtpu==0.0.50.1 wheel from
# PyPI through pip, of which only libtpu.so is kept, in ~/.cache/tpu-custom-call/libtpu/0.0.50.1/ (with a
# RELEASE file naming the release, which `compile` reports). Other releases: scripts/libtpu/install-release.sh.
# TPU_CUSTOM_CALL_NO_LIBTPU=1 skips it (about 250 MB to download, once).
set -euo pipefail

LIBTPU_VERSION=0.0.50.1
LIBTPU_DIR="${HOME}/.cache/tpu-custom-call/libtpu/${LIBTPU_VERSION}"
install_libtpu() {
  if [ -f "$LIBTPU_DIR/libtpu.so" ]; then
    # The install record `compile` names the release from (older installs lack it).
    [ -f "$LIBTPU_DIR/RELEASE" ] || echo "$LIBTPU_VERSION" >"$LIBTPU_DIR/RELEASE" || true
    echo "install-deps: libtpu $LIBTPU_VERSION present ($LIBTPU_DIR/libtpu.so)"
    return 0
  fi
  if [ "${TPU_CUSTOM_CALL_NO_LIBTPU:-}" = "1" ]; then
    echo "install-deps: libtpu skipped (TPU_CUSTOM_CALL_NO_LIBTPU=1)"
    return 0
  fi
  local python tmp
  python="$(command -v python3 || true)"
  if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-deps: no python3 with pip: libtpu not installed (\`compile\` will say how to get it)" >&2
    return 0
  fi
  tmp="$(mktemp -d)"
  echo "install-deps: fetching libtpu==$LIBTPU_VERSION from PyPI"
  if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" "libtpu==$LIBTPU_VERSION"; then
    rm -rf "$tmp"
    echo "install-deps: pip could not fetch libtpu==$LIBTPU_VERSION: libtpu not installed" >&2
    return 0
  fi
  mkdir -p "$LIBTPU_DIR"
  # Keep only libtpu.so; write it beside its final name, then rename (never a partial file).
  "$python" - "$tmp" "$LIBTPU_DIR" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, dest = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(tmp, "libtpu-*.whl"))[0]
with zipfile.ZipFile(wheel) as z, z.open("libtpu/libtpu.so") as src, open(os.path.join(dest, "libtpu.so.part"), "wb") as out:
    shutil.copyfileobj(src, out, 1 << 20)
with open(os.path.join(dest, "RELEASE"), "w") as f:
    f.write(os.path.basename(dest) + "\n")
os.replace(os.path.join(dest, "libtpu.so.part"), os.path.join(dest, "libtpu.so"))
PY
  rm -rf "$tmp"
  echo "install-deps: libtpu $LIBTPU_VERSION in $LIBTPU_DIR/libtpu.so"
}
PACKAGES=(llvm-22 llvm-22-dev libmlir-22-dev mlir-22-tools libpolly-22-dev libclang1-22 libclang-common-22-dev
          libzstd-dev libz3-dev libxml2-dev zlib1g-dev llvm-22-tools python3 valgrind)
missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  install_libtpu
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_libtpu
echo "install-deps: done"
