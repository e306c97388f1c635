//! The Pallas idioms of [`Body`] (re-exported by [`super::pallas`]).

use std::fmt;

use melior::Context as MlirContext;
use melior::dialect::arith;
use melior::ir::attribute::{
    AttributeLike, DenseElementsAttribute, FloatAttribute, IntegerAttribute,
};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{
    Attribute, Block, BlockLike, BlockRef, Location, Operation, OperationRef, Region, RegionLike,
    Type, TypeLike, Value, ValueLike,
};

use super::BuildError;
use super::attrs::{ContractPrecision, CoreType, DotDimensionNumbers, ReductionKind};
use super::ops;
use super::support::{memref_parts, vector_parts, vector_type};
use super::upstream::{self, vector::CombiningKind};

mod collective;
pub use collective::DeviceId;

/// An operand of a binary idiom: a value, or a Rust number that becomes a
/// constant of the other operand's element type (Python's weakly typed
/// scalars: `x * 2.0`, `i == 0`).
#[derive(Clone, Copy, Debug)]
pub enum Operand<'c, 'a> {
    /// A value of the kernel.
    Value(Value<'c, 'a>),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
}

impl<'c, 'a> From<Value<'c, 'a>> for Operand<'c, 'a> {
    fn from(value: Value<'c, 'a>) -> Self {
        Operand::Value(value)
    }
}

impl From<i32> for Operand<'_, '_> {
    fn from(value: i32) -> Self {
        Operand::Int(value.into())
    }
}

impl From<i64> for Operand<'_, '_> {
    fn from(value: i64) -> Self {
        Operand::Int(value)
    }
}

impl From<f32> for Operand<'_, '_> {
    fn from(value: f32) -> Self {
        Operand::Float(value.into())
    }
}

impl From<f64> for Operand<'_, '_> {
    fn from(value: f64) -> Self {
        Operand::Float(value)
    }
}

/// One index of a ref access (Python's `ref[i, pl.ds(j, n), :]`).
#[derive(Clone, Copy, Debug)]
pub enum Index<'c, 'a> {
    /// `:`, the whole dimension.
    All,
    /// An integer index: the dimension is squeezed out.
    At(Operand<'c, 'a>),
    /// `pl.ds(start, size)`.
    Slice(Operand<'c, 'a>, i64),
    /// `pl.ds(start, size, stride=stride)`: every `stride`-th element
    /// (`tpu.strided_load` / `tpu.strided_store`).
    Strided(Operand<'c, 'a>, i64, i64),
}

/// `:`, the whole dimension (trailing dimensions not indexed are whole too).
pub const ALL: Index<'static, 'static> = Index::All;

/// `pl.ds(start, size)`: `size` elements from `start` (a number, or an `i32`
/// or `index` value).
pub fn ds<'c, 'a>(start: impl Into<Operand<'c, 'a>>, size: i64) -> Index<'c, 'a> {
    Index::Slice(start.into(), size)
}

/// `pl.ds(start, size, stride=stride)`: `size` elements from `start`, every
/// `stride`-th.
pub fn ds_strided<'c, 'a>(
    start: impl Into<Operand<'c, 'a>>,
    size: i64,
    stride: i64,
) -> Index<'c, 'a> {
    Index::Strided(start.into(), size, stride)
}

/// An integer index (`ref[i]`): the dimension is squeezed out of the value.
pub fn at<'c, 'a>(index: impl Into<Operand<'c, 'a>>) -> Index<'c, 'a> {
    Index::At(index.into())
}

/// A reduction of [`Body::reduce`] (`jnp.sum`, `jnp.max`, `jnp.min`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `jnp.sum`.
    Sum,
    /// `jnp.max`.
    Max,
    /// `jnp.min`.
    Min,
}

/// Options of [`Body::dot_with`] (`lax.dot_general` of 2-D operands with
/// `preferred_element_type` f32 for floats, i32 for integers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DotOptions {
    /// Contract the left operand's dimension 0 (`x.T @ y`).
    pub transpose_lhs: bool,
    /// Contract the right operand's dimension 1 (`x @ y.T`).
    pub transpose_rhs: bool,
    /// `precision=` (`None`: the default, no attribute).
    pub precision: Option<ContractPrecision>,
}

impl DotOptions {
    /// `lax.dot_general(x, y, (((1,), (1,)), ((), ())))`: `x @ y.T`, as
    /// attention's `q @ k.T` (`k.dot_with(q, k, DotOptions::rhs_transposed())?`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     // x @ x.T: contract the last dimensions
    ///     let g = k.dot_with(x, x, DotOptions::rhs_transposed())?;
    ///     assert_eq!(g.r#type().to_string(), "vector<8x8xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("tpu.matmul"));
    /// ```
    pub fn rhs_transposed() -> Self {
        DotOptions {
            transpose_rhs: true,
            ..DotOptions::default()
        }
    }
}

/// The block being built and what the Pallas idioms need: the context, the
/// kernel's name (for errors), its grid and grid indices, and the location
/// given to every op. [`super::pallas::KernelArgs`] dereferences to the
/// body of the kernel function; [`Body::when`] and [`Body::fori_loop`] give
/// their closures the body of the region they build.
///
/// Each method appends
/// exactly the ops JAX 0.12's Pallas TPU lowering appends for the same
/// Python, in the same order (checked against real lowerings), so that a
/// kernel written with them is `diff`-equal to JAX's.
///
/// | Python (Pallas)                          | Rust (`k: &Body`)                          |
/// |------------------------------------------|--------------------------------------------|
/// | `x_ref[...]`                             | `k.load(x_ref)?`                           |
/// | `x_ref[pl.ds(i, 8), :]`, `x_ref[0]`      | `k.load_at(x_ref, &[ds(i, 8), ALL])?`, `&[at(0)]` |
/// | `o_ref[...] = v`                         | `k.store(o_ref, v)?`                       |
/// | `pltpu.store(o_ref, v, mask=m)`          | `k.store_masked(o_ref, &[], v, m)?`        |
/// | `pl.program_id(0)`, `pl.num_programs(0)` | `k.program_id(0)?`, `k.num_programs(0)?`   |
/// | `@pl.when(c)`                            | `k.when(c, \|k\| { …; Ok(()) })?`           |
/// | `lax.fori_loop(0, n, body, init)`        | `k.fori_loop(0, n, &init, \|k, i, c\| …)?`  |
/// | `x + y`, `x * 2.0`, `x > 0`, `jnp.where` | `k.add(x, y)?`, `k.mul(x, 2.0)?`, `k.gt(x, 0.0)?`, `k.select(..)?` |
/// | `jnp.exp(x)`, `lax.rsqrt(x)`             | `k.exp(x)?`, `k.rsqrt(x)?`                 |
/// | `jnp.max(x, axis=1, keepdims=True)`      | `k.max(x, 1, true)?`                       |
/// | `jnp.dot(x, y, preferred_element_type=f32)` | `k.dot(x, y)?`                          |
/// | `x.astype(jnp.bfloat16)`                 | `k.astype(x, Type::bfloat16(ctx))?`        |
/// | `jnp.zeros_like(acc_ref)`                | `k.zeros_like(acc_ref)?`                   |
///
/// Binary operations broadcast as Pallas does: a Rust number becomes an
/// `arith.constant` of the other operand's element type, then every operand
/// whose shape differs from the result's is `vector.broadcast` to it.
///
/// Each method's example builds a small kernel with a hidden helper
/// (`testing::doc_kernel`) and checks the op appended. Its grid is `(2,)`
/// and its refs, in `k.refs()` order (`k.scalar_prefetch`, `k.inputs`,
/// `k.outputs`, `k.scratch`): `s` (SMEM `i32[4]`, scalar prefetch), `x`
/// (an `f32[8, 128]` block), `n` (an `i32[8, 128]` block), `h`
/// (`f32[16, 128]` in `ANY`), `o` (the `f32[8, 128]` output block), `acc`
/// (VMEM `f32[2, 8, 128]`), `sems` (2 DMA semaphores), `flag` (a
/// semaphore). The SparseCore examples' kernel (`testing::doc_sc_kernel`,
/// 1 core x 16 subcores) has `x_hbm` (`f32[16]`), `i_hbm` (`i32[16]`),
/// `o_hbm` (`f32[16]`) and the VMEM scratch `x`, `i`, `o` of those types.
///
/// A kernel with a manual DMA into one slot of a VMEM buffer, a loop and a
/// `lax.cond` (issue 40's examples, examples/pallas_examples, use the rest:
/// scalar-prefetch reads, double buffering, SparseCore gathers):
///
/// ```
/// use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
/// use tpu_custom_call::mosaic::BuildError;
/// use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
/// use tpu_custom_call::mosaic::pallas::{ALL, Arg, KernelSpec, Reduce, at, ds, vector_type};
///
/// let ctx = tpu_custom_call::Context::new();
/// let f32 = Type::float32(&ctx);
/// let dma = attrs::dma_semaphore_type(&ctx);
/// let module = KernelSpec::new("idioms")
///     .input(Arg::memref(&ctx, &[16, 128], f32, MemorySpace::Any))
///     .output(Arg::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem))
///     .scratch_shapes([
///         Arg::memref(&ctx, &[2, 8, 128], f32, MemorySpace::Vmem),
///         Arg::memref(&ctx, &[2], dma, MemorySpace::SemaphoreMem),
///     ])
///     .build(&ctx, |k| {
///         // def kernel(x_hbm, o_ref, buf, sems):
///         let [x_hbm, o_ref, buf, sems] = k.refs()?;
///         // c = pltpu.make_async_copy(x_hbm.at[pl.ds(8, 8)], buf.at[1], sems.at[1])
///         let c = k.async_copy(x_hbm, &[ds(8, 8)], buf, &[at(1)], sems).sem_at(&[at(1)]);
///         c.start(k)?;
///         c.wait(k)?;
///         let x = k.load_at(buf, &[at(1), ALL, ALL])?;
///         // acc = lax.fori_loop(0, 3, lambda i, acc: acc + x, x)
///         let acc = k.fori_loop(0, 3, &[x], |k, _, acc| Ok(vec![k.add(acc[0], x)?]))?;
///         // o_ref[...] = lax.cond(jnp.max(acc) > 0, lambda: jnp.exp(acc), lambda: -acc)
///         let positive = k.gt(k.reduce(Reduce::Max, acc[0], &[0, 1], false)?, 0.0)?;
///         let types = [vector_type(&[8, 128], f32)];
///         let y = k.cond(positive, &types, |k| Ok(vec![k.exp(acc[0])?]), |k| {
///             Ok(vec![k.neg(acc[0])?])
///         })?;
///         k.store(o_ref, y[0])
///     })?;
/// assert!(module.as_operation().verify());
/// # Ok::<(), BuildError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Body<'c, 'a> {
    ctx: &'c MlirContext,
    block: BlockRef<'c, 'a>,
    location: Location<'c>,
    kernel: &'a str,
    grid: &'a [i64],
    program_ids: &'a [Value<'c, 'a>],
    core_type: CoreType,
    vreg_lanes: Option<usize>,
    /// In the body of an inner pipeline (`emit_pipeline`): Pallas lowers
    /// every VMEM store there as a swap with same-shape `vector.shape_cast`s.
    in_pipeline: bool,
    /// The kernel's entry block and how many of its last arguments are
    /// scratch operands (an inner pipeline's body may access those).
    entry: BlockRef<'c, 'a>,
    scratch_count: usize,
    /// The `shard_map` mesh the kernel runs under (axis names and sizes).
    mesh: &'a [(String, i64)],
    /// The kernel's operand refs (inputs and outputs).
    operands: &'a [Value<'c, 'a>],
}

impl fmt::Debug for Body<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Body")
            .field("kernel", &self.kernel)
            .field("grid", &self.grid)
            .finish_non_exhaustive()
    }
}

/// The element type of a vector type, or the type itself.
fn element_of(ty: Type<'_>) -> Type<'_> {
    vector_parts(ty).map_or(ty, |(_, e)| e)
}

/// The shape of a vector type; empty for a scalar.
fn shape_of(ty: Type<'_>) -> Vec<i64> {
    vector_parts(ty).map_or_else(Vec::new, |(s, _)| s)
}

fn is_float(ty: Type<'_>) -> bool {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty.to_raw()) }
}

fn float_width(ty: Type<'_>) -> u32 {
    // SAFETY: only called on float types.
    unsafe { mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()) }
}

fn int_width(ty: Type<'_>) -> Option<u32> {
    // SAFETY: a live type; the width is asked of integer types only.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(ty.to_raw())
            .then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
    }
}

/// `vector<shape x element>`, or `element` for an empty shape.
fn shaped<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    if shape.is_empty() {
        element
    } else {
        vector_type(shape, element)
    }
}

fn has_uses(value: Value<'_, '_>) -> bool {
    // SAFETY: a live value.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

impl<'c, 'a> Body<'c, 'a> {
    /// The body of `block` in kernel `kernel` with grid `grid`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        ctx: &'c MlirContext,
        block: &'a Block<'c>,
        kernel: &'a str,
        grid: &'a [i64],
        program_ids: &'a [Value<'c, 'a>],
        core_type: CoreType,
        vreg_lanes: Option<usize>,
        scratch_count: usize,
        mesh: &'a [(String, i64)],
        operands: &'a [Value<'c, 'a>],
    ) -> Self {
        // SAFETY: the block outlives 'a (it is borrowed for 'a).
        let block = unsafe { BlockRef::from_raw(block.to_raw()) };
        Self {
            entry: block,
            scratch_count,
            ctx,
            block,
            location: Location::unknown(ctx),
            kernel,
            grid,
            program_ids,
            core_type,
            vreg_lanes,
            in_pipeline: false,
            mesh,
            operands,
        }
    }

    /// The context.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let f32 = Type::float32(k.ctx());
    ///     k.store(k.outputs[0], k.zeros(vector_type(&[8, 128], f32))?)
    /// });
    /// // A scalar constant, broadcast (as Pallas lowers `jnp.full`).
    /// assert!(text.contains("arith.constant 0.000000e+00 : f32") && text.contains("vector.broadcast"));
    /// ```
    pub fn ctx(&self) -> &'c MlirContext {
        self.ctx
    }

    /// The block ops are appended to.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     // The grid index, then the 8 refs.
    ///     assert_eq!(k.block().argument_count(), 9);
    ///     Ok(())
    /// });
    /// assert!(text.contains("func.func @example"));
    /// ```
    pub fn block(&self) -> BlockRef<'c, 'a> {
        self.block
    }

    /// The location given to the ops (`loc(unknown)` unless set).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     assert_eq!(k.location().to_string(), "loc(unknown)");
    ///     Ok(())
    /// });
    /// assert!(!text.is_empty());
    /// ```
    pub fn location(&self) -> Location<'c> {
        self.location
    }

    /// The same body giving `location` to the ops it appends.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Location;
    /// let text = doc_kernel(|k| {
    ///     let here = Location::new(k.ctx(), "kernel.py", 3, 5);
    ///     let at_line_3 = k.with_location(here);
    ///     assert_eq!(at_line_3.location().to_string(), "loc(\"kernel.py\":3:5)");
    ///     at_line_3.store(k.outputs[0], at_line_3.load(k.inputs[0])?)
    /// });
    /// assert!(text.contains("tpu.vector_store"));
    /// ```
    pub fn with_location(&self, location: Location<'c>) -> Self {
        Self { location, ..*self }
    }

    /// The body of `block` (a region of an op this body appended) without
    /// the kernel's grid: `program_id` there is refused (an inner pipeline's
    /// body, whose grid indices Pallas gives instead).
    pub(crate) fn nested_without_grid(&self, block: BlockRef<'c, 'a>) -> Self {
        Self {
            block,
            grid: &[],
            program_ids: &[],
            in_pipeline: true,
            ..*self
        }
    }

    /// Whether `r` is one of the kernel's scratch operands (an argument of
    /// the kernel's entry block among its last `scratch_operands`).
    pub(crate) fn is_scratch(&self, r: Value<'c, '_>) -> bool {
        // SAFETY: a live value; the owner block and the argument number are
        // asked of block arguments only.
        unsafe {
            let raw = r.to_raw();
            if !mlir_sys::mlirValueIsABlockArgument(raw) {
                return false;
            }
            let owner = mlir_sys::mlirBlockArgumentGetOwner(raw);
            if owner.ptr != self.entry.to_raw().ptr {
                return false;
            }
            let args = mlir_sys::mlirBlockGetNumArguments(owner) as i64;
            let number = mlir_sys::mlirBlockArgumentGetArgNumber(raw) as i64;
            self.scratch_count > 0 && number >= args - self.scratch_count as i64
        }
    }

    /// The kernel's name (for errors of idioms in other modules).
    pub(crate) fn kernel_name(&self) -> &'a str {
        self.kernel
    }

    pub(crate) fn error(&self, op: &str, message: String) -> BuildError {
        BuildError::Op {
            kernel: self.kernel.to_string(),
            op: op.to_string(),
            message,
        }
    }

    /// Whether the kernel runs on a SparseCore subcore.
    pub(crate) fn sparse_core(&self) -> bool {
        matches!(
            self.core_type,
            CoreType::ScVectorSubcore | CoreType::ScScalarSubcore
        )
    }

    /// `plsc.load_gather(x_ref, [idx])` (SparseCore): `tpu.vector_load_idx`,
    /// `out[i] = x_ref[idx0[i], idx1[i], ..]`, one `i32` index vector per ref
    /// dimension.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // o[...] = plsc.load_gather(x, [i[...]])
    ///     k.store(o, k.load_gather(x, &[k.load(i)?])?)
    /// });
    /// assert!(text.contains("tpu.vector_load_idx"));
    /// ```
    pub fn load_gather(
        &self,
        r: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (shape, element) = self.gather_parts("load_gather", r, indices)?;
        Ok(self.one(ops::vector_load_idx(
            self.ctx,
            r,
            indices,
            None,
            vector_type(&shape, element),
            self.location,
        )))
    }

    /// `plsc.store_scatter(o_ref, [idx], x)` (SparseCore):
    /// `tpu.vector_store_idx`, `o_ref[idx[i]] = x[i]` (of lanes with the
    /// same index, the highest lane's value is stored).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // plsc.store_scatter(o, [i[...]], x[...])
    ///     k.store_scatter(o, &[k.load(i)?], k.load(x)?)
    /// });
    /// assert!(text.contains("tpu.vector_store_idx"));
    /// ```
    pub fn store_scatter(
        &self,
        r: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
        x: Value<'c, 'a>,
    ) -> Result<(), BuildError> {
        self.gather_parts("store_scatter", r, indices)?;
        self.append(ops::vector_store_idx(
            self.ctx,
            x,
            r,
            indices,
            None,
            None,
            self.location,
        ));
        Ok(())
    }

    /// `plsc.addupdate_scatter(o_ref, [idx], x)` (SparseCore):
    /// `tpu.vector_store_idx` with `add = true`, `o_ref[idx[i]] += x[i]`
    /// (lanes with the same index all add).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // plsc.addupdate_scatter(o, [i[...]], x[...])
    ///     k.addupdate_scatter(o, &[k.load(i)?], k.load(x)?)
    /// });
    /// assert!(text.contains("tpu.vector_store_idx") && text.contains("add = true"));
    /// ```
    pub fn addupdate_scatter(
        &self,
        r: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
        x: Value<'c, 'a>,
    ) -> Result<(), BuildError> {
        self.gather_parts("addupdate_scatter", r, indices)?;
        self.append(ops::vector_store_idx(
            self.ctx,
            x,
            r,
            indices,
            None,
            Some(true),
            self.location,
        ));
        Ok(())
    }

    /// `plsc.subcore_barrier()` (a vector-subcore kernel): `tpu.barrier`
    /// with barrier id 0; every subcore of the core waits there until all
    /// have reached it (what they wrote to `VMEM_SHARED` before is then
    /// seen by all).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     k.subcore_barrier() // plsc.subcore_barrier()
    /// });
    /// assert!(text.contains("tpu.barrier"));
    /// ```
    pub fn subcore_barrier(&self) -> Result<(), BuildError> {
        if self.core_type != CoreType::ScVectorSubcore {
            return Err(self.error(
                "subcore_barrier",
                format!("a {} kernel: subcore_barrier synchronises the vector subcores of a SparseCore (KernelSpec::vector_subcore_mesh)", self.core_type),
            ));
        }
        let id = self.index(0);
        self.append(ops::barrier(self.ctx, id, self.location));
        Ok(())
    }

    /// `plsc.sort_key_val(keys, values, descending=..)` (SparseCore): sorts
    /// the lanes of `keys` (i32 or f32), `values` following, with
    /// `tpu.sort` under an all-true mask; gives the sorted keys and values.
    /// `i32` keys are XORed with `0x80000000` before and after, as Pallas
    /// does (`tpu.sort` compares unsigned).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // keys, values = plsc.sort_key_val(i[...], x[...])
    ///     let (keys, values) = k.sort_key_val(k.load(i)?, k.load(x)?, false)?;
    ///     k.store(i, keys)?;
    ///     k.store(o, values)
    /// });
    /// assert!(text.contains("tpu.sort"));
    /// ```
    pub fn sort_key_val(
        &self,
        keys: Value<'c, 'a>,
        values: Value<'c, 'a>,
        descending: bool,
    ) -> Result<(Value<'c, 'a>, Value<'c, 'a>), BuildError> {
        let (key_type, value_type) = (keys.r#type(), values.r#type());
        let shape = shape_of(key_type);
        if shape.len() != 1 || shape_of(value_type) != shape {
            return Err(self.error(
                "sort_key_val",
                format!(
                    "keys {key_type} and values {value_type}: give two vectors of one lane shape"
                ),
            ));
        }
        let i1: Type<'c> = IntegerType::new(self.ctx, 1).into();
        let mask_type = vector_type(&shape, i1);
        let mask = self.dense(1, mask_type)?;
        let signed = int_width(element_of(key_type)) == Some(32);
        let flip = |k: Value<'c, 'a>, bit: Option<Value<'c, 'a>>| -> Result<_, BuildError> {
            let bit = match bit {
                Some(b) => b,
                None => {
                    let min = self.constant(i64::from(i32::MIN), element_of(key_type))?;
                    self.one(upstream::vector::broadcast(key_type, min, self.location))
                }
            };
            let xor = self.one(upstream::build(
                OperationBuilder::new("arith.xori", self.location)
                    .add_operands(&[k, bit])
                    .add_results(&[key_type]),
            ));
            Ok((xor, bit))
        };
        let (sort_keys, bit) = if signed {
            let (k, b) = flip(keys, None)?;
            (k, Some(b))
        } else {
            (keys, None)
        };
        let op = self.append(ops::sort(
            self.ctx,
            sort_keys,
            values,
            Some(mask),
            mask_type,
            key_type,
            value_type,
            descending.then_some(true),
            self.location,
        ));
        let result = |i: usize| -> Result<Value<'c, 'a>, BuildError> {
            op.result(i)
                .map(Value::from)
                .map_err(|e| self.error("tpu.sort", e.to_string()))
        };
        let (sorted_keys, sorted_values) = (result(1)?, result(2)?);
        let sorted_keys = match bit {
            Some(b) => flip(sorted_keys, Some(b))?.0,
            None => sorted_keys,
        };
        Ok((sorted_keys, sorted_values))
    }

    /// The lanes of a SparseCore vector register when the kernel is lowered
    /// without the layout passes ([`super::pallas::KernelSpec::without_layout_passes`]):
    /// loads and stores are then whole registers, of the shapes Pallas
    /// allows (`sc_core.supported_shapes`: `(lanes * p,)` or `(p, lanes)`
    /// of an element packing `p` per 32 bits); `None` with the passes on.
    fn vreg(
        &self,
        op: &str,
        value: &[i64],
        element: Type<'c>,
    ) -> Result<Option<Vec<bool>>, BuildError> {
        let Some(lanes) = self.vreg_lanes.filter(|_| self.sparse_core()) else {
            return Ok(None);
        };
        let bits = int_width(element).or_else(|| is_float(element).then(|| float_width(element)));
        let packing = match bits {
            Some(b @ (8 | 16 | 32)) => 32 / b as i64,
            _ => {
                return Err(self.error(
                    op,
                    format!("{element} elements in a register: give 8, 16 or 32-bit elements"),
                ));
            }
        };
        let n = lanes as i64;
        if value != [n * packing] && !(packing > 1 && value == [packing, n]) {
            return Err(self.error(op, format!("a value of shape {value:?} without the layout passes: give a whole register, ({},){}", n * packing, if packing > 1 { format!(" or ({packing}, {n})") } else { String::new() })));
        }
        Ok(Some(vec![true; lanes]))
    }

    /// Refuses a SparseCore-only idiom in a TensorCore kernel.
    fn sparse_core_only(&self, op: &str) -> Result<(), BuildError> {
        if self.sparse_core() {
            return Ok(());
        }
        Err(self.error(
            op,
            "is a SparseCore op (plsc): build the kernel with KernelSpec::vector_subcore_mesh"
                .to_string(),
        ))
    }

    /// The start indices and the loaded shape (1 for integer-indexed
    /// dimensions) of an expanded load or compressed store of `r` at
    /// `indices` (`ref.at[indices]`), checked as Pallas's SparseCore
    /// lowering checks them; `x` (the mask or the stored value) must have
    /// the slice's shape.
    #[allow(clippy::type_complexity)]
    fn masked_window(
        &self,
        op: &str,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
        x: Value<'c, '_>,
    ) -> Result<(Vec<Value<'c, 'a>>, Vec<i64>, Vec<i64>, Type<'c>), BuildError> {
        self.sparse_core_only(op)?;
        if Self::is_smem(r) {
            return Err(self.error(
                op,
                format!("{} is an SMEM ref: give a VMEM ref", r.r#type()),
            ));
        }
        let (starts, loaded, value, element, strides) = self.access_strided(op, r, indices)?;
        if strides.iter().any(|&s| s != 1) {
            return Err(self.error(op, "a strided slice: give slices of stride 1".to_string()));
        }
        let first = loaded.iter().position(|&n| n != 1).unwrap_or(loaded.len());
        let squeezed_after = indices
            .iter()
            .skip(first)
            .any(|i| matches!(i, Index::At(_)));
        if value.is_empty() || squeezed_after {
            return Err(self.error(op, "an integer index after a slice longer than 1 (or no slice at all): Pallas's SparseCore lowering refuses it".to_string()));
        }
        if shape_of(x.r#type()) != value {
            return Err(self.error(
                op,
                format!(
                    "{} for a slice of shape {value:?}: give a mask (and value) of the slice's shape",
                    x.r#type()
                ),
            ));
        }
        Ok((starts, loaded, value, element))
    }

    /// `plsc.load_expanded(x_ref.at[indices], mask=mask)` (SparseCore):
    /// the `i`-th true lane of `mask` gets the `i`-th element of the slice
    /// (along its last dimension); the other lanes are unspecified (select
    /// them away). `tpu.vector_expand_load` between shape casts, as Pallas
    /// lowers it with layout passes (the default).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     let mask = k.gt(k.load(i)?, 5)?;
    ///     // jnp.where(mask, plsc.load_expanded(x.at[...], mask=mask), 0.0)
    ///     let e = k.load_expanded(x, &[], mask)?;
    ///     k.store(o, k.select(mask, e, 0.0)?)
    /// });
    /// assert!(text.contains("tpu.vector_expand_load"));
    /// ```
    pub fn load_expanded(
        &self,
        r: Value<'c, 'a>,
        indices: &[Index<'c, 'a>],
        mask: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (starts, loaded, value, element) =
            self.masked_window("load_expanded", r, indices, mask)?;
        self.expand_load(r, &starts, &loaded, &value, element, mask)
    }

    /// The shape casts and `tpu.vector_expand_load` of an expanded load.
    fn expand_load(
        &self,
        r: Value<'c, 'a>,
        starts: &[Value<'c, 'a>],
        loaded: &[i64],
        value: &[i64],
        element: Type<'c>,
        mask: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        if self.vreg("load_expanded", value, element)?.is_some() {
            return Ok(self.one(ops::expand_load_vreg(
                self.ctx,
                r,
                starts,
                mask,
                vector_type(value, element),
                self.location,
            )));
        }
        let mask_type = vector_type(loaded, element_of(mask.r#type()));
        let mask = self.one(upstream::vector::shape_cast(mask_type, mask, self.location));
        let v = self.one(ops::vector_expand_load(
            self.ctx,
            r,
            starts,
            mask,
            vector_type(loaded, element),
            loaded.len() as i32 - 1,
            self.location,
        ));
        Ok(self.one(upstream::vector::shape_cast(
            vector_type(value, element),
            v,
            self.location,
        )))
    }

    /// `plsc.store_compressed(o_ref.at[indices], x, mask=mask)`
    /// (SparseCore): the true lanes of `x`, in order, go to the first
    /// elements of the slice (along its last dimension); the rest of the ref
    /// is kept. As Pallas lowers it: the old value (an expanded load), then
    /// `tpu.vector_compress_store`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     let mask = k.gt(k.load(i)?, 5)?;
    ///     // plsc.store_compressed(o.at[...], x[...], mask=mask)
    ///     k.store_compressed(o, &[], k.load(x)?, mask)
    /// });
    /// assert!(text.contains("tpu.vector_compress_store"));
    /// ```
    pub fn store_compressed(
        &self,
        r: Value<'c, 'a>,
        indices: &[Index<'c, 'a>],
        x: Value<'c, 'a>,
        mask: Value<'c, 'a>,
    ) -> Result<(), BuildError> {
        let (starts, loaded, value, element) =
            self.masked_window("store_compressed", r, indices, mask)?;
        if x.r#type() != vector_type(&value, element) {
            return Err(self.error(
                "store_compressed",
                format!(
                    "the value has type {} but the slice of {} is {}: give a value of the slice's type",
                    x.r#type(),
                    r.r#type(),
                    vector_type(&value, element)
                ),
            ));
        }
        self.expand_load(r, &starts, &loaded, &value, element, mask)?;
        if self.vreg_lanes.is_some() {
            self.append(ops::compress_store_vreg(
                self.ctx,
                x,
                r,
                &starts,
                mask,
                Some(false),
                self.location,
            ));
            return Ok(());
        }
        let x = self.one(upstream::vector::shape_cast(
            vector_type(&loaded, element),
            x,
            self.location,
        ));
        let mask_type = vector_type(&loaded, element_of(mask.r#type()));
        let mask = self.one(upstream::vector::shape_cast(mask_type, mask, self.location));
        self.append(ops::vector_compress_store(
            self.ctx,
            x,
            r,
            &starts,
            mask,
            loaded.len() as i32 - 1,
            Some(false),
            self.location,
        ));
        Ok(())
    }

    /// The mask of a scan: `mask`, or all true (`lax.full(x.shape, True)`:
    /// `arith.constant true` broadcast), checked against `x` (a 1-D vector of
    /// `i32` or `f32`).
    fn scan_mask(
        &self,
        op: &str,
        x: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.sparse_core_only(op)?;
        let (ty, shape) = (x.r#type(), shape_of(x.r#type()));
        let element = element_of(ty);
        let supported =
            int_width(element) == Some(32) || (is_float(element) && float_width(element) == 32);
        if shape.len() != 1 || !supported {
            return Err(self.error(op, format!("{ty}: give a 1-D vector of i32 or f32")));
        }
        let i1: Type<'c> = IntegerType::new(self.ctx, 1).into();
        let mask_type = vector_type(&shape, i1);
        match mask {
            Some(m) if m.r#type() == mask_type => Ok(m),
            Some(m) => Err(self.error(
                op,
                format!("the mask has type {}: give a {mask_type}", m.r#type()),
            )),
            None => {
                let t = self.constant(1, i1)?;
                Ok(self.one(upstream::vector::broadcast(mask_type, t, self.location)))
            }
        }
    }

    /// `plsc.cumsum(x, mask=mask)` (SparseCore; also `jnp.cumsum(x)` there):
    /// the running sum of the lanes of `x` (1-D, `i32` or `f32`) whose mask
    /// is true (`None`: every lane), `tpu.scan <sum>`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     let mask = k.gt(k.load(i)?, 5)?;
    ///     // plsc.cumsum(x[...], mask=mask)
    ///     k.store(o, k.cumsum(k.load(x)?, Some(mask))?)
    /// });
    /// assert!(text.contains("tpu.scan") && text.contains("#tpu.reduction_kind<sum>"));
    /// ```
    pub fn cumsum(
        &self,
        x: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let mask = self.scan_mask("cumsum", x, mask)?;
        Ok(self.one(ops::scan(
            self.ctx,
            x,
            Some(mask),
            x.r#type(),
            ReductionKind::Sum,
            0,
            self.location,
        )))
    }

    /// `plsc.cummax(x, mask=mask)` (SparseCore): the running maximum of the
    /// lanes of `x` whose mask is true; lanes before the first true one keep
    /// their own value. `tpu.scan <maxf>` of `f32`; of `i32` (taken as
    /// `int32`), `<maxui>` between XORs with the sign bit, as Pallas lowers
    /// it.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // plsc.cummax(i[...]): int32 compared unsigned, the sign bit flipped around
    ///     k.store(i, k.cummax(k.load(i)?, None)?)
    /// });
    /// assert!(text.contains("#tpu.reduction_kind<maxui>") && text.contains("arith.xori"));
    /// ```
    pub fn cummax(
        &self,
        x: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let mask = self.scan_mask("cummax", x, mask)?;
        let ty = x.r#type();
        if is_float(element_of(ty)) {
            return Ok(self.one(ops::scan(
                self.ctx,
                x,
                Some(mask),
                ty,
                ReductionKind::Maxf,
                0,
                self.location,
            )));
        }
        let min = self.constant(i64::from(i32::MIN), element_of(ty))?;
        let bit = self.one(upstream::vector::broadcast(ty, min, self.location));
        let flipped = self.xor(x, bit)?;
        let scan = self.one(ops::scan(
            self.ctx,
            flipped,
            Some(mask),
            ty,
            ReductionKind::Maxui,
            0,
            self.location,
        ));
        self.xor(scan, bit)
    }

    /// `plsc.scan_count(x, mask=mask)` (SparseCore): for each lane, how many
    /// lanes up to it (whose mask is true) hold its value (`i32`), and
    /// whether it is the last of them (the mask). `tpu.scan_count`, whose
    /// results come mask first.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [_, _, _, x, i, o] = k.refs()?;
    ///     // counts, last = plsc.scan_count(i[...])
    ///     let (counts, last) = k.scan_count(k.load(i)?, None)?;
    ///     k.store(i, k.select(last, counts, 0)?)
    /// });
    /// assert!(text.contains("tpu.scan_count"));
    /// ```
    pub fn scan_count(
        &self,
        x: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
    ) -> Result<(Value<'c, 'a>, Value<'c, 'a>), BuildError> {
        let mask = self.scan_mask("scan_count", x, mask)?;
        let op = ops::scan_count(self.ctx, mask, x, self.location)?;
        let op = self.append(op);
        let result = |i: usize| -> Result<Value<'c, 'a>, BuildError> {
            op.result(i)
                .map(Value::from)
                .map_err(|e| self.error("tpu.scan_count", e.to_string()))
        };
        let (last, counts) = (result(0)?, result(1)?);
        Ok((counts, last))
    }

    /// The shape of the index vectors and the ref's element type, checked.
    fn gather_parts(
        &self,
        op: &str,
        r: Value<'c, 'a>,
        indices: &[Value<'c, 'a>],
    ) -> Result<(Vec<i64>, Type<'c>), BuildError> {
        let Some((shape, element)) = memref_parts(r.r#type()) else {
            return Err(self.error(op, format!("{r} is not a ref: give a VMEM ref")));
        };
        if indices.len() != shape.len() || indices.is_empty() {
            return Err(self.error(
                op,
                format!(
                    "{} index vectors for a ref of rank {}: give one per dimension",
                    indices.len(),
                    shape.len()
                ),
            ));
        }
        let first = indices[0].r#type();
        if indices.iter().any(|i| i.r#type() != first) || int_width(element_of(first)) != Some(32) {
            let types: Vec<String> = indices.iter().map(|i| i.r#type().to_string()).collect();
            return Err(self.error(
                op,
                format!("the indices have types {types:?}: give i32 vectors of one shape"),
            ));
        }
        Ok((shape_of(first), element))
    }

    /// Appends any op (a melior, [`upstream`] or [`ops`] builder's).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::{dialect::arith, ir::{Type, attribute::IntegerAttribute}};
    /// let text = doc_kernel(|k| {
    ///     let seven = IntegerAttribute::new(Type::index(k.ctx()), 7).into();
    ///     k.append(arith::constant(k.ctx(), seven, k.location()));
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 7 : index"));
    /// ```
    pub fn append(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        self.block.append_operation(op)
    }

    /// Appends an op and gives its one result.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::{dialect::arith, ir::{Type, attribute::IntegerAttribute}};
    /// let text = doc_kernel(|k| {
    ///     let seven = IntegerAttribute::new(Type::index(k.ctx()), 7).into();
    ///     let c = k.value(arith::constant(k.ctx(), seven, k.location()))?;
    ///     assert_eq!(c.r#type().to_string(), "index");
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 7 : index"));
    /// ```
    pub fn value(&self, op: Operation<'c>) -> Result<Value<'c, 'a>, BuildError> {
        let name = crate::ffi::identifier_string(&op.name());
        let op = self.append(op);
        op.result(0).map(Value::from).map_err(|_| {
            self.error(
                &name,
                "has no result: use `append` for ops without results".to_string(),
            )
        })
    }

    /// Appends an op that cannot fail to have its one result (built here).
    fn one(&self, op: Operation<'c>) -> Value<'c, 'a> {
        let op = self.append(op);
        match op.result(0) {
            Ok(result) => result.into(),
            Err(e) => unreachable!("an op built with one result: {e}"),
        }
    }

    // ----- constants -----

    /// `arith.constant <value> : index`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let c = k.index(3);
    ///     assert_eq!(c.r#type().to_string(), "index");
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 3 : index"));
    /// ```
    pub fn index(&self, value: i64) -> Value<'c, 'a> {
        let attr = IntegerAttribute::new(Type::index(self.ctx), value).into();
        self.one(arith::constant(self.ctx, attr, self.location))
    }

    /// `arith.constant <value> : i32`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     k.i32(7);
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 7 : i32"));
    /// ```
    pub fn i32(&self, value: i32) -> Value<'c, 'a> {
        let ty = IntegerType::new(self.ctx, 32).into();
        let attr = IntegerAttribute::new(ty, value.into()).into();
        self.one(arith::constant(self.ctx, attr, self.location))
    }

    /// `arith.constant <value> : f32`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     k.f32(0.5);
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 5.000000e-01 : f32"));
    /// ```
    pub fn f32(&self, value: f32) -> Value<'c, 'a> {
        let attr = FloatAttribute::new(self.ctx, Type::float32(self.ctx), value.into()).into();
        self.one(arith::constant(self.ctx, attr, self.location))
    }

    fn scalar_attr(
        &self,
        op: &str,
        value: Operand<'_, '_>,
        ty: Type<'c>,
    ) -> Result<Attribute<'c>, BuildError> {
        Ok(match value {
            Operand::Int(v) if is_float(ty) => FloatAttribute::new(self.ctx, ty, v as f64).into(),
            Operand::Float(v) if is_float(ty) => FloatAttribute::new(self.ctx, ty, v).into(),
            Operand::Int(v) if ty.is_integer() || ty.is_index() => {
                IntegerAttribute::new(ty, v).into()
            }
            Operand::Float(v) => {
                return Err(self.error(
                    op,
                    format!("the float {v} cannot be a constant of type {ty}: give an integer"),
                ));
            }
            Operand::Int(v) => {
                return Err(self.error(op, format!("{v} cannot be a constant of type {ty}: give an integer, index or float type")));
            }
            Operand::Value(v) => return Err(self.error(op, format!("{v} is not a number"))),
        })
    }

    /// `arith.constant <value> : <ty>` of a scalar type.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let c = k.constant(2, Type::bfloat16(k.ctx()))?;
    ///     assert_eq!(c.r#type().to_string(), "bf16");
    ///     Ok(())
    /// });
    /// assert!(text.contains("arith.constant 2.000000e+00 : bf16"));
    /// ```
    pub fn constant(
        &self,
        value: impl Into<Operand<'c, 'a>>,
        ty: Type<'c>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let attr = self.scalar_attr("arith.constant", value.into(), ty)?;
        Ok(self.one(arith::constant(self.ctx, attr, self.location)))
    }

    /// `arith.constant dense<value> : <vector type>` (a splat constant).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let t = vector_type(&[8, 128], Type::float32(k.ctx()));
    ///     k.store(k.outputs[0], k.dense(1.0, t)?)
    /// });
    /// assert!(text.contains("dense<1.000000e+00> : vector<8x128xf32>"));
    /// ```
    pub fn dense(
        &self,
        value: impl Into<Operand<'c, 'a>>,
        ty: Type<'c>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let element = element_of(ty);
        let attr = self.scalar_attr("arith.constant", value.into(), element)?;
        let dense = DenseElementsAttribute::new(ty, &[attr])
            .map_err(|e| self.error("arith.constant", format!("dense<..> : {ty}: {e}")))?;
        Ok(self.one(arith::constant(self.ctx, dense.into(), self.location)))
    }

    /// `jnp.full(shape, value)`: a scalar `arith.constant`, then
    /// `vector.broadcast` to the vector type `ty` (a memref type gives the
    /// vector of its shape: `jnp.full(ref.shape, value, ref.dtype)`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     // jnp.full(o_ref.shape, 2.0): a ref's type gives its vector type
    ///     let o = k.outputs[0];
    ///     k.store(o, k.full(o.r#type(), 2.0)?)
    /// });
    /// // A scalar constant, broadcast (as Pallas lowers `jnp.full`).
    /// assert!(text.contains("arith.constant 2.000000e+00 : f32") && text.contains("vector.broadcast"));
    /// ```
    pub fn full(
        &self,
        ty: Type<'c>,
        value: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let ty = match memref_parts(ty) {
            Some((shape, element)) => vector_type(&shape, element),
            None => ty,
        };
        let scalar = self.constant(value, element_of(ty))?;
        Ok(self.one(upstream::vector::broadcast(ty, scalar, self.location)))
    }

    /// `jnp.zeros(shape)` of the vector type `ty`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let t = vector_type(&[8, 128], Type::float32(k.ctx()));
    ///     k.store(k.outputs[0], k.zeros(t)?)
    /// });
    /// // A scalar constant, broadcast (as Pallas lowers `jnp.full`).
    /// assert!(text.contains("arith.constant 0.000000e+00 : f32") && text.contains("vector.broadcast"));
    /// ```
    pub fn zeros(&self, ty: Type<'c>) -> Result<Value<'c, 'a>, BuildError> {
        self.full(ty, 0)
    }

    /// `jnp.full_like(x, value)` of a ref or a vector.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     // jnp.full_like(x_ref, 1.0)
    ///     k.store(k.outputs[0], k.full_like(k.inputs[0], 1.0)?)
    /// });
    /// // A scalar constant, broadcast (as Pallas lowers `jnp.full`).
    /// assert!(text.contains("arith.constant 1.000000e+00 : f32") && text.contains("vector.broadcast"));
    /// ```
    pub fn full_like(
        &self,
        x: Value<'c, '_>,
        value: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.full(x.r#type(), value)
    }

    /// `jnp.zeros_like(x)` of a ref or a vector.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     // jnp.zeros_like(o_ref)
    ///     k.store(k.outputs[0], k.zeros_like(k.outputs[0])?)
    /// });
    /// // A scalar constant, broadcast (as Pallas lowers `jnp.full`).
    /// assert!(text.contains("arith.constant 0.000000e+00 : f32") && text.contains("vector.broadcast"));
    /// ```
    pub fn zeros_like(&self, x: Value<'c, '_>) -> Result<Value<'c, 'a>, BuildError> {
        let ty = x.r#type();
        let ty = match memref_parts(ty) {
            Some((shape, element)) => vector_type(&shape, element),
            None => ty,
        };
        self.zeros(ty)
    }

    // ----- the grid -----

    /// `pl.program_id(axis)`: the kernel's grid index (no op).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let i = k.program_id(0)?; // pl.program_id(0)
    ///     assert_eq!(i.r#type().to_string(), "i32");
    ///     let y = k.add(k.load(k.inputs[0])?, k.astype(i, Type::float32(k.ctx()))?)?;
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.sitofp"));
    /// ```
    pub fn program_id(&self, axis: usize) -> Result<Value<'c, 'a>, BuildError> {
        if self.in_pipeline {
            return Err(self.pipeline_grid_error("program_id", axis));
        }
        self.program_ids.get(axis).copied().ok_or_else(|| {
            self.error(
                "program_id",
                format!(
                    "axis {axis} is out of range for the grid {:?}: give 0..{} or add a grid dimension with KernelSpec::grid",
                    self.grid,
                    self.grid.len()
                ),
            )
        })
    }

    /// In an `emit_pipeline` body, `pl.program_id` and `pl.num_programs`
    /// are the inner grid's: the body's `step` gives them.
    fn pipeline_grid_error(&self, op: &str, axis: usize) -> BuildError {
        self.error(
            op,
            format!("in an emit_pipeline body, pl.{op}({axis}) is the pipeline's grid index: use step.{op}({axis}) (the body's second argument, PipelineStep); read the kernel's grid indices before emit_pipeline and use them in the body"),
        )
    }

    /// `pl.num_programs(axis)` of a static grid: a number, as in Pallas
    /// (which folds it into the constants it is used in).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     assert_eq!(k.num_programs(0)?, 2); // pl.num_programs(0): a number
    ///     Ok(())
    /// });
    /// assert!(text.contains("iteration_bounds = array<i64: 2>"));
    /// ```
    pub fn num_programs(&self, axis: usize) -> Result<i64, BuildError> {
        if self.in_pipeline {
            return Err(self.pipeline_grid_error("num_programs", axis));
        }
        match self.grid.get(axis) {
            Some(&n) if n >= 0 => Ok(n),
            Some(_) => Err(self.error(
                "num_programs",
                format!("grid dimension {axis} is dynamic: read its bound from an operand"),
            )),
            None => Err(self.error(
                "num_programs",
                format!(
                    "axis {axis} is out of range for the grid {:?}: give 0..{}",
                    self.grid,
                    self.grid.len()
                ),
            )),
        }
    }

    // ----- refs -----

    /// An `index` value for an access index: a constant, or an `i32` value
    /// cast (`arith.index_cast`), or an `index` value as it is.
    fn access_index(&self, op: &str, index: Operand<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        match index {
            Operand::Int(i) => Ok(self.index(i)),
            Operand::Float(f) => {
                Err(self.error(op, format!("index {f} is a float: give an integer")))
            }
            Operand::Value(v) if v.r#type().is_index() => Ok(v),
            Operand::Value(v) if v.r#type().is_integer() => {
                Ok(self.one(arith::index_cast(v, Type::index(self.ctx), self.location)))
            }
            Operand::Value(v) => Err(self.error(
                op,
                format!("index {v} has type {}: give an i32 or index", v.r#type()),
            )),
        }
    }

    /// The `index` operands, the loaded shape (1 for squeezed dimensions),
    /// the value's shape, the element type and each dimension's stride (1
    /// without one) of an access to `r` at `indices`.
    #[allow(clippy::type_complexity)]
    fn access_strided(
        &self,
        op: &str,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
    ) -> Result<(Vec<Value<'c, 'a>>, Vec<i64>, Vec<i64>, Type<'c>, Vec<i64>), BuildError> {
        let (shape, element) = memref_parts(r.r#type()).ok_or_else(|| {
            self.error(
                op,
                format!("{r} has type {}, not a memref: give a ref", r.r#type()),
            )
        })?;
        if indices.len() > shape.len() {
            return Err(self.error(
                op,
                format!(
                    "{} indices for a ref of rank {} ({}): give at most one per dimension",
                    indices.len(),
                    shape.len(),
                    r.r#type()
                ),
            ));
        }
        let (mut operands, mut loaded, mut value) = (Vec::new(), Vec::new(), Vec::new());
        let mut strides = vec![1i64; shape.len()];
        for (d, &size) in shape.iter().enumerate() {
            match indices.get(d).copied().unwrap_or(Index::All) {
                Index::Strided(start, n, stride) => {
                    if stride < 1 || n <= 0 || (size >= 0 && (n - 1) * stride >= size) {
                        return Err(self.error(op, format!("pl.ds(.., {n}, stride={stride}) in dimension {d} of size {size}: give a stride of at least 1 and a size whose last element is inside")));
                    }
                    operands.push(self.access_index(op, start)?);
                    loaded.push(n);
                    value.push(n);
                    strides[d] = stride;
                }
                Index::All => {
                    operands.push(self.index(0));
                    loaded.push(size);
                    value.push(size);
                }
                Index::At(i) => {
                    operands.push(self.access_index(op, i)?);
                    loaded.push(1);
                }
                Index::Slice(start, n) => {
                    if n <= 0 || (size >= 0 && n > size) {
                        return Err(self.error(op, format!("pl.ds(.., {n}) in dimension {d} of size {size}: give a size in 1..={size}")));
                    }
                    operands.push(self.access_index(op, start)?);
                    loaded.push(n);
                    value.push(n);
                }
            }
        }
        Ok((operands, loaded, value, element, strides))
    }

    /// Whether `r` is a memref in `#tpu.memory_space<smem>`.
    fn is_smem(r: Value<'_, '_>) -> bool {
        let ty = r.r#type();
        if memref_parts(ty).is_none() {
            return false;
        }
        // SAFETY: a live memref type.
        let space = unsafe { mlir_sys::mlirMemRefTypeGetMemorySpace(ty.to_raw()) };
        // A memref without memory space gives a null attribute.
        !space.ptr.is_null() && crate::ffi::attr_text(space) == "#tpu.memory_space<smem>"
    }

    /// `x_ref[...]`: a `vector.load` of the whole ref (one `arith.constant 0
    /// : index` per dimension first).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?; // x_ref[...]
    ///     assert_eq!(x.r#type().to_string(), "vector<8x128xf32>");
    ///     k.store(k.outputs[0], x)
    /// });
    /// assert!(text.contains("vector.load"));
    /// ```
    pub fn load(&self, r: Value<'c, '_>) -> Result<Value<'c, 'a>, BuildError> {
        self.load_at(r, &[])
    }

    /// `x_ref[indices]` (`x_ref[pl.ds(i, 8), :]`, `x_ref[0]`): a
    /// `vector.load` of the slice, `vector.shape_cast` without the dimensions
    /// given an integer index. From an SMEM ref with every dimension indexed:
    /// `memref.load` of the scalar.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let top = k.load_at(k.inputs[0], &[ds(0, 4), ALL])?; // x_ref[pl.ds(0, 4), :]
    ///     assert_eq!(top.r#type().to_string(), "vector<4x128xf32>");
    ///     let row = k.load_at(k.inputs[0], &[at(1)])?; // x_ref[1]
    ///     assert_eq!(row.r#type().to_string(), "vector<128xf32>");
    ///     let s0 = k.load_at(k.scalar_prefetch[0], &[at(0)])?; // s_ref[0] (SMEM)
    ///     assert_eq!(s0.r#type().to_string(), "i32");
    ///     Ok(())
    /// });
    /// assert!(text.contains("vector.shape_cast") && text.contains("memref.load"));
    /// ```
    pub fn load_at(
        &self,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (operands, loaded, value, element, strides) =
            self.access_strided("load", r, indices)?;
        if strides.iter().any(|&s| s != 1) {
            if Self::is_smem(r) || loaded != value {
                return Err(self.error("load", "a strided slice of an SMEM ref, or with squeezed dimensions, is not supported: slice every dimension of a VMEM ref".to_string()));
            }
            let s32: Vec<i32> = strides.iter().map(|&s| s as i32).collect();
            return Ok(self.one(ops::strided_load(
                self.ctx,
                r,
                &operands,
                vector_type(&loaded, element),
                &s32,
                self.location,
            )));
        }
        if Self::is_smem(r) {
            if !value.is_empty() {
                return Err(self.error("load", format!("SMEM ref {} is read one scalar at a time: give an integer index per dimension", r.r#type())));
            }
            return Ok(self.one(melior::dialect::memref::load(r, &operands, self.location)));
        }
        if value.is_empty() {
            return Err(self.error(
                "load",
                "a scalar from VMEM: slice it with ds(i, 1) and keep a vector".to_string(),
            ));
        }
        let loaded_type = vector_type(&loaded, element);
        if let Some(sublanes) = self.vreg("load", &value, element)? {
            // Without the layout passes: `tpu.load` of the whole register.
            return Ok(self.one(ops::load(
                self.ctx,
                r,
                &operands,
                vector_type(&value, element),
                &sublanes,
                Some(1),
                self.location,
            )));
        }
        if self.sparse_core() {
            // SparseCore: `tpu.vector_load`, then a shape cast (even to the
            // same shape).
            let v = self.one(ops::vector_load(
                self.ctx,
                r,
                &operands,
                None,
                loaded_type,
                &[],
                self.location,
            ));
            return Ok(self.one(upstream::vector::shape_cast(
                vector_type(&value, element),
                v,
                self.location,
            )));
        }
        let v = self.one(upstream::vector::load(
            loaded_type,
            r,
            &operands,
            self.location,
        ));
        // Under `shard_map`, an operand's load is varying across the mesh:
        // Pallas casts it to its type (an identity `vector.shape_cast`).
        let varying = !self.mesh.is_empty() && self.is_operand(r);
        Ok(if loaded == value && !varying {
            v
        } else {
            self.one(upstream::vector::shape_cast(
                vector_type(&value, element),
                v,
                self.location,
            ))
        })
    }

    /// `o_ref[...] = v`: the indices, the old value loaded (Pallas's swap),
    /// then `tpu.vector_store`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     k.store(k.outputs[0], k.load(k.inputs[0])?) // o_ref[...] = x_ref[...]
    /// });
    /// assert!(text.contains("tpu.vector_store"));
    /// ```
    pub fn store(&self, r: Value<'c, '_>, v: Value<'c, '_>) -> Result<(), BuildError> {
        self.store_impl(r, &[], v, None)
    }

    /// `o_ref[indices] = v`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     // o_ref[pl.ds(4, 4), :] = x_ref[pl.ds(0, 4), :]
    ///     let top = k.load_at(k.inputs[0], &[ds(0, 4), ALL])?;
    ///     k.store_at(k.outputs[0], &[ds(4, 4), ALL], top)
    /// });
    /// assert!(text.contains("tpu.vector_store"));
    /// ```
    pub fn store_at(
        &self,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
        v: Value<'c, '_>,
    ) -> Result<(), BuildError> {
        self.store_impl(r, indices, v, None)
    }

    /// `pltpu.store(o_ref.at[indices], v, mask=mask)`: a masked
    /// `tpu.vector_store`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::r#type::IntegerType;
    /// let text = doc_kernel(|k| {
    ///     // pltpu.store(o_ref, x_ref[...], mask=iota(1) < 64)
    ///     let i32 = IntegerType::new(k.ctx(), 32).into();
    ///     let mask = k.lt(k.iota(vector_type(&[8, 128], i32), 1)?, 64)?;
    ///     k.store_masked(k.outputs[0], &[], k.load(k.inputs[0])?, mask)
    /// });
    /// assert!(text.contains("tpu.vector_store") && text.contains("arith.cmpi slt"));
    /// ```
    pub fn store_masked(
        &self,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
        v: Value<'c, '_>,
        mask: Value<'c, '_>,
    ) -> Result<(), BuildError> {
        self.store_impl(r, indices, v, Some(mask))
    }

    fn store_impl(
        &self,
        r: Value<'c, '_>,
        indices: &[Index<'c, 'a>],
        v: Value<'c, '_>,
        mask: Option<Value<'c, '_>>,
    ) -> Result<(), BuildError> {
        let (operands, loaded, value, element, strides) =
            self.access_strided("store", r, indices)?;
        if strides.iter().any(|&s| s != 1) {
            let want = vector_type(&value, element);
            if Self::is_smem(r) || loaded != value || mask.is_some() || v.r#type() != want {
                return Err(self.error("store", format!("a strided store takes an unmasked value of the slice's shape {want} into a VMEM ref, every dimension sliced")));
            }
            let s32: Vec<i32> = strides.iter().map(|&s| s as i32).collect();
            // Pallas's swap: the old value, then the store.
            self.append(ops::strided_load(
                self.ctx,
                r,
                &operands,
                want,
                &s32,
                self.location,
            ));
            self.append(ops::strided_store(
                self.ctx,
                v,
                r,
                &operands,
                &s32,
                self.location,
            ));
            return Ok(());
        }
        if Self::is_smem(r) {
            if !value.is_empty() || mask.is_some() {
                return Err(self.error("store", "SMEM refs take one unmasked scalar per store: give an integer index per dimension".to_string()));
            }
            self.append(melior::dialect::memref::load(r, &operands, self.location));
            self.append(melior::dialect::memref::store(
                v,
                r,
                &operands,
                self.location,
            ));
            return Ok(());
        }
        let want = vector_type(&value, element);
        if value.is_empty() || v.r#type() != want {
            return Err(self.error(
                "store",
                format!("the value has type {} but the slice of {} is {want}: give a value of the slice's shape (broadcast or astype it)", v.r#type(), r.r#type()),
            ));
        }
        let loaded_type = vector_type(&loaded, element);
        if let Some(sublanes) = self.vreg("store", &value, element)? {
            if mask.is_some() {
                return Err(self.error("store", "a masked store without the layout passes: Pallas's SparseCore lowering refuses it (use store_compressed)".to_string()));
            }
            // Without the layout passes: the old register (`tpu.load`), then
            // `tpu.store` of the whole register.
            self.append(ops::load(
                self.ctx,
                r,
                &operands,
                want,
                &sublanes,
                Some(1),
                self.location,
            ));
            self.append(ops::store(
                self.ctx,
                v,
                r,
                &operands,
                None,
                &sublanes,
                Some(1),
                Some(false),
                self.location,
            ));
            return Ok(());
        }
        let old = if self.sparse_core() {
            self.one(ops::vector_load(
                self.ctx,
                r,
                &operands,
                None,
                loaded_type,
                &[],
                self.location,
            ))
        } else {
            self.one(upstream::vector::load(
                loaded_type,
                r,
                &operands,
                self.location,
            ))
        };
        let (mut v, mut mask) = (v, mask);
        if loaded != value
            || defined_by(r, "memref.alloca")
            || self.sparse_core()
            || self.in_pipeline
        {
            self.append(upstream::vector::shape_cast(want, old, self.location));
            v = self.one(upstream::vector::shape_cast(loaded_type, v, self.location));
            if let Some(m) = mask {
                let mask_type = vector_type(&loaded, element_of(m.r#type()));
                mask = Some(self.one(upstream::vector::shape_cast(mask_type, m, self.location)));
            }
        }
        self.append(ops::vector_store(
            self.ctx,
            v,
            r,
            &operands,
            mask,
            &[],
            None,
            self.location,
        ));
        Ok(())
    }

    // ----- elementwise -----

    /// Makes both operands values of the result's shape, as Pallas's
    /// `_bcast`: numbers become constants of the other's element type, then
    /// operands of another shape are broadcast. Gives them and the result's
    /// shape and element type.
    #[allow(clippy::type_complexity)]
    fn bcast(
        &self,
        op: &str,
        a: Operand<'c, 'a>,
        b: Operand<'c, 'a>,
    ) -> Result<(Value<'c, 'a>, Value<'c, 'a>, Vec<i64>, Type<'c>), BuildError> {
        let typed = |o: &Operand<'c, 'a>| match o {
            Operand::Value(v) => Some(v.r#type()),
            _ => None,
        };
        let (ta, tb) = (typed(&a), typed(&b));
        let element = match (ta, tb) {
            (Some(x), Some(y)) if element_of(x) != element_of(y) => {
                return Err(self.error(
                    op,
                    format!(
                        "operands have types {x} and {y}: astype one to the other's element type"
                    ),
                ));
            }
            (Some(x), _) | (None, Some(x)) => element_of(x),
            (None, None) => {
                return Err(self.error(
                    op,
                    "both operands are numbers: make one a value".to_string(),
                ));
            }
        };
        let (sa, sb) = (
            ta.map(shape_of).unwrap_or_default(),
            tb.map(shape_of).unwrap_or_default(),
        );
        let shape = if sa.is_empty() {
            sb.clone()
        } else if sb.is_empty() || sa == sb {
            sa.clone()
        } else if sa.len() == sb.len()
            && sa
                .iter()
                .zip(&sb)
                .all(|(x, y)| x == y || *x == 1 || *y == 1)
        {
            sa.iter()
                .zip(&sb)
                .map(|(x, y)| if *x == 1 { *y } else { *x })
                .collect()
        } else {
            return Err(self.error(op, format!("shapes {sa:?} and {sb:?} do not broadcast: reshape one to the other's rank with 1s")));
        };
        let value = |o: Operand<'c, 'a>| -> Result<Value<'c, 'a>, BuildError> {
            match o {
                Operand::Value(v) => Ok(v),
                literal => self.constant(literal, element),
            }
        };
        let (va, vb) = (value(a)?, value(b)?);
        let stretch = |v: Value<'c, 'a>| {
            if shape_of(v.r#type()) == shape {
                v
            } else {
                self.one(upstream::vector::broadcast(
                    vector_type(&shape, element),
                    v,
                    self.location,
                ))
            }
        };
        let (va, vb) = (stretch(va), stretch(vb));
        Ok((va, vb, shape, element))
    }

    /// A binary op picked by element type (`float` or integer name).
    fn arith(
        &self,
        python: &str,
        a: Operand<'c, 'a>,
        b: Operand<'c, 'a>,
        float_op: &str,
        int_op: &str,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (va, vb, shape, element) = self.bcast(python, a, b)?;
        let name = if is_float(element) { float_op } else { int_op };
        Ok(self.one(upstream::build(
            OperationBuilder::new(name, self.location)
                .add_operands(&[va, vb])
                .add_results(&[shaped(&shape, element)]),
        )))
    }

    /// `a + b` (`arith.addf` / `arith.addi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.add(k.load(k.inputs[0])?, 2.0)?; // x_ref[...] + 2.0
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.addf"));
    /// ```
    pub fn add(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith("add", a.into(), b.into(), "arith.addf", "arith.addi")
    }

    /// `a - b`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.sub(k.load(k.inputs[0])?, 2.0)?; // x_ref[...] - 2.0
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.subf"));
    /// ```
    pub fn sub(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith("sub", a.into(), b.into(), "arith.subf", "arith.subi")
    }

    /// `a * b`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.mul(k.load(k.inputs[1])?, 3)?; // n_ref[...] * 3
    ///     k.store(k.inputs[1], y)
    /// });
    /// assert!(text.contains("arith.muli"));
    /// ```
    pub fn mul(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith("mul", a.into(), b.into(), "arith.mulf", "arith.muli")
    }

    /// `a / b` (`arith.divf`; `lax.div` of signed integers: `arith.divsi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.div(k.load(k.inputs[0])?, 2.0)?; // x_ref[...] / 2.0
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.divf"));
    /// ```
    pub fn div(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith("div", a.into(), b.into(), "arith.divf", "arith.divsi")
    }

    /// `lax.rem(a, b)` (`arith.remf` / `arith.remsi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.rem(k.load(k.inputs[1])?, 3)?; // lax.rem(n_ref[...], 3)
    ///     k.store(k.inputs[1], y)
    /// });
    /// assert!(text.contains("arith.remsi"));
    /// ```
    pub fn rem(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith("rem", a.into(), b.into(), "arith.remf", "arith.remsi")
    }

    /// `a % b` with Python's sign rule (`jnp.remainder`: the result has
    /// `b`'s sign), as JAX lowers it: `lax.rem` (`arith.remsi` /
    /// `arith.remf`), then `r + b` where `r != 0` and the signs of `r` and `b`
    /// differ; of integers, a `b` of 0 is first replaced by 1. Either operand
    /// may be a number (`x % 0.75`, `(-1.5) % x`), not both.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     k.store(k.outputs[0], k.remainder(x, 0.75)?)?; // o_ref[...] = x % 0.75
    ///     let n = k.load(k.inputs[1])?;
    ///     k.store(k.inputs[1], k.remainder(n, 3)?) // n_ref[...] = n % 3
    /// });
    /// assert!(text.contains("arith.remf") && text.contains("arith.remsi"));
    /// ```
    pub fn remainder(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (a, b) = (a.into(), b.into());
        let element = match (&a, &b) {
            (Operand::Value(v), _) | (_, Operand::Value(v)) => element_of(v.r#type()),
            _ => {
                return Err(self.error(
                    "remainder",
                    "both operands are numbers: make one a value".to_string(),
                ));
            }
        };
        // Python's scalar is converted to the other operand's type first.
        let a = match a {
            Operand::Value(v) => v,
            literal => self.constant(literal, element)?,
        };
        let b = match b {
            Operand::Value(v) => v,
            literal => self.constant(literal, element)?,
        };
        let b = if is_float(element) {
            b
        } else {
            let b_zero = self.eq(b, 0)?;
            self.select(b_zero, 1, b)?
        };
        let r = self.rem(a, b)?;
        let nonzero = self.ne(r, 0)?;
        let (r_negative, mut b_negative) = (self.lt(r, 0)?, self.lt(b, 0)?);
        if shape_of(b_negative.r#type()) != shape_of(r_negative.r#type()) {
            // A scalar `b`'s sign is broadcast twice (the second to the same
            // type), as JAX lowers it.
            let t = r_negative.r#type();
            let once = self.one(upstream::vector::broadcast(t, b_negative, self.location));
            b_negative = self.one(upstream::vector::broadcast(t, once, self.location));
        }
        let fix = self.and(self.xor(r_negative, b_negative)?, nonzero)?;
        self.select(fix, self.add(r, b)?, r)
    }

    /// `a & b` of booleans or integers (`arith.andi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let inside = k.and(k.gt(x, 0.0)?, k.lt(x, 1.0)?)?; // (x > 0) & (x < 1)
    ///     k.store(k.outputs[0], k.select(inside, x, 0.0)?)
    /// });
    /// assert!(text.contains("arith.andi"));
    /// ```
    pub fn and(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.bitwise("and", a.into(), b.into(), "arith.andi")
    }

    /// `a | b` of booleans or integers (`arith.ori`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.or(k.load(k.inputs[1])?, 1)?; // n_ref[...] | 1
    ///     k.store(k.inputs[1], y)
    /// });
    /// assert!(text.contains("arith.ori"));
    /// ```
    pub fn or(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.bitwise("or", a.into(), b.into(), "arith.ori")
    }

    /// `a ^ b` of booleans or integers (`arith.xori`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.xor(k.load(k.inputs[1])?, 1)?; // n_ref[...] ^ 1
    ///     k.store(k.inputs[1], y)
    /// });
    /// assert!(text.contains("arith.xori"));
    /// ```
    pub fn xor(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.bitwise("xor", a.into(), b.into(), "arith.xori")
    }

    fn bitwise(
        &self,
        python: &str,
        a: Operand<'c, 'a>,
        b: Operand<'c, 'a>,
        op: &str,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (va, vb, shape, element) = self.bcast(python, a, b)?;
        if is_float(element) {
            return Err(self.error(
                python,
                format!("{element} operands: give booleans or integers"),
            ));
        }
        Ok(self.one(upstream::build(
            OperationBuilder::new(op, self.location)
                .add_operands(&[va, vb])
                .add_results(&[shaped(&shape, element)]),
        )))
    }

    /// `jnp.maximum(a, b)` (`arith.maximumf` / `arith.maxsi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.maximum(k.load(k.inputs[0])?, 0.0)?; // jnp.maximum(x_ref[...], 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.maximumf"));
    /// ```
    pub fn maximum(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith(
            "maximum",
            a.into(),
            b.into(),
            "arith.maximumf",
            "arith.maxsi",
        )
    }

    /// `jnp.minimum(a, b)` (`arith.minimumf` / `arith.minsi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.minimum(k.load(k.inputs[0])?, 1.0)?; // jnp.minimum(x_ref[...], 1.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.minimumf"));
    /// ```
    pub fn minimum(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.arith(
            "minimum",
            a.into(),
            b.into(),
            "arith.minimumf",
            "arith.minsi",
        )
    }

    /// `-x`: `0 - x`, as Pallas lowers it.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.neg(k.load(k.inputs[0])?)?; // -x_ref[...]
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.subf"));
    /// ```
    pub fn neg(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        let zero = if is_float(element_of(x.r#type())) {
            Operand::Float(0.0)
        } else {
            Operand::Int(0)
        };
        self.arith("neg", zero, x.into(), "arith.subf", "arith.subi")
    }

    fn compare(
        &self,
        python: &str,
        a: Operand<'c, 'a>,
        b: Operand<'c, 'a>,
        float: arith::CmpfPredicate,
        int: arith::CmpiPredicate,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (va, vb, _, element) = self.bcast(python, a, b)?;
        let op = if is_float(element) {
            arith::cmpf(self.ctx, float, va, vb, self.location)
        } else {
            arith::cmpi(self.ctx, int, va, vb, self.location)
        };
        Ok(self.one(op))
    }

    /// `a == b` (`arith.cmpf oeq` / `arith.cmpi eq`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.eq(x, 0.5)?, x, 0.0)?; // jnp.where(x == 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf oeq"));
    /// ```
    pub fn eq(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "eq",
            a.into(),
            b.into(),
            arith::CmpfPredicate::Oeq,
            arith::CmpiPredicate::Eq,
        )
    }

    /// `a != b` (`one` / `ne`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.ne(x, 0.5)?, x, 0.0)?; // jnp.where(x != 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf one"));
    /// ```
    pub fn ne(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "ne",
            a.into(),
            b.into(),
            arith::CmpfPredicate::One,
            arith::CmpiPredicate::Ne,
        )
    }

    /// `a < b` (`olt` / `slt`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.lt(x, 0.5)?, x, 0.0)?; // jnp.where(x < 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf olt"));
    /// ```
    pub fn lt(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "lt",
            a.into(),
            b.into(),
            arith::CmpfPredicate::Olt,
            arith::CmpiPredicate::Slt,
        )
    }

    /// `a <= b` (`ole` / `sle`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.le(x, 0.5)?, x, 0.0)?; // jnp.where(x <= 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf ole"));
    /// ```
    pub fn le(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "le",
            a.into(),
            b.into(),
            arith::CmpfPredicate::Ole,
            arith::CmpiPredicate::Sle,
        )
    }

    /// `a > b` (`ogt` / `sgt`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.gt(x, 0.5)?, x, 0.0)?; // jnp.where(x > 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf ogt"));
    /// ```
    pub fn gt(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "gt",
            a.into(),
            b.into(),
            arith::CmpfPredicate::Ogt,
            arith::CmpiPredicate::Sgt,
        )
    }

    /// `a >= b` (`oge` / `sge`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.ge(x, 0.5)?, x, 0.0)?; // jnp.where(x >= 0.5, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.cmpf oge"));
    /// ```
    pub fn ge(
        &self,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.compare(
            "ge",
            a.into(),
            b.into(),
            arith::CmpfPredicate::Oge,
            arith::CmpiPredicate::Sge,
        )
    }

    /// `jnp.where(cond, a, b)` (`arith.select`; numbers become broadcast
    /// constants of the other value's type).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.select(k.gt(x, 0.0)?, x, 0.0)?; // jnp.where(x > 0, x, 0.0)
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("arith.select"));
    /// ```
    pub fn select(
        &self,
        cond: Value<'c, 'a>,
        a: impl Into<Operand<'c, 'a>>,
        b: impl Into<Operand<'c, 'a>>,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (va, vb, shape, _) = self.bcast("where", a.into(), b.into())?;
        if shape_of(cond.r#type()) != shape {
            return Err(self.error("where", format!("the condition has type {} but the values have shape {shape:?}: give a condition of the values' shape", cond.r#type())));
        }
        Ok(self.one(arith::select(cond, va, vb, self.location)))
    }

    fn unary(
        &self,
        x: Value<'c, 'a>,
        op: fn(Value<'c, '_>, Location<'c>) -> Operation<'c>,
    ) -> Value<'c, 'a> {
        self.one(op(x, self.location))
    }

    /// `jnp.exp(x)` (`math.exp`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.exp(k.load(k.inputs[0])?)?; // jnp.exp(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.exp"));
    /// ```
    pub fn exp(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::exp))
    }

    /// `jnp.exp2(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.exp2(k.load(k.inputs[0])?)?; // jnp.exp2(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.exp2"));
    /// ```
    pub fn exp2(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::exp2))
    }

    /// `jnp.log(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.log(k.load(k.inputs[0])?)?; // jnp.log(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.log"));
    /// ```
    pub fn log(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::log))
    }

    /// `jnp.log1p(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.log1p(k.load(k.inputs[0])?)?; // jnp.log1p(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.log1p"));
    /// ```
    pub fn log1p(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::log1p))
    }

    /// `jnp.tanh(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.tanh(k.load(k.inputs[0])?)?; // jnp.tanh(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.tanh"));
    /// ```
    pub fn tanh(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::tanh))
    }

    /// `lax.rsqrt(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.rsqrt(k.load(k.inputs[0])?)?; // lax.rsqrt(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.rsqrt"));
    /// ```
    pub fn rsqrt(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::rsqrt))
    }

    /// `jnp.sqrt(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.sqrt(k.load(k.inputs[0])?)?; // jnp.sqrt(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.sqrt"));
    /// ```
    pub fn sqrt(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::sqrt))
    }

    /// `jnp.sin(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.sin(k.load(k.inputs[0])?)?; // jnp.sin(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.sin"));
    /// ```
    pub fn sin(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::sin))
    }

    /// `jnp.cos(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.cos(k.load(k.inputs[0])?)?; // jnp.cos(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.cos"));
    /// ```
    pub fn cos(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::cos))
    }

    /// `jnp.floor(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.floor(k.load(k.inputs[0])?)?; // jnp.floor(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.floor"));
    /// ```
    pub fn floor(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::floor))
    }

    /// `jnp.ceil(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.ceil(k.load(k.inputs[0])?)?; // jnp.ceil(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.ceil"));
    /// ```
    pub fn ceil(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::ceil))
    }

    /// `lax.erf(x)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.erf(k.load(k.inputs[0])?)?; // lax.erf(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.erf"));
    /// ```
    pub fn erf(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.unary(x, upstream::math::erf))
    }

    /// `jnp.abs(x)` (`math.absf` / `math.absi`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.abs(k.load(k.inputs[0])?)?; // jnp.abs(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("math.absf"));
    /// ```
    pub fn abs(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(if is_float(element_of(x.r#type())) {
            self.unary(x, upstream::math::absf)
        } else {
            self.unary(x, upstream::math::absi)
        })
    }

    /// `jax.nn.sigmoid(x)` (`tpu.logistic`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let y = k.sigmoid(k.load(k.inputs[0])?)?; // jax.nn.sigmoid(x_ref[...])
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("tpu.logistic"));
    /// ```
    pub fn sigmoid(&self, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.one(ops::logistic(self.ctx, x, self.location)))
    }

    /// `x.astype(to)` (`to`: the new element type, or a type with that
    /// element type): `arith.extf`/`truncf` between floats, `extsi`/`trunci`
    /// between integers, `fptosi`/`sitofp` between them, `extui` from `i1`,
    /// `index_cast` to or from `index`; no op when the type is already `to`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let h = k.astype(x, Type::bfloat16(k.ctx()))?; // x.astype(jnp.bfloat16)
    ///     assert_eq!(h.r#type().to_string(), "vector<8x128xbf16>");
    ///     k.store(k.outputs[0], k.astype(h, Type::float32(k.ctx()))?)
    /// });
    /// assert!(text.contains("arith.truncf") && text.contains("arith.extf"));
    /// ```
    pub fn astype(&self, x: Value<'c, 'a>, to: Type<'c>) -> Result<Value<'c, 'a>, BuildError> {
        let (from, to) = (element_of(x.r#type()), element_of(to));
        if from == to {
            return Ok(x);
        }
        let result = shaped(&shape_of(x.r#type()), to);
        let loc = self.location;
        let op = match (is_float(from), is_float(to), int_width(from), int_width(to)) {
            (true, true, _, _) if float_width(to) > float_width(from) => {
                arith::extf(x, result, loc)
            }
            (true, true, _, _) => arith::truncf(x, result, loc),
            (true, false, _, Some(w)) if w > 1 => arith::fptosi(x, result, loc),
            (false, true, Some(w), _) if w > 1 => arith::sitofp(x, result, loc),
            // A bool to a float: through i32, as Pallas converts it.
            (false, true, Some(1), _) => {
                let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
                let wide = self.one(arith::extui(
                    x,
                    shaped(&shape_of(x.r#type()), i32_type),
                    loc,
                ));
                arith::sitofp(wide, result, loc)
            }
            (false, false, Some(1), Some(_)) => arith::extui(x, result, loc),
            (false, false, Some(a), Some(b)) if b > a && a > 1 => arith::extsi(x, result, loc),
            (false, false, Some(a), Some(b)) if b < a && b > 1 => arith::trunci(x, result, loc),
            _ if from.is_index() || to.is_index() => arith::index_cast(x, result, loc),
            _ => {
                return Err(self.error("astype", format!("from {from} to {to} is not supported: compare with 0 for a bool, or go through i32")));
            }
        };
        Ok(self.one(op))
    }

    // ----- shapes -----

    /// `x.reshape(shape)` (`vector.shape_cast`; no op for the same shape).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let y = k.reshape(x, &[8, 2, 64])?; // x.reshape(8, 2, 64)
    ///     assert_eq!(y.r#type().to_string(), "vector<8x2x64xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("vector.shape_cast"));
    /// ```
    pub fn reshape(&self, x: Value<'c, 'a>, shape: &[i64]) -> Result<Value<'c, 'a>, BuildError> {
        let (old, element) = vector_parts(x.r#type())
            .ok_or_else(|| self.error("reshape", format!("{} is not a vector", x.r#type())))?;
        if old == shape {
            return Ok(x);
        }
        if old.iter().product::<i64>() != shape.iter().product::<i64>() {
            return Err(self.error(
                "reshape",
                format!("{old:?} to {shape:?} changes the number of elements: keep it"),
            ));
        }
        Ok(self.one(upstream::vector::shape_cast(
            vector_type(shape, element),
            x,
            self.location,
        )))
    }

    /// `jnp.broadcast_to(x, shape)` (`vector.broadcast`; no op for the same
    /// shape).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let m = k.max(x, 1, true)?; // (8, 1)
    ///     let y = k.broadcast_to(m, &[8, 128])?; // jnp.broadcast_to(m, (8, 128))
    ///     k.store(k.outputs[0], y)
    /// });
    /// assert!(text.contains("vector.broadcast"));
    /// ```
    pub fn broadcast_to(
        &self,
        x: Value<'c, 'a>,
        shape: &[i64],
    ) -> Result<Value<'c, 'a>, BuildError> {
        if shape_of(x.r#type()) == shape {
            return Ok(x);
        }
        let ty = vector_type(shape, element_of(x.r#type()));
        Ok(self.one(upstream::vector::broadcast(ty, x, self.location)))
    }

    /// `jnp.transpose(x, permutation)` (`x.T`: `[1, 0]`), as Pallas lowers
    /// it: `tpu.transpose`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let t = k.transpose(x, &[1, 0])?; // x.T
    ///     assert_eq!(t.r#type().to_string(), "vector<128x8xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("transpose"));
    /// ```
    pub fn transpose(
        &self,
        x: Value<'c, 'a>,
        permutation: &[i64],
    ) -> Result<Value<'c, 'a>, BuildError> {
        let (shape, element) = vector_parts(x.r#type())
            .ok_or_else(|| self.error("transpose", format!("{} is not a vector", x.r#type())))?;
        let mut sorted = permutation.to_vec();
        sorted.sort_unstable();
        if sorted != (0..shape.len() as i64).collect::<Vec<_>>() {
            return Err(self.error(
                "transpose",
                format!("{permutation:?} is not a permutation of 0..{}", shape.len()),
            ));
        }
        let result: Vec<i64> = permutation.iter().map(|&p| shape[p as usize]).collect();
        let op = ops::transpose(
            self.ctx,
            x,
            vector_type(&result, element),
            permutation,
            self.location,
        );
        Ok(self.one(op))
    }

    /// `lax.broadcasted_iota(dtype, shape, dimension)` (`tpu.iota`) of the
    /// vector type `ty`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::r#type::IntegerType;
    /// let text = doc_kernel(|k| {
    ///     let i32 = IntegerType::new(k.ctx(), 32).into();
    ///     // lax.broadcasted_iota(jnp.int32, (8, 128), 0)
    ///     let rows = k.iota(vector_type(&[8, 128], i32), 0)?;
    ///     k.store(k.inputs[1], rows)
    /// });
    /// assert!(text.contains("tpu.iota"));
    /// ```
    pub fn iota(&self, ty: Type<'c>, dimension: i32) -> Result<Value<'c, 'a>, BuildError> {
        Ok(self.one(ops::iota(self.ctx, ty, &[dimension], self.location)))
    }

    // ----- reductions -----

    /// `jnp.sum(x, axis=axis, keepdims=keepdims)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let s = k.sum(x, 0, true)?; // jnp.sum(x, axis=0, keepdims=True)
    ///     assert_eq!(s.r#type().to_string(), "vector<1x128xf32>");
    ///     k.store(k.outputs[0], k.add(x, s)?)
    /// });
    /// assert!(text.contains("vector.multi_reduction <add>"));
    /// ```
    pub fn sum(
        &self,
        x: Value<'c, 'a>,
        axis: i64,
        keepdims: bool,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.reduce(Reduce::Sum, x, &[axis], keepdims)
    }

    /// `jnp.max(x, axis=axis, keepdims=keepdims)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let m = k.max(x, 1, false)?; // jnp.max(x, axis=1)
    ///     assert_eq!(m.r#type().to_string(), "vector<8xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("vector.multi_reduction <maximumf>"));
    /// ```
    pub fn max(
        &self,
        x: Value<'c, 'a>,
        axis: i64,
        keepdims: bool,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.reduce(Reduce::Max, x, &[axis], keepdims)
    }

    /// `jnp.min(x, axis=axis, keepdims=keepdims)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let m = k.min(x, -1, true)?; // jnp.min(x, axis=-1, keepdims=True)
    ///     assert_eq!(m.r#type().to_string(), "vector<8x1xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("vector.multi_reduction <minimumf>"));
    /// ```
    pub fn min(
        &self,
        x: Value<'c, 'a>,
        axis: i64,
        keepdims: bool,
    ) -> Result<Value<'c, 'a>, BuildError> {
        self.reduce(Reduce::Min, x, &[axis], keepdims)
    }

    /// A reduction over `axes` (negative counts from the end; all axes give a
    /// scalar, as `jnp.max(x)`): `arith.constant dense<identity>`,
    /// `vector.multi_reduction`, then `vector.shape_cast` for `keepdims`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let total = k.reduce(Reduce::Sum, x, &[0, 1], false)?; // jnp.sum(x)
    ///     assert_eq!(total.r#type().to_string(), "f32");
    ///     k.store(k.outputs[0], k.div(x, total)?)
    /// });
    /// assert!(text.contains("vector.extract"));
    /// ```
    pub fn reduce(
        &self,
        kind: Reduce,
        x: Value<'c, 'a>,
        axes: &[i64],
        keepdims: bool,
    ) -> Result<Value<'c, 'a>, BuildError> {
        const OP: &str = "vector.multi_reduction";
        let (shape, element) = vector_parts(x.r#type()).ok_or_else(|| {
            self.error(
                OP,
                format!("{} is not a vector: reduce a vector", x.r#type()),
            )
        })?;
        let rank = shape.len() as i64;
        let mut dims = Vec::new();
        for &a in axes {
            let d = if a < 0 { a + rank } else { a };
            if !(0..rank).contains(&d) || dims.contains(&d) {
                return Err(self.error(OP, format!("axis {a} is out of range or repeated for rank {rank}: give distinct axes in -{rank}..{rank}")));
            }
            dims.push(d);
        }
        dims.sort_unstable();
        let (combining, identity) = if is_float(element) {
            match kind {
                Reduce::Sum => (CombiningKind::Add, Operand::Float(0.0)),
                Reduce::Max => (CombiningKind::MaximumF, Operand::Float(f64::NEG_INFINITY)),
                Reduce::Min => (CombiningKind::MinimumF, Operand::Float(f64::INFINITY)),
            }
        } else if int_width(element) == Some(32) {
            match kind {
                Reduce::Sum => (CombiningKind::Add, Operand::Int(0)),
                Reduce::Max => (CombiningKind::MaxSI, Operand::Int(i32::MIN.into())),
                Reduce::Min => (CombiningKind::MinSI, Operand::Int(i32::MAX.into())),
            }
        } else {
            return Err(self.error(OP, format!("Reductions over {element} not implemented.")));
        };
        let loc = self.location;
        if dims.len() == shape.len() {
            // Pallas reduces to a scalar through a leading unit dimension:
            // shape_cast, reduce all but it, shape_cast, extract.
            let mut lifted = vec![1];
            lifted.extend_from_slice(&shape);
            let x = self.one(upstream::vector::shape_cast(
                vector_type(&lifted, element),
                x,
                loc,
            ));
            let acc = self.dense(identity, vector_type(&[1], element))?;
            let all: Vec<i64> = (1..=rank).collect();
            let r = self.one(upstream::vector::multi_reduction(
                self.ctx, combining, x, acc, &all, loc,
            ));
            let ones = vec![1; lifted.len()];
            let r = self.one(upstream::vector::shape_cast(
                vector_type(&ones, element),
                r,
                loc,
            ));
            let op = upstream::vector::extract(self.ctx, r, &vec![0; ones.len()], loc)
                .map_err(|e| self.error(OP, e.to_string()))?;
            let scalar = self.one(op);
            return if keepdims {
                Ok(self.one(upstream::vector::broadcast(
                    vector_type(&vec![1; shape.len()], element),
                    scalar,
                    loc,
                )))
            } else {
                Ok(scalar)
            };
        }
        let kept: Vec<i64> = (0..rank)
            .filter(|d| !dims.contains(d))
            .map(|d| shape[d as usize])
            .collect();
        let acc = self.dense(identity, vector_type(&kept, element))?;
        let r = self.one(upstream::vector::multi_reduction(
            self.ctx, combining, x, acc, &dims, loc,
        ));
        if !keepdims {
            return Ok(r);
        }
        let with_ones: Vec<i64> = (0..rank)
            .map(|d| {
                if dims.contains(&d) {
                    1
                } else {
                    shape[d as usize]
                }
            })
            .collect();
        Ok(self.one(upstream::vector::shape_cast(
            vector_type(&with_ones, element),
            r,
            loc,
        )))
    }

    // ----- matmul -----

    /// `jnp.dot(a, b, preferred_element_type=jnp.float32)` of 2-D vectors
    /// (`int32` for integers): a zero accumulator `arith.constant`, then
    /// `tpu.matmul` with Pallas's dimension numbers.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let w = k.full(vector_type(&[128, 128], Type::float32(k.ctx())), 0.5)?;
    ///     // jnp.dot(x, w, preferred_element_type=jnp.float32)
    ///     k.store(k.outputs[0], k.dot(x, w)?)
    /// });
    /// assert!(text.contains("tpu.matmul"));
    /// ```
    pub fn dot(&self, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        self.dot_with(a, b, DotOptions::default())
    }

    /// [`Body::dot`] with transposed operands or a precision
    /// (`lax.dot_general(a, b, (((1,), (1,)), ((), ())))` is
    /// `transpose_rhs`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     // lax.dot_general(x, x, (((1,), (1,)), ((), ())), preferred_element_type=f32)
    ///     let g = k.dot_with(x, x, DotOptions::rhs_transposed())?;
    ///     assert_eq!(g.r#type().to_string(), "vector<8x8xf32>");
    ///     Ok(())
    /// });
    /// assert!(text.contains("tpu.matmul"));
    /// ```
    pub fn dot_with(
        &self,
        a: Value<'c, 'a>,
        b: Value<'c, 'a>,
        options: DotOptions,
    ) -> Result<Value<'c, 'a>, BuildError> {
        const OP: &str = "tpu.matmul";
        let parts = |v: Value<'c, 'a>| {
            vector_parts(v.r#type())
                .filter(|(s, _)| s.len() == 2)
                .ok_or_else(|| {
                    self.error(
                        OP,
                        format!("{} is not a 2-D vector: dot takes 2-D operands", v.r#type()),
                    )
                })
        };
        let ((sa, ea), (sb, _)) = (parts(a)?, parts(b)?);
        // Contracting dimensions: lhs 1 and rhs 0 for `a @ b`.
        let lc: i64 = if options.transpose_lhs { 0 } else { 1 };
        let rc: i64 = if options.transpose_rhs { 1 } else { 0 };
        let (ln, rn) = (1 - lc, 1 - rc);
        if sa[lc as usize] != sb[rc as usize] {
            return Err(self.error(
                OP,
                format!(
                    "contracting {} of {} with {} of {}: the sizes must be equal",
                    sa[lc as usize],
                    a.r#type(),
                    sb[rc as usize],
                    b.r#type()
                ),
            ));
        }
        let acc_element: Type<'c> = if is_float(ea) {
            Type::float32(self.ctx)
        } else {
            IntegerType::new(self.ctx, 32).into()
        };
        let out = vector_type(&[sa[ln as usize], sb[rn as usize]], acc_element);
        let acc = self.dense(0, out)?;
        let numbers = DotDimensionNumbers {
            lhs_contracting_dims: vec![lc],
            rhs_contracting_dims: vec![rc],
            lhs_non_contracting_dims: vec![ln],
            rhs_non_contracting_dims: vec![rn],
            output_dim_order: vec![0, ln, 1, rn],
            lhs_batch_dims: vec![],
            rhs_batch_dims: vec![],
        };
        let mut matmul = ops::Matmul::new(a, b, acc).dimension_numbers(numbers);
        if let Some(p) = options.precision {
            matmul = matmul.precision(p);
        }
        Ok(self.one(matmul.build(self.ctx, self.location)))
    }

    // ----- control flow -----

    /// `@pl.when(cond)`: `arith.extui` of the `i1` condition to `i32`,
    /// `arith.cmpi ne` with 0, then `scf.if` whose then-region `then` builds
    /// (the else-region is empty). As the Python function does, `then`
    /// captures the refs it uses (`let o_ref = k.outputs[0];` before).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let (x_ref, o_ref) = (k.inputs[0], k.outputs[0]);
    ///     // @pl.when(pl.program_id(0) == 0): o_ref[...] = x_ref[...]
    ///     k.when(k.eq(k.program_id(0)?, 0)?, |k| k.store(o_ref, k.load(x_ref)?))
    /// });
    /// assert!(text.contains("scf.if"));
    /// ```
    pub fn when(
        &self,
        cond: Value<'c, 'a>,
        then: impl FnOnce(&Body<'c, 'a>) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let flag = self.condition("when", cond)?;
        let loc = self.location;
        let then_region = Region::new();
        then_region.append_block(Block::new(&[]));
        let else_region = Region::new();
        let else_block = Block::new(&[]);
        else_block.append_operation(upstream::scf::r#yield(&[], loc));
        else_region.append_block(else_block);
        let op = self.append(upstream::scf::r#if(
            flag,
            &[],
            then_region,
            else_region,
            loc,
        ));
        let block = self.first_block(op, 0)?;
        let inner = Body { block, ..*self };
        then(&inner)?;
        block.append_operation(upstream::scf::r#yield(&[], loc));
        Ok(())
    }

    /// Appends a `tpu.region` with one empty block (what Pallas's
    /// `run_scoped` opens) and gives that block.
    pub(crate) fn region_block(&self) -> Result<BlockRef<'c, 'a>, BuildError> {
        let region = Region::new();
        region.append_block(Block::new(&[]));
        let op = self.append(ops::region(self.ctx, &[], region, self.location));
        self.first_block(op, 0)
    }

    fn first_block(
        &self,
        op: OperationRef<'c, 'a>,
        region: usize,
    ) -> Result<BlockRef<'c, 'a>, BuildError> {
        op.region(region)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| self.error("scf", "a region without its block".to_string()))
    }

    /// `lax.fori_loop(lower, upper, body, init)` with static bounds: `scf.for`
    /// over `i32` from `lower` (0 when `body` does not use the index, as in
    /// Pallas) to `lower + (upper - lower)` step 1, carrying `init`; `body`
    /// gets the index and the carried values and returns the next ones. Gives
    /// the final values.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     // lax.fori_loop(0, 3, lambda i, acc: acc + x, x)
    ///     let acc = k.fori_loop(0, 3, &[x], |k, _, acc| Ok(vec![k.add(acc[0], x)?]))?;
    ///     k.store(k.outputs[0], acc[0])
    /// });
    /// assert!(text.contains("scf.for"));
    /// ```
    pub fn fori_loop(
        &self,
        lower: i64,
        upper: i64,
        init: &[Value<'c, 'a>],
        body: impl FnOnce(
            &Body<'c, 'a>,
            Value<'c, 'a>,
            &[Value<'c, 'a>],
        ) -> Result<Vec<Value<'c, 'a>>, BuildError>,
    ) -> Result<Vec<Value<'c, 'a>>, BuildError> {
        let steps = upper
            .checked_sub(lower)
            .filter(|s| *s >= 0 && i32::try_from(*s).is_ok() && i32::try_from(lower).is_ok())
            .ok_or_else(|| {
                self.error(
                    "fori_loop",
                    format!("bounds {lower}..{upper}: give i32 bounds with lower <= upper"),
                )
            })?;
        let loc = self.location;
        let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
        let lo = self.i32(lower as i32);
        let n = self.i32(steps as i32);
        let hi = self.one(arith::addi(lo, n, loc));
        let (op, iv) = self.emit_for(lo, hi, init, body)?;
        if has_uses(iv) {
            // Pallas returns the final index too: an unused constant.
            self.i32(steps as i32);
        } else if lower != 0 {
            // Without the index Pallas counts from 0.
            let attr = IntegerAttribute::new(i32_type, 0);
            if let Some(def) = lo_op(lo) {
                // SAFETY: `def` is the live `arith.constant` defining `lo`;
                // the name outlives the call; `value` is its inherent
                // attribute, of the same type.
                unsafe {
                    mlir_sys::mlirOperationSetAttributeByName(
                        def,
                        crate::ffi::sref("value"),
                        attr.to_raw(),
                    );
                }
            }
        }
        Ok(op.results().map(Value::from).collect())
    }

    /// Pallas's form of a branch condition: the `i1` widened to `i32` and
    /// compared with 0.
    fn condition(&self, op: &str, cond: Value<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        if int_width(cond.r#type()) != Some(1) {
            return Err(self.error(op, format!("the condition has type {}: give an i1 (a comparison such as k.eq(k.program_id(0)?, 0)?)", cond.r#type())));
        }
        let loc = self.location;
        let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
        let wide = self.one(arith::extui(cond, i32_type, loc));
        let zero = self.i32(0);
        let flag = self.one(arith::cmpi(
            self.ctx,
            arith::CmpiPredicate::Ne,
            wide,
            zero,
            loc,
        ));
        Ok(flag)
    }

    /// `scf.for` over `i32` from `lo` to `hi` step 1 carrying `init`, with
    /// `body`'s ops: the op and its index.
    #[allow(clippy::type_complexity)]
    fn emit_for(
        &self,
        lo: Value<'c, 'a>,
        hi: Value<'c, 'a>,
        init: &[Value<'c, 'a>],
        body: impl FnOnce(
            &Body<'c, 'a>,
            Value<'c, 'a>,
            &[Value<'c, 'a>],
        ) -> Result<Vec<Value<'c, 'a>>, BuildError>,
    ) -> Result<(OperationRef<'c, 'a>, Value<'c, 'a>), BuildError> {
        let loc = self.location;
        let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
        let step = self.i32(1);
        let mut args = vec![(i32_type, loc)];
        args.extend(init.iter().map(|v| (v.r#type(), loc)));
        let region = Region::new();
        region.append_block(Block::new(&args));
        let op = self.append(upstream::scf::r#for(lo, hi, step, init, region, loc));
        let block = self.first_block(op, 0)?;
        let argument = |i: usize| -> Result<Value<'c, 'a>, BuildError> {
            block
                .argument(i)
                .map(Value::from)
                .map_err(|e| self.error("scf.for", e.to_string()))
        };
        let iv = argument(0)?;
        let carried = (1..=init.len())
            .map(argument)
            .collect::<Result<Vec<_>, _>>()?;
        let inner = Body { block, ..*self };
        let next = body(&inner, iv, &carried)?;
        let types = |vs: &[Value<'c, 'a>]| vs.iter().map(|v| v.r#type()).collect::<Vec<_>>();
        if types(&next) != types(init) {
            return Err(self.error("fori_loop", format!("the body returned {} values of types {:?} for a carry of types {:?}: return the carry's types", next.len(), types(&next).iter().map(ToString::to_string).collect::<Vec<_>>(), types(init).iter().map(ToString::to_string).collect::<Vec<_>>())));
        }
        block.append_operation(upstream::scf::r#yield(&next, loc));
        Ok((op, iv))
    }

    /// `lax.fori_loop(lower, upper, body, init)` with a dynamic `upper` (an
    /// `i32` value: `pl.program_id(0) + 1`, a scalar-prefetch read), as
    /// Pallas lowers it: `n = upper - lower`, `scf.for` from `lower` to
    /// `lower + n` step 1. `body` gets the index and the carried values and
    /// returns the next ones; gives the final values.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let n = k.add(k.program_id(0)?, 1)?;
    ///     // lax.fori_loop(0, pl.program_id(0) + 1, lambda i, acc: acc + x, x)
    ///     let acc = k.fori_loop_to(0, n, &[x], |k, _, acc| Ok(vec![k.add(acc[0], x)?]))?;
    ///     k.store(k.outputs[0], acc[0])
    /// });
    /// assert!(text.contains("scf.for"));
    /// ```
    pub fn fori_loop_to(
        &self,
        lower: i64,
        upper: Value<'c, 'a>,
        init: &[Value<'c, 'a>],
        body: impl FnOnce(
            &Body<'c, 'a>,
            Value<'c, 'a>,
            &[Value<'c, 'a>],
        ) -> Result<Vec<Value<'c, 'a>>, BuildError>,
    ) -> Result<Vec<Value<'c, 'a>>, BuildError> {
        let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
        if upper.r#type() != i32_type {
            return Err(self.error(
                "fori_loop",
                format!(
                    "the upper bound has type {}: give an i32 (astype it)",
                    upper.r#type()
                ),
            ));
        }
        let lower = i32::try_from(lower)
            .map_err(|_| self.error("fori_loop", format!("lower bound {lower}: give an i32")))?;
        let loc = self.location;
        let lo = self.i32(lower);
        let n = self.one(arith::subi(upper, lo, loc));
        let hi = self.one(arith::addi(lo, n, loc));
        let (op, _) = self.emit_for(lo, hi, init, body)?;
        Ok(op.results().map(Value::from).collect())
    }

    /// `lax.cond(cond, then, otherwise)` with results of `types`: `scf.if`
    /// yielding what each branch returns, after Pallas's `extui`/`cmpi ne 0`
    /// of the condition.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let x = k.load(k.inputs[0])?;
    ///     let first = k.eq(k.program_id(0)?, 0)?;
    ///     // lax.cond(pl.program_id(0) == 0, lambda: x + 1.0, lambda: x * 2.0)
    ///     let types = [x.r#type()];
    ///     let y = k.cond(first, &types, |k| Ok(vec![k.add(x, 1.0)?]), |k| Ok(vec![k.mul(x, 2.0)?]))?;
    ///     k.store(k.outputs[0], y[0])
    /// });
    /// assert!(text.contains("scf.if") && text.contains("scf.yield"));
    /// ```
    pub fn cond(
        &self,
        cond: Value<'c, 'a>,
        types: &[Type<'c>],
        then: impl FnOnce(&Body<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, BuildError>,
        otherwise: impl FnOnce(&Body<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, BuildError>,
    ) -> Result<Vec<Value<'c, 'a>>, BuildError> {
        let flag = self.condition("cond", cond)?;
        let loc = self.location;
        let then_region = Region::new();
        then_region.append_block(Block::new(&[]));
        let else_region = Region::new();
        else_region.append_block(Block::new(&[]));
        let op = self.append(upstream::scf::r#if(
            flag,
            types,
            then_region,
            else_region,
            loc,
        ));
        for (region, branch) in [
            (
                0,
                Box::new(then)
                    as Box<dyn FnOnce(&Body<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, BuildError>>,
            ),
            (1, Box::new(otherwise)),
        ] {
            let block = self.first_block(op, region)?;
            let values = branch(&Body { block, ..*self })?;
            let got: Vec<Type<'c>> = values.iter().map(|v| v.r#type()).collect();
            if got != types {
                return Err(self.error(
                    "cond",
                    format!(
                        "the {} branch returns {:?} for results of types {:?}: return those types",
                        if region == 0 { "then" } else { "else" },
                        got.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        types.iter().map(ToString::to_string).collect::<Vec<_>>()
                    ),
                ));
            }
            block.append_operation(upstream::scf::r#yield(&values, loc));
        }
        Ok(op.results().map(Value::from).collect())
    }
}

/// A DMA of [`Body::async_copy`] (`pltpu.make_async_copy(src, dst, sem)`)
/// or [`Body::async_remote_copy`]: [`AsyncCopy::start`] and
/// [`AsyncCopy::wait`] each slice the refs again, as Pallas re-lowers the
/// descriptor at each.
#[derive(Clone, Debug)]
pub struct AsyncCopy<'c, 'a> {
    src: Value<'c, 'a>,
    src_at: Vec<Index<'c, 'a>>,
    dst: Value<'c, 'a>,
    dst_at: Vec<Index<'c, 'a>>,
    sem: Value<'c, 'a>,
    sem_at: Vec<Index<'c, 'a>>,
    /// A remote copy's send semaphore (with its indices) and target device.
    remote: Option<(Value<'c, 'a>, Vec<Index<'c, 'a>>, DeviceId<'c, 'a>)>,
}

impl<'c, 'a> AsyncCopy<'c, 'a> {
    /// `sem.at[indices]`: the semaphore (a remote copy's receive semaphore)
    /// is an element of a semaphore array (`pltpu.SemaphoreType.DMA((2, 2))`
    /// scratch, `sems.at[0, slot]`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     // pltpu.make_async_copy(h.at[pl.ds(0, 8)], acc.at[0], sems.at[0]).start()
    ///     k.async_copy(h, &[ds(0, 8)], acc, &[at(0)], sems).sem_at(&[at(0)]).start(k)
    /// });
    /// assert!(text.contains("tpu.memref_squeeze"));
    /// ```
    pub fn sem_at(mut self, indices: &[Index<'c, 'a>]) -> Self {
        self.sem_at = indices.to_vec();
        self
    }

    /// `send_sem.at[indices]` of a remote copy: its send semaphore is an
    /// element of a semaphore array (`send_sems.at[s]`); no effect on a
    /// local copy.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     // pltpu.make_async_remote_copy(h.at[pl.ds(0, 8)], acc.at[0], sems.at[0], sems.at[1],
    ///     //     device_id=1, device_id_type=pl.DeviceIdType.LOGICAL)
    ///     let c = k.async_remote_copy(h, &[ds(0, 8)], acc, &[at(0)], sems, sems, DeviceId::logical(1));
    ///     c.send_sem_at(&[at(0)]).sem_at(&[at(1)]).start(k)
    /// });
    /// assert_eq!(text.matches("tpu.memref_squeeze").count(), 3);
    /// ```
    pub fn send_sem_at(mut self, indices: &[Index<'c, 'a>]) -> Self {
        if let Some(remote) = &mut self.remote {
            remote.1 = indices.to_vec();
        }
        self
    }

    /// The views of the semaphores, target and source, as Pallas lowers a
    /// DMA: the integer indices of source, target, semaphore and send
    /// semaphore (target, source, send semaphore, semaphore for a wait on
    /// the send) become `i32` constants first, then the device id is
    /// computed, then the send semaphore, the semaphore, the target and the
    /// source are sliced.
    #[allow(clippy::type_complexity)]
    fn views(
        &self,
        k: &Body<'c, 'a>,
        wait_send: bool,
    ) -> Result<
        (
            Value<'c, 'a>,
            Value<'c, 'a>,
            Value<'c, 'a>,
            Option<(Value<'c, 'a>, Value<'c, 'a>)>,
        ),
        BuildError,
    > {
        let literal = |indices: &[Index<'c, 'a>]| -> Result<Vec<Index<'c, 'a>>, BuildError> {
            indices
                .iter()
                .map(|&i| match i {
                    Index::At(Operand::Int(v)) => {
                        Ok(Index::At(Operand::Value(k.i32(i32::try_from(v).map_err(
                            |_| k.error("async_copy", format!("index {v} does not fit an i32")),
                        )?))))
                    }
                    other => Ok(other),
                })
                .collect()
        };
        let no_indices = Vec::new();
        let send_at = self.remote.as_ref().map_or(&no_indices, |r| &r.1);
        let (src_at, dst_at, sem_at, send_at) = if wait_send {
            let (dst_at, src_at) = (literal(&self.dst_at)?, literal(&self.src_at)?);
            let send_at = literal(send_at)?;
            (src_at, dst_at, literal(&self.sem_at)?, send_at)
        } else {
            let (src_at, dst_at) = (literal(&self.src_at)?, literal(&self.dst_at)?);
            let sem_at = literal(&self.sem_at)?;
            (src_at, dst_at, sem_at, literal(send_at)?)
        };
        let remote = match &self.remote {
            Some((send_sem, _, device)) => {
                let device = k.device_value("async_remote_copy", device)?;
                Some((k.ref_at(*send_sem, &send_at)?, device))
            }
            None => None,
        };
        let sem = k.ref_at(self.sem, &sem_at)?;
        let dst = k.ref_at(self.dst, &dst_at)?;
        let src = k.ref_at(self.src, &src_at)?;
        Ok((src, dst, sem, remote))
    }

    /// `copy.start()`: `tpu.enqueue_dma` of the (sliced) source into the
    /// (sliced) target, signalling the semaphore (a remote copy: on the
    /// target device, and its send semaphore here).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     let c = k.async_copy(h, &[ds(0, 8)], acc, &[at(0)], sems).sem_at(&[at(0)]);
    ///     c.start(k) // .start()
    /// });
    /// assert!(text.contains("tpu.enqueue_dma") && !text.contains("tpu.wait_dma"));
    /// ```
    pub fn start(&self, k: &Body<'c, 'a>) -> Result<(), BuildError> {
        let (src, dst, sem, remote) = self.views(k, false)?;
        let (send_sem, device) = remote.unzip();
        let dma = ops::EnqueueDma::new(src, dst, sem);
        let dma = match (send_sem, device) {
            (Some(send_sem), Some(device)) => dma.source_semaphore(send_sem).device(device),
            _ => dma,
        };
        k.append(dma.build(k.ctx, k.location));
        Ok(())
    }

    /// `copy.wait()`: `tpu.wait_dma` on the target's semaphore for the
    /// target's bytes; a remote copy waits for the send first.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     let c = k.async_copy(h, &[ds(0, 8)], acc, &[at(0)], sems).sem_at(&[at(0)]);
    ///     c.start(k)?;
    ///     c.wait(k) // .wait()
    /// });
    /// assert!(text.contains("tpu.wait_dma"));
    /// ```
    pub fn wait(&self, k: &Body<'c, 'a>) -> Result<(), BuildError> {
        if self.remote.is_some() {
            self.wait_send(k)?;
        }
        self.wait_recv(k)
    }

    /// `copy.wait_send()` of a remote copy: `tpu.wait_dma` with
    /// `wait_target = false` (the local source's bytes are sent).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     let (send, recv) = (k.ref_at(sems, &[at(0)])?, k.ref_at(sems, &[at(1)])?);
    ///     let c = k.async_remote_copy(h, &[ds(0, 8)], acc, &[at(0)], send, recv, DeviceId::logical(1));
    ///     c.start(k)?;
    ///     c.wait_send(k) // .wait_send()
    /// });
    /// assert!(text.contains("wait_target = false"));
    /// ```
    pub fn wait_send(&self, k: &Body<'c, 'a>) -> Result<(), BuildError> {
        if self.remote.is_none() {
            return Err(k.error(
                "wait_send",
                "a local copy: use wait (wait_send is a remote copy's)".to_string(),
            ));
        }
        self.wait_dma(k, false)
    }

    /// `copy.wait_recv()`: `tpu.wait_dma` with `wait_target = true` (the
    /// target's bytes arrived); a local copy's `wait`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     let (send, recv) = (k.ref_at(sems, &[at(0)])?, k.ref_at(sems, &[at(1)])?);
    ///     let c = k.async_remote_copy(h, &[ds(0, 8)], acc, &[at(0)], send, recv, DeviceId::logical(1));
    ///     c.start(k)?;
    ///     c.wait_recv(k) // .wait_recv()
    /// });
    /// assert!(text.contains("wait_target = true"));
    /// ```
    pub fn wait_recv(&self, k: &Body<'c, 'a>) -> Result<(), BuildError> {
        self.wait_dma(k, true)
    }

    fn wait_dma(&self, k: &Body<'c, 'a>, wait_target: bool) -> Result<(), BuildError> {
        let (src, dst, sem, remote) = self.views(k, !wait_target)?;
        let (send_sem, device) = remote.unzip();
        let dma = ops::WaitDma::new(src, dst, sem).wait_target(wait_target);
        let dma = match (send_sem, device) {
            (Some(send_sem), Some(device)) => dma.source_semaphore(send_sem).device(device),
            _ => dma,
        };
        k.append(dma.build(k.ctx, k.location));
        Ok(())
    }
}

impl<'c, 'a> Body<'c, 'a> {
    /// `ref.at[indices]`: a view of a ref (`tpu.memref_slice` with `i32`
    /// offsets, as Pallas lowers it; whole dimensions at 0), then
    /// `tpu.memref_squeeze` of the dimensions given an integer index
    /// (`k_hbm.at[page]`, `sems.at[0, slot]`). No indices: the ref itself.
    /// `ds(start, size)`, `at(i)` and `ALL` slice a view (a DMA's source,
    /// target or semaphore); strides do not.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, _, _, acc, _, _] = k.refs()?;
    ///     let slot = k.ref_at(acc, &[at(1)])?; // acc_ref.at[1]
    ///     assert_eq!(slot.r#type().to_string(), "memref<8x128xf32, #tpu.memory_space<vmem>>");
    ///     k.store(slot, k.load(k.inputs[0])?)
    /// });
    /// assert!(text.contains("tpu.memref_slice") && text.contains("tpu.memref_squeeze"));
    /// ```
    pub fn ref_at(
        &self,
        r: Value<'c, 'a>,
        indices: &[Index<'c, 'a>],
    ) -> Result<Value<'c, 'a>, BuildError> {
        if indices.is_empty() {
            return Ok(r);
        }
        let (shape, element) = super::support::memref_parts(r.r#type()).ok_or_else(|| {
            self.error(
                "ref_at",
                format!("{r} has type {}, not a memref: give a ref", r.r#type()),
            )
        })?;
        if indices.len() > shape.len() {
            return Err(self.error(
                "ref_at",
                format!(
                    "{} indices for a ref of rank {}",
                    indices.len(),
                    shape.len()
                ),
            ));
        }
        let mut offsets = Vec::with_capacity(shape.len());
        let mut sizes = Vec::with_capacity(shape.len());
        let mut squeezed = Vec::new();
        for (d, &size) in shape.iter().enumerate() {
            let index = match indices.get(d).copied().unwrap_or(Index::All) {
                Index::At(i) => {
                    squeezed.push(d);
                    Index::Slice(i, 1)
                }
                other => other,
            };
            match index {
                Index::All => {
                    offsets.push(self.i32(0));
                    sizes.push(size);
                }
                Index::Slice(start, n) => {
                    if n <= 0 || (size >= 0 && n > size) {
                        return Err(self.error("ref_at", format!("pl.ds(.., {n}) in dimension {d} of size {size}: give a size in 1..={size}")));
                    }
                    let start = match start {
                        Operand::Int(i) => self.i32(i32::try_from(i).map_err(|_| {
                            self.error("ref_at", format!("offset {i} does not fit an i32"))
                        })?),
                        Operand::Value(v)
                            if v.r#type() == IntegerType::new(self.ctx, 32).into() =>
                        {
                            v
                        }
                        other => {
                            return Err(self.error(
                                "ref_at",
                                format!("offset {other:?}: give an integer or an i32 value"),
                            ));
                        }
                    };
                    offsets.push(start);
                    sizes.push(n);
                }
                _ => {
                    return Err(self.error(
                        "ref_at",
                        "a stride does not slice a ref view: give ds(start, size), at(i) or ALL"
                            .to_string(),
                    ));
                }
            }
        }
        // The same memory space as the ref.
        let text = r.r#type().to_string();
        let space = text
            .find("#tpu.memory_space<")
            .map(|i| text[i..].trim_end_matches('>').to_string() + ">")
            .unwrap_or_default();
        let view_type = |sizes: &[i64]| {
            let dims: String = sizes.iter().map(|d| format!("{d}x")).collect();
            let text = if space.is_empty() {
                format!("memref<{dims}{element}>")
            } else {
                format!("memref<{dims}{element}, {space}>")
            };
            Type::parse(self.ctx, &text).ok_or_else(|| {
                self.error("ref_at", format!("the view type `{text}` does not parse"))
            })
        };
        let view = self.one(ops::memref_slice(
            self.ctx,
            r,
            &offsets,
            &[],
            view_type(&sizes)?,
            self.location,
        ));
        if squeezed.is_empty() {
            return Ok(view);
        }
        let kept: Vec<i64> = sizes
            .iter()
            .enumerate()
            .filter(|(d, _)| !squeezed.contains(d))
            .map(|(_, &n)| n)
            .collect();
        Ok(self.one(ops::memref_squeeze(
            self.ctx,
            view,
            view_type(&kept)?,
            self.location,
        )))
    }

    /// `pl.semaphore_signal(sem, amount)`: `tpu.sem_signal` of a regular
    /// semaphore (an `i32` amount).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, _, _, _, _, flag] = k.refs()?;
    ///     k.semaphore_signal(flag, 1) // pl.semaphore_signal(flag, 1)
    /// });
    /// assert!(text.contains("tpu.sem_signal"));
    /// ```
    pub fn semaphore_signal(
        &self,
        sem: Value<'c, 'a>,
        amount: impl Into<Operand<'c, 'a>>,
    ) -> Result<(), BuildError> {
        let amount = self.sem_amount("semaphore_signal", amount.into())?;
        self.append(ops::sem_signal(
            self.ctx,
            sem,
            amount,
            None,
            None,
            None,
            self.location,
        ));
        Ok(())
    }

    /// `pl.semaphore_wait(sem, amount)`: `tpu.sem_wait` (after the unused
    /// `true` constant Pallas emits there).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, _, _, _, _, flag] = k.refs()?;
    ///     k.semaphore_signal(flag, 1)?;
    ///     k.semaphore_wait(flag, 1) // pl.semaphore_wait(flag, 1)
    /// });
    /// assert!(text.contains("tpu.sem_wait"));
    /// ```
    pub fn semaphore_wait(
        &self,
        sem: Value<'c, 'a>,
        amount: impl Into<Operand<'c, 'a>>,
    ) -> Result<(), BuildError> {
        let amount = self.sem_amount("semaphore_wait", amount.into())?;
        let i1: Type<'c> = IntegerType::new(self.ctx, 1).into();
        self.one(arith::constant(
            self.ctx,
            IntegerAttribute::new(i1, 1).into(),
            self.location,
        ));
        self.append(ops::sem_wait(self.ctx, sem, amount, self.location));
        Ok(())
    }

    fn sem_amount(&self, op: &str, amount: Operand<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
        let i32_type: Type<'c> = IntegerType::new(self.ctx, 32).into();
        match amount {
            Operand::Int(i) => Ok(self.i32(
                i32::try_from(i)
                    .map_err(|_| self.error(op, format!("amount {i} does not fit an i32")))?,
            )),
            Operand::Value(v) if v.r#type() == i32_type => Ok(v),
            other => Err(self.error(
                op,
                format!("amount {other:?}: give an integer or an i32 value"),
            )),
        }
    }

    /// `pl.run_scoped(body, *types)`: a `tpu.region` whose body gets a fresh
    /// `memref.alloca` of each type (VMEM or SMEM memrefs), freed when it
    /// ends.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// # use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
    /// let text = doc_kernel(|k| {
    ///     let (x_ref, o_ref) = (k.inputs[0], k.outputs[0]);
    ///     let buf = attrs::memref(k.ctx(), &[8, 128], Type::float32(k.ctx()), MemorySpace::Vmem, None);
    ///     // pl.run_scoped(scoped, pltpu.VMEM((8, 128), jnp.float32))
    ///     k.run_scoped(&[buf], |k, tmp| {
    ///         k.store(tmp[0], k.load(x_ref)?)?;
    ///         k.store(o_ref, k.load(tmp[0])?)
    ///     })
    /// });
    /// assert!(text.contains("tpu.region") && text.contains("memref.alloca"));
    /// ```
    pub fn run_scoped(
        &self,
        types: &[Type<'c>],
        body: impl FnOnce(&Body<'c, 'a>, &[Value<'c, 'a>]) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        let inner = Body {
            block: self.region_block()?,
            ..*self
        };
        let mut refs = Vec::with_capacity(types.len());
        for &t in types {
            let Ok(memref) = melior::ir::r#type::MemRefType::try_from(t) else {
                return Err(self.error(
                    "run_scoped",
                    format!("{t} is not a memref type: give pltpu.VMEM-like memref types"),
                ));
            };
            refs.push(inner.one(melior::dialect::memref::alloca(
                self.ctx,
                memref,
                &[],
                &[],
                None,
                self.location,
            )));
        }
        body(&inner, &refs)?;
        inner
            .block
            .append_operation(ops::r#yield(self.ctx, &[], self.location));
        Ok(())
    }

    /// `pltpu.sync_copy(src.at[src_at], dst.at[dst_at])` in a SparseCore
    /// kernel, as Pallas lowers it there: a `tpu.region` holding a
    /// `tpu.sem_alloc`'d DMA semaphore, the DMA's start and its wait. Each of
    /// start and wait slices the refs as Pallas does: a copy between VMEM and
    /// HBM or `VMEM_SHARED` first prepares the views (the VMEM side first,
    /// then the other), then slices the target and the source again for the
    /// DMA; any other copy (HBM and `VMEM_SHARED`, either way) slices the
    /// target then the source, once. A ref index that is itself a ref
    /// (`at(ids_vmem)`: `table_hbm.at[ids_vmem]`, the SparseCore gather) makes
    /// the copy a `tpu.enqueue_indirect_dma` / `tpu.wait_indirect_dma` with
    /// those offsets: `dst[i] = src[ids[i]]` (the index must be the source's
    /// only index, the target whole); `at(ids_vmem)` as the target's only
    /// index is the scatter `dst[ids[i]] = src[i]`.
    ///
    /// In a `KernelSpec::build` closure of a vector-subcore kernel
    /// (examples/pallas_examples, `embedding_lookup`):
    ///
    /// ```text
    /// k.sync_copy(ids_hbm, &[ds(start, rows)], ids_vmem, &[])?;
    /// k.sync_copy(table_hbm, &[at(ids_vmem)], rows_vmem, &[])?;  // the gather
    /// ```
    ///
    /// A TensorCore kernel's `sync_copy` is not written yet (an error): use
    /// [`Body::async_copy`] with a DMA semaphore there.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [x_hbm, _, o_hbm, x, _, _] = k.refs()?;
    ///     k.sync_copy(x_hbm, &[], x, &[])?; // pltpu.sync_copy(x_hbm, x)
    ///     k.sync_copy(x, &[], o_hbm, &[])
    /// });
    /// assert!(text.contains("tpu.enqueue_dma") && text.contains("tpu.wait_dma"));
    /// ```
    pub fn sync_copy(
        &self,
        src: Value<'c, 'a>,
        src_at: &[Index<'c, 'a>],
        dst: Value<'c, 'a>,
        dst_at: &[Index<'c, 'a>],
    ) -> Result<(), BuildError> {
        self.sync_copy_impl("sync_copy", src, src_at, dst, dst_at, false)
    }

    /// `pltpu.sync_copy(src.at[src_at], dst.at[dst_at], add=True)` in a
    /// SparseCore kernel: an indirect DMA that adds instead of writing, as
    /// Pallas lowers it (`tpu.enqueue_indirect_dma {add = true}` in the
    /// region of [`Body::sync_copy`]). Either the scatter-add from VMEM into
    /// `VMEM_SHARED`, `dst[ids[i]] += src[i]` (`dst_at = [at(ids_vmem)]`),
    /// or the gather-add from HBM or `VMEM_SHARED` into VMEM,
    /// `dst[i] += src[ids[i]]` (`src_at = [at(ids_vmem)]`); the other side
    /// whole. Pallas refuses the rest (an add without a ref of offsets, a
    /// scatter-add into HBM), and so does this, with Pallas's reason.
    ///
    /// ```text
    /// k.sync_copy_add(x_vmem, &[], acc_shared, &[at(ids_vmem)])?; // acc[ids[k]] += x[k]
    /// ```
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_sc_kernel;
    /// let text = doc_sc_kernel(|k| {
    ///     let [x_hbm, _, _, x, i, _] = k.refs()?;
    ///     // pltpu.sync_copy(x_hbm.at[i], x, add=True): x[k] += x_hbm[i[k]]
    ///     k.sync_copy_add(x_hbm, &[at(i)], x, &[])
    /// });
    /// assert!(text.contains("tpu.enqueue_indirect_dma") && text.contains("add = true"));
    /// ```
    pub fn sync_copy_add(
        &self,
        src: Value<'c, 'a>,
        src_at: &[Index<'c, 'a>],
        dst: Value<'c, 'a>,
        dst_at: &[Index<'c, 'a>],
    ) -> Result<(), BuildError> {
        self.sync_copy_impl("sync_copy_add", src, src_at, dst, dst_at, true)
    }

    fn sync_copy_impl(
        &self,
        op: &str,
        src: Value<'c, 'a>,
        src_at: &[Index<'c, 'a>],
        dst: Value<'c, 'a>,
        dst_at: &[Index<'c, 'a>],
        add: bool,
    ) -> Result<(), BuildError> {
        if !self.sparse_core() {
            return Err(self.error(op, format!("a {} kernel: sync_copy is written for SparseCore kernels (KernelSpec::core_type); use async_copy with a DMA semaphore scratch", self.core_type)));
        }
        let is_ref = |i: &Index<'c, 'a>| matches!(i, Index::At(Operand::Value(v)) if memref_parts(v.r#type()).is_some());
        // A gather (the source indexed by a ref) or a scatter (the target).
        let indirect = match (src_at, dst_at) {
            ([Index::At(Operand::Value(ids))], []) if is_ref(&src_at[0]) => Some((*ids, false)),
            ([], [Index::At(Operand::Value(ids))]) if is_ref(&dst_at[0]) => Some((*ids, true)),
            _ if src_at.iter().chain(dst_at).any(is_ref) => {
                return Err(self.error(op, "a ref index is supported as the only index of the source (a gather, table_hbm.at[ids_vmem]) or of the target (a scatter, out_hbm.at[ids_vmem]), the other side whole".to_string()));
            }
            _ => None,
        };
        let space = |r: Value<'c, 'a>| {
            let text = r.r#type().to_string();
            if text.contains("#tpu.memory_space<vmem>") {
                "VMEM"
            } else if text.contains("#tpu.memory_space<vmem_shared>") {
                "VMEM_SHARED"
            } else if text.contains("#tpu.memory_space<hbm>") {
                "HBM"
            } else {
                "another memory space"
            }
        };
        let (src_space, dst_space) = (space(src), space(dst));
        let far = |s: &str| s == "HBM" || s == "VMEM_SHARED";
        // Pallas prepares the views of a copy between VMEM and HBM or
        // VMEM_SHARED (the VMEM side first).
        let prepared =
            (src_space == "VMEM" && far(dst_space)) || (dst_space == "VMEM" && far(src_space));
        if add {
            match indirect {
                None => {
                    return Err(self.error(op, "an add without a ref of offsets: Pallas adds by indirect DMAs only; index the VMEM_SHARED target (acc_shared.at[ids_vmem]) or the source of a gather (table_hbm.at[ids_vmem]) with a VMEM ref of i32 offsets".to_string()));
                }
                Some((_, true)) if src_space != "VMEM" || dst_space != "VMEM_SHARED" => {
                    return Err(self.error(op, format!("a scatter-add from {src_space} into {dst_space}: Pallas's scatter with add=True goes from VMEM into VMEM_SHARED only")));
                }
                Some((_, false)) if dst_space != "VMEM" || !far(src_space) => {
                    return Err(self.error(op, format!("a gather-add from {src_space} into {dst_space}: Pallas's gather with add=True goes from HBM or VMEM_SHARED into VMEM only")));
                }
                _ => {}
            }
        }
        let dma = super::attrs::dma_semaphore_type(self.ctx);
        let sem_type = super::attrs::memref(
            self.ctx,
            &[],
            dma,
            super::attrs::MemorySpace::SemaphoreMem,
            None,
        );
        let region = Region::new();
        region.append_block(Block::new(&[]));
        let region_op = self.append(ops::region(self.ctx, &[], region, self.location));
        let block = self.first_block(region_op, 0)?;
        let k = Body { block, ..*self };
        let sem = k.one(ops::sem_alloc(self.ctx, sem_type, self.location));
        if let Some((ids, scatter)) = indirect {
            // The indexed ref whole, sliced from 0.
            let indexed = if scatter { dst } else { src };
            let rank = memref_parts(indexed.r#type()).map_or(0, |(shape, _)| shape.len());
            let whole = vec![Index::All; rank];
            let view = k.ref_at(indexed, &whole)?;
            let (s, d) = if scatter { (src, view) } else { (view, dst) };
            k.append(ops::enqueue_indirect_dma(
                self.ctx,
                s,
                d,
                ids,
                sem,
                None,
                add.then_some(true),
                self.location,
            ));
            let view = k.ref_at(indexed, &whole)?;
            let (s, d) = if scatter { (src, view) } else { (view, dst) };
            k.append(ops::wait_indirect_dma(self.ctx, sem, s, d, self.location));
        } else {
            for wait in [false, true] {
                if prepared {
                    // Pallas's preparation: the VMEM side's view first.
                    if dst_space == "VMEM" {
                        k.ref_at(dst, dst_at)?;
                        k.ref_at(src, src_at)?;
                    } else {
                        k.ref_at(src, src_at)?;
                        k.ref_at(dst, dst_at)?;
                    }
                }
                // The DMA's views: the target's first.
                let d = k.ref_at(dst, dst_at)?;
                let s = k.ref_at(src, src_at)?;
                k.append(local_dma(self.ctx, s, d, sem, !wait, self.location));
            }
        }
        block.append_operation(ops::r#yield(self.ctx, &[], self.location));
        Ok(())
    }

    /// `pltpu.make_async_remote_copy(src.at[src_at], dst.at[dst_at],
    /// send_sem, recv_sem, device_id=device)`: a DMA into `dst` of device
    /// `device`: its mesh coordinates under `shard_map` (a value or an
    /// array of values, one per mesh axis: `device_id=(right,)`; JAX 0.12's
    /// default `DeviceIdType.MESH`), or [`DeviceId::logical`]
    /// (`device_id_type=LOGICAL`, which JAX 0.12 deprecates). Index the
    /// semaphores with [`AsyncCopy::send_sem_at`] and [`AsyncCopy::sem_at`].
    /// [`AsyncCopy::start`] enqueues it with both semaphores and the device;
    /// [`AsyncCopy::wait`] waits for the send then the receive
    /// ([`AsyncCopy::wait_send`], [`AsyncCopy::wait_recv`]).
    ///
    /// ```text
    /// let right = k.rem(k.add(k.axis_index("x")?, 1)?, 4)?;
    /// let copy = k.async_remote_copy(buf, &[at(s)], buf, &[at(next)], send_sems, recv_sems, [right])
    ///     .send_sem_at(&[at(s)])
    ///     .sem_at(&[at(next)]);
    /// copy.start(k)?;
    /// copy.wait(k)?;
    /// ```
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     let (send, recv) = (k.ref_at(sems, &[at(0)])?, k.ref_at(sems, &[at(1)])?);
    ///     // pltpu.make_async_remote_copy(h.at[pl.ds(0, 8)], acc.at[0], send, recv,
    ///     //     device_id=1, device_id_type=pl.DeviceIdType.LOGICAL)
    ///     let c = k.async_remote_copy(h, &[ds(0, 8)], acc, &[at(0)], send, recv, DeviceId::logical(1));
    ///     c.start(k)?;
    ///     c.wait(k)
    /// });
    /// // The send and the receive are awaited.
    /// assert_eq!(text.matches("\"tpu.wait_dma\"").count(), 2);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn async_remote_copy(
        &self,
        src: Value<'c, 'a>,
        src_at: &[Index<'c, 'a>],
        dst: Value<'c, 'a>,
        dst_at: &[Index<'c, 'a>],
        send_sem: Value<'c, 'a>,
        recv_sem: Value<'c, 'a>,
        device: impl Into<DeviceId<'c, 'a>>,
    ) -> AsyncCopy<'c, 'a> {
        AsyncCopy {
            remote: Some((send_sem, Vec::new(), device.into())),
            ..self.async_copy(src, src_at, dst, dst_at, recv_sem)
        }
    }

    /// `pltpu.make_async_copy(src.at[src_at], dst.at[dst_at], sem)`: a DMA
    /// descriptor; nothing is emitted until [`AsyncCopy::start`] or
    /// [`AsyncCopy::wait`].
    ///
    /// In a `KernelSpec::build` closure (tests/integration/authoring.rs,
    /// `manual_dma`, builds it and compares it with JAX's lowering):
    ///
    /// ```text
    /// let copy = k.async_copy(k.inputs[0], &[ds(8, 8)], k.scratch[0], &[], k.scratch[1]);
    /// copy.start(k)?;
    /// copy.wait(k)?;
    /// ```
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// let text = doc_kernel(|k| {
    ///     let [_, _, _, h, _, acc, sems, _] = k.refs()?;
    ///     // c = pltpu.make_async_copy(h.at[pl.ds(8, 8)], acc.at[1], sems.at[1])
    ///     let c = k.async_copy(h, &[ds(8, 8)], acc, &[at(1)], sems).sem_at(&[at(1)]);
    ///     c.start(k)?;
    ///     c.wait(k)
    /// });
    /// assert!(text.contains("tpu.enqueue_dma") && text.contains("tpu.wait_dma"));
    /// ```
    pub fn async_copy(
        &self,
        src: Value<'c, 'a>,
        src_at: &[Index<'c, 'a>],
        dst: Value<'c, 'a>,
        dst_at: &[Index<'c, 'a>],
        sem: Value<'c, 'a>,
    ) -> AsyncCopy<'c, 'a> {
        AsyncCopy {
            src,
            src_at: src_at.to_vec(),
            dst,
            dst_at: dst_at.to_vec(),
            sem,
            sem_at: Vec::new(),
            remote: None,
        }
    }
}

/// Whether `value` is the result of an op named `name` (Pallas stores into
/// `run_scoped` buffers through identity `vector.shape_cast`s).
fn defined_by(value: Value<'_, '_>, name: &str) -> bool {
    lo_op(value).is_some_and(|op| {
        // SAFETY: a live op; its name (an identifier of the live context)
        // is read and copied.
        unsafe {
            crate::ffi::lossy_string(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
                op,
            ))) == name
        }
    })
}

/// The op defining `value`, if it is an op result.
fn lo_op(value: Value<'_, '_>) -> Option<mlir_sys::MlirOperation> {
    // SAFETY: a live value; the owner is asked of op results only.
    unsafe {
        mlir_sys::mlirValueIsAOpResult(value.to_raw())
            .then(|| mlir_sys::mlirOpResultGetOwner(value.to_raw()))
    }
}

/// The op of a copy on one device from `src` to `dst` signalling `sem`:
/// `tpu.enqueue_dma` to `start` it, else `tpu.wait_dma` on the target (what
/// Pallas's local `async_copy(..).start()` and `.wait()` lower to).
pub(crate) fn local_dma<'c>(
    ctx: &'c MlirContext,
    src: Value<'c, '_>,
    dst: Value<'c, '_>,
    sem: Value<'c, '_>,
    start: bool,
    location: Location<'c>,
) -> Operation<'c> {
    if start {
        ops::EnqueueDma::new(src, dst, sem).build(ctx, location)
    } else {
        ops::WaitDma::new(src, dst, sem).build(ctx, location)
    }
}
