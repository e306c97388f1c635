//! The custom (pretty) syntax of `tpu` ops: JAX's pretty kernels load as the
//! generic ones, kernels print as JAX prints them, and every supported op
//! round-trips through fixtures made by real jaxlib (`mlir-fixtures/pretty/`,
//! made by `scripts/jaxref/gen_pretty_fixtures.py`).

use std::collections::HashMap;
use std::path::PathBuf;

use tpu_custom_call::pretty::{PrettyError, generic_to_pretty, pretty_to_generic, supported_ops};
use tpu_custom_call::{Context, Kernel, KernelError, PrintOptions, kernel};

use crate::common::*;

const NO_LOCATIONS: PrintOptions = PrintOptions {
    generic: true,
    debug_info: false,
};

/// Renames SSA values in order of definition (`%0`, `%c0_i32`, `%arg3`,
/// `%sorted_keys` all become `%vN`), and result groups (`%0:3 = `, uses
/// `%0#1`) into their single values, so two printings that differ only in
/// SSA names compare equal.
fn normalize_ssa(text: &str) -> String {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut next = 0usize;
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let mut rest = trimmed.to_string();
        // A result list `%a, %b = ` or `%a:3 = ` defines names.
        if trimmed.starts_with('%')
            && let Some(eq) = trimmed.find(" = ")
            && trimmed[..eq]
                .split(", ")
                .all(|d| d.starts_with('%') && !d.contains(' '))
        {
            let mut defs = Vec::new();
            for def in trimmed[..eq].split(", ") {
                match def.split_once(':') {
                    Some((name, count)) => {
                        let count: usize = count.parse().unwrap();
                        for i in 0..count {
                            names.insert(format!("{name}#{i}"), format!("%v{next}"));
                            defs.push(format!("%v{next}"));
                            next += 1;
                        }
                    }
                    None => {
                        names.insert(def.to_string(), format!("%v{next}"));
                        defs.push(format!("%v{next}"));
                        next += 1;
                    }
                }
            }
            rest = format!("{} = {}", defs.join(", "), &trimmed[eq + 3..]);
        }
        // Block arguments define names too.
        let mut renamed = String::new();
        let bytes = rest.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let mut j = i + 1;
                while j < bytes.len()
                    && (bytes[j].is_ascii_alphanumeric()
                        || matches!(bytes[j], b'_' | b'-' | b'$' | b'.'))
                {
                    j += 1;
                }
                if j < bytes.len() && bytes[j] == b'#' {
                    j += 1;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                }
                let name = &rest[i..j];
                let mapped = names.entry(name.to_string()).or_insert_with(|| {
                    next += 1;
                    format!("%v{}", next - 1)
                });
                renamed.push_str(mapped);
                i = j;
            } else {
                let c = rest[i..].chars().next().unwrap();
                renamed.push(c);
                i += c.len_utf8();
            }
        }
        out.push_str(indent);
        out.push_str(&renamed);
        out.push('\n');
    }
    out
}

/// The text of a fixture without its header line (how it was made).
fn fixture_body(path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let (header, body) = text.split_once('\n').unwrap();
    assert!(
        header.starts_with("// ") && header.contains("jaxlib"),
        "{}: header line missing",
        path.display()
    );
    body.to_string()
}

#[test]
fn every_table_entry_compiles() {
    let ops: Vec<&str> = supported_ops().collect();
    assert!(ops.len() >= 40, "{ops:?}");
    let mut failures = Failures::new();
    for op in [
        "tpu.vector_store",
        "tpu.vector_load",
        "tpu.enqueue_dma",
        "tpu.wait_dma",
        "tpu.wait_dma2",
        "tpu.sem_signal",
        "tpu.scan",
        "tpu.reduce",
        "tpu.matmul",
        "tpu.yield",
    ] {
        failures.check(ops.contains(&op), || format!("{op} missing"));
    }
    failures.assert_none();
}

/// JAX's pretty `kernel_pre_serde.mlir` loads, and equals the module loaded
/// from its generic twin (locations aside: the pretty dump has none).
#[test]
fn golden_pretty_kernels_load_as_their_generic_twins() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        let pretty = std::fs::read_to_string(case.join("kernel_pre_serde.mlir")).unwrap();
        let generic = std::fs::read(case.join("kernel_pre_serde.generic.mlir")).unwrap();
        let from_pretty = failures.ok(
            format!("{name} (pretty)"),
            Kernel::from_text(&ctx, &pretty, &name).and_then(|k| k.print(NO_LOCATIONS)),
        );
        let from_generic = failures.ok(
            format!("{name} (generic)"),
            Kernel::load(&ctx, &generic, &name).and_then(|k| k.print(NO_LOCATIONS)),
        );
        if let (Some(from_pretty), Some(from_generic)) = (from_pretty, from_generic) {
            failures.text(
                format!("{name}: loaded from pretty vs from generic"),
                &from_pretty,
                &from_generic,
            );
        }
    }
    failures.assert_none();
}

/// Printing each golden kernel pretty gives JAX's text, modulo SSA names.
#[test]
fn golden_kernels_print_as_jax_prints_them() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        let jax = std::fs::read_to_string(case.join("kernel_pre_serde.mlir")).unwrap();
        let generic = std::fs::read(case.join("kernel_pre_serde.generic.mlir")).unwrap();
        let Some(ours) = failures.ok(
            &name,
            Kernel::load(&ctx, &generic, &name).and_then(|k| k.print_pretty(false)),
        ) else {
            continue;
        };
        failures.text(
            format!("{name}: printed pretty vs JAX's (SSA names normalized)"),
            &normalize_ssa(&ours),
            &normalize_ssa(&jax),
        );
    }
    failures.assert_none();
}

/// The jaxlib-made pretty fixtures (`mlir-fixtures/pretty/*.mlir`, each with a
/// `.generic.mlir` beside it), sorted.
fn pretty_fixtures() -> Vec<PathBuf> {
    let dir = fixtures_dir().join("pretty");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".mlir") && !name.ends_with(".generic.mlir")
        })
        .collect();
    files.sort();
    files
}

/// One or more jaxlib-made fixtures per supported op: the pretty text loads
/// as jaxlib's generic text does, and prints back as jaxlib printed it.
#[test]
fn every_supported_op_round_trips_through_jaxlib_fixtures() {
    let pretty_files = pretty_fixtures();
    let ctx = Context::new();
    let mut covered = std::collections::BTreeSet::new();
    let mut failures = Failures::new();
    for path in &pretty_files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let jax_pretty = fixture_body(path);
        let jax_generic = fixture_body(&path.with_extension("generic.mlir"));
        for op in supported_ops() {
            // The op in custom form: its name, not followed by more of a name.
            let custom = jax_pretty.match_indices(op).any(|(at, _)| {
                jax_pretty[at + op.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '"'))
            });
            if custom {
                covered.insert(op);
            }
        }
        // pretty -> generic: the same module as jaxlib's generic printing.
        let Some(generic_text) = failures.ok(&name, pretty_to_generic(&jax_pretty)) else {
            continue;
        };
        let Some(ours) = failures.ok(
            format!("{name} (our generic text)"),
            Kernel::from_text(&ctx, &generic_text, &name).and_then(|k| k.print(NO_LOCATIONS)),
        ) else {
            continue;
        };
        if let Some(reference) = failures.ok(
            format!("{name} (jaxlib's generic text)"),
            Kernel::from_text(&ctx, &jax_generic, &name).and_then(|k| k.print(NO_LOCATIONS)),
        ) {
            failures.text(format!("{name} (to generic)"), &ours, &reference);
        }
        // generic -> pretty: jaxlib's pretty text again.
        if let Some(back) = failures.ok(
            format!("{name} (to pretty)"),
            Kernel::from_text(&ctx, &generic_text, &name).and_then(|k| k.print_pretty(false)),
        ) {
            failures.text(
                format!("{name} (to pretty, SSA names normalized)"),
                &normalize_ssa(&back),
                &normalize_ssa(&jax_pretty),
            );
        }
    }
    failures.assert_none();
    let missing: Vec<&str> = supported_ops().filter(|op| !covered.contains(op)).collect();
    assert!(
        missing.is_empty(),
        "supported ops without a jaxlib fixture: {missing:?}"
    );
}

#[test]
fn text_without_pretty_tpu_ops_is_borrowed() {
    let text =
        std::fs::read_to_string(goldens_dir().join("add_basic/kernel_pre_serde.generic.mlir"))
            .unwrap();
    assert!(matches!(
        pretty_to_generic(&text),
        Ok(std::borrow::Cow::Borrowed(_))
    ));
}

#[test]
fn unknown_pretty_tpu_op_is_named_with_its_position() {
    let text =
        "module {\n  func.func @k() {\n    tpu.trace_start \"x\" level 1\n    return\n  }\n}\n";
    let err = pretty_to_generic(text).unwrap_err();
    assert_eq!(
        err,
        PrettyError::UnknownOp {
            op: "tpu.trace_start".to_string(),
            line: 3,
            column: 5
        }
    );
    assert!(err.to_string().contains("--mlir-print-op-generic"), "{err}");
    let ctx = Context::new();
    match Kernel::from_text(&ctx, text, "k.mlir").unwrap_err() {
        KernelError::PrettyTpuOp {
            op, line, column, ..
        } => {
            assert_eq!((op.as_str(), line, column), ("tpu.trace_start", 3, 5))
        }
        other => panic!("{other}"),
    }
}

#[test]
fn malformed_pretty_op_says_what_was_expected_where() {
    let text = "func.func @k(%s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {\n  \
                tpu.sem_wait %s %n : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>\n  return\n}\n";
    let err = pretty_to_generic(text).unwrap_err();
    match &err {
        PrettyError::Syntax {
            op,
            line,
            column,
            expected,
            found,
        } => {
            assert_eq!(op, "tpu.sem_wait");
            assert_eq!((*line, *column), (2, 19));
            assert_eq!(expected, "`,`");
            assert_eq!(found, "`%n`");
        }
        other => panic!("{other}"),
    }
}

/// Ops the table does not know, and ops with regions, stay generic when
/// printed pretty (as JAX prints `tpu.region`).
#[test]
fn ops_without_custom_syntax_stay_generic() {
    let text = "\"tpu.trace_stop\"() : () -> ()\n%0 = \"tpu.prng_random_bits\"() : () -> vector<8x128xi32>\n";
    assert_eq!(generic_to_pretty(text), text);
}

/// Real jaxlib reads what we print as it reads JAX's own output: our pretty
/// printing of every golden kernel and fixture, and our generic rewriting of
/// every pretty fixture and golden (`scripts/jaxref/check_pretty.py`).
#[test]
fn jaxlib_reads_our_pretty_and_generic_text_as_the_references() {
    let Some(python) = jaxref_python("jaxlib_reads_our_pretty_and_generic_text_as_the_references")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-pretty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ctx = Context::new();
    let mut failures = Failures::new();
    let mut pairs: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut write = |name: String, text: &str, reference: PathBuf| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        pairs.push((path, reference));
    };
    for case in golden_cases() {
        let name = case_name(&case);
        let reference = case.join("kernel_pre_serde.generic.mlir");
        if let Some(pretty) = failures.ok(
            format!("{name}: printing pretty"),
            Kernel::load(&ctx, &std::fs::read(&reference).unwrap(), &name)
                .and_then(|k| k.print_pretty(false)),
        ) {
            write(format!("{name}.pretty.mlir"), &pretty, reference.clone());
        }
        let jax_pretty = std::fs::read_to_string(case.join("kernel_pre_serde.mlir")).unwrap();
        if let Some(generic) = failures.ok(
            format!("{name}: rewriting generic"),
            pretty_to_generic(&jax_pretty),
        ) {
            write(format!("{name}.generic.mlir"), &generic, reference);
        }
    }
    for entry in std::fs::read_dir(fixtures_dir().join("pretty")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.ends_with(".generic.mlir") {
            continue;
        }
        let reference = path.with_extension("generic.mlir");
        let jax_pretty = fixture_body(&path);
        if let Some(pretty) = failures.ok(
            format!("{file}: printing pretty"),
            Kernel::from_text(&ctx, &jax_pretty, &file).and_then(|k| k.print_pretty(false)),
        ) {
            write(format!("fixture-{file}.pretty"), &pretty, reference.clone());
        }
        if let Some(generic) = failures.ok(
            format!("{file}: rewriting generic"),
            pretty_to_generic(&jax_pretty),
        ) {
            write(format!("fixture-{file}.generic"), &generic, reference);
        }
    }
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/check_pretty.py");
    let mut command = std::process::Command::new(python);
    command.arg(script);
    for (ours, reference) in &pairs {
        command.arg(ours).arg(reference);
    }
    let output = command.output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    failures.check(output.status.success(), || {
        format!(
            "jaxlib disagrees:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    failures.assert_none();
    assert!(pairs.len() >= 2 * 36 + 2 * 50, "{} pairs", pairs.len());
}

/// With locations: every golden kernel printed pretty with `loc(...)` reads
/// back to the module MLIR's own pretty printing reads back to (pretty
/// printing elides implicit terminators such as `scf.yield`, whose locations
/// are then the parser's: the `tpu` ops add no loss of their own).
#[test]
fn pretty_printing_with_locations_reads_back_identically() {
    let ctx = Context::new();
    let upstream_pretty = PrintOptions {
        generic: false,
        debug_info: true,
    };
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        let generic = std::fs::read(case.join("kernel_pre_serde.generic.mlir")).unwrap();
        let Some(kernel) = failures.ok(&name, Kernel::load(&ctx, &generic, &name)) else {
            continue;
        };
        let Some(ours) = failures.ok(
            format!("{name}: printing pretty"),
            kernel.print_pretty(true),
        ) else {
            continue;
        };
        failures.check(ours.contains(" loc("), || {
            format!("{name}: no locations printed")
        });
        let back = failures.ok(
            format!("{name}: reading our pretty text back"),
            Kernel::from_text(&ctx, &ours, &name)
                .and_then(|k| k.print(PrintOptions::GENERIC_WITH_LOCATIONS)),
        );
        let reference = failures.ok(
            format!("{name}: MLIR's pretty printing read back"),
            kernel
                .print(upstream_pretty)
                .and_then(|text| Kernel::from_text(&ctx, &text, &name))
                .and_then(|k| k.print(PrintOptions::GENERIC_WITH_LOCATIONS)),
        );
        if let (Some(back), Some(reference)) = (back, reference) {
            failures.text(&name, &back, &reference);
        }
    }
    failures.assert_none();
}

/// Malformed input never panics: every prefix of every fixture, pretty and
/// generic (and a few hostile strings), either rewrites or gives an error.
#[test]
fn truncated_and_hostile_input_gives_errors_not_panics() {
    let mut inputs: Vec<String> = vec![
        "tpu.vector_store".into(),
        "%0 = tpu.scan <".into(),
        "tpu.log \"\\é".into(),
        "tpu.enqueue_dma source(%a : memref<8xf32>".into(),
        "%0:2 = tpu.sort %a, %b : (vector<8xf32>, vector<8xf32>) -> (".into(),
        "tpu.sem_signal %s, %n device_id".into(),
        "  tpu.yield %x : ".into(),
    ];
    for entry in std::fs::read_dir(fixtures_dir().join("pretty")).unwrap() {
        let path = entry.unwrap().path();
        let body = fixture_body(&path);
        for (i, _) in body.char_indices() {
            inputs.push(body[..i].to_string());
        }
    }
    for input in &inputs {
        let _ = pretty_to_generic(input);
        let _ = generic_to_pretty(input);
    }
    assert!(inputs.len() > 10_000, "{}", inputs.len());
}

/// Kernels JAX 0.12 lowered (`mlir-fixtures/jax-lowered/<case>/`, made by
/// `scripts/jaxref/lower_upstream_cases.py`), with what JAX's Pallas TPU test
/// suite showed we got wrong (issue 27): the pretty kernel jaxlib printed
/// (`kernel.mlir`, with MLIR 24's `vector.extract_strided_slice %x offsets =
/// [...], ...`) loads and prints back byte for byte as jaxlib printed it; and
/// the call re-emitted from what `inspect` decodes of JAX's module (kernel
/// with its debug locations, signature, parameters) has JAX's backend_config
/// byte for byte, `debug_locations` of an `scf.while` kernel included (the
/// block arguments of both regions before the ops of either).
#[test]
fn jax_lowered_kernels_load_print_and_reemit_as_jax() {
    let root = fixtures_dir().join("jax-lowered");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 2, "cases missing under {}", root.display());
    let mut failures = Failures::new();
    let tmp = std::env::temp_dir().join(format!("tcc-jax-lowered-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let rel = |file: &str| format!("mlir-fixtures/jax-lowered/{name}/{file}");
        let jax_kernel = std::fs::read_to_string(case.join("kernel.mlir")).unwrap();
        let (code, stdout, stderr) = run_cli(&["kernel", &rel("kernel.mlir"), "--pretty"]);
        failures.check(code == 0, || format!("{name}: kernel --pretty: {stderr}"));
        failures.text(
            format!("{name}: our pretty print of jaxlib's pretty kernel"),
            &String::from_utf8_lossy(&stdout),
            &jax_kernel,
        );
        // Re-emit from what inspect decodes.
        let module = rel("module.mlir");
        let (_, kernel, stderr) = run_cli(&["inspect", &module, "--kernel"]);
        let (_, json, _) = run_cli(&["inspect", &module, "--json"]);
        let Some(call) = failures.ok(
            format!("{name}: inspect --json ({stderr})"),
            serde_json::from_slice::<serde_json::Value>(&json),
        ) else {
            continue;
        };
        let call = &call[0];
        let kernel_path = tmp.join(format!("{name}.kernel.mlir"));
        let params_path = tmp.join(format!("{name}.params.json"));
        let out_path = tmp.join(format!("{name}.mlir"));
        std::fs::write(&kernel_path, &kernel).unwrap();
        std::fs::write(&params_path, call["params"].to_string()).unwrap();
        let types = |key: &str| {
            call[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let signature = format!(
            "({}) -> ({})",
            types("operand_types"),
            types("result_types")
        );
        let (code, _, stderr) = run_cli(&[
            "emit",
            kernel_path.to_str().unwrap(),
            "--signature",
            &signature,
            "--params",
            params_path.to_str().unwrap(),
            "--producer",
            "MLIR24.0.0git",
            "--bytecode-encodings",
            "24",
            "--jax-rules-only",
            "-o",
            out_path.to_str().unwrap(),
        ]);
        failures.check(code == 0, || format!("{name}: emit: {stderr}"));
        let config = |text: &str| {
            let start = text.find("backend_config = \"").map(|i| i + 18)?;
            let end = text[start..].find("\", ")? + start;
            Some(text[start..end].to_string())
        };
        let jax = std::fs::read_to_string(case.join("module.mlir")).unwrap();
        let ours = std::fs::read_to_string(&out_path).unwrap_or_default();
        failures.eq(
            format!("{name}: backend_config re-emitted from JAX's module"),
            config(&ours),
            config(&jax),
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
    failures.assert_none();
}

/// MLIR's own parser reads every jaxlib pretty fixture, without the crate's
/// text rewrite (`pretty_to_generic`): the `tpu` dialect's parse hook (the
/// C++ engine of declarative formats, fed the crate's op table) gives the
/// module jaxlib's generic print shows, byte for byte.
#[test]
fn mlir_parses_every_pretty_fixture_directly() {
    let pretty_files = pretty_fixtures();
    assert!(pretty_files.len() >= 100, "{}", pretty_files.len());
    let ctx = Context::new();
    let mut failures = Failures::new();
    for path in &pretty_files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let jax_pretty = fixture_body(path);
        let jax_generic = fixture_body(&path.with_extension("generic.mlir"));
        // NUL-terminated, as MLIR's lexer expects (see `kernel::parse_module`).
        let owned = format!("{jax_pretty}\0");
        let text = &owned[..jax_pretty.len()];
        let Some(module) = tpu_custom_call::melior::ir::Module::parse(ctx.mlir(), text) else {
            failures.check(false, || {
                format!(
                    "{name}: MLIR did not parse it: {:?}",
                    ctx.take_diagnostics()
                )
            });
            continue;
        };
        if let Some(ours) = failures.ok(&name, kernel::print_module(&module, NO_LOCATIONS)) {
            failures.text(format!("{name} (MLIR, generic)"), &ours, &jax_generic);
        }
    }
    failures.assert_none();
}
