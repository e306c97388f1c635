//! backend_config JSON reader: arbitrary bytes -> `BackendConfig::from_json`.
//! A config that reads must write back (or fail with an error, never a
//! panic), and the written JSON must read again to the canonical form of the
//! first reading and write back to the same bytes.

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::BackendConfig;

fuzz_target!(|data: &[u8]| {
    let Ok((config, report)) = BackendConfig::from_json(data) else {
        return;
    };
    let use_core_ids = report.use_core_ids_or_default();
    // The writer refuses values JAX would write as broken JSON (flag names
    // with quotes, input memory spaces JAX cannot write): an error is fine.
    let Ok(json) = config.to_json(use_core_ids) else {
        return;
    };
    let (again, report2) = BackendConfig::from_json(json.as_bytes())
        .unwrap_or_else(|e| panic!("written config does not read back: {e}\n{json}"));
    assert_eq!(
        again,
        config.canonical(),
        "re-read config is not the canonical form\n{json}"
    );
    let json2 = again
        .to_json(report2.use_core_ids_or_default())
        .unwrap_or_else(|e| panic!("re-read config does not write: {e}"));
    assert_eq!(json, json2, "writing is not a fixed point");
});

fn main() {
    tpu_custom_call_fuzz::main()
}
