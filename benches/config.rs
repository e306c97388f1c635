//! Writing a backend config with a 1 MB and a 10 MB body (base64 speed, one
//! output allocation), and reading it back.
//!
//! Two measurements: wall-clock (criterion's default) and the benchmark
//! thread's CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), which stays meaningful
//! on a machine shared with other jobs. A plain copy of the body is the
//! memory-speed baseline.

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tpu_custom_call::{BackendConfig, DeviceType};

fn body(len: usize) -> Vec<u8> {
    // Deterministic, incompressible-looking bytes.
    let mut x: u32 = 0x9e37_79b9;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// CPU time of the benchmark thread (Linux), in nanoseconds.
struct ThreadCpuTime(WallTime);

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// Linux's `CLOCK_THREAD_CPUTIME_ID`.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

fn thread_cpu_ns() -> u64 {
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: libc's clock_gettime writes one timespec (two 64-bit fields on
    // 64-bit Linux) through a valid pointer to a local.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    (ts.tv_sec as u64) * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = Duration;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(thread_cpu_ns().saturating_sub(start))
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.0.formatter()
    }
}

fn bench<M: Measurement>(c: &mut Criterion<M>, name: &str) {
    let mut group = c.benchmark_group(name);
    for mb in [1usize, 10] {
        let len = mb * 1_000_000;
        let config = BackendConfig {
            body: body(len),
            debug_locations: Some(body(4096)),
            device_type: Some(DeviceType::SparseCore),
            active_core_count: Some(1),
            ..BackendConfig::default()
        };
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_with_input(
            BenchmarkId::new("to_json", format!("{mb}MB")),
            &config,
            |b, config| b.iter(|| config.to_json(true).expect("valid config")),
        );
        // Steady state: one reused buffer, no allocation.
        let mut buffer = String::new();
        group.bench_with_input(
            BenchmarkId::new("to_json_into_reused", format!("{mb}MB")),
            &config,
            |b, config| {
                b.iter(|| {
                    buffer.clear();
                    config
                        .to_json_into(true, &mut buffer)
                        .expect("valid config");
                })
            },
        );
        // Baseline: one fresh allocation and copy of the body.
        group.bench_with_input(
            BenchmarkId::new("copy_baseline", format!("{mb}MB")),
            &config.body,
            |b, body| b.iter(|| body.to_vec()),
        );
        let json = config.to_json(true).expect("valid config");
        group.bench_with_input(
            BenchmarkId::new("from_json", format!("{mb}MB")),
            &json,
            |b, json| b.iter(|| BackendConfig::from_json(json.as_bytes()).expect("valid json")),
        );
    }
    group.finish();
}

fn wall(c: &mut Criterion) {
    bench(c, "backend_config_wall");
}

fn cpu(c: &mut Criterion<ThreadCpuTime>) {
    bench(c, "backend_config_cpu");
}

criterion_group!(wall_clock, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(ThreadCpuTime(WallTime));
    targets = cpu
}
criterion_main!(wall_clock, cpu_time);
