//! PARAMS.json reader and validation: arbitrary bytes ->
//! `Params::from_json_all` / `Params::from_json`, then
//! `validate::validate_params` against TensorCore and SparseCore kernel
//! facts. Parameters that read must write (`to_json`) and read back equal.

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::analysis::KernelFacts;
use tpu_custom_call::{DeviceType, Params, validate};

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
        for error in validate::validate_params(&params, facts) {
            let _ = error.to_string();
        }
    }
    let json = params.to_json();
    let again = Params::from_json(json.as_bytes())
        .unwrap_or_else(|e| panic!("written params do not read back: {e}\n{json}"));
    assert_eq!(again, params, "params do not round-trip\n{json}");
});

fn main() {
    tpu_custom_call_fuzz::main()
}
