//! `diff` on two arbitrary modules: the input is one mode byte (bit 0: pair
//! calls by name, not by order; bit 1: compare debug locations too), two
//! bytes (little-endian) saying where the rest splits into module A and
//! module B, then the bytes of both. `diff::diff_modules` decodes both
//! (bytecode, generic text, JAX's pretty text) and compares their calls;
//! the report is rendered as text and JSON. A module that decodes is equal
//! to itself (asserted).

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::Context;
use tpu_custom_call::diff::{self, DiffOptions, MatchBy};

fuzz_target!(|data: &[u8]| {
    let [mode, lo, hi, rest @ ..] = data else {
        return;
    };
    let split = usize::from(u16::from_le_bytes([*lo, *hi])).min(rest.len());
    let (a, b) = rest.split_at(split);
    let options = DiffOptions {
        match_by: if mode & 1 == 0 {
            MatchBy::Order
        } else {
            MatchBy::Name
        },
        ignore: Vec::new(),
        locations: mode & 2 != 0,
    };
    let ctx = Context::new();
    if let Ok(report) = diff::diff_modules(&ctx, (a, "a.mlir"), (b, "b.mlir"), &options) {
        let _ = report.to_string();
        let _ = report.to_json();
    }
    if let Ok(report) = diff::diff_modules(&ctx, (a, "a.mlir"), (a, "a.mlir"), &options) {
        assert!(report.is_equal(), "a module differs from itself:\n{report}");
    }
});

fn main() {
    tpu_custom_call_fuzz::main()
}
