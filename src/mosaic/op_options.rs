//! Builders with Pallas's defaults for the `tpu` ops whose generated builder
//! ([`super::ops`]) takes many optional parts, re-exported there: set only
//! what differs from what Pallas writes.

use melior::Context as MlirContext;
use melior::ir::{Location, Operation, Type, Value, ValueLike};

use super::attrs::{ContractPrecision, DotDimensionNumbers};

/// `tpu.matmul` as Pallas writes it for `jnp.dot(lhs, rhs,
/// preferred_element_type=…)` of 2-D operands: `dimension_numbers` of a plain
/// `lhs @ rhs` ([`DotDimensionNumbers::matmul_2d`]), `transpose_lhs_hint =
/// false`, no precision, the accumulator's type as result.
///
/// ```
/// # use tpu_custom_call::melior::ir::{Block, BlockLike, Location, Type, Value};
/// use tpu_custom_call::mosaic::ops;
/// # let ctx = tpu_custom_call::Context::new();
/// # let (bf16, f32) = (Type::bfloat16(&ctx), Type::float32(&ctx));
/// # let loc = Location::unknown(&ctx);
/// # let block = Block::new(&[(Type::vector(&[128, 128], bf16), loc), (Type::vector(&[128, 128], f32), loc)]);
/// # let (x, acc): (Value, Value) = (block.argument(0)?.into(), block.argument(1)?.into());
/// let op = ops::Matmul::new(x, x, acc).transpose_rhs(true).build(&ctx, loc);
/// assert!(op.to_string().contains("transpose_rhs = true"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Matmul<'c, 'v> {
    lhs: Value<'c, 'v>,
    rhs: Value<'c, 'v>,
    acc: Value<'c, 'v>,
    result_type: Option<Type<'c>>,
    transpose_lhs_hint: bool,
    transpose_lhs: bool,
    transpose_rhs: bool,
    precision: Option<ContractPrecision>,
    dimension_numbers: DotDimensionNumbers,
}

impl<'c, 'v> Matmul<'c, 'v> {
    /// `lhs @ rhs + acc` with Pallas's defaults.
    pub fn new(lhs: Value<'c, 'v>, rhs: Value<'c, 'v>, acc: Value<'c, 'v>) -> Self {
        Self {
            lhs,
            rhs,
            acc,
            result_type: None,
            transpose_lhs_hint: false,
            transpose_lhs: false,
            transpose_rhs: false,
            precision: None,
            dimension_numbers: DotDimensionNumbers::matmul_2d(),
        }
    }

    /// The attribute `transpose_lhs` (Pallas leaves it `false` and puts
    /// transposes in the dimension numbers).
    pub fn transpose_lhs(mut self, value: bool) -> Self {
        self.transpose_lhs = value;
        self
    }

    /// The attribute `transpose_rhs` (Pallas leaves it `false` and puts
    /// transposes in the dimension numbers).
    pub fn transpose_rhs(mut self, value: bool) -> Self {
        self.transpose_rhs = value;
        self
    }

    /// The attribute `transpose_lhs_hint`.
    pub fn transpose_lhs_hint(mut self, value: bool) -> Self {
        self.transpose_lhs_hint = value;
        self
    }

    /// The attribute `precision` (`precision=lax.Precision.HIGHEST` is
    /// [`ContractPrecision::Fp32`]).
    pub fn precision(mut self, precision: ContractPrecision) -> Self {
        self.precision = Some(precision);
        self
    }

    /// The attribute `dimension_numbers`.
    pub fn dimension_numbers(mut self, numbers: DotDimensionNumbers) -> Self {
        self.dimension_numbers = numbers;
        self
    }

    /// The result type (default: the accumulator's).
    pub fn result_type(mut self, ty: Type<'c>) -> Self {
        self.result_type = Some(ty);
        self
    }

    /// Builds the op.
    pub fn build(self, ctx: &'c MlirContext, location: Location<'c>) -> Operation<'c> {
        super::ops::matmul(
            ctx,
            self.lhs,
            self.rhs,
            self.acc,
            self.result_type.unwrap_or_else(|| self.acc.r#type()),
            self.transpose_lhs_hint,
            Some(self.transpose_lhs),
            Some(self.transpose_rhs),
            self.precision,
            Some(&self.dimension_numbers),
            location,
        )
    }
}
