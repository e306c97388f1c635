//! Issue 40's examples (`examples/pallas_examples`): each Rust kernel is
//! `diff`-equal to JAX 0.12's lowering of the same Python Pallas kernel
//! (`scripts/jaxref/authoring_examples.py`, run here when the jaxref venv
//! exists), computes on the CPU executor what numpy computes from the
//! script's seeded inputs, compiles with libtpu (v5e, v6e, v7x; the
//! SparseCore gather on v7x), and takes at most 1.3x the
//! Python's lines.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::common;
use crate::compile::{LIBTPU, libtpu, options};
use tpu_custom_call::compile::Compiler;
use tpu_custom_call::exec::{ElemType, npy};
use tpu_custom_call::target::Chip;
use tpu_custom_call::testing::{assert_call_computes, calls_diff};

#[path = "../../examples/pallas_examples/kernels.rs"]
mod kernels;

/// The script's output (JAX's module per example) and the folder of its
/// inputs and numpy references; `None` without the jaxref venv.
fn jax_examples(test: &str) -> Option<&'static (String, PathBuf)> {
    static RUN: OnceLock<Option<(String, PathBuf)>> = OnceLock::new();
    let python = common::jaxref_python(test)?;
    RUN.get_or_init(|| {
        let root = env!("CARGO_MANIFEST_DIR");
        let refs = std::env::temp_dir().join(format!("tcc-examples-{}", std::process::id()));
        std::fs::create_dir_all(&refs).unwrap();
        let output = std::process::Command::new(&python)
            .arg(format!("{root}/scripts/jaxref/authoring_examples.py"))
            .arg("--refs")
            .arg(&refs)
            .env("JAX_PLATFORMS", "cpu")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "authoring_examples.py: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Some((String::from_utf8(output.stdout).unwrap(), refs))
    })
    .as_ref()
}

/// JAX's module of example `name` in the script's output.
fn jax_module<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text
        .find(&format!("// ----- {name}\n"))
        .unwrap_or_else(|| panic!("no `{name}` in the script's output"));
    let rest = &text[start..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    &body[..body.find("// ----- ").unwrap_or(body.len())]
}

#[test]
fn examples_equal_jax_lowering_of_their_python() {
    let Some((text, _)) = jax_examples("examples_equal_jax_lowering_of_their_python") else {
        return;
    };
    let mut failures = common::Failures::new();
    for name in kernels::EXAMPLES {
        let ours = kernels::lowered_module(name).unwrap();
        match calls_diff(jax_module(text, name), &ours, &Default::default()) {
            Ok(report) if report.is_equal() => {}
            Ok(report) => failures.fail(format!("{name}: differs from JAX:\n{report}")),
            Err(e) => failures.fail(format!("{name}: {e}")),
        }
    }
    failures.assert_none();
}

#[test]
fn examples_compute_the_numpy_reference() {
    let Some((_, refs)) = jax_examples("examples_compute_the_numpy_reference") else {
        return;
    };
    for (name, elems) in [
        ("flash_attention", &[ElemType::F32; 3][..]),
        (
            "paged_attention",
            &[
                ElemType::Int(32),
                ElemType::F32,
                ElemType::F32,
                ElemType::F32,
            ],
        ),
    ] {
        let inputs: Vec<_> = elems
            .iter()
            .enumerate()
            .map(|(i, &e)| npy::read(&refs.join(format!("{name}_in{i}.npy")), e).unwrap())
            .collect();
        let expected = npy::read(&refs.join(format!("{name}_out.npy")), ElemType::F32).unwrap();
        let module = kernels::lowered_module(name).unwrap();
        // f32 matmuls and exps in another order than numpy's float64.
        assert_call_computes(&module, 0, &inputs, &[expected], 1e-4, 1e-5);
    }
}

#[test]
fn examples_compile_with_libtpu() {
    let test = "examples_compile_with_libtpu";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    for chip in [Chip::V5e, Chip::V6e, Chip::V7x] {
        let mut compiler = Compiler::new(options(chip, 1, &libtpu)).unwrap();
        // SparseCore kernels compile for a chip with SparseCores (v7x here).
        let sparse_core = |name: &&&str| **name == "embedding_lookup";
        for name in kernels::EXAMPLES
            .iter()
            .filter(|n| chip == Chip::V7x || !sparse_core(n))
        {
            let module = kernels::lowered_module(name).unwrap();
            let verdict = compiler.compile(module.as_bytes()).unwrap();
            assert!(verdict.is_ok(), "{name} on {chip}: {verdict:?}");
        }
    }
}

/// Issue 40's rule: each Rust kernel takes at most 1.3x the non-blank lines
/// of its Python Pallas kernel (the kernel with its `pallas_call`), and its
/// doc comment says both counts.
#[test]
fn examples_are_at_most_1_3_times_the_python() {
    let root = env!("CARGO_MANIFEST_DIR");
    let rust =
        std::fs::read_to_string(format!("{root}/examples/pallas_examples/kernels.rs")).unwrap();
    let python =
        std::fs::read_to_string(format!("{root}/scripts/jaxref/authoring_examples.py")).unwrap();
    let count = |text: &str| text.lines().filter(|l| !l.trim().is_empty()).count();
    for (function, marker) in [
        ("flash_attention", "flash"),
        ("paged_attention", "paged"),
        ("embedding_lookup", "gather"),
    ] {
        let start = rust.find(&format!("\npub fn {function}(")).unwrap();
        let end = start + rust[start..].find("\n}\n").unwrap() + 2;
        let rust_lines = count(&rust[start..end]);
        let begin = python.find(&format!("# {marker}: begin\n")).unwrap();
        let stop = python.find(&format!("# {marker}: end\n")).unwrap();
        let python_lines = count(&python[begin..stop]) - 1;
        assert!(
            rust_lines * 10 <= python_lines * 13,
            "{function}: {rust_lines} lines of Rust for {python_lines} of Python"
        );
        let doc_start = rust[..start].rfind("\n\n").unwrap();
        let doc = rust[doc_start..start].replace("\n/// ", " ");
        for claim in [
            format!("take {python_lines} non-blank lines"),
            format!("this function {rust_lines} ("),
        ] {
            assert!(
                doc.contains(&claim),
                "{function}: its doc should say `{claim}`"
            );
        }
    }
}
