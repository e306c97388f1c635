//! Executing kernels on the CPU (`tpu_custom_call::exec`) on the JAX
//! interpret-mode reference cases of `tests/data/exec`: compiling a call
//! (decode + compile, the part a first call adds) and running it.
//! `bench/compare-jax.sh` times the same kind of kernels side by side with
//! JAX's interpret mode at the sizes of issue 28.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::exec::{DmaTiming, Execution, RunOptions, npy};
use tpu_custom_call::{Context, decode};

const CASES: &[&str] = &[
    "flash_attention_fwd",
    "flash_attention_fwd_causal",
    "matmul_bf16",
    "paged_attention",
    "megablox_gmm",
];

fn exec(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/exec");
    for name in CASES {
        let dir = root.join(name);
        let bytes = std::fs::read(dir.join("module.mlir")).expect("module");
        let ctx = Context::new();
        let calls = decode::decode_module(&ctx, &bytes, name).expect("decodes");
        let execution = Execution::of_call(&calls[0]).expect("compiles");
        let inputs: Vec<_> = execution
            .call_shape()
            .operands
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let a = npy::read(&dir.join(format!("in{k}.npy")), t.elem).expect("input");
                if a.len() == 1 {
                    a.reshaped(t.shape.clone())
                } else {
                    a
                }
            })
            .collect();
        let options = RunOptions::default();
        c.bench_function(&format!("exec/{name}/decode + compile"), |b| {
            b.iter(|| {
                let calls = decode::decode_module(&ctx, black_box(&bytes), name).unwrap();
                Execution::of_call(&calls[0]).unwrap()
            })
        });
        c.bench_function(&format!("exec/{name}/run"), |b| {
            b.iter(|| execution.run(black_box(&inputs), &options).unwrap())
        });
        // What the detectors cost: races watched (DMAs recorded) and every
        // write tracked, at the latest DMA schedule (megablox gmm reads its
        // output block before writing it, on purpose: reported, so left out).
        if *name == "megablox_gmm" {
            continue;
        }
        let watched = RunOptions {
            detect_races: true,
            detect_uninitialized: true,
            dma: DmaTiming::AtWait,
            ..RunOptions::default()
        };
        c.bench_function(
            &format!("exec/{name}/run, races + uninitialised reads watched"),
            |b| b.iter(|| execution.run(black_box(&inputs), &watched).unwrap()),
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = exec
}
criterion_main!(benches);
