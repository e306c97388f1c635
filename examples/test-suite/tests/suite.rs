//! The test suite of a compiler that emits `tpu_custom_call`s
//! (`tcc_test_suite_example::lower_add`), with tpu-custom-call's `testing`
//! kit: its module against a golden (JAX's own lowering of the same Pallas
//! kernel, compared by meaning), valid for the chips it targets, the numbers
//! it computes on the CPU against JAX's, and libtpu compiling it.
//!
//! `cargo test` checks; `BLESS=1 cargo test` rewrites a golden that differs
//! from what the compiler now emits (only from a passing test, only a valid
//! module, one golden per assertion).

use tcc_test_suite_example::{Options, lower_add};
use tpu_custom_call::Chip;
use tpu_custom_call::exec::npy;
use tpu_custom_call::testing;

fn module() -> String {
    lower_add(&Options::default()).expect("the compiler lowers add")
}

/// The golden is JAX's `jax.jit(f).lower(x, y).as_text()` for the same
/// kernel: other bytes (pretty form, JAX's producer, MLIR 24 encodings),
/// the same call.
#[test]
fn add_matches_its_golden() {
    testing::assert_golden(module(), "tests/goldens/add.mlir");
}

/// A negative test: a changed parameter is detected, and named. It uses
/// `golden_diff`, which never blesses.
#[test]
fn a_changed_vmem_limit_is_detected() {
    let changed = lower_add(&Options {
        vmem_limit_bytes: Some(1 << 20),
    })
    .unwrap();
    let report = testing::golden_diff(&changed, "tests/goldens/add.mlir");
    assert_eq!(report.fields(), ["vmem_limit_bytes"], "{report}");
}

/// Every call valid for each chip the compiler targets (JAX's rules,
/// libtpu's, the call contract, scoped VMEM).
#[test]
fn add_is_valid_for_v5e_and_v6e() {
    let module = module();
    testing::assert_module_valid(&module, Chip::V5e);
    testing::assert_module_valid(&module, Chip::V6e);
}

/// The numbers: the call run on the CPU with JAX's inputs gives JAX's
/// result (`tests/reference/make.py`: Pallas in interpret mode).
#[test]
fn add_computes_what_jax_computes() {
    let x = npy::read("tests/reference/input0.npy".as_ref(), None).unwrap();
    let y = npy::read("tests/reference/input1.npy".as_ref(), None).unwrap();
    testing::assert_call_matches_dir(module(), 0, &[x, y], "tests/reference", 0.0, 0.0);
}

/// libtpu compiles it for v5e (this test binary is libtpu's worker; without
/// libtpu.so the test prints SKIPPED).
#[test]
fn add_compiles_for_v5e() {
    testing::assert_module_compiles(module(), Chip::V5e);
}
