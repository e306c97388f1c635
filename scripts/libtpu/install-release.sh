#!/usr/bin/env bash
# Installs libtpu releases for `tpu-custom-call compile --libtpu` and the release tests: for each VERSION,
# the libtpu==VERSION wheel from PyPI through pip, of which only libtpu/libtpu.so is kept, in
# ~/.cache/tpu-custom-call/libtpu/VERSION/libtpu.so (about 250 MB to download per release, once; a release
# already there is not fetched again). Also keeps the wheel's version in .../VERSION/RELEASE, which `compile`
# reads to name the release it used.
#   scripts/libtpu/install-release.sh 0.0.52 0.0.47.1 0.0.42.1
# TPU_CUSTOM_CALL_LIBTPU_CACHE overrides the cache directory. Exit 0 even when pip cannot fetch a release
# (the tests that need it print SKIPPED), 2 on a malformed version. TPU_CUSTOM_CALL_NO_LIBTPU=1 installs nothing.
set -euo pipefail
CACHE="${TPU_CUSTOM_CALL_LIBTPU_CACHE:-${HOME}/.cache/tpu-custom-call/libtpu}"
python="$(command -v python3 || true)"
status=0
for version in "$@"; do
  if ! [[ "$version" =~ ^[0-9]+(\.[0-9]+){2,3}$ ]]; then
    echo "install-release: not a libtpu release: '$version' (e.g. 0.0.50.1)" >&2
    exit 2
  fi
  dir="$CACHE/$version"
  if [ "${TPU_CUSTOM_CALL_NO_LIBTPU:-}" = "1" ] && [ ! -f "$dir/libtpu.so" ]; then
    echo "install-release: libtpu $version skipped (TPU_CUSTOM_CALL_NO_LIBTPU=1)"
    continue
  fi
  if [ -f "$dir/libtpu.so" ]; then
    [ -f "$dir/RELEASE" ] || echo "$version" >"$dir/RELEASE"
    echo "install-release: libtpu $version present ($dir/libtpu.so)"
    continue
  fi
  if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-release: no python3 with pip: libtpu $version not installed" >&2
    status=1
    continue
  fi
  tmp="$(mktemp -d)"
  echo "install-release: fetching libtpu==$version from PyPI"
  if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" "libtpu==$version"; then
    rm -rf "$tmp"
    echo "install-release: pip could not fetch libtpu==$version: not installed" >&2
    status=1
    continue
  fi
  mkdir -p "$dir"
  # Keep only libtpu.so; written beside its final name, then renamed (never a partial file).
  "$python" - "$tmp" "$dir" "$version" <<'PY'
import glob, os, shutil, sys, zipfile
tmp, dest, version = sys.argv[1], sys.argv[2], sys.argv[3]
wheel = glob.glob(os.path.join(tmp, "libtpu-*.whl"))[0]
with zipfile.ZipFile(wheel) as z, z.open("libtpu/libtpu.so") as src, open(os.path.join(dest, "libtpu.so.part"), "wb") as out:
    shutil.copyfileobj(src, out, 1 << 20)
with open(os.path.join(dest, "RELEASE"), "w") as f:
    f.write(version + "\n")
os.replace(os.path.join(dest, "libtpu.so.part"), os.path.join(dest, "libtpu.so"))
PY
  rm -rf "$tmp"
  echo "install-release: libtpu $version in $dir/libtpu.so"
done
# Not fetched (no pip, no network) is not an error for `make refs`: the tests print SKIPPED.
[ "$status" -eq 0 ] || echo "install-release: some releases not installed" >&2
exit 0
