//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.

use crate::analysis::AnalysisError;
use crate::kernel::KernelError;
use crate::serde::SerdeError;

/// Any error this crate returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading, printing or writing a kernel module.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Serializing or deserializing a Mosaic kernel.
    #[error(transparent)]
    Serde(#[from] SerdeError),
    /// Deriving facts (communication, device type, core count) from a kernel.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
}
