//! The config layer's error: JAX's validation messages verbatim where JAX has
//! one, our own rules, and reader errors with their JSON path.

use super::MemorySpace;
use super::json::JsonPath;

/// Everything that can be wrong with a backend config or its parameters
/// (reading a backend_config document is [`ReadError`]).
///
/// Variants documented "JAX" display JAX 0.12's message verbatim; the others
/// are our own rules (JAX accepts the value but the result is invalid JSON or
/// unusable by the TPU compiler) or reader errors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
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
    /// JAX: `vmem_limit_bytes` is not an int (Python type name, e.g. `float`).
    #[error("vmem_limit_bytes must be an int: provided with a <class '{python_type}'>.")]
    VmemLimitNotInt {
        /// Python's type name of the value given.
        python_type: String,
    },
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
    /// JAX: an input memory space other than HBM, VMEM or SMEM.
    #[error("input_memory_space_colors only supports HBM, VMEM and SMEM")]
    InputMemorySpaceUnsupported {
        /// The operand index.
        operand: usize,
        /// The memory space given.
        memory_space: MemorySpace,
    },
    /// JAX: a flag value that is not a bool, int or float (Python `str()` of
    /// the value: `yes`, `None`).
    #[error("invalid flag value: {value}")]
    InvalidFlagValue {
        /// The flag name.
        flag: String,
        /// Python's `str()` of the value.
        value: String,
    },
    /// JAX (Pallas): `has_side_effects` is not a bool or a side-effect kind.
    #[error("Invalid side effect type: {value}")]
    InvalidSideEffect {
        /// Python's `str()` of the value.
        value: String,
    },
    /// JAX (Pallas `CostEstimate`): a field that is not an int.
    #[error(
        "All fields in CostEstimate must be ints. {field} is not an int: <class '{python_type}'>({value})"
    )]
    CostEstimateNotInt {
        /// The field name.
        field: String,
        /// Python's type name of the value.
        python_type: String,
        /// Python's `str()` of the value.
        value: String,
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
    /// A boolean where an integer belongs (Python accepts `True` as 1 and
    /// writes `True`, which is not JSON).
    #[error("{field} = {value} is a boolean where an integer belongs; write a number")]
    BoolForInteger {
        /// The field.
        field: String,
        /// The boolean given.
        value: bool,
    },
    /// A value of the wrong JSON type where JAX has no message of its own.
    #[error("{field} must be {expected}, not {found}")]
    WrongParamType {
        /// The field.
        field: String,
        /// What the field takes.
        expected: String,
        /// What was given (`a string`, `null`...).
        found: String,
    },
    /// A non-finite double flag (JAX writes `inf`/`nan`, which is not JSON).
    #[error("flag {flag} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteFlag {
        /// The flag name.
        flag: String,
        /// Python's spelling of the value.
        value: String,
    },
    /// A number in the kernel metadata beyond `f64` (`1e400`): JAX reads it
    /// as `inf` and would write `Infinity`, which is not JSON.
    #[error("metadata value at {path} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteMetadata {
        /// Where in PARAMS.json (`$.metadata...`).
        path: JsonPath,
        /// The number as written.
        value: String,
    },
    /// An integer flag outside protobuf's int64.
    #[error("flag {flag} = {value} does not fit the int64 integer_value; use a smaller value")]
    FlagIntegerOutOfRange {
        /// The flag name.
        flag: String,
        /// The literal given.
        value: String,
    },
    /// A flag name JAX would write raw into the JSON but that is not
    /// printable ASCII without `"` and `\` (JAX raises UnicodeEncodeError or
    /// writes broken JSON).
    #[error(
        "flag name {flag:?} is not allowed: flag names must be printable ASCII without `\"` or `\\`"
    )]
    BadFlagName {
        /// The flag name.
        flag: String,
    },
    /// The same flag twice: JAX's flags are a dict (one value per name), and
    /// the reader refuses a repeated `flag_type`.
    #[error("flag {flag} is given twice; give each flag once")]
    DuplicateFlag {
        /// The flag name.
        flag: String,
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
    /// A cost estimate without one of the fields Pallas requires.
    #[error(
        "cost_estimate has no {field}; flops, transcendentals and bytes_accessed are required (remote_bytes_transferred defaults to 0)"
    )]
    CostEstimateMissingField {
        /// The missing field.
        field: String,
    },
    /// A cost estimate key that is not one of the four fields.
    #[error(
        "cost_estimate has an unknown field {field:?}; the fields are flops, transcendentals, bytes_accessed, remote_bytes_transferred"
    )]
    CostEstimateUnknownField {
        /// The unknown key.
        field: String,
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
    /// The body or debug blob is too large to encode.
    #[error("{field} of {bytes} bytes is too large to base64-encode on this machine")]
    TooLarge {
        /// `body` or `debug_locations`.
        field: String,
        /// Its size.
        bytes: usize,
    },

    /// A config the writer cannot express (text that is not ASCII).
    #[error("backend_config value at {path} is not supported: {message}")]
    Unsupported {
        /// Where.
        path: JsonPath,
        /// What is unsupported and what is accepted.
        message: String,
    },
}

/// What can be wrong with a backend_config JSON document being read
/// ([`super::BackendConfig::from_json`]), each with its JSON path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Not JSON.
    #[error("backend_config is not valid JSON at {path}: {message}")]
    Json {
        /// The enclosing value.
        path: JsonPath,
        /// What was wrong, with the byte offset.
        message: String,
    },
    /// An object with the same key twice (also under its snake_case and
    /// camelCase spellings).
    #[error("backend_config has the key {key:?} twice at {path}")]
    DuplicateKey {
        /// The object.
        path: JsonPath,
        /// The key.
        key: String,
    },
    /// A value of the wrong type.
    #[error("backend_config value at {path} must be {expected}, not {found}")]
    WrongType {
        /// Where.
        path: JsonPath,
        /// What belongs there.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A required key is missing.
    #[error("backend_config has no {key:?} at {path}")]
    MissingKey {
        /// The object.
        path: JsonPath,
        /// The missing key.
        key: String,
    },
    /// Bad base64 in `body` or `debug_locations`.
    #[error("backend_config value at {path} is not valid base64: {message}")]
    Base64 {
        /// Where.
        path: JsonPath,
        /// The decoder's message.
        message: String,
    },
    /// A well-typed value the model cannot hold (an unknown color, enum name,
    /// a scoped memory config other than VMEM at offset 0...).
    #[error("backend_config value at {path} is not supported: {message}")]
    Unsupported {
        /// Where.
        path: JsonPath,
        /// What is unsupported and what is accepted.
        message: String,
    },
}
