//! Target look-ups: parsing chip names (canonical, alias, unknown) and running
//! every check on a query that fails all of them.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::config::{DeviceType, MemorySpace};
use tpu_custom_call::target::TpuMemorySpace;
use tpu_custom_call::{Chip, TargetQuery};

fn parse(c: &mut Criterion) {
    c.bench_function("target/parse canonical v5e", |b| {
        b.iter(|| black_box("v5e").parse::<Chip>())
    });
    c.bench_function("target/parse alias tpu v6 lite", |b| {
        b.iter(|| black_box("tpu v6 lite").parse::<Chip>())
    });
    c.bench_function("target/parse unknown (error message)", |b| {
        b.iter(|| black_box("v9").parse::<Chip>().map_err(|e| e.to_string()))
    });
}

fn check(c: &mut Criterion) {
    let failing = TargetQuery {
        device_type: Some(DeviceType::SparseCore),
        core_count: Some(8),
        subcore_count: Some(32),
        tensor_cores_per_device: Some(2),
        vmem_limit_bytes: Some(1 << 30),
        internal_scratch_in_bytes: Some(1 << 30),
        memory_spaces: vec![MemorySpace::Vmem, MemorySpace::ScVectorSmem],
        kernel_memory_spaces: vec![TpuMemorySpace::Vmem, TpuMemorySpace::Cmem],
    };
    let passing = TargetQuery {
        vmem_limit_bytes: Some(32 << 20),
        memory_spaces: vec![MemorySpace::Vmem, MemorySpace::Hbm],
        kernel_memory_spaces: vec![TpuMemorySpace::Vmem, TpuMemorySpace::Any],
        ..TargetQuery::default()
    };
    c.bench_function("target/check passing query, every chip", |b| {
        b.iter(|| Chip::ALL.map(|chip| chip.check(black_box(&passing)).is_ok()))
    });
    c.bench_function("target/check_all failing query, v7x", |b| {
        b.iter(|| Chip::V7x.check_all(black_box(&failing)))
    });
}

criterion_group!(benches, parse, check);
criterion_main!(benches);
