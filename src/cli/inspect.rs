//! `tpu-custom-call inspect`: every tpu_custom_call in a module, decoded.

use std::fmt::Write as _;
use std::path::PathBuf;

use tpu_custom_call::decode::{self, DecodedCall};
use tpu_custom_call::{Context, PrintOptions};

use super::{CliResult, read_input, source_name, write_output};

/// Arguments of `inspect`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call inspect module.mlir                # JAX's Lowered.as_text(), ours, or bytecode\n  \
tpu-custom-call inspect module.mlir --json | jq '.[0].params'\n  \
tpu-custom-call inspect module.mlir --kernel       # the deserialized kernels, generic form, `// -----` between")]
pub struct Args {
    /// StableHLO module (text in generic or pretty form, or bytecode; `-` for stdin).
    pub module: PathBuf,
    /// Print one JSON array, one object per call.
    #[arg(long, conflicts_with = "kernel")]
    pub json: bool,
    /// Print only the deserialized kernels (debug locations re-attached).
    #[arg(long)]
    pub kernel: bool,
    /// With --kernel: print `tpu` ops in their custom syntax, as JAX prints kernels.
    #[arg(long, requires = "kernel")]
    pub pretty: bool,
    /// Output file (default stdout); written atomically.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
}

/// What the call contract ([`tpu_custom_call::contract::check_call`]) finds
/// wrong with a decoded call (its kernel against its operands and results).
fn contract_problems(call: &DecodedCall<'_>) -> Vec<String> {
    let results = &call.found.result_types;
    let operands = call.found.data_operand_types();
    match tpu_custom_call::contract::check_call(&call.kernel, operands, results, &call.params, None)
    {
        Ok(report) => report.warnings.iter().map(ToString::to_string).collect(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

/// Runs `inspect`.
pub fn run(args: Args) -> CliResult {
    let bytes = read_input(&args.module)?;
    let name = source_name(&args.module);
    let ctx = Context::new();
    let calls = decode::decode_module(&ctx, &bytes, &name).map_err(|e| e.to_string())?;
    for call in &calls {
        for problem in contract_problems(call) {
            eprintln!(
                "warning: {name}: tpu_custom_call #{}: {problem}",
                call.found.index
            );
        }
    }
    let out = if args.kernel {
        let mut texts = Vec::new();
        for call in &calls {
            let text = if args.pretty {
                call.kernel.print_pretty(true)
            } else {
                call.kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS)
            };
            texts.push(
                text.map_err(|e| format!("{name}: tpu_custom_call #{}: {e}", call.found.index))?,
            );
        }
        texts.join("// -----\n")
    } else if args.json {
        let array: Vec<serde_json::Value> = calls.iter().map(to_json).collect();
        let mut text = serde_json::to_string_pretty(&array).map_err(|e| e.to_string())?;
        text.push('\n');
        text
    } else {
        let mut text = String::new();
        for call in &calls {
            let _ = writeln!(text, "{}", summary(call));
        }
        if calls.is_empty() {
            let _ = writeln!(text, "{name}: no tpu_custom_call");
        }
        text
    };
    write_output(args.output.as_ref(), out.as_bytes())
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The JSON object `inspect --json` prints for this call.
fn to_json(call: &DecodedCall<'_>) -> serde_json::Value {
    let params: serde_json::Value =
        serde_json::from_str(&call.params.to_json()).unwrap_or(serde_json::Value::Null);
    serde_json::json!({
        "index": call.found.index,
        "line": call.found.line,
        "kernel_name": call.found.kernel_name,
        "ir_version": call.ir_version,
        "body_form": call.body_form.name(),
        "version_attribute": call.version_attribute,
        "implicit_sharding": call.config.implicit_sharding.as_ref().map(|s| {
            let mut text = String::new();
            tpu_custom_call::config::json::write_python_json(&mut text, &s.value);
            serde_json::from_str::<serde_json::Value>(&text).unwrap_or(serde_json::Value::Null)
        }),
        "device_type": call.device_type_name(),
        "body_bytes": call.config.body.len(),
        "body_sha256": sha256_hex(&call.config.body),
        "debug_locations_bytes": call.config.debug_locations.as_ref().map(Vec::len),
        "operand_types": call.found.operand_types,
        "result_types": call.found.result_types,
        "operand_layouts": call.found.attribute("operand_layouts"),
        "result_layouts": call.found.attribute("result_layouts"),
        "output_operand_aliases": call.found.attribute("output_operand_aliases"),
        "has_side_effect": call.found.attribute("has_side_effect"),
        "unknown_config_keys": call.report.unknown_keys.iter().map(|k| k.path.to_string()).collect::<Vec<_>>(),
        "params": params,
        "oldest_libtpu": oldest_libtpu_json(call),
    })
}

/// `{"release": "0.0.43.2" (or null: none measured), "needs": {...}}`.
fn oldest_libtpu_json(call: &DecodedCall<'_>) -> serde_json::Value {
    let needs = call.libtpu_needs();
    serde_json::json!({
        "release": needs.oldest_release().map(|r| r.version),
        "needs": needs.to_json(),
    })
}

/// `0.0.42 (serialization version 15)`: the oldest release that compiles the
/// call, and what it needs of it.
pub fn oldest_libtpu_text(call: &DecodedCall<'_>) -> String {
    let needs = call.libtpu_needs();
    match needs.oldest_release() {
        Some(release) => format!("{} ({})", release.version, needs.describe()),
        None => format!("none of the releases measured ({})", needs.describe()),
    }
}

/// The human-readable block `inspect` prints for this call.
fn summary(call: &DecodedCall<'_>) -> String {
    let mut out = String::new();
    let c = &call.config;
    let line = call
        .found
        .line
        .map(|l| format!(" (line {l})"))
        .unwrap_or_default();
    let _ = writeln!(out, "tpu_custom_call #{}{line}", call.found.index);
    let _ = writeln!(
        out,
        "  kernel_name:      {}",
        call.found.kernel_name.as_deref().unwrap_or("(none)")
    );
    let _ = writeln!(
        out,
        "  signature:        ({}) -> ({})",
        call.found.operand_types.join(", "),
        call.found.result_types.join(", ")
    );
    let _ = writeln!(out, "  device_type:      {}", call.device_type_name());
    let version = call.version_attribute.as_deref().unwrap_or("(none)");
    if call.body_form.is_plain() {
        let _ = writeln!(
            out,
            "  ir_version:       none (plain body: libtpu does not read its stable_mosaic.version = {version})"
        );
    } else {
        let _ = writeln!(out, "  ir_version:       {}", call.ir_version);
    }
    let _ = writeln!(
        out,
        "  body:             {} bytes, {}, sha256 {}",
        c.body.len(),
        call.body_form.describe(),
        sha256_hex(&c.body)
    );
    if call.body_form.is_plain() {
        let needs = call.libtpu_needs();
        let _ = writeln!(
            out,
            "                    accepted by {} (measured: {}; older releases not measured)",
            needs.describe_oldest(),
            tpu_custom_call::libtpu::releases::PLAIN_BODY_RELEASES.join(", ")
        );
    }
    if let Some(sharding) = &c.implicit_sharding {
        let mut text = String::new();
        tpu_custom_call::config::json::write_python_json(&mut text, &sharding.value);
        let _ = writeln!(
            out,
            "  implicit_sharding: {text} (libtpu's key beyond JAX's; libtpu compiles every OpSharding type)"
        );
    }
    match &c.debug_locations {
        Some(d) => {
            let _ = writeln!(out, "  debug_locations:  {} bytes", d.len());
        }
        None => {
            let _ = writeln!(out, "  debug_locations:  (none)");
        }
    }
    for (name, value) in &call.found.attributes {
        if name != "backend_config" && name != "kernel_name" {
            let _ = writeln!(out, "  {name:<17} {value}", name = format!("{name}:"));
        }
    }
    let params = call.params.to_json();
    let _ = writeln!(
        out,
        "  params:           {}",
        params.trim_end().replace('\n', "\n                    ")
    );
    let _ = writeln!(out, "  oldest libtpu:    {}", oldest_libtpu_text(call));
    for key in &call.report.unknown_keys {
        let _ = writeln!(out, "  unknown config key: {}", key.path);
    }
    out
}
