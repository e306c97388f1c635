//! The inverse of emission: find every `stablehlo.custom_call @tpu_custom_call`
//! in a module and read its attributes back.
//!
//! Modules come as MLIR bytecode, generic-form text, or the pretty-form text
//! JAX prints (`Lowered.as_text()`, `Exported.mlir_module()`), which LLVM 22
//! cannot parse without the StableHLO dialect. For pretty text each
//! `stablehlo.custom_call @tpu_custom_call` statement is located and its
//! attribute dictionary and function type are parsed with MLIR's own attribute
//! and type parsers.

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{Attribute, AttributeLike, OperationRef};

use melior::Context;

use crate::config::json::{JsonValue, parse_json};
use crate::config::{BackendConfig, BodyForm, CostEstimate, ReadReport};
use crate::context::{Diagnostic, capture, join_diagnostics};
use crate::ffi::tcc_operation_get_properties;
use crate::kernel::{BYTECODE_MAGIC, Kernel, KernelError, PrintOptions, string_attr_value};
use crate::params::{DebugLocations, Params, ParamsCostEstimate, SideEffect};
use crate::stablehlo::{CALL_TARGET, CUSTOM_CALL};
pub use crate::stablehlo::{EXPORT_MARKER, PRETTY_DEFAULTS};

/// Errors while finding and reading calls.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The module could not be parsed.
    #[error(transparent)]
    Module(#[from] KernelError),
    /// A StableHLO portable artifact (VHLO bytecode) was given.
    #[error(
        "{source_name}: this is a StableHLO portable artifact (VHLO); decoding those is out of scope: \
         deserialize it to StableHLO first (e.g. `jax.export.deserialize(...).mlir_module()` or `stablehlo-translate --deserialize`)"
    )]
    PortableArtifact {
        /// Name of the input.
        source_name: String,
    },
    /// A `tpu_custom_call` statement in pretty text could not be read.
    #[error(
        "{source_name}:{line}: cannot read this stablehlo.custom_call @tpu_custom_call: {message}"
    )]
    PrettyCall {
        /// Name of the input.
        source_name: String,
        /// 1-based line of the statement.
        line: usize,
        /// What went wrong.
        message: String,
    },
    /// MLIR could not parse an attribute dictionary or type of a call.
    #[error("{source_name}:{line}: cannot parse the {what} of this tpu_custom_call:\n{}", join_diagnostics(.diagnostics))]
    PrettyCallMlir {
        /// Name of the input.
        source_name: String,
        /// 1-based line of the statement.
        line: usize,
        /// `attributes` or `type`.
        what: &'static str,
        /// MLIR's diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
    /// The call's backend config cannot be read.
    #[error(transparent)]
    Config(Box<crate::config::ReadError>),
    /// The call's body cannot be transcoded for this MLIR.
    #[error(transparent)]
    Transcode(Box<crate::bytecode::TranscodeError>),
    /// The call's body cannot be deserialized.
    #[error(transparent)]
    Serde(Box<crate::serde::SerdeError>),
    /// The call's kernel cannot be analysed.
    #[error(transparent)]
    Analysis(Box<crate::analysis::AnalysisError>),
    /// The call's parameters cannot be read back.
    #[error(transparent)]
    Params(Box<crate::params::ParamsError>),
    /// A layouts attribute is not the row-major layouts of its types.
    #[error("`{attribute}` = {actual}, but the row-major layouts of these types are {expected}")]
    LayoutMismatch {
        /// `operand_layouts` or `result_layouts`.
        attribute: &'static str,
        /// The attribute as printed.
        actual: String,
        /// The row-major layouts, printed.
        expected: String,
    },
    /// The backend config has a key JAX 0.12 does not write.
    #[error("backend_config has an unknown key at {path}")]
    UnknownConfigKey {
        /// Where (JSON path).
        path: String,
    },
    /// A `serialization_format` other than 1 whose body does not read as a
    /// serialized one either.
    #[error(
        "serialization_format = {format}: libtpu says \"Unsupported serialization format: {format}\" (write 1 for \
         a mosaic-serde body, or leave the key out for a plain MLIR body); read as a serialized body: {reason}"
    )]
    UnsupportedSerializationFormat {
        /// The format written.
        format: u32,
        /// Why the body does not read as a serialized one.
        reason: String,
    },
    /// A plain body (no `serialization_format`) has no kernel function
    /// libtpu can find.
    #[error(
        "the body has no serialization_format, so libtpu reads it as a plain module, and finds no kernel in it: \
         libtpu says \"No function with tpu.core_type = tc nor a main function found\"; {hint}"
    )]
    PlainBodyWithoutKernel {
        /// How to fix it.
        hint: &'static str,
    },
    /// An attribute of a call has the wrong kind or value.
    #[error("tpu_custom_call #{index}: attribute `{name}` {message}")]
    BadAttribute {
        /// Index of the call in the module.
        index: usize,
        /// The attribute.
        name: String,
        /// What is wrong.
        message: String,
    },
}

impl From<crate::config::ReadError> for DecodeError {
    fn from(e: crate::config::ReadError) -> Self {
        DecodeError::Config(Box::new(e))
    }
}

impl From<crate::bytecode::TranscodeError> for DecodeError {
    fn from(e: crate::bytecode::TranscodeError) -> Self {
        DecodeError::Transcode(Box::new(e))
    }
}

impl From<crate::serde::SerdeError> for DecodeError {
    fn from(e: crate::serde::SerdeError) -> Self {
        DecodeError::Serde(Box::new(e))
    }
}

impl From<crate::analysis::AnalysisError> for DecodeError {
    fn from(e: crate::analysis::AnalysisError) -> Self {
        DecodeError::Analysis(Box::new(e))
    }
}

impl From<crate::params::ParamsError> for DecodeError {
    fn from(e: crate::params::ParamsError) -> Self {
        DecodeError::Params(Box::new(e))
    }
}

/// One `tpu_custom_call` found in a module, with its attributes as MLIR
/// prints them (so they compare with JAX's `custom_calls.json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundCall {
    /// Position among the module's `tpu_custom_call` ops (pre-order).
    pub index: usize,
    /// 1-based line in the input text, when it came from text.
    pub line: Option<usize>,
    /// Operand types (shape operands included), as MLIR prints them.
    pub operand_types: Vec<String>,
    /// Result types.
    pub result_types: Vec<String>,
    /// Every attribute (inherent and discardable), sorted by name, printed.
    pub attributes: Vec<(String, String)>,
    /// The `backend_config` string value.
    pub backend_config: String,
    /// The `kernel_name` string value, if present.
    pub kernel_name: Option<String>,
    /// `mhlo.frontend_attributes` entries with string values.
    pub frontend_attributes: Vec<(String, String)>,
    /// The op is in a module JAX exported ([`EXPORT_MARKER`] on the module,
    /// as `Exported.mlir_module()` has, and as `emit` writes in
    /// forward-compatible mode): it was lowered in forward-compatible mode.
    pub exported: bool,
}

impl FoundCall {
    /// The printed value of an attribute.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The operand types without the shape operands JAX appends for
    /// dynamic result shapes (one per result, when the call has
    /// `indices_of_shape_operands`): what the kernel's arguments match.
    pub fn data_operand_types(&self) -> &[String] {
        let shape = self
            .attribute("indices_of_shape_operands")
            .map_or(0, |_| self.result_types.len());
        &self.operand_types[..self.operand_types.len().saturating_sub(shape)]
    }
}

/// Entries of a dictionary attribute.
pub(crate) fn dictionary_entries<'c>(dict: Attribute<'c>) -> Vec<(String, Attribute<'c>)> {
    // SAFETY: `dict` is valid; the kind is checked before reading entries.
    unsafe {
        let raw = dict.to_raw();
        if raw.ptr.is_null() || !mlir_sys::mlirAttributeIsADictionary(raw) {
            return Vec::new();
        }
        let n = mlir_sys::mlirDictionaryAttrGetNumElements(raw);
        (0..n)
            .map(|i| {
                let named = mlir_sys::mlirDictionaryAttrGetElement(raw, i);
                let name = mlir_sys::mlirIdentifierStr(named.name);
                (
                    crate::ffi::lossy_string(name),
                    Attribute::from_raw(named.attribute),
                )
            })
            .collect()
    }
}

/// Every attribute of `op`, inherent (properties) and discardable, sorted by name.
pub(crate) fn all_attributes<'c>(op: OperationRef<'c, '_>) -> Vec<(String, Attribute<'c>)> {
    // SAFETY: `op` is valid; properties are read as an attribute.
    let properties = unsafe { Attribute::from_raw(tcc_operation_get_properties(op.to_raw())) };
    let mut all = dictionary_entries(properties);
    for (name, attr) in op.attributes() {
        let name = crate::ffi::identifier_str(&name).to_string();
        if !all.iter().any(|(n, _)| *n == name) {
            all.push((name, attr));
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

/// Reads a found op (from a parsed module or a parsed attribute dictionary).
fn read_call(
    index: usize,
    line: Option<usize>,
    attributes: Vec<(String, Attribute<'_>)>,
    operand_types: Vec<String>,
    result_types: Vec<String>,
) -> Result<FoundCall, DecodeError> {
    let bad = |name: &str, message: &str| DecodeError::BadAttribute {
        index,
        name: name.to_string(),
        message: message.to_string(),
    };
    let get = |name: &str| attributes.iter().find(|(n, _)| n == name).map(|(_, a)| *a);
    let backend_config = get("backend_config")
        .ok_or_else(|| bad("backend_config", "is missing"))
        .and_then(|a| {
            crate::kernel::string_attr_bytes(a)
                .ok_or_else(|| bad("backend_config", "is not a string"))
        })
        .and_then(|bytes| {
            // JSON is UTF-8: refuse rather than read a lossy copy.
            String::from_utf8(bytes).map_err(|e| {
                bad(
                    "backend_config",
                    &format!(
                        "is not valid UTF-8 (byte {} of the string); JSON text must be UTF-8",
                        e.utf8_error().valid_up_to()
                    ),
                )
            })
        })?;
    let kernel_name = match get("kernel_name") {
        Some(a) => Some(string_attr_value(a).ok_or_else(|| bad("kernel_name", "is not a string"))?),
        None => None,
    };
    let frontend_attributes = match get("mhlo.frontend_attributes") {
        Some(dict) => dictionary_entries(dict)
            .into_iter()
            .map(|(k, v)| {
                string_attr_value(v).map(|v| (k.clone(), v)).ok_or_else(|| {
                    bad(
                        "mhlo.frontend_attributes",
                        &format!("entry `{k}` is not a string"),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    Ok(FoundCall {
        exported: false,
        index,
        line,
        operand_types,
        result_types,
        attributes: attributes
            .iter()
            .map(|(n, a)| (n.clone(), a.to_string()))
            .collect(),
        backend_config,
        kernel_name,
        frontend_attributes,
    })
}

/// Whether `op` is a `stablehlo.custom_call` targeting `tpu_custom_call`.
pub(crate) fn is_tpu_custom_call(op: OperationRef<'_, '_>) -> bool {
    if crate::ffi::identifier_str(&op.name()) != CUSTOM_CALL {
        return false;
    }
    all_attributes(op).into_iter().any(|(n, a)| {
        n == "call_target_name" && string_attr_value(a).as_deref() == Some(CALL_TARGET)
    })
}

/// Whether `op` sits in a module marked as a JAX export.
fn in_jax_export(op: OperationRef<'_, '_>) -> bool {
    let mut current = Some(op);
    while let Some(op) = current {
        if op.has_attribute(EXPORT_MARKER) {
            return true;
        }
        current = op.parent_operation();
    }
    false
}

/// Finds every `tpu_custom_call` op under `root` (pre-order).
pub fn find_in_operation(root: OperationRef<'_, '_>) -> Result<Vec<FoundCall>, DecodeError> {
    let mut ops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if is_tpu_custom_call(op) {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    ops.into_iter()
        .enumerate()
        .map(|(index, raw)| {
            // SAFETY: `raw` was collected from the live module above.
            let op = unsafe { OperationRef::from_raw(raw) };
            let operand_types = op
                .operands()
                .map(|v| melior::ir::ValueLike::r#type(&v).to_string())
                .collect();
            let result_types = op
                .results()
                .map(|v| melior::ir::ValueLike::r#type(&v).to_string())
                .collect();
            let mut call = read_call(index, None, all_attributes(op), operand_types, result_types)?;
            call.exported = in_jax_export(op);
            Ok(call)
        })
        .collect()
}

/// Finds every `tpu_custom_call` in a module given as bytes: bytecode,
/// generic text, or JAX's pretty text (its call statements are read as text,
/// so any module JAX prints works, whatever other ops it holds; a module
/// without pretty calls is read as [`crate::interop::read_module`] reads it).
pub fn find_calls(
    ctx: &Context,
    bytes: &[u8],
    source_name: &str,
) -> Result<Vec<FoundCall>, DecodeError> {
    if bytes.starts_with(BYTECODE_MAGIC) {
        if is_vhlo(bytes) {
            return Err(DecodeError::PortableArtifact {
                source_name: source_name.to_string(),
            });
        }
        let module = crate::kernel::parse_module(
            ctx,
            bytes,
            source_name,
            crate::kernel::ModuleFormat::Bytecode,
        )?;
        return find_in_operation(module.as_operation());
    }
    let text = std::str::from_utf8(bytes).map_err(|e| KernelError::NotMlir {
        source_name: source_name.to_string(),
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(KernelError::Empty {
            source_name: source_name.to_string(),
        }
        .into());
    }
    if text.contains("stablehlo.custom_call @") {
        // Statements are parsed piece by piece: check the whole text first
        // (a deeply nested attribute overflowed the stack here).
        crate::kernel::check_nesting(bytes, source_name)?;
        let mut calls = find_in_pretty_text(ctx, text, source_name)?;
        let exported = text.contains(EXPORT_MARKER);
        for call in &mut calls {
            call.exported = exported;
        }
        return Ok(calls);
    }
    // The pipeline reader: JAX's pretty text where the dialects here know its
    // syntax, generic text everywhere, and an op it cannot read named with
    // its position (never a bare parse error).
    let module = crate::interop::read_module(ctx, bytes, source_name)?;
    find_in_operation(module.as_operation())
}

/// StableHLO portable artifacts carry the `vhlo` dialect name in their string
/// section.
fn is_vhlo(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    head.windows(5).any(|w| w == b"vhlo\0") || head.windows(10).any(|w| w == b"StableHLO_")
}

/// Finds the `tpu_custom_call` statements of pretty-form text.
fn find_in_pretty_text(
    ctx: &Context,
    text: &str,
    source_name: &str,
) -> Result<Vec<FoundCall>, DecodeError> {
    const NEEDLE: &str = "stablehlo.custom_call @tpu_custom_call(";
    let mut calls = Vec::new();
    let mut search_from = 0;
    while let Some(found) = text[search_from..].find(NEEDLE) {
        let start = search_from + found;
        let line = text[..start].matches('\n').count() + 1;
        let err = |message: &str| DecodeError::PrettyCall {
            source_name: source_name.to_string(),
            line,
            message: message.to_string(),
        };
        // Operands: `(...)`, then optional whitespace, then `{attributes}`.
        let after_name = start + NEEDLE.len() - 1;
        let operands_end =
            matching(text, after_name, b'(', b')').ok_or_else(|| err("unbalanced operand list"))?;
        let rest = &text[operands_end + 1..];
        let dict_start = operands_end + 1 + (rest.len() - rest.trim_start().len());
        if !text[dict_start..].starts_with('{') {
            return Err(err("expected an attribute dictionary after the operands"));
        }
        let dict_end = matching(text, dict_start, b'{', b'}')
            .ok_or_else(|| err("unbalanced attribute dictionary"))?;
        let dict_text = &text[dict_start..=dict_end];
        let rest = text[dict_end + 1..].trim_start();
        let Some(rest) = rest.strip_prefix(':') else {
            return Err(err(
                "expected `:` and the function type after the attributes",
            ));
        };
        let type_start = text.len() - rest.len();
        let type_end = type_start + rest.find('\n').unwrap_or(rest.len());
        let type_text = strip_location(text[type_start..type_end].trim());

        let (dict, diagnostics) = capture(ctx, || Attribute::parse(ctx, dict_text));
        let dict = dict.ok_or_else(|| DecodeError::PrettyCallMlir {
            source_name: source_name.to_string(),
            line,
            what: "attributes",
            diagnostics,
        })?;
        let (ty, diagnostics) = capture(ctx, || melior::ir::Type::parse(ctx, type_text));
        let ty = ty.ok_or_else(|| DecodeError::PrettyCallMlir {
            source_name: source_name.to_string(),
            line,
            what: "type",
            diagnostics,
        })?;
        let (operand_types, result_types) = function_type_parts(ty)
            .ok_or_else(|| err("the trailing type is not a function type"))?;
        // The pretty form prints `@tpu_custom_call` instead of the attribute and
        // leaves out default-valued inherent attributes: put them back, so a
        // call reads the same whichever form it came in.
        let mut attributes = dictionary_entries(dict);
        for (name, default) in PRETTY_DEFAULTS {
            if !attributes.iter().any(|(n, _)| n == name) {
                let (attr, _) = capture(ctx, || Attribute::parse(ctx, default));
                if let Some(attr) = attr {
                    attributes.push((name.to_string(), attr));
                }
            }
        }
        attributes.sort_by(|a, b| a.0.cmp(&b.0));
        calls.push(read_call(
            calls.len(),
            Some(line),
            attributes,
            operand_types,
            result_types,
        )?);
        search_from = type_end;
    }
    Ok(calls)
}

/// Drops a trailing ` loc(...)` from a type text.
fn strip_location(text: &str) -> &str {
    match text.rfind(" loc(") {
        Some(i) => text[..i].trim_end(),
        None => text,
    }
}

/// Inputs and results of a function type, printed.
fn function_type_parts(ty: melior::ir::Type<'_>) -> Option<(Vec<String>, Vec<String>)> {
    let function = melior::ir::r#type::FunctionType::try_from(ty).ok()?;
    let inputs = (0..function.input_count())
        .filter_map(|i| function.input(i).ok())
        .map(|t| t.to_string())
        .collect();
    let results = (0..function.result_count())
        .filter_map(|i| function.result(i).ok())
        .map(|t| t.to_string())
        .collect();
    Some((inputs, results))
}

/// Index of the bracket matching the one at `open_at`, skipping string literals.
pub(crate) fn matching(text: &str, open_at: usize, open: u8, close: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open_at;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b if b == open => depth += 1,
            b if b == close => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A decoded call: where it was, its config, its kernel, and the parameters
/// that reproduce it.
pub struct DecodedCall<'c> {
    /// The op as found (attributes, types).
    pub found: FoundCall,
    /// The backend config read from the op.
    pub config: BackendConfig,
    /// What the reader noticed (unknown keys, spellings).
    pub report: ReadReport,
    /// The Mosaic IR version of the body (`stable_mosaic.version`); for a
    /// plain body, which libtpu reads whatever version it says, the
    /// attribute's integer value, else 0.
    pub ir_version: i64,
    /// How the body is written (JAX's serialized bytecode, or a plain
    /// module in text or bytecode as hand-written clients write it).
    pub body_form: BodyForm,
    /// The body's `stable_mosaic.version` attribute as written (`15 : i64`,
    /// `"1"`), `None` when absent.
    pub version_attribute: Option<String>,
    /// The deserialized kernel, with debug locations re-attached.
    pub kernel: Kernel<'c>,
    /// The PARAMS.json that `emit` needs to reproduce the call.
    pub params: Params,
}

impl std::fmt::Debug for DecodedCall<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecodedCall")
            .field("index", &self.found.index)
            .field("kernel_name", &self.found.kernel_name)
            .field("ir_version", &self.ir_version)
            .finish_non_exhaustive()
    }
}

impl DecodedCall<'_> {
    /// What the call needs of the libtpu that compiles it
    /// ([`crate::libtpu::releases::Needs`]): its body's serialization
    /// version, its `debug_locations` field, MLIR 24 encodings in its body
    /// or debug locations, and for a SparseCore call the form its config
    /// names the core in.
    pub fn libtpu_needs(&self) -> crate::libtpu::releases::Needs {
        let llvm24 = |bytes: &[u8]| crate::bytecode::needs_down(bytes).unwrap_or(false);
        let config = &self.config;
        let debug = config.debug_locations.as_deref().filter(|d| !d.is_empty());
        crate::libtpu::releases::Needs {
            ir_version: u32::try_from(self.ir_version.max(0)).unwrap_or(u32::MAX),
            debug_locations_field: debug.is_some(),
            llvm24_encodings: llvm24(&config.body) || debug.is_some_and(llvm24),
            sparse_core: config.is_sparse_core().then_some(
                if self.report.use_core_ids == Some(true) {
                    crate::libtpu::releases::SparseCore::CoreIds
                } else {
                    crate::libtpu::releases::SparseCore::Megachip
                },
            ),
            opt_level: config.opt_level.filter(|_| config.is_sparse_core()),
            plain_body: self.body_form.is_plain(),
        }
    }

    /// `"tensorcore"` or `"sparsecore"`.
    pub fn device_type_name(&self) -> &'static str {
        if self.config.is_sparse_core() {
            "sparsecore"
        } else {
            "tensorcore"
        }
    }
}

/// Decodes every `tpu_custom_call` of a module (bytecode, generic text, or
/// JAX's pretty text): config, kernel (JAX 0.12 bodies are transcoded for
/// LLVM 22 first), debug locations and the parameters that reproduce it.
pub fn decode_module<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
) -> Result<Vec<DecodedCall<'c>>, DecodeError> {
    let found = find_calls(ctx, bytes, source_name)?;
    found
        .into_iter()
        .map(|call| decode_call(ctx, call))
        .collect()
}

/// Decodes one found call.
pub fn decode_call<'c>(ctx: &'c Context, found: FoundCall) -> Result<DecodedCall<'c>, DecodeError> {
    let (config, report) = BackendConfig::from_json(found.backend_config.as_bytes())?;
    let body_form = config.body_form();
    let (kernel, ir_version) = read_body(ctx, &config, body_form)?;
    let version_attribute = version_attribute(&kernel);
    let params = call_params(&found, &config, &report, body_form, ir_version, &kernel)?;
    Ok(DecodedCall {
        found,
        config,
        report,
        ir_version,
        body_form,
        version_attribute,
        kernel,
        params,
    })
}

/// The kernel of a body in any [`BodyForm`], and its IR version: a
/// serialized body is deserialized (JAX 0.12's encodings transcoded first);
/// a plain one is read as is, its `stable_mosaic.version` left as written.
pub fn read_body<'c>(
    ctx: &'c Context,
    config: &BackendConfig,
    form: BodyForm,
) -> Result<(Kernel<'c>, i64), DecodeError> {
    let debug = config
        .debug_locations
        .as_deref()
        .map(crate::bytecode::down)
        .transpose()?;
    if let Some(format) = config.serialization_format.filter(|f| *f != 1) {
        return read_body_as(ctx, config, form, debug.as_deref()).map_err(|e| {
            DecodeError::UnsupportedSerializationFormat {
                format,
                reason: e.to_string(),
            }
        });
    }
    read_body_as(ctx, config, form, debug.as_deref())
}

fn read_body_as<'c>(
    ctx: &'c Context,
    config: &BackendConfig,
    form: BodyForm,
    debug: Option<&[u8]>,
) -> Result<(Kernel<'c>, i64), DecodeError> {
    match form {
        BodyForm::SerdeBytecode => {
            let body = crate::bytecode::down(&config.body)?;
            let ir_version = crate::serde::body_ir_version(ctx, &body)?;
            let kernel = crate::serde::deserialize(ctx, &body, debug)?;
            Ok((kernel, ir_version))
        }
        BodyForm::SerdeText => {
            let module = crate::kernel::parse_module(
                ctx,
                &config.body,
                "body",
                crate::kernel::ModuleFormat::Text,
            )?;
            let kernel = crate::serde::deserialize_module(ctx, module, debug)?;
            let ir_version = int_version(&kernel).unwrap_or(0);
            Ok((kernel, ir_version))
        }
        BodyForm::PlainText | BodyForm::PlainBytecode => {
            let body = if form == BodyForm::PlainBytecode {
                crate::bytecode::down(&config.body)?
            } else {
                config.body.clone()
            };
            let kernel = Kernel::load(ctx, &body, "body")?;
            check_plain_kernel(&kernel)?;
            let ir_version = int_version(&kernel).unwrap_or(0);
            Ok((kernel, ir_version))
        }
    }
}

/// libtpu's rule for a plain body: a top-level `func.func` named `main` or
/// carrying `tpu.core_type` (measured: a mangled body without
/// `serialization_format`, or a plain one whose only function is `@kern`,
/// is refused).
fn check_plain_kernel(kernel: &Kernel<'_>) -> Result<(), DecodeError> {
    let mut mangled = false;
    let mut found = false;
    {
        use melior::ir::BlockLike as _;
        let block = kernel.module().body();
        let mut op = block.first_operation();
        while let Some(current) = op {
            let name = crate::ffi::identifier_str(&current.name()).to_string();
            mangled |= name.starts_with(crate::serde::MANGLED_PREFIX);
            if name == "func.func" {
                let is_main = current
                    .attribute("sym_name")
                    .ok()
                    .and_then(string_attr_value)
                    .is_some_and(|n| n == "main");
                if is_main || current.has_attribute("tpu.core_type") {
                    found = true;
                }
            }
            op = current.next_in_block();
        }
    }
    if found {
        return Ok(());
    }
    Err(DecodeError::PlainBodyWithoutKernel {
        hint: if mangled {
            "the body is mosaic-serde serialized (its ops are stable_mosaic.*): set serialization_format to 1"
        } else {
            "name the kernel function `main` or give it `tpu.core_type = #tpu.core_type<tc>`"
        },
    })
}

/// The `stable_mosaic.version` attribute of a kernel's module as written
/// (`15 : i64`, `"1"`), if it has one.
fn version_attribute(kernel: &Kernel<'_>) -> Option<String> {
    kernel
        .operation()
        .attribute(crate::serde::VERSION_ATTR)
        .ok()
        .map(|a| a.to_string())
}

/// The integer `stable_mosaic.version` of a kernel's module, if it has one.
fn int_version(kernel: &Kernel<'_>) -> Option<i64> {
    let attr = kernel
        .operation()
        .attribute(crate::serde::VERSION_ATTR)
        .ok()?;
    melior::ir::attribute::IntegerAttribute::try_from(attr)
        .ok()
        .map(|i| i.value())
}

/// What [`reserialize_plain_bodies`] did to one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reserialized {
    /// Position among the module's `tpu_custom_call` ops.
    pub index: usize,
    /// The kernel's `stable_mosaic.version` as it was written (`"1"`), now
    /// replaced by [`Reserialized::ir_version`].
    pub version_attribute: Option<String>,
    /// The serialization version written.
    pub ir_version: u32,
}

/// Re-serializes every plain body (MLIR text or bytecode, no
/// `serialization_format`) of the calls under `root` as JAX writes a body:
/// `mosaic-serde` bytecode (format version 0) at `ir_version`, debug
/// locations stripped (a text body's are positions in the body text),
/// `serialization_format` 1; the config is rewritten as JAX writes it
/// (keys libtpu reads beyond JAX's, `implicit_sharding`, kept). Other calls
/// are left byte for byte. Says what it changed, call by call; on error
/// nothing is rewritten (every new config is made before any is set).
pub fn reserialize_plain_bodies(
    ctx: &Context,
    root: OperationRef<'_, '_>,
    ir_version: u32,
) -> Result<Vec<Reserialized>, DecodeError> {
    let mut ops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if is_tpu_custom_call(op) {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut done = Vec::new();
    let mut rewrites = Vec::new();
    for (index, raw) in ops.into_iter().enumerate() {
        // SAFETY: `raw` was collected from the live module above.
        let op = unsafe { OperationRef::from_raw(raw) };
        let found = read_call(index, None, all_attributes(op), Vec::new(), Vec::new())?;
        let (config, report) = BackendConfig::from_json(found.backend_config.as_bytes())?;
        let bad = |message: String| DecodeError::BadAttribute {
            index,
            name: "backend_config".to_string(),
            message,
        };
        let form = config.body_form();
        if !form.is_plain() {
            continue;
        }
        let (kernel, _) = read_body(ctx, &config, form)?;
        let version_attribute = version_attribute(&kernel);
        let serialized = crate::serde::serialize(
            &kernel,
            &crate::serde::SerializeOptions {
                ir_version,
                debug_locations: DebugLocations::Strip,
                ..crate::serde::SerializeOptions::default()
            },
        )?;
        let mut config = config;
        config.body = serialized.body;
        config.debug_locations = None;
        config.serialization_format = Some(1);
        let json = config
            .to_json(report.use_core_ids_or_default())
            .map_err(|e| bad(e.to_string()))?;
        rewrites.push((op, json));
        done.push(Reserialized {
            index,
            version_attribute,
            ir_version,
        });
    }
    for (op, json) in rewrites {
        crate::ffi::set_attribute_by_name(
            op,
            "backend_config",
            melior::ir::attribute::StringAttribute::new(ctx, &json).into(),
        );
    }
    Ok(done)
}

/// Alias pairs from a printed `output_operand_aliases` attribute.
pub(crate) fn parse_aliases(printed: &str, results: usize) -> Option<Vec<(usize, usize)>> {
    let mut pairs = Vec::new();
    for entry in printed.split("#stablehlo.output_operand_alias<").skip(1) {
        let field = |name: &str| -> Option<&str> {
            let rest = entry.split(name).nth(1)?;
            Some(rest[..rest.find([',', '>'])?].trim())
        };
        let operand: usize = field("operand_index = ")?.parse().ok()?;
        let tuple = field("output_tuple_indices = ")?;
        let tuple = tuple.trim_start_matches('[').trim_end_matches(']').trim();
        let result = if tuple.is_empty() {
            if results > 1 {
                return None;
            }
            0
        } else {
            tuple.parse().ok()?
        };
        pairs.push((operand, result));
    }
    Some(pairs)
}

/// Whether a printed module carries any real location.
fn has_locations(kernel: &Kernel<'_>) -> bool {
    kernel
        .print(PrintOptions {
            generic: true,
            debug_info: true,
        })
        .is_ok_and(|text| {
            text.contains("loc(\"") || text.contains("loc(callsite") || text.contains("loc(fused")
        })
}

/// The parameters that make `emit` reproduce a call.
fn call_params(
    found: &FoundCall,
    config: &BackendConfig,
    report: &ReadReport,
    body_form: BodyForm,
    ir_version: i64,
    kernel: &Kernel<'_>,
) -> Result<Params, DecodeError> {
    let bad = |name: &str, message: String| DecodeError::BadAttribute {
        index: found.index,
        name: name.to_string(),
        message,
    };
    let frontend = |key: &str| {
        found
            .frontend_attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let metadata = match frontend("kernel_metadata") {
        None => None,
        Some(text) => match parse_json(text.as_bytes()) {
            Ok(JsonValue::Object(entries)) => Some(entries),
            _ => {
                return Err(bad(
                    "mhlo.frontend_attributes",
                    format!("kernel_metadata is not a JSON object: {text}"),
                ));
            }
        },
    };
    let has_side_effect = found.attribute("has_side_effect") == Some("true");
    let has_side_effects = match (has_side_effect, frontend("xla_allow_dce_side_effecting_op")) {
        (false, _) => SideEffect::Pure,
        (true, Some("true")) => SideEffect::DataflowSideEffecting,
        (true, _) => SideEffect::SideEffecting,
    };
    let input_output_aliases = match found.attribute("output_operand_aliases") {
        None => Vec::new(),
        Some(printed) => parse_aliases(printed, found.result_types.len()).ok_or_else(|| {
            bad(
                "output_operand_aliases",
                format!("cannot be read: {printed}"),
            )
        })?,
    };
    let (operands, results) = (found.operand_types.len(), found.result_types.len());
    if let Some((operand, result)) = input_output_aliases
        .iter()
        .find(|(o, r)| *o >= operands || *r >= results)
    {
        return Err(bad(
            "output_operand_aliases",
            format!(
                "aliases operand {operand} with result {result}, but the call has {operands} operand(s) \
                 and {results} result(s)"
            ),
        ));
    }
    let facts = crate::analysis::analyze(kernel)?;
    let forward_compatible = found.exported || report.use_core_ids == Some(false);
    let debug_locations = if config.debug_locations.is_some() {
        DebugLocations::Unzip
    } else if has_locations(kernel) {
        DebugLocations::Inline
    } else {
        DebugLocations::Strip
    };
    let default_mode = if forward_compatible {
        DebugLocations::Inline
    } else {
        DebugLocations::Unzip
    };
    let to_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    let sparse_core = config.is_sparse_core();
    Ok(Params {
        kernel_name: found.kernel_name.clone(),
        metadata,
        cost_estimate: config
            .cost_estimate
            .as_ref()
            .map(|c: &CostEstimate| ParamsCostEstimate {
                flops: to_i64(c.flops),
                transcendentals: to_i64(c.transcendentals),
                bytes_accessed: to_i64(c.bytes_accessed),
                remote_bytes_transferred: to_i64(c.remote_bytes_transferred),
            }),
        vmem_limit_bytes: config.vmem_limit_bytes.map(to_i64),
        flags: config.flags.clone(),
        allow_input_fusion: config.allow_input_fusion.clone(),
        input_output_aliases,
        internal_scratch_in_bytes: config.internal_scratch_in_bytes.map(to_i64),
        collective_id: config.collective_id.map(i64::from),
        allow_collective_id_without_custom_barrier: config.collective_id.is_some()
            && !facts.has_custom_barrier,
        has_side_effects,
        // A plain body is emitted as JAX's serialized one (format 1).
        serialization_format: if body_form.is_plain() {
            Some(1)
        } else {
            config.serialization_format.map(i64::from)
        },
        output_memory_spaces: per_value(&config.output_memory_spaces, results),
        input_memory_spaces: per_value(&config.input_memory_spaces, operands),
        disable_bounds_checks: config.disable_bounds_checks,
        disable_semaphore_checks: config.disable_semaphore_checks,
        skip_device_barrier: config.skip_device_barrier,
        shape_invariant_numerics: config.shape_invariant_numerics,
        needs_layout_passes: if sparse_core {
            config.needs_layout_passes
        } else {
            true
        },
        needs_hlo_passes: config.needs_hlo_passes,
        tiling: if sparse_core { config.tiling } else { None },
        use_tc_tiling_on_sc: None,
        opt_level: config.opt_level,
        forward_compatible,
        ir_version: if body_form.is_plain() {
            None
        } else {
            u32::try_from(ir_version).ok()
        },
        debug_locations: (debug_locations != default_mode).then_some(debug_locations),
    })
}

/// A memory-space list of the config as PARAMS.json's per-operand (or
/// per-result) list: the config names only the values with a color, so a
/// list that stops before the last value is completed with `null` (JAX's
/// `input_memory_spaces` has one entry per operand: `tpu_pallas_async_test.py`
/// passes a semaphore after its last colored operand).
fn per_value(
    list: &Option<Vec<Option<crate::config::MemorySpace>>>,
    values: usize,
) -> Option<Vec<Option<crate::config::MemorySpace>>> {
    list.as_ref().map(|list| {
        let mut list = list.clone();
        if list.len() < values {
            list.resize(values, None);
        }
        list
    })
}
