//! `diff`: two modules' tpu_custom_calls compared by meaning. Every golden
//! module equals our emission of it (both body encodings, both producers,
//! text and bytecode); single-field changes are reported as exactly that
//! field; calls are paired by order and by name.

use crate::common::oneshot::{self as lower, LowerOptions};
use tpu_custom_call::bytecode::Encodings;
use tpu_custom_call::diff::{self, DiffOptions, DiffReport, DifferenceKind, MatchBy, Side};
use tpu_custom_call::emit::InsertionPoint;
use tpu_custom_call::kernel::{self, BytecodeOptions};
use tpu_custom_call::melior::ir::operation::OperationBuilder;
use tpu_custom_call::melior::ir::{
    Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type,
};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, melior, testing};

use crate::common::*;
use crate::lower::{GoldenCall, golden_calls};

/// One call to emit: a kernel (text), its parameters, its signature.
struct CallSpec {
    kernel: String,
    params: Params,
    operands: Vec<String>,
    results: Vec<String>,
}

impl CallSpec {
    fn golden(call: &GoldenCall) -> CallSpec {
        CallSpec {
            kernel: std::fs::read_to_string(call.kernel_path()).unwrap(),
            params: call.params(),
            operands: call.operand_types(),
            results: call.result_types(),
        }
    }

    fn of(case: &str, index: usize) -> CallSpec {
        CallSpec::golden(&GoldenCall {
            case: goldens_dir().join(case),
            index,
        })
    }

    /// With PARAMS.json keys replaced (a JSON object of the keys to set).
    fn with_params(mut self, patch: &str) -> CallSpec {
        let mut json: serde_json::Value = serde_json::from_str(&self.params.to_json()).unwrap();
        let patch: serde_json::Value = serde_json::from_str(patch).unwrap();
        for (k, v) in patch.as_object().unwrap() {
            json[k] = v.clone();
        }
        self.params = Params::from_json(json.to_string().as_bytes()).unwrap();
        self
    }
}

fn jax_options() -> LowerOptions {
    LowerOptions {
        producer: Some("MLIR24.0.0git".to_string()),
        encodings: Encodings::Llvm24,
        jax_rules_only: true,
        ..LowerOptions::default()
    }
}

/// A module `func.func public @main(<every operand>)` calling each kernel in
/// turn, printed in generic form (or written as bytecode).
/// Our lowering with JAX's rules only, LLVM 22 encodings.
fn jax_rules_only() -> LowerOptions {
    LowerOptions {
        jax_rules_only: true,
        ..LowerOptions::default()
    }
}

fn emit_calls(calls: &[CallSpec], options: &LowerOptions, bytecode: bool) -> Vec<u8> {
    let ctx = Context::new();
    let parse = |t: &String| Type::parse(&ctx, t).unwrap_or_else(|| panic!("type {t}"));
    let location = Location::unknown(&ctx);
    // Operands, then one shape tensor per result of calls with dynamic results.
    let shapes = |c: &CallSpec| -> Vec<String> {
        if !c.results.iter().any(|r| r.contains('?')) {
            return Vec::new();
        }
        c.results
            .iter()
            .map(|r| {
                let ty = melior::ir::r#type::RankedTensorType::try_from(parse(r)).unwrap();
                let rank = melior::ir::r#type::ShapedTypeLike::rank(&ty);
                format!("tensor<{rank}xi32>")
            })
            .collect()
    };
    let arg_types: Vec<Type<'_>> = calls
        .iter()
        .flat_map(|c| {
            c.operands
                .iter()
                .chain(&shapes(c))
                .map(parse)
                .collect::<Vec<_>>()
        })
        .collect();
    let block = Block::new(&arg_types.iter().map(|t| (*t, location)).collect::<Vec<_>>());
    let region = Region::new();
    let block = region.append_block(block);
    let mut next = 0;
    for (i, call) in calls.iter().enumerate() {
        let kernel = Kernel::from_text(&ctx, &call.kernel, &format!("call {i}")).unwrap();
        let operands: Vec<_> = (0..call.operands.len())
            .map(|k| block.argument(next + k).unwrap().into())
            .collect();
        next += call.operands.len();
        let shape_operands: Vec<_> = (0..shapes(call).len())
            .map(|k| block.argument(next + k).unwrap().into())
            .collect();
        next += shape_operands.len();
        let results: Vec<Type<'_>> = call.results.iter().map(parse).collect();
        lower::emit_call(
            &kernel,
            &call.params,
            InsertionPoint::BlockEnd(block),
            location,
            &operands,
            &shape_operands,
            &results,
            options,
        )
        .unwrap_or_else(|e| panic!("call {i}: {e}"));
    }
    block.append_operation(
        OperationBuilder::new("func.return", location)
            .build()
            .unwrap(),
    );
    let function_type = melior::ir::r#type::FunctionType::new(&ctx, &arg_types, &[]);
    let func = OperationBuilder::new("func.func", location)
        .add_attributes(&[
            (
                Identifier::new(&ctx, "sym_name"),
                melior::ir::attribute::StringAttribute::new(&ctx, "main").into(),
            ),
            (
                Identifier::new(&ctx, "function_type"),
                melior::ir::attribute::TypeAttribute::new(function_type.into()).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .unwrap();
    let module = Module::new(location);
    module.body().append_operation(func);
    if bytecode {
        kernel::module_bytecode(&module, &BytecodeOptions::default()).unwrap()
    } else {
        kernel::print_module(
            &module,
            PrintOptions {
                generic: true,
                debug_info: false,
            },
        )
        .unwrap()
        .into_bytes()
    }
}

fn diff_bytes(a: &[u8], b: &[u8], options: &DiffOptions) -> DiffReport {
    let ctx = Context::new();
    diff::diff_modules(&ctx, (a, "a"), (b, "b"), options).unwrap_or_else(|e| panic!("{e}"))
}

fn golden_module(case: &str) -> Vec<u8> {
    std::fs::read(goldens_dir().join(case).join("module.mlir")).unwrap()
}

/// Every golden module (JAX's pretty text, MLIR 24 bodies, JAX's producer)
/// against our emission of its calls: equal with our default encodings and
/// producer (text and bytecode), with JAX's, and with debug locations compared.
#[test]
fn every_golden_module_equals_our_emission() {
    let mut failures = Failures::new();
    let mut checked = 0;
    for case in golden_cases() {
        let name = case_name(&case);
        let calls: Vec<CallSpec> = golden_calls()
            .iter()
            .filter(|c| c.case == case)
            .map(CallSpec::golden)
            .collect();
        let jax = golden_module(&name);
        let configs = |bytes: &[u8]| -> Result<Vec<String>, String> {
            let ctx = Context::new();
            let calls = tpu_custom_call::decode::find_calls(&ctx, bytes, &name)
                .map_err(|e| e.to_string())?;
            Ok(calls.into_iter().map(|c| c.backend_config).collect())
        };
        let ours = [
            (
                "ours (LLVM 22 encodings)",
                emit_calls(&calls, &jax_rules_only(), false),
            ),
            (
                "ours (bytecode module)",
                emit_calls(&calls, &jax_rules_only(), true),
            ),
            (
                "ours (JAX's encodings)",
                emit_calls(&calls, &jax_options(), false),
            ),
        ];
        // Not the same bytes: another producer and other encodings in every body.
        let (Some(jax_configs), Some(our_configs), Some(jax_encoded)) = (
            failures.ok(format!("{name}: JAX's module"), configs(&jax)),
            failures.ok(format!("{name}: {}", ours[0].0), configs(&ours[0].1)),
            failures.ok(format!("{name}: {}", ours[2].0), configs(&ours[2].1)),
        ) else {
            continue;
        };
        for (j, o) in jax_configs.iter().zip(&our_configs) {
            failures.check(j != o, || {
                format!("{name}: our default emission has JAX's bytes")
            });
        }
        failures.eq(
            format!("{name}: calls with JAX's encodings"),
            jax_encoded.len(),
            jax_configs.len(),
        );
        for (i, (ours, jax)) in jax_encoded.iter().zip(&jax_configs).enumerate() {
            failures.bytes(
                format!("{name}: call {i}: JAX's encodings give JAX's bytes"),
                ours.as_bytes(),
                jax.as_bytes(),
            );
        }
        for (what, ours) in &ours {
            for locations in [false, true] {
                // Our emission is the calls alone in a new @main, not JAX's
                // program around them (shard_map bodies, reshapes): their
                // wiring is not compared here.
                let options = DiffOptions {
                    locations,
                    ignore: vec!["operands".to_string()],
                    ..DiffOptions::default()
                };
                let report = diff_bytes(&jax, ours, &options);
                failures.check(
                    report.is_equal() && report.pairs.len() == calls.len(),
                    || format!("{name} vs {what} (locations {locations}):\n{report}"),
                );
            }
        }
        checked += calls.len();
    }
    failures.assert_none();
    assert!(checked >= 39, "checked {checked} calls");
}

/// The fields reported for `base` vs `changed` (one pair), or the report
/// when a call is left unpaired.
fn reported(base: &[u8], changed: &[u8], options: &DiffOptions) -> Result<Vec<String>, String> {
    let report = diff_bytes(base, changed, options);
    if !report.unpaired.is_empty() {
        return Err(format!("unpaired calls:\n{report}"));
    }
    Ok(report
        .differences()
        .map(|(_, _, d)| d.field.clone())
        .collect())
}

/// One change at a time, to JAX's add_basic module (through our emission
/// with our encodings): each is reported as exactly that field.
#[test]
fn single_changes_are_reported_as_exactly_that_field() {
    let jax = golden_module("add_basic");
    let add = || CallSpec::of("add_basic", 0);
    let emit = |spec: CallSpec| emit_calls(&[spec], &jax_rules_only(), false);
    // Every change is checked; the failures are reported together at the end.
    let failures = std::cell::RefCell::new(Failures::new());
    let mut checked = 0;
    let mut check = |what: &str, changed: Vec<u8>, options: &DiffOptions, expected: &[&str]| {
        let expected: Vec<String> = expected.iter().map(|f| f.to_string()).collect();
        failures
            .borrow_mut()
            .eq(what, reported(&jax, &changed, options), Ok(expected));
        checked += 1;
    };
    let none = DiffOptions::default();
    // backend_config fields, by their JAX names.
    for (patch, field) in [
        (r#"{"vmem_limit_bytes": 1000}"#, "vmem_limit_bytes"),
        (
            r#"{"cost_estimate": {"flops": 1, "transcendentals": 2, "bytes_accessed": 3, "remote_bytes_transferred": 0}}"#,
            "cost_estimate",
        ),
        (r#"{"flags": {"xla_tpu_something": true}}"#, "flags"),
        (
            r#"{"allow_input_fusion": [true, false]}"#,
            "allow_input_fusion",
        ),
        (
            r#"{"internal_scratch_in_bytes": 4096}"#,
            "internal_scratch_in_bytes",
        ),
        (r#"{"serialization_format": 0}"#, "serialization_format"),
        (
            r#"{"output_memory_spaces": ["vmem"]}"#,
            "output_memory_spaces",
        ),
        (
            r#"{"input_memory_spaces": [null, "vmem"]}"#,
            "input_memory_spaces",
        ),
        (
            r#"{"disable_bounds_checks": true}"#,
            "disable_bounds_checks",
        ),
        (
            r#"{"disable_semaphore_checks": true}"#,
            "disable_semaphore_checks",
        ),
        (r#"{"skip_device_barrier": true}"#, "skip_device_barrier"),
        (
            r#"{"shape_invariant_numerics": false}"#,
            "shape_invariant_numerics",
        ),
        (r#"{"needs_hlo_passes": true}"#, "needs_hlo_passes"),
        (
            r#"{"collective_id": 3, "allow_collective_id_without_custom_barrier": true}"#,
            "collective_id",
        ),
        (r#"{"ir_version": 18}"#, "lowered_module_asm_version"),
        // op attributes
        (r#"{"kernel_name": "other"}"#, "kernel_name"),
        (
            r#"{"metadata": {"mesh": "x"}}"#,
            "mhlo.frontend_attributes.kernel_metadata",
        ),
        (
            r#"{"has_side_effects": "side_effecting"}"#,
            "has_side_effect",
        ),
        (
            r#"{"input_output_aliases": [[1, 0]]}"#,
            "output_operand_aliases",
        ),
    ] {
        check(patch, emit(add().with_params(patch)), &none, &[field]);
    }
    // Dataflow side effects: the attribute and the frontend attribute JAX adds.
    check(
        "dataflow",
        emit(add().with_params(r#"{"has_side_effects": "dataflow_side_effecting"}"#)),
        &none,
        &[
            "has_side_effect",
            "mhlo.frontend_attributes.xla_allow_dce_side_effecting_op",
        ],
    );
    // SparseCore-only fields, on JAX's SparseCore golden.
    let sc = golden_module("sparsecore_scalar_opt_level_O0_sc_tiling");
    let sc_call = || CallSpec::of("sparsecore_scalar_opt_level_O0_sc_tiling", 0);
    for (patch, field) in [
        (r#"{"opt_level": "O2"}"#, "opt_level"),
        (r#"{"use_tc_tiling_on_sc": true}"#, "tiling"),
    ] {
        let fields = reported(&sc, &emit(sc_call().with_params(patch)), &none);
        failures
            .borrow_mut()
            .eq(patch, fields, Ok(vec![field.to_string()]));
    }
    // One kernel op: the body, shown as a unified diff of the kernels.
    let mut sub = add();
    sub.kernel = sub.kernel.replacen("arith.addf", "arith.subf", 1);
    let report = diff_bytes(&jax, &emit(sub), &none);
    let fields: Vec<_> = report.differences().map(|(_, _, d)| d).collect();
    assert_eq!(fields.len(), 1, "{report}");
    assert_eq!(fields[0].field, "lowered_module_asm");
    assert_eq!(fields[0].kind, DifferenceKind::Kernel);
    let unified = fields[0].diff.as_deref().unwrap();
    let changed: Vec<&str> = unified
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    assert_eq!(
        changed,
        [
            "-    %2 = arith.addf %0, %1 : vector<8x128xf32>",
            "+    %2 = arith.subf %0, %1 : vector<8x128xf32>"
        ],
        "{unified}"
    );
    // Op attributes our lowering always writes the same way: edited in the text.
    let ours = String::from_utf8(emit(add())).unwrap();
    for (from, to, field) in [
        (
            "operand_layouts = [dense<[1, 0]>",
            "operand_layouts = [dense<[0, 1]>",
            "operand_layouts",
        ),
        (
            "result_layouts = [dense<[1, 0]>",
            "result_layouts = [dense<[0, 1]>",
            "result_layouts",
        ),
        (
            "api_version = 1 : i32",
            "api_version = 2 : i32",
            "api_version",
        ),
    ] {
        if !ours.contains(from) {
            failures.borrow_mut().fail(format!("{field}: no `{from}`"));
            continue;
        }
        let edited = ours.replacen(from, to, 1);
        check(field, edited.into_bytes(), &none, &[field]);
    }
    // Config fields the lowering derives from the kernel: edited in the JSON.
    for (from, to, field) in [
        (
            r#"\22serialization_format\22: 1"#,
            r#"\22has_communication\22: true, \22serialization_format\22: 1"#,
            "has_communication",
        ),
        (
            r#"\22needs_layout_passes\22: true"#,
            r#"\22needs_layout_passes\22: false"#,
            "needs_layout_passes",
        ),
        (
            r#"\22}}""#,
            r#"\22}, \22device_type\22: \22DEVICE_TYPE_TENSORCORE\22}""#,
            "device_type",
        ),
    ] {
        if !ours.contains(from) {
            failures.borrow_mut().fail(format!("{field}: no `{from}`"));
            continue;
        }
        check(
            field,
            ours.replacen(from, to, 1).into_bytes(),
            &none,
            &[field],
        );
    }
    // A backend_config key the reader does not know: compared as written.
    let from = r#"backend_config = "{\22custom_call_config\22: {"#;
    assert!(ours.contains(from));
    let edited = ours.replacen(from, &format!(r#"{from}\22extra_key\22: [1, 2], "#), 1);
    let report = diff_bytes(&jax, edited.as_bytes(), &none);
    let d: Vec<_> = report.differences().map(|(_, _, d)| d).collect();
    assert_eq!(d.len(), 1, "{report}");
    assert_eq!(
        (d[0].field.as_str(), d[0].a.as_deref(), d[0].b.as_deref()),
        (
            "backend_config.custom_call_config.extra_key",
            None,
            Some("[1,2]")
        )
    );
    // One operand type (edited in the signature of the function and the call).
    let edited = ours
        .replacen(
            "(tensor<8x128xf32>, tensor<8x128xf32>) -> ()",
            "(tensor<8x128xf32>, tensor<8x128xbf16>) -> ()",
            1,
        )
        .replacen("%arg1: tensor<8x128xf32>", "%arg1: tensor<8x128xbf16>", 1)
        .replacen(
            "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
            "(tensor<8x128xf32>, tensor<8x128xbf16>) -> tensor<8x128xf32>",
            1,
        );
    let report = diff_bytes(&jax, edited.as_bytes(), &none);
    let d: Vec<_> = report.differences().map(|(_, _, d)| d).collect();
    assert_eq!(d.len(), 1, "{report}");
    assert_eq!(
        (d[0].field.as_str(), d[0].a.as_deref(), d[0].b.as_deref()),
        (
            "operand_types[1]",
            Some("tensor<8x128xf32>"),
            Some("tensor<8x128xbf16>")
        )
    );
    // Debug locations: compared only when asked.
    let stripped = emit(add().with_params(r#"{"debug_locations": "strip"}"#));
    check("strip, no --locations", stripped.clone(), &none, &[]);
    let with_locations = DiffOptions {
        locations: true,
        ..DiffOptions::default()
    };
    check("strip", stripped, &with_locations, &["debug_locations"]);
    // --ignore: a field, and a prefix of fields.
    let changed = emit(add().with_params(
        r#"{"vmem_limit_bytes": 1000, "metadata": {"mesh": "x"}, "has_side_effects": "dataflow_side_effecting"}"#,
    ));
    let ignore = |fields: &[&str]| DiffOptions {
        ignore: fields.iter().map(|f| f.to_string()).collect(),
        ..DiffOptions::default()
    };
    check(
        "ignore",
        changed.clone(),
        &ignore(&["vmem_limit_bytes", "mhlo.frontend_attributes"]),
        &["has_side_effect"],
    );
    check(
        "ignore all",
        changed,
        &ignore(&[
            "vmem_limit_bytes",
            "mhlo.frontend_attributes",
            "has_side_effect",
        ]),
        &[],
    );
    failures.into_inner().assert_none();
    assert_eq!(checked, 30);
}

/// An unknown `--ignore` field is an error naming the closest field.
#[test]
fn unknown_ignore_field_is_an_error() {
    let options = DiffOptions {
        ignore: vec!["vmem_limit_byte".into()],
        ..DiffOptions::default()
    };
    let err = diff::check_options(&options).unwrap_err();
    assert!(
        err.to_string().contains("did you mean `vmem_limit_bytes`?"),
        "{err}"
    );
}

/// Modules with 2 and 3 calls of different kernels, in different orders and
/// with one call changed or missing, paired by order and by name.
#[test]
fn calls_are_paired_by_order_and_by_name() {
    let add = || CallSpec::of("add_basic", 0);
    let matmul = || CallSpec::of("matmul_grid", 0);
    let named = || CallSpec::of("kernel_name_metadata", 0);
    let emit = |calls: Vec<CallSpec>| emit_calls(&calls, &jax_rules_only(), false);
    // Calls emitted in another order take other arguments of @main: their
    // wiring differs (checked below); pairing is compared without it.
    let by_name = DiffOptions {
        match_by: MatchBy::Name,
        ignore: vec!["operands".to_string()],
        ..DiffOptions::default()
    };
    let order = DiffOptions {
        match_by: MatchBy::Order,
        ..DiffOptions::default()
    };

    // Two calls, swapped: by order both pairs differ; by name equal.
    let a = emit(vec![add(), matmul()]);
    let b = emit(vec![matmul(), add()]);
    let report = diff_bytes(&a, &b, &order);
    assert_eq!(report.pairs.len(), 2);
    assert!(
        report.pairs.iter().all(|p| !p.differences.is_empty()),
        "{report}"
    );
    assert!(
        report
            .differences()
            .any(|(_, _, d)| d.field == "kernel_name")
    );
    let wired = DiffOptions {
        match_by: MatchBy::Name,
        ..DiffOptions::default()
    };
    let fields: Vec<_> = diff_bytes(&a, &b, &wired)
        .differences()
        .map(|(_, _, d)| d.field.clone())
        .collect();
    assert_eq!(
        fields,
        ["operands[0]", "operands[1]", "operands[0]", "operands[1]"]
    );
    let report = diff_bytes(&a, &b, &by_name);
    assert!(report.is_equal(), "{report}");
    assert!(
        report.not_compared[0].contains("--ignore operands"),
        "{report:?}"
    );
    let pairs: Vec<_> = report
        .pairs
        .iter()
        .map(|p| (p.a_index, p.b_index))
        .collect();
    assert_eq!(pairs, [(0, 1), (1, 0)]);

    // Without kernel_name attributes: paired by the kernels' module names.
    let anonymous = |c: CallSpec| c.with_params(r#"{"kernel_name": null}"#);
    let a = emit(vec![anonymous(add()), anonymous(matmul())]);
    let b = emit(vec![anonymous(matmul()), anonymous(add())]);
    let report = diff_bytes(&a, &b, &by_name);
    assert!(report.is_equal(), "{report}");
    assert_eq!(report.pairs.len(), 2);
    assert!(report.pairs.iter().all(|p| p.a_kernel_name.is_none()));

    // Three calls, rotated, one with a changed field: by name exactly that field.
    let a = emit(vec![add(), matmul(), named()]);
    let b = emit(vec![
        named(),
        add(),
        matmul().with_params(r#"{"vmem_limit_bytes": 1000}"#),
    ]);
    let report = diff_bytes(&a, &b, &by_name);
    let d: Vec<_> = report
        .differences()
        .map(|(i, j, d)| (i, j, d.field.as_str()))
        .collect();
    assert_eq!(d, [(1, 2, "vmem_limit_bytes")], "{report}");
    assert!(report.unpaired.is_empty());
    let report = diff_bytes(&a, &b, &order);
    assert_eq!(report.pairs.len(), 3);
    assert!(
        report.pairs.iter().all(|p| !p.differences.is_empty()),
        "{report}"
    );

    // Three calls against two: the missing one is unpaired, both ways.
    let b = emit(vec![named(), add()]);
    let report = diff_bytes(&a, &b, &by_name);
    assert!(
        report.pairs.iter().all(|p| p.differences.is_empty()),
        "{report}"
    );
    assert_eq!(report.unpaired.len(), 1);
    assert_eq!(
        (report.unpaired[0].side, report.unpaired[0].index),
        (Side::A, 1)
    );
    assert!(
        report
            .to_string()
            .contains("only in a: tpu_custom_call #1 (kernel)"),
        "{report}"
    );
    let report = diff_bytes(&a, &b, &order);
    assert_eq!(report.pairs.len(), 2);
    assert_eq!(
        (report.unpaired[0].side, report.unpaired[0].index),
        (Side::A, 2)
    );
    let report = diff_bytes(&b, &a, &order);
    assert_eq!(
        (report.unpaired[0].side, report.unpaired[0].index),
        (Side::B, 2)
    );

    // JAX's four calls with repeated names (barrier_a, barrier_a, barrier_b,
    // barrier_b): by name, repeated names pair in order.
    let jax = golden_module("collective_id_auto_assign");
    let calls: Vec<CallSpec> = (0..4)
        .map(|i| CallSpec::of("collective_id_auto_assign", i))
        .collect();
    let mut reordered = calls;
    reordered.swap(0, 2);
    reordered.swap(1, 3);
    let ours = emit(reordered);
    let report = diff_bytes(&jax, &ours, &by_name);
    let pairs: Vec<_> = report
        .pairs
        .iter()
        .map(|p| (p.a_index, p.b_index))
        .collect();
    assert_eq!(pairs, [(0, 2), (1, 3), (2, 0), (3, 1)]);
    assert!(report.is_equal(), "{report}");
}

/// The test helpers: equal passes, different panics with the report.
#[test]
fn test_helpers_assert_with_the_report() {
    let jax = golden_module("add_basic");
    let ours = emit_calls(&[CallSpec::of("add_basic", 0)], &jax_rules_only(), false);
    testing::assert_calls_eq(&jax, &ours);
    let changed = emit_calls(
        &[CallSpec::of("add_basic", 0).with_params(r#"{"vmem_limit_bytes": 1000}"#)],
        &jax_rules_only(),
        false,
    );
    let panic = std::panic::catch_unwind(|| testing::assert_calls_eq(&jax, &changed)).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("vmem_limit_bytes (config):\n    - null\n    + 1000"),
        "{message}"
    );
    // A module built in memory.
    let ctx = Context::new();
    let kernel = Kernel::from_text(
        &ctx,
        &std::fs::read_to_string(goldens_dir().join("add_basic/kernel_pre_serde.generic.mlir"))
            .unwrap(),
        "add",
    )
    .unwrap();
    let f32x = Type::parse(&ctx, "tensor<8x128xf32>").unwrap();
    let module = lower::emit_module(
        &ctx,
        &kernel,
        &CallSpec::of("add_basic", 0).params,
        &[f32x, f32x],
        &[f32x],
        &jax_rules_only(),
    )
    .unwrap();
    testing::assert_module_calls_eq(&jax, &module);
}

/// The unified diff: hunks with context, line numbers, minimal edits.
#[test]
fn unified_diff_of_lines() {
    let a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
    let b = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
    assert_eq!(
        diff::unified_diff(a, b, "x", "y", 1),
        "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -10 +10,2 @@\n j\n+k\n"
    );
    assert_eq!(diff::unified_diff(a, a, "x", "y", 3), "");
    // Applying the edit script gives the second text back, and it is minimal
    // (its changed lines are len(a) + len(b) - 2 LCS), on pseudo-random inputs.
    let mut seed = 0x2545f491u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut failures = Failures::new();
    for _ in 0..200 {
        let mut lines = |n: u64| -> Vec<String> {
            (0..next() % n)
                .map(|_| ((b'a' + (next() % 4) as u8) as char).to_string())
                .collect()
        };
        let (x, y) = (lines(12), lines(12));
        if x == y {
            continue;
        }
        let text = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let (xs, ys) = (text(&x), text(&y));
        let unified = diff::unified_diff(&xs, &ys, "x", "y", 100);
        let mut rebuilt: Vec<String> = Vec::new();
        let mut changes = 0;
        for line in unified.lines().skip(2).filter(|l| !l.starts_with("@@")) {
            match line.as_bytes()[0] {
                b' ' => rebuilt.push(line[1..].to_string()),
                b'+' => {
                    rebuilt.push(line[1..].to_string());
                    changes += 1
                }
                _ => changes += 1,
            }
        }
        let lcs = {
            let mut t = vec![vec![0usize; y.len() + 1]; x.len() + 1];
            for i in (0..x.len()).rev() {
                for j in (0..y.len()).rev() {
                    t[i][j] = if x[i] == y[j] {
                        t[i + 1][j + 1] + 1
                    } else {
                        t[i + 1][j].max(t[i][j + 1])
                    };
                }
            }
            t[0][0]
        };
        failures.eq(format!("{xs:?} -> {ys:?}:\n{unified}"), &rebuilt, &y);
        failures.eq(
            format!("{xs:?} -> {ys:?}: changed lines (minimal)\n{unified}"),
            changes,
            x.len() + y.len() - 2 * lcs,
        );
    }
    failures.assert_none();
}

/// The CLI: exit 0 equal (nothing printed), 1 different (report on stdout),
/// 2 on errors; `--json`; bytecode input.
#[test]
fn cli_diff_exit_codes_and_output() {
    let dir = std::env::temp_dir().join(format!("tcc-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let jax = goldens_dir().join("add_basic/module.mlir");
    let jax = jax.to_str().unwrap();
    let ours = dir.join("ours.mlirbc");
    std::fs::write(
        &ours,
        emit_calls(&[CallSpec::of("add_basic", 0)], &jax_rules_only(), true),
    )
    .unwrap();
    let changed = dir.join("changed.mlir");
    std::fs::write(
        &changed,
        emit_calls(
            &[CallSpec::of("add_basic", 0).with_params(r#"{"vmem_limit_bytes": 1000}"#)],
            &jax_rules_only(),
            false,
        ),
    )
    .unwrap();
    let (code, out, err) = run_cli(&["diff", jax, ours.to_str().unwrap()]);
    assert_eq!((code, out.len()), (0, 0), "{err}");
    let (code, out, _) = run_cli(&["diff", jax, changed.to_str().unwrap()]);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 1);
    assert!(out.contains("tpu_custom_call #0 (_add_kernel) vs #0 (_add_kernel): 1 difference\n  vmem_limit_bytes (config):\n    - null\n    + 1000\n"), "{out}");
    let (code, out, _) = run_cli(&["diff", jax, changed.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["equal"], false);
    assert_eq!(
        json["pairs"][0]["differences"][0]["field"],
        "vmem_limit_bytes"
    );
    let (code, _, _) = run_cli(&[
        "diff",
        jax,
        changed.to_str().unwrap(),
        "--ignore",
        "vmem_limit_bytes",
    ]);
    assert_eq!(code, 0);
    let (code, out, err) = run_cli_stdin(
        &[
            "diff",
            "-",
            changed.to_str().unwrap(),
            "--ignore",
            "vmem_limit_bytes",
        ],
        Some(&std::fs::read(jax).unwrap()),
    );
    assert_eq!((code, out.len()), (0, 0), "{err}");
    let (code, out, err) = run_cli(&["diff", jax, dir.join("missing.mlir").to_str().unwrap()]);
    assert_eq!((code, out.len()), (2, 0));
    assert!(err.contains("missing.mlir"), "{err}");
    let (code, _, err) = run_cli(&["diff", jax, jax, "--ignore", "vmem"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run_cli(&["diff", jax]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The README's example with real JAX: `jax.jit(f).trace(..).lower(..).as_text()`
/// of a Pallas add against our emission of the same kernel: equal; with
/// `--locations` only the debug locations differ (JAX's file names are not
/// the fixture's).
#[test]
fn real_jax_module_equals_our_emission() {
    let Some(python) = jaxref_python("real_jax_module_equals_our_emission") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tcc-diff-jax-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let jax = dir.join("jax.mlir");
    let lowered = std::process::Command::new(&python)
        .arg(root.join("scripts/jaxref/lower_add_as_text.py"))
        .arg(&jax)
        .output()
        .unwrap();
    assert!(
        lowered.status.success(),
        "{}",
        String::from_utf8_lossy(&lowered.stderr)
    );
    let ours = dir.join("ours.mlir");
    let (code, _, err) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--params",
        "mlir-fixtures/params/add_basic.json",
        "-o",
        ours.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (jax, ours) = (jax.to_str().unwrap(), ours.to_str().unwrap());
    let (code, out, err) = run_cli(&["diff", jax, ours]);
    assert_eq!(code, 0, "{err}{}", String::from_utf8_lossy(&out));
    let (code, out, _) = run_cli(&["diff", jax, ours, "--locations", "--json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let differences = json["pairs"][0]["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 1, "{json}");
    assert_eq!(differences[0]["field"], "debug_locations");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The kernel compared field by field (issue 50): a function attribute is a
/// named field (`lowered_module_asm.dimension_semantics`), ignorable by its
/// bare name; an inserted op is one added line of the body, not a
/// renumbering of every value after it.
#[test]
fn kernels_are_compared_field_by_field_and_modulo_ssa_names() {
    let matmul = || CallSpec::of("matmul_grid", 0);
    let emit = |spec: CallSpec| emit_calls(&[spec], &jax_rules_only(), false);
    let base = emit(matmul());
    let none = DiffOptions::default();
    // The reduction dimension made parallel: one field, its two values.
    let mut semantics = matmul();
    let from = "#tpu.dimension_semantics<arbitrary>]";
    assert!(semantics.kernel.contains(from));
    semantics.kernel = semantics
        .kernel
        .replacen(from, "#tpu.dimension_semantics<parallel>]", 1);
    let changed = emit(semantics);
    let report = diff_bytes(&base, &changed, &none);
    let fields: Vec<_> = report.differences().map(|(_, _, d)| d.clone()).collect();
    assert_eq!(fields.len(), 1, "{report}");
    assert_eq!(fields[0].field, "lowered_module_asm.dimension_semantics");
    assert_eq!(fields[0].kind, DifferenceKind::Kernel);
    assert_eq!(
        fields[0].a.as_deref(),
        Some(
            "[#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<parallel>, \
             #tpu.dimension_semantics<arbitrary>]"
        )
    );
    assert!(fields[0].b.as_deref().unwrap().ends_with("<parallel>]"));
    // Ignored by its bare name, or by its full one; not by the body's.
    for ignore in [
        "dimension_semantics",
        "lowered_module_asm.dimension_semantics",
    ] {
        let options = DiffOptions {
            ignore: vec![ignore.to_string()],
            ..DiffOptions::default()
        };
        assert!(diff_bytes(&base, &changed, &options).is_equal(), "{ignore}");
    }
    // An op inserted in the body: one added line.
    let mut inserted = matmul();
    // (The kernel as JAX wrote it before serialization: generic form.)
    let line = "    %19 = \"arith.addf\"(%10, %18) <{fastmath = #arith.fastmath<none>}> : \
                (vector<128x128xf32>, vector<128x128xf32>) -> vector<128x128xf32> loc(#loc77)\n";
    assert!(inserted.kernel.contains(line));
    inserted.kernel = inserted.kernel.replacen(
        line,
        &format!(
            "{line}    %extra = \"arith.mulf\"(%19, %19) <{{fastmath = #arith.fastmath<none>}}> : \
             (vector<128x128xf32>, vector<128x128xf32>) -> vector<128x128xf32> loc(#loc77)\n"
        ),
        1,
    );
    let report = diff_bytes(&base, &emit(inserted), &none);
    let fields: Vec<_> = report.differences().map(|(_, _, d)| d.clone()).collect();
    assert_eq!(fields.len(), 1, "{report}");
    assert_eq!(fields[0].field, "lowered_module_asm");
    let unified = fields[0].diff.as_deref().unwrap();
    let changed: Vec<&str> = unified
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    assert_eq!(
        changed,
        ["+    %8 = arith.mulf %7, %7 : vector<128x128xf32>"],
        "{unified}"
    );
    // Swapped operands are a changed line, though equal with names blanked.
    let mut swapped = matmul();
    swapped.kernel = swapped
        .kernel
        .replacen(line, &line.replace("(%10, %18)", "(%18, %10)"), 1);
    let report = diff_bytes(&base, &emit(swapped), &none);
    let unified = report.pairs[0].differences[0].diff.clone().unwrap();
    assert!(
        unified.contains("-    %7 = arith.addf %3, %6 : vector<128x128xf32>\n")
            && unified.contains("+    %7 = arith.addf %6, %3 : vector<128x128xf32>\n"),
        "{unified}"
    );
}

/// The default pairing: by kernel_name when a module has several calls and
/// all are named (a kernel inserted is one unpaired call), else in order.
#[test]
fn calls_are_paired_by_name_by_default_when_named() {
    let add = || CallSpec::of("add_basic", 0);
    let matmul = || CallSpec::of("matmul_grid", 0);
    let named = || CallSpec::of("kernel_name_metadata", 0);
    let emit = |calls: Vec<CallSpec>| emit_calls(&calls, &jax_rules_only(), false);
    let options = DiffOptions {
        ignore: vec!["operands".to_string()],
        ..DiffOptions::default()
    };
    let a = emit(vec![add(), matmul()]);
    let b = emit(vec![named(), add(), matmul()]);
    let report = diff_bytes(&a, &b, &options);
    assert_eq!(report.paired_by, MatchBy::Name);
    assert!(
        report.pairs.iter().all(|p| p.differences.is_empty()),
        "{report}"
    );
    assert_eq!(report.unpaired.len(), 1, "{report}");
    let text = report.to_string();
    assert!(text.contains("paired: by kernel_name\n"), "{text}");
    assert!(text.contains("only in b: tpu_custom_call #0"), "{text}");
    assert_eq!(report.to_json()["paired_by"], "name");
    // A call without a kernel_name: in order.
    let anonymous = |c: CallSpec| c.with_params(r#"{"kernel_name": null}"#);
    let c = emit(vec![anonymous(add()), matmul()]);
    assert_eq!(diff_bytes(&a, &c, &options).paired_by, MatchBy::Order);
}
