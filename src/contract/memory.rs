//! The call's memory spaces (`input_memory_spaces`, `output_memory_spaces`)
//! against the kernel arguments' `#tpu.memory_space<...>`.
//!
//! What libtpu 0.0.50.1 does with them (measured with `tpu-custom-call
//! compile` on v5e and v7x, on the `add_basic` kernel (VMEM arguments), the
//! `memory_spaces` golden's kernel (`any` arguments) and the same kernel with
//! `hbm` arguments, and the `scalar_prefetch` kernel (SMEM prefetch, VMEM
//! blocks)):
//! - a result in `semaphore_mem` whose kernel argument is not a semaphore
//!   buffer aborts libtpu (`RET_CHECK failure ... lowering_util.cc:2457
//!   MemorySpaceIsShared(source->memory_space()) || ... Unsupported source
//!   memory space`): refused;
//! - a result in `host` whose kernel argument is in `any`: Mosaic fails with
//!   "Failed to convert a memory space to MLIR": refused (with a VMEM or HBM
//!   kernel argument it compiles);
//! - a result in `smem` whose kernel argument is in VMEM or HBM is refused by
//!   [`crate::libtpu`]'s rules already ("Smem outputs must have memory space
//!   set to ...kSmem"); SparseCore spaces on a TensorCore kernel and operands in
//!   `host` by the parameter checks;
//! - everything else compiles, whatever the kernel argument's space: operands
//!   in `hbm`, `vmem` or `smem` for VMEM, SMEM, HBM or `any` arguments (scalar
//!   prefetch included), results in `hbm`, `vmem`, `host` for VMEM or HBM
//!   arguments, `smem` and `vmem` for `any` ones. XLA then places the buffer
//!   and Mosaic's call copies it into the kernel's space; whether that is what
//!   the user meant is not checked (no TPU here), so a call whose space names
//!   a different concrete space than its kernel argument (`vmem`, `smem`,
//!   `hbm`, not `any`) is reported in [`super::ContractReport::not_checked`].

use super::{ContractError, KernelSignature, Place};
use crate::config::MemorySpace;
use crate::params::Params;

/// Checks the memory spaces of the call's operands and results against
/// their kernel arguments: errors for what libtpu refuses or aborts on, and
/// notes for mismatches it compiles.
///
/// `d` is the number of dynamic grid bound operands, `inputs` the number of
/// input buffers, `results` the number of results.
pub(super) fn check(
    sig: &KernelSignature,
    params: &Params,
    d: usize,
    inputs: usize,
    results: usize,
) -> (Vec<ContractError>, Vec<String>) {
    let g = sig.grid.len();
    let p = sig.scalar_prefetch;
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    let operand_spaces = params.input_memory_spaces.as_deref().unwrap_or_default();
    for (k, space) in operand_spaces.iter().enumerate() {
        let Some(space) = space else { continue };
        if k < d || k >= d + p + inputs {
            continue;
        }
        let argument = g + (k - d);
        note_mismatch(
            sig,
            "input_memory_spaces",
            Place::Operand(k),
            argument,
            *space,
            &mut notes,
        );
    }
    let result_spaces = params.output_memory_spaces.as_deref().unwrap_or_default();
    for (r, space) in result_spaces.iter().enumerate() {
        let Some(space) = space else { continue };
        if r >= results {
            continue;
        }
        let argument = g + p + inputs + r;
        let Some(arg) = sig.arguments.get(argument) else {
            continue;
        };
        let kernel_space = arg.memory_space.as_deref().unwrap_or("none");
        let refused = match space {
            MemorySpace::SemaphoreMem if kernel_space != "semaphore_mem" => Some((
                "libtpu aborts the compiling process (\"RET_CHECK failure \
                 (platforms/xla/service/jellyfish/lowering/lowering_util.cc:2457) \
                 MemorySpaceIsShared(source->memory_space()) || source->memory_space() == \
                 MemorySpace::kVmem || source->memory_space() == MemorySpace::kSmem Unsupported \
                 source memory space\")",
                "only a semaphore output can be in semaphore_mem: use hbm or vmem, or leave the \
                 memory space out",
            )),
            MemorySpace::Host if kernel_space == "any" => Some((
                "Mosaic fails with \"Failed to convert a memory space to MLIR\"",
                "give the kernel's output a concrete memory space (#tpu.memory_space<hbm>) or \
                 leave the memory space out",
            )),
            _ => None,
        };
        match refused {
            Some((libtpu, fix)) => errors.push(ContractError::MemorySpace {
                function: sig.function.clone(),
                place: Place::Result(r),
                field: "output_memory_spaces",
                index: r,
                space: space.param_name(),
                argument,
                kernel_type: arg.text.clone(),
                libtpu: libtpu.to_string(),
                fix: fix.to_string(),
            }),
            None => note_mismatch(
                sig,
                "output_memory_spaces",
                Place::Result(r),
                argument,
                *space,
                &mut notes,
            ),
        }
    }
    (errors, notes)
}

/// A note when the call names a concrete memory space other than the kernel
/// argument's (libtpu compiles it; its run-time effect is not checked).
fn note_mismatch(
    sig: &KernelSignature,
    field: &str,
    place: Place,
    argument: usize,
    space: MemorySpace,
    notes: &mut Vec<String>,
) {
    let Some(arg) = sig.arguments.get(argument) else {
        return;
    };
    let Some(kernel_space) = arg.memory_space.as_deref() else {
        return;
    };
    let concrete = matches!(kernel_space, "vmem" | "smem" | "hbm");
    let given = space.param_name();
    if concrete && matches!(given.as_str(), "vmem" | "smem" | "hbm") && given != kernel_space {
        let index = match place {
            Place::Operand(i) | Place::Result(i) => i,
        };
        notes.push(format!(
            "the memory space of {place}: {field}[{index}] = {given} but kernel argument \
             {argument} is in #tpu.memory_space<{kernel_space}>; libtpu 0.0.50.1 compiles this \
             (XLA places the buffer in {given} and the call copies it), whether it is meant is not \
             checked"
        ));
    }
}
