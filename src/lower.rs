//! Lowering a validated call as JAX 0.12 does: serialize the kernel, build the
//! backend config, and emit `stablehlo.custom_call @tpu_custom_call`.
//!
//! A [`Lowerer`] holds the options of a lowering and the serialized bodies it
//! shares between calls; it takes only a [`ValidatedCall`] (made by
//! [`crate::validate::validate`]), so nothing reaches the IR unchecked. Every
//! step runs before anything is written into the caller's IR: a failed
//! lowering leaves the caller's module as it was.

use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Location, Module, OperationRef, RegionLike, Value, ValueLike};

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

    /// Lowers one call and prints it as the text of one op, for a client that
    /// assembles its StableHLO as text and holds no MLIR module: the bytes
    /// of the op's line in the module [`Lowerer::emit_module`] makes, printed
    /// pretty (`generic: false`, as `emit` writes) or generic, without
    /// locations, its result named `result` (`%r:2` when there are two
    /// results) and its operands `operands` (the signature's operands, then
    /// one shape tensor per result when result shapes are dynamic).
    ///
    /// ```
    /// # use tpu_custom_call::melior::ir::Type;
    /// # use tpu_custom_call::{Context, Kernel, LowerOptions, Lowerer, Params, Signature};
    /// # let ctx = Context::new();
    /// # let text = std::fs::read_to_string("mlir-fixtures/kernels/add.mlir")?;
    /// # let add = Kernel::from_text(&ctx, &text, "add.mlir")?;
    /// # let params = Params::from_json(br#"{"kernel_name": "_add_kernel"}"#)?;
    /// # let f32x = Type::parse(&ctx, "tensor<8x128xf32>").expect("type");
    /// let call = tpu_custom_call::validate(&add, Signature::new([f32x, f32x], [f32x]), &params, None)
    ///     .map_err(|errors| errors[0].to_string())?;
    /// let line = Lowerer::new(LowerOptions::default()).call_text(&ctx, &call, "%sum", &["%x", "%y"], false)?;
    /// assert!(line.starts_with("%sum = stablehlo.custom_call @tpu_custom_call(%x, %y) {backend_config = "));
    /// assert!(line.ends_with(": (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn call_text<'c>(
        &mut self,
        ctx: &'c melior::Context,
        call: &ValidatedCall<'_, 'c>,
        result: &str,
        operands: &[&str],
        generic: bool,
    ) -> Result<String, Error> {
        let results = call.signature().results().len();
        if let Some(bad) = std::iter::once(result)
            .filter(|_| results > 0)
            .chain(operands.iter().copied())
            .find(|n| !is_value_name(n))
        {
            return Err(EmitError::ValueName {
                name: bad.to_string(),
            }
            .into());
        }
        let module = self.emit_module(ctx, call)?;
        let arguments = module
            .body()
            .first_operation()
            .and_then(|main| main.region(0).ok()?.first_block())
            .map_or(0, |block| block.argument_count());
        if operands.len() != arguments {
            return Err(EmitError::OperandCount {
                given: operands.len(),
                validated: arguments,
            }
            .into());
        }
        let printed = crate::kernel::print_module(
            &module,
            crate::PrintOptions {
                generic,
                debug_info: false,
            },
        )?;
        Ok(rename_call_line(&printed, result, results, operands)?)
    }
}

/// Whether `name` is an SSA value name MLIR's parser reads (`%` then a
/// suffix id: digits, or a letter or `_$.-` followed by letters, digits and
/// `_$.-`).
fn is_value_name(name: &str) -> bool {
    let Some(id) = name.strip_prefix('%') else {
        return false;
    };
    let punct = |c: char| matches!(c, '_' | '$' | '.' | '-');
    match id.chars().next() {
        Some(c) if c.is_ascii_digit() => id.chars().all(|c| c.is_ascii_digit()),
        Some(c) if c.is_ascii_alphabetic() || punct(c) => {
            id.chars().all(|c| c.is_ascii_alphanumeric() || punct(c))
        }
        _ => false,
    }
}

/// The custom call's line of a module [`emit::build_module`] made, printed:
/// the op with its results renamed to `result` and its operands (`%argN`)
/// to `operands`.
fn rename_call_line(
    printed: &str,
    result: &str,
    results: usize,
    operands: &[&str],
) -> Result<String, EmitError> {
    let internal = |message: String| EmitError::Mlir {
        what: "printed call",
        message,
    };
    let line = printed
        .lines()
        .map(str::trim)
        .find(|l| l.contains("stablehlo.custom_call"))
        .ok_or_else(|| internal("no stablehlo.custom_call line".to_string()))?;
    let ours = match results {
        0 => String::new(),
        1 => "%0 = ".to_string(),
        n => format!("%0:{n} = "),
    };
    let rest = line
        .strip_prefix(ours.as_str())
        .filter(|rest| results > 0 || !rest.starts_with('%'))
        .ok_or_else(|| internal(format!("unexpected results in `{line}`")))?;
    // The operand list: the first parenthesis after the op's name (generic
    // `"stablehlo.custom_call"(`, pretty `@tpu_custom_call(`); attribute
    // values come after it.
    let open = rest
        .find('(')
        .ok_or_else(|| internal(format!("no operand list in `{line}`")))?;
    let close = open
        + rest[open..]
            .find(')')
            .ok_or_else(|| internal(format!("no operand list in `{line}`")))?;
    let expected: Vec<String> = (0..operands.len()).map(|i| format!("%arg{i}")).collect();
    if rest[open + 1..close] != expected.join(", ") {
        return Err(internal(format!("unexpected operands in `{line}`")));
    }
    let results_text = match results {
        0 => String::new(),
        1 => format!("{result} = "),
        n => format!("{result}:{n} = "),
    };
    Ok(format!(
        "{results_text}{}({}){}",
        &rest[..open],
        operands.join(", "),
        &rest[close + 1..]
    ))
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
