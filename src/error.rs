//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.

use crate::analysis::AnalysisError;
use crate::bytecode::TranscodeError;
use crate::config::ConfigError;
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
    /// A pipeline pass could not do its job (bad placeholder, bad option).
    #[error("{0}")]
    Pass(String),
    /// Building the `stablehlo.custom_call` op.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// Finding and reading `tpu_custom_call` ops in a module.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An unknown target, or a kernel that does not fit its target chip.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// Building, validating, writing or reading a backend config.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A call libtpu (the TPU compiler) would refuse at compile time.
    #[error(transparent)]
    Libtpu(#[from] LibtpuError),
    /// Reading a PARAMS.json document.
    #[error(transparent)]
    Params(#[from] ParamsError),
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
    Diff(#[from] DiffError),
}

impl From<ContractError> for Error {
    fn from(e: ContractError) -> Self {
        Error::Contract(Box::new(e))
    }
}
