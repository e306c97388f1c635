//! What the generated builders of [`super::ops`] share: making an op with its
//! properties, and the result types jaxlib infers.

use melior::Context as MlirContext;
use melior::ir::attribute::AttributeLike;
use melior::ir::attribute::DictionaryAttribute;
use melior::ir::operation::OperationBuilder;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{
    Attribute, Identifier, Location, Operation, Region, Type, TypeLike, Value, ValueLike,
};

use super::BuildError;
use super::attrs;

use crate::ffi::tcc_operation_set_properties;

/// A variadic segment's size, as `operandSegmentSizes` holds it.
pub(crate) fn count(values: &[Value<'_, '_>]) -> i32 {
    i32::try_from(values.len()).unwrap_or(i32::MAX)
}

/// `i32`.
pub(crate) fn i32_type(ctx: &MlirContext) -> Type<'_> {
    IntegerType::new(ctx, 32).into()
}

/// `i1`.
pub(crate) fn i1_type(ctx: &MlirContext) -> Type<'_> {
    IntegerType::new(ctx, 1).into()
}

/// Shape and element type of a vector type, or `None`.
pub(crate) fn vector_parts<'c>(ty: Type<'c>) -> Option<(Vec<i64>, Type<'c>)> {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type; the shaped-type queries are only made on
    // a vector type.
    unsafe {
        if !mlir_sys::mlirTypeIsAVector(raw) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        let shape = (0..rank)
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize))
            .collect();
        Some((
            shape,
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)),
        ))
    }
}

/// Shape and element type of a ranked memref type, or `None`.
pub(crate) fn memref_parts<'c>(ty: Type<'c>) -> Option<(Vec<i64>, Type<'c>)> {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a live type; the shaped-type queries are only made on
    // a ranked memref type.
    unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(raw) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        let shape = (0..rank)
            .map(|i| mlir_sys::mlirShapedTypeGetDimSize(raw, i as isize))
            .collect();
        Some((
            shape,
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)),
        ))
    }
}

/// `vector<shape x element>`.
pub(crate) fn vector_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    // SAFETY: `shape` outlives the call; the element type is live.
    unsafe {
        Type::from_raw(mlir_sys::mlirVectorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
        ))
    }
}

/// `tpu.concatenate`: the sources' vector type with the sizes along
/// `dimension` added up.
pub(crate) fn concatenate_type<'c>(
    sources: &[Value<'c, '_>],
    dimension: i32,
) -> Result<Type<'c>, BuildError> {
    let error = |message: String| BuildError::Infer {
        op: "tpu.concatenate",
        message,
    };
    let first = sources
        .first()
        .ok_or_else(|| error("no sources: give at least one vector".to_string()))?;
    let (mut shape, element) = vector_parts(first.r#type()).ok_or_else(|| {
        error(format!(
            "source 0 has type {}, not a vector: concatenate vectors",
            first.r#type()
        ))
    })?;
    let dim = usize::try_from(dimension)
        .ok()
        .filter(|&d| d < shape.len())
        .ok_or_else(|| {
            error(format!(
                "dimension {dimension} is out of range for rank {}: give 0..{}",
                shape.len(),
                shape.len()
            ))
        })?;
    for (i, source) in sources.iter().enumerate().skip(1) {
        let (other, _) = vector_parts(source.r#type()).ok_or_else(|| {
            error(format!(
                "source {i} has type {}, not a vector: concatenate vectors",
                source.r#type()
            ))
        })?;
        if other.len() != shape.len() {
            return Err(error(format!(
                "source {i} has rank {} but source 0 has rank {}: give sources of one rank",
                other.len(),
                shape.len()
            )));
        }
        shape[dim] = shape[dim].saturating_add(other[dim]);
    }
    Ok(vector_type(&shape, element))
}

/// `tpu.scan_count`'s second result: `i32` counts in the shape of `values`.
pub(crate) fn scan_count_type<'c>(
    ctx: &'c MlirContext,
    values: Value<'c, '_>,
) -> Result<Type<'c>, BuildError> {
    let ty = values.r#type();
    let (shape, _) = vector_parts(ty).ok_or_else(|| BuildError::Infer {
        op: "tpu.scan_count",
        message: format!("values has type {ty}, not a vector: give a vector"),
    })?;
    Ok(vector_type(&shape, i32_type(ctx)))
}

/// Makes a `tpu` op with `operands`, `results`, the properties `props` (plus
/// `operandSegmentSizes` when the op has segments) and `region`, as jaxlib's
/// builder makes it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tpu_op<'c>(
    ctx: &'c MlirContext,
    name: &str,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    props: Vec<(&str, Attribute<'c>)>,
    segments: Option<&[i32]>,
    region: Option<Region<'c>>,
    location: Location<'c>,
) -> Operation<'c> {
    let mut entries: Vec<(Identifier<'c>, Attribute<'c>)> = props
        .into_iter()
        .map(|(key, value)| (Identifier::new(ctx, key), value))
        .collect();
    if let Some(sizes) = segments {
        entries.push((
            Identifier::new(ctx, "operandSegmentSizes"),
            attrs::i32_array_attr(ctx, sizes),
        ));
    }
    let mut builder = OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results);
    if let Some(region) = region {
        builder = builder.add_regions([region]);
    }
    let op = super::upstream::build(builder);
    if !entries.is_empty() {
        let dictionary: Attribute<'c> = DictionaryAttribute::new(ctx, &entries).into();
        // SAFETY: both are live; the op is an unregistered (pass-through) op,
        // whose properties are one attribute; the call copies it.
        let accepted = unsafe { tcc_operation_set_properties(op.to_raw(), dictionary.to_raw()) };
        debug_assert!(accepted, "pass-through ops accept any properties");
    }
    op
}
