//! Lowering a kernel call as JAX 0.12 does: analyse the kernel, check it
//! against the target, validate the parameters, serialize the kernel, build the
//! backend config, and emit `stablehlo.custom_call @tpu_custom_call`.
//!
//! Every check runs before anything is written into the caller's IR: a failed
//! lowering leaves the caller's module as it was.

use melior::ir::operation::OperationLike;
use melior::ir::{Location, Module, OperationRef, Type, Value, ValueLike};

use crate::analysis::{self, KernelFacts};
use crate::bytecode::{self, Encodings};
use crate::config::BackendConfig;
use crate::config::json::{JsonValue, write_compact_json};
use crate::emit::{self, CallAttributes, InsertionPoint};
use crate::error::Error;
use crate::kernel::{BytecodeOptions, Kernel};
use crate::libtpu::{self, LibtpuWarning};
use crate::params::Params;
use crate::serde::{self, SerializeOptions};
use crate::target::{Chip, TargetQuery};
use crate::validate;

/// Options of a lowering that are not call parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// The chip to check the kernel and parameters against; `None` behaves
    /// like JAX on a host without a TPU (no chip checks).
    pub target: Option<Chip>,
    /// Producer string of the body and debug-locations bytecode; `None` is
    /// this MLIR's (`MLIR22.1.8`). JAX 0.12 writes `MLIR24.0.0git`.
    pub producer: Option<String>,
    /// Builtin attribute encodings of the body: [`Encodings::Llvm22`] (the
    /// default, readable by every TPU toolchain) or [`Encodings::Llvm24`]
    /// (byte-identical to JAX 0.12's bodies).
    pub encodings: Encodings,
    /// Check only JAX 0.12's rules (and this crate's own), not the rules
    /// libtpu enforces at compile time ([`crate::libtpu`]): emits what JAX
    /// emits even where libtpu would refuse it (JAX's goldens, sweeps).
    pub jax_rules_only: bool,
}

/// Everything a lowering produced, before it is inserted.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// What the analysis found in the kernel.
    pub facts: KernelFacts,
    /// The backend config (body included).
    pub config: BackendConfig,
    /// The op's attributes (the config as JSON among them).
    pub attributes: CallAttributes,
    /// What libtpu compiles but this crate warns about ([`crate::libtpu`]).
    pub warnings: Vec<LibtpuWarning>,
}

/// `_compact_json_object`: sorted keys, `indent=0` newlines, `,`/`:`
/// separators, non-ASCII escaped.
pub(crate) fn compact_json_object(entries: &[(String, JsonValue)]) -> String {
    let mut out = String::new();
    write_compact_json(&mut out, &JsonValue::Object(entries.to_vec()));
    out
}

/// Builds the query the target checks need from the kernel and parameters.
fn target_query(kernel: &Kernel<'_>, facts: &KernelFacts, params: &Params) -> TargetQuery {
    let mut query = TargetQuery::from_facts(facts);
    if let Ok(dims) = analysis::parallel_dims(kernel) {
        query.subcore_count = dims
            .iter()
            .filter_map(|d| d.subcores)
            .filter_map(|n| u64::try_from(n).ok())
            .max();
    }
    query.kernel_memory_spaces = crate::contract::kernel_memory_spaces(kernel);
    query.tensor_cores_per_device = crate::contract::tensor_cores_per_device(facts);
    query.vmem_limit_bytes = params.vmem_limit_bytes;
    query.internal_scratch_in_bytes = params.internal_scratch_in_bytes;
    query.memory_spaces = params
        .input_memory_spaces
        .iter()
        .chain(params.output_memory_spaces.iter())
        .flatten()
        .flatten()
        .copied()
        .collect();
    query
}

/// Key of a serialized body: kernel, IR version, debug-location mode, producer
/// and encodings (everything the body bytes depend on).
type BodyKey = (
    String,
    u32,
    crate::params::DebugLocations,
    Option<String>,
    Encodings,
);

/// Serialized bodies shared by several calls of one kernel.
#[derive(Debug, Default)]
pub struct BodyCache {
    bodies: std::collections::HashMap<BodyKey, (Vec<u8>, Option<Vec<u8>>)>,
    /// Serializations performed (cache misses).
    pub serializations: usize,
}

/// Serializes `kernel` (through `cache` when given) as `params` and
/// `options` ask.
fn serialize_body(
    kernel: &Kernel<'_>,
    key_name: Option<&str>,
    params: &Params,
    options: &LowerOptions,
    cache: Option<&mut BodyCache>,
) -> Result<(Vec<u8>, Option<Vec<u8>>), Error> {
    let ir_version = params.ir_version.unwrap_or(serde::HIGHEST_IR_VERSION);
    let debug_locations = params.effective_debug_locations();
    let key = key_name.map(|name| {
        (
            name.to_string(),
            ir_version,
            debug_locations,
            options.producer.clone(),
            options.encodings,
        )
    });
    if let (Some(cache), Some(key)) = (cache.as_deref(), &key)
        && let Some(hit) = cache.bodies.get(key)
    {
        return Ok(hit.clone());
    }
    let serialized = serde::serialize(
        kernel,
        &SerializeOptions {
            ir_version,
            debug_locations,
            bytecode: BytecodeOptions {
                version: Some(0),
                producer: options.producer.clone(),
            },
        },
    )?;
    let body = match options.encodings {
        Encodings::Llvm22 => (serialized.body, serialized.debug_locations),
        Encodings::Llvm24 => (
            bytecode::up(&serialized.body)?,
            serialized
                .debug_locations
                .map(|blob| bytecode::up(&blob))
                .transpose()?,
        ),
    };
    if let (Some(cache), Some(key)) = (cache, key) {
        cache.serializations += 1;
        cache.bodies.insert(key, body.clone());
    }
    Ok(body)
}

/// Lowers one call: everything except inserting the op.
///
/// `operand_types` and `result_types` are the call's (MLIR-printed tensor
/// types); they are checked against the aliases and per-operand lists.
pub fn lower(
    kernel: &Kernel<'_>,
    params: &Params,
    operand_types: &[String],
    result_types: &[String],
    options: &LowerOptions,
) -> Result<Lowered, Error> {
    lower_with_cache(
        kernel,
        params,
        operand_types,
        result_types,
        options,
        None,
        None,
    )
}

/// [`lower`], sharing serialized bodies through `cache` under the kernel's
/// name `cache_key` (calls to one kernel serialize it once).
pub fn lower_with_cache(
    kernel: &Kernel<'_>,
    params: &Params,
    operand_types: &[String],
    result_types: &[String],
    options: &LowerOptions,
    cache_key: Option<&str>,
    cache: Option<&mut BodyCache>,
) -> Result<Lowered, Error> {
    let facts = analysis::analyze(kernel)?;
    if let Some(chip) = options.target {
        chip.check(&target_query(kernel, &facts, params))?;
    }
    validate::check_signature(params, operand_types, result_types)?;
    if let Some(e) = contract_errors(kernel, params, operand_types, result_types, options.target)
        .into_iter()
        .next()
    {
        return Err(e);
    }
    let (body, debug_locations) = serialize_body(kernel, cache_key, params, options, cache)?;
    let config = validate::lower_config(params, &facts, body, debug_locations, params.ir_version)?;
    // libtpu's rules, after JAX's (one hook: `libtpu::check`).
    let libtpu::Findings {
        mut errors,
        warnings,
    } = libtpu::check(
        Some(kernel),
        &facts,
        params,
        config.collective_id.map(i64::from),
        options.target,
    );
    if options.jax_rules_only {
        errors.clear();
    }
    if let Some(first) = errors.into_iter().next() {
        return Err(first.into());
    }
    let backend_config = config.to_json(params.use_core_ids())?;
    let attributes = CallAttributes {
        backend_config,
        kernel_name: params.kernel_name.as_deref().map(emit::sanitize_name),
        kernel_metadata: params.metadata.as_deref().map(compact_json_object),
        side_effect: params.has_side_effects,
        aliases: params
            .input_output_aliases
            .iter()
            .map(|&(o, r)| (o as i64, r as i64))
            .collect(),
        drop_default_attributes: params.forward_compatible,
    };
    Ok(Lowered {
        facts,
        config,
        attributes,
        warnings,
    })
}

/// Lowers one call and inserts the op at `point`, with `operands` (and, when
/// a result shape is dynamic, one shape tensor per result in
/// `shape_operands`). On any error nothing is inserted.
#[allow(clippy::too_many_arguments)]
pub fn emit_call<'c, 'a>(
    kernel: &Kernel<'c>,
    params: &Params,
    point: InsertionPoint<'c, 'a>,
    location: Location<'c>,
    operands: &[Value<'c, 'a>],
    shape_operands: &[Value<'c, 'a>],
    result_types: &[Type<'c>],
    options: &LowerOptions,
) -> Result<OperationRef<'c, 'a>, Error> {
    let operand_types: Vec<String> = operands.iter().map(|v| v.r#type().to_string()).collect();
    let result_type_names: Vec<String> = result_types.iter().map(ToString::to_string).collect();
    let lowered = lower(kernel, params, &operand_types, &result_type_names, options)?;
    let ctx = location.context();
    // SAFETY: the location's context outlives 'c.
    let ctx = unsafe { ctx.to_ref() };
    let op = emit::build_custom_call(
        ctx,
        location,
        operands,
        shape_operands,
        result_types,
        &lowered.attributes,
    )?;
    Ok(emit::insert(point, op)?)
}

/// Lowers one call into a whole module: `func.func public @main(<operand
/// types>) -> <result types>` calling the kernel once (plus one `tensor<rank x
/// i32>` shape argument per result when result shapes are dynamic).
pub fn emit_module<'c>(
    ctx: &'c melior::Context,
    kernel: &Kernel<'c>,
    params: &Params,
    operand_types: &[Type<'c>],
    result_types: &[Type<'c>],
    options: &LowerOptions,
) -> Result<Module<'c>, Error> {
    emit_module_with_warnings(ctx, kernel, params, operand_types, result_types, options)
        .map(|(module, _)| module)
}

/// [`emit_module`], also returning the warnings of the lowering (what libtpu
/// compiles but is likely a mistake, see [`crate::libtpu`]).
pub fn emit_module_with_warnings<'c>(
    ctx: &'c melior::Context,
    kernel: &Kernel<'c>,
    params: &Params,
    operand_types: &[Type<'c>],
    result_types: &[Type<'c>],
    options: &LowerOptions,
) -> Result<(Module<'c>, Vec<LibtpuWarning>), Error> {
    let operand_names: Vec<String> = operand_types.iter().map(ToString::to_string).collect();
    let result_names: Vec<String> = result_types.iter().map(ToString::to_string).collect();
    let lowered = lower(kernel, params, &operand_names, &result_names, options)?;
    let name = format!(
        "jit_{}",
        lowered
            .attributes
            .kernel_name
            .clone()
            .or_else(|| kernel.name().map(|n| emit::sanitize_name(&n)))
            .unwrap_or_else(|| "kernel".to_string())
    );
    let module = emit::build_module(ctx, &name, operand_types, result_types, &lowered.attributes)?;
    debug_assert!(module.as_operation().verify());
    Ok((module, lowered.warnings))
}

/// The call contract ([`crate::contract::check_call`]): the hook `lower` and
/// [`validate_all`] share. Empty when the call matches its kernel (and fits
/// the chip's scoped VMEM).
fn contract_errors(
    kernel: &Kernel<'_>,
    params: &Params,
    operand_types: &[String],
    result_types: &[String],
    target: Option<Chip>,
) -> Vec<Error> {
    match crate::contract::check_call(kernel, operand_types, result_types, params, target) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.into_iter().map(Error::from).collect(),
    }
}

/// Every problem `lower` would meet, not just the first: kernel analysis,
/// target checks, parameter rules and, when the call signature is given, the
/// signature rules. Empty when the call would lower.
pub fn validate_all(
    kernel: Option<&Kernel<'_>>,
    params: &Params,
    signature: Option<(&[String], &[String])>,
    target: Option<Chip>,
) -> Vec<Error> {
    let mut errors: Vec<Error> = Vec::new();
    let facts = match kernel.map(analysis::analyze) {
        Some(Ok(facts)) => facts,
        Some(Err(e)) => {
            errors.push(e.into());
            KernelFacts::default()
        }
        None => KernelFacts::default(),
    };
    if let (Some(chip), Some(kernel)) = (target, kernel) {
        errors.extend(
            chip.check_all(&target_query(kernel, &facts, params))
                .into_iter()
                .map(Error::from),
        );
    } else if let Some(chip) = target {
        let query = TargetQuery {
            vmem_limit_bytes: params.vmem_limit_bytes,
            internal_scratch_in_bytes: params.internal_scratch_in_bytes,
            ..TargetQuery::default()
        };
        errors.extend(chip.check_all(&query).into_iter().map(Error::from));
    }
    // The serde version must be one `serialize` writes (JAX's message above 18).
    match params.ir_version {
        Some(requested) if requested > crate::serde::HIGHEST_IR_VERSION => {
            errors.push(
                crate::serde::SerdeError::VersionTooNew {
                    requested,
                    highest: crate::serde::HIGHEST_IR_VERSION,
                }
                .into(),
            );
        }
        Some(requested) if requested < crate::serde::LOWEST_IR_VERSION => {
            errors.push(
                crate::serde::SerdeError::VersionTooOld {
                    requested,
                    lowest: crate::serde::LOWEST_IR_VERSION,
                }
                .into(),
            );
        }
        _ => {}
    }
    if let (Some(kernel), Some((operands, results))) = (kernel, signature) {
        errors.extend(contract_errors(kernel, params, operands, results, target));
    }
    let config_errors = match signature {
        Some((operands, results)) => validate::validate_all(params, &facts, operands, results),
        None => validate::validate_params(params, &facts),
    };
    errors.extend(config_errors.into_iter().map(Error::from));
    errors.extend(
        libtpu::check(kernel, &facts, params, params.collective_id, target)
            .errors
            .into_iter()
            .map(Error::from),
    );
    errors
}
