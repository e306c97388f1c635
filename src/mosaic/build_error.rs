//! The error of the in-memory kernel builders ([`super::pallas`], [`super::ops`],
//! [`super::upstream`]).

/// Why a kernel function or op could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A kernel argument or window does not fit the kernel's grid or itself.
    #[error("kernel `{kernel}`: {message}")]
    Kernel {
        /// The kernel's name.
        kernel: String,
        /// What is wrong, naming field, value and the fix.
        message: String,
    },
    /// An op's result type could not be inferred from its operands.
    #[error("{op}: {message}")]
    Infer {
        /// The op (`tpu.concatenate`, …).
        op: &'static str,
        /// What is wrong, naming operand, type and the fix.
        message: String,
    },
    /// A Pallas idiom of [`super::pallas::Body`] got operands it cannot
    /// lower (a shape, type or index out of range).
    #[error("kernel `{kernel}`: {op}: {message}")]
    Op {
        /// The kernel's name.
        kernel: String,
        /// The idiom or op (`load`, `vector.multi_reduction`, …).
        op: String,
        /// What is wrong, naming operand, type and the fix.
        message: String,
    },
    /// MLIR rejected the built module (its verifier's diagnostics).
    #[error("kernel `{kernel}` does not verify:\n{diagnostics}")]
    Verify {
        /// The kernel's name.
        kernel: String,
        /// MLIR's diagnostics, one per line.
        diagnostics: String,
    },
}
