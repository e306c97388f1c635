//! Kernel loading, printing and bytecode round trips on every golden kernel.

use tpu_custom_call::{BytecodeOptions, Context, Kernel, KernelError, PrintOptions};

use crate::common::*;

#[test]
fn every_golden_kernel_loads_and_round_trips() {
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        let path = case.join("kernel_pre_serde.generic.mlir");
        let text = std::fs::read_to_string(&path).unwrap();
        let ctx = Context::new();
        let kernel = match Kernel::from_text(&ctx, &text, &path.display().to_string()) {
            Ok(kernel) => kernel,
            Err(e) => {
                failures.check(false, || format!("{name}: {e}"));
                continue;
            }
        };
        let Some(printed) = failures.ok(&name, kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS))
        else {
            continue;
        };
        let Some(reprinted) = failures.ok(
            format!("{name}: bytecode round trip"),
            kernel
                .to_bytecode(&BytecodeOptions::default())
                .and_then(|bytes| Kernel::from_bytecode(&ctx, &bytes, "bytecode"))
                .and_then(|back| back.print(PrintOptions::GENERIC_WITH_LOCATIONS)),
        ) else {
            continue;
        };
        failures.text(
            format!("{name}: text -> bytecode -> text"),
            &reprinted,
            &printed,
        );
    }
    failures.assert_none();
}

#[test]
fn producer_string_and_version_are_written_in_the_header() {
    let ctx = Context::new();
    let text =
        std::fs::read_to_string(goldens_dir().join("add_basic/kernel_serialized.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "kernel_serialized.mlir").unwrap();
    let options = BytecodeOptions {
        version: Some(0),
        producer: Some("MLIR24.0.0git".to_string()),
    };
    let bytes = kernel.to_bytecode(&options).unwrap();
    // Header: magic, varint version (0 encodes as 0x01), NUL-terminated producer,
    // exactly as JAX's golden body starts.
    let golden = std::fs::read(goldens_dir().join("add_basic/body.mlirbc")).unwrap();
    assert_eq!(&bytes[..19], &golden[..19]);
    assert_eq!(&bytes[..4], b"ML\xefR");
    assert_eq!(bytes[4], 0x01, "version 0 as a varint");
    assert_eq!(&bytes[5..19], b"MLIR24.0.0git\0");
    // Default producer: this MLIR's.
    let default = kernel.to_bytecode(&BytecodeOptions::version0()).unwrap();
    let producer = tpu_custom_call::kernel::default_producer();
    assert!(producer.starts_with("MLIR22."), "{producer}");
    assert_eq!(&default[5..5 + producer.len()], producer.as_bytes());
    // Newest version by default, and reading it back gives the same module.
    let newest = kernel.to_bytecode(&BytecodeOptions::default()).unwrap();
    let v = tpu_custom_call::kernel::current_bytecode_version();
    assert_eq!(newest[4], (v as u8) << 1 | 1);
    let back = Kernel::from_bytecode(&ctx, &bytes, "v0").unwrap();
    assert_eq!(
        back.print(PrintOptions::GENERIC_WITH_LOCATIONS).unwrap(),
        kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS).unwrap()
    );
}

#[test]
fn bytecode_versions_out_of_range_and_lossy_ones_are_refused() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "add.mlir").unwrap();
    let max = tpu_custom_call::kernel::current_bytecode_version();
    let written = |version| {
        kernel.to_bytecode(&BytecodeOptions {
            version: Some(version),
            producer: None,
        })
    };
    let mut failures = Failures::new();
    for version in [-1, max + 1] {
        match written(version) {
            Err(KernelError::UnsupportedBytecodeVersion { .. }) => {}
            Err(other) => failures.fail(format!("version {version}: {other}")),
            Ok(_) => failures.fail(format!("version {version}: written")),
        }
    }
    // Pre-serde kernels carry properties on unregistered `tpu` ops, which MLIR
    // drops below version 5: refused instead of silently losing them.
    for version in 0..5 {
        match written(version) {
            Err(KernelError::PropertiesNeedVersion5 { op, .. }) => failures.eq(
                format!("version {version}: op"),
                op.as_str(),
                "tpu.vector_store",
            ),
            Err(other) => failures.fail(format!("version {version}: {other}")),
            Ok(_) => failures.fail(format!("version {version}: written")),
        }
    }
    let expected = text.split_once('\n').unwrap().1;
    for version in 5..=max {
        if let Some(back) = failures.ok(
            format!("version {version}"),
            written(version)
                .and_then(|bytes| Kernel::from_bytecode(&ctx, &bytes, "bc"))
                .and_then(|back| back.print(PrintOptions::GENERIC_WITH_LOCATIONS)),
        ) {
            failures.text(format!("version {version}: read back"), &back, expected);
        }
    }
    failures.assert_none();
}

/// Real jaxlib 0.12 reads our version-0 bytecode of every golden kernel (in
/// serialized form: the form bodies take) and prints the same module as we do.
#[test]
fn jaxlib_reads_our_bytecode() {
    let Some(python) = jaxref_python("jaxlib_reads_our_bytecode") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-jaxlib-read-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    let mut ours = Vec::new();
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        let ctx = Context::new();
        let text = std::fs::read_to_string(case.join("kernel_serialized.mlir")).unwrap();
        let Some(kernel) = failures.ok(
            &name,
            Kernel::from_text(&ctx, &text, "kernel_serialized.mlir"),
        ) else {
            continue;
        };
        let written = kernel.to_bytecode(&BytecodeOptions {
            version: Some(0),
            producer: Some("MLIR24.0.0git".into()),
        });
        let printed = kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS);
        let (Some(bytes), Some(printed)) = (
            failures.ok(format!("{name}: writing bytecode"), written),
            failures.ok(format!("{name}: printing"), printed),
        ) else {
            continue;
        };
        let path = dir.join(format!("{name}.mlirbc"));
        std::fs::write(&path, &bytes).unwrap();
        paths.push(path);
        ours.push(printed);
    }
    failures.assert_none();
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/print_bytecode.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8(out.stdout).unwrap();
    let theirs: Vec<&str> = theirs.split("// -----\n").collect();
    assert_eq!(theirs.len(), ours.len());
    let mut failures = Failures::new();
    for ((path, ours), theirs) in paths.iter().zip(&ours).zip(theirs) {
        failures.text(
            format!("{}: jaxlib's printing vs ours", path.display()),
            theirs,
            ours,
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    failures.assert_none();
}

// ---------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------

/// `depth` regions nested inside each other, in generic form.
fn nested_regions(depth: usize) -> String {
    let mut text = String::from("module {\n");
    text.push_str(&"\"test.r\"() ({\n".repeat(depth));
    text.push_str(&"}) : () -> ()\n".repeat(depth));
    text.push_str("}\n");
    text
}

/// MLIR's text parser recurses per nesting level: 100,000 nested `[` or
/// regions overflow the stack (an abort). The loader refuses them first with
/// the line and column of the bracket past the limit; nesting just under the
/// limit still loads on a test thread (2 MiB of stack).
#[test]
fn deep_nesting_is_refused_before_mlir_parses_it() {
    let ctx = Context::new();
    let n = 100_000;
    let attr = format!(
        "module attributes {{x = {}{}}} {{}}",
        "[".repeat(n),
        "]".repeat(n)
    );
    let regions = nested_regions(n);
    // `<...>` types: 30,000 nested `tuple<`, `memref<2x` or `tensor<2x`
    // abort MLIR 22 on an 8 MiB stack, 4,000 `tuple<` on 2 MiB
    // (`mlir-fixtures/crashers/deep_tuple_type.mlir`); function types nest
    // with parentheses; `!tpu` types with `<`.
    let typed = |open: &str, close: &str| {
        format!(
            "func.func @f(%a: {}i32{}) {{\n  return\n}}\n",
            open.repeat(30_000),
            close.repeat(30_000)
        )
    };
    let types = [
        typed("tuple<", ">"),
        typed("memref<2x", ">"),
        typed("tensor<2x", ">"),
        typed("() -> (", ")"),
        typed("!tpu.foo<", ">"),
        format!(
            "func.func @f() attributes {{x = {}i32{}}} {{\n  return\n}}\n",
            "tuple<".repeat(30_000),
            ">".repeat(30_000)
        ),
    ];
    let mut failures = Failures::new();
    for (i, text) in [&attr, &regions].into_iter().chain(&types).enumerate() {
        let what = format!("deep text {i} ({}...)", &text[..text.len().min(40)]);
        match Kernel::from_text(&ctx, text, "deep") {
            Err(KernelError::TooDeep { limit, line, .. }) => {
                failures.eq(
                    format!("{what}: limit"),
                    limit,
                    tpu_custom_call::kernel::MAX_TEXT_NESTING,
                );
                failures.check(line >= 1, || format!("{what}: line {line}"));
            }
            Err(other) => failures.fail(format!("{what}: {other}")),
            Ok(_) => failures.fail(format!("{what}: loaded")),
        }
    }
    failures.assert_none();
    // Just under the limit: loads, verifies and prints in generic form.
    let depth = tpu_custom_call::kernel::MAX_TEXT_NESTING / 2 - 2;
    let kernel = Kernel::from_text(&ctx, &nested_regions(depth), "deep").unwrap();
    let printed = kernel.print(PrintOptions::default()).unwrap();
    assert_eq!(printed.matches("\"test.r\"").count(), depth);
}

/// Text parsed piece by piece is checked too: a JAX pretty module whose
/// `tpu_custom_call` statement carries an attribute of 30,000 nested `tuple<`
/// overflowed the stack in `inspect` (found while writing the guards), and a
/// `--signature` is a function type given on the command line.
#[test]
fn deep_nesting_in_pretty_modules_and_signatures_is_refused() {
    let module = std::fs::read_to_string(goldens_dir().join("add_basic/module.mlir")).unwrap();
    let call = module
        .find("stablehlo.custom_call @tpu_custom_call(")
        .unwrap();
    let brace = call + module[call..].find('{').unwrap();
    let deep = format!("{}i32{}", "tuple<".repeat(30_000), ">".repeat(30_000));
    let bad = format!("{}x = {deep}, {}", &module[..=brace], &module[brace + 1..]);
    let ctx = Context::new();
    match tpu_custom_call::decode::find_calls(&ctx, bad.as_bytes(), "deep") {
        Err(tpu_custom_call::decode::DecodeError::Module(KernelError::TooDeep {
            limit, ..
        })) => {
            assert_eq!(limit, tpu_custom_call::kernel::MAX_TEXT_NESTING)
        }
        other => panic!("{other:?}"),
    }
    // The untouched module still decodes.
    assert_eq!(
        tpu_custom_call::decode::find_calls(&ctx, module.as_bytes(), "ok")
            .unwrap()
            .len(),
        1
    );
    let signature = format!("({}i32{}) -> ()", "tuple<".repeat(300), ">".repeat(300));
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        &signature,
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: --signature:1:1201: brackets nested more than 200 deep"),
        "{stderr}"
    );
}
