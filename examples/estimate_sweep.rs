//! A compiler choosing a matmul's block sizes without a TPU: builds the Pallas
//! TPU guide's bf16 matmul (f32 scratch accumulator, `@pl.when` init and
//! write-back) for each candidate `(bm, bk, bn)` with the crate's Pallas
//! idioms, estimates every candidate with libtpu's static performance model
//! in parallel worker processes, and prints them ranked.
//!
//! ```text
//! cargo run --release --example estimate_sweep -- [SIZE [CHIP]]     # default 4096 v5e
//! ```
//!
//! Needs libtpu (scripts/install-deps.sh) and the `tpu-custom-call`
//! executable beside the example (cargo builds it) or on PATH: the worker.
//! Candidates libtpu refuses (a scoped-VMEM overflow) or whose profile is no
//! time (0 cycles, a unit over 100%: `EstimateError::Unsound`) are listed
//! last as refused, never ranked.

use tpu_custom_call::compile::CompileOptions;
use tpu_custom_call::compile::estimate::{self, EstimateOptions, format_time};
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::ir::r#type::RankedTensorType;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::{self, DimensionSemantics, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, IndexMap, KernelSpec, Window};
use tpu_custom_call::target::Chip;
use tpu_custom_call::validate::{self, Signature};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, kernel};

/// The guide's matmul kernel for an `m x k` by `k x n` bf16 product in
/// `(bm, bk, bn)` blocks.
fn matmul(
    ctx: &MlirContext,
    (m, k, n): (i64, i64, i64),
    (bm, bk, bn): (i64, i64, i64),
) -> Result<Module<'_>, BuildError> {
    let (bf16, f32_type) = (Type::bfloat16(ctx), Type::float32(ctx));
    let nsteps = k / bk;
    let vmem = |shape: &[i64], t| attrs::memref(ctx, shape, t, MemorySpace::Vmem, None);
    let window = |shape: &[i64], map: &[usize]| Window::blocked(shape, IndexMap::grid(map));
    use DimensionSemantics::{Arbitrary, Parallel};
    KernelSpec::new("matmul_kernel")
        .grid(&[m / bm, n / bn, nsteps], &[Parallel, Parallel, Arbitrary])
        .input(
            Arg::new(vmem(&[bm, bk], bf16))
                .named("x_ref")
                .window(window(&[bm, bk], &[0, 2])),
        )
        .input(
            Arg::new(vmem(&[bk, bn], bf16))
                .named("y_ref")
                .window(window(&[bk, bn], &[2, 1])),
        )
        .output(
            Arg::new(vmem(&[bm, bn], bf16))
                .named("z_ref")
                .window(window(&[bm, bn], &[0, 1])),
        )
        .scratch(Arg::new(vmem(&[bm, bn], f32_type)).named("acc_ref"))
        .build(ctx, |k| {
            let (x_ref, y_ref, z_ref, acc_ref) =
                (k.inputs[0], k.inputs[1], k.outputs[0], k.scratch[0]);
            k.when(k.eq(k.program_id(2)?, 0)?, |k| {
                k.store(acc_ref, k.zeros_like(acc_ref)?)
            })?;
            let acc = k.load(acc_ref)?;
            let product = k.dot(k.load(x_ref)?, k.load(y_ref)?)?;
            k.store(acc_ref, k.add(acc, product)?)?;
            k.when(k.eq(k.program_id(2)?, nsteps - 1)?, |k| {
                k.store(z_ref, k.astype(k.load(acc_ref)?, bf16)?)
            })
        })
}

/// The StableHLO module calling the kernel once.
fn module_text(size: i64, blocks: (i64, i64, i64)) -> Result<String, Box<dyn std::error::Error>> {
    let ctx = Context::new();
    let built = matmul(&ctx, (size, size, size), blocks)?;
    let kernel = Kernel::from_module(&ctx, built)?;
    let bf16 = Type::bfloat16(&ctx);
    let tensor = |shape: &[u64]| -> Type<'_> { RankedTensorType::new(shape, bf16, None).into() };
    let s = size as u64;
    let params = Params::from_json(br#"{"kernel_name": "matmul_kernel"}"#)?;
    let call = validate::validate(
        &kernel,
        Signature::new([tensor(&[s, s]), tensor(&[s, s])], [tensor(&[s, s])]),
        &params,
        None,
    )
    .map_err(|errors| errors[0].to_string())?;
    let module = Lowerer::new(LowerOptions::default()).emit_module(&ctx, &call)?;
    Ok(kernel::print_module(&module, PrintOptions::default())?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(code) = tpu_custom_call::compile::serve_worker_if_asked() {
        std::process::exit(code);
    }
    let mut args = std::env::args().skip(1);
    let size: i64 = args.next().map_or(Ok(4096), |s| s.parse())?;
    let chip: Chip = args.next().map_or(Ok(Chip::V5e), |c| c.parse())?;
    let mut candidates = Vec::new();
    for bm in [128, 256, 512] {
        for bk in [128, 512, 1024] {
            for bn in [128, 512, 1024] {
                // The guide's shapes: square-ish blocks, bn at least bm.
                if bn < bm || size % bm != 0 || size % bk != 0 || size % bn != 0 {
                    continue;
                }
                if bm * bk + bk * bn > 1024 * 1024 + 512 * 1024 {
                    continue;
                }
                candidates.push((bm, bk, bn));
            }
        }
    }
    let mut modules = Vec::new();
    for &(bm, bk, bn) in &candidates {
        let name = format!("blocks {bm}x{bk}x{bn}");
        modules.push((name, module_text(size, (bm, bk, bn))?.into_bytes()));
    }
    let options = EstimateOptions {
        compile: CompileOptions {
            chip,
            ..Default::default()
        },
        ..Default::default()
    };
    eprintln!(
        "estimating {} candidates of a {size}^3 bf16 matmul on {chip} (2 workers)...",
        modules.len()
    );
    let started = std::time::Instant::now();
    let results = estimate::estimate_many(&modules, &options, 2);
    let flops = 2.0 * (size as f64).powi(3);
    println!(
        "{:>4}  {:<22}  {:>12}  {:>8}  {:<13}",
        "rank", "candidate", "time", "TFLOP/s", "bound"
    );
    for (rank, i) in estimate::rank(&results).into_iter().enumerate() {
        match &results[i] {
            Ok(e) => println!(
                "{:>4}  {:<22}  {:>12}  {:>8.1}  {:<13}",
                rank + 1,
                modules[i].0,
                format_time(e.seconds()),
                flops / e.seconds() / 1e12,
                e.calls[0].bound
            ),
            Err(error) => println!(
                "{:>4}  {:<22}  refused: {}",
                "-",
                modules[i].0,
                error.to_string().lines().next().unwrap_or_default()
            ),
        }
    }
    if let Some(best) = estimate::rank(&results)
        .first()
        .filter(|&&i| results[i].is_ok())
    {
        println!(
            "chosen: {} ({:.1} s to estimate all)",
            modules[*best].0,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
