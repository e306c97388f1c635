//! Reading a JAX module of about 11k StableHLO ops: in the pretty form JAX
//! prints (`Lowered.as_text()`) against MLIR's generic parse of the same
//! module as jaxlib prints it generic, side by side (issue 31).
//!
//! The module is `benches/data/jax_unrolled{,.generic}.mlir` (an unrolled jnp
//! program JAX lowered, made by `scripts/jaxref/pretty/gen_bench_module.py`)
//! with its functions repeated ten times under new names. The pretty read is
//! measured only where the pass-through `stablehlo` dialect parses the pretty
//! form (otherwise the bench says so and measures the generic read alone).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tpu_custom_call::{Context, interop, kernel};

/// Copies of the module's functions in the benchmarked module.
const COPIES: usize = 10;

/// The module's text repeated: its functions (between the first line and the
/// module's closing line) `COPIES` times, renamed `@main_<k>`, `@relu_<k>`.
fn repeated(text: &str, generic: bool) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let (first, body, last) = (lines[0], &lines[1..lines.len() - 1], lines[lines.len() - 1]);
    let body = body.join("\n");
    let mut out = format!("{first}\n");
    for k in 0..COPIES {
        let mut copy = body.replace("@main", &format!("@main_{k}"));
        copy = copy.replace("@relu", &format!("@relu_{k}"));
        if generic {
            copy = copy.replace("sym_name = \"main\"", &format!("sym_name = \"main_{k}\""));
            copy = copy.replace("sym_name = \"relu\"", &format!("sym_name = \"relu_{k}\""));
        }
        out.push_str(&copy);
        out.push('\n');
    }
    out.push_str(last);
    out.push('\n');
    out
}

fn read(c: &mut Criterion) {
    let dir = format!("{}/benches/data", env!("CARGO_MANIFEST_DIR"));
    let pretty = repeated(
        &std::fs::read_to_string(format!("{dir}/jax_unrolled.mlir")).expect("pretty module"),
        false,
    );
    let generic = repeated(
        &std::fs::read_to_string(format!("{dir}/jax_unrolled.generic.mlir"))
            .expect("generic module"),
        true,
    );
    let ops = pretty
        .lines()
        .filter(|l| l.contains("= stablehlo.") || l.trim_start().starts_with("stablehlo."))
        .count();
    let ctx = Context::new();
    let read = |text: &str| interop::read_module(&ctx, text.as_bytes(), "jax_unrolled.mlir");
    let generic_module = read(&generic).expect("the generic module parses");
    let pretty_parses = match read(&pretty) {
        Ok(module) => {
            // The same module either way: both print the same generic text.
            let print = |m| {
                kernel::print_module(
                    m,
                    tpu_custom_call::PrintOptions {
                        generic: true,
                        debug_info: false,
                    },
                )
            };
            assert_eq!(
                print(&module).expect("print"),
                print(&generic_module).expect("print"),
                "the pretty and generic reads differ"
            );
            true
        }
        Err(e) => {
            let message = e.to_string();
            let first = message
                .split("; pass the module")
                .next()
                .unwrap_or_default();
            eprintln!(
                "jax_module: the pretty form is not read here ({first}); measuring the generic read only"
            );
            false
        }
    };
    let mut group = c.benchmark_group(format!("read_jax_module_{ops}_stablehlo_ops"));
    group.sample_size(20);
    group.throughput(Throughput::Elements(ops as u64));
    group.bench_function("generic", |b| b.iter(|| read(&generic).expect("generic")));
    // MLIR's own parser alone (no checks of ours), the floor.
    group.bench_function("generic_mlir_parse", |b| {
        b.iter(|| tpu_custom_call::melior::ir::Module::parse(&ctx, &generic).expect("generic"))
    });
    if pretty_parses {
        group.bench_function("pretty", |b| b.iter(|| read(&pretty).expect("pretty")));
    }
    group.finish();
}

criterion_group!(benches, read);
criterion_main!(benches);
