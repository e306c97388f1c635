//! StableHLO and Shardy in the pretty form JAX prints: the pass-through
//! dialects read it and print it back as jaxlib does, byte for byte, in both
//! forms (`mlir-fixtures/hlo-pretty/`, made by
//! `scripts/jaxref/hlo_pretty_fixtures.py` with jaxlib 0.12); an op without a
//! known custom syntax is refused naming it and its position.

use std::path::PathBuf;

use tpu_custom_call::{Context, KernelError, PrintOptions, interop, kernel};

use crate::common::*;

const PRETTY: PrintOptions = PrintOptions {
    generic: false,
    debug_info: false,
};
const GENERIC: PrintOptions = PrintOptions {
    generic: true,
    debug_info: false,
};

fn fixtures() -> Vec<(String, PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures/hlo-pretty");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".pretty.mlir")?
                .to_string();
            let generic = dir.join(format!("{name}.generic.mlir"));
            Some((name, path, generic))
        })
        .collect();
    cases.sort();
    cases
}

/// Reads `text` and prints it both ways.
fn both_prints(name: &str, text: &[u8]) -> Result<(String, String), KernelError> {
    let ctx = Context::new();
    let module = interop::read_module(&ctx, text, name)?;
    Ok((
        kernel::print_module(&module, PRETTY)?,
        kernel::print_module(&module, GENERIC)?,
    ))
}

#[test]
fn jax_pretty_modules_print_as_jaxlib_prints_them() {
    let cases = fixtures();
    assert!(cases.len() >= 8, "fixtures missing: {}", cases.len());
    let mut failures = Failures::new();
    for (name, pretty_path, generic_path) in &cases {
        let pretty = std::fs::read_to_string(pretty_path).unwrap();
        let generic = std::fs::read_to_string(generic_path).unwrap();
        // The fixture must exercise the custom form (else this proves nothing).
        assert!(
            pretty.contains("= stablehlo.")
                || pretty.contains("sdy.")
                || pretty.contains("= chlo."),
            "{name}"
        );
        // From jaxlib's pretty print, and from its generic print.
        for (from, text) in [("pretty", &pretty), ("generic", &generic)] {
            let what = format!("{name} (read from the {from} print)");
            if let Some((ours_pretty, ours_generic)) =
                failures.ok(&what, both_prints(name, text.as_bytes()))
            {
                failures.text(format!("{what}: pretty print"), &ours_pretty, &pretty);
                failures.text(format!("{what}: generic print"), &ours_generic, &generic);
            }
        }
    }
    failures.assert_none();
}

/// The 1-based line and column of the first `needle` in `text`.
fn position(text: &str, needle: &str) -> (u32, u32) {
    let at = text.find(needle).unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    (line as u32, column as u32)
}

#[test]
fn an_unknown_pretty_op_is_refused_naming_it_and_its_position() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures/hlo-pretty");
    let elementwise = std::fs::read_to_string(dir.join("elementwise.pretty.mlir")).unwrap();
    let constraint = std::fs::read_to_string(dir.join("constraint.pretty.mlir")).unwrap();
    for (text, op, bad) in [
        (&elementwise, "stablehlo.negate", "stablehlo.negation"),
        (
            &elementwise,
            "stablehlo.dot_general",
            "stablehlo.dot_generalized",
        ),
        (
            &constraint,
            "sdy.sharding_constraint",
            "sdy.sharding_constraints",
        ),
    ] {
        let mutated = text.replacen(op, bad, 1);
        let (line, column) = position(&mutated, bad);
        match both_prints("mutated.mlir", mutated.as_bytes()) {
            Err(KernelError::PrettyForeignOp {
                op,
                line: l,
                column: c,
                ..
            }) => {
                assert_eq!(op, bad);
                assert_eq!((l, c), (line, column), "{bad}");
            }
            other => panic!("{bad}: expected PrettyForeignOp, got {other:?}"),
        }
    }
}

#[test]
fn a_malformed_pretty_op_is_a_diagnostic_at_its_position() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures/hlo-pretty");
    let elementwise = std::fs::read_to_string(dir.join("elementwise.pretty.mlir")).unwrap();
    let shard_map = std::fs::read_to_string(dir.join("shard_map.pretty.mlir")).unwrap();
    for (text, good, bad, at) in [
        // A keyword of the format misspelled.
        (&elementwise, "dims = [1]", "dimz = [1]", "dimz"),
        // A comparison without its direction.
        (&elementwise, "compare GT, ", "compare ", "%3, %4, FLOAT"),
        // A reduce without `across`.
        (
            &elementwise,
            "applies stablehlo.add across",
            "applies stablehlo.add along",
            "along",
        ),
        // An unbalanced Shardy attribute.
        (
            &shard_map,
            "in_shardings=[<@mesh",
            "in_shardings=[(@mesh",
            "[(@mesh",
        ),
        // Types that do not match the operands.
        (
            &elementwise,
            "stablehlo.add %2, %arg1 : tensor<4x8xf32>",
            "stablehlo.add %2, %arg1 : (tensor<4x8xf32>) -> tensor<4x8xf32>",
            "(tensor<4x8xf32>) -> tensor<4x8xf32>",
        ),
    ] {
        assert!(text.contains(good), "{good}");
        let mutated = text.replacen(good, bad, 1);
        let (line, _) = position(&mutated, at);
        match both_prints("mutated.mlir", mutated.as_bytes()) {
            Err(KernelError::Parse { diagnostics, .. }) => {
                assert!(
                    diagnostics.iter().any(|d| d.line == Some(line)),
                    "{bad}: no diagnostic on line {line}: {diagnostics:?}"
                );
            }
            other => panic!("{bad}: expected a parse error, got {other:?}"),
        }
    }
}

#[test]
fn ops_the_custom_form_cannot_show_print_generic() {
    // A `stablehlo.add` with an attribute of `compare` among its properties
    // has no custom form: it prints generic, and reads back the same.
    let text = "module {\n  func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n    \
                %0 = \"stablehlo.add\"(%arg0, %arg0) <{comparison_direction = 1 : i32}> : \
                (tensor<f32>, tensor<f32>) -> tensor<f32>\n    \
                %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2xf32>\n    \
                return %0 : tensor<f32>\n  }\n}\n";
    let (pretty, _) = both_prints("odd.mlir", text.as_bytes()).unwrap();
    assert_eq!(pretty, text);
}

#[test]
fn truncated_and_mutated_pretty_modules_are_errors_never_crashes() {
    // Every prefix (at a stride) and every one-token deletion of some lines
    // of each fixture: read, then printed both ways; an abort or a panic in
    // the C++ parser or printer fails the whole test binary.
    let mut reads = 0usize;
    for (name, pretty_path, _) in fixtures() {
        let text = std::fs::read_to_string(&pretty_path).unwrap();
        let stride = (text.len() / 150).max(1);
        let mut cuts: Vec<String> = (0..text.len())
            .step_by(stride)
            .filter(|&at| text.is_char_boundary(at))
            .map(|at| text[..at].to_string())
            .collect();
        for (i, line) in text.lines().enumerate().filter(|(i, _)| i % 3 == 1) {
            let words: Vec<&str> = line.split(' ').collect();
            for skip in 0..words.len() {
                let mutated: Vec<&str> = words
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != skip)
                    .map(|(_, w)| *w)
                    .collect();
                let mut lines: Vec<&str> = text.lines().collect();
                let joined = mutated.join(" ");
                lines[i] = &joined;
                cuts.push(lines.join("\n"));
            }
        }
        for cut in &cuts {
            if let Ok((pretty, generic)) = both_prints(&name, cut.as_bytes()) {
                // What reads must read back the same.
                let (again, _) = both_prints(&name, pretty.as_bytes())
                    .unwrap_or_else(|e| panic!("{name}: our print does not read back: {e}"));
                assert_eq!(again, pretty, "{name}");
                let (from_generic, _) = both_prints(&name, generic.as_bytes()).unwrap();
                assert_eq!(from_generic, pretty, "{name}");
            }
            reads += 1;
        }
    }
    assert!(reads > 1000, "{reads}");
}
