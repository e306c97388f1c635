//! Building Mosaic (`tpu` dialect) kernels in memory: typed attributes and
//! types ([`attrs`]), one builder per `tpu` op ([`ops`]), and the Pallas
//! kernel function with its grid and windows ([`pallas`]).

pub mod attrs;
mod build_error;
pub mod ops;
pub mod pallas;
mod support;
pub mod upstream;

pub use build_error::BuildError;
