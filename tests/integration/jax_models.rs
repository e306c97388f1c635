//! Whole-model modules JAX 0.12 lowered for TPU (issue 41): ordinary
//! StableHLO with `chlo` ops (exact GELU's `erfc`, MoE routing's `top_k`,
//! special functions) and `tpu_custom_call`s of Pallas kernels, as
//! `Lowered.as_text()` prints them (`mlir-fixtures/jax-models/`, made by
//! `scripts/jaxref/models/sample_fixtures.py`). Each is read by `opt`,
//! accepted by `tpu-custom-call-verify`, and printed back as jaxlib prints it,
//! pretty and generic, from either form; its calls decode.

use std::path::PathBuf;

use tpu_custom_call::Context;

use crate::common::*;

/// `(name, pretty, generic)` for every fixture of `mlir-fixtures/jax-models`.
fn jax_models() -> Vec<(String, PathBuf, PathBuf)> {
    let dir = fixtures_dir().join("jax-models");
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "mlir")
                && !p.to_string_lossy().ends_with(".generic.mlir")
        })
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let generic = dir.join(format!("{name}.generic.mlir"));
            (name, p, generic)
        })
        .collect();
    out.sort();
    out
}

/// The sample holds the model blocks and the `chlo` ops JAX 0.12
/// emits for TPU; each module goes through `opt` (empty pipeline and the
/// verify pass) and comes back byte for byte as jaxlib prints it.
#[test]
fn jax_model_modules_verify_and_print_as_jaxlib() {
    let models = jax_models();
    assert!(models.len() >= 15, "{} models", models.len());
    let all: String = models
        .iter()
        .map(|(_, p, _)| std::fs::read_to_string(p).unwrap())
        .collect();
    for op in [
        "chlo.erf ",
        "chlo.erfc ",
        "chlo.erf_inv ",
        "chlo.top_k(",
        "chlo.digamma ",
        "chlo.sinh ",
        "chlo.cosh ",
        "chlo.atanh ",
        "chlo.asinh ",
        "chlo.acosh ",
        "chlo.square ",
        "chlo.next_after ",
        "chlo.polygamma ",
        "chlo.zeta ",
        "chlo.bessel_i1e ",
        "stablehlo.custom_call @tpu_custom_call",
        "sdy.manual_computation",
    ] {
        assert!(all.contains(op), "no {op} in the sample");
    }
    let mut failures = Failures::new();
    for (name, pretty, generic) in &models {
        let pretty_text = std::fs::read(pretty).unwrap();
        let generic_text = std::fs::read(generic).unwrap();
        for (input, what) in [(pretty, "pretty"), (generic, "generic")] {
            let p = input.to_str().unwrap();
            let (code, out, stderr) = run_cli(&[
                "opt",
                p,
                "--pass-pipeline",
                "builtin.module(tpu-custom-call-verify{jax-rules-only=true})",
            ]);
            failures.check(code == 0, || format!("{name} ({what}): verify: {stderr}"));
            failures.bytes(format!("{name}: {what} -> pretty"), &out, &pretty_text);
            let (code, out, stderr) =
                run_cli(&["opt", p, "--generic", "--pass-pipeline", "builtin.module()"]);
            failures.check(code == 0, || {
                format!("{name} ({what}): --generic: {stderr}")
            });
            failures.bytes(format!("{name}: {what} -> generic"), &out, &generic_text);
        }
        let ctx = Context::new();
        let calls = tpu_custom_call::decode::find_calls(&ctx, &pretty_text, name);
        let marker = b"custom_call @tpu_custom_call(";
        let expected = pretty_text
            .windows(marker.len())
            .filter(|w| w == marker)
            .count();
        match calls {
            Ok(calls) => failures.check(calls.len() == expected, || {
                format!(
                    "{name}: {} calls found, {expected} in the text",
                    calls.len()
                )
            }),
            Err(e) => failures.fail(format!("{name}: find_calls: {e}")),
        }
    }
    failures.assert_none();
}
