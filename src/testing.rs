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

use std::path::Path;

use crate::Context;
use crate::diff::{self, DiffError, DiffOptions, DiffReport};

mod golden;
pub use golden::{
    BLESS_ENV, GoldenOptions, assert_golden, assert_golden_with, assert_module_golden, golden_diff,
    golden_diff_with,
};

/// Whether `bytes`, given where a module's text is expected, is rather a
/// file's path: one short line without spaces or MLIR punctuation that
/// names an existing file or ends like a module file's name.
pub fn looks_like_path(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let text = text.trim();
    if text.is_empty() || text.len() > 4096 || text.contains(char::is_whitespace) {
        return false;
    }
    if text.contains(['{', '(', '%', '"', '<', '=', '@']) {
        return false;
    }
    const ENDINGS: [&str; 5] = [".mlir", ".mlirbc", ".bc", ".txt", ".stablehlo"];
    Path::new(text).is_file() || ENDINGS.iter().any(|e| text.ends_with(e))
}

/// `Err(message)` when `bytes` (named `what`) [`looks_like_path`].
fn check_not_path(what: &str, bytes: &[u8]) -> Result<(), String> {
    if looks_like_path(bytes) {
        let text = String::from_utf8_lossy(bytes);
        return Err(format!(
            "{what} looks like a path (`{}`), not a module's text: pass the file's contents \
             (`std::fs::read(path)?`) or use the `_files` assertion (`assert_calls_eq_files`)",
            text.trim()
        ));
    }
    Ok(())
}

/// Compares the calls of two modules (text in JAX's pretty form or generic
/// form, or bytecode); `Err` when one cannot be decoded, or when one looks
/// like a file's path ([`looks_like_path`]: pass the contents, or use
/// [`calls_diff_files`]).
pub fn calls_diff(
    expected: impl AsRef<[u8]>,
    actual: impl AsRef<[u8]>,
    options: &DiffOptions,
) -> Result<DiffReport, DiffError> {
    calls_diff_named(
        (expected.as_ref(), "expected"),
        (actual.as_ref(), "actual"),
        options,
    )
}

/// [`calls_diff`] with the two sides named (file names, say): the report's
/// headings and kernel diffs carry the names.
pub fn calls_diff_named(
    expected: (&[u8], &str),
    actual: (&[u8], &str),
    options: &DiffOptions,
) -> Result<DiffReport, DiffError> {
    for (bytes, name) in [expected, actual] {
        check_not_path(&format!("the {name} module"), bytes)
            .map_err(|message| DiffError::NotAModule { message })?;
    }
    let ctx = Context::new();
    diff::diff_modules(&ctx, expected, actual, options)
}

/// [`calls_diff`] of two module files, the sides labelled with their paths.
pub fn calls_diff_files(
    expected: impl AsRef<Path>,
    actual: impl AsRef<Path>,
    options: &DiffOptions,
) -> Result<DiffReport, DiffError> {
    let (e, a) = (expected.as_ref(), actual.as_ref());
    let read = |p: &Path| {
        std::fs::read(p).map_err(|err| DiffError::NotAModule {
            message: format!("cannot read {}: {err}", p.display()),
        })
    };
    let (eb, ab) = (read(e)?, read(a)?);
    calls_diff_named(
        (&eb, &e.display().to_string()),
        (&ab, &a.display().to_string()),
        options,
    )
}

/// Asserts that two module files' calls are equal by meaning; the report
/// names the files.
#[track_caller]
pub fn assert_calls_eq_files(
    expected: impl AsRef<Path>,
    actual: impl AsRef<Path>,
    options: &DiffOptions,
) {
    match calls_diff_files(expected, actual, options) {
        Ok(report) if report.is_equal() => {}
        Ok(report) => panic!("tpu_custom_calls differ:\n{report}"),
        Err(e) => panic!("cannot compare tpu_custom_calls: {e}"),
    }
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

/// Runs the `index`-th `tpu_custom_call` of a module on the CPU
/// ([`crate::exec`]) with `inputs` and returns its results; panics naming
/// the call if it cannot be decoded or run.
#[cfg(feature = "exec")]
#[track_caller]
pub fn run_call(
    module: impl AsRef<[u8]>,
    index: usize,
    inputs: &[crate::exec::Array],
) -> Vec<crate::exec::Array> {
    let ctx = Context::new();
    let calls = match crate::decode::decode_module(&ctx, module.as_ref(), "module") {
        Ok(c) => c,
        Err(e) => panic!("cannot decode the module: {e}"),
    };
    let Some(call) = calls.get(index) else {
        panic!(
            "the module has {} tpu_custom_call(s), no #{index}",
            calls.len()
        )
    };
    let run = crate::exec::Execution::of_call(call)
        .and_then(|e| e.run(inputs, &crate::exec::RunOptions::default()));
    match run {
        Ok(r) => r,
        Err(e) => panic!("tpu_custom_call #{index} did not run: {e}"),
    }
}

/// Asserts that a module's `index`-th `tpu_custom_call`, executed on the
/// CPU with `inputs`, computes `expected` within `|a - e| <= atol + rtol *
/// |e|` elementwise; on failure panics naming the result, its worst element
/// and both values. A lowering test harness uses this where its kernel and
/// JAX's differ as text but must compute the same numbers.
///
/// ```
/// use tpu_custom_call::exec::{Array, ElemType};
/// use tpu_custom_call::testing::{assert_call_computes, run_call};
///
/// // JAX's lowering of `x + y` over f32[8, 128].
/// let module = std::fs::read("tests/data/jax-goldens/add_basic/module.mlir").unwrap();
/// let x = Array::filled(ElemType::F32, &[8, 128], 1.5);
/// let y = Array::filled(ElemType::F32, &[8, 128], 2.0);
/// assert_call_computes(&module, 0, &[x, y], &[Array::filled(ElemType::F32, &[8, 128], 3.5)], 0.0, 0.0);
/// ```
#[cfg(feature = "exec")]
#[track_caller]
pub fn assert_call_computes(
    module: impl AsRef<[u8]>,
    index: usize,
    inputs: &[crate::exec::Array],
    expected: &[crate::exec::Array],
    rtol: f64,
    atol: f64,
) {
    let results = run_call(module, index, inputs);
    assert_eq!(
        results.len(),
        expected.len(),
        "tpu_custom_call #{index} has {} result(s), {} expected",
        results.len(),
        expected.len()
    );
    for (k, (r, e)) in results.iter().zip(expected).enumerate() {
        if let Err(m) = crate::exec::compare(r, e, rtol, atol) {
            panic!("tpu_custom_call #{index}: result {k} differs: {m}");
        }
    }
}

/// Asserts that a whole module's `@main` ([`crate::program::Program`]:
/// XLA's CPU compiler for the StableHLO, the executor for every kernel
/// call) computes `expected` from `inputs`, each result within
/// `rtol`/`atol` (NaN equal to NaN). Panics naming the result that differs,
/// or with the load or run error (which names the call that failed). Needs
/// the PJRT CPU plugin (`crate::pjrt::find_cpu_plugin`).
///
/// ```no_run
/// use tpu_custom_call::exec::{Array, ElemType};
/// use tpu_custom_call::testing::assert_program_computes;
///
/// let module = std::fs::read("mlir-fixtures/jax-programs/pallas_add.mlir").unwrap();
/// let x = Array::filled(ElemType::F32, &[8, 128], 1.5);
/// let y = Array::filled(ElemType::F32, &[8, 128], 2.0);
/// assert_program_computes(&module, &[x, y], &[Array::filled(ElemType::F32, &[8, 128], 3.5)], 0.0, 0.0);
/// ```
#[cfg(all(feature = "exec", feature = "pjrt"))]
#[track_caller]
pub fn assert_program_computes(
    module: impl AsRef<[u8]>,
    inputs: &[crate::exec::Array],
    expected: &[crate::exec::Array],
    rtol: f64,
    atol: f64,
) {
    let ctx = Context::new();
    let out = crate::program::run_module(
        &ctx,
        module.as_ref(),
        "module",
        inputs,
        &crate::program::ProgramOptions::default(),
    )
    .unwrap_or_else(|e| panic!("the program fails: {e}"));
    assert_eq!(
        out.results.len(),
        expected.len(),
        "@main has {} result(s), {} expected",
        out.results.len(),
        expected.len()
    );
    for (k, (r, e)) in out.results.iter().zip(expected).enumerate() {
        if let Err(m) = crate::exec::compare(r, e, rtol, atol) {
            panic!("@main's result {k} differs: {m}");
        }
    }
}

/// The Mosaic module (MLIR's printout) of a small TensorCore kernel whose
/// body `body` builds: the shared setup of the idioms' examples
/// ([`crate::mosaic::pallas::Body`]), not an API. Panics when the kernel
/// does not build. Grid `(2,)`; its refs, in `k.refs()` order:
///
/// | ref | type | window |
/// |---|---|---|
/// | `s` (scalar prefetch) | `memref<4xi32, smem>` | |
/// | `x` (input 0) | `memref<8x128xf32, vmem>` | block `(8, 128)` of f32\[16, 128\] at `(i, 0)` |
/// | `n` (input 1) | `memref<8x128xi32, vmem>` | block `(8, 128)` at `(i, 0)` |
/// | `h` (input 2) | `memref<16x128xf32, any>` | whole |
/// | `o` (output 0) | `memref<8x128xf32, vmem>` | block `(8, 128)` at `(i, 0)` |
/// | `acc` (scratch 0) | `memref<2x8x128xf32, vmem>` | |
/// | `sems` (scratch 1) | `memref<2x!tpu.dma_semaphore, semaphore_mem>` | |
/// | `flag` (scratch 2) | `memref<!tpu.semaphore, semaphore_mem>` | |
#[doc(hidden)]
pub fn doc_kernel(
    body: impl for<'c, 'a> FnOnce(
        &crate::mosaic::pallas::KernelArgs<'c, 'a>,
    ) -> Result<(), crate::mosaic::BuildError>,
) -> String {
    use crate::melior::ir::Type;
    use crate::melior::ir::r#type::IntegerType;
    use crate::mosaic::attrs::{self, MemorySpace};
    use crate::mosaic::pallas::{Arg, IndexExpr, IndexMap, KernelSpec, Window};
    let ctx = Context::new();
    let (f32, i32) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let rows = || {
        Window::blocked(
            &[8, 128],
            IndexMap::Exprs(vec![IndexExpr::Grid(0), IndexExpr::Const(0)]),
        )
    };
    let vmem = |shape: &[i64], t| Arg::memref(&ctx, shape, t, MemorySpace::Vmem);
    let sem = |shape: &[i64], t| Arg::memref(&ctx, shape, t, MemorySpace::SemaphoreMem);
    let module = KernelSpec::new("example")
        .grid(&[2], &[])
        .scalar_prefetch(Arg::memref(&ctx, &[4], i32, MemorySpace::Smem))
        .in_specs([
            vmem(&[8, 128], f32).window(rows()),
            vmem(&[8, 128], i32).window(rows()),
            Arg::memref(&ctx, &[16, 128], f32, MemorySpace::Any),
        ])
        .output(vmem(&[8, 128], f32).window(rows()))
        .scratch_shapes([
            vmem(&[2, 8, 128], f32),
            sem(&[2], attrs::dma_semaphore_type(&ctx)),
            sem(&[], attrs::semaphore_type(&ctx)),
        ])
        .build(&ctx, body)
        .unwrap_or_else(|e| panic!("{e}"));
    module.as_operation().to_string()
}

/// [`doc_kernel`] of a SparseCore kernel (`pl.kernel` on a vector-subcore
/// mesh of 1 core x 16 subcores, 16 lanes). Its refs, in `k.refs()` order:
/// inputs `x_hbm` (`memref<16xf32, hbm>`) and `i_hbm` (`memref<16xi32,
/// hbm>`), output `o_hbm` (`memref<16xf32, hbm>`), scratch `x`
/// (`memref<16xf32, vmem>`), `i` (`memref<16xi32, vmem>`), `o`
/// (`memref<16xf32, vmem>`).
#[doc(hidden)]
pub fn doc_sc_kernel(
    body: impl for<'c, 'a> FnOnce(
        &crate::mosaic::pallas::KernelArgs<'c, 'a>,
    ) -> Result<(), crate::mosaic::BuildError>,
) -> String {
    use crate::melior::ir::Type;
    use crate::melior::ir::r#type::IntegerType;
    use crate::mosaic::attrs::MemorySpace;
    use crate::mosaic::pallas::{Arg, KernelSpec};
    let ctx = Context::new();
    let (f32, i32) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let arg = |t, space| Arg::memref(&ctx, &[16], t, space);
    let module = KernelSpec::vector_subcore_mesh("example", 1, 16)
        .in_specs([arg(f32, MemorySpace::Hbm), arg(i32, MemorySpace::Hbm)])
        .output(arg(f32, MemorySpace::Hbm))
        .scratch_shapes([
            arg(f32, MemorySpace::Vmem),
            arg(i32, MemorySpace::Vmem),
            arg(f32, MemorySpace::Vmem),
        ])
        .build(&ctx, body)
        .unwrap_or_else(|e| panic!("{e}"));
    module.as_operation().to_string()
}

/// The Mosaic module (MLIR's printout) of the kernel `spec` describes,
/// with an empty body: the shared setup of the examples of
/// [`crate::mosaic::pallas::KernelSpec`], not an API. Panics when the kernel
/// does not build.
#[doc(hidden)]
pub fn doc_spec(
    spec: impl for<'c> FnOnce(&'c crate::melior::Context) -> crate::mosaic::pallas::KernelSpec<'c>,
) -> String {
    let ctx = Context::new();
    let module = spec(&ctx)
        .build(&ctx, |_| Ok::<(), crate::mosaic::BuildError>(()))
        .unwrap_or_else(|e| panic!("{e}"));
    module.as_operation().to_string()
}

/// Asserts that every `tpu_custom_call` of a module (text in JAX's pretty or
/// generic form, or bytecode) is valid for `target` (a [`crate::Chip`], or
/// `None`: JAX's rules and ours, not a chip's): its config, body, kernel,
/// parameters, layouts and call contract
/// ([`crate::validate::module_report`]). On failure panics with every
/// problem, each labelled with its call (`tpu_custom_call #1 (matmul) at
/// line 12: ...`); libtpu's warnings are printed on stderr.
///
/// ```
/// use tpu_custom_call::{Chip, testing::assert_module_valid};
///
/// let jax = std::fs::read("tests/data/jax-goldens/add_basic/module.mlir").unwrap();
/// assert_module_valid(&jax, Chip::V5e);
/// assert_module_valid(&jax, Chip::V6e);
/// ```
#[track_caller]
pub fn assert_module_valid(module: impl AsRef<[u8]>, target: impl Into<Option<crate::Chip>>) {
    let module = module.as_ref();
    if let Err(message) = check_not_path("the module", module) {
        panic!("{message}");
    }
    let ctx = Context::new();
    let report = match crate::validate::module_report(
        &ctx,
        module,
        "the module",
        target.into(),
        &crate::validate::ValidateOptions::default(),
    ) {
        Ok(report) => report,
        Err(e) => panic!("cannot validate the module: {e}"),
    };
    for warning in report.warnings() {
        eprintln!("warning: {warning}");
    }
    if !report.is_valid() {
        panic!("{report}");
    }
}

/// Asserts that every `.npy` file of the folder `expected` has a file of
/// the same name in `actual` holding the same array within
/// `|a - e| <= atol + rtol * |e|` elementwise (NaN equal to NaN), as
/// `tpu-custom-call run --compare DIR` compares; the element types come from the files
/// ([`crate::exec::npy::read`]: bf16 as `ml_dtypes` saves it, `<V2`; the
/// actual file is read with the expected one's type, so `uint16` bit
/// patterns compare with `<V2` bf16). A file only in `actual` is an error
/// too. On failure panics listing every file that differs, with its worst
/// element.
#[cfg(feature = "exec")]
#[track_caller]
pub fn assert_npy_dir_eq(
    expected: impl AsRef<Path>,
    actual: impl AsRef<Path>,
    rtol: f64,
    atol: f64,
) {
    if let Err(problems) = npy_dir_diff(expected.as_ref(), actual.as_ref(), rtol, atol) {
        panic!("{problems}");
    }
}

/// The comparison behind [`assert_npy_dir_eq`]: `Err` lists each problem.
#[cfg(feature = "exec")]
fn npy_dir_diff(expected: &Path, actual: &Path, rtol: f64, atol: f64) -> Result<(), String> {
    use crate::exec::npy;
    let names = |dir: &Path| -> Result<Vec<String>, String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read the folder {}: {e}", dir.display()))?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".npy"))
            .collect();
        names.sort();
        Ok(names)
    };
    let (want, got) = (names(expected)?, names(actual)?);
    if want.is_empty() {
        return Err(format!(
            "{}: no .npy file to compare with",
            expected.display()
        ));
    }
    let mut problems = Vec::new();
    for name in &want {
        let (e, a) = (expected.join(name), actual.join(name));
        if !got.contains(name) {
            problems.push(format!("{name}: missing from {}", actual.display()));
            continue;
        }
        let compared = npy::read(&e, None)
            .and_then(|ex| npy::read(&a, ex.elem).map(|ac| (ex, ac)))
            .map_err(|err| err.to_string())
            .and_then(|(ex, ac)| {
                crate::exec::compare(&ac, &ex, rtol, atol).map_err(|m| m.to_string())
            });
        if let Err(m) = compared {
            problems.push(format!("{name}: {m}"));
        }
    }
    for name in got.iter().filter(|n| !want.contains(n)) {
        problems.push(format!("{name}: only in {}", actual.display()));
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the .npy files of {} ({}) and {} differ (rtol {rtol}, atol {atol}): {} problem(s):\n  {}",
        expected.display(),
        want.len(),
        actual.display(),
        problems.len(),
        problems.join("\n  ")
    ))
}

/// Runs a module's `index`-th call on the CPU with `inputs` and asserts its
/// results equal `dir/result<k>.npy` (or `out<k>.npy`, JAX reference
/// folders' name) within `rtol`/`atol`: `tpu-custom-call run --compare
/// DIR` in a test. Panics naming each result that differs.
#[cfg(feature = "exec")]
#[track_caller]
pub fn assert_call_matches_dir(
    module: impl AsRef<[u8]>,
    index: usize,
    inputs: &[crate::exec::Array],
    dir: impl AsRef<Path>,
    rtol: f64,
    atol: f64,
) {
    let results = run_call(module, index, inputs);
    let dir = dir.as_ref();
    let comparisons = match crate::exec::host::compare_with_dir(&results, dir, rtol, atol) {
        Ok(c) => c,
        Err(e) => panic!("tpu_custom_call #{index}: {e}"),
    };
    let bad: Vec<String> = comparisons
        .iter()
        .filter_map(|c| {
            c.mismatch
                .as_ref()
                .map(|m| format!("result {} vs {}: {m}", c.result, c.reference.display()))
        })
        .collect();
    if !bad.is_empty() {
        panic!(
            "tpu_custom_call #{index} differs from {}:\n  {}",
            dir.display(),
            bad.join("\n  ")
        );
    }
}

/// Asserts that libtpu (0.0.50.1, [`crate::compile`]) compiles the module
/// for `chip`, in a worker process: on Linux the test binary itself (no
/// binary of yours, no setup; [`crate::compile::find_worker`]). Panics with
/// libtpu's message when it refuses, crashes or times out. Without a
/// `libtpu.so` ([`crate::compile::find_libtpu`]: `TPU_LIBRARY_PATH`, or
/// `~/.cache/tpu-custom-call/libtpu/0.0.50.1/libtpu.so`) it prints
/// `SKIPPED assert_module_compiles: ...` on stderr and returns: a suite
/// that must compile can check [`crate::compile::find_libtpu`] itself.
#[cfg(feature = "pjrt")]
#[track_caller]
pub fn assert_module_compiles(module: impl AsRef<[u8]>, chip: crate::Chip) {
    let module = module.as_ref();
    if let Err(message) = check_not_path("the module", module) {
        panic!("{message}");
    }
    let libtpu = match crate::compile::find_libtpu(None) {
        Ok(path) => path,
        Err(e) => {
            eprintln!("SKIPPED assert_module_compiles: {e}");
            return;
        }
    };
    let options = crate::compile::CompileOptions {
        chip,
        libtpu: Some(libtpu),
        ..Default::default()
    };
    match crate::compile::compile_module(module, &options) {
        Ok(verdict) if verdict.is_ok() => {}
        Ok(verdict) => panic!(
            "libtpu does not compile the module for {chip}: {}",
            verdict.error().unwrap_or_default()
        ),
        Err(e) => panic!("cannot compile the module for {chip}: {e}"),
    }
}
