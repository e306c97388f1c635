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
//! - DMAs copy at their start, at their wait, or at a random time between
//!   ([`RunOptions::dma`]); DMA semaphores count bytes, semaphore waits block
//!   until signalled (an error if they never can be), DMAs still unwaited
//!   at the end are errors; [`RunOptions::detect_races`] reports accesses to
//!   memory a DMA in flight reads or writes;
//! - an output block visited again after the grid left it is an error (a
//!   TPU would lose the first visit's writes);
//!   [`RunOptions::detect_uninitialized`] names the first read of memory
//!   nothing wrote; [`RunOptions::cores`] splits the leading `parallel`
//!   dimension between TensorCores with separate VMEM (megacore);
//! - several devices ([`Execution::run_devices`]) run at once, one thread
//!   each, with remote DMAs and semaphore signals between them.
//!
//! Numerics: `f32`/`f64` as the CPU computes them, `f32`/`bf16`
//! subnormals flushed to zero ([`RunOptions::subnormals`]); `bf16`, `f16` and `f8`
//! rounded to nearest even after every op; integers wrap at their width;
//! `tpu.matmul` accumulates in `f32` (exact products of narrower floats).

mod array;
mod call;
mod compare;
mod dtype;
mod eval;
pub mod host;
mod jit;
mod machine;
pub mod npy;
mod ops;
mod program;
mod races;

use std::fmt;

pub use array::{Array, Data};
pub use call::{CallShape, DYNAMIC_DIM, Execution, TensorType, random_inputs};
pub use compare::{Mismatch, compare, compare_behaviour, compare_behaviour_on_devices};
pub use dtype::ElemType;
pub use jit::{clear_cache as clear_jit_cache, equality, set_guard_pages as set_jit_guard_pages};
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
    /// What `f32`/`bf16` arithmetic does with subnormal numbers: flushed
    /// to zero by default, as a TPU's vector unit and JAX's interpret mode
    /// (XLA on a CPU) do.
    pub subnormals: Subnormals,
    /// When a DMA copies its data (local and remote DMAs alike).
    pub dma: DmaTiming,
    /// Report races: an access to a region while a DMA into it is in
    /// flight, or a write to a region while a DMA out of it is in flight
    /// (started and not yet waited for), on any device. Found races end
    /// the run with an error listing each (both ops, their locations and
    /// grid points).
    pub detect_races: bool,
    /// Track which elements of scratch buffers, output blocks, HBM outputs
    /// and scoped buffers were written: the first op that reads an
    /// unwritten element ends the run with an error naming it, the buffer,
    /// the element and the grid point; [`RunReport::unwritten`] counts the
    /// result elements nothing wrote.
    pub detect_uninitialized: bool,
    /// TensorCores sharing the grid (megacore: v4 and v5p have 2): the
    /// leading `parallel` grid dimension is split into contiguous ranges,
    /// one per core, each core with its own VMEM blocks and scratch, as the
    /// TPU runs it. 1 (the default) runs the whole grid on one core.
    pub cores: usize,
    /// Told after every grid point (the CLI shows progress on a terminal).
    pub progress: Option<Progress>,
    /// Stop with an error after this many ops on a device (a bound for
    /// untrusted kernels: a fuzzer's, a service's). `None`: no limit.
    pub max_ops: Option<u64>,
    /// Refuse buffers beyond this many bytes in all (operands, blocks,
    /// scratch; values of every device). `None`: no limit.
    pub max_bytes: Option<u64>,
    /// Which engine runs the kernel body: compiled to native code
    /// ([`Engine::Jit`], the default) or interpreted. The compiled engine
    /// gives way to the interpreter when a detector (`detect_races`,
    /// `detect_uninitialized`), `DmaTiming::Random` or `max_ops` is asked
    /// (they need every access), or when the kernel has an op it does not
    /// lower; [`RunReport::engine`] says which ran, and why.
    pub engine: Engine,
}

/// The two ways to run a kernel body ([`RunOptions::engine`]): the same grid,
/// pipeline, buffers, DMAs and devices either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The kernel compiled once through MLIR's LLVM pipeline and run as
    /// native code (MLIR's ExecutionEngine).
    #[default]
    Jit,
    /// The interpreter: every op executed in turn (the reference, and the
    /// only engine of the detectors).
    Interpreter,
}

impl Engine {
    /// `jit` or `interpreter`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Jit => "jit",
            Engine::Interpreter => "interpreter",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which engine ran a call, and what the compiled engine cost:
/// [`RunReport::engine`].
#[derive(Clone, Debug, PartialEq)]
pub struct EngineReport {
    /// The engine that ran the kernel body.
    pub engine: Engine,
    /// Why the interpreter ran although [`Engine::Jit`] was asked (`a
    /// detector needs every access`, ``the op `tpu.sort` at LOC is not
    /// compiled``); `None` when the asked engine ran.
    pub fallback: Option<String>,
    /// Seconds spent compiling the kernel in this run (0 when the
    /// process-wide cache already held it, or the interpreter ran).
    pub compile_seconds: f64,
    /// The compiled kernel came from the process-wide cache.
    pub cached: bool,
    /// Seconds spent running (the grid, copies and bodies), compile excluded.
    pub run_seconds: f64,
    /// The ops of the compiled body that run through the runtime (the
    /// interpreter's code on whole-block buffers, e.g. `tpu.matmul`), by
    /// name, in body order; empty when the interpreter ran.
    pub runtime_ops: Vec<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: None,
            uninitialized: Uninitialized::Nan,
            fuse_multiply_add: false,
            subnormals: Subnormals::FlushToZero,
            dma: DmaTiming::AtStart,
            detect_races: false,
            detect_uninitialized: false,
            cores: 1,
            progress: None,
            max_ops: None,
            max_bytes: None,
            engine: Engine::Jit,
        }
    }
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("seed", &self.seed)
            .field("uninitialized", &self.uninitialized)
            .field("fuse_multiply_add", &self.fuse_multiply_add)
            .field("subnormals", &self.subnormals)
            .field("dma", &self.dma)
            .field("detect_races", &self.detect_races)
            .field("detect_uninitialized", &self.detect_uninitialized)
            .field("cores", &self.cores)
            .field("progress", &self.progress.is_some())
            .field("max_ops", &self.max_ops)
            .field("max_bytes", &self.max_bytes)
            .field("engine", &self.engine)
            .finish()
    }
}

/// When a started DMA copies its data: [`RunOptions::dma`]. A TPU copies
/// at some time between the start and the wait; a kernel whose numbers
/// depend on when races on a TPU (and `detect_races` reports it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DmaTiming {
    /// At the start (the earliest schedule).
    #[default]
    AtStart,
    /// At the first wait on one of its semaphores (the latest schedule; JAX's
    /// interpret mode copies there).
    AtWait,
    /// Each DMA at a random time between its start and its wait, from this
    /// seed: explores schedules.
    Random(u64),
}

/// The most TensorCores a chip of the target table has (`--cores` above it
/// is refused).
pub const MAX_TENSOR_CORES: usize = 2;

/// The TensorCores of `chip` (at least 1): the most `--cores` may be.
pub fn tensor_cores_of(chip: crate::target::Chip) -> usize {
    chip.info().tensor_cores_per_chip.max(1) as usize
}

/// The TensorCores that share one device's grid on a chip: 2 on megacore
/// chips (v4, v5p: JAX's `supports_megacore`), where Mosaic splits the
/// leading `parallel` grid dimension between them; 1 elsewhere (v7x's two
/// TensorCores are two JAX devices).
pub fn cores_of(chip: crate::target::Chip) -> usize {
    chip.grid_cores()
}

/// What a run produced, with what it observed: [`Execution::run_report`].
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The results, per device.
    pub results: Vec<Vec<Array>>,
    /// Per result (the same on every device, summed): elements no op, block
    /// copy or DMA ever wrote. `None` unless
    /// [`RunOptions::detect_uninitialized`].
    pub unwritten: Vec<Option<u64>>,
    /// Which engine ran, its compile and run time.
    pub engine: EngineReport,
}

/// What float arithmetic does with subnormal (denormal) `f32`/`bf16`
/// values: [`RunOptions::subnormals`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Subnormals {
    /// Operands read as zero and results flushed to zero (keeping the
    /// sign), as the TPU's vector and matrix units and XLA on a CPU (so
    /// JAX's interpret mode) compute: `1e-39 * 2` is `0`, `floor(-1e-40)`
    /// is `-0`. Loads, stores, copies, bitcasts and conversions between
    /// float types (bit arithmetic) keep the bits.
    #[default]
    FlushToZero,
    /// IEEE gradual underflow, as the CPU computes without flushing.
    Keep,
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
            Some(op) if !self.message.contains(&format!("`{op}`: ")) => {
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
