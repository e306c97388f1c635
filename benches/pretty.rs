//! The custom (pretty) syntax of `tpu` ops: rewriting JAX's pretty kernel into
//! generic text and back, and loading/printing it whole.

use criterion::{Criterion, criterion_group, criterion_main};
use tpu_custom_call::pretty::{generic_to_pretty, pretty_to_generic};
use tpu_custom_call::{Context, Kernel, PrintOptions};

fn pretty(c: &mut Criterion) {
    let path = format!(
        "{}/mlir-fixtures/kernels/sc_scan_reduce.pretty.mlir",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let ctx = Context::new();
    let kernel = Kernel::from_text(&ctx, &text, "sc_scan_reduce").unwrap();
    let printed = kernel.print(PrintOptions::default()).unwrap();
    c.bench_function("pretty_to_generic/sc_scan_reduce", |b| {
        b.iter(|| pretty_to_generic(&text).unwrap())
    });
    c.bench_function("generic_to_pretty/sc_scan_reduce", |b| {
        b.iter(|| generic_to_pretty(&printed))
    });
    c.bench_function("load_pretty_text/sc_scan_reduce", |b| {
        b.iter(|| Kernel::from_text(&ctx, &text, "sc_scan_reduce").unwrap())
    });
    c.bench_function("print_pretty/sc_scan_reduce", |b| {
        b.iter(|| kernel.print_pretty(false).unwrap())
    });
}

criterion_group!(benches, pretty);
criterion_main!(benches);
