//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.
//!
//! The errors of the layers above this module live here, so that the crate
//! error can name them without an import cycle: [`RuleError`] (the rules
//! `validate` checks, re-exported as `validate::RuleError`) and
//! [`PlaceholderError`] (the pipeline pass).

mod rule;

pub use rule::RuleError;

use crate::analysis::AnalysisError;
use crate::bytecode::TranscodeError;
use crate::config::{ReadError, WriteError};
use crate::contract::ContractError;
use crate::decode::DecodeError;
use crate::diff::DiffError;
use crate::emit::EmitError;
use crate::kernel::KernelError;
use crate::libtpu::LibtpuError;
use crate::params::ParamsError;
use crate::pretty::PrettyError;
use crate::serde::SerdeError;
use crate::target::TargetError;

/// Any error this crate returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading, printing or writing a kernel module.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// A pipeline pass could not read a `tpu_custom_call.call` placeholder.
    #[error(transparent)]
    Pass(#[from] PlaceholderError),
    /// Building the `stablehlo.custom_call` op.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// Finding and reading `tpu_custom_call` ops in a module.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An unknown target, or a kernel that does not fit its target chip.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A rule of JAX's or ours the call breaks (parameters, collective ids,
    /// aliases, per-operand lists).
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// Writing a backend_config JSON document.
    #[error(transparent)]
    ConfigWrite(#[from] WriteError),
    /// A call libtpu (the TPU compiler) would refuse at compile time.
    #[error(transparent)]
    Libtpu(#[from] LibtpuError),
    /// Reading a backend_config JSON document.
    #[error(transparent)]
    ConfigRead(#[from] ReadError),
    /// Reading a PARAMS.json document.
    #[error(transparent)]
    Params(#[from] Box<ParamsError>),
    /// Reading or transcoding MLIR bytecode.
    #[error(transparent)]
    Bytecode(#[from] TranscodeError),
    /// Serializing or deserializing a Mosaic kernel.
    #[error(transparent)]
    Serde(#[from] SerdeError),
    /// Deriving facts (communication, device type, core count) from a kernel.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// The call does not match its kernel, or the kernel not the chip's
    /// scoped VMEM.
    #[error(transparent)]
    Contract(#[from] Box<ContractError>),
    /// Reading `tpu` ops written in custom (pretty) syntax.
    #[error(transparent)]
    Pretty(#[from] PrettyError),
    /// Comparing two modules' calls (bad options).
    #[error(transparent)]
    Diff(#[from] Box<DiffError>),
}

// The larger layers' errors are boxed (the crate error stays small).
impl From<ContractError> for Error {
    fn from(e: ContractError) -> Self {
        Error::Contract(Box::new(e))
    }
}

impl From<ParamsError> for Error {
    fn from(e: ParamsError) -> Self {
        Error::Params(Box::new(e))
    }
}

impl From<DiffError> for Error {
    fn from(e: DiffError) -> Self {
        Error::Diff(Box::new(e))
    }
}

/// Why the lowering pass could not read a `tpu_custom_call.call` placeholder
/// (or find its kernel); each message starts with the placeholder's op name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlaceholderError {
    /// `kernel = ...` is not a flat symbol reference.
    #[error(
        "tpu_custom_call.call: `kernel = {attribute}` must be a symbol reference (`kernel = @name`)"
    )]
    KernelNotSymbol {
        /// The attribute as printed.
        attribute: String,
    },
    /// No `kernel = @name` attribute.
    #[error("tpu_custom_call.call: has no `kernel = @name` attribute")]
    MissingKernel,
    /// An attribute of the wrong kind for its PARAMS.json key (the message
    /// names the attribute, the expected kind and the given one).
    #[error("tpu_custom_call.call: {message}")]
    AttributeKind {
        /// What is wrong, in words.
        message: String,
    },
    /// An attribute with no PARAMS.json counterpart value.
    #[error("tpu_custom_call.call: parameter `{name}`: {message}")]
    Parameter {
        /// The attribute's name.
        name: String,
        /// What is wrong, in words.
        message: String,
    },
    /// `kernel = @name` names no module nested in the pipeline's module.
    #[error("tpu_custom_call.call: kernel `@{kernel}` is not a module nested in this module")]
    KernelNotNested {
        /// The kernel's symbol name.
        kernel: String,
    },
    /// `@name` is nested but not a `builtin.module`.
    #[error("tpu_custom_call.call: `@{kernel}` is not a builtin.module")]
    KernelNotModule {
        /// The kernel's symbol name.
        kernel: String,
    },
}
