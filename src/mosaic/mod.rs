//! The Mosaic `tpu` dialect of jaxlib 0.12, known to the crate: its op table
//! ([`dialect`]) and a verifier that checks kernels as jaxlib does ([`verify`]).

pub mod dialect;
mod types;
mod verifiers;
pub mod verify;
