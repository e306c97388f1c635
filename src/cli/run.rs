//! `tpu-custom-call run`: execute a tpu_custom_call on the CPU.

use std::path::PathBuf;
use std::time::Instant;

use clap::ValueEnum;
use serde_json::json;
use tpu_custom_call::Context;
use tpu_custom_call::exec::{
    self, Array, CallShape, DmaTiming, RunOptions, Subnormals, TensorType, Uninitialized, host, npy,
};
use tpu_custom_call::params::Params;
use tpu_custom_call::target::Chip;

use super::{CliResult, read_input, source_name};

/// What uninitialised memory holds.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum UninitArg {
    /// NaN / the largest integer (JAX's interpret mode default).
    Nan,
    /// Zeros.
    Zero,
}

/// When DMAs copy.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DmaArg {
    /// At the start (the earliest schedule).
    AtStart,
    /// At the first wait on their semaphore (the latest; JAX's interpret mode).
    AtWait,
    /// At a random time between start and wait, from --seed.
    Random,
}

/// Which engine runs kernel bodies.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineArg {
    /// Compiled to native code through MLIR's LLVM pipeline (the default; the
    /// interpreter runs instead with a detector, `--dma random`, or a kernel
    /// with an op it does not compile, and the output says so).
    Jit,
    /// The interpreter (the reference).
    Interpreter,
}

/// What f32/bf16 arithmetic does with subnormals.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SubnormalArg {
    /// Read and written as zero, as a TPU (and XLA on CPU) computes.
    Flush,
    /// Kept (IEEE gradual underflow).
    Keep,
}

/// Arguments of `run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call run program.mlir --input x.npy --input w.npy -o out/   # @main whole (XLA + the executor): out/result0.npy ...\n  \
tpu-custom-call run sharded.mlir --devices 4 --input x.npy --json     # 4 CPU devices, global arrays, each call named\n  \
tpu-custom-call run module.mlir --call 0                          # call 0 alone: seeded random inputs, a summary of each result\n  \
tpu-custom-call run module.mlir --call 0 --input x.npy --input y.npy -o out/   # out/result0.npy ...\n  \
tpu-custom-call run module.mlir -o out/ --compare ref/ --rtol 1e-5   # exit 1 if a result differs\n  \
tpu-custom-call run kernel.mlir --signature '(tensor<8x128xf32>) -> tensor<8x128xf32>' -o out/\n  \
tpu-custom-call run all_gather.mlir --call 0 --devices 4 --input x.npy -o out/   # one call: a leading axis of 4\n  \
tpu-custom-call run module.mlir --detect-races --detect-uninitialized --dma random --seed 3   # what only a TPU would show\n  \
tpu-custom-call run module.mlir --target v5p   # two TensorCores split the leading parallel dimension\n\n\
Without --call (or --signature) @main runs whole: one .npy per argument of @main, one per result; the\n\
executor flags apply to every kernel call. --call N runs that call alone on the executor.\n\
Arrays are NumPy .npy files: bf16 as uint16 bit patterns (ml_dtypes.bfloat16 accepted on input), f8 as uint8.")]
pub struct Args {
    /// A StableHLO module (JAX's text, ours, bytecode; with or without tpu_custom_calls), or
    /// a Mosaic kernel with `--signature`. `-` for stdin.
    pub input: PathBuf,
    /// Run this call alone on the executor (0-based, in order of appearance).
    /// Without it the module's `@main` runs whole: XLA's CPU compiler for the
    /// StableHLO, the executor for every kernel call.
    #[arg(long)]
    pub call: Option<usize>,
    /// The PJRT CPU plugin running a whole program (default: the one `make refs`
    /// installs in the cache, or $TPU_CUSTOM_CALL_PJRT_CPU).
    #[arg(long, value_name = "PATH")]
    pub pjrt_plugin: Option<PathBuf>,
    /// The call's types, for a bare kernel: '(tensor<8x128xf32>) -> tensor<8x128xf32>'.
    #[arg(long)]
    pub signature: Option<String>,
    /// PARAMS.json for a bare kernel (its `input_output_aliases` apply).
    #[arg(long, requires = "signature")]
    pub params: Option<PathBuf>,
    /// An operand, in order (one per call operand). Without any: seeded random inputs.
    #[arg(long = "input", value_name = "FILE.npy")]
    pub inputs: Vec<PathBuf>,
    /// Folder for `result<k>.npy` (and `input<k>.npy` when the inputs were random).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Devices: a sharded program's partitions (`mhlo.num_partitions`; global
    /// arrays in and out), or, with --call, devices running the call at once
    /// (remote DMAs, barriers; every input and result has a leading axis of this size).
    #[arg(long, default_value_t = 1)]
    pub devices: usize,
    /// Seed of the random inputs, and of a random order of `parallel` grid dimensions.
    #[arg(long)]
    pub seed: Option<u64>,
    /// What memory holds before it is written.
    #[arg(long, value_enum, default_value_t = UninitArg::Nan)]
    pub uninitialized: UninitArg,
    /// Round a float multiply feeding only an add/subtract once (a fused
    /// multiply-add), as XLA on CPU and so JAX's interpret mode do.
    #[arg(long)]
    pub fuse_multiply_add: bool,
    /// Compare each result with DIR/result<k>.npy (or DIR/out<k>.npy): exit 1 if one differs.
    #[arg(long, value_name = "DIR")]
    pub compare: Option<PathBuf>,
    /// Relative tolerance of --compare.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = super::values::parse_tolerance)]
    pub rtol: f64,
    /// Absolute tolerance of --compare.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = super::values::parse_tolerance)]
    pub atol: f64,
    /// Run the call this many times (the same inputs) and report the first
    /// and the median later run time (`--json`: `run_seconds`, `later_run_seconds`).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::values::parse_count)]
    pub repeat: usize,
    /// The most memory (GiB) the run's buffers may take; default 80% of the
    /// memory available (Linux `MemAvailable`). A bigger call is refused
    /// with the figures instead of exhausting the machine.
    #[arg(long, value_name = "GIB", allow_hyphen_values = true, value_parser = super::values::parse_gib)]
    pub max_memory: Option<f64>,
    /// f32/bf16 subnormal operands and results of arithmetic.
    #[arg(long, value_enum, default_value_t = SubnormalArg::Flush)]
    pub subnormals: SubnormalArg,
    /// When a started DMA copies its data (explore schedules with `random --seed S`).
    #[arg(long, value_enum, default_value_t = DmaArg::AtStart)]
    pub dma: DmaArg,
    /// Report races: accesses to memory while a DMA into it (or writes while a
    /// DMA out of it) is in flight, on any device; exit 1 listing each.
    #[arg(long)]
    pub detect_races: bool,
    /// Report the first read of memory nothing wrote (scratch, output blocks,
    /// scoped buffers) and count result elements never written.
    #[arg(long)]
    pub detect_uninitialized: bool,
    /// TensorCores splitting the leading `parallel` grid dimension, each with its
    /// own VMEM and scratch (default: 2 with a megacore --target (v4, v5p), else 1).
    #[arg(long, value_name = "N")]
    pub cores: Option<usize>,
    /// The chip the call runs on (sets --cores).
    #[arg(long, value_name = "CHIP")]
    pub target: Option<Chip>,
    /// Print one JSON object (results, timings, comparison) instead of text.
    #[arg(long)]
    pub json: bool,
    /// The engine that runs kernel bodies: compiled (`jit`) or `interpreter`.
    #[arg(long, value_enum, default_value_t = EngineArg::Jit)]
    pub engine: EngineArg,
}

fn tensor_types(
    types: &[tpu_custom_call::melior::ir::Type<'_>],
    what: &str,
) -> Result<Vec<TensorType>, String> {
    types
        .iter()
        .map(|t| {
            let text = t.to_string();
            TensorType::parse(&text)
                .ok_or_else(|| format!("--signature: {what} type `{text}` is not a static tensor"))
        })
        .collect()
}

/// One line describing an array (type, shape, range, first values).
pub(crate) fn summary(a: &Array) -> String {
    let vals = a.to_f64_vec();
    let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
    let nan = vals.iter().filter(|v| v.is_nan()).count();
    let (lo, hi) = finite
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let mean = if finite.is_empty() {
        f64::NAN
    } else {
        finite.iter().sum::<f64>() / finite.len() as f64
    };
    let head: Vec<String> = vals.iter().take(6).map(|v| format!("{v}")).collect();
    let mut s = format!(
        "{}{:?}: min {lo} max {hi} mean {mean:.6} first [{}{}]",
        a.elem,
        a.shape,
        head.join(", "),
        if vals.len() > 6 { ", ..." } else { "" }
    );
    if nan > 0 {
        s.push_str(&format!(" ({nan} NaN)"));
    }
    s
}

/// On a terminal, a progress line on stderr (at most ten times a second,
/// after the first second, device 0's grid), cleared at the end of the run.
fn progress_on_terminal() -> Option<exec::Progress> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let start = Instant::now();
    let last = std::sync::Mutex::new(Instant::now());
    Some(std::sync::Arc::new(
        move |done: u64, total: u64, dev: usize| {
            if dev != 0 || start.elapsed().as_secs_f64() < 1.0 {
                return;
            }
            let Ok(mut last) = last.lock() else { return };
            if done < total && last.elapsed().as_millis() < 100 {
                return;
            }
            *last = Instant::now();
            let end = if done == total { "\r\x1b[K" } else { "" };
            eprint!(
                "\r\x1b[Kgrid point {done}/{total} ({:.0}%), {:.1} s{end}",
                100.0 * done as f64 / total.max(1) as f64,
                start.elapsed().as_secs_f64()
            );
        },
    ))
}

/// The byte budget of a run: `--max-memory`, else 80% of `MemAvailable`.
fn memory_budget(gib: Option<f64>) -> Option<u64> {
    if let Some(g) = gib {
        return Some((g.max(0.0) * 2f64.powi(30)) as u64);
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024 / 10 * 8)
}

/// The call to run: a module's call (`--call`), or a bare kernel with
/// `--signature` (and `--params`' aliases).
fn load(args: &Args, ctx: &Context, bytes: &[u8], name: &str) -> Result<host::LoadedCall, String> {
    match &args.signature {
        Some(sig) => {
            let (ins, outs) = super::parse_signature(ctx, sig)?;
            let aliases = match &args.params {
                Some(p) => {
                    let pbytes = read_input(p)?;
                    Params::from_json(&pbytes)
                        .map_err(|e| format!("{}: {e}", source_name(p)))?
                        .input_output_aliases
                }
                None => Vec::new(),
            };
            let shape = CallShape {
                operands: tensor_types(&ins, "operand")?,
                results: tensor_types(&outs, "result")?,
                aliases,
            };
            host::load_kernel(ctx, bytes, name, shape)
        }
        None => host::load_call(ctx, bytes, name, args.call),
    }
    .map_err(|e| e.to_string())
}

/// What a run printed.
struct Printed<'a> {
    options: &'a RunOptions,
    /// The seed of random inputs, if they were.
    random: Option<u64>,
    compiled: f64,
    ran: f64,
    /// Later runs' times, sorted.
    later: &'a [f64],
    results: &'a [Array],
    report: &'a exec::RunReport,
    comparisons: &'a [host::Comparison],
}

/// The `engine` object of `--json`: which engine ran, why the interpreter
/// ran if the compiled engine was asked, compile and run seconds.
pub(crate) fn engine_json(e: &exec::EngineReport) -> serde_json::Value {
    json!({
        "name": e.engine.name(),
        "fallback": e.fallback,
        "compile_seconds": e.compile_seconds,
        "cached": e.cached,
        "run_seconds": e.run_seconds,
        "runtime_ops": e.runtime_ops,
    })
}

/// The run report's engine line: `engine: jit (compile 0.05 s, run 0.001 s)`
/// or `engine: interpreter (WHY)`.
pub(crate) fn engine_line(e: &exec::EngineReport) -> String {
    match (&e.fallback, e.engine) {
        (Some(why), _) => format!(
            "engine: interpreter, not the compiled engine: {why} (run {:.4} s)",
            e.run_seconds
        ),
        (None, exec::Engine::Jit) => format!(
            "engine: jit (compile {:.4} s{}, run {:.4} s)",
            e.compile_seconds,
            if e.cached { ", cached" } else { "" },
            e.run_seconds
        ),
        (None, exec::Engine::Interpreter) => {
            format!("engine: interpreter (run {:.4} s)", e.run_seconds)
        }
    }
}

/// Prints a run: one JSON object with `--json`, else a line per result.
fn print_run(args: &Args, label: &str, p: &Printed<'_>) {
    let later_median = p.later.get(p.later.len() / 2).copied();
    if args.json {
        let doc = json!({
            "call": label,
            "devices": args.devices,
            "cores": p.options.cores,
            "random_inputs": p.random,
            "compile_seconds": p.compiled,
            "run_seconds": p.ran,
            "later_run_seconds": later_median,
            "engine": engine_json(&p.report.engine),
            "results": p.results.iter().enumerate().map(|(k, r)| json!({
                "index": k,
                "dtype": r.elem.to_string(),
                "shape": r.shape,
                "path": args.output.as_ref().map(|d| d.join(format!("result{k}.npy")).display().to_string()),
                "unwritten_elements": p.report.unwritten.get(k).copied().flatten(),
            })).collect::<Vec<_>>(),
            "compare": args.compare.as_ref().map(|_| p.comparisons.iter().map(|c| json!({
                "result": c.result,
                "reference": c.reference.display().to_string(),
                "equal": c.mismatch.is_none(),
                "mismatch": c.mismatch,
            })).collect::<Vec<_>>()),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        if let Some(seed) = p.random {
            eprintln!(
                "note: random inputs (seed {seed}){}",
                if args.output.is_some() {
                    ", written as input<k>.npy beside the results"
                } else {
                    ""
                }
            );
        }
        for (k, r) in p.results.iter().enumerate() {
            println!("result {k}: {}", summary(r));
        }
        println!("{}", engine_line(&p.report.engine));
        for (k, u) in p.report.unwritten.iter().enumerate() {
            match u {
                Some(0) => println!("result {k}: every element written"),
                Some(n) => println!(
                    "result {k}: {n} of {} element(s) never written (they hold what the output buffer held before the call)",
                    p.results[k].len()
                ),
                None => {}
            }
        }
        if let Some(m) = later_median {
            println!(
                "time: compile {:.4} s, first run {:.4} s, later runs {m:.4} s (median of {})",
                p.compiled,
                p.ran,
                p.later.len()
            );
        }
        for c in p.comparisons.iter().filter(|c| c.mismatch.is_none()) {
            println!("result {}: equal to {}", c.result, c.reference.display());
        }
    }
}

/// Runs `run`: a whole program (no `--call`, no `--signature`), or one call
/// (reads the call and its operands, runs it with the options, writes,
/// compares and prints: the work is `tpu_custom_call::exec::host`'s).
pub fn run(args: Args) -> CliResult {
    if args.devices == 0 {
        return Err("--devices must be at least 1".into());
    }
    // One thread a device (and its own memory): bounded by the most devices
    // a deviceless topology of the chip (any chip without --target) has.
    let most = tpu_custom_call::compile::max_devices(args.target);
    if args.devices > most {
        return Err(format!(
            "--devices {} exceeds the {most} devices of the largest {} topology libtpu compiles for \
             (each device runs on a thread of its own here); give at most {most}",
            args.devices,
            args.target.map_or("TPU".to_string(), |c| c.to_string())
        ));
    }
    if args.call.is_none() && args.signature.is_none() {
        // Options are checked before anything is read.
        args.options(None)?;
        return super::program::run(&args, memory_budget(args.max_memory));
    }
    let bytes = read_input(&args.input)?;
    let name = source_name(&args.input);
    let ctx = Context::new();
    let started = Instant::now();
    let loaded = load(&args, &ctx, &bytes, &name)?;
    let (execution, label) = (loaded.execution, loaded.label);
    let compiled = started.elapsed();
    let shape = execution.call_shape().clone();
    let budget = memory_budget(args.max_memory);
    // The operands and results (host arrays and the run's copies) must fit
    // before anything is allocated.
    let need = host::host_bytes(&shape, args.devices);
    if let Some(max) = budget
        && need > u128::from(max)
    {
        return Err(format!(
            "{label}: its operands and results need {:.1} GiB here (host arrays and their copies, elements held as 4 or 8 bytes), over the {:.1} GiB \
             this run may use (--max-memory, default 80% of the memory available)",
            need as f64 / 2f64.powi(30),
            max as f64 / 2f64.powi(30)
        ));
    }
    let seed = args.seed.unwrap_or(0);
    let random = args.inputs.is_empty();
    let device_inputs: Vec<Vec<Array>> = if random {
        (0..args.devices)
            .map(|d| exec::random_inputs(&shape, seed.wrapping_add(d as u64)))
            .collect::<Result<_, _>>()
    } else {
        host::read_operands(&execution, &args.inputs, args.devices)
    }
    .map_err(|e| format!("{label}: {e}"))?;
    let options = args.options(budget)?;
    let t0 = Instant::now();
    let report = execution
        .run_report(&device_inputs, &options)
        .map_err(|e| format!("{label}: {e}"))?;
    let ran = t0.elapsed();
    let mut later = Vec::new();
    for _ in 1..args.repeat {
        let t = Instant::now();
        execution
            .run_devices(&device_inputs, &options)
            .map_err(|e| format!("{label}: {e}"))?;
        later.push(t.elapsed().as_secs_f64());
    }
    later.sort_by(f64::total_cmp);
    let results = host::join_devices(&report.results);
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (k, r) in results.iter().enumerate() {
            npy::write(&dir.join(format!("result{k}.npy")), r).map_err(|e| e.to_string())?;
        }
        if random {
            for (k, a) in host::join_devices(&device_inputs).iter().enumerate() {
                npy::write(&dir.join(format!("input{k}.npy")), a).map_err(|e| e.to_string())?;
            }
        }
    }
    let comparisons = match &args.compare {
        Some(dir) => host::compare_with_dir(&results, dir, args.rtol, args.atol)
            .map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    let failed: Vec<String> = comparisons
        .iter()
        .filter_map(|c| {
            c.mismatch.as_ref().map(|m| {
                format!(
                    "result {} differs from {}: {m}",
                    c.result,
                    c.reference.display()
                )
            })
        })
        .collect();
    print_run(
        &args,
        &label,
        &Printed {
            options: &options,
            random: random.then_some(seed),
            compiled: compiled.as_secs_f64(),
            ran: ran.as_secs_f64(),
            later: &later,
            results: &results,
            report: &report,
            comparisons: &comparisons,
        },
    );
    if !failed.is_empty() {
        return Err(format!("{label}: {}", failed.join("; ")));
    }
    Ok(())
}

impl Args {
    /// The run's options (public to the whole-program path)
    pub(crate) fn run_options(&self, max_bytes: Option<u64>) -> Result<RunOptions, String> {
        self.options(max_bytes)
    }

    /// The run's options from the flags (the cores from `--cores`, else
    /// from `--target`'s megacore).
    fn options(&self, max_bytes: Option<u64>) -> Result<RunOptions, String> {
        let cores = match (self.cores, &self.target) {
            (Some(0), _) => return Err("--cores must be at least 1".into()),
            (Some(n), Some(chip)) if n > exec::tensor_cores_of(*chip) => {
                return Err(format!(
                    "--cores {n}: {chip} has {} TensorCore(s) per chip",
                    exec::tensor_cores_of(*chip)
                ));
            }
            (Some(n), None) if n > exec::MAX_TENSOR_CORES => {
                return Err(format!(
                    "--cores {n}: no TPU chip has more than {} TensorCores (give --target for the \
                     chip's own count)",
                    exec::MAX_TENSOR_CORES
                ));
            }
            (Some(n), _) => n,
            (None, Some(chip)) => exec::cores_of(*chip),
            (None, None) => 1,
        };
        let dma = match self.dma {
            DmaArg::AtStart => DmaTiming::AtStart,
            DmaArg::AtWait => DmaTiming::AtWait,
            DmaArg::Random => DmaTiming::Random(self.seed.unwrap_or(0)),
        };
        Ok(RunOptions {
            seed: self.seed,
            uninitialized: match self.uninitialized {
                UninitArg::Nan => Uninitialized::Nan,
                UninitArg::Zero => Uninitialized::Zero,
            },
            fuse_multiply_add: self.fuse_multiply_add,
            subnormals: match self.subnormals {
                SubnormalArg::Flush => Subnormals::FlushToZero,
                SubnormalArg::Keep => Subnormals::Keep,
            },
            dma,
            detect_races: self.detect_races,
            detect_uninitialized: self.detect_uninitialized,
            cores,
            progress: progress_on_terminal(),
            max_bytes,
            engine: match self.engine {
                EngineArg::Jit => exec::Engine::Jit,
                EngineArg::Interpreter => exec::Engine::Interpreter,
            },
            ..RunOptions::default()
        })
    }
}
