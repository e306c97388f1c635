//! The whole lowering, kernel + PARAMS.json -> op, against every JAX golden
//! call: backend_config byte for byte (with JAX's producer string and bytecode
//! encodings) and every other attribute as JAX printed it.

use crate::common::oneshot::LowerOptions;
use serde_json::Value as Json;
use tpu_custom_call::bytecode::Encodings;
use tpu_custom_call::lower::Lowerer;
use tpu_custom_call::validate::{self, Signature};
use tpu_custom_call::{Context, Kernel, Params, decode, melior};

use crate::common::*;

/// One golden call: its case folder and index (`""`, `.1`, ...).
pub struct GoldenCall {
    pub case: std::path::PathBuf,
    pub index: usize,
}

impl GoldenCall {
    fn suffix(&self) -> String {
        if self.index == 0 {
            String::new()
        } else {
            format!(".{}", self.index)
        }
    }
    pub fn name(&self) -> String {
        format!("{}{}", case_name(&self.case), self.suffix())
    }
    pub fn kernel_path(&self) -> std::path::PathBuf {
        self.case
            .join(format!("kernel_pre_serde{}.generic.mlir", self.suffix()))
    }
    pub fn backend_config(&self) -> Vec<u8> {
        std::fs::read(
            self.case
                .join(format!("backend_config{}.json", self.suffix())),
        )
        .unwrap()
    }
    pub fn params_path(&self) -> std::path::PathBuf {
        fixtures_dir().join(format!("params/{}.json", self.name()))
    }
    pub fn params(&self) -> Params {
        Params::from_json(&std::fs::read(self.params_path()).unwrap()).unwrap()
    }
    pub fn jax(&self) -> Json {
        let text = std::fs::read_to_string(self.case.join("custom_calls.json")).unwrap();
        serde_json::from_str::<Json>(&text).unwrap()[self.index].clone()
    }
    fn types(&self, key: &str) -> Vec<String> {
        self.jax()[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    }
    /// Operand types without the shape operands JAX appends for dynamic results.
    pub fn operand_types(&self) -> Vec<String> {
        let mut types = self.types("operand_types");
        if self.jax()["attributes"]
            .get("indices_of_shape_operands")
            .is_some()
        {
            let results = self.types("result_types").len();
            types.truncate(types.len() - results);
        }
        types
    }
    pub fn result_types(&self) -> Vec<String> {
        self.types("result_types")
    }
    /// The `--signature` text of the call.
    pub fn signature(&self) -> String {
        format!(
            "({}) -> ({})",
            self.operand_types().join(", "),
            self.result_types().join(", ")
        )
    }
}

/// Every call of every golden case.
pub fn golden_calls() -> Vec<GoldenCall> {
    let mut calls = Vec::new();
    for case in golden_cases() {
        let n = serde_json::from_str::<Json>(
            &std::fs::read_to_string(case.join("custom_calls.json")).unwrap(),
        )
        .unwrap()
        .as_array()
        .unwrap()
        .len();
        for index in 0..n {
            calls.push(GoldenCall {
                case: case.clone(),
                index,
            });
        }
    }
    calls
}

/// Validates a call and lowers it into a module (the first problem is the error).
fn emit_module<'c>(
    ctx: &'c Context,
    kernel: &Kernel<'c>,
    params: &Params,
    operands: &[melior::ir::Type<'c>],
    results: &[melior::ir::Type<'c>],
    options: &LowerOptions,
) -> Result<melior::ir::Module<'c>, String> {
    crate::common::oneshot::emit_module(ctx, kernel, params, operands, results, options)
        .map_err(|e| e.to_string())
}

fn jax_options() -> LowerOptions {
    LowerOptions {
        producer: Some("MLIR24.0.0git".to_string()),
        encodings: Encodings::Llvm24,
        jax_rules_only: true,
        ..LowerOptions::default()
    }
}

fn parse_types<'c>(ctx: &'c Context, types: &[String]) -> Vec<melior::ir::Type<'c>> {
    types
        .iter()
        .map(|t| melior::ir::Type::parse(ctx, t).unwrap())
        .collect()
}

/// The proof of compatibility: for every golden call, our lowering of JAX's
/// kernel with the golden's parameters gives JAX's backend_config byte for
/// byte, and an op whose every attribute prints as JAX's.
#[test]
fn every_golden_call_lowers_to_jax_bytes() {
    let mut failures = Failures::new();
    let calls = golden_calls();
    for call in &calls {
        let name = call.name();
        let ctx = Context::new();
        let text = std::fs::read_to_string(call.kernel_path()).unwrap();
        let Some(kernel) = failures.ok(&name, Kernel::from_text(&ctx, &text, &name)) else {
            continue;
        };
        let params = call.params();
        let operands = parse_types(&ctx, &call.operand_types());
        let results = parse_types(&ctx, &call.result_types());
        let Some(module) = failures.ok(
            &name,
            emit_module(&ctx, &kernel, &params, &operands, &results, &jax_options()),
        ) else {
            continue;
        };
        let Some(found) = failures.ok(
            format!("{name}: decoding"),
            decode::find_in_operation(module.as_operation()),
        ) else {
            continue;
        };
        let ours = &found[0];
        let golden = call.backend_config();
        if ours.backend_config.as_bytes() != golden.as_slice() {
            let path = std::env::temp_dir().join(format!("tcc-{name}.backend_config.json"));
            std::fs::write(&path, &ours.backend_config).unwrap();
            failures.bytes(
                format!("{name}: backend_config (ours in {})", path.display()),
                ours.backend_config.as_bytes(),
                &golden,
            );
        }
        let jax = call.jax();
        let attrs = jax["attributes"].as_object().unwrap();
        for (attr, value) in &ours.attributes {
            match attrs.get(attr) {
                Some(Json::String(jax_value)) if jax_value != value => {
                    failures.fail(format!("{name}: {attr} = {value}, JAX: {jax_value}"))
                }
                None => failures.fail(format!("{name}: extra attribute {attr}")),
                _ => {}
            }
        }
        for key in attrs.keys() {
            failures.check(ours.attribute(key).is_some(), || {
                format!("{name}: missing attribute {key}")
            });
        }
    }
    assert!(calls.len() >= 39);
    failures.assert_none();
}

/// `inspect` of JAX's own modules recovers parameters that reproduce each
/// call: lowering the golden kernel with them gives JAX's bytes again.
#[test]
fn decoded_params_of_jax_modules_reproduce_every_call() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for case in golden_cases() {
        let ctx = Context::new();
        let bytes = std::fs::read(case.join("module.mlir")).unwrap();
        let Some(decoded) = failures.ok(
            case_name(&case),
            decode::decode_module(&ctx, &bytes, "module.mlir"),
        ) else {
            continue;
        };
        for (index, call) in decoded.iter().enumerate() {
            checked += 1;
            let golden = GoldenCall {
                case: case.clone(),
                index,
            };
            let name = golden.name();
            // Params: lowering the pre-serde kernel with them gives JAX's config.
            let text = std::fs::read_to_string(golden.kernel_path()).unwrap();
            let Some(kernel) = failures.ok(&name, Kernel::from_text(&ctx, &text, &name)) else {
                continue;
            };
            let operands = parse_types(&ctx, &golden.operand_types());
            let results = parse_types(&ctx, &golden.result_types());
            let Some(module) = failures.ok(
                &name,
                emit_module(
                    &ctx,
                    &kernel,
                    &call.params,
                    &operands,
                    &results,
                    &jax_options(),
                ),
            ) else {
                continue;
            };
            if let Some(ours) = failures.ok(
                format!("{name}: decoding"),
                decode::find_in_operation(module.as_operation()),
            ) {
                failures.check(
                    ours[0].backend_config.as_bytes() == golden.backend_config().as_slice(),
                    || {
                        format!(
                            "{name}: params {} do not reproduce the config",
                            call.params.to_json()
                        )
                    },
                );
            }
        }
    }
    failures.assert_none();
    assert!(checked >= 39);
}

/// emit -> inspect -> emit is a fixed point, through the CLI.
#[test]
fn emit_inspect_emit_is_a_fixed_point() {
    let dir = std::env::temp_dir().join(format!("tcc-fixed-point-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Failures::new();
    let mut checked = 0;
    for call in golden_calls().into_iter().filter(|c| c.index == 0) {
        checked += 1;
        let name = call.name();
        let first = dir.join(format!("{name}.first.mlir"));
        let sig = call.signature();
        let mut ran = |step: &str, (code, out, stderr): (i32, Vec<u8>, String)| {
            failures.check(code == 0, || {
                format!("{name}: {step} exited {code}: {stderr}")
            });
            (code == 0).then_some(out)
        };
        let emitted = run_cli(&[
            "emit",
            "--jax-rules-only",
            call.kernel_path().to_str().unwrap(),
            "--signature",
            &sig,
            "--params",
            call.params_path().to_str().unwrap(),
            "-o",
            first.to_str().unwrap(),
        ]);
        if ran("emit", emitted).is_none() {
            continue;
        }
        let Some(json) = ran(
            "inspect --json",
            run_cli(&["inspect", first.to_str().unwrap(), "--json"]),
        ) else {
            continue;
        };
        let json: Json = serde_json::from_slice(&json).unwrap();
        let params = dir.join(format!("{name}.params.json"));
        std::fs::write(
            &params,
            serde_json::to_string_pretty(&json[0]["params"]).unwrap(),
        )
        .unwrap();
        let Some(kernel) = ran(
            "inspect --kernel",
            run_cli(&["inspect", first.to_str().unwrap(), "--kernel"]),
        ) else {
            continue;
        };
        let kernel_path = dir.join(format!("{name}.kernel.mlir"));
        std::fs::write(&kernel_path, kernel).unwrap();
        let second = dir.join(format!("{name}.second.mlir"));
        let emitted = run_cli(&[
            "emit",
            "--jax-rules-only",
            kernel_path.to_str().unwrap(),
            "--signature",
            &sig,
            "--params",
            params.to_str().unwrap(),
            "-o",
            second.to_str().unwrap(),
        ]);
        if ran("the second emit", emitted).is_none() {
            continue;
        }
        failures.text(
            format!("{name}: emit -> inspect -> emit"),
            &std::fs::read_to_string(&second).unwrap(),
            &std::fs::read_to_string(&first).unwrap(),
        );
    }
    failures.assert_none();
    assert!(checked >= 36);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every golden body (JAX's bytes, through the transcoder) deserializes to
/// the kernel jaxlib deserializes it to (`mlir-fixtures/serde/<case>/`, made
/// by jaxlib): without locations, and with the debug locations re-attached,
/// text for text (`tpu` ops get their inherent attributes back as properties,
/// `<{...}>`, as jaxlib's registered ops have them).
#[test]
fn golden_bodies_deserialize_to_jaxlibs_kernels() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for call in golden_calls() {
        checked += 1;
        let name = call.name();
        let suffix = if call.index == 0 {
            String::new()
        } else {
            format!(".{}", call.index)
        };
        let config = call.backend_config();
        let Some((config, _)) = failures.ok(
            format!("{name}: backend_config"),
            tpu_custom_call::BackendConfig::from_json(&config),
        ) else {
            continue;
        };
        let ctx = Context::new();
        let dir = fixtures_dir().join("serde").join(case_name(&call.case));
        for (with_locations, file) in [(false, "kernel"), (true, "kernel_locs")] {
            let options = tpu_custom_call::PrintOptions {
                generic: true,
                debug_info: with_locations,
            };
            let expected = dir.join(format!("{file}{suffix}.generic.mlir"));
            let Ok(expected) = std::fs::read_to_string(&expected) else {
                failures.fail(format!("{name}: missing {}", expected.display()));
                continue;
            };
            let Some(ours) = failures.ok(
                format!("{name} ({file})"),
                tpu_custom_call::deserialize(&ctx, &config.body, None)
                    .map_err(|e| e.to_string())
                    .and_then(|k| k.print(options).map_err(|e| e.to_string())),
            ) else {
                continue;
            };
            // Parsed and printed by the same printer as ours (alias numbering).
            let Some(expected) = failures.ok(
                format!("{name} ({file}, jaxlib's)"),
                Kernel::from_text(&ctx, &expected, "jaxlib").and_then(|k| k.print(options)),
            ) else {
                continue;
            };
            failures.text(
                format!("{name} ({file})"),
                ours.trim_end(),
                expected.trim_end(),
            );
        }
        // With the debug-locations blob re-attached: the kernel JAX
        // serialized, locations included (its version attribute aside).
        if let Some(blob) = config.debug_locations.as_deref() {
            let with_locations = tpu_custom_call::PrintOptions {
                generic: true,
                debug_info: true,
            };
            let Some(ours) = failures.ok(
                format!("{name} (re-attached locations)"),
                tpu_custom_call::deserialize(&ctx, &config.body, Some(blob))
                    .map_err(|e| e.to_string())
                    .and_then(|k| k.print(with_locations).map_err(|e| e.to_string())),
            ) else {
                continue;
            };
            let version = format!(
                ") {{stable_mosaic.version = {} : i64}} : () -> ()",
                call.params().ir_version.unwrap_or(18)
            );
            let ours = ours.replacen(&version, ") : () -> ()", 1);
            let jax = std::fs::read_to_string(call.kernel_path()).unwrap();
            failures.text(format!("{name} (re-attached locations)"), &ours, &jax);
        }
    }
    failures.assert_none();
    assert!(checked >= 39);
}

/// With a target: the SparseCore goldens lower unchanged on v5p and v7x and
/// fail as JAX would on v5e (no SparseCores); TensorCore goldens pass on v5e;
/// the 64 MiB vmem_limit golden warns on v4 (16 MiB of VMEM). Through the CLI.
#[test]
fn emit_with_a_target_checks_the_chip() {
    let mut failures = Failures::new();
    for call in golden_calls().into_iter().filter(|c| c.index == 0) {
        let name = call.name();
        let sparse = name.starts_with("sparsecore");
        let sig = call.signature();
        let kernel = call.kernel_path();
        let params = call.params_path();
        let emit = |target: &str| {
            run_cli(&[
                "emit",
                "--jax-rules-only",
                kernel.to_str().unwrap(),
                "--signature",
                &sig,
                "--params",
                params.to_str().unwrap(),
                "--target",
                target,
                "--producer",
                "MLIR24.0.0git",
                "--bytecode-encodings",
                "24",
            ])
        };
        if sparse {
            for chip in ["v5p", "v7x"] {
                let (code, out, stderr) = emit(chip);
                if code != 0 {
                    failures.fail(format!("{name} on {chip}: exit {code}: {stderr}"));
                    continue;
                }
                let ctx = Context::new();
                let Some(found) = failures.ok(
                    format!("{name} on {chip}: decoding"),
                    decode::find_calls(&ctx, &out, "emit"),
                ) else {
                    continue;
                };
                failures.bytes(
                    format!("{name} on {chip}: backend_config"),
                    found[0].backend_config.as_bytes(),
                    &call.backend_config(),
                );
            }
            let (code, out, stderr) = emit("v5e");
            failures.check(code == 1, || format!("{name} on v5e: exit {code}, not 1"));
            failures.check(out.is_empty(), || format!("{name} on v5e: wrote a module"));
            failures.check(
                stderr.contains("The current TPU does not have SparseCores"),
                || format!("{name} on v5e: {stderr}"),
            );
        } else if name == "vmem_limit" {
            // libtpu compiles a limit above the VMEM: a warning, not an error.
            let (code, _, stderr) = emit("v4");
            failures.check(code == 0, || format!("{name} on v4: exit {code}: {stderr}"));
            failures.check(
                stderr.contains(
                    "warning: `vmem_limit_bytes` = 64 MiB exceeds the 16 MiB of VMEM on v4",
                ),
                || format!("{name} on v4: {stderr}"),
            );
            let (code, _, stderr) = emit("v5p");
            failures.check(code == 0, || {
                format!("{name} on v5p: exit {code}: {stderr}")
            });
        }
    }
    failures.assert_none();
    // A chip name that is not one.
    let call = &golden_calls()[0];
    let (code, _, stderr) = run_cli(&[
        "emit",
        call.kernel_path().to_str().unwrap(),
        "--signature",
        &call.signature(),
        "--target",
        "v99",
    ]);
    assert_eq!(code, 2, "a bad --target value is a usage error: {stderr}");
    assert!(
        stderr.contains("v5e") && stderr.contains("v7x"),
        "lists the known chips: {stderr}"
    );
}

/// Real jaxlib (stablehlo registered) parses and verifies every module `emit`
/// writes for the goldens (default options: LLVM 22 encodings), and JAX's own
/// checker accepts each call: config fields, body decoded by the real Mosaic
/// serde pass, debug locations, attributes.
#[test]
fn jaxlib_accepts_every_emitted_module() {
    let Some(python) = jaxref_python("jaxlib_accepts_every_emitted_module") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-emitted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    let mut failures = Failures::new();
    for call in golden_calls().into_iter().filter(|c| c.index == 0) {
        let out = dir.join(format!("{}.mlir", call.name()));
        let (code, _, stderr) = run_cli(&[
            "emit",
            "--jax-rules-only",
            call.kernel_path().to_str().unwrap(),
            "--signature",
            &call.signature(),
            "--params",
            call.params_path().to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        if code == 0 {
            paths.push(out);
        } else {
            failures.fail(format!("{}: emit exited {code}: {stderr}", call.name()));
        }
    }
    failures.assert_none();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let verify = std::process::Command::new(&python)
        .arg(root.join("scripts/jaxref/verify_modules.py"))
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    let check = std::process::Command::new(&python)
        .arg(jaxref_dir().join("check_body.py"))
        .arg("-q")
        .args(&paths)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "check_body.py:\n{}\n{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Emission is deterministic: every golden call lowered on 8 threads at once
/// (one context each) gives exactly the bytes of a sequential run, twice.
#[test]
fn emission_is_deterministic_across_threads() {
    fn emit_all(calls: &[GoldenCall]) -> Vec<String> {
        calls
            .iter()
            .map(|call| {
                let ctx = Context::new();
                let text = std::fs::read_to_string(call.kernel_path()).unwrap();
                let kernel = Kernel::from_text(&ctx, &text, "k").unwrap();
                let operands = parse_types(&ctx, &call.operand_types());
                let results = parse_types(&ctx, &call.result_types());
                let module = emit_module(
                    &ctx,
                    &kernel,
                    &call.params(),
                    &operands,
                    &results,
                    &LowerOptions {
                        jax_rules_only: true,
                        ..LowerOptions::default()
                    },
                )
                .unwrap();
                tpu_custom_call::kernel::print_module(
                    &module,
                    tpu_custom_call::PrintOptions::default(),
                )
                .unwrap()
            })
            .collect()
    }
    let calls = golden_calls();
    let names: Vec<String> = calls.iter().map(GoldenCall::name).collect();
    let sequential = emit_all(&calls);
    let mut failures = Failures::new();
    let mut compare = |run: &str, outputs: Vec<String>| {
        for ((name, ours), first) in names.iter().zip(&outputs).zip(&sequential) {
            failures.text(format!("{run}: {name}"), ours, first);
        }
        failures.eq(format!("{run}: outputs"), outputs.len(), sequential.len());
    };
    compare("the second sequential run", emit_all(&calls));
    let calls = std::sync::Arc::new(calls);
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let calls = std::sync::Arc::clone(&calls);
            std::thread::spawn(move || emit_all(&calls))
        })
        .collect();
    for (i, handle) in handles.into_iter().enumerate() {
        let outputs = handle.join().expect("a thread panicked");
        compare(&format!("thread {i}"), outputs);
    }
    failures.assert_none();
}

/// `emit_call` into a caller's own module: the op goes where asked, with the
/// caller's values; a bad call (alias out of range) leaves the module as it was.
#[test]
fn emit_call_into_a_callers_module_is_all_or_nothing() {
    use melior::ir::block::BlockLike;
    use melior::ir::operation::OperationLike;
    use melior::ir::{RegionLike, ValueLike};
    use tpu_custom_call::emit::InsertionPoint;

    let ctx = Context::new();
    let caller = r#"func.func @main(%x: tensor<8x128xf32>, %y: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = "test.marker"() : () -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}"#;
    let module = tpu_custom_call::kernel::parse_module_bytes(
        &ctx,
        caller.as_bytes(),
        "caller",
        tpu_custom_call::kernel::ModuleFormat::Text,
    )
    .unwrap();
    let func = module.body().first_operation().unwrap();
    let block = func.region(0).unwrap().first_block().unwrap();
    let marker = block.first_operation().unwrap();
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "add").unwrap();
    let operands = [
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    ];
    let result_type = marker.result(0).unwrap().r#type();
    let before =
        tpu_custom_call::kernel::print_module(&module, tpu_custom_call::PrintOptions::default())
            .unwrap();

    let mut bad =
        Params::from_json(br#"{"kernel_name": "_add_kernel", "input_output_aliases": [[5, 0]]}"#)
            .unwrap();
    let signature = || Signature::new(vec![result_type, result_type], vec![result_type]);
    let errors = validate::validate(&kernel, signature(), &bad, None).unwrap_err();
    assert!(
        errors[0].to_string().contains("input_output_aliases"),
        "{errors:?}"
    );
    let after =
        tpu_custom_call::kernel::print_module(&module, tpu_custom_call::PrintOptions::default())
            .unwrap();
    assert_eq!(before, after, "a failed emit_call changed the module");

    bad.input_output_aliases.clear();
    let call = validate::validate(&kernel, signature(), &bad, None).unwrap();
    let mut lowerer = Lowerer::new(tpu_custom_call::lower::LowerOptions::default());
    // Operands of other types than the validated ones: refused, nothing inserted.
    let wrong = [block.argument(0).unwrap().into()];
    let err = lowerer
        .emit_call(
            &call,
            InsertionPoint::Before(marker),
            marker.location(),
            &wrong,
            &[],
        )
        .unwrap_err();
    assert!(err.to_string().contains("validated with 2"), "{err}");
    let op = lowerer
        .emit_call(
            &call,
            InsertionPoint::Before(marker),
            marker.location(),
            &operands,
            &[],
        )
        .unwrap();
    assert!(
        op.next_in_block().is_some_and(|o| o == marker),
        "inserted before the marker"
    );
    assert!(module.as_operation().verify());
    let found = decode::find_in_operation(module.as_operation()).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kernel_name.as_deref(), Some("_add_kernel"));
}

/// A client that assembles its StableHLO as text (issue 47): every golden
/// call printed by `Lowerer::call_text` under the client's own value names,
/// pretty and generic, pasted into a module the test writes as such a client
/// would, reads back (our decoder) as JAX's call: backend_config byte for
/// byte and every attribute JAX wrote, as JAX printed it.
#[test]
fn call_text_pasted_into_a_clients_module_is_jaxs_call() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for call in golden_calls() {
        let name = call.name();
        let ctx = Context::new();
        let text = std::fs::read_to_string(call.kernel_path()).unwrap();
        let Some(kernel) = failures.ok(&name, Kernel::from_text(&ctx, &text, &name)) else {
            continue;
        };
        let (operand_types, result_types) = (call.operand_types(), call.result_types());
        let dynamic = result_types.iter().any(|t| t.contains('?'));
        let mut arg_types = operand_types.clone();
        if dynamic {
            // One shape tensor per result, as JAX appends them.
            arg_types.extend(
                result_types
                    .iter()
                    .map(|t| format!("tensor<{}xi32>", t.matches('x').count())),
            );
        }
        let signature = Signature::new(
            parse_types(&ctx, &operand_types),
            parse_types(&ctx, &result_types),
        );
        let Some(validated) = failures.ok(
            &name,
            validate::validate_with(
                &kernel,
                signature,
                &call.params(),
                None,
                &jax_options().rules(),
            )
            .map_err(|e| e[0].to_string()),
        ) else {
            continue;
        };
        let names: Vec<String> = (0..arg_types.len()).map(|i| format!("%in.{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        for generic in [false, true] {
            let what = format!("{name} (generic: {generic})");
            let Some(line) = failures.ok(
                &what,
                Lowerer::new(jax_options().lowering()).call_text(
                    &ctx,
                    &validated,
                    "%kernel_out",
                    &names,
                    generic,
                ),
            ) else {
                continue;
            };
            let returned = match result_types.len() {
                1 => "%kernel_out".to_string(),
                n => (0..n)
                    .map(|i| format!("%kernel_out#{i}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            let args: Vec<String> = names
                .iter()
                .zip(&arg_types)
                .map(|(n, t)| format!("{n}: {t}"))
                .collect();
            let module = format!(
                "module @client {{\n  func.func public @main({}) -> ({}) {{\n    {line}\n    return {returned} : {}\n  }}\n}}\n",
                args.join(", "),
                result_types.join(", "),
                result_types.join(", ")
            );
            let Some(found) = failures.ok(
                format!("{what}: the client's module\n{module}"),
                decode::find_calls(&ctx, module.as_bytes(), "client.mlir"),
            ) else {
                continue;
            };
            failures.bytes(
                format!("{what}: backend_config"),
                found[0].backend_config.as_bytes(),
                &call.backend_config(),
            );
            let jax = call.jax();
            let attrs = jax["attributes"].as_object().unwrap();
            for (attr, value) in &found[0].attributes {
                if let Some(Json::String(jax_value)) = attrs.get(attr) {
                    failures.check(jax_value == value, || {
                        format!("{what}: {attr} = {value}, JAX: {jax_value}")
                    });
                }
            }
            // Every attribute JAX wrote is there (reading a pretty op back
            // spells out the defaults an exported call leaves out).
            for key in attrs.keys() {
                failures.check(found[0].attribute(key).is_some(), || {
                    format!("{what}: missing attribute {key}")
                });
            }
            checked += 1;
        }
    }
    assert!(checked >= 78, "{checked} calls printed");
    failures.assert_none();
}

/// `Lowerer::call_text` refuses value names MLIR cannot read and operand
/// counts that are not the call's, before lowering anything.
#[test]
fn call_text_refuses_bad_value_names_and_counts() {
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "add.mlir").unwrap();
    let params = Params::from_json(br#"{"kernel_name": "_add_kernel"}"#).unwrap();
    let t = parse_types(&ctx, &["tensor<8x128xf32>".to_string()])[0];
    let call = validate::validate(&kernel, Signature::new([t, t], [t]), &params, None).unwrap();
    let mut lowerer = Lowerer::new(Default::default());
    for (result, operands, message) in [
        ("%0", &["%a", "b"][..], "`b` is not an MLIR value name"),
        ("%1x", &["%a", "%b"][..], "`%1x` is not an MLIR value name"),
        (
            "%r",
            &["%a", "%b c"][..],
            "`%b c` is not an MLIR value name",
        ),
        (
            "%r",
            &["%a"][..],
            "1 operand(s) given but the call was validated with 2",
        ),
    ] {
        let error = lowerer
            .call_text(&ctx, &call, result, operands, false)
            .unwrap_err()
            .to_string();
        assert!(error.contains(message), "{error}");
    }
    let line = lowerer
        .call_text(&ctx, &call, "%sum.0", &["%x", "%arg7"], false)
        .unwrap();
    assert!(
        line.starts_with("%sum.0 = stablehlo.custom_call @tpu_custom_call(%x, %arg7) {"),
        "{line}"
    );
}
