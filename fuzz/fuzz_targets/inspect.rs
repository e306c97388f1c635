//! `inspect` on arbitrary module bytes (bytecode, generic text, JAX's pretty
//! text): `decode::find_calls`, then `decode::decode_module` (config, body,
//! kernel, parameters). A decoded call must summarize and give JSON.

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
        let _ = call.summary();
        let _ = call.to_json();
    }
});

fn main() {
    tpu_custom_call_fuzz::main()
}
