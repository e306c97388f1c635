//! `tpu-custom-call compile`: the verdict of the real TPU compiler (libtpu
//! through PJRT, in a worker process) on StableHLO modules, for a chip.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tpu_custom_call::Context;
use tpu_custom_call::compile::{CompileOptions, Compiler, Verdict};
use tpu_custom_call::decode::{self, FoundCall};
use tpu_custom_call::libtpu::releases::LibtpuVersion;
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
    /// TPU chip to compile for: v4, v5e, v5p, v6e, v7x (the smallest deviceless topology that takes --devices).
    #[arg(long)]
    pub target: Chip,
    /// Compile as N SPMD partitions with a device assignment, as a shard_map program runs: kernels
    /// with remote DMAs, barriers or collective ids need it. v5e: 1 to 16, 32, 64, 128, 256;
    /// v6e: 1 to 32, 64, 128, 256; v4, v7x: 1 to 32, 64, 128; v5p: 1 to 32, 64 (what libtpu's
    /// deviceless topologies compile for). A
    /// module's `mhlo.num_partitions` must equal it.
    #[arg(long, default_value_t = 1, value_parser = parse_devices)]
    pub devices: usize,
    /// Print one JSON object per module (verdict, error, memory statistics).
    #[arg(long)]
    pub json: bool,
    /// libtpu.so to load (default: $TPU_LIBRARY_PATH, then the install cache).
    #[arg(long)]
    pub libtpu: Option<PathBuf>,
    /// The installed libtpu release to load: ~/.cache/tpu-custom-call/libtpu/V/libtpu.so
    /// (scripts/libtpu/install-release.sh V installs it).
    #[arg(long, value_name = "V", conflicts_with = "libtpu", value_parser = parse_libtpu_version)]
    pub libtpu_version: Option<LibtpuVersion>,
    /// Seconds one module (and libtpu's start) may take before the worker is
    /// killed (default: $TPU_CUSTOM_CALL_COMPILE_TIMEOUT, else 300).
    #[arg(long, value_name = "SECS", allow_hyphen_values = true, value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    /// Add libtpu's estimate of each call's device time (as `estimate` gives it; v5e, v5p, v6e, v7x).
    #[arg(long)]
    pub estimate: bool,
}

/// A positive number of seconds (fractions allowed: `0.5`).
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    super::values::parse_timeout(text)
}

/// A `--libtpu-version`: a release number (a usage error naming the known
/// releases otherwise).
pub fn parse_libtpu_version(text: &str) -> Result<LibtpuVersion, String> {
    LibtpuVersion::parse(text).map_err(|e| e.to_string())
}

/// The libtpu.so for `--libtpu PATH` / `--libtpu-version V`: the path, else
/// release V's install (an error saying how to install it when missing),
/// else the usual lookup (`None`).
pub fn libtpu_path(
    libtpu: Option<&Path>,
    version: Option<&LibtpuVersion>,
) -> Result<Option<PathBuf>, String> {
    if let Some(path) = libtpu {
        return Ok(Some(path.to_path_buf()));
    }
    let Some(version) = version else {
        return Ok(None);
    };
    match tpu_custom_call::compile::release_libtpu_path(version.version()) {
        Some(path) if path.is_file() => Ok(Some(path)),
        path => Err(format!(
            "libtpu {version} is not installed{}: run scripts/libtpu/install-release.sh {version}, or give \
             --libtpu PATH",
            path.map(|p| format!(" (no {})", p.display()))
                .unwrap_or_default()
        )),
    }
}

fn parse_devices(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "`{text}` is not a device count: give a whole number of at least 1"
        )),
    }
}

/// The module's `mhlo.num_partitions`, when it has one (text or bytecode).
fn num_partitions(bytes: &[u8], name: &str) -> Option<i64> {
    use tpu_custom_call::kernel::{ModuleFormat, parse_module_bytes};
    use tpu_custom_call::melior::ir::operation::OperationLike;
    let ctx = Context::new();
    let module = parse_module_bytes(&ctx, bytes, name, ModuleFormat::sniff(bytes)).ok()?;
    let attr = module
        .as_operation()
        .attribute("mhlo.num_partitions")
        .ok()?;
    tpu_custom_call::melior::ir::attribute::IntegerAttribute::try_from(attr)
        .ok()
        .map(|a| a.value())
}

/// Runs `compile`.
pub fn run(args: Args) -> CliResult {
    if args.estimate && tpu_custom_call::compile::estimate::clock(args.target).is_none() {
        return Err(
            tpu_custom_call::compile::EstimateError::NoModel { chip: args.target }.to_string(),
        );
    }
    let mut compiler = Compiler::new(CompileOptions {
        chip: args.target,
        devices: args.devices,
        libtpu: libtpu_path(args.libtpu.as_deref(), args.libtpu_version.as_ref())?,
        timeout: args.timeout,
        ..Default::default()
    })
    .map_err(|e| e.to_string())?;
    // The library's PJRT version is known once its worker runs.
    compiler.start_worker().map_err(|e| e.to_string())?;
    let libtpu = compiler.describe_libtpu();
    let libtpu_json = compiler.libtpu_json();
    let mut failures = Vec::new();
    for path in &args.modules {
        let bytes = read_input(path)?;
        let name = source_name(path);
        if let Some(n) = num_partitions(&bytes, &name)
            && usize::try_from(n).ok() != Some(args.devices)
        {
            return Err(format!(
                "{name}: the module has mhlo.num_partitions = {n} but --devices is {}; compile it with \
                 --devices {n} (one device per partition)",
                args.devices
            ));
        }
        let verdict = compiler.compile(&bytes).map_err(|e| e.to_string())?;
        let blamed = verdict
            .error()
            .and_then(|message| blamed_call(&bytes, &name, &message));
        let fix = verdict
            .error()
            .and_then(|message| compiler.fix_for(&message));
        let located = verdict
            .error()
            .map(|message| located(&name, blamed.as_ref(), &message));
        let mut estimate_error = None;
        let estimate = if args.estimate && verdict.is_ok() {
            match super::estimate::for_compile(
                &bytes,
                &name,
                args.target,
                Some(compiler.libtpu().to_path_buf()),
                args.timeout,
            ) {
                Ok(found) => Some(found),
                Err(message) => {
                    failures.push(format!("{name}: estimate: {message}"));
                    estimate_error = Some(message);
                    None
                }
            }
        } else {
            None
        };
        if args.json {
            let mut json = verdict_json(
                &name,
                args.target,
                args.devices,
                &verdict,
                located.as_deref(),
            );
            json["libtpu"] = libtpu_json.clone();
            json["fix"] = fix
                .clone()
                .map_or(serde_json::Value::Null, serde_json::Value::from);
            json["call"] = match &blamed {
                Some(call) => serde_json::json!({
                    "index": call.index,
                    "kernel_name": call.kernel_name,
                }),
                None => serde_json::Value::Null,
            };
            if args.estimate {
                json["estimate"] = estimate
                    .as_ref()
                    .map_or(serde_json::Value::Null, |(_, e)| e.clone());
                json["estimate_error"] = estimate_error
                    .clone()
                    .map_or(serde_json::Value::Null, serde_json::Value::from);
            }
            println!("{json}");
        } else if let Some(stats) = verdict.stats() {
            println!(
                "{name}: compiled for {} ({} device{}) by {libtpu}: code {} B, arguments {} B, output {} B, \
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
            if let Some((text, _)) = &estimate {
                print!("{text}");
            }
        }
        if let Some(located) = located {
            failures.push(with_libtpu(located, &libtpu, fix.as_deref()));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else if args.json {
        // The JSON lines carry the messages; stderr says which modules.
        Err(format!(
            "libtpu refused {} of {} modules{}",
            failures.len(),
            args.modules.len(),
            if args.estimate {
                " (or their estimate: `estimate_error`)"
            } else {
                ""
            }
        ))
    } else {
        Err(failures.join("\nerror: "))
    }
}

/// A refusal with the libtpu that refused it and, for a version refusal, the
/// fix.
fn with_libtpu(located: String, libtpu: &str, fix: Option<&str>) -> String {
    let mut text = format!("{located}\n  by {libtpu}");
    if let Some(fix) = fix {
        text.push_str("\n  fix: ");
        text.push_str(fix);
    }
    text
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
/// `Ok(())` when it compiled (saying with which libtpu on stderr), else the
/// located message with the libtpu and the fix. `libtpu_version`: the release
/// emitted for, whose install is used when no `--libtpu` is given, and which
/// a different library is warned about.
pub fn check(
    bytes: &[u8],
    name: &str,
    chip: Chip,
    libtpu: Option<&Path>,
    libtpu_version: Option<&LibtpuVersion>,
    timeout: Option<Duration>,
) -> CliResult {
    let installed = libtpu_version
        .and_then(|v| tpu_custom_call::compile::release_libtpu_path(v.version()))
        .filter(|p| p.is_file());
    let mut compiler = Compiler::new(CompileOptions {
        chip,
        libtpu: libtpu.map(Path::to_path_buf).or(installed),
        timeout,
        ..CompileOptions::default()
    })
    .map_err(|e| e.to_string())?;
    let verdict = compiler.compile(bytes).map_err(|e| e.to_string())?;
    let described = compiler.describe_libtpu();
    let release = compiler.release().map(|r| r.version.clone());
    if let (Some(wanted), Some(used)) = (libtpu_version, &release)
        && wanted.version() != used
    {
        eprintln!(
            "warning: emitted for libtpu {wanted}, compiled with {described} (--libtpu, or install {wanted} with \
             scripts/libtpu/install-release.sh {wanted})"
        );
    }
    match verdict.error() {
        None => {
            eprintln!("note: compiled for {chip} by {described}");
            Ok(())
        }
        Some(message) => {
            let fix = compiler.fix_for(&message);
            Err(with_libtpu(
                locate(bytes, name, &message),
                &described,
                fix.as_deref(),
            ))
        }
    }
}
