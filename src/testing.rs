//! Assertions for lowering test suites: two modules' `tpu_custom_call`s are
//! equal by meaning ([`crate::diff`]), or the test fails with the report
//! `tpu-custom-call diff` prints.
//!
//! ```
//! use tpu_custom_call::testing::assert_calls_eq;
//!
//! // JAX's `jax.jit(f).lower(...).as_text()`, and the module your compiler emits.
//! let jax = std::fs::read_to_string("tests/data/jax-goldens/add_basic/module.mlir").unwrap();
//! let ours = jax.clone();
//! assert_calls_eq(&jax, &ours);
//! ```
//!
//! These functions panic (that is how a test fails), also when a module
//! cannot be decoded; use [`crate::diff::diff_modules`] to handle errors.

use crate::Context;
use crate::diff::{self, DiffOptions, DiffReport};

/// Compares the calls of two modules (text in JAX's pretty form or generic
/// form, or bytecode); `Err` when one cannot be decoded.
pub fn calls_diff(
    expected: impl AsRef<[u8]>,
    actual: impl AsRef<[u8]>,
    options: &DiffOptions,
) -> Result<DiffReport, crate::Error> {
    let ctx = Context::new();
    diff::diff_modules(
        &ctx,
        (expected.as_ref(), "expected"),
        (actual.as_ref(), "actual"),
        options,
    )
}

/// Asserts that the two modules' calls are equal by meaning (paired in
/// order); on failure panics with the diff report.
#[track_caller]
pub fn assert_calls_eq(expected: impl AsRef<[u8]>, actual: impl AsRef<[u8]>) {
    assert_calls_eq_with(expected, actual, &DiffOptions::default());
}

/// [`assert_calls_eq`] with options (pairing by name, ignored fields,
/// locations).
#[track_caller]
pub fn assert_calls_eq_with(
    expected: impl AsRef<[u8]>,
    actual: impl AsRef<[u8]>,
    options: &DiffOptions,
) {
    match calls_diff(expected, actual, options) {
        Ok(report) if report.is_equal() => {}
        Ok(report) => panic!("tpu_custom_calls differ:\n{report}"),
        Err(e) => panic!("cannot compare tpu_custom_calls: {e}"),
    }
}

/// Asserts that the calls of a module built in memory equal those of an
/// expected module given as text or bytecode (the module is printed first).
#[track_caller]
pub fn assert_module_calls_eq(expected: impl AsRef<[u8]>, actual: &melior::ir::Module<'_>) {
    let printed = match crate::kernel::print_module(
        actual,
        crate::PrintOptions {
            generic: true,
            debug_info: false,
        },
    ) {
        Ok(text) => text,
        Err(e) => panic!("cannot print the actual module: {e}"),
    };
    assert_calls_eq(expected, printed);
}
