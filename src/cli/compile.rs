//! `tpu-custom-call compile`: the verdict of the real TPU compiler (libtpu
//! through PJRT, in a worker process) on StableHLO modules, for a chip.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tpu_custom_call::Context;
use tpu_custom_call::compile::{CompileOptions, Compiler, Verdict};
use tpu_custom_call::decode::{self, FoundCall};
use tpu_custom_call::target::Chip;

use super::{CliResult, read_input, source_name};

/// Arguments of `compile`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call compile add.stablehlo.mlir --target v5e\n  \
tpu-custom-call compile allgather.mlir --target v6e --devices 4     # kernels that address other devices\n  \
tpu-custom-call compile a.mlir b.mlir --target v7x --json | jq .stats\n\n\
libtpu.so: --libtpu, else $TPU_LIBRARY_PATH, else ~/.cache/tpu-custom-call/libtpu/0.0.50.1/libtpu.so \
(scripts/install-deps.sh puts it there).\n\
Exit codes: 0 every module compiled, 1 libtpu refused one (its message on stderr) or libtpu is missing, 2 usage.")]
pub struct Args {
    /// StableHLO modules (ours or JAX's; text in generic or pretty form, or bytecode; `-` for stdin).
    #[arg(required = true)]
    pub modules: Vec<PathBuf>,
    /// TPU chip to compile for: v4, v5e, v5p, v6e, v7x (a 2x2 topology of each).
    #[arg(long)]
    pub target: Chip,
    /// Compile as N SPMD partitions with a device assignment (1, 2 or 4), as a
    /// shard_map program runs: kernels with remote DMAs, barriers or collective ids need it.
    #[arg(long, default_value_t = 1, value_parser = parse_devices)]
    pub devices: usize,
    /// Print one JSON object per module (verdict, error, memory statistics).
    #[arg(long)]
    pub json: bool,
    /// libtpu.so to load (default: $TPU_LIBRARY_PATH, then the install cache).
    #[arg(long)]
    pub libtpu: Option<PathBuf>,
    /// Seconds one module (and libtpu's start) may take before the worker is
    /// killed (default: $TPU_CUSTOM_CALL_COMPILE_TIMEOUT, else 300).
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

/// A positive number of seconds (fractions allowed: `0.5`).
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a positive number of seconds (e.g. 60 or 0.5)"))
}

fn parse_devices(text: &str) -> Result<usize, String> {
    match text {
        "1" | "2" | "4" => Ok(text.parse().unwrap_or(1)),
        _ => Err("the 2x2 topologies take 1, 2 or 4 devices".to_string()),
    }
}

/// Runs `compile`.
pub fn run(args: Args) -> CliResult {
    let mut compiler = Compiler::new(CompileOptions {
        chip: args.target,
        devices: args.devices,
        libtpu: args.libtpu.clone(),
        timeout: args.timeout,
        ..Default::default()
    })
    .map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    for path in &args.modules {
        let bytes = read_input(path)?;
        let name = source_name(path);
        let verdict = compiler.compile(&bytes).map_err(|e| e.to_string())?;
        let blamed = verdict
            .error()
            .and_then(|message| blamed_call(&bytes, &name, &message));
        let located = verdict
            .error()
            .map(|message| located(&name, blamed.as_ref(), &message));
        if args.json {
            let mut json = verdict_json(
                &name,
                args.target,
                args.devices,
                &verdict,
                located.as_deref(),
            );
            json["call"] = match &blamed {
                Some(call) => serde_json::json!({
                    "index": call.index,
                    "kernel_name": call.kernel_name,
                }),
                None => serde_json::Value::Null,
            };
            println!("{json}");
        } else if let Some(stats) = verdict.stats() {
            println!(
                "{name}: compiled for {} ({} device{}): code {} B, arguments {} B, output {} B, \
                 temp {} B, peak {} B ({:.3} s)",
                args.target,
                args.devices,
                if args.devices == 1 { "" } else { "s" },
                stats.generated_code_size,
                stats.argument_size,
                stats.output_size,
                stats.temp_size,
                stats.peak_memory,
                verdict.seconds()
            );
        }
        if let Some(located) = located {
            failures.push(located);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else if args.json {
        // The JSON lines carry the messages; stderr says which modules.
        Err(format!(
            "libtpu refused {} of {} modules",
            failures.len(),
            args.modules.len()
        ))
    } else {
        Err(failures.join("\nerror: "))
    }
}

/// `NAME: tpu_custom_call #I (kernel `K`): MESSAGE` when the message names a
/// call's kernel or the module has a single call, else `NAME: MESSAGE`.
pub fn locate(bytes: &[u8], name: &str, message: &str) -> String {
    located(name, blamed_call(bytes, name, message).as_ref(), message)
}

fn located(name: &str, call: Option<&FoundCall>, message: &str) -> String {
    match call {
        Some(call) => format!(
            "{name}: tpu_custom_call #{}{}{}: {message}",
            call.index,
            call.line
                .map(|l| format!(" (line {l})"))
                .unwrap_or_default(),
            call.kernel_name
                .as_deref()
                .map(|k| format!(" kernel `{k}`"))
                .unwrap_or_default()
        ),
        None => format!("{name}: {message}"),
    }
}

fn blamed_call(bytes: &[u8], name: &str, message: &str) -> Option<FoundCall> {
    if message.starts_with("libtpu crashed") {
        return None;
    }
    let ctx = Context::new();
    let calls = decode::find_calls(&ctx, bytes, name).ok()?;
    let named = calls.iter().find(|c| {
        c.kernel_name
            .as_deref()
            .is_some_and(|k| !k.is_empty() && message.contains(k))
    });
    // Without a kernel name, only Mosaic's own messages concern the call.
    let mosaic = ["Mosaic", "tpu_custom_call", "CompileTimeScopedVmemOom"]
        .iter()
        .any(|marker| message.contains(marker));
    match named {
        Some(call) => Some(call.clone()),
        None if mosaic && calls.len() == 1 => calls.into_iter().next(),
        None => None,
    }
}

fn verdict_json(
    name: &str,
    chip: Chip,
    devices: usize,
    verdict: &Verdict,
    located: Option<&str>,
) -> serde_json::Value {
    let stats = verdict.stats().map(|s| {
        serde_json::json!({
            "generated_code_size": s.generated_code_size,
            "argument_size": s.argument_size,
            "output_size": s.output_size,
            "alias_size": s.alias_size,
            "temp_size": s.temp_size,
            "peak_memory": s.peak_memory,
            "total_size": s.total_size,
        })
    });
    serde_json::json!({
        "path": name,
        "chip": chip.name(),
        "devices": devices,
        "ok": verdict.is_ok(),
        "crashed": matches!(verdict, Verdict::Crashed { .. }),
        "error": verdict.error(),
        "located_error": located,
        "stats": stats,
        "seconds": (verdict.seconds() * 1000.0).round() / 1000.0,
    })
}

/// Compiles one module already in memory (for `emit --compile-check`):
/// `Ok(())` when it compiled, else the located message.
pub fn check(
    bytes: &[u8],
    name: &str,
    chip: Chip,
    libtpu: Option<&Path>,
    timeout: Option<Duration>,
) -> CliResult {
    let verdict = tpu_custom_call::compile::compile_module(
        bytes,
        &CompileOptions {
            chip,
            libtpu: libtpu.map(Path::to_path_buf),
            timeout,
            ..CompileOptions::default()
        },
    )
    .map_err(|e| e.to_string())?;
    match verdict.error() {
        None => Ok(()),
        Some(message) => Err(locate(bytes, name, &message)),
    }
}
