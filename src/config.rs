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
