//! Typed constructors for the attributes, enums and types of the Mosaic `tpu`
//! dialect (jaxlib 0.12 spelling), so that a kernel can be built in memory
//! without writing `#tpu.…` text.
//!
//! Each value prints exactly as jaxlib 0.12 prints it (`#tpu.memory_space<vmem,
//! sc_vector_subcore>`, `#tpu.tiled<(8,128),[1,1]>`, …) and is the same
//! attribute the parser of this crate makes from that text.
//!
//! ```
//! use tpu_custom_call::mosaic::attrs::{self, CoreType, MemorySpace};
//! use tpu_custom_call::melior::ir::r#type::{IntegerType, Type};
//!
//! let ctx = tpu_custom_call::Context::new();
//! let vmem = attrs::memory_space(&ctx, MemorySpace::Vmem, None);
//! assert_eq!(vmem.to_string(), "#tpu.memory_space<vmem>");
//! let smem_tc = attrs::memory_space(&ctx, MemorySpace::Smem, Some(CoreType::Tc));
//! assert_eq!(smem_tc.to_string(), "#tpu.memory_space<smem, tc>");
//! let i32 = Type::from(IntegerType::new(&ctx, 32));
//! let buf = attrs::memref(&ctx, &[8, 128], i32, MemorySpace::Smem, None);
//! assert_eq!(buf.to_string(), "memref<8x128xi32, #tpu.memory_space<smem>>");
//! assert_eq!("vmem".parse::<MemorySpace>(), Ok(MemorySpace::Vmem));
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use melior::Context as MlirContext;
use melior::StringRef;
use melior::dialect::DialectHandle;
use melior::ir::attribute::{
    ArrayAttribute, BoolAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute,
    IntegerAttribute, StringAttribute, TypeAttribute,
};
use melior::ir::r#type::{IntegerType, MemRefType};
use melior::ir::{Attribute, Type};

use crate::ffi::{mlirGetDialectHandle__tcc_tpu__, tcc_tpu_attr_get, tcc_tpu_type_get};
use crate::mosaic::vocab::TpuMemorySpace;

/// Loads the pass-through `tpu` dialect into `ctx` (a no-op when it is loaded,
/// as it is in a [`crate::Context`] or after [`crate::context::prepare`]).
fn ensure_tpu(ctx: &MlirContext) {
    // SAFETY: the handle is a static descriptor; loading is idempotent.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__tcc_tpu__()) }.load_dialect(ctx);
}

/// The `tpu` attribute `#tpu.<text>`; `text` must be what jaxlib prints after
/// `#tpu.` (the constructors of this module make it).
pub fn tpu_attribute<'c>(ctx: &'c MlirContext, text: &str) -> Attribute<'c> {
    ensure_tpu(ctx);
    let text = StringRef::new(text);
    // SAFETY: the context is live and its `tpu` dialect loaded; the text is
    // copied into the context's attribute storage.
    unsafe { Attribute::from_raw(tcc_tpu_attr_get(ctx.to_raw(), text.to_raw())) }
}

/// The `tpu` type `!tpu.<text>`.
pub fn tpu_type<'c>(ctx: &'c MlirContext, text: &str) -> Type<'c> {
    ensure_tpu(ctx);
    let text = StringRef::new(text);
    // SAFETY: as for `tpu_attribute`.
    unsafe { Type::from_raw(tcc_tpu_type_get(ctx.to_raw(), text.to_raw())) }
}

/// An unknown enum spelling, from the `FromStr` of this module's enums.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}`: expected one of {expected}")]
#[non_exhaustive]
pub struct ParseEnumError {
    /// The enum (`core type`, `memory space`, …).
    pub what: &'static str,
    /// The spelling given.
    pub value: String,
    /// The spellings accepted, comma-separated.
    pub expected: String,
}

macro_rules! tpu_enum {
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal, $mnemonic:literal {
            $($(#[$vmeta:meta])* $variant:ident = $spelling:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in the dialect's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The spelling jaxlib uses (`FromStr` inverts it).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $spelling,)*
                }
            }

            /// The attribute `#tpu.
            #[doc = $mnemonic]
            /// <value>`.
            pub fn attribute(self, ctx: &MlirContext) -> Attribute<'_> {
                tpu_attribute(ctx, &format!(concat!($mnemonic, "<{}>"), self.as_str()))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = ParseEnumError;

            fn from_str(s: &str) -> Result<Self, ParseEnumError> {
                match s {
                    $($spelling => Ok($name::$variant),)*
                    _ => Err(ParseEnumError {
                        what: $what,
                        value: s.to_string(),
                        expected: [$($spelling),*].join(", "),
                    }),
                }
            }
        }
    };
}

tpu_enum! {
    /// The core a kernel or memory space belongs to (`#tpu.core_type<…>`).
    CoreType, "core type", "core_type" {
        /// The TensorCore (`tc`).
        Tc = "tc",
        /// A SparseCore scalar subcore.
        ScScalarSubcore = "sc_scalar_subcore",
        /// A SparseCore vector subcore.
        ScVectorSubcore = "sc_vector_subcore",
    }
}

tpu_enum! {
    /// How a grid dimension is iterated (`#tpu.dimension_semantics<…>`).
    DimensionSemantics, "dimension semantics", "dimension_semantics" {
        /// Iterations are independent.
        Parallel = "parallel",
        /// Iterations run in order.
        Arbitrary = "arbitrary",
        /// Split across cores.
        CoreParallel = "core_parallel",
        /// Split across subcores.
        SubcoreParallel = "subcore_parallel",
    }
}

tpu_enum! {
    /// Precision of `tpu.matmul` (`#tpu.contract_precision<…>`).
    ContractPrecision, "contract precision", "contract_precision" {
        /// One bf16 pass.
        Bf16 = "bf16",
        /// Full f32.
        Fp32 = "fp32",
        /// Three bf16 passes.
        Bf16x3 = "bf16x3",
    }
}

tpu_enum! {
    /// Packing of `tpu.pack_subelements` (`#tpu.pack_format<…>`).
    PackFormat, "pack format", "pack_format" {
        /// Compressed.
        Compressed = "compressed",
        /// Interleaved.
        Interleaved = "interleaved",
    }
}

tpu_enum! {
    /// Rounding of conversions (`#tpu.rounding_mode<…>`).
    RoundingMode, "rounding mode", "rounding_mode" {
        /// Truncate.
        TowardsZero = "towards_zero",
        /// Round half to even.
        ToNearestEven = "to_nearest_even",
    }
}

tpu_enum! {
    /// A reduction (`#tpu.reduction_kind<…>`); `max` and `min` are deprecated
    /// and rejected by jaxlib's verifiers.
    ReductionKind, "reduction kind", "reduction_kind" {
        /// Sum.
        Sum = "sum",
        /// Deprecated maximum.
        Max = "max",
        /// Deprecated minimum.
        Min = "min",
        /// Index of the maximum.
        ArgMax = "arg_max",
        /// Index of the minimum.
        ArgMin = "arg_min",
        /// First set element.
        FindFirstSet = "find_first_set",
        /// Float maximum.
        Maxf = "maxf",
        /// Float minimum.
        Minf = "minf",
        /// Signed integer maximum.
        Maxsi = "maxsi",
        /// Signed integer minimum.
        Minsi = "minsi",
        /// Unsigned integer maximum.
        Maxui = "maxui",
        /// Unsigned integer minimum.
        Minui = "minui",
    }
}

tpu_enum! {
    /// Buffering of a pipelined window (`#tpu.pipeline_mode<…>`).
    PipelineMode, "pipeline mode", "pipeline_mode" {
        /// One buffer.
        Synchronous = "synchronous",
        /// Two buffers.
        DoubleBuffered = "double_buffered",
    }
}

tpu_enum! {
    /// Revisit mode of a window (`#tpu.revisit_mode<…>`).
    RevisitMode, "revisit mode", "revisit_mode" {
        /// Revisit immediately.
        Immediate = "immediate",
        /// Any order.
        Any = "any",
    }
}

/// A memory space of `#tpu.memory_space<…>` (no attribute of its own; see
/// [`memory_space`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MemorySpace {
    /// Any memory (`any`).
    Any,
    /// Vector memory.
    Vmem,
    /// Scalar memory.
    Smem,
    /// High-bandwidth memory.
    Hbm,
    /// Common memory.
    Cmem,
    /// Semaphore memory.
    SemaphoreMem,
    /// Vector memory shared between subcores.
    VmemShared,
    /// Host memory.
    Host,
}

impl MemorySpace {
    /// Every value, in the dialect's order.
    pub const ALL: &'static [MemorySpace] = &[
        MemorySpace::Any,
        MemorySpace::Vmem,
        MemorySpace::Smem,
        MemorySpace::Hbm,
        MemorySpace::Cmem,
        MemorySpace::SemaphoreMem,
        MemorySpace::VmemShared,
        MemorySpace::Host,
    ];

    /// The spelling jaxlib uses: the keyword of the same space in
    /// [`TpuMemorySpace`] (both enums list the spaces in the dialect's order).
    pub fn as_str(self) -> &'static str {
        TpuMemorySpace::ALL[self as usize].keyword()
    }
}

// One space for one space: `as_str` indexes `TpuMemorySpace::ALL` by variant.
const _: () = assert!(MemorySpace::ALL.len() == TpuMemorySpace::ALL.len());

impl fmt::Display for MemorySpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MemorySpace {
    type Err = ParseEnumError;

    fn from_str(s: &str) -> Result<Self, ParseEnumError> {
        MemorySpace::ALL
            .iter()
            .copied()
            .find(|space| space.as_str() == s)
            .ok_or_else(|| ParseEnumError {
                what: "memory space",
                value: s.to_string(),
                expected: MemorySpace::ALL
                    .iter()
                    .map(|space| space.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// `#tpu.memory_space<space>` or `#tpu.memory_space<space, core_type>`.
pub fn memory_space(
    ctx: &MlirContext,
    space: MemorySpace,
    core_type: Option<CoreType>,
) -> Attribute<'_> {
    let text = match core_type {
        None => format!("memory_space<{space}>"),
        Some(core) => format!("memory_space<{space}, {core}>"),
    };
    tpu_attribute(ctx, &text)
}

/// `!tpu.semaphore`.
pub fn semaphore_type(ctx: &MlirContext) -> Type<'_> {
    tpu_type(ctx, "semaphore")
}

/// `!tpu.dma_semaphore`.
pub fn dma_semaphore_type(ctx: &MlirContext) -> Type<'_> {
    tpu_type(ctx, "dma_semaphore")
}

/// `!tpu.float8_exmy<underlying>` (for example `f8E4M3FN`).
pub fn float8_exmy_type<'c>(ctx: &'c MlirContext, underlying: Type<'c>) -> Type<'c> {
    tpu_type(ctx, &format!("float8_exmy<{underlying}>"))
}

/// `memref<shape x element, [layout,] #tpu.memory_space<…>>`; `-1` in the shape
/// is a dynamic size.
pub fn memref<'c>(
    ctx: &'c MlirContext,
    shape: &[i64],
    element: Type<'c>,
    space: MemorySpace,
    core_type: Option<CoreType>,
) -> Type<'c> {
    let shape: Vec<i64> = shape
        .iter()
        .map(|&d| if d < 0 { i64::MIN } else { d })
        .collect();
    MemRefType::new(
        element,
        &shape,
        None,
        Some(memory_space(ctx, space, core_type)),
    )
    .into()
}

/// `#tpu.tiled<(t0,t1)(…),[s0,s1,…]>`: a list of tiles and one stride per
/// memref dimension (`None` prints `?`, a dynamic stride).
///
/// The attribute is the one jaxlib prints and the one parsing that text
/// gives: a memref layout (MLIR's layout interface, answered as jaxlib's
/// `TiledLayoutAttr` does), so it can be the layout of a memref type
/// (`MemRefType::new(element, &[8, 128], Some(layout), Some(space))`), whose
/// rank must then be the number of strides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TiledLayout {
    /// The tiles, outermost first.
    pub tiles: Vec<Vec<i64>>,
    /// The tile strides, one per dimension.
    pub strides: Vec<Option<i64>>,
}

impl TiledLayout {
    /// A layout of the given tiles and static strides.
    pub fn new(tiles: Vec<Vec<i64>>, strides: Vec<i64>) -> Self {
        Self {
            tiles,
            strides: strides.into_iter().map(Some).collect(),
        }
    }

    /// The attribute.
    pub fn attribute<'c>(&self, ctx: &'c MlirContext) -> Attribute<'c> {
        tpu_attribute(ctx, &self.to_string())
    }
}

impl fmt::Display for TiledLayout {
    /// The text after `#tpu.` (`tiled<(8,128),[1,1]>`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tiled<")?;
        for tile in &self.tiles {
            f.write_char('(')?;
            write_joined(f, tile.iter().map(|d| d.to_string()), ",")?;
            f.write_char(')')?;
        }
        f.write_str(",[")?;
        let strides = self
            .strides
            .iter()
            .map(|s| s.map_or("?".to_string(), |s| s.to_string()));
        write_joined(f, strides, ",")?;
        f.write_str("]>")
    }
}

/// `#tpu.dot_dimension_numbers<…>` of `tpu.matmul`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DotDimensionNumbers {
    /// Contracting dimensions of the left operand.
    pub lhs_contracting_dims: Vec<i64>,
    /// Contracting dimensions of the right operand.
    pub rhs_contracting_dims: Vec<i64>,
    /// Non-contracting dimensions of the left operand.
    pub lhs_non_contracting_dims: Vec<i64>,
    /// Non-contracting dimensions of the right operand.
    pub rhs_non_contracting_dims: Vec<i64>,
    /// The output dimensions as (operand 0 = lhs / 1 = rhs, dimension) pairs,
    /// flattened.
    pub output_dim_order: Vec<i64>,
    /// Batch dimensions of the left operand.
    pub lhs_batch_dims: Vec<i64>,
    /// Batch dimensions of the right operand.
    pub rhs_batch_dims: Vec<i64>,
}

impl DotDimensionNumbers {
    /// What Pallas writes for a plain 2-D `lhs @ rhs`:
    /// `<[1], [0], [0], [1], [0, 0, 1, 1], [], []>`.
    pub fn matmul_2d() -> Self {
        Self {
            lhs_contracting_dims: vec![1],
            rhs_contracting_dims: vec![0],
            lhs_non_contracting_dims: vec![0],
            rhs_non_contracting_dims: vec![1],
            output_dim_order: vec![0, 0, 1, 1],
            lhs_batch_dims: vec![],
            rhs_batch_dims: vec![],
        }
    }

    /// The attribute.
    pub fn attribute<'c>(&self, ctx: &'c MlirContext) -> Attribute<'c> {
        tpu_attribute(ctx, &self.to_string())
    }
}

impl fmt::Display for DotDimensionNumbers {
    /// The text after `#tpu.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dot_dimension_numbers<")?;
        let lists = [
            &self.lhs_contracting_dims,
            &self.rhs_contracting_dims,
            &self.lhs_non_contracting_dims,
            &self.rhs_non_contracting_dims,
            &self.output_dim_order,
            &self.lhs_batch_dims,
            &self.rhs_batch_dims,
        ];
        for (i, list) in lists.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_list(f, list)?;
        }
        f.write_char('>')
    }
}

/// `#tpu.conv_dimension_numbers<…>` of `tpu.conv`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConvDimensionNumbers {
    /// Input batch dimension.
    pub input_batch: i64,
    /// Input feature dimension.
    pub input_feature: i64,
    /// Input spatial dimensions.
    pub input_spatial: Vec<i64>,
    /// Kernel input-feature dimension.
    pub kernel_input_feature: i64,
    /// Kernel output-feature dimension.
    pub kernel_output_feature: i64,
    /// Kernel spatial dimensions.
    pub kernel_spatial: Vec<i64>,
    /// Output batch dimension.
    pub output_batch: i64,
    /// Output feature dimension.
    pub output_feature: i64,
    /// Output spatial dimensions.
    pub output_spatial: Vec<i64>,
}

impl ConvDimensionNumbers {
    /// The attribute.
    pub fn attribute<'c>(&self, ctx: &'c MlirContext) -> Attribute<'c> {
        tpu_attribute(ctx, &self.to_string())
    }
}

impl fmt::Display for ConvDimensionNumbers {
    /// The text after `#tpu.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conv_dimension_numbers<{}, {}, ",
            self.input_batch, self.input_feature
        )?;
        write_list(f, &self.input_spatial)?;
        write!(
            f,
            ", {}, {}, ",
            self.kernel_input_feature, self.kernel_output_feature
        )?;
        write_list(f, &self.kernel_spatial)?;
        write!(f, ", {}, {}, ", self.output_batch, self.output_feature)?;
        write_list(f, &self.output_spatial)?;
        f.write_char('>')
    }
}

fn write_joined(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = String>,
    separator: &str,
) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(separator)?;
        }
        f.write_str(&item)?;
    }
    Ok(())
}

fn write_list(f: &mut fmt::Formatter<'_>, list: &[i64]) -> fmt::Result {
    f.write_char('[')?;
    write_joined(f, list.iter().map(|d| d.to_string()), ", ")?;
    f.write_char(']')
}

// Builtin attribute shorthands used by the generated op builders.

/// `true`/`false`.
pub fn bool_attr(ctx: &MlirContext, value: bool) -> Attribute<'_> {
    BoolAttribute::new(ctx, value).into()
}

/// `value : i32`.
pub fn i32_attr(ctx: &MlirContext, value: i32) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(ctx, 32).into(), value.into()).into()
}

/// `value : si32`.
pub fn si32_attr(ctx: &MlirContext, value: i32) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::signed(ctx, 32).into(), value.into()).into()
}

/// `value : i64`.
pub fn i64_attr(ctx: &MlirContext, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(ctx, 64).into(), value).into()
}

/// `"value"`.
pub fn str_attr<'c>(ctx: &'c MlirContext, value: &str) -> Attribute<'c> {
    StringAttribute::new(ctx, value).into()
}

/// A type as an attribute.
pub fn type_attr(ty: Type<'_>) -> Attribute<'_> {
    TypeAttribute::new(ty).into()
}

/// `array<i32: …>`.
pub fn i32_array_attr<'c>(ctx: &'c MlirContext, values: &[i32]) -> Attribute<'c> {
    DenseI32ArrayAttribute::new(ctx, values).into()
}

/// `array<i64: …>`.
pub fn i64_array_attr<'c>(ctx: &'c MlirContext, values: &[i64]) -> Attribute<'c> {
    DenseI64ArrayAttribute::new(ctx, values).into()
}

/// `array<i1: …>`.
pub fn bool_array_attr<'c>(ctx: &'c MlirContext, values: &[bool]) -> Attribute<'c> {
    let values: Vec<std::ffi::c_int> = values.iter().map(|&b| b.into()).collect();
    // SAFETY: the context is live and `values` outlives the call, which copies
    // them into the attribute.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseBoolArrayGet(
            ctx.to_raw(),
            values.len() as isize,
            values.as_ptr(),
        ))
    }
}

/// `[a, b, …]`.
pub fn array_attr<'c>(ctx: &'c MlirContext, values: &[Attribute<'c>]) -> Attribute<'c> {
    ArrayAttribute::new(ctx, values).into()
}
