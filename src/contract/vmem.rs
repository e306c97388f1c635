//! The scoped-VMEM budget of a kernel, checked as libtpu 0.0.50.1 checks it
//! (`E1001: CompileTimeScopedVmemOom`, "Scoped allocation with size 24.00M and
//! limit 16.00M exceeded scoped vmem limit"), before anything is compiled.
//!
//! What counts (measured, see `tests/data/vmem-sweep/verdicts.json`, made by
//! `scripts/vmem-sweep/sweep.py`): without a grid, every VMEM input and output
//! whole; with a grid (`iteration_bounds`), each VMEM block twice (Pallas double
//! buffers them) but a block that never moves once (Mosaic single-buffers it:
//! `pipeline_mode = #tpu.pipeline_mode<synchronous>`, or an index map reading
//! no grid index above 1), a VMEM buffer without block window once. Sizes are padded to
//! the TPU tile (last dimension to 128 lanes, the one before it to 8 sublanes
//! of 32 bits). With a grid, blocks not in whole 8 x 128 tiles are not
//! modelled (libtpu counts some of them otherwise).
//!
//! VMEM scratch (`tests/data/vmem-sweep/scratch.json`, made by
//! `scripts/vmem-sweep/scratch_sweep.py`: Pallas kernels lowered by JAX):
//! libtpu adds the scratch buffers Mosaic keeps after its optimizations, and
//! Mosaic's internal scratch. Mosaic keeps a scratch buffer that is read where
//! the kernel did not just write it (an accumulator read before it is written
//! in a grid step, a row read at other indices than the step wrote), and drops
//! one that is only written or read back where it was just written (store to
//! load forwarding). So libtpu's figure is at least the buffers plus the
//! scratch surely kept ([`VmemBudget::total`]: refused above the limit) and at
//! most the buffers, all scratch and a margin for the internal scratch
//! ([`VmemBudget::upper`]: fits below it); in between the budget is reported
//! as not checked, naming `--compile-check`. `internal_scratch_in_bytes` is not
//! counted: libtpu compiled 15.94 MiB of buffers with 1 MiB of it under v5e's
//! 16 MiB.
//!
//! The limit is `vmem_limit_bytes` when given, else the chip's default
//! ([`Chip::default_scoped_vmem_bytes`]), and libtpu refuses exactly when the
//! figure here exceeds it, on v4, v5e, v5p and v6e. v7x is different (see
//! [`VmemBudget::limit`]).

use super::{ContractError, KernelSignature, TypeShape};
use crate::kernel::Kernel;
use crate::params::Params;
use crate::serde::ir::{self, Op};
use crate::target::Chip;

const MIB: u64 = 1024 * 1024;

impl Chip {
    /// The scoped-VMEM limit libtpu 0.0.50.1 applies when the call has no
    /// `vmem_limit_bytes` (measured: v4, v5e, v5p 16 MiB; v6e and v7x
    /// 32 MiB). `None` for chips libtpu 0.0.50.1 does not compile for (v2,
    /// v3, v4i, v7, v8i, v8t): their budget is not checked.
    pub const fn default_scoped_vmem_bytes(self) -> Option<u64> {
        match self {
            Chip::V4 | Chip::V5e | Chip::V5p => Some(16 * MIB),
            Chip::V6e | Chip::V7x => Some(32 * MIB),
            _ => None,
        }
    }

    /// The most scoped VMEM libtpu 0.0.50.1 lets a kernel have, whatever
    /// `vmem_limit_bytes` says: the VMEM less what it reserves (measured with
    /// `vmem_limit_bytes` above it, `tests/data/vmem-sweep/nospace.json`:
    /// "Used 127.97M of 127.94M vmem" on v6e, "of 63.94M" on v5p and v7x,
    /// 128.00M on v5e, 16.00M on v4; 64 KiB reserved on v5p, v6e, v7x).
    pub const fn usable_vmem_bytes(self) -> u64 {
        let vmem = self.info().vmem_bytes;
        match self {
            Chip::V5p | Chip::V6e | Chip::V7x => vmem.saturating_sub(64 * 1024),
            _ => vmem,
        }
    }
}

/// libtpu's figure for a byte count: `24.00M`, `32.0K`, `512B`.
pub fn format_bytes(bytes: u64) -> String {
    if bytes >= MIB {
        format!("{:.2}M", bytes as f64 / MIB as f64)
    } else if bytes >= 1024 {
        format!("{:.1}K", bytes as f64 / 1024.0)
    } else {
        format!("{bytes}B")
    }
}

/// Bytes of one element, `None` for types that take no VMEM (semaphores) or
/// are unknown.
fn element_bytes(element: &str) -> Option<u64> {
    let bits: u64 = match element {
        "f64" | "i64" | "ui64" | "si64" | "index" => 64,
        "f32" | "i32" | "ui32" | "si32" | "tf32" => 32,
        "bf16" | "f16" | "i16" | "ui16" | "si16" => 16,
        "i1" | "i4" | "si4" | "ui4" | "f4E2M1FN" => 8,
        e if e.starts_with("f8") || e == "i8" || e == "si8" || e == "ui8" => 8,
        _ => return None,
    };
    Some(bits / 8)
}

/// VMEM bytes of a buffer of `dims` elements of `element`, padded to tiles
/// as libtpu's figures show: the last dimension to a multiple of 128 lanes,
/// the one before it to a multiple of 8 rows (below 8 rows, to a power of two:
/// 1, 2 and 4 rows are not padded), whatever the element width. `None` for
/// element types that take no VMEM or are unknown, and for a last dimension
/// narrower than 128 lanes, whose layout libtpu picks otherwise (measured:
/// `N x 100 f32` buffers of 46 MiB compile under a 16 MiB limit).
pub fn padded_bytes(dims: &[i64], element: &str) -> Option<u64> {
    let bytes = element_bytes(element)?;
    let mut dims: Vec<u64> = dims
        .iter()
        .map(|&d| u64::try_from(d).ok())
        .collect::<Option<_>>()?;
    let n = dims.len();
    if n >= 1 {
        if dims[n - 1] < 128 {
            return None;
        }
        dims[n - 1] = dims[n - 1].div_ceil(128) * 128;
    }
    if n >= 2 {
        let rows = dims[n - 2];
        dims[n - 2] = if rows < 8 {
            rows.next_power_of_two()
        } else {
            rows.div_ceil(8) * 8
        };
    }
    dims.iter().try_fold(bytes, |acc, &d| acc.checked_mul(d))
}

fn static_dims(ty: &TypeShape) -> Option<Vec<i64>> {
    ty.dims.iter().copied().collect()
}

/// What a kernel needs of scoped VMEM, by kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VmemBudget {
    /// Input and output buffers (blocks times their buffering with a grid):
    /// what libtpu counts.
    pub buffers: u64,
    /// VMEM scratch arguments, all of them (libtpu counts those Mosaic keeps
    /// after its optimizations: between [`VmemBudget::scratch_kept`] and
    /// this).
    pub scratch: u64,
    /// VMEM scratch arguments Mosaic surely keeps (read where the kernel did
    /// not just write them, or a DMA's): libtpu counts them.
    pub scratch_kept: u64,
    /// VMEM scratch arguments whose size is not modelled (narrower than 128
    /// lanes, unknown element type): the upper bound is unknown.
    pub scratch_unmodelled: bool,
    /// The main function's body may need Mosaic's internal scratch: it has
    /// ops other than 32-bit elementwise arithmetic and loads and stores at
    /// index 0 (a matmul, a reduction, packed types, offsets), or VMEM
    /// scratch.
    pub may_need_internal: bool,
    /// `internal_scratch_in_bytes` (not counted by libtpu's check).
    pub internal_scratch: u64,
    /// The peak of the VMEM the body allocates in `run_scoped` regions
    /// (`memref.alloca` in VMEM inside `tpu.region`, `emit_pipeline`'s
    /// buffers): sequential regions reuse their VMEM, nested ones add up
    /// (measured, `tests/data/vmem-sweep/scoped.json`). libtpu counts it.
    pub scoped: u64,
    /// Buffering of blocks: 2 with a grid, 1 without.
    pub buffering: u64,
    /// `vmem_limit_bytes`, when given.
    pub vmem_limit_bytes: Option<u64>,
    /// VMEM buffers whose size libtpu's figure is not modelled for (kernel
    /// argument indices); the budget is not checked when there are any.
    pub unmodelled: Vec<usize>,
    /// Bytes of each input and output buffer counted in [`VmemBudget::buffers`]
    /// (times its buffering), in order.
    pub buffer_sizes: Vec<u64>,
}

/// What Mosaic may add of its own (internal scratch, relayout and conversion
/// buffers) to a kernel with VMEM scratch or a body that may need it, on top
/// of the buffers and all the scratch: a quarter of those plus 2 MiB, twice
/// those plus 2 MiB on v4 (measured, `tests/data/vmem-sweep/scratch.json`:
/// +1.85 MiB on a 15 MiB kernel at v5e's 16 MiB default, +2.36 MiB on the
/// docs' matmul without scratch, 16 MiB of blocks, on v5e, +3.92 MiB on a
/// 32 MiB int8 one at v6e's 32 MiB, +5.82 MiB (21%) on a 28 MiB matmul on
/// v6e, +7.09 MiB (25%) on the same on v7x; v4 has no bf16 or int8 vector
/// unit and needed 1.5 and 2 times the sum).
pub fn internal_margin(chip: Chip, needed: u64) -> u64 {
    let factor = if chip == Chip::V4 {
        needed.saturating_mul(2)
    } else {
        needed / 4
    };
    factor.saturating_add(2 * MIB)
}

impl VmemBudget {
    /// What libtpu's scoped-VMEM check surely counts: the buffers and the
    /// scratch Mosaic surely keeps.
    pub fn total(&self) -> u64 {
        self.buffers
            .saturating_add(self.scratch_kept)
            .saturating_add(self.scoped)
    }

    /// The most libtpu's check may count on `chip`: the buffers and all VMEM
    /// scratch and, with scratch or a body that may need internal scratch,
    /// [`internal_margin`] on top; `None` when a scratch size is not
    /// modelled.
    pub fn upper(&self, chip: Chip) -> Option<u64> {
        if self.scratch_unmodelled {
            return None;
        }
        let needed = self
            .buffers
            .saturating_add(self.scratch)
            .saturating_add(self.scoped);
        let margin = if self.scratch > 0 || self.may_need_internal {
            internal_margin(chip, needed)
        } else {
            0
        };
        Some(needed.saturating_add(margin))
    }

    /// What XLA keeps out of scoped VMEM on `chip`: at least the first, at
    /// most the second figure. On v7x, without a grid and without
    /// `vmem_limit_bytes`, it keeps one whole operand in HBM (measured,
    /// `nospace.json`: 2 of 3 equal buffers counted, 3 of 4; which one when
    /// they differ is not measured: between none and the largest); elsewhere
    /// nothing.
    pub fn kept_out(&self, chip: Chip) -> (u64, u64) {
        if chip != Chip::V7x || self.buffering != 1 || self.vmem_limit_bytes.is_some() {
            return (0, 0);
        }
        let largest = self.buffer_sizes.iter().copied().max().unwrap_or(0);
        let equal = self.buffer_sizes.len() >= 2
            && self.buffer_sizes.iter().all(|&b| b == self.buffer_sizes[0]);
        (if equal { largest } else { 0 }, largest)
    }

    /// What libtpu's check surely counts on `chip`: [`VmemBudget::total`]
    /// less the most XLA may keep out of scoped VMEM there.
    pub fn counted(&self, chip: Chip) -> u64 {
        self.total().saturating_sub(self.kept_out(chip).1)
    }

    /// When the kernel fits by what libtpu surely counts but may not by what
    /// it may count (Mosaic keeps or drops VMEM scratch and adds internal
    /// scratch as it optimizes; XLA on v7x keeps an operand out of VMEM,
    /// which one is not known): the note for `not_checked`.
    pub fn uncertain(&self, chip: Chip) -> Option<String> {
        let (limit, _) = self.limit(chip)?;
        let low = self.counted(chip);
        let (surely_out, maybe_out) = self.kept_out(chip);
        let upper = self.upper(chip).map(|u| u.saturating_sub(surely_out));
        if low > limit || upper.is_some_and(|u| u <= limit) {
            return None;
        }
        if maybe_out > surely_out && self.scratch == 0 && !self.may_need_internal {
            return Some(format!(
                "the scoped-VMEM budget on {chip}: libtpu counts {} to {} of input/output buffers \
                 (XLA keeps one whole operand of a grid-less kernel out of scoped VMEM there, which \
                 one is measured only for operands of one size) against a limit of {}; compile it \
                 to know (`emit --target {chip} --compile-check`)",
                format_bytes(low),
                format_bytes(self.total()),
                format_bytes(limit)
            ));
        }
        let high = match upper {
            Some(u) => format!("up to {}", format_bytes(u)),
            None => "more (a scratch size is not modelled)".to_string(),
        };
        Some(format!(
            "the scoped-VMEM budget on {chip}: libtpu counts at least {} ({}) and {high} \
             ({}Mosaic's internal scratch) against a limit of {}; compile it to know \
             (`emit --target {chip} --compile-check`)",
            format_bytes(low),
            if self.scratch_kept > 0 {
                "input/output buffers and the VMEM scratch Mosaic keeps"
            } else {
                "input/output buffers"
            },
            if self.scratch > 0 {
                "all VMEM scratch, which Mosaic keeps or drops as it optimizes, and "
            } else {
                ""
            },
            format_bytes(limit)
        ))
    }

    /// The limit on `chip` and whether it is `vmem_limit_bytes`; `None` when
    /// it is not known.
    ///
    /// On v7x XLA may keep some whole operands out of scoped VMEM, so libtpu's
    /// figure is not ours (measured: without a grid and without
    /// `vmem_limit_bytes` it counts all but one whole operand against its
    /// 32 MiB ([`VmemBudget::kept_out`]): up to 48 MiB of the add kernel's
    /// three buffers compile, 48 MiB of four do not; with 8 MiB it compiles
    /// 24 MiB; with `vmem_limit_bytes` at or above its usable VMEM it counts
    /// every operand against [`Chip::usable_vmem_bytes`]). With a grid no one rule fits libtpu's verdicts
    /// (`tests/data/vmem-sweep/v7x_grid.json`): its figure is the
    /// double-buffered blocks against 32 MiB, but a grid of 1 or 2 parallel
    /// steps compiles 36 MiB of them, 4 steps compile 32.81 MiB and refuse
    /// 33 MiB, 8 steps refuse 32.25 MiB; with `vmem_limit_bytes` it keeps 2,
    /// 4 or all 6 of the add kernel's blocks in VMEM depending on their size
    /// and the limit (8 MiB: 4.03 MiB blocks refused at 8.06M; 16 MiB: 5.31
    /// MiB blocks refused at 21.25M though two would fit). There only the
    /// measured cases are checked: no grid, and no `vmem_limit_bytes` or one
    /// at least the usable VMEM.
    pub fn limit(&self, chip: Chip) -> Option<(u64, bool)> {
        if !self.unmodelled.is_empty() {
            return None;
        }
        // Above the chip's usable VMEM, what fits it is what compiles
        // (measured on v4's 16 MiB: "Used 20.00M of 16.00M vmem" with a
        // 40 MiB `vmem_limit_bytes`; "Used 64.00M of 63.94M vmem" on v5p
        // with 64 MiB).
        let vmem = chip.usable_vmem_bytes();
        if chip == Chip::V7x {
            return match self.vmem_limit_bytes {
                _ if self.buffering != 1 => None,
                None => Some((32 * MIB, false)),
                Some(limit) if limit >= vmem => Some((vmem, false)),
                Some(_) => None,
            };
        }
        match self.vmem_limit_bytes {
            Some(limit) if limit > vmem => Some((vmem, false)),
            Some(limit) => Some((limit, true)),
            None => chip.default_scoped_vmem_bytes().map(|l| (l, false)),
        }
    }

    /// The limit on `chip` ([`VmemBudget::limit`]) and where it comes from,
    /// in words: `vmem_limit_bytes`, `v5e's default limit`, or, for a
    /// `vmem_limit_bytes` above the chip's usable VMEM (libtpu compiles it,
    /// and what fits the VMEM is what compiles), `v5e's usable VMEM:
    /// vmem_limit_bytes 1024.00M is above it`.
    pub fn limit_source(&self, chip: Chip) -> Option<(u64, String)> {
        let (limit, from_param) = self.limit(chip)?;
        let words = match self.vmem_limit_bytes {
            _ if from_param => "vmem_limit_bytes".to_string(),
            Some(asked) if asked >= chip.usable_vmem_bytes() => format!(
                "{chip}'s usable VMEM: vmem_limit_bytes {} is {} it",
                format_bytes(asked),
                if asked == limit { "at" } else { "above" }
            ),
            _ => format!("{chip}'s default limit"),
        };
        Some((limit, words))
    }

    /// When some buffers' sizes are not modelled
    /// ([`VmemBudget::unmodelled`]: a one-row bias block, a block not in
    /// whole 8 x 128 tiles) but the modelled ones and the scratch Mosaic
    /// surely keeps already exceed `chip`'s limit, libtpu refuses too (its
    /// figure only adds the others): the error, saying it is a lower bound.
    pub fn check_lower_bound(&self, function: &str, chip: Chip) -> Option<ContractError> {
        if self.unmodelled.is_empty() {
            return None;
        }
        let modelled = VmemBudget {
            unmodelled: Vec::new(),
            ..self.clone()
        };
        // v7x's limit is modelled only for the measured case.
        modelled.limit(chip)?;
        match modelled.check(function, chip)? {
            ContractError::ScopedVmem {
                function,
                chip,
                needed,
                limit,
                from_param,
                breakdown,
                fix,
            } => Some(ContractError::ScopedVmem {
                function,
                chip,
                needed,
                limit,
                from_param,
                breakdown: format!(
                    "at least: {breakdown}, not counting kernel argument(s) {:?}, whose size libtpu counts otherwise",
                    self.unmodelled
                ),
                fix,
            }),
            other => Some(other),
        }
    }

    /// The error when the kernel does not fit `chip`.
    pub fn check(&self, function: &str, chip: Chip) -> Option<ContractError> {
        let (limit, from_param) = self.limit(chip)?;
        let needed = self.counted(chip);
        if needed <= limit {
            return None;
        }
        let (out, _) = self.kept_out(chip);
        let mut parts = vec![format!(
            "{} input/output buffers{}",
            format_bytes(self.buffers.saturating_sub(out)),
            if self.buffering > 1 {
                ", blocks double-buffered"
            } else if out > 0 {
                ", one whole operand kept out of scoped VMEM by XLA"
            } else {
                ""
            }
        )];
        if self.scratch_kept > 0 {
            parts.push(format!("{} VMEM scratch", format_bytes(self.scratch_kept)));
        }
        if self.scoped > 0 {
            parts.push(format!(
                "{} allocated in run_scoped regions",
                format_bytes(self.scoped)
            ));
        }
        let vmem = chip.info().vmem_bytes;
        let usable = chip.usable_vmem_bytes();
        let fix = if needed <= usable {
            format!(
                "raise vmem_limit_bytes (at most {} MiB on {chip}) or use smaller blocks",
                vmem / MIB
            )
        } else if usable < vmem {
            format!(
                "use smaller blocks: {chip} has {} MiB of VMEM, {} of it usable",
                vmem / MIB,
                format_bytes(usable)
            )
        } else {
            format!("use smaller blocks: {chip} has {} MiB of VMEM", vmem / MIB)
        };
        Some(ContractError::ScopedVmem {
            function: function.to_string(),
            chip,
            needed,
            limit,
            from_param,
            breakdown: parts.join(", "),
            fix,
        })
    }
}

/// Whether a block is laid out as [`padded_bytes`] says when pipelined over
/// a grid: the last dimension a multiple of 128 lanes, the one before it of 8
/// rows. libtpu counts others otherwise (measured: `1024 x 1000 f32` blocks
/// with a same-shaped scratch, 20 MiB padded, compile under a 12 MiB limit;
/// `16 x 85 x 1024 f32` ones, 27.5 MiB, under 12 MiB; `1360 x 1000` ones
/// are counted padded).
fn aligned_block(dims: &[i64]) -> bool {
    let n = dims.len();
    (n == 0 || dims[n - 1] % 128 == 0) && (n < 2 || dims[n - 2] % 8 == 0)
}

/// What the walk over a scratch argument's uses found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    /// A used load that no store before it wrote at the same indices with
    /// the same vector type (Mosaic cannot forward it), or a DMA: Mosaic
    /// keeps the buffer.
    Yes,
    /// A use that is neither a load nor a store (a slice, a DMA, a call):
    /// not modelled.
    Unknown,
}

const LOADS: [&str; 5] = [
    "vector.load",
    "tpu.load",
    "tpu.strided_load",
    "memref.load",
    "vector.transfer_read",
];
const STORES: [&str; 5] = [
    "tpu.vector_store",
    "vector.store",
    "tpu.store",
    "tpu.strided_store",
    "memref.store",
];

fn value_eq(a: mlir_sys::MlirValue, b: mlir_sys::MlirValue) -> bool {
    // SAFETY: both values belong to the kernel module, alive for the call.
    unsafe { mlir_sys::mlirValueEqual(a, b) }
}

fn has_uses(v: mlir_sys::MlirValue) -> bool {
    // SAFETY: as above.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(v)) }
}

/// An index operand as a key: the value of an `arith.constant`, else the
/// SSA value itself.
fn index_key(v: mlir_sys::MlirValue) -> String {
    // SAFETY: the value belongs to the kernel module, alive for the call;
    // the owner is read only from an op result.
    unsafe {
        if mlir_sys::mlirValueIsAOpResult(v) {
            let owner = Op::of(melior::ir::OperationRef::from_raw(
                mlir_sys::mlirOpResultGetOwner(v),
            ));
            if owner.name() == "arith.constant"
                && let Some(a) = owner.attr("value")
            {
                return format!("c{}", ir::attr_text(a));
            }
        }
        format!("v{:p}", v.ptr)
    }
}

/// The access of a load or store: its operands after the buffer (indices,
/// masks) and the vector type moved.
fn access_key(op: Op<'_>, buffer_at: usize, vector: mlir_sys::MlirValue) -> String {
    let mut key = ir::type_text(ir::value_type(vector));
    for i in buffer_at + 1..op.num_operands() {
        key.push(' ');
        key.push_str(&index_key(op.operand(i)));
    }
    key
}

fn is_dma(name: &str) -> bool {
    name.starts_with("tpu.") && name.contains("dma")
}

/// Whether a view of a buffer (`tpu.memref_slice` and the like, through
/// further views) is used by a DMA.
fn reaches_dma(view: mlir_sys::MlirValue) -> bool {
    // SAFETY: the value and its uses belong to the kernel module, alive for
    // the call; owners are read only from non-null uses.
    unsafe {
        let mut usage = mlir_sys::mlirValueGetFirstUse(view);
        while !mlir_sys::mlirOpOperandIsNull(usage) {
            let owner = Op::of(melior::ir::OperationRef::from_raw(
                mlir_sys::mlirOpOperandGetOwner(usage),
            ));
            let name = owner.name();
            if is_dma(&name)
                || (name.starts_with("tpu.memref_")
                    && owner.num_results() == 1
                    && reaches_dma(owner.result(0)))
            {
                return true;
            }
            usage = mlir_sys::mlirOpOperandGetNextUse(usage);
        }
    }
    false
}

/// Walks the ops from `first` (regions included, in order) for a used load
/// of `value` that no earlier store can forward; `stores` holds the keys of
/// the unconditional stores before them (stores inside a nested region do
/// not reach the ops after it).
fn unforwarded_load(
    first: Option<Op<'_>>,
    value: mlir_sys::MlirValue,
    stores: &mut Vec<String>,
) -> Option<Kept> {
    let mut child = first;
    while let Some(op) = child {
        child = op.next();
        if op.operands().into_iter().any(|o| value_eq(o, value)) {
            let name = op.name();
            if LOADS.contains(&name.as_str()) && value_eq(op.operand(0), value) {
                if op.num_results() == 1
                    && has_uses(op.result(0))
                    && !stores.contains(&access_key(op, 0, op.result(0)))
                {
                    return Some(Kept::Yes);
                }
                continue;
            }
            if is_dma(&name) {
                // A DMA's source or target: Mosaic cannot drop it.
                return Some(Kept::Yes);
            }
            if name.starts_with("tpu.memref_") && op.num_results() == 1 && reaches_dma(op.result(0))
            {
                // A view (`.at[slot]`) a DMA reads or writes.
                return Some(Kept::Yes);
            }
            if STORES.contains(&name.as_str())
                && op.num_operands() > 1
                && value_eq(op.operand(1), value)
                && !value_eq(op.operand(0), value)
            {
                stores.push(access_key(op, 1, op.operand(0)));
                continue;
            }
            return Some(Kept::Unknown);
        }
        for r in 0..op.num_regions() {
            for block in ir::region_blocks(op.region(r)) {
                let mut inner = stores.clone();
                if let Some(found) = unforwarded_load(ir::block_first_op(block), value, &mut inner)
                {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// Whether an op is one Mosaic lowers without internal scratch (measured on
/// the add kernels of `verdicts.json` and `shapes.json`, which compile up
/// to the limit exactly): constants, control flow, loads and stores at
/// constant index 0 without mask, elementwise `arith` ops on scalars or
/// 32-bit vectors.
fn needs_no_internal_scratch(op: Op<'_>, name: &str) -> bool {
    match name {
        "arith.constant" | "func.return" | "scf.if" | "scf.yield" => true,
        "vector.load" | "vector.store" | "tpu.vector_store" => {
            let base = usize::from(name != "vector.load");
            (base + 1..op.num_operands()).all(|i| index_key(op.operand(i)) == "c0 : index")
        }
        n if n.starts_with("arith.") => (0..op.num_results()).all(|r| {
            let ty = ir::type_text(ir::value_type(op.result(r)));
            !ty.starts_with("vector<") || ty.ends_with("xf32>") || ty.ends_with("xi32>")
        }),
        _ => false,
    }
}

/// Whether the main function's body may need Mosaic's internal scratch
/// (see [`needs_no_internal_scratch`]); `true` without a main function.
pub(super) fn may_need_internal(kernel: &Kernel<'_>) -> bool {
    let Some((_, op)) = super::main_function(kernel) else {
        return true;
    };
    let index = kernel.op_index();
    let Some(at) = index.position_of(op) else {
        return true;
    };
    !index
        .post_order_in(at)
        .all(|node| needs_no_internal_scratch(node.op, node.name))
}

/// Which VMEM scratch arguments of the kernel's main function Mosaic surely
/// keeps (so libtpu counts them), by scratch index: those with a used load
/// that no earlier store at the same indices can forward (an accumulator
/// read before it is written, a buffer read where the step did not write),
/// or the source or target of a DMA (directly or through views).
/// Scratch that is only written, or read only where it was just written,
/// Mosaic may drop (measured: it does).
pub(super) fn scratch_kept(kernel: &Kernel<'_>, sig: &KernelSignature) -> Vec<bool> {
    let Some((_, op)) = super::main_function(kernel) else {
        return Vec::new();
    };
    let args = super::entry_args(op);
    let start = args.len().saturating_sub(sig.scratch);
    let body = ir::region_blocks(op.region(0));
    let Some(&block) = body.first() else {
        return Vec::new();
    };
    args[start..]
        .iter()
        .map(|&a| {
            unforwarded_load(ir::block_first_op(block), a, &mut Vec::new()) == Some(Kept::Yes)
        })
        .collect()
}

/// The budget of a kernel whose call already passed the contract.
/// Whether the block of buffer `b` gets one VMEM buffer, not two: its window
/// says `pipeline_mode = #tpu.pipeline_mode<synchronous>` (`pl.Buffered(1)`),
/// or its index map reads no grid index whose bound is above 1 and no scalar
/// prefetch (the block never moves, and Mosaic single-buffers it: JAX's
/// `test_automatic_single_buffering`, compiled by libtpu with one 20 MiB
/// block under v6e's 32 MiB). Read from the index map's def-use chains, not
/// by evaluating it: a map that only happens to give one block everywhere
/// stays double-buffered, as the safe side of the budget.
fn single_buffered(
    sig: &KernelSignature,
    b: usize,
    maps: &std::collections::HashMap<String, Op<'_>>,
) -> bool {
    let Some(window) = sig.windows.as_ref().and_then(|ws| ws.get(b)) else {
        return false;
    };
    if window.pipeline_mode.as_deref() == Some("synchronous") {
        return true;
    }
    let Some(map) = window.transform.as_ref().and_then(|t| maps.get(t)) else {
        return false;
    };
    let Some(used) = arguments_read(*map) else {
        return false;
    };
    used.iter()
        .all(|&i| sig.grid.get(i).is_some_and(|&bound| bound == 1))
}

/// The entry-block arguments the results of function `op` depend on (through
/// the operands of the ops defining them), or `None` when an op with regions
/// or a value from elsewhere is met.
fn arguments_read(op: Op<'_>) -> Option<Vec<usize>> {
    let block = *ir::region_blocks(op.region(0)).first()?;
    let mut child = ir::block_first_op(block);
    let mut ret = None;
    while let Some(c) = child {
        if c.name() == "func.return" {
            ret = Some(c);
        }
        child = c.next();
    }
    let ret = ret?;
    let mut stack: Vec<mlir_sys::MlirValue> =
        (0..ret.num_operands()).map(|i| ret.operand(i)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut used = Vec::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v.ptr as usize) {
            continue;
        }
        // SAFETY: `v` is a live value of the kernel module; its kind is
        // checked before it is read as a block argument or an op result.
        unsafe {
            if mlir_sys::mlirValueIsABlockArgument(v) {
                if mlir_sys::mlirBlockArgumentGetOwner(v).ptr != block.ptr {
                    return None;
                }
                used.push(usize::try_from(mlir_sys::mlirBlockArgumentGetArgNumber(v)).ok()?);
            } else {
                let def = Op::from_raw(mlir_sys::mlirOpResultGetOwner(v));
                if def.num_regions() > 0 {
                    return None;
                }
                stack.extend((0..def.num_operands()).map(|i| def.operand(i)));
            }
        }
    }
    Some(used)
}

/// Bytes of a VMEM `memref` type (`memref<512x128xf32,
/// #tpu.memory_space<vmem>>`), padded to the tile; `None` for other memory
/// spaces (semaphores, SMEM, HBM) and dynamic shapes.
fn vmem_memref_bytes(ty: &str) -> Option<u64> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    if !inner.contains("#tpu.memory_space<vmem>") {
        return None;
    }
    let shape = inner.split(',').next()?.trim();
    let mut parts: Vec<&str> = shape.split('x').collect();
    let element = parts.pop()?;
    let dims: Vec<i64> = parts
        .iter()
        .map(|d| d.parse().ok())
        .collect::<Option<_>>()?;
    padded_bytes(&dims, element)
}

/// The peak VMEM of the `run_scoped` allocations from `first` on: the
/// VMEM `memref.alloca`s of these ops (inside a `tpu.region` they live
/// until its end) plus the largest peak of any op's regions (a region's
/// allocations end with it, so sequential regions reuse their VMEM).
fn scoped_peak(first: Option<Op<'_>>, in_region: bool) -> u64 {
    let mut own = 0u64;
    let mut inner = 0u64;
    let mut child = first;
    while let Some(op) = child {
        child = op.next();
        if in_region && op.name() == "memref.alloca" && op.num_results() == 1 {
            let ty = ir::type_text(ir::value_type(op.result(0)));
            own = own.saturating_add(vmem_memref_bytes(&ty).unwrap_or(0));
        }
        let region = in_region || op.name() == "tpu.region";
        for r in 0..op.num_regions() {
            for block in ir::region_blocks(op.region(r)) {
                inner = inner.max(scoped_peak(ir::block_first_op(block), region));
            }
        }
    }
    own.saturating_add(inner)
}

/// The peak VMEM the main function allocates in `run_scoped` regions.
pub(super) fn scoped_allocations(kernel: &Kernel<'_>) -> u64 {
    let Some((_, op)) = super::main_function(kernel) else {
        return 0;
    };
    ir::region_blocks(op.region(0))
        .first()
        .map_or(0, |&block| scoped_peak(ir::block_first_op(block), false))
}

pub(super) fn budget(kernel: &Kernel<'_>, sig: &KernelSignature, params: &Params) -> VmemBudget {
    let kept = scratch_kept(kernel, sig);
    let g = sig.grid.len();
    let p = sig.scalar_prefetch;
    let buffers = sig.buffers().unwrap_or(0);
    let grid = !sig.grid.is_empty();
    let buffering = if grid { 2 } else { 1 };
    let mut budget = VmemBudget {
        buffering,
        internal_scratch: params
            .internal_scratch_in_bytes
            .and_then(|v| u64::try_from(v).ok())
            .unwrap_or(0),
        vmem_limit_bytes: params.vmem_limit_bytes.and_then(|v| u64::try_from(v).ok()),
        may_need_internal: may_need_internal(kernel),
        scoped: scoped_allocations(kernel),
        ..VmemBudget::default()
    };
    let maps: std::collections::HashMap<String, Op<'_>> =
        super::functions(kernel).into_iter().collect();
    for b in 0..buffers {
        let arg = &sig.arguments[g + p + b];
        if !arg.placed_in_vmem() {
            continue;
        }
        let window = sig
            .windows
            .as_ref()
            .and_then(|ws| ws.get(b))
            .and_then(|w| w.bounds.clone());
        let (dims, times) = match window {
            Some(bounds) if grid && !aligned_block(&bounds) => {
                budget.unmodelled.push(g + p + b);
                continue;
            }
            Some(bounds) if single_buffered(sig, b, &maps) => (Some(bounds), 1),
            Some(bounds) => (Some(bounds), buffering),
            None => (static_dims(arg), 1),
        };
        match dims.and_then(|d| padded_bytes(&d, &arg.element)) {
            Some(bytes) => {
                let bytes = bytes.saturating_mul(times);
                budget.buffers = budget.buffers.saturating_add(bytes);
                budget.buffer_sizes.push(bytes);
            }
            None => budget.unmodelled.push(g + p + b),
        }
    }
    for (i, arg) in sig.arguments.iter().skip(g + p + buffers).enumerate() {
        if !arg.placed_in_vmem() {
            continue;
        }
        match static_dims(arg).and_then(|d| padded_bytes(&d, &arg.element)) {
            Some(bytes) => {
                budget.scratch = budget.scratch.saturating_add(bytes);
                if kept.get(i).copied().unwrap_or(false) {
                    budget.scratch_kept = budget.scratch_kept.saturating_add(bytes);
                }
            }
            None => budget.scratch_unmodelled = true,
        }
    }
    budget
}
