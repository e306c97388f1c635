#!/usr/bin/env bash
# Builds and runs a crate that depends on this one, outside the repository, with
# exactly the steps of the README ("Depending on this crate"): a path dependency
# and the three build settings in the dependent crate's .cargo/config.toml. The
# crate builds the add kernel in memory with melior's and this crate's builders
# and lowers it: the README's example, taken from README.md itself. Cheap:
# shares this repository's target directory and lock file.
# With --cold it builds a second time as a new user would: its own dependency
# resolution (no Cargo.lock copied: the newest versions the manifests allow)
# and an empty target folder, and prints the wall time of that cold build.
#
# Usage: scripts/check-dependent-crate.sh [--cold]   (exit 0 when the crate builds and runs)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/tcc-dependent.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src" "$dir/.cargo"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "tcc-dependent-check"
version = "0.1.0"
edition = "2024"

[dependencies]
tpu-custom-call = { path = "$repo" }
TOML
# The README's own text: its `.cargo/config.toml` block ("Depending on this crate") and its Rust example
# ("Building a kernel in memory", doctest lines un-hidden, wrapped in `main`), so the two cannot drift apart.
python3 - "$repo/README.md" "$dir" <<'PY'
import re, sys
readme, out = open(sys.argv[1]).read(), sys.argv[2]
def section(title):
    start = readme.index(title) + len(title)
    return readme[start:start + re.search(r"\n##+ ", readme[start:]).start()]
def block(text, lang):
    return re.search(r"```" + lang + r"\n(.*?)```", text, re.S).group(1)
dep = section("### Depending on this crate")
config = [b for b in re.findall(r"```toml\n(.*?)```", dep, re.S) if "[env]" in b][0]
open(f"{out}/.cargo/config.toml", "w").write(config)
body = block(section("### Building a kernel in memory"), "rust")
body = "\n".join(l[2:] if l.startswith("# ") else l for l in body.splitlines())
open(f"{out}/src/main.rs", "w").write(
    "fn main() -> Result<(), Box<dyn std::error::Error>> {\n" + body + "\n}\n")
PY
# Only the README's settings: no environment inherited from this repository's config.
unset MLIR_SYS_220_PREFIX TABLEGEN_220_PREFIX LIBCLANG_PATH
if [ "${1:-}" = "--cold" ]; then
  cold="$(mktemp -d "${TMPDIR:-/tmp}/tcc-dependent-cold.XXXXXX")"
  cp -r "$dir/." "$cold/"
  (
    cd "$cold"
    start=$SECONDS
    CARGO_TARGET_DIR="$cold/target" cargo run --quiet
    echo "check-dependent-crate: cold build (own resolution, empty target folder) and run: $((SECONDS - start)) s" \
      "on $(nproc) cores; resolved $(grep -c '^name = ' Cargo.lock) packages"
  )
  rm -rf "$cold"
fi
# Same dependency versions as this repository (so the shared target dir is reused).
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
cd "$dir"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}" cargo run --quiet
