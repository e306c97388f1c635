//! `scf` builders with results. melior's `scf::r#for` takes no loop-carried
//! values; `r#for` here does. melior's `scf::r#if` and `scf::r#while` take
//! result types already and are re-exported, with `scf::r#yield` and
//! `scf::condition`.

use melior::ir::operation::OperationBuilder;
use melior::ir::{Location, Operation, Region, Type, Value, ValueLike};

pub use melior::dialect::scf::{condition, r#if, r#while, r#yield};

/// `scf.for %iv = %lower to %upper step %step iter_args(init…) -> (types of
/// init…)`; `body`'s one block takes the induction variable, then one
/// argument per `init` value, and ends with `scf.yield` of as many values.
pub fn r#for<'c>(
    lower: Value<'c, '_>,
    upper: Value<'c, '_>,
    step: Value<'c, '_>,
    init: &[Value<'c, '_>],
    body: Region<'c>,
    location: Location<'c>,
) -> Operation<'c> {
    let results: Vec<Type<'c>> = init.iter().map(|v| v.r#type()).collect();
    let mut operands = vec![lower, upper, step];
    operands.extend_from_slice(init);
    super::build(
        OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&results)
            .add_regions([body]),
    )
}
