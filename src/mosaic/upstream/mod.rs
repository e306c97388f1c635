//! Typed builders for the upstream (non-`tpu`) ops Pallas kernels use, one
//! module per dialect: [`vector`] (loads, broadcasts, reductions with a
//! [`vector::CombiningKind`], shape casts, slices, masks), [`math`] (`exp`,
//! `log`, `tanh`, `rsqrt`, …), [`arith`] (what melior's `arith` lacks, and its
//! comparison predicates) and [`scf`] (`for`, `if` and `while` with results).
//! No builder parses text: attributes are built from typed values.
//!
//! melior's own builders (`arith::constant`, `arith::addf`, `arith::cmpi`,
//! `scf::r#if`, `func::func`, …) work on a [`crate::Context`] and give what
//! Pallas gives (DefaultValued properties such as `fastmath =
//! #arith.fastmath<none>` are materialised on creation). Builders whose result
//! type is given, or is an operand's type, cannot fail; those that infer a
//! result type from operands and attributes return a
//! [`BuildError::Infer`](super::BuildError::Infer) naming the op.
//!
//! The [`super::pallas::Body`] idioms (`k.load(x_ref)`, `k.sum(x, 1, true)`,
//! `k.when(..)`) build on these.

pub mod arith;
pub mod math;
pub mod scf;
pub mod vector;

use melior::ir::operation::OperationBuilder;
use melior::ir::{Location, Operation, Type, Value};

/// `vector.load %base[%indices…]` (Pallas's `ref[...]`).
#[deprecated(note = "renamed `upstream::vector::load` (`ops::vector_load` is `tpu.vector_load`)")]
#[doc(hidden)]
pub fn vector_load<'c>(
    result: Type<'c>,
    base: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    vector::load(result, base, indices, location)
}

/// `vector.broadcast %source : T to vector` (a splat).
#[deprecated(note = "renamed `upstream::vector::broadcast`")]
#[doc(hidden)]
pub fn vector_broadcast<'c>(
    result: Type<'c>,
    source: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    vector::broadcast(result, source, location)
}

/// Builds an op whose operands and results are given explicitly (no
/// inference), which cannot fail.
pub(crate) fn build(builder: OperationBuilder<'_>) -> Operation<'_> {
    match builder.build() {
        Ok(op) => op,
        // `build` fails only when result inference was requested.
        Err(error) => unreachable!("operation without result inference: {error}"),
    }
}

/// An op `name` with `operands`, `results` and inherent attributes `attrs`.
pub(crate) fn op<'c>(
    ctx: &'c melior::Context,
    name: &str,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attrs: &[(&str, melior::ir::Attribute<'c>)],
    location: Location<'c>,
) -> Operation<'c> {
    let attrs: Vec<_> = attrs
        .iter()
        .map(|&(key, value)| (melior::ir::Identifier::new(ctx, key), value))
        .collect();
    build(
        OperationBuilder::new(name, location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(&attrs),
    )
}
