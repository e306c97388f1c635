//! The pipeline passes: tpu-custom-call-lower on placeholder calls and
//! tpu-custom-call-verify on JAX's own modules.

use tpu_custom_call::melior::ir::operation::OperationLike;
use tpu_custom_call::melior::pass::PassManager;
use tpu_custom_call::melior::utility::parse_pass_pipeline;
use tpu_custom_call::{Context, PrintOptions, decode, kernel, pass};

use crate::common::*;

fn load<'c>(ctx: &'c Context, path: &std::path::Path) -> tpu_custom_call::melior::ir::Module<'c> {
    let bytes = std::fs::read(path).unwrap();
    kernel::parse_module_bytes(
        ctx,
        &bytes,
        &path.display().to_string(),
        tpu_custom_call::kernel::ModuleFormat::Text,
    )
    .unwrap()
}

fn print(module: &tpu_custom_call::melior::ir::Module<'_>) -> String {
    kernel::print_module(
        module,
        PrintOptions {
            generic: true,
            debug_info: true,
        },
    )
    .unwrap()
}

/// Three placeholder calls to two kernels lower, inside a pipeline with
/// canonicalize, to the ops `emit` gives for the same kernels and parameters;
/// each kernel is serialized once.
#[test]
fn placeholders_lower_to_what_emit_gives_and_share_bodies() {
    let ctx = Context::new();
    let fixture = fixtures_dir().join("pipeline/three_calls.mlir");
    // Library entry point: counts.
    let module = load(&ctx, &fixture);
    let stats =
        pass::lower_module(&ctx, module.as_operation(), &pass::PassOptions::default()).unwrap();
    assert_eq!(stats.calls, 3);
    assert_eq!(stats.serializations, 2, "one body per kernel");
    assert_eq!(stats.kernels_removed, 2);
    assert!(module.as_operation().verify());

    // Pipeline with an upstream pass, as a pipeline string.
    pass::register_passes();
    let mut module = load(&ctx, &fixture);
    let manager = PassManager::new(&ctx);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        // Locations differ between the fixture and the goldens: strip them
        // on both sides so whole attributes compare.
        "builtin.module(tpu-custom-call-lower{debug-locations=strip},canonicalize)",
    )
    .unwrap();
    manager.run(&mut module).unwrap();
    let calls = decode::find_in_operation(module.as_operation()).unwrap();
    assert_eq!(calls.len(), 3);
    let text = print(&module);
    assert!(!text.contains("tpu_custom_call.call"), "placeholders left");
    assert!(
        !text.contains("\"builtin.module\"() <{sym_name = \"_add_kernel\""),
        "nested kernel left"
    );

    // Each call equals what `emit` gives for the golden kernel and params.
    let mut failures = Failures::new();
    for (i, (call, case)) in calls
        .iter()
        .zip(["add_basic", "add_basic", "vmem_limit"])
        .enumerate()
    {
        let sig = if case == "add_basic" {
            "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>"
        } else {
            "(tensor<8x128xf32>) -> tensor<8x128xf32>"
        };
        let kernel_path = goldens_dir()
            .join(case)
            .join("kernel_pre_serde.generic.mlir");
        let params = fixtures_dir().join(format!("params/{case}.json"));
        let (code, out, stderr) = run_cli(&[
            "emit",
            kernel_path.to_str().unwrap(),
            "--signature",
            sig,
            "--params",
            params.to_str().unwrap(),
            "--debug-locations",
            "strip",
        ]);
        if code != 0 {
            failures.fail(format!("call {i} ({case}): emit exited {code}: {stderr}"));
            continue;
        }
        let Some(emitted) = failures.ok(
            format!("call {i} ({case}): decoding emit's output"),
            decode::find_calls(&ctx, &out, "emit"),
        ) else {
            continue;
        };
        failures.eq(
            format!("call {i} ({case}): attributes"),
            &call.attributes,
            &emitted[0].attributes,
        );
    }
    failures.assert_none();
}

/// A module with one bad placeholder is left byte-identical by the failed
/// pass, and the error points at that placeholder.
#[test]
fn failed_lowering_leaves_the_module_unchanged() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    // The third call gets a TensorCore-invalid parameter.
    let bad = text.replace(
        "vmem_limit_bytes = 67108864 : i64}",
        "vmem_limit_bytes = 67108864 : i64, tiling = \"compact\"}",
    );
    assert_ne!(bad, text);
    let path =
        std::env::temp_dir().join(format!("tcc-bad-placeholder-{}.mlir", std::process::id()));
    std::fs::write(&path, &bad).unwrap();
    let module = load(&ctx, &path);
    let before = print(&module);
    let err =
        pass::lower_module(&ctx, module.as_operation(), &pass::PassOptions::default()).unwrap_err();
    assert_eq!(
        err.error.to_string(),
        "explicit tiling is only supported for SparseCore kernels."
    );
    assert!(
        err.location.to_string().contains(":43:"),
        "location {}",
        err.location
    );
    assert_eq!(
        print(&module),
        before,
        "module changed by a failed lowering"
    );

    // Through the CLI: exit 1, the message at the placeholder's line, no output file.
    let out = path.with_extension("out.mlir");
    let (code, stdout, stderr) = run_cli(&[
        "opt",
        path.to_str().unwrap(),
        "--pass-pipeline",
        "builtin.module(tpu-custom-call-lower)",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(!out.exists());
    assert!(
        stderr.contains(":43:")
            && stderr.contains("explicit tiling is only supported for SparseCore kernels."),
        "{stderr}"
    );
    std::fs::remove_file(&path).unwrap();
}

/// tpu-custom-call-verify accepts every JAX golden module (in generic form)
/// and reports corrupted calls at their op.
#[test]
fn verify_accepts_jax_modules_and_reports_corruptions() {
    let dir = fixtures_dir().join("jax-modules");
    let mut failures = Failures::new();
    let mut checked = 0;
    let mut libtpu_refused = 0;
    for case in golden_cases() {
        let path = dir.join(format!("{}.mlir", case_name(&case)));
        let ctx = Context::new();
        let Some(bytes) = failures.ok(path.display(), std::fs::read(&path)) else {
            continue;
        };
        let Some(module) = failures.ok(
            path.display(),
            kernel::parse_module_bytes(
                &ctx,
                &bytes,
                &path.display().to_string(),
                tpu_custom_call::kernel::ModuleFormat::Text,
            ),
        ) else {
            continue;
        };
        let mut problems = pass::verify_module(&ctx, module.as_operation(), None);
        // What libtpu refuses in JAX's own output (unknown flag names, a too
        // small scratch, format 0...) is reported; nothing else is.
        let before = problems.len();
        problems.retain(|p| !p.1.contains("libtpu"));
        libtpu_refused += usize::from(problems.len() != before);
        failures.check(problems.is_empty(), || {
            format!(
                "{}: {:?}",
                path.display(),
                problems.iter().map(|p| &p.1).collect::<Vec<_>>()
            )
        });
        checked += 1;
    }
    failures.assert_none();
    assert_eq!(checked, golden_cases().len());
    assert!(libtpu_refused >= 3, "{libtpu_refused}");

    let text = std::fs::read_to_string(dir.join("add_basic.mlir")).unwrap();
    let corruptions = [
        (
            "bad base64",
            text.replacen("TUzvUgFN", "TUzv!gFN", 1),
            "base64",
        ),
        (
            "bad version",
            text.replacen(
                "\\22serialization_format\\22: 1",
                "\\22serialization_format\\22: \\22x\\22",
                1,
            ),
            "serialization_format",
        ),
        (
            "wrong layouts",
            text.replacen(
                "operand_layouts = [dense<[1, 0]> : tensor<2xindex>",
                "operand_layouts = [dense<[0, 1]> : tensor<2xindex>",
                1,
            ),
            "operand_layouts",
        ),
    ];
    let mut failures = Failures::new();
    for (what, corrupted, expect) in corruptions {
        if corrupted == text {
            failures.fail(format!("{what}: corruption did not apply"));
            continue;
        }
        let ctx = Context::new();
        let bytes = corrupted.into_bytes();
        let Some(module) = failures.ok(
            what,
            kernel::parse_module_bytes(
                &ctx,
                &bytes,
                what,
                tpu_custom_call::kernel::ModuleFormat::Text,
            ),
        ) else {
            continue;
        };
        let problems = pass::verify_module(&ctx, module.as_operation(), None);
        let Some((location, message)) = problems.first() else {
            failures.fail(format!("{what}: not reported"));
            continue;
        };
        failures.check(message.contains(expect), || format!("{what}: {message}"));
        // The custom_call is on line 5 of the generic module.
        failures.check(location.to_string().contains(":5:"), || {
            format!("{what}: at {location}")
        });
    }
    failures.assert_none();
}

/// `three_calls.mlir` with its `main` replaced by `n` chained placeholder
/// calls, alternating between its two kernels.
fn many_calls(n: usize) -> String {
    let src = std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    let main = "  \"func.func\"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = \"main\"";
    let mut text = src[..src.find(main).unwrap()].to_string();
    text.push_str(main);
    text.push_str(", sym_visibility = \"public\"}> ({\n  ^bb0(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>):\n");
    let mut prev = "%x".to_string();
    for i in 0..n {
        if i % 2 == 0 {
            text.push_str(&format!("    %{i} = \"tpu_custom_call.call\"({prev}, %y) {{kernel = @_add_kernel, kernel_name = \"_add_kernel\", metadata = {{}}}} : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>\n"));
        } else {
            text.push_str(&format!("    %{i} = \"tpu_custom_call.call\"({prev}) {{kernel = @_copy_add1_kernel, kernel_name = \"_copy_add1_kernel\", metadata = {{}}}} : (tensor<8x128xf32>) -> tensor<8x128xf32>\n"));
        }
        prev = format!("%{i}");
    }
    text.push_str(&format!(
        "    \"func.return\"({prev}) : (tensor<8x128xf32>) -> ()\n  }}) : () -> ()\n}}) : () -> ()\n"
    ));
    text
}

/// A module of 1,000 calls lowers with two serializations (bodies shared)
/// and decodes back to 1,000 calls in order, each to its kernel. (Time and
/// memory at 10,000 calls are measured by `scripts/limits.sh`, not here.)
#[test]
fn a_thousand_calls_lower_and_decode() {
    let n = 1_000;
    let ctx = Context::new();
    let text = many_calls(n);
    let module = kernel::parse_module_bytes(
        &ctx,
        text.as_bytes(),
        "many",
        tpu_custom_call::kernel::ModuleFormat::Text,
    )
    .unwrap();
    let stats =
        pass::lower_module(&ctx, module.as_operation(), &pass::PassOptions::default()).unwrap();
    assert_eq!(
        (stats.calls, stats.serializations, stats.kernels_removed),
        (n, 2, 2)
    );
    let printed = print(&module);
    let calls = decode::decode_module(&ctx, printed.as_bytes(), "many").unwrap();
    assert_eq!(calls.len(), n);
    let mut failures = Failures::new();
    for (i, call) in calls.iter().enumerate() {
        let expected = if i % 2 == 0 {
            "_add_kernel"
        } else {
            "_copy_add1_kernel"
        };
        failures.eq(format!("call {i}: index"), call.found.index, i);
        failures.eq(
            format!("call {i}: kernel_name"),
            call.found.kernel_name.as_deref(),
            Some(expected),
        );
        failures.eq(
            format!("call {i}: kernel"),
            call.kernel.name().as_deref(),
            Some(expected),
        );
    }
    failures.assert_none();
    // Shared bodies: two distinct configs among all calls.
    let mut bodies: Vec<&[u8]> = calls.iter().map(|c| c.config.body.as_slice()).collect();
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 2);
}

/// Pass options reach the pass as data, value by value: a newline in
/// `producer` stays in the producer string and does not inject another
/// option (here `ir-version=99`, which would fail the lowering).
#[test]
fn a_newline_in_producer_does_not_inject_an_option() {
    let ctx = Context::new();
    pass::register_passes();
    let mut module = load(&ctx, &fixtures_dir().join("pipeline/three_calls.mlir"));
    let manager = PassManager::new(&ctx);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(tpu-custom-call-lower{producer=\"MLIRx\nir-version=99\"})",
    )
    .unwrap();
    let (result, diagnostics) = ctx.capture(|| manager.run(&mut module));
    assert!(result.is_ok(), "the pass failed: {diagnostics:?}");
    let calls = decode::decode_module(&ctx, print(&module).as_bytes(), "lowered").unwrap();
    assert_eq!(calls.len(), 3);
    let mut failures = Failures::new();
    for (i, call) in calls.iter().enumerate() {
        failures.eq(
            format!("call {i}: ir_version (an injected ir-version took effect?)"),
            call.ir_version,
            15,
        );
    }
    failures.assert_none();
    // The producer string went into the body bytecode whole.
    let body = &calls[0].config.body;
    let needle = b"MLIRx\nir-version=99";
    assert!(
        body.windows(needle.len()).any(|w| w == needle),
        "the producer string is not in the body"
    );
}

/// `tpu-custom-call-lower{jax-rules-only=true}` checks only JAX's rules (a
/// flag libtpu does not know passes, as with `emit --jax-rules-only`), and
/// libtpu's warnings found by the lower and verify passes are warning
/// diagnostics at the call's location, printed by `opt`.
#[test]
fn lower_jax_rules_only_and_libtpu_warnings() {
    let text = std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    let third = "vmem_limit_bytes = 67108864 : i64}";
    let big_vmem = text.replace(third, "vmem_limit_bytes = 300000000 : i64}");
    let unknown_flag = text.replace(
        third,
        "vmem_limit_bytes = 300000000 : i64, flags = {xla_tpu_force_lp_llo_schedular = true}}",
    );
    assert!(big_vmem != text && unknown_flag != text);
    let dir = std::env::temp_dir().join(format!("tcc-pass-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (big_path, flag_path) = (dir.join("big.mlir"), dir.join("flag.mlir"));
    std::fs::write(&big_path, &big_vmem).unwrap();
    std::fs::write(&flag_path, &unknown_flag).unwrap();
    let opt = |path: &std::path::Path, pipeline: &str| {
        run_cli(&[
            "opt",
            path.to_str().unwrap(),
            "--pass-pipeline",
            pipeline,
            "-o",
            dir.join("out.mlir").to_str().unwrap(),
        ])
    };
    let warning = "warning: `vmem_limit_bytes` = 286.10 MiB (300000000 bytes) exceeds the 128 MiB of VMEM on v6e";

    // All rules: libtpu's unknown flag is an error at the placeholder.
    let (code, _, stderr) = opt(
        &flag_path,
        "builtin.module(tpu-custom-call-lower{target=v6e})",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(":43:")
            && stderr.contains("unknown enum value: 'xla_tpu_force_lp_llo_schedular'"),
        "{stderr}"
    );
    // JAX's rules only: it lowers, with libtpu's warning at the placeholder.
    let (code, _, stderr) = opt(
        &flag_path,
        "builtin.module(tpu-custom-call-lower{target=v6e jax-rules-only=true})",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.contains(":43:") && l.contains(warning)),
        "{stderr}"
    );
    // Both passes warn, each once, at the call's location.
    let (code, _, stderr) = opt(
        &big_path,
        "builtin.module(tpu-custom-call-lower{target=v6e},tpu-custom-call-verify{target=v6e})",
    );
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains(":43:")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].contains(warning), "{stderr}");
    assert!(
        lines[1].contains("warning: tpu_custom_call: `vmem_limit_bytes` = 286.10 MiB"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Placeholder problems come back as structured `PlaceholderError`s (the
/// variant, and the message naming the placeholder), every one of them.
#[test]
fn placeholder_errors_are_typed() {
    use tpu_custom_call::{Error, PlaceholderError};
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    // First call: no kernel; second: a kernel that is not nested; third: a
    // `vmem_limit_bytes` of the wrong kind.
    let mut bad = text.replacen("kernel = @_add_kernel, ", "", 1);
    bad = bad.replacen("kernel = @_add_kernel", "kernel = @_no_such_kernel", 1);
    bad = bad.replace(
        "vmem_limit_bytes = 67108864 : i64}",
        "vmem_limit_bytes = \"64\"}",
    );
    assert_ne!(bad, text);
    let path =
        std::env::temp_dir().join(format!("tcc-typed-placeholder-{}.mlir", std::process::id()));
    std::fs::write(&path, &bad).unwrap();
    let module = load(&ctx, &path);
    std::fs::remove_file(&path).unwrap();
    let errors = pass::lower_module_all(&ctx, module.as_operation(), &pass::PassOptions::default())
        .unwrap_err();
    let kinds: Vec<&Error> = errors.iter().map(|e| &e.error).collect();
    assert!(
        kinds
            .iter()
            .any(|e| matches!(e, Error::Pass(PlaceholderError::MissingKernel))),
        "{kinds:?}"
    );
    assert!(
        kinds.iter().any(|e| matches!(
            e,
            Error::Pass(PlaceholderError::KernelNotNested { kernel }) if kernel == "_no_such_kernel"
        )),
        "{kinds:?}"
    );
    assert!(
        kinds
            .iter()
            .any(|e| matches!(e, Error::Pass(PlaceholderError::AttributeKind { .. }))),
        "{kinds:?}"
    );
    assert!(
        errors
            .iter()
            .all(|e| e.error.to_string().starts_with("tpu_custom_call.call: ")),
        "{errors:?}"
    );
}

/// `tpu-custom-call-verify{jax-rules-only=true}` checks only JAX's rules, as
/// the lower pass's option does: a call JAX lowers with a flag libtpu does not
/// know (lowered with `jax-rules-only`) fails the verify pass with every rule
/// and passes it with JAX's rules only (libtpu's warning still given); the
/// library's `verify_module_with` agrees.
#[test]
fn verify_jax_rules_only() {
    let text = std::fs::read_to_string(fixtures_dir().join("pipeline/three_calls.mlir")).unwrap();
    let third = "vmem_limit_bytes = 67108864 : i64}";
    let unknown_flag = text.replace(
        third,
        "vmem_limit_bytes = 67108864 : i64, flags = {xla_tpu_force_lp_llo_schedular = true}}",
    );
    assert!(unknown_flag != text);
    let dir = std::env::temp_dir().join(format!("tcc-verify-jax-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (flag_path, lowered) = (dir.join("flag.mlir"), dir.join("lowered.mlir"));
    std::fs::write(&flag_path, &unknown_flag).unwrap();
    let opt = |input: &std::path::Path, pipeline: &str, out: &std::path::Path| {
        run_cli(&[
            "opt",
            input.to_str().unwrap(),
            "--pass-pipeline",
            pipeline,
            "-o",
            out.to_str().unwrap(),
        ])
    };
    let (code, _, stderr) = opt(
        &flag_path,
        "builtin.module(tpu-custom-call-lower{jax-rules-only=true})",
        &lowered,
    );
    assert_eq!(code, 0, "{stderr}");
    let out = dir.join("out.mlir");
    let (code, _, stderr) = opt(
        &lowered,
        "builtin.module(tpu-custom-call-verify{target=v6e})",
        &out,
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("unknown enum value: 'xla_tpu_force_lp_llo_schedular'"),
        "{stderr}"
    );
    let (code, _, stderr) = opt(
        &lowered,
        "builtin.module(tpu-custom-call-verify{target=v6e jax-rules-only=true})",
        &out,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    // The library: all rules find libtpu's problem, JAX's rules only do not.
    let ctx = Context::new();
    let bytes = std::fs::read_to_string(&lowered).unwrap();
    let module = tpu_custom_call::melior::ir::Module::parse(&ctx, &bytes).expect("lowered module");
    let all = pass::verify_module(
        &ctx,
        module.as_operation(),
        Some(tpu_custom_call::Chip::V6e),
    );
    assert!(
        all.iter()
            .any(|(_, m)| m.contains("xla_tpu_force_lp_llo_schedular")),
        "{all:?}"
    );
    let jax = pass::verify_module_with(
        &ctx,
        module.as_operation(),
        Some(tpu_custom_call::Chip::V6e),
        &tpu_custom_call::ValidateOptions::jax_rules_only(),
    );
    assert!(jax.is_empty(), "{jax:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
