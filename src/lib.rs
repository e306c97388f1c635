#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod analysis;
pub mod bytecode;
pub mod config;
pub mod context;
pub mod error;
pub mod kernel;

pub use bytecode::{Encodings, TranscodeError};
pub use context::{Context, Diagnostic, Severity};
pub use error::Error;
pub use kernel::{BytecodeOptions, Kernel, KernelError, PrintOptions};
