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
    let shape = call
        .found
        .attribute("indices_of_shape_operands")
        .map_or(0, |_| results.len());
    let operands = &call.found.operand_types;
    let operands = &operands[..operands.len().saturating_sub(shape)];
    match tpu_custom_call::contract::check_call(&call.kernel, operands, results, &call.params, None)
    {
        Ok(_) => Vec::new(),
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
        let array: Vec<serde_json::Value> = calls.iter().map(DecodedCall::to_json).collect();
        let mut text = serde_json::to_string_pretty(&array).map_err(|e| e.to_string())?;
        text.push('\n');
        text
    } else {
        let mut text = String::new();
        for call in &calls {
            let _ = writeln!(text, "{}", call.summary());
        }
        if calls.is_empty() {
            let _ = writeln!(text, "{name}: no tpu_custom_call");
        }
        text
    };
    write_output(args.output.as_ref(), out.as_bytes())
}
