//! Kernels written with the Pallas idioms (issue 29): the `softmax` and
//! `matmul_acc` examples are `diff`-equal to JAX 0.12's lowering of the same
//! Python Pallas kernels (`scripts/jaxref/authoring_kernels.py`, run here when
//! the jaxref venv exists), and compute what they should on the CPU executor.

use super::common;
use tpu_custom_call::exec::{Array, Data, ElemType};
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::r#type::RankedTensorType;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::testing::{assert_call_computes, assert_calls_eq};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};

use crate::builders::kernels;

/// The StableHLO module of a built kernel, with JAX's default parameters.
fn lowered<'c>(
    ctx: &'c Context,
    module: Module<'c>,
    operands: &[(&[u64], Type<'c>)],
    result: (&[u64], Type<'c>),
) -> String {
    let kernel = Kernel::from_module(ctx, module).unwrap();
    let name = kernel.name().unwrap();
    let params =
        Params::from_json(format!(r#"{{"kernel_name": "{name}", "metadata": {{}}}}"#).as_bytes())
            .unwrap();
    let tensor = |(shape, t): (&[u64], Type<'c>)| -> Type<'c> {
        RankedTensorType::new(shape, t, None).into()
    };
    let signature = Signature::new(
        operands.iter().map(|&o| tensor(o)).collect::<Vec<_>>(),
        [tensor(result)],
    );
    let call = validate(&kernel, signature, &params, None)
        .map_err(|e| e[0].to_string())
        .unwrap();
    let module = Lowerer::new(LowerOptions::default())
        .emit_module(ctx, &call)
        .unwrap();
    kernel::print_module(&module, PrintOptions::default()).unwrap()
}

fn softmax_module(ctx: &Context) -> String {
    let f32 = Type::float32(ctx);
    lowered(
        ctx,
        kernels::softmax(ctx).unwrap(),
        &[(&[256, 512], f32)],
        (&[256, 512], f32),
    )
}

fn matmul_module(ctx: &Context) -> String {
    let bf16 = Type::bfloat16(ctx);
    lowered(
        ctx,
        kernels::matmul_acc(ctx).unwrap(),
        &[(&[256, 512], bf16), (&[512, 256], bf16)],
        (&[256, 256], bf16),
    )
}

/// Deterministic values in [-2, 2) (a 64-bit LCG).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 4.0 - 2.0
        })
        .collect()
}

/// `bf16` rounding (to nearest, ties to even) of a finite `f32`.
fn bf16(v: f32) -> f32 {
    let bits = v.to_bits();
    f32::from_bits((bits + 0x7fff + ((bits >> 16) & 1)) & 0xffff_0000)
}

fn array(elem: ElemType, shape: &[usize], data: Vec<f32>) -> Array {
    let data = match elem {
        ElemType::BF16 => data.into_iter().map(bf16).collect(),
        _ => data,
    };
    Array::new(elem, shape.to_vec(), Data::F32(data))
}

#[test]
fn idiom_kernels_equal_jax_lowering_of_the_python_kernels() {
    let Some(python) =
        common::jaxref_python("idiom_kernels_equal_jax_lowering_of_the_python_kernels")
    else {
        return;
    };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts/jaxref/authoring_kernels.py");
    let output = std::process::Command::new(&python)
        .arg(&script)
        .env("JAX_PLATFORMS", "cpu")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let (jax_softmax, jax_matmul) = text.split_once("// -----\n").expect("two modules");
    let ctx = Context::new();
    assert_calls_eq(jax_softmax, softmax_module(&ctx));
    assert_calls_eq(jax_matmul, matmul_module(&ctx));
}

#[test]
fn softmax_example_computes_row_softmax() {
    let ctx = Context::new();
    let module = softmax_module(&ctx);
    let x = values(256 * 512, 7);
    let mut expected = Vec::with_capacity(x.len());
    for row in x.chunks(512) {
        let m = row
            .iter()
            .map(|&v| f64::from(v))
            .fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = row.iter().map(|&v| (f64::from(v) - m).exp()).collect();
        let s: f64 = e.iter().sum();
        expected.extend(e.iter().map(|v| (v / s) as f32));
    }
    let input = array(ElemType::F32, &[256, 512], x);
    let expected = array(ElemType::F32, &[256, 512], expected);
    assert_call_computes(&module, 0, &[input], &[expected], 1e-6, 1e-6);
}

#[test]
fn matmul_example_computes_the_product() {
    let ctx = Context::new();
    let module = matmul_module(&ctx);
    let (m, k, n) = (256, 512, 256);
    let x = array(ElemType::BF16, &[m, k], values(m * k, 11));
    let y = array(ElemType::BF16, &[k, n], values(k * n, 13));
    let (xs, ys) = (x.to_f64_vec(), y.to_f64_vec());
    let mut z = vec![0f32; m * n];
    for i in 0..m {
        for p in 0..k {
            let a = xs[i * k + p] as f32;
            for j in 0..n {
                z[i * n + j] += a * ys[p * n + j] as f32;
            }
        }
    }
    let expected = array(ElemType::BF16, &[m, n], z);
    // JAX's bf16 matmul tolerance (rtol 1e-2, atol 1e-3).
    assert_call_computes(&module, 0, &[x, y], &[expected], 1e-2, 1e-3);
}
