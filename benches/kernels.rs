//! Issue 52's kernels at its sizes (`tests/data/bench`: softmax at 256, 4096
//! and 65536 rows of 1024, bf16 layer norm, exact GELU, a blocked f32 matmul
//! of 1024^3, JAX's causal flash attention 1x4x1024x128 and JAX's philox
//! random bits at 1024x1024, each lowered for TPU by
//! `scripts/jaxref/exec/bench_kernels.py lower`), executed on the CPU through
//! [`Execution::run`]: preparing a call (decode + compile) timed apart from
//! running it, for each engine [`engines`] lists.
//!
//! `bench/kernels.sh` times the same kernels beside JAX's interpret mode and
//! NumPy in one run and checks the results; this bench is the
//! criterion view of our side. In test mode (`cargo test --benches`, no
//! `--bench` argument) it runs the smallest kernel only, once, on the
//! interpreter.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::exec::{Engine, Execution, RunOptions, random_inputs};
use tpu_custom_call::{Context, decode};

/// The kernels, smallest first (test mode runs the first alone).
const KERNELS: &[&str] = &[
    "softmax_256x1024",
    "softmax_4096x1024",
    "softmax_65536x1024",
    "layer_norm_bf16_4096x1024",
    "gelu_erf_4096x1024",
    "matmul_f32_1024",
    "flash_attention_causal",
    "philox_1024x1024",
];

/// Seed of the inputs (`exec::random_inputs`: floats uniform in [-1, 1),
/// integers in [0, 8)); the values do not change the work of these kernels.
const SEED: u64 = 52;

/// The one place choosing the engines benched, with the options that select
/// each.
fn engines() -> Vec<(&'static str, RunOptions)> {
    [Engine::Jit, Engine::Interpreter]
        .into_iter()
        .map(|engine| {
            (
                engine.name(),
                RunOptions {
                    engine,
                    ..RunOptions::default()
                },
            )
        })
        .collect()
}

fn kernels(c: &mut Criterion) {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench");
    let names = if bench_mode { KERNELS } else { &KERNELS[..1] };
    for name in names {
        let bytes = std::fs::read(root.join(name).join("module.mlir")).expect("module");
        let ctx = Context::new();
        let calls = decode::decode_module(&ctx, &bytes, name).expect("decodes");
        let execution = Execution::of_call(&calls[0]).expect("compiles");
        let inputs = random_inputs(execution.call_shape(), SEED).expect("inputs");
        let mut group = c.benchmark_group(format!("kernels/{name}"));
        group.bench_function("decode + compile", |b| {
            b.iter(|| {
                let calls = decode::decode_module(&ctx, black_box(&bytes), name).unwrap();
                Execution::of_call(&calls[0]).unwrap()
            })
        });
        for (engine, options) in engines() {
            // Test mode runs the interpreter alone: the compiled engine takes
            // minutes to compile these kernels at the `jit` merge.
            if !bench_mode && options.engine != Engine::Interpreter {
                continue;
            }
            // The compiled engine compiles on a kernel's first run (then a
            // process-wide cache holds it): that first run's report says
            // what compiling cost and which engine ran.
            let report = execution
                .run_report(std::slice::from_ref(&inputs), &options)
                .unwrap();
            let e = &report.engine;
            eprintln!(
                "kernels/{name}/{engine}: ran on {} (fallback: {}), engine compile {:.4} s, first run {:.4} s",
                e.engine,
                e.fallback.as_deref().unwrap_or("none"),
                e.compile_seconds,
                e.run_seconds
            );
            group.bench_function(format!("run ({engine})"), |b| {
                b.iter(|| execution.run(black_box(&inputs), &options).unwrap())
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // Short settings: the big kernels take seconds a run on a shared 2-core
    // machine; criterion's least sample count.
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = kernels
}
criterion_main!(benches);
