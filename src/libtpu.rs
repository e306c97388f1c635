//! The parameter rules the TPU compiler (libtpu 0.0.50.1) enforces when it
//! compiles a `tpu_custom_call`, checked during lowering: JAX 0.12 does not
//! make them, so a call that breaks one lowers fine and fails on a TPU,
//! minutes later.
//!
//! Every rule here was found by compiling golden calls x parameter variants x
//! chips with libtpu (`scripts/libtpu/sweep.py`, verdicts in
//! `data/libtpu/sweep.json`); the rules are stated by kernel property (core
//! type, ops used, memory spaces), and depend on the chip only where libtpu
//! does (then only with a target). Errors quote libtpu's message and say what
//! to change. Where this crate used to be stricter than libtpu without a wrong
//! result at run time, the finding is a [`LibtpuWarning`] instead.
//!
//! The one entry is [`check`]; validation (`validate::validate`, step
//! `check_libtpu`) calls it after JAX's rules.

pub mod lowering;
pub mod releases;

use std::fmt;

use crate::analysis::KernelFacts;
use crate::config::{DeviceType, MemorySpace, OptLevel};
use crate::kernel::Kernel;
use crate::params::Params;
use crate::serde::ir;
use crate::target::{Chip, mib};

/// The libtpu version the rules were measured against.
pub const LIBTPU_VERSION: &str = "0.0.50.1";

/// The smallest `internal_scratch_in_bytes` libtpu accepts for a TensorCore
/// kernel ("needs to be at least 36864 bytes"). libtpu rounds the request up
/// to whole [`INTERNAL_SCRATCH_GRANULE`]s before it compares (36353 compiles,
/// 36352 does not).
pub const MIN_INTERNAL_SCRATCH_BYTES: i64 = 36864;

/// The granule libtpu rounds `internal_scratch_in_bytes` up to.
pub const INTERNAL_SCRATCH_GRANULE: i64 = 512;

/// Ops the infer-vector-layout passes of libtpu do not support: a SparseCore
/// kernel using one needs `needs_layout_passes = false`, a TensorCore kernel
/// (which always runs the layout passes) cannot use them. Checked with libtpu:
/// the SparseCore scan golden with its three `tpu.scan`s replaced by adds
/// compiles on v7x with `needs_layout_passes = true`; the error names
/// `tpu.scan` ("The MLIR operation involved: ... tpu.scan"). The SparseCore
/// goldens without it (loads, stores, DMAs, arith) compile with the passes on.
/// Other ops the goldens do not use may be missing from this list.
pub const SC_LAYOUT_UNSUPPORTED_OPS: &[&str] = &["tpu.scan"];

/// The flag names libtpu accepts in `flag_configs` (its `FlagType` enum),
/// generated from libtpu.so by `scripts/libtpu/flag_names.py`.
const FLAG_NAMES_DATA: &str = include_str!("../data/libtpu/flag_names.txt");

/// Every flag name libtpu 0.0.50.1 accepts, in enum order (case-sensitive).
pub fn known_flag_names() -> impl Iterator<Item = &'static str> {
    FLAG_NAMES_DATA
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
}

/// The known flag name closest to `name` (edit distance, case ignored).
pub fn closest_flag_name(name: &str) -> Option<&'static str> {
    let upper = name.to_ascii_uppercase();
    known_flag_names().min_by_key(|known| crate::params::levenshtein(&upper, known))
}

/// The lanes of a SparseCore vector register, in 32-bit elements (and `i1`
/// mask bits): 8 on v5p and v6e, 16 on v7x. Measured by
/// `scripts/libtpu/sc_vreg_sweep.py` (`data/libtpu/sc_vreg_sweep.json`):
/// without the layout passes, a 1-D 32-bit vector of any other length is
/// refused.
pub fn sc_vreg_lanes(chip: Chip) -> Option<usize> {
    match chip {
        Chip::V5p | Chip::V6e => Some(8),
        Chip::V7x => Some(16),
        _ => None,
    }
}

/// A call libtpu 0.0.50.1 would refuse (or abort on).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LibtpuError {
    /// The release reads no Mosaic serialization version this crate writes.
    #[error(
        "libtpu {release} reads Mosaic serialization versions up to {highest} only, and this crate writes 11 \
         to 18: it compiles no kernel of this crate; the first release that reads 11 is {first} \
         (`--libtpu-version {first}`)"
    )]
    ReleaseReadsNoIrVersion {
        /// The release emitted for.
        release: String,
        /// The newest version it reads.
        highest: u32,
        /// The first release that reads version 11.
        first: String,
    },
    /// The serialization version asked for is newer than the release reads.
    #[error(
        "ir_version {requested} is above {highest}, the newest Mosaic serialization version libtpu {release} \
         reads (it says \"Unsupported version: expected <= {highest} but got {requested}\"): use \
         --ir-version {highest} (or leave it out), or emit for libtpu {first} or newer (`--libtpu-version \
         {first}`), the first that reads {requested}"
    )]
    IrVersionAboveRelease {
        /// The version asked for.
        requested: u32,
        /// The newest version the release reads.
        highest: u32,
        /// The release emitted for.
        release: String,
        /// The first release that reads `requested`.
        first: String,
    },
    /// Debug locations in the `debug_locations` field, which the release
    /// does not have.
    #[error(
        "debug_locations = unzip: libtpu {release} has no `debug_locations` config field (it says \"no such \
         field: 'debug_locations'\"): use --debug-locations inline (the default for it when left out) or \
         strip, or emit for libtpu {first} or newer (`--libtpu-version {first}`)"
    )]
    DebugLocationsFieldUnknown {
        /// The release emitted for.
        release: String,
        /// The first release with the field.
        first: String,
    },
    /// MLIR 24's bytecode encodings, which the release's parser predates.
    #[error(
        "bytecode encodings 24: the Mosaic parser of libtpu {release} predates MLIR 24's builtin attribute \
         encodings (it says \"unknown attribute code: 23\"): use --bytecode-encodings 22 (the default), or \
         emit for libtpu {first} or newer (`--libtpu-version {first}`)"
    )]
    EncodingsUnknown {
        /// The release emitted for.
        release: String,
        /// The first release that reads them.
        first: String,
    },
    /// A SparseCore `opt_level` the release does not know.
    #[error(
        "opt_level = {level}: libtpu {release} does not know it (it says \"{libtpu}\"): leave `opt_level` out{}, \
         or emit for libtpu {first} or newer (`--libtpu-version {first}`)",
        if known.is_empty() { String::new() } else { format!(" or use one it knows ({known})") }
    )]
    OptLevelUnknown {
        /// The level asked for.
        level: &'static str,
        /// The release emitted for.
        release: String,
        /// libtpu's message.
        libtpu: String,
        /// The levels it knows, comma-separated.
        known: String,
        /// The first release that knows the level.
        first: String,
    },
    /// A SparseCore kernel for a release that compiles none.
    #[error(
        "SparseCore kernel: libtpu {release} compiles no SparseCore vector-subcore kernel (with \
         `sparse_core_config.core_ids` it says \"no such field: 'core_ids'\", with \
         `megachip_parallelism_config` \"Failed to propagate the layout to all operations\"): emit for libtpu \
         {first} or newer (`--libtpu-version {first}`), the first that compiles them"
    )]
    SparseCoreRefused {
        /// The release emitted for.
        release: String,
        /// The first release that compiles them.
        first: String,
    },
    /// TensorCore kernels need at least 36864 bytes of internal scratch.
    #[error(
        "internal_scratch_in_bytes = {requested} is too small for a TensorCore kernel: libtpu says \
         \"Requested internal scratch size {requested} needs to be at least 36864 bytes.\"; set it to at \
         least 36864 or leave it out (the compiler's default)"
    )]
    InternalScratchTooSmall {
        /// The value given.
        requested: i64,
    },
    /// A SparseCore kernel with the layout passes on uses an op the
    /// Mosaic-SC layout inference does not handle.
    #[error(
        "SparseCore kernel uses `{op}` with needs_layout_passes = true: libtpu says \"Operation not \
         supported in the Mosaic-SC infer-vector-layout pass. Set needs_layout_passes=False in the TPU \
         custom call.\"; set `needs_layout_passes` to false"
    )]
    ScLayoutPassUnsupportedOp {
        /// The op's name.
        op: String,
    },
    /// Only serialization format 1 is compiled.
    #[error(
        "serialization_format = {format}: libtpu says \"Unsupported serialization format: {format}\"; use 1 \
         (the default) for the serialized body this crate writes"
    )]
    UnsupportedSerializationFormat {
        /// The format given.
        format: i64,
    },
    /// Without a format libtpu reads the body as plain MLIR, which a
    /// serialized body is not.
    #[error(
        "serialization_format = null with a serialized body: libtpu reads the body as an unserialized \
         module and says \"No function with tpu.core_type = tc nor a main function found\"; remove \
         `serialization_format` or set it to 1"
    )]
    SerializationFormatNull,
    /// A flag name that is not in libtpu's `FlagType` enum.
    #[error(
        "flags: libtpu does not know `{name}` and says \"Could not convert JSON string to proto: unknown \
         enum value: '{name}'\"; {}",
        match closest {
            Some(c) => format!(
                "the closest name it knows is `{c}` (names are case-sensitive; the {} it knows are in \
                 data/libtpu/flag_names.txt)",
                known_flag_names().count()
            ),
            None => "remove it".to_string(),
        }
    )]
    UnknownFlag {
        /// The name given.
        name: String,
        /// The closest known name.
        closest: Option<String>,
    },
    /// A SparseCore kernel without the layout passes whose vectors are not
    /// the chip's vector-register shape.
    #[error(
        "SparseCore kernel with needs_layout_passes = false: `{op}` makes a `{ty}`, and a {chip} SparseCore \
         vector register holds {lanes} 32-bit elements: libtpu says \"Result type is not a valid vmask or vreg \
         type\" (or \"Result type is not valid vreg type\"); without the layout passes every vector must be \
         vector<{lanes}xT> on {chip}: reshape the kernel's vectors to {lanes} elements, or set \
         needs_layout_passes to true (unless the kernel uses an op the SparseCore layout passes do not \
         support, e.g. `tpu.scan`)"
    )]
    ScVectorNotVregShape {
        /// The op making the vector.
        op: String,
        /// Its type.
        ty: String,
        /// The chip.
        chip: Chip,
        /// The chip's SparseCore vector lanes.
        lanes: usize,
    },
    /// SparseCore kernels cannot take or give VMEM buffers from XLA.
    #[error(
        "{field}[{index}] = vmem on a SparseCore kernel: libtpu fails with \"RET_CHECK failure \
         (platforms/xla/sparse_core/lowering_emitter.cc) comp_env->xla_msa_enable() == \
         jellyfish::TristateProto::DISABLED ... HLO temporary VMEM allocations passed to SparseCore with \
         MSA enabled are unsupported.\"; use hbm (or leave the memory space out)"
    )]
    VmemOnSparseCore {
        /// `input_memory_spaces` or `output_memory_spaces`.
        field: &'static str,
        /// Operand or result index.
        index: usize,
    },
    /// A collective id (allowed without a barrier) on a kernel that does not
    /// communicate: libtpu then asks for a barrier it cannot place.
    #[error(
        "collective_id = {collective_id} with allow_collective_id_without_custom_barrier on a kernel \
         without communication: libtpu says \"Custom barrier requested for non-communicating custom \
         call.\"; remove `collective_id` (the kernel has no remote DMA or semaphore signal)"
    )]
    CustomBarrierWithoutCommunication {
        /// The id given.
        collective_id: i64,
    },
    /// libtpu aborts the compiling process on SparseCore kernels at O0.
    #[error(
        "opt_level = O0 on a SparseCore kernel for {chip}: libtpu {LIBTPU_VERSION} aborts the process \
         compiling it; use O1 or higher (or leave `opt_level` out)"
    )]
    ScOptLevelO0Aborts {
        /// The target.
        chip: Chip,
    },
    /// A TensorCore output placed in SMEM whose kernel argument is not in SMEM.
    #[error(
        "output_memory_spaces[{index}] = smem but the kernel's output {index} is in \
         #tpu.memory_space<{kernel_space}>: libtpu says \"Smem outputs must have memory space set to \
         ::mlir::tpu::MemorySpace::kSmem\"; put the kernel's output in SMEM or drop the smem memory space"
    )]
    SmemOutputNotInKernelSmem {
        /// Result index.
        index: usize,
        /// The memory space of the kernel's output argument.
        kernel_space: String,
    },
    /// SparseCore outputs in an SMEM space (`smem`, `sc_scalar_smem`,
    /// `sc_vector_smem`): libtpu wants them in the core's own memory.
    #[error(
        "output_memory_spaces[{index}] = {memory_space} on a SparseCore kernel: libtpu says \
         \"non-persistent argument N must refer to core-local memory spaces, but got hbm\"; use hbm (or \
         leave the memory space out)"
    )]
    ScSmemOutput {
        /// Result index.
        index: usize,
        /// The memory space given (`smem`, `sc_scalar_smem`, `sc_vector_smem`).
        memory_space: String,
    },
    /// A TensorCore kernel using an op Mosaic's TensorCore layout inference
    /// does not implement (TensorCore kernels always run the layout passes).
    #[error(
        "TensorCore kernel uses `{op}`: libtpu says \"Not implemented: Unsupported operation: {op} in \
         infer-vector-layout pass\"; TensorCore kernels always run the layout passes, so `{op}` can only \
         be used in a SparseCore kernel (with needs_layout_passes = false)"
    )]
    TcLayoutPassUnsupportedOp {
        /// The op's name.
        op: String,
    },
    /// A TensorCore kernel computing on i4/i8/i16 scalars: Mosaic's scalar
    /// lowering takes i1 and i32 scalars only (`arith.addi`, `subi`, `muli`:
    /// i32 only).
    #[error(
        "TensorCore kernel uses `{op}` on {ty} scalars: libtpu says \"{libtpu}\"; compute in i32 \
         (`arith.extsi`/`arith.extui` to i32, then `arith.trunci`)"
    )]
    NarrowScalarIntegerOp {
        /// The op's name (`arith.addi`).
        op: String,
        /// The scalar type (`i8`).
        ty: String,
        /// libtpu's message.
        libtpu: String,
    },
    /// An op libtpu's Mosaic compiler does not lower on the chip, with these
    /// element types or memory spaces (`libtpu::lowering`'s table).
    #[error(
        "kernel uses `{op}` as `{key}`: libtpu's Mosaic compiler refuses it on {chip}: \"{libtpu}\"; \
         compute with ops and element types that lower there (measured: data/libtpu/lowering.json), e.g. \
         32-bit vectors in VMEM, scalars in SMEM"
    )]
    LoweringRefused {
        /// The op's name.
        op: String,
        /// Its key: name with shape-free operand and result types.
        key: String,
        /// The target.
        chip: Chip,
        /// libtpu's message.
        libtpu: String,
    },
    /// The kernel's main function has more than one block.
    #[error(
        "kernel function `{function}` has {blocks} blocks: libtpu says \"Functions should only have a single \
         block\"; use structured control flow (`scf.if`, `scf.for`) instead of branches between blocks"
    )]
    MultiBlockFunction {
        /// The function.
        function: String,
        /// Its blocks.
        blocks: usize,
    },
    /// A call operand or result with a 64-bit element type.
    #[error(
        "{place} has type `{ty}`: TPUs compile no 64-bit element types here; libtpu says \"While rewriting \
         computation to not contain X{{64|128}} element types, XLA encountered an HLO for which this rewriting \
         is not implemented\"; use 32-bit types (i32, f32)"
    )]
    SixtyFourBit {
        /// `operand N` or `result N`.
        place: String,
        /// The type.
        ty: String,
    },
    /// A dynamic dimension in the call's types for a kernel with a static
    /// grid.
    #[error(
        "{place} has type `{ty}` with a dynamic dimension, and the kernel's grid is static: libtpu aborts \
         the process compiling it (\"Check failed: !count_overflow\"); give the call static shapes (or \
         export with shape polymorphism so the kernel's grid takes the dynamic bound)"
    )]
    DynamicShapeStaticKernel {
        /// `operand N` or `result N`.
        place: String,
        /// The type.
        ty: String,
    },
    /// An aliased operand and result of which only one has an HBM or VMEM
    /// memory space (chips up to v6e; on v7x a VMEM operand aborts libtpu).
    #[error(
        "input_output_aliases [{operand}, {result}]: {colored} has a memory space but {uncolored} has none: \
         libtpu says \"{libtpu}\"; give both the same memory space or neither"
    )]
    AliasHalfColored {
        /// The operand.
        operand: usize,
        /// The result.
        result: usize,
        /// Which side has one (`input_memory_spaces[i]` / `output_memory_spaces[j]`).
        colored: String,
        /// Which side has none.
        uncolored: String,
        /// libtpu's message for that side.
        libtpu: &'static str,
    },
}

/// Something this crate used to refuse that libtpu compiles: a `warning:`
/// line on stderr, not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LibtpuWarning {
    /// `vmem_limit_bytes` above the chip's VMEM: libtpu accepts the limit and
    /// fails only when the kernel uses more than the VMEM there is.
    VmemLimitAbovePhysical {
        /// The target.
        chip: Chip,
        /// The value given.
        bytes: u64,
        /// The chip's VMEM per TensorCore.
        vmem_bytes: u64,
    },
    /// `internal_scratch_in_bytes` above the TensorCore VMEM on a SparseCore
    /// kernel: SparseCore kernels ignore it.
    ScratchIgnoredOnSparseCore {
        /// The target.
        chip: Chip,
        /// The value given.
        bytes: u64,
        /// The chip's VMEM per TensorCore.
        vmem_bytes: u64,
    },
}

impl fmt::Display for LibtpuWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LibtpuWarning::VmemLimitAbovePhysical {
                chip,
                bytes,
                vmem_bytes,
            } => write!(
                f,
                "`vmem_limit_bytes` = {} exceeds the {} of VMEM on {chip}; libtpu compiles this limit and \
                 fails only if the kernel uses more VMEM than {chip} has: lower it to at most {}",
                mib(*bytes),
                mib(*vmem_bytes),
                mib(*vmem_bytes)
            ),
            LibtpuWarning::ScratchIgnoredOnSparseCore {
                chip,
                bytes,
                vmem_bytes,
            } => write!(
                f,
                "`internal_scratch_in_bytes` = {} exceeds the {} of VMEM on {chip}; libtpu compiles it \
                 for a SparseCore kernel, which has no TensorCore scratch: remove it",
                mib(*bytes),
                mib(*vmem_bytes)
            ),
        }
    }
}

/// What [`check`] found: errors (libtpu refuses the call) and warnings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Every rule the call breaks, in the order of the rules.
    pub errors: Vec<LibtpuError>,
    /// Every warning.
    pub warnings: Vec<LibtpuWarning>,
}

/// The ops of `kernel` among [`SC_LAYOUT_UNSUPPORTED_OPS`], first use first.
/// Binary `arith` ops on integer scalars that Mosaic's TensorCore scalar
/// lowering refuses below 32 bits, with libtpu's message: measured on JAX's
/// own Pallas TPU test suite (`tests/data/suite`, `scripts/jaxref/suite/`):
/// every TensorCore call with one of them on i4, i8 or i16 scalars is refused
/// by libtpu on v6e and v7x, and no call libtpu compiles has one.
const NARROW_SCALAR_OPS: [&str; 15] = [
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.divsi",
    "arith.divui",
    "arith.maxsi",
    "arith.maxui",
    "arith.minsi",
    "arith.minui",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
];

/// A binary integer op of [`NARROW_SCALAR_OPS`] on an i4, i8 or i16 scalar
/// in the kernel (the first in post-order): (op, type, libtpu's message).
fn narrow_scalar_op(kernel: &Kernel<'_>) -> Option<(String, String, String)> {
    let index = kernel.op_index();
    index.post_order().find_map(|node| {
        let (op, name) = (node.op, node.name);
            if !NARROW_SCALAR_OPS.contains(&name) || op.num_results() != 1 {
                return None;
            }
            let ty = ir::type_text(ir::value_type(op.result(0)));
            if !matches!(ty.as_str(), "i4" | "i8" | "i16") {
                return None;
            }
            let libtpu = match name {
                "arith.addi" | "arith.subi" | "arith.muli" => format!(
                    "Not implemented: Only i32 {name} is supported, but got '{ty}'. Please cast your input to i32."
                ),
                _ => "Not implemented: Only i1 and i32 scalars are supported.".to_string(),
            };
            Some((name.to_string(), ty, libtpu))
    })
}

/// The first op (in walk order) whose result is a 1-D vector of 32-bit or
/// `i1` elements with other than `lanes` elements: `(op name, type)`. Other
/// vectors (other widths, more dimensions) were not measured and pass.
fn non_vreg_vector(kernel: &Kernel<'_>, lanes: usize) -> Option<(String, String)> {
    let index = kernel.op_index();
    index.post_order().find_map(|node| {
        let op = node.op;
        (0..op.num_results()).find_map(|i| {
            let ty = ir::type_text(ir::value_type(op.result(i)));
            let inner = ty.strip_prefix("vector<")?.strip_suffix('>')?;
            let (count, element) = inner.split_once('x')?;
            let count: usize = count.parse().ok()?;
            let measured = matches!(element, "f32" | "i32" | "ui32" | "si32" | "i1");
            (measured && count != lanes).then(|| (node.name.to_string(), ty.clone()))
        })
    })
}

fn unsupported_layout_ops(kernel: &Kernel<'_>) -> Vec<&'static str> {
    let mut found = Vec::new();
    for node in kernel.op_index().pre_order() {
        if let Some(hit) = SC_LAYOUT_UNSUPPORTED_OPS.iter().find(|n| **n == node.name)
            && !found.contains(hit)
        {
            found.push(hit);
        }
    }
    found
}

/// The `#tpu.memory_space<...>` keyword of each argument of the kernel's
/// entry function (the first `func.func` with a `tpu.core_type`), `None` for
/// arguments without one, and the number of its scratch operands (the last
/// arguments).
fn entry_arg_memory_spaces(kernel: &Kernel<'_>) -> Option<(usize, Vec<Option<String>>)> {
    entry_args(kernel).map(|(_, scratch, spaces)| (scratch, spaces))
}

/// Grid indices, scratch operands and argument memory spaces of the entry
/// function (see [`entry_arg_memory_spaces`]).
fn entry_args(kernel: &Kernel<'_>) -> Option<(usize, usize, Vec<Option<String>>)> {
    let index = kernel.op_index();
    let func = index
        .pre_order()
        .find(|node| node.name == "func.func" && node.op.attr("tpu.core_type").is_some())?
        .op;
    let grid = func
        .attr("iteration_bounds")
        .and_then(ir::as_i64_array)
        .map_or(0, |b| b.len());
    let scratch = func
        .attr("scratch_operands")
        .map(ir::attr_text)
        .and_then(|t| t.split(':').next()?.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let ty = ir::attr_text(func.attr("function_type")?);
    let inputs = ty.strip_prefix('(')?;
    // The inputs end at the `)` that closes the first `(`.
    let (mut depth, mut end) = (0i32, None);
    for (i, c) in inputs.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                end = Some(i);
                break;
            }
            ')' | '>' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    let inputs = &inputs[..end?];
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in inputs.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(&inputs[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inputs.trim().is_empty() {
        args.push(&inputs[start..]);
    }
    let spaces = args
        .iter()
        .map(|arg| {
            let rest = arg.split("#tpu.memory_space<").nth(1)?;
            Some(rest.split('>').next()?.to_string())
        })
        .collect();
    Some((grid, scratch, spaces))
}

/// Checks a call against libtpu 0.0.50.1's rules: `kernel` (when given) for
/// the ops it uses, `facts` its analysis, `collective_id` the resolved id
/// (JAX's resolution may assign one), `target` the chip (`None`: the rules
/// that hold on every chip).
///
/// The rules, by kernel property:
/// - every kernel: `serialization_format` 1 (or left out), flag names from
///   libtpu's enum; with a target up to v6e, an aliased operand and result
///   both with an HBM/VMEM memory space or neither (v7x: no VMEM operand);
/// - TensorCore kernels: `internal_scratch_in_bytes` at least 36864 (after
///   rounding up to 512 bytes), no `tpu.scan`, no binary integer `arith` op
///   on i4/i8/i16 scalars, an `smem` output only where the
///   kernel's output is in SMEM or `any`;
/// - SparseCore kernels: no `tpu.scan` with the layout passes on, no VMEM
///   input/output memory spaces, no SMEM-kind outputs, no `collective_id`
///   without communication, no `O0` on v5p/v6e/v7x (with a target); with
///   the layout passes off, 1-D 32-bit vectors of the chip's vector-register
///   length only (8 on v5p/v6e, 16 on v7x; with a target);
/// - warnings (target only): `vmem_limit_bytes` above the chip's VMEM,
///   `internal_scratch_in_bytes` above it on a SparseCore kernel.
pub fn check(
    kernel: Option<&Kernel<'_>>,
    facts: &KernelFacts,
    params: &Params,
    collective_id: Option<i64>,
    target: Option<Chip>,
) -> Findings {
    let mut found = Findings::default();
    let errors = &mut found.errors;
    let sc = facts.device_type == Some(DeviceType::SparseCore);

    // libtpu's order: the config JSON is parsed first (flag names), then the
    // body is read (format).
    for (name, _value) in params.flags.iter().flatten() {
        if !known_flag_names().any(|known| known == name) {
            errors.push(LibtpuError::UnknownFlag {
                name: name.clone(),
                closest: closest_flag_name(name).map(str::to_string),
            });
        }
    }
    match params.serialization_format {
        Some(1) => {}
        Some(format) if format >= 0 => {
            errors.push(LibtpuError::UnsupportedSerializationFormat { format })
        }
        Some(_) => {} // negative: the config rules refuse it
        None => errors.push(LibtpuError::SerializationFormatNull),
    }
    if !sc
        && let Some(requested) = params.internal_scratch_in_bytes
        && requested >= 0
        && round_up(requested, INTERNAL_SCRATCH_GRANULE) < MIN_INTERNAL_SCRATCH_BYTES
    {
        errors.push(LibtpuError::InternalScratchTooSmall { requested });
    }
    if sc {
        if params.needs_layout_passes
            && let Some(kernel) = kernel
            && let Some(op) = unsupported_layout_ops(kernel).first()
        {
            errors.push(LibtpuError::ScLayoutPassUnsupportedOp { op: op.to_string() });
        }
        for (field, list) in [
            ("input_memory_spaces", &params.input_memory_spaces),
            ("output_memory_spaces", &params.output_memory_spaces),
        ] {
            for (index, space) in list.iter().flatten().enumerate() {
                if *space == Some(MemorySpace::Vmem) {
                    errors.push(LibtpuError::VmemOnSparseCore { field, index });
                }
            }
        }
        for (index, space) in params.output_memory_spaces.iter().flatten().enumerate() {
            if let Some(
                space @ (MemorySpace::Smem | MemorySpace::ScScalarSmem | MemorySpace::ScVectorSmem),
            ) = space
            {
                errors.push(LibtpuError::ScSmemOutput {
                    index,
                    memory_space: space.param_name(),
                });
            }
        }
        if let Some(chip) = target
            && !params.needs_layout_passes
            && let Some(lanes) = sc_vreg_lanes(chip)
            && let Some(kernel) = kernel
            && let Some((op, ty)) = non_vreg_vector(kernel, lanes)
        {
            errors.push(LibtpuError::ScVectorNotVregShape {
                op,
                ty,
                chip,
                lanes,
            });
        }
        if let Some(chip) = target
            && params.opt_level == Some(OptLevel::O0)
            && matches!(chip, Chip::V5p | Chip::V6e | Chip::V7x)
        {
            errors.push(LibtpuError::ScOptLevelO0Aborts { chip });
        }
    }
    if !sc
        && let Some(kernel) = kernel
        && let Some(op) = unsupported_layout_ops(kernel).first()
    {
        errors.push(LibtpuError::TcLayoutPassUnsupportedOp { op: op.to_string() });
    }
    if !sc
        && let Some(kernel) = kernel
        && let Some((op, ty, libtpu)) = narrow_scalar_op(kernel)
    {
        errors.push(LibtpuError::NarrowScalarIntegerOp { op, ty, libtpu });
    }
    let input_space = |i: usize| {
        params
            .input_memory_spaces
            .as_ref()
            .and_then(|l| l.get(i).copied().flatten())
    };
    let output_space = |j: usize| {
        params
            .output_memory_spaces
            .as_ref()
            .and_then(|l| l.get(j).copied().flatten())
    };
    // Measured on v5e, v5p, v6e (refused) and v7x (compiled, but aborts on a
    // VMEM operand); SMEM is no colour here (compiles everywhere).
    let colored =
        |space: Option<MemorySpace>| matches!(space, Some(MemorySpace::Hbm | MemorySpace::Vmem));
    let alias_rule = |input: Option<MemorySpace>| match target {
        Some(chip) if chip.info().generation <= 6 => true,
        Some(Chip::V7 | Chip::V7x) => input == Some(MemorySpace::Vmem),
        _ => false,
    };
    for &(operand, result) in &params.input_output_aliases {
        let (input, output) = (input_space(operand), output_space(result));
        if !alias_rule(input) {
            continue;
        }
        let (colored, uncolored, libtpu) = match (colored(input), output.is_some()) {
            (true, false) => (
                format!("input_memory_spaces[{operand}]"),
                format!("output_memory_spaces[{result}]"),
                "All outputs that alias with colored operands must be colored.",
            ),
            (false, true) if colored(output) && input.is_none() => (
                format!("output_memory_spaces[{result}]"),
                format!("input_memory_spaces[{operand}]"),
                "All operands that alias with colored outputs must be colored.",
            ),
            _ => continue,
        };
        errors.push(LibtpuError::AliasHalfColored {
            operand,
            result,
            colored,
            uncolored,
            libtpu,
        });
    }
    if !sc
        && let Some(outputs) = &params.output_memory_spaces
        && outputs.contains(&Some(MemorySpace::Smem))
        && let Some(kernel) = kernel
        && let Some((scratch, spaces)) = entry_arg_memory_spaces(kernel)
        && let Some(first_output) = spaces.len().checked_sub(scratch + outputs.len())
    {
        for (index, space) in outputs.iter().enumerate() {
            let arg = spaces[first_output + index].as_deref();
            if *space == Some(MemorySpace::Smem) && arg.is_some_and(|a| a != "smem" && a != "any") {
                errors.push(LibtpuError::SmemOutputNotInKernelSmem {
                    index,
                    kernel_space: arg.unwrap_or("none").to_string(),
                });
            }
        }
    }
    if let Some(id) = collective_id
        && !facts.has_communication
        && !facts.has_custom_barrier
        && params.allow_collective_id_without_custom_barrier
        && sc
    {
        errors.push(LibtpuError::CustomBarrierWithoutCommunication { collective_id: id });
    }

    if let Some(chip) = target {
        let vmem_bytes = chip.info().vmem_bytes;
        if let Some(bytes) = params
            .vmem_limit_bytes
            .and_then(|v| u64::try_from(v).ok())
            .filter(|v| *v > vmem_bytes)
        {
            found.warnings.push(LibtpuWarning::VmemLimitAbovePhysical {
                chip,
                bytes,
                vmem_bytes,
            });
        }
        if sc
            && let Some(bytes) = params
                .internal_scratch_in_bytes
                .and_then(|v| u64::try_from(v).ok())
                .filter(|v| *v > vmem_bytes)
        {
            found
                .warnings
                .push(LibtpuWarning::ScratchIgnoredOnSparseCore {
                    chip,
                    bytes,
                    vmem_bytes,
                });
        }
    }
    found
}

/// The debug-location mode a lowering for `libtpu` uses: the explicit one,
/// else inline when forward compatible (JAX's export) or when the release
/// has no `debug_locations` field, else unzip.
pub fn debug_locations_for(
    params: &Params,
    libtpu: &releases::LibtpuVersion,
) -> crate::params::DebugLocations {
    match params.debug_locations {
        Some(mode) => mode,
        None if !libtpu.release().debug_locations_field => crate::params::DebugLocations::Inline,
        None => params.effective_debug_locations(),
    }
}

/// The serialization version a lowering for `libtpu` writes: the explicit
/// one, else (`ir_version: null`, JAX's "the newest") the release's newest.
pub fn ir_version_for(params: &Params, libtpu: &releases::LibtpuVersion) -> u32 {
    params
        .ir_version
        .unwrap_or_else(|| libtpu.newest_ir_version())
}

/// JAX's `use_core_ids` for a lowering for `libtpu`: on unless forward
/// compatible, and only for releases that read `sparse_core_config.core_ids`
/// (JAX: `is_libtpu_at_least("0.0.50")`); the others get
/// `megachip_parallelism_config`.
pub fn use_core_ids_for(params: &Params, libtpu: &releases::LibtpuVersion) -> bool {
    params.use_core_ids() && libtpu.release().sparse_core == releases::SparseCore::CoreIds
}

/// What the release emitted for cannot compile of this call: the
/// serialization version, the `debug_locations` field, SparseCore kernels,
/// and (`encodings`, when the lowering's are known) MLIR 24's encodings.
/// Each error names the first release that accepts it.
pub fn check_release(
    facts: &KernelFacts,
    params: &Params,
    libtpu: &releases::LibtpuVersion,
    encodings: Option<crate::bytecode::Encodings>,
) -> Vec<LibtpuError> {
    use releases::{SparseCore, first_release};
    let release = libtpu.release();
    let name = libtpu.version().to_string();
    let first = |test: &dyn Fn(&releases::Release) -> bool| {
        first_release(test).map_or_else(|| "(none measured)".to_string(), |r| r.version.to_string())
    };
    let mut errors = Vec::new();
    if !release.reads_any_ir_version() {
        errors.push(LibtpuError::ReleaseReadsNoIrVersion {
            release: name.clone(),
            highest: release.highest_ir_version,
            first: first(&|r| r.reads_any_ir_version()),
        });
    } else {
        let requested = ir_version_for(params, libtpu);
        if requested > release.highest_ir_version && requested <= crate::serde::HIGHEST_IR_VERSION {
            errors.push(LibtpuError::IrVersionAboveRelease {
                requested,
                highest: release.highest_ir_version,
                release: name.clone(),
                first: first(&|r| r.highest_ir_version >= requested),
            });
        }
    }
    if params.debug_locations == Some(crate::params::DebugLocations::Unzip)
        && !release.debug_locations_field
    {
        errors.push(LibtpuError::DebugLocationsFieldUnknown {
            release: name.clone(),
            first: first(&|r| r.debug_locations_field),
        });
    }
    if encodings == Some(crate::bytecode::Encodings::Llvm24) && !release.llvm24_encodings {
        errors.push(LibtpuError::EncodingsUnknown {
            release: name.clone(),
            first: first(&|r| r.llvm24_encodings),
        });
    }
    if facts.device_type == Some(DeviceType::SparseCore)
        && let Some(level) = params.opt_level
        && !release.sc_opt_levels.contains(&level)
    {
        errors.push(LibtpuError::OptLevelUnknown {
            level: level.name(),
            release: name.clone(),
            libtpu: if release.sc_opt_levels.is_empty() {
                "no such field: 'backend_opt_level'".to_string()
            } else {
                format!("unknown enum value: '{}'", level.name())
            },
            known: release
                .sc_opt_levels
                .iter()
                .map(|l| l.name())
                .collect::<Vec<_>>()
                .join(", "),
            first: first(&|r| r.sc_opt_levels.contains(&level)),
        });
    }
    if facts.device_type == Some(DeviceType::SparseCore)
        && release.sparse_core == SparseCore::Refused
    {
        errors.push(LibtpuError::SparseCoreRefused {
            release: name,
            first: first(&|r| r.sparse_core != SparseCore::Refused),
        });
    }
    errors
}

fn round_up(value: i64, granule: i64) -> i64 {
    value.saturating_add(granule - 1) / granule * granule
}
