//! The kernels of issue 51's SparseCore and `emit_pipeline` examples,
//! written with the crate's Pallas idioms line for line as their Python
//! (`scripts/jaxref/sparsecore_examples.py`): each builds the kernel module
//! JAX 0.12 lowers the Python to (tests/integration/sparsecore.rs checks it
//! `diff`-equal, runs it on the CPU executor against numpy, and compiles it
//! with libtpu). Shared by the `pallas_examples` example and its test.

use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::ir::r#type::IntegerType;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::MemorySpace::{Any, Hbm, Vmem, VmemShared};
use tpu_custom_call::mosaic::pallas::{
    Arg, BlockSpec, IndexExpr::Grid, KernelSpec, at, ds, emit_pipeline,
};

/// `scatter_add_kernel`: `out = init.at[ids].add(x)` on the SparseCore of a
/// v7x (f32[128, 128] `init`, 256 ids, f32[256, 128] updates), on a 1-core x
/// 16-subcore vector-subcore mesh: each subcore copies its 8 rows of `init`
/// into an accumulator in `VMEM_SHARED`, meets the others at a barrier,
/// adds its 16 updates into the accumulator with one scatter-add DMA, meets
/// them again, and copies its 8 rows out.
///
/// Python: scripts/jaxref/sparsecore_examples.py::scatter_add
pub fn scatter_add(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (n, d, m, subcores) = (128, 128, 256, 16);
    let (rows, updates) = (n / subcores, m / subcores); // accumulator rows, updates per subcore
    let (f32, i32): (Type, Type) = (Type::float32(ctx), IntegerType::new(ctx, 32).into());
    let arg = |shape: &[i64], t, space| Arg::memref(ctx, shape, t, space);
    KernelSpec::vector_subcore_mesh("scatter_add_kernel", 1, subcores)
        .input(arg(&[n, d], f32, Hbm))
        .input(arg(&[m], i32, Hbm))
        .input(arg(&[m, d], f32, Hbm))
        .output(arg(&[n, d], f32, Hbm))
        .scratch(arg(&[n, d], f32, VmemShared))
        .scratch(arg(&[updates], i32, Vmem))
        .scratch(arg(&[updates, d], f32, Vmem))
        .build(ctx, |k| {
            let [init_hbm, ids_hbm, x_hbm, out_hbm] = k.call_refs()?;
            let [acc_shared, ids_vmem, x_vmem] = k.scratch_refs()?;
            let s = k.program_id(1)?;
            let (mine, first) = (ds(k.mul(s, rows)?, rows), k.mul(s, updates)?);
            k.sync_copy(init_hbm, &[mine], acc_shared, &[mine])?; // the accumulator starts at init
            k.sync_copy(ids_hbm, &[ds(first, updates)], ids_vmem, &[])?;
            k.sync_copy(x_hbm, &[ds(first, updates)], x_vmem, &[])?;
            k.subcore_barrier()?; // every row of the accumulator initialised
            k.sync_copy_add(x_vmem, &[], acc_shared, &[at(ids_vmem)])?; // acc[ids[k]] += x[k]
            k.subcore_barrier()?; // every update added
            k.sync_copy(acc_shared, &[mine], out_hbm, &[mine])
        })
}

/// `kernel`: a bf16[256, 512] x bf16[512, 256] matmul over HBM (`ANY`)
/// operands with `pltpu.emit_pipeline` over 128 x 128 blocks, grid (2, 2, 4):
/// the body accumulates into an f32 VMEM scratch and writes the bf16 output
/// block at the last `k` step.
///
/// Python: scripts/jaxref/sparsecore_examples.py::pipeline_matmul
pub fn pipeline_matmul(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (m, kk, n, bm, bn, bk) = (256, 512, 256, 128, 128, 128);
    let (f32, bf16) = (Type::float32(ctx), Type::bfloat16(ctx));
    let any = |shape: &[i64]| Arg::memref(ctx, shape, bf16, Any);
    let block = |shape: &[i64], i, j| BlockSpec::new(shape, &[Grid(i), Grid(j)]);
    KernelSpec::new("kernel")
        .in_specs([any(&[m, kk]), any(&[kk, n])])
        .output(any(&[m, n]))
        .scratch(Arg::memref(ctx, &[bm, bn], f32, Vmem))
        .build(ctx, |k| {
            let [x_hbm, y_hbm, o_hbm, acc_ref] = k.refs()?;
            let (x_spec, y_spec) = (block(&[bm, bk], 0, 2), block(&[bk, bn], 2, 1));
            emit_pipeline(
                &[m / bm, n / bn, kk / bk],
                [x_spec, y_spec],
                [block(&[bm, bn], 0, 1)],
            )
            .call(k, [x_hbm, y_hbm, o_hbm], |k, step, refs| {
                let [x_ref, y_ref, o_ref] = refs else {
                    unreachable!()
                };
                k.when(k.eq(step.program_id(2)?, 0)?, |k| {
                    k.store(acc_ref, k.zeros_like(acc_ref)?)
                })?;
                let acc = k.load(acc_ref)?;
                k.store(acc_ref, k.add(acc, k.dot(x_ref.load(k)?, y_ref.load(k)?)?)?)?;
                k.when(k.eq(step.program_id(2)?, step.num_programs(2)? - 1)?, |k| {
                    o_ref.store(k, k.astype(k.load(acc_ref)?, bf16)?)
                })
            })
        })
}

/// The examples, by name.
pub const EXAMPLES: &[&str] = &["scatter_add", "pipeline_matmul"];

/// The StableHLO module calling example `name` (its kernel built, validated
/// against the signature JAX gives the Python's call, and lowered with JAX's
/// default parameters).
pub fn lowered_module(name: &str) -> Result<String, Box<dyn std::error::Error>> {
    use tpu_custom_call::lower::{LowerOptions, Lowerer};
    use tpu_custom_call::melior::ir::r#type::RankedTensorType;
    use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};
    let ctx = Context::new();
    let (f32, bf16) = (Type::float32(&ctx), Type::bfloat16(&ctx));
    let i32: Type = IntegerType::new(&ctx, 32).into();
    let t = |shape: &[u64], e| -> Type { RankedTensorType::new(shape, e, None).into() };
    let (module, kernel_name, operands, result) = match name {
        "scatter_add" => (
            scatter_add(&ctx)?,
            "scatter_add_kernel",
            vec![t(&[128, 128], f32), t(&[256], i32), t(&[256, 128], f32)],
            t(&[128, 128], f32),
        ),
        "pipeline_matmul" => (
            pipeline_matmul(&ctx)?,
            "kernel",
            vec![t(&[256, 512], bf16), t(&[512, 256], bf16)],
            t(&[256, 256], bf16),
        ),
        other => return Err(format!("no example `{other}`: give one of {EXAMPLES:?}").into()),
    };
    let kernel = Kernel::from_module(&ctx, module)?;
    // JAX's parameters: a SparseCore kernel's tiling is compact by default.
    let tiling = if name == "scatter_add" {
        r#", "tiling": "compact""#
    } else {
        ""
    };
    let params = format!(r#"{{"kernel_name": "{kernel_name}", "metadata": {{}}{tiling}}}"#);
    let params = Params::from_json(params.as_bytes())?;
    let call = validate(&kernel, Signature::new(operands, [result]), &params, None)
        .map_err(|errors| validate::describe(&errors))?;
    let module = Lowerer::new(LowerOptions::default()).emit_module(&ctx, &call)?;
    Ok(kernel::print_module(&module, PrintOptions::default())?)
}
