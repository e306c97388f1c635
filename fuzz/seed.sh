#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets under fuzz/seeds/<target>/ from
# the JAX 0.12 goldens and the repository's fixtures. Re-runnable: the seeds
# directory is recreated each time. Run from anywhere:
#   fuzz/seed.sh [GOLDENS_DIR]
# (default: tests/data/jax-goldens, where the tests read them)
# Pass the seeds as a second corpus directory to `cargo fuzz run` (new inputs
# go to the first one, fuzz/corpus/<target>/, which is committed minimised).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
goldens="${1:-$repo/tests/data/jax-goldens}"
[ -d "$goldens" ] || { echo "no goldens at $goldens" >&2; exit 1; }
fixtures="$repo/mlir-fixtures"
seeds="$here/seeds"
rm -rf "$seeds"
for t in config_reader body_decoder kernel_text params_reader inspect diff exec; do
  mkdir -p "$seeds/$t"
done

# copy SRC DEST_DIR NAME: copies when SRC exists.
copy() { [ -f "$1" ] && cp "$1" "$2/$3" || true; }
# prefixed BYTE SRC DEST: one mode byte, then SRC (body_decoder's input form).
prefixed() { { printf "$1"; cat "$2"; } > "$3"; }

for case_dir in "$goldens"/*/; do
  [ -f "$case_dir/case.json" ] || continue
  c="$(basename "$case_dir")"
  # backend_config JSON.
  copy "$case_dir/backend_config.json" "$seeds/config_reader" "$c.json"
  # Bodies: base64 text from the config (mode byte 0), raw JAX bytecode and
  # debug-location blobs (mode byte 1).
  if [ -f "$case_dir/backend_config.json" ]; then
    python3 - "$case_dir/backend_config.json" "$seeds/body_decoder/$c" <<'PY'
import json, sys
cfg = json.load(open(sys.argv[1]))["custom_call_config"]
for key, suffix in (("body", "body.b64"), ("debug_locations", "debug.b64")):
    if cfg.get(key):
        open(f"{sys.argv[2]}.{suffix}", "wb").write(b"\x00" + cfg[key].encode())
PY
  fi
  [ -f "$case_dir/body.mlirbc" ] && prefixed '\001' "$case_dir/body.mlirbc" "$seeds/body_decoder/$c.body.bc"
  [ -f "$case_dir/debug_locations.mlirbc" ] && prefixed '\001' "$case_dir/debug_locations.mlirbc" "$seeds/body_decoder/$c.debug.bc"
  # Kernel text: generic, upstream pretty, JAX pretty (tpu syntax), with locations.
  for f in kernel_pre_serde.generic.mlir kernel_pre_serde.mlir kernel.mlir kernel_locs.mlir kernel_serialized.mlir; do
    copy "$case_dir/$f" "$seeds/kernel_text" "$c.$f"
  done
  # exec: the call's types on a line, then the kernel.
  if [ -f "$case_dir/module.mlir" ] && [ -f "$case_dir/kernel.mlir" ]; then
    python3 - "$case_dir/module.mlir" "$case_dir/kernel.mlir" "$seeds/exec/$c.mlir" <<'PY'
import re, sys
module = open(sys.argv[1]).read()
line = next((l for l in module.splitlines() if "@tpu_custom_call(" in l), None)
if line is not None:
    m = re.search(r"\}\s*:\s*(\(.*\)\s*->\s*.*)$", line)
    if m:
        open(sys.argv[3], "w").write(m.group(1).strip() + "\n" + open(sys.argv[2]).read())
PY
  fi
  # Whole modules for inspect (JAX's pretty text).
  copy "$case_dir/module.mlir" "$seeds/inspect" "$c.module.mlir"
done

# Repository fixtures.
for f in "$fixtures"/params/*.json; do copy "$f" "$seeds/params_reader" "$(basename "$f")"; done
for f in "$fixtures"/jax-modules/*.mlir; do copy "$f" "$seeds/inspect" "jm.$(basename "$f")"; done
for f in "$fixtures"/kernels/* "$fixtures"/pretty/*.mlir "$fixtures"/pipeline/*.mlir; do
  [ -f "$f" ] && copy "$f" "$seeds/kernel_text" "fx.$(basename "$f")"
done
for f in "$fixtures"/serde/*/*.mlir; do
  [ -f "$f" ] && copy "$f" "$seeds/kernel_text" "serde.$(basename "$(dirname "$f")").$(basename "$f")"
done
# Bytecode fixtures: bodies JAX wrote and our transcoder's per-encoding files.
find "$fixtures/bytecode" "$fixtures/serde" -name '*.mlirbc' | sort | while read -r f; do
  name="$(echo "${f#"$fixtures"/}" | tr / .)"
  prefixed '\001' "$f" "$seeds/body_decoder/$name"
done
# Bad inputs and former crashers go to every target that reads their kind.
for f in "$fixtures"/bad/* "$fixtures"/bad/*/* "$fixtures"/crashers/*; do
  [ -f "$f" ] || continue
  case "$f" in *.stderr|*.md) continue ;; esac
  b="bad.$(basename "$f")"
  copy "$f" "$seeds/kernel_text" "$b"
  copy "$f" "$seeds/inspect" "$b"
  prefixed '\001' "$f" "$seeds/body_decoder/$b"
done
# Bad JSON of the config and params fixtures, if any.
for d in "$fixtures"/bad "$fixtures"/params; do
  for f in "$d"/*.json; do
    [ -f "$f" ] || continue
    copy "$f" "$seeds/config_reader" "fx.$(basename "$f")"
  done
done

# diff: pairs of modules (mode byte, split point as two little-endian bytes,
# module A, module B): each golden module with itself, with the next golden's
# module, and the same pair with calls matched by name and locations compared.
python3 - "$goldens" "$seeds/diff" <<'PY'
import pathlib, sys
modules = sorted(p for p in pathlib.Path(sys.argv[1]).glob("*/module.mlir") if p.stat().st_size < 60000)
for i, a in enumerate(modules):
    b = modules[(i + 1) % len(modules)]
    for mode, other in ((0, a), (3, b)):
        x, y = a.read_bytes(), other.read_bytes()
        name = f"{a.parent.name}.{mode}.{other.parent.name}"
        (pathlib.Path(sys.argv[2]) / name).write_bytes(bytes([mode]) + len(x).to_bytes(2, "little") + x + y)
PY

# Drop anything larger than 256 KiB (libFuzzer's -max_len is smaller anyway).
find "$seeds" -type f -size +256k -delete
for t in "$seeds"/*/; do
  echo "$(basename "$t"): $(ls "$t" | wc -l) seeds, $(du -sh "$t" | cut -f1)"
done
