//! JAX's block-shape rule (`_check_block_mappings` of
//! `jax/_src/pallas/mosaic/lowering.py`, JAX 0.12), which JAX applies while
//! lowering a `pallas_call` for a TensorCore, to every block of an input or
//! output that is not a semaphore (a trivial SMEM window is skipped, and
//! passes anyway: its block is the array):
//! - rank 0: refused (`...supports only blocks of rank >= 1`);
//! - rank >= 2: the last dimension of the block a multiple of 128 or the
//!   array's, the one before it a multiple of 8 or the array's, whatever the
//!   element type (JAX's rule is not per dtype: packed types pass with 8
//!   rows); squeezed dimensions count as 1;
//! - rank 1: the block the array's size, a multiple of 1024 (8 sublanes x
//!   128 lanes), or a power of two of at least `128 * (32 // bitwidth)`
//!   elements (`bool` arrays are `i32`, so 32 bits; 64-bit types: any power
//!   of two).
//!
//! libtpu 0.0.50.1 refuses such kernels too where it judges them (`E2002:
//! CompileTimeMosaicMisalignedBlockAndTiling`): measured on the sweep of
//! `scripts/contract/tiling_sweep.py` (`tests/data/contract-jax/tiling.jsonl`).
//! Messages are JAX's, verbatim, with its details in our words (the operand,
//! the kernel, the index map by name).

use super::{ContractError, Place, TypeShape};

/// JAX's message for blocks of rank 0.
pub const RANK_0: &str = "The Pallas TPU lowering currently supports only blocks of rank >= 1. ";

/// JAX's message for blocks of rank 2 or more.
pub const LAST_TWO: &str = "The Pallas TPU lowering currently requires that the last two \
dimensions of your block shape are divisible by 8 and 128 respectively, or be equal to the \
respective dimensions of the overall array. ";

/// Sublanes and lanes of a TensorCore vector register (`tpu_info`'s
/// `num_sublanes` and `num_lanes`, the same on every chip JAX 0.12 knows).
const SUBLANES: i64 = 8;
const LANES: i64 = 128;

/// Bits of an element type as Pallas counts them (`None` if unknown).
fn bits(element: &str) -> Option<i64> {
    let digits = |s: &str| s.parse::<i64>().ok();
    match element {
        "index" => Some(64),
        "bf16" | "f16" => Some(16),
        "f32" | "tf32" => Some(32),
        "f64" => Some(64),
        e if e.starts_with("f8") => Some(8),
        e if e.starts_with("f4") => Some(4),
        e => e
            .strip_prefix("ui")
            .or_else(|| e.strip_prefix("si"))
            .or_else(|| e.strip_prefix('i'))
            .and_then(digits),
    }
}

/// The rank-1 message, as JAX formats it for this element width.
fn rank_1(bitwidth: i64) -> String {
    let chunk = SUBLANES * LANES;
    let packing = 32 / bitwidth;
    format!(
        "The Pallas TPU lowering currently requires that rank 1 block shapes, either 1) the first \
         (and only) dimension of the block shape is equal to the first (and only) dimension of the \
         array shape, or 2) the first (and only) dimension of the block shape is a multiple of \
         {chunk}, or 3) the first (and only) dimension of the block shape is a power of 2 and at \
         least the tiling size ({} = 128 * (32 // {bitwidth})) of the array shape. ",
        LANES * packing
    )
}

/// JAX's verdict on one block: its message if JAX refuses the block shape
/// `block` of the array `call`, whose kernel argument is `kernel_ty`.
pub(super) fn check(
    function: &str,
    place: Place,
    call: &TypeShape,
    kernel_ty: &TypeShape,
    block: &[i64],
    map: Option<&str>,
) -> Option<ContractError> {
    if kernel_ty.memory_space.as_deref() == Some("semaphore_mem") {
        return None;
    }
    let array: Vec<i64> = call.dims.iter().copied().collect::<Option<_>>()?;
    let rule = if block.is_empty() {
        // A trivial SMEM window is skipped before this check.
        if kernel_ty.memory_space.as_deref() == Some("smem") {
            return None;
        }
        RANK_0.to_string()
    } else if block.len() >= 2 {
        let n = block.len();
        let fits = |b: i64, a: i64, m: i64| b == a || b % m == 0;
        if fits(block[n - 1], array[n - 1], LANES) && fits(block[n - 2], array[n - 2], SUBLANES) {
            return None;
        }
        LAST_TWO.to_string()
    } else {
        let bitwidth = bits(&call.element)?;
        let (b, a) = (block[0], array[0]);
        let min_tiling = LANES * (32 / bitwidth);
        let power_of_two = b > 0 && (b & (b - 1)) == 0;
        if b == a || b % (SUBLANES * LANES) == 0 || (b >= min_tiling && power_of_two) {
            return None;
        }
        rank_1(bitwidth)
    };
    let tuple = |dims: &[i64]| match dims {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            dims.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Some(ContractError::BlockTiling {
        function: function.to_string(),
        place,
        rule,
        block: tuple(block),
        array: tuple(&array),
        map: map.unwrap_or("?").to_string(),
        space: kernel_ty
            .memory_space
            .clone()
            .unwrap_or_else(|| "default".to_string()),
    })
}
