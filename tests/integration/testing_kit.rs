//! The kit for test suites (issue 50): goldens compared by meaning and
//! blessed under the rules of `testing::golden` (only from a passing test,
//! only a valid module, one golden per assertion), every call of a module
//! validated with labelled problems, a path given where a module's text is
//! expected said as such.

use std::path::{Path, PathBuf};

use tpu_custom_call::Chip;
use tpu_custom_call::testing::{self, GoldenOptions};
use tpu_custom_call::validate::{ValidateOptions, module_report};

use crate::common::*;

/// JAX's module of a golden case, as JAX printed it (pretty form).
fn jax_module(case: &str) -> Vec<u8> {
    std::fs::read(goldens_dir().join(case).join("module.mlir")).unwrap()
}

/// jaxlib's generic print of the same module: other bytes, the same meaning.
fn jax_generic(case: &str) -> Vec<u8> {
    std::fs::read(
        fixtures_dir()
            .join("jax-modules")
            .join(format!("{case}.mlir")),
    )
    .unwrap()
}

/// A fresh folder for one test's goldens.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-kit-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bless() -> GoldenOptions {
    GoldenOptions {
        bless: true,
        ..GoldenOptions::default()
    }
}

fn no_bless() -> GoldenOptions {
    GoldenOptions::default()
}

/// Runs `f` in a thread named like a test (as libtest runs each test), and
/// returns its panic message, if it panicked. The thread has ended (its
/// pending blesses written or dropped) when this returns.
fn in_test_thread(name: &str, f: impl FnOnce() + Send + 'static) -> Option<String> {
    let joined = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(f)
        .unwrap()
        .join();
    joined.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

/// The add module with operand layouts JAX never writes (column-major): it
/// decodes, and is invalid.
fn invalid_add() -> Vec<u8> {
    let text = String::from_utf8(jax_module("add_basic")).unwrap();
    let bad = text.replacen(
        "operand_layouts = [dense<[1, 0]>",
        "operand_layouts = [dense<[0, 1]>",
        1,
    );
    assert_ne!(bad, text);
    bad.into_bytes()
}

#[test]
fn golden_equal_by_meaning_passes_and_is_not_rewritten() {
    let dir = scratch("equal");
    let golden = dir.join("add.mlir");
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    // The generic print: other bytes, same calls. Even when blessing, nothing is written.
    let generic = jax_generic("add_basic");
    let panicked = in_test_thread("equal", move || {
        testing::assert_golden_with(&generic, dir.join("add.mlir"), &bless());
    });
    assert_eq!(panicked, None);
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
}

#[test]
fn golden_difference_fails_with_the_report_and_how_to_bless() {
    let dir = scratch("differs");
    let golden = dir.join("g.mlir");
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    let g = golden.clone();
    let message = in_test_thread("differs", move || {
        testing::assert_golden_with(jax_module("matmul_grid"), &g, &no_bless());
    })
    .expect("a different module fails");
    assert!(message.contains("differs from the golden"), "{message}");
    assert!(message.contains(&golden.display().to_string()), "{message}");
    assert!(message.contains("BLESS=1 cargo test"), "{message}");
    assert!(message.contains("lowered_module_asm"), "{message}");
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
    // A missing golden without blessing: said, and not created.
    let missing = dir.join("missing.mlir");
    let m = missing.clone();
    let message = in_test_thread("missing", move || {
        testing::assert_golden_with(jax_module("add_basic"), &m, &no_bless());
    })
    .unwrap();
    assert!(
        message.contains("does not exist; BLESS=1 cargo test writes it"),
        "{message}"
    );
    assert!(!missing.exists());
}

#[test]
fn bless_rewrites_only_that_golden_when_the_test_passes() {
    let dir = scratch("bless");
    let (golden, other) = (dir.join("g.mlir"), dir.join("other.mlir"));
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    std::fs::write(&other, jax_module("add_basic")).unwrap();
    let g = golden.clone();
    let created = dir.join("new/created.mlir");
    let c = created.clone();
    let panicked = in_test_thread("bless_passing", move || {
        testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless());
        testing::assert_golden_with(jax_module("matmul_grid"), &c, &bless());
        // Not yet: the test has not passed yet.
        assert_eq!(read(&g).unwrap(), jax_module("add_basic"));
        assert!(!c.exists());
    });
    assert_eq!(panicked, None);
    assert_eq!(read(&golden).unwrap(), jax_module("matmul_grid"));
    assert_eq!(read(&created).unwrap(), jax_module("matmul_grid"));
    assert_eq!(read(&other).unwrap(), jax_module("add_basic"));
    // No temporary file left beside them.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["g.mlir", "new", "other.mlir"]);
}

#[test]
fn a_negative_test_never_blesses() {
    let dir = scratch("negative");
    let golden = dir.join("g.mlir");
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    // A `#[should_panic]` test: it asserts a changed module and expects the panic.
    let g = golden.clone();
    let panicked = in_test_thread("should_panic_test", move || {
        testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless());
        panic!("expected: the golden detects the change");
    });
    assert!(panicked.is_some());
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
    // A test that expects the failure with catch_unwind: under BLESS the
    // assertion does not panic, so its own check fails, and nothing is written.
    let g = golden.clone();
    let panicked = in_test_thread("catch_unwind_test", move || {
        let caught = std::panic::catch_unwind(|| {
            testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless())
        });
        assert!(caught.is_err(), "the changed module was not detected");
    });
    assert!(panicked.unwrap().contains("was not detected"));
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
    // A test failing after its golden assertion does not bless either.
    let g = golden.clone();
    let panicked = in_test_thread("fails_later", move || {
        testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless());
        assert_eq!(1 + 1, 3, "a later check");
    });
    assert!(panicked.is_some());
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
    // golden_diff, for negative tests, reports and never blesses.
    let report = testing::golden_diff(jax_module("matmul_grid"), &golden);
    assert!(!report.is_equal());
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
}

#[test]
fn an_invalid_module_is_never_blessed() {
    let dir = scratch("invalid");
    let golden = dir.join("g.mlir");
    let g = golden.clone();
    let message = in_test_thread("invalid", move || {
        testing::assert_golden_with(invalid_add(), &g, &bless());
    })
    .unwrap();
    assert!(message.contains("not blessed"), "{message}");
    assert!(message.contains("only a valid module"), "{message}");
    assert!(
        message.contains("tpu_custom_call #0 (_add_kernel) at line 3: `operand_layouts`"),
        "{message}"
    );
    assert!(!golden.exists());
}

#[test]
fn one_golden_per_assertion_several_disagreeing_bless_nothing() {
    let dir = scratch("conflict");
    let golden = dir.join("shared.mlir");
    // The first test blesses (a new golden), the second asserts another module on it.
    let g = golden.clone();
    assert_eq!(
        in_test_thread("first_test", move || {
            testing::assert_golden_with(jax_module("add_basic"), &g, &bless())
        }),
        None
    );
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
    let g = golden.clone();
    let message = in_test_thread("second_test", move || {
        testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless())
    })
    .expect("the second assertion fails");
    assert!(
        message.contains("several assertions on the golden"),
        "{message}"
    );
    assert!(
        message.contains("test first_test compared it with another module than test second_test"),
        "{message}"
    );
    assert!(message.contains("one golden per assertion"), "{message}");
    assert!(
        message.contains("the bless test first_test wrote is undone"),
        "{message}"
    );
    // Undone: the golden did not exist before.
    assert!(!golden.exists());
    // A third assertion agreeing with the first is not blessed either.
    let g = golden.clone();
    assert_eq!(
        in_test_thread("third_test", move || {
            testing::assert_golden_with(jax_module("add_basic"), &g, &bless())
        }),
        None
    );
    assert!(!golden.exists());
    // Two assertions with modules equal by meaning are one golden.
    let same = dir.join("same.mlir");
    for (name, module) in [
        ("pretty", jax_module("add_basic")),
        ("generic", jax_generic("add_basic")),
    ] {
        let s = same.clone();
        let r = in_test_thread(name, move || {
            testing::assert_golden_with(module, &s, &bless())
        });
        assert_eq!(r, None);
    }
    assert_eq!(read(&same).unwrap(), jax_module("add_basic"));
}

#[test]
fn bless_only_with_bless_1() {
    // The environment of this process is not changed (tests run in parallel):
    // the rule is that of GoldenOptions::from_env, checked on its words.
    assert_eq!(testing::BLESS_ENV, "BLESS");
    let expected = std::env::var("BLESS").is_ok_and(|v| v == "1");
    assert_eq!(GoldenOptions::from_env().bless, expected);
}

#[test]
fn a_path_given_as_a_module_is_said_to_be_one() {
    let e = testing::calls_diff(
        "tests/data/jax-goldens/add_basic/module.mlir",
        jax_module("add_basic"),
        &Default::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with(
            "the expected module looks like a path (`tests/data/jax-goldens/add_basic/module.mlir`), \
             not a module's text: pass the file's contents"
        ),
        "{e}"
    );
    let panic = std::panic::catch_unwind(|| {
        testing::assert_calls_eq(jax_module("add_basic"), "tests/golden.mlir")
    })
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("the actual module looks like a path"),
        "{message}"
    );
    // Module text is never taken for a path.
    assert!(!testing::looks_like_path(&jax_module("add_basic")));
    assert!(!testing::looks_like_path(b"module {}"));
    // The files' assertion names the files.
    let a = goldens_dir().join("add_basic/module.mlir");
    let b = goldens_dir().join("matmul_grid/module.mlir");
    testing::assert_calls_eq_files(
        &a,
        fixtures_dir().join("jax-modules/add_basic.mlir"),
        &Default::default(),
    );
    let report = testing::calls_diff_files(&a, &b, &Default::default()).unwrap();
    let text = report.to_string();
    assert!(
        text.contains(&format!("--- {} (1 call)", a.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("+++ {} (1 call)", b.display())),
        "{text}"
    );
}

#[test]
fn module_report_labels_every_problem_with_its_call() {
    let ctx = tpu_custom_call::Context::new();
    let ok = module_report(
        &ctx,
        &jax_module("matmul_grid"),
        "matmul.mlir",
        Some(Chip::V6e),
        &ValidateOptions::default(),
    )
    .unwrap();
    assert!(ok.is_valid(), "{ok}");
    assert_eq!(
        ok.to_string(),
        "matmul.mlir: 1 tpu_custom_call valid for v6e"
    );
    let bad = module_report(
        &ctx,
        &invalid_add(),
        "bad.mlir",
        None,
        &ValidateOptions::default(),
    )
    .unwrap();
    assert!(!bad.is_valid());
    let text = bad.to_string();
    assert!(
        text.starts_with(
            "bad.mlir: 1 of 1 tpu_custom_call invalid under JAX's rules and ours (no target chip) (1 problem):\n  \
             tpu_custom_call #0 (_add_kernel) at line 3: `operand_layouts`"
        ),
        "{text}"
    );
    testing::assert_module_valid(jax_module("add_basic"), Some(Chip::V5e));
    let panic =
        std::panic::catch_unwind(|| testing::assert_module_valid(invalid_add(), None)).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("tpu_custom_call #0 (_add_kernel) at line 3"),
        "{message}"
    );
}

/// `npy::read` takes the element type from the file: NumPy's types, and
/// what `np.save` writes for ml_dtypes arrays (files made by ml_dtypes 0.6,
/// `tests/data/npy-ml-dtypes`): bf16 as `<V2`, float8_e5m2 as `<f1`; the
/// one-byte void of the other float8 types does not say which: an error
/// saying to give the type.
#[test]
fn npy_read_takes_the_dtype_from_the_file() {
    use tpu_custom_call::exec::{ElemType, npy};
    let dir = data_dir().join("npy-ml-dtypes");
    let values = [1.5, -2.0, 3.0, 0.25, -0.5, 96.0];
    for (file, elem) in [
        ("bfloat16.npy", ElemType::BF16),
        ("float8_e5m2.npy", ElemType::F8E5M2),
        ("float32.npy", ElemType::F32),
    ] {
        let a = npy::read(&dir.join(file), None).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(a.elem, elem, "{file}");
        assert_eq!(a.shape, [2, 3], "{file}");
        let got: Vec<f64> = (0..6).map(|i| a.data.get_f64(i)).collect();
        assert_eq!(got, values, "{file}");
    }
    let a = npy::read(&dir.join("int8.npy"), None).unwrap();
    assert_eq!(a.elem, ElemType::Int(8));
    // One-byte void: which float8 is not said.
    let e = npy::read(&dir.join("float8_e4m3fn.npy"), None)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("has dtype <V1, which does not say its element type"),
        "{e}"
    );
    assert!(e.contains("npy::read(path, ElemType::...)"), "{e}");
    let a = npy::read(&dir.join("float8_e4m3fn.npy"), ElemType::F8E4M3FN).unwrap();
    assert_eq!(
        (0..6).map(|i| a.data.get_f64(i)).collect::<Vec<_>>(),
        values
    );
}

/// A folder of `.npy` results against a reference folder, as `run
/// --compare DIR`: equal passes; a differing, missing or extra file is
/// named.
#[test]
fn npy_folders_are_compared_file_by_file() {
    use tpu_custom_call::exec::{Array, ElemType, npy};
    // (Not float8_e4m3fn.npy: its `<V1` does not say its type.)
    let names = ["bfloat16.npy", "float32.npy", "int8.npy", "float8_e5m2.npy"];
    let reference = scratch("npy-reference");
    let dir = scratch("npy-dir");
    for name in names {
        let file = data_dir().join("npy-ml-dtypes").join(name);
        std::fs::copy(&file, reference.join(name)).unwrap();
        std::fs::copy(&file, dir.join(name)).unwrap();
    }
    testing::assert_npy_dir_eq(&reference, &dir, 0.0, 0.0);
    // Our bf16 written as uint16 bit patterns compares with ml_dtypes' <V2.
    let ours = npy::read(&reference.join("bfloat16.npy"), None).unwrap();
    npy::write(&dir.join("bfloat16.npy"), &ours).unwrap();
    testing::assert_npy_dir_eq(&reference, &dir, 0.0, 0.0);
    // One element changed, one file missing, one extra.
    let mut changed = npy::read(&reference.join("float32.npy"), None).unwrap();
    changed.data.set_f64(4, -0.75);
    npy::write(&dir.join("float32.npy"), &changed).unwrap();
    std::fs::remove_file(dir.join("int8.npy")).unwrap();
    npy::write(
        &dir.join("extra.npy"),
        &Array::filled(ElemType::F32, &[1], 0.0),
    )
    .unwrap();
    let (r, d) = (reference.clone(), dir.clone());
    let message = in_test_thread("npy_dir", move || {
        testing::assert_npy_dir_eq(&r, &d, 1e-6, 0.0)
    })
    .unwrap();
    assert!(message.starts_with("the .npy files of "), "{message}");
    assert!(message.contains(" (4) and "), "{message}");
    assert!(
        message.contains("differ (rtol 0.000001, atol 0): 3 problem(s):"),
        "{message}"
    );
    assert!(message.contains("\n  float32.npy: "), "{message}");
    assert!(message.contains("\n  int8.npy: missing from"), "{message}");
    assert!(message.contains("\n  extra.npy: only in"), "{message}");
    // A call's results against a folder.
    let module = jax_module("add_basic");
    let x = Array::filled(ElemType::F32, &[8, 128], 1.5);
    let y = Array::filled(ElemType::F32, &[8, 128], 2.0);
    let out = scratch("npy-call");
    npy::write(
        &out.join("result0.npy"),
        &Array::filled(ElemType::F32, &[8, 128], 3.5),
    )
    .unwrap();
    testing::assert_call_matches_dir(&module, 0, &[x.clone(), y.clone()], &out, 0.0, 0.0);
    npy::write(
        &out.join("result0.npy"),
        &Array::filled(ElemType::F32, &[8, 128], 3.0),
    )
    .unwrap();
    let panic = std::panic::catch_unwind(|| {
        testing::assert_call_matches_dir(&module, 0, &[x, y], &out, 0.0, 0.0)
    })
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("tpu_custom_call #0 differs from"),
        "{message}"
    );
    assert!(message.contains("result 0 vs"), "{message}");
}

/// A real `#[should_panic]` test asserting a changed module under BLESS:
/// it is recognised, does not bless, and panics as without BLESS (were it
/// to bless, it would not panic and fail).
#[test]
#[should_panic(expected = "differs from the golden")]
fn a_should_panic_test_never_blesses() {
    let dir = scratch("should-panic");
    let golden = dir.join("g.mlir");
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    testing::assert_golden_with(jax_module("matmul_grid"), &golden, &bless());
}

/// The same, seen from outside: the thread named after that test panics and
/// the golden is unchanged after it ended.
#[test]
fn a_should_panic_test_leaves_the_golden() {
    let dir = scratch("should-panic-outside");
    let golden = dir.join("g.mlir");
    std::fs::write(&golden, jax_module("add_basic")).unwrap();
    let g = golden.clone();
    let message = in_test_thread(
        "testing_kit::a_should_panic_test_never_blesses",
        move || {
            testing::assert_golden_with(jax_module("matmul_grid"), &g, &bless());
        },
    )
    .expect("it panics as without BLESS");
    assert!(message.contains("differs from the golden"), "{message}");
    assert_eq!(read(&golden).unwrap(), jax_module("add_basic"));
}

/// A module in memory against a golden file; the report's fields by name.
#[test]
fn a_module_in_memory_against_its_golden() {
    use tpu_custom_call::kernel::{ModuleFormat, parse_module_bytes};
    let ctx = tpu_custom_call::Context::new();
    let module = parse_module_bytes(
        &ctx,
        &jax_generic("add_basic"),
        "add_basic.mlir",
        ModuleFormat::Text,
    )
    .unwrap();
    let golden = goldens_dir().join("add_basic/module.mlir");
    testing::assert_module_golden(&module, &golden);
    let report = testing::golden_diff(jax_module("matmul_grid"), &golden);
    assert!(
        report
            .fields()
            .contains(&"lowered_module_asm.iteration_bounds"),
        "{report}"
    );
}
