//! The Mosaic (Pallas TPU) side. A leaf of the crate (it imports only
//! `context`): the `tpu` dialect's vocabulary ([`vocab`]), shared by every
//! layer that reads or writes kernels; and building kernels in memory: typed
//! attributes and types ([`attrs`]), one builder per `tpu` op ([`ops`]), and
//! the Pallas kernel function with its grid and windows ([`pallas`]).

pub mod attrs;
mod build_error;
pub mod ops;
pub mod pallas;
mod support;
pub mod upstream;
pub mod vocab;

pub use build_error::BuildError;
pub use vocab::{MAX_TEXT_NESTING, MEMORY_SPACES, TpuMemorySpace};
