//! Command-line interface: one file per subcommand.
//!
//! Exit codes: 0 success; 1 invalid input or parameters (message on stderr,
//! nothing on stdout, no output file); 2 usage errors (clap's own).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::melior::ir::r#type::FunctionType;

mod compile;
mod completions;
mod diff;
mod emit;
mod estimate;
mod inspect;
mod kernel;
mod opt;
mod program;
mod run;
mod targets;
mod validate;
mod values;

/// Lower Mosaic TPU kernels into `stablehlo.custom_call @tpu_custom_call`, as JAX 0.12 does.
#[derive(Parser, Debug)]
#[command(name = "tpu-custom-call", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile StableHLO modules with the real TPU compiler (libtpu through PJRT, no TPU, no Python).
    Compile(compile::Args),
    /// Print a shell completion script.
    Completions(completions::Args),
    /// Compare the tpu_custom_calls of two modules by meaning (exit 0 equal, 1 different, 2 errors).
    Diff(diff::Args),
    /// Lower a Mosaic kernel into a StableHLO module calling it (stablehlo.custom_call @tpu_custom_call).
    Emit(emit::Args),
    /// Estimate how fast each tpu_custom_call runs on a TPU, from libtpu's static model (no TPU); rank several modules.
    Estimate(estimate::Args),
    /// Decode every tpu_custom_call of a StableHLO module (ours or JAX's): config, kernel, parameters.
    Inspect(inspect::Args),
    /// Load a Mosaic kernel, verify it, and print it (text) or write it (bytecode).
    Kernel(kernel::Args),
    /// Run an MLIR pass pipeline (ours and upstream transforms) over a module, mlir-opt style.
    Opt(opt::Args),
    /// Run a module's @main on the CPU (XLA for the StableHLO, the executor for every tpu_custom_call), or one call (--call N).
    Run(run::Args),
    /// Check PARAMS.json (with a kernel, signature and target if given); report every problem.
    Validate(validate::Args),
    /// Show the TPU chips a lowering can target (`--target NAME`): all, or one in full.
    Targets(targets::Args),
}

/// Parses arguments, runs the subcommand, maps errors to exit code 1.
pub fn run() -> ExitCode {
    // The worker process of `compile` (libtpu may abort it, never us).
    if let Some(code) = tpu_custom_call::compile::serve_worker_if_asked() {
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compile(args) => compile::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Diff(args) => return diff::run(args),
        Command::Emit(args) => emit::run(args),
        Command::Estimate(args) => estimate::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Kernel(args) => kernel::run(args),
        Command::Opt(args) => opt::run(args),
        Command::Run(args) => run::run(args),
        Command::Targets(args) => targets::run(args),
        Command::Validate(args) => validate::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// The error type of subcommands: a message for stderr.
pub type CliResult = Result<(), String>;

/// Reads a file, or stdin for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|e| format!("<stdin>: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Parses `--signature`: an MLIR function type, `(operand types) -> result types`.
pub fn parse_signature<'c>(
    ctx: &'c tpu_custom_call::Context,
    text: &str,
) -> Result<(Vec<Type<'c>>, Vec<Type<'c>>), String> {
    tpu_custom_call::kernel::check_nesting(text.as_bytes(), "--signature")
        .map_err(|e| e.to_string())?;
    let (ty, diagnostics) = ctx.capture(|| Type::parse(ctx, text));
    let bad = |detail: String| {
        format!(
            "--signature `{text}` is not an MLIR function type such as \
             '(tensor<8x128xf32>) -> tensor<8x128xf32>'{detail}"
        )
    };
    let ty = ty.ok_or_else(|| {
        bad(diagnostics
            .iter()
            .map(|d| format!(": {}", d.message))
            .collect::<String>())
    })?;
    let function = FunctionType::try_from(ty).map_err(|_| bad(String::new()))?;
    let inputs = (0..function.input_count())
        .map(|i| function.input(i).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let results = (0..function.result_count())
        .map(|i| function.result(i).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    Ok((inputs, results))
}

/// The name an input is called by in messages.
pub fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Writes output to stdout, or atomically to `path` (temporary file in the
/// same folder, then rename), so a failure never leaves a partial file.
pub fn write_output(path: Option<&PathBuf>, bytes: &[u8]) -> CliResult {
    match path {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| format!("<stdout>: {e}"))
        }
        Some(path) if path.as_os_str() == "-" => write_output(None, bytes),
        Some(path) => {
            // Not a regular file (`/dev/null`, a FIFO, a terminal): write to
            // it in place. The atomic rename below would replace the device
            // node or pipe with a regular file (`-o /dev/null` once turned
            // this machine's /dev/null into a file).
            if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
                return std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()));
            }
            // A symlink: replace the file it points to, not the link.
            let resolved;
            let path = if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
                resolved = match std::fs::canonicalize(path) {
                    Ok(target) => target,
                    // A dangling link: create the file it names.
                    Err(_) => {
                        let target = std::fs::read_link(path)
                            .map_err(|e| format!("{}: {e}", path.display()))?;
                        path.parent().unwrap_or(Path::new(".")).join(target)
                    }
                };
                &resolved
            } else {
                path
            };
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let file_name = path
                .file_name()
                .ok_or_else(|| format!("{}: not a file path", path.display()))?;
            let tmp = dir.join(format!(
                ".{}.tmp{}",
                file_name.to_string_lossy(),
                std::process::id()
            ));
            let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
            if let Err(e) = result {
                let _ = std::fs::remove_file(&tmp);
                return Err(format!("{}: {e}", path.display()));
            }
            Ok(())
        }
    }
}
