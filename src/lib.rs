#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
pub mod config;
pub mod context;
pub mod error;
pub mod kernel;
pub mod serde;

pub use analysis::{AnalysisError, analyze};
pub use context::{Context, Diagnostic, Severity};
pub use error::Error;
pub use kernel::{BytecodeOptions, Kernel, KernelError, PrintOptions};
pub use serde::{DebugLocations, SerdeError, SerializeOptions, Serialized, deserialize, serialize};
