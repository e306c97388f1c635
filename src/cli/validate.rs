//! `tpu-custom-call validate`: check parameters (and a kernel, a signature, a
//! target) without emitting anything; report every problem found.

use std::path::PathBuf;

use tpu_custom_call::lower;
use tpu_custom_call::target::Chip;
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
            Some((
                operands.iter().map(ToString::to_string).collect::<Vec<_>>(),
                results.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ))
        }
        None => None,
    };
    let errors = lower::validate_all(
        kernel.as_ref(),
        &params,
        signature
            .as_ref()
            .map(|(o, r)| (o.as_slice(), r.as_slice())),
        args.target,
    );
    let facts = match &kernel {
        Some(kernel) => tpu_custom_call::analyze(kernel).ok(),
        None => Some(Default::default()),
    };
    if let Some(facts) = facts {
        let findings = tpu_custom_call::libtpu::check(
            kernel.as_ref(),
            &facts,
            &params,
            params.collective_id,
            args.target,
        );
        for warning in &findings.warnings {
            eprintln!("warning: {warning}");
        }
    }
    if errors.is_empty() {
        // What the call contract could not check, as notes.
        if let (Some(kernel), Some((operands, results))) = (&kernel, &signature)
            && let Ok(contract) = tpu_custom_call::contract::check_call(
                kernel,
                operands,
                results,
                &params,
                args.target,
            )
        {
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
