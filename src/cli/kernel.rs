//! `tpu-custom-call kernel`: load, verify, print or re-encode a Mosaic kernel.

use std::path::PathBuf;

use clap::ValueEnum;
use tpu_custom_call::libtpu::releases::{LibtpuVersion, Needs, SparseCore};
use tpu_custom_call::{BytecodeOptions, Context, Kernel, PrintOptions};

use super::{CliResult, read_input, source_name, write_output};

/// Output format.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Emit {
    /// MLIR text.
    Text,
    /// MLIR bytecode.
    Bytecode,
}

/// Arguments of `kernel`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  tpu-custom-call kernel mlir-fixtures/kernels/add.mlir\n  \
tpu-custom-call kernel add.mlir --emit bytecode --bytecode-version 0 -o add.mlirbc\n  \
tpu-custom-call kernel sc_kernel.mlir --libtpu-version 0.0.40   # can that release compile it?"
)]
pub struct Args {
    /// Mosaic kernel module (MLIR text or bytecode; `-` for stdin).
    pub kernel: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub emit: Emit,
    /// Print every op in generic form.
    #[arg(long)]
    pub generic: bool,
    /// Print locations.
    #[arg(long)]
    pub debug_info: bool,
    /// Print `tpu` ops in their custom syntax, as JAX prints kernels.
    #[arg(long, conflicts_with = "generic")]
    pub pretty: bool,
    /// Bytecode format version (default: the newest this MLIR writes).
    #[arg(long)]
    pub bytecode_version: Option<i64>,
    /// Producer string written in the bytecode header.
    #[arg(long)]
    pub producer: Option<String>,
    /// The libtpu release that will compile the kernel: a kernel it cannot compile (a
    /// SparseCore kernel before 0.0.41) is refused, naming the first release that can; the
    /// oldest release for the kernel is said on stderr.
    #[arg(long, value_name = "V", value_parser = super::compile::parse_libtpu_version)]
    pub libtpu_version: Option<LibtpuVersion>,
    /// Output file (default stdout); written atomically.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
}

/// Runs `kernel`.
pub fn run(args: Args) -> CliResult {
    let bytes = read_input(&args.kernel)?;
    let ctx = Context::new();
    let kernel =
        Kernel::load(&ctx, &bytes, &source_name(&args.kernel)).map_err(|e| e.to_string())?;
    if let Some(libtpu) = &args.libtpu_version {
        if let Some(warning) = libtpu.warning() {
            eprintln!("warning: {warning}");
        }
        let facts = tpu_custom_call::analysis::analyze(&kernel).map_err(|e| e.to_string())?;
        let params = libtpu.default_params();
        let errors = tpu_custom_call::libtpu::check_release(&facts, &params, libtpu, None);
        if let Some(error) = errors.first() {
            return Err(format!("{}: {error}", source_name(&args.kernel)));
        }
        // The oldest release for the kernel as emitted by default for it.
        let needs = Needs {
            ir_version: tpu_custom_call::serde::LOWEST_IR_VERSION,
            sparse_core: (facts.device_type
                == Some(tpu_custom_call::config::DeviceType::SparseCore))
            .then_some(SparseCore::Megachip),
            ..Needs::default()
        };
        eprintln!(
            "note: libtpu {libtpu} compiles this kernel's calls (the oldest release that does: {})",
            needs.describe_oldest()
        );
    }
    let out = match args.emit {
        Emit::Text if args.pretty => kernel
            .print_pretty(args.debug_info)
            .map_err(|e| e.to_string())?
            .into_bytes(),
        Emit::Text => kernel
            .print(PrintOptions {
                generic: args.generic,
                debug_info: args.debug_info,
            })
            .map_err(|e| e.to_string())?
            .into_bytes(),
        Emit::Bytecode => kernel
            .to_bytecode(&BytecodeOptions {
                version: args.bytecode_version,
                producer: args.producer.clone(),
            })
            .map_err(|e| e.to_string())?,
    };
    write_output(args.output.as_ref(), &out)
}
