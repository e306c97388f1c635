//! The `backend_config` model (JAX 0.12's `CustomCallBackendConfig`), its
//! byte-exact JSON writer and its reader.
//!
//! - [`BackendConfig`]: every field of JAX's dataclass, typed.
//! - [`BackendConfig::to_json`]: byte-identical to JAX's `to_json`, except
//!   where JAX would write invalid JSON (a non-finite double, a flag name that
//!   is not printable ASCII or needs escaping, an unsupported input memory
//!   space): those are errors here ([`WriteError`]).
//! - [`BackendConfig::from_json`]: reads what JAX writes plus the
//!   protobuf-JSON spellings (camelCase keys, int64 as strings); what it
//!   refuses is a [`ReadError`], with its JSON path.
//!
//! Some fields never reach the JSON (`ir_version`, `active_core_count`
//! except the single-core SparseCore case, `None` entries of memory-space
//! lists...). [`BackendConfig::canonical`] gives the value the JSON can
//! express, and `from_json(to_json(x)) == x.canonical()`; configs built by
//! `validate::lower_config` only differ from their canonical form in
//! `ir_version` and `active_core_count`.

mod error;
pub mod json;
mod read;
mod write;

pub use error::{ReadError, WriteError};
pub use read::{ReadReport, UnknownKey};
pub(crate) use write::flag_name_is_writable;

/// Which TPU core kind a kernel runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// A TensorCore kernel (`tpu.core_type<tc>`).
    TensorCore,
    /// A SparseCore kernel (scalar or vector subcore).
    SparseCore,
}

impl DeviceType {
    /// JAX's `device_type` string (`"tensorcore"`, `"sparsecore"`).
    pub const fn jax_name(self) -> &'static str {
        match self {
            DeviceType::TensorCore => "tensorcore",
            DeviceType::SparseCore => "sparsecore",
        }
    }

    /// The protobuf enum name written in the JSON (`DEVICE_TYPE_SPARSECORE`).
    pub const fn proto_name(self) -> &'static str {
        match self {
            DeviceType::TensorCore => "DEVICE_TYPE_TENSORCORE",
            DeviceType::SparseCore => "DEVICE_TYPE_SPARSECORE",
        }
    }

    /// Parses JAX's name (`tensorcore`) or the protobuf enum name
    /// (`DEVICE_TYPE_SPARSECORE`).
    pub fn parse(name: &str) -> Option<Self> {
        [DeviceType::TensorCore, DeviceType::SparseCore]
            .into_iter()
            .find(|d| d.jax_name() == name || d.proto_name() == name)
    }

    /// Parses a protobuf enum name (`DEVICE_TYPE_SPARSECORE`).
    pub fn from_proto_name(name: &str) -> Option<Self> {
        [DeviceType::TensorCore, DeviceType::SparseCore]
            .into_iter()
            .find(|d| d.proto_name() == name)
    }
}

/// A memory space a kernel operand or result lives in, with the color the TPU
/// compiler reads (JAX's `tpu_custom_call.MemorySpace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemorySpace {
    /// High-bandwidth memory (color 0).
    Hbm,
    /// Vector memory (color 1).
    Vmem,
    /// Semaphore memory (color 2).
    SemaphoreMem,
    /// Scalar memory (color 4).
    Smem,
    /// Host memory (color 5).
    Host,
    /// SparseCore scalar-subcore semaphore memory (color 8).
    ScScalarSemaphoreMem,
    /// SparseCore vector-subcore semaphore memory (color 10).
    ScVectorSemaphoreMem,
    /// SparseCore scalar-subcore SMEM (color 11).
    ScScalarSmem,
    /// SparseCore vector-subcore SMEM (color 12).
    ScVectorSmem,
}

impl MemorySpace {
    /// Every memory space, in JAX's declaration order.
    pub const ALL: [MemorySpace; 9] = [
        MemorySpace::Hbm,
        MemorySpace::Vmem,
        MemorySpace::SemaphoreMem,
        MemorySpace::Smem,
        MemorySpace::Host,
        MemorySpace::ScScalarSemaphoreMem,
        MemorySpace::ScVectorSemaphoreMem,
        MemorySpace::ScScalarSmem,
        MemorySpace::ScVectorSmem,
    ];

    /// The color the TPU compiler reads.
    pub const fn color(self) -> u32 {
        match self {
            MemorySpace::Hbm => 0,
            MemorySpace::Vmem => 1,
            MemorySpace::SemaphoreMem => 2,
            MemorySpace::Smem => 4,
            MemorySpace::Host => 5,
            MemorySpace::ScScalarSemaphoreMem => 8,
            MemorySpace::ScVectorSemaphoreMem => 10,
            MemorySpace::ScScalarSmem => 11,
            MemorySpace::ScVectorSmem => 12,
        }
    }

    /// The memory space of a color (colors 3, 6, 7 and 9 are unused).
    pub fn from_color(color: u64) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| u64::from(m.color()) == color)
    }

    /// JAX's enum member name (`HBM`, `SC_SCALAR_SMEM`), as `str()` prints it
    /// after `MemorySpace.`.
    pub const fn python_name(self) -> &'static str {
        match self {
            MemorySpace::Hbm => "HBM",
            MemorySpace::Vmem => "VMEM",
            MemorySpace::SemaphoreMem => "SEMAPHORE_MEM",
            MemorySpace::Smem => "SMEM",
            MemorySpace::Host => "HOST",
            MemorySpace::ScScalarSemaphoreMem => "SC_SCALAR_SEMAPHORE_MEM",
            MemorySpace::ScVectorSemaphoreMem => "SC_VECTOR_SEMAPHORE_MEM",
            MemorySpace::ScScalarSmem => "SC_SCALAR_SMEM",
            MemorySpace::ScVectorSmem => "SC_VECTOR_SMEM",
        }
    }

    /// The PARAMS.json spelling (`hbm`, `sc_scalar_smem`).
    pub fn param_name(self) -> String {
        self.python_name().to_ascii_lowercase()
    }

    /// Whether only SparseCore kernels can use it (colors 8, 10, 11, 12).
    pub const fn is_sparse_core_only(self) -> bool {
        matches!(
            self,
            MemorySpace::ScScalarSemaphoreMem
                | MemorySpace::ScVectorSemaphoreMem
                | MemorySpace::ScScalarSmem
                | MemorySpace::ScVectorSmem
        )
    }
}

impl std::str::FromStr for MemorySpace {
    type Err = ();

    /// Parses the PARAMS.json spelling, case-insensitively (`hbm`, `VMEM`).
    fn from_str(s: &str) -> Result<Self, ()> {
        Self::ALL
            .into_iter()
            .find(|m| m.python_name().eq_ignore_ascii_case(s))
            .ok_or(())
    }
}

impl std::fmt::Display for MemorySpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.param_name())
    }
}

crate::spelling::spelled!(
    DeviceType,
    "device type",
    jax_name,
    ["tensorcore", "sparsecore"]
);
crate::spelling::spelled!(Tiling, "tiling", param_name, ["compact", "sparse_core"]);
crate::spelling::spelled!(
    OptLevel,
    "SparseCore opt level",
    name,
    ["O0", "O1", "O2", "O3"]
);

/// SparseCore tiling (JAX's `tpu_custom_call.Tiling`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiling {
    /// `TILING_COMPACT` (TensorCore tiling on SparseCore; the default).
    Compact,
    /// `TILING_SPARSE_CORE`.
    SparseCore,
}

impl Tiling {
    /// The value written in `sparse_core_config.tiling`.
    pub const fn proto_name(self) -> &'static str {
        match self {
            Tiling::Compact => "TILING_COMPACT",
            Tiling::SparseCore => "TILING_SPARSE_CORE",
        }
    }

    /// The PARAMS.json spelling (`compact`, `sparse_core`).
    pub const fn param_name(self) -> &'static str {
        match self {
            Tiling::Compact => "compact",
            Tiling::SparseCore => "sparse_core",
        }
    }

    /// Parses the JSON value, the PARAMS.json spelling or JAX's member name,
    /// case-insensitively (`TILING_COMPACT`, `compact`, `SPARSE_CORE`).
    pub fn parse(s: &str) -> Option<Self> {
        [Tiling::Compact, Tiling::SparseCore].into_iter().find(|t| {
            s.eq_ignore_ascii_case(t.proto_name()) || s.eq_ignore_ascii_case(t.param_name())
        })
    }
}

/// SparseCore backend optimization level (JAX's `OptLevel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OptLevel {
    /// `O0`.
    O0,
    /// `O1`.
    O1,
    /// `O2`.
    O2,
    /// `O3` (the compiler's own default).
    O3,
}

impl OptLevel {
    /// `"O0"`..`"O3"`.
    pub const fn name(self) -> &'static str {
        match self {
            OptLevel::O0 => "O0",
            OptLevel::O1 => "O1",
            OptLevel::O2 => "O2",
            OptLevel::O3 => "O3",
        }
    }

    /// Parses `O0`..`O3` (also lower-case).
    pub fn parse(s: &str) -> Option<Self> {
        [OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3]
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s))
    }
}

/// JAX's `CostEstimate` (all four fields; Pallas always fills
/// `remote_bytes_transferred`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CostEstimate {
    /// Floating-point operations.
    pub flops: u64,
    /// Transcendental operations.
    pub transcendentals: u64,
    /// Bytes read and written.
    pub bytes_accessed: u64,
    /// Bytes sent to other devices.
    pub remote_bytes_transferred: u64,
}

/// The value of one compiler flag (`flag_configs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FlagValue {
    /// `boolean_value`.
    Bool(bool),
    /// `integer_value` (protobuf int64).
    Int(i64),
    /// `double_value`; must be finite to be written.
    Double(f64),
}

/// JAX 0.12's `CustomCallBackendConfig`, field by field.
///
/// `Default` is what Pallas writes for a TensorCore kernel with default
/// `CompilerParams` and an empty body: `serialization_format` 1,
/// `needs_layout_passes` and `shape_invariant_numerics` true, everything else
/// off.
#[derive(Clone, Debug, PartialEq)]
pub struct BackendConfig {
    /// The serialized Mosaic module (MLIR bytecode), `lowered_module_asm`.
    pub body: Vec<u8>,
    /// The serde version the body was written at (`None`: the pass default,
    /// 18). Not written to the JSON: the body's `stable_mosaic.version` holds it.
    pub ir_version: Option<u32>,
    /// The kernel talks to other devices.
    pub has_communication: bool,
    /// The barrier semaphore's collective id.
    pub collective_id: Option<i32>,
    /// `None` for TensorCore kernels (JAX writes no `device_type` then);
    /// `Some(TensorCore)` writes `DEVICE_TYPE_TENSORCORE` explicitly.
    pub device_type: Option<DeviceType>,
    /// Cost hints for XLA's scheduler.
    pub cost_estimate: Option<CostEstimate>,
    /// Let XLA run HLO passes on the kernel (`jax_mosaic_allow_hlo`).
    pub needs_hlo_passes: bool,
    /// Run Mosaic's layout passes (always true for TensorCore kernels).
    pub needs_layout_passes: bool,
    /// Scoped VMEM limit in bytes (`scoped_memory_configs`).
    pub vmem_limit_bytes: Option<u64>,
    /// Compiler flags, in order.
    pub flags: Option<Vec<(String, FlagValue)>>,
    /// Per operand: may XLA fuse the producer into the kernel.
    pub allow_input_fusion: Option<Vec<bool>>,
    /// Body serialization format (Pallas: 1).
    pub serialization_format: Option<u32>,
    /// Mosaic's internal scratch size.
    pub internal_scratch_in_bytes: Option<u64>,
    /// Per result: its memory space, if constrained.
    pub output_memory_spaces: Option<Vec<Option<MemorySpace>>>,
    /// Turn off bounds checks.
    pub disable_bounds_checks: bool,
    /// Turn off semaphore checks.
    pub disable_semaphore_checks: bool,
    /// Cores used by a core-parallel dimension (only written for a
    /// single-core SparseCore kernel).
    pub active_core_count: Option<u64>,
    /// Per operand: its memory space, if constrained (HBM, VMEM, SMEM only;
    /// SMEM is never written).
    pub input_memory_spaces: Option<Vec<Option<MemorySpace>>>,
    /// Skip the default device barrier.
    pub skip_device_barrier: bool,
    /// Numerics must not depend on shapes (written only when false).
    pub shape_invariant_numerics: bool,
    /// SparseCore tiling (`None` writes `TILING_COMPACT` for SparseCore).
    pub tiling: Option<Tiling>,
    /// SparseCore backend optimization level.
    pub opt_level: Option<OptLevel>,
    /// The unzipped debug locations (MLIR bytecode), written when non-empty.
    pub debug_locations: Option<Vec<u8>>,
    /// `implicit_sharding`, a key of libtpu's backend config beyond JAX's
    /// (an `xla.OpSharding`, next to `custom_call_config`): hand-written
    /// clients write `{"type": "MANUAL"}`. JAX never writes it.
    pub implicit_sharding: Option<ImplicitSharding>,
}

/// How a call's body is written, as libtpu reads it (measured with libtpu
/// 0.0.42.1, 0.0.47.1, 0.0.50.1 and 0.0.52): `serialization_format` 1 means
/// a `mosaic-serde` mangled module (bytecode, or text: libtpu's parser reads
/// both); no `serialization_format` means a plain module, text or bytecode,
/// read as is (its `stable_mosaic.version` is not read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyForm {
    /// `serialization_format` 1, mangled MLIR bytecode: what JAX writes.
    SerdeBytecode,
    /// `serialization_format` 1, mangled MLIR text.
    SerdeText,
    /// No `serialization_format`, plain MLIR text (a hand-written client's
    /// body).
    PlainText,
    /// No `serialization_format`, plain MLIR bytecode.
    PlainBytecode,
}

impl BodyForm {
    /// The body is plain MLIR (no `serialization_format`).
    pub const fn is_plain(self) -> bool {
        matches!(self, BodyForm::PlainText | BodyForm::PlainBytecode)
    }

    /// The body is MLIR text.
    pub const fn is_text(self) -> bool {
        matches!(self, BodyForm::SerdeText | BodyForm::PlainText)
    }

    /// In words, for `inspect`: `MLIR text, no serialization_format`.
    pub const fn describe(self) -> &'static str {
        match self {
            BodyForm::SerdeBytecode => {
                "serialized MLIR bytecode (mosaic-serde), serialization_format 1"
            }
            BodyForm::SerdeText => "serialized MLIR text (mosaic-serde), serialization_format 1",
            BodyForm::PlainText => "MLIR text, no serialization_format",
            BodyForm::PlainBytecode => "MLIR bytecode, no serialization_format",
        }
    }

    /// The name `inspect --json` gives it.
    pub const fn name(self) -> &'static str {
        match self {
            BodyForm::SerdeBytecode => "serde_bytecode",
            BodyForm::SerdeText => "serde_text",
            BodyForm::PlainText => "plain_text",
            BodyForm::PlainBytecode => "plain_bytecode",
        }
    }
}

/// The `implicit_sharding` of a config: an `xla.OpSharding` message as
/// written, checked as libtpu 0.0.50.1 checks it (an object of
/// `OpSharding`'s fields, `type` one of its enum names or a number; it
/// compiles every such value, `MANUAL`, `REPLICATED`, `MAXIMAL`, ... alike).
#[derive(Clone, Debug, PartialEq)]
pub struct ImplicitSharding {
    /// The object as written (written back member for member).
    pub value: json::JsonValue,
}

/// `xla.OpSharding.Type`'s names, as libtpu 0.0.50.1's proto reader knows them.
pub const OP_SHARDING_TYPES: &[&str] = &[
    "REPLICATED",
    "MAXIMAL",
    "TUPLE",
    "OTHER",
    "MANUAL",
    "UNKNOWN",
    "UNREDUCED",
];

/// `xla.OpSharding`'s fields (libtpu 0.0.50.1's descriptor).
pub const OP_SHARDING_FIELDS: &[&str] = &[
    "type",
    "tile_shape",
    "tile_assignment_dimensions",
    "tile_assignment_devices",
    "tuple_shardings",
    "replicate_on_last_tile_dim",
    "metadata",
    "last_tile_dims",
    "iota_reshape_dims",
    "iota_transpose_perm",
    "is_shard_group",
    "shard_group_id",
    "shard_group_type",
    "named_sharding",
];

impl ImplicitSharding {
    /// The `type` as written: an enum name, a number, or `None` (absent:
    /// `REPLICATED`, the proto default).
    pub fn sharding_type(&self) -> Option<String> {
        let json::JsonValue::Object(members) = &self.value else {
            return None;
        };
        members
            .iter()
            .find(|(k, _)| k == "type")
            .map(|(_, v)| match v {
                json::JsonValue::String(s) => s.clone(),
                json::JsonValue::Number(n) => n.as_str().to_string(),
                other => other.kind().to_string(),
            })
    }
}

impl Default for BackendConfig {
    fn default() -> Self {
        BackendConfig {
            body: Vec::new(),
            ir_version: None,
            has_communication: false,
            collective_id: None,
            device_type: None,
            cost_estimate: None,
            needs_hlo_passes: false,
            needs_layout_passes: true,
            vmem_limit_bytes: None,
            flags: None,
            allow_input_fusion: None,
            serialization_format: Some(1),
            internal_scratch_in_bytes: None,
            output_memory_spaces: None,
            disable_bounds_checks: false,
            disable_semaphore_checks: false,
            active_core_count: None,
            input_memory_spaces: None,
            skip_device_barrier: false,
            shape_invariant_numerics: true,
            tiling: None,
            opt_level: None,
            debug_locations: None,
            implicit_sharding: None,
        }
    }
}

impl BackendConfig {
    /// How the body is written ([`BodyForm`]). A `serialization_format`
    /// other than 1 (JAX writes what it is given, e.g. 0) is read as a
    /// mosaic-serde body, as before; libtpu refuses it at compile time
    /// (`Unsupported serialization format: 0`), which validation says.
    pub fn body_form(&self) -> BodyForm {
        let bytecode = self.body.starts_with(crate::kernel::BYTECODE_MAGIC);
        match (self.serialization_format, bytecode) {
            (Some(_), true) => BodyForm::SerdeBytecode,
            (Some(_), false) => BodyForm::SerdeText,
            (None, true) => BodyForm::PlainBytecode,
            (None, false) => BodyForm::PlainText,
        }
    }

    /// Whether this is a SparseCore kernel's config.
    pub fn is_sparse_core(&self) -> bool {
        self.device_type == Some(DeviceType::SparseCore)
    }

    /// The value the JSON can express, i.e. what [`BackendConfig::from_json`]
    /// gives back for [`BackendConfig::to_json`]'s output: `ir_version`
    /// cleared, `active_core_count` kept only as `Some(1)` of a SparseCore
    /// kernel, empty `debug_locations` dropped, memory-space lists without any
    /// written entry dropped and trailing `None`s trimmed (a result list
    /// keeps at least two entries when it was a tuple; SMEM inputs, never
    /// written, become `None`), SparseCore tiling made explicit, and tiling
    /// and opt_level dropped for other kernels.
    pub fn canonical(&self) -> BackendConfig {
        let mut c = self.clone();
        c.ir_version = None;
        if !(c.is_sparse_core() && c.active_core_count == Some(1)) {
            c.active_core_count = None;
        }
        if c.debug_locations.as_ref().is_some_and(Vec::is_empty) {
            c.debug_locations = None;
        }
        if let Some(list) = c.output_memory_spaces.take() {
            let tuple = list.len() > 1;
            let mut list = list;
            if list.iter().any(Option::is_some) {
                while list.len() > if tuple { 2 } else { 1 } && list.last() == Some(&None) {
                    list.pop();
                }
                c.output_memory_spaces = Some(list);
            }
        }
        if let Some(list) = c.input_memory_spaces.take() {
            let mut list: Vec<Option<MemorySpace>> = list
                .into_iter()
                .map(|m| m.filter(|m| *m != MemorySpace::Smem))
                .collect();
            while list.last() == Some(&None) {
                list.pop();
            }
            if !list.is_empty() {
                c.input_memory_spaces = Some(list);
            }
        }
        if c.is_sparse_core() {
            c.tiling.get_or_insert(Tiling::Compact);
        } else {
            c.tiling = None;
            c.opt_level = None;
        }
        c
    }
}
