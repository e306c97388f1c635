//! Body decoder: the path `decode`/`inspect` takes for a call's body.
//! The first byte picks the input form: even, the rest is the base64 text of
//! `lowered_module_asm`; odd, the rest is raw bytecode. Then the JAX 0.12 ->
//! LLVM 22 transcoder (`bytecode::down`), the serde version probe and
//! `serde::deserialize`. A body that deserializes must print.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use libfuzzer_sys::fuzz_target;
use tpu_custom_call::{Context, PrintOptions, bytecode, serde};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let raw;
    let body = if mode & 1 == 0 {
        match STANDARD.decode(rest) {
            Ok(bytes) => {
                raw = bytes;
                raw.as_slice()
            }
            Err(_) => return,
        }
    } else {
        rest
    };
    let Ok(body) = bytecode::down(body) else {
        return;
    };
    let ctx = Context::new();
    if serde::body_ir_version(&ctx, &body).is_err() {
        return;
    }
    let Ok(kernel) = serde::deserialize(&ctx, &body, None) else {
        return;
    };
    kernel
        .print(PrintOptions::GENERIC_WITH_LOCATIONS)
        .unwrap_or_else(|e| panic!("deserialized kernel does not print: {e}"));
});

fn main() {
    tpu_custom_call_fuzz::main()
}
