//! `tpu-custom-call emit`: a Mosaic kernel plus parameters in, a StableHLO
//! module calling it through `stablehlo.custom_call @tpu_custom_call` out.

use std::path::PathBuf;

use clap::ValueEnum;
use tpu_custom_call::bytecode::Encodings;
use tpu_custom_call::libtpu::releases::LibtpuVersion;
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::operation::OperationLike as _;
use tpu_custom_call::params::{DebugLocations, Params};
use tpu_custom_call::target::Chip;
use tpu_custom_call::validate::{self, Signature, ValidateOptions};
use tpu_custom_call::{BytecodeOptions, Context, Kernel, PrintOptions};

use super::{CliResult, read_input, source_name, write_output};

/// Output format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Emit {
    /// MLIR text, as JAX prints it (the custom call in its pretty form).
    Text,
    /// MLIR bytecode (newest format version of this MLIR).
    Bytecode,
}

/// Debug-location mode.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DebugLocationsArg {
    /// Body locations unknown, locations in a separate `debug_locations` blob (JAX's default).
    Unzip,
    /// Locations stay in the body, no blob (JAX's export).
    Inline,
    /// No locations anywhere.
    Strip,
}

/// Builtin attribute encodings of the body bytecode.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EncodingsArg {
    /// LLVM 22's: readable by every TPU toolchain.
    #[value(name = "22")]
    Llvm22,
    /// JAX 0.12's MLIR (24): byte-identical bodies.
    #[value(name = "24")]
    Llvm24,
}

/// Arguments of `emit`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
tpu-custom-call emit mlir-fixtures/kernels/add.mlir --signature '(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>'\n  \
tpu-custom-call emit kernel.mlir --signature '(tensor<16x128xf32>) -> tensor<16x128xf32>' --params params.json --target v7x -o call.mlir\n  \
tpu-custom-call emit kernel.mlir --signature SIG --producer MLIR24.0.0git --bytecode-encodings 24   # JAX 0.12's exact bytes\n  \
tpu-custom-call emit kernel.mlir --signature SIG --target v6e --compile-check -o call.mlir   # libtpu compiles it first\n  \
tpu-custom-call emit kernel.mlir --signature SIG --libtpu-version 0.0.47.1 -o call.mlir   # for a runtime with libtpu 0.0.47.1")]
pub struct Args {
    /// Mosaic kernel module (MLIR text or bytecode; `-` for stdin).
    pub kernel: PathBuf,
    /// The call's operand and result types as an MLIR function type,
    /// e.g. '(tensor<8x128xf32>) -> tensor<8x128xf32>'.
    #[arg(long)]
    pub signature: String,
    /// PARAMS.json: the call's parameters, with JAX's names (see docs/params.md).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// TPU chip to check against (v2 ... v8t, or a JAX device_kind).
    #[arg(long)]
    pub target: Option<Chip>,
    /// Mosaic IR version of the body (11-18; overrides PARAMS.json; default 15, or the newest
    /// --libtpu-version reads when it reads less).
    #[arg(long)]
    pub ir_version: Option<u32>,
    /// The libtpu release that will compile the call (default 0.0.50.1, JAX 0.12's): emit what
    /// it reads (serialization version, debug locations inline where it has no
    /// `debug_locations` field, megachip_parallelism_config before 0.0.50) and refuse what it
    /// cannot compile. The releases measured: docs/compile.md.
    #[arg(long, value_name = "V", value_parser = super::compile::parse_libtpu_version)]
    pub libtpu_version: Option<LibtpuVersion>,
    /// Debug-location mode (overrides PARAMS.json).
    #[arg(long, value_enum)]
    pub debug_locations: Option<DebugLocationsArg>,
    /// Producer string of the body bytecode (JAX 0.12: MLIR24.0.0git).
    #[arg(long)]
    pub producer: Option<String>,
    /// Builtin attribute encodings of the body bytecode.
    #[arg(long, value_enum, default_value = "22")]
    pub bytecode_encodings: EncodingsArg,
    /// Check only JAX 0.12's rules, not the ones libtpu enforces at compile
    /// time: emit what JAX would emit even if libtpu refuses it.
    #[arg(long)]
    pub jax_rules_only: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub emit: Emit,
    /// Compile the emitted module with libtpu for --target before writing it
    /// (see `compile`); libtpu's refusal is an error and nothing is written.
    #[arg(long, requires = "target")]
    pub compile_check: bool,
    /// With --compile-check: libtpu.so to load (default: $TPU_LIBRARY_PATH, then the install cache).
    #[arg(long, requires = "compile_check")]
    pub libtpu: Option<PathBuf>,
    /// With --compile-check: seconds libtpu may take before it is stopped
    /// (default: $TPU_CUSTOM_CALL_COMPILE_TIMEOUT, else 300).
    #[arg(long, value_name = "SECS", requires = "compile_check",
          allow_hyphen_values = true, value_parser = super::compile::parse_timeout)]
    pub timeout: Option<std::time::Duration>,
    /// Output file (default stdout); written atomically.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
}

/// Runs `emit`.
pub fn run(args: Args) -> CliResult {
    let libtpu = args.libtpu_version.clone().unwrap_or_default();
    if let Some(warning) = libtpu.warning() {
        eprintln!("warning: {warning}");
    }
    let mut params = match &args.params {
        Some(path) => Params::from_json_all_over(&read_input(path)?, libtpu.default_params())
            .map_err(|mut errors| format!("{}: {}", source_name(path), errors.swap_remove(0)))?,
        None => libtpu.default_params(),
    };
    if let Some(version) = args.ir_version {
        params.ir_version = Some(version);
    }
    if let Some(mode) = args.debug_locations {
        params.debug_locations = Some(match mode {
            DebugLocationsArg::Unzip => DebugLocations::Unzip,
            DebugLocationsArg::Inline => DebugLocations::Inline,
            DebugLocationsArg::Strip => DebugLocations::Strip,
        });
    }
    let bytes = read_input(&args.kernel)?;
    let ctx = Context::new();
    let kernel =
        Kernel::load(&ctx, &bytes, &source_name(&args.kernel)).map_err(|e| e.to_string())?;
    let (operands, results) = super::parse_signature(&ctx, &args.signature)?;
    let rules = if args.jax_rules_only {
        ValidateOptions::jax_rules_only()
    } else {
        ValidateOptions::all_rules()
    }
    .with_libtpu(libtpu.clone());
    let call = validate::validate_with(
        &kernel,
        Signature::new(operands, results),
        &params,
        args.target,
        &rules,
    )
    // Every problem, each on its own `error:` line (`run` prefixes the first).
    .map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\nerror: ")
    })?;
    let options = LowerOptions {
        producer: args.producer.clone(),
        encodings: match args.bytecode_encodings {
            EncodingsArg::Llvm22 => Encodings::Llvm22,
            EncodingsArg::Llvm24 => Encodings::Llvm24,
        },
        libtpu: libtpu.clone(),
    };
    // The body emit writes carries the serialization version: a version
    // the kernel itself says (a hand-written kernel's `"1"`) is replaced,
    // and said so.
    if let Ok(attr) = kernel
        .operation()
        .attribute(tpu_custom_call::serde::VERSION_ATTR)
    {
        let written = params
            .ir_version
            .unwrap_or(tpu_custom_call::serde::DEFAULT_IR_VERSION);
        let said = attr.to_string();
        if said != format!("{written} : i64") {
            eprintln!(
                "note: the kernel's stable_mosaic.version = {said} is replaced by {written} : i64, the \
                 serialization version of the body emit writes (serialization_format 1); a plain body \
                 (no serialization_format) keeps it but emit writes none"
            );
        }
    }
    for warning in call.warnings() {
        eprintln!("warning: {warning}");
    }
    for warning in call.contract().map_or(&[][..], |c| &c.warnings[..]) {
        eprintln!("warning: {warning}");
    }
    // A scoped-VMEM budget the contract could not decide: say so, unless
    // libtpu is about to decide it.
    if !args.compile_check
        && let Some(contract) = call.contract()
    {
        for note in contract
            .not_checked
            .iter()
            .filter(|n| n.contains("scoped-VMEM budget"))
        {
            eprintln!("note: not checked: {note}");
        }
    }
    let module = Lowerer::new(options)
        .emit_module(&ctx, &call)
        .map_err(|e| e.to_string())?;
    let out = match args.emit {
        Emit::Text => {
            let mut text = tpu_custom_call::kernel::print_module(&module, PrintOptions::default())
                .map_err(|e| e.to_string())?;
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.into_bytes()
        }
        Emit::Bytecode => {
            tpu_custom_call::kernel::module_bytecode(&module, &BytecodeOptions::default())
                .map_err(|e| e.to_string())?
        }
    };
    if args.compile_check {
        // `requires = "target"` makes the target present here.
        if let Some(chip) = args.target {
            super::compile::check(
                &out,
                "<emitted module>",
                chip,
                args.libtpu.as_deref(),
                args.libtpu_version.as_ref(),
                args.timeout,
            )?;
        }
    }
    write_output(args.output.as_ref(), &out)
}
