//! The reproducers of issue 46 ("no false pass"): grids libtpu refuses,
//! swapped operands, DMAs of unwritten memory, revisits, and numeric flag
//! values, each through the CLI as the tester ran them.

use tpu_custom_call::config::BackendConfig;
use tpu_custom_call::{Context, Kernel, SerializeOptions};

use crate::common::*;

/// A temporary folder of its own per test.
fn dir(test: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tcc-robust-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const VMEM: &str = "memref<8x128xf32, #tpu.memory_space<vmem>>";

/// A copy kernel over a 2-D grid `(a, b)` (any i64 text), every block (0, 0).
fn grid_kernel(a: &str, b: &str) -> String {
    format!(
        r#"module {{
  func.func @k(%i: i32, %j: i32, %x: {VMEM}, %o: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: {a}, {b}>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t, window_bounds = array<i64: 8, 128>}}, {{transform_indices = @t, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t(%i: i32, %j: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %c0, %c0 : i32, i32
  }}
}}"#
    )
}

/// A StableHLO module calling `kernel` on one `tensor<8x128xf32>`, built
/// without validation (as another producer could write it: `emit` refuses
/// these grids).
fn unvalidated_module(kernel: &str) -> String {
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, kernel, "k.mlir").unwrap();
    let body = tpu_custom_call::serialize(&k, &SerializeOptions::default())
        .unwrap()
        .body;
    let config = BackendConfig {
        body,
        ..BackendConfig::default()
    };
    let json = config
        .to_json(false)
        .unwrap()
        .replace('\\', "\\5C")
        .replace('"', "\\22");
    let t = "tensor<8x128xf32>";
    format!(
        r#"module @m {{
  func.func public @main(%arg0: {t}) -> {t} {{
    %0 = stablehlo.custom_call @tpu_custom_call(%arg0) {{backend_config = "{json}", kernel_name = "k"}} : ({t}) -> {t}
    return %0 : {t}
  }}
}}
"#
    )
}

/// The tester's grids and the words libtpu 0.0.50.1 refuses them with
/// (measured: `compile --target v6e`; a bound of 0 compiles).
const REFUSED: [(&str, &str, &str); 5] = [
    (
        "17",
        "1085102592571150096",
        "iteration_bounds should be between 0 and 2147483646",
    ),
    (
        "5",
        "4611686018427387904",
        "iteration_bounds should be between 0 and 2147483646",
    ),
    (
        "-3",
        "1",
        "iteration_bounds should be between 0 and 2147483646",
    ),
    // 2147483648: libtpu's range check (2147483519..=2147483647 fail in
    // libtpu with `Wrong number of window_params`, refused here by the range).
    (
        "2147483648",
        "1",
        "iteration_bounds should be between 0 and 2147483646",
    ),
    (
        "65536",
        "65536",
        "Iteration bounds are too large: (65536, 65536)",
    ),
];

/// `validate`, `run` and `estimate` refuse every grid libtpu refuses, with
/// the same message (libtpu's words first); before, `run` ran 16 steps of
/// (17, 2^64 + 16) and exited 0, hung on (5, 2^62), `estimate` answered
/// 8.9e12 s, and -3 was called dynamic.
#[test]
fn grids_libtpu_refuses_are_refused_alike_by_validate_run_and_estimate() {
    let d = dir("grids");
    let params = d.join("p.json");
    std::fs::write(&params, "{}").unwrap();
    let sig = "(tensor<8x128xf32>) -> tensor<8x128xf32>";
    let libtpu = crate::compile::libtpu("grids_libtpu_refuses_are_refused_alike");
    let mut failures = Failures::new();
    for (a, b, words) in REFUSED {
        let k = d.join(format!("k_{a}_{b}.mlir"));
        std::fs::write(&k, grid_kernel(a, b)).unwrap();
        let m = d.join(format!("m_{a}_{b}.mlir"));
        std::fs::write(&m, unvalidated_module(&grid_kernel(a, b))).unwrap();
        let (k, m, p) = (
            k.to_str().unwrap(),
            m.to_str().unwrap(),
            params.to_str().unwrap(),
        );
        let mut messages = Vec::new();
        for args in [
            vec!["validate", p, "--kernel", k, "--signature", sig],
            vec!["validate", m],
            vec!["run", k, "--signature", sig],
            vec!["run", m],
        ] {
            let (code, out, err) = run_cli(&args);
            failures.check(code == 1 && out.is_empty() && err.contains(words), || {
                format!("{args:?}: exit {code}, {err}")
            });
            let line = err.lines().find(|l| l.contains(words)).unwrap_or_default();
            messages.push(line[line.find(words).unwrap_or(0)..].to_string());
        }
        if let Some(libtpu) = &libtpu {
            let (code, _, err) = run_cli(&[
                "estimate",
                m,
                "--target",
                "v6e",
                "--libtpu",
                libtpu.to_str().unwrap(),
            ]);
            failures.check(code == 1 && err.contains(words), || {
                format!("estimate {a}x{b}: exit {code}, {err}")
            });
            // libtpu itself says the same words.
            let _guard = crate::compile::LIBTPU
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let (code, _, err) = run_cli(&[
                "compile",
                m,
                "--target",
                "v6e",
                "--libtpu",
                libtpu.to_str().unwrap(),
            ]);
            failures.check(code == 1 && err.contains(words), || {
                format!("libtpu on {a}x{b}: exit {code}, {err}")
            });
        }
        // One message, whoever says it.
        failures.check(messages.windows(2).all(|w| w[0] == w[1]), || {
            format!("{a}x{b}: messages differ: {messages:#?}")
        });
    }
    failures.assert_none();
    let _ = std::fs::remove_dir_all(&d);
}

/// A bound of 0 is a grid of no step: libtpu compiles it; `run` runs no
/// step (nothing written) and `estimate` says there is nothing to estimate
/// (it blamed a libtpu dump flag).
#[test]
fn a_grid_of_no_step_runs_nothing_and_is_not_estimated() {
    let d = dir("zero");
    let m = d.join("m.mlir");
    std::fs::write(&m, unvalidated_module(&grid_kernel("0", "1"))).unwrap();
    let m = m.to_str().unwrap();
    let (code, _, err) = run_cli(&["validate", m]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_cli(&["run", m, "--call", "0", "--detect-uninitialized"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text(&out).contains("1024 of 1024 element(s) never written"),
        "{}",
        text(&out)
    );
    if let Some(libtpu) = crate::compile::libtpu("a_grid_of_no_step") {
        let (code, _, err) = run_cli(&[
            "estimate",
            m,
            "--target",
            "v6e",
            "--libtpu",
            libtpu.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("the grid (0, 1) of `k` has no step (a bound is 0)"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Dynamic bounds (`?`, one `tensor<i32>` operand each) are checked when
/// `run` reads them: 2147483647, and 65536 x 65536 steps (a product over
/// i32), are refused in the same words.
#[test]
fn dynamic_grid_bounds_read_at_run_time_obey_the_same_rule() {
    use tpu_custom_call::exec::{self, Array, CallShape, ElemType, Execution, RunOptions};
    let kernel = grid_kernel("-9223372036854775808", "-9223372036854775808");
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, &kernel, "k.mlir").unwrap();
    let parse = |t: &str| exec::TensorType::parse(t).unwrap();
    let shape = CallShape {
        operands: vec![
            parse("tensor<i32>"),
            parse("tensor<i32>"),
            parse("tensor<8x128xf32>"),
        ],
        results: vec![parse("tensor<8x128xf32>")],
        aliases: Vec::new(),
    };
    let e = Execution::new(&k, shape).unwrap();
    let x = Array::filled(ElemType::F32, &[8, 128], 1.0);
    let bound = |v: i64| Array::int(ElemType::Int(32), v);
    let run = |a: i64, b: i64| {
        e.run_report(
            &[vec![bound(a), bound(b), x.clone()]],
            &RunOptions::default(),
        )
    };
    assert!(run(2, 3).is_ok());
    let err = run(2147483647, 1).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "iteration_bounds should be between 0 and 2147483646: dimension 0 of the grid of `k` is 2147483647"
        ),
        "{err}"
    );
    let err = run(65536, 65536).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "Iteration bounds are too large: (65536, 65536): the grid of `k` has 4294967296 steps"
        ),
        "{err}"
    );
}

/// A subtract kernel called as `call(%arg0, %arg1)` and `call(%arg1,
/// %arg0)`: `diff` and `diff --run` exit 1 and name the operands (they
/// exited 0); both say what they compared.
#[test]
fn diff_sees_swapped_operands() {
    let d = dir("swap");
    let sub = std::fs::read_to_string("mlir-fixtures/kernels/add.mlir")
        .unwrap()
        .replace("arith.addf", "arith.subf");
    let k = d.join("sub.mlir");
    std::fs::write(&k, sub).unwrap();
    let a = d.join("a.mlir");
    let (code, _, err) = run_cli(&[
        "emit",
        k.to_str().unwrap(),
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--params",
        "mlir-fixtures/params/add_basic.json",
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let swapped = std::fs::read_to_string(&a).unwrap().replace(
        "@tpu_custom_call(%arg0, %arg1)",
        "@tpu_custom_call(%arg1, %arg0)",
    );
    let b = d.join("b.mlir");
    std::fs::write(&b, swapped).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (code, out, err) = run_cli(&["diff", a, b]);
    let out = text(&out);
    assert_eq!(code, 1, "{err}{out}");
    assert!(
        out.contains("  operands[0] (wiring):\n    - %arg0 of @main\n    + %arg1 of @main\n"),
        "{out}"
    );
    assert!(
        out.contains("compared: ") && out.contains("operand wiring"),
        "{out}"
    );
    let (code, out, _) = run_cli(&["diff", a, b, "--json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["pairs"][0]["differences"][1]["field"], "operands[1]");
    assert_eq!(json["pairs"][0]["differences"][1]["kind"], "wiring");
    assert!(
        json["compared"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().starts_with("operand wiring")),
        "{json}"
    );
    assert_eq!(json["not_compared"], serde_json::json!([]));
    let (code, out, err) = run_cli(&["diff", a, b, "--run"]);
    let out = text(&out);
    assert_eq!(code, 1, "{err}{out}");
    assert!(
        out.contains("tpu_custom_call #0: operands[0] is fed by `%arg0 of @main`"),
        "{out}"
    );
    // The same module: equal, and stderr says what was compared.
    let (code, out, err) = run_cli(&["diff", a, a]);
    assert_eq!((code, out.len()), (0, 0), "{err}");
    assert!(
        err.contains("compared: ") && err.contains("operand wiring"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `run --detect-uninitialized` on a DMA of never-written scratch into the
/// output exits 1 as a `vector.load` of it does (it exited 0 with "1024
/// element(s) never written").
#[test]
fn run_reports_a_dma_of_unwritten_scratch() {
    let d = dir("dma");
    let any = "memref<8x128xf32, #tpu.memory_space<any>>";
    let sem = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>";
    let kernel = format!(
        r#"module {{
  func.func @k(%o: {any}, %t: {VMEM}, %s: {sem}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    tpu.enqueue_dma source(%t : {VMEM}) target(%o : {any}) target_semaphore(%s : {sem})
    tpu.wait_dma2 semaphore(%s : {sem}) src(%t : {VMEM}) dst(%o : {any})
    return
  }}
}}"#
    );
    let k = d.join("k.mlir");
    std::fs::write(&k, kernel).unwrap();
    let args = [
        "run",
        k.to_str().unwrap(),
        "--signature",
        "() -> tensor<8x128xf32>",
        "--detect-uninitialized",
    ];
    let (code, out, err) = run_cli(&args);
    assert_eq!(code, 1, "{}{err}", text(&out));
    assert!(
        err.contains("tpu.enqueue_dma")
            && err.contains("reads uninitialised memory: element [0, 0] of scratch operand 0"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `validate` reports the revisited output block `run` always refuses, in
/// the same words (it passed it silently): as a warning, since libtpu
/// compiles the kernel (measured for v6e).
#[test]
fn validate_reports_the_revisit_run_reports() {
    let d = dir("revisit");
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %j: i32, %o: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 4, 4>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : vector<8x128xf32>
    vector.store %z, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t(%i: i32, %j: i32) -> (i32, i32) {{
    %c2 = arith.constant 2 : i32
    %a = arith.divsi %j, %c2 : i32
    %b = arith.remsi %i, %c2 : i32
    return %a, %b : i32, i32
  }}
}}"#
    );
    let k = d.join("k.mlir");
    std::fs::write(&k, kernel).unwrap();
    let p = d.join("p.json");
    std::fs::write(&p, "{}").unwrap();
    let sig = "() -> tensor<16x256xf32>";
    let k = k.to_str().unwrap();
    let (code, _, run_err) = run_cli(&["run", k, "--signature", sig]);
    assert_eq!(code, 1, "{run_err}");
    let (code, _, err) = run_cli(&[
        "validate",
        p.to_str().unwrap(),
        "--kernel",
        k,
        "--signature",
        sig,
    ]);
    // A warning: libtpu compiles it (and JAX emits it), `run` refuses to
    // compute it.
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: "), "{err}");
    let words = "Revisited block: output 0's block [0, 0] (elements from [0, 0]) was visited at grid points (0, 0) to (0, 1) and written back, then visited again at grid point (2, 0)";
    assert!(run_err.contains(words), "{run_err}");
    assert!(err.contains(words), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Numeric flag values out of range are usage errors naming the flag (they
/// were taken: a negative or NaN tolerance, NaN GiB, a timeout past what a
/// `Duration` holds, `ir-version=-2` silently 15).
#[test]
fn numeric_flag_values_are_checked() {
    let m = "tests/data/jax-goldens/add_basic/module.mlir";
    let mut failures = Failures::new();
    for (args, words) in [
        (
            vec!["run", m, "--rtol", "-1"],
            "invalid value '-1' for '--rtol <RTOL>': `-1` is not a tolerance",
        ),
        (
            vec!["run", m, "--rtol", "NaN"],
            "invalid value 'NaN' for '--rtol <RTOL>'",
        ),
        (
            vec!["run", m, "--atol", "inf"],
            "invalid value 'inf' for '--atol <ATOL>'",
        ),
        (
            vec!["diff", m, m, "--run", "--rtol", "-1"],
            "invalid value '-1' for '--rtol <RTOL>'",
        ),
        (
            vec!["run", m, "--max-memory", "NaN"],
            "invalid value 'NaN' for '--max-memory <GIB>': `NaN` is not an amount of memory",
        ),
        (
            vec!["run", m, "--repeat", "0"],
            "invalid value '0' for '--repeat <N>'",
        ),
        (
            vec![
                "estimate",
                m,
                "--target",
                "v6e",
                "--timeout",
                "18446744073709551615",
            ],
            "invalid value '18446744073709551615' for '--timeout <SECS>': `18446744073709551615` is not a timeout: give a positive number of seconds below 1e9",
        ),
    ] {
        let (code, out, err) = run_cli(&args);
        failures.check(code == 2 && out.is_empty() && err.contains(words), || {
            format!("{args:?}: exit {code}: {err}")
        });
    }
    for v in ["-2", "-1"] {
        let pipeline = format!("builtin.module(tpu-custom-call-lower{{ir-version={v}}})");
        let (code, _, err) = run_cli(&[
            "opt",
            "mlir-fixtures/pipeline/three_calls.mlir",
            "--pass-pipeline",
            &pipeline,
        ]);
        let words = format!("ir-version={v} is not a Mosaic IR version: give 11..18");
        failures.check(code == 1 && err.contains(&words), || {
            format!("ir-version={v}: exit {code}: {err}")
        });
    }
    failures.assert_none();
}
