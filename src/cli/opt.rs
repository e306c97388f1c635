//! `tpu-custom-call opt`: run an MLIR pass pipeline (upstream transforms and
//! ours) over a module, mlir-opt style. It reads what JAX prints
//! (`Lowered.as_text()`) and prints it back as jaxlib does: with an empty
//! pipeline, `opt` reprints a JAX module as `get_asm()` prints it.

use std::path::PathBuf;

use tpu_custom_call::melior::pass::PassManager;
use tpu_custom_call::melior::utility::parse_pass_pipeline;
use tpu_custom_call::{BytecodeOptions, Context, PrintOptions, kernel, pass};

use super::{CliResult, read_input, source_name, write_output};

/// Output format.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Emit {
    /// MLIR text.
    Text,
    /// MLIR bytecode (newest format version of this MLIR).
    Bytecode,
}

/// Arguments of `opt`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Passes: tpu-custom-call-lower{ir-version=N debug-locations=unzip|inline|strip target=CHIP producer=STR},\n\
tpu-custom-call-verify{target=CHIP}, and MLIR's transforms (canonicalize, cse, symbol-dce, inline, ...).\n\n\
Examples:\n  \
tpu-custom-call opt model.mlir --pass-pipeline 'builtin.module(tpu-custom-call-lower,canonicalize)' -o lowered.mlir\n  \
tpu-custom-call opt jax_module.mlir --pass-pipeline 'builtin.module(tpu-custom-call-verify{target=v5p})'\n  \
tpu-custom-call opt jax_module.mlir --pass-pipeline 'builtin.module()' --generic   # jaxlib's print_generic_op_form=True\n  \
tpu-custom-call opt client.mlir --pass-pipeline 'builtin.module()' --reserialize-bodies -o jax_form.mlir   # text bodies as JAX's bytecode"
)]
pub struct Args {
    /// Input module: MLIR text as JAX prints it (`Lowered.as_text()`: every op pretty where the dialects here know its syntax, see `opt --help`) or generic; or bytecode; `-` for stdin.
    pub input: PathBuf,
    /// The pipeline, anchored on the module: 'builtin.module(pass1,pass2{opt=v})'.
    #[arg(long)]
    pub pass_pipeline: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub emit: Emit,
    /// Print every op in generic form (default: pretty, as jaxlib prints; `tpu` ops included).
    #[arg(long)]
    pub generic: bool,
    /// Print locations.
    #[arg(long)]
    pub debug_info: bool,
    /// Output file (default stdout); written only on success, atomically.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// After the pipeline, re-serialize every plain call body (MLIR text or bytecode without
    /// `serialization_format`, as hand-written clients write) as JAX writes one: mosaic-serde
    /// bytecode at this IR version (11..18; JAX 0.12's default 15), `serialization_format` 1;
    /// the kernel's own `stable_mosaic.version` is replaced (said on stderr). Without it every
    /// body is kept byte for byte.
    #[arg(long, value_name = "IR_VERSION", num_args = 0..=1, default_missing_value = "15")]
    pub reserialize_bodies: Option<u32>,
}

/// Runs `opt`.
pub fn run(args: Args) -> CliResult {
    let bytes = read_input(&args.input)?;
    let name = source_name(&args.input);
    let ctx = Context::new();
    let mut module =
        tpu_custom_call::interop::read_module(&ctx, &bytes, &name).map_err(|e| e.to_string())?;
    pass::register_passes();
    let manager = PassManager::new(&ctx);
    let (parsed, diagnostics) = ctx
        .capture(|| parse_pass_pipeline(manager.as_operation_pass_manager(), &args.pass_pipeline));
    if let Err(e) = parsed {
        let mut message = format!("--pass-pipeline: {e}");
        for d in diagnostics {
            message.push_str(&format!("\n{d}"));
        }
        return Err(message);
    }
    let (ran, diagnostics) = ctx.capture(|| manager.run(&mut module));
    if ran.is_err() {
        let mut message = format!("{name}: pass pipeline failed");
        for d in diagnostics {
            message.push_str(&format!("\n{name}:{d}"));
        }
        return Err(message);
    }
    for d in diagnostics {
        eprintln!("{name}:{d}");
    }
    if let Some(ir_version) = args.reserialize_bodies {
        let done = tpu_custom_call::decode::reserialize_plain_bodies(
            &ctx,
            module.as_operation(),
            ir_version,
        )
        .map_err(|e| format!("{name}: --reserialize-bodies: {e}"))?;
        for call in &done {
            eprintln!(
                "note: {name}: tpu_custom_call #{}: plain body re-serialized as mosaic-serde bytecode at \
                 version {}, serialization_format 1 (its stable_mosaic.version = {} replaced)",
                call.index,
                call.ir_version,
                call.version_attribute.as_deref().unwrap_or("(none)")
            );
        }
    }
    let out = match args.emit {
        Emit::Text if args.generic => kernel::print_module(
            &module,
            PrintOptions {
                generic: true,
                debug_info: args.debug_info,
            },
        )
        .map_err(|e| e.to_string())?
        .into_bytes(),
        Emit::Text => kernel::print_module_pretty(&module, args.debug_info)
            .map_err(|e| e.to_string())?
            .into_bytes(),
        Emit::Bytecode => kernel::module_bytecode(&module, &BytecodeOptions::default())
            .map_err(|e| e.to_string())?,
    };
    write_output(args.output.as_ref(), &out)
}
