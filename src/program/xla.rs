//! The program's side of PJRT: the process's shared CPU client of the
//! plugin (our handler registered on it once), compiling the rewritten
//! module, executing it. Everything PJRT is `crate::pjrt`'s; this file only
//! adapts it.

use crate::exec::Array;
use crate::pjrt::{self, CpuClient, Executable};

use super::ProgramOptions;
use super::rewrite::FFI_TARGET;

/// A compiled program.
pub(crate) struct Compiled {
    /// XLA's executable (it keeps its client alive).
    pub executable: Executable,
}

/// Compiles the rewritten module text for `options.devices` devices.
pub(crate) fn compile(text: &str, options: &ProgramOptions) -> Result<Compiled, String> {
    let plugin = pjrt::find_cpu_plugin(options.plugin.as_deref()).map_err(|e| e.to_string())?;
    let client = CpuClient::shared(&plugin, options.devices).map_err(|e| e.to_string())?;
    client
        .register_ffi_handler(FFI_TARGET, super::handler::handler)
        .map_err(|e| e.to_string())?;
    let executable = client
        .compile(
            text.as_bytes(),
            &pjrt::ProgramOptions {
                num_partitions: options.devices,
                ..pjrt::ProgramOptions::default()
            },
        )
        .map_err(|e| e.to_string())?;
    Ok(Compiled { executable })
}

/// Runs a compiled program: `args[device][parameter]` in,
/// `results[device][output]` out.
pub(crate) fn execute(c: &Compiled, args: &[Vec<Array>]) -> Result<Vec<Vec<Array>>, String> {
    c.executable.execute(args).map_err(|e| e.to_string())
}
