//! `tpu-custom-call estimate`: how fast each tpu_custom_call of a module runs
//! on a TPU, from libtpu's static performance model (no TPU); with several
//! modules, a table ranking them.

use std::path::PathBuf;
use std::time::Duration;

use tpu_custom_call::compile::estimate::{self, Estimate, EstimateOptions, format_time};
use tpu_custom_call::compile::{CompileOptions, EstimateError};
use tpu_custom_call::libtpu::releases::LibtpuVersion;
use tpu_custom_call::target::Chip;

use super::compile::{libtpu_path, parse_libtpu_version, parse_timeout};
use super::{CliResult, read_input, source_name};

/// Arguments of `estimate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call estimate matmul.mlir --target v5e\n  \
tpu-custom-call estimate matmul.mlir --target v6e --call 0 --json | jq '.calls[0].seconds'\n  \
tpu-custom-call estimate blocks-*.mlir --target v5e      # rank candidates, fastest first\n  \
tpu-custom-call estimate allgather.mlir --target v6e --devices 4   # as 1 of 4 SPMD partitions\n\n\
The estimate is libtpu's static profile of the kernel (its bundles simulated with its DMA latency \
model), cycles converted with a clock derived from JAX's TpuInfo; long grids are simulated reduced \
and extrapolated (said in the output). Covers the kernel's device time, not host dispatch or launch. \
docs/estimate.md has how and how far off it is.\n\
Never a wrong number: a profile of 0 cycles, a unit over 100% or loops it cannot count, remote DMAs \
(--devices) and SparseCore kernels are refused with the reason.\n\
Exit codes: 0 estimated, 1 no tpu_custom_call, a chip without libtpu's model (v4), libtpu refused \
or crashed on a kernel, no estimate (the reason), libtpu missing (nothing printed), 2 usage.")]
pub struct Args {
    /// StableHLO modules (ours or JAX's; text or bytecode; `-` for stdin). Several: ranked in a table.
    #[arg(required = true)]
    pub modules: Vec<PathBuf>,
    /// TPU chip: v5e, v5p, v6e, v7x (v4 has no performance model in libtpu).
    #[arg(long)]
    pub target: Chip,
    /// Compile each call as one of N SPMD partitions with a device assignment, as `compile
    /// --devices N` does: kernels with remote DMAs, barriers or collective ids need it. libtpu's
    /// static model times the local core only: remote DMAs and barriers are not waited for.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub devices: usize,
    /// Only the call with this index (0-based, as `inspect` numbers them).
    #[arg(long, value_name = "N")]
    pub call: Option<usize>,
    /// Print JSON: `{"calls": [...]}` for one module, `{"modules": [...]}` (ranked) for several.
    #[arg(long)]
    pub json: bool,
    /// With several modules: list those libtpu refuses (or cannot estimate) at the end of the
    /// table with the reason, instead of failing the run.
    #[arg(long)]
    pub skip_refused: bool,
    /// Worker processes estimating modules at once (default: the machine's cores).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// libtpu.so to load (default: $TPU_LIBRARY_PATH, then the install cache).
    #[arg(long)]
    pub libtpu: Option<PathBuf>,
    /// The installed libtpu release to load (~/.cache/tpu-custom-call/libtpu/V/libtpu.so).
    #[arg(long, value_name = "V", conflicts_with = "libtpu", value_parser = parse_libtpu_version)]
    pub libtpu_version: Option<LibtpuVersion>,
    /// Seconds one compile (one simulation) may take before the worker is killed.
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

/// Runs `estimate`.
pub fn run(args: Args) -> CliResult {
    let options = EstimateOptions {
        compile: CompileOptions {
            chip: args.target,
            devices: args.devices,
            libtpu: libtpu_path(args.libtpu.as_deref(), args.libtpu_version.as_ref())?,
            timeout: args.timeout,
            ..Default::default()
        },
        call: args.call,
        ..Default::default()
    };
    let mut modules = Vec::with_capacity(args.modules.len());
    for path in &args.modules {
        modules.push((source_name(path), read_input(path)?));
    }
    let results = estimate::estimate_many(&modules, &options, args.jobs);
    // Any failure: exit 1 with every reason, nothing on stdout.
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(error_text))
        .collect();
    let skip = args.skip_refused && modules.len() > 1 && failures.len() < modules.len();
    if !failures.is_empty() && !skip {
        let mut unique = failures;
        unique.dedup();
        return Err(unique.join("\nerror: "));
    }
    let order = estimate::rank(&results);
    let out = match (modules.len(), &results[0]) {
        (1, Ok(estimate)) if args.json => format!("{}\n", estimate.to_json()),
        (1, Ok(estimate)) => text(&modules[0].0, estimate),
        _ if args.json => {
            let ranked: Vec<_> = order
                .iter()
                .enumerate()
                .map(|(rank, &i)| match &results[i] {
                    Ok(estimate) => {
                        let mut json = estimate.to_json();
                        json["module"] = modules[i].0.clone().into();
                        json["rank"] = (rank + 1).into();
                        json
                    }
                    Err(e) => serde_json::json!({
                        "module": modules[i].0,
                        "rank": null,
                        "error": e.to_string(),
                    }),
                })
                .collect();
            format!("{}\n", serde_json::json!({ "modules": ranked }))
        }
        _ => table(&modules, &results, &order),
    };
    super::write_output(None, out.as_bytes())
}

fn error_text(error: &EstimateError) -> String {
    error.to_string()
}

fn text(name: &str, estimate: &Estimate) -> String {
    let mut out = format!(
        "{name}: {} on {} (estimated by {})\n",
        format_time(estimate.seconds()),
        estimate
            .calls
            .first()
            .map_or("?".to_string(), |c| c.chip.to_string()),
        estimate.libtpu
    );
    for call in &estimate.calls {
        out += &call.describe();
    }
    out
}

/// The ranking table of several modules.
fn table(
    modules: &[(String, Vec<u8>)],
    results: &[Result<Estimate, EstimateError>],
    order: &[usize],
) -> String {
    let fastest = order
        .first()
        .and_then(|&i| results[i].as_ref().ok())
        .map_or(1.0, |e| e.seconds().max(f64::MIN_POSITIVE));
    let width = modules
        .iter()
        .map(|(n, _)| n.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>12}  {:>7}  {:>10}  {:>14}  {:<13}  {}\n",
        "rank", "module", "time", "x best", "steps", "cycles/step", "bound", "note"
    );
    let mut refused = Vec::new();
    for (rank, &i) in order.iter().enumerate() {
        let e = match &results[i] {
            Ok(e) => e,
            Err(error) => {
                refused.push(format!(
                    "{:>4}  {:<width$}  refused: {}\n",
                    "-",
                    modules[i].0,
                    {
                        let text = error.to_string();
                        let prefix = format!("{}: ", modules[i].0);
                        let line = text.lines().next().unwrap_or_default();
                        line.strip_prefix(&prefix).unwrap_or(line).to_string()
                    }
                ));
                continue;
            }
        };
        let steps: u64 = e.calls.iter().map(|c| c.steps).sum();
        let per_step = e.calls.first().map_or(0.0, |c| c.cycles_per_step);
        let bound = e
            .calls
            .first()
            .map_or("-".to_string(), |c| c.bound.to_string());
        let mut notes = Vec::new();
        if e.calls.len() > 1 {
            notes.push(format!("{} calls", e.calls.len()));
        }
        if e.calls.iter().any(|c| c.extrapolated) {
            notes.push("extrapolated".to_string());
        }
        let spills: u64 = e
            .calls
            .iter()
            .map(|c| c.vector_spills_per_step + c.scalar_spills_per_step)
            .sum();
        if spills > 0 {
            notes.push(format!("{spills} spills/step"));
        }
        out += &format!(
            "{:>4}  {:<width$}  {:>12}  {:>7.2}  {:>10}  {:>14.1}  {:<13}  {}\n",
            rank + 1,
            modules[i].0,
            format_time(e.seconds()),
            e.seconds() / fastest,
            steps,
            per_step,
            bound,
            notes.join(", ")
        );
    }
    for line in refused {
        out += &line;
    }
    if let Some(e) = results.iter().find_map(|r| r.as_ref().ok())
        && let Some(chip) = e.calls.first().map(|c| c.chip)
    {
        out += &format!(
            "(estimated for {chip} by {}; libtpu's static model, see docs/estimate.md)\n",
            e.libtpu
        );
    }
    out
}

/// The estimate lines `compile --estimate` adds for one module; `Err` with
/// the reason when it cannot estimate it.
pub fn for_compile(
    bytes: &[u8],
    name: &str,
    chip: Chip,
    libtpu: Option<PathBuf>,
    timeout: Option<Duration>,
) -> Result<(String, serde_json::Value), String> {
    let options = EstimateOptions {
        compile: CompileOptions {
            chip,
            libtpu,
            timeout,
            ..Default::default()
        },
        ..Default::default()
    };
    let estimate = estimate::estimate(bytes, name, &options).map_err(|e| e.to_string())?;
    let mut text = String::new();
    for call in &estimate.calls {
        for line in call.describe().lines() {
            text += "  estimate: ";
            text += line.trim_start();
            text += "\n";
        }
    }
    Ok((text, estimate.to_json()))
}
