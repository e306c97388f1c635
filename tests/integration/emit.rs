//! Emission of the op itself, checked attribute by attribute against the
//! custom calls JAX 0.12 emitted in the goldens (`custom_calls.json`).

use serde_json::Value as Json;
use tpu_custom_call::Context;
use tpu_custom_call::Kernel;
use tpu_custom_call::bytecode::Encodings;
use tpu_custom_call::decode;
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior;
use tpu_custom_call::validate::{self, Signature};

use crate::common::*;

/// The golden's calls, as JAX recorded them.
fn golden_calls(case: &std::path::Path) -> Vec<Json> {
    let text = std::fs::read_to_string(case.join("custom_calls.json")).unwrap();
    serde_json::from_str::<Json>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn parse_types<'c>(ctx: &'c Context, types: &Json) -> Vec<melior::ir::Type<'c>> {
    types
        .as_array()
        .unwrap()
        .iter()
        .map(|t| melior::ir::Type::parse(ctx.mlir(), t.as_str().unwrap()).unwrap())
        .collect()
}

/// For every call of every golden: the op we emit from the call's parameters
/// (through the validation witness) has exactly JAX's attribute names, in
/// JAX's order, and each prints exactly as JAX's does.
#[test]
fn emitted_attributes_equal_jax_for_every_golden_call() {
    let mut checked = 0;
    let mut failures = Failures::new();
    for case in golden_cases() {
        let name = case_name(&case);
        for call in golden_calls(&case) {
            let ctx = Context::new();
            let attrs = call["attributes"].as_object().unwrap();
            let printed = |k: &str| attrs.get(k).and_then(Json::as_str);
            let golden = crate::lower::GoldenCall {
                case: case.clone(),
                index: call["index"].as_u64().unwrap() as usize,
            };
            let text = std::fs::read_to_string(golden.kernel_path()).unwrap();
            let Some(kernel) = failures.ok(&name, Kernel::from_text(&ctx, &text, &name)) else {
                continue;
            };
            let operand_types = parse_types(&ctx, &call["operand_types"]);
            let result_types = parse_types(&ctx, &call["result_types"]);
            let n_shapes = if attrs.contains_key("indices_of_shape_operands") {
                result_types.len()
            } else {
                0
            };
            let real_operands = &operand_types[..operand_types.len() - n_shapes];
            let signature = Signature::new(real_operands, result_types.clone());
            // JAX's rules only: JAX emits what libtpu would refuse.
            let validated = match validate::validate_with(
                &kernel,
                signature,
                &golden.params(),
                None,
                &validate::ValidateOptions::jax_rules_only(),
            ) {
                Ok(validated) => validated,
                Err(errors) => {
                    failures.fail(format!("{name}: {errors:?}"));
                    continue;
                }
            };
            let Some(module) = failures.ok(
                &name,
                Lowerer::new(LowerOptions {
                    producer: Some("MLIR24.0.0git".to_string()),
                    encodings: Encodings::Llvm24,
                    ..LowerOptions::default()
                })
                .emit_module(&ctx, &validated),
            ) else {
                continue;
            };
            failures.check(
                melior::ir::operation::OperationLike::verify(&module.as_operation()),
                || format!("{name}: the module does not verify"),
            );
            let Some(found) = failures.ok(
                format!("{name}: decoding"),
                decode::find_in_operation(module.as_operation()),
            ) else {
                continue;
            };
            let [ours] = found.as_slice() else {
                failures.fail(format!("{name}: {} calls found, not 1", found.len()));
                continue;
            };
            let names: Vec<&str> = ours.attributes.iter().map(|(n, _)| n.as_str()).collect();
            let jax_names: Vec<&str> = call["attribute_names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            failures.eq(format!("{name}: attribute names"), names, jax_names);
            for (attr, value) in &ours.attributes {
                failures.check(
                    attr == "backend_config" || Some(value.as_str()) == printed(attr),
                    || format!("{name}: {attr} = {value}, JAX: {:?}", printed(attr)),
                );
            }
            let types: Vec<String> = call["operand_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            failures.eq(
                format!("{name}: operand types"),
                &ours.operand_types,
                &types,
            );
            checked += 1;
        }
    }
    failures.assert_none();
    assert!(checked >= 39, "checked {checked} calls");
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Decoding JAX's own pretty-printed modules finds every call with JAX's
/// attributes (defaults the pretty printer omits are restored).
#[test]
fn decode_finds_every_call_in_jax_pretty_modules() {
    let mut failures = Failures::new();
    let mut total = 0;
    for case in golden_cases() {
        let name = case_name(&case);
        let ctx = Context::new();
        let bytes = std::fs::read(case.join("module.mlir")).unwrap();
        let Some(found) = failures.ok(&name, decode::find_calls(&ctx, &bytes, "module.mlir"))
        else {
            continue;
        };
        let golden = golden_calls(&case);
        failures.eq(
            format!("{name}: number of calls"),
            found.len(),
            golden.len(),
        );
        for (i, (ours, jax)) in found.iter().zip(&golden).enumerate() {
            let call = format!("{name} call {i}");
            let attrs = jax["attributes"].as_object().unwrap();
            failures.eq(
                format!("{call}: backend_config sha256"),
                sha256_hex(ours.backend_config.as_bytes()).as_str(),
                attrs["backend_config"]["sha256"].as_str().unwrap(),
            );
            for (attr, value) in &ours.attributes {
                match attrs.get(attr) {
                    Some(Json::String(jax_value)) => {
                        failures.eq(format!("{call}: {attr}"), value, jax_value)
                    }
                    Some(_) => failures.eq(
                        format!("{call}: attribute JAX recorded as a hash"),
                        attr.as_str(),
                        "backend_config",
                    ),
                    None => failures.check(
                        decode::PRETTY_DEFAULTS
                            .iter()
                            .any(|(n, v)| n == attr && v == value),
                        || format!("{call}: unexpected {attr} = {value}"),
                    ),
                }
            }
            for key in attrs.keys() {
                failures.check(ours.attribute(key).is_some(), || {
                    format!("{call}: missing {key}")
                });
            }
            let types: Vec<String> = jax["operand_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            failures.eq(
                format!("{call}: operand types"),
                &ours.operand_types,
                &types,
            );
            let types: Vec<String> = jax["result_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_string())
                .collect();
            failures.eq(format!("{call}: result types"), &ours.result_types, &types);
            total += 1;
        }
    }
    failures.assert_none();
    assert!(total >= 39);
}
