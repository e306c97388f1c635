//! Builders for the upstream ops Pallas kernels use that melior has no builder
//! for (the `vector` dialect). melior's own builders (`arith::constant`,
//! `arith::addf`, `arith::cmpi`, `scf::r#if`, `func::func`, …) work on a
//! [`crate::Context`] and give what Pallas gives (DefaultValued properties such
//! as `fastmath = #arith.fastmath<none>` are materialised on creation).

use melior::ir::operation::OperationBuilder;
use melior::ir::{Location, Operation, Type, Value};

/// `vector.load %base[%indices…] : memref, vector` (Pallas's `ref[...]`).
pub fn vector_load<'c>(
    result: Type<'c>,
    base: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    location: Location<'c>,
) -> Operation<'c> {
    let mut operands = vec![base];
    operands.extend_from_slice(indices);
    build(
        OperationBuilder::new("vector.load", location)
            .add_operands(&operands)
            .add_results(&[result]),
    )
}

/// `vector.broadcast %source : T to vector` (a splat).
pub fn vector_broadcast<'c>(
    result: Type<'c>,
    source: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    build(
        OperationBuilder::new("vector.broadcast", location)
            .add_operands(&[source])
            .add_results(&[result]),
    )
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
