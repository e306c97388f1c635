#!/usr/bin/env bash
# Builds and runs a crate that depends on this one, outside the repository, with
# exactly the steps of the README ("Depending on this crate"): a path dependency
# and the three build settings in the dependent crate's .cargo/config.toml. The
# crate builds the add kernel in memory with melior's and this crate's builders
# and lowers it. Cheap: shares this repository's target directory and lock file.
#
# Usage: scripts/check-dependent-crate.sh   (exit 0 when the crate builds and runs)
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
cat > "$dir/.cargo/config.toml" <<'TOML'
[env]
MLIR_SYS_220_PREFIX = "/usr/lib/llvm-22"
TABLEGEN_220_PREFIX = "/usr/lib/llvm-22"
LIBCLANG_PATH = "/usr/lib/llvm-22/lib"
TOML
cat > "$dir/src/main.rs" <<'RS'
use tpu_custom_call::lower::{self, LowerOptions};
use tpu_custom_call::melior::dialect::arith;
use tpu_custom_call::melior::ir::attribute::IntegerAttribute;
use tpu_custom_call::melior::ir::r#type::RankedTensorType;
use tpu_custom_call::melior::ir::{BlockLike, Location, Type, Value};
use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, KernelSpec};
use tpu_custom_call::mosaic::upstream::vector_load;
use tpu_custom_call::mosaic::{BuildError, ops};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, kernel};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ctx = Context::new();
    let loc = Location::unknown(&ctx);
    let f32 = Type::float32(&ctx);
    let vmem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let vector = Type::vector(&[8, 128], f32);
    let module = KernelSpec::new("_add_kernel")
        .input(Arg::new(vmem).named("x_ref"))
        .input(Arg::new(vmem).named("y_ref"))
        .output(Arg::new(vmem).named("o_ref"))
        .build(&ctx, |k| {
            let zero = IntegerAttribute::new(Type::index(&ctx), 0).into();
            let c0: Value = k.block.append_operation(arith::constant(&ctx, zero, loc)).result(0).unwrap().into();
            let load = |r| -> Value {
                k.block.append_operation(vector_load(vector, r, &[c0, c0], loc)).result(0).unwrap().into()
            };
            let (x, y) = (load(k.inputs[0]), load(k.inputs[1]));
            let sum = k.block.append_operation(arith::addf(x, y, loc)).result(0).unwrap().into();
            k.block.append_operation(ops::vector_store(&ctx, sum, k.outputs[0], &[c0, c0], None, &[], None, loc));
            Ok::<(), BuildError>(())
        })?;
    let kernel = Kernel::from_module(&ctx, module)?;
    let params = Params::from_json(br#"{"kernel_name": "_add_kernel", "metadata": {}}"#)?;
    let t: Type = RankedTensorType::new(&[8, 128], f32, None).into();
    let hlo = lower::emit_module(&ctx, &kernel, &params, &[t, t], &[t], &LowerOptions::default())?;
    let text = kernel::print_module(&hlo, PrintOptions::default())?;
    assert!(text.contains("call_target_name = \"tpu_custom_call\""));
    println!("dependent crate: built and lowered the add kernel ({} bytes of StableHLO)", text.len());
    Ok(())
}
RS
# Same dependency versions as this repository (so the shared target dir is reused).
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
# Only the README's settings: no environment inherited from this repository's config.
unset MLIR_SYS_220_PREFIX TABLEGEN_220_PREFIX LIBCLANG_PATH
cd "$dir"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}" cargo run --quiet
