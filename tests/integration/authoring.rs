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
    ds_strided, vector_type,
};
use tpu_custom_call::testing::{assert_call_computes, assert_calls_eq};
use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};

use crate::builders::kernels;

/// The SparseCore cases lowered with
/// `pltpu.CompilerParams(needs_layout_passes=False)` (the scans need it:
/// libtpu's layout passes refuse `tpu.scan`).
fn without_layout_passes(name: &str) -> bool {
    matches!(name, "sc_scans" | "sc_expanded_compressed_no_layout")
}

/// JAX's default parameters of a kernel (`needs_layout_passes` false where
/// the case sets it).
fn default_params(name: &str) -> Params {
    let extra = if without_layout_passes(name) {
        r#", "needs_layout_passes": false"#
    } else {
        ""
    };
    Params::from_json(format!(r#"{{"kernel_name": "{name}", "metadata": {{}}{extra}}}"#).as_bytes())
        .unwrap()
}

/// The StableHLO module of a built kernel, with JAX's default parameters.
fn lowered<'c>(
    ctx: &'c Context,
    module: Module<'c>,
    operands: &[(&[u64], Type<'c>)],
    result: (&[u64], Type<'c>),
) -> String {
    let kernel = Kernel::from_module(ctx, module).unwrap();
    let name = kernel.name().unwrap();
    let params = default_params(&name);
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
        pipeline if pipeline.starts_with("emit_pipeline_") => pipeline_case(ctx, name),
        "cond_else" => spec(&[x32], x32, Some((2, &[16, 128]))).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let first = k.eq(k.program_id(0)?, 0)?;
            let y = k.cond(
                first,
                &[v(&[16, 128], f32)],
                |k| Ok(vec![k.add(x, 1.0)?]),
                |k| Ok(vec![k.mul(x, 2.0)?]),
            )?;
            k.store(k.outputs[0], y[0])
        }),
        "fori_dynamic" => spec(&[x32], x32, Some((2, &[16, 128]))).build(ctx, |k| {
            let n = k.add(k.program_id(0)?, 1)?;
            let x_ref = k.inputs[0];
            let init = k.zeros(v(&[16, 128], f32))?;
            let out = k.fori_loop_to(0, n, &[init], |k, _, acc| {
                Ok(vec![k.add(acc[0], k.load(x_ref)?)?])
            })?;
            k.store(k.outputs[0], out[0])
        }),
        "remainder" => spec(&[x32], x32, Some((2, &[16, 128]))).build(ctx, |k| {
            let rows = k.sub(k.iota(v(&[16, 128], i32), 0)?, 8)?;
            let x = k.load(k.inputs[0])?;
            let r = k.remainder(k.sub(k.program_id(0)?, 3)?, 2)?;
            let y = k.add(x, k.astype(r, f32)?)?;
            let r = k.astype(k.remainder(rows, 3)?, f32)?;
            k.store(k.outputs[0], k.add(y, r)?)
        }),
        "remainder_float" => spec(&[x8, x8], x8, None).build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let y = k.add(k.remainder(x, k.load(k.inputs[1])?)?, k.remainder(x, 0.75)?)?;
            k.store(k.outputs[0], k.add(y, k.remainder(-1.5, x)?)?)
        }),
        "strided" => spec(&[x16], x8, None).build(ctx, |k| {
            let x = k.load_at(k.inputs[0], &[ds_strided(0, 8, 2), ALL])?;
            k.store(k.outputs[0], x)?;
            let y = k.load_at(k.inputs[0], &[ds(8, 4), ALL])?;
            k.store_at(k.outputs[0], &[ds_strided(1, 4, 2), ALL], y)
        }),
        "bool_casts" => spec(&[x8], x8, None).build(ctx, |k| {
            let b = k.gt(k.load(k.inputs[0])?, 0.0)?;
            let one = k.astype(b, f32)?;
            let twice = k.mul(k.astype(b, i32)?, 2)?;
            k.store(k.outputs[0], k.add(one, k.astype(twice, f32)?)?)
        }),
        "manual_dma" => {
            let any = attrs::memref(ctx, &[16, 128], f32, MemorySpace::Any, None);
            let sem = attrs::memref(
                ctx,
                &[],
                attrs::dma_semaphore_type(ctx),
                MemorySpace::SemaphoreMem,
                None,
            );
            KernelSpec::new(name)
                .input(Arg::new(any))
                .output(Arg::new(vmem(&[8, 128], f32)))
                .scratch(Arg::new(vmem(&[8, 128], f32)))
                .scratch(Arg::new(sem))
                .build(ctx, |k| {
                    let (buf, sem) = (k.scratch[0], k.scratch[1]);
                    let copy = k.async_copy(k.inputs[0], &[ds(8, 8)], buf, &[], sem);
                    copy.start(k)?;
                    copy.wait(k)?;
                    let x = k.load(buf)?;
                    k.store(k.outputs[0], k.add(x, 1.0)?)
                })
        }
        "semaphores_scoped" => {
            let sem = attrs::memref(
                ctx,
                &[],
                attrs::semaphore_type(ctx),
                MemorySpace::SemaphoreMem,
                None,
            );
            spec(&[x8], x8, None)
                .scratch(Arg::new(sem))
                .build(ctx, |k| {
                    k.semaphore_signal(k.scratch[0], 2)?;
                    k.semaphore_wait(k.scratch[0], 2)?;
                    let x_ref = k.inputs[0];
                    let o_ref = k.outputs[0];
                    k.run_scoped(&[vmem(&[8, 128], f32)], |k, tmp| {
                        k.store(tmp[0], k.mul(k.load(x_ref)?, 2.0)?)?;
                        k.store(o_ref, k.add(k.load(tmp[0])?, 1.0)?)
                    })
                })
        }
        "pipeline_modes" => {
            let rows = || IndexMap::Exprs(vec![IndexExpr::Grid(0), IndexExpr::Const(0)]);
            KernelSpec::new(name)
                .grid(&[2], &[])
                .input(
                    Arg::new(vmem(&[16, 128], f32))
                        .window(Window::blocked(&[16, 128], rows()).buffered(1)),
                )
                // The whole (1, 128) array under a zero map: Pallas forces
                // single buffering, given the array's shape.
                .input(
                    Arg::new(vmem(&[1, 128], f32))
                        .array_shape(&[1, 128])
                        .window(Window::blocked(
                            &[1, 128],
                            IndexMap::Exprs(vec![IndexExpr::Const(0), IndexExpr::Const(0)]),
                        )),
                )
                .output(
                    Arg::new(vmem(&[16, 128], f32))
                        .window(Window::blocked(&[16, 128], rows()).buffered(2)),
                )
                .build(ctx, |k| {
                    let x = k.load(k.inputs[0])?;
                    let b = k.broadcast_to(k.load(k.inputs[1])?, &[16, 128])?;
                    k.store(k.outputs[0], k.add(x, b)?)
                })
        }
        "remote_copy" => {
            let any = Arg::memref(ctx, &[8, 128], f32, MemorySpace::Any);
            let dma = attrs::dma_semaphore_type(ctx);
            let sem = || Arg::memref(ctx, &[], dma, MemorySpace::SemaphoreMem);
            KernelSpec::new(name)
                .grid(&[1], &[])
                .input(any)
                .output(Arg::memref(ctx, &[8, 128], f32, MemorySpace::Any))
                .scratch_shapes([sem(), sem()])
                .build(ctx, |k| {
                    let [x_ref, o_ref, send_sem, recv_sem] = k.refs()?;
                    let dev = k.rem(k.add(k.program_id(0)?, 1)?, 4)?;
                    let dev = tpu_custom_call::mosaic::pallas::DeviceId::logical(dev);
                    let copy = k.async_remote_copy(x_ref, &[], o_ref, &[], send_sem, recv_sem, dev);
                    copy.start(k)?;
                    copy.wait(k)
                })
        }
        "sc_load_gather_store_scatter"
        | "sc_scatter_dma"
        | "sc_sort_key_val"
        | "sc_expanded_compressed"
        | "sc_expanded_compressed_no_layout"
        | "sc_scans" => {
            let arg = |shape: &[i64], t, space| Arg::memref(ctx, shape, t, space);
            let mut scratch = vec![
                arg(&[16], f32, MemorySpace::Vmem),
                arg(&[16], i32, MemorySpace::Vmem),
            ];
            if name != "sc_scatter_dma" {
                scratch.push(arg(&[16], f32, MemorySpace::Vmem));
            }
            let mut spec = KernelSpec::vector_subcore_mesh(name, 1, 16);
            if without_layout_passes(name) {
                spec = spec.without_layout_passes(16);
            }
            spec.in_specs([
                arg(&[16], f32, MemorySpace::Hbm),
                arg(&[16], i32, MemorySpace::Hbm),
            ])
            .output(arg(&[16], f32, MemorySpace::Hbm))
            .scratch_shapes(scratch)
            .build(ctx, |k| {
                let (x_hbm, i_hbm, o_hbm) = (k.inputs[0], k.inputs[1], k.outputs[0]);
                let (x_vmem, i_vmem) = (k.scratch[0], k.scratch[1]);
                k.sync_copy(x_hbm, &[], x_vmem, &[])?;
                k.sync_copy(i_hbm, &[], i_vmem, &[])?;
                if name == "sc_scatter_dma" {
                    return k.sync_copy(x_vmem, &[], o_hbm, &[at(i_vmem)]);
                }
                let o_vmem = k.scratch[2];
                if name == "sc_sort_key_val" {
                    let (_, values) = k.sort_key_val(k.load(i_vmem)?, k.load(x_vmem)?, false)?;
                    let (keys, _) = k.sort_key_val(k.load(x_vmem)?, k.load(i_vmem)?, true)?;
                    k.store(o_vmem, k.add(values, keys)?)?;
                    return k.sync_copy(o_vmem, &[], o_hbm, &[]);
                }
                if name.starts_with("sc_expanded_compressed") {
                    let mask = k.gt(k.load(i_vmem)?, 5)?;
                    let expanded = k.load_expanded(x_vmem, &[], mask)?;
                    k.store(o_vmem, k.select(mask, expanded, -1.0)?)?;
                    k.store_compressed(o_vmem, &[], k.load(x_vmem)?, mask)?;
                    return k.sync_copy(o_vmem, &[], o_hbm, &[]);
                }
                if name == "sc_scans" {
                    let (x, i) = (k.load(x_vmem)?, k.load(i_vmem)?);
                    let mask = k.gt(i, 5)?;
                    // plsc.cumsum(x) + jnp.cumsum(x): the same ops.
                    let y = k.add(k.cumsum(x, None)?, k.cumsum(x, None)?)?;
                    let y = k.add(y, k.cumsum(x, Some(mask))?)?;
                    let y = k.add(y, k.cummax(x, Some(mask))?)?;
                    let (counts, last) = k.scan_count(i, None)?;
                    let z = k.add(k.cummax(k.sub(i, 8)?, None)?, k.cumsum(i, Some(mask))?)?;
                    let z = k.astype(k.select(last, k.add(z, counts)?, 0)?, f32)?;
                    k.store(o_vmem, k.add(y, z)?)?;
                    return k.sync_copy(o_vmem, &[], o_hbm, &[]);
                }
                let gathered = k.load_gather(x_vmem, &[k.load(i_vmem)?])?;
                k.store(o_vmem, gathered)?;
                k.store_scatter(o_vmem, &[k.load(i_vmem)?], k.load(x_vmem)?)?;
                k.sync_copy(o_vmem, &[], o_hbm, &[])
            })
        }
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

/// The `pltpu.emit_pipeline` cases of `scripts/jaxref/authoring_idioms.py`.
fn pipeline_case<'c>(ctx: &'c Context, name: &str) -> Result<Module<'c>, BuildError> {
    use IndexExpr::{Const, Grid};
    use tpu_custom_call::mosaic::pallas::{BlockSpec, PipelineOperand, emit_pipeline};
    let f32 = Type::float32(ctx);
    let any = |shape: &[i64]| Arg::memref(ctx, shape, f32, MemorySpace::Any);
    let rows = || BlockSpec::new(&[8, 128], &[Grid(0), Const(0)]);
    match name {
        "emit_pipeline_1d" => KernelSpec::new(name)
            .input(any(&[32, 128]))
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, o_hbm] = k.refs()?;
                emit_pipeline(&[4], [rows()], [rows()]).call(k, [x_hbm, o_hbm], |k, _, r| {
                    r[1].store(k, k.add(r[0].load(k)?, 1.0)?)
                })
            }),
        "emit_pipeline_2d" => KernelSpec::new(name)
            .input(any(&[16, 256]))
            .input(any(&[16, 128]))
            .output(any(&[16, 256]))
            .build(ctx, |k| {
                let [x_hbm, y_hbm, o_hbm] = k.refs()?;
                let tiles = || BlockSpec::new(&[8, 128], &[Grid(0), Grid(1)]);
                let pipeline = emit_pipeline(&[2, 2], [tiles(), rows()], [tiles()]);
                pipeline.call(k, [x_hbm, y_hbm, o_hbm], |k, _, r| {
                    let x = r[0].load(k)?;
                    let y = k.mul(r[1].load(k)?, 2.0)?;
                    r[2].store(k, k.add(x, y)?)
                })
            }),
        "emit_pipeline_two_outputs" => KernelSpec::new(name)
            .in_specs([any(&[32, 128]), any(&[32, 128])])
            .output(any(&[32, 128]))
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, y_hbm, s_hbm, d_hbm] = k.refs()?;
                let pipeline = emit_pipeline(&[4], [rows(), rows()], [rows(), rows()]);
                pipeline.call(k, [x_hbm, y_hbm, s_hbm, d_hbm], |k, _, r| {
                    let (x, y) = (r[0].load(k)?, r[1].load(k)?);
                    r[2].store(k, k.add(x, y)?)?;
                    r[3].store(k, k.sub(x, y)?)
                })
            }),
        "emit_pipeline_constant_block" => KernelSpec::new(name)
            .in_specs([any(&[32, 128]), any(&[16, 128])])
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, b_hbm, o_hbm] = k.refs()?;
                let first = BlockSpec::new(&[8, 128], &[Const(0), Const(0)]);
                let pipeline = emit_pipeline(&[4], [rows(), first], [rows()]);
                pipeline.call(k, [x_hbm, b_hbm, o_hbm], |k, _, r| {
                    let z = k.full(vector_type(&[8, 128], f32), 3.0)?;
                    let y = k.add(z, r[0].load(k)?)?;
                    r[2].store(k, k.add(y, r[1].load(k)?)?)
                })
            }),
        "emit_pipeline_grid_of_one" => KernelSpec::new(name)
            .input(any(&[16, 256]))
            .output(any(&[16, 256]))
            .build(ctx, |k| {
                let [x_hbm, o_hbm] = k.refs()?;
                let tiles = || BlockSpec::new(&[8, 128], &[Grid(0), Grid(2)]);
                let pipeline = emit_pipeline(&[2, 1, 2], [tiles()], [tiles()]);
                pipeline.call(k, [x_hbm, o_hbm], |k, _, r| {
                    r[1].store(k, k.sub(r[0].load(k)?, 1.0)?)
                })
            }),
        "emit_pipeline_hbm" => {
            let bf16 = Type::bfloat16(ctx);
            let hbm = || Arg::memref(ctx, &[32, 256], bf16, MemorySpace::Hbm);
            KernelSpec::new(name)
                .input(hbm())
                .output(hbm())
                .build(ctx, |k| {
                    let [x_hbm, o_hbm] = k.refs()?;
                    let tiles = || BlockSpec::new(&[16, 128], &[Grid(1), Grid(0)]);
                    let pipeline = emit_pipeline(&[2, 2], [tiles()], [tiles()]);
                    pipeline.call(k, [x_hbm, o_hbm], |k, _, r| {
                        r[1].store(k, k.mul(r[0].load(k)?, 2.0)?)
                    })
                })
        }
        "emit_pipeline_buffered" => KernelSpec::new(name)
            .in_specs([any(&[32, 128]), any(&[32, 128])])
            .output(any(&[32, 128]))
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, y_hbm, s_hbm, p_hbm] = k.refs()?;
                let rows = |n| rows().buffered(n);
                let pipeline = emit_pipeline(&[4], [rows(3), rows(1)], [rows(1), rows(3)]);
                pipeline.call(k, [x_hbm, y_hbm, s_hbm, p_hbm], |k, _, r| {
                    let (x, y) = (r[0].load(k)?, r[1].load(k)?);
                    r[2].store(k, k.add(x, y)?)?;
                    r[3].store(k, k.mul(x, y)?)
                })
            }),
        "emit_pipeline_resident" => KernelSpec::new(name)
            .in_specs([any(&[32, 128]), any(&[8, 128])])
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, w_hbm, o_hbm] = k.refs()?;
                let whole = BlockSpec::new(&[8, 128], &[Const(0), Const(0)]);
                let pipeline = emit_pipeline(&[4], [rows(), whole], [rows()]);
                pipeline.call(k, [x_hbm, w_hbm, o_hbm], |k, _, r| {
                    let y = k.add(r[0].load(k)?, r[1].load(k)?)?;
                    let w = r[1].load_at(k, &[ds(0, 8), ALL])?;
                    r[2].store(k, k.mul(y, w)?)
                })
            }),
        "emit_pipeline_matmul" => KernelSpec::new(name)
            .in_specs([any(&[16, 256]), any(&[256, 256])])
            .output(any(&[16, 256]))
            .build(ctx, |k| {
                let [x_hbm, y_hbm, o_hbm] = k.refs()?;
                let x = BlockSpec::new(&[8, 128], &[Grid(0), Grid(2)]);
                let y = BlockSpec::new(&[128, 128], &[Grid(2), Grid(1)]);
                let o = BlockSpec::new(&[8, 128], &[Grid(0), Grid(1)]);
                let pipeline = emit_pipeline(&[2, 2, 2], [x, y], [o]);
                pipeline.call(k, [x_hbm, y_hbm, o_hbm], |k, step, r| {
                    let [x_ref, y_ref, o_ref] = r else {
                        unreachable!()
                    };
                    let first = k.eq(step.program_id(2)?, 0)?;
                    k.when(first, |k| {
                        o_ref.store(k, k.zeros(vector_type(&[8, 128], f32))?)
                    })?;
                    let acc = o_ref.load(k)?;
                    let prod = k.dot(x_ref.load(k)?, y_ref.load(k)?)?;
                    o_ref.store(k, k.add(acc, prod)?)
                })
            }),
        _ => KernelSpec::new(name)
            .grid(&[2], &[])
            .input(any(&[32, 128]))
            .output(any(&[32, 128]))
            .build(ctx, |k| {
                let [x_hbm, o_hbm] = k.refs()?;
                let i = k.program_id(0)?;
                let x = PipelineOperand::view(x_hbm, &[ds(k.mul(i, 16)?, 16)]);
                let o = PipelineOperand::view(o_hbm, &[ds(k.mul(i, 16)?, 16)]);
                emit_pipeline(&[2], [rows()], [rows()]).call(k, [x, o], |k, _, r| {
                    r[1].store(k, k.mul(r[0].load(k)?, 2.0)?)
                })
            }),
    }
}

/// The pipeline cases' operand and result shapes (f32), and the StableHLO
/// module of each, with JAX's default parameters.
fn pipeline_shapes(name: &str) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let v = |shapes: &[&[u64]]| shapes.iter().map(|s| s.to_vec()).collect::<Vec<_>>();
    match name {
        "emit_pipeline_2d" => (v(&[&[16, 256], &[16, 128]]), v(&[&[16, 256]])),
        "emit_pipeline_two_outputs" => (v(&[&[32, 128], &[32, 128]]), v(&[&[32, 128], &[32, 128]])),
        "emit_pipeline_matmul" => (v(&[&[16, 256], &[256, 256]]), v(&[&[16, 256]])),
        "emit_pipeline_grid_of_one" => (v(&[&[16, 256]]), v(&[&[16, 256]])),
        "emit_pipeline_hbm" => (v(&[&[32, 256]]), v(&[&[32, 256]])),
        "emit_pipeline_resident" => (v(&[&[32, 128], &[8, 128]]), v(&[&[32, 128]])),
        "emit_pipeline_buffered" => (v(&[&[32, 128], &[32, 128]]), v(&[&[32, 128], &[32, 128]])),
        "emit_pipeline_constant_block" => (v(&[&[32, 128], &[16, 128]]), v(&[&[32, 128]])),
        _ => (v(&[&[32, 128]]), v(&[&[32, 128]])),
    }
}

const PIPELINE_CASES: [&str; 10] = [
    "emit_pipeline_1d",
    "emit_pipeline_grid_of_one",
    "emit_pipeline_constant_block",
    "emit_pipeline_2d",
    "emit_pipeline_two_outputs",
    "emit_pipeline_outer_grid",
    "emit_pipeline_matmul",
    "emit_pipeline_hbm",
    "emit_pipeline_buffered",
    "emit_pipeline_resident",
];

fn pipeline_module(ctx: &Context, name: &str) -> String {
    let f32 = if name == "emit_pipeline_hbm" {
        Type::bfloat16(ctx)
    } else {
        Type::float32(ctx)
    };
    let kernel = Kernel::from_module(ctx, pipeline_case(ctx, name).unwrap()).unwrap();
    let params =
        Params::from_json(format!(r#"{{"kernel_name": "{name}", "metadata": {{}}}}"#).as_bytes())
            .unwrap();
    let (ins, outs) = pipeline_shapes(name);
    let tensors = |shapes: &[Vec<u64>]| -> Vec<Type> {
        shapes
            .iter()
            .map(|s| RankedTensorType::new(s, f32, None).into())
            .collect()
    };
    let signature = Signature::new(tensors(&ins), tensors(&outs));
    let call = validate(&kernel, signature, &params, None)
        .map_err(|e| e[0].to_string())
        .unwrap();
    let module = Lowerer::new(LowerOptions::default())
        .emit_module(ctx, &call)
        .unwrap();
    kernel::print_module(&module, PrintOptions::default()).unwrap()
}

/// The pipelines compute on the CPU executor what their Python computes,
/// against plain Rust loops: every block of every operand is copied in,
/// computed and copied out once (a schedule that skipped or repeated a
/// copy, or used a stale slot, would give other numbers).
#[test]
fn pipeline_idioms_compute_what_their_python_computes() {
    let ctx = Context::new();
    let f32s = |shape: &[u64], seed| {
        let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        let data = values(shape.iter().product(), seed);
        (shape, data)
    };
    for name in PIPELINE_CASES {
        let text = pipeline_module(&ctx, name);
        let (ins, _) = pipeline_shapes(name);
        let ins: Vec<(Vec<usize>, Vec<f32>)> = ins
            .iter()
            .enumerate()
            .map(|(n, s)| f32s(s, 11 + n as u64))
            .collect();
        let x = &ins[0].1;
        let zip = |f: fn(f32, f32) -> f32| -> Vec<f32> {
            x.iter().zip(&ins[1].1).map(|(&a, &b)| f(a, b)).collect()
        };
        let expected: Vec<(Vec<usize>, Vec<f32>)> = match name {
            "emit_pipeline_1d" => vec![(vec![32, 128], x.iter().map(|v| v + 1.0).collect())],
            // bf16 operands: doubling is exact.
            "emit_pipeline_hbm" => {
                vec![(vec![32, 256], x.iter().map(|&v| bf16(v) * 2.0).collect())]
            }
            "emit_pipeline_outer_grid" => {
                vec![(vec![32, 128], x.iter().map(|v| v * 2.0).collect())]
            }
            "emit_pipeline_grid_of_one" => {
                vec![(vec![16, 256], x.iter().map(|v| v - 1.0).collect())]
            }
            // o = 3 + x + b[0:8] in every block of rows.
            "emit_pipeline_constant_block" => {
                let b = &ins[1].1;
                let o = (0..32 * 128)
                    .map(|e| 3.0 + x[e] + b[e % (8 * 128)])
                    .collect();
                vec![(vec![32, 128], o)]
            }
            // o = (x + w) * w, w the one (8, 128) block.
            "emit_pipeline_resident" => {
                let w = &ins[1].1;
                let o = (0..32 * 128)
                    .map(|e| (x[e] + w[e % 1024]) * w[e % 1024])
                    .collect();
                vec![(vec![32, 128], o)]
            }
            "emit_pipeline_buffered" => vec![
                (vec![32, 128], zip(|a, b| a + b)),
                (vec![32, 128], zip(|a, b| a * b)),
            ],
            "emit_pipeline_two_outputs" => vec![
                (vec![32, 128], zip(|a, b| a + b)),
                (vec![32, 128], zip(|a, b| a - b)),
            ],
            // o[r, c] = x[r, c] + 2 y[r, c % 128]
            "emit_pipeline_2d" => {
                let y = &ins[1].1;
                let o = (0..16 * 256)
                    .map(|e| x[e] + y[e / 256 * 128 + e % 128] * 2.0)
                    .collect();
                vec![(vec![16, 256], o)]
            }
            _ => {
                let y = &ins[1].1;
                let o = (0..16 * 256)
                    .map(|e| {
                        let (r, c) = (e / 256, e % 256);
                        (0..256).map(|k| x[r * 256 + k] * y[k * 256 + c]).sum()
                    })
                    .collect();
                vec![(vec![16, 256], o)]
            }
        };
        let elem = if name == "emit_pipeline_hbm" {
            ElemType::BF16
        } else {
            ElemType::F32
        };
        let inputs: Vec<Array> = ins.into_iter().map(|(s, d)| array(elem, &s, d)).collect();
        let expected: Vec<Array> = expected
            .into_iter()
            .map(|(s, d)| array(elem, &s, d))
            .collect();
        // The sums of the matmul are the only roundings that differ.
        let (rtol, atol) = if name == "emit_pipeline_matmul" {
            (1e-5, 1e-4)
        } else {
            (0.0, 0.0)
        };
        assert_call_computes(&text, 0, &inputs, &expected, rtol, atol);
    }
}

/// libtpu compiles the pipelines for v5e, v6e and v7x.
#[test]
fn pipeline_idioms_compile_with_libtpu() {
    use crate::compile::{LIBTPU, libtpu, options};
    use tpu_custom_call::compile::Compiler;
    use tpu_custom_call::target::Chip;
    let test = "pipeline_idioms_compile_with_libtpu";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let ctx = Context::new();
    for chip in [Chip::V5e, Chip::V6e, Chip::V7x] {
        let mut compiler = Compiler::new(options(chip, 1, &libtpu)).unwrap();
        for name in PIPELINE_CASES {
            let text = pipeline_module(&ctx, name);
            let verdict = compiler.compile(text.as_bytes()).unwrap();
            assert!(verdict.is_ok(), "{name} on {chip}: {verdict:?}");
        }
    }
}

/// What the pipeline idiom does not reproduce exactly is refused, naming it
/// (Pallas lowers these with other ops).
#[test]
fn pipeline_refuses_what_it_does_not_reproduce() {
    use IndexExpr::{Const, Grid};
    use tpu_custom_call::mosaic::pallas::{BlockSpec, emit_pipeline};
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let rows = || BlockSpec::new(&[8, 128], &[Grid(0), Const(0)]);
    let refused = |grid: &[i64], block: BlockSpec, shape: &[i64], space: MemorySpace| {
        let spec = BlockSpec::clone(&block);
        let error = KernelSpec::new("refused")
            .input(Arg::memref(&ctx, shape, f32, space))
            .output(Arg::memref(&ctx, shape, f32, space))
            .build(&ctx, |k| {
                let [x, o] = k.refs()?;
                emit_pipeline(grid, [block], [spec])
                    .call(k, [x, o], |k, _, r| r[1].store(k, r[0].load(k)?))
            })
            .unwrap_err()
            .to_string();
        assert!(error.contains("emit_pipeline"), "{error}");
        error
    };
    let any = MemorySpace::Any;
    let e = refused(&[3], rows(), &[20, 128], any);
    assert!(e.contains("does not divide 20"), "{e}");
    // A whole-operand output (an input is copied in once; an output would
    // be copied out once).
    let whole = BlockSpec::new(&[8, 128], &[Const(0), Const(0)]);
    assert!(refused(&[2], whole, &[8, 128], any).contains("trivial windowing"));
    assert!(refused(&[1], rows(), &[16, 128], any).contains("one step"));
    let flat = BlockSpec::new(&[128], &[Grid(0)]);
    assert!(refused(&[2], flat, &[256], any).contains("rank-1"));
    assert!(refused(&[2], rows(), &[16, 128], MemorySpace::Vmem).contains("ANY or HBM"));
    // pl.program_id in the body is the inner grid's: PipelineStep gives it,
    // Body::program_id is refused there.
    let error = KernelSpec::new("inner_program_id")
        .grid(&[2], &[])
        .input(Arg::memref(&ctx, &[16, 128], f32, any))
        .output(Arg::memref(&ctx, &[16, 128], f32, any))
        .build(&ctx, |k| {
            let [x, o] = k.refs()?;
            emit_pipeline(&[2], [rows()], [rows()]).call(k, [x, o], |k, _, r| {
                let i = k.astype(k.program_id(0)?, f32)?;
                r[1].store(k, k.add(r[0].load(k)?, i)?)
            })
        })
        .unwrap_err()
        .to_string();
    assert!(error.contains("program_id"), "{error}");
    // A kernel ref accessed in the body (Pallas casts some such accesses by
    // the ref's earlier use): `def body(x_ref): o_ref[...] += x_ref[...]`.
    let error = KernelSpec::new("accumulate")
        .input(Arg::memref(&ctx, &[32, 128], f32, any))
        .output(Arg::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem))
        .build(&ctx, |k| {
            let [x, o_ref] = k.refs()?;
            let no_outputs: [BlockSpec; 0] = [];
            emit_pipeline(&[4], [rows()], no_outputs).call(k, [x], |k, _, r| {
                let sum = k.add(k.load(o_ref)?, r[0].load(k)?)?;
                k.store(o_ref, sum)
            })
        })
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("not one of the pipeline's blocks"),
        "{error}"
    );
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
        let params = default_params(name);
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
    assert_eq!(cases, 45, "the cases of {script:?}");
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
    // Issue 40's idioms.
    assert_eq!(
        error(&|k| k.refs::<3>().map(|_| ())),
        "kernel `k`: refs: the kernel has 2 refs, not 3: destructure 2"
    );
    assert_eq!(
        error(&|k| k.sync_copy(k.inputs[0], &[], k.outputs[0], &[])),
        "kernel `k`: sync_copy: a tc kernel: sync_copy is written for SparseCore kernels (KernelSpec::core_type); use async_copy with a DMA semaphore scratch"
    );
    assert_eq!(
        error(&|k| k.ref_at(k.inputs[0], &[ds_strided(0, 4, 2)]).map(|_| ())),
        "kernel `k`: ref_at: a stride does not slice a ref view: give ds(start, size), at(i) or ALL"
    );
    assert_eq!(
        error(&|k| {
            let x = k.load(k.inputs[0])?;
            k.load_gather(k.inputs[0], &[x]).map(|_| ())
        }),
        "kernel `k`: load_gather: 1 index vectors for a ref of rank 2: give one per dimension"
    );
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

/// The typed upstream builders make ops that verify and print as MLIR prints
/// them; `CombiningKind::attribute` is the attribute the parser makes.
#[test]
fn upstream_builders_make_verified_ops() {
    use tpu_custom_call::melior::dialect::func;
    use tpu_custom_call::melior::ir::attribute::{StringAttribute, TypeAttribute};
    use tpu_custom_call::melior::ir::operation::OperationLike;
    use tpu_custom_call::melior::ir::r#type::FunctionType;
    use tpu_custom_call::melior::ir::{
        Attribute, Block, BlockLike, Location, Region, RegionLike, Value,
    };
    use tpu_custom_call::mosaic::upstream::{arith, math, scf, vector};
    let ctx = Context::new();
    for &kind in vector::CombiningKind::ALL {
        let parsed = Attribute::parse(&ctx, &format!("#vector.kind<{kind}>")).unwrap();
        assert_eq!(kind.attribute(&ctx), parsed, "{kind}");
        assert_eq!(kind.to_string().parse::<vector::CombiningKind>(), Ok(kind));
    }
    assert!(
        "max"
            .parse::<vector::CombiningKind>()
            .unwrap_err()
            .contains("expected one of add, mul")
    );
    let loc = Location::unknown(&ctx);
    let f32 = Type::float32(&ctx);
    let index = Type::index(&ctx);
    let (v8x128, v8) = (Type::vector(&[8, 128], f32), Type::vector(&[8], f32));
    let mem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let args = [
        (v8x128, loc),
        (v8, loc),
        (mem, loc),
        (index, loc),
        (f32, loc),
    ];
    let block = Block::new(&args);
    let arg = |i| -> Value { block.argument(i).unwrap().into() };
    let (x, acc, r, i, s) = (arg(0), arg(1), arg(2), arg(3), arg(4));
    let one = |op| -> Value { block.append_operation(op).result(0).unwrap().into() };
    one(vector::multi_reduction(
        &ctx,
        vector::CombiningKind::MaximumF,
        x,
        acc,
        &[1],
        loc,
    ));
    one(vector::transpose(&ctx, x, &[1, 0], loc).unwrap());
    one(vector::extract_strided_slice(&ctx, x, &[0, 0], &[8, 1], &[1, 1], loc).unwrap());
    let row = one(vector::extract(&ctx, x, &[0], loc).unwrap());
    one(vector::insert(&ctx, row, x, &[1], loc));
    let part = one(vector::extract_strided_slice(&ctx, x, &[0, 0], &[8, 8], &[1, 1], loc).unwrap());
    one(vector::insert_strided_slice(
        &ctx,
        part,
        x,
        &[0, 8],
        &[1, 1],
        loc,
    ));
    one(vector::reduction(&ctx, vector::CombiningKind::Add, acc, None, loc).unwrap());
    one(vector::create_mask(
        Type::vector(&[8, 128], IntegerType::new(&ctx, 1).into()),
        &[i, i],
        loc,
    ));
    one(vector::constant_mask(
        &ctx,
        Type::vector(&[8, 128], IntegerType::new(&ctx, 1).into()),
        &[8, 64],
        loc,
    ));
    one(vector::shape_cast(Type::vector(&[1024], f32), x, loc));
    one(vector::broadcast(v8x128, s, loc));
    one(vector::fma(x, x, x, loc));
    one(vector::load(v8x128, r, &[i, i], loc));
    block.append_operation(vector::store(x, r, &[i, i], loc));
    for op in [
        math::exp,
        math::log,
        math::tanh,
        math::rsqrt,
        math::sqrt,
        math::erf,
        math::absf,
    ] {
        one(op(x, loc));
    }
    one(math::powf(x, x, loc));
    one(arith::maximumf(x, x, loc));
    one(arith::cmpf(&ctx, arith::CmpfPredicate::Ogt, x, x, loc));
    // scf.for with a carried value: for %iv = %i to %i step %i iter_args(%a = %x).
    let body = Block::new(&[(index, loc), (v8x128, loc)]);
    let carried: Value = body.argument(1).unwrap().into();
    body.append_operation(scf::r#yield(&[carried], loc));
    let region = Region::new();
    region.append_block(body);
    one(scf::r#for(i, i, i, &[x], region, loc));
    block.append_operation(func::r#return(&[], loc));
    let region = Region::new();
    region.append_block(block);
    let arg_types: Vec<Type> = args.iter().map(|a| a.0).collect();
    let f = func::func(
        &ctx,
        StringAttribute::new(&ctx, "f"),
        TypeAttribute::new(FunctionType::new(&ctx, &arg_types, &[]).into()),
        region,
        &[],
        loc,
    );
    let module = Module::new(loc);
    module.body().append_operation(f);
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    let text = module.as_operation().to_string();
    for expected in [
        "vector.multi_reduction <maximumf>, %arg0, %arg1 [1] : vector<8x128xf32> to vector<8xf32>",
        "vector.transpose %arg0, [1, 0] : vector<8x128xf32> to vector<128x8xf32>",
        "vector.extract_strided_slice %arg0 {offsets = [0, 0], sizes = [8, 1], strides = [1, 1]} : vector<8x128xf32> to vector<8x1xf32>",
        "vector.extract %arg0[0] : vector<128xf32> from vector<8x128xf32>",
        "vector.insert %3, %arg0 [1] : vector<128xf32> into vector<8x128xf32>",
        "vector.insert_strided_slice %5, %arg0 {offsets = [0, 8], strides = [1, 1]} : vector<8x8xf32> into vector<8x128xf32>",
        "vector.reduction <add>, %arg1 : vector<8xf32> into f32",
        "vector.create_mask %arg3, %arg3 : vector<8x128xi1>",
        "vector.constant_mask [8, 64] : vector<8x128xi1>",
        "vector.shape_cast %arg0 : vector<8x128xf32> to vector<1024xf32>",
        "vector.broadcast %arg4 : f32 to vector<8x128xf32>",
        "vector.fma %arg0, %arg0, %arg0 : vector<8x128xf32>",
        "math.exp %arg0 : vector<8x128xf32>",
        "math.powf %arg0, %arg0 : vector<8x128xf32>",
        "arith.maximumf %arg0, %arg0 : vector<8x128xf32>",
        "arith.cmpf ogt, %arg0, %arg0 : vector<8x128xf32>",
        "scf.for %arg5 = %arg3 to %arg3 step %arg3 iter_args(%arg6 = %arg0) -> (vector<8x128xf32>)",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in\n{text}");
    }
    // Inference errors name the op.
    let bad = vector::transpose(&ctx, x, &[0, 0], loc)
        .unwrap_err()
        .to_string();
    assert_eq!(
        bad,
        "vector.transpose: permutation [0, 0] is not a permutation of 0..2: give each dimension once"
    );
    let bad = vector::extract(&ctx, s, &[0], loc).unwrap_err().to_string();
    assert_eq!(
        bad,
        "vector.extract: source has type f32, not a vector: give a vector"
    );
}

/// Issue 29's rule: each Rust kernel takes at most 1.5x the non-blank lines of
/// its Python Pallas kernel (the function with its `pallas_call`).
#[test]
fn idiom_kernels_are_at_most_one_and_a_half_times_the_python() {
    let root = env!("CARGO_MANIFEST_DIR");
    let rust = std::fs::read_to_string(format!("{root}/examples/build_kernel/kernels.rs")).unwrap();
    let python =
        std::fs::read_to_string(format!("{root}/scripts/jaxref/authoring_kernels.py")).unwrap();
    let count =
        |lines: &mut dyn Iterator<Item = &str>| lines.filter(|l| !l.trim().is_empty()).count();
    for (function, marker) in [("softmax", "softmax"), ("matmul_acc", "matmul")] {
        let start = rust.find(&format!("\npub fn {function}(")).unwrap();
        let end = start + rust[start..].find("\n}\n").unwrap() + 2;
        let rust_lines = count(&mut rust[start..end].lines());
        let begin = python.find(&format!("# {marker}: begin\n")).unwrap();
        let stop = python.find(&format!("# {marker}: end\n")).unwrap();
        let python_lines = count(&mut python[begin..stop].lines().skip(1));
        assert!(
            rust_lines * 2 <= python_lines * 3,
            "{function}: {rust_lines} lines of Rust for {python_lines} of Python"
        );
        // The doc comment above the function, as one line.
        let doc_start = rust[..start].rfind("\n\n").unwrap();
        let doc = rust[doc_start..start].replace("\n/// ", " ");
        for claim in [
            format!("take {python_lines} non-blank lines"),
            format!("this function {rust_lines} ("),
        ] {
            assert!(
                doc.contains(&claim),
                "{function}: its doc should say `{claim}`"
            );
        }
    }
}

/// The built idioms run on the CPU executor: the manual DMA copies rows
/// 8..16, the strided load takes every other row, the cond and the dynamic
/// loop pick by program id, the bool casts count signs.
#[test]
fn new_idioms_compute_what_their_python_computes() {
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let x16 = values(16 * 128, 3);
    let x32 = values(32 * 128, 5);
    let run = |name: &str, ins: &[(&[u64], Vec<f32>)], out: &[u64], expected: Vec<f32>| {
        let module = idiom_case(&ctx, name).unwrap();
        let text = lowered(
            &ctx,
            module,
            &ins.iter().map(|(s, _)| (*s, f32)).collect::<Vec<_>>(),
            (out, f32),
        );
        let inputs: Vec<Array> = ins
            .iter()
            .map(|(s, v)| {
                array(
                    ElemType::F32,
                    &s.iter().map(|&d| d as usize).collect::<Vec<_>>(),
                    v.clone(),
                )
            })
            .collect();
        let out: Vec<usize> = out.iter().map(|&d| d as usize).collect();
        assert_call_computes(
            &text,
            0,
            &inputs,
            &[array(ElemType::F32, &out, expected)],
            0.0,
            0.0,
        );
    };
    run(
        "manual_dma",
        &[(&[16, 128], x16.clone())],
        &[8, 128],
        x16[8 * 128..].iter().map(|v| v + 1.0).collect(),
    );
    // o = x[0:16:2]; then o[1:8:2] = x[8:12]
    let mut strided: Vec<f32> = (0..8)
        .flat_map(|r| x16[2 * r * 128..(2 * r + 1) * 128].to_vec())
        .collect();
    for (k, r) in [1usize, 3, 5, 7].into_iter().enumerate() {
        strided[r * 128..(r + 1) * 128].copy_from_slice(&x16[(8 + k) * 128..(9 + k) * 128]);
    }
    run("strided", &[(&[16, 128], x16.clone())], &[8, 128], strided);
    // Block 0 (program 0): x + 1; block 1: x * 2.
    let cond: Vec<f32> = x32
        .iter()
        .enumerate()
        .map(|(i, &v)| if i < 16 * 128 { v + 1.0 } else { v * 2.0 })
        .collect();
    run("cond_else", &[(&[32, 128], x32.clone())], &[32, 128], cond);
    // Program i adds its block i + 1 times.
    let fori: Vec<f32> = x32
        .iter()
        .enumerate()
        .map(|(i, &v)| if i < 16 * 128 { v } else { v + v })
        .collect();
    run(
        "fori_dynamic",
        &[(&[32, 128], x32.clone())],
        &[32, 128],
        fori,
    );
    // Program 0: (0 - 3) % 2 = 1 (Python's sign rule); program 1: 0; plus
    // (row - 8) % 3 of the row in the block, in 0..3.
    let remainder: Vec<f32> = x32
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let row = (i / 128 % 16) as i64 - 8;
            v + if i < 16 * 128 { 1.0 } else { 0.0 } + row.rem_euclid(3) as f32
        })
        .collect();
    run(
        "remainder",
        &[(&[32, 128], x32.clone())],
        &[32, 128],
        remainder,
    );
    // Python's float % (CPython's float_rem: fmod, then + b where the
    // signs differ), of a vector by a vector, by 0.75 and of -1.5.
    let py_mod = |a: f32, b: f32| {
        let r = a % b;
        if r != 0.0 && (r < 0.0) != (b < 0.0) {
            r + b
        } else {
            r
        }
    };
    let (xf, yf) = (values(8 * 128, 23), values(8 * 128, 29));
    let float_mod = xf
        .iter()
        .zip(&yf)
        .map(|(&x, &y)| py_mod(x, y) + py_mod(x, 0.75) + py_mod(-1.5, x))
        .collect();
    run(
        "remainder_float",
        &[(&[8, 128], xf.clone()), (&[8, 128], yf)],
        &[8, 128],
        float_mod,
    );
    let x8 = values(8 * 128, 9);
    let signs: Vec<f32> = x8
        .iter()
        .map(|&v| if v > 0.0 { 3.0 } else { 0.0 })
        .collect();
    run("bool_casts", &[(&[8, 128], x8)], &[8, 128], signs);
}

/// `full` of a ref's type and `full_like` give the ref's vector;
/// `vector_type` makes vector types from `i64` shapes; `validate::describe`
/// joins every problem as the CLI prints them.
#[test]
fn full_of_refs_vector_types_and_described_errors() {
    use tpu_custom_call::mosaic::pallas::ValueLike;
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let vmem = attrs::memref(&ctx, &[8, 128], f32, MemorySpace::Vmem, None);
    let module = KernelSpec::new("fill")
        .input(Arg::new(vmem))
        .output(Arg::new(vmem))
        .build(&ctx, |k| {
            let a = k.full(vmem, 2.0)?;
            let b = k.full_like(k.inputs[0], 1.0)?;
            assert_eq!(a.r#type(), vector_type(&[8, 128], f32));
            k.store(k.outputs[0], k.add(a, b)?)
        })
        .unwrap();
    let text = lowered(&ctx, module, &[(&[8, 128], f32)], (&[8, 128], f32));
    let x = array(ElemType::F32, &[8, 128], vec![0.0; 1024]);
    let three = array(ElemType::F32, &[8, 128], vec![3.0; 1024]);
    assert_call_computes(&text, 0, &[x], &[three], 0.0, 0.0);
    // Two problems at once, described as one message.
    let kernel = Kernel::from_text(
        &ctx,
        &std::fs::read_to_string("mlir-fixtures/kernels/add.mlir").unwrap(),
        "add.mlir",
    )
    .unwrap();
    let t = |s: &str| Type::parse(&ctx, s).unwrap();
    let signature = Signature::new(
        vec![t("tensor<8x128xbf16>"), t("tensor<8x128xbf16>")],
        [t("tensor<8x128xbf16>")],
    );
    let errors = validate(&kernel, signature, &Params::default(), None).unwrap_err();
    let text = tpu_custom_call::validate::describe(&errors);
    assert!(
        text.starts_with(&format!("{} problems:\n  - ", errors.len())) && errors.len() >= 2,
        "{text}"
    );
    assert_eq!(text.matches("\n  - ").count(), errors.len());
}

/// The SparseCore idioms run on the CPU executor: `load_gather` reads
/// `x[i[k]]`, `store_scatter` then writes `x[k]` at `i[k]` (of repeated
/// indices the highest lane's), the scatter DMA writes `x[k]` at `perm[k]`.
#[test]
fn sparse_core_idioms_compute_what_their_python_computes() {
    let ctx = Context::new();
    let (f32, i32) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let x = values(16, 21);
    let run_tol = |name: &str, idx: &[i32], expected: Vec<f32>, tol: f64| {
        let module = idiom_case(&ctx, name).unwrap();
        let text = lowered(&ctx, module, &[(&[16], f32), (&[16], i32)], (&[16], f32));
        let idx = Array::new(
            ElemType::Int(32),
            vec![16],
            Data::I64(idx.iter().map(|&v| v.into()).collect()),
        );
        let inputs = [array(ElemType::F32, &[16], x.clone()), idx];
        assert_call_computes(
            &text,
            0,
            &inputs,
            &[array(ElemType::F32, &[16], expected)],
            tol,
            tol,
        );
    };
    let run = |name: &str, idx: &[i32], expected: Vec<f32>| run_tol(name, idx, expected, 0.0);
    // Repeated indices (4, 11 and 5 twice; 13, 14, 15 never scattered to).
    let idx: Vec<i32> = (0..16).map(|k| (k * 7 + 4) % 13).collect();
    let mut gathered: Vec<f32> = idx.iter().map(|&i| x[i as usize]).collect();
    for (k, &i) in idx.iter().enumerate() {
        gathered[i as usize] = x[k];
    }
    run("sc_load_gather_store_scatter", &idx, gathered);
    let perm: Vec<i32> = (0..16).map(|k| (k * 5 + 3) % 16).collect();
    let mut scattered = vec![0.0; 16];
    for (k, &p) in perm.iter().enumerate() {
        scattered[p as usize] = x[k];
    }
    run("sc_scatter_dma", &perm, scattered);
    // x in the order of the (distinct) keys perm, plus x sorted descending.
    let mut by_key: Vec<(i32, f32)> = perm.iter().copied().zip(x.iter().copied()).collect();
    by_key.sort_by_key(|p| p.0);
    let mut descending = x.clone();
    descending.sort_by(|a, b| b.total_cmp(a));
    let sorted = by_key
        .iter()
        .zip(&descending)
        .map(|(p, d)| p.1 + d)
        .collect();
    run("sc_sort_key_val", &perm, sorted);
    // Expanded and compressed: mask = i > 5 (lanes 3, 5, 6, 8, 9, 11, 13,
    // 15), repeated values for the scan count.
    let idx = [3, 0, 2, 7, 5, 9, 7, 1, 12, 7, 4, 9, 0, 6, 3, 8];
    let mask: Vec<bool> = idx.iter().map(|&i| i > 5).collect();
    let mut expanded = vec![-1.0; 16];
    let mut next = x.iter();
    for (lane, _) in mask.iter().enumerate().filter(|(_, m)| **m) {
        expanded[lane] = *next.next().unwrap();
    }
    let kept: Vec<f32> = (0..16).filter(|&k| mask[k]).map(|k| x[k]).collect();
    expanded[..kept.len()].copy_from_slice(&kept);
    run("sc_expanded_compressed", &idx, expanded.clone());
    run("sc_expanded_compressed_no_layout", &idx, expanded);
    // The scans, in f64: running sums (masked-out lanes add nothing), a
    // masked running max that passes lanes before the first masked-in one
    // through, the running count of equal values and the last occurrence.
    let (mut sum, mut masked_sum, mut max): (f64, f64, Option<f64>) = (0.0, 0.0, None);
    let (mut int_max, mut int_sum) = (i64::MIN, 0i64);
    let mut scans = Vec::new();
    for k in 0..16 {
        let v = f64::from(x[k]);
        sum += v;
        if mask[k] {
            masked_sum += v;
            max = Some(max.map_or(v, |m: f64| m.max(v)));
            int_sum += i64::from(idx[k]);
        }
        int_max = int_max.max(i64::from(idx[k]) - 8);
        let y = 2.0 * sum + masked_sum + max.unwrap_or(v);
        let count = idx[..=k].iter().filter(|&&i| i == idx[k]).count() as i64;
        let last = !idx[k + 1..].contains(&idx[k]);
        let z = if last { int_max + int_sum + count } else { 0 };
        scans.push((y + z as f64) as f32);
    }
    run_tol("sc_scans", &idx, scans, 1e-5);
}

/// libtpu compiles the new idioms: the remote copy as 4 SPMD partitions on
/// v5e, the SparseCore kernels on v7x.
#[test]
fn remote_and_sparse_core_idioms_compile_with_libtpu() {
    use crate::compile::{LIBTPU, libtpu, options};
    use tpu_custom_call::compile::Compiler;
    use tpu_custom_call::target::Chip;
    let test = "remote_and_sparse_core_idioms_compile_with_libtpu";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let ctx = Context::new();
    let (f32, i32) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    for (name, chip, devices) in [
        ("remote_copy", Chip::V5e, 4),
        ("sc_load_gather_store_scatter", Chip::V7x, 1),
        ("sc_scatter_dma", Chip::V7x, 1),
        ("sc_sort_key_val", Chip::V7x, 1),
        ("sc_expanded_compressed", Chip::V7x, 1),
        ("sc_expanded_compressed_no_layout", Chip::V7x, 1),
        ("sc_scans", Chip::V7x, 1),
    ] {
        let module = idiom_case(&ctx, name).unwrap();
        let text = if name == "remote_copy" {
            lowered(&ctx, module, &[(&[8, 128], f32)], (&[8, 128], f32))
        } else {
            lowered(&ctx, module, &[(&[16], f32), (&[16], i32)], (&[16], f32))
        };
        let mut compiler = Compiler::new(options(chip, devices, &libtpu)).unwrap();
        let verdict = compiler.compile(text.as_bytes()).unwrap();
        assert!(verdict.is_ok(), "{name} on {chip}: {verdict:?}");
    }
}
