//! Kernels written with the Pallas idioms (issue 29): the `softmax` and
//! `matmul_acc` examples are `diff`-equal to JAX 0.12's lowering of the same
//! Python Pallas kernels (`scripts/jaxref/authoring_kernels.py`, run here when
//! the jaxref venv exists), and compute what they should on the CPU executor.

use super::common;
use tpu_custom_call::exec::{Array, Data, ElemType};
use tpu_custom_call::lower::{LowerOptions, Lowerer};
use tpu_custom_call::melior::ir::r#type::{IntegerType, RankedTensorType};
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::{self, ContractPrecision, MemorySpace};
use tpu_custom_call::mosaic::pallas::{
    ALL, Arg, Body, DotOptions, IndexExpr, IndexMap, KernelSpec, Reduce, Window, at, ds,
};
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

/// The kernel of one case of `scripts/jaxref/authoring_idioms.py`, written
/// with the idioms, line for line as the Python.
fn idiom_case<'c>(ctx: &'c Context, name: &str) -> Result<Module<'c>, BuildError> {
    let (f32, bf16) = (Type::float32(ctx), Type::bfloat16(ctx));
    let i32: Type = IntegerType::new(ctx, 32).into();
    let vmem = |shape: &[i64], t| attrs::memref(ctx, shape, t, MemorySpace::Vmem, None);
    let v =
        |shape: &[i64], t| Type::vector(&shape.iter().map(|&d| d as u64).collect::<Vec<_>>(), t);
    // No grid: whole refs; a grid (n,): blocks of `block` rows at the grid index.
    let spec =
        |ins: &[(&[i64], Type<'c>)], out: (&[i64], Type<'c>), grid: Option<(i64, &[i64])>| {
            let arg = |(shape, t): (&[i64], Type<'c>)| match grid {
                None => Arg::new(vmem(shape, t)),
                Some((_, block)) => Arg::new(vmem(block, t)).window(Window::blocked(
                    block,
                    IndexMap::Exprs(vec![IndexExpr::Grid(0), IndexExpr::Const(0)]),
                )),
            };
            let mut spec = KernelSpec::new(name);
            if let Some((n, _)) = grid {
                spec = spec.grid(&[n], &[]);
            }
            for &i in ins {
                spec = spec.input(arg(i));
            }
            spec.output(arg(out))
        };
    let x8: (&[i64], Type) = (&[8, 128], f32);
    let x16: (&[i64], Type) = (&[16, 128], f32);
    let x32: (&[i64], Type) = (&[32, 128], f32);
    let b128: (&[i64], Type) = (&[128, 128], bf16);
    let f128: (&[i64], Type) = (&[128, 128], f32);
    match name {
        "slices" => spec(&[x16], x16, None).build(ctx, |k| {
            let x = k.load_at(k.inputs[0], &[ds(8, 8), ALL])?;
            k.store_at(k.outputs[0], &[ds(0, 8), ALL], x)
        }),
        "dynamic_slice" => spec(&[x32], x32, Some((2, &[16, 128]))).build(ctx, |k| {
            let i = k.program_id(0)?;
            let x = k.load_at(k.inputs[0], &[ds(8, 8), ALL])?;
            let y = k.add(x, k.astype(k.mul(i, k.num_programs(0)?)?, f32)?)?;
            k.store_at(k.outputs[0], &[ds(k.mul(i, 8)?, 8), ALL], y)
        }),
        "squeeze" => spec(&[x16], x16, None).build(ctx, |k| {
            let x = k.load_at(k.inputs[0], &[at(1), ALL])?;
            k.store_at(k.outputs[0], &[at(0), ALL], x)
        }),
        "masked_store" => spec(&[x8], x8, None).build(ctx, |k| {
            let mask = k.lt(k.iota(v(&[8, 128], i32), 1)?, 64)?;
            k.store_masked(k.outputs[0], &[], k.load(k.inputs[0])?, mask)
        }),
        "fori_carry" | "fori_index" | "fori_unused_from_2" => {
            spec(&[x8], x8, None).build(ctx, |k| {
                let (lower, upper) = match name {
                    "fori_carry" => (0, 4),
                    "fori_index" => (1, 5),
                    _ => (2, 5),
                };
                let x_ref = k.inputs[0];
                let init = k.zeros(v(&[8, 128], f32))?;
                let out = k.fori_loop(lower, upper, &[init], |k, i, acc| {
                    let x = k.load(x_ref)?;
                    let x = if name == "fori_index" {
                        k.mul(x, k.astype(i, f32)?)?
                    } else {
                        x
                    };
                    Ok(vec![k.add(acc[0], x)?])
                })?;
                k.store(k.outputs[0], out[0])
            })
        }
        "fori_two_carries" => spec(&[x8], x8, None).build(ctx, |k| {
            let s = k.load(k.inputs[0])?;
            let ab = k.fori_loop(0, 3, &[s, s], |k, _, c| {
                Ok(vec![k.add(c[0], s)?, k.mul(c[1], 2.0)?])
            })?;
            k.store(k.outputs[0], k.add(ab[0], ab[1])?)
        }),
        "loop_stores" => spec(&[x8], x8, None).build(ctx, |k| {
            let (x_ref, o_ref) = (k.inputs[0], k.outputs[0]);
            k.fori_loop(0, 4, &[], |k, _, _| {
                let sum = k.add(k.load(o_ref)?, k.load(x_ref)?)?;
                k.store(o_ref, sum)?;
                Ok(vec![])
            })?;
            Ok(())
        }),
        "dot_nt" => spec(&[b128, b128], f128, None).build(ctx, |k| {
            let options = DotOptions {
                transpose_rhs: true,
                ..DotOptions::default()
            };
            k.store(
                k.outputs[0],
                k.dot_with(k.load(k.inputs[0])?, k.load(k.inputs[1])?, options)?,
            )
        }),
        "dot_tn_highest" => spec(&[f128, f128], f128, None).build(ctx, |k| {
            let options = DotOptions {
                transpose_lhs: true,
                precision: Some(ContractPrecision::Fp32),
                ..DotOptions::default()
            };
            k.store(
                k.outputs[0],
                k.dot_with(k.load(k.inputs[0])?, k.load(k.inputs[1])?, options)?,
            )
        }),
        "reductions" => spec(&[x8], x8, None).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let a = k.sum(x, 0, true)?;
            let b = k.min(x, 1, false)?;
            let y = k.add(k.mul(x, 2.0)?, a)?;
            let y = k.add(y, k.reshape(b, &[8, 1])?)?;
            let y = k.add(y, k.reduce(Reduce::Max, x, &[0, 1], false)?)?;
            k.store(k.outputs[0], y)
        }),
        "reductions_all_keepdims" => spec(&[x8], x8, None).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let y = k.add(x, k.reduce(Reduce::Sum, x, &[0, 1], true)?)?;
            k.store(k.outputs[0], k.add(y, k.max(x, -1, true)?)?)
        }),
        "reduction_int" => spec(&[(&[8, 128], i32)], (&[8, 1], i32), None).build(ctx, |k| {
            k.store(k.outputs[0], k.max(k.load(k.inputs[0])?, 1, true)?)
        }),
        "elementwise" => spec(&[x8], x8, None).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let mut y = k.add(k.tanh(x)?, k.log(x)?)?;
            for f in [
                Body::rsqrt,
                Body::sqrt,
                Body::abs,
                Body::floor,
                Body::ceil,
                Body::sin,
                Body::cos,
                Body::log1p,
                Body::neg,
                Body::exp2,
            ] {
                y = k.add(y, f(k, x)?)?;
            }
            y = k.add(y, k.minimum(x, 0.5)?)?;
            y = k.add(y, k.maximum(x, 1.0)?)?;
            y = k.add(y, k.sigmoid(x)?)?;
            y = k.add(y, k.erf(x)?)?;
            y = k.add(y, k.select(k.gt(x, 1.0)?, 1.0, x)?)?;
            y = k.add(y, k.select(k.eq(x, 0.0)?, x, 2.0)?)?;
            k.store(k.outputs[0], y)
        }),
        "casts" => spec(&[x8], x8, None).build(ctx, |k| {
            let x = k.astype(k.load(k.inputs[0])?, bf16)?;
            let x = k.astype(k.astype(x, i32)?, IntegerType::new(ctx, 8).into())?;
            let x = k.astype(k.astype(x, i32)?, f32)?;
            let iota = k.astype(k.iota(v(&[8, 128], i32), 0)?, f32)?;
            k.store(k.outputs[0], k.add(x, iota)?)
        }),
        "int_arith" => spec(&[(&[8, 128], i32)], (&[8, 128], i32), None).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let y = k.sub(k.add(x, 1)?, k.mul(x, 3)?)?;
            k.store(k.outputs[0], y)
        }),
        "when" => spec(&[x32], x32, Some((2, &[16, 128]))).build(ctx, |k| {
            let (x_ref, o_ref, i) = (k.inputs[0], k.outputs[0], k.program_id(0)?);
            k.when(k.lt(i, 1)?, |k| k.store(o_ref, k.load(x_ref)?))?;
            k.when(k.ne(i, k.num_programs(0)? - 1)?, |k| {
                k.store(o_ref, k.add(k.load(x_ref)?, 1.0)?)
            })
        }),
        "transpose" => spec(&[(&[128, 256], f32)], (&[256, 128], f32), None).build(ctx, |k| {
            k.store(k.outputs[0], k.transpose(k.load(k.inputs[0])?, &[1, 0])?)
        }),
        other => panic!("no Rust kernel for case `{other}`"),
    }
}

/// Every case of `scripts/jaxref/authoring_idioms.py` built with the idioms is
/// `diff`-equal to JAX's lowering of its Python kernel.
#[test]
fn every_idiom_equals_jax_lowering() {
    let Some(python) = common::jaxref_python("every_idiom_equals_jax_lowering") else {
        return;
    };
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/authoring_idioms.py");
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
    let mut failures = common::Failures::new();
    let mut cases = 0;
    for chunk in text.split("// ----- ").skip(1) {
        let (name, jax) = chunk.split_once('\n').unwrap();
        cases += 1;
        let ctx = Context::new();
        let Some(module) = failures.ok(format!("{name}: building"), idiom_case(&ctx, name)) else {
            continue;
        };
        // The signature JAX gave the call.
        let calls = tpu_custom_call::decode::decode_module(&ctx, jax.as_bytes(), name).unwrap();
        let types = |list: &[String]| -> Vec<Type> {
            list.iter().map(|t| Type::parse(&ctx, t).unwrap()).collect()
        };
        let found = &calls[0].found;
        let signature = Signature::new(types(&found.operand_types), types(&found.result_types));
        let kernel = Kernel::from_module(&ctx, module).unwrap();
        let params = Params::from_json(
            format!(r#"{{"kernel_name": "{name}", "metadata": {{}}}}"#).as_bytes(),
        )
        .unwrap();
        let call = validate(&kernel, signature, &params, None).map_err(|e| e[0].to_string());
        let Some(call) = failures.ok(format!("{name}: validating"), call) else {
            continue;
        };
        let hlo = Lowerer::new(LowerOptions::default())
            .emit_module(&ctx, &call)
            .unwrap();
        let ours = kernel::print_module(&hlo, PrintOptions::default()).unwrap();
        match tpu_custom_call::testing::calls_diff(jax, &ours, &Default::default()) {
            Ok(report) if report.is_equal() => {}
            Ok(report) => failures.fail(format!("{name}: differs from JAX:\n{report}")),
            Err(e) => failures.fail(format!("{name}: {e}")),
        }
    }
    assert_eq!(cases, 19, "the cases of {script:?}");
    failures.assert_none();
}

/// The README's `add`, written with the idioms, is the JAX golden's call.
#[test]
fn add_example_equals_the_jax_golden() {
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let ours = lowered(
        &ctx,
        kernels::add(&ctx).unwrap(),
        &[(&[8, 128], f32), (&[8, 128], f32)],
        (&[8, 128], f32),
    );
    let path = format!(
        "{}/tests/data/jax-goldens/add_basic/module.mlir",
        env!("CARGO_MANIFEST_DIR")
    );
    assert_calls_eq(std::fs::read_to_string(path).unwrap(), ours);
}

/// A mistake in an idiom is an error naming the kernel, the idiom and the fix.
#[test]
fn idiom_errors_name_kernel_op_and_fix() {
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let vmem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let error = |body: &dyn Fn(
        &tpu_custom_call::mosaic::pallas::KernelArgs<'_, '_>,
    ) -> Result<(), BuildError>| {
        KernelSpec::new("k")
            .grid(&[4], &[])
            .input(Arg::new(vmem))
            .output(Arg::new(vmem))
            .build(&ctx, |k| body(k))
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(&|k| k.program_id(1).map(|_| ())),
        "kernel `k`: program_id: axis 1 is out of range for the grid [4]: give 0..1 or add a grid dimension with KernelSpec::grid"
    );
    assert_eq!(
        error(&|k| k.max(k.load(k.inputs[0])?, 2, true).map(|_| ())),
        "kernel `k`: vector.multi_reduction: axis 2 is out of range or repeated for rank 2: give distinct axes in -2..2"
    );
    let bf16 = Type::bfloat16(&ctx);
    assert_eq!(
        error(&|k| {
            let x = k.load(k.inputs[0])?;
            k.add(x, k.astype(x, bf16)?).map(|_| ())
        }),
        "kernel `k`: add: operands have types vector<8x128xf32> and vector<8x128xbf16>: astype one to the other's element type"
    );
    assert_eq!(
        error(&|k| k.store(k.outputs[0], k.sum(k.load(k.inputs[0])?, 1, true)?)),
        "kernel `k`: store: the value has type vector<8x1xf32> but the slice of memref<8x128xf32, #tpu.memory_space<vmem>> is vector<8x128xf32>: give a value of the slice's shape (broadcast or astype it)"
    );
    assert_eq!(
        error(&|k| k.load_at(k.inputs[0], &[ds(0, 16)]).map(|_| ())),
        "kernel `k`: load: pl.ds(.., 16) in dimension 0 of size 8: give a size in 1..=8"
    );
    assert_eq!(
        error(&|k| k.when(k.load(k.inputs[0])?, |_| Ok(()))),
        "kernel `k`: when: the condition has type vector<8x128xf32>: give an i1 (a comparison such as k.eq(k.program_id(0)?, 0)?)"
    );
}

/// `InsertionPoint::end_of` inserts into a block that is not in a region yet.
#[test]
fn emit_call_into_a_block_not_yet_in_a_region() {
    use tpu_custom_call::emit::InsertionPoint;
    use tpu_custom_call::melior::ir::operation::OperationLike;
    use tpu_custom_call::melior::ir::{Block, BlockLike, Location};
    let ctx = Context::new();
    let kernel = Kernel::from_module(&ctx, kernels::add(&ctx).unwrap()).unwrap();
    let params = Params::from_json(br#"{"kernel_name": "_add_kernel", "metadata": {}}"#).unwrap();
    let t: Type = RankedTensorType::new(&[8, 128], Type::float32(&ctx), None).into();
    let call = validate(&kernel, Signature::new([t, t], [t]), &params, None).unwrap();
    let location = Location::unknown(&ctx);
    let block = Block::new(&[(t, location), (t, location)]);
    let operands = [
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    ];
    let op = Lowerer::new(LowerOptions::default())
        .emit_call(
            &call,
            InsertionPoint::end_of(&block),
            location,
            &operands,
            &[],
        )
        .unwrap();
    assert_eq!(
        op.name().as_string_ref().as_str().unwrap(),
        "stablehlo.custom_call"
    );
    assert!(block.first_operation().is_some_and(|first| first == op));
}
