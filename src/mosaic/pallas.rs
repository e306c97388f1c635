//! The Pallas kernel function: a `builtin.module` holding the kernel's
//! `func.func` with Pallas's argument order and function attributes, plus one
//! index-map function per blocked window, exactly as `pl.pallas_call` lowers
//! them (JAX 0.12).
//!
//! Argument order: grid indices (`i32`, one per grid dimension), scalar-prefetch
//! refs, inputs, outputs, scratch. Function attributes: `dimension_semantics`,
//! `iteration_bounds` and `window_params` (only with a grid), `scalar_prefetch`,
//! `scratch_operands`, `tpu.core_type`. Each blocked window gets
//! `{transform_indices = @transform_<n>, window_bounds = array<i64: …>}` and a
//! `func.func @transform_<n>(grid indices…, prefetch refs…) -> (i32, …)` after
//! the kernel, whose body is the index map's ops, then the unused
//! `arith.constant 0 : i32` Pallas always appends, then the return.
//!
//! ```
//! use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
//! use tpu_custom_call::mosaic::pallas::{Arg, KernelSpec};
//! use tpu_custom_call::mosaic::BuildError;
//! use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
//!
//! let ctx = tpu_custom_call::Context::new();
//! let f32 = Type::float32(&ctx);
//! let block = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
//! let spec = KernelSpec::new("copy")
//!     .input(Arg::new(block).named("x_ref"))
//!     .output(Arg::new(block).named("o_ref"));
//! // o_ref[...] = x_ref[...]: the Pallas idioms of `Body`, which `k` dereferences to.
//! let module = spec.build(&ctx, |k| k.store(k.outputs[0], k.load(k.inputs[0])?))?;
//! assert!(module.as_operation().verify());
//! assert!(module.as_operation().to_string().contains("scratch_operands = 0 : i64"));
//! # Ok::<(), BuildError>(())
//! ```

use melior::Context as MlirContext;
use melior::dialect::{arith, func};
use melior::ir::attribute::{
    DictionaryAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute,
};
use melior::ir::operation::OperationMutLike;
use melior::ir::r#type::{FunctionType, IntegerType};
use melior::ir::{Attribute, Block, Identifier, Location, Module, Region, RegionLike, Type, Value};

use super::BuildError;

/// melior's traits a kernel author calls methods of (`value.r#type()`,
/// `block.argument(i)`), re-exported so that
/// `use tpu_custom_call::mosaic::pallas::*` brings them.
pub use melior::ir::{BlockLike, ValueLike};

/// `vector<shape x element>` (melior 0.27's `Type::vector` takes `u64`
/// dimensions; this takes the shapes `KernelSpec` and `Body` use).
///
/// ```
/// use tpu_custom_call::Context;
/// use tpu_custom_call::melior::ir::Type;
/// use tpu_custom_call::mosaic::pallas::vector_type;
/// let ctx = Context::new();
/// let t = vector_type(&[8, 128], Type::float32(&ctx));
/// assert_eq!(t.to_string(), "vector<8x128xf32>");
/// ```
pub fn vector_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    super::support::vector_type(shape, element)
}
use super::attrs::{self, CoreType, DimensionSemantics};

pub use super::body::{
    ALL, AsyncCopy, Body, DeviceId, DotOptions, Index, Operand, Reduce, at, ds, ds_strided,
};
pub use super::pipeline::{
    BlockRef, BlockSpec, EmitPipeline, PipelineOperand, PipelineStep, emit_pipeline,
};

/// A custom index map: given the transform function's block (arguments: grid
/// indices, then scalar-prefetch refs), append its body ops but not the
/// `func.return`, and return the block indices (`i32`).
pub type IndexMapFn<'c> =
    Box<dyn for<'a> Fn(&'c MlirContext, &'a Block<'c>) -> Vec<Value<'c, 'a>> + 'c>;

/// One result of an [`IndexMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexExpr {
    /// The grid index of this dimension.
    Grid(usize),
    /// A constant block index.
    Const(i32),
}

/// How a window's block index is computed from the grid indices.
pub enum IndexMap<'c> {
    /// Each block index is a grid index or a constant, as Pallas lowers
    /// `lambda i, j: (i, 0)`: one `arith.constant` per constant, in order.
    Exprs(Vec<IndexExpr>),
    /// Any body (for example one reading a scalar-prefetch ref).
    Custom {
        /// Number of block indices returned (the window's rank).
        rank: usize,
        /// Builds the body.
        body: IndexMapFn<'c>,
    },
}

impl std::fmt::Debug for IndexMap<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexMap::Exprs(exprs) => f.debug_tuple("Exprs").field(exprs).finish(),
            IndexMap::Custom { rank, .. } => f
                .debug_struct("Custom")
                .field("rank", rank)
                .finish_non_exhaustive(),
        }
    }
}

impl IndexMap<'_> {
    /// A map returning the given grid indices (`&[0, 2]` is `lambda i, j, k:
    /// (i, k)`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// // lambda i, j: (j, i)
    /// let map = IndexMap::grid(&[1, 0]);
    /// assert!(matches!(map, IndexMap::Exprs(e) if e == [IndexExpr::Grid(1), IndexExpr::Grid(0)]));
    /// ```
    pub fn grid(indices: &[usize]) -> Self {
        IndexMap::Exprs(indices.iter().map(|&i| IndexExpr::Grid(i)).collect())
    }

    fn rank(&self) -> usize {
        match self {
            IndexMap::Exprs(exprs) => exprs.len(),
            IndexMap::Custom { rank, .. } => *rank,
        }
    }
}

/// The window of an input or output (an entry of `window_params`).
#[derive(Debug, Default)]
pub enum Window<'c> {
    /// `{}`: the whole operand, not pipelined (`memory_space=ANY`,
    /// TensorCore mesh kernels); in a SparseCore kernel, the mesh's window
    /// ([`Window::mesh`]), as `pl.kernel` gives it.
    #[default]
    Whole,
    /// `{transform_indices = <affine map>}` (SparseCore kernels).
    AffineMap(Attribute<'c>),
    /// A block of `block_shape` at the block index the map computes.
    Blocked {
        /// `window_bounds`.
        block_shape: Vec<i64>,
        /// The index map (`transform_indices`).
        index_map: IndexMap<'c>,
        /// `pipeline_mode=pl.Buffered(n)`: `Some(1)` is
        /// `#tpu.pipeline_mode<synchronous>`, `Some(2)`
        /// `#tpu.pipeline_mode<double_buffered>` (others are refused with
        /// JAX's message). `None`: Pallas's default (double buffering; a
        /// whole-array VMEM block under a zero index map is single-buffered,
        /// see [`Arg::array_shape`]).
        buffer_count: Option<i64>,
        /// `pl.Buffered(revisit=...)`: `#tpu.revisit_mode<...>`.
        revisit: Option<RevisitMode>,
    },
}

/// How an output block may be revisited (`pltpu.RevisitMode`,
/// `#tpu.revisit_mode<...>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisitMode {
    /// Only in consecutive grid steps (Pallas's default for outputs).
    Immediate,
    /// At any grid step: the block is read back when visited again (extra
    /// DMAs; single buffering only).
    Any,
}

impl RevisitMode {
    fn keyword(self) -> &'static str {
        match self {
            RevisitMode::Immediate => "immediate",
            RevisitMode::Any => "any",
        }
    }
}

impl<'c> Window<'c> {
    /// A blocked window.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     // pl.BlockSpec((8, 128), lambda i: (i, 0)) over a grid of 4
    ///     let rows = Window::blocked(&[8, 128], IndexMap::Exprs(vec![IndexExpr::Grid(0), IndexExpr::Const(0)]));
    ///     let x = Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem).window(rows);
    ///     KernelSpec::new("k").grid(&[4], &[]).input(x)
    /// });
    /// assert!(text.contains("window_bounds = array<i64: 8, 128>"));
    /// assert!(text.contains("func.func @transform_0"));
    /// ```
    pub fn blocked(block_shape: &[i64], index_map: IndexMap<'c>) -> Self {
        Window::Blocked {
            block_shape: block_shape.to_vec(),
            index_map,
            buffer_count: None,
            revisit: None,
        }
    }

    /// `pipeline_mode=pl.Buffered(n)` on a blocked window: `1` single
    /// buffering (`synchronous`), `2` double. No effect on other windows.
    ///
    /// ```
    /// use tpu_custom_call::mosaic::pallas::{IndexMap, Window};
    /// let w = Window::blocked(&[8, 128], IndexMap::grid(&[0, 1])).buffered(1);
    /// assert!(matches!(w, Window::Blocked { buffer_count: Some(1), .. }));
    /// ```
    pub fn buffered(mut self, n: i64) -> Self {
        if let Window::Blocked { buffer_count, .. } = &mut self {
            *buffer_count = Some(n);
        }
        self
    }

    /// The window `pl.kernel(.., mesh=...)` gives each operand of a mesh
    /// kernel (a SparseCore vector-subcore mesh): `{transform_indices =
    /// affine_map<(d0, ..) -> (0, ..)>}`, one input per mesh (grid)
    /// dimension, a 0 per array dimension.
    ///
    /// `Window::mesh(&ctx, 2, 1)` is `affine_map<(d0, d1) -> (0)>` (a 1-D
    /// operand of a core x subcore mesh kernel).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// let ctx = tpu_custom_call::Context::new();
    /// let w = Window::mesh(&ctx, 2, 1);
    /// assert!(matches!(w, Window::AffineMap(m) if m.to_string() == "affine_map<(d0, d1) -> (0)>"));
    /// ```
    pub fn mesh(ctx: &'c MlirContext, mesh_rank: usize, rank: usize) -> Self {
        let inputs: Vec<String> = (0..mesh_rank).map(|d| format!("d{d}")).collect();
        let text = format!(
            "affine_map<({}) -> ({})>",
            inputs.join(", "),
            vec!["0"; rank].join(", ")
        );
        Window::AffineMap(Attribute::parse(ctx, &text).expect("an affine map parses"))
    }

    /// `pl.Buffered(revisit=...)` on a blocked window (an output's).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     // pl.BlockSpec((8, 128), lambda i: (0, 0), pipeline_mode=pl.Buffered(1, revisit=ANY))
    ///     let acc = Window::blocked(&[8, 128], IndexMap::Exprs(vec![IndexExpr::Const(0); 2]))
    ///         .buffered(1)
    ///         .revisit(RevisitMode::Any);
    ///     let o = Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem).window(acc);
    ///     KernelSpec::new("k").grid(&[4], &[]).output(o)
    /// });
    /// assert!(text.contains("#tpu.revisit_mode<any>"));
    /// ```
    pub fn revisit(mut self, mode: RevisitMode) -> Self {
        if let Window::Blocked { revisit, .. } = &mut self {
            *revisit = Some(mode);
        }
        self
    }
}

/// One argument of the kernel function.
#[derive(Debug)]
pub struct Arg<'c> {
    /// Its type (a memref for refs).
    pub ty: Type<'c>,
    /// The name Pallas gives it as location (`loc("x_ref")`), if any.
    pub name: Option<String>,
    /// Its window (inputs and outputs only; used when the kernel has a grid).
    pub window: Window<'c>,
    /// The call operand's (or result's) whole shape, when known: a blocked
    /// VMEM window that is this whole array under an index map of zeros is
    /// single-buffered (`#tpu.pipeline_mode<synchronous>`), as Pallas forces
    /// it.
    pub array_shape: Option<Vec<i64>>,
}

impl<'c> Arg<'c> {
    /// An argument of type `memref<shape x element, #tpu.memory_space<space>>`
    /// (no layout), as `pltpu.VMEM(shape, dtype)` and the HBM / SMEM operands
    /// of a kernel are: `Arg::memref(ctx, &[16, 128], f32, MemorySpace::Vmem)`.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let ctx = tpu_custom_call::Context::new();
    /// // pltpu.VMEM((16, 128), jnp.float32)
    /// let arg = Arg::memref(&ctx, &[16, 128], Type::float32(&ctx), MemorySpace::Vmem);
    /// assert_eq!(arg.ty.to_string(), "memref<16x128xf32, #tpu.memory_space<vmem>>");
    /// ```
    pub fn memref(
        ctx: &'c MlirContext,
        shape: &[i64],
        element: Type<'c>,
        space: attrs::MemorySpace,
    ) -> Self {
        Arg::new(attrs::memref(ctx, shape, element, space, None))
    }

    /// An argument of type `ty`, unnamed, with the whole operand as window.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let ctx = tpu_custom_call::Context::new();
    /// let ty = attrs::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem, None);
    /// let arg = Arg::new(ty);
    /// assert!(arg.name.is_none() && matches!(arg.window, Window::Whole));
    /// ```
    pub fn new(ty: Type<'c>) -> Self {
        Self {
            ty,
            name: None,
            window: Window::Whole,
            array_shape: None,
        }
    }

    /// Declares the operand's whole shape ([`Arg::array_shape`]), so that a
    /// trivial window gets the `pipeline_mode` Pallas gives it.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     // The whole (1, 128) bias under a constant index map: Pallas single-buffers it.
    ///     let whole = Window::blocked(&[1, 128], IndexMap::Exprs(vec![IndexExpr::Const(0); 2]));
    ///     let b = Arg::memref(ctx, &[1, 128], f32, MemorySpace::Vmem).window(whole).array_shape(&[1, 128]);
    ///     KernelSpec::new("k").grid(&[4], &[]).input(b)
    /// });
    /// assert!(text.contains("#tpu.pipeline_mode<synchronous>"));
    /// ```
    pub fn array_shape(mut self, shape: &[i64]) -> Self {
        self.array_shape = Some(shape.to_vec());
        self
    }

    /// Sets the name (the argument's location).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let ctx = tpu_custom_call::Context::new();
    /// let x = Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem).named("x_ref");
    /// assert_eq!(x.name.as_deref(), Some("x_ref")); // the argument's location: loc("x_ref")
    /// ```
    pub fn named(mut self, name: &str) -> Self {
        self.name = Some(name.to_string());
        self
    }

    /// Sets the window.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     let rows = Window::blocked(&[8, 128], IndexMap::grid(&[0, 1]));
    ///     let x = Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem).window(rows);
    ///     KernelSpec::new("k").grid(&[2, 1], &[]).input(x)
    /// });
    /// assert!(text.contains("window_params") && text.contains("transform_indices = @transform_0"));
    /// ```
    pub fn window(mut self, window: Window<'c>) -> Self {
        self.window = window;
        self
    }
}

/// Everything Pallas puts into a kernel function besides its body.
#[derive(Debug)]
pub struct KernelSpec<'c> {
    /// Name of the module and of the kernel function.
    pub name: String,
    /// The grid (`iteration_bounds`); empty for no grid. `-1` is a dynamic
    /// bound.
    pub grid: Vec<i64>,
    /// One per grid dimension; empty means all `arbitrary` (Pallas's default).
    pub dimension_semantics: Vec<DimensionSemantics>,
    /// `tpu.core_type`.
    pub core_type: CoreType,
    /// Scalar-prefetch refs.
    pub scalar_prefetch: Vec<Arg<'c>>,
    /// Input refs.
    pub inputs: Vec<Arg<'c>>,
    /// Output refs.
    pub outputs: Vec<Arg<'c>>,
    /// Scratch refs.
    pub scratch: Vec<Arg<'c>>,
    /// `Some(lanes)`: a SparseCore kernel lowered without the layout
    /// passes ([`KernelSpec::without_layout_passes`]); `None`: with them
    /// (Pallas's default).
    pub vreg_lanes: Option<usize>,
    /// The `jax.shard_map` mesh the kernel runs under: axis names and
    /// sizes ([`KernelSpec::mesh`]); empty outside `shard_map`.
    pub mesh: Vec<(String, i64)>,
}

/// The kernel function's block and arguments, for building its body. It
/// dereferences to the [`Body`] of the entry block: the Pallas idioms
/// (`k.load(k.inputs[0])?`, `k.when(..)?`) append to it.
#[derive(Debug)]
pub struct KernelArgs<'c, 'a> {
    /// The context.
    pub ctx: &'c MlirContext,
    /// The entry block; append the body to it (the builder appends the
    /// `func.return`).
    pub block: &'a Block<'c>,
    /// The grid indices (`i32`).
    pub grid_indices: Vec<Value<'c, 'a>>,
    /// The scalar-prefetch refs.
    pub scalar_prefetch: Vec<Value<'c, 'a>>,
    /// The input refs.
    pub inputs: Vec<Value<'c, 'a>>,
    /// The output refs.
    pub outputs: Vec<Value<'c, 'a>>,
    /// The scratch refs.
    pub scratch: Vec<Value<'c, 'a>>,
    body: Body<'c, 'a>,
}

impl<'c, 'a> KernelArgs<'c, 'a> {
    /// Every ref in the order the Python kernel takes them (scalar prefetch,
    /// inputs, outputs, scratch), as an array to destructure like the
    /// kernel's parameters: `let [x_ref, o_ref, acc_ref] = k.refs()?;`. An
    /// error when the kernel has another number of refs.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// doc_kernel(|k| {
    ///     // def kernel(s_ref, x_ref, n_ref, h_ref, o_ref, acc_ref, sems, flag):
    ///     let [s_ref, x_ref, n_ref, h_ref, o_ref, acc_ref, sems, flag] = k.refs()?;
    ///     assert!(x_ref == k.inputs[0] && o_ref == k.outputs[0] && flag == k.scratch[2]);
    ///     k.store(o_ref, k.load(x_ref)?)
    /// });
    /// ```
    pub fn refs<const N: usize>(&self) -> Result<[Value<'c, 'a>; N], BuildError> {
        let all: Vec<Value<'c, 'a>> = (self.scalar_prefetch.iter())
            .chain(&self.inputs)
            .chain(&self.outputs)
            .chain(&self.scratch)
            .copied()
            .collect();
        let count = all.len();
        all.try_into().map_err(|_| {
            self.body.error(
                "refs",
                format!("the kernel has {count} refs, not {N}: destructure {count}"),
            )
        })
    }
}

impl<'c, 'a> KernelArgs<'c, 'a> {
    /// The refs of the call's operands and results (scalar prefetch,
    /// inputs, outputs), as an array to destructure: with
    /// [`KernelArgs::scratch_refs`], the kernel's parameters in two shorter
    /// lines than [`KernelArgs::refs`] when there are many (rustfmt puts a
    /// long pattern one name a line).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_kernel;
    /// doc_kernel(|k| {
    ///     // def kernel(s_ref, x_ref, n_ref, h_ref, o_ref, acc_ref, sems, flag):
    ///     let [s_ref, x_ref, n_ref, h_ref, o_ref] = k.call_refs()?;
    ///     let [acc_ref, sems, flag] = k.scratch_refs()?;
    ///     assert!(x_ref == k.inputs[0] && o_ref == k.outputs[0] && flag == k.scratch[2]);
    ///     k.store(o_ref, k.load(x_ref)?)
    /// });
    /// ```
    pub fn call_refs<const N: usize>(&self) -> Result<[Value<'c, 'a>; N], BuildError> {
        let all: Vec<Value<'c, 'a>> = (self.scalar_prefetch.iter())
            .chain(&self.inputs)
            .chain(&self.outputs)
            .copied()
            .collect();
        self.exactly("call_refs", all)
    }

    /// The scratch refs (`scratch_shapes`), as an array to destructure
    /// (see [`KernelArgs::call_refs`]).
    pub fn scratch_refs<const N: usize>(&self) -> Result<[Value<'c, 'a>; N], BuildError> {
        self.exactly("scratch_refs", self.scratch.clone())
    }

    fn exactly<const N: usize>(
        &self,
        op: &str,
        refs: Vec<Value<'c, 'a>>,
    ) -> Result<[Value<'c, 'a>; N], BuildError> {
        let count = refs.len();
        refs.try_into().map_err(|_| {
            self.body.error(
                op,
                format!("the kernel has {count} such refs, not {N}: destructure {count}"),
            )
        })
    }
}

impl<'c, 'a> std::ops::Deref for KernelArgs<'c, 'a> {
    type Target = Body<'c, 'a>;

    fn deref(&self) -> &Body<'c, 'a> {
        &self.body
    }
}

impl<'c> KernelSpec<'c> {
    /// A TensorCore kernel named `name` without grid or arguments.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::new("copy") // pl.pallas_call(..., name="copy")
    /// });
    /// assert!(text.contains("func.func @copy()") && text.contains("#tpu.core_type<tc>"));
    /// ```
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            grid: Vec::new(),
            dimension_semantics: Vec::new(),
            core_type: CoreType::Tc,
            scalar_prefetch: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            scratch: Vec::new(),
            vreg_lanes: None,
            mesh: Vec::new(),
        }
    }

    /// Sets the grid and its dimension semantics.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::new("k").grid(&[4, 2], &[DimensionSemantics::Parallel, DimensionSemantics::Arbitrary])
    /// });
    /// assert!(text.contains("iteration_bounds = array<i64: 4, 2>"));
    /// assert!(text.contains("#tpu.dimension_semantics<parallel>"));
    /// ```
    pub fn grid(mut self, grid: &[i64], semantics: &[DimensionSemantics]) -> Self {
        self.grid = grid.to_vec();
        self.dimension_semantics = semantics.to_vec();
        self
    }

    /// Sets the core type.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::mosaic::attrs::CoreType;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::new("k").core_type(CoreType::ScScalarSubcore)
    /// });
    /// assert!(text.contains("#tpu.core_type<sc_scalar_subcore>"));
    /// ```
    pub fn core_type(mut self, core_type: CoreType) -> Self {
        self.core_type = core_type;
        self
    }

    /// Adds a scalar-prefetch ref.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::melior::ir::r#type::IntegerType;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     let ids = Arg::memref(ctx, &[4], IntegerType::new(ctx, 32).into(), MemorySpace::Smem);
    ///     KernelSpec::new("k").scalar_prefetch(ids) // num_scalar_prefetch=1
    /// });
    /// assert!(text.contains("scalar_prefetch = 1 : i64"));
    /// ```
    pub fn scalar_prefetch(mut self, arg: Arg<'c>) -> Self {
        self.scalar_prefetch.push(arg);
        self
    }

    /// Adds an input.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::new("k").input(Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem))
    /// });
    /// assert!(text.contains("memref<8x128xf32, #tpu.memory_space<vmem>>"));
    /// ```
    pub fn input(mut self, arg: Arg<'c>) -> Self {
        self.inputs.push(arg);
        self
    }

    /// Adds an output.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     let x = Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem);
    ///     KernelSpec::new("k").input(x).output(Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem))
    /// });
    /// assert_eq!(text.matches("memref<8x128xf32, #tpu.memory_space<vmem>>").count(), 2);
    /// ```
    pub fn output(mut self, arg: Arg<'c>) -> Self {
        self.outputs.push(arg);
        self
    }

    /// Adds a scratch ref.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::new("k").scratch(Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem))
    /// });
    /// assert!(text.contains("scratch_operands = 1 : i64"));
    /// ```
    pub fn scratch(mut self, arg: Arg<'c>) -> Self {
        self.scratch.push(arg);
        self
    }

    /// Adds inputs, in order (Pallas's `in_specs=[...]`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     let arg = || Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem);
    ///     KernelSpec::new("k").in_specs([arg(), arg()]).output(arg())
    /// });
    /// assert_eq!(text.matches("memref<8x128xf32").count(), 3);
    /// ```
    pub fn in_specs(mut self, args: impl IntoIterator<Item = Arg<'c>>) -> Self {
        self.inputs.extend(args);
        self
    }

    /// Adds scratch refs, in order (Pallas's `scratch_shapes=[...]`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::mosaic::attrs;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     let dma = attrs::dma_semaphore_type(ctx);
    ///     // scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32), pltpu.SemaphoreType.DMA((2,))]
    ///     KernelSpec::new("k").scratch_shapes([
    ///         Arg::memref(ctx, &[8, 128], f32, MemorySpace::Vmem),
    ///         Arg::memref(ctx, &[2], dma, MemorySpace::SemaphoreMem),
    ///     ])
    /// });
    /// assert!(text.contains("scratch_operands = 2 : i64") && text.contains("!tpu.dma_semaphore"));
    /// ```
    pub fn scratch_shapes(mut self, args: impl IntoIterator<Item = Arg<'c>>) -> Self {
        self.scratch.extend(args);
        self
    }

    /// `pl.kernel(.., mesh=plsc.VectorSubcoreMesh(num_cores=.., num_subcores=..))`:
    /// a SparseCore vector-subcore kernel named `name`, its grid the mesh
    /// (`core_parallel`, `subcore_parallel`); `lax.axis_index` of the core
    /// and subcore axes is `k.program_id(0)` and `k.program_id(1)`. Its
    /// inputs and outputs without a window get the mesh's
    /// ([`Window::mesh`]), as `pl.kernel` gives them.
    ///
    /// examples/pallas_examples's `embedding_lookup` builds one:
    ///
    /// ```text
    /// KernelSpec::vector_subcore_mesh("gather_kernel", 1, 16)
    ///     .in_specs([arg(&[1000, 128], f32, Hbm), arg(&[256], i32, Hbm)])
    ///     .output(arg(&[256, 128], f32, Hbm))
    ///     .scratch_shapes([arg(&[16], i32, Vmem), arg(&[16, 128], f32, Vmem)])
    ///     .build(ctx, |k| {
    ///         let [table_hbm, ids_hbm, out_hbm, ids_vmem, rows_vmem] = k.refs()?;
    ///         let start = k.mul(k.program_id(1)?, 16)?; // lax.axis_index("s") * 16
    ///         k.sync_copy(ids_hbm, &[ds(start, 16)], ids_vmem, &[])?;
    ///         k.sync_copy(table_hbm, &[at(ids_vmem)], rows_vmem, &[])?;
    ///         k.sync_copy(rows_vmem, &[], out_hbm, &[ds(start, 16)])
    ///     })
    /// ```
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::Type;
    /// let text = doc_spec(|ctx| {
    ///     let f32 = Type::float32(ctx);
    ///     KernelSpec::vector_subcore_mesh("gather", 1, 16)
    ///         .input(Arg::memref(ctx, &[256], f32, MemorySpace::Hbm))
    /// });
    /// assert!(text.contains("#tpu.core_type<sc_vector_subcore>"));
    /// assert!(text.contains("iteration_bounds = array<i64: 1, 16>"));
    /// assert!(text.contains("affine_map<(d0, d1) -> (0)>"));
    /// ```
    pub fn vector_subcore_mesh(name: &str, num_cores: i64, num_subcores: i64) -> Self {
        use DimensionSemantics::{CoreParallel, SubcoreParallel};
        KernelSpec::new(name)
            .core_type(CoreType::ScVectorSubcore)
            .grid(&[num_cores, num_subcores], &[CoreParallel, SubcoreParallel])
    }

    /// `compiler_params=pltpu.CompilerParams(needs_layout_passes=False)` on
    /// a SparseCore kernel whose vector registers have `lanes` 32-bit lanes
    /// (`plsc.get_sparse_core_info().num_lanes`: 16 on v7x, 8 on v5p and
    /// v6e): `k.load` / `k.store` are then `tpu.load` / `tpu.store` of whole
    /// registers under an all-true sublane mask, and `k.load_expanded` /
    /// `k.store_compressed` are `tpu.expand_load_vreg` /
    /// `tpu.compress_store_vreg`, as Pallas lowers them. libtpu's layout
    /// passes refuse `tpu.scan` (`k.cumsum`, `k.cummax`): kernels using it
    /// need this, and their call's `needs_layout_passes` false (PARAMS.json).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::MemorySpace; use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::melior::ir::operation::OperationLike;
    /// let ctx = tpu_custom_call::Context::new();
    /// let x = Arg::memref(&ctx, &[16], Type::float32(&ctx), MemorySpace::Vmem);
    /// let spec = KernelSpec::vector_subcore_mesh("k", 1, 16).scratch(x).without_layout_passes(16);
    /// let module = spec.build(&ctx, |k| k.store(k.scratch[0], k.cumsum(k.load(k.scratch[0])?, None)?))?;
    /// let text = module.as_operation().to_string();
    /// assert!(text.contains("\"tpu.load\"") && text.contains("\"tpu.store\""));
    /// # Ok::<(), tpu_custom_call::mosaic::BuildError>(())
    /// ```
    pub fn without_layout_passes(mut self, lanes: usize) -> Self {
        self.vreg_lanes = Some(lanes);
        self
    }

    /// The kernel runs under `jax.shard_map` over a mesh of these axes
    /// (names and sizes, major first: `Mesh(devices, ("x",))` of 4 devices
    /// is `&[("x", 4)]`): [`Body::axis_index`] reads the device's
    /// coordinate, a [`DeviceId`] of mesh coordinates names a device, and a
    /// load from an operand ref is cast to its own type (the identity
    /// `vector.shape_cast` Pallas writes for a value varying across the
    /// mesh). The call's PARAMS.json carries the axis names as JAX writes
    /// them (`"metadata": {"mesh_axes": "[\"x\"]"}`).
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::MemorySpace; use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::melior::ir::operation::OperationLike;
    /// let ctx = tpu_custom_call::Context::new();
    /// let x = || Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem);
    /// let spec = KernelSpec::new("k").mesh(&[("x", 4)]).input(x()).output(x());
    /// let module = spec.build(&ctx, |k| k.store(k.outputs[0], k.load(k.inputs[0])?))?;
    /// assert!(module.as_operation().to_string().contains("vector.shape_cast"));
    /// # Ok::<(), tpu_custom_call::mosaic::BuildError>(())
    /// ```
    pub fn mesh(mut self, axes: &[(&str, i64)]) -> Self {
        self.mesh = axes.iter().map(|&(n, s)| (n.to_string(), s)).collect();
        self
    }

    fn error(&self, message: String) -> BuildError {
        BuildError::Kernel {
            kernel: self.name.clone(),
            message,
        }
    }

    /// Checks the spec: semantics per grid dimension, windows against grid and
    /// their index maps.
    fn check(&self) -> Result<(), BuildError> {
        if !self.dimension_semantics.is_empty() && self.dimension_semantics.len() != self.grid.len()
        {
            return Err(self.error(format!(
                "dimension_semantics has {} entries but the grid {:?} has {} dimensions: give one per grid dimension",
                self.dimension_semantics.len(),
                self.grid,
                self.grid.len()
            )));
        }
        for (what, i, arg) in self.windowed() {
            let Window::Blocked {
                block_shape,
                index_map,
                buffer_count,
                revisit,
            } = &arg.window
            else {
                continue;
            };
            if let Some(n) = buffer_count
                && !(1..=2).contains(n)
            {
                return Err(self.error(format!(
                    "{what} {i}: Only single (1) and double (2) buffering are supported. Got {n}."
                )));
            }
            if *revisit == Some(RevisitMode::Any) && *buffer_count != Some(1) {
                return Err(self.error(format!(
                    "{what} {i}: RevisitMode.ANY is not supported with double buffering: use .buffered(1)"
                )));
            }
            if self.grid.is_empty() {
                return Err(self.error(format!(
                    "{what} {i} has a blocked window but the kernel has no grid: set a grid or use Window::Whole"
                )));
            }
            if block_shape.len() != index_map.rank() {
                return Err(self.error(format!(
                    "{what} {i}: window_bounds {block_shape:?} has rank {} but its index map returns {} indices: make them equal",
                    block_shape.len(),
                    index_map.rank()
                )));
            }
            if let IndexMap::Exprs(exprs) = index_map {
                for expr in exprs {
                    if let IndexExpr::Grid(g) = expr
                        && *g >= self.grid.len()
                    {
                        return Err(self.error(format!(
                            "{what} {i}: index map uses grid index {g} but the grid {:?} has {} dimensions: use IndexExpr::Grid(0..{}) or give the grid more dimensions with KernelSpec::grid",
                            self.grid,
                            self.grid.len(),
                            self.grid.len()
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    fn windowed(&self) -> impl Iterator<Item = (&'static str, usize, &Arg<'c>)> {
        let inputs = self.inputs.iter().enumerate().map(|(i, a)| ("input", i, a));
        let outputs = self
            .outputs
            .iter()
            .enumerate()
            .map(|(i, a)| ("output", i, a));
        inputs.chain(outputs)
    }

    /// Builds the kernel module: `body` appends the kernel's ops (without the
    /// final `func.return`) to the entry block; the module is then verified.
    ///
    /// ```
    /// # use tpu_custom_call::mosaic::pallas::*; use tpu_custom_call::testing::doc_spec;
    /// # use tpu_custom_call::mosaic::attrs::{DimensionSemantics, MemorySpace};
    /// # use tpu_custom_call::melior::ir::{Type, operation::OperationLike};
    /// # use tpu_custom_call::mosaic::BuildError;
    /// let ctx = tpu_custom_call::Context::new();
    /// let block = || Arg::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem);
    /// let spec = KernelSpec::new("double").input(block()).output(block());
    /// // o_ref[...] = x_ref[...] * 2.0
    /// let module = spec.build(&ctx, |k| k.store(k.outputs[0], k.mul(k.load(k.inputs[0])?, 2.0)?))?;
    /// assert!(module.as_operation().verify());
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn build<E>(
        &self,
        ctx: &'c MlirContext,
        body: impl for<'a> FnOnce(&KernelArgs<'c, 'a>) -> Result<(), E>,
    ) -> Result<Module<'c>, E>
    where
        E: From<BuildError>,
    {
        self.check()?;
        let unknown = Location::unknown(ctx);
        let i32_type: Type<'c> = IntegerType::new(ctx, 32).into();
        let mut module = Module::new(unknown);
        module
            .as_operation_mut()
            .set_attribute("sym_name", StringAttribute::new(ctx, &self.name).into());

        let grid_types = vec![i32_type; self.grid.len()];
        let arg_location = |arg: &Arg<'c>| match &arg.name {
            Some(name) => Location::name(ctx, name, unknown),
            None => unknown,
        };
        let mut block_args: Vec<(Type<'c>, Location<'c>)> =
            grid_types.iter().map(|&t| (t, unknown)).collect();
        for arg in self
            .scalar_prefetch
            .iter()
            .chain(&self.inputs)
            .chain(&self.outputs)
            .chain(&self.scratch)
        {
            block_args.push((arg.ty, arg_location(arg)));
        }
        let arg_types: Vec<Type<'c>> = block_args.iter().map(|(t, _)| *t).collect();

        // Function attributes, in Pallas's set (the dictionary sorts them).
        let mut fn_attrs: Vec<(Identifier<'c>, Attribute<'c>)> = Vec::new();
        let semantics: Vec<Attribute<'c>> = if self.dimension_semantics.is_empty() {
            vec![DimensionSemantics::Arbitrary.attribute(ctx); self.grid.len()]
        } else {
            self.dimension_semantics
                .iter()
                .map(|s| s.attribute(ctx))
                .collect()
        };
        fn_attrs.push((
            Identifier::new(ctx, "dimension_semantics"),
            attrs::array_attr(ctx, &semantics),
        ));
        let count = |n: usize| attrs::i64_attr(ctx, i64::try_from(n).unwrap_or(i64::MAX));
        fn_attrs.push((
            Identifier::new(ctx, "scalar_prefetch"),
            count(self.scalar_prefetch.len()),
        ));
        fn_attrs.push((
            Identifier::new(ctx, "scratch_operands"),
            count(self.scratch.len()),
        ));
        fn_attrs.push((
            Identifier::new(ctx, "tpu.core_type"),
            self.core_type.attribute(ctx),
        ));

        // Index-map functions, made first so that the window params can name
        // them; appended after the kernel.
        let mut transforms = Vec::new();
        if !self.grid.is_empty() {
            let bounds: Vec<i64> = self
                .grid
                .iter()
                .map(|&b| if b < 0 { i64::MIN } else { b })
                .collect();
            fn_attrs.push((
                Identifier::new(ctx, "iteration_bounds"),
                attrs::i64_array_attr(ctx, &bounds),
            ));
            let mut windows = Vec::new();
            let map_inputs: Vec<Type<'c>> = grid_types
                .iter()
                .copied()
                .chain(self.scalar_prefetch.iter().map(|a| a.ty))
                .collect();
            // Named by the operand's position among inputs and outputs, as
            // Pallas names them (`memory_space=ANY` operands take a number too).
            for (position, (_, _, arg)) in self.windowed().enumerate() {
                let sparse_core = matches!(
                    self.core_type,
                    CoreType::ScVectorSubcore | CoreType::ScScalarSubcore
                );
                let window = match &arg.window {
                    // A SparseCore mesh kernel's operands: the mesh's window.
                    Window::Whole if sparse_core => {
                        let rank = super::support::memref_parts(arg.ty).map_or(0, |p| p.0.len());
                        let Window::AffineMap(map) = Window::mesh(ctx, self.grid.len(), rank)
                        else {
                            unreachable!("Window::mesh is an affine map")
                        };
                        DictionaryAttribute::new(
                            ctx,
                            &[(Identifier::new(ctx, "transform_indices"), map)],
                        )
                        .into()
                    }
                    Window::Whole => DictionaryAttribute::new(ctx, &[]).into(),
                    Window::AffineMap(map) => DictionaryAttribute::new(
                        ctx,
                        &[(Identifier::new(ctx, "transform_indices"), *map)],
                    )
                    .into(),
                    Window::Blocked {
                        block_shape,
                        index_map,
                        buffer_count,
                        revisit,
                    } => {
                        let name = format!("transform_{position}");
                        let (function, rank) =
                            index_map_function(ctx, &name, &map_inputs, index_map, i32_type);
                        if rank != block_shape.len() {
                            return Err(self
                                .error(format!(
                                    "the custom index map of {name} returned {rank} indices but window_bounds {block_shape:?} has rank {}: return one index per window dimension",
                                    block_shape.len()
                                ))
                                .into());
                        }
                        transforms.push(function);
                        let mut entries = vec![
                            (
                                Identifier::new(ctx, "transform_indices"),
                                FlatSymbolRefAttribute::new(ctx, &name).into(),
                            ),
                            (
                                Identifier::new(ctx, "window_bounds"),
                                attrs::i64_array_attr(ctx, block_shape),
                            ),
                        ];
                        // Pallas forces single buffering on a trivial VMEM
                        // window: the whole array under an index map of zeros.
                        let trivial = arg.array_shape.as_deref() == Some(block_shape.as_slice())
                            && matches!(index_map, IndexMap::Exprs(e)
                                if e.iter().all(|x| *x == IndexExpr::Const(0)))
                            && arg.ty.to_string().contains("#tpu.memory_space<vmem>");
                        let count = if trivial { Some(1) } else { *buffer_count };
                        if let Some(n) = count {
                            let mode = if n == 1 {
                                "synchronous"
                            } else {
                                "double_buffered"
                            };
                            entries.push((
                                Identifier::new(ctx, "pipeline_mode"),
                                Attribute::parse(ctx, &format!("#tpu.pipeline_mode<{mode}>"))
                                    .ok_or_else(|| {
                                        self.error(
                                            "the tpu dialect did not parse #tpu.pipeline_mode"
                                                .into(),
                                        )
                                    })?,
                            ));
                        }
                        if let Some(r) = revisit {
                            entries.push((
                                Identifier::new(ctx, "revisit_mode"),
                                Attribute::parse(
                                    ctx,
                                    &format!("#tpu.revisit_mode<{}>", r.keyword()),
                                )
                                .ok_or_else(|| {
                                    self.error(
                                        "the tpu dialect did not parse #tpu.revisit_mode".into(),
                                    )
                                })?,
                            ));
                        }
                        DictionaryAttribute::new(ctx, &entries).into()
                    }
                };
                windows.push(window);
            }
            fn_attrs.push((
                Identifier::new(ctx, "window_params"),
                attrs::array_attr(ctx, &windows),
            ));
        }

        let block = Block::new(&block_args);
        {
            let values: Vec<Value<'c, '_>> = (0..block_args.len())
                .filter_map(|i| block.argument(i).ok().map(Value::from))
                .collect();
            let mut rest = values.as_slice();
            let mut take = |n: usize| {
                let (head, tail) = rest.split_at(n);
                rest = tail;
                head.to_vec()
            };
            let grid_indices = take(self.grid.len());
            let first = grid_indices.len() + self.scalar_prefetch.len();
            let operands = values[first..first + self.inputs.len() + self.outputs.len()].to_vec();
            let args = KernelArgs {
                ctx,
                block: &block,
                body: Body::new(
                    ctx,
                    &block,
                    &self.name,
                    &self.grid,
                    &grid_indices,
                    self.core_type,
                    self.vreg_lanes,
                    self.scratch.len(),
                    &self.mesh,
                    &operands,
                ),
                grid_indices: grid_indices.clone(),
                scalar_prefetch: take(self.scalar_prefetch.len()),
                inputs: take(self.inputs.len()),
                outputs: take(self.outputs.len()),
                scratch: take(self.scratch.len()),
            };
            body(&args)?;
        }
        block.append_operation(func::r#return(&[], unknown));
        let region = Region::new();
        region.append_block(block);
        let function = func::func(
            ctx,
            StringAttribute::new(ctx, &self.name),
            TypeAttribute::new(FunctionType::new(ctx, &arg_types, &[]).into()),
            region,
            &fn_attrs,
            unknown,
        );
        module.body().append_operation(function);
        for transform in transforms {
            module.body().append_operation(transform);
        }
        let (ok, mut diagnostics) =
            crate::context::capture(ctx, || crate::ffi::verify_operation(module.as_operation()));
        if !ok {
            crate::mosaic::hints::add_hints(&mut diagnostics);
            return Err(BuildError::Verify {
                kernel: self.name.clone(),
                diagnostics: crate::context::join_diagnostics(&diagnostics),
            }
            .into());
        }
        Ok(module)
    }
}

/// `func.func @name(grid indices…, prefetch refs…) -> (i32 × rank)` and the
/// number of indices it returns.
fn index_map_function<'c>(
    ctx: &'c MlirContext,
    name: &str,
    inputs: &[Type<'c>],
    index_map: &IndexMap<'c>,
    i32_type: Type<'c>,
) -> (melior::ir::Operation<'c>, usize) {
    let unknown = Location::unknown(ctx);
    let block_args: Vec<(Type<'c>, Location<'c>)> = inputs.iter().map(|&t| (t, unknown)).collect();
    let block = Block::new(&block_args);
    let constant = |value: i32| {
        block
            .append_operation(arith::constant(
                ctx,
                IntegerAttribute::new(i32_type, value.into()).into(),
                unknown,
            ))
            .result(0)
            .map(Value::from)
    };
    let results: Vec<Value<'c, '_>> = match index_map {
        IndexMap::Exprs(exprs) => exprs
            .iter()
            .filter_map(|expr| match *expr {
                IndexExpr::Grid(g) => block.argument(g).ok().map(Value::from),
                IndexExpr::Const(c) => constant(c).ok(),
            })
            .collect(),
        IndexMap::Custom { body, .. } => body(ctx, &block),
    };
    // Pallas ends every index map with an unused `arith.constant 0 : i32`.
    let _ = constant(0);
    let rank = results.len();
    block.append_operation(func::r#return(&results, unknown));
    drop(results);
    let region = Region::new();
    region.append_block(block);
    let function = func::func(
        ctx,
        StringAttribute::new(ctx, name),
        TypeAttribute::new(FunctionType::new(ctx, inputs, &vec![i32_type; rank]).into()),
        region,
        &[],
        unknown,
    );
    (function, rank)
}
