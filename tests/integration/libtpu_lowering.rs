//! libtpu's lowering rules (`tpu_custom_call::libtpu::lowering`, the window
//! checks of the contract) against libtpu's recorded verdicts:
//! `tests/data/libtpu-lowering/sweep.json` holds 411 generated kernels (ops x
//! element types x memory spaces, structural and window-parameter mutants)
//! with what libtpu 0.0.50.1 said compiling each for v5e, v6e and v7x
//! (`scripts/libtpu/lowering_sweep.py` made it). `validate` must refuse what
//! libtpu refused, with libtpu's words, or say the part is not checked; and
//! must refuse nothing libtpu compiled. Replayed without libtpu; a sample is
//! compiled again when libtpu is installed.

use serde_json::Value as Json;
use tpu_custom_call::compile::Compiler;
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::Type;
use tpu_custom_call::validate::{self, Signature, ValidateOptions};
use tpu_custom_call::{Chip, Context, Kernel, Params, PrintOptions};

use crate::common::*;

fn sweep() -> Json {
    let path = data_dir().join("libtpu-lowering/sweep.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn rows(sweep: &Json) -> &Vec<Json> {
    sweep["rows"].as_array().unwrap()
}

/// A row's signature `(A, B) -> (C)` as types of `ctx`.
fn signature<'c>(ctx: &'c Context, text: &str) -> Signature<'c> {
    let (ins, outs) = text.split_once(" -> ").unwrap();
    let parse = |list: &str| -> Vec<Type<'c>> {
        let inner = list.trim().trim_start_matches('(').trim_end_matches(')');
        inner
            .split(", ")
            .filter(|t| !t.is_empty())
            .map(|t| Type::parse(ctx, t).unwrap_or_else(|| panic!("type {t}")))
            .collect()
    };
    Signature::new(parse(ins), parse(outs))
}

/// The part of a recorded libtpu message our error must quote: a crash's
/// check, else the message (its first 60 characters).
fn quoted(message: &str) -> Option<String> {
    if let Some(rest) = message.strip_prefix("libtpu crashed: ") {
        let check = rest.split("] ").nth(1)?;
        return check.starts_with("Check failed").then(|| check.to_string());
    }
    Some(message.chars().take(60).collect())
}

/// What validate says about one kernel for one chip.
struct Said {
    errors: Vec<String>,
    not_checked: Vec<String>,
}

fn validate_row(ctx: &Context, row: &Json, chip: Chip) -> Said {
    let kernel = Kernel::from_text(ctx, row["kernel"].as_str().unwrap(), "sweep").unwrap();
    let sig = signature(ctx, row["signature"].as_str().unwrap());
    let found = validate::report(
        Some(&kernel),
        Some(&sig),
        &Params::default(),
        Some(chip),
        &ValidateOptions::all_rules(),
    );
    Said {
        errors: found.errors.iter().map(ToString::to_string).collect(),
        not_checked: found.lowering.map(|c| c.not_checked).unwrap_or_default(),
    }
}

#[test]
fn validate_agrees_with_libtpu_on_every_sweep_kernel_and_chip() {
    let sweep = sweep();
    let ctx = Context::new();
    let mut failures = Failures::new();
    let (mut compiled, mut refused, mut said_not_checked, mut total) = (0, 0, 0, 0);
    for row in rows(&sweep) {
        let case = row["case"].as_str().unwrap();
        for (chip, verdict) in row["libtpu"].as_object().unwrap() {
            let chip: Chip = chip.parse().unwrap();
            let said = validate_row(&ctx, row, chip);
            total += 1;
            match verdict["message"].as_str() {
                None => {
                    compiled += 1;
                    failures.check(said.errors.is_empty(), || {
                        format!(
                            "{case} on {chip}: libtpu compiled it, validate refused: {:?}",
                            said.errors
                        )
                    });
                }
                Some(message) if said.errors.is_empty() => {
                    // A pass must name the refused part as not checked: the
                    // row's ops (its subjects) are among the unchecked ops.
                    let subjects: Vec<&str> = row["subjects"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| s.as_str().unwrap().split('(').next().unwrap())
                        .collect();
                    let named = subjects
                        .iter()
                        .any(|s| said.not_checked.iter().any(|n| n == s));
                    said_not_checked += usize::from(named);
                    failures.check(named, || {
                        format!(
                            "{case} on {chip}: libtpu refused it (\"{message}\"), validate passed and \
                             did not name {subjects:?} as not checked (not checked: {:?})",
                            said.not_checked
                        )
                    });
                }
                Some(message) => {
                    refused += 1;
                    let words = quoted(message);
                    let quotes = match &words {
                        Some(w) => said.errors.iter().any(|e| e.contains(w.as_str())),
                        // A crash without a check line (signal 4).
                        None => said.errors.iter().any(|e| e.contains("aborts the process")),
                    };
                    failures.check(quotes, || {
                        format!(
                            "{case} on {chip}: validate refused it without libtpu's words {words:?}: {:?}",
                            said.errors
                        )
                    });
                }
            }
        }
    }
    eprintln!(
        "libtpu lowering sweep: {total} kernel x chip verdicts: {compiled} compiled (validate passes each), \
         {refused} refused with libtpu's words, {said_not_checked} refused and named not checked"
    );
    assert!(total > 900, "{total} verdicts");
    failures.assert_none();
}

/// Each reproducer of issue 46, on each chip: `validate --target CHIP`
/// (the CLI) refuses it with libtpu's exact message from the sweep.
#[test]
fn validate_cli_refuses_issue_46_reproducers_with_libtpus_message() {
    let sweep = sweep();
    let cases = [
        "window/no-function",
        "window/arity-2-of-3",
        "window/results-1-of-2",
        "vector.load/smem",
        "vector.load/hbm",
        "vector.load/any",
        "vector.load/semaphore_mem",
        "vector.store/smem",
        "arith.addi/i8",
        "arith.addi/i4",
        "copy/f64",
        "copy/i64",
        "math.cbrt/f32",
        "math.sinh/f32",
        "math.fpowi/f32",
        "vector.insert_strided_slice/f32",
        "copy/f16",
        "arith.addf/f8E4M3FN",
        "function/two-blocks",
        "shape/dynamic-operand",
    ];
    let dir = tempfile_dir("libtpu-lowering-cli");
    let mut failures = Failures::new();
    for case in cases {
        let row = rows(&sweep)
            .iter()
            .find(|r| r["case"] == case)
            .unwrap_or_else(|| panic!("{case} not in the sweep"));
        let path = dir.join(format!("{}.mlir", case.replace('/', "_")));
        std::fs::write(&path, row["kernel"].as_str().unwrap()).unwrap();
        for chip in ["v5e", "v6e", "v7x"] {
            let message = row["libtpu"][chip]["message"]
                .as_str()
                .unwrap_or_else(|| panic!("{case}: libtpu compiled it on {chip}"));
            let params = fixtures_dir().join("params/add_basic.json");
            let (code, stdout, stderr) = run_cli(&[
                "validate",
                params.to_str().unwrap(),
                "--kernel",
                path.to_str().unwrap(),
                "--signature",
                row["signature"].as_str().unwrap(),
                "--target",
                chip,
            ]);
            let words = quoted(message).unwrap_or_else(|| "aborts the process".to_string());
            failures.check(
                code == 1 && stdout.is_empty() && stderr.contains(&words),
                || {
                    format!(
                        "{case} on {chip}: exit {code}, want 1 with {words:?}; stderr: {stderr}"
                    )
                },
            );
        }
    }
    failures.assert_none();
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `run` computes no numbers for a kernel whose windows libtpu refuses.
#[test]
fn run_refuses_window_parameters_libtpu_refuses() {
    let sweep = sweep();
    let dir = tempfile_dir("libtpu-lowering-run");
    let mut failures = Failures::new();
    for (case, words) in [
        (
            "window/no-function",
            "transform_indices symbol is undefined or is not a function",
        ),
        ("window/arity-2-of-3", "expected 3, got 2"),
        (
            "window/results-1-of-2",
            "Check failed: iteration_indices.size() == rank (1 vs. 2)",
        ),
    ] {
        let row = rows(&sweep).iter().find(|r| r["case"] == case).unwrap();
        let path = dir.join(format!("{}.mlir", case.replace('/', "_")));
        std::fs::write(&path, row["kernel"].as_str().unwrap()).unwrap();
        let (code, stdout, stderr) = run_cli(&[
            "run",
            path.to_str().unwrap(),
            "--signature",
            row["signature"].as_str().unwrap(),
        ]);
        failures.check(
            code == 1 && stdout.is_empty() && stderr.contains(words),
            || {
                format!(
                    "run {case}: exit {code}, want 1 with {words:?}; stdout {:?} stderr {stderr}",
                    String::from_utf8_lossy(&stdout)
                )
            },
        );
    }
    // The valid twin runs.
    let row = rows(&sweep)
        .iter()
        .find(|r| r["case"] == "window/valid")
        .unwrap();
    let path = dir.join("window_valid.mlir");
    std::fs::write(&path, row["kernel"].as_str().unwrap()).unwrap();
    let (code, _, stderr) = run_cli(&[
        "run",
        path.to_str().unwrap(),
        "--signature",
        row["signature"].as_str().unwrap(),
    ]);
    failures.check(code == 0, || {
        format!("run window/valid: exit {code}: {stderr}")
    });
    failures.assert_none();
}

/// The ok line says what was checked and what only libtpu decides; with
/// `--compile-check` libtpu's verdict replaces the "not checked" part.
#[test]
fn validate_ok_line_names_what_it_did_not_check() {
    let kernel = fixtures_dir().join("kernels/add.mlir");
    let params = fixtures_dir().join("params/add_basic.json");
    let sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "validate".to_string(),
            params.to_str().unwrap().to_string(),
            "--kernel".to_string(),
            kernel.to_str().unwrap().to_string(),
            "--signature".to_string(),
            sig.to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        run_cli(&refs)
    };
    let (code, stdout, stderr) = run(args(&["--target", "v5e"]));
    let line = String::from_utf8(stdout).unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with("ok: JAX's rules and libtpu's for v5e ("),
        "{line}"
    );
    assert!(
        line.contains("; not checked: layouts and the lowering of tpu.vector_store (--compile-check asks libtpu)"),
        "{line}"
    );
    let (code, stdout, _) = run(args(&["--target", "v5p"]));
    let line = String::from_utf8(stdout).unwrap();
    assert_eq!(code, 0);
    assert!(line.contains("op lowering not measured for v5p"), "{line}");
    assert!(
        line.contains("not checked: layouts and the lowering of arith.addf"),
        "{line}"
    );
    if crate::compile::libtpu("validate_ok_line_names_what_it_did_not_check").is_none() {
        return;
    }
    let _guard = crate::compile::LIBTPU
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let (code, stdout, stderr) = run(args(&["--target", "v5e", "--compile-check"]));
    let line = String::from_utf8(stdout).unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        line.trim_end().ends_with("; libtpu compiled it for v5e"),
        "{line}"
    );
    assert!(!line.contains("not checked"), "{line}");
}

/// A sample of the sweep compiled again with the installed libtpu: the
/// recorded verdicts still hold (skipped without libtpu).
#[test]
fn sweep_sample_verdicts_hold_with_live_libtpu() {
    let Some((libtpu, _guard)) =
        crate::compile::locked_libtpu("sweep_sample_verdicts_hold_with_live_libtpu")
    else {
        return;
    };
    let sweep = sweep();
    let sample = [
        "copy/f32",
        "math.cbrt/f32",
        "arith.divui/i8",
        "vector.load/smem",
        "window/arity-2-of-3",
        "function/two-blocks",
    ];
    let ctx = Context::new();
    let mut failures = Failures::new();
    for chip in [Chip::V5e, Chip::V6e, Chip::V7x] {
        let mut compiler = Compiler::new(crate::compile::options(chip, 1, &libtpu)).unwrap();
        for case in sample {
            let row = rows(&sweep).iter().find(|r| r["case"] == case).unwrap();
            let kernel = Kernel::from_text(&ctx, row["kernel"].as_str().unwrap(), case).unwrap();
            let call = validate::validate_with(
                &kernel,
                signature(&ctx, row["signature"].as_str().unwrap()),
                &Params::default(),
                None,
                &ValidateOptions::jax_rules_only(),
            )
            .unwrap();
            let module = Lowerer::new(LowerOptions::default())
                .emit_module(&ctx, &call)
                .unwrap();
            let text =
                tpu_custom_call::kernel::print_module(&module, PrintOptions::default()).unwrap();
            let verdict = compiler.compile(text.as_bytes()).unwrap();
            let recorded = row["libtpu"][chip.to_string()]["message"].as_str();
            match (verdict.error(), recorded) {
                (None, None) => {}
                (Some(live), Some(message)) => {
                    let words = quoted(message).unwrap();
                    failures.check(live.contains(&words), || {
                        format!("{case} on {chip}: libtpu now says {live:?}, recorded {message:?}")
                    });
                }
                (live, recorded) => failures.fail(format!(
                    "{case} on {chip}: libtpu now {live:?}, recorded {recorded:?}"
                )),
            }
        }
    }
    failures.assert_none();
}
