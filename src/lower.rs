//! Lowering a validated call as JAX 0.12 does: serialize the kernel, build the
//! backend config, and emit `stablehlo.custom_call @tpu_custom_call`.
//!
//! A [`Lowerer`] holds the options of a lowering and the serialized bodies it
//! shares between calls; it takes only a [`ValidatedCall`] (made by
//! [`crate::validate::validate`]), so nothing reaches the IR unchecked. Every
//! step runs before anything is written into the caller's IR: a failed
//! lowering leaves the caller's module as it was.

use melior::ir::operation::OperationLike;
use melior::ir::{Location, Module, OperationRef, Value, ValueLike};

use crate::analysis::KernelFacts;
use crate::bytecode::{self, Encodings};
use crate::config::BackendConfig;
use crate::config::json::{JsonValue, write_compact_json};
use crate::emit::{self, CallAttributes, EmitError, InsertionPoint};
use crate::error::Error;
use crate::kernel::{BytecodeOptions, Kernel};
use crate::libtpu::releases::LibtpuVersion;
use crate::libtpu::{self, LibtpuWarning};
use crate::params::Params;
use crate::serde::{self, SerializeOptions};
use crate::validate::{self, ValidatedCall};

/// Options of a lowering that are not call parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// Producer string of the body and debug-locations bytecode; `None` is
    /// this MLIR's (`MLIR22.1.8`). JAX 0.12 writes `MLIR24.0.0git`.
    pub producer: Option<String>,
    /// Builtin attribute encodings of the body: [`Encodings::Llvm22`] (the
    /// default, readable by every TPU toolchain) or [`Encodings::Llvm24`]
    /// (byte-identical to JAX 0.12's bodies).
    pub encodings: Encodings,
    /// The libtpu release the calls are for (default 0.0.50.1, JAX 0.12's,
    /// which changes nothing): the serialization version when none is given
    /// (`ir_version: null`: its newest), debug locations inlined where it has
    /// no `debug_locations` field, `megachip_parallelism_config` before
    /// 0.0.50; what it cannot compile is an error ([`libtpu::check_release`])
    /// unless the call was validated with JAX's rules only.
    pub libtpu: LibtpuVersion,
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
    /// What libtpu compiles but this crate warns about ([`crate::libtpu`]),
    /// as validation found it ([`ValidatedCall::warnings`]).
    pub warnings: Vec<LibtpuWarning>,
}

/// `_compact_json_object`: sorted keys, `indent=0` newlines, `,`/`:`
/// separators, non-ASCII escaped.
pub(crate) fn compact_json_object(entries: &[(String, JsonValue)]) -> String {
    let mut out = String::new();
    write_compact_json(&mut out, &JsonValue::Object(entries.to_vec()));
    out
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
struct BodyCache {
    bodies: std::collections::HashMap<BodyKey, (Vec<u8>, Option<Vec<u8>>)>,
    /// Serializations performed (cache misses).
    serializations: usize,
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
    let ir_version = libtpu::ir_version_for(params, &options.libtpu);
    let debug_locations = libtpu::debug_locations_for(params, &options.libtpu);
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

/// Lowers validated calls: holds the options and the serialized bodies
/// shared by calls of one kernel (see [`ValidatedCall::cached_as`]).
#[derive(Debug, Default)]
pub struct Lowerer {
    options: LowerOptions,
    cache: BodyCache,
}

impl Lowerer {
    /// A lowerer with these options.
    pub fn new(options: LowerOptions) -> Self {
        Lowerer {
            options,
            cache: BodyCache::default(),
        }
    }

    /// The options.
    pub fn options(&self) -> &LowerOptions {
        &self.options
    }

    /// Kernel serializations performed so far (calls sharing a cache key
    /// and body settings serialize once).
    pub fn serializations(&self) -> usize {
        self.cache.serializations
    }

    /// Lowers one call: everything except building and inserting the op.
    pub fn lower(&mut self, call: &ValidatedCall<'_, '_>) -> Result<Lowered, Error> {
        let params = call.params();
        if call.libtpu_rules()
            && let Some(error) = libtpu::check_release(
                call.facts(),
                params,
                &self.options.libtpu,
                Some(self.options.encodings),
            )
            .into_iter()
            .next()
        {
            return Err(error.into());
        }
        let (body, debug_locations) = serialize_body(
            call.kernel(),
            call.cache_key(),
            params,
            &self.options,
            Some(&mut self.cache),
        )?;
        let facts = call.facts().clone();
        let config =
            validate::lower_config(params, &facts, body, debug_locations, params.ir_version)?;
        let backend_config =
            config.to_json(libtpu::use_core_ids_for(params, &self.options.libtpu))?;
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
            warnings: call.warnings().to_vec(),
        })
    }

    /// Lowers one call and builds its op, detached: `operands` must have the
    /// validated signature's operand types; `shape_operands` holds one shape
    /// tensor per result when a result shape is dynamic, none otherwise.
    pub fn build_call<'c>(
        &mut self,
        call: &ValidatedCall<'_, 'c>,
        location: Location<'c>,
        operands: &[Value<'c, '_>],
        shape_operands: &[Value<'c, '_>],
    ) -> Result<melior::ir::Operation<'c>, Error> {
        check_operands(call, operands)?;
        let lowered = self.lower(call)?;
        let ctx = location.context();
        // SAFETY: the location's context outlives 'c.
        let ctx = unsafe { ctx.to_ref() };
        Ok(emit::build_custom_call(
            ctx,
            location,
            operands,
            shape_operands,
            call.signature().results(),
            &lowered.attributes,
        )?)
    }

    /// Lowers one call and inserts the op at `point` (see
    /// [`Lowerer::build_call`] for the operands). On any error nothing is
    /// inserted.
    pub fn emit_call<'c, 'a>(
        &mut self,
        call: &ValidatedCall<'_, 'c>,
        point: InsertionPoint<'c, 'a>,
        location: Location<'c>,
        operands: &[Value<'c, 'a>],
        shape_operands: &[Value<'c, 'a>],
    ) -> Result<OperationRef<'c, 'a>, Error> {
        let op = self.build_call(call, location, operands, shape_operands)?;
        Ok(emit::insert(point, op)?)
    }

    /// Lowers one call into a whole module: `func.func public @main(<operand
    /// types>) -> <result types>` calling the kernel once (plus one
    /// `tensor<rank x i32>` shape argument per result when result shapes are
    /// dynamic).
    pub fn emit_module<'c>(
        &mut self,
        ctx: &'c melior::Context,
        call: &ValidatedCall<'_, 'c>,
    ) -> Result<Module<'c>, Error> {
        let lowered = self.lower(call)?;
        let name = format!(
            "jit_{}",
            lowered
                .attributes
                .kernel_name
                .clone()
                .or_else(|| call.kernel().name().map(|n| emit::sanitize_name(&n)))
                .unwrap_or_else(|| "kernel".to_string())
        );
        let signature = call.signature();
        let module = emit::build_module(
            ctx,
            &name,
            signature.operands(),
            signature.results(),
            &lowered.attributes,
        )?;
        debug_assert!(module.as_operation().verify());
        Ok(module)
    }
}

/// The operands given to an emitter must have the validated operand types.
fn check_operands(
    call: &ValidatedCall<'_, '_>,
    operands: &[Value<'_, '_>],
) -> Result<(), EmitError> {
    let expected = call.signature().operands();
    if operands.len() != expected.len() {
        return Err(EmitError::OperandCount {
            given: operands.len(),
            validated: expected.len(),
        });
    }
    for (index, (value, ty)) in operands.iter().zip(expected).enumerate() {
        if value.r#type() != *ty {
            return Err(EmitError::OperandType {
                index,
                given: value.r#type().to_string(),
                validated: ty.to_string(),
            });
        }
    }
    Ok(())
}
