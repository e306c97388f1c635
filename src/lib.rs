#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
pub mod bytecode;
#[cfg(feature = "pjrt")]
pub mod compile;
pub mod config;
pub mod context;
pub mod contract;
pub mod decode;
pub mod diff;
pub mod emit;
pub mod error;
#[cfg(feature = "exec")]
pub mod exec;
mod ffi;
pub mod kernel;
pub mod libtpu;
pub mod lower;
pub mod mosaic;
pub mod params;
pub mod pass;
#[cfg(feature = "pjrt")]
pub mod pjrt;
pub mod pretty;
#[cfg(all(feature = "exec", feature = "pjrt"))]
pub mod program;
pub mod serde;
pub mod spelling;
pub mod stablehlo;
pub mod target;
pub mod testing;
pub mod validate;

/// The melior version this crate builds on (types and values of its API).
pub use melior;

pub use analysis::{AnalysisError, analyze};
pub use bytecode::{Encodings, TranscodeError};
pub use config::{
    BackendConfig, CostEstimate, DeviceType, FlagValue, MemorySpace, OptLevel, ReadError,
    ReadReport, Tiling, WriteError,
};
pub use context::{Context, Diagnostic, Severity};
pub use contract::{ContractError, ContractReport, check_call};
pub use error::{Error, PlaceholderError};
pub use kernel::interop;
pub use kernel::{BytecodeOptions, Kernel, KernelError, PrintOptions};
pub use lower::{LowerOptions, Lowerer};
pub use params::{DebugLocations, ParamKey, Params, ParamsError, SideEffect};
pub use serde::{SerdeError, SerializeOptions, Serialized, deserialize, serialize};
pub use target::{Chip, ChipInfo, TargetError, TargetQuery};
pub use validate::{
    AutoAssignMode, CollectiveIds, RuleError, Signature, ValidateOptions, ValidatedCall,
    lower_config, lower_config_in_module, problems, validate, validate_with,
};
