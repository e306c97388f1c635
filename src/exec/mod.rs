//! Executing Mosaic kernels on the CPU: the numbers a `tpu_custom_call`
//! computes, without a TPU.
//!
//! A kernel is compiled once ([`Execution::new`]) from its module into a
//! program the interpreter runs without calling back into MLIR; then
//! [`Execution::run`] runs the call on host arrays with the semantics of a
//! Pallas TPU call, as JAX's Pallas TPU interpret mode does:
//!
//! - the grid in row-major order, one grid point at a time (the `parallel`
//!   dimensions in a seeded random order with [`RunOptions::seed`]);
//! - each operand's block copied into its VMEM/SMEM buffer before the body
//!   when its block index changed, and each result's block written back when
//!   the next grid point moves to another block (or at the end); operands are
//!   padded to whole blocks with uninitialised values, so partial last blocks
//!   read NaN (or the largest integer) past the array;
//! - operands in `ANY`/HBM passed whole; scalar prefetch in SMEM; scratch
//!   operands kept across grid points; results aliased to operands start as
//!   those operands;
//! - DMAs complete when started (a valid schedule of a TPU's asynchronous
//!   copies; kernels whose result depends on the schedule race on a TPU too),
//!   DMA semaphores count bytes, semaphore waits block until signalled (an
//!   error if they never can be), DMAs still unwaited at the end are errors;
//! - several devices ([`Execution::run_devices`]) run at once, one thread
//!   each, with remote DMAs and semaphore signals between them.
//!
//! Numerics: `f32`/`f64` as the CPU computes them; `bf16`, `f16` and `f8`
//! rounded to nearest even after every op; integers wrap at their width;
//! `tpu.matmul` accumulates in `f32` (exact products of narrower floats).

mod array;
mod call;
mod compare;
mod dtype;
mod eval;
mod machine;
pub mod npy;
mod ops;
mod program;

use std::fmt;

pub use array::{Array, Data};
pub use call::{CallShape, DYNAMIC_DIM, Execution, TensorType, random_inputs};
pub use compare::{Mismatch, compare, compare_behaviour};
pub use dtype::ElemType;
pub use machine::Uninitialized;

/// Called after each grid point with (points done, points in all) and the
/// device: [`RunOptions::progress`].
pub type Progress = std::sync::Arc<dyn Fn(u64, u64, usize) + Send + Sync>;

/// How a run executes.
#[derive(Clone)]
pub struct RunOptions {
    /// Visit the `parallel` grid dimensions in a random order from this
    /// seed (each dimension's coordinates permuted), as JAX's interpret
    /// mode does with `random_seed`: exposes kernels that depend on order.
    pub seed: Option<u64>,
    /// What memory holds before it is written.
    pub uninitialized: Uninitialized,
    /// Round a float multiply whose only use is an add or subtract once,
    /// as one fused multiply-add. XLA on a CPU contracts such pairs, so
    /// JAX's interpret mode computes them that way; off by default: each op
    /// rounds as the kernel states it.
    pub fuse_multiply_add: bool,
    /// Told after every grid point (the CLI shows progress on a terminal).
    pub progress: Option<Progress>,
    /// Stop with an error after this many ops on a device (a bound for
    /// untrusted kernels: a fuzzer's, a service's). `None`: no limit.
    pub max_ops: Option<u64>,
    /// Refuse buffers beyond this many bytes in all (operands, blocks,
    /// scratch; values of every device). `None`: no limit.
    pub max_bytes: Option<u64>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: None,
            uninitialized: Uninitialized::Nan,
            fuse_multiply_add: false,
            progress: None,
            max_ops: None,
            max_bytes: None,
        }
    }
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("seed", &self.seed)
            .field("uninitialized", &self.uninitialized)
            .field("fuse_multiply_add", &self.fuse_multiply_add)
            .field("progress", &self.progress.is_some())
            .field("max_ops", &self.max_ops)
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

/// Why a kernel could not be executed, or what it did wrong while running:
/// the op, its location in the kernel, the grid point and the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// What went wrong.
    pub message: String,
    /// The op (`tpu.matmul`), when one is to blame.
    pub op: Option<String>,
    /// The op's location, as MLIR prints it.
    pub location: Option<String>,
    /// The grid point being executed.
    pub grid_point: Option<Vec<i64>>,
    /// The device, in runs with several.
    pub device: Option<usize>,
}

impl ExecError {
    pub(crate) fn new(message: impl Into<String>) -> ExecError {
        ExecError {
            message: message.into(),
            op: None,
            location: None,
            grid_point: None,
            device: None,
        }
    }

    pub(crate) fn at(message: String, op: String, location: String) -> ExecError {
        ExecError {
            message,
            op: Some(op),
            location: (!location.is_empty()).then_some(location),
            grid_point: None,
            device: None,
        }
    }

    pub(crate) fn with_point(mut self, point: &[i64], device: Option<usize>) -> ExecError {
        if self.grid_point.is_none() {
            self.grid_point = Some(point.to_vec());
        }
        if self.device.is_none() {
            self.device = device;
        }
        self
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.op {
            Some(op) if !self.message.starts_with(&format!("`{op}`")) => {
                write!(f, "`{op}`: {}", self.message)?
            }
            _ => f.write_str(&self.message)?,
        }
        if let Some(loc) = &self.location {
            write!(f, " at {loc}")?;
        }
        let mut ctx = Vec::new();
        if let Some(p) = &self.grid_point {
            ctx.push(format!(
                "grid point ({})",
                p.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(d) = self.device {
            ctx.push(format!("device {d}"));
        }
        if !ctx.is_empty() {
            write!(f, " [{}]", ctx.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for ExecError {}
