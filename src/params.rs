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
use crate::config::{ConfigError, FlagValue, MemorySpace, OptLevel, Tiling};

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

/// JAX's forward-compatibility serde version (export mode and CPU hosts).
pub const DEFAULT_IR_VERSION: u32 = 15;

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

/// Every PARAMS.json key, in canonical order.
pub const PARAM_KEYS: [&str; 26] = [
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
];

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
    /// A parameter with an invalid value (JAX's message where JAX has one).
    #[error("{source}")]
    Invalid {
        /// The parameter.
        key: String,
        /// The problem.
        source: ConfigError,
    },
}

impl ParamsError {
    /// The config-layer error inside, for [`ParamsError::Invalid`].
    pub fn config_error(&self) -> Option<&ConfigError> {
        match self {
            ParamsError::Invalid { source, .. } => Some(source),
            _ => None,
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

fn invalid(key: &str, source: ConfigError) -> ParamsError {
    ParamsError::Invalid {
        key: key.to_string(),
        source,
    }
}

fn wrong_type(key: &str, expected: &str, found: &JsonValue) -> ParamsError {
    invalid(
        key,
        ConfigError::WrongParamType {
            field: key.to_string(),
            expected: expected.to_string(),
            found: found.kind().to_string(),
        },
    )
}

fn get_bool(key: &str, v: &JsonValue) -> Result<bool, ParamsError> {
    match v {
        JsonValue::Bool(b) => Ok(*b),
        other => Err(wrong_type(key, "true or false", other)),
    }
}

/// An integer parameter; a bool is our own error (Python would take it as
/// 1/0 and write `True` into the JSON).
fn get_int(key: &str, v: &JsonValue) -> Result<i64, ParamsError> {
    match v {
        JsonValue::Bool(b) => Err(invalid(
            key,
            ConfigError::BoolForInteger {
                field: key.to_string(),
                value: *b,
            },
        )),
        JsonValue::Number(n) if n.is_integer() => n.as_i64().ok_or_else(|| {
            invalid(
                key,
                ConfigError::WrongParamType {
                    field: key.to_string(),
                    expected: "a 64-bit integer".to_string(),
                    found: format!("{} (out of range)", n.as_str()),
                },
            )
        }),
        other => Err(wrong_type(key, "an integer", other)),
    }
}

fn get_index(key: &str, v: &JsonValue) -> Result<usize, ParamsError> {
    let n = get_int(key, v)?;
    usize::try_from(n).map_err(|_| {
        invalid(
            key,
            ConfigError::Negative {
                field: key.to_string(),
                value: n,
            },
        )
    })
}

fn get_str<'v>(key: &str, v: &'v JsonValue) -> Result<&'v str, ParamsError> {
    match v {
        JsonValue::String(s) => Ok(s),
        other => Err(wrong_type(key, "a string", other)),
    }
}

fn get_array<'v>(key: &str, v: &'v JsonValue) -> Result<&'v [JsonValue], ParamsError> {
    match v {
        JsonValue::Array(items) => Ok(items),
        other => Err(wrong_type(key, "an array", other)),
    }
}

fn get_object<'v>(key: &str, v: &'v JsonValue) -> Result<&'v [(String, JsonValue)], ParamsError> {
    match v {
        JsonValue::Object(members) => Ok(members),
        other => Err(wrong_type(key, "an object", other)),
    }
}

fn memory_spaces(
    key: &str,
    v: &JsonValue,
) -> Result<Option<Vec<Option<MemorySpace>>>, ParamsError> {
    if let JsonValue::Null = v {
        return Ok(None);
    }
    let items = get_array(key, v)?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = format!("{key}[{i}]");
        match item {
            JsonValue::Null => out.push(None),
            JsonValue::String(s) => out.push(Some(s.parse::<MemorySpace>().map_err(|()| {
                invalid(
                    key,
                    ConfigError::WrongParamType {
                        field: field.clone(),
                        expected: "a memory space (hbm, vmem, semaphore_mem, smem, host, sc_scalar_semaphore_mem, sc_vector_semaphore_mem, sc_scalar_smem, sc_vector_smem) or null".to_string(),
                        found: format!("{s:?}"),
                    },
                )
            })?)),
            other => return Err(wrong_type(&field, "a memory space name or null", other)),
        }
    }
    Ok(Some(out))
}

fn cost_estimate(key: &str, v: &JsonValue) -> Result<ParamsCostEstimate, ParamsError> {
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
            return Err(invalid(
                key,
                ConfigError::CostEstimateUnknownField {
                    field: name.clone(),
                },
            ));
        };
        values[slot] = Some(match value {
            JsonValue::Number(n) if n.is_integer() => n.as_i64().ok_or_else(|| {
                invalid(
                    key,
                    ConfigError::WrongParamType {
                        field: format!("cost_estimate.{name}"),
                        expected: "a 64-bit integer".to_string(),
                        found: format!("{} (out of range)", n.as_str()),
                    },
                )
            })?,
            JsonValue::Bool(b) => {
                return Err(invalid(
                    key,
                    ConfigError::BoolForInteger {
                        field: format!("cost_estimate.{name}"),
                        value: *b,
                    },
                ));
            }
            other => {
                return Err(invalid(
                    key,
                    ConfigError::CostEstimateNotInt {
                        field: name.clone(),
                        python_type: other.python_type().to_string(),
                        value: other.python_str(),
                    },
                ));
            }
        });
    }
    let [flops, transcendentals, bytes_accessed, remote] = values;
    let need = |v: Option<i64>, f: &str| {
        v.ok_or_else(|| {
            invalid(
                key,
                ConfigError::CostEstimateMissingField {
                    field: f.to_string(),
                },
            )
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
fn check_finite(key: &str, v: &JsonValue, path: &JsonPath) -> Result<(), ParamsError> {
    match v {
        JsonValue::Number(n) if !n.as_f64().is_finite() => Err(invalid(
            key,
            ConfigError::NonFiniteMetadata {
                path: path.clone(),
                value: n.as_str().to_string(),
            },
        )),
        JsonValue::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| check_finite(key, item, &path.index(i))),
        JsonValue::Object(members) => members
            .iter()
            .try_for_each(|(k, item)| check_finite(key, item, &path.key(k))),
        _ => Ok(()),
    }
}

fn flags(key: &str, v: &JsonValue) -> Result<Option<Vec<(String, FlagValue)>>, ParamsError> {
    if let JsonValue::Null = v {
        return Ok(None);
    }
    let members = get_object(key, v)?;
    let mut out = Vec::with_capacity(members.len());
    for (name, value) in members {
        let flag = match value {
            JsonValue::Bool(b) => FlagValue::Bool(*b),
            JsonValue::Number(n) if n.is_integer() => match n.as_i64() {
                Some(i) => FlagValue::Int(i),
                None => {
                    return Err(invalid(
                        key,
                        ConfigError::FlagIntegerOutOfRange {
                            flag: name.clone(),
                            value: n.as_str().to_string(),
                        },
                    ));
                }
            },
            // Found by the `params_reader` fuzz target: `611e309` read as
            // `inf` was written back as `null` (see `mlir-fixtures/fuzz/`).
            JsonValue::Number(n) if !n.as_f64().is_finite() => {
                return Err(invalid(
                    key,
                    ConfigError::NonFiniteFlag {
                        flag: name.clone(),
                        value: python_float_repr(n.as_f64()),
                    },
                ));
            }
            JsonValue::Number(n) => FlagValue::Double(n.as_f64()),
            other => {
                return Err(invalid(
                    key,
                    ConfigError::InvalidFlagValue {
                        flag: name.clone(),
                        value: other.python_str(),
                    },
                ));
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
        let mut p = Params::default();
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
        match key {
            "kernel_name" => {
                self.kernel_name = if null {
                    None
                } else {
                    Some(get_str(key, v)?.to_string())
                }
            }
            "metadata" => {
                self.metadata = if null {
                    None
                } else {
                    check_finite(key, v, &JsonPath::root().key(key))?;
                    Some(get_object(key, v)?.to_vec())
                }
            }
            "cost_estimate" => {
                self.cost_estimate = if null {
                    None
                } else {
                    Some(cost_estimate(key, v)?)
                }
            }
            "vmem_limit_bytes" => {
                self.vmem_limit_bytes = match v {
                    JsonValue::Null => None,
                    JsonValue::Bool(_) => Some(get_int(key, v)?),
                    JsonValue::Number(n) if n.is_integer() => Some(get_int(key, v)?),
                    // JAX's own message for any other type.
                    other => {
                        let python_type = other.python_type().to_string();
                        return Err(invalid(key, ConfigError::VmemLimitNotInt { python_type }));
                    }
                }
            }
            "flags" => self.flags = flags(key, v)?,
            "allow_input_fusion" => {
                self.allow_input_fusion = if null {
                    None
                } else {
                    let items = get_array(key, v)?;
                    Some(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, b)| get_bool(&format!("{key}[{i}]"), b))
                            .collect::<Result<_, _>>()?,
                    )
                }
            }
            "input_output_aliases" => {
                let mut pairs = Vec::new();
                if let JsonValue::Object(members) = v {
                    // Pallas's spelling: `{"operand": result}`.
                    for (operand, result) in members {
                        let field = format!("{key}.{operand}");
                        let index = operand.parse::<usize>().map_err(|_| {
                            invalid(
                                key,
                                ConfigError::WrongParamType {
                                    field: field.clone(),
                                    expected: "an operand index as the key".to_string(),
                                    found: format!("{operand:?}"),
                                },
                            )
                        })?;
                        pairs.push((index, get_index(&field, result)?));
                    }
                } else if !null {
                    for (i, pair) in get_array(key, v)?.iter().enumerate() {
                        let field = format!("{key}[{i}]");
                        let items = get_array(&field, pair)?;
                        if items.len() != 2 {
                            return Err(invalid(
                                key,
                                ConfigError::WrongParamType {
                                    field,
                                    expected: "an [operand, result] pair".to_string(),
                                    found: format!("an array of {} entries", items.len()),
                                },
                            ));
                        }
                        pairs.push((
                            get_index(&format!("{field}[0]"), &items[0])?,
                            get_index(&format!("{field}[1]"), &items[1])?,
                        ));
                    }
                }
                self.input_output_aliases = pairs;
            }
            "internal_scratch_in_bytes" => {
                self.internal_scratch_in_bytes = if null { None } else { Some(get_int(key, v)?) }
            }
            "collective_id" => {
                self.collective_id = if null { None } else { Some(get_int(key, v)?) }
            }
            "allow_collective_id_without_custom_barrier" => {
                self.allow_collective_id_without_custom_barrier = get_bool(key, v)?
            }
            "has_side_effects" => {
                let kind = match v {
                    JsonValue::Bool(false) => Some(SideEffect::Pure),
                    JsonValue::Bool(true) => Some(SideEffect::SideEffecting),
                    JsonValue::String(s) => SideEffect::parse(s),
                    _ => None,
                };
                self.has_side_effects = match kind {
                    Some(kind) => kind,
                    None => {
                        return Err(invalid(
                            key,
                            ConfigError::InvalidSideEffect {
                                value: v.python_str(),
                            },
                        ));
                    }
                }
            }
            "serialization_format" => {
                self.serialization_format = if null { None } else { Some(get_int(key, v)?) }
            }
            "output_memory_spaces" => self.output_memory_spaces = memory_spaces(key, v)?,
            "input_memory_spaces" => self.input_memory_spaces = memory_spaces(key, v)?,
            "disable_bounds_checks" => self.disable_bounds_checks = get_bool(key, v)?,
            "disable_semaphore_checks" => self.disable_semaphore_checks = get_bool(key, v)?,
            "skip_device_barrier" => self.skip_device_barrier = get_bool(key, v)?,
            "shape_invariant_numerics" => self.shape_invariant_numerics = get_bool(key, v)?,
            "needs_layout_passes" => self.needs_layout_passes = get_bool(key, v)?,
            "needs_hlo_passes" => self.needs_hlo_passes = get_bool(key, v)?,
            "tiling" => {
                self.tiling = if null {
                    None
                } else {
                    let s = get_str(key, v)?;
                    Some(Tiling::parse(s).ok_or_else(|| {
                        invalid(
                            key,
                            ConfigError::WrongParamType {
                                field: key.to_string(),
                                expected: "\"compact\" or \"sparse_core\"".to_string(),
                                found: format!("{s:?}"),
                            },
                        )
                    })?)
                }
            }
            "use_tc_tiling_on_sc" => {
                self.use_tc_tiling_on_sc = if null { None } else { Some(get_bool(key, v)?) }
            }
            "opt_level" => {
                self.opt_level = if null {
                    None
                } else {
                    let s = get_str(key, v)?;
                    Some(OptLevel::parse(s).ok_or_else(|| {
                        invalid(
                            key,
                            ConfigError::WrongParamType {
                                field: key.to_string(),
                                expected: "\"O0\", \"O1\", \"O2\" or \"O3\"".to_string(),
                                found: format!("{s:?}"),
                            },
                        )
                    })?)
                }
            }
            "forward_compatible" => self.forward_compatible = get_bool(key, v)?,
            "ir_version" => {
                self.ir_version = if null {
                    None
                } else {
                    let n = get_int(key, v)?;
                    Some(u32::try_from(n).map_err(|_| {
                        invalid(
                            key,
                            ConfigError::WrongParamType {
                                field: key.to_string(),
                                expected: "a serde version (0..=4294967295) or null".to_string(),
                                found: n.to_string(),
                            },
                        )
                    })?)
                }
            }
            "debug_locations" => {
                self.debug_locations = if null {
                    None
                } else {
                    let s = get_str(key, v)?;
                    Some(DebugLocations::parse(s).ok_or_else(|| {
                        invalid(
                            key,
                            ConfigError::WrongParamType {
                                field: key.to_string(),
                                expected: "\"unzip\", \"inline\" or \"strip\"".to_string(),
                                found: format!("{s:?}"),
                            },
                        )
                    })?)
                }
            }
            _ => {
                return Err(ParamsError::UnknownKey {
                    key: key.to_string(),
                    suggestion: closest_key(key).to_string(),
                });
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
            m.insert("kernel_name".into(), Value::String(name.clone()));
        }
        if let Some(meta) = &self.metadata {
            m.insert(
                "metadata".into(),
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
            m.insert("cost_estimate".into(), Value::Object(o));
        }
        if let Some(v) = self.vmem_limit_bytes {
            m.insert("vmem_limit_bytes".into(), int(v));
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
            m.insert("flags".into(), Value::Object(o));
        }
        if let Some(list) = &self.allow_input_fusion {
            m.insert(
                "allow_input_fusion".into(),
                Value::Array(list.iter().map(|b| Value::Bool(*b)).collect()),
            );
        }
        if !self.input_output_aliases.is_empty() {
            m.insert(
                "input_output_aliases".into(),
                Value::Array(
                    self.input_output_aliases
                        .iter()
                        .map(|(o, r)| Value::Array(vec![Value::from(*o), Value::from(*r)]))
                        .collect(),
                ),
            );
        }
        if let Some(v) = self.internal_scratch_in_bytes {
            m.insert("internal_scratch_in_bytes".into(), int(v));
        }
        if let Some(v) = self.collective_id {
            m.insert("collective_id".into(), int(v));
        }
        if self.allow_collective_id_without_custom_barrier {
            m.insert(
                "allow_collective_id_without_custom_barrier".into(),
                Value::Bool(true),
            );
        }
        if self.has_side_effects != d.has_side_effects {
            m.insert(
                "has_side_effects".into(),
                Value::String(self.has_side_effects.name().into()),
            );
        }
        if self.serialization_format != d.serialization_format {
            m.insert(
                "serialization_format".into(),
                self.serialization_format.map_or(Value::Null, int),
            );
        }
        if self.output_memory_spaces.is_some() {
            m.insert(
                "output_memory_spaces".into(),
                spaces(&self.output_memory_spaces),
            );
        }
        if self.input_memory_spaces.is_some() {
            m.insert(
                "input_memory_spaces".into(),
                spaces(&self.input_memory_spaces),
            );
        }
        for (key, value, default) in [
            (
                "disable_bounds_checks",
                self.disable_bounds_checks,
                d.disable_bounds_checks,
            ),
            (
                "disable_semaphore_checks",
                self.disable_semaphore_checks,
                d.disable_semaphore_checks,
            ),
            (
                "skip_device_barrier",
                self.skip_device_barrier,
                d.skip_device_barrier,
            ),
            (
                "shape_invariant_numerics",
                self.shape_invariant_numerics,
                d.shape_invariant_numerics,
            ),
            (
                "needs_layout_passes",
                self.needs_layout_passes,
                d.needs_layout_passes,
            ),
            (
                "needs_hlo_passes",
                self.needs_hlo_passes,
                d.needs_hlo_passes,
            ),
        ] {
            if value != default {
                m.insert(key.into(), Value::Bool(value));
            }
        }
        if let Some(t) = self.tiling {
            m.insert("tiling".into(), Value::String(t.param_name().into()));
        }
        if let Some(b) = self.use_tc_tiling_on_sc {
            m.insert("use_tc_tiling_on_sc".into(), Value::Bool(b));
        }
        if let Some(o) = self.opt_level {
            m.insert("opt_level".into(), Value::String(o.name().into()));
        }
        if self.forward_compatible {
            m.insert("forward_compatible".into(), Value::Bool(true));
        }
        if self.ir_version != d.ir_version {
            m.insert(
                "ir_version".into(),
                self.ir_version.map_or(Value::Null, Value::from),
            );
        }
        if let Some(dl) = self.debug_locations {
            m.insert("debug_locations".into(), Value::String(dl.name().into()));
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
