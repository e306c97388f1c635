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
use melior::ir::{Module, OperationRef};
use mlir_sys::MlirStringRef;

use crate::context::{Diagnostic, capture};
use crate::kernel::KernelError;

/// The name `opt` and the pipelines give standard input in diagnostics.
/// Locations in this file are not carried into lowered bodies (see
/// [`forget_file_locations`]).
pub const STDIN_NAME: &str = "<stdin>";

use crate::ffi::{
    tcc_dialect_reads_bytecode, tcc_forget_file_locations, tcc_parse_module_named,
    tcc_properties_as_attributes,
};

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
            op: crate::ffi::identifier_string(&conflict.name()),
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
/// in `ctx`; then bytecode with attributes or types in the own encoding of a
/// dialect `ctx` cannot decode (jaxlib's `sdy` and `stablehlo` attributes):
/// MLIR 22 would fail on those with `dialect 'sdy' does not implement the
/// bytecode interface`, without saying what to do. `bytes` is bytecode MLIR 22 reads (after [`crate::bytecode::down`]).
pub fn check_native_properties(
    ctx: &Context,
    bytes: &[u8],
    source_name: &str,
) -> Result<(), KernelError> {
    let names =
        crate::bytecode::native_property_ops(bytes).map_err(|error| KernelError::Transcode {
            source_name: source_name.to_string(),
            error,
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
    if !ops.is_empty() {
        return Err(KernelError::ForeignProperties {
            source_name: source_name.to_string(),
            ops,
        });
    }
    let file = crate::bytecode::Bytecode::parse(bytes).map_err(|error| KernelError::Transcode {
        source_name: source_name.to_string(),
        error,
    })?;
    let builtin = file.builtin_dialect();
    let mut dialects: Vec<String> = Vec::new();
    for entry in &file.entries {
        if !entry.custom || Some(entry.dialect) == builtin {
            continue;
        }
        let name = String::from_utf8_lossy(file.dialects[entry.dialect]).into_owned();
        if dialects.contains(&name) {
            continue;
        }
        // SAFETY: the context is live; the name outlives the call.
        let readable = unsafe { tcc_dialect_reads_bytecode(ctx.to_raw(), string_ref(&name)) };
        if !readable {
            dialects.push(name);
        }
    }
    if !dialects.is_empty() {
        dialects.sort();
        return Err(KernelError::ForeignEncoding {
            source_name: source_name.to_string(),
            dialects,
        });
    }
    Ok(())
}

fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    }
}

/// Reads a whole module for a pipeline (`opt`): bytecode (checked like every
/// bytecode, see [`check_native_properties`]), or text with upstream ops in
/// either form, `tpu` ops in generic form or in the custom syntax JAX prints
/// (as [`crate::Kernel::from_text`] reads them, nested kernels included),
/// StableHLO, Shardy and CHLO ops in either form (the pretty form JAX prints is
/// read by the pass-through dialects, `cpp/asm_format.cpp`), and other dialects'
/// ops in generic form. Ops without a location get `source_name` as their file, so
/// diagnostics name the input. An op in a custom syntax this MLIR does not
/// know (`mhlo`, a StableHLO op without a custom form here) is refused naming
/// the op and its position, with the one-line conversion to generic form.
pub fn read_module<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
) -> Result<Module<'c>, KernelError> {
    if bytes.starts_with(crate::kernel::BYTECODE_MAGIC) {
        return crate::kernel::parse_module_bytes(
            ctx,
            bytes,
            source_name,
            crate::kernel::ModuleFormat::Bytecode,
        );
    }
    if bytes.trim_ascii().is_empty() {
        return Err(KernelError::Empty {
            source_name: source_name.to_string(),
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| KernelError::NotMlir {
        source_name: source_name.to_string(),
        offset: e.valid_up_to(),
    })?;
    crate::kernel::check_nesting(bytes, source_name)?;
    let text = crate::pretty::pretty_to_generic(text).map_err(|error| match error {
        crate::pretty::PrettyError::UnknownOp { op, line, column } => KernelError::PrettyTpuOp {
            source_name: source_name.to_string(),
            op,
            line,
            column,
        },
        error => KernelError::PrettySyntax {
            source_name: source_name.to_string(),
            error,
        },
    })?;
    let source = crate::kernel::nul_terminated(text.as_bytes());
    let (module, diagnostics) = capture(ctx, || {
        // SAFETY: the context is live; `source` (NUL-terminated, as MLIR's
        // lexer needs) and the name outlive the call; MLIR copies what it
        // keeps. A null module is handled below.
        unsafe {
            let raw = tcc_parse_module_named(
                ctx.to_raw(),
                MlirStringRef {
                    data: source.as_ptr() as *const _,
                    length: source.len() - 1,
                },
                string_ref(source_name),
            );
            Module::from_option_raw(raw)
        }
    });
    match module {
        Some(module) => Ok(module),
        None => Err(explain_pretty(source_name, diagnostics)),
    }
}

/// The parse error, or [`KernelError::PrettyForeignOp`] when MLIR met an op
/// in a custom syntax it does not know: of a dialect it lacks (`mhlo`, or
/// `sdy` without its pass-through dialect), or of a registered dialect that
/// has no parser for that op (MLIR's "custom op '...' is unknown").
fn explain_pretty(source_name: &str, diagnostics: Vec<Diagnostic>) -> KernelError {
    for d in &diagnostics {
        // A dialect MLIR 22 does not have at all (`mhlo`, ...).
        if d.message.starts_with("Dialect `")
            && let Some((_, rest)) = d.message.split_once("not found for custom op '")
            && let Some((op, _)) = rest.split_once('\'')
        {
            return KernelError::PrettyForeignOp {
                source_name: source_name.to_string(),
                op: op.to_string(),
                line: d.line.unwrap_or(0),
                column: d.column.unwrap_or(0),
            };
        }
        if let Some(rest) = d.message.strip_prefix("custom op '")
            && let Some((op, _)) = rest.split_once('\'')
            && rest[op.len()..].starts_with("' is unknown")
            && op.contains('.')
        {
            return KernelError::PrettyForeignOp {
                source_name: source_name.to_string(),
                op: op.to_string(),
                line: d.line.unwrap_or(0),
                column: d.column.unwrap_or(0),
            };
        }
    }
    KernelError::Parse {
        source_name: source_name.to_string(),
        format: crate::kernel::ModuleFormat::Text,
        diagnostics,
    }
}

/// The one-line shell command that prints `input` (a module in pretty form
/// JAX's MLIR reads) in generic form, with jaxlib.
pub fn generic_conversion_command(input: &str) -> String {
    let input = if input == STDIN_NAME {
        "module.mlir"
    } else {
        input
    };
    format!(
        "python -c \"import sys; from jax._src.interpreters import mlir; from jaxlib.mlir import ir; \
         print(ir.Module.parse(open(sys.argv[1]).read(), context=mlir.make_ir_context())\
         .operation.get_asm(print_generic_op_form=True))\" {input} > module.generic.mlir"
    )
}

/// Replaces every location in `op` (and nested in it) that points into the
/// file `file` by `loc(unknown)`: what the lowering pass does to kernels read
/// from standard input ([`STDIN_NAME`]), whose line numbers mean nothing in
/// a body's debug locations.
pub fn forget_file_locations<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, file: &str) {
    // SAFETY: `op` is a valid operation; the file name outlives the call.
    unsafe { tcc_forget_file_locations(op.to_raw(), string_ref(file)) }
}
