//! Mosaic serialization, as JAX 0.12's `mosaic-serde` pass and
//! `_lower_mosaic_module_to_asm` do it (reference sections 5 and 6).
//!
//! [`serialize`] copies the kernel with every op but `builtin.module` renamed
//! `stable_mosaic.<dialect>.<op>` (inherent attributes become plain ones; the
//! copy is built in one C++ pass, `cpp/serde.cpp`), tags the module with
//! `stable_mosaic.version = N : i64`, applies the downgrade rules for versions
//! below 18, moves or strips debug locations, and writes MLIR bytecode (format
//! version 0). [`deserialize`] undoes all of it.
//!
//! The default IR version is 15 ([`DEFAULT_IR_VERSION`]): it is what JAX 0.12
//! writes whenever it lowers without a TPU backend (cross-lowering on a CPU
//! host, which is how every real golden was made) and for export / forward
//! compatibility, so it is the body every TPU runtime JAX 0.12 supports can
//! read. JAX uses 18 only when lowering on a TPU host with libtpu >= 0.0.50.

pub(crate) mod ir;
mod rules;

use melior::ir::Module;
use mlir_sys::{MlirLocation, MlirNamedAttribute, MlirType};

use melior::Context;

use crate::context::{Diagnostic, capture, join_diagnostics};
use crate::kernel::{
    BYTECODE_MAGIC, BytecodeOptions, Kernel, KernelError, parse_module, write_bytecode,
};
use ir::{Op, OpSpec};

/// Prefix of every mangled op name (`kMangledDialect`).
pub const MANGLED_PREFIX: &str = "stable_mosaic.";
/// Module attribute holding the IR version (`kVersionAttrName`), an `i64`.
pub const VERSION_ATTR: &str = "stable_mosaic.version";
/// Attribute of the `debug_locations` module holding the locations.
pub const LOCS_ATTR: &str = "tpu.locs";
/// The newest IR version JAX 0.12's `mosaic-serde` writes and reads (`kVersion`).
pub const HIGHEST_IR_VERSION: u32 = 18;
/// The oldest IR version this crate serializes to (JAX itself picks 15, 17 or 18).
pub const LOWEST_IR_VERSION: u32 = 11;
/// What JAX 0.12 uses without a TPU backend and for export (`_FWD_COMPAT_VERSION`).
pub const DEFAULT_IR_VERSION: u32 = 15;

/// Errors while serializing or deserializing a Mosaic kernel.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SerdeError {
    /// Requested IR version above 18 (JAX's message).
    #[error(
        "The highest supported version is {highest} but requested serialization at version {requested}"
    )]
    VersionTooNew {
        /// The requested version.
        requested: u32,
        /// The newest supported version (18).
        highest: u32,
    },
    /// Requested IR version below what this crate serializes to.
    #[error(
        "ir_version {requested} is below {lowest}, the oldest IR version this crate serializes to \
         (JAX 0.12 writes 15, 17 or 18): pick a version from {lowest} to 18"
    )]
    VersionTooOld {
        /// The requested version.
        requested: u32,
        /// The oldest supported version (11).
        lowest: u32,
    },
    /// The body has no integer `stable_mosaic.version` (JAX's message).
    #[error("Missing or invalid version attribute")]
    MissingVersion,
    /// The body's version is newer than 18 (JAX's message).
    #[error("Unsupported version: expected <= {highest} but got {found}")]
    UnsupportedVersion {
        /// The newest supported version (18).
        highest: u32,
        /// The version stored in the body.
        found: i64,
    },
    /// An op of the body is not mangled (JAX's message).
    #[error("Operation not in a serialized form")]
    NotSerialized {
        /// The op's name.
        op: String,
    },
    /// An upgrade or downgrade rule refused the op (JAX's message; ops
    /// reported with `emitOpError` are prefixed with `'<op>' op`).
    #[error("{}", rule_display(.op, .message, *.op_error))]
    Rule {
        /// The (mangled) op name, e.g. `stable_mosaic.tpu.scan`.
        op: String,
        /// JAX's message.
        message: String,
        /// JAX reported it with `emitOpError`.
        op_error: bool,
        /// The op's location as MLIR prints it.
        location: String,
    },
    /// The body is not MLIR bytecode.
    #[error(
        "body is not MLIR bytecode: it starts with {found:02x?}, expected the magic `ML\\xEFR` \
         (4d 4c ef 52)"
    )]
    NotBytecode {
        /// The first bytes of the input.
        found: Vec<u8>,
    },
    /// The body's bytecode envelope is broken (checked before MLIR reads it).
    #[error("body is malformed MLIR bytecode: {message}")]
    MalformedBytecode {
        /// What is wrong, with the byte offset.
        message: String,
    },
    /// The `debug_locations` blob is unusable.
    #[error("debug_locations: {message}")]
    DebugLocations {
        /// What is wrong.
        message: String,
    },
    /// An attribute of a registered op is not of the kind its property holds
    /// (malformed input: MLIR's property conversion refuses it).
    #[error(
        "op `{op}`: attribute `{attribute}` is not of the kind the op's property holds \
         (MLIR's property conversion refuses it)"
    )]
    InvalidProperty {
        /// The op name.
        op: String,
        /// The attribute's name.
        attribute: String,
    },
    /// MLIR refused to create an op (malformed input).
    #[error("cannot re-create op `{op}`: MLIR refused the operation state")]
    CreateOp {
        /// The op name.
        op: String,
    },
    /// The deserialized module does not verify.
    #[error("deserialized kernel does not verify:\n{}", join_diagnostics(.diagnostics))]
    Verify {
        /// The verifier's diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
    /// Reading or writing bytecode, or loading the kernel, failed.
    #[error(transparent)]
    Kernel(#[from] KernelError),
}

fn rule_display(op: &str, message: &str, op_error: bool) -> String {
    if op_error {
        format!("'{op}' op {message}")
    } else {
        message.to_string()
    }
}

/// Where debug locations go when serializing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DebugLocations {
    /// JAX 0.12's default when not exporting: every body location becomes
    /// `loc(unknown)` and the locations go to a separate `debug_locations`
    /// bytecode module (`tpu.locs`, pre-order).
    #[default]
    Unzip,
    /// Locations stay in the body and there is no blob (JAX under forward
    /// compatibility / export).
    Inline,
    /// No locations anywhere: the body depends only on the kernel (cache keys).
    Strip,
}

/// How to serialize a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerializeOptions {
    /// Target IR version, 11 to 18 (default [`DEFAULT_IR_VERSION`] = 15).
    pub ir_version: u32,
    /// Debug location mode (default [`DebugLocations::Unzip`]).
    pub debug_locations: DebugLocations,
    /// Bytecode writer options for the body and the blob (default: format
    /// version 0, this MLIR's producer string).
    pub bytecode: BytecodeOptions,
}

impl Default for SerializeOptions {
    fn default() -> Self {
        Self {
            ir_version: DEFAULT_IR_VERSION,
            debug_locations: DebugLocations::Unzip,
            bytecode: BytecodeOptions::version0(),
        }
    }
}

/// A serialized kernel: what goes into `custom_call_config`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Serialized {
    /// The mangled module as bytecode (`body`).
    pub body: Vec<u8>,
    /// The `debug_locations` blob (only with [`DebugLocations::Unzip`]).
    pub debug_locations: Option<Vec<u8>>,
    /// The IR version written into the body.
    pub ir_version: u32,
}

/// A serialized kernel before bytecode: the mangled module and the
/// `debug_locations` module.
pub struct SerializedModule<'c> {
    /// The mangled module (`stable_mosaic.*` ops, version attribute set).
    pub module: Module<'c>,
    /// The `tpu.locs` module (only with [`DebugLocations::Unzip`]).
    pub debug_locations: Option<Module<'c>>,
    /// The IR version written into the module.
    pub ir_version: u32,
}

impl std::fmt::Debug for SerializedModule<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SerializedModule")
            .field("ir_version", &self.ir_version)
            .field("debug_locations", &self.debug_locations.is_some())
            .finish_non_exhaustive()
    }
}

/// Serializes a kernel to its `body` (and `debug_locations`) bytes. The
/// caller's kernel is not modified.
pub fn serialize(
    kernel: &Kernel<'_>,
    options: &SerializeOptions,
) -> Result<Serialized, SerdeError> {
    let serialized = serialize_to_module(kernel, options)?;
    let body = write_bytecode(serialized.module.as_operation(), &options.bytecode)?;
    let debug_locations = match &serialized.debug_locations {
        Some(m) => Some(write_bytecode(m.as_operation(), &options.bytecode)?),
        None => None,
    };
    Ok(Serialized {
        body,
        debug_locations,
        ir_version: serialized.ir_version,
    })
}

/// Serializes a kernel to the mangled module (and the `debug_locations`
/// module), before bytecode. The caller's kernel is not modified.
pub fn serialize_to_module<'c>(
    kernel: &Kernel<'c>,
    options: &SerializeOptions,
) -> Result<SerializedModule<'c>, SerdeError> {
    let version = options.ir_version;
    if version > HIGHEST_IR_VERSION {
        return Err(SerdeError::VersionTooNew {
            requested: version,
            highest: HIGHEST_IR_VERSION,
        });
    }
    if version < LOWEST_IR_VERSION {
        return Err(SerdeError::VersionTooOld {
            requested: version,
            lowest: LOWEST_IR_VERSION,
        });
    }
    let names = if version == HIGHEST_IR_VERSION {
        &[][..]
    } else {
        rules::DOWNGRADED_OPS
    };
    let (module, ops) = ir::mangled_copy(kernel.operation(), version, names);
    for (op, index) in ops {
        rules::downgrade(names[index], op, version).map_err(|e| rule_error(op, e))?;
    }
    let top = Op::of(module.as_operation());
    let debug_locations = match options.debug_locations {
        DebugLocations::Inline => None,
        DebugLocations::Strip => {
            ir::take_locations(top, false);
            None
        }
        DebugLocations::Unzip => {
            let locs = ir::take_locations(top, true);
            let unknown = ir::unknown_loc(top.context());
            // SAFETY: a fresh empty module in the same context; the returned
            // `Module` owns it.
            let blob = unsafe { Module::from_raw(mlir_sys::mlirModuleCreateEmpty(unknown)) };
            if let Some(locs) = locs {
                Op::of(blob.as_operation()).set_attr(LOCS_ATTR, locs);
            }
            Some(blob)
        }
    };
    Ok(SerializedModule {
        module,
        debug_locations,
        ir_version: version,
    })
}

/// Property names of every unregistered op in `ops`, read before the IR is
/// changed. An unregistered op keeps its properties (`<{...}>`) as one
/// dictionary the C API cannot list, only query by name: the names are read
/// from that dictionary (`tcc_operation_get_properties`).
fn unregistered_property_names(ops: &[Op]) -> PropertyNames {
    let mut out = PropertyNames::new();
    for op in ops {
        if op.is_registered() || op.name() == "builtin.module" {
            continue;
        }
        let names = op.property_names();
        if !names.is_empty() {
            out.insert(op.0.ptr as usize, names);
        }
    }
    out
}

/// Property names by op (keyed by the op's address while it is alive).
type PropertyNames = std::collections::HashMap<usize, Vec<String>>;

/// The attributes JAX's `op->getAttrs()` gives: inherent (properties) and
/// discardable, as one list.
fn all_attributes(op: Op, properties: &PropertyNames) -> Vec<MlirNamedAttribute> {
    if op.is_registered() {
        return op.registered_attr_dictionary();
    }
    let ctx = op.context();
    let mut out: Vec<MlirNamedAttribute> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let no_names = Vec::new();
    for name in properties
        .get(&(op.0.ptr as usize))
        .unwrap_or(&no_names)
        .iter()
        .cloned()
    {
        // SAFETY: the op is live; a missing name yields a null attribute.
        let attr =
            unsafe { mlir_sys::mlirOperationGetInherentAttributeByName(op.0, ir::sref(&name)) };
        if !attr.ptr.is_null() {
            out.push(ir::named(ctx, &name, attr));
            names.push(name);
        }
    }
    for (name, attr) in op.discardable_attrs() {
        if !names.contains(&name) {
            out.push(ir::named(ctx, &name, attr));
        }
    }
    out
}

/// Re-creates `op` under `name`, with all of its attributes as plain
/// attributes, moving its regions; returns the new op (inserted after `op`,
/// `op` erased).
fn recreate<'a>(
    op: Op<'a>,
    name: &str,
    attributes: &[MlirNamedAttribute],
) -> Result<Op<'a>, SerdeError> {
    let results: Vec<MlirType> = (0..op.num_results())
        .map(|i| ir::value_type(op.result(i)))
        .collect();
    let operands = op.operands();
    let successors = op.successors();
    let regions = ir::take_regions(op);
    let new = ir::create_op(OpSpec {
        name,
        location: op.location(),
        results: &results,
        operands: &operands,
        attributes,
        successors: &successors,
        regions,
    })
    .ok_or_else(|| SerdeError::CreateOp {
        op: name.to_string(),
    })?;
    ir::insert_after(op, new);
    ir::replace_results(op, new);
    op.erase();
    Ok(new)
}

fn rule_error(op: Op, e: rules::RuleError) -> SerdeError {
    SerdeError::Rule {
        op: op.name(),
        message: e.message,
        op_error: e.op_error,
        location: location_text(op.location()),
    }
}

pub(crate) fn location_text(loc: MlirLocation) -> String {
    // SAFETY: the location is live.
    ir::attr_text(unsafe { mlir_sys::mlirLocationGetAttribute(loc) })
}

/// Visits every location slot in `tpu.private_unzip_debug_locations` order
/// and replaces each location by what `f` returns: the op, then the block
/// arguments of all its regions (every region and block in order), then the
/// nested ops (every region and block in order, each recursively). With one
/// region that is "arguments, then ops" per block; an op with several
/// regions (`scf.while`'s `before` and `after`) lists the arguments of both
/// before the ops of either, as jaxlib does. Mirrors `walkLocations` of
/// `cpp/serde.cpp` (which takes the locations out when serializing).
fn walk_locations(op: Op, f: &mut impl FnMut(MlirLocation) -> MlirLocation) {
    op.set_location(f(op.location()));
    let blocks: Vec<_> = (0..op.num_regions())
        .flat_map(|r| ir::region_blocks(op.region(r)))
        .collect();
    for &block in &blocks {
        for arg in ir::block_args(block) {
            // SAFETY: `arg` is a live block argument.
            unsafe {
                let loc = f(mlir_sys::mlirValueGetLocation(arg));
                mlir_sys::mlirBlockArgumentSetLocation(arg, loc);
            }
        }
    }
    for block in blocks {
        let mut child = ir::block_first_op(block);
        while let Some(c) = child {
            walk_locations(c, f);
            child = c.next();
        }
    }
}

/// Number of location slots (see [`walk_locations`]).
fn count_location_slots(op: Op) -> usize {
    let mut n = 1;
    for r in 0..op.num_regions() {
        for block in ir::region_blocks(op.region(r)) {
            n += ir::block_args(block).len();
            let mut child = ir::block_first_op(block);
            while let Some(c) = child {
                n += count_location_slots(c);
                child = c.next();
            }
        }
    }
    n
}

/// Deserializes a body (and its `debug_locations` blob): checks the bytecode
/// magic, reads it, undoes the mangling, upgrades to version 18, re-attaches
/// the locations and verifies.
pub fn deserialize<'c>(
    ctx: &'c Context,
    body: &[u8],
    debug_locations: Option<&[u8]>,
) -> Result<Kernel<'c>, SerdeError> {
    check_magic(body)?;
    let module = parse_module(ctx, body, "body", crate::kernel::ModuleFormat::Bytecode)?;
    deserialize_module(ctx, module, debug_locations)
}

/// Deserializes an already parsed mangled module (for example one read from
/// text), with an optional `debug_locations` blob.
pub fn deserialize_module<'c>(
    ctx: &'c Context,
    module: Module<'c>,
    debug_locations: Option<&[u8]>,
) -> Result<Kernel<'c>, SerdeError> {
    let top = Op::of(module.as_operation());
    let version = match top.attr(VERSION_ATTR).and_then(ir::as_int) {
        Some((v, _)) => v,
        None => return Err(SerdeError::MissingVersion),
    };
    if version > i64::from(HIGHEST_IR_VERSION) {
        return Err(SerdeError::UnsupportedVersion {
            highest: HIGHEST_IR_VERSION,
            found: version,
        });
    }
    // Versions below 1 are not JAX's, but its pass reads them as "older than
    // every rule": treat them like 0.
    let version = u32::try_from(version).unwrap_or(0);

    if let Some(blob) = debug_locations {
        attach_locations(ctx, top, blob)?;
    }

    let mut ops = Vec::new();
    ir::collect_post_order(top, &mut ops);
    let properties = unregistered_property_names(&ops);
    for op in ops {
        demangle(op, version, &properties)?;
    }
    let (ok, diagnostics) = capture(ctx, || crate::ffi::verify_operation(module.as_operation()));
    if !ok {
        return Err(SerdeError::Verify { diagnostics });
    }
    Ok(Kernel::from_module(ctx, module)?)
}

fn check_magic(bytes: &[u8]) -> Result<(), SerdeError> {
    if !bytes.starts_with(BYTECODE_MAGIC) {
        return Err(SerdeError::NotBytecode {
            found: bytes.iter().take(4).copied().collect(),
        });
    }
    check_envelope(bytes).map_err(|message| SerdeError::MalformedBytecode { message })
}

/// Reads an MLIR prefix varint at `*pos`.
fn read_varint(bytes: &[u8], pos: &mut usize) -> Result<u64, String> {
    let first = *bytes
        .get(*pos)
        .ok_or_else(|| format!("truncated varint at byte {pos}"))?;
    let len = if first == 0 {
        9
    } else {
        first.trailing_zeros() as usize + 1
    };
    let end = *pos + len;
    let chunk = bytes
        .get(*pos..end)
        .ok_or_else(|| format!("truncated varint at byte {pos}"))?;
    let value = if len == 9 {
        u64::from_le_bytes(chunk[1..9].try_into().unwrap_or([0; 8]))
    } else {
        let mut raw = [0u8; 8];
        raw[..len].copy_from_slice(chunk);
        u64::from_le_bytes(raw) >> len
    };
    *pos = end;
    Ok(value)
}

/// Checks the bytecode envelope before MLIR's reader sees it: header, then a
/// sequence of sections whose lengths and alignment padding exactly cover the
/// input, each section id known and present at most once, the required ones
/// present. MLIR 22's reader can loop or corrupt memory on some malformed
/// inputs; this refuses the structurally broken ones up front.
fn check_envelope(bytes: &[u8]) -> Result<(), String> {
    const NAMES: [&str; 9] = [
        "string",
        "dialect",
        "attribute/type",
        "attribute/type offset",
        "IR",
        "resource",
        "resource offset",
        "dialect versions",
        "properties",
    ];
    let mut pos = 4;
    let version = read_varint(bytes, &mut pos)?;
    if version > crate::kernel::current_bytecode_version() as u64 {
        return Err(format!(
            "bytecode format version {version} is newer than this MLIR reads ({})",
            crate::kernel::current_bytecode_version()
        ));
    }
    let nul = bytes[pos..]
        .iter()
        .position(|&b| b == 0)
        .ok_or("the producer string is not NUL-terminated")?;
    pos += nul + 1;
    let mut seen = [false; 9];
    while pos < bytes.len() {
        let header = pos;
        let id_and_aligned = bytes[pos];
        pos += 1;
        let id = usize::from(id_and_aligned & 0x7f);
        if id >= seen.len() {
            return Err(format!("unknown section id {id} at byte {header}"));
        }
        if std::mem::replace(&mut seen[id], true) {
            return Err(format!("duplicate {} section at byte {header}", NAMES[id]));
        }
        let length = read_varint(bytes, &mut pos)?;
        if id_and_aligned & 0x80 != 0 {
            let alignment = read_varint(bytes, &mut pos)?;
            if !alignment.is_power_of_two() || alignment > 4096 {
                return Err(format!(
                    "bad section alignment {alignment} at byte {header}"
                ));
            }
            while !(pos as u64).is_multiple_of(alignment) {
                if bytes.get(pos) != Some(&0xcb) {
                    return Err(format!("bad alignment padding at byte {pos}"));
                }
                pos += 1;
            }
        }
        let end = usize::try_from(length)
            .ok()
            .and_then(|l| pos.checked_add(l))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| {
                format!(
                    "the {} section at byte {header} claims {length} bytes, past the end ({} bytes)",
                    NAMES[id],
                    bytes.len()
                )
            })?;
        pos = end;
    }
    for (id, name) in NAMES.iter().enumerate().take(5) {
        if !seen[id] {
            return Err(format!("the required {name} section is missing"));
        }
    }
    Ok(())
}

/// Deserializes one op: upgrade rule, then re-creation under its real name.
fn demangle(op: Op, version: u32, properties: &PropertyNames) -> Result<(), SerdeError> {
    let name = op.name();
    if name == "builtin.module" {
        return Ok(());
    }
    let Some(base) = name.strip_prefix(MANGLED_PREFIX) else {
        return Err(SerdeError::NotSerialized { op: name });
    };
    let base = base.to_string();
    match rules::upgrade(&base, op, version).map_err(|e| rule_error(op, e))? {
        rules::Upgraded::Erased => return Ok(()),
        rules::Upgraded::Kept => {}
    }
    let attributes = all_attributes(op, properties);
    if ir::is_registered_op(op.context(), &base) {
        let new = recreate(op, &base, &[])?;
        ir::set_attributes(new, &attributes).map_err(|attribute| SerdeError::InvalidProperty {
            op: base.clone(),
            attribute,
        })?;
    } else if let Some(def) = crate::mosaic::dialect::table().op(&base) {
        // A `tpu` op gets its inherent attributes back as properties, as
        // jaxlib's registered op has them after deserialization.
        let (inherent, discardable) = ir::split_inherent(&attributes, |name| def.is_property(name));
        let new = recreate(op, &base, &discardable)?;
        if !inherent.is_empty() && !ir::set_unregistered_properties(new, &inherent) {
            return Err(SerdeError::CreateOp { op: base });
        }
    } else {
        recreate(op, &base, &attributes)?;
    }
    Ok(())
}

/// Reads a `debug_locations` blob and puts its locations back on the mangled
/// module, slot by slot.
fn attach_locations(ctx: &Context, top: Op, blob: &[u8]) -> Result<(), SerdeError> {
    let bad = |message: String| SerdeError::DebugLocations { message };
    if !blob.starts_with(BYTECODE_MAGIC) {
        return Err(bad(
            "not MLIR bytecode (no `ML\\xEFR` magic): expected the bytecode of a builtin.module \
             carrying tpu.locs"
                .to_string(),
        ));
    }
    check_envelope(blob).map_err(|m| bad(format!("malformed MLIR bytecode: {m}")))?;
    let module = parse_module(
        ctx,
        blob,
        "debug_locations",
        crate::kernel::ModuleFormat::Bytecode,
    )?;
    let Some(items) = Op::of(module.as_operation())
        .attr(LOCS_ATTR)
        .and_then(ir::as_array)
    else {
        return Err(bad(format!(
            "the module has no `{LOCS_ATTR}` array attribute: expected tpu.locs = [loc, ...]"
        )));
    };
    let mut locs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        // SAFETY: the attribute is live; its kind is checked before converting.
        unsafe {
            if !mlir_sys::mlirAttributeIsALocation(*item) {
                return Err(bad(format!(
                    "tpu.locs[{i}] = {} is not a location",
                    ir::attr_text(*item)
                )));
            }
            locs.push(mlir_sys::mlirLocationFromAttribute(*item));
        }
    }
    let slots = count_location_slots(top);
    if slots != locs.len() {
        return Err(bad(format!(
            "tpu.locs has {} locations but the body has {slots} location slots (ops, block \
             arguments): the blob belongs to another body",
            locs.len()
        )));
    }
    let mut next = locs.into_iter();
    let unknown = ir::unknown_loc(top.context());
    walk_locations(top, &mut |_| next.next().unwrap_or(unknown));
    Ok(())
}

/// Reads the `stable_mosaic.version` of a body without deserializing it.
pub fn body_ir_version(ctx: &Context, body: &[u8]) -> Result<i64, SerdeError> {
    check_magic(body)?;
    let module = parse_module(ctx, body, "body", crate::kernel::ModuleFormat::Bytecode)?;
    Op::of(module.as_operation())
        .attr(VERSION_ATTR)
        .and_then(ir::as_int)
        .map(|(v, _)| v)
        .ok_or(SerdeError::MissingVersion)
}
