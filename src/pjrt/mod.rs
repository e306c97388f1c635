//! PJRT runtimes through the PJRT C API: one hand-written binding
//! (`src/pjrt/api.rs`) that both libtpu (the TPU compiler, run in the compile worker
//! by [`crate::compile`]) and XLA's CPU plugin use.
//!
//! The CPU plugin runs whole StableHLO programs in this process:
//! [`CpuClient`] compiles a module with XLA's CPU compiler (SPMD-partitioned
//! over several CPU devices when asked) and [`Executable::execute`] runs it
//! on host arrays. The plugin is the official `xla-cpu-pjrt` wheel
//! ([`CPU_PLUGIN_VERSION`], PJRT C API 0.81), installed once by
//! `scripts/pjrt/install-cpu-plugin.sh` (`make refs`) and found by
//! [`find_cpu_plugin`]. Custom calls of a module run handlers written in
//! Rust, registered with [`CpuClient::register_ffi_handler`] through the
//! plugin's FFI extension; [`ffi`] has the XLA FFI C ABI they are written
//! against.
//!
//! ```no_run
//! use tpu_custom_call::exec::{Array, ElemType};
//! use tpu_custom_call::pjrt::{self, CpuClient, ProgramOptions};
//!
//! let plugin = pjrt::find_cpu_plugin(None)?;
//! let client = CpuClient::new(&plugin, 1)?;
//! let module = br#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
//!   %0 = stablehlo.add %x, %x : tensor<4xf32>
//!   return %0 : tensor<4xf32>
//! }"#;
//! let executable = client.compile(module, &ProgramOptions::default())?;
//! let x = Array::filled(ElemType::F32, &[4], 1.5);
//! let results = executable.execute(&[vec![x]])?;
//! assert_eq!(results[0][0].data.get_f64(0), 3.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod api;
#[cfg(feature = "exec")]
mod cpu;
pub mod ffi;
#[cfg(feature = "exec")]
mod hlo;
#[cfg(feature = "exec")]
mod host;
pub(crate) mod options;

use std::path::{Path, PathBuf};

pub use api::MemoryStats;
#[cfg(feature = "exec")]
pub use cpu::{CpuClient, Executable, FfiHandler, Partitioner, ProgramOptions};

/// The release of the `xla-cpu-pjrt` wheel (PyPI) whose plugin this crate
/// runs programs with.
pub const CPU_PLUGIN_VERSION: &str = "0.0.1";

/// The environment variable naming another PJRT CPU plugin (a `.so` that
/// exports `GetPjrtApi`).
pub const CPU_PLUGIN_ENV: &str = "TPU_CUSTOM_CALL_PJRT_CPU";

/// Why a PJRT runtime could not do what was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PjrtError {
    /// No CPU plugin where it was looked for.
    #[error(
        "the XLA CPU PJRT plugin was not found (looked at {}); install it with \
         scripts/pjrt/install-cpu-plugin.sh (or `make refs`), which keeps xla_cpu_pjrt.so from the \
         xla-cpu-pjrt {CPU_PLUGIN_VERSION} wheel on PyPI in \
         ~/.cache/tpu-custom-call/xla-cpu-pjrt/{CPU_PLUGIN_VERSION}/, or name a plugin with \
         {CPU_PLUGIN_ENV}",
        .searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    PluginNotFound {
        /// The paths tried, in order.
        searched: Vec<PathBuf>,
    },
    /// The plugin failed to load, create a client, or do a runtime step;
    /// the plugin's message.
    #[error("{0}")]
    Plugin(String),
    /// XLA refused to compile the module: its message.
    #[error("XLA refused the module: {0}")]
    Compile(String),
    /// The arguments do not fit the program (count, dtype, shape): names
    /// the argument.
    #[error("{0}")]
    Argument(String),
    /// The execution failed (a custom call's handler included): XLA's
    /// message.
    #[error("execution failed: {0}")]
    Execute(String),
    /// Something the program or the plugin does that this runtime does not
    /// support (tuple results, element types without a host counterpart).
    #[error("{0}")]
    Unsupported(String),
}

/// Where `scripts/pjrt/install-cpu-plugin.sh` keeps the CPU plugin:
/// `~/.cache/tpu-custom-call/xla-cpu-pjrt/0.0.1/xla_cpu_pjrt.so`.
pub fn cached_cpu_plugin() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    Some(
        PathBuf::from(home)
            .join(".cache/tpu-custom-call/xla-cpu-pjrt")
            .join(CPU_PLUGIN_VERSION)
            .join("xla_cpu_pjrt.so"),
    )
}

/// Finds the PJRT CPU plugin: `explicit`, else the path in
/// `TPU_CUSTOM_CALL_PJRT_CPU`, else [`cached_cpu_plugin`]. The first of
/// these that is given must exist: an explicit path or variable naming a
/// missing file is an error, not a fall-through.
pub fn find_cpu_plugin(explicit: Option<&Path>) -> Result<PathBuf, PjrtError> {
    let given = explicit.map(Path::to_path_buf).or_else(|| {
        std::env::var_os(CPU_PLUGIN_ENV)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    });
    let path = match given {
        Some(path) => path,
        None => cached_cpu_plugin().ok_or_else(|| PjrtError::PluginNotFound {
            searched: vec![PathBuf::from(format!(
                "~/.cache/tpu-custom-call/xla-cpu-pjrt/{CPU_PLUGIN_VERSION}/xla_cpu_pjrt.so (HOME is not set)"
            ))],
        })?,
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(PjrtError::PluginNotFound {
            searched: vec![path],
        })
    }
}
