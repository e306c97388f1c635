//! Bytecode exchanged with other MLIRs (jaxlib's above all), with the same
//! meaning both ways.
//!
//! MLIR bytecode (format version 5 and newer) stores an op's inherent
//! attributes as its *properties*, in one of two encodings chosen by the
//! writer: an op the writer has registered encodes them its own way (one
//! attribute per ODS property, in ODS order, without names); an unregistered
//! op writes them as one dictionary. The reader decodes them by the writer's
//! choice (a flag per op name) but with its own knowledge of the op. Our
//! `stablehlo` and `tpu` ops are unregistered here and registered in jaxlib,
//! so neither direction works as is:
//!
//! * writing ([`portable_copy`]): jaxlib reads our dictionary as if it were
//!   its op's own encoding (`expected mlir::ElementsAttr, but got: {value =
//!   ...}`). Bytecode of a module we hand to others therefore carries every
//!   unregistered op's properties as plain attributes, MLIR's own path for ops
//!   without a properties encoding: a registered op created from them moves
//!   its inherent attributes into its properties, so jaxlib sees exactly the
//!   op the text form gives it.
//! * reading ([`check_native_properties`]): MLIR 22 would read the first
//!   attribute of jaxlib's encoding as the whole dictionary and drop the rest,
//!   a silently wrong module. Such files are refused, naming the ops, with the
//!   two ways to pass the module instead (text, or bytecode below version 5).

use melior::Context;
use melior::ir::operation::{Operation, OperationLike};
use melior::ir::OperationRef;

use crate::kernel::KernelError;

unsafe extern "C" {
    fn tcc_properties_as_attributes(
        op: mlir_sys::MlirOperation,
        conflict_op: *mut mlir_sys::MlirOperation,
    ) -> mlir_sys::MlirOperation;
}

/// A copy of `op` in which every unregistered op's properties are plain
/// attributes, or `None` when no op has properties (`op` is portable as it
/// is). Refused when an op's properties are not a dictionary or repeat one of
/// its attributes (the two could not be told apart after the move).
pub fn portable_copy<'c>(op: OperationRef<'c, '_>) -> Result<Option<Operation<'c>>, KernelError> {
    let mut conflict = mlir_sys::MlirOperation {
        ptr: std::ptr::null_mut(),
    };
    // SAFETY: `op` is a valid operation; the function only reads it and
    // returns a new detached operation (owned by the caller) or null, and
    // writes an operation inside `op` (or null) to `conflict`.
    let copy = unsafe { tcc_properties_as_attributes(op.to_raw(), &mut conflict) };
    if !conflict.ptr.is_null() {
        // SAFETY: `conflict` points to an operation inside `op`, alive as long as `op`.
        let conflict = unsafe { OperationRef::from_raw(conflict) };
        return Err(KernelError::PropertiesNotPortable {
            op: conflict.name().as_string_ref().as_str().unwrap_or("?").to_string(),
        });
    }
    if copy.ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: `copy` is a detached operation we now own (melior destroys it on drop).
    Ok(Some(unsafe { Operation::from_raw(copy) }))
}

/// Refuses bytecode whose ops store properties in an encoding that only a
/// reader with the op registered decodes, for every such op not registered
/// in `ctx`. `bytes` is bytecode MLIR 22 reads (after [`crate::bytecode::down`]).
pub fn check_native_properties(
    ctx: &Context,
    bytes: &[u8],
    source_name: &str,
) -> Result<(), KernelError> {
    let names = crate::bytecode::native_property_ops(bytes).map_err(|error| {
        KernelError::Transcode {
            source_name: source_name.to_string(),
            error,
        }
    })?;
    let ops: Vec<String> = names
        .into_iter()
        .filter(|name| {
            // Registered dialects load lazily (the parser loads them on first
            // use): load the op's dialect before asking.
            if let Some((dialect, _)) = name.split_once('.') {
                ctx.get_or_load_dialect(dialect);
            }
            !ctx.is_registered_operation(name)
        })
        .collect();
    if ops.is_empty() {
        Ok(())
    } else {
        Err(KernelError::ForeignProperties {
            source_name: source_name.to_string(),
            ops,
        })
    }
}
