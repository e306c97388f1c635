//! `arith` builders melior lacks (`maximumf`), and melior's comparison
//! builders with their predicate enums, re-exported: `cmpf(ctx,
//! CmpfPredicate::Ogt, x, y, loc)` as Pallas lowers `x > y` of floats,
//! `cmpi(ctx, CmpiPredicate::Slt, i, j, loc)` of signed integers.

use melior::ir::operation::OperationBuilder;
use melior::ir::{Location, Operation, Value, ValueLike};

pub use melior::dialect::arith::{CmpfPredicate, CmpiPredicate, cmpf, cmpi};

/// `arith.maximumf %lhs, %rhs` (`jnp.maximum` of floats; melior has only
/// `maxnumf`).
pub fn maximumf<'c>(
    lhs: Value<'c, '_>,
    rhs: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        OperationBuilder::new("arith.maximumf", location)
            .add_operands(&[lhs, rhs])
            .add_results(&[lhs.r#type()]),
    )
}
