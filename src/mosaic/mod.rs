//! The Mosaic (Pallas TPU) side: the `tpu` dialect's vocabulary, shared by
//! every layer that reads or writes kernels.

pub mod vocab;

pub use vocab::{MAX_TEXT_NESTING, MEMORY_SPACES, TpuMemorySpace};
