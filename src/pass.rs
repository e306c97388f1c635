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
use mlir_sys::{MlirOperation, MlirStringRef};

use crate::bytecode::Encodings;
use crate::decode::{all_attributes, dictionary_entries};
use crate::emit;
use crate::error::Error;
use crate::kernel::{Kernel, string_attr_value};
use crate::lower::{self, LowerOptions};
use crate::params::Params;
use crate::target::Chip;

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
    /// `compile` (verify pass): also compile the module with libtpu for
    /// `target` ([`crate::compile`]).
    pub compile: bool,
}

impl PassOptions {
    /// Reads the `key=value` lines the C++ pass hands over.
    fn parse(text: &str) -> Result<Self, String> {
        let mut options = PassOptions::default();
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (key, value) = line.split_once('=').unwrap_or((line, ""));
            match key {
                "ir-version" => {
                    options.ir_version = Some(
                        value
                            .parse()
                            .map_err(|_| format!("ir-version={value} is not a version number"))?,
                    )
                }
                "debug-locations" => {
                    options.debug_locations =
                        Some(crate::params::DebugLocations::parse(value).ok_or_else(|| {
                            format!("debug-locations={value}: expected unzip, inline or strip")
                        })?)
                }
                "target" => {
                    options.target = Some(
                        value
                            .parse()
                            .map_err(|e: crate::target::TargetError| e.to_string())?,
                    )
                }
                "producer" => options.producer = Some(value.to_string()),
                "compile" => options.compile = value == "1",
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        Ok(options)
    }
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
fn placeholder_params(op: OperationRef<'_, '_>) -> Result<(String, Params), Error> {
    let mut kernel = None;
    let mut object = serde_json::Map::new();
    for (name, attr) in all_attributes(op) {
        if name == "kernel" {
            // SAFETY: kind checked before reading the symbol.
            let symbol = unsafe {
                let raw = attr.to_raw();
                mlir_sys::mlirAttributeIsAFlatSymbolRef(raw).then(|| {
                    let s = mlir_sys::mlirFlatSymbolRefAttrGetValue(raw);
                    String::from_utf8_lossy(std::slice::from_raw_parts(
                        s.data as *const u8,
                        s.length,
                    ))
                    .into_owned()
                })
            };
            kernel = Some(symbol.ok_or_else(|| {
                placeholder_error(format!(
                    "`kernel = {attr}` must be a symbol reference (`kernel = @name`)"
                ))
            })?);
            continue;
        }
        check_attribute_kind(&name, attr).map_err(placeholder_error)?;
        let value = attribute_json(attr)
            .map_err(|e| placeholder_error(format!("parameter `{name}`: {e}")))?;
        object.insert(name, value);
    }
    let kernel =
        kernel.ok_or_else(|| placeholder_error("has no `kernel = @name` attribute".to_string()))?;
    let json = serde_json::Value::Object(object).to_string();
    let params = Params::from_json(json.as_bytes())?;
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

fn placeholder_error(message: String) -> Error {
    Error::Pass(format!("{PLACEHOLDER}: {message}"))
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
        if current.name().as_string_ref().as_str() == Ok("builtin.module")
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
    let mut placeholders = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok(PLACEHOLDER) {
            placeholders.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let kernels = nested_kernels(module);
    let mut stats = LowerStats::default();
    // Loaded kernels (standalone clones) and serialized bodies, shared.
    let mut loaded: HashMap<String, Kernel<'c>> = HashMap::new();
    let mut cache = lower::BodyCache::default();
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
            &mut cache,
        ) {
            Ok(Some(new_op)) => built.push((*raw, new_op)),
            Ok(None) => {}
            Err(error) => errors.push(PassError { location, error }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    stats.serializations = cache.serializations;
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

unsafe extern "C" {
    fn tcc_register_passes();
    fn tcc_create_lower_pass() -> mlir_sys::MlirPass;
    fn tcc_create_verify_pass() -> mlir_sys::MlirPass;
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

fn emit_error(location: Location<'_>, message: &str) {
    let message = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the location is live; the message is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) };
}

/// Called by the C++ passes (cpp/passes.cpp).
#[unsafe(no_mangle)]
extern "C" fn tcc_rust_run_pass(kind: i32, op: MlirOperation, options: MlirStringRef) -> bool {
    // SAFETY: the pass manager hands a live module op and a valid string.
    let (module, options) = unsafe {
        (
            OperationRef::from_raw(op),
            String::from_utf8_lossy(std::slice::from_raw_parts(
                options.data as *const u8,
                options.length,
            ))
            .into_owned(),
        )
    };
    let ctx_ref = module.context();
    // SAFETY: the context outlives the pass run.
    let ctx = unsafe { ctx_ref.to_ref() };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let options = match PassOptions::parse(&options) {
            Ok(o) => o,
            Err(message) => {
                emit_error(
                    module.location(),
                    &format!("tpu-custom-call pass options: {message}"),
                );
                return false;
            }
        };
        match kind {
            0 => match lower_module_all(ctx, module, &options) {
                Ok(_) => true,
                Err(errors) => {
                    for e in errors {
                        emit_error(e.location, &e.error.to_string());
                    }
                    false
                }
            },
            _ => {
                let mut problems = verify_module(ctx, module, options.target);
                if problems.is_empty()
                    && options.compile
                    && let Some(message) = crate::compile::check_operation(module, options.target)
                {
                    problems.push((module.location(), message));
                }
                for (location, message) in &problems {
                    emit_error(*location, message);
                }
                problems.is_empty()
            }
        }
    }));
    result.unwrap_or_else(|_| {
        emit_error(
            module.location(),
            "tpu-custom-call pass: internal error (panic)",
        );
        false
    })
}

/// Decodes and validates every `tpu_custom_call` under `module`; returns each
/// problem with the location of its op.
pub fn verify_module<'c>(
    ctx: &'c melior::Context,
    module: OperationRef<'c, '_>,
    target: Option<Chip>,
) -> Vec<(Location<'c>, String)> {
    let mut ops = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() == Ok("stablehlo.custom_call") {
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
            for message in crate::decode::verify_call(ctx, call, target) {
                problems.push((op.location(), format!("tpu_custom_call: {message}")));
            }
        }
    }
    problems
}

/// Lowers one placeholder into its custom call (not inserted), loading its
/// kernel into `loaded` on first use. `Ok(None)`: the kernel failed to load
/// at an earlier placeholder (reported there).
#[allow(clippy::too_many_arguments)]
fn lower_placeholder<'c>(
    ctx: &'c melior::Context,
    op: OperationRef<'c, '_>,
    options: &PassOptions,
    kernels: &HashMap<String, OperationRef<'c, '_>>,
    loaded: &mut HashMap<String, Kernel<'c>>,
    failed_kernels: &mut std::collections::HashSet<String>,
    cache: &mut lower::BodyCache,
) -> Result<Option<melior::ir::Operation<'c>>, Error> {
    let location = op.location();
    let (kernel_name, mut params) = placeholder_params(op)?;
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
        let kernel = load_kernel(ctx, kernels, &kernel_name).inspect_err(|_| {
            failed_kernels.insert(kernel_name.clone());
        })?;
        loaded.insert(kernel_name.clone(), kernel);
    }
    let kernel = &loaded[&kernel_name];
    let operands: Vec<Value<'c, '_>> = op.operands().collect();
    let result_types: Vec<Type<'c>> = op.results().map(|r| r.r#type()).collect();
    let operand_names: Vec<String> = operands.iter().map(|v| v.r#type().to_string()).collect();
    let result_names: Vec<String> = result_types.iter().map(ToString::to_string).collect();
    let lower_options = LowerOptions {
        target: options.target,
        producer: options.producer.clone(),
        encodings: Encodings::Llvm22,
        jax_rules_only: false,
    };
    let lowered = lower::lower_with_cache(
        kernel,
        &params,
        &operand_names,
        &result_names,
        &lower_options,
        Some(&kernel_name),
        Some(cache),
    )?;
    let new_op = emit::build_custom_call(
        ctx,
        location,
        &operands,
        &[],
        &result_types,
        &lowered.attributes,
    )?;
    Ok(Some(new_op))
}

/// The nested kernel module `@name`, cloned and loaded as a kernel (named
/// `@name` in its errors).
fn load_kernel<'c>(
    ctx: &'c melior::Context,
    kernels: &HashMap<String, OperationRef<'c, '_>>,
    kernel_name: &str,
) -> Result<Kernel<'c>, Error> {
    let nested = kernels.get(kernel_name).ok_or_else(|| {
        placeholder_error(format!(
            "kernel `@{kernel_name}` is not a module nested in this module"
        ))
    })?;
    // SAFETY: the nested module op is valid; the clone is owned.
    let clone =
        unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(nested.to_raw())) };
    let module = Module::from_operation(clone)
        .ok_or_else(|| placeholder_error(format!("`@{kernel_name}` is not a builtin.module")))?;
    let mut kernel = Kernel::from_module_named(ctx, module, &format!("kernel `@{kernel_name}`"))?;
    // Kernels read from standard input: their line numbers (kept for the
    // verifier's messages above) mean nothing in a body's debug locations.
    crate::interop::forget_file_locations(
        &kernel.module_mut().as_operation(),
        crate::interop::STDIN_NAME,
    );
    Ok(kernel)
}
