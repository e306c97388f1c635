//! Backend config, PARAMS.json and validation against the JAX goldens, the
//! spec's observed `to_json` outputs, `errors.json`, and real jaxlib.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use tpu_custom_call::analysis::KernelFacts;
use tpu_custom_call::config::json::{
    JsonSyntaxError, JsonValue, parse_json, python_float_repr, write_compact_json,
};
use tpu_custom_call::params::ParamsCostEstimate;
use tpu_custom_call::{
    BackendConfig, CostEstimate, DeviceType, FlagValue, MemorySpace, OptLevel, ParamKey, Params,
    ParamsError, RuleError, Tiling, WriteError, lower_config,
};

use crate::common::{self, case_name, fixtures_dir, golden_cases, goldens_dir};

/// One `tpu_custom_call` of a golden case.
struct GoldenCall {
    case: String,
    dir: PathBuf,
    /// "" for the first call, ".1" for the second...
    suffix: String,
    config_bytes: Vec<u8>,
    custom_call: serde_json::Value,
}

fn golden_calls() -> Vec<GoldenCall> {
    let mut out = Vec::new();
    for dir in golden_cases() {
        let calls: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("custom_calls.json")).unwrap()).unwrap();
        for call in calls.as_array().unwrap() {
            let index = call["index"].as_u64().unwrap() as usize;
            let suffix = if index == 0 {
                String::new()
            } else {
                format!(".{index}")
            };
            let config_bytes =
                std::fs::read(dir.join(format!("backend_config{suffix}.json"))).unwrap();
            out.push(GoldenCall {
                case: case_name(&dir),
                dir: dir.clone(),
                suffix,
                config_bytes,
                custom_call: call.clone(),
            });
        }
    }
    assert!(
        out.len() >= 39,
        "expected every golden call, found {}",
        out.len()
    );
    out
}

impl GoldenCall {
    fn name(&self) -> String {
        format!("{}{}", self.case, self.suffix)
    }

    fn params(&self) -> Params {
        let path = fixtures_dir().join(format!("params/{}.json", self.name()));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Params::from_json(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The golden JSON as serde_json reads it (independently of our reader).
    fn config_value(&self) -> serde_json::Value {
        serde_json::from_slice(&self.config_bytes).unwrap()
    }

    /// Body and debug blob, base64-decoded straight from the golden JSON.
    fn blobs(&self) -> (Vec<u8>, Option<Vec<u8>>) {
        let v = self.config_value();
        let ccc = &v["custom_call_config"];
        let body = STANDARD.decode(ccc["body"].as_str().unwrap()).unwrap();
        let dbg = ccc
            .get("debug_locations")
            .map(|d| STANDARD.decode(d.as_str().unwrap()).unwrap());
        (body, dbg)
    }

    fn kernel_text(&self) -> String {
        std::fs::read_to_string(
            self.dir
                .join(format!("kernel_pre_serde{}.generic.mlir", self.suffix)),
        )
        .unwrap()
    }

    /// The facts the kernel shows: device type from `tpu.core_type`, the custom
    /// barrier from `tpu.sem_barrier`, the core count from the core-parallel
    /// iteration bound, communication from the golden config.
    fn facts(&self) -> KernelFacts {
        let kernel = self.kernel_text();
        let sc = kernel.contains("#tpu.core_type<sc_");
        let semantics = between(&kernel, "dimension_semantics = [", "]");
        let bounds = between(&kernel, "iteration_bounds = array<i64: ", ">");
        let active_core_count = semantics.and_then(|s| {
            let pos = s.split(", ").position(|d| d.contains("core_parallel>"))?;
            bounds?.split(", ").nth(pos)?.parse().ok()
        });
        KernelFacts {
            has_communication: self.config_value()["custom_call_config"]
                .get("has_communication")
                .is_some_and(|v| v.as_bool() == Some(true)),
            has_custom_barrier: kernel.contains("tpu.sem_barrier"),
            device_type: sc.then_some(DeviceType::SparseCore),
            active_core_count,
        }
    }

    fn types(&self, key: &str) -> Vec<String> {
        self.custom_call[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect()
    }

    fn ir_version(&self) -> Option<u32> {
        self.params().ir_version
    }
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

/// Every problem `validate` finds for a call of the TensorCore kernel
/// `mlir-fixtures/kernels/add.mlir` with these types (MLIR-printed).
fn validate_tc(params: &Params, ins: &[&str], outs: &[&str]) -> Vec<tpu_custom_call::Error> {
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/add.mlir")).unwrap();
    validate_text(&text, params, ins, outs)
}

/// Every problem `validate` finds for a call of the kernel `text`.
fn validate_text(
    text: &str,
    params: &Params,
    ins: &[&str],
    outs: &[&str],
) -> Vec<tpu_custom_call::Error> {
    let ctx = tpu_custom_call::Context::new();
    let kernel = tpu_custom_call::Kernel::from_text(&ctx, text, "kernel").unwrap();
    let parse = |types: &[&str]| -> Vec<tpu_custom_call::melior::ir::Type<'_>> {
        types
            .iter()
            .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
            .collect()
    };
    let signature = tpu_custom_call::Signature::new(parse(ins), parse(outs));
    // JAX's rules only: JAX's goldens hold calls libtpu refuses.
    match tpu_custom_call::validate_with(
        &kernel,
        signature,
        params,
        None,
        &tpu_custom_call::ValidateOptions::jax_rules_only(),
    ) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    }
}

/// The signature rules' problems among `validate`'s (they do not depend on
/// the kernel's facts).
fn signature_errors(params: &Params, ins: &[&str], outs: &[&str]) -> Vec<RuleError> {
    validate_tc(params, ins, outs)
        .into_iter()
        .filter_map(|e| match e {
            tpu_custom_call::Error::Rule(
                e @ (RuleError::AliasOperandOutOfRange { .. }
                | RuleError::AliasResultOutOfRange { .. }
                | RuleError::ResultAliasedTwice { .. }
                | RuleError::AliasTypeMismatch { .. }
                | RuleError::MemorySpaceConflict { .. }
                | RuleError::ListLength { .. }),
            ) => Some(e),
            _ => None,
        })
        .collect()
}

fn lowered(call: &GoldenCall) -> BackendConfig {
    try_lowered(call).unwrap_or_else(|e| panic!("{}: {e}", call.name()))
}

/// The config lowered from the call's params, or the lowering's message.
fn try_lowered(call: &GoldenCall) -> Result<BackendConfig, String> {
    let params = call.params();
    let (body, dbg) = call.blobs();
    lower_config(&params, &call.facts(), body, dbg, call.ir_version()).map_err(|e| e.to_string())
}

fn show(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    // Elide the long base64 blobs in failure messages.
    for (i, part) in text.split('"').enumerate() {
        if i > 0 {
            out.push('"');
        }
        if part.len() > 80 {
            out.push_str(&format!("<{} chars>", part.len()))
        } else {
            out.push_str(part)
        }
    }
    out
}

#[test]
fn every_golden_backend_config_is_rebuilt_byte_for_byte_from_its_params() {
    let mut failures = common::Failures::new();
    let mut checked = 0;
    for call in golden_calls() {
        checked += 1;
        let name = call.name();
        let params = call.params();
        let Some(config) = failures.ok(&name, try_lowered(&call)) else {
            continue;
        };
        let Some(json) = failures.ok(&name, config.to_json(params.use_core_ids())) else {
            continue;
        };
        failures.check(json.as_bytes() == call.config_bytes.as_slice(), || {
            format!(
                "{name}: built\n{}\nbut JAX wrote\n{}\n{}",
                show(json.as_bytes()),
                show(&call.config_bytes),
                common::bytes_diff(&call.config_bytes, json.as_bytes())
            )
        });
        // The writer allocated once: the capacity is still the size hint.
        failures.eq(
            format!("{name}: capacity vs size hint"),
            Some(json.capacity()),
            config.json_size_hint().ok(),
        );
    }
    failures.assert_none();
    assert!(checked >= 39);
}

#[test]
fn every_golden_call_signature_passes_the_signature_checks() {
    let mut failures = common::Failures::new();
    for call in golden_calls() {
        let params = call.params();
        let (ins, outs) = (call.types("operand_types"), call.types("result_types"));
        // Without the shape operands JAX appends for dynamic results.
        let shapes = if call.custom_call["attributes"]
            .get("indices_of_shape_operands")
            .is_some()
        {
            outs.len()
        } else {
            0
        };
        let ins: Vec<&str> = ins[..ins.len() - shapes]
            .iter()
            .map(String::as_str)
            .collect();
        let outs: Vec<&str> = outs.iter().map(String::as_str).collect();
        let all = validate_text(&call.kernel_text(), &params, &ins, &outs);
        failures.check(all.is_empty(), || format!("{}: {all:?}", call.name()));
    }
    failures.assert_none();
}

#[test]
fn every_golden_backend_config_reads_back_and_rewrites_identically() {
    let mut failures = common::Failures::new();
    for call in golden_calls() {
        let name = call.name();
        let (read, report) = match BackendConfig::from_json(&call.config_bytes) {
            Ok(read) => read,
            Err(e) => {
                failures.check(false, || format!("{name}: {e}"));
                continue;
            }
        };
        failures.eq(
            format!("{name}: unknown keys"),
            report.unknown_keys.len(),
            0,
        );
        let again = read.to_json(report.use_core_ids_or_default()).unwrap();
        failures.check(again.as_bytes() == call.config_bytes.as_slice(), || {
            format!("{name}: rewrote\n{}", show(again.as_bytes()))
        });

        // read(write(x)) == x for the config built from the params: it only
        // differs from its canonical form in the fields the JSON cannot carry.
        let built = lowered(&call);
        failures.eq(format!("{name}: read vs built"), &read, &built.canonical());
        let mut visible = built.clone();
        visible.ir_version = None;
        if !(visible.is_sparse_core() && visible.active_core_count == Some(1)) {
            visible.active_core_count = None;
        }
        failures.eq(format!("{name}: visible"), &visible, &built.canonical());
        let (reread, _) = BackendConfig::from_json(
            built
                .to_json(call.params().use_core_ids())
                .unwrap()
                .as_bytes(),
        )
        .unwrap();
        failures.eq(format!("{name}: reread"), &reread, &visible);

        // use_core_ids is recovered where the JSON shows it.
        let expected = call.custom_call["use_core_ids"].as_bool();
        failures.eq(
            format!("{name}: use_core_ids"),
            report.use_core_ids,
            expected,
        );
    }
    failures.assert_none();
}

#[test]
fn every_params_fixture_round_trips_through_its_canonical_form() {
    let mut failures = common::Failures::new();
    let mut n = 0;
    for call in golden_calls() {
        n += 1;
        let name = call.name();
        let params = call.params();
        let text = params.to_json();
        match Params::from_json(text.as_bytes()) {
            Ok(back) => failures.eq(format!("{name}: read back from\n{text}\n"), back, params),
            Err(e) => failures.fail(format!("{name}: {e}\n{text}")),
        }
        // The fixtures hold only non-default keys, so they are canonical up to key order.
        let fixture = std::fs::read(fixtures_dir().join(format!("params/{name}.json"))).unwrap();
        let keys = |bytes: &[u8]| match parse_json(bytes) {
            Ok(JsonValue::Object(m)) => {
                let mut k: Vec<String> = m.into_iter().map(|(k, _)| k).collect();
                k.sort();
                Ok(k)
            }
            Ok(_) => Err("not an object".to_string()),
            Err(e) => Err(format!("{e:?}")),
        };
        match (keys(text.as_bytes()), keys(&fixture)) {
            (Ok(canonical), Ok(fixture)) => failures.eq(
                format!("{name}: keys (canonical form, fixture)"),
                canonical,
                fixture,
            ),
            (canonical, fixture) => failures.fail(format!(
                "{name}: keys of the canonical form {canonical:?}, of the fixture {fixture:?}"
            )),
        }
    }
    failures.assert_none();
    assert!(n >= 39);
}

// ----- the spec's section 3.5 (observed to_json outputs) -----

fn spec_text() -> String {
    std::fs::read_to_string(common::data_dir().join("to_json_observed.md")).unwrap()
}

/// Decodes a Python bytes literal body (`\n`, `\\`, `\'`, `\"`).
fn python_bytes(literal: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chars = literal.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push(b'\n'),
                Some('\\') => out.push(b'\\'),
                Some('\'') => out.push(b'\''),
                Some('"') => out.push(b'"'),
                other => panic!("unexpected escape {other:?}"),
            }
        } else {
            out.push(c as u8);
        }
    }
    out
}

/// The rows of section 3.5: (name, use_core_ids, expected bytes).
fn spec_rows() -> Vec<(String, bool, Vec<u8>)> {
    let text = spec_text();
    let start = text.find("### 3.5 Observed `to_json` outputs").unwrap();
    let section = &text[start..];
    let section = &section[..section.find("Errors raised by `to_json`").unwrap()];
    let lines: Vec<&str> = section.lines().collect();
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(header) = line
            .strip_prefix("### ")
            .filter(|h| h.contains(" use_core_ids="))
        else {
            continue;
        };
        let (name, flag) = header.rsplit_once(" use_core_ids=").unwrap();
        let literal = lines[i + 1]
            .strip_prefix("b'")
            .and_then(|l| l.strip_suffix('\''))
            .unwrap();
        rows.push((name.to_string(), flag == "True", python_bytes(literal)));
    }
    rows
}

/// The config each row of section 3.5 was made from (body `b"BODY"`).
fn spec_row_config(name: &str) -> BackendConfig {
    use MemorySpace::*;
    let minimal = BackendConfig {
        body: b"BODY".to_vec(),
        serialization_format: None,
        needs_layout_passes: false,
        ..BackendConfig::default()
    };
    let sc = |active: Option<u64>| BackendConfig {
        device_type: Some(DeviceType::SparseCore),
        active_core_count: active,
        ..minimal.clone()
    };
    match name {
        "minimal(shape_invariant_numerics=True)" => minimal,
        "shape_invariant_numerics=False" => BackendConfig {
            shape_invariant_numerics: false,
            ..minimal
        },
        "pallas_default_tc" => BackendConfig {
            body: b"BODY".to_vec(),
            ..BackendConfig::default()
        },
        "has_comm+collective_id" => BackendConfig {
            has_communication: true,
            collective_id: Some(3),
            ..minimal
        },
        "collective_id=0" => BackendConfig {
            collective_id: Some(0),
            ..minimal
        },
        "cost_estimate" => BackendConfig {
            cost_estimate: Some(CostEstimate {
                flops: 10,
                transcendentals: 2,
                bytes_accessed: 300,
                remote_bytes_transferred: 0,
            }),
            ..minimal
        },
        "needs_hlo_passes" => BackendConfig {
            needs_hlo_passes: true,
            ..minimal
        },
        "serialization_format=0" => BackendConfig {
            serialization_format: Some(0),
            ..minimal
        },
        "allow_input_fusion" => BackendConfig {
            allow_input_fusion: Some(vec![true, false, true]),
            ..minimal
        },
        "allow_input_fusion_empty" => BackendConfig {
            allow_input_fusion: Some(vec![]),
            ..minimal
        },
        "internal_scratch" => BackendConfig {
            internal_scratch_in_bytes: Some(4096),
            ..minimal
        },
        "out_ms_single" => BackendConfig {
            output_memory_spaces: Some(vec![Some(Vmem)]),
            ..minimal
        },
        "out_ms_single_none" => BackendConfig {
            output_memory_spaces: Some(vec![None]),
            ..minimal
        },
        "out_ms_tuple" => BackendConfig {
            output_memory_spaces: Some(vec![
                Some(Hbm),
                None,
                Some(Smem),
                Some(SemaphoreMem),
                Some(Host),
            ]),
            ..minimal
        },
        "out_ms_tuple_all_none" => BackendConfig {
            output_memory_spaces: Some(vec![None, None]),
            ..minimal
        },
        "in_ms" => BackendConfig {
            input_memory_spaces: Some(vec![Some(Hbm), None, Some(Smem), Some(Vmem)]),
            ..minimal
        },
        "in_ms_only_smem" => BackendConfig {
            input_memory_spaces: Some(vec![Some(Smem)]),
            ..minimal
        },
        "disable_bounds" => BackendConfig {
            disable_bounds_checks: true,
            ..minimal
        },
        "disable_sem" => BackendConfig {
            disable_semaphore_checks: true,
            ..minimal
        },
        "skip_barrier" => BackendConfig {
            skip_device_barrier: true,
            ..minimal
        },
        "debug_locations" => BackendConfig {
            debug_locations: Some(b"DBG".to_vec()),
            ..minimal
        },
        "debug_locations_empty" => BackendConfig {
            debug_locations: Some(vec![]),
            ..minimal
        },
        "tc_device_type_explicit" => BackendConfig {
            device_type: Some(DeviceType::TensorCore),
            ..minimal
        },
        "sc_default" => sc(None),
        "sc_acc1" => sc(Some(1)),
        "sc_acc2" => sc(Some(2)),
        "sc_tiling_sc_opt" => BackendConfig {
            tiling: Some(Tiling::SparseCore),
            opt_level: Some(OptLevel::O2),
            ..sc(Some(1))
        },
        "vmem_limit" => BackendConfig {
            vmem_limit_bytes: Some(67108864),
            ..minimal
        },
        "flags" => BackendConfig {
            flags: Some(vec![
                ("xla_a".into(), FlagValue::Bool(true)),
                ("xla_b".into(), FlagValue::Int(7)),
                ("xla_c".into(), FlagValue::Double(0.5)),
                ("xla_d".into(), FlagValue::Bool(false)),
                ("xla_e".into(), FlagValue::Double(1e-7)),
                ("xla_f".into(), FlagValue::Double(1e20)),
            ]),
            ..minimal
        },
        "flags_empty" => BackendConfig {
            flags: Some(vec![]),
            ..minimal
        },
        "everything" => BackendConfig {
            body: b"BODY".to_vec(),
            ir_version: None,
            has_communication: true,
            collective_id: Some(1),
            device_type: Some(DeviceType::SparseCore),
            cost_estimate: Some(CostEstimate {
                flops: 1,
                transcendentals: 2,
                bytes_accessed: 3,
                remote_bytes_transferred: 4,
            }),
            needs_hlo_passes: true,
            needs_layout_passes: true,
            vmem_limit_bytes: Some(1024),
            flags: Some(vec![("f".into(), FlagValue::Int(1))]),
            allow_input_fusion: Some(vec![false, true]),
            serialization_format: Some(1),
            internal_scratch_in_bytes: Some(8),
            output_memory_spaces: Some(vec![Some(Vmem), Some(Hbm)]),
            disable_bounds_checks: true,
            disable_semaphore_checks: true,
            active_core_count: Some(1),
            input_memory_spaces: Some(vec![Some(Vmem), Some(Hbm)]),
            skip_device_barrier: true,
            shape_invariant_numerics: false,
            tiling: Some(Tiling::Compact),
            opt_level: Some(OptLevel::O0),
            debug_locations: Some(b"D".to_vec()),
            implicit_sharding: None,
        },
        other => panic!("section 3.5 has a row this test does not know: {other}"),
    }
}

#[test]
fn every_row_of_the_spec_to_json_table_is_reproduced() {
    let rows = spec_rows();
    assert_eq!(
        rows.len(),
        62,
        "section 3.5 should have 31 configs x 2 use_core_ids values"
    );
    let mut failures = common::Failures::new();
    for (name, use_core_ids, expected) in rows {
        let row = format!("{name} use_core_ids={use_core_ids}");
        let config = spec_row_config(&name);
        let Some(json) = failures.ok(&row, config.to_json(use_core_ids)) else {
            continue;
        };
        failures.bytes(&row, json.as_bytes(), &expected);
        // And back: the reader gives the canonical config and the same bytes.
        let Some((read, report)) = failures.ok(
            format!("{row}: reading it back"),
            BackendConfig::from_json(json.as_bytes()),
        ) else {
            continue;
        };
        failures.eq(format!("{row}: read back"), &read, &config.canonical());
        if let Some(again) = failures.ok(
            format!("{row}: rewriting"),
            read.to_json(report.use_core_ids_or_default()),
        ) {
            failures.bytes(
                format!("{row}: rewritten"),
                again.as_bytes(),
                json.as_bytes(),
            );
        }
    }
    failures.assert_none();
}

#[test]
fn spec_section_4_5_flag_and_body_edge_cases_match_jax() {
    // Lines `flag 1.0 -> b'...'` of section 4.5, produced by real to_json.
    let text = spec_text();
    let cases: [(&str, BackendConfig); 5] = [
        ("flag np.float64", flag_config(FlagValue::Double(0.5))),
        ("flag 1.0", flag_config(FlagValue::Double(1.0))),
        ("flag neg", flag_config(FlagValue::Int(-5))),
        ("flag 1e16", flag_config(FlagValue::Double(1e16))),
        (
            "flag 123456789.123",
            flag_config(FlagValue::Double(123456789.123)),
        ),
    ];
    let mut failures = common::Failures::new();
    for (label, config) in cases.into_iter().chain([("empty body", minimal_empty())]) {
        let prefix = format!("{label} -> b'");
        let Some(line) = text.lines().find(|l| l.starts_with(&prefix)) else {
            failures.fail(format!("no line {label}"));
            continue;
        };
        let expected = python_bytes(line[prefix.len()..].strip_suffix('\'').unwrap());
        if let Some(json) = failures.ok(label, config.to_json(true)) {
            failures.bytes(label, json.as_bytes(), &expected);
        }
    }
    failures.assert_none();
    // Where JAX writes invalid JSON (`inf`, `nan`) we refuse.
    for v in [f64::INFINITY, f64::NAN] {
        let err = flag_config(FlagValue::Double(v)).to_json(true).unwrap_err();
        assert!(matches!(err, WriteError::NonFiniteFlag { .. }), "{err:?}");
    }
}

fn minimal_empty() -> BackendConfig {
    BackendConfig {
        serialization_format: None,
        needs_layout_passes: false,
        ..BackendConfig::default()
    }
}

fn flag_config(value: FlagValue) -> BackendConfig {
    BackendConfig {
        flags: Some(vec![("f".into(), value)]),
        ..minimal_empty()
    }
}

#[test]
fn compact_json_matches_the_spec_samples_and_python_float_repr() {
    // `_compact_json_object` samples of section 3.5.
    let mut out = String::new();
    write_compact_json(&mut out, &JsonValue::Object(vec![]));
    assert_eq!(out, "{}");
    let mut out = String::new();
    let v = parse_json(br#"{"mesh_axes": "[\"x\", \"y\"]", "b": "c"}"#).unwrap();
    write_compact_json(&mut out, &v);
    assert_eq!(
        out,
        "{\n\"b\":\"c\",\n\"mesh_axes\":\"[\\\"x\\\", \\\"y\\\"]\"\n}"
    );
    // Python's repr(float) of the values the spec shows.
    let mut failures = common::Failures::new();
    for (v, s) in [
        (0.5, "0.5"),
        (1.0, "1.0"),
        (1e-7, "1e-07"),
        (1e20, "1e+20"),
        (1e16, "1e+16"),
        (123456789.123, "123456789.123"),
        (1e15, "1000000000000000.0"),
        (0.0001, "0.0001"),
        (-0.0, "-0.0"),
    ] {
        failures.eq(format!("repr({v:?})"), python_float_repr(v).as_str(), s);
    }
    // The reader's fast string scan stops at quotes, backslashes and control
    // characters wherever they fall in an 8-byte word.
    for pad in 0..17 {
        let a = "a".repeat(pad);
        let text = format!("[\"{a}\\\"{a}\\\\{a}\u{e9}\u{1F600}{a}\\n{a}\"]");
        let want = format!("{a}\"{a}\\{a}\u{e9}\u{1F600}{a}\n{a}");
        failures.eq(
            format!("pad {pad}"),
            parse_json(text.as_bytes()),
            Ok(JsonValue::Array(vec![JsonValue::String(want)])),
        );
        let raw_control = format!("[\"{a}\u{1}\"]");
        let raw = parse_json(raw_control.as_bytes());
        failures.check(
            matches!(raw, Err(JsonSyntaxError::Malformed { .. })),
            || format!("pad {pad}: {raw:?}"),
        );
    }
    failures.assert_none();
    // ensure_ascii escaping, as json.dumps does.
    let mut out = String::new();
    write_compact_json(
        &mut out,
        &parse_json("{\"k\u{e9}\": \"\u{1F600}\\n\u{7f}\"}".as_bytes()).unwrap(),
    );
    assert_eq!(out, "{\n\"k\\u00e9\":\"\\ud83d\\ude00\\n\\u007f\"\n}");
}

// ----- errors.json, the config layer's messages verbatim -----

fn errors_json() -> Vec<serde_json::Value> {
    let bytes = std::fs::read(goldens_dir().join("errors.json")).unwrap();
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn tc() -> KernelFacts {
    KernelFacts::default()
}

fn barrier() -> KernelFacts {
    KernelFacts {
        has_communication: true,
        has_custom_barrier: true,
        ..KernelFacts::default()
    }
}

fn sparse_core() -> KernelFacts {
    KernelFacts {
        device_type: Some(DeviceType::SparseCore),
        active_core_count: Some(1),
        ..KernelFacts::default()
    }
}

/// Runs a PARAMS.json through parsing, lowering and the signature checks of a
/// one-operand one-result call; the first error's message.
fn first_error(params_json: &str, facts: &KernelFacts) -> Option<String> {
    let params = match Params::from_json(params_json.as_bytes()) {
        Ok(p) => p,
        Err(e) => return Some(e.to_string()),
    };
    let ty = ["tensor<8x128xf32>"];
    if let Some(e) = signature_errors(&params, &ty, &ty).into_iter().next() {
        return Some(e.to_string());
    }
    lower_config(&params, facts, b"x".to_vec(), None, params.ir_version)
        .err()
        .map(|e| e.to_string())
}

/// errors.json cases of the config layer, and how we trigger them.
fn config_layer_cases() -> Vec<(&'static str, &'static str, KernelFacts)> {
    vec![
        (
            "collective_id_without_custom_barrier",
            r#"{"collective_id": 3}"#,
            tc(),
        ),
        (
            "collective_id_without_custom_barrier_allowed",
            r#"{"collective_id": 3, "allow_collective_id_without_custom_barrier": true}"#,
            tc(),
        ),
        ("custom_barrier_without_collective_id", "{}", barrier()),
        (
            "custom_barrier_with_collective_id",
            r#"{"collective_id": 0}"#,
            barrier(),
        ),
        (
            "vmem_limit_bytes_float",
            r#"{"vmem_limit_bytes": 1.5e6}"#,
            tc(),
        ),
        (
            "vmem_limit_bytes_str_direct",
            r#"{"vmem_limit_bytes": "1024"}"#,
            tc(),
        ),
        (
            "explicit_tiling_on_tensorcore_direct",
            r#"{"tiling": "compact"}"#,
            tc(),
        ),
        (
            "explicit_tiling_sparse_core_on_tensorcore_direct",
            r#"{"tiling": "sparse_core"}"#,
            tc(),
        ),
        ("opt_level_on_tensorcore", r#"{"opt_level": "O2"}"#, tc()),
        (
            "opt_level_on_tensorcore_direct",
            r#"{"opt_level": "O0"}"#,
            tc(),
        ),
        (
            "opt_level_and_tiling_on_sparsecore",
            r#"{"opt_level": "O3", "use_tc_tiling_on_sc": false}"#,
            sparse_core(),
        ),
        (
            "use_tc_tiling_on_sc_on_tensorcore",
            r#"{"use_tc_tiling_on_sc": true}"#,
            tc(),
        ),
        (
            "use_tc_tiling_on_sc_false_on_tensorcore",
            r#"{"use_tc_tiling_on_sc": false}"#,
            tc(),
        ),
        ("flag_value_str", r#"{"flags": {"xla_tpu_x": "yes"}}"#, tc()),
        ("flag_value_none", r#"{"flags": {"xla_tpu_x": null}}"#, tc()),
        (
            "input_memory_space_semaphore_direct",
            r#"{"input_memory_spaces": ["semaphore_mem"]}"#,
            tc(),
        ),
        (
            "invalid_side_effect_type",
            r#"{"has_side_effects": "yes"}"#,
            tc(),
        ),
        (
            "cost_estimate_non_int",
            r#"{"cost_estimate": {"flops": 1.5, "transcendentals": 0, "bytes_accessed": 0}}"#,
            tc(),
        ),
        (
            "inout_memory_space_conflict",
            r#"{"input_memory_spaces": ["hbm"], "output_memory_spaces": ["vmem"], "input_output_aliases": [[0, 0]]}"#,
            tc(),
        ),
    ]
}

/// errors.json cases of the config layer we cannot trigger, and why.
const NOT_REPRODUCIBLE: [(&str, &str); 3] = [
    (
        "collective_id_numpy_int",
        "PARAMS.json has no numpy integers",
    ),
    (
        "vmem_limit_bytes_numpy_int",
        "PARAMS.json has no numpy integers",
    ),
    (
        "vmem_limit_bytes_bool_accepted",
        "JAX accepts it and writes invalid JSON; our own rule rejects it (tested below)",
    ),
];

/// errors.json cases that need a module's collective-id mapping (lowering
/// context); tested in `module_context_messages_of_errors_json`.
const MODULE_CONTEXT_CASES: [&str; 4] = [
    "custom_barrier_auto_assign_yes",
    "collective_id_and_barrier_tag_conflict",
    "collective_id_and_barrier_tag_override",
    "auto_collective_ids_limit_exceeded",
];

#[test]
fn every_config_layer_message_of_errors_json_is_produced_verbatim() {
    let errors = errors_json();
    let cases = config_layer_cases();
    let config_layer = |e: &serde_json::Value| {
        let at = e["raised_at"].as_str().unwrap_or("");
        let case = e["case"].as_str().unwrap();
        at.ends_with("_lowered_to_custom_call_config")
            || at.ends_with("tpu_custom_call.py:to_json")
            || at.ends_with("_resolve_tiling")
            || at.ends_with("_resolve_side_effect_type")
            || at.ends_with("_resolve_memory_spaces")
            || at == "jax/_src/pallas/core.py:__post_init__"
            || cases.iter().any(|(c, _, _)| *c == case)
            || NOT_REPRODUCIBLE.iter().any(|(c, _)| *c == case)
            || MODULE_CONTEXT_CASES.contains(&case)
    };
    let mut failures = common::Failures::new();
    let mut produced = 0;
    for e in errors.iter().filter(|e| config_layer(e)) {
        let case = e["case"].as_str().unwrap();
        if NOT_REPRODUCIBLE.iter().any(|(c, _)| *c == case) || MODULE_CONTEXT_CASES.contains(&case)
        {
            continue;
        }
        let Some((_, params, facts)) = cases.iter().find(|(c, _, _)| *c == case) else {
            failures.fail(format!(
                "errors.json case {case} of the config layer has no test"
            ));
            continue;
        };
        let got = first_error(params, facts);
        match e["expect"].as_str().unwrap() {
            "error" => {
                let want = e["message"].as_str().unwrap();
                failures.eq(case, got.as_deref(), Some(want));
                produced += 1;
            }
            _ => failures.eq(case, got, None),
        }
    }
    failures.assert_none();
    assert!(produced >= 15, "only {produced} messages produced");
}

fn errors_json_case(case: &str) -> serde_json::Value {
    errors_json()
        .into_iter()
        .find(|e| e["case"] == case)
        .unwrap_or_else(|| panic!("no case {case}"))
}

#[test]
fn module_context_messages_of_errors_json() {
    use tpu_custom_call::{AutoAssignMode, CollectiveIds, lower_config_in_module};
    let lower = |json: &str,
                 facts: &KernelFacts,
                 body: &[u8],
                 ids: &mut CollectiveIds,
                 tag: Option<&str>| {
        let p = params(json);
        lower_config_in_module(&p, facts, body.to_vec(), None, p.ir_version, ids, tag)
    };
    // Mode yes: a barrier kernel without an id gets 0.
    let mut ids = CollectiveIds::new(AutoAssignMode::Yes, []);
    assert_eq!(
        errors_json_case("custom_barrier_auto_assign_yes")["expect"],
        "no_error"
    );
    assert_eq!(
        lower("{}", &barrier(), b"A", &mut ids, None)
            .unwrap()
            .collective_id,
        Some(0)
    );
    // A tag and an id: JAX's message, with Python's repr of the tag.
    let want = errors_json_case("collective_id_and_barrier_tag_conflict")["message"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ids = CollectiveIds::new(AutoAssignMode::No, [3]);
    let e = lower(
        r#"{"collective_id": 3}"#,
        &barrier(),
        b"A",
        &mut ids,
        Some("foo"),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), want);
    // ...accepted in override mode: the id is ignored, the tag gets an auto id.
    assert_eq!(
        errors_json_case("collective_id_and_barrier_tag_override")["expect"],
        "no_error"
    );
    let mut ids = CollectiveIds::new(AutoAssignMode::Override, [3]);
    assert_eq!(
        lower(
            r#"{"collective_id": 3}"#,
            &barrier(),
            b"A",
            &mut ids,
            Some("foo")
        )
        .unwrap()
        .collective_id,
        Some(0)
    );
    // Limit 1, two different barrier kernels: JAX's message; the mapping shows
    // our body hashes where Python shows its hash().
    let want = errors_json_case("auto_collective_ids_limit_exceeded")["message"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ids = CollectiveIds::new(AutoAssignMode::Yes, []).with_limit(1);
    lower("{}", &barrier(), b"A", &mut ids, None).unwrap();
    let e = lower("{}", &barrier(), b"B", &mut ids, None).unwrap_err();
    assert!(matches!(
        e,
        RuleError::AutoCollectiveIdsExceeded { limit: 1, .. }
    ));
    let normalized: String = e
        .to_string()
        .split("0x")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part.to_string()
            } else {
                format!("<hash>{}", &part[16..])
            }
        })
        .collect();
    assert_eq!(normalized, want);
}

#[test]
fn module_context_reproduces_the_auto_assigned_golden_ids() {
    use tpu_custom_call::{AutoAssignMode, CollectiveIds, lower_config_in_module};
    // collective_id_auto_assign: mode yes, ids in [None, None, None, 1] -> 0, 0, 2, 1.
    let calls: Vec<GoldenCall> = golden_calls()
        .into_iter()
        .filter(|c| c.case == "collective_id_auto_assign")
        .collect();
    assert_eq!(calls.len(), 4);
    let case: serde_json::Value =
        serde_json::from_slice(&std::fs::read(calls[0].dir.join("case.json")).unwrap()).unwrap();
    let ids_in: Vec<Option<i64>> = case["params"]["collective_ids_in"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64())
        .collect();
    let mut ids = CollectiveIds::new(AutoAssignMode::Yes, ids_in.iter().flatten().copied());
    let mut failures = common::Failures::new();
    for (call, id_in) in calls.iter().zip(&ids_in) {
        let name = call.name();
        let p = Params {
            collective_id: *id_in,
            ..call.params()
        };
        let (body, dbg) = call.blobs();
        let Some(config) = failures.ok(
            &name,
            lower_config_in_module(&p, &call.facts(), body, dbg, p.ir_version, &mut ids, None),
        ) else {
            continue;
        };
        if let Some(json) = failures.ok(&name, config.to_json(true)) {
            failures.bytes(&name, json.as_bytes(), &call.config_bytes);
        }
    }
    failures.assert_none();
    // barrier_semaphore_tag: a tag gets id 0 even in mode no.
    let call = golden_calls()
        .into_iter()
        .find(|c| c.case == "barrier_semaphore_tag")
        .unwrap();
    let p = Params {
        collective_id: None,
        ..call.params()
    };
    let (body, dbg) = call.blobs();
    let mut ids = CollectiveIds::new(AutoAssignMode::No, []);
    let config = lower_config_in_module(
        &p,
        &call.facts(),
        body.clone(),
        dbg.clone(),
        p.ir_version,
        &mut ids,
        Some("ring"),
    )
    .unwrap();
    assert_eq!(
        config.to_json(true).unwrap().as_bytes(),
        call.config_bytes.as_slice()
    );
    // Without the tag, mode no: JAX's error.
    let mut ids = CollectiveIds::new(AutoAssignMode::No, []);
    let e = lower_config_in_module(&p, &call.facts(), body, dbg, p.ir_version, &mut ids, None)
        .unwrap_err();
    assert_eq!(e, RuleError::BarrierWithoutCollectiveId);
}

#[test]
fn vmem_limit_true_is_refused_where_jax_writes_invalid_json() {
    let err = Params::from_json(br#"{"vmem_limit_bytes": true}"#).unwrap_err();
    assert!(
        matches!(
            err,
            ParamsError::BoolForInteger {
                key: ParamKey::VmemLimitBytes,
                value: true,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "vmem_limit_bytes = true is a boolean where an integer belongs; write a number"
    );
}

// ----- our own rules: one test each, variant and message -----

fn params(json: &str) -> Params {
    Params::from_json(json.as_bytes()).unwrap()
}

fn lower_err(json: &str, facts: &KernelFacts) -> RuleError {
    let p = params(json);
    lower_config(&p, facts, vec![], None, p.ir_version).unwrap_err()
}

fn params_err(json: &str) -> ParamsError {
    Params::from_json(json.as_bytes()).unwrap_err()
}

#[test]
fn rule_collective_id_outside_i32() {
    let e = lower_err(r#"{"collective_id": 4294967296}"#, &barrier());
    assert!(matches!(
        e,
        RuleError::CollectiveIdOutOfRange { value: 4294967296 }
    ));
    assert_eq!(
        e.to_string(),
        "collective_id = 4294967296 is outside the i32 range XLA accepts (0..=2147483647)"
    );
    let e = lower_err(r#"{"collective_id": -1}"#, &barrier());
    assert!(matches!(e, RuleError::CollectiveIdOutOfRange { value: -1 }));
}

#[test]
fn rule_negative_sizes() {
    let e = lower_err(r#"{"internal_scratch_in_bytes": -8}"#, &tc());
    assert_eq!(
        e,
        RuleError::Negative {
            field: "internal_scratch_in_bytes".into(),
            value: -8
        }
    );
    assert_eq!(
        e.to_string(),
        "internal_scratch_in_bytes = -8 is negative; it must be a non-negative integer"
    );
    let e = lower_err(
        r#"{"cost_estimate": {"flops": 1, "transcendentals": -2, "bytes_accessed": 3}}"#,
        &tc(),
    );
    assert_eq!(
        e,
        RuleError::Negative {
            field: "cost_estimate.transcendentals".into(),
            value: -2
        }
    );
    let e = lower_err(r#"{"serialization_format": -1}"#, &tc());
    assert_eq!(
        e,
        RuleError::Negative {
            field: "serialization_format".into(),
            value: -1
        }
    );
    let e = params_err(r#"{"input_output_aliases": [[-1, 0]]}"#);
    assert!(
        matches!(
            e,
            ParamsError::Negative {
                key: ParamKey::InputOutputAliases,
                value: -1,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn rule_vmem_limit_not_positive() {
    let e = lower_err(r#"{"vmem_limit_bytes": 0}"#, &tc());
    assert_eq!(e, RuleError::VmemLimitNotPositive { value: 0 });
    assert_eq!(
        e.to_string(),
        "vmem_limit_bytes = 0 is not positive; give the scoped VMEM limit in bytes (> 0)"
    );
}

#[test]
fn rule_bool_for_integer() {
    for key in [
        "collective_id",
        "internal_scratch_in_bytes",
        "serialization_format",
        "ir_version",
    ] {
        let e = params_err(&format!(r#"{{"{key}": false}}"#));
        assert_eq!(
            e,
            ParamsError::BoolForInteger {
                key: key.parse().unwrap(),
                field: key.into(),
                value: false
            }
        );
        assert_eq!(
            e.to_string(),
            format!("{key} = false is a boolean where an integer belongs; write a number")
        );
    }
    let e = params_err(
        r#"{"cost_estimate": {"flops": true, "transcendentals": 0, "bytes_accessed": 0}}"#,
    );
    assert_eq!(
        e,
        ParamsError::BoolForInteger {
            key: ParamKey::CostEstimate,
            field: "cost_estimate.flops".into(),
            value: true
        }
    );
}

#[test]
fn rule_wrong_param_type_names_the_key() {
    let e = params_err(r#"{"disable_bounds_checks": "yes"}"#);
    assert_eq!(
        e.to_string(),
        "disable_bounds_checks must be true or false, not a string"
    );
    assert!(matches!(
        e,
        ParamsError::WrongParamType {
            key: ParamKey::DisableBoundsChecks,
            ..
        }
    ));
    assert_eq!(e.key(), Some(ParamKey::DisableBoundsChecks));
    let e = params_err(r#"{"output_memory_spaces": ["vram"]}"#);
    assert!(
        e.to_string()
            .starts_with("output_memory_spaces[0] must be a memory space (hbm, vmem,"),
        "{e}"
    );
    let e = params_err(r#"{"opt_level": "O4"}"#);
    assert_eq!(
        e.to_string(),
        "opt_level must be \"O0\", \"O1\", \"O2\" or \"O3\", not \"O4\""
    );
}

#[test]
fn rule_non_finite_flag() {
    let p = Params {
        flags: Some(vec![("xla_f".into(), FlagValue::Double(f64::INFINITY))]),
        ..Params::default()
    };
    let e = lower_config(&p, &tc(), vec![], None, Some(15)).unwrap_err();
    assert_eq!(
        e,
        RuleError::NonFiniteFlag {
            flag: "xla_f".into(),
            value: "inf".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "flag xla_f = inf is not a finite number; JSON cannot hold it"
    );
    // A literal too large for a double is infinite too: the PARAMS reader
    // refuses it (it would write it back as `null`; a params_reader fuzz find).
    let e = params_err(r#"{"flags": {"xla_f": 1e999}}"#);
    assert!(matches!(e, ParamsError::NonFiniteFlag { .. }), "{e:?}");
}

#[test]
fn rule_flag_integer_out_of_range() {
    // Python writes 1180591620717411303424 (spec 4.5 `flag big int`); int64 cannot hold it.
    let e = params_err(r#"{"flags": {"f": 1180591620717411303424}}"#);
    assert_eq!(
        e,
        ParamsError::FlagIntegerOutOfRange {
            flag: "f".into(),
            value: "1180591620717411303424".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "flag f = 1180591620717411303424 does not fit the int64 integer_value; use a smaller value"
    );
}

#[test]
fn rule_bad_flag_name() {
    for name in ["xla_\u{e9}", "a\"b", "a\\b", "tab\there"] {
        let p = Params {
            flags: Some(vec![(name.into(), FlagValue::Bool(true))]),
            ..Params::default()
        };
        let e = lower_config(&p, &tc(), vec![], None, Some(15)).unwrap_err();
        assert_eq!(e, RuleError::BadFlagName { flag: name.into() });
        assert_eq!(
            e.to_string(),
            format!(
                "flag name {name:?} is not allowed: flag names must be printable ASCII without `\"` or `\\`"
            )
        );
    }
}

#[test]
fn rule_sparse_core_memory_space_on_tensor_core() {
    let e = lower_err(
        r#"{"output_memory_spaces": ["vmem", "sc_vector_smem"]}"#,
        &tc(),
    );
    assert_eq!(
        e,
        RuleError::SparseCoreMemorySpaceOnTensorCore {
            field: "output_memory_spaces".into(),
            index: 1,
            memory_space: MemorySpace::ScVectorSmem
        }
    );
    assert_eq!(
        e.to_string(),
        "output_memory_spaces[1] = sc_vector_smem is a SparseCore memory space but the kernel is a TensorCore kernel"
    );
    // Fine on SparseCore.
    let p = params(r#"{"output_memory_spaces": ["vmem", "sc_vector_smem"]}"#);
    assert!(lower_config(&p, &sparse_core(), vec![], None, Some(15)).is_ok());
}

#[test]
fn rule_conflicting_tiling() {
    let e = lower_err(
        r#"{"tiling": "compact", "use_tc_tiling_on_sc": false}"#,
        &sparse_core(),
    );
    assert_eq!(
        e,
        RuleError::ConflictingTiling {
            tiling: "compact".into(),
            use_tc_tiling_on_sc: false
        }
    );
    assert_eq!(
        e.to_string(),
        "tiling = compact and use_tc_tiling_on_sc = false both set the SparseCore tiling; give only one"
    );
}

#[test]
fn rule_cost_estimate_fields() {
    let e = params_err(r#"{"cost_estimate": {"flops": 1, "transcendentals": 2}}"#);
    assert_eq!(
        e,
        ParamsError::CostEstimateMissingField {
            field: "bytes_accessed".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "cost_estimate has no bytes_accessed; flops, transcendentals and bytes_accessed are required (remote_bytes_transferred defaults to 0)"
    );
    let e = params_err(
        r#"{"cost_estimate": {"flops": 1, "transcendentals": 2, "bytes_accessed": 3, "zzz": 5}}"#,
    );
    assert_eq!(
        e,
        ParamsError::CostEstimateUnknownField {
            field: "zzz".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "cost_estimate has an unknown field \"zzz\"; the fields are flops, transcendentals, bytes_accessed, remote_bytes_transferred"
    );
    // remote_bytes_transferred defaults to 0, as pl.CostEstimate does.
    assert_eq!(
        params(r#"{"cost_estimate": {"flops": 1, "transcendentals": 2, "bytes_accessed": 3}}"#)
            .cost_estimate,
        Some(ParamsCostEstimate {
            flops: 1,
            transcendentals: 2,
            bytes_accessed: 3,
            remote_bytes_transferred: 0
        })
    );
}

#[test]
fn rule_forward_compatible_ir_version() {
    let e = lower_err(r#"{"forward_compatible": true, "ir_version": 18}"#, &tc());
    assert_eq!(
        e,
        RuleError::ForwardCompatibleIrVersion {
            ir_version: "18".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "ir_version = 18 with forward_compatible = true: exports must use ir_version 15 or older so older TPU runtimes can read them"
    );
}

fn sig_err(json: &str, ins: &[&str], outs: &[&str]) -> RuleError {
    signature_errors(&params(json), ins, outs)
        .into_iter()
        .next()
        .expect("a signature error")
}

#[test]
fn rule_alias_indices_in_range() {
    let t = "tensor<8x128xf32>";
    let e = sig_err(r#"{"input_output_aliases": [[2, 0]]}"#, &[t, t], &[t]);
    assert_eq!(
        e,
        RuleError::AliasOperandOutOfRange {
            operand: 2,
            operands: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "input_output_aliases: operand index 2 is out of range; the call has 2 operand(s)"
    );
    let e = sig_err(r#"{"input_output_aliases": [[0, 1]]}"#, &[t, t], &[t]);
    assert_eq!(
        e,
        RuleError::AliasResultOutOfRange {
            result: 1,
            results: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "input_output_aliases: result index 1 is out of range; the call has 1 result(s)"
    );
}

#[test]
fn rule_result_aliased_twice() {
    let t = "tensor<8x128xf32>";
    let e = sig_err(
        r#"{"input_output_aliases": [[0, 0], [1, 0]]}"#,
        &[t, t],
        &[t],
    );
    assert_eq!(
        e,
        RuleError::ResultAliasedTwice {
            result: 0,
            first: 0,
            second: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "input_output_aliases: result 0 is aliased twice (operands 0 and 1); a result can reuse one operand's buffer only"
    );
}

#[test]
fn rule_alias_type_mismatch() {
    let e = sig_err(
        r#"{"input_output_aliases": [[0, 0]]}"#,
        &["tensor<8x128xf32>"],
        &["tensor<8x128xbf16>"],
    );
    assert!(matches!(
        e,
        RuleError::AliasTypeMismatch {
            operand: 0,
            result: 0,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "input_output_aliases: operand 0 (tensor<8x128xf32>) and result 0 (tensor<8x128xbf16>) must have the same type to share a buffer"
    );
}

#[test]
fn rule_list_lengths() {
    let t = "tensor<8x128xf32>";
    let e = sig_err(r#"{"allow_input_fusion": [true]}"#, &[t, t], &[t]);
    assert_eq!(
        e.to_string(),
        "allow_input_fusion has 1 entries but the call has 2 operands; give one entry per operand"
    );
    assert!(matches!(
        e,
        RuleError::ListLength {
            len: 1,
            expected: 2,
            ..
        }
    ));
    let e = sig_err(r#"{"output_memory_spaces": ["vmem"]}"#, &[t], &[t, t]);
    assert_eq!(
        e.to_string(),
        "output_memory_spaces has 1 entries but the call has 2 results; give one entry per result"
    );
    let e = sig_err(r#"{"input_memory_spaces": [null, null]}"#, &[t], &[t]);
    assert!(matches!(
        e,
        RuleError::ListLength {
            len: 2,
            expected: 1,
            ..
        }
    ));
}

#[test]
fn validate_reports_every_problem_in_order() {
    let p = params(
        r#"{"collective_id": 3, "opt_level": "O1", "vmem_limit_bytes": -1, "allow_input_fusion": [true, true]}"#,
    );
    let t = ["tensor<8x128xf32>"];
    let all = validate_tc(&p, &t, &t);
    let messages: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "collective_id has to be unspecified or None when not using a custom barrier",
            "explicit opt_level is only supported for SparseCore kernels.",
            "vmem_limit_bytes = -1 is not positive; give the scoped VMEM limit in bytes (> 0)",
            "allow_input_fusion has 2 entries but the call has 1 operands; give one entry per operand",
            // The call contract (step 5): the add kernel takes two inputs.
            "the call has 1 operand(s) and 1 result(s), but kernel `_add_kernel` takes 3 argument(s) \
             (0 grid indices, 0 scalar prefetch, 3 input/output buffers, 0 scratch); give the call 0 \
             leading operand(s) (dynamic grid bounds, then scalar prefetch), then 3 buffers in all: the \
             kernel's inputs as operands, its outputs as results",
        ]
    );
    // And parsing reports every bad key at once.
    let errors = Params::from_json_all(br#"{"colective_id": 1, "flags": {"a": "b"}, "tiling": 3}"#)
        .unwrap_err();
    assert_eq!(errors.len(), 3);
}

// ----- PARAMS.json -----

#[test]
fn params_unknown_key_names_the_closest_known_key() {
    let e = params_err(r#"{"colective_id": 1}"#);
    assert_eq!(
        e,
        ParamsError::UnknownKey {
            key: "colective_id".into(),
            suggestion: "collective_id".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "unknown parameter \"colective_id\" in PARAMS.json (did you mean \"collective_id\"?)"
    );
    let e = params_err(r#"{"dimension_semantics": []}"#);
    assert!(matches!(e, ParamsError::UnknownKey { .. }));
}

#[test]
fn params_defaults_are_jax_cross_lowering() {
    let p = params("{}");
    assert_eq!(p, Params::default());
    assert_eq!(p.ir_version, Some(15));
    assert!(p.use_core_ids());
    assert_eq!(
        p.effective_debug_locations(),
        tpu_custom_call::DebugLocations::Unzip
    );
    assert!(p.shape_invariant_numerics && p.needs_layout_passes && !p.forward_compatible);
    assert_eq!(p.serialization_format, Some(1));
    assert_eq!(p.to_json(), "{}\n");
    let fwd = params(r#"{"forward_compatible": true}"#);
    assert!(!fwd.use_core_ids());
    assert_eq!(
        fwd.effective_debug_locations(),
        tpu_custom_call::DebugLocations::Inline
    );
    // input_output_aliases: pairs, or Pallas's dict.
    assert_eq!(
        params(r#"{"input_output_aliases": {"1": 0}}"#).input_output_aliases,
        [(1, 0)]
    );
    assert_eq!(
        params(r#"{"input_output_aliases": [[1, 0]]}"#).input_output_aliases,
        [(1, 0)]
    );
    // has_side_effects: a bool or a kind.
    assert_eq!(
        params(r#"{"has_side_effects": true}"#).has_side_effects,
        tpu_custom_call::SideEffect::SideEffecting
    );
    assert_eq!(
        params(r#"{"has_side_effects": "dataflow_side_effecting"}"#).has_side_effects,
        tpu_custom_call::SideEffect::DataflowSideEffecting
    );
}

#[test]
fn params_json_errors_carry_the_path() {
    let e = params_err(r#"{"flags": {"a": 1, "a": 2}}"#);
    assert_eq!(
        e.to_string(),
        "PARAMS.json has the key \"a\" twice at $.flags"
    );
    let e = params_err(r#"{"flags": {"a": 1,}}"#);
    assert!(
        e.to_string().starts_with(
            "PARAMS.json is not valid JSON at $.flags: expected a string key at byte 18"
        ),
        "{e}"
    );
    assert_eq!(
        params_err("[1]").to_string(),
        "PARAMS.json must be a JSON object, not an array"
    );
}

#[test]
fn params_with_every_key_round_trip() {
    let text = r#"{
      "kernel_name": "k", "metadata": {"b": "x", "a": [1, 2.5, null]}, "cost_estimate": {"flops": 1, "transcendentals": 2, "bytes_accessed": 3, "remote_bytes_transferred": 4},
      "vmem_limit_bytes": 1024, "flags": {"i": 7, "d": 0.5, "e": 1e-07, "b": false}, "allow_input_fusion": [true, false],
      "input_output_aliases": [[1, 0]], "internal_scratch_in_bytes": 8, "collective_id": 2, "allow_collective_id_without_custom_barrier": true,
      "has_side_effects": "dataflow_side_effecting", "serialization_format": null, "output_memory_spaces": ["vmem", null],
      "input_memory_spaces": null, "disable_bounds_checks": true, "disable_semaphore_checks": true, "skip_device_barrier": true,
      "shape_invariant_numerics": false, "needs_layout_passes": false, "needs_hlo_passes": true, "tiling": "sparse_core",
      "use_tc_tiling_on_sc": null, "opt_level": "O3", "forward_compatible": true, "ir_version": null, "debug_locations": "strip"
    }"#;
    let p = params(text);
    let again = params(&p.to_json());
    // Number literals are compared by value where serde_json respells them.
    assert_eq!(again.flags, p.flags);
    assert_eq!(again.to_json(), p.to_json());
    assert_eq!(again.ir_version, None);
    assert_eq!(again.serialization_format, None);
}

// ----- the reader -----

#[test]
fn reader_accepts_protobuf_json_spellings() {
    let snake = br#"{"custom_call_config": {"body": "Qk9EWQ==", "has_communication": true, "collective_id": 3, "cost_estimate": {"bytes_accessed": 3, "flops": 1, "remote_bytes_transferred": 0, "transcendentals": 2}, "serialization_format": 1, "needs_layout_passes": true, "internal_scratch_in_bytes": 8}, "scoped_memory_configs": [{"memory_space": 1, "offset": 0, "size": 1024}], "flag_configs": [{"flag_type": "f", "value": {"integer_value": 9}}]}"#;
    let camel = br#"{"customCallConfig": {"body": "Qk9EWQ==", "hasCommunication": true, "collectiveId": "3", "costEstimate": {"bytesAccessed": "3", "flops": "1", "transcendentals": "2"}, "serializationFormat": 1, "needsLayoutPasses": true, "internalScratchInBytes": "8"}, "scopedMemoryConfigs": [{"memorySpace": 1, "size": "1024"}], "flagConfigs": [{"flagType": "f", "value": {"integerValue": "9"}}]}"#;
    let (a, ra) = BackendConfig::from_json(snake).unwrap();
    let (b, rb) = BackendConfig::from_json(camel).unwrap();
    assert_eq!(a, b);
    assert!(ra.unknown_keys.is_empty() && rb.unknown_keys.is_empty());
    assert_eq!(a.collective_id, Some(3));
    assert_eq!(a.vmem_limit_bytes, Some(1024));
    // The snake form is what JAX writes: it is rewritten byte for byte.
    let expected = r#"{"custom_call_config": {"body": "Qk9EWQ==", "has_communication": true, "collective_id": 3, "cost_estimate": {
"bytes_accessed":3,
"flops":1,
"remote_bytes_transferred":0,
"transcendentals":2
}, "serialization_format": 1, "needs_layout_passes": true, "internal_scratch_in_bytes": 8}, "scoped_memory_configs": [{"memory_space":1, "offset": 0, "size": 1024}], "flag_configs": [{"flag_type": "f", "value": {"integer_value": 9}}]}"#;
    assert_eq!(b.to_json(true).unwrap(), expected);
}

#[test]
fn reader_keeps_and_reports_unknown_keys() {
    let (c, report) = BackendConfig::from_json(
        br#"{"custom_call_config": {"body": "", "new_field": [1]}, "other": {"x": 1}}"#,
    )
    .unwrap();
    assert_eq!(c.body, b"");
    let paths: Vec<String> = report
        .unknown_keys
        .iter()
        .map(|k| k.path.to_string())
        .collect();
    assert_eq!(paths, ["$.custom_call_config.new_field", "$.other"]);
    assert_eq!(
        report.unknown_keys[1].value,
        parse_json(br#"{"x": 1}"#).unwrap()
    );
}

fn read_err(json: &str) -> String {
    BackendConfig::from_json(json.as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn reader_errors_name_the_json_path() {
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "", "collective_id": 1, "collectiveId": 2}}"#),
        "backend_config has the key \"collective_id\" twice at $.custom_call_config"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "", "body": ""}}"#),
        "backend_config has the key \"body\" twice at $.custom_call_config"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "" "#),
        "backend_config is not valid JSON at $.custom_call_config: expected `,` or `}` at byte 35 (found end of input)"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "", "flag": [1, tru]}}"#),
        "backend_config is not valid JSON at $.custom_call_config.flag[1]: expected a JSON value at byte 48 (found `t`)"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "", "has_communication": 1}}"#),
        "backend_config value at $.custom_call_config.has_communication must be true or false, not an integer (1)"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "Qk9EW*=="}}"#),
        "backend_config value at $.custom_call_config.body is not valid base64: Invalid symbol 42, offset 5."
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {}}"#),
        "backend_config has no \"body\" at $.custom_call_config"
    );
    assert_eq!(
        read_err(
            r#"{"custom_call_config": {"body": "", "output_memory_space_colors": [{"color": 3}]}}"#
        ),
        "backend_config value at $.custom_call_config.output_memory_space_colors[0].color is not supported: unknown memory space color 3 (colors are 0, 1, 2, 4, 5, 8, 10, 11, 12)"
    );
    assert_eq!(
        read_err(
            r#"{"custom_call_config": {"body": ""}, "flag_configs": [{"flag_type": "f", "value": {"double_value": "NaN"}}]}"#
        ),
        "backend_config value at $.flag_configs[0].value.double_value is not supported: double_value must be finite"
    );
    assert_eq!(
        read_err(r#"{"custom_call_config": {"body": "", "collective_id": 2147483648}}"#),
        "backend_config value at $.custom_call_config.collective_id must be a 32-bit integer, not an integer (2147483648)"
    );
}

#[test]
fn writer_refuses_what_jax_would_write_as_invalid_json() {
    let c = BackendConfig {
        input_memory_spaces: Some(vec![Some(MemorySpace::SemaphoreMem)]),
        ..BackendConfig::default()
    };
    let e = c.to_json(true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "input_memory_space_colors only supports HBM, VMEM and SMEM"
    );
    let c = BackendConfig {
        flags: Some(vec![("\u{e9}".into(), FlagValue::Bool(true))]),
        ..BackendConfig::default()
    };
    assert!(matches!(
        c.to_json(true).unwrap_err(),
        WriteError::BadFlagName { .. }
    ));
}

#[test]
fn writer_base64_matches_the_standard_encoder_at_every_tail_length() {
    let mut failures = common::Failures::new();
    for len in 0..64usize {
        let body: Vec<u8> = (0..len).map(|i| (i * 151 + 7) as u8 ^ 0xa5).collect();
        let c = BackendConfig {
            body: body.clone(),
            debug_locations: Some(body.iter().rev().copied().collect()),
            ..minimal_empty()
        };
        let Some(json) = failures.ok(format!("len {len}"), c.to_json(true)) else {
            continue;
        };
        let mut expected = format!(
            "{{\"custom_call_config\": {{\"body\": \"{}\"",
            STANDARD.encode(&body)
        );
        if len > 0 {
            let dbg: Vec<u8> = body.iter().rev().copied().collect();
            expected.push_str(&format!(
                ", \"debug_locations\": \"{}\"",
                STANDARD.encode(&dbg)
            ));
        }
        expected.push_str("}}");
        failures.bytes(format!("len {len}"), json.as_bytes(), expected.as_bytes());
    }
    failures.assert_none();
}

#[test]
fn writer_encodes_large_bodies_with_one_allocation() {
    let body: Vec<u8> = (0..3_000_001u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 24) as u8)
        .collect();
    let c = BackendConfig {
        body: body.clone(),
        ..BackendConfig::default()
    };
    let json = c.to_json(true).unwrap();
    assert_eq!(json.capacity(), c.json_size_hint().unwrap());
    let (back, _) = BackendConfig::from_json(json.as_bytes()).unwrap();
    assert_eq!(back.body, body);
}

// ----- real jaxlib -----

fn write_temp(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn real_jaxlib_accepts_configs_we_write() {
    let Some(python) = common::jaxref_python("real_jaxlib_accepts_configs_we_write") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let calls = golden_calls();
    for name in [
        "add_basic",
        "sparsecore_vector_1core",
        "sparsecore_vector_opt_level_export",
        "memory_spaces",
        "remote_dma_collective",
    ] {
        let call = calls.iter().find(|c| c.name() == name).unwrap();
        let json = lowered(call).to_json(call.params().use_core_ids()).unwrap();
        files.push(write_temp(&dir, &format!("{name}.json"), json.as_bytes()));
    }
    // A config with many fields set, on a real body: jaxlib re-renders it byte for byte.
    let add = calls.iter().find(|c| c.name() == "add_basic").unwrap();
    let (body, dbg) = add.blobs();
    let p = params(
        r#"{"cost_estimate": {"flops": 10, "transcendentals": 2, "bytes_accessed": 300}, "vmem_limit_bytes": 1048576,
        "flags": {"xla_a": true, "xla_b": 7, "xla_c": 0.5, "xla_e": 1e-07}, "allow_input_fusion": [true, false],
        "internal_scratch_in_bytes": 4096, "input_memory_spaces": ["vmem", "hbm"], "output_memory_spaces": ["vmem"],
        "disable_bounds_checks": true, "skip_device_barrier": true, "shape_invariant_numerics": false, "needs_hlo_passes": true}"#,
    );
    let json = lower_config(&p, &add.facts(), body, dbg, p.ir_version)
        .unwrap()
        .to_json(true)
        .unwrap();
    files.push(write_temp(&dir, "many_fields.json", json.as_bytes()));

    let output = std::process::Command::new(&python)
        .arg(common::jaxref_dir().join("check_body.py"))
        .arg("-q")
        .args(&files)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "check_body.py failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every spelled enum prints its canonical spelling and parses it back; an
/// unknown spelling names the kind and the spellings to use.
#[test]
fn spelled_enums_round_trip_through_display_and_from_str() {
    use tpu_custom_call::{AutoAssignMode, DebugLocations, SideEffect};
    fn round_trip<T>(values: &[T]) -> Vec<String>
    where
        T: std::fmt::Display + std::str::FromStr + PartialEq + std::fmt::Debug,
    {
        values
            .iter()
            .filter(|v| v.to_string().parse::<T>().ok().as_ref() != Some(*v))
            .map(|v| format!("{v:?} does not round-trip"))
            .collect()
    }
    let mut failures = Vec::new();
    failures.extend(round_trip(&[
        DeviceType::TensorCore,
        DeviceType::SparseCore,
    ]));
    failures.extend(round_trip(&[Tiling::Compact, Tiling::SparseCore]));
    failures.extend(round_trip(&[
        OptLevel::O0,
        OptLevel::O1,
        OptLevel::O2,
        OptLevel::O3,
    ]));
    failures.extend(round_trip(&[
        SideEffect::Pure,
        SideEffect::DataflowSideEffecting,
        SideEffect::SideEffecting,
    ]));
    failures.extend(round_trip(&[
        DebugLocations::Unzip,
        DebugLocations::Inline,
        DebugLocations::Strip,
    ]));
    failures.extend(round_trip(&[
        AutoAssignMode::No,
        AutoAssignMode::Yes,
        AutoAssignMode::Override,
    ]));
    failures.extend(round_trip(&[
        MemorySpace::Hbm,
        MemorySpace::Vmem,
        MemorySpace::Smem,
    ]));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let e = "zip".parse::<DebugLocations>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "`zip` is not a debug-locations mode: use one of unzip, inline, strip"
    );
}
