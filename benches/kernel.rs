//! Context creation, kernel load (text and bytecode) and bytecode write on the
//! bundled golden kernels.

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::{BytecodeOptions, Context, Kernel};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/mlir-fixtures/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("fixture")
}

fn context(c: &mut Criterion) {
    c.bench_function("context/new", |b| b.iter(Context::new));
}

fn load(c: &mut Criterion) {
    for name in ["add.mlir", "matmul.mlir"] {
        let text = fixture(name);
        let ctx = Context::new();
        let kernel = Kernel::from_text(&ctx, &text, name).unwrap();
        let bytecode = kernel.to_bytecode(&BytecodeOptions::default()).unwrap();
        c.bench_function(&format!("load_text/{name}"), |b| {
            b.iter(|| Kernel::from_text(&ctx, &text, name).unwrap())
        });
        c.bench_function(&format!("load_bytecode/{name}"), |b| {
            b.iter(|| Kernel::from_bytecode(&ctx, &bytecode, name).unwrap())
        });
        c.bench_function(&format!("write_bytecode/{name}"), |b| {
            b.iter(|| kernel.to_bytecode(&BytecodeOptions::default()).unwrap())
        });
    }
}

criterion_group!(benches, context, load);
criterion_main!(benches);
