//! Kernel loading, printing and bytecode round trips on every golden kernel.

use tpu_custom_call::{BytecodeOptions, Context, Kernel, PrintOptions};

use crate::common::*;

#[test]
fn every_golden_kernel_loads_and_round_trips() {
    for case in golden_cases() {
        let name = case_name(&case);
        let path = case.join("kernel_pre_serde.generic.mlir");
        let text = std::fs::read_to_string(&path).unwrap();
        let ctx = Context::new();
        let kernel = Kernel::from_text(&ctx, &text, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let printed = kernel.print(PrintOptions::GENERIC_WITH_LOCATIONS).unwrap();
        let bytes = kernel.to_bytecode(&BytecodeOptions::default()).unwrap();
        let back = Kernel::from_bytecode(&ctx, &bytes, "bytecode").unwrap();
        let reprinted = back.print(PrintOptions::GENERIC_WITH_LOCATIONS).unwrap();
        assert_eq!(printed, reprinted, "{name}: text -> bytecode -> text");
        if printed != text {
            eprintln!("{name}: printed differs from golden text");
            std::fs::write(format!("/tmp/printed_{name}.mlir"), &printed).unwrap();
        }
    }
}
