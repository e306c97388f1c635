//! Kernel text loader: arbitrary bytes -> `Kernel::load` / `Kernel::from_text`
//! (generic form, upstream pretty form and the `tpu` pretty syntax). A kernel
//! that loads must print (generic and pretty) and the printed text must load
//! again, and the call checks (analysis, contract, libtpu's rules for a
//! TensorCore and a SparseCore chip) must answer on it.

use libfuzzer_sys::fuzz_target;
use tpu_custom_call::{Chip, Context, Kernel, Params, PrintOptions, validate};

fuzz_target!(|data: &[u8]| {
    let ctx = Context::new();
    let kernel = match std::str::from_utf8(data) {
        Ok(text) => Kernel::from_text(&ctx, text, "fuzz"),
        Err(_) => Kernel::load(&ctx, data, "fuzz"),
    };
    let Ok(kernel) = kernel else {
        return;
    };
    for target in [None, Some(Chip::V5e), Some(Chip::V7x)] {
        let _ = validate::problems(Some(&kernel), None, &Params::default(), target);
    }
    let generic = kernel
        .print(PrintOptions::GENERIC_WITH_LOCATIONS)
        .unwrap_or_else(|e| panic!("loaded kernel does not print: {e}"));
    if let Err(e) = Kernel::from_text(&ctx, &generic, "printed") {
        panic!("printed generic kernel does not load again: {e}\n{generic}");
    }
    let pretty = kernel
        .print_pretty(false)
        .unwrap_or_else(|e| panic!("loaded kernel does not print pretty: {e}"));
    if let Err(e) = Kernel::from_text(&ctx, &pretty, "printed") {
        panic!("printed pretty kernel does not load again: {e}\n{pretty}");
    }
});

fn main() {
    tpu_custom_call_fuzz::main()
}
