//! Emitting for the libtpu a runtime has (issue 38): the table of release
//! facts against its measurements (`data/libtpu/releases.json`), what
//! `--libtpu-version` changes and refuses, and the fixture kernels emitted for
//! real older and newer releases and compiled by each of them
//! (`make refs` installs them; a release not installed prints `SKIPPED ...`).

use std::path::PathBuf;

use serde_json::Value as Json;
use tpu_custom_call::compile::{self, CompileOptions, Compiler, Verdict};
use tpu_custom_call::libtpu::releases::{
    self, LibtpuVersion, Needs, RELEASES, ReleaseError, SparseCore,
};
use tpu_custom_call::target::Chip;
use tpu_custom_call::{Context, Kernel, PrintOptions, kernel};

use crate::common::oneshot::{self, LowerOptions};
use crate::common::*;
use crate::lower::golden_calls;

/// The releases the suite compiles with besides 0.0.50.1 (`make refs`):
/// two older ones (no `debug_locations` field; no MLIR 24 encodings, IR up to
/// 15) and the newest.
pub const TESTED_RELEASES: [&str; 3] = ["0.0.42.1", "0.0.47.1", "0.0.52"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The installed libtpu.so of `release`, or `None` (printing SKIPPED).
fn installed(test: &str, release: &str) -> Option<PathBuf> {
    let path = compile::release_libtpu_path(release)?;
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED {test} for libtpu {release}: no {} (make refs, or scripts/libtpu/install-release.sh {release})",
            path.display()
        );
        None
    }
}

/// Every row of the table is what `scripts/libtpu/releases.py` measured, and
/// every release it measured is a row.
#[test]
fn release_table_is_the_measurement() {
    let data: Json = serde_json::from_str(
        &std::fs::read_to_string(root().join("data/libtpu/releases.json")).unwrap(),
    )
    .unwrap();
    let measured = data["releases"].as_object().unwrap();
    let mut failures = Failures::new();
    failures.eq(
        "releases",
        RELEASES.iter().map(|r| r.version).collect::<Vec<_>>(),
        measured.keys().map(String::as_str).collect::<Vec<_>>(),
    );
    for (version, row) in measured {
        let Some(release) = releases::find(version) else {
            continue;
        };
        let facts = &row["facts"];
        let pjrt = row["pjrt_api"].as_str().unwrap_or("");
        failures.eq(
            format!("{version} pjrt_api"),
            release.pjrt_api_text(),
            pjrt.to_string(),
        );
        failures.eq(
            format!("{version} highest_ir_version"),
            Json::from(release.highest_ir_version),
            facts["highest_ir_version"].clone(),
        );
        failures.eq(
            format!("{version} debug_locations_field"),
            Json::from(release.debug_locations_field),
            facts["debug_locations_field"].clone(),
        );
        failures.eq(
            format!("{version} llvm24_encodings"),
            Json::from(release.llvm24_encodings),
            facts["llvm24_encodings"].clone(),
        );
        let sparse_core = match release.sparse_core {
            SparseCore::Refused => "refused",
            SparseCore::Megachip => "megachip",
            SparseCore::CoreIds => "core_ids",
        };
        failures.eq(
            format!("{version} sparse_core"),
            Json::from(sparse_core),
            facts["sparse_core"].clone(),
        );
        failures.eq(
            format!("{version} opt levels"),
            Json::from(
                release
                    .sc_opt_levels
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>(),
            ),
            facts["opt_levels"].clone(),
        );
        failures.eq(
            format!("{version} build epoch"),
            Json::from(release.build_epoch),
            row["build"]["epoch"].clone(),
        );
        // Each accepted version range is contiguous from 11 to the newest.
        let accepted: Vec<u32> = facts["ir_versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let expected: Vec<u32> = (11..=release.highest_ir_version.min(18)).collect();
        failures.eq(format!("{version} ir_versions"), expected, accepted);
    }
    failures.assert_none();
}

/// The default release, given or not, changes no byte of any golden call's
/// emission; the options' defaults are the default release.
#[test]
fn default_release_changes_nothing() {
    assert_eq!(
        LibtpuVersion::default().version(),
        releases::DEFAULT_RELEASE
    );
    assert_eq!(
        tpu_custom_call::lower::LowerOptions::default().libtpu,
        LibtpuVersion::default()
    );
    let explicit = LibtpuVersion::parse("0.0.50.1").unwrap();
    let mut failures = Failures::new();
    for call in golden_calls() {
        let name = call.name();
        let ctx = Context::new();
        let kernel = Kernel::from_text(
            &ctx,
            &std::fs::read_to_string(call.kernel_path()).unwrap(),
            &name,
        )
        .unwrap();
        let types = |t: Vec<String>| -> Vec<_> {
            t.iter()
                .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
                .collect()
        };
        let (operands, results) = (types(call.operand_types()), types(call.result_types()));
        let emit = |libtpu: LibtpuVersion| {
            let base = libtpu.default_params();
            let params = tpu_custom_call::Params::from_json_all_over(
                &std::fs::read(call.params_path()).unwrap(),
                base,
            )
            .unwrap();
            oneshot::emit_module(
                &ctx,
                &kernel,
                &params,
                &operands,
                &results,
                &LowerOptions {
                    jax_rules_only: true,
                    libtpu,
                    ..LowerOptions::default()
                },
            )
            .map(|m| kernel::print_module(&m, PrintOptions::default()).unwrap())
            .map_err(|e| e.to_string())
        };
        let plain = oneshot::emit_module(
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
        .map(|m| kernel::print_module(&m, PrintOptions::default()).unwrap())
        .map_err(|e| e.to_string());
        failures.eq(name, plain, emit(explicit.clone()));
    }
    // The CLI: the same bytes with the default release named or not, for
    // every front end that emits.
    let sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let base = [
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        sig,
        "--params",
        "mlir-fixtures/params/add_basic.json",
    ];
    let (_, plain, _) = run_cli(&base);
    let mut named = base.to_vec();
    named.extend(["--libtpu-version", "0.0.50.1"]);
    let (code, explicit_out, stderr) = run_cli(&named);
    failures.check(code == 0 && stderr.is_empty(), || {
        format!("emit 0.0.50.1: {stderr}")
    });
    failures.eq("emit --libtpu-version 0.0.50.1", plain, explicit_out);
    failures.assert_none();
}

/// Release strings: exact rows, releases between rows and newer ones (the
/// nearest older row's facts, with a warning), and usage errors naming the
/// known releases for the rest, in every front end; nothing written.
#[test]
fn release_strings_and_usage_errors() {
    let newest = RELEASES.last().unwrap().version;
    let v = LibtpuVersion::parse("0.0.44").unwrap();
    assert_eq!(v.release().version, "0.0.43.2");
    assert!(v.warning().unwrap().contains("0.0.43.2"));
    assert_eq!(
        LibtpuVersion::parse("0.0.60").unwrap().release().version,
        newest
    );
    assert!(matches!(
        LibtpuVersion::parse("0.0.7"),
        Err(ReleaseError::TooOld { .. })
    ));
    let dir = std::env::temp_dir().join(format!("tcc-releases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.mlir");
    let out_s = out.to_str().unwrap();
    let sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let mut failures = Failures::new();
    for bad in ["latest", "0.0.50.1.1", "0.0", "0.0.7", "v0.0.52", ""] {
        for args in [
            vec![
                "emit",
                "mlir-fixtures/kernels/add.mlir",
                "--signature",
                sig,
                "-o",
                out_s,
            ],
            vec!["validate", "mlir-fixtures/params/add_basic.json"],
            vec![
                "compile",
                "tests/data/jax-goldens/add_basic/module.mlir",
                "--target",
                "v5e",
            ],
        ] {
            let flag = format!("--libtpu-version={bad}");
            let mut args = args.clone();
            args.push(&flag);
            let (code, stdout, stderr) = run_cli(&args);
            failures.check(
                code == 2
                    && stdout.is_empty()
                    && stderr.contains(newest)
                    && stderr.contains("0.0.35"),
                || format!("{args:?}: exit {code}, stderr {stderr}"),
            );
            failures.check(!out.exists(), || format!("{args:?} wrote {out_s}"));
        }
    }
    // The lower pass's option: an error naming the releases.
    let (code, _, stderr) = run_cli(&[
        "opt",
        "mlir-fixtures/pipeline/three_calls.mlir",
        "--pass-pipeline",
        "builtin.module(tpu-custom-call-lower{libtpu-version=0.0.x})",
    ]);
    failures.check(code != 0 && stderr.contains(newest), || {
        format!("opt libtpu-version=0.0.x: exit {code}: {stderr}")
    });
    // A release between rows: emitted with the older row's facts, and a warning.
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        sig,
        "--libtpu-version",
        "0.0.48.5",
    ]);
    failures.check(
        code == 0
            && stderr.contains("warning: libtpu 0.0.48.5 is not among the releases measured")
            && stderr.contains("0.0.48.1"),
        || format!("0.0.48.5: exit {code}: {stderr}"),
    );
    failures.check(
        !String::from_utf8_lossy(&stdout).contains("debug_locations"),
        || "0.0.48.5 got a debug_locations field".to_string(),
    );
    std::fs::remove_dir_all(&dir).unwrap();
    failures.assert_none();
}

/// The backend config of the one call of an emitted module.
fn config_of(module: &[u8]) -> String {
    let text = String::from_utf8_lossy(module);
    let start = text.find("backend_config = \"").unwrap() + "backend_config = \"".len();
    let end = text[start..].find("\", ").unwrap() + start;
    text[start..end].replace("\\22", "\"").replace("\\0A", "\n")
}

/// What `--libtpu-version` emits (serialization version, debug locations,
/// SparseCore config form) and what it refuses, saying which release first
/// accepts it; `inspect` and `validate MODULE` name the oldest release.
#[test]
fn emission_per_release_and_refusals() {
    let add = [
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
    ];
    let sc = golden_calls()
        .into_iter()
        .find(|c| c.name() == "sparsecore_vector_1core")
        .unwrap();
    let (sc_kernel, sc_sig, sc_params) = (
        sc.kernel_path().to_str().unwrap().to_string(),
        sc.signature(),
        sc.params_path().to_str().unwrap().to_string(),
    );
    let sc_args = [
        "emit",
        sc_kernel.as_str(),
        "--signature",
        sc_sig.as_str(),
        "--params",
        sc_params.as_str(),
    ];
    let run = |base: &[&str], extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        run_cli(&args)
    };
    let inspect = |module: &[u8]| -> Json {
        let (code, stdout, stderr) = run_cli_stdin(&["inspect", "-", "--json"], Some(module));
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_slice::<Json>(&stdout).unwrap()[0].clone()
    };
    let mut failures = Failures::new();
    // (release, ir_version, debug_locations field, oldest release inspect names)
    for (release, ir, field, oldest) in [
        ("0.0.52", 15, true, "0.0.50"),
        ("0.0.50.1", 15, true, "0.0.50"),
        ("0.0.47.1", 15, false, "0.0.42"),
        ("0.0.42.1", 15, false, "0.0.42"),
        ("0.0.41", 13, false, "0.0.41"),
        ("0.0.38", 11, false, "0.0.38"),
    ] {
        let (code, stdout, stderr) = run(&add, &["--libtpu-version", release]);
        if code != 0 {
            failures.check(false, || format!("add for {release}: {stderr}"));
            continue;
        }
        let config = config_of(&stdout);
        failures.eq(
            format!("add for {release}: debug_locations field"),
            field,
            config.contains("\"debug_locations\""),
        );
        let call = inspect(&stdout);
        failures.eq(
            format!("add for {release}: ir_version"),
            Json::from(ir),
            call["ir_version"].clone(),
        );
        failures.eq(
            format!("add for {release}: oldest libtpu"),
            Json::from(oldest),
            call["oldest_libtpu"]["release"].clone(),
        );
        // What was emitted for a release, that release compiles (validate MODULE).
        let (code, stdout_v, stderr_v) = run_cli_stdin(
            &["validate", "-", "--libtpu-version", release],
            Some(&stdout),
        );
        failures.check(
            code == 0
                && String::from_utf8_lossy(&stdout_v)
                    .contains(&format!("compiles with libtpu {oldest} or newer")),
            || {
                format!(
                    "validate for {release}: exit {code}: {} {stderr_v}",
                    String::from_utf8_lossy(&stdout_v)
                )
            },
        );
    }
    // The default emission on an older release: validate MODULE says why not.
    let (_, default_module, _) = run(&add, &[]);
    let (code, _, stderr) = run_cli_stdin(
        &["validate", "-", "--libtpu-version", "0.0.47.1"],
        Some(&default_module),
    );
    failures.check(
        code == 1
            && stderr.contains("libtpu 0.0.47.1 cannot compile it")
            && stderr.contains("`debug_locations` field")
            && stderr.contains("it needs libtpu 0.0.50 or newer"),
        || format!("validate default for 0.0.47.1: exit {code}: {stderr}"),
    );
    // Refusals, each naming the first release that accepts it; nothing written.
    for (extra, expected) in [
        (
            vec!["--libtpu-version", "0.0.47.1", "--ir-version", "17"],
            "ir_version 17 is above 16, the newest Mosaic serialization version libtpu 0.0.47.1 reads",
        ),
        (
            vec!["--libtpu-version", "0.0.47.1", "--ir-version", "17"],
            "`--libtpu-version 0.0.48`), the first that reads 17",
        ),
        (
            vec!["--libtpu-version", "0.0.47.1", "--debug-locations", "unzip"],
            "libtpu 0.0.47.1 has no `debug_locations` config field",
        ),
        (
            vec!["--libtpu-version", "0.0.42.1", "--bytecode-encodings", "24"],
            "or emit for libtpu 0.0.43.2 or newer",
        ),
        (
            vec!["--libtpu-version", "0.0.36"],
            "the first release that reads 11 is 0.0.38",
        ),
    ] {
        let (code, stdout, stderr) = run(&add, &extra);
        failures.check(
            code == 1 && stdout.is_empty() && stderr.contains(expected),
            || format!("{extra:?}: exit {code}, expected `{expected}` in {stderr}"),
        );
    }
    // SparseCore: megachip_parallelism_config before 0.0.50, core_ids from
    // it; refused where no SparseCore kernel compiles.
    for (release, form) in [
        ("0.0.52", "core_ids"),
        ("0.0.49", "megachip_parallelism_config"),
        ("0.0.41", "megachip_parallelism_config"),
    ] {
        let (code, stdout, stderr) = run(&sc_args, &["--libtpu-version", release]);
        failures.check(code == 0 && config_of(&stdout).contains(form), || {
            format!("SparseCore for {release}: exit {code}, expected {form}: {stderr}")
        });
    }
    let (code, _, stderr) = run(&sc_args, &["--libtpu-version", "0.0.40"]);
    failures.check(
        code == 1
            && stderr.contains("libtpu 0.0.40 compiles no SparseCore")
            && stderr.contains("0.0.41"),
        || format!("SparseCore for 0.0.40: exit {code}: {stderr}"),
    );
    // Needs of a call, straight: the oldest release per need.
    let needs = Needs {
        ir_version: 16,
        ..Needs::default()
    };
    assert_eq!(needs.oldest_release().unwrap().version, "0.0.47");
    failures.assert_none();
}

/// The SparseCore scan fixture without the layout passes: its 16-element
/// vectors are no v5p/v6e SparseCore register (8 lanes), which libtpu refuses
/// on every release (data/libtpu/sc_vreg_sweep.json); v7x (16 lanes) takes it.
#[test]
fn sparsecore_vectors_must_be_the_chips_register_shape() {
    let dir = std::env::temp_dir().join(format!("tcc-scvreg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("scan.json");
    std::fs::write(
        &params,
        r#"{"kernel_name": "sc_scan", "metadata": {}, "needs_layout_passes": false}"#,
    )
    .unwrap();
    let sig =
        "(tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xi32>)";
    let mut failures = Failures::new();
    for (chip, refused) in [("v5p", true), ("v6e", true), ("v7x", false)] {
        let (code, _, stderr) = run_cli(&[
            "emit",
            "mlir-fixtures/kernels/sc_scan_reduce.pretty.mlir",
            "--signature",
            sig,
            "--params",
            params.to_str().unwrap(),
            "--target",
            chip,
        ]);
        failures.eq(format!("{chip}: refused"), refused, code == 1);
        if refused {
            failures.check(
                stderr.contains("Result type is not a valid vmask or vreg type")
                    && stderr.contains("holds 8 32-bit elements"),
                || format!("{chip}: {stderr}"),
            );
        }
    }
    let sweep: Json = serde_json::from_str(
        &std::fs::read_to_string(root().join("data/libtpu/sc_vreg_sweep.json")).unwrap(),
    )
    .unwrap();
    // The sweep: without the layout passes, refused exactly where the vector
    // length is not the chip's lanes, on every release.
    for row in sweep["results"].as_array().unwrap() {
        let name = row["kernel"].as_str().unwrap();
        let Some(len) = name
            .split("vector<")
            .nth(1)
            .and_then(|r| r.split('x').next())
            .and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        let passes = name.ends_with("needs_layout_passes=true");
        for (release, chips) in row["verdicts"].as_object().unwrap() {
            for (chip, verdict) in chips.as_object().unwrap() {
                let lanes =
                    tpu_custom_call::libtpu::sc_vreg_lanes(chip.parse::<Chip>().unwrap()).unwrap();
                failures.eq(
                    format!("{name} on {chip} with {release}: refused"),
                    !passes && len != lanes,
                    !verdict.is_null(),
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    failures.assert_none();
}

/// Communicating kernels compile on 4 partitions.
fn communicates(name: &str) -> bool {
    ["remote_dma", "collective", "barrier", "tensorcore_mesh"]
        .iter()
        .any(|k| name.contains(k))
}

/// Every golden call emitted for each tested release (all rules, for v6e)
/// and compiled by that release: no version refusal, and each call that
/// compiles on 0.0.50.1 compiles there too; what the release cannot compile
/// was refused at emission, naming the first release that can.
#[test]
fn golden_calls_emitted_for_each_release_compile_with_it() {
    let test = "golden_calls_emitted_for_each_release_compile_with_it";
    let Some(reference) = installed(test, releases::DEFAULT_RELEASE) else {
        return;
    };
    let worker = PathBuf::from(env!("CARGO_BIN_EXE_tpu-custom-call"));
    let chip = Chip::V6e;
    let dir = std::env::temp_dir().join(format!("tcc-release-goldens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Emits every golden call for `release`; (name, module or emit error).
    let emit_all = |release: &LibtpuVersion| -> Vec<(String, Result<Vec<u8>, String>)> {
        golden_calls()
            .into_iter()
            .filter(|c| !c.name().starts_with("shape_poly"))
            .map(|call| {
                let name = call.name();
                let ctx = Context::new();
                let kernel = Kernel::from_text(
                    &ctx,
                    &std::fs::read_to_string(call.kernel_path()).unwrap(),
                    &name,
                )
                .unwrap();
                let types = |t: Vec<String>| -> Vec<_> {
                    t.iter()
                        .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
                        .collect()
                };
                let params = tpu_custom_call::Params::from_json_all_over(
                    &std::fs::read(call.params_path()).unwrap(),
                    release.default_params(),
                )
                .unwrap();
                let module = oneshot::emit_module(
                    &ctx,
                    &kernel,
                    &params,
                    &types(call.operand_types()),
                    &types(call.result_types()),
                    &LowerOptions {
                        target: Some(chip),
                        libtpu: release.clone(),
                        ..LowerOptions::default()
                    },
                )
                .map(|m| {
                    kernel::print_module(&m, PrintOptions::default())
                        .unwrap()
                        .into_bytes()
                })
                .map_err(|e| e.to_string());
                (name, module)
            })
            .collect()
    };
    // Compiles what was emitted with `libtpu`: name -> error (None: compiled).
    let compile_all = |libtpu: &PathBuf,
                       modules: &[(String, Result<Vec<u8>, String>)]|
     -> Vec<(String, Option<String>)> {
        let mut verdicts = Vec::new();
        for devices in [1, 4] {
            let mut compiler = Compiler::new(CompileOptions {
                chip,
                devices,
                libtpu: Some(libtpu.clone()),
                worker: Some(worker.clone()),
                ..Default::default()
            })
            .unwrap();
            for (name, module) in modules {
                let Ok(module) = module else { continue };
                if (devices == 4) != communicates(name) {
                    continue;
                }
                let verdict = compiler.compile(module).unwrap();
                verdicts.push((name.clone(), verdict.error()));
                if let Verdict::Crashed { .. } = verdict {
                    eprintln!("{name}: libtpu crashed");
                }
            }
        }
        verdicts
    };
    let _guard = crate::compile::LIBTPU
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let started = std::time::Instant::now();
    let default = LibtpuVersion::default();
    let reference_modules = emit_all(&default);
    let reference_verdicts = compile_all(&reference, &reference_modules);
    let compiled_on_reference: Vec<&String> = reference_verdicts
        .iter()
        .filter(|(_, e)| e.is_none())
        .map(|(n, _)| n)
        .collect();
    let mut failures = Failures::new();
    let mut compiles = reference_verdicts.len();
    for release in TESTED_RELEASES {
        let Some(libtpu) = installed(test, release) else {
            continue;
        };
        let version = LibtpuVersion::parse(release).unwrap();
        let modules = emit_all(&version);
        let verdicts = compile_all(&libtpu, &modules);
        compiles += verdicts.len();
        for (name, module) in &modules {
            if let Err(error) = module {
                // Refused for the release: the refusal names a first release.
                let default_ok = reference_modules
                    .iter()
                    .any(|(n, m)| n == name && m.is_ok());
                failures.check(
                    !default_ok || error.contains("--libtpu-version 0.0."),
                    || format!("{name} for {release}: refused without a release to use: {error}"),
                );
            }
        }
        let mut compiled = 0;
        for (name, error) in &verdicts {
            match error {
                None => compiled += 1,
                Some(message) => {
                    failures.check(
                        compile::fix_for_refusal(message, None, None).is_none(),
                        || format!("{name} emitted for {release}: a version refusal: {message}"),
                    );
                    failures.check(!compiled_on_reference.contains(&name), || {
                        format!(
                            "{name}: compiles on {} but not emitted for and compiled by {release}: {message}",
                            releases::DEFAULT_RELEASE
                        )
                    });
                }
            }
        }
        eprintln!(
            "{test}: libtpu {release}: {} emitted, {compiled} compiled of {} compiles",
            modules.iter().filter(|(_, m)| m.is_ok()).count(),
            verdicts.len()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!(
        "{test}: {compiles} compiles in {:.1} s ({} on {} compiled)",
        started.elapsed().as_secs_f64(),
        compiled_on_reference.len(),
        releases::DEFAULT_RELEASE
    );
    failures.assert_none();
}

/// `compile` and `emit --compile-check` name the libtpu they used, and a
/// version refusal carries the fix: JAX 0.12's default emission compiled by
/// an older release is refused for its `debug_locations` field, and the fix
/// is that release's `--libtpu-version`, which then compiles.
#[test]
fn compile_names_the_libtpu_and_the_fix() {
    let test = "compile_names_the_libtpu_and_the_fix";
    let Some(old) = installed(test, "0.0.47.1") else {
        return;
    };
    let _guard = crate::compile::LIBTPU
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let module = "tests/data/jax-goldens/add_basic/module.mlir";
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        module,
        "--target",
        "v5e",
        "--libtpu",
        old.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    // libtpu pads the words of its JSON errors with random spaces.
    let stderr = stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "no such field: 'debug_locations'",
        "by libtpu 0.0.47.1 (PJRT C API 0.114; release from its install record)",
        "fix: emit with `--libtpu-version 0.0.47.1` (or `--debug-locations inline`",
    ] {
        assert!(
            stderr.contains(expected),
            "expected `{expected}` in {stderr}"
        );
    }
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        module,
        "--target",
        "v5e",
        "--libtpu-version",
        "0.0.47.1",
        "--json",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let line: Json = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(line["libtpu"]["release"], "0.0.47.1", "{line}");
    assert_eq!(line["libtpu"]["pjrt_api"], "0.114", "{line}");
    assert!(
        line["fix"]
            .as_str()
            .unwrap()
            .contains("--libtpu-version 0.0.47.1"),
        "{line}"
    );
    // The fix applied: emitted for 0.0.47.1 and compiled by it (its install
    // found from --libtpu-version).
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--target",
        "v5e",
        "--libtpu-version",
        "0.0.47.1",
        "--compile-check",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.is_empty());
    assert!(
        stderr.contains("note: compiled for v5e by libtpu 0.0.47.1 (PJRT C API 0.114"),
        "{stderr}"
    );
    // A version beyond the release: refused with the version to use.
    let dir = std::env::temp_dir().join(format!("tcc-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("v18.mlir");
    let (code, _, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--ir-version",
        "18",
        "--debug-locations",
        "inline",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run_cli(&[
        "compile",
        path.to_str().unwrap(),
        "--target",
        "v5e",
        "--libtpu-version",
        "0.0.47.1",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("expected <= 16 but got 18")
            && stderr.contains("or `--ir-version 16`, the newest it reads"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// How the release of a library is read: its install record, its wheel's
/// metadata beside a pip install, else nothing (the build stamp of a file
/// that is no libtpu).
#[test]
fn release_of_a_library() {
    let dir = std::env::temp_dir().join(format!("tcc-identify-{}", std::process::id()));
    let site = dir.join("site-packages");
    std::fs::create_dir_all(site.join("libtpu")).unwrap();
    std::fs::create_dir_all(site.join("libtpu-0.0.47.1.dist-info")).unwrap();
    let so = site.join("libtpu/libtpu.so");
    std::fs::write(&so, b"not a library; Built on Jan  1 2026 00:00:00 (1) ").unwrap();
    let found = compile::identify_release(&so).unwrap();
    assert_eq!(found.version, "0.0.47.1");
    assert_eq!(found.source, compile::ReleaseSource::WheelMetadata);
    std::fs::write(site.join("libtpu/RELEASE"), "0.0.52\n").unwrap();
    let found = compile::identify_release(&so).unwrap();
    assert_eq!(
        (found.version.as_str(), found.source),
        ("0.0.52", compile::ReleaseSource::InstallRecord)
    );
    let lone = dir.join("lone.so");
    std::fs::write(&lone, b"xx Built on Jan  1 2026 00:00:00 (1) xx").unwrap();
    assert_eq!(compile::build_epoch(&lone), Some(1));
    assert_eq!(compile::identify_release(&lone), None);
    // A refusal's fix without a known release: from the PJRT version.
    let fix = compile::fix_for_refusal(
        "Failed to deserialize the Mosaic module: INTERNAL: Unsupported version: expected <= 15 but got 17",
        None,
        Some((0, 112)),
    )
    .unwrap();
    assert!(
        fix.contains("`--libtpu-version 0.0.42`") && fix.contains("--ir-version 15"),
        "{fix}"
    );
    assert_eq!(
        compile::fix_for_refusal("E1001: CompileTimeScopedVmemOom", None, None),
        None
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
