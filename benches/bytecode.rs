//! Transcoder throughput on a real JAX 0.12 body (`matmul_grid`).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tpu_custom_call::bytecode;

fn golden(case: &str, file: &str) -> Vec<u8> {
    let goldens = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jax-goldens");
    std::fs::read(goldens.join(case).join(file)).expect("JAX goldens")
}

fn bench(c: &mut Criterion) {
    let body = golden("matmul_grid", "body.mlirbc");
    let down = bytecode::down(&body).unwrap();
    c.bench_function("parse container (matmul_grid body)", |b| {
        b.iter(|| {
            bytecode::Bytecode::parse(black_box(&body))
                .unwrap()
                .entries
                .len()
        })
    });
    c.bench_function("down (matmul_grid body)", |b| {
        b.iter(|| bytecode::down(black_box(&body)).unwrap())
    });
    c.bench_function("up (matmul_grid body)", |b| {
        b.iter(|| bytecode::up(black_box(&down)).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
