//! The add, matmul and scalar-prefetch kernels of the JAX goldens, and a softmax
//! and the Pallas guide's accumulator matmul, built with the crate's Pallas idioms
//! (`KernelSpec::build`'s `k.load`, `k.store`, `k.when`, `k.dot`, …; no text is parsed). Shared by the `build_kernel` example
//! and its test.

use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::dialect::{arith, memref};
use tpu_custom_call::melior::ir::attribute::IntegerAttribute;
use tpu_custom_call::melior::ir::r#type::IntegerType;
use tpu_custom_call::melior::ir::{Block, BlockLike, Location, Module, Operation, Type, Value};
use tpu_custom_call::mosaic::attrs::{self, DimensionSemantics, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, IndexExpr, IndexMap, KernelSpec, Window};
use tpu_custom_call::mosaic::upstream::vector;
use tpu_custom_call::mosaic::{BuildError, ops};

/// Appends `op` to `block` and gives its one result.
fn append_one<'c, 'a>(block: &'a Block<'c>, op: Operation<'c>) -> Value<'c, 'a> {
    block
        .append_operation(op)
        .result(0)
        .expect("one result")
        .into()
}

/// `arith.constant <value> : i32` (in an index map's block).
fn int32<'c, 'a>(ctx: &'c MlirContext, block: &'a Block<'c>, value: i64) -> Value<'c, 'a> {
    let i32_type = IntegerType::new(ctx, 32).into();
    let op = arith::constant(
        ctx,
        IntegerAttribute::new(i32_type, value).into(),
        Location::unknown(ctx),
    );
    append_one(block, op)
}

/// `_add_kernel`: `o_ref[...] = x_ref[...] + y_ref[...]` on f32[8,128], no grid.
pub fn add(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let vmem = attrs::memref(ctx, &[8, 128], Type::float32(ctx), MemorySpace::Vmem, None);
    KernelSpec::new("_add_kernel")
        .input(Arg::new(vmem).named("x_ref"))
        .input(Arg::new(vmem).named("y_ref"))
        .output(Arg::new(vmem).named("o_ref"))
        .build(ctx, |k| {
            let sum = k.add(k.load(k.inputs[0])?, k.load(k.inputs[1])?)?;
            k.store(k.outputs[0], sum)
        })
}

/// `kernel`: a bf16 matmul tiled 128x128x128 over the grid (2, 3, 4), with an
/// f32 VMEM accumulator (the `matmul_grid` golden).
pub fn matmul(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (bf16, f32_type) = (Type::bfloat16(ctx), Type::float32(ctx));
    let in_block = attrs::memref(ctx, &[128, 128], bf16, MemorySpace::Vmem, None);
    let out_block = attrs::memref(ctx, &[128, 128], f32_type, MemorySpace::Vmem, None);
    let window = |map: &[usize]| Window::blocked(&[128, 128], IndexMap::grid(map));
    use DimensionSemantics::{Arbitrary, Parallel};
    KernelSpec::new("kernel")
        .grid(&[2, 3, 4], &[Parallel, Parallel, Arbitrary])
        .input(Arg::new(in_block).named("a_ref").window(window(&[0, 2])))
        .input(Arg::new(in_block).named("b_ref").window(window(&[2, 1])))
        .output(Arg::new(out_block).named("o_ref").window(window(&[0, 1])))
        .scratch(Arg::new(out_block).named("acc_ref"))
        .build(ctx, |k| {
            let (a_ref, b_ref, o_ref, acc_ref) =
                (k.inputs[0], k.inputs[1], k.outputs[0], k.scratch[0]);
            k.when(k.eq(k.program_id(2)?, 0)?, |k| {
                k.store(acc_ref, k.zeros_like(acc_ref)?)
            })?;
            let acc = k.load(acc_ref)?;
            let product = k.dot(k.load(a_ref)?, k.load(b_ref)?)?;
            k.store(acc_ref, k.add(acc, product)?)?;
            k.when(k.eq(k.program_id(2)?, 3)?, |k| {
                k.store(o_ref, k.load(acc_ref)?)
            })
        })
}

/// `kernel` of the `scalar_prefetch` golden: `o_ref[...] = x_ref[...] * 2` on
/// 8x128 blocks over the grid (4,), where x's block index is read from the
/// scalar-prefetch ref (`lambda i, idx: (idx[i], 0)`).
pub fn scalar_prefetch(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let f32_type = Type::float32(ctx);
    let i32_type: Type = IntegerType::new(ctx, 32).into();
    let block = attrs::memref(ctx, &[8, 128], f32_type, MemorySpace::Vmem, None);
    let idx = attrs::memref(ctx, &[4], i32_type, MemorySpace::Smem, None);
    // lambda i, idx: (idx[i], 0)
    let from_prefetch = IndexMap::Custom {
        rank: 2,
        body: Box::new(move |ctx, block| {
            let unknown = Location::unknown(ctx);
            let i: Value = block.argument(0).expect("grid index").into();
            let idx: Value = block.argument(1).expect("prefetch ref").into();
            let i = append_one(block, arith::index_cast(i, Type::index(ctx), unknown));
            let row = append_one(block, memref::load(idx, &[i], unknown));
            vec![row, int32(ctx, block, 0)]
        }),
    };
    KernelSpec::new("kernel")
        .grid(&[4], &[DimensionSemantics::Parallel])
        .scalar_prefetch(Arg::new(idx).named("idx_ref"))
        .input(
            Arg::new(block)
                .named("x_ref")
                .window(Window::blocked(&[8, 128], from_prefetch)),
        )
        .output(Arg::new(block).named("o_ref").window(Window::blocked(
            &[8, 128],
            IndexMap::Exprs(vec![IndexExpr::Grid(0), IndexExpr::Const(0)]),
        )))
        .build(ctx, |k| {
            k.store(k.outputs[0], k.mul(k.load(k.inputs[0])?, 2.0)?)
        })
}

/// A synthetic kernel of about `ops` ops, built in memory (for the
/// serialization benchmark): `v = x + v; o_ref[...] = v`, repeated.
pub fn synthetic(ctx: &MlirContext, ops: usize) -> Result<Module<'_>, BuildError> {
    let f32_type = Type::float32(ctx);
    let vmem = attrs::memref(ctx, &[8, 128], f32_type, MemorySpace::Vmem, None);
    let vector = Type::vector(&[8, 128], f32_type);
    KernelSpec::new("synthetic")
        .input(Arg::new(vmem).named("x_ref"))
        .output(Arg::new(vmem).named("o_ref"))
        .build(ctx, |k| {
            let unknown = Location::unknown(ctx);
            let c0 = k.index(0);
            let x = k.value(vector::load(vector, k.inputs[0], &[c0, c0], unknown))?;
            let mut v = x;
            for _ in 0..ops.saturating_sub(3) / 2 {
                v = k.add(x, v)?;
                k.append(ops::vector_store(
                    ctx,
                    v,
                    k.outputs[0],
                    &[c0, c0],
                    None,
                    &[],
                    None,
                    unknown,
                ));
            }
            Ok(())
        })
}

/// `softmax_kernel`: row-wise softmax of f32[256, 512] in 8x512 blocks, written
/// with the Pallas idioms of `KernelArgs` alone. The Python Pallas kernel and its
/// `pallas_call` (`scripts/jaxref/authoring_kernels.py`) take 13 non-blank lines;
/// this function 16 (1.23x).
pub fn softmax(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let block = attrs::memref(ctx, &[8, 512], Type::float32(ctx), MemorySpace::Vmem, None);
    use IndexExpr::{Const, Grid};
    let rows = || Window::blocked(&[8, 512], IndexMap::Exprs(vec![Grid(0), Const(0)]));
    KernelSpec::new("softmax_kernel")
        .grid(&[256 / 8], &[])
        .input(Arg::new(block).named("x_ref").window(rows()))
        .output(Arg::new(block).named("o_ref").window(rows()))
        .build(ctx, |k| {
            let x = k.load(k.inputs[0])?;
            let m = k.max(x, 1, true)?;
            let e = k.exp(k.sub(x, m)?)?;
            let s = k.sum(e, 1, true)?;
            k.store(k.outputs[0], k.div(e, s)?)
        })
}

/// `matmul_kernel` of the Pallas TPU matmul guide: bf16[256, 512] @ bf16[512, 256]
/// tiled 128x128x128 over the grid (2, 2, 4) with an f32 VMEM scratch accumulator,
/// the result cast back to bf16, written with the Pallas idioms alone. The Python
/// kernel and its `pallas_call` (`scripts/jaxref/authoring_kernels.py`) take 30
/// non-blank lines; this function 39 (1.3x).
pub fn matmul_acc(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (bf16, f32_type) = (Type::bfloat16(ctx), Type::float32(ctx));
    let (m, k, n, bm, bk, bn) = (256, 512, 256, 128, 128, 128);
    let nsteps = k / bk;
    let vmem = |shape: &[i64], t| attrs::memref(ctx, shape, t, MemorySpace::Vmem, None);
    let window = |shape: &[i64], map: &[usize]| Window::blocked(shape, IndexMap::grid(map));
    use DimensionSemantics::{Arbitrary, Parallel};
    KernelSpec::new("matmul_kernel")
        .grid(&[m / bm, n / bn, nsteps], &[Parallel, Parallel, Arbitrary])
        .input(
            Arg::new(vmem(&[bm, bk], bf16))
                .named("x_ref")
                .window(window(&[bm, bk], &[0, 2])),
        )
        .input(
            Arg::new(vmem(&[bk, bn], bf16))
                .named("y_ref")
                .window(window(&[bk, bn], &[2, 1])),
        )
        .output(
            Arg::new(vmem(&[bm, bn], bf16))
                .named("z_ref")
                .window(window(&[bm, bn], &[0, 1])),
        )
        .scratch(Arg::new(vmem(&[bm, bn], f32_type)).named("acc_ref"))
        .build(ctx, |k| {
            let (x_ref, y_ref, z_ref, acc_ref) =
                (k.inputs[0], k.inputs[1], k.outputs[0], k.scratch[0]);
            k.when(k.eq(k.program_id(2)?, 0)?, |k| {
                k.store(acc_ref, k.zeros_like(acc_ref)?)
            })?;
            let acc = k.load(acc_ref)?;
            let product = k.dot(k.load(x_ref)?, k.load(y_ref)?)?;
            k.store(acc_ref, k.add(acc, product)?)?;
            k.when(k.eq(k.program_id(2)?, nsteps - 1)?, |k| {
                k.store(z_ref, k.astype(k.load(acc_ref)?, bf16)?)
            })
        })
}
