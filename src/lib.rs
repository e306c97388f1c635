#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
pub mod config;
pub mod context;
pub mod decode;
pub mod emit;
pub mod error;
pub mod kernel;
pub mod pretty;

/// The melior version this crate builds on (types and values of its API).
pub use melior;

pub use context::{Context, Diagnostic, Severity};
pub use error::Error;
pub use kernel::{BytecodeOptions, Kernel, KernelError, PrintOptions};
