//! `math` dialect builders: elementwise functions whose result has the
//! operand's type (`math.exp %x : vector<8x512xf32>`), as Pallas lowers
//! `jnp.exp`, `jnp.log`, `jnp.tanh`, `lax.rsqrt`, … `fastmath` is left at
//! its default (`#arith.fastmath<none>`), as Pallas leaves it.

use melior::ir::operation::OperationBuilder;
use melior::ir::{Location, Operation, Value, ValueLike};

fn unary<'c>(name: &str, operand: Value<'c, '_>, location: Location<'c>) -> Operation<'c> {
    super::build(
        OperationBuilder::new(name, location)
            .add_operands(&[operand])
            .add_results(&[operand.r#type()]),
    )
}

fn binary<'c>(
    name: &str,
    lhs: Value<'c, '_>,
    rhs: Value<'c, '_>,
    location: Location<'c>,
) -> Operation<'c> {
    super::build(
        OperationBuilder::new(name, location)
            .add_operands(&[lhs, rhs])
            .add_results(&[lhs.r#type()]),
    )
}

macro_rules! unary_ops {
    ($($name:ident => $op:literal, $python:literal;)*) => {$(
        #[doc = concat!("`", $op, " %operand` (", $python, ").")]
        pub fn $name<'c>(operand: Value<'c, '_>, location: Location<'c>) -> Operation<'c> {
            unary($op, operand, location)
        }
    )*};
}

macro_rules! binary_ops {
    ($($name:ident => $op:literal, $python:literal;)*) => {$(
        #[doc = concat!("`", $op, " %lhs, %rhs` (", $python, ").")]
        pub fn $name<'c>(lhs: Value<'c, '_>, rhs: Value<'c, '_>, location: Location<'c>) -> Operation<'c> {
            binary($op, lhs, rhs, location)
        }
    )*};
}

unary_ops! {
    absf => "math.absf", "`jnp.abs` of floats";
    absi => "math.absi", "`jnp.abs` of integers";
    ceil => "math.ceil", "`jnp.ceil`";
    cos => "math.cos", "`jnp.cos`";
    ctpop => "math.ctpop", "`lax.population_count`";
    erf => "math.erf", "`lax.erf`";
    exp => "math.exp", "`jnp.exp`";
    exp2 => "math.exp2", "`jnp.exp2`";
    expm1 => "math.expm1", "`jnp.expm1`";
    floor => "math.floor", "`jnp.floor`";
    log => "math.log", "`jnp.log`";
    log1p => "math.log1p", "`jnp.log1p`";
    log2 => "math.log2", "`jnp.log2`";
    round => "math.round", "`lax.round` away from zero";
    roundeven => "math.roundeven", "`jnp.round`";
    rsqrt => "math.rsqrt", "`lax.rsqrt`";
    sin => "math.sin", "`jnp.sin`";
    sqrt => "math.sqrt", "`jnp.sqrt`";
    tan => "math.tan", "`jnp.tan`";
    tanh => "math.tanh", "`jnp.tanh`";
}

binary_ops! {
    atan2 => "math.atan2", "`jnp.arctan2`";
    powf => "math.powf", "`lax.pow` of floats";
}
