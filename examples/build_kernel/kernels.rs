//! The add, matmul and scalar-prefetch kernels of the JAX goldens, built op by op with the
//! crate's builders (no text is parsed). Shared by the `build_kernel` example
//! and its test.

use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::dialect::{arith, memref, scf};
use tpu_custom_call::melior::ir::attribute::{
    DenseElementsAttribute, FloatAttribute, IntegerAttribute,
};
use tpu_custom_call::melior::ir::r#type::IntegerType;
use tpu_custom_call::melior::ir::{
    Block, BlockLike, Location, Module, Operation, Region, RegionLike, Type, Value,
};
use tpu_custom_call::mosaic::attrs::{self, DimensionSemantics, DotDimensionNumbers, MemorySpace};
use tpu_custom_call::mosaic::pallas::{Arg, IndexExpr, IndexMap, KernelSpec, Window};
use tpu_custom_call::mosaic::upstream::{vector_broadcast, vector_load};
use tpu_custom_call::mosaic::{BuildError, ops};

/// Appends `op` to `block` and gives its one result.
fn append_one<'c, 'a>(block: &'a Block<'c>, op: Operation<'c>) -> Value<'c, 'a> {
    block
        .append_operation(op)
        .result(0)
        .expect("one result")
        .into()
}

/// `arith.constant <value> : index`.
fn index<'c, 'a>(ctx: &'c MlirContext, block: &'a Block<'c>, value: i64) -> Value<'c, 'a> {
    let op = arith::constant(
        ctx,
        IntegerAttribute::new(Type::index(ctx), value).into(),
        Location::unknown(ctx),
    );
    append_one(block, op)
}

/// `arith.constant <value> : i32`.
fn int32<'c, 'a>(ctx: &'c MlirContext, block: &'a Block<'c>, value: i64) -> Value<'c, 'a> {
    let i32_type = IntegerType::new(ctx, 32).into();
    let op = arith::constant(
        ctx,
        IntegerAttribute::new(i32_type, value).into(),
        Location::unknown(ctx),
    );
    append_one(block, op)
}

/// Pallas's `ref[...]` of a 2-D ref: two zero indices, then `vector.load`.
fn get<'c, 'a>(
    ctx: &'c MlirContext,
    block: &'a Block<'c>,
    vector: Type<'c>,
    base: Value<'c, 'a>,
) -> Value<'c, 'a> {
    let (i, j) = (index(ctx, block, 0), index(ctx, block, 0));
    let op = vector_load(vector, base, &[i, j], Location::unknown(ctx));
    append_one(block, op)
}

/// Pallas's `ref[...] = value` of a 2-D ref: two zero indices, the old value
/// loaded (Pallas's swap), then `tpu.vector_store`.
fn swap<'c, 'a>(
    ctx: &'c MlirContext,
    block: &'a Block<'c>,
    vector: Type<'c>,
    base: Value<'c, 'a>,
    value: Value<'c, 'a>,
) {
    let (i, j) = (index(ctx, block, 0), index(ctx, block, 0));
    block.append_operation(vector_load(vector, base, &[i, j], Location::unknown(ctx)));
    block.append_operation(ops::vector_store(
        ctx,
        value,
        base,
        &[i, j],
        None,
        &[],
        None,
        Location::unknown(ctx),
    ));
}

/// `_add_kernel`: `o_ref[...] = x_ref[...] + y_ref[...]` on f32[8,128], no grid.
pub fn add(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let f32_type = Type::float32(ctx);
    let vmem = attrs::memref(ctx, &[8, 128], f32_type, MemorySpace::Vmem, None);
    let vector = Type::vector(&[8, 128], f32_type);
    KernelSpec::new("_add_kernel")
        .input(Arg::new(vmem).named("x_ref"))
        .input(Arg::new(vmem).named("y_ref"))
        .output(Arg::new(vmem).named("o_ref"))
        .build(ctx, |k| {
            let x = get(ctx, k.block, vector, k.inputs[0]);
            let y = get(ctx, k.block, vector, k.inputs[1]);
            let sum = append_one(k.block, arith::addf(x, y, Location::unknown(ctx)));
            swap(ctx, k.block, vector, k.outputs[0], sum);
            Ok(())
        })
}

/// `if (grid index == value) { then }` as Pallas lowers `@pl.when`:
/// `cmpi eq`, `extui`, `cmpi ne 0`, `scf.if`.
fn when<'c, 'a>(
    ctx: &'c MlirContext,
    block: &'a Block<'c>,
    index: Value<'c, 'a>,
    value: i64,
    then: impl for<'b> FnOnce(&'b Block<'c>),
) {
    let unknown = Location::unknown(ctx);
    let i32_type: Type<'c> = IntegerType::new(ctx, 32).into();
    let c = int32(ctx, block, value);
    let eq: Value = append_one(
        block,
        arith::cmpi(ctx, arith::CmpiPredicate::Eq, index, c, unknown),
    );
    let ext: Value = append_one(block, arith::extui(eq, i32_type, unknown));
    let zero = int32(ctx, block, 0);
    let cond: Value = append_one(
        block,
        arith::cmpi(ctx, arith::CmpiPredicate::Ne, ext, zero, unknown),
    );
    let then_block = Block::new(&[]);
    then(&then_block);
    then_block.append_operation(scf::r#yield(&[], unknown));
    let then_region = Region::new();
    then_region.append_block(then_block);
    let else_block = Block::new(&[]);
    else_block.append_operation(scf::r#yield(&[], unknown));
    let else_region = Region::new();
    else_region.append_block(else_block);
    block.append_operation(scf::r#if(cond, &[], then_region, else_region, unknown));
}

/// `kernel`: a bf16 matmul tiled 128x128x128 over the grid (2, 3, 4), with an
/// f32 VMEM accumulator (the `matmul_grid` golden).
pub fn matmul(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (bf16, f32_type) = (Type::bfloat16(ctx), Type::float32(ctx));
    let in_block = attrs::memref(ctx, &[128, 128], bf16, MemorySpace::Vmem, None);
    let out_block = attrs::memref(ctx, &[128, 128], f32_type, MemorySpace::Vmem, None);
    let (in_vector, acc_vector) = (
        Type::vector(&[128, 128], bf16),
        Type::vector(&[128, 128], f32_type),
    );
    let window = |map: &[usize]| Window::blocked(&[128, 128], IndexMap::grid(map));
    use DimensionSemantics::{Arbitrary, Parallel};
    KernelSpec::new("kernel")
        .grid(&[2, 3, 4], &[Parallel, Parallel, Arbitrary])
        .input(Arg::new(in_block).named("a_ref").window(window(&[0, 2])))
        .input(Arg::new(in_block).named("b_ref").window(window(&[2, 1])))
        .output(Arg::new(out_block).named("o_ref").window(window(&[0, 1])))
        .scratch(Arg::new(out_block).named("acc_ref"))
        .build(ctx, |k| {
            let unknown = Location::unknown(ctx);
            let (a_ref, b_ref, o_ref, acc_ref) =
                (k.inputs[0], k.inputs[1], k.outputs[0], k.scratch[0]);
            let kk = k.grid_indices[2];
            when(ctx, k.block, kk, 0, |block| {
                let zero = append_one(
                    block,
                    arith::constant(ctx, FloatAttribute::new(ctx, f32_type, 0.0).into(), unknown),
                );
                let splat = append_one(block, vector_broadcast(acc_vector, zero, unknown));
                swap(ctx, block, acc_vector, acc_ref, splat);
            });
            let acc = get(ctx, k.block, acc_vector, acc_ref);
            let a = get(ctx, k.block, in_vector, a_ref);
            let b = get(ctx, k.block, in_vector, b_ref);
            let zeros = DenseElementsAttribute::new(
                acc_vector,
                &[FloatAttribute::new(ctx, f32_type, 0.0).into()],
            )
            .expect("a splat of the vector's element type");
            let init = append_one(k.block, arith::constant(ctx, zeros.into(), unknown));
            let product = append_one(
                k.block,
                ops::matmul(
                    ctx,
                    a,
                    b,
                    init,
                    acc_vector,
                    false,
                    None,
                    None,
                    None,
                    Some(&DotDimensionNumbers::matmul_2d()),
                    unknown,
                ),
            );
            let sum = append_one(k.block, arith::addf(acc, product, unknown));
            swap(ctx, k.block, acc_vector, acc_ref, sum);
            when(ctx, k.block, kk, 3, |block| {
                let acc = get(ctx, block, acc_vector, acc_ref);
                swap(ctx, block, acc_vector, o_ref, acc);
            });
            Ok(())
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
    let vector = Type::vector(&[8, 128], f32_type);
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
            let unknown = Location::unknown(ctx);
            let x = get(ctx, k.block, vector, k.inputs[0]);
            let two = append_one(
                k.block,
                arith::constant(ctx, FloatAttribute::new(ctx, f32_type, 2.0).into(), unknown),
            );
            let twos = append_one(k.block, vector_broadcast(vector, two, unknown));
            let product = append_one(k.block, arith::mulf(x, twos, unknown));
            swap(ctx, k.block, vector, k.outputs[0], product);
            Ok(())
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
            let c0 = index(ctx, k.block, 0);
            let load = vector_load(vector, k.inputs[0], &[c0, c0], unknown);
            let x: Value = append_one(k.block, load);
            let mut v = x;
            for _ in 0..ops.saturating_sub(3) / 2 {
                v = append_one(k.block, arith::addf(x, v, unknown));
                k.block.append_operation(ops::vector_store(
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
