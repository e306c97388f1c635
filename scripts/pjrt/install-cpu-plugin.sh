#!/usr/bin/env bash
# Installs XLA's PJRT CPU plugin for running whole programs (`tpu_custom_call::pjrt::CpuClient`): the official
# xla-cpu-pjrt==0.0.1 wheel from PyPI through pip (63 MB to download, once), of which only
# xla_plugins/xla_cpu_pjrt/xla_cpu_pjrt.so is kept, in ~/.cache/tpu-custom-call/xla-cpu-pjrt/0.0.1/xla_cpu_pjrt.so
# (260 MB). A plugin already there is not fetched again.
#   scripts/pjrt/install-cpu-plugin.sh                 # from PyPI
#   scripts/pjrt/install-cpu-plugin.sh --wheel FILE    # from a wheel already downloaded
# The wheel's SHA-256 is checked against the one pinned below (measured on the PyPI file), and the .so against
# the wheel's RECORD. TPU_CUSTOM_CALL_PJRT_CACHE overrides the cache directory. Exit 0 even when pip cannot fetch
# the wheel (the tests that need the plugin print SKIPPED); 1 on a wheel whose hash differs.
# TPU_CUSTOM_CALL_NO_PJRT_CPU=1 installs nothing.
set -euo pipefail
VERSION=0.0.1
WHEEL_SHA256=55837b6b7b47daa717f2d9a5a03563ea0ceaa338d06a81a1e2d3f060d960decc
CACHE="${TPU_CUSTOM_CALL_PJRT_CACHE:-${HOME}/.cache/tpu-custom-call/xla-cpu-pjrt}"
dir="$CACHE/$VERSION"
wheel=""
if [ "${1:-}" = "--wheel" ]; then
  wheel="${2:?install-cpu-plugin: --wheel needs a file}"
elif [ $# -gt 0 ]; then
  echo "install-cpu-plugin: usage: $0 [--wheel FILE]" >&2
  exit 2
fi
if [ -f "$dir/xla_cpu_pjrt.so" ]; then
  echo "install-cpu-plugin: xla-cpu-pjrt $VERSION present ($dir/xla_cpu_pjrt.so)"
  exit 0
fi
if [ "${TPU_CUSTOM_CALL_NO_PJRT_CPU:-}" = "1" ]; then
  echo "install-cpu-plugin: skipped (TPU_CUSTOM_CALL_NO_PJRT_CPU=1)"
  exit 0
fi
python="$(command -v python3 || true)"
if [ -z "$python" ]; then
  echo "install-cpu-plugin: no python3: the plugin is not installed" >&2
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -z "$wheel" ]; then
  if ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-cpu-plugin: no pip: the plugin is not installed" >&2
    exit 0
  fi
  echo "install-cpu-plugin: fetching xla-cpu-pjrt==$VERSION from PyPI"
  if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_27_x86_64 \
      --dest "$tmp" "xla-cpu-pjrt==$VERSION"; then
    echo "install-cpu-plugin: pip could not fetch xla-cpu-pjrt==$VERSION: not installed" >&2
    exit 0
  fi
  wheel="$(ls "$tmp"/xla_cpu_pjrt-*.whl)"
fi
sum="$(sha256sum "$wheel" | cut -d' ' -f1)"
if [ "$sum" != "$WHEEL_SHA256" ]; then
  echo "install-cpu-plugin: $wheel has SHA-256 $sum, not the xla-cpu-pjrt $VERSION wheel's $WHEEL_SHA256" >&2
  exit 1
fi
mkdir -p "$dir"
# Keep only the .so, checked against the wheel's RECORD; written beside its final name, then renamed (never a
# partial file).
"$python" - "$wheel" "$dir" <<'PY'
import base64, hashlib, os, shutil, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
name = "xla_plugins/xla_cpu_pjrt/xla_cpu_pjrt.so"
part = os.path.join(dest, "xla_cpu_pjrt.so.part")
with zipfile.ZipFile(wheel) as z:
    record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
    want = next(l.split(",")[1] for l in z.read(record).decode().splitlines() if l.startswith(name + ","))
    digest = hashlib.sha256()
    with z.open(name) as src, open(part, "wb") as out:
        while chunk := src.read(1 << 20):
            digest.update(chunk)
            out.write(chunk)
got = "sha256=" + base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()
if got != want:
    os.remove(part)
    sys.exit(f"install-cpu-plugin: {name} does not match the wheel's RECORD ({got} vs {want})")
os.replace(part, os.path.join(dest, "xla_cpu_pjrt.so"))
PY
echo "install-cpu-plugin: xla-cpu-pjrt $VERSION in $dir/xla_cpu_pjrt.so"
