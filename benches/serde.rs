//! Serialization cost on synthetic kernels of 1k, 10k and 100k ops, against
//! the floor: parsing the same module and writing it as plain bytecode.
//!
//! Run: `cargo bench --bench serde`. Besides criterion's timings it prints,
//! per size, serialize time per op, the ratio to the floor, and the peak RSS.

mod common;

use common::{kernel_op_count, synthetic_kernel};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::time::{Duration, Instant};
use tpu_custom_call::serde::{SerializeOptions, serialize};
use tpu_custom_call::{BytecodeOptions, Context, Kernel};

fn floor(ctx: &Context, text: &str) -> Vec<u8> {
    let kernel = Kernel::from_text(ctx, text, "bench").unwrap();
    kernel.to_bytecode(&BytecodeOptions::default()).unwrap()
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn bench(c: &mut Criterion) {
    let options = SerializeOptions::default();
    let mut group = c.benchmark_group("serde");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    for ops in [1_000usize, 10_000, 100_000] {
        let text = synthetic_kernel(ops);
        let ctx = Context::new();
        let kernel = Kernel::from_text(&ctx, &text, "bench").unwrap();
        let ops = kernel_op_count(&text);
        // SERDE_BENCH_SUMMARY=1 prints only the summary lines below.
        if std::env::var_os("SERDE_BENCH_SUMMARY").is_none() {
            group.bench_with_input(
                BenchmarkId::new("floor_parse_write", ops),
                &text,
                |b, text| b.iter(|| floor(&ctx, text)),
            );
            group.bench_with_input(
                BenchmarkId::new("serialize_v15_unzip", ops),
                &kernel,
                |b, kernel| b.iter(|| serialize(kernel, &options).unwrap()),
            );
        }
        // A direct summary: medians of a few runs, per op and as a ratio.
        let runs = if ops > 50_000 { 3 } else { 7 };
        let f = median(
            (0..runs)
                .map(|_| time(|| drop(floor(&ctx, &text))))
                .collect(),
        );
        let s = median(
            (0..runs)
                .map(|_| time(|| drop(serialize(&kernel, &options).unwrap())))
                .collect(),
        );
        eprintln!(
            "serde summary: {ops} ops: serialize {:.0} ns/op ({:.1} ms), floor {:.0} ns/op ({:.1} ms), ratio {:.2}, peak RSS {} MiB",
            s.as_nanos() as f64 / ops as f64,
            s.as_secs_f64() * 1e3,
            f.as_nanos() as f64 / ops as f64,
            f.as_secs_f64() * 1e3,
            s.as_secs_f64() / f.as_secs_f64(),
            peak_rss_kib() / 1024
        );
    }
    group.finish();
}

fn time(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

criterion_group!(benches, bench);
criterion_main!(benches);
