//! `tpu-custom-call validate`: check parameters (and a kernel, a signature, a
//! target) without emitting anything; report every problem found.

use std::path::PathBuf;

use tpu_custom_call::target::Chip;
use tpu_custom_call::validate::{self, Signature, ValidateOptions};
use tpu_custom_call::{Context, Kernel, Params};

use super::{CliResult, read_input, source_name};

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call validate params.json\n  \
tpu-custom-call validate params.json --kernel kernel.mlir --signature '(tensor<8x128xf32>) -> tensor<8x128xf32>' --target v6e")]
pub struct Args {
    /// PARAMS.json to check.
    pub params: PathBuf,
    /// The Mosaic kernel the parameters are for (enables the kernel-dependent rules).
    #[arg(long)]
    pub kernel: Option<PathBuf>,
    /// The call's signature (enables the alias and per-operand rules).
    #[arg(long)]
    pub signature: Option<String>,
    /// TPU chip to check against.
    #[arg(long)]
    pub target: Option<Chip>,
}

/// Runs `validate`: prints `ok` on success, else every problem (exit 1).
pub fn run(args: Args) -> CliResult {
    let params_name = source_name(&args.params);
    let params = match Params::from_json_all(&read_input(&args.params)?) {
        Ok(params) => params,
        Err(errors) => {
            return Err(report(
                errors
                    .iter()
                    .map(|e| format!("{params_name}: {e}"))
                    .collect(),
            ));
        }
    };
    let ctx = Context::new();
    let kernel = match &args.kernel {
        Some(path) => Some(
            Kernel::load(&ctx, &read_input(path)?, &source_name(path))
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    let signature = match &args.signature {
        Some(text) => {
            let (operands, results) = super::parse_signature(&ctx, text)?;
            Some(Signature::new(operands, results))
        }
        None => None,
    };
    let found = validate::report(
        kernel.as_ref(),
        signature.as_ref(),
        &params,
        args.target,
        &ValidateOptions::all_rules(),
    );
    for warning in &found.warnings {
        eprintln!("warning: {warning}");
    }
    let errors = found.errors;
    if errors.is_empty() {
        // What the call contract could not check, as notes.
        if let Some(contract) = found.contract {
            for warning in &contract.warnings {
                eprintln!("warning: {warning}");
            }
            for note in contract.not_checked {
                eprintln!("note: not checked: {note}");
            }
        }
        println!("ok");
        Ok(())
    } else {
        Err(report(errors.iter().map(ToString::to_string).collect()))
    }
}

/// One message listing every problem.
fn report(problems: Vec<String>) -> String {
    let count = problems.len();
    let mut out = format!("{count} problem{}:", if count == 1 { "" } else { "s" });
    for problem in problems {
        out.push_str("\n  - ");
        out.push_str(&problem.replace('\n', "\n    "));
    }
    out
}
