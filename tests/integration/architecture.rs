//! The architecture's one-way flow, checked on the sources: no import cycle
//! among the crate's top-level modules, counted from `crate::<module>`
//! references (code, `use` groups and doc links alike). The same count as
//! `scripts/module-cycles.py`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules (`mod x;` in lib.rs) and what the crate root
/// re-exports from each (`pub use x::{A, B}` / `pub use x::A`).
fn modules() -> (BTreeSet<String>, BTreeMap<String, String>) {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let mut mods = BTreeSet::new();
    let mut reexports = BTreeMap::new();
    let mut statements = lib.split(';');
    for statement in statements.by_ref() {
        let s = statement
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join(" ");
        let s = s.trim();
        if let Some(rest) = s
            .strip_prefix("pub mod ")
            .or_else(|| s.strip_prefix("mod "))
        {
            mods.insert(identifier(rest.trim()).to_string());
        } else if let Some(rest) = s.strip_prefix("pub use ") {
            let module = identifier(rest).to_string();
            let items = rest[module.len()..].trim_start_matches("::");
            for item in items.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !item.is_empty() {
                    reexports.insert(item.to_string(), module.clone());
                }
            }
        }
    }
    (mods, reexports)
}

/// `module -> modules it references`.
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let (mods, reexports) = modules();
    let mut files = Vec::new();
    rust_files(&src_dir(), &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src_dir()).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let owner = first.trim_end_matches(".rs").to_string();
        if !mods.contains(&owner) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let mut targets = Vec::new();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                // The first path segment of each item of the group.
                for item in group.split(',') {
                    targets.push(identifier(item.trim()).to_string());
                }
            } else {
                targets.push(identifier(rest).to_string());
            }
        }
        for target in targets {
            let target = reexports.get(&target).cloned().unwrap_or(target);
            if mods.contains(&target) && target != owner {
                edges.entry(owner.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// Every module on a cycle, as the cycles (strongly connected components of
/// more than one module).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let reaches = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for next in edges.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reaches(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for node in &nodes {
        if !reach[node].contains(*node) {
            continue;
        }
        let component: Vec<String> = nodes
            .iter()
            .filter(|other| reach[node].contains(**other) && reach[*other].contains(*node))
            .map(|n| (*n).clone())
            .collect();
        if !out.contains(&component) {
            out.push(component);
        }
    }
    out
}

#[test]
fn no_import_cycle_among_top_level_modules() {
    let edges = edges();
    let cycles = cycles(&edges);
    let graph: Vec<String> = edges
        .iter()
        .map(|(from, to)| {
            format!(
                "{from} -> {}",
                to.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "import cycles among top-level modules: {cycles:?}\n{}",
        graph.join("\n")
    );
    // The vocabularies are leaves: `stablehlo` and `spelling` import
    // nothing; `mosaic` (vocabulary and kernel builders) only the context,
    // the FFI and `spelling`, which import nothing else of the crate.
    let allowed: [(&str, &[&str]); 5] = [
        ("stablehlo", &[]),
        ("spelling", &[]),
        ("mosaic", &["context", "ffi", "spelling"]),
        ("context", &["ffi"]),
        ("ffi", &[]),
    ];
    let mut failures = crate::common::Failures::new();
    for (leaf, may) in allowed {
        let imports = edges.get(leaf).cloned().unwrap_or_default();
        failures.check(imports.iter().all(|m| may.contains(&m.as_str())), || {
            format!("{leaf} imports {imports:?} (allowed: {may:?})")
        });
    }
    failures.assert_none();
}

#[test]
fn the_cycle_count_sees_a_cycle() {
    let mut edges = edges();
    edges
        .entry("mosaic".into())
        .or_default()
        .insert("kernel".into());
    // `pretty` reads `tpu` op names (`mosaic::hints`) and `kernel` reads
    // `pretty`: both close the cycle the added edge makes.
    assert_eq!(cycles(&edges), [["bytecode", "kernel", "mosaic", "pretty"]]);
}

/// A golden mismatch prints a diff of the lines that differ, not both files.
#[test]
fn golden_mismatch_prints_a_diff() {
    let expected = "a\nb\nc\nd\ne\nf\ng\n";
    let actual = "a\nb\nc\nD\ne\nf\ng\n";
    assert_eq!(
        crate::common::line_diff(expected, actual),
        "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n"
    );
    // Bytes: a line diff for texts of several lines, else where they differ.
    assert_eq!(
        crate::common::bytes_diff(expected.as_bytes(), actual.as_bytes()),
        crate::common::line_diff(expected, actual)
    );
    assert_eq!(
        crate::common::bytes_diff(b"{\"a\": 1, \"b\": 2}", b"{\"a\": 1, \"b\": 3}"),
        "16 bytes expected, 16 actual; first difference at byte 14\n\
         -@0: \"{\\\"a\\\": 1, \\\"b\\\": 2}\"\n\
         +@0: \"{\\\"a\\\": 1, \\\"b\\\": 3}\"\n"
    );
    assert_eq!(
        crate::common::bytes_diff(&[0, 1, 2, 0xff], &[0, 1, 3]),
        "4 bytes expected, 3 actual; first difference at byte 2\n-@0: 00 01 02 ff\n+@0: 00 01 03\n"
    );
}

/// A loop over cases reports every failing case, not only the first: the
/// message of `Failures::assert_none` names each one, with the diff of a
/// text mismatch.
#[test]
fn failures_report_every_case() {
    let mut failures = crate::common::Failures::new();
    for case in ["one", "two", "three"] {
        failures.text(case, &format!("a\n{case}\n"), "a\nb\n");
    }
    failures.eq("four", 4, 4);
    failures.check(true, || "five".to_string());
    assert_eq!(failures.ok("six", Err::<(), _>("broken")), None);
    let message = std::panic::catch_unwind(move || failures.assert_none())
        .expect_err("three cases differ")
        .downcast::<String>()
        .unwrap();
    assert!(message.starts_with("4 failure(s):\n"), "{message}");
    for case in ["one", "two", "three"] {
        assert!(
            message.contains(&format!(
                "{case} differs (- expected, + actual):\n@@ -1,2 +1,2 @@\n a\n-b\n+{case}\n"
            )),
            "{message}"
        );
    }
    assert!(message.ends_with("\nsix: broken"), "{message}");
    crate::common::Failures::new().assert_none();
}

/// Emission has no public path that skips validation: the op builders are
/// crate-private and every public emitter takes a `ValidatedCall`.
#[test]
fn emission_takes_only_validated_calls() {
    let emit = std::fs::read_to_string(src_dir().join("emit.rs")).unwrap();
    let mut failures = crate::common::Failures::new();
    for line in emit.lines().filter(|l| l.starts_with("pub fn ")) {
        failures.check(
            !(line.contains("CallAttributes") || line.contains("build_")),
            || format!("emit.rs: public builder `{line}`"),
        );
    }
    let lower = std::fs::read_to_string(src_dir().join("lower.rs")).unwrap();
    for (at, _) in lower.match_indices("    pub fn ") {
        let signature = &lower[at..at + lower[at..].find('{').unwrap_or(0)];
        let emits = ["pub fn emit_", "pub fn build_", "pub fn lower("]
            .iter()
            .any(|p| signature.trim_start().starts_with(p));
        failures.check(!emits || signature.contains("ValidatedCall"), || {
            format!(
                "lower.rs: `{}` does not take a ValidatedCall",
                signature.trim()
            )
        });
    }
    failures.assert_none();
}

/// The errors around a call's config are layered, one enum per layer and one
/// `Error` variant each: reading backend_config JSON (`ConfigRead`), writing
/// it (`ConfigWrite`), PARAMS.json (`Params`, each bad value carrying its
/// key) and the rules (`Rule`, JAX's messages verbatim).
#[test]
fn config_errors_are_layered() {
    use tpu_custom_call::config::{ReadError, WriteError};
    use tpu_custom_call::{
        BackendConfig, Error, MemorySpace, ParamKey, Params, ParamsError, RuleError, Tiling,
        problems,
    };
    let jax_message = |case: &str| -> String {
        let path = crate::common::goldens_dir().join("errors.json");
        let cases: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        cases
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["case"] == case)
            .unwrap_or_else(|| panic!("errors.json has no {case}"))["message"]
            .as_str()
            .unwrap()
            .to_string()
    };

    // PARAMS.json: a bad value is a ParamsError variant that names its key.
    let e = Params::from_json(br#"{"input_output_aliases": [[0, -1]]}"#).unwrap_err();
    assert_eq!(
        e,
        ParamsError::Negative {
            key: ParamKey::InputOutputAliases,
            field: "input_output_aliases[0][1]".into(),
            value: -1,
        }
    );
    assert_eq!(e.key(), Some(ParamKey::InputOutputAliases));
    let e = Params::from_json(br#"{"has_side_effects": 3}"#).unwrap_err();
    assert_eq!(e.key(), Some(ParamKey::HasSideEffects));
    assert_eq!(e.to_string(), "Invalid side effect type: 3");
    assert!(
        matches!(Error::from(e), Error::Params(p) if matches!(*p, ParamsError::InvalidSideEffect { .. }))
    );

    // The rules: JAX's, with JAX's message.
    let tiled = Params {
        tiling: Some(Tiling::Compact),
        ..Params::default()
    };
    let errors = problems(None, None, &tiled, None);
    assert!(
        matches!(
            errors.as_slice(),
            [Error::Rule(RuleError::TilingOnTensorCore)]
        ),
        "{errors:?}"
    );
    assert_eq!(
        errors[0].to_string(),
        jax_message("explicit_tiling_on_tensorcore_direct")
    );

    // The writer's refusal, and the rule that guards it (same JAX message):
    // the rule refuses the parameters, the writer a config built by hand.
    let semaphore_input = Some(vec![Some(MemorySpace::SemaphoreMem)]);
    let jax = jax_message("input_memory_space_semaphore_direct");
    let params = Params {
        input_memory_spaces: semaphore_input.clone(),
        ..Params::default()
    };
    let errors = problems(None, None, &params, None);
    assert!(
        matches!(
            errors.as_slice(),
            [Error::Rule(RuleError::InputMemorySpaceUnsupported {
                operand: 0,
                ..
            })]
        ),
        "{errors:?}"
    );
    assert_eq!(errors[0].to_string(), jax);
    let config = BackendConfig {
        input_memory_spaces: semaphore_input,
        ..BackendConfig::default()
    };
    let e = Error::from(config.to_json(true).unwrap_err());
    assert!(
        matches!(
            e,
            Error::ConfigWrite(WriteError::InputMemorySpaceUnsupported {
                operand: 0,
                memory_space: MemorySpace::SemaphoreMem,
            })
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), jax);

    // Reading backend_config JSON.
    let e = Error::from(BackendConfig::from_json(b"[").unwrap_err());
    assert!(
        matches!(e, Error::ConfigRead(ReadError::Json { .. })),
        "{e:?}"
    );
}
