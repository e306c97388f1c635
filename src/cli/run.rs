//! `tpu-custom-call run`: execute a tpu_custom_call on the CPU.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::ValueEnum;
use serde_json::json;
use tpu_custom_call::decode;
use tpu_custom_call::exec::{
    self, Array, CallShape, Execution, RunOptions, TensorType, Uninitialized, npy,
};
use tpu_custom_call::params::Params;
use tpu_custom_call::{Context, Kernel};

use super::{CliResult, read_input, source_name};

/// What uninitialised memory holds.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum UninitArg {
    /// NaN / the largest integer (JAX's interpret mode default).
    Nan,
    /// Zeros.
    Zero,
}

/// Arguments of `run`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call run module.mlir                                   # seeded random inputs, a summary of each result\n  \
tpu-custom-call run module.mlir --input x.npy --input y.npy -o out/   # out/result0.npy ...\n  \
tpu-custom-call run module.mlir -o out/ --compare ref/ --rtol 1e-5   # exit 1 if a result differs\n  \
tpu-custom-call run kernel.mlir --signature '(tensor<8x128xf32>) -> tensor<8x128xf32>' -o out/\n  \
tpu-custom-call run all_gather.mlir --devices 4 --input x.npy -o out/   # inputs and results have a leading axis of 4\n\n\
Arrays are NumPy .npy files: bf16 as uint16 bit patterns (ml_dtypes.bfloat16 accepted on input), f8 as uint8.")]
pub struct Args {
    /// A StableHLO module with tpu_custom_calls (JAX's text, ours, bytecode), or
    /// a Mosaic kernel with `--signature`. `-` for stdin.
    pub input: PathBuf,
    /// Which call of the module (0-based, in order of appearance).
    #[arg(long)]
    pub call: Option<usize>,
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
    /// Devices running the call at once (remote DMAs, barriers); every input and
    /// result has a leading axis of this size.
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
    #[arg(long, default_value_t = 0.0)]
    pub rtol: f64,
    /// Absolute tolerance of --compare.
    #[arg(long, default_value_t = 0.0)]
    pub atol: f64,
    /// Run the call this many times (the same inputs) and report the first
    /// and the median later run time (`--json`: `run_seconds`, `later_run_seconds`).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub repeat: usize,
    /// The most memory (GiB) the run's buffers may take; default 80% of the
    /// memory available (Linux `MemAvailable`). A bigger call is refused
    /// with the figures instead of exhausting the machine.
    #[arg(long, value_name = "GIB")]
    pub max_memory: Option<f64>,
    /// Print one JSON object (results, timings, comparison) instead of text.
    #[arg(long)]
    pub json: bool,
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

/// Stacks per-device arrays along a new leading axis.
fn stack(parts: &[Array]) -> Array {
    Array::stack(parts).unwrap_or_else(|| parts[0].clone())
}

/// Splits an array along its leading axis of `n`.
fn split(a: &Array, n: usize, what: &str) -> Result<Vec<Array>, String> {
    a.split_leading(n).ok_or_else(|| {
        format!(
            "{what}: with --devices {n} every input needs a leading axis of {n}, it has shape {:?}",
            a.shape
        )
    })
}

fn summary(a: &Array) -> String {
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

fn reference(dir: &Path, k: usize) -> Option<PathBuf> {
    [format!("result{k}.npy"), format!("out{k}.npy")]
        .into_iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// Runs `run`.
pub fn run(args: Args) -> CliResult {
    if args.devices == 0 {
        return Err("--devices must be at least 1".into());
    }
    let bytes = read_input(&args.input)?;
    let name = source_name(&args.input);
    let ctx = Context::new();
    let started = Instant::now();
    let (execution, label) = if let Some(sig) = &args.signature {
        let kernel = Kernel::load(&ctx, &bytes, &name).map_err(|e| e.to_string())?;
        let (ins, outs) = super::parse_signature(&ctx, sig)?;
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
        (
            Execution::new(&kernel, shape).map_err(|e| format!("{name}: {e}"))?,
            name.clone(),
        )
    } else {
        let calls = decode::decode_module(&ctx, &bytes, &name).map_err(|e| e.to_string())?;
        if calls.is_empty() {
            return Err(format!("{name}: no tpu_custom_call to run"));
        }
        let index = match args.call {
            Some(i) if i < calls.len() => i,
            Some(i) => {
                return Err(format!(
                    "{name}: --call {i}, but the module has {} call(s)",
                    calls.len()
                ));
            }
            None if calls.len() == 1 => 0,
            None => {
                return Err(format!(
                    "{name}: the module has {} tpu_custom_calls: choose one with --call N (0..{})",
                    calls.len(),
                    calls.len() - 1
                ));
            }
        };
        let call = &calls[index];
        let kname = call
            .found
            .kernel_name
            .clone()
            .unwrap_or_else(|| "kernel".into());
        let e = Execution::of_call(call)
            .map_err(|e| format!("{name}: tpu_custom_call #{index} ({kname}): {e}"))?;
        (e, format!("{name}: tpu_custom_call #{index} ({kname})"))
    };
    let compiled = started.elapsed();
    let shape = execution.call_shape().clone();
    let budget = memory_budget(args.max_memory);
    // The operands and results twice (the host's arrays and the run's HBM
    // copies; elements held as 4 or 8 bytes, per device) must fit before
    // anything is allocated.
    let need: u128 = shape
        .operands
        .iter()
        .chain(&shape.results)
        .map(|t| {
            let n = t
                .shape
                .iter()
                .filter(|&&d| d != exec::DYNAMIC_DIM)
                .map(|&d| d as u128)
                .product::<u128>();
            n * if t.elem == exec::ElemType::F64 || t.elem.is_int() {
                8
            } else {
                4
            }
        })
        .sum::<u128>()
        * 2
        * args.devices as u128;
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
            .map(|d| {
                exec::random_inputs(&shape, seed.wrapping_add(d as u64))
                    .map_err(|e| format!("{label}: {e}"))
            })
            .collect::<Result<_, _>>()?
    } else {
        if args.inputs.len() != shape.operands.len() {
            return Err(format!(
                "{label} takes {} operand(s), {} --input given",
                shape.operands.len(),
                args.inputs.len()
            ));
        }
        let mut per_device: Vec<Vec<Array>> = vec![Vec::new(); args.devices];
        for (k, (path, t)) in args.inputs.iter().zip(&shape.operands).enumerate() {
            let a = npy::read(path, t.elem).map_err(|e| e.to_string())?;
            let parts = if args.devices > 1 {
                split(&a, args.devices, &path.display().to_string())?
            } else {
                vec![a]
            };
            for (d, mut p) in parts.into_iter().enumerate() {
                if p.shape != t.shape && p.len() == 1 && t.shape.iter().product::<usize>() == 1 {
                    p = p.reshaped(t.shape.clone());
                }
                let fits = p.shape.len() == t.shape.len()
                    && p.shape
                        .iter()
                        .zip(&t.shape)
                        .all(|(&x, &d)| d == exec::DYNAMIC_DIM || d == x);
                if !fits {
                    return Err(format!(
                        "{}: operand {k} has shape {:?}, the call takes {:?}",
                        path.display(),
                        p.shape,
                        t.shape
                    ));
                }
                per_device[d].push(p);
            }
        }
        per_device
    };
    let options = RunOptions {
        seed: args.seed,
        uninitialized: match args.uninitialized {
            UninitArg::Nan => Uninitialized::Nan,
            UninitArg::Zero => Uninitialized::Zero,
        },
        fuse_multiply_add: args.fuse_multiply_add,
        progress: progress_on_terminal(),
        max_bytes: budget,
        ..RunOptions::default()
    };
    let t0 = Instant::now();
    let outs = execution
        .run_devices(&device_inputs, &options)
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
    let later_median = later.get(later.len() / 2).copied();
    let results: Vec<Array> = (0..shape.results.len())
        .map(|r| {
            if args.devices > 1 {
                stack(&outs.iter().map(|o| o[r].clone()).collect::<Vec<_>>())
            } else {
                outs[0][r].clone()
            }
        })
        .collect();
    let inputs_whole: Vec<Array> = (0..shape.operands.len())
        .map(|k| {
            if args.devices > 1 {
                stack(
                    &device_inputs
                        .iter()
                        .map(|i| i[k].clone())
                        .collect::<Vec<_>>(),
                )
            } else {
                device_inputs[0][k].clone()
            }
        })
        .collect();
    if let Some(dir) = &args.output {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (k, r) in results.iter().enumerate() {
            npy::write(&dir.join(format!("result{k}.npy")), r).map_err(|e| e.to_string())?;
        }
        if random {
            for (k, a) in inputs_whole.iter().enumerate() {
                npy::write(&dir.join(format!("input{k}.npy")), a).map_err(|e| e.to_string())?;
            }
        }
    }
    let mut comparisons = Vec::new();
    let mut failed = Vec::new();
    if let Some(dir) = &args.compare {
        for (k, r) in results.iter().enumerate() {
            let path = reference(dir, k).ok_or_else(|| {
                format!(
                    "{}: no result{k}.npy or out{k}.npy to compare with",
                    dir.display()
                )
            })?;
            let expected = npy::read(&path, r.elem).map_err(|e| e.to_string())?;
            match exec::compare(r, &expected, args.rtol, args.atol) {
                Ok(()) => comparisons.push(
                    json!({"result": k, "reference": path.display().to_string(), "equal": true}),
                ),
                Err(m) => {
                    failed.push(format!("result {k} differs from {}: {m}", path.display()));
                    comparisons.push(json!({"result": k, "reference": path.display().to_string(), "equal": false, "mismatch": m.to_string()}));
                }
            }
        }
    }
    if args.json {
        let doc = json!({
            "call": label,
            "devices": args.devices,
            "random_inputs": random.then_some(seed),
            "compile_seconds": compiled.as_secs_f64(),
            "run_seconds": ran.as_secs_f64(),
            "later_run_seconds": later_median,
            "results": results.iter().enumerate().map(|(k, r)| json!({
                "index": k,
                "dtype": r.elem.to_string(),
                "shape": r.shape,
                "path": args.output.as_ref().map(|d| d.join(format!("result{k}.npy")).display().to_string()),
            })).collect::<Vec<_>>(),
            "compare": args.compare.as_ref().map(|_| comparisons.clone()),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else {
        if random {
            eprintln!(
                "note: random inputs (seed {seed}){}",
                if args.output.is_some() {
                    ", written as input<k>.npy beside the results"
                } else {
                    ""
                }
            );
        }
        for (k, r) in results.iter().enumerate() {
            println!("result {k}: {}", summary(r));
        }
        if let Some(m) = later_median {
            println!(
                "time: compile {:.4} s, first run {:.4} s, later runs {m:.4} s (median of {})",
                compiled.as_secs_f64(),
                ran.as_secs_f64(),
                later.len()
            );
        }
        for c in &comparisons {
            if c["equal"] == true {
                println!(
                    "result {}: equal to {}",
                    c["result"],
                    c["reference"].as_str().unwrap_or("")
                );
            }
        }
    }
    if !failed.is_empty() {
        return Err(format!("{label}: {}", failed.join("; ")));
    }
    Ok(())
}
