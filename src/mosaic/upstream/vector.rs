//! `vector` dialect builders (MLIR 22). `vector.splat` no longer exists in
//! MLIR 22: a splat is [`broadcast`] of a scalar, as Pallas writes it.
//!
//! ```
//! use tpu_custom_call::melior::ir::{Block, BlockLike, Location, Type, Value};
//! use tpu_custom_call::mosaic::upstream::vector::{self, CombiningKind};
//!
//! let ctx = tpu_custom_call::Context::new();
//! let f32 = Type::float32(&ctx);
//! let (x_type, row_type) = (Type::vector(&[8, 512], f32), Type::vector(&[8], f32));
//! let block = Block::new(&[(x_type, Location::unknown(&ctx)), (row_type, Location::unknown(&ctx))]);
//! let (x, acc): (Value, Value) = (block.argument(0)?.into(), block.argument(1)?.into());
//! // jnp.max(x, axis=1): `vector.multi_reduction <maximumf>, %x, %acc [1]`
//! let op = vector::multi_reduction(&ctx, CombiningKind::MaximumF, x, acc, &[1], Location::unknown(&ctx));
//! assert!(op.to_string().contains("<maximumf>"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use melior::Context as MlirContext;
use melior::ir::attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, Location, Operation, Type, Value, ValueLike};

use super::op;
use crate::mosaic::BuildError;
use crate::mosaic::support::{vector_parts, vector_type};

/// How a reduction combines elements (`#vector.kind<..>`, MLIR's
/// `vector::CombiningKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CombiningKind {
    /// `add` (`jnp.sum`).
    Add,
    /// `mul`.
    Mul,
    /// `minui`.
    MinUI,
    /// `minsi` (`jnp.min` of signed integers).
    MinSI,
    /// `minnumf`.
    MinNumF,
    /// `maxui`.
    MaxUI,
    /// `maxsi` (`jnp.max` of signed integers).
    MaxSI,
    /// `maxnumf`.
    MaxNumF,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `minimumf` (`jnp.min` of floats).
    MinimumF,
    /// `maximumf` (`jnp.max` of floats).
    MaximumF,
}

impl CombiningKind {
    /// Every kind, in MLIR's order.
    pub const ALL: &'static [CombiningKind] = &[
        Self::Add,
        Self::Mul,
        Self::MinUI,
        Self::MinSI,
        Self::MinNumF,
        Self::MaxUI,
        Self::MaxSI,
        Self::MaxNumF,
        Self::And,
        Self::Or,
        Self::Xor,
        Self::MinimumF,
        Self::MaximumF,
    ];

    /// The mnemonic (`maximumf`).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::Mul => "mul",
            Self::MinUI => "minui",
            Self::MinSI => "minsi",
            Self::MinNumF => "minnumf",
            Self::MaxUI => "maxui",
            Self::MaxSI => "maxsi",
            Self::MaxNumF => "maxnumf",
            Self::And => "and",
            Self::Or => "or",
            Self::Xor => "xor",
            Self::MinimumF => "minimumf",
            Self::MaximumF => "maximumf",
        }
    }

    /// MLIR's enum value (`vector::CombiningKind`).
    const fn number(self) -> u32 {
        match self {
            Self::Add => 0,
            Self::Mul => 1,
            Self::MinUI => 2,
            Self::MinSI => 3,
            Self::MinNumF => 4,
            Self::MaxUI => 5,
            Self::MaxSI => 6,
            Self::MaxNumF => 7,
            Self::And => 8,
            Self::Or => 9,
            Self::Xor => 10,
            Self::MinimumF => 11,
            Self::MaximumF => 12,
        }
    }

    /// The attribute `#vector.kind<..>`, built from the enum value (loads
    /// the vector dialect into `ctx` if needed).
    pub fn attribute(self, ctx: &MlirContext) -> Attribute<'_> {
        // SAFETY: the context is live; the C++ loads the vector dialect
        // before building; every number here is a valid kind, so the result
        // is not null.
        unsafe {
            Attribute::from_raw(crate::ffi::tcc_vector_combining_kind_get(
                ctx.to_raw(),
                self.number(),
            ))
        }
    }
}

impl fmt::Display for CombiningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CombiningKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown combining kind `{s}`: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

fn i64_array<'c>(ctx: &'c MlirContext, values: &[i64]) -> Attribute<'c> {
    DenseI64ArrayAttribute::new(ctx, values).into()
}

/// `[1, 2] : I64ArrayAttr` (an array of `i64` integer attributes).
fn i64_list<'c>(ctx: &'c MlirContext, values: &[i64]) -> Attribute<'c> {
    let i64_type: Type<'c> = IntegerType::new(ctx, 64).into();
    let items: Vec<Attribute<'c>> = values
        .iter()
        .map(|&v| IntegerAttribute::new(i64_type, v).into())
        .collect();
    ArrayAttribute::new(ctx, &items).into()
}

fn vector_of<'c>(
    op: &'static str,
    what: &str,
    value: Value<'c, '_>,
) -> Result<(Vec<i64>, Type<'c>), BuildError> {
    vector_parts(value.r#type()).ok_or_else(|| BuildError::Infer {
        op,
        message: format!(
            "{what} has type {}, not a vector: give a vector",
            value.r#type()
        ),
    })
}

/// `vector.load %base[%indices…] : memref, vector` (Pallas's `ref[...]`).
pub fn load<'c>(
    result: Type<'c>,
    base: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    let mut operands = vec![base];
    operands.extend_from_slice(indices);
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.load", location)
            .add_operands(&operands)
            .add_results(&[result]),
    )
}

/// `vector.store %value, %base[%indices…]`.
pub fn store<'c>(
    value: Value<'c, '_>,
    base: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    let mut operands = vec![value, base];
    operands.extend_from_slice(indices);
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.store", location)
            .add_operands(&operands),
    )
}

/// `vector.broadcast %source : T to vector` (a scalar splat, or a vector
/// stretched along its unit or missing leading dimensions).
pub fn broadcast<'c>(
    result: Type<'c>,
    source: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.broadcast", location)
            .add_operands(&[source])
            .add_results(&[result]),
    )
}

/// `vector.shape_cast %source : vector to vector` (a reshape).
pub fn shape_cast<'c>(
    result: Type<'c>,
    source: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.shape_cast", location)
            .add_operands(&[source])
            .add_results(&[result]),
    )
}

/// `vector.bitcast %source : vector to vector`.
pub fn bitcast<'c>(
    result: Type<'c>,
    source: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.bitcast", location)
            .add_operands(&[source])
            .add_results(&[result]),
    )
}

/// `vector.multi_reduction <kind>, %source, %acc [dims] : source to acc`;
/// the result has the accumulator's type.
pub fn multi_reduction<'c>(
    ctx: &'c MlirContext,
    kind: CombiningKind,
    source: Value<'c, '_>,
    acc: Value<'c, '_>,
    reduction_dims: &[i64],
    location: Location<'c>,
) -> Operation<'c> {
    op(
        ctx,
        "vector.multi_reduction",
        &[source, acc],
        &[acc.r#type()],
        &[
            ("kind", kind.attribute(ctx)),
            ("reduction_dims", i64_array(ctx, reduction_dims)),
        ],
        location,
    )
}

/// `vector.reduction <kind>, %vector [, %acc] : vector into element`.
pub fn reduction<'c>(
    ctx: &'c MlirContext,
    kind: CombiningKind,
    vector: Value<'c, '_>,
    acc: Option<Value<'c, '_>>,
    location: Location<'c>,
) -> Result<Operation<'c>, BuildError> {
    let (_, element) = vector_of("vector.reduction", "vector", vector)?;
    let mut operands = vec![vector];
    operands.extend(acc);
    Ok(op(
        ctx,
        "vector.reduction",
        &operands,
        &[element],
        &[("kind", kind.attribute(ctx))],
        location,
    ))
}

/// `vector.transpose %vector, [permutation]`, the result type permuted.
pub fn transpose<'c>(
    ctx: &'c MlirContext,
    vector: Value<'c, '_>,
    permutation: &[i64],
    location: Location<'c>,
) -> Result<Operation<'c>, BuildError> {
    const OP: &str = "vector.transpose";
    let (shape, element) = vector_of(OP, "vector", vector)?;
    let mut seen = vec![false; shape.len()];
    let mut result = Vec::with_capacity(shape.len());
    for &p in permutation {
        let slot = usize::try_from(p).ok().and_then(|i| seen.get_mut(i));
        match slot {
            Some(s) if !*s => {
                *s = true;
                result.push(shape[p as usize]);
            }
            _ => {
                return Err(BuildError::Infer {
                    op: OP,
                    message: format!(
                        "permutation {permutation:?} is not a permutation of 0..{}: give each dimension once",
                        shape.len()
                    ),
                });
            }
        }
    }
    if result.len() != shape.len() {
        return Err(BuildError::Infer {
            op: OP,
            message: format!(
                "permutation {permutation:?} has {} entries but the vector has rank {}: give one per dimension",
                permutation.len(),
                shape.len()
            ),
        });
    }
    Ok(op(
        ctx,
        OP,
        &[vector],
        &[vector_type(&result, element)],
        &[("permutation", i64_array(ctx, permutation))],
        location,
    ))
}

/// `vector.extract_strided_slice %source {offsets, sizes, strides}`; the
/// result has `sizes` on the leading dimensions and the source's remaining
/// ones.
pub fn extract_strided_slice<'c>(
    ctx: &'c MlirContext,
    source: Value<'c, '_>,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
    location: Location<'c>,
) -> Result<Operation<'c>, BuildError> {
    const OP: &str = "vector.extract_strided_slice";
    let (shape, element) = vector_of(OP, "source", source)?;
    if offsets.len() != sizes.len() || sizes.len() != strides.len() || sizes.len() > shape.len() {
        return Err(BuildError::Infer {
            op: OP,
            message: format!(
                "offsets {offsets:?}, sizes {sizes:?} and strides {strides:?} must have one length, at most the source's rank {}",
                shape.len()
            ),
        });
    }
    let mut result = sizes.to_vec();
    result.extend_from_slice(&shape[sizes.len()..]);
    Ok(op(
        ctx,
        OP,
        &[source],
        &[vector_type(&result, element)],
        &[
            ("offsets", i64_list(ctx, offsets)),
            ("sizes", i64_list(ctx, sizes)),
            ("strides", i64_list(ctx, strides)),
        ],
        location,
    ))
}

/// `vector.insert_strided_slice %source, %dest {offsets, strides}`; the
/// result has the destination's type.
pub fn insert_strided_slice<'c>(
    ctx: &'c MlirContext,
    source: Value<'c, '_>,
    dest: Value<'c, '_>,
    offsets: &[i64],
    strides: &[i64],
    location: Location<'c>,
) -> Operation<'c> {
    op(
        ctx,
        "vector.insert_strided_slice",
        &[source, dest],
        &[dest.r#type()],
        &[
            ("offsets", i64_list(ctx, offsets)),
            ("strides", i64_list(ctx, strides)),
        ],
        location,
    )
}

/// `vector.extract %source[position]` at a static position: the element
/// when the position names every dimension, else the sub-vector.
pub fn extract<'c>(
    ctx: &'c MlirContext,
    source: Value<'c, '_>,
    position: &[i64],
    location: Location<'c>,
) -> Result<Operation<'c>, BuildError> {
    const OP: &str = "vector.extract";
    let (shape, element) = vector_of(OP, "source", source)?;
    if position.len() > shape.len() {
        return Err(BuildError::Infer {
            op: OP,
            message: format!(
                "position {position:?} has {} entries but the source has rank {}: give at most one per dimension",
                position.len(),
                shape.len()
            ),
        });
    }
    let result = if position.len() == shape.len() {
        element
    } else {
        vector_type(&shape[position.len()..], element)
    };
    Ok(op(
        ctx,
        OP,
        &[source],
        &[result],
        &[("static_position", i64_array(ctx, position))],
        location,
    ))
}

/// `vector.insert %value, %dest[position]` at a static position; the result
/// has the destination's type.
pub fn insert<'c>(
    ctx: &'c MlirContext,
    value: Value<'c, '_>,
    dest: Value<'c, '_>,
    position: &[i64],
    location: Location<'c>,
) -> Operation<'c> {
    op(
        ctx,
        "vector.insert",
        &[value, dest],
        &[dest.r#type()],
        &[("static_position", i64_array(ctx, position))],
        location,
    )
}

/// `vector.create_mask %sizes… : vector<…xi1>` (one `index` per dimension).
pub fn create_mask<'c>(
    result: Type<'c>,
    sizes: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.create_mask", location)
            .add_operands(sizes)
            .add_results(&[result]),
    )
}

/// `vector.constant_mask [sizes] : vector<…xi1>`.
pub fn constant_mask<'c>(
    ctx: &'c MlirContext,
    result: Type<'c>,
    sizes: &[i64],
    location: Location<'c>,
) -> Operation<'c> {
    op(
        ctx,
        "vector.constant_mask",
        &[],
        &[result],
        &[("mask_dim_sizes", i64_array(ctx, sizes))],
        location,
    )
}

/// `vector.fma %lhs, %rhs, %acc` (the result has `acc`'s type).
pub fn fma<'c>(
    lhs: Value<'c, '_>,
    rhs: Value<'c, '_>,
    acc: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        melior::ir::operation::OperationBuilder::new("vector.fma", location)
            .add_operands(&[lhs, rhs, acc])
            .add_results(&[acc.r#type()]),
    )
}
