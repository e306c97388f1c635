//! `inspect` on arbitrary module bytes (bytecode, generic text, JAX's pretty
//! text): `decode::find_calls`, then `decode::decode_module` (config, body,
//! kernel, parameters). What `inspect` prints of a decoded call must be
//! there for every call: the config and parameters written back as JSON,
//! the device type, the kernel printed.

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::{Context, decode};

fuzz_target!(|data: &[u8]| {
    let ctx = Context::new();
    if decode::find_calls(&ctx, data, "fuzz").is_err() {
        return;
    }
    let Ok(calls) = decode::decode_module(&ctx, data, "fuzz") else {
        return;
    };
    for call in &calls {
        let _ = call.config.to_json(call.params.use_core_ids());
        let _ = call.params.to_json();
        let _ = call.device_type_name();
        let _ = call.kernel.print(tpu_custom_call::PrintOptions::default());
    }
});

fn main() {
    tpu_custom_call_fuzz::main()
}
