#!/usr/bin/env bash
# Builds and runs a crate that depends on this one, outside the repository, with
# exactly the steps of the README ("Depending on this crate"): a path dependency
# and the three build settings in the dependent crate's .cargo/config.toml. The
# crate builds the add kernel in memory with melior's and this crate's builders
# and lowers it: the README's example, taken from README.md itself. Then the
# worked test suite examples/test-suite (docs/testing.md) runs its `cargo
# test`. Cheap: both share this repository's target directory and lock file.
# With --cold it also builds as a new user would: its own dependency resolution
# (no Cargo.lock copied: the newest versions the manifests allow) and an empty
# target folder, first with `default-features = false`, then with the default
# features, and prints the wall time and the packages linked of each.
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
def main(body):
    return "fn main() -> Result<(), Box<dyn std::error::Error>> {\n" + body + "\nOk(())\n}\n"
body = body.replace("# Ok::<(), Box<dyn std::error::Error>>(())", "").replace("Ok::<(), Box<dyn std::error::Error>>(())", "")
open(f"{out}/src/main.rs", "w").write(main(body))
# Without the `exec` feature: the example up to where it runs the kernel on the CPU.
marker = "// The numbers it computes"
assert marker in body, "the README example no longer runs the kernel: update check-dependent-crate.sh"
open(f"{out}/lean_main.rs", "w").write("#![allow(unused)] // what the CPU run would have used\n" + main(body[:body.index(marker)]))
PY
# Only the README's settings: no environment inherited from this repository's config.
unset MLIR_SYS_220_PREFIX TABLEGEN_220_PREFIX LIBCLANG_PATH
# The dependencies a build links (normal and build edges, each package once).
deps() { cargo tree -e normal,build --prefix none 2>/dev/null | sed 's/ (\*)//; s/ (proc-macro)//' | sort -u | wc -l; }
if [ "${1:-}" = "--cold" ]; then
  # Twice as a new user would, each with its own dependency resolution (no Cargo.lock copied: the newest
  # versions the manifests allow), into one empty target folder: first `default-features = false` (emit,
  # decode, validate), then the default features (what they add to the same folder).
  cold="$(mktemp -d "${TMPDIR:-/tmp}/tcc-dependent-cold.XXXXXX")"
  lean="$(mktemp -d "${TMPDIR:-/tmp}/tcc-dependent-lean.XXXXXX")"
  cp -r "$dir/." "$cold/"
  cp -r "$dir/." "$lean/"
  sed -i 's|^tpu-custom-call = { path = "\(.*\)" }$|tpu-custom-call = { path = "\1", default-features = false }|' \
    "$lean/Cargo.toml"
  grep -q 'default-features = false' "$lean/Cargo.toml"
  mv "$lean/lean_main.rs" "$lean/src/main.rs"
  (
    cd "$lean"
    start=$SECONDS
    CARGO_TARGET_DIR="$cold/target" cargo run --quiet
    echo "check-dependent-crate: default-features = false: cold build (own resolution, empty target folder)" \
      "and run: $((SECONDS - start)) s on $(nproc) cores; $(deps) packages linked"
  )
  (
    cd "$cold"
    start=$SECONDS
    CARGO_TARGET_DIR="$cold/target" cargo run --quiet
    echo "check-dependent-crate: default features: what they add to that build, and run: $((SECONDS - start)) s;" \
      "$(deps) packages linked"
  )
  rm -rf "$cold" "$lean"
fi
# Same dependency versions as this repository (so the shared target dir is reused).
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
(
  cd "$dir"
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}" cargo run --quiet
)
# The worked test suite of docs/testing.md (examples/test-suite: golden, validity, numbers, libtpu compile),
# a crate of its own depending on this one by path: its `cargo test`, with this repository's lock file and
# target folder (the library built above is reused: a few seconds).
suite="$repo/examples/test-suite"
cp "$repo/Cargo.lock" "$suite/Cargo.lock"
trap 'rm -rf "$dir"; rm -f "$suite/Cargo.lock"' EXIT
(
  cd "$suite"
  start=$SECONDS
  CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}" cargo test --quiet
  echo "check-dependent-crate: examples/test-suite built and tested in $((SECONDS - start)) s"
)
