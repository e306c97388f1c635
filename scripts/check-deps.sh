#!/usr/bin/env bash
# Proves scripts/install-deps.sh: after it ran, every header and library the build uses comes
# (dpkg -S) from a package that install-deps.sh names, so a fresh machine gets all of them.
# Checked: llvm-config (mlir-sys asks it for everything below), the MLIR/LLVM headers (the
# mlir-c headers bindgen reads, the C++ headers cpp/ includes), the static libraries mlir-sys
# links (every libMLIR*.a, `llvm-config --libnames`), the system libraries LLVM links
# (`llvm-config --system-libs`: z3, z, zstd, xml2; libc's rt/dl/m belong to the C toolchain),
# libclang and clang's resource headers (stdbool.h ...) that bindgen needs.
# Exit 1 listing every file that is missing or comes from a package the script does not name.
# Usage: scripts/check-deps.sh [INSTALL_DEPS_SCRIPT]   (default scripts/install-deps.sh)
set -euo pipefail
DEPS_SCRIPT="$(realpath "${1:-$(dirname "$0")/install-deps.sh}")"
cd "$(dirname "$0")/.."
eval "$(sed -n '/^PACKAGES=(/,/)/p' "$DEPS_SCRIPT")"
PREFIX="${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}"
LLVM_CONFIG="$PREFIX/bin/llvm-config"
problems=()
files=("$LLVM_CONFIG")
if [ ! -x "$LLVM_CONFIG" ]; then
  echo "check-deps: $LLVM_CONFIG is missing: run scripts/install-deps.sh" >&2
  exit 1
fi
INCLUDE="$("$LLVM_CONFIG" --includedir)"
LIBDIR="$("$LLVM_CONFIG" --libdir)"
# Headers: all of mlir-c (mlir-sys's bindgen wrapper includes them) and what cpp/ includes.
while IFS= read -r f; do files+=("$f"); done < <(find "$INCLUDE/mlir-c" -name '*.h' | sort)
while IFS= read -r h; do files+=("$INCLUDE/$h"); done < <(
  grep -ho '#include "[^"]*"' cpp/*.cpp | sed 's/#include "\(.*\)"/\1/' | sort -u)
# Static libraries mlir-sys links.
while IFS= read -r f; do files+=("$f"); done < <(find "$LIBDIR" -maxdepth 1 -name 'libMLIR*.a' | sort)
for lib in $("$LLVM_CONFIG" --link-static --libnames); do files+=("$LIBDIR/$lib"); done
# System libraries LLVM links (the .so the linker resolves -lX to).
for flag in $("$LLVM_CONFIG" --link-static --system-libs); do
  case "$flag" in
    -lrt | -ldl | -lm | -lpthread | -lc) ;; # libc6-dev: part of the C toolchain Rust needs anyway
    -l*)
      name="${flag#-l}"
      path="$(ls /usr/lib/*-linux-gnu/lib"$name".so /usr/lib/lib"$name".so 2>/dev/null | head -1 || true)"
      files+=("${path:-lib$name.so (for $flag)}")
      ;;
    /*) files+=("$flag") ;;
  esac
done
# bindgen: libclang (LIBCLANG_PATH in .cargo/config.toml) and clang's resource headers.
while IFS= read -r f; do files+=("$f"); done < <(find "$LIBDIR" -maxdepth 1 -name 'libclang-[0-9]*.so*' | sort)
stdbool="$(ls "$LIBDIR"/clang/*/include/stdbool.h 2>/dev/null | head -1 || true)"
files+=("${stdbool:-$LIBDIR/clang/<version>/include/stdbool.h}")
[ -n "$stdbool" ] && files+=("$(dirname "$stdbool")/stddef.h" "$(dirname "$stdbool")/stdint.h")

named=" ${PACKAGES[*]} "
existing=()
for f in "${files[@]}"; do
  if [ -e "$f" ]; then existing+=("$f"); else problems+=("missing: $f"); fi
done
# One dpkg -S for all files (`pkg[:arch][, pkg2]: path` per line).
declare -A owner=()
while IFS= read -r line; do
  case "$line" in diversion*) continue ;; esac
  pkgs="${line%%: /*}"
  path="/${line#*: /}"
  owner["$path"]="$pkgs"
done < <(printf '%s\0' "${existing[@]}" | xargs -0 dpkg -S 2>/dev/null || true)
for f in "${existing[@]}"; do
  pkgs="${owner[$f]:-}"
  if [ -z "$pkgs" ]; then
    real="$(realpath "$f")"
    pkgs="$(dpkg -S "$real" 2>/dev/null | head -1 | sed 's/: \/.*//' || true)"
  fi
  if [ -z "$pkgs" ]; then
    problems+=("no package: $f")
    continue
  fi
  ok=""
  IFS=',' read -ra list <<<"$pkgs"
  for p in "${list[@]}"; do
    p="${p// /}"
    p="${p%%:*}"
    case "$named" in *" $p "*) ok="$p" ;; esac
  done
  [ -n "$ok" ] || problems+=("$f comes from $pkgs, which $DEPS_SCRIPT does not name")
done
if [ ${#problems[@]} -ne 0 ]; then
  printf 'check-deps: %s\n' "${problems[@]}" >&2
  echo "check-deps: ${#problems[@]} problem(s) in ${#files[@]} files" >&2
  exit 1
fi
echo "check-deps: all ${#files[@]} headers and libraries the build uses come from packages install-deps.sh names"
