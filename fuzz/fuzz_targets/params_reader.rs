//! PARAMS.json reader and validation: arbitrary bytes ->
//! `Params::from_json_all` / `Params::from_json`, then
//! `lower_config` (the parameter rules) against TensorCore and SparseCore
//! kernel facts, and `validate::problems` without a kernel. Parameters that read must write (`to_json`) and read back equal
//! (metadata numbers by value: `to_json` writes them through serde_json,
//! which respells them, `1.0e0` as `1.0`, and rounds them to `f64`).

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::analysis::KernelFacts;
use tpu_custom_call::config::json::JsonValue;
use tpu_custom_call::{DeviceType, Params, lower_config, validate};

fuzz_target!(|data: &[u8]| {
    let all = Params::from_json_all(data);
    let one = Params::from_json(data);
    assert_eq!(
        all.is_ok(),
        one.is_ok(),
        "from_json and from_json_all disagree"
    );
    let Ok(params) = one else {
        return;
    };
    let facts = [
        KernelFacts::default(),
        KernelFacts {
            has_communication: true,
            has_custom_barrier: true,
            ..KernelFacts::default()
        },
        KernelFacts {
            device_type: Some(DeviceType::SparseCore),
            active_core_count: Some(2),
            ..KernelFacts::default()
        },
    ];
    for facts in &facts {
        if let Err(error) = lower_config(&params, facts, Vec::new(), None, params.ir_version) {
            let _ = error.to_string();
        }
    }
    for error in validate::problems(None, None, &params, None) {
        let _ = error.to_string();
    }
    let json = params.to_json();
    let again = Params::from_json(json.as_bytes())
        .unwrap_or_else(|e| panic!("written params do not read back: {e}\n{json}"));
    assert!(
        same_params(&again, &params),
        "params do not round-trip\n{json}\n{again:?}\n{params:?}"
    );
});

fn same_params(a: &Params, b: &Params) -> bool {
    let (mut a, mut b) = (a.clone(), b.clone());
    let (ma, mb) = (a.metadata.take(), b.metadata.take());
    a == b
        && match (ma, mb) {
            (None, None) => true,
            (Some(x), Some(y)) => same_members(&x, &y),
            _ => false,
        }
}

fn same_members(a: &[(String, JsonValue)], b: &[(String, JsonValue)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_json(va, vb))
}

fn same_json(a: &JsonValue, b: &JsonValue) -> bool {
    match (a, b) {
        (JsonValue::Number(x), JsonValue::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (JsonValue::Object(x), JsonValue::Object(y)) => same_members(x, y),
        _ => a == b,
    }
}

fn main() {
    tpu_custom_call_fuzz::main()
}
