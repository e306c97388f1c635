//! Whole `emit` (load the kernel text, lower, print the StableHLO module) of
//! the golden add and matmul kernels and of synthetic 1k/10k/100k-op kernels
//! (each with its floor: MLIR parse + plain bytecode write), 1,000 calls into
//! one module through `pass::lower_module`, and decoding a module with 100
//! calls.
//!
//! Run: `cargo bench --bench emit` (the 100k-op kernel only with
//! `TCC_BENCH_LARGE=1`: it is slow in `cargo test --benches`).

mod common;

use common::{kernel_op_count, synthetic_kernel};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::pass::{self, PassOptions};
use tpu_custom_call::validate::{self, Signature};
use tpu_custom_call::{BytecodeOptions, Context, Kernel, Params, PrintOptions, decode, kernel};

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/mlir-fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

/// The whole emit as the CLI does it, from kernel text to module text.
fn whole_emit(
    ctx: &Context,
    text: &str,
    params: &Params,
    operands: &[&str],
    results: &[&str],
) -> String {
    let kernel = Kernel::from_text(ctx, text, "kernel").unwrap();
    let parse = |t: &&str| Type::parse(ctx, t).unwrap();
    let operand_types: Vec<Type> = operands.iter().map(parse).collect();
    let result_types: Vec<Type> = results.iter().map(parse).collect();
    // JAX's rules only: the synthetic kernels use `tpu.scan` on the TensorCore,
    // which JAX emits and libtpu refuses; the bench measures the emit path.
    let call = validate::validate_with(
        &kernel,
        Signature::new(operand_types, result_types),
        params,
        None,
        &validate::ValidateOptions::jax_rules_only(),
    )
    .unwrap();
    let module = Lowerer::new(LowerOptions::default())
        .emit_module(ctx, &call)
        .unwrap();
    kernel::print_module(&module, PrintOptions::default()).unwrap()
}

/// MLIR parse + plain bytecode write of the same text, nothing else.
fn floor(ctx: &Context, text: &str) -> Vec<u8> {
    let kernel = Kernel::from_text(ctx, text, "kernel").unwrap();
    kernel.to_bytecode(&BytecodeOptions::default()).unwrap()
}

const F32: &str = "tensor<8x128xf32>";

fn golden(c: &mut Criterion) {
    let ctx = Context::new();
    let mut group = c.benchmark_group("emit");
    group.measurement_time(Duration::from_secs(3));
    let add = fixture("kernels/add.mlir");
    let add_params = Params::from_json(fixture("params/add_basic.json").as_bytes()).unwrap();
    group.bench_function("golden/add", |b| {
        b.iter(|| whole_emit(&ctx, &add, &add_params, &[F32, F32], &[F32]))
    });
    let matmul = fixture("kernels/matmul.mlir");
    let matmul_params = Params::from_json(fixture("params/matmul_grid.json").as_bytes()).unwrap();
    group.bench_function("golden/matmul", |b| {
        b.iter(|| {
            whole_emit(
                &ctx,
                &matmul,
                &matmul_params,
                &["tensor<256x512xbf16>", "tensor<512x384xbf16>"],
                &["tensor<256x384xf32>"],
            )
        })
    });
    group.finish();
}

fn synthetic(c: &mut Criterion) {
    let ctx = Context::new();
    let params = Params::from_json(br#"{"kernel_name": "bench", "metadata": {}}"#).unwrap();
    let mut sizes = vec![1_000usize, 10_000];
    if std::env::var_os("TCC_BENCH_LARGE").is_some() {
        sizes.push(100_000);
    }
    let mut group = c.benchmark_group("emit_synthetic");
    for size in sizes {
        let text = synthetic_kernel(size);
        let ops = kernel_op_count(&text) as u64;
        group.throughput(Throughput::Elements(ops));
        if size >= 100_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(10));
        } else {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(4));
        }
        group.bench_with_input(BenchmarkId::new("whole_emit", size), &text, |b, text| {
            b.iter(|| whole_emit(&ctx, text, &params, &[F32], &[F32]))
        });
        group.bench_with_input(BenchmarkId::new("floor", size), &text, |b, text| {
            b.iter(|| floor(&ctx, text))
        });
    }
    group.finish();
}

/// A StableHLO module with the add kernel nested and `calls` chained
/// placeholders calling it.
fn placeholder_module(calls: usize) -> String {
    // The add kernel nested as `@_add_kernel`, from the pipeline fixture.
    let fixture_text = fixture("pipeline/three_calls.mlir");
    let start = fixture_text
        .find("  \"builtin.module\"() <{sym_name = \"_add_kernel\"}>")
        .expect("nested add kernel");
    let end = fixture_text
        .find("  \"builtin.module\"() <{sym_name = \"_copy_add1_kernel\"}>")
        .expect("second kernel");
    let kernel_text = &fixture_text[start..end];
    let mut body = String::new();
    let mut prev = "%x".to_string();
    for i in 0..calls {
        body.push_str(&format!(
            "    %{i} = \"tpu_custom_call.call\"({prev}, %y) {{kernel = @_add_kernel, kernel_name = \"_add_kernel\", metadata = {{}}}} : ({F32}, {F32}) -> {F32}\n"
        ));
        prev = format!("%{i}");
    }
    format!(
        "\"builtin.module\"() <{{sym_name = \"jit_model\"}}> ({{\n{kernel_text}\
         \x20 \"func.func\"() <{{function_type = ({F32}, {F32}) -> {F32}, sym_name = \"main\", sym_visibility = \"public\"}}> ({{\n\
         \x20 ^bb0(%x: {F32}, %y: {F32}):\n{body}\
         \x20   \"func.return\"({prev}) : ({F32}) -> ()\n\
         \x20 }}) : () -> ()\n\
         }}) : () -> ()\n"
    )
}

fn lower_placeholders<'c>(ctx: &'c Context, text: &str) -> Module<'c> {
    let module = Module::parse(ctx, text).expect("placeholder module");
    pass::lower_module(ctx, module.as_operation(), &PassOptions::default()).unwrap();
    module
}

fn many_calls(c: &mut Criterion) {
    let ctx = Context::new();
    let mut group = c.benchmark_group("calls");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    let text = placeholder_module(1_000);
    group.throughput(Throughput::Elements(1_000));
    group.bench_function("lower_module/1000_calls", |b| {
        b.iter_batched(
            || Module::parse(&ctx, &text).expect("placeholder module"),
            |module| {
                pass::lower_module(&ctx, module.as_operation(), &PassOptions::default()).unwrap();
                module
            },
            BatchSize::LargeInput,
        )
    });
    let lowered = lower_placeholders(&ctx, &placeholder_module(100));
    let printed = kernel::print_module(&lowered, PrintOptions::default()).unwrap();
    group.throughput(Throughput::Elements(100));
    group.bench_function("decode_module/100_calls", |b| {
        b.iter(|| {
            let calls = decode::decode_module(&ctx, printed.as_bytes(), "calls.mlir").unwrap();
            assert_eq!(calls.len(), 100);
            calls.len()
        })
    });
    group.finish();
}

criterion_group!(benches, golden, synthetic, many_calls);
criterion_main!(benches);
