//! The call contract: a `tpu_custom_call`'s operands and results against the
//! arguments of the kernel it calls, and (with a chip) the kernel's scoped-VMEM
//! budget ([`vmem`]).
//!
//! A Pallas kernel's main function takes its arguments in this order (the
//! attributes of the function say how many of each):
//!
//! | arguments | how many | call side |
//! |---|---|---|
//! | grid indices (`i32`) | `iteration_bounds` entries | none; a dynamic bound (`?`) is one leading `tensor<i32>` (or `tensor<1xi32>`) operand |
//! | scalar prefetch (SMEM memrefs) | `scalar_prefetch` | the next operands, whole |
//! | inputs, then outputs | the rest | the remaining operands, then the results |
//! | scratch | `scratch_operands` | none |
//!
//! With `window_params` (one per input and output) each buffer is a block of
//! `window_bounds` moved by the index map `transform_indices` (grid indices and
//! scalar prefetch in, block indices out); without bounds, or without
//! `window_params`, the kernel sees the whole operand, whose type must then be
//! the kernel argument's. Index maps are evaluated at every grid point (up to
//! [`MAX_GRID_POINTS`]) and every block they address must start inside the
//! operand (a partial last block, as Pallas's `cdiv` grids make, is allowed;
//! a block outside is a warning, [`ContractReport::warnings`]: libtpu compiles
//! such kernels);
//! maps that read scalar prefetch or use ops not folded here are reported as not
//! checked in the [`ContractReport`].
//!
//! Kernels without such a main function (no function with
//! `dimension_semantics`, `scalar_prefetch` or `window_params`, nor one named
//! like the module) are not checked.

pub mod bounds;
pub mod grid;
mod memory;
pub mod tiling;
pub mod vmem;
mod windows;

pub use windows::window_errors;

use std::collections::HashMap;
use std::fmt;

use mlir_sys::MlirAttribute;

use crate::kernel::Kernel;
use crate::mosaic::vocab::split_top;
use crate::params::Params;
use crate::serde::ir::{self, Op};
use crate::target::{Chip, TpuMemorySpace};

pub use vmem::{VmemBudget, format_bytes};

/// Grids with more points than this are not walked (their index maps are
/// reported as not checked).
pub const MAX_GRID_POINTS: u64 = 1 << 16;

/// `ShapedType::kDynamic`, as `iteration_bounds` spells a dynamic bound.
pub(crate) const DYNAMIC: i64 = i64::MIN;

/// A problem of a call against its kernel. Messages name the operand or
/// result, the kernel argument, both types and the fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContractError {
    /// A grid libtpu refuses ([`grid`]: a bound out of range, or too many
    /// steps), in libtpu's words.
    #[error(transparent)]
    Grid(#[from] grid::GridError),
    /// The call's operands and results do not add up to the kernel's
    /// buffers.
    #[error(
        "the call has {operands} operand(s) and {results} result(s), but kernel `{function}` takes \
         {layout}; give the call {leading} leading operand(s) (dynamic grid bounds, then scalar \
         prefetch), then {needed} buffers in all: the kernel's inputs as operands, its outputs as \
         results"
    )]
    Arity {
        /// The kernel's main function.
        function: String,
        /// Operands of the call (shape operands excluded).
        operands: usize,
        /// Results of the call.
        results: usize,
        /// How the kernel's arguments split, in words.
        layout: String,
        /// Input and output buffers the kernel takes.
        needed: usize,
        /// Dynamic grid bounds plus scalar prefetch operands.
        leading: usize,
    },
    /// A dynamic grid bound operand is not a one-element `i32` tensor.
    #[error(
        "operand {operand} (`{found}`) is the dynamic grid bound {dimension} of kernel `{function}`; \
         it must be `tensor<i32>` (or a one-element `tensor<1xi32>`)"
    )]
    DynamicBound {
        /// The kernel's main function.
        function: String,
        /// Operand index.
        operand: usize,
        /// Grid dimension.
        dimension: usize,
        /// The operand's type.
        found: String,
    },
    /// An operand or result does not match its kernel argument.
    #[error(
        "{place} (`{call_type}`) is argument {argument} of kernel `{function}` (`{kernel_type}`, {role}): {problem}; {fix}"
    )]
    Mismatch {
        /// The kernel's main function.
        function: String,
        /// `operand 2` or `result 0`.
        place: Place,
        /// The call's type.
        call_type: String,
        /// Kernel argument index.
        argument: usize,
        /// The kernel argument's type.
        kernel_type: String,
        /// `input 0`, `scalar prefetch 0`, `output 1`.
        role: String,
        /// What differs.
        problem: String,
        /// How to fix it.
        fix: String,
    },
    /// An output block visited, left and visited again in the grid's order
    /// (index maps evaluated statically): the words `run` reports it with.
    #[error(
        "Revisited block: output {output}'s block {block:?} (elements from {start:?}) was visited \
         at grid points ({first}) to ({last}) and written back, then visited again at grid point \
         ({again}): a TPU does not read an output block back, so the earlier visit's writes are \
         lost (visit each output block in one run of consecutive grid points)"
    )]
    RevisitedBlock {
        /// The output (result index).
        output: usize,
        /// The block index.
        block: Vec<i64>,
        /// Its first element.
        start: Vec<i64>,
        /// The first grid point of the earlier visit, comma-separated.
        first: String,
        /// Its last grid point.
        last: String,
        /// The grid point of the second visit.
        again: String,
    },
    /// A block addressed by the grid and index map lies outside the operand
    /// (a warning: libtpu compiles it, see [`ContractReport::warnings`]).
    #[error(
        "{place} (`{call_type}`) is argument {argument} of kernel `{function}` (blocks of {block}): \
         at grid point ({point}) the index map `{map}` gives block ({index}), which starts at \
         {start} along dimension {dimension}, where the {what} has {extent}; the kernel would \
         {verb} past the {what}: the grid and index map address {needed} elements, so make the {what} \
         at least that large or shrink the grid"
    )]
    BlockOutside {
        /// The kernel's main function.
        function: String,
        /// `operand 2` or `result 0`.
        place: Place,
        /// The call's type.
        call_type: String,
        /// Kernel argument index.
        argument: usize,
        /// The block shape (`8x128`).
        block: String,
        /// The grid point, comma-separated.
        point: String,
        /// The index map's name.
        map: String,
        /// The block index, comma-separated.
        index: String,
        /// The block's start along `dimension`.
        start: i64,
        /// The dimension.
        dimension: usize,
        /// The operand's size along `dimension`.
        extent: i64,
        /// `operand` or `result`.
        what: &'static str,
        /// `read` or `write`.
        verb: &'static str,
        /// The extent the grid addresses, `AxB`.
        needed: String,
    },
    /// A block shape JAX refuses while lowering (`_check_block_mappings`; see
    /// [`tiling`]): JAX's message (`rule`), then its details in our words.
    #[error(
        "{rule}Block spec for {place} in pallas_call {function} has block shape {block}, array \
         shape {array}, and index_map {map}, in memory space {space}.\nSee details at \
         https://docs.jax.dev/en/latest/pallas/grid_blockspec.html#pallas-blockspec"
    )]
    BlockTiling {
        /// The kernel's main function.
        function: String,
        /// `operand 2` or `result 0`.
        place: Place,
        /// JAX's rule, verbatim ([`tiling::LAST_TWO`], [`tiling::RANK_0`] or
        /// the rank-1 rule).
        rule: String,
        /// The block shape, as a Python tuple (`(12, 512)`).
        block: String,
        /// The array shape, as a Python tuple.
        array: String,
        /// The index map's name.
        map: String,
        /// The kernel argument's memory space.
        space: String,
    },
    /// An alias pairs an operand and a result whose kernel buffers differ.
    #[error(
        "input_output_aliases pairs operand {operand} with result {result}, but their kernel \
         arguments differ: argument {operand_argument} is `{operand_type}` and argument \
         {result_argument} is `{result_type}`; alias an operand whose kernel buffer is the result's"
    )]
    AliasMismatch {
        /// Operand index.
        operand: usize,
        /// Result index.
        result: usize,
        /// Kernel argument of the operand.
        operand_argument: usize,
        /// Its type (block shape with a window).
        operand_type: String,
        /// Kernel argument of the result.
        result_argument: usize,
        /// Its type (block shape with a window).
        result_type: String,
    },
    /// A memory space of the call that libtpu refuses (or aborts on) for its
    /// kernel argument (see `memory.rs` for what was measured).
    #[error(
        "{place} is argument {argument} of kernel `{function}` (`{kernel_type}`), but {field}[{index}] = \
         {space}: {libtpu}; {fix}"
    )]
    MemorySpace {
        /// The kernel's main function.
        function: String,
        /// `operand 2` or `result 0`.
        place: Place,
        /// `input_memory_spaces` or `output_memory_spaces`.
        field: &'static str,
        /// The index in that list.
        index: usize,
        /// The memory space given (`semaphore_mem`, `host`).
        space: String,
        /// Kernel argument index.
        argument: usize,
        /// The kernel argument's type.
        kernel_type: String,
        /// What libtpu does with it.
        libtpu: String,
        /// How to fix it.
        fix: String,
    },
    /// A load, store or slice whose constant indices reach past its buffer
    /// (JAX refuses it while tracing; libtpu compiles it).
    #[error(
        "`{op}`{at} accesses indices {indices:?} with a window of {extent:?} in a buffer of shape \
         {shape:?}: dimension {dim} reaches {reach}, past its end ({end}); in Pallas terms, a \
         static `pl.ds` out of bounds of the ref",
        at = if location.is_empty() { String::new() } else { format!(" at {location}") },
        reach = indices[*dim] + extent[*dim] - 1,
        end = shape[*dim]
    )]
    StaticOutOfBounds {
        /// The op.
        op: String,
        /// Its location.
        location: String,
        /// The constant indices.
        indices: Vec<i64>,
        /// The window per dimension.
        extent: Vec<i64>,
        /// The buffer's shape.
        shape: Vec<i64>,
        /// The dimension it leaves.
        dim: usize,
    },
    /// A window's `transform_indices` names no function of the kernel
    /// (libtpu refuses the kernel; `run` would read no blocks).
    #[error(
        "window_params[{window}] of kernel `{function}`: transform_indices `@{map}` is not a function of the \
         kernel: libtpu says \"Failed to set window params for input {window}: transform_indices symbol is \
         undefined or is not a function\"; name one of its functions, or define `@{map}`"
    )]
    WindowMapMissing {
        /// The kernel's main function.
        function: String,
        /// The window's index in `window_params`.
        window: usize,
        /// The symbol named.
        map: String,
    },
    /// An index map whose arguments are not the grid indices and the scalar
    /// prefetch references.
    #[error(
        "window_params[{window}] of kernel `{function}`: index map `@{map}` takes {got} argument(s), but the \
         grid has {grid} dimension(s) and the kernel {prefetch} scalar prefetch operand(s): libtpu says {}; \
         give `@{map}` {expected} arguments (the grid indices, then the scalar prefetch references)",
        if got < expected {
            format!("\"Failed to set window params for input {window}: transform_indices body has an incorrect \
                     number of arguments: expected {expected}, got {got}\"")
        } else {
            "\"Function argument type mismatch between main and a transform function\"".to_string()
        }
    )]
    WindowMapArity {
        /// The kernel's main function.
        function: String,
        /// The window's index in `window_params`.
        window: usize,
        /// The index map.
        map: String,
        /// Its arguments.
        got: usize,
        /// Grid rank plus scalar prefetch count.
        expected: usize,
        /// The grid's rank.
        grid: usize,
        /// Scalar prefetch operands.
        prefetch: usize,
    },
    /// An index map returning other than one block index per block
    /// dimension (libtpu aborts the compiling process).
    #[error(
        "window_params[{window}] of kernel `{function}`: index map `@{map}` returns {got} index(es) for a \
         rank-{rank} block (window_bounds): libtpu aborts the process compiling it ({}); return one block \
         index per block dimension",
        if got < rank {
            format!("\"Check failed: iteration_indices.size() == rank ({got} vs. {rank})\"")
        } else {
            "signal 4".to_string()
        }
    )]
    WindowMapResults {
        /// The kernel's main function.
        function: String,
        /// The window's index in `window_params`.
        window: usize,
        /// The index map.
        map: String,
        /// Indices it returns.
        got: usize,
        /// The block's rank.
        rank: usize,
    },
    /// The kernel needs more scoped VMEM than the chip's limit (libtpu's
    /// `CompileTimeScopedVmemOom`, with its figures).
    #[error(
        "kernel `{function}` needs {} of scoped VMEM ({breakdown}); the limit on {chip} is {}{}; \
         {fix}",
        format_bytes(*needed), format_bytes(*limit),
        if *from_param { " (vmem_limit_bytes)" } else { "" }
    )]
    ScopedVmem {
        /// The kernel's main function.
        function: String,
        /// The chip.
        chip: Chip,
        /// Bytes needed.
        needed: u64,
        /// The limit in bytes.
        limit: u64,
        /// The limit is `vmem_limit_bytes` (not the chip's default).
        from_param: bool,
        /// What the bytes are, in words.
        breakdown: String,
        /// How to fix it.
        fix: String,
    },
}

/// An operand or a result of the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Operand index (shape operands excluded).
    Operand(usize),
    /// Result index.
    Result(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Operand(i) => write!(f, "operand {i}"),
            Place::Result(i) => write!(f, "result {i}"),
        }
    }
}

/// What a passing contract check found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContractReport {
    /// The kernel's main function, `None` when the kernel has none (nothing
    /// was checked).
    pub function: Option<String>,
    /// Scoped VMEM the kernel needs (see [`vmem`]).
    pub vmem: Option<VmemBudget>,
    /// What could not be checked, in words.
    pub not_checked: Vec<String>,
    /// What was checked, in words (the operands whole or by block windows,
    /// index maps evaluated over the grid, aliases), for the line that says
    /// a call passed.
    pub checked: Vec<String>,
    /// The scoped-VMEM budget was compared with the chip's limit and fits
    /// (`false` without a chip, or when it is in [`ContractReport::not_checked`]).
    pub vmem_checked: bool,
    /// Problems libtpu compiles, reported without refusing the call: blocks
    /// addressed outside their operand ([`ContractError::BlockOutside`];
    /// libtpu 0.0.50.1 compiles such kernels, measured with
    /// `scripts/contract/block_index.py`) and revisited output blocks
    /// ([`ContractError::RevisitedBlock`]: libtpu compiles them, `run` and
    /// interpret mode refuse to compute them).
    pub warnings: Vec<ContractError>,
}

/// A type as MLIR prints it, taken apart: `tensor<8x128xf32>`,
/// `memref<8x128xf32, #tpu.memory_space<vmem>>`, `i32`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeShape {
    /// The printed type.
    pub text: String,
    /// Dimensions (`None` for `?`); empty for scalars.
    pub dims: Vec<Option<i64>>,
    /// Element type (`f32`, `!tpu.dma_semaphore`), the type itself for scalars.
    pub element: String,
    /// The `#tpu.memory_space<...>` keyword of a memref, if any.
    pub memory_space: Option<String>,
    /// A `memref` or `tensor` (not a scalar).
    pub shaped: bool,
}

impl TypeShape {
    /// Takes a printed type apart (never fails: an unknown type is a scalar).
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        let inner = ["memref<", "tensor<"]
            .iter()
            .find_map(|p| text.strip_prefix(p))
            .and_then(|rest| rest.strip_suffix('>'));
        let Some(inner) = inner else {
            return TypeShape {
                text: text.to_string(),
                dims: Vec::new(),
                element: text.to_string(),
                memory_space: None,
                shaped: false,
            };
        };
        let parts = split_top(inner);
        let mut rest = parts.first().copied().unwrap_or("");
        let mut dims = Vec::new();
        loop {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && rest[digits..].starts_with('x') {
                dims.push(rest[..digits].parse().ok());
                rest = &rest[digits + 1..];
            } else if let Some(r) = rest.strip_prefix("?x") {
                dims.push(None);
                rest = r;
            } else {
                break;
            }
        }
        let memory_space = parts.iter().skip(1).find_map(|p| {
            let kw = p.strip_prefix("#tpu.memory_space<")?.strip_suffix('>')?;
            Some(kw.split(',').next().unwrap_or(kw).trim().to_string())
        });
        TypeShape {
            text: text.to_string(),
            dims,
            element: rest.to_string(),
            memory_space,
            shaped: true,
        }
    }

    /// The dimensions as `8x128` (`?` for dynamic; `scalar` for rank 0).
    pub fn dims_text(&self) -> String {
        dims_text(&self.dims)
    }

    /// Whether the memref lives in VMEM.
    pub fn in_vmem(&self) -> bool {
        self.memory_space.as_deref() == Some("vmem")
    }

    /// Whether libtpu places the buffer in scoped VMEM: a memref in
    /// `#tpu.memory_space<vmem>`, or a memref of data without memory space
    /// (measured with libtpu 0.0.50.1, `tests/data/vmem-sweep/nospace.json`:
    /// such memrefs count as VMEM ones do, whole without a grid, blocks
    /// double-buffered with one).
    pub fn placed_in_vmem(&self) -> bool {
        self.in_vmem()
            || (self.memory_space.is_none()
                && self.text.starts_with("memref<")
                && !self.element.starts_with('!'))
    }
}

fn dims_text(dims: &[Option<i64>]) -> String {
    if dims.is_empty() {
        return "scalar".to_string();
    }
    dims.iter()
        .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

fn static_text(dims: &[i64]) -> String {
    dims_text(&dims.iter().map(|&d| Some(d)).collect::<Vec<_>>())
}

/// One entry of `window_params`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Window {
    /// `window_bounds`: the block shape, `None` for the whole operand.
    pub bounds: Option<Vec<i64>>,
    /// `transform_indices` as a symbol (an index-map function), if it is one.
    pub transform: Option<String>,
    /// `pipeline_mode` (`synchronous`: one buffer; `double_buffered`), when
    /// given.
    pub pipeline_mode: Option<String>,
    /// `revisit_mode = #tpu.revisit_mode<any>`: an output block the pipeline
    /// reads back when it is visited again.
    pub revisit_any: bool,
    /// `#tpu.element_window`: the index map gives element offsets.
    pub element: bool,
}

/// The Pallas signature of a kernel's main function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSignature {
    /// The function's `sym_name`.
    pub function: String,
    /// Argument types, in order.
    pub arguments: Vec<TypeShape>,
    /// `iteration_bounds` (empty without a grid); [`i64::MIN`] is dynamic.
    pub grid: Vec<i64>,
    /// `scalar_prefetch`.
    pub scalar_prefetch: usize,
    /// `scratch_operands`.
    pub scratch: usize,
    /// `window_params`, one per input and output, when present.
    pub windows: Option<Vec<Window>>,
    /// A SparseCore kernel (`tpu.core_type` of a SparseCore subcore).
    pub sparse_core: bool,
    /// A `core_parallel` or `subcore_parallel` grid dimension (each index
    /// its own core).
    pub core_parallel: bool,
}

impl KernelSignature {
    /// Dynamic grid bounds (one leading call operand each).
    pub fn dynamic_bounds(&self) -> usize {
        self.grid.iter().filter(|&&b| b == DYNAMIC).count()
    }

    /// Input and output buffers (arguments after the grid indices and scalar
    /// prefetch, before scratch); `None` if the attributes ask for more
    /// arguments than the function has.
    pub fn buffers(&self) -> Option<usize> {
        self.arguments
            .len()
            .checked_sub(self.grid.len() + self.scalar_prefetch + self.scratch)
    }

    fn layout(&self) -> String {
        format!(
            "{} argument(s) ({} grid indices, {} scalar prefetch, {} input/output buffers, {} scratch)",
            self.arguments.len(),
            self.grid.len(),
            self.scalar_prefetch,
            self.buffers()
                .map_or("too few".to_string(), |n| n.to_string()),
            self.scratch
        )
    }
}

fn string_attr(a: MlirAttribute) -> Option<String> {
    // SAFETY: the kind is checked before reading; the attribute belongs to the
    // kernel module the caller keeps alive.
    unsafe {
        mlir_sys::mlirAttributeIsAString(a)
            .then(|| ir::to_string(mlir_sys::mlirStringAttrGetValue(a)))
    }
}

fn dict_entry(a: MlirAttribute, name: &str) -> Option<MlirAttribute> {
    // SAFETY: the kind is checked before reading; the name outlives the call.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(a) {
            return None;
        }
        let e = mlir_sys::mlirDictionaryAttrGetElementByName(a, ir::sref(name));
        (!e.ptr.is_null()).then_some(e)
    }
}

fn symbol_ref(a: MlirAttribute) -> Option<String> {
    // SAFETY: the kind is checked before reading.
    unsafe {
        mlir_sys::mlirAttributeIsAFlatSymbolRef(a)
            .then(|| ir::to_string(mlir_sys::mlirFlatSymbolRefAttrGetValue(a)))
    }
}

/// Top-level `func.func`s of the kernel with their names.
pub(crate) fn functions<'k>(kernel: &'k Kernel<'_>) -> Vec<(String, Op<'k>)> {
    let body = kernel.module().body();
    let mut out = Vec::new();
    let mut child = ir::block_first_op(melior::ir::BlockLike::to_raw(&body));
    while let Some(op) = child {
        child = op.next();
        if op.name() == "func.func" {
            let name = op
                .attr("sym_name")
                .and_then(string_attr)
                .unwrap_or_default();
            out.push((name, op));
        }
    }
    out
}

fn entry_args(op: Op) -> Vec<mlir_sys::MlirValue> {
    if op.num_regions() == 0 {
        return Vec::new();
    }
    ir::region_blocks(op.region(0))
        .first()
        .map(|&b| ir::block_args(b))
        .unwrap_or_default()
}

fn int_attr(op: Op, name: &str) -> usize {
    op.attr(name)
        .and_then(ir::as_int)
        .and_then(|(v, _)| usize::try_from(v).ok())
        .unwrap_or(0)
}

/// The main function of a kernel: the first function with Pallas attributes,
/// else the one named like the module, else `main`, else the module's only
/// function (a hand-written kernel: a plain `func @main` without attributes,
/// in a module without a name, which libtpu compiles).
pub(crate) fn main_function<'k>(kernel: &'k Kernel<'_>) -> Option<(String, Op<'k>)> {
    let funcs = functions(kernel);
    let pallas = |op: &Op| {
        [
            "dimension_semantics",
            "scalar_prefetch",
            "window_params",
            "iteration_bounds",
        ]
        .iter()
        .any(|a| op.attr(a).is_some())
    };
    if let Some(f) = funcs.iter().find(|(_, op)| pallas(op)) {
        return Some(f.clone());
    }
    if let Some(module_name) = kernel.name()
        && let Some(f) = funcs.iter().find(|(n, _)| *n == module_name)
    {
        return Some(f.clone());
    }
    if let Some(f) = funcs.iter().find(|(n, _)| n == "main") {
        return Some(f.clone());
    }
    match funcs.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// The Pallas signature of the kernel's main function, `None` without one.
pub fn kernel_signature(kernel: &Kernel<'_>) -> Option<KernelSignature> {
    let (function, op) = main_function(kernel)?;
    let arguments = entry_args(op)
        .into_iter()
        .map(|v| TypeShape::parse(&ir::type_text(ir::value_type(v))))
        .collect();
    let grid = op
        .attr("iteration_bounds")
        .and_then(ir::as_i64_array)
        .unwrap_or_default();
    let windows = op.attr("window_params").and_then(ir::as_array).map(|list| {
        list.into_iter()
            .map(|w| Window {
                bounds: dict_entry(w, "window_bounds").and_then(ir::as_i64_array),
                transform: dict_entry(w, "transform_indices").and_then(symbol_ref),
                pipeline_mode: dict_entry(w, "pipeline_mode").and_then(|a| {
                    let text = ir::attr_text(a);
                    let mode = text
                        .strip_prefix("#tpu.pipeline_mode<")?
                        .strip_suffix('>')?;
                    Some(mode.trim().to_string())
                }),
                revisit_any: ir::attr_text(w).contains("#tpu.revisit_mode<any>"),
                element: ir::attr_text(w).contains("element_window"),
            })
            .collect()
    });
    Some(KernelSignature {
        function,
        arguments,
        grid,
        scalar_prefetch: int_attr(op, "scalar_prefetch"),
        scratch: int_attr(op, "scratch_operands"),
        windows,
        sparse_core: op
            .attr("tpu.core_type")
            .is_some_and(|a| ir::attr_text(a).contains("<sc_")),
        core_parallel: op
            .attr("dimension_semantics")
            .is_some_and(|a| ir::attr_text(a).contains("core_parallel")),
    })
}

/// Every `#tpu.memory_space<...>` of the kernel's values (function
/// arguments and op results), each once, in order of appearance.
pub fn kernel_memory_spaces(kernel: &Kernel<'_>) -> Vec<TpuMemorySpace> {
    let mut out: Vec<TpuMemorySpace> = Vec::new();
    let mut note = |ty: mlir_sys::MlirType| {
        // SAFETY: the type belongs to the kernel module, alive for the call;
        // the memory space is read only from a memref type.
        let space = unsafe {
            if !mlir_sys::mlirTypeIsAMemRef(ty) {
                return;
            }
            mlir_sys::mlirMemRefTypeGetMemorySpace(ty)
        };
        if space.ptr.is_null() {
            return;
        }
        let text = ir::attr_text(space);
        let keyword = text
            .strip_prefix("#tpu.memory_space<")
            .and_then(|rest| rest.strip_suffix('>'))
            .map(|kw| kw.split(',').next().unwrap_or(kw).trim().to_string());
        if let Some(space) = keyword.and_then(|kw| kw.parse::<TpuMemorySpace>().ok())
            && !out.contains(&space)
        {
            out.push(space);
        }
    };
    let mut ops = Vec::new();
    ir::collect_post_order(Op::of(kernel.operation()), &mut ops);
    for op in ops {
        for r in 0..op.num_results() {
            note(ir::value_type(op.result(r)));
        }
        for region in 0..op.num_regions() {
            for block in ir::region_blocks(op.region(region)) {
                for v in ir::block_args(block) {
                    note(ir::value_type(v));
                }
            }
        }
    }
    out
}

/// TensorCores one logical device must span for this kernel: the bound of a
/// TensorCore kernel's `core_parallel` dimension (megacore), when above 1.
pub fn tensor_cores_per_device(facts: &crate::analysis::KernelFacts) -> Option<u64> {
    if facts.device_type == Some(crate::config::DeviceType::SparseCore) {
        return None;
    }
    facts.active_core_count.filter(|&n| n > 1)
}

/// An index-map function, evaluated by [`IndexMap::eval`]: an error names the
/// op or value not folded here (scalar prefetch reads among them).
struct IndexMap<'a> {
    op: Op<'a>,
}

impl IndexMap<'_> {
    fn eval(&self, args: &[i64]) -> Result<Vec<i64>, String> {
        let params = entry_args(self.op);
        let mut values: HashMap<usize, i64> = HashMap::new();
        for (v, &x) in params.iter().zip(args) {
            values.insert(v.ptr as usize, x);
        }
        let Some(&block) = ir::region_blocks(self.op.region(0)).first() else {
            return Err("an empty body".to_string());
        };
        let mut child = ir::block_first_op(block);
        while let Some(op) = child {
            child = op.next();
            let name = op.name();
            let get = |i: usize| -> Result<i64, String> {
                if i >= op.num_operands() {
                    return Err(format!("`{name}` with too few operands"));
                }
                values
                    .get(&(op.operand(i).ptr as usize))
                    .copied()
                    .ok_or_else(|| format!("`{name}` on a value not folded (scalar prefetch?)"))
            };
            let value = match name.as_str() {
                "func.return" => {
                    return (0..op.num_operands()).map(get).collect();
                }
                "arith.constant" => op
                    .attr("value")
                    .and_then(ir::as_int)
                    .map(|(v, _)| v)
                    .ok_or_else(|| "a non-integer `arith.constant`".to_string())?,
                "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
                | "arith.trunci" => get(0)?,
                "arith.addi" => get(0)?.checked_add(get(1)?).ok_or("an overflow")?,
                "arith.subi" => get(0)?.checked_sub(get(1)?).ok_or("an overflow")?,
                "arith.muli" => get(0)?.checked_mul(get(1)?).ok_or("an overflow")?,
                "arith.maxsi" => get(0)?.max(get(1)?),
                "arith.minsi" => get(0)?.min(get(1)?),
                "arith.divsi" | "arith.floordivsi" | "arith.ceildivsi" | "arith.remsi" => {
                    let (a, b) = (get(0)?, get(1)?);
                    if b == 0 {
                        return Err("a division by zero".to_string());
                    }
                    match name.as_str() {
                        "arith.divsi" => a / b,
                        "arith.floordivsi" => {
                            a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0)
                        }
                        "arith.ceildivsi" => -((-a).div_euclid(b)),
                        _ => a % b,
                    }
                }
                "arith.select" => {
                    if get(0)? != 0 {
                        get(1)?
                    } else {
                        get(2)?
                    }
                }
                "arith.cmpi" => {
                    let (a, b) = (get(0)?, get(1)?);
                    let pred = op.attr("predicate").and_then(ir::as_int).map(|(p, _)| p);
                    i64::from(match pred {
                        Some(0) => a == b,
                        Some(1) => a != b,
                        Some(2) => a < b,
                        Some(3) => a <= b,
                        Some(4) => a > b,
                        Some(5) => a >= b,
                        _ => return Err("an unsigned `arith.cmpi`".to_string()),
                    })
                }
                "memref.load" => return Err("`memref.load` (a scalar prefetch read)".to_string()),
                other => return Err(format!("`{other}`")),
            };
            if op.num_results() == 1 {
                values.insert(op.result(0).ptr as usize, value);
            }
        }
        Err("no `func.return`".to_string())
    }
}

fn role(sig: &KernelSignature, argument: usize, inputs: usize) -> String {
    let g = sig.grid.len();
    let p = sig.scalar_prefetch;
    if argument < g + p {
        format!("scalar prefetch {}", argument - g)
    } else if argument < g + p + inputs {
        format!("input {}", argument - g - p)
    } else {
        format!("output {}", argument - g - p - inputs)
    }
}

/// Checks a call (`operand_types` without shape operands, `result_types`, as
/// MLIR prints them) against `kernel`, and with `chip` its scoped-VMEM budget.
/// Every problem is returned.
pub fn check_call<S: AsRef<str>>(
    kernel: &Kernel<'_>,
    operand_types: &[S],
    result_types: &[S],
    params: &Params,
    chip: Option<Chip>,
) -> Result<ContractReport, Vec<ContractError>> {
    let Some(sig) = kernel_signature(kernel) else {
        return Ok(ContractReport {
            not_checked: vec!["the kernel has no Pallas main function".to_string()],
            ..ContractReport::default()
        });
    };
    let operands: Vec<TypeShape> = operand_types
        .iter()
        .map(|t| TypeShape::parse(t.as_ref()))
        .collect();
    let results: Vec<TypeShape> = result_types
        .iter()
        .map(|t| TypeShape::parse(t.as_ref()))
        .collect();
    let mut errors: Vec<ContractError> = bounds::out_of_bounds(kernel)
        .into_iter()
        .map(|b| ContractError::StaticOutOfBounds {
            op: b.op,
            location: b.location,
            indices: b.indices,
            extent: b.extent,
            shape: b.shape,
            dim: b.dim,
        })
        .collect();
    if let Err(e) = grid::steps(&sig.function, &sig.grid) {
        errors.push(e.into());
    }
    let mut report = ContractReport {
        function: Some(sig.function.clone()),
        ..ContractReport::default()
    };
    let d = sig.dynamic_bounds();
    let g = sig.grid.len();
    let p = sig.scalar_prefetch;
    let leading = d + p;
    let buffers = sig.buffers();
    let inputs = operands.len().checked_sub(leading);
    match (buffers, inputs) {
        (Some(b), Some(i)) if b == i + results.len() => {}
        _ => {
            errors.push(ContractError::Arity {
                function: sig.function.clone(),
                operands: operands.len(),
                results: results.len(),
                layout: sig.layout(),
                needed: buffers.unwrap_or(0),
                leading,
            });
            return Err(errors);
        }
    }
    let inputs = inputs.unwrap_or(0);
    // Dynamic grid bounds.
    let mut dynamic_dim = sig
        .grid
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == DYNAMIC)
        .map(|(i, _)| i);
    for (operand, ty) in operands.iter().enumerate().take(d) {
        let dimension = dynamic_dim.next().unwrap_or(0);
        // `tensor<i32>`, or a one-element array (`tensor<1xi32>`: JAX passes
        // the grid value as given, Mosaic reads its one element).
        let one_element = ty.dims.iter().all(|d| *d == Some(1));
        if !(ty.shaped && one_element && ty.element == "i32") {
            errors.push(ContractError::DynamicBound {
                function: sig.function.clone(),
                operand,
                dimension,
                found: ty.text.clone(),
            });
        }
    }
    // (call place, call type, kernel argument, window index)
    let mut pairs: Vec<(Place, &TypeShape, usize, Option<usize>)> = Vec::new();
    for (k, ty) in operands.iter().enumerate().skip(d) {
        let argument = g + (k - d);
        let window = (k >= leading).then(|| k - leading);
        pairs.push((Place::Operand(k), ty, argument, window));
    }
    for (r, ty) in results.iter().enumerate() {
        let argument = g + p + inputs + r;
        pairs.push((Place::Result(r), ty, argument, Some(inputs + r)));
    }
    let maps = index_maps(kernel, &sig, &mut report);
    let mut evaluated = 0usize;
    for &(place, call, argument, window) in &pairs {
        let kernel_ty = &sig.arguments[argument];
        let mismatch = |problem: String, fix: String| ContractError::Mismatch {
            function: sig.function.clone(),
            place,
            call_type: call.text.clone(),
            argument,
            kernel_type: kernel_ty.text.clone(),
            role: role(&sig, argument, inputs),
            problem,
            fix,
        };
        if !element_matches(&call.element, &kernel_ty.element) {
            errors.push(mismatch(
                format!(
                    "the element types differ ({} in the call, {} in the kernel)",
                    call.element, kernel_ty.element
                ),
                format!("give {place} element type {}", kernel_ty.element),
            ));
            continue;
        }
        let win = window.and_then(|w| sig.windows.as_ref().and_then(|ws| ws.get(w)));
        let Some(bounds) = win.and_then(|w| w.bounds.clone()) else {
            // The whole operand.
            if let Some(problem) = whole_mismatch(place, call, kernel_ty) {
                errors.push(mismatch(
                    problem,
                    format!(
                        "make {place} `tensor<{}x{}>` or the kernel argument `{}`",
                        kernel_ty.dims_text(),
                        kernel_ty.element,
                        retyped(kernel_ty, &call.dims)
                    ),
                ));
            }
            continue;
        };
        if bounds.len() != call.dims.len() {
            errors.push(mismatch(
                format!(
                    "its block window {} has rank {} but the {} has rank {}",
                    static_text(&bounds),
                    bounds.len(),
                    what(place),
                    call.dims.len()
                ),
                format!("give {place} rank {}", bounds.len()),
            ));
            continue;
        }
        if let Some(d) = bounds.iter().position(|&b| b < 0) {
            errors.push(mismatch(
                format!(
                    "its block window {} has a negative size ({}) in dimension {d}",
                    static_text(&bounds),
                    bounds[d]
                ),
                "give every block dimension a size of at least 1 (or the array's whole dimension)"
                    .to_string(),
            ));
            continue;
        }
        if !block_matches(&bounds, &kernel_ty.dims) {
            errors.push(mismatch(
                format!(
                    "its block window is {} but the kernel argument is {}",
                    static_text(&bounds),
                    kernel_ty.dims_text()
                ),
                "make the kernel argument the block shape (1-sized dimensions may be squeezed)"
                    .to_string(),
            ));
            continue;
        }
        if !sig.sparse_core {
            let map = win.and_then(|w| w.transform.as_deref());
            if let Some(e) = tiling::check(&sig.function, place, call, kernel_ty, &bounds, map) {
                errors.push(e);
                continue;
            }
        }
        let Some(map) = win.and_then(|w| w.transform.as_deref()) else {
            continue;
        };
        match maps.get(map) {
            Some(Ok(indices)) => {
                evaluated += 1;
                if let Some(e) = outside(&sig, place, call, argument, &bounds, map, indices) {
                    report.warnings.push(e);
                }
                let plain = win.is_some_and(|w| !w.revisit_any && !w.element);
                if let Place::Result(r) = place
                    && plain
                    && !sig.core_parallel
                    && let Some(e) = revisit(r, &bounds, indices)
                {
                    // libtpu compiles it and JAX emits it; interpret mode and
                    // `run` refuse to compute it: a warning, in `run`'s words.
                    report.warnings.push(e);
                }
            }
            Some(Err(why)) => report.not_checked.push(format!(
                "the blocks of {place}: the index map `{map}` {why}"
            )),
            None => report
                .not_checked
                .push(format!("the blocks of {place}: no index map `{map}`")),
        }
    }
    report.checked = what_was_checked(&sig, pairs.len(), evaluated, params);
    // Memory spaces of the call against the kernel arguments'.
    let (space_errors, space_notes) = memory::check(&sig, params, d, inputs, results.len());
    errors.extend(space_errors);
    report.not_checked.extend(space_notes);
    // Aliases: the two kernel buffers must agree.
    for &(operand, result) in &params.input_output_aliases {
        if operand < leading || operand >= operands.len() || result >= results.len() {
            continue;
        }
        let oa = g + p + (operand - leading);
        let ra = g + p + inputs + result;
        let buffer = |a: usize, w: usize| {
            let bounds = sig
                .windows
                .as_ref()
                .and_then(|ws| ws.get(w))
                .and_then(|w| w.bounds.clone());
            match bounds {
                Some(b) => format!("blocks of {} {}", static_text(&b), sig.arguments[a].element),
                None => sig.arguments[a].text.clone(),
            }
        };
        let (ot, rt) = (buffer(oa, operand - leading), buffer(ra, inputs + result));
        if ot != rt || sig.arguments[oa].text != sig.arguments[ra].text {
            errors.push(ContractError::AliasMismatch {
                operand,
                result,
                operand_argument: oa,
                operand_type: ot,
                result_argument: ra,
                result_type: rt,
            });
        }
    }
    if errors.is_empty() {
        let budget = vmem::budget(kernel, &sig, params);
        if let Some(chip) = chip {
            if sig.sparse_core {
                report.not_checked.push(format!(
                    "the VMEM of SparseCore kernel `{}` (per-subcore VMEM is not budgeted)",
                    sig.function
                ));
            } else if let Some(e) = budget.check_lower_bound(&sig.function, chip) {
                // Some blocks are not modelled, but the others already exceed
                // the limit: libtpu counts at least that much.
                errors.push(e);
            } else if !budget.unmodelled.is_empty() {
                report.not_checked.push(format!(
                    "the scoped-VMEM budget on {chip}: libtpu's size of kernel argument(s) {:?} \
                     (narrower than 128 lanes, of an unknown element type, or blocks not in whole \
                     8 x 128 tiles with a grid) is not modelled; compile it to know \
                     (`emit --target {chip} --compile-check`)",
                    budget.unmodelled
                ));
            } else if budget.limit(chip).is_none() {
                report.not_checked.push(format!(
                    "the scoped-VMEM budget ({}) on {chip}: libtpu's limit there is not modelled{}; \
                     compile it to know (`emit --target {chip} --compile-check`)",
                    format_bytes(budget.total()),
                    if chip == Chip::V7x {
                        " with a grid or an explicit vmem_limit_bytes"
                    } else {
                        ""
                    }
                ));
            } else if let Some(e) = budget.check(&sig.function, chip) {
                errors.push(e);
            } else if let Some(note) = budget.uncertain(chip) {
                report.not_checked.push(note);
            } else {
                report.vmem_checked = true;
            }
        }
        report.vmem = Some(budget);
    }
    if errors.is_empty() {
        Ok(report)
    } else {
        Err(errors)
    }
}

/// What [`check_call`] checked of a call with `pairs` operands and results,
/// `evaluated` of whose index maps were walked over the grid: a grid-less,
/// window-less kernel (a hand-written `func @main` over whole memrefs) has
/// no blocks or index maps, and the line says so rather than pass over it.
fn what_was_checked(
    sig: &KernelSignature,
    pairs: usize,
    evaluated: usize,
    params: &Params,
) -> Vec<String> {
    let mut out = Vec::new();
    let windowed = sig
        .windows
        .as_ref()
        .map_or(0, |ws| ws.iter().filter(|w| w.bounds.is_some()).count());
    if sig.grid.is_empty() && windowed == 0 {
        out.push(format!(
            "{pairs} operand(s) and result(s) whole against its arguments (no grid and no \
             window_params: no blocks or index maps to check)"
        ));
    } else {
        out.push(format!(
            "{pairs} operand(s) and result(s) against its arguments, {windowed} by block window"
        ));
        if sig.grid.is_empty() {
            out.push("no grid: index maps not evaluated".to_string());
        } else {
            out.push(format!(
                "{evaluated} index map(s) evaluated over grid ({})",
                sig.grid
                    .iter()
                    .map(|b| if *b == DYNAMIC {
                        "?".to_string()
                    } else {
                        b.to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if !params.input_output_aliases.is_empty() {
        out.push(format!("{} alias(es)", params.input_output_aliases.len()));
    }
    out
}

/// Whether a call's element type is what JAX 0.12 lowers for a kernel
/// argument's (measured on every dtype JAX lowers and on semaphores passed
/// between calls: `scripts/contract/dtypes.py`, `tests/data/contract-jax/`):
/// - the same type;
/// - an unsigned integer of the call for the signless integer of the same
///   width in the kernel (`ui32` for `i32`, `ui4` for `i4`): Mosaic kernels
///   are signless (Pallas's `_dtype_to_ir_type` makes every integer type
///   signless); `bool` arrays are `i32` on both sides (cast before the call);
/// - `i32` in the call for a `!tpu.dma_semaphore` or `!tpu.semaphore` in the
///   kernel (a semaphore, or an array of them, that one call returns and
///   another takes: Pallas's semaphore dtypes are `int32` arrays of the same
///   shape outside the kernel).
pub fn element_matches(call: &str, kernel: &str) -> bool {
    if call == kernel {
        return true;
    }
    if let Some(width) = call.strip_prefix("ui") {
        return !width.is_empty()
            && width.bytes().all(|b| b.is_ascii_digit())
            && kernel.strip_prefix('i') == Some(width);
    }
    call == "i32" && matches!(kernel, "!tpu.dma_semaphore" | "!tpu.semaphore")
}

fn what(place: Place) -> &'static str {
    match place {
        Place::Operand(_) => "operand",
        Place::Result(_) => "result",
    }
}

/// The kernel argument's type with the call's dimensions.
fn retyped(kernel_ty: &TypeShape, dims: &[Option<i64>]) -> String {
    let old = format!("{}x{}", kernel_ty.dims_text(), kernel_ty.element);
    let new = format!("{}x{}", dims_text(dims), kernel_ty.element);
    kernel_ty.text.replacen(&old, &new, 1)
}

/// Why a whole operand does not match its kernel argument, if it does not.
fn whole_mismatch(place: Place, call: &TypeShape, kernel_ty: &TypeShape) -> Option<String> {
    if call.dims.len() != kernel_ty.dims.len() {
        return Some(format!(
            "the ranks differ ({} in the call, {} in the kernel)",
            call.dims.len(),
            kernel_ty.dims.len()
        ));
    }
    let (verb, noun) = match place {
        Place::Operand(_) => ("read", "operand"),
        Place::Result(_) => ("write", "result"),
    };
    let past = call
        .dims
        .iter()
        .zip(&kernel_ty.dims)
        .any(|(c, k)| matches!((c, k), (Some(c), Some(k)) if k > c));
    let differs = call
        .dims
        .iter()
        .zip(&kernel_ty.dims)
        .any(|(c, k)| matches!((c, k), (Some(c), Some(k)) if k != c));
    if past {
        Some(format!(
            "without a block window the kernel would {verb} {} elements of the {} {noun}, past its end",
            kernel_ty.dims_text(),
            call.dims_text()
        ))
    } else if differs {
        Some(format!(
            "without a block window the kernel would {verb} only {} of the {} {noun}'s elements",
            kernel_ty.dims_text(),
            call.dims_text()
        ))
    } else {
        None
    }
}

/// The kernel argument is the block, maybe with 1-sized block dimensions
/// squeezed out.
fn block_matches(bounds: &[i64], kernel: &[Option<i64>]) -> bool {
    let mut k = kernel.iter().peekable();
    for &b in bounds {
        match k.peek() {
            Some(Some(d)) if *d == b => {
                k.next();
            }
            Some(None) => {
                k.next();
            }
            _ if b == 1 => {}
            _ => return false,
        }
    }
    k.next().is_none()
}

/// Evaluates every index map of the kernel over its grid: block indices per
/// grid point, or why not.
fn index_maps(
    kernel: &Kernel<'_>,
    sig: &KernelSignature,
    report: &mut ContractReport,
) -> HashMap<String, Result<Blocks, String>> {
    let mut out = HashMap::new();
    let Some(windows) = &sig.windows else {
        return out;
    };
    let names: Vec<&str> = windows
        .iter()
        .filter(|w| w.bounds.is_some())
        .filter_map(|w| w.transform.as_deref())
        .collect();
    if names.is_empty() {
        return out;
    }
    let grid_points = if sig.grid.contains(&DYNAMIC) {
        Err("is not walked: the grid has a dynamic bound".to_string())
    } else if sig.grid.iter().any(|&b| b < 0) {
        Err("is not walked: the grid has a negative bound".to_string())
    } else {
        let total = sig
            .grid
            .iter()
            .try_fold(1u64, |acc, &b| acc.checked_mul(b as u64));
        match total {
            Some(n) if n <= MAX_GRID_POINTS => Ok(n),
            _ => Err(format!(
                "is not walked: the grid {} has more than {MAX_GRID_POINTS} points",
                static_text(&sig.grid)
            )),
        }
    };
    let funcs: HashMap<String, Op> = functions(kernel).into_iter().collect();
    for name in names {
        if out.contains_key(name) {
            continue;
        }
        let result = match (&grid_points, funcs.get(name)) {
            (_, None) => Err("is not a function of the kernel".to_string()),
            (Err(why), _) => Err(why.clone()),
            (Ok(n), Some(&op)) => {
                let map = IndexMap { op };
                walk(&sig.grid, *n, &map)
            }
        };
        out.insert(name.to_string(), result);
    }
    let _ = report;
    out
}

/// Grid points with the block indices an index map gives there.
type Blocks = Vec<(Vec<i64>, Vec<i64>)>;

fn walk(grid: &[i64], n: u64, map: &IndexMap<'_>) -> Result<Blocks, String> {
    let mut out = Vec::new();
    let mut point = vec![0i64; grid.len()];
    for _ in 0..n {
        let indices = map
            .eval(&point)
            .map_err(|why| format!("is not folded: it uses {why}"))?;
        out.push((point.clone(), indices));
        for d in (0..grid.len()).rev() {
            point[d] += 1;
            if point[d] < grid[d] {
                break;
            }
            point[d] = 0;
        }
    }
    Ok(out)
}

/// The first output block the grid visits twice with other blocks between
/// (in row-major grid order, as one TensorCore runs the grid), as `run`
/// reports it.
fn revisit(output: usize, bounds: &[i64], indices: &Blocks) -> Option<ContractError> {
    // Block -> (first and last grid point of its finished visit).
    let mut done: HashMap<&[i64], (usize, usize)> = HashMap::new();
    let mut current: Option<(&[i64], usize)> = None;
    for (p, (_, block)) in indices.iter().enumerate() {
        match current {
            Some((b, _)) if b == block.as_slice() => continue,
            Some((b, start)) => {
                done.insert(b, (start, p - 1));
            }
            None => {}
        }
        if let Some(&(first, last)) = done.get(block.as_slice()) {
            return Some(ContractError::RevisitedBlock {
                output,
                block: block.clone(),
                start: block
                    .iter()
                    .zip(bounds)
                    .map(|(&i, &b)| i.saturating_mul(b))
                    .collect(),
                first: join(&indices[first].0),
                last: join(&indices[last].0),
                again: join(&indices[p].0),
            });
        }
        current = Some((block.as_slice(), p));
    }
    None
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// The first block of `indices` outside the operand, as an error.
fn outside(
    sig: &KernelSignature,
    place: Place,
    call: &TypeShape,
    argument: usize,
    bounds: &[i64],
    map: &str,
    indices: &Blocks,
) -> Option<ContractError> {
    let mut needed: Vec<i64> = call.dims.iter().map(|d| d.unwrap_or(0)).collect();
    let mut first: Option<(usize, usize, i64)> = None;
    for (p, (_, index)) in indices.iter().enumerate() {
        for (dim, ((&i, &b), extent)) in index.iter().zip(bounds).zip(&call.dims).enumerate() {
            let Some(extent) = *extent else { continue };
            let start = i.saturating_mul(b);
            needed[dim] = needed[dim].max(start.saturating_add(b));
            if (start < 0 || start >= extent) && first.is_none() {
                first = Some((p, dim, start));
            }
        }
    }
    let (p, dimension, start) = first?;
    let (point, index) = &indices[p];
    let (verb, noun) = match place {
        Place::Operand(_) => ("read", "operand"),
        Place::Result(_) => ("write", "result"),
    };
    Some(ContractError::BlockOutside {
        function: sig.function.clone(),
        place,
        call_type: call.text.clone(),
        argument,
        block: static_text(bounds),
        point: join(point),
        map: map.to_string(),
        index: join(index),
        start,
        dimension,
        extent: call.dims[dimension].unwrap_or(0),
        what: noun,
        verb,
        needed: static_text(&needed),
    })
}
