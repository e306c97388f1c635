//! MLIR passes for pipelines: `tpu-custom-call-lower` and
//! `tpu-custom-call-verify`.
//!
//! # The kernel-call convention
//!
//! A StableHLO module carries its Mosaic kernels as nested, named
//! `builtin.module`s directly in its body, and calls them with the placeholder
//! op `tpu_custom_call.call`:
//!
//! ```mlir
//! module @jit_f {
//!   module @add_kernel { func.func @add_kernel(...) attributes {...} { ... } }
//!   func.func public @main(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>) -> tensor<8x128xf32> {
//!     %0 = "tpu_custom_call.call"(%x, %y) {kernel = @add_kernel, kernel_name = "add",
//!            vmem_limit_bytes = 33554432 : i64} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
//!     return %0 : tensor<8x128xf32>
//!   }
//! }
//! ```
//!
//! The placeholder's operands and results are the call's; `kernel` (a flat
//! symbol reference) names the nested module; every other attribute is a
//! PARAMS.json parameter with the same name and meaning (strings, integers,
//! floats, booleans, arrays and dictionaries map to their JSON counterparts;
//! `unit` stands for JSON `null`).
//!
//! `tpu-custom-call-lower` serializes each referenced kernel once per IR
//! version and debug-location mode (calls to one kernel share the body),
//! replaces every placeholder with `stablehlo.custom_call @tpu_custom_call`,
//! and removes the nested kernels. It is all-or-nothing: on any error the
//! module is left unchanged and the pass fails with every failing
//! placeholder's error, each at its placeholder's location.

use std::collections::HashMap;
use std::sync::Once;

use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use melior::ir::{Attribute, AttributeLike, Location, Module, Type, Value, ValueLike};
use mlir_sys::MlirOperation;

use crate::bytecode::Encodings;
use crate::decode::{all_attributes, dictionary_entries};
use crate::error::{Error, PlaceholderError};
use crate::ffi::{self, tcc_create_lower_pass, tcc_create_verify_pass, tcc_register_passes};
use crate::kernel::{Kernel, string_attr_value};
use crate::libtpu::releases::LibtpuVersion;
use crate::lower::{LowerOptions, Lowerer};
use crate::params::Params;
use crate::target::Chip;
use crate::validate::{self, Signature};

/// Name of the placeholder op.
pub const PLACEHOLDER: &str = "tpu_custom_call.call";

/// Options of `tpu-custom-call-lower` (pipeline options of the same names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions {
    /// `ir-version`: overrides every placeholder's `ir_version`.
    pub ir_version: Option<u32>,
    /// `debug-locations`: overrides every placeholder's `debug_locations`.
    pub debug_locations: Option<crate::params::DebugLocations>,
    /// `target`: chip to check against.
    pub target: Option<Chip>,
    /// `producer`: producer string of the bodies.
    pub producer: Option<String>,
    /// `jax-rules-only`: check only JAX 0.12's rules (and ours), not
    /// libtpu's ([`validate::ValidateOptions::jax_rules_only`]).
    pub jax_rules_only: bool,
    /// `libtpu-version`: the libtpu release that will compile the calls
    /// (`None`: 0.0.50.1, JAX 0.12's); see [`LowerOptions::libtpu`].
    pub libtpu: Option<LibtpuVersion>,
}

impl PassOptions {
    /// The options the C++ pass hands over, value by value (empty strings
    /// and a negative `ir_version`: not given). A value is never parsed as
    /// more than itself: a newline in `producer` stays in the producer.
    fn from_raw(raw: &ffi::LowerPassOptions) -> Result<Self, String> {
        // SAFETY: the C++ pass hands strings that outlive the pass run.
        let text = |s| String::from_utf8_lossy(unsafe { ffi::bytes(s) }).into_owned();
        let (debug_locations, target, producer, libtpu) = (
            text(raw.debug_locations),
            text(raw.target),
            text(raw.producer),
            text(raw.libtpu_version),
        );
        let mut options = PassOptions {
            ir_version: None,
            debug_locations: None,
            target: parse_target(&target)?,
            producer: (!producer.is_empty()).then_some(producer),
            jax_rules_only: raw.jax_rules_only,
            libtpu: None,
        };
        if !libtpu.is_empty() {
            options.libtpu = Some(
                LibtpuVersion::parse(&libtpu)
                    .map_err(|e| e.to_string().replace("--libtpu-version", "libtpu-version="))?,
            );
        }
        if raw.ir_version != ffi::IR_VERSION_NOT_GIVEN {
            options.ir_version = Some(parse_ir_version(raw.ir_version)?);
        }
        if !debug_locations.is_empty() {
            options.debug_locations = Some(
                crate::params::DebugLocations::parse(&debug_locations).ok_or_else(|| {
                    format!("debug-locations={debug_locations}: expected unzip, inline or strip")
                })?,
            );
        }
        Ok(options)
    }
}

/// The `ir-version` option: a negative value is an error naming the option
/// and the range; a version outside 11..18 gets JAX's message when the body
/// is serialized (`The highest supported version is 18 ...`), as
/// `emit --ir-version` does.
fn parse_ir_version(v: i64) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| {
        format!(
            "ir-version={v} is not a Mosaic IR version: give {}..{} (default: the placeholder's \
             `ir_version`, else 15)",
            crate::serde::LOWEST_IR_VERSION,
            crate::serde::HIGHEST_IR_VERSION
        )
    })
}

/// The `target` option (empty: none).
fn parse_target(text: &str) -> Result<Option<Chip>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|e: crate::target::TargetError| e.to_string())
}

/// What a lowering pass run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LowerStats {
    /// Placeholders replaced.
    pub calls: usize,
    /// Kernel serializations performed (one per kernel, IR version and
    /// debug-location mode).
    pub serializations: usize,
    /// Nested kernel modules removed.
    pub kernels_removed: usize,
}

/// An error of the pass, at the op it concerns.
#[derive(Debug)]
pub struct PassError<'c> {
    /// Where to report it.
    pub location: Location<'c>,
    /// What went wrong.
    pub error: Error,
}

/// Converts an attribute to the JSON value PARAMS.json would hold.
fn attribute_json(attr: Attribute<'_>) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    let raw = attr.to_raw();
    // SAFETY: `attr` is valid; each accessor is used after its kind check.
    unsafe {
        if let Some(s) = string_attr_value(attr) {
            return Ok(Value::String(s));
        }
        if mlir_sys::mlirAttributeIsABool(raw) {
            return Ok(Value::Bool(mlir_sys::mlirBoolAttrGetValue(raw)));
        }
        if mlir_sys::mlirAttributeIsAInteger(raw) {
            return Ok(Value::from(mlir_sys::mlirIntegerAttrGetValueSInt(raw)));
        }
        if mlir_sys::mlirAttributeIsAFloat(raw) {
            let value = mlir_sys::mlirFloatAttrGetValueDouble(raw);
            return serde_json::Number::from_f64(value)
                .map(Value::Number)
                .ok_or_else(|| format!("{value} is not a finite number"));
        }
        if mlir_sys::mlirAttributeIsAUnit(raw) {
            return Ok(Value::Null);
        }
        if mlir_sys::mlirAttributeIsAArray(raw) {
            let n = mlir_sys::mlirArrayAttrGetNumElements(raw);
            return (0..n)
                .map(|i| {
                    attribute_json(Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(
                        raw, i,
                    )))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array);
        }
        if mlir_sys::mlirAttributeIsADictionary(raw) {
            let mut object = serde_json::Map::new();
            for (name, value) in dictionary_entries(attr) {
                object.insert(name, attribute_json(value)?);
            }
            return Ok(Value::Object(object));
        }
    }
    Err(format!("`{attr}` has no PARAMS.json counterpart"))
}

/// The parameters a placeholder holds, and the kernel it names.
fn placeholder_params(
    op: OperationRef<'_, '_>,
    libtpu: &LibtpuVersion,
) -> Result<(String, Params), Error> {
    let mut kernel = None;
    let mut object = serde_json::Map::new();
    for (name, attr) in all_attributes(op) {
        if name == "kernel" {
            // SAFETY: kind checked before reading the symbol.
            let symbol = unsafe {
                let raw = attr.to_raw();
                mlir_sys::mlirAttributeIsAFlatSymbolRef(raw)
                    .then(|| crate::ffi::lossy_string(mlir_sys::mlirFlatSymbolRefAttrGetValue(raw)))
            };
            kernel = Some(symbol.ok_or_else(|| PlaceholderError::KernelNotSymbol {
                attribute: attr.to_string(),
            })?);
            continue;
        }
        check_attribute_kind(&name, attr)
            .map_err(|message| PlaceholderError::AttributeKind { message })?;
        let value = attribute_json(attr).map_err(|message| PlaceholderError::Parameter {
            name: name.clone(),
            message,
        })?;
        object.insert(name, value);
    }
    let kernel = kernel.ok_or(PlaceholderError::MissingKernel)?;
    let json = serde_json::Value::Object(object).to_string();
    let params = Params::from_json_all_over(json.as_bytes(), libtpu.default_params())
        .map_err(|mut errors| errors.swap_remove(0))?;
    Ok((kernel, params))
}

/// What kind of attribute `attr` is, in words (`a string`, `an integer`, ...).
fn attribute_kind(attr: Attribute<'_>) -> &'static str {
    let raw = attr.to_raw();
    // SAFETY: `attr` is valid; only kind predicates are called.
    unsafe {
        if string_attr_value(attr).is_some() {
            "a string"
        } else if mlir_sys::mlirAttributeIsABool(raw) {
            "a boolean"
        } else if mlir_sys::mlirAttributeIsAInteger(raw) {
            "an integer"
        } else if mlir_sys::mlirAttributeIsAFloat(raw) {
            "a float"
        } else if mlir_sys::mlirAttributeIsAUnit(raw) {
            "unit"
        } else if mlir_sys::mlirAttributeIsAArray(raw) {
            "an array"
        } else if mlir_sys::mlirAttributeIsADictionary(raw) {
            "a dictionary"
        } else {
            "an attribute with no PARAMS.json counterpart"
        }
    }
}

/// The placeholder attributes whose PARAMS.json errors are JAX's Python
/// messages (`must be an int: provided with a <class 'str'>`): checked here
/// first, in this project's words, naming the attribute, the expected kind
/// and the given one.
fn check_attribute_kind(name: &str, attr: Attribute<'_>) -> Result<(), String> {
    let integer = |field: &str, attr: Attribute<'_>| {
        let kind = attribute_kind(attr);
        if kind == "an integer" || kind == "unit" {
            Ok(())
        } else {
            Err(format!(
                "`{field}` must be an integer attribute (e.g. `{field} = 1024 : i64`), not {kind} (`{attr}`)"
            ))
        }
    };
    match name {
        "vmem_limit_bytes" => integer(name, attr),
        "cost_estimate" if attribute_kind(attr) == "a dictionary" => {
            for (field, value) in dictionary_entries(attr) {
                if matches!(
                    field.as_str(),
                    "flops" | "transcendentals" | "bytes_accessed" | "remote_bytes_transferred"
                ) {
                    integer(&format!("cost_estimate.{field}"), value)?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Top-level nested modules of `module`, by `sym_name`.
fn nested_kernels<'c, 'a>(module: OperationRef<'c, 'a>) -> HashMap<String, OperationRef<'c, 'a>> {
    let mut kernels = HashMap::new();
    let Ok(region) = module.region(0) else {
        return kernels;
    };
    let Some(block) = melior::ir::RegionLike::first_block(&region) else {
        return kernels;
    };
    let mut op = melior::ir::block::BlockLike::first_operation(&block);
    while let Some(current) = op {
        if crate::ffi::identifier_str(&current.name()) == "builtin.module"
            && let Some(name) = current
                .attribute("sym_name")
                .ok()
                .and_then(string_attr_value)
        {
            kernels.insert(name, current);
        }
        op = current.next_in_block();
    }
    kernels
}

/// Lowers every placeholder of `module` (all or nothing); on failure, the
/// first error (see [`lower_module_all`] for every one).
pub fn lower_module<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    options: &PassOptions,
) -> Result<LowerStats, PassError<'c>> {
    lower_module_all(ctx, module, options).map_err(|mut errors| errors.remove(0))
}

/// Lowers every placeholder of `module` (all or nothing). On failure the
/// module is unchanged and the error is every failing placeholder's, in
/// module order (never empty).
pub fn lower_module_all<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    options: &PassOptions,
) -> Result<LowerStats, Vec<PassError<'c>>> {
    lower_module_warning(ctx, module, options, &mut Vec::new())
}

/// [`lower_module_all`], collecting libtpu's warnings about the calls (each
/// at its placeholder's location) into `warnings`.
fn lower_module_warning<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    options: &PassOptions,
    warnings: &mut Vec<(Location<'c>, String)>,
) -> Result<LowerStats, Vec<PassError<'c>>> {
    let mut placeholders = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if crate::ffi::identifier_str(&op.name()) == PLACEHOLDER {
            placeholders.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let kernels = nested_kernels(module);
    let mut stats = LowerStats::default();
    // Loaded kernels (standalone clones) and serialized bodies, shared.
    let mut loaded: HashMap<String, Kernel<'c>> = HashMap::new();
    let mut lowerer = Lowerer::new(LowerOptions {
        producer: options.producer.clone(),
        encodings: Encodings::Llvm22,
        libtpu: options.libtpu.clone().unwrap_or_default(),
    });
    let mut built = Vec::new();
    let mut errors = Vec::new();
    // Kernels that failed to load: reported at their first placeholder only.
    let mut failed_kernels = std::collections::HashSet::new();
    for raw in &placeholders {
        // SAFETY: collected from the live module above; nothing was mutated.
        let op = unsafe { OperationRef::from_raw(*raw) };
        let location = op.location();
        match lower_placeholder(
            ctx,
            op,
            options,
            &kernels,
            &mut loaded,
            &mut failed_kernels,
            &mut lowerer,
        ) {
            Ok(Some((new_op, found))) => {
                // A release outside the table: said once, at the first call.
                if built.is_empty()
                    && let Some(warning) = options.libtpu.as_ref().and_then(LibtpuVersion::warning)
                {
                    warnings.push((location, warning));
                }
                warnings.extend(found.into_iter().map(|w| (location, w)));
                built.push((*raw, new_op))
            }
            Ok(None) => {}
            Err(found) => {
                errors.extend(found.into_iter().map(|error| PassError { location, error }))
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    stats.serializations = lowerer.serializations();
    // Everything is built: now change the module.
    for (raw, new_op) in built {
        // SAFETY: the placeholder is still live (nothing erased it yet).
        let old = unsafe { OperationRef::from_raw(raw) };
        // A placeholder found by walking the module is in a block.
        let Some(block) = old.block() else { continue };
        let new_ref = block.insert_operation_before(old, new_op);
        for (old_result, new_result) in old.results().zip(new_ref.results()) {
            // SAFETY: both values are live; types are equal by construction.
            unsafe {
                mlir_sys::mlirValueReplaceAllUsesOfWith(old_result.to_raw(), new_result.to_raw())
            };
        }
        // SAFETY: the placeholder has no uses left and is erased once.
        unsafe { mlir_sys::mlirOperationDestroy(raw) };
        stats.calls += 1;
    }
    for name in loaded.keys() {
        if let Some(nested) = kernels.get(name) {
            // SAFETY: the nested kernel module is erased once; nothing refers to it.
            unsafe { mlir_sys::mlirOperationDestroy(nested.to_raw()) };
            stats.kernels_removed += 1;
        }
    }
    Ok(stats)
}

/// Registers `tpu-custom-call-lower` and `tpu-custom-call-verify` with MLIR's
/// pass registry (so pipeline strings find them) along with MLIR's own
/// transform passes (`canonicalize`, `cse`, ...). Idempotent.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    // SAFETY: registration runs once; the registry is global.
    ONCE.call_once(|| unsafe {
        mlir_sys::mlirRegisterTransformsPasses();
        tcc_register_passes();
    });
}

/// A new `tpu-custom-call-lower` pass with default options, for a melior
/// `PassManager`.
pub fn create_lower_pass() -> melior::pass::Pass {
    // SAFETY: the C++ side returns a new owned pass.
    unsafe { melior::pass::Pass::from_raw(tcc_create_lower_pass()) }
}

/// A new `tpu-custom-call-verify` pass with default options.
pub fn create_verify_pass() -> melior::pass::Pass {
    // SAFETY: the C++ side returns a new owned pass.
    unsafe { melior::pass::Pass::from_raw(tcc_create_verify_pass()) }
}

/// Emits `message` as a warning diagnostic at `location` (`opt` prints it
/// as `warning: ...`).
fn emit_warning(location: Location<'_>, message: &str) {
    // SAFETY: the location is live; the message is valid for the call.
    unsafe {
        ffi::tcc_emit_warning(
            location.to_raw(),
            mlir_sys::MlirStringRef {
                data: message.as_ptr() as *const std::ffi::c_char,
                length: message.len(),
            },
        )
    };
}

fn emit_error(location: Location<'_>, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location is live; the message is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
}

/// Runs `f` on the module a C++ pass hands over, as one pass run: a panic
/// is reported on the module, not unwound into C++.
fn run_pass(
    op: MlirOperation,
    f: impl FnOnce(&'static melior::Context, OperationRef<'static, 'static>) -> bool,
) -> bool {
    // SAFETY: the pass manager hands a live module op for the pass run.
    let module = unsafe { OperationRef::from_raw(op) };
    let ctx_ref = module.context();
    // SAFETY: the context outlives the pass run (and every use below).
    let ctx = unsafe { ctx_ref.to_ref() };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(ctx, module))).unwrap_or_else(|_| {
        emit_error(
            module.location(),
            "tpu-custom-call pass: internal error (panic)",
        );
        false
    })
}

/// The options the C++ pass handed over, or an error at `module` when there
/// are none.
fn pass_options<'a, T>(module: OperationRef<'_, '_>, options: *const T) -> Option<&'a T> {
    // SAFETY: the C++ pass hands a pointer to options that live for the run
    // (or null, checked here).
    let raw = unsafe { options.as_ref() };
    if raw.is_none() {
        emit_error(
            module.location(),
            "tpu-custom-call pass options: none given",
        );
    }
    raw
}

/// `tpu-custom-call-lower`, called by the C++ pass (cpp/passes.cpp).
#[unsafe(no_mangle)]
extern "C" fn tcc_rust_run_lower_pass(
    op: MlirOperation,
    options: *const ffi::LowerPassOptions,
) -> bool {
    run_pass(op, |ctx, module| {
        let Some(raw) = pass_options(module, options) else {
            return false;
        };
        let options = match PassOptions::from_raw(raw) {
            Ok(o) => o,
            Err(message) => {
                emit_error(
                    module.location(),
                    &format!("tpu-custom-call pass options: {message}"),
                );
                return false;
            }
        };
        let mut warnings = Vec::new();
        let lowered = lower_module_warning(ctx, module, &options, &mut warnings);
        for (location, message) in &warnings {
            emit_warning(*location, message);
        }
        match lowered {
            Ok(_) => true,
            Err(errors) => {
                for e in errors {
                    emit_error(e.location, &e.error.to_string());
                }
                false
            }
        }
    })
}

/// `tpu-custom-call-verify`, called by the C++ pass (cpp/passes.cpp).
#[unsafe(no_mangle)]
extern "C" fn tcc_rust_run_verify_pass(
    op: MlirOperation,
    options: *const ffi::VerifyPassOptions,
) -> bool {
    run_pass(op, |_, module| {
        let Some(raw) = pass_options(module, options) else {
            return false;
        };
        // SAFETY: the C++ pass hands a string that lives for the run.
        let target = String::from_utf8_lossy(unsafe { ffi::bytes(raw.target) }).into_owned();
        let target = match parse_target(&target) {
            Ok(t) => t,
            Err(message) => {
                emit_error(
                    module.location(),
                    &format!("tpu-custom-call pass options: {message}"),
                );
                return false;
            }
        };
        let rules = if raw.jax_rules_only {
            validate::ValidateOptions::jax_rules_only()
        } else {
            validate::ValidateOptions::all_rules()
        };
        let mut warnings = Vec::new();
        // Bodies are decoded in a context of our own: the host's (mlir-opt's,
        // with the plugin) need not allow the unregistered `stable_mosaic`
        // attributes a body carries, and must not be changed by the pass.
        let private = crate::Context::new();
        let mut problems = verify_module_warning(&private, module, target, &rules, &mut warnings);
        for (location, message) in &warnings {
            emit_warning(*location, message);
        }
        if problems.is_empty()
            && raw.compile
            && let Some(message) = compile_check(module, target)
        {
            problems.push((module.location(), message));
        }
        for (location, message) in &problems {
            emit_error(*location, message);
        }
        problems.is_empty()
    })
}

/// The verify pass's `compile=true`: libtpu's verdict on the module, `None`
/// when it compiles.
#[cfg(feature = "pjrt")]
fn compile_check(module: OperationRef<'_, '_>, target: Option<Chip>) -> Option<String> {
    crate::compile::check_operation(module, target)
}

/// Without the `pjrt` feature there is no libtpu to ask: the option is
/// refused rather than silently skipped.
#[cfg(not(feature = "pjrt"))]
fn compile_check(_module: OperationRef<'_, '_>, _target: Option<Chip>) -> Option<String> {
    Some(
        "tpu-custom-call-verify: compile=true needs libtpu, which this build leaves out \
         (build tpu-custom-call with its `pjrt` feature)"
            .to_string(),
    )
}

/// Decodes and validates every `tpu_custom_call` under `module`; returns each
/// problem with the location of its op.
pub fn verify_module<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    target: Option<Chip>,
) -> Vec<(Location<'c>, String)> {
    verify_module_with(ctx, module, target, &validate::ValidateOptions::all_rules())
}

/// [`verify_module`] with the rules of `options` (the pass's
/// `jax-rules-only`: [`validate::ValidateOptions::jax_rules_only`]).
pub fn verify_module_with<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    target: Option<Chip>,
    options: &validate::ValidateOptions,
) -> Vec<(Location<'c>, String)> {
    verify_module_warning(ctx, module, target, options, &mut Vec::new())
}

/// [`verify_module_with`], collecting libtpu's warnings about the calls
/// (each at its op's location) into `warnings`; the calls' bodies are
/// decoded in `ctx`, which need not be the module's.
fn verify_module_warning<'c>(
    ctx: &melior::Context,
    module: OperationRef<'c, '_>,
    target: Option<Chip>,
    options: &validate::ValidateOptions,
    warnings: &mut Vec<(Location<'c>, String)>,
) -> Vec<(Location<'c>, String)> {
    let mut ops = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if crate::ffi::identifier_str(&op.name()) == crate::stablehlo::CUSTOM_CALL {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut problems = Vec::new();
    for raw in ops {
        // SAFETY: collected from the live module; nothing is mutated.
        let op = unsafe { OperationRef::from_raw(raw) };
        let found = match crate::decode::find_in_operation(op) {
            Ok(found) => found,
            Err(e) => {
                problems.push((op.location(), e.to_string()));
                continue;
            }
        };
        for call in found {
            let (errors, found_warnings) = validate::verify_call_with(ctx, call, target, options);
            for message in errors {
                problems.push((op.location(), format!("tpu_custom_call: {message}")));
            }
            warnings.extend(
                found_warnings
                    .into_iter()
                    .map(|w| (op.location(), format!("tpu_custom_call: {w}"))),
            );
        }
    }
    problems
}

/// Lowers one placeholder into its custom call (not inserted), loading its
/// kernel into `loaded` on first use: validated (every problem of the call
/// collected), then built by `lowerer`, with libtpu's warnings about it.
/// `Ok(None)`: the kernel failed to load at an earlier placeholder (reported
/// there).
fn lower_placeholder<'c>(
    ctx: &'c melior::Context,
    op: OperationRef<'c, '_>,
    options: &PassOptions,
    kernels: &HashMap<String, OperationRef<'c, '_>>,
    loaded: &mut HashMap<String, Kernel<'c>>,
    failed_kernels: &mut std::collections::HashSet<String>,
    lowerer: &mut Lowerer,
) -> Result<Option<(melior::ir::Operation<'c>, Vec<String>)>, Vec<Error>> {
    let location = op.location();
    let libtpu = options.libtpu.clone().unwrap_or_default();
    let (kernel_name, mut params) = placeholder_params(op, &libtpu).map_err(|e| vec![e])?;
    if let Some(v) = options.ir_version {
        params.ir_version = Some(v);
    }
    if let Some(d) = options.debug_locations {
        params.debug_locations = Some(d);
    }
    if failed_kernels.contains(&kernel_name) {
        return Ok(None);
    }
    if !loaded.contains_key(&kernel_name) {
        let kernel = load_kernel(ctx, kernels, &kernel_name).map_err(|e| {
            failed_kernels.insert(kernel_name.clone());
            vec![e]
        })?;
        loaded.insert(kernel_name.clone(), kernel);
    }
    let kernel = &loaded[&kernel_name];
    let operands: Vec<Value<'c, '_>> = op.operands().collect();
    let result_types: Vec<Type<'c>> = op.results().map(|r| r.r#type()).collect();
    let operand_types: Vec<Type<'c>> = operands.iter().map(|v| v.r#type()).collect();
    let signature = Signature::new(operand_types, result_types);
    let rules = if options.jax_rules_only {
        validate::ValidateOptions::jax_rules_only()
    } else {
        validate::ValidateOptions::all_rules()
    }
    .with_libtpu(libtpu);
    let call = validate::validate_with(kernel, signature, &params, options.target, &rules)?
        .cached_as(kernel_name.as_str());
    let new_op = lowerer
        .build_call(&call, location, &operands, &[])
        .map_err(|e| vec![e])?;
    let warnings = call.warnings().iter().map(ToString::to_string).collect();
    Ok(Some((new_op, warnings)))
}

/// The nested kernel module `@name`, cloned and loaded as a kernel (named
/// `@name` in its errors).
fn load_kernel<'c>(
    ctx: &'c melior::Context,
    kernels: &HashMap<String, OperationRef<'c, '_>>,
    kernel_name: &str,
) -> Result<Kernel<'c>, Error> {
    let nested = kernels
        .get(kernel_name)
        .ok_or_else(|| PlaceholderError::KernelNotNested {
            kernel: kernel_name.to_string(),
        })?;
    // SAFETY: the nested module op is valid; the clone is owned.
    let clone =
        unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(nested.to_raw())) };
    let module =
        Module::from_operation(clone).ok_or_else(|| PlaceholderError::KernelNotModule {
            kernel: kernel_name.to_string(),
        })?;
    let mut kernel = Kernel::from_module_named(ctx, module, &format!("kernel `@{kernel_name}`"))?;
    // Kernels read from standard input: their line numbers (kept for the
    // verifier's messages above) mean nothing in a body's debug locations.
    crate::interop::forget_file_locations(
        &kernel.module_mut().as_operation(),
        crate::interop::STDIN_NAME,
    );
    Ok(kernel)
}
