//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.

use crate::decode::DecodeError;
use crate::emit::EmitError;
use crate::kernel::KernelError;
use crate::pretty::PrettyError;

/// Any error this crate returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading, printing or writing a kernel module.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Building the `stablehlo.custom_call` op.
    #[error(transparent)]
    Emit(#[from] EmitError),
    /// Finding and reading `tpu_custom_call` ops in a module.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Reading `tpu` ops written in custom (pretty) syntax.
    #[error(transparent)]
    Pretty(#[from] PrettyError),
}
