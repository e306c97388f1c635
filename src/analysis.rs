//! Facts JAX derives from a Mosaic kernel before building its config:
//! communication, custom barrier, device type and active core count
//! (reference sections 6.7 and 6.8).

use crate::config::DeviceType;
use crate::kernel::Kernel;
use crate::serde::ir::{self, Op};

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

/// Errors JAX raises while deriving [`KernelFacts`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// A `func.func` has a `tpu.core_type` that is neither TensorCore nor a
    /// SparseCore subcore (JAX's message; `core_type` as MLIR prints it).
    #[error("Unknown core type: {core_type}")]
    UnknownCoreType {
        /// The attribute as MLIR prints it.
        core_type: String,
    },
    /// TensorCore and SparseCore functions in one kernel (JAX's message).
    #[error("A single Mosaic kernel cannot contain both TensorCore and SparseCore functions.")]
    MixedCoreTypes,
    /// `iteration_bounds` and `dimension_semantics` differ in length (JAX's
    /// message, then the counts and the function, which JAX's text lacks).
    #[error(
        "The iteration bounds and dimension semantics attributes must have the same number of elements. \
         (@{function}: {bounds} iteration bound{}, {semantics} dimension semantics)",
        if *bounds == 1 { "" } else { "s" }
    )]
    LengthMismatch {
        /// The function's `sym_name`.
        function: String,
        /// Number of iteration bounds.
        bounds: usize,
        /// Number of dimension semantics.
        semantics: usize,
    },
    /// A core-parallel dimension with a dynamic bound (JAX's message).
    #[error(
        "The iteration bound corresponding to the core-parallel dimension {dimension} must be statically known."
    )]
    DynamicCoreParallelBound {
        /// The function's `sym_name`.
        function: String,
        /// Index of the dimension.
        dimension: usize,
    },
    /// Two core-parallel dimensions in one function (JAX's message).
    #[error("A single Mosaic subkernel cannot contain multiple core sharding dimensions.")]
    MultipleCoreParallelDims {
        /// The function's `sym_name`.
        function: String,
    },
    /// Functions disagree on the core-parallel bound (JAX's message, sic).
    #[error(
        "The iteration bound corresponding to the core-parallel dimension be the same across all subkernels."
    )]
    CoreParallelBoundMismatch {
        /// The bound of the earlier functions.
        expected: i64,
        /// The bound of this function.
        found: i64,
        /// The function's `sym_name`.
        function: String,
    },
    /// `iteration_bounds` is not a `DenseI64ArrayAttr` (JAX raises a cast
    /// error with the note "The iteration bounds attribute must be an array.").
    #[error(
        "iteration_bounds = {value} on func `{function}` is not an array<i64: ...>: the iteration \
         bounds attribute must be an array"
    )]
    IterationBoundsNotArray {
        /// The function's `sym_name`.
        function: String,
        /// The attribute as MLIR prints it.
        value: String,
    },
    /// `dimension_semantics` is not an `ArrayAttr` (JAX raises a cast error
    /// with the note "The dimension semantics attribute must be an array.").
    #[error(
        "dimension_semantics = {value} on func `{function}` is not an array: the dimension \
         semantics attribute must be an array"
    )]
    DimensionSemanticsNotArray {
        /// The function's `sym_name`.
        function: String,
        /// The attribute as MLIR prints it.
        value: String,
    },
}

const CORE_PARALLEL: &str = "#tpu.dimension_semantics<core_parallel>";
const SUBCORE_PARALLEL: &str = "#tpu.dimension_semantics<subcore_parallel>";
/// `ShapedType::kDynamic`.
const DYNAMIC: i64 = i64::MIN;

/// Derives every fact JAX computes from the kernel, with JAX's errors.
pub fn analyze(kernel: &Kernel<'_>) -> Result<KernelFacts, AnalysisError> {
    let (has_communication, has_custom_barrier) = has_communication(kernel);
    Ok(KernelFacts {
        has_communication,
        has_custom_barrier,
        device_type: device_type(kernel)?,
        active_core_count: active_core_count(kernel)?.and_then(|n| u64::try_from(n).ok()),
    })
}

/// JAX's `tpu.private_has_communication`: `(has_communication,
/// has_custom_barrier)`.
pub fn has_communication(kernel: &Kernel<'_>) -> (bool, bool) {
    let index = kernel.op_index();
    let mut state = (false, false);
    for node in index.pre_order() {
        match node.name {
            // Segments: source, source_semaphore, target, target_semaphore,
            // device_id, core_id[, subcore_id].
            "tpu.enqueue_dma" => state.0 |= segment_present(node.op, 4),
            // Segments: semaphore, amount, device_id, core_id[, subcore_id].
            "tpu.sem_signal" => state.0 |= segment_present(node.op, 2),
            "tpu.sem_barrier" => state.1 = true,
            _ => {}
        }
        if state.0 && state.1 {
            break;
        }
    }
    state
}

/// Whether the optional operand group `seg` of an `AttrSizedOperandSegments`
/// op is present.
fn segment_present(op: Op, seg: usize) -> bool {
    op.attr("operandSegmentSizes")
        .and_then(ir::as_i32_array)
        .and_then(|sizes| sizes.get(seg).copied())
        .is_some_and(|n| n > 0)
}

/// JAX's `_get_device_type`: a pre-order walk in which a `func.func` with
/// `tpu.core_type` is not entered, interrupted at a SparseCore function
/// after a TensorCore one.
fn device_type(kernel: &Kernel<'_>) -> Result<Option<DeviceType>, AnalysisError> {
    let index = kernel.op_index();
    let (mut sparse, mut tensor) = (false, false);
    let mut i = 0;
    while i < index.len() {
        let node = index.at(i);
        let core_type = (node.name == "func.func")
            .then(|| node.op.attr("tpu.core_type"))
            .flatten();
        let Some(attr) = core_type else {
            i += 1;
            continue;
        };
        let text = ir::attr_text(attr);
        match text.as_str() {
            "#tpu.core_type<sc_scalar_subcore>" | "#tpu.core_type<sc_vector_subcore>" => {
                sparse = true;
                if tensor {
                    break;
                }
            }
            "#tpu.core_type<tc>" => tensor = true,
            _ => return Err(AnalysisError::UnknownCoreType { core_type: text }),
        }
        i = index.end(i);
    }
    if tensor && sparse {
        return Err(AnalysisError::MixedCoreTypes);
    }
    Ok(sparse.then_some(DeviceType::SparseCore))
}

/// What the parallel dimensions of one top-level function ask for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParallelDims {
    /// The function's `sym_name`.
    pub function: String,
    /// Bound of the core-parallel dimension (cores), if any.
    pub cores: Option<i64>,
    /// Largest bound of a subcore-parallel dimension (subcores per core), if any.
    pub subcores: Option<i64>,
}

/// Core and subcore counts asked for by each top-level `func.func` that has
/// both `iteration_bounds` and `dimension_semantics` (for target checks).
/// Applies JAX's checks of `_get_active_core_count`.
pub fn parallel_dims(kernel: &Kernel<'_>) -> Result<Vec<ParallelDims>, AnalysisError> {
    let mut out = Vec::new();
    let mut core_parallel: Option<i64> = None;
    let body = kernel.module().body();
    let mut child = ir::block_first_op(melior::ir::BlockLike::to_raw(&body));
    while let Some(op) = child {
        child = op.next();
        if op.name() != "func.func" {
            continue;
        }
        let (Some(bounds), Some(semantics)) =
            (op.attr("iteration_bounds"), op.attr("dimension_semantics"))
        else {
            continue;
        };
        let function = op
            .attr("sym_name")
            .and_then(|a| {
                // SAFETY: the kind is checked before reading.
                unsafe {
                    mlir_sys::mlirAttributeIsAString(a)
                        .then(|| ir::to_string(mlir_sys::mlirStringAttrGetValue(a)))
                }
            })
            .unwrap_or_default();
        let Some(bounds) = ir::as_i64_array(bounds) else {
            return Err(AnalysisError::IterationBoundsNotArray {
                function,
                value: ir::attr_text(bounds),
            });
        };
        let Some(semantics) = ir::as_array(semantics) else {
            return Err(AnalysisError::DimensionSemanticsNotArray {
                function,
                value: ir::attr_text(semantics),
            });
        };
        if bounds.len() != semantics.len() {
            return Err(AnalysisError::LengthMismatch {
                function,
                bounds: bounds.len(),
                semantics: semantics.len(),
            });
        }
        let mut dims = ParallelDims {
            function,
            ..ParallelDims::default()
        };
        for (dimension, (&bound, sem)) in bounds.iter().zip(&semantics).enumerate() {
            let sem = ir::attr_text(*sem);
            if sem == SUBCORE_PARALLEL && bound != DYNAMIC {
                dims.subcores = Some(dims.subcores.map_or(bound, |s| s.max(bound)));
            }
            if sem != CORE_PARALLEL {
                continue;
            }
            if bound == DYNAMIC {
                return Err(AnalysisError::DynamicCoreParallelBound {
                    function: dims.function,
                    dimension,
                });
            }
            if dims.cores.is_some() {
                return Err(AnalysisError::MultipleCoreParallelDims {
                    function: dims.function,
                });
            }
            if let Some(expected) = core_parallel.filter(|&e| e != bound) {
                return Err(AnalysisError::CoreParallelBoundMismatch {
                    expected,
                    found: bound,
                    function: dims.function,
                });
            }
            dims.cores = Some(bound);
        }
        // JAX carries the last function's result (None included) forward.
        core_parallel = dims.cores;
        out.push(dims);
    }
    Ok(out)
}

/// JAX's `_get_active_core_count`: the core-parallel bound of the last
/// function that has parallel-dimension attributes.
fn active_core_count(kernel: &Kernel<'_>) -> Result<Option<i64>, AnalysisError> {
    Ok(parallel_dims(kernel)?.last().and_then(|d| d.cores))
}
