//! Builds a Pallas kernel in memory with the `tpu` builders (no text parsed),
//! lowers it into `stablehlo.custom_call @tpu_custom_call` with the golden's
//! parameters and debug locations stripped, and prints the StableHLO module.
//!
//! ```sh
//! cargo run --example build_kernel -- add
//! cargo run --example build_kernel -- matmul
//! cargo run --example build_kernel -- scalar_prefetch
//! cargo run --example build_kernel -- softmax      # row-wise softmax, f32[256, 512]
//! cargo run --example build_kernel -- matmul_acc   # the Pallas guide's bf16 matmul
//! cargo run --example build_kernel -- matmul --kernel   # the kernel, not lowered
//! cargo run --release --example build_kernel -- bench 10000 /tmp/k.mlir   # time in-memory serialization
//! ```

mod kernels;

use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::melior::ir::r#type::RankedTensorType;
use tpu_custom_call::validate::{self, Signature};
use tpu_custom_call::{Context, DebugLocations, Kernel, Params, PrintOptions, kernel};

fn tensor<'c>(shape: &[u64], element: Type<'c>) -> Type<'c> {
    RankedTensorType::new(shape, element, None).into()
}

/// `bench OPS [KERNEL_OUT]`: builds a synthetic kernel of OPS ops in memory and
/// times its lowering (serialization + backend config, no text parsed); writes
/// the kernel's text to KERNEL_OUT for JAX's side
/// (`scripts/jaxref/time_serialize.py`).
fn bench(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let ops: usize = args
        .first()
        .ok_or("usage: build_kernel bench OPS [KERNEL_OUT]")?
        .parse()?;
    let ctx = Context::new();
    let module = kernels::synthetic(&ctx, ops)?;
    let kernel = Kernel::from_module(&ctx, module)?;
    if let Some(out) = args.get(1) {
        std::fs::write(
            out,
            kernel.print(PrintOptions {
                generic: true,
                debug_info: false,
            })?,
        )?;
    }
    let params = Params::from_json(br#"{"kernel_name": "synthetic", "metadata": {}}"#)?;
    let f32x = Type::parse(&ctx, "tensor<8x128xf32>").ok_or("tensor<8x128xf32>")?;
    // Validation and lowering, as `emit` does them.
    let lower_once = || -> Result<_, Box<dyn std::error::Error>> {
        let call = validate::validate(&kernel, Signature::new([f32x], [f32x]), &params, None)
            .map_err(|errors| errors[0].to_string())?;
        Ok(Lowerer::new(LowerOptions::default()).lower(&call)?)
    };
    lower_once()?; // warm-up
    let mut samples = Vec::new();
    let start = std::time::Instant::now();
    while samples.len() < 5 || (start.elapsed().as_secs_f64() < 3.0 && samples.len() < 1000) {
        let t = std::time::Instant::now();
        std::hint::black_box(lower_once()?);
        samples.push(t.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(f64::total_cmp);
    println!(
        "{{\"ops\": {ops}, \"iters\": {}, \"median_ms\": {:.4}, \"min_ms\": {:.4}}}",
        samples.len(),
        samples[samples.len() / 2],
        samples[0]
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let which = std::env::args().nth(1).unwrap_or_else(|| "add".to_string());
    if which == "bench" {
        return bench(&std::env::args().skip(2).collect::<Vec<_>>());
    }
    let ctx = Context::new();
    let (f32_type, bf16) = (Type::float32(&ctx), Type::bfloat16(&ctx));
    let (module, params, operands, results) = match which.as_str() {
        "add" => (
            kernels::add(&ctx)?,
            "add_basic.json",
            vec![tensor(&[8, 128], f32_type); 2],
            vec![tensor(&[8, 128], f32_type)],
        ),
        "matmul" => (
            kernels::matmul(&ctx)?,
            "matmul_grid.json",
            vec![tensor(&[256, 512], bf16), tensor(&[512, 384], bf16)],
            vec![tensor(&[256, 384], f32_type)],
        ),
        "scalar_prefetch" => (
            kernels::scalar_prefetch(&ctx)?,
            "scalar_prefetch.json",
            vec![
                tensor(&[4], Type::parse(&ctx, "i32").ok_or("i32")?),
                tensor(&[64, 128], f32_type),
            ],
            vec![tensor(&[32, 128], f32_type)],
        ),
        "softmax" => (
            kernels::softmax(&ctx)?,
            "",
            vec![tensor(&[256, 512], f32_type)],
            vec![tensor(&[256, 512], f32_type)],
        ),
        "matmul_acc" => (
            kernels::matmul_acc(&ctx)?,
            "",
            vec![tensor(&[256, 512], bf16), tensor(&[512, 256], bf16)],
            vec![tensor(&[256, 256], bf16)],
        ),
        other => {
            return Err(format!(
                "unknown kernel `{other}`: give `add`, `matmul`, `scalar_prefetch`, `softmax` or `matmul_acc`"
            )
            .into());
        }
    };
    // The goldens' parameters; JAX's defaults for the kernels without a golden.
    let mut params = if params.is_empty() {
        let name = if which == "softmax" {
            "softmax_kernel"
        } else {
            "matmul_kernel"
        };
        Params::from_json(format!(r#"{{"kernel_name": "{name}", "metadata": {{}}}}"#).as_bytes())?
    } else {
        let path = format!(
            "{}/mlir-fixtures/params/{params}",
            env!("CARGO_MANIFEST_DIR")
        );
        Params::from_json(&std::fs::read(&path)?)?
    };
    params.debug_locations = Some(DebugLocations::Strip);
    let kernel = Kernel::from_module(&ctx, module)?;
    if std::env::args().any(|a| a == "--kernel") {
        // The built kernel itself, generic form, as `tpu-custom-call kernel --generic`.
        let options = PrintOptions {
            generic: true,
            debug_info: false,
        };
        print!("{}", kernel.print(options)?);
        return Ok(());
    }
    let call = validate::validate(&kernel, Signature::new(operands, results), &params, None)
        .map_err(|errors| errors[0].to_string())?;
    let stablehlo = Lowerer::new(LowerOptions::default()).emit_module(&ctx, &call)?;
    print!(
        "{}",
        kernel::print_module(&stablehlo, PrintOptions::default())?
    );
    Ok(())
}
