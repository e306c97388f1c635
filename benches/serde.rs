//! Serialization cost on synthetic kernels of 1k, 10k and 100k ops, against
//! the floor: parsing the same module and writing it as plain bytecode.
//!
//! Run: `cargo bench --bench serde`. Besides criterion's timings it prints,
//! per size, serialize time per op, the ratio to the floor, and the peak RSS.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::time::{Duration, Instant};
use tpu_custom_call::serde::{SerializeOptions, serialize};
use tpu_custom_call::{BytecodeOptions, Context, Kernel};

const MEMREF: &str = "memref<8x128xf32, #tpu.memory_space<vmem>>";
const VECTOR: &str = "vector<8x128xf32>";

/// A TensorCore kernel with about `ops` ops in groups of six (two constants,
/// a load, an add, a `tpu.scan` that needs a v15 downgrade and a
/// `tpu.vector_store`), every op with a location, in generic form as JAX
/// dumps kernels.
fn synthetic_kernel(ops: usize) -> String {
    let mut body = String::with_capacity(ops * 260);
    let mut v = 0usize;
    for g in 0..ops.div_ceil(6) {
        let (c0, c1, ld, add, scan) = (v, v + 1, v + 2, v + 3, v + 4);
        let loc = format!("loc(\"k.py\":{}:{})", g + 1, g % 80 + 1);
        body.push_str(&format!(
            "    %{c0} = \"arith.constant\"() <{{value = 0 : index}}> : () -> index {loc}\n\
             \x20   %{c1} = \"arith.constant\"() <{{value = {g} : index}}> : () -> index {loc}\n\
             \x20   %{ld} = \"vector.load\"(%arg0, %{c0}, %{c1}) : ({MEMREF}, index, index) -> {VECTOR} {loc}\n\
             \x20   %{add} = \"arith.addf\"(%{ld}, %{ld}) <{{fastmath = #arith.fastmath<none>}}> : ({VECTOR}, {VECTOR}) -> {VECTOR} {loc}\n\
             \x20   %{scan} = \"tpu.scan\"(%{add}) <{{dimension = 1 : i64, kind = #tpu.reduction_kind<maxf>}}> : ({VECTOR}) -> {VECTOR} {loc}\n\
             \x20   \"tpu.vector_store\"(%{scan}, %arg1, %{c0}, %{c1}) <{{add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}}> : ({VECTOR}, {MEMREF}, index, index) -> () {loc}\n"
        ));
        v += 5;
    }
    format!(
        "\"builtin.module\"() <{{sym_name = \"bench\"}}> ({{\n\
         \x20 \"func.func\"() <{{function_type = ({MEMREF}, {MEMREF}) -> (), sym_name = \"bench\"}}> ({{\n\
         \x20 ^bb0(%arg0: {MEMREF} loc(\"x_ref\"), %arg1: {MEMREF} loc(\"o_ref\")):\n{body}\
         \x20   \"func.return\"() : () -> () loc(unknown)\n\
         \x20 }}) {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>}} : () -> () loc(unknown)\n\
         }}) : () -> () loc(unknown)\n"
    )
}

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

/// Ops in the generated text (one per line holding `"dialect.op"(`), plus
/// the module.
fn kernel_op_count(text: &str) -> usize {
    text.lines().filter(|l| l.contains("\"(")).count()
}

criterion_group!(benches, bench);
criterion_main!(benches);
