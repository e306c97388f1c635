//! Builds `stablehlo.custom_call @tpu_custom_call` with exactly JAX 0.12's
//! attributes, inserted into a caller's block.
//!
//! The op is built complete and checked before anything touches the caller's
//! IR: on any error, nothing is inserted.

use melior::ir::attribute::{
    ArrayAttribute, Attribute, BoolAttribute, DenseElementsAttribute, IntegerAttribute,
    StringAttribute,
};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::{IntegerType, RankedTensorType, ShapedTypeLike};
use melior::ir::{
    AttributeLike, Block, BlockRef, Identifier, Location, Module, Operation, OperationRef, Region,
    RegionLike, Type, TypeLike, Value, ValueLike,
};

use melior::Context;

use crate::context::capture;
use crate::ffi::tcc_operation_set_properties;
use crate::stablehlo::{CALL_TARGET, CUSTOM_CALL, EXPORT_MARKER, layout_text};

/// Errors while building the op.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmitError {
    /// An operand or result type is not a ranked tensor (nor a plain memref,
    /// as JAX's pinned buffers are).
    #[error(
        "{what} #{index} has type `{ty}`: tpu_custom_call operands and results must be ranked tensors \
         (or plain static memrefs, as JAX's pinned buffers)"
    )]
    NotARankedTensor {
        /// `operand` or `result`.
        what: &'static str,
        /// Position in the list.
        index: usize,
        /// The type as MLIR prints it.
        ty: String,
    },
    /// Results have dynamic dimensions, but no shape operands were given (or the
    /// other way round).
    #[error(
        "{dynamic} result(s) have dynamic shapes but {given} shape operand(s) were given: \
         pass one shape tensor per result when any result shape is dynamic, none otherwise"
    )]
    ShapeOperands {
        /// Number of results whose shape is dynamic (0 or the result count).
        dynamic: usize,
        /// Number of shape operands given.
        given: usize,
    },
    /// An emitter was given another number of operands than the call was
    /// validated with.
    #[error(
        "{given} operand(s) given but the call was validated with {validated}: pass one value per operand of the signature"
    )]
    OperandCount {
        /// Operands given.
        given: usize,
        /// Operands of the validated signature.
        validated: usize,
    },
    /// An operand given to an emitter has another type than the validated
    /// signature's.
    #[error(
        "operand #{index} has type `{given}` but the call was validated with `{validated}`: pass values of the signature's types"
    )]
    OperandType {
        /// Position of the operand.
        index: usize,
        /// The value's type.
        given: String,
        /// The signature's type.
        validated: String,
    },
    /// A value name given for a call printed as text is not an MLIR SSA
    /// value name.
    #[error(
        "`{name}` is not an MLIR value name: give `%` followed by digits or by a letter, `_`, `$`, `.` or `-` \
         and letters, digits, `_`, `$`, `.`, `-` (e.g. `%0`, `%x`, `%arg1`)"
    )]
    ValueName {
        /// The name as given.
        name: String,
    },
    /// A value given as operand does not belong to the context.
    #[error("MLIR rejected the {what}: {message}")]
    Mlir {
        /// What was being built.
        what: &'static str,
        /// Detail.
        message: String,
    },
}

pub use crate::params::SideEffect;

/// Everything about the op other than its operands and result types.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallAttributes {
    /// The `backend_config` string (JSON, as `BackendConfig::to_json` writes it).
    pub backend_config: String,
    /// `kernel_name`, already sanitized; `None` omits the attribute.
    pub kernel_name: Option<String>,
    /// `kernel_metadata` in `mhlo.frontend_attributes` (compact JSON), if any.
    pub kernel_metadata: Option<String>,
    /// Side-effect kind.
    pub side_effect: SideEffect,
    /// `(operand, result)` alias pairs, in order.
    pub aliases: Vec<(i64, i64)>,
    /// Leave out the attributes that equal StableHLO's defaults (`api_version
    /// = 1`, `called_computations = []`, `has_side_effect = false`,
    /// `output_operand_aliases = []`), as a module that went through a
    /// StableHLO portable-artifact round trip shows them (JAX's
    /// `Exported.mlir_module()`, i.e. forward-compatible export).
    pub drop_default_attributes: bool,
}

/// JAX's `mlir.sanitize_name`: every character that is not a word character
/// (letter, digit, underscore), `.` or `-` becomes `_`.
///
/// Python's `\w` is Unicode-aware, so letters and digits of any script are
/// kept; Rust's `char::is_alphanumeric` is used for it (it differs from
/// Python only on combining vowel signs, which Python replaces).
pub fn sanitize_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Where the op goes in the caller's IR.
#[derive(Clone, Copy, Debug)]
pub enum InsertionPoint<'c, 'a> {
    /// At the end of a block (of a region; for a block not in a region yet,
    /// see [`InsertionPoint::end_of`]).
    BlockEnd(BlockRef<'c, 'a>),
    /// Before an op.
    Before(OperationRef<'c, 'a>),
    /// After an op.
    After(OperationRef<'c, 'a>),
}

impl<'c, 'a> InsertionPoint<'c, 'a> {
    /// At the end of `block`, which need not be in a region yet (a
    /// `Block::new` being filled before `Region::append_block`).
    pub fn end_of(block: &'a Block<'c>) -> Self {
        // SAFETY: the block is borrowed for 'a, so it outlives the reference;
        // a `BlockRef` only appends to it.
        InsertionPoint::BlockEnd(unsafe { BlockRef::from_raw(block.to_raw()) })
    }
}

impl<'c, 'a> From<&'a Block<'c>> for InsertionPoint<'c, 'a> {
    fn from(block: &'a Block<'c>) -> Self {
        InsertionPoint::end_of(block)
    }
}

/// Row-major layout of a rank-`rank` array (`[rank-1, ..., 1, 0]`) as JAX
/// writes it: `dense<[1, 0]> : tensor<2xindex>`, `dense<0> : tensor<1xindex>`,
/// `dense<> : tensor<0xindex>`.
fn layout_attribute<'c>(ctx: &'c Context, rank: usize) -> Result<Attribute<'c>, EmitError> {
    let index = Type::index(ctx);
    let dims: Vec<Attribute<'c>> = (0..rank)
        .rev()
        .map(|d| IntegerAttribute::new(index, d as i64).into())
        .collect();
    let ty = RankedTensorType::new(&[rank as u64], index, None);
    DenseElementsAttribute::new(ty.into(), &dims)
        .map(Into::into)
        .map_err(|e| EmitError::Mlir {
            what: "layout",
            message: format!("`{}`: {e}", layout_text(rank)),
        })
}

/// `1 : i32`.
fn one_i32(ctx: &Context) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(ctx, 32).into(), 1).into()
}

fn parse_attribute<'c>(
    ctx: &'c Context,
    text: &str,
    what: &'static str,
) -> Result<Attribute<'c>, EmitError> {
    let (attr, diagnostics) = capture(ctx, || Attribute::parse(ctx, text));
    attr.ok_or_else(|| EmitError::Mlir {
        what,
        message: format!(
            "`{text}`: {}",
            crate::context::join_diagnostics(&diagnostics)
        ),
    })
}

/// Ranks of ranked tensor types; error naming the first that is not one.
/// A static memref without layout or memory space (`memref<3xf32>`: what
/// JAX's `pin` makes of a pinned buffer, which a call takes and returns) is
/// taken as its tensor.
fn tensor_ranks(types: &[Type<'_>], what: &'static str) -> Result<Vec<(usize, bool)>, EmitError> {
    types
        .iter()
        .enumerate()
        .map(|(index, ty)| match RankedTensorType::try_from(*ty) {
            Ok(tensor) => {
                let rank = tensor.rank();
                // SAFETY: `ty` is a ranked tensor type (checked above).
                let dynamic = unsafe { !mlir_sys::mlirShapedTypeHasStaticShape(ty.to_raw()) };
                Ok((rank, dynamic))
            }
            Err(_) if plain_memref_rank(*ty).is_some() => {
                Ok((plain_memref_rank(*ty).unwrap_or(0), false))
            }
            Err(_) => Err(EmitError::NotARankedTensor {
                what,
                index,
                ty: ty.to_string(),
            }),
        })
        .collect()
}

/// The rank of a static memref with the identity layout and no memory space
/// (`memref<3xf32>`, JAX's pinned buffers); `None` for any other type.
pub(crate) fn plain_memref_rank(ty: Type<'_>) -> Option<usize> {
    let raw = ty.to_raw();
    // SAFETY: each query is made on a type of the kind it needs (checked
    // first); the type belongs to a live context.
    unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(raw) || !mlir_sys::mlirShapedTypeHasStaticShape(raw) {
            return None;
        }
        let space = mlir_sys::mlirMemRefTypeGetMemorySpace(raw);
        let layout = mlir_sys::mlirMemRefTypeGetAffineMap(raw);
        if !space.ptr.is_null() || !mlir_sys::mlirAffineMapIsIdentity(layout) {
            return None;
        }
        usize::try_from(mlir_sys::mlirShapedTypeGetRank(raw)).ok()
    }
}

/// Builds the `stablehlo.custom_call` op (detached) with JAX's attributes.
///
/// `operands` are the call's operands; `shape_operands` the result-shape
/// tensors JAX appends when a result shape is dynamic (one per result, empty
/// otherwise). Only validated calls reach it (through
/// `lower::Lowerer`): the alias pairs are not checked again.
pub(crate) fn build_custom_call<'c>(
    ctx: &'c Context,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    shape_operands: &[Value<'c, '_>],
    result_types: &[Type<'c>],
    attributes: &CallAttributes,
) -> Result<Operation<'c>, EmitError> {
    let operand_types: Vec<Type<'c>> = operands.iter().map(|v| v.r#type()).collect();
    let operand_ranks = tensor_ranks(&operand_types, "operand")?;
    let result_ranks = tensor_ranks(result_types, "result")?;
    let dynamic = result_ranks.iter().filter(|(_, d)| *d).count();
    let expected_shapes = if dynamic > 0 { result_types.len() } else { 0 };
    if shape_operands.len() != expected_shapes {
        return Err(EmitError::ShapeOperands {
            dynamic,
            given: shape_operands.len(),
        });
    }

    let mlir = ctx;
    let named = |name: &str, attr: Attribute<'c>| (Identifier::new(mlir, name), attr);

    // Inherent attributes (properties), in the order MLIR prints them (sorted).
    let mut operand_layouts = Vec::new();
    for (rank, _) in &operand_ranks {
        operand_layouts.push(layout_attribute(ctx, *rank)?);
    }
    for _ in shape_operands {
        operand_layouts.push(layout_attribute(ctx, 1)?);
    }
    let mut result_layouts = Vec::new();
    for (rank, _) in &result_ranks {
        result_layouts.push(layout_attribute(ctx, *rank)?);
    }
    let mut alias_attrs = Vec::new();
    for &(operand, result) in &attributes.aliases {
        let tuple = if result_types.len() > 1 {
            format!("[{result}]")
        } else {
            "[]".to_string()
        };
        alias_attrs.push(parse_attribute(
            ctx,
            &format!(
                "#stablehlo.output_operand_alias<output_tuple_indices = {tuple}, operand_index = {operand}, operand_tuple_indices = []>"
            ),
            "output_operand_aliases",
        )?);
    }
    let has_side_effect = attributes.side_effect != SideEffect::Pure;
    let keep_defaults = !attributes.drop_default_attributes;
    let mut properties = Vec::new();
    if keep_defaults {
        properties.push(named("api_version", one_i32(ctx)));
    }
    properties.push(named(
        "backend_config",
        StringAttribute::new(mlir, &attributes.backend_config).into(),
    ));
    properties.push(named(
        "call_target_name",
        StringAttribute::new(mlir, CALL_TARGET).into(),
    ));
    if keep_defaults {
        properties.push(named(
            "called_computations",
            ArrayAttribute::new(mlir, &[]).into(),
        ));
    }
    if keep_defaults || has_side_effect {
        properties.push(named(
            "has_side_effect",
            BoolAttribute::new(mlir, has_side_effect).into(),
        ));
    }
    properties.push(named(
        "operand_layouts",
        ArrayAttribute::new(mlir, &operand_layouts).into(),
    ));
    if keep_defaults || !alias_attrs.is_empty() {
        properties.push(named(
            "output_operand_aliases",
            ArrayAttribute::new(mlir, &alias_attrs).into(),
        ));
    }
    properties.push(named(
        "result_layouts",
        ArrayAttribute::new(mlir, &result_layouts).into(),
    ));
    let properties = dictionary(ctx, &properties);

    // Discardable attributes.
    let mut discardable = Vec::new();
    if !shape_operands.is_empty() {
        let first = operands.len();
        let indices: Vec<String> = (first..first + shape_operands.len())
            .map(|i| i.to_string())
            .collect();
        let text = if indices.len() == 1 {
            format!("dense<{}> : tensor<1xi64>", indices[0])
        } else {
            format!(
                "dense<[{}]> : tensor<{}xi64>",
                indices.join(", "),
                indices.len()
            )
        };
        discardable.push(named(
            "indices_of_shape_operands",
            parse_attribute(ctx, &text, "indices_of_shape_operands")?,
        ));
    }
    if let Some(name) = &attributes.kernel_name {
        discardable.push(named(
            "kernel_name",
            StringAttribute::new(mlir, name).into(),
        ));
    }
    let mut frontend = Vec::new();
    if let Some(metadata) = &attributes.kernel_metadata {
        frontend.push(named(
            "kernel_metadata",
            StringAttribute::new(mlir, metadata).into(),
        ));
    }
    if attributes.side_effect == SideEffect::DataflowSideEffecting {
        frontend.push(named(
            "xla_allow_dce_side_effecting_op",
            StringAttribute::new(mlir, "true").into(),
        ));
    }
    if !frontend.is_empty() {
        discardable.push(named(
            "mhlo.frontend_attributes",
            dictionary(ctx, &frontend),
        ));
    }

    let all_operands: Vec<Value<'c, '_>> = operands.iter().chain(shape_operands).copied().collect();
    let op = OperationBuilder::new(CUSTOM_CALL, location)
        .add_operands(&all_operands)
        .add_results(result_types)
        .add_attributes(&discardable)
        .build()
        .map_err(|e| EmitError::Mlir {
            what: "custom_call op",
            message: e.to_string(),
        })?;
    // SAFETY: `op` is a freshly built, detached, unregistered op; `properties`
    // is a dictionary attribute of the same context.
    let ok = unsafe { tcc_operation_set_properties(op.to_raw(), properties.to_raw()) };
    if !ok {
        return Err(EmitError::Mlir {
            what: "custom_call properties",
            message: "setPropertiesFromAttribute failed".to_string(),
        });
    }
    Ok(op)
}

/// A dictionary attribute from named attributes.
fn dictionary<'c>(ctx: &'c Context, entries: &[(Identifier<'c>, Attribute<'c>)]) -> Attribute<'c> {
    let raw: Vec<mlir_sys::MlirNamedAttribute> = entries
        .iter()
        .map(|(name, attr)| mlir_sys::MlirNamedAttribute {
            name: name.to_raw(),
            attribute: attr.to_raw(),
        })
        .collect();
    // SAFETY: every entry belongs to this context; MLIR copies the array.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(
            ctx.to_raw(),
            raw.len() as isize,
            raw.as_ptr(),
        ))
    }
}

/// Inserts a built op at `point` and returns a reference to it. An anchor op
/// that is not in a block is an error (the op is dropped, nothing changes).
pub fn insert<'c, 'a>(
    point: InsertionPoint<'c, 'a>,
    op: Operation<'c>,
) -> Result<OperationRef<'c, 'a>, EmitError> {
    match point {
        InsertionPoint::BlockEnd(block) => Ok(block.append_operation(op)),
        InsertionPoint::Before(anchor) | InsertionPoint::After(anchor) => {
            let block = anchor.block().ok_or_else(|| EmitError::Mlir {
                what: "insertion point",
                message: format!(
                    "the anchor op `{}` is not in a block",
                    crate::ffi::identifier_string(&anchor.name())
                ),
            })?;
            Ok(match point {
                InsertionPoint::Before(_) => block.insert_operation_before(anchor, op),
                _ => block.insert_operation_after(anchor, op),
            })
        }
    }
}

/// Builds `module @<name> attributes {mhlo.num_partitions = 1 : i32,
/// mhlo.num_replicas = 1 : i32} { func.func public @main(<operands>) ->
/// <results> { custom_call; return } }` around one call, as JAX's lowering of
/// a jitted function that calls the kernel once.
///
/// `build_op` receives the function's arguments (operands, then one shape
/// tensor per result when results are dynamic) and returns the op.
pub(crate) fn build_module<'c>(
    ctx: &'c Context,
    module_name: &str,
    operand_types: &[Type<'c>],
    result_types: &[Type<'c>],
    attributes: &CallAttributes,
) -> Result<Module<'c>, EmitError> {
    let mlir = ctx;
    let location = Location::unknown(mlir);
    let result_ranks = tensor_ranks(result_types, "result")?;
    tensor_ranks(operand_types, "operand")?;
    let dynamic = result_ranks.iter().any(|(_, d)| *d);
    // Shape tensors: `tensor<rank x i32>` per result, as `mlir.shape_tensor`
    // makes them without x64.
    let mut arg_types: Vec<Type<'c>> = operand_types.to_vec();
    if dynamic {
        for (rank, _) in &result_ranks {
            let i32_type = melior::ir::r#type::IntegerType::new(mlir, 32).into();
            arg_types.push(RankedTensorType::new(&[*rank as u64], i32_type, None).into());
        }
    }
    let block = Block::new(&arg_types.iter().map(|t| (*t, location)).collect::<Vec<_>>());
    let args: Vec<Value<'c, '_>> = (0..block.argument_count())
        .map(|i| block.argument(i).map(Into::into))
        .collect::<Result<_, _>>()
        .map_err(|e| EmitError::Mlir {
            what: "function arguments",
            message: e.to_string(),
        })?;
    let (operands, shapes) = args.split_at(operand_types.len());
    let call = build_custom_call(ctx, location, operands, shapes, result_types, attributes)?;
    let call = block.append_operation(call);
    let results: Vec<Value<'c, '_>> = call.results().map(Into::into).collect();
    block.append_operation(
        OperationBuilder::new("func.return", location)
            .add_operands(&results)
            .build()
            .map_err(|e| EmitError::Mlir {
                what: "func.return",
                message: e.to_string(),
            })?,
    );
    let region = Region::new();
    region.append_block(block);
    let function_type = melior::ir::r#type::FunctionType::new(mlir, &arg_types, result_types);
    let func = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (
                Identifier::new(mlir, "sym_name"),
                StringAttribute::new(mlir, "main").into(),
            ),
            (
                Identifier::new(mlir, "function_type"),
                melior::ir::attribute::TypeAttribute::new(function_type.into()).into(),
            ),
            (
                Identifier::new(mlir, "sym_visibility"),
                StringAttribute::new(mlir, "public").into(),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| EmitError::Mlir {
            what: "func.func",
            message: e.to_string(),
        })?;
    let module = Module::new(location);
    module.body().append_operation(func);
    set_module_attributes(
        ctx,
        &module,
        module_name,
        attributes.drop_default_attributes,
    )?;
    Ok(module)
}

fn set_module_attributes(
    ctx: &Context,
    module: &Module<'_>,
    name: &str,
    export: bool,
) -> Result<(), EmitError> {
    let mlir = ctx;
    let raw = module.as_operation().to_raw();
    let set = |key: &str, attr: Attribute<'_>| {
        let key = melior::StringRef::new(key);
        // SAFETY: `raw` is the live module op; `attr` belongs to its context.
        unsafe { mlir_sys::mlirOperationSetAttributeByName(raw, key.to_raw(), attr.to_raw()) }
    };
    set("sym_name", StringAttribute::new(mlir, name).into());
    set("mhlo.num_partitions", one_i32(ctx));
    set("mhlo.num_replicas", one_i32(ctx));
    if export {
        // As `jax.export` marks its modules (no symbolic shapes here).
        set(EXPORT_MARKER, BoolAttribute::new(mlir, false).into());
    }
    Ok(())
}
