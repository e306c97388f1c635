//! `pltpu.emit_pipeline`: an inner software pipeline over `ANY`/HBM refs
//! inside a kernel, appending exactly the ops JAX 0.12's Pallas lowering
//! appends for
//!
//! ```python
//! pltpu.emit_pipeline(body, grid=grid, in_specs=in_specs, out_specs=out_specs)(*refs)
//! ```
//!
//! (`pl.BlockSpec`s with `Buffered(n)`, 2 by default): a `tpu.region`
//! holding the VMEM buffers (`memref.alloca`) and DMA semaphores
//! (`tpu.sem_alloc`) of each operand, the prologue's first copies, the
//! `scf.for` over the grid steps with Pallas's schedule (each copy and wait
//! under its `scf.if`, slots counted modulo `n` with `arith.remui`, the next and
//! previous grid indices with their `arith.select`s, the `tpu.trace_start`
//! scopes `ep_copy_in`, `ep_wait_in`, `ep_run_kernel`, `ep_copy_out`,
//! `ep_wait_out`), and the epilogue's last waits. The schedule is a port of
//! `jax/_src/pallas/mosaic/pipeline.py` (JAX 0.12): every `jnp` operation the
//! Python traces is an op here, each Python number it meets a fresh
//! `arith.constant`, in the Python's order.
//!
//! Supported: inner grids of any rank (dimensions of 1 included); any
//! number of inputs and outputs; blocks of rank >= 2 that divide the
//! operand's shape, with index maps of grid indices and constants
//! ([`IndexExpr`]); operands that are refs or views of refs
//! (`x_hbm.at[pl.ds(i * 16, 16)]`, [`PipelineOperand::view`]), so a pipeline
//! runs inside a kernel with its own grid. Refused with a [`BuildError`]
//! naming what is unsupported (Pallas lowers these differently, and the
//! crate does not reproduce them yet): rank-1 blocks, blocks that do not
//! divide the operand (the last block's remainder), an output whose block is
//! the whole operand under a constant index map (trivial windowing: Pallas
//! copies it out synchronously; inputs are supported), one-step grids, custom index maps, lookahead,
//! `core_axis`, `no_pipelining`, squeezed block dimensions and
//! `allocations=` reuse.

use melior::dialect::arith;
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{BlockLike, OperationRef, RegionLike, Type, Value, ValueLike};

use super::BuildError;
use super::attrs::{self, MemorySpace};
use super::body::{Body, Index, Operand, local_dma};
use super::ops;
use super::pallas::IndexExpr;
use super::support::memref_parts;

/// A block spec of an inner pipeline (`pl.BlockSpec(block_shape,
/// index_map)` with the default `Buffered(2)`): the block's shape and, per
/// dimension, the block index as a grid index or a constant
/// (`lambda i, j: (i, 0)` is `[Grid(0), Const(0)]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockSpec {
    block_shape: Vec<i64>,
    index_map: Vec<IndexExpr>,
    /// `pipeline_mode=pl.Buffered(n)`; `None`: Pallas's default.
    buffers: Option<i64>,
}

impl BlockSpec {
    /// `pl.BlockSpec(block_shape, index_map)`.
    pub fn new(block_shape: &[i64], index_map: &[IndexExpr]) -> Self {
        Self {
            block_shape: block_shape.to_vec(),
            index_map: index_map.to_vec(),
            buffers: None,
        }
    }

    /// `pipeline_mode=pl.Buffered(n)`: `n` VMEM buffers (2 by default); an
    /// input prefetches `n - 1` blocks ahead, an output's copies are waited
    /// for `n - 1` steps later (1: synchronously).
    pub fn buffered(mut self, n: i64) -> Self {
        self.buffers = Some(n);
        self
    }
}

/// An operand of an inner pipeline: a ref (an `ANY` or HBM kernel argument),
/// or a view of one (`x_hbm.at[pl.ds(i * 16, 16)]`), which each DMA slices
/// again before the block's slice, as Pallas does.
#[derive(Clone, Debug)]
pub struct PipelineOperand<'c, 'a> {
    r: Value<'c, 'a>,
    at: Vec<Index<'c, 'a>>,
}

impl<'c, 'a> PipelineOperand<'c, 'a> {
    /// `r.at[indices]`: `ds(start, size)` (a number or an `i32` value) or
    /// `ALL` per dimension.
    pub fn view(r: Value<'c, 'a>, indices: &[Index<'c, 'a>]) -> Self {
        Self {
            r,
            at: indices.to_vec(),
        }
    }
}

impl<'c, 'a> From<Value<'c, 'a>> for PipelineOperand<'c, 'a> {
    fn from(r: Value<'c, 'a>) -> Self {
        Self { r, at: Vec::new() }
    }
}

/// The current step of an inner pipeline, given to its body:
/// `pl.program_id(d)` and `pl.num_programs(d)` inside a Pallas
/// `emit_pipeline` body are the inner grid's, which these give (the body's
/// [`Body::program_id`] is refused there).
#[derive(Clone, Debug)]
pub struct PipelineStep<'c, 'a> {
    kernel: &'a str,
    indices: Vec<Value<'c, 'a>>,
    grid: Vec<i64>,
}

impl<'c, 'a> PipelineStep<'c, 'a> {
    fn axis_error(&self, op: &str, axis: usize) -> BuildError {
        BuildError::Op {
            kernel: self.kernel.to_string(),
            op: op.to_string(),
            message: format!(
                "axis {axis} is out of range for the pipeline's grid {:?}: give 0..{}",
                self.grid,
                self.grid.len()
            ),
        }
    }

    /// `pl.program_id(axis)` in the body: the inner grid index (an `i32`
    /// value; no op).
    pub fn program_id(&self, axis: usize) -> Result<Value<'c, 'a>, BuildError> {
        self.indices
            .get(axis)
            .copied()
            .ok_or_else(|| self.axis_error("program_id", axis))
    }

    /// `pl.num_programs(axis)` in the body: the inner grid's size.
    pub fn num_programs(&self, axis: usize) -> Result<i64, BuildError> {
        self.grid
            .get(axis)
            .copied()
            .ok_or_else(|| self.axis_error("num_programs", axis))
    }
}

/// The VMEM block of one operand in the body of an inner pipeline (Pallas's
/// `x_ref`, the current slot of the operand's double buffer): loads and
/// stores index the buffer at the slot first.
#[derive(Clone, Copy, Debug)]
pub struct BlockRef<'c, 'a> {
    buffer: Value<'c, 'a>,
    slot: Option<Value<'c, 'a>>,
}

impl<'c, 'a> BlockRef<'c, 'a> {
    /// The buffers (`memref<n x block>` in VMEM; the block for a trivial
    /// window).
    pub fn buffer(&self) -> Value<'c, 'a> {
        self.buffer
    }

    /// The current slot (an `i32`); none for a block that is the whole
    /// operand (a trivial window: one buffer, copied in once).
    pub fn slot(&self) -> Option<Value<'c, 'a>> {
        self.slot
    }

    fn indices(&self, indices: &[Index<'c, 'a>]) -> Vec<Index<'c, 'a>> {
        let mut all: Vec<Index<'c, 'a>> = self
            .slot
            .map(|slot| Index::At(Operand::Value(slot)))
            .into_iter()
            .collect();
        all.extend_from_slice(indices);
        all
    }

    /// `x_ref[...]`.
    pub fn load(&self, k: &Body<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        k.load_at(self.buffer, &self.indices(&[]))
    }

    /// `x_ref[indices]`.
    pub fn load_at(
        &self,
        k: &Body<'c, 'a>,
        indices: &[Index<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        k.load_at(self.buffer, &self.indices(indices))
    }

    /// `o_ref[...] = v`.
    pub fn store(&self, k: &Body<'c, 'a>, v: Value<'c, '_>) -> Result<(), BuildError> {
        k.store_at(self.buffer, &self.indices(&[]), v)
    }

    /// `o_ref[indices] = v`.
    pub fn store_at(
        &self,
        k: &Body<'c, 'a>,
        indices: &[Index<'c, 'a>],
        v: Value<'c, '_>,
    ) -> Result<(), BuildError> {
        k.store_at(self.buffer, &self.indices(indices), v)
    }
}

/// `pltpu.emit_pipeline(body, grid=grid, in_specs=..., out_specs=...)`:
/// call it with [`EmitPipeline::call`]. It appends exactly the ops JAX 0.12's
/// Pallas lowering appends (checked against JAX for 1-, 2- and 3-D grids,
/// several inputs and outputs, HBM and `ANY` operands and views of them
/// inside a kernel with its own grid): a `tpu.region` with each operand's
/// VMEM double buffer and DMA semaphore pair, the prologue's first copies,
/// the `scf.for` over the grid steps with Pallas's schedule (each copy and
/// wait under its `scf.if`, slots counted modulo 2 with `arith.remui`, the
/// `ep_*` trace scopes) and the epilogue's last waits.
///
/// Supported: `pl.BlockSpec`s of rank >= 2 that divide the operand, index
/// maps of grid indices and constants, `pipeline_mode=pl.Buffered(n)`
/// ([`BlockSpec::buffered`]; 2 by default), grid dimensions of 1, `ANY` or
/// HBM operands ([`PipelineOperand`]), inputs whose block is the whole
/// operand under a constant index map (a trivial window: copied in once
/// before the loop). The body may also load and store the kernel's
/// scratch refs (an f32 accumulator across the steps, written to a bf16
/// output block at the last one: examples/pallas_examples/sparsecore.rs,
/// `pipeline_matmul`). Refused with a [`BuildError`] naming it (Pallas
/// lowers these with other ops, not reproduced here): blocks that do not
/// divide the operand, rank-1 blocks, trivial windows of outputs, of views
/// or with `Buffered(n)`, one-step grids, VMEM operands, SparseCore
/// kernels, vector loads and stores in the body of the kernel's inputs and
/// outputs, and `k.program_id` / `k.num_programs` in the body (Python's
/// `pl.program_id` there is the inner grid's: [`PipelineStep::program_id`],
/// which the error names).
///
/// ```
/// use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
/// use tpu_custom_call::mosaic::BuildError;
/// use tpu_custom_call::mosaic::attrs::MemorySpace;
/// use tpu_custom_call::mosaic::pallas::{Arg, BlockSpec, IndexExpr, KernelSpec, emit_pipeline};
///
/// let ctx = tpu_custom_call::Context::new();
/// let f32 = Type::float32(&ctx);
/// let any = || Arg::memref(&ctx, &[32, 128], f32, MemorySpace::Any);
/// let rows = || BlockSpec::new(&[8, 128], &[IndexExpr::Grid(0), IndexExpr::Const(0)]);
/// let module = KernelSpec::new("pipeline")
///     .input(any())
///     .output(any())
///     .build(&ctx, |k| {
///         let [x_hbm, o_hbm] = k.refs()?;
///         // def body(x_ref, o_ref): o_ref[...] = x_ref[...] + 1.0
///         // pltpu.emit_pipeline(body, grid=(4,), in_specs=[rows], out_specs=[rows])(x_hbm, o_hbm)
///         emit_pipeline(&[4], [rows()], [rows()]).call(k, [x_hbm, o_hbm], |k, _, refs| {
///             let [x_ref, o_ref] = refs else { unreachable!() };
///             o_ref.store(k, k.add(x_ref.load(k)?, 1.0)?)
///         })
///     })?;
/// assert!(module.as_operation().verify());
/// # Ok::<(), BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct EmitPipeline {
    grid: Vec<i64>,
    in_specs: Vec<BlockSpec>,
    out_specs: Vec<BlockSpec>,
}

/// `pltpu.emit_pipeline(body, grid=grid, in_specs=in_specs,
/// out_specs=out_specs)`; see [`EmitPipeline`].
pub fn emit_pipeline(
    grid: &[i64],
    in_specs: impl IntoIterator<Item = BlockSpec>,
    out_specs: impl IntoIterator<Item = BlockSpec>,
) -> EmitPipeline {
    EmitPipeline {
        grid: grid.to_vec(),
        in_specs: in_specs.into_iter().collect(),
        out_specs: out_specs.into_iter().collect(),
    }
}

/// A value as the Python pipeline sees it while tracing: a Python number
/// (folded), a JAX literal (a fresh `arith.constant` at each use), or a
/// traced value.
#[derive(Clone, Copy, Debug)]
enum J<'c, 'a> {
    Int(i64),
    Bool(bool),
    Lit(i64),
    V(Value<'c, 'a>),
}

use J::{Bool, Int, Lit, V};

/// One operand's buffers and slot counters (`BufferedRef`).
struct Bref<'c, 'a> {
    input: bool,
    spec: BlockSpec,
    operand: PipelineOperand<'c, 'a>,
    window: Value<'c, 'a>,
    /// The DMA semaphores (none for a trivial window).
    sems: Option<Value<'c, 'a>>,
    /// The buffers (`Buffered(n)`).
    count: i64,
    /// The block is the whole operand at every step (`is_trivial_windowing`).
    trivial: bool,
    /// copy_in / wait_in slots of an input, copy_out / wait_out of an output.
    copy: J<'c, 'a>,
    wait: J<'c, 'a>,
}

/// The tracer: emits the ops of the traced values into the body `k`.
struct Tr<'k, 'c, 'a> {
    k: &'k Body<'c, 'a>,
}

impl<'c, 'a> Tr<'_, 'c, 'a> {
    fn i32_type(&self) -> Type<'c> {
        IntegerType::new(self.k.ctx(), 32).into()
    }

    fn mat(&self, x: J<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(match x {
            Int(i) | Lit(i) => self.k.constant(i, self.i32_type())?,
            Bool(b) => {
                let i1: Type<'c> = IntegerType::new(self.k.ctx(), 1).into();
                self.k.value(arith::constant(
                    self.k.ctx(),
                    IntegerAttribute::new(i1, b.into()).into(),
                    self.k.location(),
                ))?
            }
            V(v) => v,
        })
    }

    fn int_op(
        &self,
        a: J<'c, 'a>,
        b: J<'c, 'a>,
        fold: fn(i64, i64) -> i64,
        op: fn(Value<'c, 'a>, Value<'c, 'a>, melior::ir::Location<'c>) -> melior::ir::Operation<'c>,
    ) -> Result<J<'c, 'a>, BuildError> {
        if let (Int(x), Int(y)) = (a, b) {
            return Ok(Int(fold(x, y)));
        }
        let (x, y) = (self.mat(a)?, self.mat(b)?);
        Ok(V(self.k.value(op(x, y, self.k.location()))?))
    }

    fn add(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        self.int_op(a, b, |x, y| x + y, arith::addi)
    }

    fn sub(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        self.int_op(a, b, |x, y| x - y, arith::subi)
    }

    fn mul(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        self.int_op(a, b, |x, y| x * y, arith::muli)
    }

    /// `lax.rem(slot, jnp.uint32(n))`.
    fn rem(&self, a: J<'c, 'a>, n: i64) -> Result<Value<'c, 'a>, BuildError> {
        let (x, y) = (self.mat(a)?, self.mat(Lit(n))?);
        self.k.value(arith::remui(x, y, self.k.location()))
    }

    fn cmp(
        &self,
        pred: arith::CmpiPredicate,
        a: J<'c, 'a>,
        b: J<'c, 'a>,
    ) -> Result<J<'c, 'a>, BuildError> {
        if let (Int(x), Int(y)) = (a, b) {
            return Ok(Bool(match pred {
                arith::CmpiPredicate::Eq => x == y,
                arith::CmpiPredicate::Ne => x != y,
                _ => x >= y,
            }));
        }
        let (x, y) = (self.mat(a)?, self.mat(b)?);
        Ok(V(self.k.value(arith::cmpi(
            self.k.ctx(),
            pred,
            x,
            y,
            self.k.location(),
        ))?))
    }

    fn eq(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        self.cmp(arith::CmpiPredicate::Eq, a, b)
    }

    fn ge(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        self.cmp(arith::CmpiPredicate::Sge, a, b)
    }

    /// Python's `a & b` of bools.
    fn and(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        if let (Bool(x), Bool(y)) = (a, b) {
            return Ok(Bool(x && y));
        }
        let (x, y) = (self.mat(a)?, self.mat(b)?);
        Ok(V(self.k.value(arith::andi(x, y, self.k.location()))?))
    }

    /// Python's `a | b` of bools.
    fn or(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        if let (Bool(x), Bool(y)) = (a, b) {
            return Ok(Bool(x || y));
        }
        let (x, y) = (self.mat(a)?, self.mat(b)?);
        Ok(V(self.k.value(arith::ori(x, y, self.k.location()))?))
    }

    /// `jnp.logical_not`.
    fn not(&self, a: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        if let Bool(x) = a {
            return Ok(Bool(!x));
        }
        let (x, y) = (self.mat(a)?, self.mat(Bool(true))?);
        Ok(V(self.k.value(arith::xori(x, y, self.k.location()))?))
    }

    /// `lax.select(pred, on_true, on_false)` (always traced); the literals
    /// are made in the order of `select_n`'s operands: predicate, false, true.
    fn select(
        &self,
        pred: J<'c, 'a>,
        on_true: J<'c, 'a>,
        on_false: J<'c, 'a>,
    ) -> Result<J<'c, 'a>, BuildError> {
        let p = self.mat(pred)?;
        let f = self.mat(on_false)?;
        let t = self.mat(on_true)?;
        Ok(V(self.k.value(arith::select(
            p,
            t,
            f,
            self.k.location(),
        ))?))
    }

    /// `_or` of pipeline.py: Python's short cuts on static bools.
    fn or_(&self, a: J<'c, 'a>, b: J<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        match (a, b) {
            (Bool(true), _) | (_, Bool(true)) => Ok(Bool(true)),
            (Bool(false), b) => Ok(b),
            (a, Bool(false)) => Ok(a),
            (a, b) => self.or(a, b),
        }
    }

    /// `_tuples_differ`.
    fn differ(&self, xs: &[J<'c, 'a>], ys: &[J<'c, 'a>]) -> Result<J<'c, 'a>, BuildError> {
        let mut acc = Bool(false);
        for (&x, &y) in xs.iter().zip(ys) {
            let d = match (x, y) {
                (Int(a), Int(b)) => Bool(a != b),
                (V(a), V(b)) if a == b => Bool(false),
                _ => self.cmp(arith::CmpiPredicate::Ne, x, y)?,
            };
            acc = self.or_(acc, d)?;
        }
        Ok(acc)
    }

    fn trace_start(&self, name: &str) {
        self.k
            .append(ops::trace_start(self.k.ctx(), name, 10, self.k.location()));
    }

    fn trace_stop(&self) {
        self.k
            .append(ops::trace_stop(self.k.ctx(), self.k.location()));
    }

    /// `@pl.when(pred)`: a static condition runs `then` or not; a traced
    /// one is `Body::when`.
    fn when(
        &self,
        pred: J<'c, 'a>,
        then: impl FnOnce(&Tr<'_, 'c, 'a>) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        match pred {
            Bool(true) => then(self),
            Bool(false) => Ok(()),
            other => {
                let cond = self.mat(other)?;
                self.k.when(cond, |k| then(&Tr { k }))
            }
        }
    }
}

/// The grid's indices as Pallas's `_next_index`, `_prev_index`,
/// `_filter_indices` compute them.
fn filter<'c, 'a>(indices: Vec<J<'c, 'a>>, grid: &[i64]) -> Vec<J<'c, 'a>> {
    indices
        .into_iter()
        .zip(grid)
        .map(|(i, &g)| if g == 1 { Lit(0) } else { i })
        .collect()
}

/// The grid indices one step after (`forward`) or before the current ones,
/// as Pallas's `_next_index` / `_prev_index` compute them: the last
/// dimension moves, carrying (or borrowing) into the ones before it.
fn step_index<'c, 'a>(
    t: &Tr<'_, 'c, 'a>,
    indices: &[J<'c, 'a>],
    grid: &[i64],
    forward: bool,
) -> Result<Vec<J<'c, 'a>>, BuildError> {
    let mut out = Vec::with_capacity(grid.len());
    let mut carry = Bool(true);
    for (&i, &g) in indices.iter().zip(grid).rev() {
        let moved = if forward {
            t.add(i, Int(1))?
        } else {
            t.sub(i, Int(1))?
        };
        let moved = t.select(carry, moved, i)?;
        let (past, wrapped) = if forward { (g, 0) } else { (-1, g - 1) };
        carry = t.eq(moved, Int(past))?;
        out.push(t.select(carry, Lit(wrapped), moved)?);
    }
    out.reverse();
    Ok(filter(out, grid))
}

/// Pallas's `Scheduler` of one step.
struct Scheduler<'c, 'a> {
    step: J<'c, 'a>,
    num_steps: i64,
    first_step: J<'c, 'a>,
    last_step: J<'c, 'a>,
    /// The grid indices of this step (`fetch[0]` and `prev[0]`).
    indices: Vec<J<'c, 'a>>,
    /// `fetch_indices`: this step's and the next `num_stages` steps'.
    fetch: Vec<Vec<J<'c, 'a>>>,
    /// `prev_indices`: this step's and the `num_stages - 1` previous.
    prev: Vec<Vec<J<'c, 'a>>>,
}

impl<'c, 'a> Scheduler<'c, 'a> {
    fn new(
        t: &Tr<'_, 'c, 'a>,
        step: J<'c, 'a>,
        indices: &[J<'c, 'a>],
        grid: &[i64],
        num_stages: i64,
    ) -> Result<Self, BuildError> {
        let num_steps: i64 = grid.iter().product();
        let first_step = t.eq(step, Int(0))?;
        let last_step = t.eq(step, Int(num_steps - 1))?;
        let offset = |x: &[J<'c, 'a>]| -> Result<Vec<J<'c, 'a>>, BuildError> {
            x.iter().map(|&i| t.add(i, Int(0))).collect()
        };
        let current = offset(indices)?;
        let next_raw = step_index(t, indices, grid, true)?;
        let next = offset(&next_raw)?;
        let mut fetch = vec![current.clone(), next];
        let mut prev = vec![current.clone()];
        let (mut prev_raw, mut fetch_raw) = (indices.to_vec(), next_raw);
        for _ in 0..num_stages - 1 {
            prev_raw = step_index(t, &prev_raw, grid, false)?;
            fetch_raw = step_index(t, &fetch_raw, grid, true)?;
            prev.push(offset(&prev_raw)?);
            fetch.push(offset(&fetch_raw)?);
        }
        Ok(Self {
            step,
            num_steps,
            first_step,
            last_step,
            indices: current,
            fetch,
            prev,
        })
    }

    fn block_indices(spec: &BlockSpec, grid_indices: &[J<'c, 'a>]) -> Vec<J<'c, 'a>> {
        spec.index_map
            .iter()
            .map(|e| match *e {
                IndexExpr::Grid(d) => grid_indices[d],
                IndexExpr::Const(c) => Int(c.into()),
            })
            .collect()
    }

    fn blocks_differ(
        t: &Tr<'_, 'c, 'a>,
        b: &Bref<'c, 'a>,
        x: &[J<'c, 'a>],
        y: &[J<'c, 'a>],
    ) -> Result<J<'c, 'a>, BuildError> {
        t.differ(
            &Self::block_indices(&b.spec, x),
            &Self::block_indices(&b.spec, y),
        )
    }

    /// `has_changed(bref, steps_back)`.
    fn has_changed(
        &self,
        t: &Tr<'_, 'c, 'a>,
        b: &Bref<'c, 'a>,
        steps_back: usize,
    ) -> Result<J<'c, 'a>, BuildError> {
        Self::blocks_differ(t, b, &self.prev[steps_back - 1], &self.prev[steps_back])
    }

    /// `will_change_current`.
    fn will_change(&self, t: &Tr<'_, 'c, 'a>, b: &Bref<'c, 'a>) -> Result<J<'c, 'a>, BuildError> {
        Self::blocks_differ(t, b, &self.indices, &self.fetch[1])
    }

    /// `will_change_fetch`.
    fn will_change_fetch(
        &self,
        t: &Tr<'_, 'c, 'a>,
        b: &Bref<'c, 'a>,
    ) -> Result<J<'c, 'a>, BuildError> {
        let n = b.in_count() as usize;
        if n < 2 {
            return self.has_changed(t, b, 1);
        }
        Self::blocks_differ(t, b, &self.fetch[n - 2], &self.fetch[n - 1])
    }
}

impl<'c, 'a> Bref<'c, 'a> {
    fn in_count(&self) -> i64 {
        if self.input { self.count } else { 0 }
    }

    fn out_count(&self) -> i64 {
        if self.input { 0 } else { self.count }
    }

    /// `get_dma_slice`: the block's slice of the operand.
    fn dma_slice(
        &self,
        t: &Tr<'_, 'c, 'a>,
        grid_indices: &[J<'c, 'a>],
    ) -> Result<Vec<Index<'c, 'a>>, BuildError> {
        let blocks = Scheduler::block_indices(&self.spec, grid_indices);
        blocks
            .iter()
            .zip(&self.spec.block_shape)
            .map(|(&bi, &bs)| {
                Ok(match t.mul(Int(bs), bi)? {
                    Int(start) => Index::Slice(Operand::Int(start), bs),
                    other => Index::Slice(Operand::Value(t.mat(other)?), bs),
                })
            })
            .collect()
    }

    fn window_at(&self, slot: Value<'c, 'a>) -> Vec<Index<'c, 'a>> {
        let mut at = vec![Index::At(Operand::Value(slot))];
        at.extend(
            self.spec
                .block_shape
                .iter()
                .map(|&n| Index::Slice(Operand::Int(0), n)),
        );
        at
    }

    /// The operand's view, then the block's slice of it.
    fn hbm_view(
        &self,
        k: &Body<'c, 'a>,
        slice: &[Index<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        let outer = k.ref_at(self.operand.r, &self.operand.at)?;
        k.ref_at(outer, slice)
    }

    /// A DMA between the operand's block and the buffer's slot: start or
    /// wait. Pallas slices semaphore, target, source in that order.
    fn dma(
        &self,
        t: &Tr<'_, 'c, 'a>,
        slot: Value<'c, 'a>,
        slice: &[Index<'c, 'a>],
        start: bool,
    ) -> Result<(), BuildError> {
        let k = t.k;
        let sems = self
            .sems
            .ok_or_else(|| k.error("emit_pipeline", "a DMA of a trivial window".to_string()))?;
        let sem = k.ref_at(sems, &[Index::At(Operand::Value(slot))])?;
        let (src, dst) = if self.input {
            let dst = k.ref_at(self.window, &self.window_at(slot))?;
            (self.hbm_view(k, slice)?, dst)
        } else {
            let dst = self.hbm_view(k, slice)?;
            (k.ref_at(self.window, &self.window_at(slot))?, dst)
        };
        k.append(local_dma(k.ctx(), src, dst, sem, start, k.location()));
        Ok(())
    }

    /// `BufferedRef.copy_in`.
    fn copy_in(&self, t: &Tr<'_, 'c, 'a>, grid_indices: &[J<'c, 'a>]) -> Result<(), BuildError> {
        let slot = t.rem(self.copy, self.count)?;
        let slice = self.dma_slice(t, grid_indices)?;
        self.dma(t, slot, &slice, true)
    }

    /// `BufferedRef.wait_in`.
    fn wait_in(&self, t: &Tr<'_, 'c, 'a>, grid_indices: &[J<'c, 'a>]) -> Result<(), BuildError> {
        let slice = self.dma_slice(t, grid_indices)?;
        let slot = t.rem(self.wait, self.count)?;
        self.dma(t, slot, &slice, false)
    }

    /// `BufferedRef.copy_out`: a single buffer's copy is waited for at once.
    fn copy_out(&self, t: &Tr<'_, 'c, 'a>, grid_indices: &[J<'c, 'a>]) -> Result<(), BuildError> {
        let slot = t.rem(self.copy, self.count)?;
        let slice = self.dma_slice(t, grid_indices)?;
        self.dma(t, slot, &slice, true)?;
        if self.count == 1 {
            self.dma(t, slot, &slice, false)?;
        }
        Ok(())
    }

    /// `BufferedRef.wait_out` (of several buffers; one's has no ops).
    fn wait_out(&self, t: &Tr<'_, 'c, 'a>, grid_indices: &[J<'c, 'a>]) -> Result<(), BuildError> {
        let slot = t.rem(self.wait, self.count)?;
        let slice = self.dma_slice(t, grid_indices)?;
        self.dma(t, slot, &slice, false)
    }
}

fn op_name(op: OperationRef<'_, '_>) -> String {
    crate::ffi::identifier_string(&op.name())
}

/// Places the body's `trace_start` as Pallas's lowering does: the literals of
/// the body's first equation are made before the scope opens when its
/// primitive makes them before its rule runs (comparisons, `select_n`,
/// `broadcast_in_dim` of `jnp.full`/`jnp.zeros`), after it otherwise
/// (arithmetic, loads, stores). A body without ops has no scope (false: the
/// `trace_start` is removed).
fn scope_literals(start: OperationRef<'_, '_>) -> bool {
    let mut constants = Vec::new();
    let mut next = start.next_in_block();
    while let Some(op) = next {
        if op_name(op) != "arith.constant" {
            break;
        }
        constants.push(op);
        next = op.next_in_block();
    }
    let Some(first) = next else {
        if constants.is_empty() {
            // SAFETY: `start` is a live op of a block; nothing refers to it.
            unsafe { mlir_sys::mlirOperationDestroy(start.to_raw()) };
            return false;
        }
        return true;
    };
    let Some(&last) = constants.last() else {
        return true;
    };
    let compares = |name: &str| matches!(name, "arith.cmpi" | "arith.cmpf" | "arith.select");
    let hoist = match op_name(first).as_str() {
        name if compares(name) => true,
        "vector.broadcast" => {
            // A binary idiom's literal broadcast to its vector operand (made
            // by an arithmetic rule, after the scope opens) unless the user
            // compares; otherwise `jnp.full`.
            let result = first.result(0).ok().map(Value::from);
            match (first.next_in_block(), result) {
                (Some(user), Some(r)) if user.operands().any(|o| o == r) => {
                    let name = op_name(user);
                    compares(&name) || !name.starts_with("arith.")
                }
                _ => true,
            }
        }
        _ => false,
    };
    if hoist {
        // SAFETY: both are live ops of the same block.
        unsafe { mlir_sys::mlirOperationMoveAfter(start.to_raw(), last.to_raw()) };
    }
    true
}

/// A vector access in the body (after `start`, nested regions included) of
/// a ref other than the pipeline's blocks (`loads` may be read, `stores`
/// written) and the kernel's scratch refs: Pallas's lowering adds same-shape
/// `vector.shape_cast`s to some of those depending on how the kernel used
/// the ref before (the kernel's output ref loaded in the body, an input
/// stored), which `Body` does not reproduce; refused, named.
fn foreign_refs<'c, 'a>(
    k: &Body<'c, 'a>,
    start: OperationRef<'c, 'a>,
    loads: &[Value<'c, 'a>],
    stores: &[Value<'c, 'a>],
) -> Option<String> {
    fn walk<'c, 'a>(
        k: &Body<'c, 'a>,
        mut next: Option<OperationRef<'c, 'a>>,
        loads: &[Value<'c, 'a>],
        stores: &[Value<'c, 'a>],
    ) -> Option<String> {
        while let Some(op) = next {
            let name = op_name(op);
            let allowed = match name.as_str() {
                "vector.load" | "tpu.vector_load" | "tpu.strided_load" => Some(loads),
                "tpu.vector_store" | "vector.store" | "tpu.strided_store" => Some(stores),
                _ => None,
            };
            if let Some(allowed) = allowed {
                for operand in op.operands() {
                    if memref_parts(operand.r#type()).is_some()
                        && !allowed.contains(&operand)
                        && !k.is_scratch(operand)
                    {
                        let what = if name.contains("load") {
                            "loads"
                        } else {
                            "stores into"
                        };
                        return Some(format!(
                            "the pipeline's body {what} {} (`{name}`), which is not one of the pipeline's blocks: Pallas's lowering casts such accesses by how the kernel used the ref before, not reproduced here; make it a pipeline operand, or access it outside the pipeline",
                            operand.r#type()
                        ));
                    }
                }
            }
            for region in op.regions() {
                let mut block = region.first_block();
                while let Some(b) = block {
                    if let Some(e) = walk(k, b.first_operation(), loads, stores) {
                        return Some(e);
                    }
                    block = b.next_in_region();
                }
            }
            next = op.next_in_block();
        }
        None
    }
    walk(k, start.next_in_block(), loads, stores)
}

/// `sync_copy` of a trivial window's operand into it: a `tpu.region` with a
/// DMA semaphore, the DMA's start and its wait.
fn sync_copy_in<'c, 'a>(k: &Body<'c, 'a>, b: &Bref<'c, 'a>) -> Result<(), BuildError> {
    let (ctx, loc) = (k.ctx(), k.location());
    let inner = k.nested_without_grid(k.region_block()?);
    let sem_type = attrs::memref(
        ctx,
        &[],
        attrs::dma_semaphore_type(ctx),
        MemorySpace::SemaphoreMem,
        None,
    );
    let sem = inner.value(ops::sem_alloc(ctx, sem_type, loc))?;
    let src = b.operand.r;
    for start in [true, false] {
        inner.append(local_dma(ctx, src, b.window, sem, start, loc));
    }
    inner.block().append_operation(ops::r#yield(ctx, &[], loc));
    Ok(())
}

/// Ends a scope opened by `start`: `trace_stop`, or nothing (and no
/// `trace_start`) if no op was appended in it.
fn close_scope(t: &Tr<'_, '_, '_>, start: OperationRef<'_, '_>) {
    if start.next_in_block().is_none() {
        // SAFETY: `start` is a live op of a block; nothing refers to it.
        unsafe { mlir_sys::mlirOperationDestroy(start.to_raw()) };
    } else {
        t.trace_stop();
    }
}

/// `_advance_slot`.
fn advance<'c, 'a>(
    t: &Tr<'_, 'c, 'a>,
    slot: J<'c, 'a>,
    pred: J<'c, 'a>,
) -> Result<J<'c, 'a>, BuildError> {
    match pred {
        Bool(true) => t.add(slot, Int(1)),
        Bool(false) => Ok(slot),
        p => {
            let plus = t.add(slot, Int(1))?;
            t.select(p, plus, slot)
        }
    }
}

impl EmitPipeline {
    fn error(&self, k: &Body<'_, '_>, message: String) -> BuildError {
        k.error("emit_pipeline", message)
    }

    /// Checks what is supported; gives whether each operand's block is a
    /// trivial window.
    fn check(
        &self,
        k: &Body<'_, '_>,
        operands: &[PipelineOperand<'_, '_>],
    ) -> Result<Vec<bool>, BuildError> {
        if k.sparse_core() {
            return Err(self.error(k, "a SparseCore kernel: not supported (Pallas pipelines there with SparseCore tiling and loads); a TensorCore kernel's pipeline is".to_string()));
        }
        if self.grid.is_empty() || self.grid.iter().any(|&g| g < 1) {
            return Err(self.error(
                k,
                format!(
                    "grid {:?}: give at least one dimension, each at least 1",
                    self.grid
                ),
            ));
        }
        if self.grid.iter().all(|&g| g == 1) {
            return Err(self.error(k, format!("grid {:?} of one step: not supported (Pallas's first step is its last, which changes the schedule)", self.grid)));
        }
        if self
            .grid
            .iter()
            .try_fold(1i64, |a, &g| a.checked_mul(g))
            .is_none_or(|n| n > i32::MAX as i64)
        {
            return Err(self.error(
                k,
                format!("grid {:?} has more steps than an i32 counts", self.grid),
            ));
        }
        let specs = self.in_specs.len() + self.out_specs.len();
        if operands.len() != specs {
            return Err(self.error(k, format!("{} operands for {} in_specs and {} out_specs: give one ref per spec, inputs first", operands.len(), self.in_specs.len(), self.out_specs.len())));
        }
        let mut trivials = Vec::with_capacity(specs);
        for (n, (spec, operand)) in self
            .in_specs
            .iter()
            .chain(&self.out_specs)
            .zip(operands)
            .enumerate()
        {
            let (full, _) = memref_parts(operand.r.r#type()).ok_or_else(|| {
                self.error(
                    k,
                    format!("operand {n} has type {}: give a memref", operand.r.r#type()),
                )
            })?;
            let text = operand.r.r#type().to_string();
            if !(text.contains("#tpu.memory_space<any>") || text.contains("#tpu.memory_space<hbm>"))
            {
                return Err(self.error(k, format!("operand {n} has type {text}: only ANY or HBM operands are supported (a VMEM operand is aliased, not copied, by Pallas)")));
            }
            if operand.at.len() > full.len() {
                return Err(self.error(
                    k,
                    format!(
                        "operand {n}: {} view indices for rank {}",
                        operand.at.len(),
                        full.len()
                    ),
                ));
            }
            let mut shape = Vec::with_capacity(full.len());
            for (d, &size) in full.iter().enumerate() {
                match operand.at.get(d).copied().unwrap_or(Index::All) {
                    Index::All => shape.push(size),
                    Index::Slice(_, s) => shape.push(s),
                    _ => return Err(self.error(k, format!("operand {n}: view index {d} is not ds(start, size) or ALL (integer and strided view indices are not supported)"))),
                }
            }
            if let Some(b) = spec.buffers
                && b < 1
            {
                return Err(self.error(
                    k,
                    format!("operand {n}: Buffered({b}): give at least one buffer"),
                ));
            }
            let block = &spec.block_shape;
            if block.len() < 2 || block.len() != shape.len() {
                return Err(self.error(k, format!("operand {n}: block {block:?} of an operand of shape {shape:?}: only blocks of the operand's rank, at least 2, are supported (rank-1 and squeezed blocks are not)")));
            }
            if spec.index_map.len() != block.len() {
                return Err(self.error(
                    k,
                    format!(
                        "operand {n}: the index map gives {} indices for a block of rank {}",
                        spec.index_map.len(),
                        block.len()
                    ),
                ));
            }
            for (d, (&b, &s)) in block.iter().zip(&shape).enumerate() {
                if b < 1 || s % b != 0 {
                    return Err(self.error(k, format!("operand {n}: block dimension {d} of {b} does not divide {s}: only dividing blocks are supported (Pallas rounds the last block to the tiling)")));
                }
            }
            for e in &spec.index_map {
                if let IndexExpr::Grid(d) = *e
                    && d >= self.grid.len()
                {
                    return Err(self.error(
                        k,
                        format!(
                            "operand {n}: the index map uses grid index {d} of a grid of rank {}",
                            self.grid.len()
                        ),
                    ));
                }
            }
            // `_spec_has_trivial_windowing`: the whole operand, whatever
            // the grid's steps.
            let whole = block == &shape;
            let constant = spec.index_map.iter().all(|e| match *e {
                IndexExpr::Const(_) => true,
                IndexExpr::Grid(d) => self.grid[d] == 1,
            });
            let trivial = whole && constant;
            if trivial
                && (n >= self.in_specs.len() || !operand.at.is_empty() || spec.buffers.is_some())
            {
                return Err(self.error(k, format!("operand {n}: the block is the whole operand under a constant index map (trivial windowing, copied synchronously): supported for inputs that are whole refs with the default buffering only")));
            }
            trivials.push(trivial);
        }
        Ok(trivials)
    }

    /// Appends the pipeline to `k` over `operands` (inputs then outputs, as
    /// the specs): `body(k, step, refs)` builds the body once, given the
    /// inner grid's step and the VMEM block of each operand in the same
    /// order (`def body(x_ref, o_ref)`). The body's `k` has no grid:
    /// `k.program_id` is refused there, `step.program_id` is Pallas's. The
    /// body loads and stores the pipeline's blocks and the kernel's scratch
    /// refs (every store there lowered as Pallas's swap, with same-shape
    /// `vector.shape_cast`s); a vector access of the kernel's inputs or
    /// outputs (the kernel's output accumulated in the body) is refused, as
    /// Pallas casts some of those by how the kernel used the ref before.
    ///
    /// The body's scope (`tpu.trace_start "ep_run_kernel"`) opens after the
    /// literals of its first op when that op compares, selects or is
    /// `k.full`/`k.zeros`, as Pallas's lowering makes the literals of those
    /// primitives before it opens the scope; a body whose very first op is
    /// `k.add(k.zeros(..), outer_value)` is taken for `k.add(outer_value,
    /// 0.0)` (the same ops; Pallas opens the scope after the literal there):
    /// load a block first.
    pub fn call<'c, 'a, O>(
        &self,
        k: &Body<'c, 'a>,
        operands: impl IntoIterator<Item = O>,
        body: impl FnOnce(
            &Body<'c, 'a>,
            &PipelineStep<'c, 'a>,
            &[BlockRef<'c, 'a>],
        ) -> Result<(), BuildError>,
    ) -> Result<(), BuildError>
    where
        O: Into<PipelineOperand<'c, 'a>>,
    {
        let operands: Vec<PipelineOperand<'c, 'a>> = operands.into_iter().map(Into::into).collect();
        let trivials = self.check(k, &operands)?;
        let ctx = k.ctx();
        let loc = k.location();
        let dma = attrs::dma_semaphore_type(ctx);
        // run_scoped: a tpu.region with each operand's buffers, then its
        // semaphores.
        let inner = k.nested_without_grid(k.region_block()?);
        let mut brefs = Vec::with_capacity(operands.len());
        let n_in = self.in_specs.len();
        for (n, ((spec, operand), trivial)) in self
            .in_specs
            .iter()
            .chain(&self.out_specs)
            .zip(operands)
            .zip(trivials)
            .enumerate()
        {
            let (_, element) = memref_parts(operand.r.r#type())
                .ok_or_else(|| self.error(k, format!("operand {n} is not a memref")))?;
            // A trivial window is one buffer of the block, without semaphores.
            let count = spec.buffers.unwrap_or(if trivial { 1 } else { 2 });
            let mut buffer_shape = if trivial { vec![] } else { vec![count] };
            buffer_shape.extend_from_slice(&spec.block_shape);
            let buffer_type = attrs::memref(ctx, &buffer_shape, element, MemorySpace::Vmem, None);
            let sem_type = attrs::memref(ctx, &[count], dma, MemorySpace::SemaphoreMem, None);
            let memref = melior::ir::r#type::MemRefType::try_from(buffer_type)
                .map_err(|e| self.error(k, e.to_string()))?;
            let window = inner.value(melior::dialect::memref::alloca(
                ctx,
                memref,
                &[],
                &[],
                None,
                loc,
            ))?;
            let sems = if trivial {
                None
            } else {
                Some(inner.value(ops::sem_alloc(ctx, sem_type, loc))?)
            };
            brefs.push(Bref {
                input: n < n_in,
                spec: spec.clone(),
                operand,
                window,
                sems,
                count,
                trivial,
                copy: Lit(0),
                wait: Lit(0),
            });
        }
        self.schedule(&inner, brefs, body)?;
        inner.block().append_operation(ops::r#yield(ctx, &[], loc));
        Ok(())
    }

    fn schedule<'c, 'a>(
        &self,
        k: &Body<'c, 'a>,
        brefs: Vec<Bref<'c, 'a>>,
        body: impl FnOnce(
            &Body<'c, 'a>,
            &PipelineStep<'c, 'a>,
            &[BlockRef<'c, 'a>],
        ) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let grid = &self.grid;
        let num_steps: i64 = grid.iter().product();
        let num_stages = brefs.iter().map(|b| b.count).fold(2, i64::max);
        let t = Tr { k };
        // Prologue: each input's first `in_count - 1` fetches, step by step.
        let initial = vec![Lit(0); grid.len()];
        let s = Scheduler::new(&t, Int(0), &initial, grid, num_stages)?;
        let mut brefs = brefs;
        // Trivial windows: copied in once, synchronously.
        for b in brefs.iter().filter(|b| b.trivial) {
            sync_copy_in(k, b)?;
        }
        for step in 0..num_stages - 1 {
            let name = format!("ep_initialize_{step}");
            let start = k.append(ops::trace_start(k.ctx(), &name, 10, k.location()));
            for b in brefs.iter_mut().filter(|b| b.input && !b.trivial) {
                if step >= (b.in_count() - 1).max(0) {
                    continue;
                }
                let in_bounds = Bool(step < num_steps);
                let fetch = &s.fetch[step as usize];
                let predicate = if step == 0 {
                    t.and(s.first_step, in_bounds)?
                } else {
                    let prev = &s.fetch[step as usize - 1];
                    let changed = Scheduler::blocks_differ(&t, b, fetch, prev)?;
                    t.and(t.and(s.first_step, in_bounds)?, changed)?
                };
                let b_ref = &*b;
                t.when(t.and(predicate, Bool(true))?, |t| b_ref.copy_in(t, fetch))?;
                b.copy = advance(&t, b.copy, predicate)?;
            }
            close_scope(&t, start);
        }
        // The loop: carries each operand's two slots, then the indices; a
        // trivial window's copy slot never changes, and JAX's scan forwards
        // such a carry rather than carrying it.
        // The forwarded carries become the scan's constants, made first.
        for b in brefs.iter().filter(|b| b.trivial) {
            t.mat(b.copy)?;
        }
        let mut init = Vec::new();
        for b in &brefs {
            if !b.trivial {
                init.push(t.mat(b.copy)?);
            }
            init.push(t.mat(b.wait)?);
        }
        let n = init.len();
        for &i in &initial {
            init.push(t.mat(i)?);
        }
        let rebuild = |carry: &[Value<'c, 'a>]| -> Vec<Bref<'c, 'a>> {
            let mut next = carry.iter();
            let mut slot = || next.next().map_or(Lit(0), |&v| V(v));
            brefs
                .iter()
                .map(|b| {
                    let copy = if b.trivial { b.copy } else { slot() };
                    Bref {
                        spec: b.spec.clone(),
                        operand: b.operand.clone(),
                        copy,
                        wait: slot(),
                        ..*b
                    }
                })
                .collect()
        };
        let results = k.fori_loop(0, num_steps, &init, |k, step, carry| {
            let t = Tr { k };
            let mut brefs = rebuild(carry);
            let indices = filter(carry[n..].iter().map(|&v| V(v)).collect(), grid);
            let s = Scheduler::new(&t, V(step), &indices, grid, num_stages)?;
            // copy_in of every operand.
            for b in brefs.iter_mut().filter(|b| !b.trivial) {
                let fetch_changes = s.will_change_fetch(&t, b)?;
                let out_of_fetch = t.ge(s.step, Int(s.num_steps - b.in_count() + 1))?;
                let mut pred = t.and(fetch_changes, t.not(out_of_fetch)?)?;
                if b.in_count() < 2 {
                    // A single buffer (and an output) fetches at the first step.
                    pred = t.or(pred, s.first_step)?;
                }
                if !b.input {
                    continue;
                }
                // pred & needs_copy_in
                let when_pred = t.and(pred, Bool(true))?;
                let fetch = &s.fetch[b.in_count() as usize - 1];
                let b_ref = &*b;
                t.when(when_pred, |t| {
                    t.trace_start("ep_copy_in");
                    b_ref.copy_in(t, fetch)?;
                    t.trace_stop();
                    Ok(())
                })?;
                let advance_pred = t.and(pred, Bool(true))?;
                b.copy = advance(&t, b.copy, advance_pred)?;
            }
            // wait_in of every operand.
            for b in brefs.iter().filter(|b| !b.trivial) {
                let changed = s.has_changed(&t, b, 1)?;
                let pred = t.or(changed, s.first_step)?;
                let started = t.ge(s.step, Int(0))?;
                let pred = t.and(pred, started)?;
                t.when(pred, |t| {
                    if b.input {
                        t.trace_start("ep_wait_in");
                        b.wait_in(t, &s.indices)?;
                        t.trace_stop();
                    }
                    Ok(())
                })?;
            }
            // The body, on each operand's current slot.
            let mut refs = Vec::with_capacity(brefs.len());
            for b in &brefs {
                let slot = if b.trivial {
                    None
                } else if b.input {
                    Some(t.rem(b.wait, b.count)?)
                } else {
                    Some(t.rem(b.copy, b.count)?)
                };
                refs.push(BlockRef {
                    buffer: b.window,
                    slot,
                });
            }
            let pipeline_step = PipelineStep {
                kernel: k.kernel_name(),
                indices: s
                    .indices
                    .iter()
                    .map(|&i| t.mat(i))
                    .collect::<Result<_, _>>()?,
                grid: grid.clone(),
            };
            let start = k.append(ops::trace_start(k.ctx(), "ep_run_kernel", 10, k.location()));
            body(k, &pipeline_step, &refs)?;
            let windows: Vec<Value<'c, 'a>> = brefs
                .iter()
                .filter(|b| !b.trivial || b.input)
                .map(|b| b.window)
                .collect();
            let stores_ok: Vec<Value<'c, 'a>> = brefs
                .iter()
                .filter(|b| !b.trivial)
                .map(|b| b.window)
                .collect();
            if let Some(message) = foreign_refs(k, start, &windows, &stores_ok) {
                return Err(k.error("emit_pipeline", message));
            }
            if scope_literals(start) {
                t.trace_stop();
            }
            // copy_out of every operand.
            for b in brefs.iter_mut().filter(|b| !b.trivial) {
                let changes = s.will_change(&t, b)?;
                let pred = t.or(changes, s.last_step)?;
                let b_ref = &*b;
                t.when(pred, |t| {
                    if !b_ref.input {
                        t.trace_start("ep_copy_out");
                        b_ref.copy_out(t, &s.indices)?;
                        t.trace_stop();
                    }
                    Ok(())
                })?;
                let advance_pred = t.and(pred, Bool(!b.input))?;
                if !b.input {
                    b.copy = advance(&t, b.copy, advance_pred)?;
                }
            }
            // wait_out of the outputs, `lag` steps behind.
            for b in brefs.iter_mut().filter(|b| !b.input) {
                let lag = (b.out_count() - 1).max(1);
                let changed = s.has_changed(&t, b, lag as usize)?;
                let behind = t.ge(s.step, Int(lag))?;
                let pred = t.and(changed, behind)?;
                let b_ref = &*b;
                t.when(pred, |t| {
                    if b_ref.out_count() > 1 {
                        t.trace_start("ep_wait_out");
                        b_ref.wait_out(t, &s.prev[lag as usize])?;
                        t.trace_stop();
                    }
                    Ok(())
                })?;
                let advance_pred = t.and(pred, Bool(true))?;
                b.wait = advance(&t, b.wait, advance_pred)?;
            }
            // advance_slots: an input's wait slot moves when its block will.
            for b in brefs.iter_mut().filter(|b| b.input) {
                // A trivial window never changes.
                let changes = if b.trivial {
                    Bool(false)
                } else {
                    s.will_change(&t, b)?
                };
                let pred = t.or(changes, s.last_step)?;
                b.wait = advance(&t, b.wait, pred)?;
            }
            let next = step_index(&t, &indices, grid, true)?;
            let mut carry = Vec::with_capacity(n + grid.len());
            for b in &brefs {
                if !b.trivial {
                    carry.push(t.mat(b.copy)?);
                }
                carry.push(t.mat(b.wait)?);
            }
            for i in next {
                carry.push(t.mat(i)?);
            }
            Ok(carry)
        })?;
        // Epilogue: the outputs' last waits, the oldest first.
        let mut brefs = rebuild(&results);
        let next: Vec<J<'c, 'a>> = results[n..].iter().map(|&v| V(v)).collect();
        let last = step_index(&t, &next, grid, false)?;
        let s = Scheduler::new(&t, Int(num_steps - 1), &last, grid, num_stages)?;
        for lag in (0..num_stages - 1).rev() {
            let name = format!("ep_finalize_{lag}");
            for b in brefs.iter_mut().filter(|b| !b.input) {
                if lag >= (b.out_count() - 1).max(1) {
                    continue;
                }
                let changed = if lag == 0 {
                    Bool(true)
                } else {
                    s.has_changed(&t, b, lag as usize)?
                };
                let pred = t.and(t.and(s.last_step, Bool(lag < num_steps))?, changed)?;
                let b_ref = &*b;
                let prev = &s.prev[lag as usize];
                t.when(pred, |t| {
                    if b_ref.out_count() > 1 {
                        t.trace_start(&name);
                        b_ref.wait_out(t, prev)?;
                        t.trace_stop();
                    }
                    Ok(())
                })?;
                let advance_pred = t.and(pred, Bool(true))?;
                b.wait = advance(&t, b.wait, advance_pred)?;
            }
        }
        Ok(())
    }
}
