//! The estimator end to end (`compile::estimate`: worker start, libtpu's
//! static profile, bundles read): the golden tiled matmul (24 grid steps,
//! every one simulated), the Pallas guide's 128-block matmul at 1024^3 (512
//! steps) and at 8192^3 (262,144 steps: probe, two reduced grids,
//! extrapolation). Needs libtpu (scripts/install-deps.sh) and the
//! `tpu-custom-call` executable built beside the bench (`cargo build
//! --release`); prints SKIPPED otherwise.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::compile::estimate::{self, EstimateOptions};
use tpu_custom_call::compile::{CompileOptions, find_libtpu, find_worker};
use tpu_custom_call::target::Chip;

fn estimator(c: &mut Criterion) {
    let (Ok(libtpu), Ok(worker)) = (find_libtpu(None), find_worker()) else {
        eprintln!("SKIPPED estimate benches: no libtpu.so or no tpu-custom-call worker");
        return;
    };
    let options = EstimateOptions {
        compile: CompileOptions {
            chip: Chip::V5e,
            libtpu: Some(libtpu),
            worker: Some(worker),
            ..Default::default()
        },
        ..Default::default()
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = [
        (
            "matmul_grid 2x3x4",
            "tests/data/jax-goldens/matmul_grid/module.mlir",
        ),
        (
            "guide 128 blocks 1024^3 (512 steps)",
            "tests/data/estimate/mm_plain_b128x128x128_1024.mlir",
        ),
        (
            "guide 128 blocks 8192^3 (262,144 steps)",
            "tests/data/estimate/mm_plain_b128x128x128_8192.mlir",
        ),
    ];
    let mut group = c.benchmark_group("estimate");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(20));
    for (name, path) in cases {
        let bytes = std::fs::read(format!("{root}/{path}")).unwrap();
        group.bench_function(format!("{name}, v5e"), |b| {
            b.iter(|| estimate::estimate(black_box(&bytes), path, &options).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, estimator);
criterion_main!(benches);
