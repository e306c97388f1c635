//! The kernels of issue 40's examples, written with the crate's Pallas idioms
//! line for line as their Python (`scripts/jaxref/authoring_examples.py`):
//! each builds the kernel module JAX 0.12 lowers the Python to
//! (tests/integration/examples.rs checks it `diff`-equal, runs it on the CPU
//! executor against numpy, and compiles it with libtpu). Shared by the
//! `pallas_examples` example and its test.

use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::ir::r#type::IntegerType;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::{self, DimensionSemantics, MemorySpace};
use tpu_custom_call::mosaic::pallas::{
    ALL, Arg, DotOptions, IndexExpr, IndexMap, KernelSpec, Window, at, ds, vector_type,
};

use DimensionSemantics::{Arbitrary, Parallel};
use IndexExpr::{Const, Grid};
use MemorySpace::{Hbm, Vmem};

/// `flash_kernel`: causal flash attention forward over f32[256, 128] q, k, v
/// in 128-row blocks, grid (q blocks, kv blocks), the running max, sum and
/// accumulator in VMEM scratch; kv blocks above the diagonal are skipped and
/// the diagonal block is masked. The Python kernel and its `pallas_call` take
/// 39 non-blank lines; this function 49 (1.26x).
///
/// Python: scripts/jaxref/authoring_examples.py::flash_attention
pub fn flash_attention(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (n, d, bq, bk) = (256, 128, 128, 128);
    let scale = (d as f64).powf(-0.5);
    let (f32, i32) = (Type::float32(ctx), IntegerType::new(ctx, 32).into());
    let vmem = |shape: &[i64]| Arg::new(attrs::memref(ctx, shape, f32, MemorySpace::Vmem, None));
    let block = |rows, grid| {
        let map = IndexMap::Exprs(vec![Grid(grid), Const(0)]);
        vmem(&[rows, d]).window(Window::blocked(&[rows, d], map))
    };
    KernelSpec::new("flash_kernel")
        .grid(&[n / bq, n / bk], &[Parallel, Arbitrary])
        .input(block(bq, 0))
        .input(block(bk, 1))
        .input(block(bk, 1))
        .output(block(bq, 0))
        .scratch(vmem(&[bq, 1]))
        .scratch(vmem(&[bq, 1]))
        .scratch(vmem(&[bq, d]))
        .build(ctx, |k| {
            let [q_ref, k_ref, v_ref, o_ref, m_ref, l_ref, acc_ref] = k.refs()?;
            let (qi, ki) = (k.program_id(0)?, k.program_id(1)?);
            k.when(k.eq(ki, 0)?, |k| {
                k.store(m_ref, k.full_like(m_ref, f64::NEG_INFINITY)?)?;
                k.store(l_ref, k.zeros_like(l_ref)?)?;
                k.store(acc_ref, k.zeros_like(acc_ref)?)
            })?;
            // Skip blocks above the diagonal.
            let below = k.le(k.mul(ki, bk)?, k.sub(k.add(k.mul(qi, bq)?, bq)?, 1)?)?;
            k.when(below, |k| {
                let nt = DotOptions::rhs_transposed();
                let s = k.mul(k.dot_with(k.load(q_ref)?, k.load(k_ref)?, nt)?, scale)?;
                let rows = k.add(k.mul(qi, bq)?, k.iota(vector_type(&[bq, bk], i32), 0)?)?;
                let cols = k.add(k.mul(ki, bk)?, k.iota(vector_type(&[bq, bk], i32), 1)?)?;
                let s = k.select(k.le(cols, rows)?, s, f64::NEG_INFINITY)?;
                let m_prev = k.load(m_ref)?;
                let m_new = k.maximum(m_prev, k.max(s, 1, true)?)?;
                let p = k.exp(k.sub(s, m_new)?)?;
                let alpha = k.exp(k.sub(m_prev, m_new)?)?;
                let l = k.add(k.mul(alpha, k.load(l_ref)?)?, k.sum(p, 1, true)?)?;
                k.store(l_ref, l)?;
                let acc = k.add(k.mul(alpha, k.load(acc_ref)?)?, k.dot(p, k.load(v_ref)?)?)?;
                k.store(acc_ref, acc)?;
                k.store(m_ref, m_new)
            })?;
            k.when(k.eq(ki, k.num_programs(1)? - 1)?, |k| {
                k.store(o_ref, k.div(k.load(acc_ref)?, k.load(l_ref)?)?)
            })
        })
}

/// `paged_kernel`: attention decode of 8 query heads per sequence (batch 2)
/// over 4 pages of 16 keys each, the pages of sequence `b` named by
/// `page_table[b]` (scalar prefetch, SMEM); k and v pages stay in HBM
/// (`memory_space=ANY`) and are copied into two VMEM slots by manual DMAs, the
/// next page's copies started before the current page's are waited for. The
/// Python kernel and its `pallas_call` take 46 non-blank lines; this function
/// 59 (1.28x).
///
/// Python: scripts/jaxref/authoring_examples.py::paged_attention
pub fn paged_attention(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (batch, heads, d, pages, page_size, total_pages) = (2, 8, 128, 4, 16, 16);
    let (f32, i32): (Type, Type) = (Type::float32(ctx), IntegerType::new(ctx, 32).into());
    let memref = |shape: &[i64], t, space| Arg::new(attrs::memref(ctx, shape, t, space, None));
    let vmem = |shape: &[i64]| memref(shape, f32, MemorySpace::Vmem);
    let map = || IndexMap::Exprs(vec![Grid(0), Const(0), Const(0)]);
    let per_sequence = || vmem(&[1, heads, d]).window(Window::blocked(&[1, heads, d], map()));
    let pages_hbm = || memref(&[total_pages, page_size, d], f32, MemorySpace::Any);
    let dma = attrs::dma_semaphore_type(ctx);
    KernelSpec::new("paged_kernel")
        .grid(&[batch], &[Parallel])
        .scalar_prefetch(memref(&[batch, pages], i32, MemorySpace::Smem))
        .input(per_sequence())
        .input(pages_hbm())
        .input(pages_hbm())
        .output(per_sequence())
        .scratch(vmem(&[2, page_size, d]))
        .scratch(vmem(&[2, page_size, d]))
        .scratch(memref(&[2, 2], dma, MemorySpace::SemaphoreMem))
        .build(ctx, |k| {
            let [pt_ref, q_ref, k_hbm, v_hbm, o_ref, k_buf, v_buf, sems] = k.refs()?;
            let b = k.program_id(0)?;
            // The DMAs of `page` into buffer `slot`.
            let copies = |page, slot| {
                [(k_hbm, k_buf, 0), (v_hbm, v_buf, 1)].map(|(hbm, buf, s)| {
                    k.async_copy(hbm, &[at(page)], buf, &[slot], sems)
                        .sem_at(&[at(s), slot])
                })
            };
            let page = k.load_at(pt_ref, &[at(b), at(0)])?;
            copies(page, at(0)).iter().try_for_each(|c| c.start(k))?;
            let q_all = [at(0), ALL, ALL];
            let (h1, hd) = (vector_type(&[heads, 1], f32), vector_type(&[heads, d], f32));
            let init = [k.full(h1, f64::NEG_INFINITY)?, k.zeros(h1)?, k.zeros(hd)?];
            let out = k.fori_loop(0, pages, &init, |k, j, carry| {
                let (m, l, acc) = (carry[0], carry[1], carry[2]);
                let slot = k.remainder(j, 2)?;
                // Prefetch the next page into the other slot.
                k.when(k.lt(k.add(j, 1)?, pages)?, |k| {
                    let (next, other) = (k.add(j, 1)?, k.sub(1, slot)?);
                    let page = k.load_at(pt_ref, &[at(b), at(next)])?;
                    copies(page, at(other)).iter().try_for_each(|c| c.start(k))
                })?;
                let page = k.load_at(pt_ref, &[at(b), at(j)])?;
                copies(page, at(slot)).iter().try_for_each(|c| c.wait(k))?;
                let q = k.load_at(q_ref, &q_all)?;
                let k_page = k.load_at(k_buf, &[at(slot), ALL, ALL])?;
                let s = k.dot_with(q, k_page, DotOptions::rhs_transposed())?;
                let m_new = k.maximum(m, k.max(s, 1, true)?)?;
                let p = k.exp(k.sub(s, m_new)?)?;
                let alpha = k.exp(k.sub(m, m_new)?)?;
                let l = k.add(k.mul(alpha, l)?, k.sum(p, 1, true)?)?;
                let v_at = [at(slot), ALL, ALL];
                let acc = k.add(k.mul(alpha, acc)?, k.dot(p, k.load_at(v_buf, &v_at)?)?)?;
                Ok(vec![m_new, l, acc])
            })?;
            k.store_at(o_ref, &q_all, k.div(out[2], out[1])?)
        })
}

/// `gather_kernel`: an embedding lookup on the SparseCore, `out[i] =
/// table[ids[i]]` for 256 ids into an f32[1000, 128] table, on a 1-core x
/// 16-subcore vector-subcore mesh: each subcore copies its 16 ids into its
/// VMEM, gathers their rows from HBM with one indirect DMA, and copies them
/// out. The Python kernel and its `pl.kernel` take 13 non-blank lines; this
/// function 16 (1.23x).
///
/// Python: scripts/jaxref/authoring_examples.py::embedding_lookup
pub fn embedding_lookup(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (n, d, vocab, rows) = (256, 128, 1000, 16); // rows: ids per vector subcore
    let (f32, i32): (Type, Type) = (Type::float32(ctx), IntegerType::new(ctx, 32).into());
    let arg = |shape: &[i64], t, space| Arg::memref(ctx, shape, t, space);
    KernelSpec::vector_subcore_mesh("gather_kernel", 1, n / rows)
        .in_specs([arg(&[vocab, d], f32, Hbm), arg(&[n], i32, Hbm)])
        .output(arg(&[n, d], f32, Hbm))
        .scratch_shapes([arg(&[rows], i32, Vmem), arg(&[rows, d], f32, Vmem)])
        .build(ctx, |k| {
            let [table_hbm, ids_hbm, out_hbm, ids_vmem, rows_vmem] = k.refs()?;
            let start = k.mul(k.program_id(1)?, rows)?;
            k.sync_copy(ids_hbm, &[ds(start, rows)], ids_vmem, &[])?;
            k.sync_copy(table_hbm, &[at(ids_vmem)], rows_vmem, &[])?; // the gather
            k.sync_copy(rows_vmem, &[], out_hbm, &[ds(start, rows)])
        })
}

/// The examples, by name.
pub const EXAMPLES: &[&str] = &["flash_attention", "paged_attention", "embedding_lookup"];

/// The StableHLO module calling example `name` (its kernel built, validated
/// against the signature JAX gives the Python's call, and lowered with JAX's
/// default parameters).
pub fn lowered_module(name: &str) -> Result<String, Box<dyn std::error::Error>> {
    use tpu_custom_call::lower::{LowerOptions, Lowerer};
    use tpu_custom_call::melior::ir::r#type::RankedTensorType;
    use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};
    let ctx = Context::new();
    let (f32, i32): (Type, Type) = (Type::float32(&ctx), IntegerType::new(&ctx, 32).into());
    let t = |shape: &[u64], e| -> Type { RankedTensorType::new(shape, e, None).into() };
    let (module, kernel_name, operands, result) = match name {
        "flash_attention" => (
            flash_attention(&ctx)?,
            "flash_kernel",
            vec![t(&[256, 128], f32); 3],
            t(&[256, 128], f32),
        ),
        "paged_attention" => (
            paged_attention(&ctx)?,
            "paged_kernel",
            vec![
                t(&[2, 4], i32),
                t(&[2, 8, 128], f32),
                t(&[16, 16, 128], f32),
                t(&[16, 16, 128], f32),
            ],
            t(&[2, 8, 128], f32),
        ),
        "embedding_lookup" => (
            embedding_lookup(&ctx)?,
            "gather_kernel",
            vec![t(&[1000, 128], f32), t(&[256], i32)],
            t(&[256, 128], f32),
        ),
        other => return Err(format!("no example `{other}`: give one of {EXAMPLES:?}").into()),
    };
    let kernel = Kernel::from_module(&ctx, module)?;
    // JAX's parameters: a SparseCore kernel's tiling is compact by default.
    let tiling = if name == "embedding_lookup" {
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
