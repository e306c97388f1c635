//! The Mosaic (`tpu` dialect) of jaxlib 0.12, known to the crate.
//!
//! Building kernels in memory: typed attributes and types ([`attrs`]), one
//! builder per `tpu` op ([`ops`]), and the Pallas kernel function with its
//! grid and windows ([`pallas`]). Checking them as jaxlib does: the op table
//! ([`dialect`]) and the verifier ([`verify`]).

pub mod attrs;
mod build_error;
pub mod dialect;
pub mod ops;
pub mod pallas;
mod support;
mod types;
pub mod upstream;
mod verifiers;
pub mod verify;

pub use build_error::BuildError;
