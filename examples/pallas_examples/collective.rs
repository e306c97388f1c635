//! The collective kernels of issue 51, written with the crate's Pallas idioms
//! line for line as their Python (`scripts/jaxref/authoring_collective.py`):
//! each runs under `jax.shard_map` over a 4-device mesh `("x",)` and builds
//! the kernel module JAX 0.12 lowers the Python to
//! (tests/integration/examples_collective.rs checks it `diff`-equal, runs it
//! on 4 CPU devices against JAX's interpret mode, and compiles it with
//! libtpu for 4 devices). Shared by the `pallas_examples` example and its
//! test.

use tpu_custom_call::melior::Context as MlirContext;
use tpu_custom_call::melior::ir::{Module, Type};
use tpu_custom_call::mosaic::BuildError;
use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
use tpu_custom_call::mosaic::pallas::{ALL, Arg, DeviceId, KernelSpec, at, ds};

use MemorySpace::{Any, SemaphoreMem, Vmem};

/// The devices of the mesh.
const N_DEV: i64 = 4;

/// The collective matmul: `x` (f32[256, 128]) row-sharded over 4 devices is
/// all-gathered around the ring by remote DMAs overlapped with the matmul
/// of the chunk at hand by the device's column block of `w`
/// (f32[128, 512]). A barrier with both neighbours first; step `s` sends
/// chunk `buf[s]` on to the right neighbour's `buf[s + 1]` while it
/// multiplies it.
///
/// Python: scripts/jaxref/authoring_collective.py::ring_matmul
pub fn ring_matmul(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let (m, k, n) = (64, 128, 128);
    let f32 = Type::float32(ctx);
    let dma = attrs::dma_semaphore_type(ctx);
    KernelSpec::new("ring_matmul_kernel")
        .mesh(&[("x", N_DEV)])
        .in_specs([
            Arg::memref(ctx, &[m, k], f32, Vmem),
            Arg::memref(ctx, &[k, n], f32, Vmem),
        ])
        .output(Arg::memref(ctx, &[N_DEV * m, n], f32, Vmem))
        .scratch_shapes([
            Arg::memref(ctx, &[N_DEV, m, k], f32, Vmem),
            Arg::memref(ctx, &[N_DEV], dma, SemaphoreMem),
            Arg::memref(ctx, &[N_DEV], dma, SemaphoreMem),
        ])
        .build(ctx, |k| {
            let [x_ref, w_ref, o_ref, buf, send_sems, recv_sems] = k.refs()?;
            let me = k.axis_index("x")?;
            let right = k.rem(k.add(me, 1)?, N_DEV)?;
            let left = k.rem(k.sub(k.add(me, N_DEV)?, 1)?, N_DEV)?;
            // Both neighbours are in the kernel before the first remote DMA.
            let barrier = k.barrier_semaphore()?;
            k.semaphore_signal_to(barrier, 1, [left])?;
            k.semaphore_signal_to(barrier, 1, [right])?;
            k.semaphore_wait(barrier, 2)?;
            k.store_at(buf, &[at(0)], k.load(x_ref)?)?;
            k.fori_loop(0, N_DEV, &[], |k, s, _| {
                // buf[s] holds the chunk of device me - s.
                let (next, next_sem) = (at(k.add(s, 1)?), at(k.add(s, 1)?));
                let copy = k
                    .async_remote_copy(buf, &[at(s)], buf, &[next], send_sems, recv_sems, [right])
                    .send_sem_at(&[at(s)])
                    .sem_at(&[next_sem]);
                k.when(k.lt(s, N_DEV - 1)?, |k| copy.start(k))?;
                let row = k.mul(k.rem(k.add(k.sub(me, s)?, N_DEV)?, N_DEV)?, m)?;
                let row = k.multiple_of(row, m as i32)?;
                let chunk = k.dot(k.load_at(buf, &[at(s)])?, k.load(w_ref)?)?;
                k.store_at(o_ref, &[ds(row, m), ALL], chunk)?;
                k.when(k.lt(s, N_DEV - 1)?, |k| copy.wait(k))?;
                Ok(vec![])
            })?;
            Ok(())
        })
}

/// A right shift around the ring addressed by LOGICAL device ids (which
/// JAX 0.12 deprecates): a barrier signal to the right neighbour, then a
/// remote copy of the device's f32[8, 128] block into the neighbour's
/// output, its send and receive semaphores two elements of one array.
///
/// Python: scripts/jaxref/authoring_collective.py::ring_logical
pub fn ring_logical(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let block = || Arg::memref(ctx, &[8, 128], Type::float32(ctx), Any);
    let dma = attrs::dma_semaphore_type(ctx);
    KernelSpec::new("ring_logical_kernel")
        .mesh(&[("x", N_DEV)])
        .input(block())
        .output(block())
        .scratch(Arg::memref(ctx, &[2], dma, SemaphoreMem))
        .build(ctx, |k| {
            let [x_ref, o_ref, sems] = k.refs()?;
            let right = k.rem(k.add(k.axis_index("x")?, 1)?, N_DEV)?;
            let barrier = k.barrier_semaphore()?;
            k.semaphore_signal_to(barrier, 1, DeviceId::logical(right))?;
            k.semaphore_wait(barrier, 1)?;
            let copy = k
                .async_remote_copy(x_ref, &[], o_ref, &[], sems, sems, DeviceId::logical(right))
                .send_sem_at(&[at(0)])
                .sem_at(&[at(1)]);
            copy.start(k)?;
            copy.wait(k)
        })
}

/// `x + 8 * axis_index`: a load of an operand under `shard_map` (cast to
/// its own type), `lax.axis_index` and `pl.multiple_of`.
///
/// Python: scripts/jaxref/authoring_collective.py::axis_offset
pub fn axis_offset(ctx: &MlirContext) -> Result<Module<'_>, BuildError> {
    let f32 = Type::float32(ctx);
    let block = || Arg::memref(ctx, &[8, 128], f32, Vmem);
    let spec = KernelSpec::new("axis_offset_kernel").mesh(&[("x", N_DEV)]);
    spec.input(block()).output(block()).build(ctx, |k| {
        let [x_ref, o_ref] = k.refs()?;
        let (me, x) = (k.axis_index("x")?, k.load(x_ref)?);
        let offset = k.astype(k.multiple_of(k.mul(me, 8)?, 8)?, f32)?;
        k.store(o_ref, k.add(x, offset)?)
    })
}

/// The collective examples, by name.
pub const EXAMPLES: &[&str] = &["ring_matmul", "ring_logical", "axis_offset"];

/// The StableHLO module calling collective example `name` as JAX lowers it
/// under `shard_map` (each device's shapes; PARAMS.json with the mesh axes
/// and `collective_id` 0 where the kernel meets at the barrier semaphore).
pub fn lowered_module(name: &str) -> Result<String, Box<dyn std::error::Error>> {
    use tpu_custom_call::lower::{LowerOptions, Lowerer};
    use tpu_custom_call::melior::ir::r#type::RankedTensorType;
    use tpu_custom_call::{Context, Kernel, Params, PrintOptions, Signature, kernel, validate};
    let ctx = Context::new();
    let f32 = Type::float32(&ctx);
    let t = |shape: &[u64]| -> Type { RankedTensorType::new(shape, f32, None).into() };
    let (module, kernel_name, operands, result) = match name {
        "ring_matmul" => (
            ring_matmul(&ctx)?,
            "ring_matmul_kernel",
            vec![t(&[64, 128]), t(&[128, 128])],
            t(&[256, 128]),
        ),
        "ring_logical" => (
            ring_logical(&ctx)?,
            "ring_logical_kernel",
            vec![t(&[8, 128])],
            t(&[8, 128]),
        ),
        "axis_offset" => (
            axis_offset(&ctx)?,
            "axis_offset_kernel",
            vec![t(&[8, 128])],
            t(&[8, 128]),
        ),
        other => return Err(format!("no example `{other}`: give one of {EXAMPLES:?}").into()),
    };
    let kernel = Kernel::from_module(&ctx, module)?;
    let collective = if name.starts_with("ring") {
        r#", "collective_id": 0"#
    } else {
        ""
    };
    let params = format!(
        r#"{{"kernel_name": "{kernel_name}", "metadata": {{"mesh_axes": "[\"x\"]"}}{collective}}}"#
    );
    let params = Params::from_json(params.as_bytes())?;
    let call = validate(&kernel, Signature::new(operands, [result]), &params, None)
        .map_err(|errors| validate::describe(&errors))?;
    let module = Lowerer::new(LowerOptions::default()).emit_module(&ctx, &call)?;
    Ok(kernel::print_module(&module, PrintOptions::default())?)
}
