//! The bytecode transcoder (`tpu_custom_call::bytecode`) against JAX 0.12's
//! golden bodies and bytes written by real jaxlib 0.12 (fixtures made by
//! `scripts/jaxref/write_bytecode.py`, see `mlir-fixtures/bytecode/README.md`).

use std::path::{Path, PathBuf};

use melior::ir::Module;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use tpu_custom_call::bytecode::{self, Bytecode, Encodings, EntryKind, Section, TranscodeError};
use tpu_custom_call::{BytecodeOptions, Context, Kernel, PrintOptions};

use crate::common::{
    Failures, case_name, fixtures_dir, golden_cases, goldens_dir, jaxref_python, line_diff,
};
use tpu_custom_call::KernelError;

/// The producer string of jaxlib 0.12's MLIR.
const JAX_PRODUCER: &str = "MLIR24.0.0git";

fn jax_options() -> BytecodeOptions {
    BytecodeOptions {
        version: Some(0),
        producer: Some(JAX_PRODUCER.into()),
    }
}

/// Every golden bytecode blob: `(path, is_body)`.
fn golden_blobs() -> Vec<(PathBuf, bool)> {
    let mut blobs = Vec::new();
    for case in golden_cases() {
        let mut names: Vec<String> = std::fs::read_dir(&case)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".mlirbc"))
            .collect();
        names.sort();
        for name in names {
            let is_body = name.starts_with("body");
            assert!(
                is_body || name.starts_with("debug_locations"),
                "unexpected blob {name}"
            );
            blobs.push((case.join(name), is_body));
        }
    }
    assert!(
        blobs.len() >= 70,
        "expected the golden blobs, found {}",
        blobs.len()
    );
    blobs
}

/// `body.2.mlirbc` -> `.2`; `body.mlirbc` -> ``.
fn suffix(path: &Path, stem: &str) -> String {
    let name = path.file_name().unwrap().to_string_lossy();
    name[stem.len()..name.len() - ".mlirbc".len()].to_string()
}

/// Parses any bytecode or text into a module (also empty ones, which
/// `Kernel` refuses), returning `None` when MLIR rejects it.
fn parse_any<'c>(ctx: &'c Context, bytes: &[u8]) -> Option<Module<'c>> {
    let source = mlir_sys::MlirStringRef {
        data: bytes.as_ptr() as *const _,
        length: bytes.len(),
    };
    // SAFETY: the context is live and `source` points into `bytes`, which
    // outlives the call; a null module comes back as `None`.
    unsafe { Module::from_option_raw(mlir_sys::mlirModuleCreateParse(ctx.mlir().to_raw(), source)) }
}

fn print_generic(module: &Module<'_>, debug_info: bool) -> String {
    let mut flags = OperationPrintingFlags::new().print_generic_operation_form();
    if debug_info {
        flags = flags.enable_debug_info(true, false);
    }
    module.as_operation().to_string_with_flags(flags).unwrap()
}

fn strip_locations(ctx: &Context, module: &mut Module<'_>) {
    let pm = melior::pass::PassManager::new(ctx.mlir());
    pm.add_pass(melior::pass::transform::create_strip_debug_info());
    pm.run(module).unwrap();
}

#[test]
fn every_golden_blob_loads_on_llvm22_after_down_and_equals_the_golden_text() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    let mut bodies_needing_down = 0;
    for (path, is_body) in golden_blobs() {
        let label = path.display().to_string();
        let blob = std::fs::read(&path).unwrap();
        let Some(down) = failures.ok(format!("{label}: down"), bytecode::down(&blob)) else {
            continue;
        };
        let case = path.parent().unwrap();
        if is_body {
            if down != blob {
                bodies_needing_down += 1;
                // MLIR 22 itself (no transcoding: the "text" path hands the
                // bytes to MLIR as they are; MLIR sniffs the bytecode magic).
                let untranscoded = tpu_custom_call::kernel::parse_module_bytes(
                    &ctx,
                    &blob,
                    "original",
                    tpu_custom_call::kernel::ModuleFormat::Text,
                );
                failures.check(
                    matches!(untranscoded, Err(KernelError::Parse { .. })),
                    || {
                        format!(
                            "{label}: LLVM 22 read the untranscoded body: {:?}",
                            untranscoded.err()
                        )
                    },
                );
            }
            let Some(kernel) = failures.ok(&label, Kernel::from_bytecode(&ctx, &down, &label))
            else {
                continue;
            };
            let golden = case.join(format!("kernel_serialized{}.mlir", suffix(&path, "body")));
            let Some(text) = failures.ok(golden.display(), std::fs::read_to_string(&golden)) else {
                continue;
            };
            let Some(expected) = failures.ok(
                golden.display(),
                Kernel::from_text(&ctx, &text, &golden.display().to_string()),
            ) else {
                continue;
            };
            let options = PrintOptions {
                generic: true,
                debug_info: false,
            };
            if let (Some(ours), Some(expected)) = (
                failures.ok(&label, kernel.print(options)),
                failures.ok(golden.display(), expected.print(options)),
            ) {
                failures.text(
                    format!("{label}: module after down vs {}", golden.display()),
                    &ours,
                    &expected,
                );
            }
        } else {
            let Some(module) = parse_any(&ctx, &down) else {
                failures.fail(format!("{label}: LLVM 22 cannot read it after down"));
                continue;
            };
            let golden = case.join(format!(
                "debug_locations{}.mlir",
                suffix(&path, "debug_locations")
            ));
            let Some(text) = failures.ok(golden.display(), std::fs::read(&golden)) else {
                continue;
            };
            let Some(expected) = parse_any(&ctx, &text) else {
                failures.fail(format!("{}: LLVM 22 cannot read it", golden.display()));
                continue;
            };
            failures.text(
                format!("{label}: module after down vs {}", golden.display()),
                &print_generic(&module, true),
                &print_generic(&expected, true),
            );
        }
    }
    failures.assert_none();
    // Every body has memrefs, whose identity layouts JAX writes in binary.
    assert!(
        bodies_needing_down >= 36,
        "only {bodies_needing_down} bodies needed down"
    );
}

#[test]
fn up_after_down_gives_back_every_golden_blob_byte_for_byte() {
    let mut failures = Failures::new();
    for (path, _) in golden_blobs() {
        let label = path.display().to_string();
        let blob = std::fs::read(&path).unwrap();
        let Some(down) = failures.ok(format!("{label}: down"), bytecode::down(&blob)) else {
            continue;
        };
        if let Some(up) = failures.ok(format!("{label}: up"), bytecode::up(&down)) {
            failures.bytes(format!("{label}: up(down(x)) vs x"), &up, &blob);
        }
        if let Some(same) = failures.ok(
            format!("{label}: transcode"),
            bytecode::transcode(&blob, Encodings::Llvm24),
        ) {
            failures.bytes(format!("{label}: transcode to LLVM 24"), &same, &blob);
        }
        if let Some(again) = failures.ok(format!("{label}: down twice"), bytecode::down(&down)) {
            failures.bytes(format!("{label}: down is not idempotent"), &again, &down);
        }
    }
    failures.assert_none();
}

/// The strongest round trip: LLVM 22 reads each golden body after `down`,
/// writes it again (version 0, JAX's producer), and `up` gives back JAX's
/// exact bytes, including the five bodies that carry debug locations.
#[test]
fn golden_bodies_rewritten_by_llvm22_and_transcoded_up_equal_jax_bytes() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    let mut n = 0;
    for (path, is_body) in golden_blobs() {
        if !is_body {
            continue;
        }
        n += 1;
        let label = path.display().to_string();
        let blob = std::fs::read(&path).unwrap();
        let Some(down) = failures.ok(format!("{label}: down"), bytecode::down(&blob)) else {
            continue;
        };
        let Some(kernel) = failures.ok(&label, Kernel::from_bytecode(&ctx, &down, "down")) else {
            continue;
        };
        let Some(rewritten) = failures.ok(&label, kernel.to_bytecode(&jax_options())) else {
            continue;
        };
        if let Some(up) = failures.ok(format!("{label}: up"), bytecode::up(&rewritten)) {
            failures.bytes(
                format!("{label}: LLVM 22's rewrite transcoded up vs JAX's body"),
                &up,
                &blob,
            );
        }
    }
    failures.assert_none();
    assert!(n >= 39, "{n} bodies");
}

/// Every bytecode version (0 to 6: dialect version flags, lazy loading,
/// use-list orders, native properties) of a kernel with non-identity
/// layouts, integer sets and f8 types: LLVM 22's bytes transcoded up equal
/// jaxlib's, and jaxlib's transcoded down equal LLVM 22's and load.
#[test]
fn every_bytecode_version_transcodes_like_jaxlib_writes_it() {
    let ctx = Context::new();
    let dir = fixtures_dir().join("bytecode/versions");
    let text = std::fs::read_to_string(dir.join("layouts.mlir")).unwrap();
    let mut failures = Failures::new();
    for version in 0..=6 {
        let mut kernel = Kernel::from_text(&ctx, &text, "layouts.mlir").unwrap();
        strip_locations(&ctx, kernel.module_mut());
        let Some(ours) = failures.ok(
            format!("version {version}: LLVM 22 writes"),
            kernel.to_bytecode(&BytecodeOptions {
                version: Some(version),
                producer: Some(JAX_PRODUCER.into()),
            }),
        ) else {
            continue;
        };
        let jax = std::fs::read(dir.join(format!("layouts.v{version}.jaxlib.mlirbc"))).unwrap();
        if let Some(parsed) =
            failures.ok(format!("version {version}: parse"), Bytecode::parse(&jax))
        {
            failures.eq(
                format!("version {version}: jaxlib's version"),
                parsed.version,
                version as u64,
            );
        }
        if let Some(up) = failures.ok(format!("version {version}: up"), bytecode::up(&ours)) {
            failures.bytes(
                format!("version {version}: up(LLVM 22) vs jaxlib"),
                &up,
                &jax,
            );
        }
        let Some(down) = failures.ok(format!("version {version}: down"), bytecode::down(&jax))
        else {
            continue;
        };
        failures.bytes(
            format!("version {version}: down(jaxlib) vs LLVM 22"),
            &down,
            &ours,
        );
        failures.ok(
            format!("version {version}: LLVM 22 reads down(jaxlib)"),
            Kernel::from_bytecode(&ctx, &down, "down"),
        );
    }
    failures.assert_none();
}

fn jaxlib_goldens_dir() -> PathBuf {
    fixtures_dir().join("bytecode/goldens")
}

/// Our LLVM 22 bytecode of each golden `kernel_serialized*.mlir` (locations
/// stripped, as JAX's bodies have none), version 0, JAX's producer.
fn our_golden_bodies(ctx: &Context) -> Vec<(String, PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for case in golden_cases() {
        let mut names: Vec<String> = std::fs::read_dir(&case)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("kernel_serialized") && n.ends_with(".mlir"))
            .collect();
        names.sort();
        for name in names {
            let sfx = &name["kernel_serialized".len()..name.len() - ".mlir".len()];
            let text = std::fs::read_to_string(case.join(&name)).unwrap();
            let mut kernel = Kernel::from_text(ctx, &text, &name).unwrap();
            strip_locations(ctx, kernel.module_mut());
            let ours = kernel.to_bytecode(&jax_options()).unwrap();
            out.push((
                case_name(&case),
                case.join(format!("body{sfx}.mlirbc")),
                ours,
            ));
        }
    }
    out
}

#[test]
fn our_llvm22_bodies_transcoded_up_equal_what_jaxlib_writes() {
    let ctx = Context::new();
    let mut equal_to_golden_body = 0;
    let bodies = our_golden_bodies(&ctx);
    assert!(bodies.len() >= 39);
    let mut failures = Failures::new();
    for (case, golden_body, ours) in &bodies {
        let name = golden_body.file_name().unwrap().to_string_lossy();
        let expected_path = jaxlib_goldens_dir()
            .join(case)
            .join(name.replace(".mlirbc", ".jaxlib.mlirbc"));
        let Some(expected) = failures.ok(expected_path.display(), std::fs::read(&expected_path))
        else {
            continue;
        };
        let Some(up) = failures.ok(format!("{case}/{name}: up"), bytecode::up(ours)) else {
            continue;
        };
        failures.bytes(
            format!(
                "{case}/{name}: our bytecode transcoded up vs jaxlib's {}",
                expected_path.display()
            ),
            &up,
            &expected,
        );
        if let Some(down) = failures.ok(format!("{case}/{name}: down"), bytecode::down(&expected)) {
            failures.bytes(format!("{case}/{name}: down(jaxlib) vs ours"), &down, ours);
        }
        if up == std::fs::read(golden_body).unwrap() {
            equal_to_golden_body += 1;
        }
    }
    failures.assert_none();
    // The other five bodies carry debug locations, which kernel_serialized.mlir lacks.
    eprintln!(
        "{equal_to_golden_body} of {} bodies equal the golden body.mlirbc",
        bodies.len()
    );
    assert!(
        equal_to_golden_body >= 34,
        "only {equal_to_golden_body} bodies equal body.mlirbc"
    );
}

/// `(jaxlib bytes, attribute text)` of every line of the encodings fixture.
fn encoding_fixtures() -> Vec<(Vec<u8>, String)> {
    let path = fixtures_dir().join("bytecode/encodings.jaxlib.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let out: Vec<(Vec<u8>, String)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (hex, attr) = l.split_once('\t').unwrap();
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            (bytes, attr.to_string())
        })
        .collect();
    assert!(out.len() >= 80, "encodings fixture has {} lines", out.len());
    out
}

fn encoding_module(attr: &str) -> String {
    format!("module {{\n  \"foo.op\"() {{a = {attr}}} : () -> () loc(unknown)\n}} loc(unknown)\n")
}

#[test]
fn each_newer_encoding_matches_jaxlib_both_ways() {
    let ctx = Context::new();
    let mut failures = Failures::new();
    let mut rewritten = 0;
    for (jax, attr) in encoding_fixtures() {
        let Some(kernel) = failures.ok(
            &attr,
            Kernel::from_text(&ctx, &encoding_module(&attr), "encoding"),
        ) else {
            continue;
        };
        let Some(ours) = failures.ok(&attr, kernel.to_bytecode(&jax_options())) else {
            continue;
        };
        if ours != jax {
            rewritten += 1;
        }
        if let Some(up) = failures.ok(format!("{attr}: up failed"), bytecode::up(&ours)) {
            failures.check(up == jax, || {
                format!(
                    "{attr}: up(LLVM 22 bytes) != jaxlib bytes\n ours {ours:02x?}\n up   {up:02x?}\n jax  {jax:02x?}"
                )
            });
        }
        let Some(down) = failures.ok(format!("{attr}: down failed"), bytecode::down(&jax)) else {
            continue;
        };
        failures.bytes(
            format!("{attr}: down(jaxlib bytes) vs LLVM 22 bytes"),
            &down,
            &ours,
        );
        // LLVM 22 reads it and prints the same attribute.
        let Some(back) = failures.ok(
            format!("{attr}: LLVM 22 reads down"),
            Kernel::from_bytecode(&ctx, &down, "down"),
        ) else {
            continue;
        };
        if let (Some(back), Some(printed)) = (
            failures.ok(&attr, back.print(PrintOptions::default())),
            failures.ok(&attr, kernel.print(PrintOptions::default())),
        ) {
            failures.text(format!("{attr}: read back"), &back, &printed);
        }
    }
    failures.assert_none();
    assert!(
        rewritten >= 80,
        "only {rewritten} fixtures exercise a rewrite"
    );
}

#[test]
fn affine_expression_kinds_decode_to_the_text_llvm22_prints() {
    use bytecode::{AffineExpr, AffineMap, BinaryOp};
    // Every expression kind must appear in the jaxlib fixtures.
    let mut kinds = std::collections::BTreeSet::new();
    fn walk(e: &AffineExpr, kinds: &mut std::collections::BTreeSet<String>) {
        match e {
            AffineExpr::Dim(_) => kinds.insert("dim".into()),
            AffineExpr::Symbol(_) => kinds.insert("symbol".into()),
            AffineExpr::Constant(c) if *c < 0 => kinds.insert("negative constant".into()),
            AffineExpr::Constant(_) => kinds.insert("constant".into()),
            AffineExpr::Binary(op, l, r) => {
                walk(l, kinds);
                walk(r, kinds);
                kinds.insert(format!("{op:?}"))
            }
        };
    }
    let ctx = Context::new();
    let mut failures = Failures::new();
    for (jax, attr) in encoding_fixtures() {
        let Some(text) = attr.strip_prefix("affine_map<").map(|_| attr.as_str()) else {
            continue;
        };
        let Some(kernel) = failures.ok(
            &attr,
            Kernel::from_text(&ctx, &encoding_module(text), "encoding"),
        ) else {
            continue;
        };
        let Some(ours) = failures.ok(&attr, kernel.to_bytecode(&jax_options())) else {
            continue;
        };
        let (Some(theirs), Some(llvm22)) = (
            failures.ok(format!("{attr}: jaxlib bytes"), Bytecode::parse(&jax)),
            failures.ok(format!("{attr}: LLVM 22 bytes"), Bytecode::parse(&ours)),
        ) else {
            continue;
        };
        let Some(builtin) = theirs.builtin_dialect() else {
            failures.fail(format!("{attr}: no builtin dialect in jaxlib's bytes"));
            continue;
        };
        for (a, b) in theirs.entries.iter().zip(&llvm22.entries) {
            if a.dialect == builtin && a.custom && !b.custom {
                let Some(printed) = b.text() else {
                    failures.fail(format!("{attr}: LLVM 22's entry is not text"));
                    continue;
                };
                let Some(map) =
                    failures.ok(format!("{attr}: {printed}"), AffineMap::parse(printed))
                else {
                    continue;
                };
                failures.eq(
                    format!("{attr}: printer does not round-trip"),
                    map.to_text().as_str(),
                    printed,
                );
                map.results.iter().for_each(|e| walk(e, &mut kinds));
            }
        }
    }
    let _ = BinaryOp::Add;
    for kind in [
        "dim",
        "symbol",
        "constant",
        "negative constant",
        "Add",
        "Mul",
        "Mod",
        "FloorDiv",
        "CeilDiv",
    ] {
        failures.check(kinds.contains(kind), || {
            format!("no fixture covers {kind}: {kinds:?}")
        });
    }
    failures.assert_none();
}

/// Fresh jaxlib output equals the committed fixtures (skips without the venv).
#[test]
fn committed_fixtures_equal_fresh_jaxlib_output() {
    let Some(python) = jaxref_python("committed_fixtures_equal_fresh_jaxlib_output") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/write_bytecode.py");
    let tmp = std::env::temp_dir().join(format!("tcc-bytecode-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let run = |args: &[&str]| {
        let status = std::process::Command::new(&python)
            .arg(&script)
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "{script:?} {args:?} failed");
    };
    let enc = tmp.join("encodings.jaxlib.txt");
    run(&[
        "encodings",
        fixtures_dir()
            .join("bytecode/encodings.txt")
            .to_str()
            .unwrap(),
        enc.to_str().unwrap(),
    ]);
    let fresh = std::fs::read_to_string(&enc).unwrap();
    let committed =
        std::fs::read_to_string(fixtures_dir().join("bytecode/encodings.jaxlib.txt")).unwrap();
    assert!(
        fresh == committed,
        "encodings.jaxlib.txt (- committed, + fresh):\n{}",
        line_diff(&committed, &fresh)
    );
    let goldens = tmp.join("goldens");
    run(&[
        "goldens",
        goldens_dir().to_str().unwrap(),
        goldens.to_str().unwrap(),
    ]);
    let mut failures = Failures::new();
    let mut n = 0;
    for case in std::fs::read_dir(&goldens).unwrap() {
        let case = case.unwrap().path();
        for file in std::fs::read_dir(&case).unwrap() {
            let file = file.unwrap().path();
            let committed = jaxlib_goldens_dir()
                .join(case.file_name().unwrap())
                .join(file.file_name().unwrap());
            if let Some(committed_bytes) =
                failures.ok(committed.display(), std::fs::read(&committed))
            {
                failures.bytes(
                    committed.display(),
                    &std::fs::read(&file).unwrap(),
                    &committed_bytes,
                );
            }
            n += 1;
        }
    }
    assert!(n >= 39);
    let versions = fixtures_dir().join("bytecode/versions");
    let prefix = tmp.join("layouts");
    run(&[
        "versions",
        versions.join("layouts.mlir").to_str().unwrap(),
        prefix.to_str().unwrap(),
    ]);
    for version in 0..=6 {
        let name = format!("layouts.v{version}.jaxlib.mlirbc");
        if let (Some(fresh), Some(committed)) = (
            failures.ok(format!("fresh {name}"), std::fs::read(tmp.join(&name))),
            failures.ok(
                format!("committed {name}"),
                std::fs::read(versions.join(&name)),
            ),
        ) {
            failures.bytes(&name, &fresh, &committed);
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    failures.assert_none();
}

// ---------------------------------------------------------------------------
// Malformed input
// ---------------------------------------------------------------------------

fn add_basic_body() -> Vec<u8> {
    std::fs::read(goldens_dir().join("add_basic/body.mlirbc")).unwrap()
}

#[test]
fn malformed_input_names_the_section_and_offset() {
    let body = add_basic_body();
    assert_eq!(bytecode::down(b"hello"), Err(TranscodeError::NotBytecode));
    // Truncated inside the header's producer string.
    match bytecode::down(&body[..8]) {
        Err(TranscodeError::Malformed {
            section: Section::Header,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    // Truncated in the middle: a section runs past the end.
    let err = bytecode::down(&body[..body.len() / 2]).unwrap_err();
    assert!(matches!(err, TranscodeError::Malformed { .. }), "{err:?}");
    assert!(err.to_string().contains("offset"), "{err}");
    // A bad varint: a 9-byte varint marker with nothing after it, as the
    // first section's length.
    let file = Bytecode::parse(&body).unwrap();
    let header_len = 4 + 1 + file.producer.len() + 1;
    let mut bad = body[..header_len + 1].to_vec();
    bad.push(0);
    let err = bytecode::down(&bad).unwrap_err();
    assert!(
        matches!(err, TranscodeError::Malformed { section: Section::Header, offset, .. } if offset == header_len + 1),
        "{err:?}"
    );
    // A newer format version.
    let mut newer = body.clone();
    newer[4] = (7 << 1) | 1;
    assert_eq!(
        bytecode::down(&newer),
        Err(TranscodeError::UnsupportedVersion { version: 7 })
    );
}

#[test]
fn unknown_builtin_codes_are_reported_not_guessed() {
    let body = add_basic_body();
    let file = Bytecode::parse(&body).unwrap();
    let builtin = file.builtin_dialect().unwrap();
    let entry = file
        .entries
        .iter()
        .find(|e| {
            e.dialect == builtin
                && e.kind == EntryKind::Attribute
                && e.data.first() == Some(&((23 << 1) | 1))
        })
        .expect("an affine_map entry");
    let (offset, index) = (entry.offset, entry.index);
    let mut bad = body.clone();
    bad[offset] = (26 << 1) | 1;
    assert_eq!(
        bytecode::down(&bad),
        Err(TranscodeError::UnknownAttributeCode {
            code: 26,
            index,
            offset
        })
    );
    let ty = file
        .entries
        .iter()
        .find(|e| e.dialect == builtin && e.kind == EntryKind::Type && e.data.len() == 1)
        .expect("a one-byte builtin type");
    let mut bad = body.clone();
    bad[ty.offset] = (33 << 1) | 1;
    assert_eq!(
        bytecode::down(&bad),
        Err(TranscodeError::UnknownTypeCode {
            code: 33,
            index: ty.index,
            offset: ty.offset
        })
    );
    // The identity map's header turned into a general map's: its payload is
    // missing, so reading runs past the end of the entry.
    let mut bad = body.clone();
    bad[offset + 1] = (((2 << 2) | 3) << 1) | 1;
    match bytecode::down(&bad) {
        Err(TranscodeError::BadEntry {
            kind: EntryKind::Attribute,
            index: i,
            ..
        }) if i == index => {}
        other => panic!("{other:?}"),
    }
    // An unknown affine expression kind (8) in jaxlib's `(d0) -> (d0 mod 4)`.
    let (jax, _) = encoding_fixtures()
        .into_iter()
        .find(|(_, attr)| attr == "affine_map<(d0) -> (d0 mod 4)>")
        .unwrap();
    let file = Bytecode::parse(&jax).unwrap();
    let entry = file
        .entries
        .iter()
        .find(|e| e.data.first() == Some(&((23 << 1) | 1)))
        .unwrap();
    // code, header (1 dim, general), 0 symbols, 1 result, then the kind (mod = 5).
    assert_eq!(entry.data[1..5], [(7 << 1) | 1, 1, 3, (5 << 1) | 1]);
    let mut bad = jax.clone();
    bad[entry.offset + 4] = (8 << 1) | 1;
    let err = bytecode::down(&bad).unwrap_err();
    assert!(
        matches!(&err, TranscodeError::BadEntry { reason, offset, .. }
            if reason.contains("unknown affine expression kind 8") && *offset == entry.offset + 4),
        "{err:?}"
    );
}

/// A corruption the random test found: one varint of `flags`' debug
/// locations changed so a location's child is an array holding that location.
/// MLIR 22's reader never finishes on it; `down` rejects it first.
#[test]
fn cyclic_attribute_references_are_rejected_before_mlir_sees_them() {
    let mut blob = std::fs::read(goldens_dir().join("flags/debug_locations.mlirbc")).unwrap();
    assert_eq!(blob[114], 0x01);
    blob[114] = 0x11;
    match bytecode::down(&blob) {
        Err(TranscodeError::CyclicReference {
            kind: EntryKind::Attribute,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
}

/// Inputs that once crashed MLIR 22 (`mlir-fixtures/crashers/`, see its
/// README): each must now be rejected by `down` before MLIR sees it, fail to
/// load as a kernel, and make the CLI exit 1 with its blessed stderr.
#[test]
fn former_crashers_are_rejected_before_mlir_sees_them() {
    let dir = fixtures_dir().join("crashers");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlirbc" || e == "mlir"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 7, "crasher fixtures missing");
    let ctx = Context::new();
    let mut failures = Failures::new();
    for input in inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&input).unwrap();
        if name.ends_with(".mlirbc") {
            match bytecode::down(&bytes) {
                Err(
                    TranscodeError::Malformed { .. }
                    | TranscodeError::BadEntry { .. }
                    | TranscodeError::TooDeep { .. },
                ) => {}
                Err(err) => failures.fail(format!("{name}: {err:?}")),
                Ok(_) => failures.fail(format!("{name}: down accepted it")),
            }
        }
        let loaded = Kernel::load(&ctx, &bytes, &name);
        failures.check(
            matches!(
                loaded,
                Err(KernelError::Transcode { .. } | KernelError::TooDeep { .. })
            ),
            || format!("{name}: {:?}", loaded.err()),
        );
        let rel = format!("mlir-fixtures/crashers/{name}");
        let (code, stdout, stderr) = crate::common::run_cli(&["kernel", &rel]);
        failures.check(code == 1, || {
            format!("{rel}: exit code {code}, not 1; stderr: {stderr}")
        });
        failures.check(stdout.is_empty(), || format!("{rel}: wrote to stdout"));
        let golden = input.with_file_name(format!("{name}.stderr"));
        if let Some(diff) = crate::common::check_golden(&golden, &stderr) {
            failures.fail(diff);
        }
    }
    failures.assert_none();
}

/// A string that is not UTF-8 (one byte of a golden body's string table set
/// to 0xFF) is refused by `down`: MLIR 22 would quote it in a diagnostic,
/// which our context cannot report (an abort).
#[test]
fn non_utf8_strings_are_refused_before_mlir_sees_them() {
    let body = std::fs::read(goldens_dir().join("add_basic/body.mlirbc")).unwrap();
    let file = Bytecode::parse(&body).unwrap();
    let (index, offset) = file
        .strings
        .iter()
        .zip(&file.string_offsets)
        .enumerate()
        .find(|(_, (s, _))| !s.is_empty())
        .map(|(i, (_, &o))| (i, o))
        .unwrap();
    let mut bad = body.clone();
    bad[offset] = 0xFF;
    match bytecode::down(&bad) {
        Err(TranscodeError::Malformed {
            section: Section::String,
            offset: at,
            reason,
        }) => {
            assert_eq!(at, offset);
            assert!(reason.contains(&format!("string {index}")), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let ctx = Context::new();
    let loaded = Kernel::from_bytecode(&ctx, &bad, "bad");
    assert!(
        matches!(loaded, Err(KernelError::Transcode { .. })),
        "{:?}",
        loaded.err()
    );
}

/// A chain of array attributes each holding the previous one, `n` deep, as
/// MLIR text with one alias per level (each alias is shallow).
fn alias_chain(n: usize) -> String {
    let mut text = String::from("#a0 = [1]\n");
    for i in 1..n {
        text.push_str(&format!("#a{i} = [#a{}]\n", i - 1));
    }
    text.push_str(&format!(
        "func.func @f() attributes {{x = #a{}}} {{\n  return\n}}\n",
        n - 1
    ));
    text
}

/// Attributes referencing each other deeper than the limit are refused in
/// bytecode (`mlir-fixtures/crashers/deep_attribute_chain.mlirbc`, 10,000
/// deep, aborts MLIR 22 on a 2 MiB thread) and, through aliases, in text;
/// chains at the limit load, print, and round-trip through our bytecode.
#[test]
fn deep_attribute_references_are_refused() {
    let ctx = Context::new();
    let limit = bytecode::MAX_REFERENCE_DEPTH;
    let bytes = std::fs::read(fixtures_dir().join("crashers/deep_attribute_chain.mlirbc")).unwrap();
    match bytecode::down(&bytes) {
        Err(TranscodeError::TooDeep { limit: l, kind, .. }) => {
            assert_eq!((l, kind), (limit, EntryKind::Attribute));
        }
        other => panic!("{other:?}"),
    }
    // In text: the alias chain is refused where the too-deep alias is used.
    match Kernel::from_text(&ctx, &alias_chain(100_000), "chain") {
        Err(KernelError::TooDeep { line, .. }) => assert_eq!(line as usize, limit + 1),
        other => panic!("{other:?}"),
    }
    // At the limit (the alias's array plus the function's attribute
    // dictionary): loads, and its bytecode (array depth plus the dictionary
    // and the integer) is refused only when deeper than the limit.
    let ok = alias_chain(limit - 1);
    let kernel = Kernel::from_text(&ctx, &ok, "chain").unwrap();
    let printed = kernel.print(PrintOptions::default()).unwrap();
    assert_eq!(printed.matches('[').count(), limit - 1);
    let written = kernel.to_bytecode(&BytecodeOptions::default()).unwrap();
    match bytecode::down(&written) {
        Err(TranscodeError::TooDeep { .. }) => {}
        other => panic!("{:?}", other.map(|b| b.len())),
    }
    let shallower = Kernel::from_text(&ctx, &alias_chain(limit - 5), "chain").unwrap();
    let written = shallower.to_bytecode(&BytecodeOptions::default()).unwrap();
    let back = Kernel::from_bytecode(&ctx, &written, "chain").unwrap();
    let (back, expected) = (
        back.print(PrintOptions::default()).unwrap(),
        shallower.print(PrintOptions::default()).unwrap(),
    );
    assert!(back == expected, "{}", line_diff(&expected, &back));
}

// ---------------------------------------------------------------------------
// Random corruptions
// ---------------------------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn a_thousand_random_corruptions_never_crash() {
    let blobs: Vec<Vec<u8>> = golden_blobs()
        .into_iter()
        .map(|(p, _)| std::fs::read(p).unwrap())
        .collect();
    let ctx = Context::new();
    // BYTECODE_FUZZ_SEED explores other corruptions (the default is fixed so
    // failures reproduce).
    let seed = std::env::var("BYTECODE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let mut rng = XorShift(seed.map_or(0x9E37_79B9_7F4A_7C15, |s| {
        s.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }));
    let mut failures = Failures::new();
    let (mut errors, mut ok, mut loaded) = (0, 0, 0);
    for i in 0..1000 {
        let blob = &blobs[rng.below(blobs.len())];
        let mut bad = blob.clone();
        match i % 3 {
            0 => bad.truncate(rng.below(blob.len())),
            1 => {
                let at = rng.below(bad.len());
                bad[at] ^= 1 << rng.below(8);
            }
            _ => {
                let at = rng.below(bad.len() + 1);
                bad.insert(at, rng.next() as u8);
            }
        }
        let _ = bytecode::up(&bad);
        // BYTECODE_FUZZ_DUMP=<file> keeps the last input tried.
        if let Some(path) = std::env::var_os("BYTECODE_FUZZ_DUMP") {
            std::fs::write(path, &bad).unwrap();
        }
        match bytecode::down(&bad) {
            Err(e) => {
                failures.check(!e.to_string().is_empty(), || {
                    format!("corruption {i}: empty message for {e:?}")
                });
                errors += 1;
            }
            Ok(down) => {
                ok += 1;
                if Kernel::from_bytecode(&ctx, &down, "corrupted").is_ok() {
                    loaded += 1;
                }
            }
        }
    }
    eprintln!(
        "1000 corruptions: {errors} transcoder errors, {ok} transcoded ({loaded} then loaded)"
    );
    failures.assert_none();
    assert_eq!(errors + ok, 1000);
    assert!(errors > 100, "only {errors} corruptions were caught");
}

/// Corruptions aimed at the IR section (where the random ones above seldom
/// land): a byte replaced, a bit flipped, or a byte set to a 9-byte varint
/// prefix. None may crash MLIR 22; the IR walker rejects the counts and
/// indices MLIR would trust.
#[test]
fn corruptions_of_the_ir_section_never_crash() {
    let blobs: Vec<Vec<u8>> = golden_blobs()
        .into_iter()
        .filter(|(_, is_body)| *is_body)
        .map(|(p, _)| std::fs::read(p).unwrap())
        .collect();
    let seed = std::env::var("BYTECODE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let mut rng = XorShift(seed.map_or(0x2545_F491_4F6C_DD1D, |s| {
        s.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1
    }));
    let ctx = Context::new();
    let mut failures = Failures::new();
    let (mut rejected, mut ir_rejected, mut loaded) = (0, 0, 0);
    for i in 0..600 {
        let blob = &blobs[rng.below(blobs.len())];
        let ir = Bytecode::parse(blob)
            .unwrap()
            .section_span(Section::Ir)
            .unwrap();
        let mut bad = blob.clone();
        let at = ir.start + rng.below(ir.len());
        match i % 3 {
            0 => bad[at] = rng.next() as u8,
            1 => bad[at] ^= 1 << rng.below(8),
            _ => bad[at] = 0,
        }
        if let Some(path) = std::env::var_os("BYTECODE_FUZZ_DUMP") {
            std::fs::write(path, &bad).unwrap();
        }
        match bytecode::down(&bad) {
            Err(e) => {
                rejected += 1;
                if let TranscodeError::Malformed {
                    section: Section::Ir,
                    offset,
                    ..
                } = e
                {
                    failures.check((ir.start..=ir.end).contains(&offset), || {
                        format!("corruption {i}: {e} (the IR section is {ir:?})")
                    });
                    ir_rejected += 1;
                }
            }
            Ok(down) => {
                loaded += usize::from(Kernel::from_bytecode(&ctx, &down, "corrupted").is_ok())
            }
        }
    }
    eprintln!(
        "600 IR corruptions: {rejected} rejected by down ({ir_rejected} in the IR section), {loaded} loaded"
    );
    failures.assert_none();
    assert!(
        ir_rejected > 50,
        "only {ir_rejected} IR corruptions were caught"
    );
}
