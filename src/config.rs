//! The `backend_config` model (JAX 0.12's `CustomCallBackendConfig`), its
//! byte-exact JSON writer and its reader.

/// Which TPU core kind a kernel runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// A TensorCore kernel (`tpu.core_type<tc>`).
    TensorCore,
    /// A SparseCore kernel (scalar or vector subcore).
    SparseCore,
}

/// A memory space a kernel operand or result lives in, with the color the TPU
/// compiler reads (JAX's `tpu_custom_call.MemorySpace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemorySpace {
    /// High-bandwidth memory (color 0).
    Hbm,
    /// Vector memory (color 1).
    Vmem,
    /// Semaphore memory (color 2).
    SemaphoreMem,
    /// Scalar memory (color 4).
    Smem,
    /// Host memory (color 5).
    Host,
    /// SparseCore scalar-subcore semaphore memory (color 8).
    ScScalarSemaphoreMem,
    /// SparseCore vector-subcore semaphore memory (color 10).
    ScVectorSemaphoreMem,
    /// SparseCore scalar-subcore SMEM (color 11).
    ScScalarSmem,
    /// SparseCore vector-subcore SMEM (color 12).
    ScVectorSmem,
}

impl MemorySpace {
    /// The color the TPU compiler reads.
    pub const fn color(self) -> u32 {
        match self {
            MemorySpace::Hbm => 0,
            MemorySpace::Vmem => 1,
            MemorySpace::SemaphoreMem => 2,
            MemorySpace::Smem => 4,
            MemorySpace::Host => 5,
            MemorySpace::ScScalarSemaphoreMem => 8,
            MemorySpace::ScVectorSemaphoreMem => 10,
            MemorySpace::ScScalarSmem => 11,
            MemorySpace::ScVectorSmem => 12,
        }
    }
}
