//! Exchange with jaxlib and the machine (issue 15): bytecode we write read by
//! jaxlib with our text's meaning, jaxlib's bytecode decoded or refused,
//! pretty StableHLO and pretty kernels in `opt`, pipeline errors, and the
//! install check.

use std::path::{Path, PathBuf};

use crate::common::oneshot::{self as lower, LowerOptions};
use tpu_custom_call::{BytecodeOptions, Context, Kernel, PrintOptions, decode, kernel};

use crate::common::*;
use crate::lower::golden_calls;

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-interop-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn script(name: &str) -> PathBuf {
    root().join("scripts/jaxref").join(name)
}

fn run_python(python: &Path, args: &[&std::ffi::OsStr]) -> (bool, String) {
    let out = std::process::Command::new(python)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The decoded calls of `bytes`, with what `inspect --json` prints of them
/// (the source line left out: bytecode has none).
fn inspect_json(bytes: &[u8], name: &str) -> Vec<serde_json::Value> {
    let ctx = Context::new();
    decode::decode_module(&ctx, bytes, name)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .iter()
        .map(|call| {
            serde_json::json!({
                "index": call.found.index,
                "kernel_name": call.found.kernel_name,
                "ir_version": call.ir_version,
                "device_type": call.device_type_name(),
                "body": call.config.body,
                "debug_locations": call.config.debug_locations,
                "operand_types": call.found.operand_types,
                "result_types": call.found.result_types,
                "operand_layouts": call.found.attribute("operand_layouts"),
                "result_layouts": call.found.attribute("result_layouts"),
                "output_operand_aliases": call.found.attribute("output_operand_aliases"),
                "has_side_effect": call.found.attribute("has_side_effect"),
                "unknown_config_keys": call.report.unknown_keys.iter().map(|k| k.path.to_string()).collect::<Vec<_>>(),
                "params": serde_json::from_str::<serde_json::Value>(&call.params.to_json()).unwrap(),
            })
        })
        .collect()
}

/// Every golden emission (each golden call lowered into a module, default
/// options) and the lowered pipeline fixtures, as (name, text, bytecode).
fn our_modules() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut modules = Vec::new();
    for call in golden_calls() {
        let ctx = Context::new();
        let text = std::fs::read_to_string(call.kernel_path()).unwrap();
        let kernel = Kernel::from_text(&ctx, &text, "k").unwrap();
        let types = |names: Vec<String>| -> Vec<_> {
            names
                .iter()
                .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
                .collect()
        };
        let module = lower::emit_module(
            &ctx,
            &kernel,
            &call.params(),
            &types(call.operand_types()),
            &types(call.result_types()),
            &LowerOptions {
                jax_rules_only: true,
                ..LowerOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", call.name()));
        // Generic: a pretty print leaves out the default-valued attributes
        // (as jaxlib's does), which the bytecode keeps.
        let text = kernel::print_module(
            &module,
            PrintOptions {
                generic: true,
                ..PrintOptions::default()
            },
        )
        .unwrap();
        let bytes = kernel::module_bytecode(&module, &BytecodeOptions::default()).unwrap();
        modules.push((call.name(), text.into_bytes(), bytes));
    }
    // `emit --emit bytecode` itself, once.
    let call = &golden_calls()[0];
    let emit = |format: &str| {
        let (code, out, stderr) = run_cli(&[
            "emit",
            call.kernel_path().to_str().unwrap(),
            "--signature",
            &call.signature(),
            "--params",
            call.params_path().to_str().unwrap(),
            "--emit",
            format,
        ]);
        assert_eq!(code, 0, "{stderr}");
        out
    };
    modules.push((
        format!("emit {}", call.name()),
        emit("text"),
        emit("bytecode"),
    ));
    for fixture in ["three_calls", "three_calls_pretty"] {
        let input = fixtures_dir().join(format!("pipeline/{fixture}.mlir"));
        let opt = |emit: &str| {
            let (code, out, stderr) = run_cli(&[
                "opt",
                input.to_str().unwrap(),
                "--pass-pipeline",
                "builtin.module(tpu-custom-call-lower,canonicalize)",
                "--emit",
                emit,
            ]);
            assert_eq!(code, 0, "{fixture}: {stderr}");
            out
        };
        modules.push((format!("pipeline/{fixture}"), opt("text"), opt("bytecode")));
    }
    modules
}

/// (3) The bytecode of every module we emit and every lowered pipeline
/// fixture: our reader finds only ops registered here with natively encoded
/// properties (the `stablehlo` ops' properties are plain attributes) and
/// decodes it as the text; real jaxlib parses and verifies both, and prints
/// the same generic module from each. With the venv, the same holds for every
/// golden module (pretty StableHLO with constants, dot_general, ...) put in
/// generic form with jaxlib and written as bytecode by `opt`.
#[test]
fn jaxlib_reads_our_bytecode_as_our_text() {
    let modules = our_modules();
    assert!(modules.len() >= 42, "{} modules", modules.len());
    let ctx = Context::new();
    let mut failures = Failures::new();
    for (name, text, bytes) in &modules {
        let Some(ops) = failures.ok(
            format!("{name}: natively encoded ops"),
            tpu_custom_call::bytecode::native_property_ops(bytes),
        ) else {
            continue;
        };
        for op in ops {
            let dialect = op.split('.').next().unwrap();
            ctx.get_or_load_dialect(dialect);
            failures.check(ctx.is_registered_operation(&op), || {
                format!("{name}: `{op}` written with native properties")
            });
        }
        failures.eq(
            format!("{name}: bytecode decodes as the text"),
            inspect_json(bytes, name),
            inspect_json(text, name),
        );
    }
    failures.assert_none();
    // An op whose properties repeat one of its attributes cannot be made
    // portable: refused rather than written with one of the two lost.
    let module = tpu_custom_call::interop::read_module(
        &ctx,
        b"\"stablehlo.foo\"() <{a = 1 : i32}> {a = 2 : i32} : () -> ()\n",
        "conflict",
    )
    .unwrap();
    let err = kernel::module_bytecode(&module, &BytecodeOptions::default()).unwrap_err();
    assert!(
        matches!(&err, tpu_custom_call::KernelError::PropertiesNotPortable { op } if op == "stablehlo.foo"),
        "{err}"
    );
    let Some(python) = jaxref_python("jaxlib_reads_our_bytecode_as_our_text") else {
        return;
    };
    let dir = temp_dir("ours");
    let mut pairs: Vec<PathBuf> = Vec::new();
    for (i, (_, text, bytes)) in modules.iter().enumerate() {
        let t = dir.join(format!("{i}.mlir"));
        let b = dir.join(format!("{i}.mlirbc"));
        std::fs::write(&t, text).unwrap();
        std::fs::write(&b, bytes).unwrap();
        pairs.extend([t, b]);
    }
    // The golden modules: pretty -> generic (jaxlib) -> `opt` text and bytecode.
    let mut generic_args: Vec<PathBuf> = Vec::new();
    let cases = golden_cases();
    for case in &cases {
        generic_args.push(case.join("module.mlir"));
        generic_args.push(dir.join(format!("{}.generic.mlir", case_name(case))));
    }
    let module_bytecode = script("module_bytecode.py");
    let mut args: Vec<&std::ffi::OsStr> = Vec::new();
    args.push(module_bytecode.as_os_str());
    args.push(std::ffi::OsStr::new("generic"));
    args.extend(generic_args.iter().map(|p| p.as_os_str()));
    let (ok, out) = run_python(&python, &args);
    assert!(ok, "{out}");
    // What `opt --emit text|bytecode` writes for them (the library calls it makes).
    for case in &cases {
        let generic = dir.join(format!("{}.generic.mlir", case_name(case)));
        let ctx = Context::new();
        let module = tpu_custom_call::interop::read_module(
            &ctx,
            &std::fs::read(&generic).unwrap(),
            "generic",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case_name(case)));
        let text = kernel::print_module(&module, PrintOptions::default()).unwrap();
        let bytes = kernel::module_bytecode(&module, &BytecodeOptions::default()).unwrap();
        let t = dir.join(format!("{}.opt.mlir", case_name(case)));
        let b = dir.join(format!("{}.opt.mlirbc", case_name(case)));
        std::fs::write(&t, text).unwrap();
        std::fs::write(&b, bytes).unwrap();
        pairs.extend([t, b]);
    }
    let mut args: Vec<&std::ffi::OsStr> =
        vec![module_bytecode.as_os_str(), std::ffi::OsStr::new("compare")];
    args.extend(pairs.iter().map(|p| p.as_os_str()));
    let (ok, out) = run_python(&python, &args);
    assert!(ok, "jaxlib: {out}");
    eprintln!("{}", out.trim());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn jaxlib_modules_dir() -> PathBuf {
    fixtures_dir().join("bytecode/jaxlib-modules")
}

/// (4) jaxlib's bytecode of every golden module: as JAX users write it
/// (format 6, StableHLO properties in StableHLO's own encoding) it is refused
/// with the ops named and the way out; written below version 5 it decodes to
/// the text module's calls (jaxlib leaves out attributes at their default).
/// `inspect` and `opt` exit 1 on the former, nothing on stdout.
#[test]
fn jaxlib_module_bytecode_is_decoded_like_text_or_refused() {
    let cases = golden_cases();
    let mut failures = Failures::new();
    let mut refused = 0;
    let mut decoded = 0;
    for case in &cases {
        let name = case_name(case);
        let text = std::fs::read(case.join("module.mlir")).unwrap();
        let expected = inspect_json(&text, &name);
        failures.check(!expected.is_empty(), || format!("{name}: no calls"));
        let native = std::fs::read(jaxlib_modules_dir().join(format!("{name}.mlirbc"))).unwrap();
        let ctx = Context::new();
        match decode::decode_module(&ctx, &native, &name) {
            Err(err) => {
                let err = err.to_string();
                for needle in [
                    "cannot read the properties",
                    "`stablehlo.custom_call`",
                    "pass the module as text",
                    "desired_version=4",
                ] {
                    failures.check(err.contains(needle), || {
                        format!("{name}: no `{needle}` in {err}")
                    });
                }
                refused += 1;
            }
            Ok(_) => failures.fail(format!(
                "{name}: jaxlib's native properties were not refused"
            )),
        }
        let v4 = std::fs::read(jaxlib_modules_dir().join(format!("{name}.v4.mlirbc"))).unwrap();
        if let Err(e) = decode::decode_module(&ctx, &v4, &name) {
            // `sdy` meshes, `#stablehlo.output_operand_alias` ...: in their
            // dialect's own encoding.
            let e = e.to_string();
            failures.check(
                e.contains("cannot read the attributes or types of dialect")
                    && e.contains("pass the module as text"),
                || format!("{name}: {e}"),
            );
            continue;
        }
        let got = inspect_json(&v4, &name);
        failures.eq(format!("{name}: calls"), got.len(), expected.len());
        for (i, (mut got, want)) in got.into_iter().zip(expected.iter().cloned()).enumerate() {
            // Attributes at their default value, which jaxlib leaves out below
            // version 5 (absent means the default in StableHLO).
            for (key, default) in [
                ("has_side_effect", "false"),
                ("output_operand_aliases", "[]"),
            ] {
                if got[key].is_null() && want[key] == default {
                    got[key] = want[key].clone();
                }
            }
            failures.eq(
                format!("{name}: call {i}: v4 bytecode decodes as the text"),
                got,
                want,
            );
        }
        decoded += 1;
    }
    failures.assert_none();
    assert!(refused >= 30 && decoded >= 25, "{refused} {decoded}");
    eprintln!("{refused} refused (native properties), {decoded} decoded like the text (version 4)");
    // The CLI: exit 1, message, nothing on stdout.
    let path = jaxlib_modules_dir().join("add_basic.mlirbc");
    let mut failures = Failures::new();
    for args in [
        vec!["inspect", path.to_str().unwrap()],
        vec![
            "opt",
            path.to_str().unwrap(),
            "--pass-pipeline",
            "builtin.module(tpu-custom-call-verify)",
        ],
    ] {
        let (code, out, stderr) = run_cli(&args);
        failures.check(code == 1, || {
            format!("{args:?}: exit {code}, not 1: {stderr}")
        });
        failures.check(out.is_empty(), || format!("{args:?}: wrote to stdout"));
        failures.check(
            stderr.contains("cannot read the properties") && stderr.contains("as text"),
            || format!("{args:?}: {stderr}"),
        );
    }
    failures.assert_none();
}

/// (4) jaxlib's format-6 bytecode of upstream ops (func, arith, scf, vector,
/// memref: registered in MLIR 22 too, properties in their native encoding)
/// is read as exactly the module jaxlib prints.
#[test]
fn jaxlib_native_properties_of_upstream_ops_decode_as_jaxlib_prints_them() {
    let ctx = Context::new();
    let bytes = std::fs::read(jaxlib_modules_dir().join("upstream.mlirbc")).unwrap();
    assert!(
        !tpu_custom_call::bytecode::native_property_ops(&bytes)
            .unwrap()
            .is_empty()
    );
    let module = tpu_custom_call::interop::read_module(&ctx, &bytes, "upstream.mlirbc").unwrap();
    let ours = kernel::print_module(
        &module,
        PrintOptions {
            generic: true,
            debug_info: false,
        },
    )
    .unwrap();
    let jax =
        std::fs::read_to_string(jaxlib_modules_dir().join("upstream.jaxlib.generic.mlir")).unwrap();
    assert!(ours == jax, "ours vs jaxlib's:\n{}", line_diff(&jax, &ours));
}

/// The fixtures are what jaxlib writes today (venv only).
#[test]
fn jaxlib_module_bytecode_fixtures_are_what_jaxlib_writes() {
    let Some(python) = jaxref_python("jaxlib_module_bytecode_fixtures_are_what_jaxlib_writes")
    else {
        return;
    };
    let dir = temp_dir("fixtures");
    let module_bytecode = script("module_bytecode.py");
    let goldens = goldens_dir();
    let (ok, out) = run_python(
        &python,
        &[
            module_bytecode.as_os_str(),
            std::ffi::OsStr::new("write"),
            goldens.as_os_str(),
            dir.as_os_str(),
        ],
    );
    assert!(ok, "{out}");
    let src = jaxlib_modules_dir().join("upstream.mlir");
    let (bc, generic) = (
        dir.join("upstream.mlirbc"),
        dir.join("upstream.jaxlib.generic.mlir"),
    );
    let (ok, out) = run_python(
        &python,
        &[
            module_bytecode.as_os_str(),
            std::ffi::OsStr::new("native"),
            src.as_os_str(),
            bc.as_os_str(),
            generic.as_os_str(),
        ],
    );
    assert!(ok, "{out}");
    let mut failures = Failures::new();
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        n += 1;
        let Some(committed) = failures.ok(
            format!("{name:?}"),
            std::fs::read(jaxlib_modules_dir().join(name)),
        ) else {
            continue;
        };
        failures.bytes(
            format!("{name:?}: committed vs jaxlib's"),
            &committed,
            &std::fs::read(&path).unwrap(),
        );
    }
    failures.assert_none();
    assert_eq!(n, 2 * golden_cases().len() + 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// (5) `opt` on JAX's pretty StableHLO: every golden module (as JAX printed
/// it) is read and printed back byte for byte, and in generic form as jaxlib
/// prints it (`mlir-fixtures/jax-modules/`); `opt` verifies it. An op in a
/// custom syntax we do not know (`chlo.scan`) is refused naming the op and its
/// position, with the one-line conversion (which, with the venv, is run and
/// gives a module `opt` reads). Pretty `tpu` kernels nested in a pipeline
/// module lower exactly like their generic form, and `kernel` reads them too.
#[test]
fn opt_reads_pretty_stablehlo_refuses_unknown_syntax_and_reads_pretty_kernels() {
    let mut failures = Failures::new();
    let cases = golden_cases();
    assert!(cases.len() >= 30, "{} golden cases", cases.len());
    for case in &cases {
        let name = case_name(case);
        let ctx = Context::new();
        let text = std::fs::read_to_string(case.join("module.mlir")).unwrap();
        let Some(module) = failures.ok(
            format!("{name}: read"),
            tpu_custom_call::interop::read_module(&ctx, text.as_bytes(), "module.mlir"),
        ) else {
            continue;
        };
        let pretty = PrintOptions {
            generic: false,
            debug_info: text.contains("loc("),
        };
        failures.text(
            format!("{name}: pretty print"),
            &kernel::print_module(&module, pretty).unwrap(),
            &text,
        );
        let jaxlib_generic =
            std::fs::read_to_string(fixtures_dir().join(format!("jax-modules/{name}.mlir")))
                .unwrap();
        let jaxlib_generic = jaxlib_generic.split_once('\n').unwrap().1;
        failures.text(
            format!("{name}: generic print"),
            &kernel::print_module(
                &module,
                PrintOptions {
                    generic: true,
                    debug_info: false,
                },
            )
            .unwrap(),
            jaxlib_generic,
        );
    }
    failures.assert_none();
    let module = goldens_dir().join("add_basic/module.mlir");
    let (code, out, stderr) = run_cli(&[
        "opt",
        module.to_str().unwrap(),
        "--pass-pipeline",
        "builtin.module(tpu-custom-call-verify{target=v5e})",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(out, std::fs::read(&module).unwrap());
    // An op in a custom syntax we do not have (`chlo.scan`'s hand-written
    // form; the other `chlo` ops have theirs since issue 41): refused naming
    // it, with the conversion (run below).
    let dir = temp_dir("pretty");
    let scan = dir.join("scan.mlir");
    std::fs::write(
        &scan,
        "module {\n  func.func @f(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {\n    \
         %0:2 = chlo.scan(%arg0) inits (%arg1) dimension=0  {\n    \
         ^bb0(%input: tensor<8xf32>, %carry: tensor<8xf32>):\n      \
         stablehlo.return %input, %carry : tensor<8xf32>, tensor<8xf32>\n    \
         } : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>)\n    \
         %1 = chlo.erf %0#1 : tensor<8xf32> -> tensor<8xf32>\n    \
         return %1 : tensor<8xf32>\n  }\n}\n",
    )
    .unwrap();
    let (code, out, stderr) = run_cli(&[
        "opt",
        scan.to_str().unwrap(),
        "--pass-pipeline",
        "builtin.module(tpu-custom-call-verify)",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(out.is_empty());
    assert!(
        stderr.contains("scan.mlir:3:12: `chlo.scan` is in pretty (custom) form")
            && stderr.contains("print_generic_op_form=True"),
        "{stderr}"
    );
    // Pretty kernels in a pipeline: the same lowering as the generic fixture.
    let lowered = |fixture: &str| {
        let input = fixtures_dir().join(format!("pipeline/{fixture}.mlir"));
        let (code, out, stderr) = run_cli(&[
            "opt",
            input.to_str().unwrap(),
            "--pass-pipeline",
            "builtin.module(tpu-custom-call-lower{debug-locations=strip})",
        ]);
        assert_eq!(code, 0, "{fixture}: {stderr}");
        out
    };
    let (pretty, generic) = (lowered("three_calls_pretty"), lowered("three_calls"));
    assert!(
        pretty == generic,
        "three_calls_pretty vs three_calls, lowered:\n{}",
        bytes_diff(&generic, &pretty)
    );
    // `kernel` accepts the same nested kernel text.
    let text =
        std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls_pretty.mlir")).unwrap();
    let start = text.find("  module @_add_kernel").unwrap();
    let end = start + text[start..].find("\n  }\n").unwrap() + 4;
    let ctx = Context::new();
    Kernel::from_text(&ctx, &text[start..end], "nested").unwrap();
    // The conversion the message gives, run as given.
    let Some(python) = jaxref_python("opt_reads_pretty_stablehlo_refuses_unknown_syntax") else {
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    };
    let command = stderr
        .split("converted in one line with jaxlib: ")
        .nth(1)
        .unwrap()
        .trim()
        .to_string();
    let bin = python.parent().unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&dir)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .status()
        .unwrap();
    assert!(status.success(), "{command}");
    let generic = dir.join("module.generic.mlir");
    let (code, _, stderr) = run_cli(&[
        "opt",
        generic.to_str().unwrap(),
        "--pass-pipeline",
        "builtin.module(tpu-custom-call-verify{target=v5e})",
    ]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// (6) Pipeline errors: every failing placeholder with its position, an
/// empty kernel by its name, attribute kinds in our words, stdin named
/// `<stdin>` and its locations kept out of the bodies' debug locations.
#[test]
fn pipeline_errors_name_every_placeholder_and_kernel_and_stdin() {
    let fixture =
        std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    let first = "%0 = \"tpu_custom_call.call\"(%x, %y) {kernel = @_add_kernel, kernel_name = \"_add_kernel\", metadata = {}";
    let second = "%1 = \"tpu_custom_call.call\"(%0, %y) {kernel = @_add_kernel, kernel_name = \"_add_kernel\", metadata = {}";
    assert!(fixture.contains(first) && fixture.contains(second));
    let line_of = |text: &str, needle: &str| text[..text.find(needle).unwrap()].lines().count();
    let bad = fixture
        .replace(first, &format!("{first}, vmem_limit_bytes = \"64\""))
        .replace(second, &format!("{second}, tiling = \"compact\""));
    let (l1, l2) = (line_of(&bad, first), line_of(&bad, second));
    let lower = "builtin.module(tpu-custom-call-lower)";
    let (code, out, stderr) = run_cli_stdin(
        &["opt", "-", "--pass-pipeline", lower],
        Some(bad.as_bytes()),
    );
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        stderr.contains(&format!(
            "<stdin>:{l1}:10: error: tpu_custom_call.call: `vmem_limit_bytes` must be an integer attribute \
             (e.g. `vmem_limit_bytes = 1024 : i64`), not a string (`\"64\"`)"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "<stdin>:{l2}:10: error: explicit tiling is only supported for SparseCore kernels."
        )),
        "{stderr}"
    );
    assert!(
        !stderr.contains("<class") && !stderr.contains("loc(\"-\""),
        "{stderr}"
    );
    // A cost estimate field of the wrong kind.
    let cost = fixture.replace(
        first,
        &format!("{first}, cost_estimate = {{flops = 1.5 : f32, transcendentals = 0 : i64, bytes_accessed = 0 : i64}}"),
    );
    let (code, _, stderr) = run_cli_stdin(
        &["opt", "-", "--pass-pipeline", lower],
        Some(cost.as_bytes()),
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("`cost_estimate.flops` must be an integer attribute")
            && stderr.contains("not a float"),
        "{stderr}"
    );
    // An empty kernel module, by its name.
    let start = fixture
        .find("  \"builtin.module\"() <{sym_name = \"_copy_add1_kernel\"}>")
        .unwrap();
    let end = start + fixture[start..].find("\n  }) : () -> ()\n").unwrap() + 16;
    let empty = format!(
        "{}  module @_copy_add1_kernel {{\n  }}\n{}",
        &fixture[..start],
        &fixture[end..]
    );
    let (code, _, stderr) = run_cli_stdin(
        &["opt", "-", "--pass-pipeline", lower],
        Some(empty.as_bytes()),
    );
    assert_eq!(code, 1);
    assert!(
        stderr.contains("kernel `@_copy_add1_kernel`: module is empty")
            && !stderr.contains("<module>"),
        "{stderr}"
    );
    // Lowered from stdin: no `<stdin>` (nor `-`) locations in the bodies;
    // from a file, the file's.
    let (code, out, stderr) = run_cli_stdin(
        &["opt", "-", "--pass-pipeline", lower],
        Some(fixture.as_bytes()),
    );
    assert_eq!(code, 0, "{stderr}");
    let ctx = Context::new();
    let calls = decode::decode_module(&ctx, &out, "stdin-lowered").unwrap();
    assert_eq!(calls.len(), 3);
    let mut failures = Failures::new();
    for (i, call) in calls.iter().enumerate() {
        let Some(kernel) = failures.ok(
            format!("call {i}"),
            call.kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS),
        ) else {
            continue;
        };
        failures.check(
            !kernel.contains("<stdin>") && !kernel.contains("loc(\"-\""),
            || format!("call {i}: {kernel}"),
        );
    }
    failures.assert_none();
    let path = fixtures_dir().join("pipeline/three_calls.mlir");
    let (code, out, _) = run_cli(&["opt", path.to_str().unwrap(), "--pass-pipeline", lower]);
    assert_eq!(code, 0);
    let calls = decode::decode_module(&ctx, &out, "file-lowered").unwrap();
    let kernel = calls[0]
        .kernel
        .print(PrintOptions::GENERIC_WITH_LOCATIONS)
        .unwrap();
    assert!(kernel.contains("three_calls.mlir\":8:"), "{kernel}");
}

/// (1b) `scripts/check-deps.sh` passes after the install, fails naming the
/// file when a package the build needs is left out of `install-deps.sh`, and
/// runs in `.ci/run` right after the install.
#[test]
fn check_deps_proves_the_install() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let install = ci.find("./scripts/install-deps.sh\n").unwrap();
    let check = ci.find("./scripts/check-deps.sh\n").unwrap();
    assert!(check > install);
    assert!(
        ci[install..check]
            .lines()
            .all(|l| l.starts_with('#') || l.starts_with("./scripts/install")),
        "check-deps right after install-deps"
    );
    if let Err(e) = std::process::Command::new("dpkg").arg("--version").output() {
        // Only a missing dpkg skips the test; any other failure to run it is one.
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "running dpkg: {e}");
        eprintln!("SKIPPED check_deps_proves_the_install: no dpkg on this machine");
        return;
    }
    let run = |args: &[&str]| {
        std::process::Command::new("bash")
            .arg(root().join("scripts/check-deps.sh"))
            .args(args)
            .output()
            .unwrap()
    };
    let ok = run(&[]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let deps = std::fs::read_to_string(root().join("scripts/install-deps.sh")).unwrap();
    let dir = temp_dir("deps");
    let without = dir.join("install-deps.sh");
    std::fs::write(&without, deps.replace(" libclang-common-22-dev", "")).unwrap();
    let bad = run(&[without.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert!(
        stderr.contains("include/stdbool.h comes from libclang-common-22-dev"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
