//! Timing driver for `bench/compare-jax.sh`: our whole emit in-process, the
//! synthetic kernels as files, and parallel emission across threads.
//!
//! ```text
//! perf gen OPS OUT.mlir                       write a synthetic kernel of about OPS ops
//! perf time KERNEL SIGNATURE PARAMS.json SECS  time the whole emit (load text, lower, print)
//! perf time-parse KERNEL SECS                  time MLIR's text parse alone (the floor of any emit)
//! perf parallel KERNELS THREADS...            emit KERNELS independent kernels per thread count
//! perf context                                time `Context::new()`
//! perf loop KERNEL SIGNATURE PARAMS.json N     N whole emits, untimed (for callgrind)
//! ```
//!
//! `time` and `time-parse` print one JSON line: `{"kernel", "iters", "median_ms", "min_ms",
//! "cpu_median_ms", "cpu_min_ms"}` (wall time, and the thread's CPU time, which
//! a loaded machine disturbs less).

#[path = "../benches/common/mod.rs"]
#[allow(dead_code)]
mod common;

use std::time::{Duration, Instant};
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::r#type::FunctionType;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::validate::{self, Signature};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, kernel};

type Failure = Box<dyn std::error::Error>;

/// The call's operand and result types from `(a, b) -> c`.
fn signature<'c>(ctx: &'c Context, text: &str) -> Result<(Vec<Type<'c>>, Vec<Type<'c>>), Failure> {
    let ty = Type::parse(ctx, text).ok_or_else(|| format!("bad signature `{text}`"))?;
    let function = FunctionType::try_from(ty)?;
    let operands = (0..function.input_count())
        .map(|i| function.input(i))
        .collect::<Result<_, _>>()?;
    let results = (0..function.result_count())
        .map(|i| function.result(i))
        .collect::<Result<_, _>>()?;
    Ok((operands, results))
}

/// The whole emit as `tpu-custom-call emit` does it, minus process start and
/// file output: load the kernel text, lower, print the module.
fn whole_emit(ctx: &Context, text: &str, sig: &str, params: &Params) -> Result<String, Failure> {
    let kernel = Kernel::from_text(ctx, text, "kernel")?;
    let (operands, results) = signature(ctx, sig)?;
    // JAX's rules only, as JAX's own path (the synthetic kernels use `tpu.scan`
    // on the TensorCore, which libtpu refuses and JAX emits).
    let call = validate::validate_with(
        &kernel,
        Signature::new(operands, results),
        params,
        None,
        &validate::ValidateOptions::jax_rules_only(),
    )
    .map_err(|errors| errors[0].to_string())?;
    let module = Lowerer::new(LowerOptions::default()).emit_module(ctx, &call)?;
    Ok(kernel::print_module(&module, PrintOptions::default())?)
}

fn time(args: &[String]) -> Result<(), Failure> {
    let [path, sig, params_path, secs] = args else {
        return Err("usage: perf time KERNEL SIGNATURE PARAMS.json SECS".into());
    };
    let text = std::fs::read_to_string(path)?;
    let params = Params::from_json(&std::fs::read(params_path)?)?;
    let ctx = Context::new();
    repeat(path, secs, || {
        whole_emit(&ctx, &text, sig, &params)?;
        Ok(())
    })
}

/// MLIR's own text parse of the kernel (with MLIR's verifier, as
/// `mlirModuleCreateParse` runs it) and nothing else: the floor under any emit
/// that starts from text, ours and JAX's alike.
fn time_parse(args: &[String]) -> Result<(), Failure> {
    let [path, secs] = args else {
        return Err("usage: perf time-parse KERNEL SECS".into());
    };
    let text = std::fs::read_to_string(path)?;
    let ctx = Context::new();
    repeat(path, secs, || {
        let module = Module::parse(&ctx, &text).ok_or("the kernel does not parse")?;
        drop(std::hint::black_box(module));
        Ok(())
    })
}

/// Runs `f` once to warm up, then for `secs` seconds (at least 3 times, at
/// most 10,000), and prints the JSON line described at the top of this file.
fn repeat(
    path: &str,
    secs: &str,
    mut f: impl FnMut() -> Result<(), Failure>,
) -> Result<(), Failure> {
    let budget = Duration::from_secs_f64(secs.parse()?);
    f()?; // warm-up
    let mut samples = Vec::new();
    let mut cpu_samples = Vec::new();
    let start = Instant::now();
    while samples.len() < 3 || (start.elapsed() < budget && samples.len() < 10_000) {
        let cpu = thread_cpu_time();
        let t = Instant::now();
        f()?;
        samples.push(t.elapsed());
        cpu_samples.push(thread_cpu_time() - cpu);
    }
    samples.sort();
    cpu_samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{{\"kernel\": {:?}, \"iters\": {}, \"median_ms\": {:.4}, \"min_ms\": {:.4}, \"cpu_median_ms\": {:.4}, \"cpu_min_ms\": {:.4}}}",
        path,
        samples.len(),
        ms(samples[samples.len() / 2]),
        ms(samples[0]),
        ms(cpu_samples[cpu_samples.len() / 2]),
        ms(cpu_samples[0])
    );
    Ok(())
}

/// CPU time consumed so far by the calling thread.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // Linux supports for every thread.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Emits `kernels` independent kernels (1k ops each) split across `threads`
/// threads, one context per thread; returns the wall time and the CPU time
/// the threads used together.
fn emit_parallel(texts: &[String], threads: usize) -> Result<(Duration, Duration), Failure> {
    let params = Params::from_json(br#"{"kernel_name": "bench", "metadata": {}}"#)?;
    let sig = "(tensor<8x128xf32>) -> tensor<8x128xf32>";
    let start = Instant::now();
    let cpu = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let params = &params;
                scope.spawn(move || {
                    let cpu = thread_cpu_time();
                    let ctx = Context::new();
                    texts
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|text| whole_emit(&ctx, text, sig, params).map(|s| s.len()))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| e.to_string())?;
                    Ok::<_, String>(thread_cpu_time() - cpu)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "thread panicked".to_string())?)
            .sum::<Result<Duration, String>>()
    })?;
    Ok((start.elapsed(), cpu))
}

/// Prints, per thread count, the best wall time of three runs, the speedup
/// over the first thread count, and the CPU time the threads used (equal CPU
/// time at every thread count means the threads share nothing that
/// serializes them; the wall-time speedup is then bounded by the cores the
/// machine gives the process, which `load` shows).
fn parallel(args: &[String]) -> Result<(), Failure> {
    let [kernels, thread_counts @ ..] = args else {
        return Err("usage: perf parallel KERNELS THREADS...".into());
    };
    let kernels: usize = kernels.parse()?;
    let texts: Vec<String> = (0..kernels)
        .map(|i| common::synthetic_kernel(1_000 + 6 * (i % 7)))
        .collect();
    emit_parallel(&texts[..kernels.min(4)], 1)?; // warm-up
    let mut base = None;
    for threads in thread_counts {
        let threads: usize = threads.parse()?;
        let (wall, cpu) = (0..3)
            .map(|_| emit_parallel(&texts, threads))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .min()
            .ok_or("no run")?;
        let base = *base.get_or_insert(wall);
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        println!(
            "{{\"kernels\": {kernels}, \"threads\": {threads}, \"wall_ms\": {:.1}, \"speedup\": {:.2}, \"cpu_ms\": {:.1}, \"load\": {:?}}}",
            wall.as_secs_f64() * 1e3,
            base.as_secs_f64() / wall.as_secs_f64(),
            cpu.as_secs_f64() * 1e3,
            load.split_whitespace().next().unwrap_or("?")
        );
    }
    Ok(())
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.split_first() {
        Some((cmd, rest)) if cmd == "gen" => {
            let [ops, out] = rest else {
                return Err("usage: perf gen OPS OUT.mlir".into());
            };
            std::fs::write(out, common::synthetic_kernel(ops.parse()?))?;
            Ok(())
        }
        Some((cmd, rest)) if cmd == "time" => time(rest),
        Some((cmd, rest)) if cmd == "time-parse" => time_parse(rest),
        Some((cmd, rest)) if cmd == "parallel" => parallel(rest),
        Some((cmd, rest)) if cmd == "loop" => {
            let [path, sig, params_path, n] = rest else {
                return Err("usage: perf loop KERNEL SIGNATURE PARAMS.json N".into());
            };
            let text = std::fs::read_to_string(path)?;
            let params = Params::from_json(&std::fs::read(params_path)?)?;
            let ctx = Context::new();
            for _ in 0..n.parse::<usize>()? {
                std::hint::black_box(whole_emit(&ctx, &text, sig, &params)?);
            }
            Ok(())
        }
        Some((cmd, _)) if cmd == "context" => {
            drop(Context::new()); // warm-up (one-time registrations)
            let mut samples: Vec<Duration> = (0..50)
                .map(|_| {
                    let t = Instant::now();
                    drop(std::hint::black_box(Context::new()));
                    t.elapsed()
                })
                .collect();
            samples.sort();
            println!(
                "{{\"context_new_median_ms\": {:.3}, \"min_ms\": {:.3}}}",
                samples[samples.len() / 2].as_secs_f64() * 1e3,
                samples[0].as_secs_f64() * 1e3
            );
            Ok(())
        }
        _ => Err(
            "usage: perf gen|time|time-parse|parallel|context ... (see examples/perf.rs)".into(),
        ),
    }
}
