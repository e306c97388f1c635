//! The grid rule: which `iteration_bounds` libtpu compiles, in one place for
//! `validate` (the call contract), `run` (the executor, after reading dynamic
//! bounds) and `estimate`.
//!
//! Measured with libtpu 0.0.50.1 (`compile --target v6e`, a 2-D grid of one
//! 8x128 block; `docs/robustness.md` has the table):
//! - a bound below 0 or above 2147483646 (`-3`, `-1`, `2147483648`, `2^60`):
//!   `iteration_bounds should be between 0 and 2147483646`;
//! - a step count (the product of the bounds) of 2147483647 or more
//!   (`(65536, 65536)`, `(46341, 46341)`, `(1073741824, 2)`): `count <
//!   std::numeric_limits<int32_t>::max() Iteration bounds are too large:
//!   (65536, 65536)`;
//! - a bound of 0 compiles (the grid has no step).
//!
//! The step count is computed without wrapping ([`steps`]): every figure
//! another module derives from the grid (points per core, a point's linear
//! index) stays below 2^31 once the rule holds.

/// The largest `iteration_bounds` entry libtpu compiles.
pub const MAX_BOUND: i64 = 2_147_483_646;

/// The largest single bound libtpu 0.0.50.1 was measured to compile: every
/// bound from 2147483519 to 2147483646 (inside its stated range) fails with
/// `Wrong number of window_params: expected 1, got 2` (measured, a grid of
/// one dimension; `docs/robustness.md`).
pub const MAX_COMPILED_BOUND: i64 = 2_147_483_518;

/// The largest step count (product of the bounds) libtpu compiles: it counts
/// steps in an `int32` and requires `count < INT32_MAX`.
pub const MAX_STEPS: u64 = 2_147_483_646;

/// `ShapedType::kDynamic`: a bound read from an operand at run time.
const DYNAMIC: i64 = i64::MIN;

/// A grid libtpu refuses: libtpu's words first, then which bound or grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// A bound outside `0..=2147483646` (libtpu's message).
    #[error(
        "iteration_bounds should be between 0 and 2147483646: dimension {dimension} of the grid of \
         `{function}` is {bound}"
    )]
    Bound {
        /// The kernel's main function.
        function: String,
        /// The grid dimension.
        dimension: usize,
        /// Its bound.
        bound: i64,
    },
    /// A bound inside libtpu's stated range that it fails to compile
    /// (above [`MAX_COMPILED_BOUND`]).
    #[error(
        "Wrong number of window_params: expected 1, got 2: libtpu 0.0.50.1 fails on a grid bound above \
         2147483518 (measured; its stated range ends at 2147483646): dimension {dimension} of the grid \
         of `{function}` is {bound}"
    )]
    BoundNotCompiled {
        /// The kernel's main function.
        function: String,
        /// The grid dimension.
        dimension: usize,
        /// Its bound.
        bound: i64,
    },
    /// The grid has 2147483647 steps or more (libtpu's message, whose count
    /// is an `int32`).
    #[error(
        "Iteration bounds are too large: ({grid}): the grid of `{function}` has {steps} steps and \
         libtpu needs fewer than 2147483647 (count < std::numeric_limits<int32_t>::max()); use \
         larger blocks for a smaller grid"
    )]
    TooLarge {
        /// The kernel's main function.
        function: String,
        /// The bounds, comma-separated.
        grid: String,
        /// The step count (exact; it may exceed `u64`).
        steps: String,
    },
}

/// The step count of `grid` (static bounds; `None` while a bound is dynamic,
/// [`i64::MIN`]) if libtpu compiles it, else the [`GridError`]. Dynamic bounds
/// are checked when their value is known: call this again with them resolved.
pub fn steps(function: &str, grid: &[i64]) -> Result<Option<u64>, GridError> {
    for (dimension, &bound) in grid.iter().enumerate() {
        if bound != DYNAMIC && !(0..=MAX_BOUND).contains(&bound) {
            return Err(GridError::Bound {
                function: function.to_string(),
                dimension,
                bound,
            });
        }
    }
    if let Some((dimension, &bound)) = grid
        .iter()
        .enumerate()
        .find(|(_, b)| **b > MAX_COMPILED_BOUND)
    {
        return Err(GridError::BoundNotCompiled {
            function: function.to_string(),
            dimension,
            bound,
        });
    }
    if grid.contains(&DYNAMIC) {
        return Ok(None);
    }
    // Each bound is below 2^31: a u128 holds the product of four; past that
    // the count saturates, which is already far above the limit (a zero bound
    // makes the product 0 whatever came before).
    let product = grid
        .iter()
        .fold(1u128, |acc, &b| acc.saturating_mul(b as u128));
    if product > u128::from(MAX_STEPS) {
        let steps = if product == u128::MAX {
            format!("more than {}", u128::MAX)
        } else {
            product.to_string()
        };
        return Err(GridError::TooLarge {
            function: function.to_string(),
            grid: grid
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            steps,
        });
    }
    Ok(Some(product as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtpu_bounds() {
        assert_eq!(steps("k", &[]), Ok(Some(1)));
        assert_eq!(steps("k", &[0, 1]), Ok(Some(0)));
        assert_eq!(steps("k", &[2_147_483_518, 1]), Ok(Some(2_147_483_518)));
        assert_eq!(steps("k", &[1_073_741_800, 2]), Ok(Some(2_147_483_600)));
        for unlowered in [2_147_483_519, 2_147_483_646] {
            assert!(matches!(
                steps("k", &[unlowered, 1]),
                Err(GridError::BoundNotCompiled { dimension: 0, .. })
            ));
        }
        assert_eq!(steps("k", &[DYNAMIC, 4]), Ok(None));
        for bad in [-3, -1, 2_147_483_647, 1_085_102_592_571_150_096] {
            let e = steps("k", &[1, bad]).unwrap_err();
            assert!(matches!(e, GridError::Bound { dimension: 1, bound, .. } if bound == bad));
        }
        let e = steps("k", &[65536, 65536]).unwrap_err().to_string();
        assert!(
            e.starts_with("Iteration bounds are too large: (65536, 65536): the grid of `k` has 4294967296 steps"),
            "{e}"
        );
        // A product past u128 saturates; a zero bound after it is 0 steps.
        let big = [MAX_COMPILED_BOUND; 6];
        assert!(
            steps("k", &big)
                .unwrap_err()
                .to_string()
                .contains("more than")
        );
        assert_eq!(
            steps(
                "k",
                &[
                    MAX_COMPILED_BOUND,
                    MAX_COMPILED_BOUND,
                    MAX_COMPILED_BOUND,
                    MAX_COMPILED_BOUND,
                    MAX_COMPILED_BOUND,
                    0
                ]
            ),
            Ok(Some(0))
        );
    }
}
