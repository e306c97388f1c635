#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
pub mod config;
pub mod context;
pub mod error;
pub mod kernel;
pub mod params;
pub mod validate;

pub use config::{
    BackendConfig, ConfigError, CostEstimate, DeviceType, FlagValue, MemorySpace, OptLevel,
    ReadReport, Tiling,
};
pub use context::{Context, Diagnostic, Severity};
pub use error::Error;
pub use kernel::{BytecodeOptions, Kernel, KernelError, PrintOptions};
pub use params::{DebugLocations, Params, ParamsError, SideEffect};
pub use validate::{
    AutoAssignMode, CollectiveIds, check_signature, lower_config, lower_config_in_module,
    validate_all,
};
