//! Facts JAX derives from a Mosaic kernel before building its config:
//! communication, custom barrier, device type and active core count.

use crate::config::DeviceType;

/// What the lowering needs to know about a kernel (JAX's `has_communication`,
/// `has_custom_barrier`, `_get_device_type` and `_get_active_core_count`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelFacts {
    /// The kernel uses remote DMAs or semaphores on other devices.
    pub has_communication: bool,
    /// The kernel uses the barrier semaphore (needs a collective id).
    pub has_custom_barrier: bool,
    /// `Some(SparseCore)` when a function has a SparseCore `tpu.core_type`;
    /// `None` for TensorCore kernels (JAX leaves the field unset then).
    pub device_type: Option<DeviceType>,
    /// Cores used by a core-parallel dimension, when the kernel has one.
    pub active_core_count: Option<u64>,
}
