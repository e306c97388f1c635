//! The rules' error ([`RuleError`], re-exported as `validate::RuleError`):
//! JAX 0.12's parameter rules with its messages verbatim, and our own rules.
//!
//! Its home is here, below `error`, because `validate` (which produces it)
//! sits above `error` and returns the crate [`Error`](super::Error): the
//! crate error can name it without an import cycle.

use crate::config::MemorySpace;

/// A rule a call breaks: JAX 0.12's checks on the parameters, the
/// collective ids and the aliases, and ours (what JAX accepts but is invalid
/// JSON or unusable by the TPU compiler), checked by `validate` before any
/// config is built (`validate::lower_config` returns the first).
///
/// Variants documented "JAX" display JAX 0.12's message verbatim; the others
/// are our own rules.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    // ----- JAX's own messages -----
    /// JAX: a collective id without a custom barrier (and without
    /// `allow_collective_id_without_custom_barrier`).
    #[error("collective_id has to be unspecified or None when not using a custom barrier")]
    CollectiveIdWithoutBarrier {
        /// The collective id given.
        collective_id: i64,
    },
    /// JAX: the kernel uses the barrier semaphore but no collective id was
    /// given (and there is no lowering context to auto-allocate one).
    #[error(
        "collective_id has to be specified when using a custom barrier (cannot auto-allocate without lowering context)"
    )]
    BarrierWithoutCollectiveId,
    /// JAX: `tiling` given for a TensorCore kernel.
    #[error("explicit tiling is only supported for SparseCore kernels.")]
    TilingOnTensorCore,
    /// JAX: `opt_level` given for a TensorCore kernel.
    #[error("explicit opt_level is only supported for SparseCore kernels.")]
    OptLevelOnTensorCore,
    /// JAX (Pallas): `use_tc_tiling_on_sc` given for a TensorCore kernel.
    #[error("use_tc_tiling_on_sc= is not supported for TC kernels")]
    TcTilingOnTensorCore {
        /// The value given.
        value: bool,
    },
    /// JAX: an input memory space other than HBM, VMEM or SMEM (the writer's
    /// refusal, checked before any config is built).
    #[error("input_memory_space_colors only supports HBM, VMEM and SMEM")]
    InputMemorySpaceUnsupported {
        /// The operand index.
        operand: usize,
        /// The memory space given.
        memory_space: MemorySpace,
    },
    /// JAX (Pallas): an aliased operand and result constrained to different
    /// memory spaces.
    #[error(
        "In/out memory space conflict for alias {operand}->{result}: MemorySpace.{} != MemorySpace.{}",
        input.python_name(),
        output.python_name()
    )]
    MemorySpaceConflict {
        /// The operand index.
        operand: usize,
        /// The result index.
        result: usize,
        /// The operand's memory space.
        input: MemorySpace,
        /// The result's memory space.
        output: MemorySpace,
    },
    /// JAX: a `collective_id` and a barrier-semaphore tag both given (not in
    /// the `override` auto-assign mode).
    #[error(
        "Conflicting collective_id specified: CompilerParams has {collective_id} but get_barrier_semaphore has {tag_repr}. Specify only one or switch to  jax_pallas_auto_assign_collective_ids='override'."
    )]
    ConflictingCollectiveId {
        /// The collective id given.
        collective_id: i64,
        /// Python's `repr()` of the tag (`'foo'`).
        tag_repr: String,
    },
    /// JAX: more automatic collective ids than the limit. The mapping is
    /// rendered as JAX's `repr`, with our 64-bit body hashes where Python
    /// prints its own `hash()`.
    #[error(
        "The number of auto-assigned collective ids for pallas kernels exceeded the limit of {limit}. Consider manually annotating the kernels with collective ids: {mapping}"
    )]
    AutoCollectiveIdsExceeded {
        /// The limit.
        limit: usize,
        /// The mapping, as JAX prints it.
        mapping: String,
    },

    // ----- our own rules -----
    /// A collective id outside the i32 range XLA stores it in.
    #[error("collective_id = {value} is outside the i32 range XLA accepts (0..=2147483647)")]
    CollectiveIdOutOfRange {
        /// The value given.
        value: i64,
    },
    /// A size or count below zero.
    #[error("{field} = {value} is negative; it must be a non-negative integer")]
    Negative {
        /// The field (`internal_scratch_in_bytes`, `cost_estimate.flops`...).
        field: String,
        /// The value given.
        value: i64,
    },
    /// `vmem_limit_bytes` of zero or less.
    #[error(
        "vmem_limit_bytes = {value} is not positive; give the scoped VMEM limit in bytes (> 0)"
    )]
    VmemLimitNotPositive {
        /// The value given.
        value: i64,
    },
    /// A `serialization_format` beyond the 32 bits the config holds.
    #[error("serialization_format must be a 32-bit format number, not {value}")]
    SerializationFormatOutOfRange {
        /// The value given.
        value: i64,
    },
    /// A flag name JAX would write raw into the JSON but that is not
    /// printable ASCII without `"` and `\` (JAX raises UnicodeEncodeError or
    /// writes broken JSON); the writer refuses it too.
    #[error(
        "flag name {flag:?} is not allowed: flag names must be printable ASCII without `\"` or `\\`"
    )]
    BadFlagName {
        /// The flag name.
        flag: String,
    },
    /// A non-finite double flag (JAX writes `inf`/`nan`, which is not JSON);
    /// the writer refuses it too.
    #[error("flag {flag} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteFlag {
        /// The flag name.
        flag: String,
        /// Python's spelling of the value.
        value: String,
    },
    /// A memory space only SparseCore has, on a TensorCore kernel.
    #[error(
        "{field}[{index}] = {memory_space} is a SparseCore memory space but the kernel is a TensorCore kernel"
    )]
    SparseCoreMemorySpaceOnTensorCore {
        /// `output_memory_spaces` or `input_memory_spaces`.
        field: String,
        /// The entry index.
        index: usize,
        /// The memory space given.
        memory_space: MemorySpace,
    },
    /// Both `tiling` and `use_tc_tiling_on_sc` given.
    #[error(
        "tiling = {tiling} and use_tc_tiling_on_sc = {use_tc_tiling_on_sc} both set the SparseCore tiling; give only one"
    )]
    ConflictingTiling {
        /// The `tiling` given (PARAMS spelling).
        tiling: String,
        /// The `use_tc_tiling_on_sc` given.
        use_tc_tiling_on_sc: bool,
    },
    /// Forward-compatible (export) mode with a serde version newer than JAX's
    /// forward-compatibility version.
    #[error(
        "ir_version = {ir_version} with forward_compatible = true: exports must use ir_version 15 or older so older TPU runtimes can read them"
    )]
    ForwardCompatibleIrVersion {
        /// The requested version (`None`: the pass default, 18).
        ir_version: String,
    },
    /// An alias operand index outside the operands.
    #[error(
        "input_output_aliases: operand index {operand} is out of range; the call has {operands} operand(s)"
    )]
    AliasOperandOutOfRange {
        /// The operand index given.
        operand: usize,
        /// How many operands the call has.
        operands: usize,
    },
    /// An alias result index outside the results.
    #[error(
        "input_output_aliases: result index {result} is out of range; the call has {results} result(s)"
    )]
    AliasResultOutOfRange {
        /// The result index given.
        result: usize,
        /// How many results the call has.
        results: usize,
    },
    /// Two operands aliased to the same result.
    #[error(
        "input_output_aliases: result {result} is aliased twice (operands {first} and {second}); a result can reuse one operand's buffer only"
    )]
    ResultAliasedTwice {
        /// The result index.
        result: usize,
        /// The first operand aliased to it.
        first: usize,
        /// The second operand aliased to it.
        second: usize,
    },
    /// An aliased operand and result of different types.
    #[error(
        "input_output_aliases: operand {operand} ({operand_type}) and result {result} ({result_type}) must have the same type to share a buffer"
    )]
    AliasTypeMismatch {
        /// The operand index.
        operand: usize,
        /// The result index.
        result: usize,
        /// The operand's type.
        operand_type: String,
        /// The result's type.
        result_type: String,
    },
    /// A per-operand or per-result list of the wrong length.
    #[error(
        "{field} has {len} entries but the call has {expected} {what}; give one entry per {what_one}"
    )]
    ListLength {
        /// The field (`allow_input_fusion`, `input_memory_spaces`...).
        field: String,
        /// Its length.
        len: usize,
        /// The number of operands or results.
        expected: usize,
        /// `operands` or `results`.
        what: String,
        /// `operand` or `result`.
        what_one: String,
    },
}
