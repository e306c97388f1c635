//! The Mosaic (Pallas TPU) side: the `tpu` dialect of jaxlib 0.12, known to the
//! crate. A leaf of the crate (it imports only `context` and `ffi`): the
//! dialect's vocabulary ([`vocab`]), shared by every layer that reads or writes
//! kernels; building kernels in memory: typed attributes and types ([`attrs`]),
//! one builder per `tpu` op ([`ops`]), typed builders for the upstream ops
//! Pallas uses ([`upstream`]), and the Pallas kernel function with its grid and
//! windows and the Pallas idioms to write its body ([`pallas`]); checking them
//! as jaxlib does: the op table ([`dialect`]) and the verifier ([`verify`]).

pub mod attrs;
mod body;
mod build_error;
pub mod dialect;
mod dma_options;
pub(crate) mod hints;
mod op_options;
pub mod ops;
pub mod pallas;
mod pipeline;
mod support;
mod syntax;
pub(crate) mod types;
pub mod upstream;
mod verifiers;
pub mod verify;
pub mod vocab;

pub use build_error::BuildError;
pub use vocab::{MAX_TEXT_NESTING, MEMORY_SPACES, TpuMemorySpace};
