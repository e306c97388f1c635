//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.

use crate::bytecode::TranscodeError;
use crate::kernel::KernelError;

/// Any error this crate returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading, printing or writing a kernel module.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Reading or transcoding MLIR bytecode.
    #[error(transparent)]
    Bytecode(#[from] TranscodeError),
}
