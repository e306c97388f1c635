//! libtpu's parameter rules (`tpu_custom_call::libtpu`) against libtpu's own
//! verdicts: `data/libtpu/sweep.json` holds, for every golden call x
//! parameter variant x chip, what libtpu 0.0.50.1 said when it compiled our
//! emission without a target (`scripts/libtpu/sweep.py` made it). Lowering
//! with `--target CHIP` (here its library twin, `validate::problems`) must
//! refuse what libtpu refused and accept what it compiled on at least 97% of
//! the combinations. No libtpu is needed here.

use crate::common::oneshot as lower;
use serde_json::Value as Json;
use tpu_custom_call::libtpu::{self, LibtpuError, LibtpuWarning};
use tpu_custom_call::{Chip, Context, Kernel, Params, analyze};

use crate::common::*;
use crate::lower::{GoldenCall, golden_calls};

fn sweep() -> Json {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/libtpu/sweep.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A variant's patch applied to a call's PARAMS.json, as `sweep.py` does.
/// A golden call's kernel, parsed in `ctx`, and its parameters as JSON.
fn kernel_and_params<'c>(ctx: &'c Context, call: &GoldenCall) -> (Kernel<'c>, Json) {
    let text = std::fs::read_to_string(call.kernel_path()).unwrap();
    let kernel = Kernel::from_text(ctx, &text, &call.name()).unwrap();
    let base = serde_json::from_str(&std::fs::read_to_string(call.params_path()).unwrap()).unwrap();
    (kernel, base)
}

fn patched(base: &Json, patch: &Json, operands: usize, results: usize) -> Json {
    let mut params = base.clone();
    let object = params.as_object_mut().unwrap();
    for (key, value) in patch.as_object().unwrap() {
        if value.is_null() && key != "serialization_format" {
            object.remove(key);
            continue;
        }
        let value = match value.as_str().and_then(|s| s.strip_prefix('@')) {
            Some(spec) => {
                let (what, item) = spec.split_once(':').unwrap();
                let item = if item == "true" {
                    Json::Bool(true)
                } else {
                    Json::String(item.to_string())
                };
                let n = if what == "operands" {
                    operands
                } else {
                    results
                };
                Json::Array(vec![item; n])
            }
            None => value.clone(),
        };
        object.insert(key.clone(), value);
    }
    params
}

#[test]
fn target_lowering_agrees_with_libtpu_on_97_percent_of_the_sweep() {
    let sweep = sweep();
    let variants = &sweep["variants"];
    let calls = golden_calls();
    let mut agree = 0usize;
    let mut total = 0usize;
    let mut rest = Vec::new();
    let mut failures = Failures::new();
    for call in &calls {
        let name = call.name();
        // A shape-polymorphic module: libtpu aborts on its dynamic shapes
        // ("Check failed: !count_overflow") before any parameter is looked at;
        // JAX refines the shapes before it compiles.
        if name == "shape_poly_export" {
            continue;
        }
        let rows: Vec<&Json> = sweep["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["call"] == name.as_str() && r["emit_error"].is_null())
            .collect();
        if rows.is_empty() {
            continue;
        }
        let ctx = Context::new();
        let (kernel, base) = kernel_and_params(&ctx, call);
        let (operands, results) = (call.operand_types(), call.result_types());
        for row in rows {
            let variant = row["variant"].as_str().unwrap();
            let json = patched(&base, &variants[variant], operands.len(), results.len());
            let Some(params) = failures.ok(
                format!("{name} {variant}"),
                Params::from_json(json.to_string().as_bytes()),
            ) else {
                continue;
            };
            for (chip, verdict) in row["libtpu"].as_object().unwrap() {
                let Some(target) = failures.ok(chip, chip.parse::<Chip>()) else {
                    continue;
                };
                let ours = lower::validate_all(
                    Some(&kernel),
                    &params,
                    Some((&operands, &results)),
                    Some(target),
                );
                total += 1;
                if ours.is_empty() == verdict.is_null() {
                    agree += 1;
                } else {
                    rest.push(format!(
                        "{name} {variant} {chip}: ours {}; libtpu {}",
                        ours.first()
                            .map_or("accepts".to_string(), |e| format!("refuses ({e})")),
                        verdict
                            .as_str()
                            .map_or("compiles".to_string(), |m| format!("refuses: {m}"))
                    ));
                }
            }
        }
    }
    let figure = agree as f64 / total as f64 * 100.0;
    println!(
        "emit --target agrees with libtpu {LIB} on {agree} of {total} combinations ({figure:.1}%); the rest:\n{}",
        rest.join("\n"),
        LIB = libtpu::LIBTPU_VERSION
    );
    failures.assert_none();
    assert!(total > 5000, "only {total} combinations in the sweep");
    assert!(figure >= 97.0, "{figure:.1}% < 97%:\n{}", rest.join("\n"));
}

/// The flag list is libtpu's `FlagType` enum, and an unknown name gets the
/// closest known one.
#[test]
fn unknown_flag_names_are_refused_with_the_closest_known_name() {
    let names: Vec<&str> = libtpu::known_flag_names().collect();
    assert_eq!(names.len(), 26);
    assert!(names.contains(&"XLA_TPU_FORCE_LP_LLO_SCHEDULER"));
    assert_eq!(
        libtpu::closest_flag_name("xla_tpu_force_lp_llo_scheduler"),
        Some("XLA_TPU_FORCE_LP_LLO_SCHEDULER")
    );
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "add.mlir").unwrap();
    let facts = analyze(&kernel).unwrap();
    let params =
        Params::from_json(br#"{"flags": {"xla_tpu_force_lp_llo_schedular": true}}"#).unwrap();
    let found = libtpu::check(Some(&kernel), &facts, &params, None, None);
    assert_eq!(
        found.errors,
        vec![LibtpuError::UnknownFlag {
            name: "xla_tpu_force_lp_llo_schedular".into(),
            closest: Some("XLA_TPU_FORCE_LP_LLO_SCHEDULER".into()),
        }]
    );
    let message = found.errors[0].to_string();
    assert!(message.contains("unknown enum value: 'xla_tpu_force_lp_llo_schedular'"));
    assert!(message.contains("the closest name it knows is `XLA_TPU_FORCE_LP_LLO_SCHEDULER`"));
}

/// A `vmem_limit_bytes` above the chip's VMEM is a warning: the CLI emits the
/// module and says so on stderr.
#[test]
fn vmem_limit_above_the_chip_is_a_warning_on_stderr() {
    let dir = std::env::temp_dir().join(format!("tcc-w21-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("params.json");
    std::fs::write(&params, br#"{"vmem_limit_bytes": 209715200}"#).unwrap();
    let kernel = fixtures_dir().join("kernels/add.mlir");
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        kernel.to_str().unwrap(),
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--params",
        params.to_str().unwrap(),
        "--target",
        "v5p",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.is_empty());
    assert!(
        stderr
            .starts_with("warning: `vmem_limit_bytes` = 200 MiB exceeds the 64 MiB of VMEM on v5p"),
        "{stderr}"
    );
    let ctx = Context::new();
    let text = std::fs::read_to_string(&kernel).unwrap();
    let k = Kernel::from_text(&ctx, &text, "add.mlir").unwrap();
    let p = Params::from_json(br#"{"vmem_limit_bytes": 209715200}"#).unwrap();
    let found = libtpu::check(Some(&k), &analyze(&k).unwrap(), &p, None, Some(Chip::V5p));
    assert!(found.errors.is_empty());
    assert!(matches!(
        found.warnings[..],
        [LibtpuWarning::VmemLimitAbovePhysical { .. }]
    ));
    std::fs::remove_dir_all(&dir).ok();
}

/// The phrase of libtpu's message each rule quotes (`None`: libtpu aborts).
fn libtpu_phrase(error: &LibtpuError) -> Option<&'static str> {
    Some(match error {
        LibtpuError::InternalScratchTooSmall { .. } => "needs to be at least 36864 bytes",
        LibtpuError::ScLayoutPassUnsupportedOp { .. } => "Mosaic-SC infer-vector-layout pass",
        LibtpuError::TcLayoutPassUnsupportedOp { .. } => "in infer-vector-layout pass",
        LibtpuError::NarrowScalarIntegerOp { libtpu, .. } => {
            if libtpu.contains("scalars are supported") {
                "Only i1 and i32 scalars are supported"
            } else {
                "Please cast your input to i32"
            }
        }
        LibtpuError::UnsupportedSerializationFormat { .. } => "Unsupported serialization format",
        LibtpuError::SerializationFormatNull => "No function with tpu.core_type = tc",
        LibtpuError::UnknownFlag { .. } => "unknown enum value",
        LibtpuError::VmemOnSparseCore { .. } => "xla_msa_enable()",
        LibtpuError::CustomBarrierWithoutCommunication { .. } => "Custom barrier requested",
        LibtpuError::ScSmemOutput { .. } => "must refer to core-local memory spaces",
        LibtpuError::SmemOutputNotInKernelSmem { .. } => "Smem outputs must have memory space",
        LibtpuError::AliasHalfColored { libtpu, .. } => {
            if libtpu.contains("outputs that alias") {
                "All outputs that alias with colored operands must be colored"
            } else {
                "All operands that alias with colored outputs must be colored"
            }
        }
        _ => return None,
    })
}

/// Where our first error is one of libtpu's rules and libtpu refused too,
/// libtpu's message is the one the rule quotes (or libtpu aborted).
#[test]
fn libtpu_rule_messages_quote_what_libtpu_said() {
    let sweep = sweep();
    let variants = &sweep["variants"];
    let (mut same, mut checked, mut other) = (0, 0, Vec::new());
    let mut failures = Failures::new();
    for call in golden_calls() {
        let name = call.name();
        if name == "shape_poly_export" {
            continue; // libtpu aborts on its dynamic shapes first (see above)
        }
        let ctx = Context::new();
        let (kernel, base) = kernel_and_params(&ctx, &call);
        let (operands, results) = (call.operand_types(), call.result_types());
        for row in sweep["results"].as_array().unwrap() {
            if row["call"] != name.as_str() || !row["emit_error"].is_null() {
                continue;
            }
            let variant = row["variant"].as_str().unwrap();
            let json = patched(&base, &variants[variant], operands.len(), results.len());
            let Some(params) = failures.ok(
                format!("{name} {variant}"),
                Params::from_json(json.to_string().as_bytes()),
            ) else {
                continue;
            };
            for (chip, verdict) in row["libtpu"].as_object().unwrap() {
                let Some(message) = verdict.as_str() else {
                    continue;
                };
                let Some(target) = failures.ok(chip, chip.parse::<Chip>()) else {
                    continue;
                };
                let ours = lower::validate_all(
                    Some(&kernel),
                    &params,
                    Some((&operands, &results)),
                    Some(target),
                );
                let Some(tpu_custom_call::Error::Libtpu(first)) = ours.first() else {
                    continue;
                };
                checked += 1;
                let quoted = libtpu_phrase(first);
                if quoted.map_or(message.starts_with("libtpu crashed"), |q| {
                    message.contains(q)
                }) {
                    same += 1;
                } else {
                    other.push(format!(
                        "{name} {variant} {chip}: ours {first}; libtpu: {message}"
                    ));
                }
            }
        }
    }
    println!(
        "{same} of {checked} libtpu refusals are the rule's message; the others (libtpu met another \
         problem first):\n{}",
        other.join("\n")
    );
    failures.assert_none();
    assert!(checked > 1000);
    assert!(same * 100 >= checked * 95, "{same} of {checked}");
}
