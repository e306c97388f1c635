//! The pipeline passes: tpu-custom-call-lower on placeholder calls and
//! tpu-custom-call-verify on JAX's own modules.

use tpu_custom_call::melior::ir::operation::OperationLike;
use tpu_custom_call::melior::pass::PassManager;
use tpu_custom_call::melior::utility::parse_pass_pipeline;
use tpu_custom_call::{Context, PrintOptions, decode, kernel, pass};

use crate::common::*;

fn load<'c>(ctx: &'c Context, path: &std::path::Path) -> tpu_custom_call::melior::ir::Module<'c> {
    let bytes = std::fs::read(path).unwrap();
    kernel::parse_module_bytes(ctx, &bytes, &path.display().to_string(), "text").unwrap()
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
    for (call, case) in calls.iter().zip(["add_basic", "add_basic", "vmem_limit"]) {
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
        assert_eq!(code, 0, "{stderr}");
        let emitted = decode::find_calls(&ctx, &out, "emit").unwrap();
        assert_eq!(emitted[0].attributes, call.attributes, "{case}");
    }
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
    let mut checked = 0;
    for case in golden_cases() {
        let path = dir.join(format!("{}.mlir", case_name(&case)));
        let ctx = Context::new();
        let module = load(&ctx, &path);
        let problems = pass::verify_module(&ctx, module.as_operation(), None);
        assert!(
            problems.is_empty(),
            "{}: {:?}",
            path.display(),
            problems.iter().map(|p| &p.1).collect::<Vec<_>>()
        );
        checked += 1;
    }
    assert_eq!(checked, golden_cases().len());

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
    for (what, corrupted, expect) in corruptions {
        assert_ne!(corrupted, text, "{what}: corruption did not apply");
        let ctx = Context::new();
        let bytes = corrupted.into_bytes();
        let module = kernel::parse_module_bytes(&ctx, &bytes, what, "text").unwrap();
        let problems = pass::verify_module(&ctx, module.as_operation(), None);
        assert!(!problems.is_empty(), "{what}: not reported");
        let (location, message) = &problems[0];
        assert!(message.contains(expect), "{what}: {message}");
        // The custom_call is on line 5 of the generic module.
        assert!(
            location.to_string().contains(":5:"),
            "{what}: at {location}"
        );
    }
}
