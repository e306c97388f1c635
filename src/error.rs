//! The crate-level error: one variant per layer, each wrapping that layer's
//! own `#[non_exhaustive]` enum so callers can match on structured fields.

use crate::config::ConfigError;
use crate::kernel::KernelError;
use crate::params::ParamsError;

/// Any error this crate returns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Loading, printing or writing a kernel module.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Building, validating, writing or reading a backend config.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Reading a PARAMS.json document.
    #[error(transparent)]
    Params(#[from] ParamsError),
}
