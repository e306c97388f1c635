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

// ---------------------------------------------------------------------------
// Tiled layouts
// ---------------------------------------------------------------------------

/// `mlir-fixtures/kernels/tiled.mlir`: real Mosaic output with tiled memrefs
/// (libtpu's dump after `tiling-propagation`, as jaxlib prints it; see
/// `scripts/jaxref/tiled_layouts.py`): tiled function arguments,
/// `reinterpret_cast`, `memref_slice`, DMAs and a `vector_load` on them.
fn tiled_kernel() -> String {
    std::fs::read_to_string(fixtures_dir().join("kernels/tiled.mlir")).unwrap()
}

/// A kernel with tiled memrefs loads (MLIR parses the layouts, our `tpu`
/// verifier accepts it as jaxlib does), prints back exactly as jaxlib prints
/// it, and survives a bytecode round trip.
#[test]
fn tiled_layout_kernel_loads_verifies_and_prints_verbatim() {
    let ctx = Context::new();
    let text = tiled_kernel();
    let kernel = Kernel::from_text(&ctx, &text, "tiled.mlir").unwrap();
    assert_eq!(kernel.print_pretty(false).unwrap(), text);
    let bytes = kernel.to_bytecode(&BytecodeOptions::default()).unwrap();
    let back = Kernel::from_bytecode(&ctx, &bytes, "tiled.mlirbc").unwrap();
    assert_eq!(back.print_pretty(false).unwrap(), text);
    // The layout keeps its text: spaces stay (jaxlib would drop them), and the
    // pass-through attribute is what the typed builder makes.
    let spaced = text.replace("#tpu.tiled<(8,128),[1,1]>", "#tpu.tiled<(8, 128), [1, 1]>");
    let kernel = Kernel::from_text(&ctx, &spaced, "spaced.mlir").unwrap();
    assert_eq!(kernel.print_pretty(false).unwrap(), spaced);
    let layout = tpu_custom_call::mosaic::attrs::TiledLayout::new(vec![vec![8, 128]], vec![1, 1]);
    assert_eq!(
        layout.attribute(ctx.mlir()),
        tpu_custom_call::melior::ir::Attribute::parse(ctx.mlir(), "#tpu.tiled<(8,128),[1,1]>")
            .unwrap()
    );
}

/// The body we serialize from the tiled kernel is JAX's, byte for byte (the
/// layouts are pass-through attributes, written as their text), and so is
/// the debug-locations blob; jaxlib's body read and written again by LLVM 22
/// gives the same bytes.
#[test]
fn tiled_layout_kernel_serializes_to_jax_bytes() {
    use tpu_custom_call::bytecode;
    let ctx = Context::new();
    let kernel = Kernel::from_text(&ctx, &tiled_kernel(), "tiled.mlir").unwrap();
    let jax_bytecode = BytecodeOptions {
        version: Some(0),
        producer: Some("MLIR24.0.0git".into()),
    };
    let options = tpu_custom_call::SerializeOptions {
        bytecode: jax_bytecode.clone(),
        ..Default::default()
    };
    let ours = tpu_custom_call::serialize(&kernel, &options).unwrap();
    let read = |name: &str| std::fs::read(fixtures_dir().join("kernels").join(name)).unwrap();
    let (body, blob) = (
        read("tiled.body.jaxlib.mlirbc"),
        read("tiled.debug_locations.jaxlib.mlirbc"),
    );
    let mut failures = Failures::new();
    failures.bytes("body", &bytecode::up(&ours.body).unwrap(), &body);
    failures.bytes(
        "debug_locations",
        &bytecode::up(&ours.debug_locations.unwrap()).unwrap(),
        &blob,
    );
    let theirs = Kernel::from_bytecode(&ctx, &bytecode::down(&body).unwrap(), "body").unwrap();
    let rewritten = theirs.to_bytecode(&jax_bytecode).unwrap();
    failures.bytes(
        "jaxlib's body rewritten",
        &bytecode::up(&rewritten).unwrap(),
        &body,
    );
    failures.assert_none();
}

/// Each memref type of `mlir-fixtures/kernels/tiled-layouts.jsonl` (written
/// by `scripts/jaxref/tiled_layouts.py layouts` with jaxlib 0.12): we accept
/// what jaxlib accepts, refuse the rest with jaxlib's message (a stride count
/// other than the rank: `Layout rank does not match shape rank`), print the
/// type back as given, and the layout's affine map, strides and offset are
/// jaxlib's. Where jaxlib crashes computing the map, ours has no results (so
/// no strides but for a rank-0 memref).
#[test]
fn tiled_layouts_parse_and_map_as_jaxlib() {
    use tpu_custom_call::melior::ir::r#type::MemRefType;
    use tpu_custom_call::melior::ir::{ShapedTypeLike, Type, TypeLike};
    let fixture =
        std::fs::read_to_string(fixtures_dir().join("kernels/tiled-layouts.jsonl")).unwrap();
    let ctx = Context::new();
    let mut failures = Failures::new();
    let (mut parsed, mut refused, mut normal) = (0, 0, 0);
    for line in fixture.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = row["type"].as_str().unwrap();
        let kernel = format!("func.func @f(%a: {text}) {{\n  return\n}}\n");
        let verdict = first_message(Kernel::from_text(&ctx, &kernel, "layout.mlir"));
        let Some(jax_printed) = row["parsed"].as_str() else {
            refused += 1;
            let want = row["message"].as_str().unwrap();
            match verdict {
                None => failures.fail(format!("{text}: accepted, jaxlib says `{want}`")),
                Some(got) if !want.is_empty() => failures.eq(text, got.as_str(), want),
                Some(_) => {}
            }
            continue;
        };
        parsed += 1;
        if let Some(message) = verdict {
            failures.fail(format!("{text}: refused ({message}), jaxlib parses it"));
            continue;
        }
        let ty = MemRefType::try_from(Type::parse(ctx.mlir(), text).unwrap()).unwrap();
        // Ours keeps the text; jaxlib prints its normal form (no spaces,
        // decimal), which is the text itself for most rows.
        failures.eq(format!("{text}: printed"), ty.to_string().as_str(), text);
        normal += usize::from(jax_printed == text);
        let map = ty.affine_map();
        let mut strides = vec![0i64; ty.rank()];
        let mut offset = 0i64;
        // SAFETY: the type is a live ranked memref and `strides` has its rank.
        let found = unsafe {
            mlir_sys::mlirMemRefTypeGetStridesAndOffset(
                ty.to_raw(),
                strides.as_mut_ptr(),
                &mut offset,
            )
        }
        .value
            != 0;
        if row["map"] == "abort" {
            failures.eq(format!("{text}: results of the map"), map.result_count(), 0);
            // (A map without results is the identity of a rank-0 memref.)
            failures.check(found == (ty.rank() == 0), || {
                format!("{text}: strides {strides:?}")
            });
            continue;
        }
        failures.eq(
            format!("{text}: affine map"),
            map.to_string().as_str(),
            row["map"].as_str().unwrap(),
        );
        match row["strides"].as_array() {
            Some(want) => {
                let want: Vec<i64> = want.iter().map(|s| s.as_i64().unwrap()).collect();
                failures.check(found, || format!("{text}: no strides, jaxlib {want:?}"));
                failures.eq(format!("{text}: strides"), strides, want);
                failures.eq(
                    format!("{text}: offset"),
                    offset,
                    row["offset"].as_i64().unwrap(),
                );
            }
            None => failures.check(!found, || {
                format!("{text}: strides {strides:?}, jaxlib none")
            }),
        }
    }
    failures.assert_none();
    assert!(
        parsed >= 40 && refused >= 10 && normal + 4 >= parsed,
        "{parsed} parsed ({normal} printed alike by jaxlib), {refused} refused"
    );
}

/// `vector.load` needs a unit-stride minor dimension, which MLIR reads from
/// the layout's affine map: as in jaxlib, an (8,128)-tiled memref has no
/// strides (refused), a (1,128)-tiled one has (accepted).
#[test]
fn vector_load_on_tiled_memrefs_as_jaxlib() {
    let ctx = Context::new();
    let load = |tiling: &str| {
        let memref = format!("memref<16x128xf32, #tpu.tiled<{tiling}>, #tpu.memory_space<vmem>>");
        format!(
            "func.func @f(%a: {memref}) {{\n  %c0 = arith.constant 0 : index\n  \
             %0 = vector.load %a[%c0, %c0] : {memref}, vector<8x128xf32>\n  return\n}}\n"
        )
    };
    for (tiling, want) in [
        (
            "(8,128),[1,1]",
            Some("'vector.load' op most minor memref dim must have unit stride"),
        ),
        (
            "(8,128)(2,1),[1,1]",
            Some("'vector.load' op most minor memref dim must have unit stride"),
        ),
        ("(1,128),[1,1]", None),
        (",[?,1]", None),
    ] {
        let got = first_message(Kernel::from_text(&ctx, &load(tiling), "load.mlir"));
        assert_eq!(got.as_deref(), want, "{tiling}");
    }
}

/// A stride count other than the memref's rank is refused while parsing,
/// with jaxlib's message at the type's position, by the library and the CLI
/// (an error, not an abort).
#[test]
fn tiled_layout_of_the_wrong_rank_is_refused() {
    let ctx = Context::new();
    let text = tiled_kernel().replacen(
        "memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>",
        "memref<8x128xf32, #tpu.tiled<(8,128),[1]>",
        1,
    );
    match Kernel::from_text(&ctx, &text, "rank.mlir") {
        Err(KernelError::Parse { diagnostics, .. }) => {
            let d = &diagnostics[0];
            assert_eq!(d.message, "Layout rank does not match shape rank");
            assert!(d.location.contains(":2:"), "{}", d.location);
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    let (code, stdout, stderr) = run_cli_stdin(&["kernel", "-"], Some(text.as_bytes()));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("error: Layout rank does not match shape rank"),
        "{stderr}"
    );
}

/// `emit` lowers the tiled kernel to a module, and real jaxlib parses and
/// verifies it and JAX's checker accepts the call (its body decoded by the
/// real Mosaic serde pass).
#[test]
fn jaxlib_accepts_the_emitted_tiled_kernel() {
    let (code, module, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/tiled.mlir",
        "--signature",
        "(tensor<16x128xf32>) -> tensor<8x128xf32>",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let module = String::from_utf8(module).unwrap();
    assert!(module.contains("stablehlo.custom_call"), "{module}");
    let Some(python) = jaxref_python("jaxlib_accepts_the_emitted_tiled_kernel") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-tiled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiled.mlir");
    std::fs::write(&path, &module).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (script, args) in [
        (root.join("scripts/jaxref/verify_modules.py"), vec![]),
        (jaxref_dir().join("check_body.py"), vec!["-q"]),
    ] {
        let out = std::process::Command::new(&python)
            .arg(&script)
            .args(args)
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}:\n{}\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
