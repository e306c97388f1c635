//! `tpu-custom-call validate`: check parameters (and a kernel, a signature, a
//! target) without emitting anything; report every problem found.

use std::path::PathBuf;

use tpu_custom_call::libtpu::lowering::MEASURED_CHIPS;
use tpu_custom_call::libtpu::releases::LibtpuVersion;
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::target::Chip;
use tpu_custom_call::validate::{self, Signature, ValidateOptions};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions};

use super::{CliResult, read_input, source_name};

/// Arguments of `validate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call validate params.json\n  \
tpu-custom-call validate params.json --kernel kernel.mlir --signature '(tensor<8x128xf32>) -> tensor<8x128xf32>' --target v6e\n  \
tpu-custom-call validate module.mlir --target v6e      # every tpu_custom_call of an emitted (or JAX's) module\n  \
tpu-custom-call validate module.mlir --libtpu-version 0.0.47.1   # can that release compile it? (the oldest that can, per call)\n  \
tpu-custom-call validate module.mlir --target v5e --compile-check   # and libtpu's verdict on what no rule checks")]
pub struct Args {
    /// PARAMS.json to check, or a StableHLO module (ours, JAX's, bytecode):
    /// every tpu_custom_call in it is decoded and checked as a whole call.
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
    /// The libtpu release that will compile the call (default 0.0.50.1, JAX 0.12's): what it
    /// cannot compile is a problem, saying which release first accepts it.
    #[arg(long, value_name = "V", value_parser = super::compile::parse_libtpu_version)]
    pub libtpu_version: Option<LibtpuVersion>,
    /// After the rules pass, compile each call with libtpu for --target (see `compile`): what the
    /// rules leave unchecked (layouts, ops no measured rule covers) is libtpu's verdict, its
    /// refusal a problem.
    #[arg(long, requires = "target")]
    pub compile_check: bool,
    /// With --compile-check: libtpu.so to load (default: $TPU_LIBRARY_PATH, then the install cache).
    #[arg(long, requires = "compile_check")]
    pub libtpu: Option<PathBuf>,
    /// With --compile-check: seconds libtpu may take before it is stopped
    /// (default: $TPU_CUSTOM_CALL_COMPILE_TIMEOUT, else 300).
    #[arg(long, value_name = "SECS", requires = "compile_check",
          value_parser = super::compile::parse_timeout)]
    pub timeout: Option<std::time::Duration>,
}

/// Whether the input is a PARAMS.json rather than a module: a `.json` file,
/// or text starting with `{` (a module starts with `module`, `#`, `"`,
/// `func` or bytecode's magic).
fn is_json(path: &std::path::Path, bytes: &[u8]) -> bool {
    path.extension().is_some_and(|e| e == "json")
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// What a passing check covered, in words: the rules, the contract, the
/// scoped-VMEM figure against the chip's limit.
fn checked(found: &validate::Report, target: Option<Chip>) -> String {
    let lowering = found.lowering.as_ref();
    let mut parts = vec![match target {
        Some(chip) => {
            let ops = match lowering {
                Some(c) if c.chip.is_some() => {
                    format!("; lowering of {} of the kernel's {} ops", c.checked, c.ops)
                }
                Some(_) => format!(
                    "; op lowering not measured for {chip} (measured: {})",
                    MEASURED_CHIPS.map(|c| c.to_string()).join(", ")
                ),
                None => String::new(),
            };
            format!(
                "JAX's rules and libtpu's for {chip} (parameters, windows, single block, static and 32-bit \
                 types{ops})"
            )
        }
        None => "JAX's rules (no --target: libtpu's chip rules not checked)".to_string(),
    }];
    if let Some(contract) = &found.contract {
        match &contract.function {
            Some(f) if contract.checked.is_empty() => {
                parts.push(format!("the call against kernel @{f}"));
            }
            Some(f) => parts.push(format!(
                "the call against kernel @{f}: {}",
                contract.checked.join(", ")
            )),
            None => parts.push("the call contract not checked (no main function)".to_string()),
        }
        if let Some(v) = &contract.vmem {
            match target.and_then(|chip| v.limit_source(chip).map(|l| (chip, l))) {
                Some((chip, (limit, source))) if contract.vmem_checked => parts.push(format!(
                    "scoped VMEM {} of {} ({source})",
                    tpu_custom_call::contract::format_bytes(v.counted(chip)),
                    tpu_custom_call::contract::format_bytes(limit),
                )),
                _ if target.is_some() => {
                    parts.push("scoped VMEM not checked (see the note)".to_string());
                }
                _ => parts.push(format!(
                    "scoped VMEM {} (no --target: not checked against a limit)",
                    tpu_custom_call::contract::format_bytes(v.total())
                )),
            }
        }
    }
    parts.join("; ")
}

/// The ok line's last part: libtpu's verdict (`compiled`, when it was
/// asked), else what only libtpu's compile decides.
fn unchecked(found: &validate::Report, target: Option<Chip>, compiled: Option<&str>) -> String {
    let lowering = found.lowering.as_ref();
    match compiled {
        Some(verdict) => verdict.to_string(),
        None => {
            let ops = lowering.map_or(&[][..], |c| &c.not_checked[..]);
            let mut what = "layouts".to_string();
            if lowering.is_none() {
                what.push_str(" and the kernel's ops (no kernel)");
            } else if !ops.is_empty() {
                let shown: Vec<&str> = ops.iter().take(4).map(String::as_str).collect();
                let more = ops.len().saturating_sub(shown.len());
                what.push_str(&format!(
                    " and the lowering of {}{}",
                    shown.join(", "),
                    if more > 0 {
                        format!(" and {more} more op(s)")
                    } else {
                        String::new()
                    }
                ));
            }
            format!(
                "not checked: {what} ({})",
                match target {
                    Some(_) => "--compile-check asks libtpu",
                    None => "give --target and --compile-check to ask libtpu",
                }
            )
        }
    }
}

/// libtpu's verdict on a module for `--compile-check`: `Ok(words)` when it
/// compiled, else its refusal.
fn compile_check(args: &Args, bytes: &[u8], name: &str) -> Result<Option<String>, String> {
    let Some(chip) = args.target.filter(|_| args.compile_check) else {
        return Ok(None);
    };
    super::compile::check(
        bytes,
        name,
        chip,
        args.libtpu.as_deref(),
        args.libtpu_version.as_ref(),
        args.timeout,
    )?;
    Ok(Some(format!("libtpu compiled it for {chip}")))
}

/// `validate MODULE`: every call of a module, decoded and validated whole.
fn run_module(args: &Args, bytes: &[u8]) -> CliResult {
    let name = source_name(&args.params);
    if let Some(warning) = args
        .libtpu_version
        .as_ref()
        .and_then(LibtpuVersion::warning)
    {
        eprintln!("warning: {warning}");
    }
    let ctx = Context::new();
    let calls =
        tpu_custom_call::decode::decode_module(&ctx, bytes, &name).map_err(|e| e.to_string())?;
    if calls.is_empty() {
        return Err(format!("{name}: no tpu_custom_call to validate"));
    }
    let mut problems = Vec::new();
    let mut module_verdict = None;
    for call in &calls {
        let label = format!(
            "tpu_custom_call #{} ({})",
            call.found.index,
            call.found.kernel_name.as_deref().unwrap_or("kernel")
        );
        let parse = |types: &[String]| -> Result<Vec<_>, String> {
            types
                .iter()
                .map(|t| {
                    tpu_custom_call::melior::ir::Type::parse(&ctx, t)
                        .ok_or_else(|| format!("{label}: type `{t}` does not parse"))
                })
                .collect()
        };
        let signature = Signature::new(
            parse(call.found.data_operand_types())?,
            parse(&call.found.result_types)?,
        );
        let found = validate::report(
            Some(&call.kernel),
            Some(&signature),
            &call.params,
            args.target,
            &ValidateOptions::all_rules(),
        );
        // The call as written (body version, config fields, encodings)
        // against the release asked for; the oldest release that compiles it.
        let needs = call.libtpu_needs();
        let oldest = needs.describe_oldest();
        let unmet = args
            .libtpu_version
            .as_ref()
            .map(|libtpu| (libtpu, needs.unmet_by(libtpu.release())))
            .filter(|(_, unmet)| !unmet.is_empty());
        if let Some((libtpu, unmet)) = &unmet {
            problems.push(format!(
                "{label}: libtpu {libtpu} cannot compile it: {}; it needs {oldest}",
                unmet.join("; ")
            ));
        }
        for warning in &found.warnings {
            eprintln!("warning: {label}: {warning}");
        }
        if found.errors.is_empty() && unmet.is_none() {
            // The module is compiled once, for its first call that passes.
            let verdict = module_verdict.get_or_insert_with(|| compile_check(args, bytes, &name));
            let compiled = match verdict.clone() {
                Ok(verdict) => verdict,
                Err(refusal) => {
                    problems.push(format!("{label}: {refusal}"));
                    continue;
                }
            };
            if let Some(contract) = &found.contract {
                for warning in &contract.warnings {
                    eprintln!("warning: {label}: {warning}");
                }
                for note in &contract.not_checked {
                    eprintln!("note: {label}: not checked: {note}");
                }
            }
            println!(
                "{label}: ok: {}; compiles with {oldest} ({}); {}",
                checked(&found, args.target),
                needs.describe(),
                unchecked(&found, args.target, compiled.as_deref())
            );
        } else {
            problems.extend(found.errors.iter().map(|e| format!("{label}: {e}")));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(report(problems))
    }
}

/// Runs `validate`: prints what was checked on success, else every problem (exit 1).
pub fn run(args: Args) -> CliResult {
    let params_name = source_name(&args.params);
    let bytes = read_input(&args.params)?;
    if !is_json(&args.params, &bytes) {
        if args.kernel.is_some() || args.signature.is_some() {
            return Err(format!(
                "{params_name}: a module carries its kernels and signatures: --kernel and --signature go with a PARAMS.json"
            ));
        }
        return run_module(&args, &bytes);
    }
    let libtpu = args.libtpu_version.clone().unwrap_or_default();
    if let Some(warning) = libtpu.warning() {
        eprintln!("warning: {warning}");
    }
    let params = match Params::from_json_all_over(&bytes, libtpu.default_params()) {
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
        &ValidateOptions::all_rules().with_libtpu(libtpu.clone()),
    );
    for warning in &found.warnings {
        eprintln!("warning: {warning}");
    }
    let errors = &found.errors;
    if errors.is_empty() {
        // What the call contract could not check, as notes.
        if let Some(contract) = &found.contract {
            for warning in &contract.warnings {
                eprintln!("warning: {warning}");
            }
            for note in &contract.not_checked {
                eprintln!("note: not checked: {note}");
            }
        }
        let compiled = match (&kernel, &signature) {
            (Some(kernel), Some(signature)) if args.compile_check => {
                let module = emitted(&ctx, kernel, signature, &params, args.target, &libtpu)?;
                compile_check(&args, &module, "<emitted module>")?
            }
            _ if args.compile_check => {
                return Err(
                    "--compile-check: libtpu compiles a whole call; give --kernel and --signature with a \
                     PARAMS.json (or validate a module)"
                        .to_string(),
                );
            }
            _ => None,
        };
        println!(
            "ok: {}; {}",
            checked(&found, args.target),
            unchecked(&found, args.target, compiled.as_deref())
        );
        Ok(())
    } else {
        Err(report(errors.iter().map(ToString::to_string).collect()))
    }
}

/// The call as `emit` writes it (text), for libtpu to compile.
fn emitted(
    ctx: &Context,
    kernel: &Kernel<'_>,
    signature: &Signature<'_>,
    params: &Params,
    target: Option<Chip>,
    libtpu: &LibtpuVersion,
) -> Result<Vec<u8>, String> {
    let options = ValidateOptions::all_rules().with_libtpu(libtpu.clone());
    let call = validate::validate_with(kernel, signature.clone(), params, target, &options)
        .map_err(|errors| validate::describe(&errors))?;
    let lower = LowerOptions {
        libtpu: libtpu.clone(),
        ..LowerOptions::default()
    };
    let module = Lowerer::new(lower)
        .emit_module(ctx, &call)
        .map_err(|e| e.to_string())?;
    tpu_custom_call::kernel::print_module(&module, PrintOptions::default())
        .map(String::into_bytes)
        .map_err(|e| e.to_string())
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
