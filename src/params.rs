//! `PARAMS.json`: the typed parameters of one `tpu_custom_call`, under JAX's
//! own names (Pallas `CompilerParams`, `pallas_call` and lowering options).
//!
//! Every key is optional; the defaults reproduce JAX 0.12 cross-lowering a
//! Pallas kernel for TPU on a host without a TPU: IR version 15, debug
//! locations unzipped, `use_core_ids` on, `serialization_format` 1,
//! `shape_invariant_numerics` and `needs_layout_passes` true.
//! [`Params::from_json`] reads a document (unknown keys are errors that name
//! the closest known key; wrong types are errors that name the key, with
//! JAX's message where JAX has one); [`Params::to_json`] writes the canonical
//! form with only the keys that differ from the defaults.

use crate::config::json::{JsonPath, JsonSyntaxError, JsonValue, parse_json, python_float_repr};
use crate::config::{FlagValue, MemorySpace, OptLevel, Tiling};

/// The side-effect kind of the call (Pallas `has_side_effects`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SideEffect {
    /// No side effects: may be deduplicated or removed (`false`, `"pure"`).
    #[default]
    Pure,
    /// May be removed if unused, never deduplicated.
    DataflowSideEffecting,
    /// Never removed or deduplicated (`true`, `"side_effecting"`).
    SideEffecting,
}

impl SideEffect {
    /// The PARAMS.json / JAX spelling (`pure`, `dataflow_side_effecting`,
    /// `side_effecting`).
    pub const fn name(self) -> &'static str {
        match self {
            SideEffect::Pure => "pure",
            SideEffect::DataflowSideEffecting => "dataflow_side_effecting",
            SideEffect::SideEffecting => "side_effecting",
        }
    }

    /// Parses the JAX spelling (exactly, as `TpuSideEffectType(value)` does).
    pub fn parse(s: &str) -> Option<Self> {
        [
            SideEffect::Pure,
            SideEffect::DataflowSideEffecting,
            SideEffect::SideEffecting,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }

    /// The op's `has_side_effect` attribute (true unless pure).
    pub const fn has_side_effect(self) -> bool {
        !matches!(self, SideEffect::Pure)
    }
}

crate::spelling::spelled!(
    SideEffect,
    "side-effect kind",
    name,
    ["pure", "dataflow_side_effecting", "side_effecting"]
);
crate::spelling::spelled!(
    DebugLocations,
    "debug-locations mode",
    name,
    ["unzip", "inline", "strip"]
);

/// What to do with the kernel's debug locations (the serializer's enum).
pub use crate::serde::DebugLocations;

impl DebugLocations {
    /// `unzip`, `inline`, `strip`.
    pub const fn name(self) -> &'static str {
        match self {
            DebugLocations::Unzip => "unzip",
            DebugLocations::Inline => "inline",
            DebugLocations::Strip => "strip",
        }
    }

    /// Parses `unzip`, `inline`, `strip`.
    pub fn parse(s: &str) -> Option<Self> {
        [
            DebugLocations::Unzip,
            DebugLocations::Inline,
            DebugLocations::Strip,
        ]
        .into_iter()
        .find(|d| d.name() == s)
    }
}

/// A cost estimate as given (Pallas `pl.CostEstimate`); negative values are
/// representable so that validation can name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ParamsCostEstimate {
    /// Floating-point operations.
    pub flops: i64,
    /// Transcendental operations.
    pub transcendentals: i64,
    /// Bytes read and written.
    pub bytes_accessed: i64,
    /// Bytes sent to other devices (default 0).
    pub remote_bytes_transferred: i64,
}

/// JAX's forward-compatibility serde version (export mode and CPU hosts):
/// the serde layer's default, declared there.
pub use crate::serde::DEFAULT_IR_VERSION;

/// The parameters of one call. `Default` is JAX 0.12 cross-lowering a Pallas
/// kernel with default `CompilerParams`.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The op's `kernel_name` (sanitized when emitted); `None`: no attribute.
    pub kernel_name: Option<String>,
    /// `kernel_metadata` (an object; `None`: no attribute; `{}` gives `"{}"`
    /// as Pallas does).
    pub metadata: Option<Vec<(String, JsonValue)>>,
    /// Cost hints.
    pub cost_estimate: Option<ParamsCostEstimate>,
    /// Scoped VMEM limit in bytes.
    pub vmem_limit_bytes: Option<i64>,
    /// Compiler flags, in order.
    pub flags: Option<Vec<(String, FlagValue)>>,
    /// Per operand: may XLA fuse its producer into the kernel.
    pub allow_input_fusion: Option<Vec<bool>>,
    /// `(operand, result)` pairs sharing a buffer (`[[operand, result], ...]`,
    /// or Pallas's `{"operand": result}`).
    pub input_output_aliases: Vec<(usize, usize)>,
    /// Mosaic's internal scratch size.
    pub internal_scratch_in_bytes: Option<i64>,
    /// The barrier semaphore's collective id.
    pub collective_id: Option<i64>,
    /// Accept a collective id on a kernel without a custom barrier.
    pub allow_collective_id_without_custom_barrier: bool,
    /// The call's side-effect kind.
    pub has_side_effects: SideEffect,
    /// Body serialization format (default `Some(1)`; `None`: not written).
    pub serialization_format: Option<i64>,
    /// Per result: its memory space, if constrained.
    pub output_memory_spaces: Option<Vec<Option<MemorySpace>>>,
    /// Per operand: its memory space, if constrained.
    pub input_memory_spaces: Option<Vec<Option<MemorySpace>>>,
    /// Turn off bounds checks.
    pub disable_bounds_checks: bool,
    /// Turn off semaphore checks.
    pub disable_semaphore_checks: bool,
    /// Skip the default device barrier.
    pub skip_device_barrier: bool,
    /// Numerics must not depend on shapes (default true, as Pallas).
    pub shape_invariant_numerics: bool,
    /// Run Mosaic's layout passes (default true; TensorCore forces it).
    pub needs_layout_passes: bool,
    /// Let XLA run HLO passes (`jax_mosaic_allow_hlo`, default false).
    pub needs_hlo_passes: bool,
    /// Explicit SparseCore tiling (`tpu_custom_call` API).
    pub tiling: Option<Tiling>,
    /// Pallas's spelling of the tiling: true/absent → compact, false →
    /// sparse_core; an error on TensorCore kernels.
    pub use_tc_tiling_on_sc: Option<bool>,
    /// SparseCore optimization level.
    pub opt_level: Option<OptLevel>,
    /// JAX's export mode: inline locations, `megachip_parallelism_config`.
    pub forward_compatible: bool,
    /// Serde version of the body (default `Some(15)`; `None`: the pass
    /// default, 18, recorded as `None` like JAX).
    pub ir_version: Option<u32>,
    /// What to do with debug locations (`None`: unzip, or inline when
    /// forward compatible).
    pub debug_locations: Option<DebugLocations>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            kernel_name: None,
            metadata: None,
            cost_estimate: None,
            vmem_limit_bytes: None,
            flags: None,
            allow_input_fusion: None,
            input_output_aliases: Vec::new(),
            internal_scratch_in_bytes: None,
            collective_id: None,
            allow_collective_id_without_custom_barrier: false,
            has_side_effects: SideEffect::Pure,
            serialization_format: Some(1),
            output_memory_spaces: None,
            input_memory_spaces: None,
            disable_bounds_checks: false,
            disable_semaphore_checks: false,
            skip_device_barrier: false,
            shape_invariant_numerics: true,
            needs_layout_passes: true,
            needs_hlo_passes: false,
            tiling: None,
            use_tc_tiling_on_sc: None,
            opt_level: None,
            forward_compatible: false,
            ir_version: Some(DEFAULT_IR_VERSION),
            debug_locations: None,
        }
    }
}

/// The PARAMS.json schema's keys, declared once, in canonical order: the
/// reader ([`Params::from_json`]) and the writer ([`Params::to_json`]) match
/// on this enum exhaustively, so a key cannot be read without being written
/// (or the other way round), and the unknown-key check and its suggestion
/// come from [`ParamKey::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKey {
    /// `kernel_name`.
    KernelName,
    /// `metadata`.
    Metadata,
    /// `cost_estimate`.
    CostEstimate,
    /// `vmem_limit_bytes`.
    VmemLimitBytes,
    /// `flags`.
    Flags,
    /// `allow_input_fusion`.
    AllowInputFusion,
    /// `input_output_aliases`.
    InputOutputAliases,
    /// `internal_scratch_in_bytes`.
    InternalScratchInBytes,
    /// `collective_id`.
    CollectiveId,
    /// `allow_collective_id_without_custom_barrier`.
    AllowCollectiveIdWithoutCustomBarrier,
    /// `has_side_effects`.
    HasSideEffects,
    /// `serialization_format`.
    SerializationFormat,
    /// `output_memory_spaces`.
    OutputMemorySpaces,
    /// `input_memory_spaces`.
    InputMemorySpaces,
    /// `disable_bounds_checks`.
    DisableBoundsChecks,
    /// `disable_semaphore_checks`.
    DisableSemaphoreChecks,
    /// `skip_device_barrier`.
    SkipDeviceBarrier,
    /// `shape_invariant_numerics`.
    ShapeInvariantNumerics,
    /// `needs_layout_passes`.
    NeedsLayoutPasses,
    /// `needs_hlo_passes`.
    NeedsHloPasses,
    /// `tiling`.
    Tiling,
    /// `use_tc_tiling_on_sc`.
    UseTcTilingOnSc,
    /// `opt_level`.
    OptLevel,
    /// `forward_compatible`.
    ForwardCompatible,
    /// `ir_version`.
    IrVersion,
    /// `debug_locations`.
    DebugLocations,
}

impl ParamKey {
    /// Every key, in canonical order.
    pub const ALL: [ParamKey; 26] = [
        ParamKey::KernelName,
        ParamKey::Metadata,
        ParamKey::CostEstimate,
        ParamKey::VmemLimitBytes,
        ParamKey::Flags,
        ParamKey::AllowInputFusion,
        ParamKey::InputOutputAliases,
        ParamKey::InternalScratchInBytes,
        ParamKey::CollectiveId,
        ParamKey::AllowCollectiveIdWithoutCustomBarrier,
        ParamKey::HasSideEffects,
        ParamKey::SerializationFormat,
        ParamKey::OutputMemorySpaces,
        ParamKey::InputMemorySpaces,
        ParamKey::DisableBoundsChecks,
        ParamKey::DisableSemaphoreChecks,
        ParamKey::SkipDeviceBarrier,
        ParamKey::ShapeInvariantNumerics,
        ParamKey::NeedsLayoutPasses,
        ParamKey::NeedsHloPasses,
        ParamKey::Tiling,
        ParamKey::UseTcTilingOnSc,
        ParamKey::OptLevel,
        ParamKey::ForwardCompatible,
        ParamKey::IrVersion,
        ParamKey::DebugLocations,
    ];

    /// The key as written in PARAMS.json.
    pub const fn name(self) -> &'static str {
        match self {
            ParamKey::KernelName => "kernel_name",
            ParamKey::Metadata => "metadata",
            ParamKey::CostEstimate => "cost_estimate",
            ParamKey::VmemLimitBytes => "vmem_limit_bytes",
            ParamKey::Flags => "flags",
            ParamKey::AllowInputFusion => "allow_input_fusion",
            ParamKey::InputOutputAliases => "input_output_aliases",
            ParamKey::InternalScratchInBytes => "internal_scratch_in_bytes",
            ParamKey::CollectiveId => "collective_id",
            ParamKey::AllowCollectiveIdWithoutCustomBarrier => {
                "allow_collective_id_without_custom_barrier"
            }
            ParamKey::HasSideEffects => "has_side_effects",
            ParamKey::SerializationFormat => "serialization_format",
            ParamKey::OutputMemorySpaces => "output_memory_spaces",
            ParamKey::InputMemorySpaces => "input_memory_spaces",
            ParamKey::DisableBoundsChecks => "disable_bounds_checks",
            ParamKey::DisableSemaphoreChecks => "disable_semaphore_checks",
            ParamKey::SkipDeviceBarrier => "skip_device_barrier",
            ParamKey::ShapeInvariantNumerics => "shape_invariant_numerics",
            ParamKey::NeedsLayoutPasses => "needs_layout_passes",
            ParamKey::NeedsHloPasses => "needs_hlo_passes",
            ParamKey::Tiling => "tiling",
            ParamKey::UseTcTilingOnSc => "use_tc_tiling_on_sc",
            ParamKey::OptLevel => "opt_level",
            ParamKey::ForwardCompatible => "forward_compatible",
            ParamKey::IrVersion => "ir_version",
            ParamKey::DebugLocations => "debug_locations",
        }
    }

    /// Parses a key, exactly.
    pub fn parse(key: &str) -> Option<Self> {
        ParamKey::ALL.into_iter().find(|k| k.name() == key)
    }
}

crate::spelling::spelled!(
    ParamKey,
    "PARAMS.json key",
    name,
    [
        "kernel_name",
        "metadata",
        "cost_estimate",
        "vmem_limit_bytes",
        "flags",
        "allow_input_fusion",
        "input_output_aliases",
        "internal_scratch_in_bytes",
        "collective_id",
        "allow_collective_id_without_custom_barrier",
        "has_side_effects",
        "serialization_format",
        "output_memory_spaces",
        "input_memory_spaces",
        "disable_bounds_checks",
        "disable_semaphore_checks",
        "skip_device_barrier",
        "shape_invariant_numerics",
        "needs_layout_passes",
        "needs_hlo_passes",
        "tiling",
        "use_tc_tiling_on_sc",
        "opt_level",
        "forward_compatible",
        "ir_version",
        "debug_locations",
    ]
);

/// Every PARAMS.json key, in canonical order (the names of [`ParamKey::ALL`]).
pub const PARAM_KEYS: [&str; 26] = {
    let mut names = [""; 26];
    let mut i = 0;
    while i < names.len() {
        names[i] = ParamKey::ALL[i].name();
        i += 1;
    }
    names
};

/// What is wrong with a PARAMS.json document.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ParamsError {
    /// Not JSON.
    #[error("PARAMS.json is not valid JSON at {path}: {message}")]
    Json {
        /// The enclosing value.
        path: JsonPath,
        /// What was wrong, with the byte offset.
        message: String,
    },
    /// The same key twice in an object.
    #[error("PARAMS.json has the key {key:?} twice at {path}")]
    DuplicateKey {
        /// The object.
        path: JsonPath,
        /// The key.
        key: String,
    },
    /// The document is not a JSON object.
    #[error("PARAMS.json must be a JSON object, not {found}")]
    NotAnObject {
        /// What it is.
        found: String,
    },
    /// A key that is not a parameter.
    #[error("unknown parameter {key:?} in PARAMS.json (did you mean {suggestion:?}?)")]
    UnknownKey {
        /// The key.
        key: String,
        /// The closest known key.
        suggestion: String,
    },

    // ----- a known key with a bad value: JAX's own messages -----
    /// JAX: `vmem_limit_bytes` is not an int (Python type name, e.g. `float`).
    #[error("vmem_limit_bytes must be an int: provided with a <class '{python_type}'>.")]
    VmemLimitNotInt {
        /// Python's type name of the value given.
        python_type: String,
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

    // ----- a known key with a bad value: our own messages -----
    /// A value of the wrong JSON type (or out of the key's range) where JAX
    /// has no message of its own.
    #[error("{field} must be {expected}, not {found}")]
    WrongParamType {
        /// The parameter.
        key: ParamKey,
        /// The value named in the message (the key, or an entry of it:
        /// `input_memory_spaces[1]`).
        field: String,
        /// What the field takes.
        expected: String,
        /// What was given (`a string`, `null`...).
        found: String,
    },
    /// A boolean where an integer belongs (Python accepts `True` as 1 and
    /// writes `True`, which is not JSON).
    #[error("{field} = {value} is a boolean where an integer belongs; write a number")]
    BoolForInteger {
        /// The parameter.
        key: ParamKey,
        /// The value named in the message (`cost_estimate.flops`...).
        field: String,
        /// The boolean given.
        value: bool,
    },
    /// An index below zero (`input_output_aliases`).
    #[error("{field} = {value} is negative; it must be a non-negative integer")]
    Negative {
        /// The parameter.
        key: ParamKey,
        /// The value named in the message (`input_output_aliases[0][1]`).
        field: String,
        /// The value given.
        value: i64,
    },
    /// A non-finite double flag (`1e400`: JAX writes `inf`, which is not
    /// JSON).
    #[error("flag {flag} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteFlag {
        /// The flag name.
        flag: String,
        /// Python's spelling of the value.
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
    /// A number in the kernel metadata beyond `f64` (`1e400`): JAX reads it
    /// as `inf` and would write `Infinity`, which is not JSON.
    #[error("metadata value at {path} = {value} is not a finite number; JSON cannot hold it")]
    NonFiniteMetadata {
        /// Where in PARAMS.json (`$.metadata...`).
        path: JsonPath,
        /// The number as written.
        value: String,
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
}

impl ParamsError {
    /// The parameter whose value is wrong (`None` for a document that is not
    /// JSON or not an object, a repeated key, an unknown key). The variants
    /// of one key carry it implicitly (`cost_estimate`, `flags`, `metadata`,
    /// `vmem_limit_bytes`, `has_side_effects`), the others as `key`.
    pub fn key(&self) -> Option<ParamKey> {
        match self {
            ParamsError::Json { .. }
            | ParamsError::DuplicateKey { .. }
            | ParamsError::NotAnObject { .. }
            | ParamsError::UnknownKey { .. } => None,
            ParamsError::VmemLimitNotInt { .. } => Some(ParamKey::VmemLimitBytes),
            ParamsError::InvalidFlagValue { .. }
            | ParamsError::NonFiniteFlag { .. }
            | ParamsError::FlagIntegerOutOfRange { .. } => Some(ParamKey::Flags),
            ParamsError::InvalidSideEffect { .. } => Some(ParamKey::HasSideEffects),
            ParamsError::CostEstimateNotInt { .. }
            | ParamsError::CostEstimateMissingField { .. }
            | ParamsError::CostEstimateUnknownField { .. } => Some(ParamKey::CostEstimate),
            ParamsError::NonFiniteMetadata { .. } => Some(ParamKey::Metadata),
            ParamsError::WrongParamType { key, .. }
            | ParamsError::BoolForInteger { key, .. }
            | ParamsError::Negative { key, .. } => Some(*key),
        }
    }
}

pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known key closest to `key` (edit distance, ties: canonical order).
pub fn closest_key(key: &str) -> &'static str {
    let lower = key.to_ascii_lowercase();
    PARAM_KEYS
        .iter()
        .copied()
        .min_by_key(|k| levenshtein(&lower, k))
        .unwrap_or(PARAM_KEYS[0])
}

fn wrong_type(key: ParamKey, field: &str, expected: &str, found: &JsonValue) -> ParamsError {
    ParamsError::WrongParamType {
        key,
        field: field.to_string(),
        expected: expected.to_string(),
        found: found.kind().to_string(),
    }
}

/// A string that is none of the key's spellings.
fn not_one_of(key: ParamKey, expected: &str, found: &str) -> ParamsError {
    ParamsError::WrongParamType {
        key,
        field: key.name().to_string(),
        expected: expected.to_string(),
        found: format!("{found:?}"),
    }
}

fn get_bool(key: ParamKey, field: &str, v: &JsonValue) -> Result<bool, ParamsError> {
    match v {
        JsonValue::Bool(b) => Ok(*b),
        other => Err(wrong_type(key, field, "true or false", other)),
    }
}

/// An integer parameter; a bool is our own error (Python would take it as
/// 1/0 and write `True` into the JSON).
fn get_int(key: ParamKey, field: &str, v: &JsonValue) -> Result<i64, ParamsError> {
    match v {
        JsonValue::Bool(b) => Err(ParamsError::BoolForInteger {
            key,
            field: field.to_string(),
            value: *b,
        }),
        JsonValue::Number(n) if n.is_integer() => {
            n.as_i64().ok_or_else(|| ParamsError::WrongParamType {
                key,
                field: field.to_string(),
                expected: "a 64-bit integer".to_string(),
                found: format!("{} (out of range)", n.as_str()),
            })
        }
        other => Err(wrong_type(key, field, "an integer", other)),
    }
}

fn get_index(key: ParamKey, field: &str, v: &JsonValue) -> Result<usize, ParamsError> {
    let n = get_int(key, field, v)?;
    usize::try_from(n).map_err(|_| ParamsError::Negative {
        key,
        field: field.to_string(),
        value: n,
    })
}

fn get_str(key: ParamKey, v: &JsonValue) -> Result<&str, ParamsError> {
    match v {
        JsonValue::String(s) => Ok(s),
        other => Err(wrong_type(key, key.name(), "a string", other)),
    }
}

fn get_array<'v>(
    key: ParamKey,
    field: &str,
    v: &'v JsonValue,
) -> Result<&'v [JsonValue], ParamsError> {
    match v {
        JsonValue::Array(items) => Ok(items),
        other => Err(wrong_type(key, field, "an array", other)),
    }
}

fn get_object(key: ParamKey, v: &JsonValue) -> Result<&[(String, JsonValue)], ParamsError> {
    match v {
        JsonValue::Object(members) => Ok(members),
        other => Err(wrong_type(key, key.name(), "an object", other)),
    }
}

fn memory_spaces(
    key: ParamKey,
    v: &JsonValue,
) -> Result<Option<Vec<Option<MemorySpace>>>, ParamsError> {
    if let JsonValue::Null = v {
        return Ok(None);
    }
    let items = get_array(key, key.name(), v)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = format!("{key}[{i}]");
        match item {
            JsonValue::Null => out.push(None),
            JsonValue::String(s) => out.push(Some(s.parse::<MemorySpace>().map_err(|()| {
                ParamsError::WrongParamType {
                    key,
                    field: field.clone(),
                    expected: "a memory space (hbm, vmem, semaphore_mem, smem, host, sc_scalar_semaphore_mem, sc_vector_semaphore_mem, sc_scalar_smem, sc_vector_smem) or null".to_string(),
                    found: format!("{s:?}"),
                }
            })?)),
            other => return Err(wrong_type(key, &field, "a memory space name or null", other)),
        }
    }
    Ok(Some(out))
}

fn cost_estimate(v: &JsonValue) -> Result<ParamsCostEstimate, ParamsError> {
    let key = ParamKey::CostEstimate;
    let members = get_object(key, v)?;
    let mut values: [Option<i64>; 4] = [None; 4];
    const FIELDS: [&str; 4] = [
        "flops",
        "transcendentals",
        "bytes_accessed",
        "remote_bytes_transferred",
    ];
    for (name, value) in members {
        let Some(slot) = FIELDS.iter().position(|f| f == name) else {
            return Err(ParamsError::CostEstimateUnknownField {
                field: name.clone(),
            });
        };
        values[slot] = Some(match value {
            JsonValue::Number(n) if n.is_integer() => {
                n.as_i64().ok_or_else(|| ParamsError::WrongParamType {
                    key,
                    field: format!("{key}.{name}"),
                    expected: "a 64-bit integer".to_string(),
                    found: format!("{} (out of range)", n.as_str()),
                })?
            }
            JsonValue::Bool(b) => {
                return Err(ParamsError::BoolForInteger {
                    key,
                    field: format!("{key}.{name}"),
                    value: *b,
                });
            }
            other => {
                return Err(ParamsError::CostEstimateNotInt {
                    field: name.clone(),
                    python_type: other.python_type().to_string(),
                    value: other.python_str(),
                });
            }
        });
    }
    let [flops, transcendentals, bytes_accessed, remote] = values;
    let need = |v: Option<i64>, f: &str| {
        v.ok_or_else(|| ParamsError::CostEstimateMissingField {
            field: f.to_string(),
        })
    };
    Ok(ParamsCostEstimate {
        flops: need(flops, "flops")?,
        transcendentals: need(transcendentals, "transcendentals")?,
        bytes_accessed: need(bytes_accessed, "bytes_accessed")?,
        remote_bytes_transferred: remote.unwrap_or(0),
    })
}

/// Rejects numbers beyond `f64` anywhere in `v` (JSON cannot hold the
/// infinity they become; `to_json` would write `null`).
fn check_finite(v: &JsonValue, path: &JsonPath) -> Result<(), ParamsError> {
    match v {
        JsonValue::Number(n) if !n.as_f64().is_finite() => Err(ParamsError::NonFiniteMetadata {
            path: path.clone(),
            value: n.as_str().to_string(),
        }),
        JsonValue::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_finite(item, &path.index(i))),
        JsonValue::Object(members) => members
            .iter()
            .try_for_each(|(k, item)| check_finite(item, &path.key(k))),
        _ => Ok(()),
    }
}

fn flags(v: &JsonValue) -> Result<Option<Vec<(String, FlagValue)>>, ParamsError> {
    if let JsonValue::Null = v {
        return Ok(None);
    }
    let members = get_object(ParamKey::Flags, v)?;
    let mut out = Vec::with_capacity(members.len());
    for (name, value) in members {
        let flag = match value {
            JsonValue::Bool(b) => FlagValue::Bool(*b),
            JsonValue::Number(n) if n.is_integer() => match n.as_i64() {
                Some(i) => FlagValue::Int(i),
                None => {
                    return Err(ParamsError::FlagIntegerOutOfRange {
                        flag: name.clone(),
                        value: n.as_str().to_string(),
                    });
                }
            },
            // Found by the `params_reader` fuzz target: `611e309` read as
            // `inf` was written back as `null` (see `mlir-fixtures/fuzz/`).
            JsonValue::Number(n) if !n.as_f64().is_finite() => {
                return Err(ParamsError::NonFiniteFlag {
                    flag: name.clone(),
                    value: python_float_repr(n.as_f64()),
                });
            }
            JsonValue::Number(n) => FlagValue::Double(n.as_f64()),
            other => {
                return Err(ParamsError::InvalidFlagValue {
                    flag: name.clone(),
                    value: other.python_str(),
                });
            }
        };
        out.push((name.clone(), flag));
    }
    Ok(Some(out))
}

impl Params {
    /// Reads a PARAMS.json document; the first problem is the error.
    pub fn from_json(bytes: &[u8]) -> Result<Params, ParamsError> {
        Params::from_json_all(bytes).map_err(|mut errors| errors.swap_remove(0))
    }

    /// Reads a PARAMS.json document and reports every problem (each bad key
    /// once), for `validate`. The error list is never empty.
    pub fn from_json_all(bytes: &[u8]) -> Result<Params, Vec<ParamsError>> {
        Params::from_json_all_over(bytes, Params::default())
    }

    /// [`Params::from_json_all`] over other defaults: what the document does
    /// not set keeps `base`'s value (e.g. a release's defaults:
    /// `libtpu::releases::LibtpuVersion::default_params`).
    pub fn from_json_all_over(bytes: &[u8], base: Params) -> Result<Params, Vec<ParamsError>> {
        let root = parse_json(bytes).map_err(|e| {
            vec![match e {
                JsonSyntaxError::Malformed { path, message, .. } => {
                    ParamsError::Json { path, message }
                }
                JsonSyntaxError::DuplicateKey { path, key } => {
                    ParamsError::DuplicateKey { path, key }
                }
            }]
        })?;
        let JsonValue::Object(members) = root else {
            return Err(vec![ParamsError::NotAnObject {
                found: root.kind().to_string(),
            }]);
        };
        let mut p = base;
        let mut errors = Vec::new();
        for (key, value) in &members {
            if let Err(e) = p.set(key, value) {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(p)
        } else {
            Err(errors)
        }
    }

    fn set(&mut self, key: &str, v: &JsonValue) -> Result<(), ParamsError> {
        let null = matches!(v, JsonValue::Null);
        let Some(param) = ParamKey::parse(key) else {
            return Err(ParamsError::UnknownKey {
                key: key.to_string(),
                suggestion: closest_key(key).to_string(),
            });
        };
        let int = |v: &JsonValue| get_int(param, key, v);
        let flag = |v: &JsonValue| get_bool(param, key, v);
        match param {
            ParamKey::KernelName => {
                self.kernel_name = if null {
                    None
                } else {
                    Some(get_str(param, v)?.to_string())
                }
            }
            ParamKey::Metadata => {
                self.metadata = if null {
                    None
                } else {
                    check_finite(v, &JsonPath::root().key(key))?;
                    Some(get_object(param, v)?.to_vec())
                }
            }
            ParamKey::CostEstimate => {
                self.cost_estimate = if null { None } else { Some(cost_estimate(v)?) }
            }
            ParamKey::VmemLimitBytes => {
                self.vmem_limit_bytes = match v {
                    JsonValue::Null => None,
                    JsonValue::Bool(_) => Some(int(v)?),
                    JsonValue::Number(n) if n.is_integer() => Some(int(v)?),
                    // JAX's own message for any other type.
                    other => {
                        let python_type = other.python_type().to_string();
                        return Err(ParamsError::VmemLimitNotInt { python_type });
                    }
                }
            }
            ParamKey::Flags => self.flags = flags(v)?,
            ParamKey::AllowInputFusion => {
                self.allow_input_fusion = if null {
                    None
                } else {
                    let items = get_array(param, key, v)?;
                    Some(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, b)| get_bool(param, &format!("{key}[{i}]"), b))
                            .collect::<Result<_, _>>()?,
                    )
                }
            }
            ParamKey::InputOutputAliases => {
                let mut pairs = Vec::new();
                if let JsonValue::Object(members) = v {
                    // Pallas's spelling: `{"operand": result}`.
                    for (operand, result) in members {
                        let field = format!("{key}.{operand}");
                        let index =
                            operand
                                .parse::<usize>()
                                .map_err(|_| ParamsError::WrongParamType {
                                    key: param,
                                    field: field.clone(),
                                    expected: "an operand index as the key".to_string(),
                                    found: format!("{operand:?}"),
                                })?;
                        pairs.push((index, get_index(param, &field, result)?));
                    }
                } else if !null {
                    for (i, pair) in get_array(param, key, v)?.iter().enumerate() {
                        let field = format!("{key}[{i}]");
                        let items = get_array(param, &field, pair)?;
                        if items.len() != 2 {
                            return Err(ParamsError::WrongParamType {
                                key: param,
                                field,
                                expected: "an [operand, result] pair".to_string(),
                                found: format!("an array of {} entries", items.len()),
                            });
                        }
                        pairs.push((
                            get_index(param, &format!("{field}[0]"), &items[0])?,
                            get_index(param, &format!("{field}[1]"), &items[1])?,
                        ));
                    }
                }
                self.input_output_aliases = pairs;
            }
            ParamKey::InternalScratchInBytes => {
                self.internal_scratch_in_bytes = if null { None } else { Some(int(v)?) }
            }
            ParamKey::CollectiveId => self.collective_id = if null { None } else { Some(int(v)?) },
            ParamKey::AllowCollectiveIdWithoutCustomBarrier => {
                self.allow_collective_id_without_custom_barrier = flag(v)?
            }
            ParamKey::HasSideEffects => {
                let kind = match v {
                    JsonValue::Bool(false) => Some(SideEffect::Pure),
                    JsonValue::Bool(true) => Some(SideEffect::SideEffecting),
                    JsonValue::String(s) => SideEffect::parse(s),
                    _ => None,
                };
                self.has_side_effects = match kind {
                    Some(kind) => kind,
                    None => {
                        return Err(ParamsError::InvalidSideEffect {
                            value: v.python_str(),
                        });
                    }
                }
            }
            ParamKey::SerializationFormat => {
                self.serialization_format = if null { None } else { Some(int(v)?) }
            }
            ParamKey::OutputMemorySpaces => self.output_memory_spaces = memory_spaces(param, v)?,
            ParamKey::InputMemorySpaces => self.input_memory_spaces = memory_spaces(param, v)?,
            ParamKey::DisableBoundsChecks => self.disable_bounds_checks = flag(v)?,
            ParamKey::DisableSemaphoreChecks => self.disable_semaphore_checks = flag(v)?,
            ParamKey::SkipDeviceBarrier => self.skip_device_barrier = flag(v)?,
            ParamKey::ShapeInvariantNumerics => self.shape_invariant_numerics = flag(v)?,
            ParamKey::NeedsLayoutPasses => self.needs_layout_passes = flag(v)?,
            ParamKey::NeedsHloPasses => self.needs_hlo_passes = flag(v)?,
            ParamKey::Tiling => {
                self.tiling =
                    if null {
                        None
                    } else {
                        let s = get_str(param, v)?;
                        Some(Tiling::parse(s).ok_or_else(|| {
                            not_one_of(param, "\"compact\" or \"sparse_core\"", s)
                        })?)
                    }
            }
            ParamKey::UseTcTilingOnSc => {
                self.use_tc_tiling_on_sc = if null { None } else { Some(flag(v)?) }
            }
            ParamKey::OptLevel => {
                self.opt_level =
                    if null {
                        None
                    } else {
                        let s = get_str(param, v)?;
                        Some(OptLevel::parse(s).ok_or_else(|| {
                            not_one_of(param, "\"O0\", \"O1\", \"O2\" or \"O3\"", s)
                        })?)
                    }
            }
            ParamKey::ForwardCompatible => self.forward_compatible = flag(v)?,
            ParamKey::IrVersion => {
                self.ir_version = if null {
                    None
                } else {
                    let n = int(v)?;
                    Some(u32::try_from(n).map_err(|_| ParamsError::WrongParamType {
                        key: param,
                        field: key.to_string(),
                        expected: "a serde version (0..=4294967295) or null".to_string(),
                        found: n.to_string(),
                    })?)
                }
            }
            ParamKey::DebugLocations => {
                self.debug_locations = if null {
                    None
                } else {
                    let s = get_str(param, v)?;
                    Some(DebugLocations::parse(s).ok_or_else(|| {
                        not_one_of(param, "\"unzip\", \"inline\" or \"strip\"", s)
                    })?)
                }
            }
        }
        Ok(())
    }

    /// JAX's `use_core_ids`: on unless forward compatible (export).
    pub fn use_core_ids(&self) -> bool {
        !self.forward_compatible
    }

    /// The debug-location mode in effect: the explicit one, else unzip
    /// (inline when forward compatible, as JAX's export does).
    pub fn effective_debug_locations(&self) -> DebugLocations {
        self.debug_locations.unwrap_or(if self.forward_compatible {
            DebugLocations::Inline
        } else {
            DebugLocations::Unzip
        })
    }

    /// The canonical PARAMS.json: pretty (2-space indent), keys in
    /// [`PARAM_KEYS`] order, only those that differ from the defaults, so
    /// that `Params::from_json(p.to_json()) == p`.
    pub fn to_json(&self) -> String {
        use serde_json::{Map, Value};
        let d = Params::default();
        let mut m = Map::new();
        let int = |v: i64| Value::from(v);
        let spaces = |list: &Option<Vec<Option<MemorySpace>>>| match list {
            None => Value::Null,
            Some(list) => Value::Array(
                list.iter()
                    .map(|m| m.map_or(Value::Null, |m| Value::String(m.param_name())))
                    .collect(),
            ),
        };
        if let Some(name) = &self.kernel_name {
            m.insert(
                ParamKey::KernelName.name().into(),
                Value::String(name.clone()),
            );
        }
        if let Some(meta) = &self.metadata {
            m.insert(
                ParamKey::Metadata.name().into(),
                to_serde(&JsonValue::Object(meta.clone())),
            );
        }
        if let Some(c) = &self.cost_estimate {
            let mut o = Map::new();
            o.insert("flops".into(), int(c.flops));
            o.insert("transcendentals".into(), int(c.transcendentals));
            o.insert("bytes_accessed".into(), int(c.bytes_accessed));
            o.insert(
                "remote_bytes_transferred".into(),
                int(c.remote_bytes_transferred),
            );
            m.insert(ParamKey::CostEstimate.name().into(), Value::Object(o));
        }
        if let Some(v) = self.vmem_limit_bytes {
            m.insert(ParamKey::VmemLimitBytes.name().into(), int(v));
        }
        if let Some(flags) = &self.flags {
            let mut o = Map::new();
            for (name, value) in flags {
                let v = match value {
                    FlagValue::Bool(b) => Value::Bool(*b),
                    FlagValue::Int(i) => int(*i),
                    FlagValue::Double(f) => {
                        serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
                    }
                };
                o.insert(name.clone(), v);
            }
            m.insert(ParamKey::Flags.name().into(), Value::Object(o));
        }
        if let Some(list) = &self.allow_input_fusion {
            m.insert(
                ParamKey::AllowInputFusion.name().into(),
                Value::Array(list.iter().map(|b| Value::Bool(*b)).collect()),
            );
        }
        if !self.input_output_aliases.is_empty() {
            m.insert(
                ParamKey::InputOutputAliases.name().into(),
                Value::Array(
                    self.input_output_aliases
                        .iter()
                        .map(|(o, r)| Value::Array(vec![Value::from(*o), Value::from(*r)]))
                        .collect(),
                ),
            );
        }
        if let Some(v) = self.internal_scratch_in_bytes {
            m.insert(ParamKey::InternalScratchInBytes.name().into(), int(v));
        }
        if let Some(v) = self.collective_id {
            m.insert(ParamKey::CollectiveId.name().into(), int(v));
        }
        if self.allow_collective_id_without_custom_barrier {
            m.insert(
                ParamKey::AllowCollectiveIdWithoutCustomBarrier
                    .name()
                    .into(),
                Value::Bool(true),
            );
        }
        if self.has_side_effects != d.has_side_effects {
            m.insert(
                ParamKey::HasSideEffects.name().into(),
                Value::String(self.has_side_effects.name().into()),
            );
        }
        if self.serialization_format != d.serialization_format {
            m.insert(
                ParamKey::SerializationFormat.name().into(),
                self.serialization_format.map_or(Value::Null, int),
            );
        }
        if self.output_memory_spaces.is_some() {
            m.insert(
                ParamKey::OutputMemorySpaces.name().into(),
                spaces(&self.output_memory_spaces),
            );
        }
        if self.input_memory_spaces.is_some() {
            m.insert(
                ParamKey::InputMemorySpaces.name().into(),
                spaces(&self.input_memory_spaces),
            );
        }
        for (key, value, default) in [
            (
                ParamKey::DisableBoundsChecks.name(),
                self.disable_bounds_checks,
                d.disable_bounds_checks,
            ),
            (
                ParamKey::DisableSemaphoreChecks.name(),
                self.disable_semaphore_checks,
                d.disable_semaphore_checks,
            ),
            (
                ParamKey::SkipDeviceBarrier.name(),
                self.skip_device_barrier,
                d.skip_device_barrier,
            ),
            (
                ParamKey::ShapeInvariantNumerics.name(),
                self.shape_invariant_numerics,
                d.shape_invariant_numerics,
            ),
            (
                ParamKey::NeedsLayoutPasses.name(),
                self.needs_layout_passes,
                d.needs_layout_passes,
            ),
            (
                ParamKey::NeedsHloPasses.name(),
                self.needs_hlo_passes,
                d.needs_hlo_passes,
            ),
        ] {
            if value != default {
                m.insert(key.into(), Value::Bool(value));
            }
        }
        if let Some(t) = self.tiling {
            m.insert(
                ParamKey::Tiling.name().into(),
                Value::String(t.param_name().into()),
            );
        }
        if let Some(b) = self.use_tc_tiling_on_sc {
            m.insert(ParamKey::UseTcTilingOnSc.name().into(), Value::Bool(b));
        }
        if let Some(o) = self.opt_level {
            m.insert(
                ParamKey::OptLevel.name().into(),
                Value::String(o.name().into()),
            );
        }
        if self.forward_compatible {
            m.insert(ParamKey::ForwardCompatible.name().into(), Value::Bool(true));
        }
        if self.ir_version != d.ir_version {
            m.insert(
                ParamKey::IrVersion.name().into(),
                self.ir_version.map_or(Value::Null, Value::from),
            );
        }
        if let Some(dl) = self.debug_locations {
            m.insert(
                ParamKey::DebugLocations.name().into(),
                Value::String(dl.name().into()),
            );
        }
        let mut text =
            serde_json::to_string_pretty(&Value::Object(m)).unwrap_or_else(|_| "{}".to_string());
        text.push('\n');
        text
    }
}

/// Our JSON value as a `serde_json` value (numbers keep their value).
fn to_serde(v: &JsonValue) -> serde_json::Value {
    use serde_json::Value;
    match v {
        JsonValue::Null => Value::Null,
        JsonValue::Bool(b) => Value::Bool(*b),
        // Not through serde_json's number parser: without its
        // `float_roundtrip` feature it rounds some literals wrongly (`25e90`
        // became 2.4999999999999997e+91; a params_reader fuzz find).
        // `as_f64` is Rust's correctly rounded parse.
        JsonValue::Number(n) => match (n.as_i64(), n.as_str().parse::<u64>()) {
            (Some(i), _) => Value::from(i),
            (None, Ok(u)) => Value::from(u),
            (None, Err(_)) => {
                serde_json::Number::from_f64(n.as_f64()).map_or(Value::Null, Value::Number)
            }
        },
        JsonValue::String(s) => Value::String(s.clone()),
        JsonValue::Array(items) => Value::Array(items.iter().map(to_serde).collect()),
        JsonValue::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), to_serde(v)))
                .collect(),
        ),
    }
}
