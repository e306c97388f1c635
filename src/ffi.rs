//! Every foreign function of the crate, in one place: the C++ of `cpp/`
//! (declared in `cpp/tcc.h`, the same functions in the same order) and the
//! byte-collecting callback they write through. A leaf: nothing here knows
//! about kernels, configs or calls.
//!
//! The contract every caller keeps (and every `// SAFETY:` comment at a call
//! site relies on): handles (`MlirOperation`, `MlirAttribute`,
//! `MlirContext`) are live and belong to a context that outlives the call;
//! strings passed as `MlirStringRef` outlive the call; `user_data` given with
//! [`collect_chunk`] points to a live `Vec<u8>` that nothing else touches
//! during the call. The functions below state what they add to it.

use std::ffi::c_void;

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirLocation, MlirModule, MlirOperation,
    MlirPass, MlirStringCallback, MlirStringRef, MlirType,
};

unsafe extern "C" {
    // ----- cpp/passthrough.cpp -----

    /// The handle of the pass-through `tpu` dialect. No precondition.
    pub(crate) fn mlirGetDialectHandle__tcc_tpu__() -> MlirDialectHandle;
    /// The handle of the pass-through `stablehlo` dialect. No precondition.
    pub(crate) fn mlirGetDialectHandle__tcc_stablehlo__() -> MlirDialectHandle;
    /// The handle of the pass-through `sdy` (Shardy) dialect. No precondition.
    pub(crate) fn mlirGetDialectHandle__tcc_sdy__() -> MlirDialectHandle;
    /// The handle of the pass-through `chlo` (client HLO) dialect. No precondition.
    pub(crate) fn mlirGetDialectHandle__tcc_chlo__() -> MlirDialectHandle;
    /// The op's properties as one attribute, or null. `op` live.
    pub(crate) fn tcc_operation_get_properties(op: MlirOperation) -> MlirAttribute;
    /// Fills a registered op's missing default-valued properties, as MLIR's
    /// text parser does. `op` live.
    pub(crate) fn tcc_operation_populate_default_properties(op: MlirOperation);
    /// Replaces the op's properties; false if rejected. `op` live and not
    /// yet used by anything that caches its properties; `attr` of the same
    /// context.
    pub(crate) fn tcc_operation_set_properties(op: MlirOperation, attr: MlirAttribute) -> bool;
    /// Whether the op is registered. `op` live.
    pub(crate) fn tcc_operation_is_registered(op: MlirOperation) -> bool;
    /// The text after `#tpu.` of a pass-through `tpu` attribute, or a null
    /// string; the text lives as long as the context. `attr` live.
    pub(crate) fn tcc_tpu_attr_text(attr: MlirAttribute) -> MlirStringRef;
    /// The pass-through `tpu` attribute `#tpu.<text>`, as parsing it gives (a
    /// tiled layout for `tiled<...>`). `ctx` live with the `tpu` dialect
    /// loaded.
    pub(crate) fn tcc_tpu_attr_get(ctx: MlirContext, text: MlirStringRef) -> MlirAttribute;
    /// The pass-through `tpu` type `!tpu.<text>`. `ctx` live with the `tpu`
    /// dialect loaded.
    pub(crate) fn tcc_tpu_type_get(ctx: MlirContext, text: MlirStringRef) -> MlirType;
    /// A static NUL-terminated string. No precondition.
    pub(crate) fn tcc_default_producer() -> *const std::ffi::c_char;
    /// A constant. No precondition.
    pub(crate) fn tcc_current_bytecode_version() -> i64;
    /// A serial naming the live context `ctx` (0 without the `tpu` dialect).
    pub(crate) fn tcc_context_serial(ctx: MlirContext) -> u64;
    /// Prints `ty` (live) through `callback` once.
    pub(crate) fn tcc_print_type(
        ty: MlirType,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    );
    /// Prints `attr` (live) through `callback` once.
    pub(crate) fn tcc_print_attribute(
        attr: MlirAttribute,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    );

    // ----- cpp/upstream.cpp -----

    /// `#vector.kind<..>` of the combining kind numbered `kind` (MLIR's
    /// `vector::CombiningKind`); null for an unknown number. The vector
    /// dialect must be loaded in `ctx`.
    pub(crate) fn tcc_vector_combining_kind_get(ctx: MlirContext, kind: u32) -> MlirAttribute;

    // ----- cpp/interop.cpp -----

    /// A detached copy of `op` (live, only read) whose unregistered ops carry
    /// their properties as discardable attributes, owned by the caller; null
    /// when no op has properties, or (with `*conflict_op` set to the op) when
    /// an op's properties cannot be moved. `conflict_op` writable.
    pub(crate) fn tcc_properties_as_attributes(
        op: MlirOperation,
        conflict_op: *mut MlirOperation,
    ) -> MlirOperation;
    /// Parses MLIR text into a module owned by the caller, naming the buffer
    /// `name` in locations; null on failure (diagnostics to `ctx`'s
    /// handlers). `source` followed by a NUL byte in memory.
    pub(crate) fn tcc_parse_module_named(
        ctx: MlirContext,
        source: MlirStringRef,
        name: MlirStringRef,
    ) -> MlirModule;
    /// `mlirModuleCreateParse` (text or bytecode, `source` followed by a NUL
    /// byte in memory) verified with the op-signature memo of
    /// `cpp/verify.cpp`: MLIR's verdict and diagnostics; null on failure.
    pub(crate) fn tcc_parse_module(ctx: MlirContext, source: MlirStringRef) -> MlirModule;
    /// `mlirOperationVerify` of `op` (live) with the op-signature memo of
    /// `cpp/verify.cpp`: MLIR's verdict and diagnostics.
    pub(crate) fn tcc_operation_verify(op: MlirOperation) -> bool;
    /// A hash of `op`'s (live) name, attribute dictionary, properties,
    /// operand and result types and parent op.
    pub(crate) fn tcc_op_signature_hash(op: MlirOperation) -> u64;
    /// Whether `a` and `b` (live) agree in all that `tcc_op_signature_hash`
    /// hashes.
    pub(crate) fn tcc_op_same_signature(a: MlirOperation, b: MlirOperation) -> bool;
    /// Whether `value` (live) is an `arith.constant` integer or index of at
    /// most 64 bits; its value (sign-extended) in `*out`.
    pub(crate) fn tcc_value_int_constant(value: mlir_sys::MlirValue, out: *mut i64) -> bool;
    /// Every op of `root` (live; itself first) in pre-order, as one array of
    /// `count` `serde::ir::RawEntry` handed to `done` (valid during the call).
    pub(crate) fn tcc_op_index(
        root: MlirOperation,
        done: unsafe extern "C" fn(*const c_void, usize, *mut c_void),
        user: *mut c_void,
    );
    /// Replaces every file location of `file` in `op` (live, mutated) and
    /// everything nested in it by `loc(unknown)`.
    pub(crate) fn tcc_forget_file_locations(op: MlirOperation, file: MlirStringRef);
    /// Whether `ctx` (live) reads the dialect `ns`'s own bytecode encoding.
    pub(crate) fn tcc_dialect_reads_bytecode(ctx: MlirContext, ns: MlirStringRef) -> bool;

    // ----- cpp/serde.cpp -----

    /// The mangled copy of `kernel` (a live `builtin.module`, only read),
    /// detached and owned by the caller; `found` is called with each copied
    /// op named in `rule_names` (which outlive the call).
    pub(crate) fn tcc_serde_mangle(
        kernel: MlirOperation,
        version: i64,
        rule_names: *const MlirStringRef,
        num_rule_names: isize,
        found: unsafe extern "C" fn(MlirOperation, isize, *mut c_void),
        user_data: *mut c_void,
    ) -> MlirOperation;
    /// Replaces every location of `module` (live, owned by the caller) by
    /// `loc(unknown)`; with `collect`, the old ones as an array attribute.
    pub(crate) fn tcc_serde_take_locations(module: MlirOperation, collect: bool) -> MlirAttribute;
    /// Prints `op` (live) through `callback` once.
    pub(crate) fn tcc_print_operation(
        op: MlirOperation,
        generic: bool,
        debug_info: bool,
        assume_verified: bool,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    );
    /// Writes `op` (live) as bytecode through `callback` once; false when the
    /// writer refuses, its diagnostics emitted to the context's handlers.
    pub(crate) fn tcc_write_bytecode(
        op: MlirOperation,
        producer: MlirStringRef,
        version: i64,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    ) -> bool;

    // ----- cpp/passes.cpp -----

    /// Registers the crate's passes (`tpu-custom-call-lower`, `-verify`,
    /// `tcc-bufferize-vectors`) with MLIR's global registry. Once per process.
    pub(crate) fn tcc_register_passes();
    /// A new lower pass, owned by the caller.
    pub(crate) fn tcc_create_lower_pass() -> MlirPass;
    /// A new verify pass, owned by the caller.
    pub(crate) fn tcc_create_verify_pass() -> MlirPass;
    /// Emits `message` as a warning diagnostic at `location` (live).
    pub(crate) fn tcc_emit_warning(location: MlirLocation, message: MlirStringRef);

    // ----- cpp/vecloops.cpp -----

    /// A new `tcc-bufferize-vectors` pass, owned by the caller (for a pass
    /// manager, which takes it). Used by the compiled engine's pipeline.
    #[allow(dead_code)]
    pub(crate) fn tcc_create_bufferize_vectors_pass() -> MlirPass;
    /// Runs `tcc-bufferize-vectors` on `module` (a live `builtin.module`
    /// operation, not used by another thread during the call): rewrites its
    /// functions in place so that no vector value is wider than 64 bytes.
    /// False when an op cannot be rewritten (an error diagnostic is emitted on
    /// it through the context's handlers); the module is then partly rewritten
    /// and the caller must drop it (the engine falls back to the interpreter).
    #[cfg_attr(not(feature = "exec"), allow(dead_code))]
    pub(crate) fn tcc_jit_bufferize_vectors(module: MlirOperation) -> bool;

    // ----- cpp/mathapprox.cpp -----

    /// Runs `tcc-approximate-math` on `module` (a live `builtin.module`, not
    /// used by another thread during the call): f32 `math.exp`/`log`/`tanh`/
    /// `erf` become MLIR's polynomial approximations. False on failure (an
    /// error diagnostic through the context's handlers).
    #[cfg_attr(not(feature = "exec"), allow(dead_code))]
    pub(crate) fn tcc_jit_approximate_math(module: MlirOperation) -> bool;
}

/// One entry of the `tpu` op table as C++ reads it (`TccTpuOpDef` of
/// `cpp/tcc.h`; the fields of `OpDef` in src/pretty/ops.rs), from
/// `tcc_rust_tpu_op_table` (src/pretty/ops.rs).
#[repr(C)]
pub(crate) struct TpuOpDef {
    pub name: MlirStringRef,
    pub operands: MlirStringRef,
    pub results: MlirStringRef,
    pub attrs: MlirStringRef,
    pub implied: MlirStringRef,
    pub format: MlirStringRef,
    pub segments: bool,
}

/// The options of `tpu-custom-call-lower` as the C++ pass hands them over
/// (`TccLowerPassOptions` of `cpp/tcc.h`): each value separately, never as
/// text to parse, so no value can inject another option. Empty strings and
/// `ir_version` = [`IR_VERSION_NOT_GIVEN`] mean "not given".
/// `ir_version` of [`LowerPassOptions`] when the option was not given
/// (`INT32_MIN`, the C++ option's initial value).
pub(crate) const IR_VERSION_NOT_GIVEN: i64 = i32::MIN as i64;

#[repr(C)]
pub(crate) struct LowerPassOptions {
    pub ir_version: i64,
    pub debug_locations: MlirStringRef,
    pub target: MlirStringRef,
    pub producer: MlirStringRef,
    pub jax_rules_only: bool,
    pub libtpu_version: MlirStringRef,
}

/// The options of `tpu-custom-call-verify` as the C++ pass hands them over
/// (`TccVerifyPassOptions` of `cpp/tcc.h`): `target` empty means none.
#[repr(C)]
pub(crate) struct VerifyPassOptions {
    pub target: MlirStringRef,
    pub compile: bool,
    pub jax_rules_only: bool,
}

/// Appends a chunk handed over by the C++ side to the `Vec<u8>` in
/// `user_data`: the one byte-collecting callback of the crate.
///
/// # Safety
/// `user_data` is a live `Vec<u8>` owned by the caller of the C++ function
/// and touched by nothing else during the call; `chunk` is valid for the
/// duration of the callback.
pub(crate) unsafe extern "C" fn collect_chunk(chunk: MlirStringRef, user_data: *mut c_void) {
    // SAFETY: the function's contract.
    unsafe {
        let out = &mut *(user_data as *mut Vec<u8>);
        out.extend_from_slice(bytes(chunk));
    }
}

/// Runs `f` with [`collect_chunk`] and a fresh buffer; returns `f`'s result
/// and the bytes collected.
pub(crate) fn collect_bytes<T>(
    f: impl FnOnce(MlirStringCallback, *mut c_void) -> T,
) -> (T, Vec<u8>) {
    let mut bytes: Vec<u8> = Vec::new();
    let result = f(
        Some(collect_chunk),
        &mut bytes as *mut Vec<u8> as *mut c_void,
    );
    (result, bytes)
}

/// A borrowed string reference for the C API (valid while `s` is).
pub(crate) fn sref(s: &str) -> MlirStringRef {
    MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    }
}

/// The one place foreign memory (MLIR's, libtpu's) becomes a Rust slice:
/// `len` elements at `data`, empty for a null pointer or a zero length.
///
/// MLIR hands back an empty `StringRef` with a null data pointer (an empty
/// `StringAttr`, `backend_config = ""`), and `std::slice::from_raw_parts`
/// requires a non-null, aligned pointer even for zero elements: calling it
/// directly there is undefined behaviour. Nothing else in the crate calls
/// `from_raw_parts` on foreign memory.
///
/// # Safety
/// Unless `data` is null or `len` is 0, `data` points to `len` initialized,
/// aligned elements that stay valid and unchanged for `'a`.
pub(crate) unsafe fn foreign_slice<'a, T>(data: *const T, len: usize) -> &'a [T] {
    if data.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: the function's contract; null and empty are handled above.
    unsafe { std::slice::from_raw_parts(data, len) }
}

/// The bytes of an `MlirStringRef` (empty for a null one or a zero length).
///
/// # Safety
/// `s` points to `length` valid bytes for `'a` (or is null).
pub(crate) unsafe fn bytes<'a>(s: MlirStringRef) -> &'a [u8] {
    // SAFETY: the function's contract.
    unsafe { foreign_slice(s.data as *const u8, s.length) }
}

/// The bytes of a melior string reference. Use this, not melior's
/// `StringRef::as_str`, on any string MLIR hands back: that one is undefined
/// behaviour on a null pointer and panics on an empty string.
pub(crate) fn string_ref_bytes<'a>(s: melior::StringRef<'a>) -> &'a [u8] {
    // SAFETY: a melior `StringRef<'a>` is valid for `'a` by construction.
    unsafe { bytes(s.to_raw()) }
}

/// An identifier's text (an op or attribute name), `""` if not UTF-8.
pub(crate) fn identifier_str<'a>(id: &'a melior::ir::Identifier<'_>) -> &'a str {
    std::str::from_utf8(string_ref_bytes(id.as_string_ref())).unwrap_or("")
}

/// An identifier's text as an owned string, invalid UTF-8 replaced (for
/// messages).
pub(crate) fn identifier_string(id: &melior::ir::Identifier<'_>) -> String {
    String::from_utf8_lossy(string_ref_bytes(id.as_string_ref())).into_owned()
}

/// A copy of an `MlirStringRef`'s bytes as text, invalid UTF-8 replaced.
///
/// # Safety
/// As for [`bytes`], for the duration of the call.
pub(crate) unsafe fn lossy_string(s: MlirStringRef) -> String {
    // SAFETY: the function's contract.
    String::from_utf8_lossy(unsafe { bytes(s) }).into_owned()
}

/// `ty` as MLIR text (what melior's `Display` prints), through the context's
/// shared printer state and one buffer: several times cheaper than `Display`,
/// which builds a printer state per call and receives the text piecewise.
pub(crate) fn type_text(ty: MlirType) -> String {
    // SAFETY: `ty` is a live type (every `MlirType` the crate holds is); the
    // collecting buffer is `collect_bytes`'s own.
    let ((), bytes) = collect_bytes(|cb, data| unsafe { tcc_print_type(ty, cb, data) });
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `attr` as MLIR text (what melior's `Display` prints); see [`type_text`].
pub(crate) fn attr_text(attr: MlirAttribute) -> String {
    // SAFETY: as for `type_text`.
    let ((), bytes) = collect_bytes(|cb, data| unsafe { tcc_print_attribute(attr, cb, data) });
    String::from_utf8_lossy(&bytes).into_owned()
}

/// MLIR's verifier (`Operation::verify`) with the checks of an op repeated
/// with the same name, attributes, properties and types done once
/// (`cpp/verify.cpp`): MLIR's verdict and, on failure, MLIR's diagnostics.
pub(crate) fn verify_operation(op: melior::ir::operation::OperationRef<'_, '_>) -> bool {
    // SAFETY: `op` is a live operation; verifying only reads it.
    unsafe { tcc_operation_verify(op.to_raw()) }
}

/// One entry of `tcc_op_index` (`TccOpIndexEntry` in cpp/verify.cpp).
#[repr(C)]
#[derive(Clone, Copy)]
struct RawEntry {
    op: *mut c_void,
    name: *const c_void,
    end: u32,
    post: u32,
}

/// Every op of a module, listed once by one walk in C++: in pre-order (the
/// root first) and in post-order, each with its name. The checks that look
/// at every op of a kernel (the contract, libtpu's rules, the analysis)
/// filter by name here instead of each walking the module and touching every
/// op again: at 100k ops those walks were memory-bound (each op's first
/// touch a cache miss). Its safe accessors are in `serde::ir`.
///
/// Valid while the module lives and its ops are neither added, moved nor
/// erased: built for one read-only pass (see `Kernel::op_index`).
pub(crate) struct OpIndex {
    entries: Vec<RawEntry>,
    /// Pre-order positions in post-order.
    post: Vec<u32>,
    /// Per entry, its name's position in `names`.
    name_of: Vec<u32>,
    /// The distinct names.
    names: Vec<String>,
}

impl OpIndex {
    /// Lists `root` and every op nested in it.
    pub(crate) fn build(root: melior::ir::OperationRef<'_, '_>) -> Self {
        unsafe extern "C" fn done(entries: *const c_void, count: usize, user: *mut c_void) {
            // SAFETY: `user` is the `Vec` below; `entries` points to `count`
            // entries for the duration of this call.
            let out = unsafe { &mut *(user as *mut Vec<RawEntry>) };
            out.extend_from_slice(unsafe { foreign_slice(entries as *const RawEntry, count) });
        }
        let mut entries: Vec<RawEntry> = Vec::new();
        // SAFETY: `root` is a live operation, only read; `done` only copies
        // the entries.
        unsafe {
            tcc_op_index(
                root.to_raw(),
                done,
                &mut entries as *mut Vec<RawEntry> as *mut c_void,
            )
        };
        let mut post = vec![0u32; entries.len()];
        let mut name_of = Vec::with_capacity(entries.len());
        // (identifier address, position in `names`): few distinct names, a
        // direct-mapped cache in front of a linear search.
        let mut known: Vec<(usize, u32)> = Vec::new();
        let mut cache = [(0usize, 0u32); 64];
        let mut names = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            post[e.post as usize] = i as u32;
            let key = e.name as usize;
            let slot = &mut cache[(key >> 4) & 63];
            if slot.0 != key {
                let found = known.iter().find(|k| k.0 == key).map(|k| k.1);
                let position = found.unwrap_or_else(|| {
                    // SAFETY: the name is an identifier owned by the context.
                    names.push(unsafe {
                        lossy_string(mlir_sys::mlirIdentifierStr(mlir_sys::MlirIdentifier {
                            ptr: e.name,
                        }))
                    });
                    known.push((key, names.len() as u32 - 1));
                    names.len() as u32 - 1
                });
                *slot = (key, position);
            }
            name_of.push(slot.1);
        }
        OpIndex {
            entries,
            post,
            name_of,
            names,
        }
    }

    /// How many ops the index lists (the root included).
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The pre-order position just past the last op nested in the op at `at`.
    pub(crate) fn end(&self, at: usize) -> usize {
        self.entries[at].end as usize
    }

    /// The op at pre-order position `i` and its name.
    pub(crate) fn raw(&self, i: usize) -> (MlirOperation, &str) {
        (
            MlirOperation {
                ptr: self.entries[i].op,
            },
            &self.names[self.name_of[i] as usize],
        )
    }

    /// The pre-order positions of the ops nested in the op at `at` (not
    /// that op), in post-order.
    pub(crate) fn post_order_within(&self, at: usize) -> &[u32] {
        let e = self.entries[at];
        let descendants = e.end as usize - at - 1;
        let last = e.post as usize;
        &self.post[last - descendants..last]
    }

    /// The pre-order position of the op `op`, if it is in the index.
    pub(crate) fn position(&self, op: MlirOperation) -> Option<usize> {
        self.entries.iter().position(|e| e.op == op.ptr)
    }
}

/// Sets an attribute of `op` by name, inherent (a property) or discardable,
/// as `Operation::setAttr` does.
pub(crate) fn set_attribute_by_name(
    op: melior::ir::OperationRef<'_, '_>,
    name: &str,
    attr: melior::ir::Attribute<'_>,
) {
    use melior::ir::AttributeLike as _;
    let key = melior::StringRef::new(name);
    // SAFETY: `op` is a live op (the reference borrows its module) and
    // `attr` a live attribute; MLIR copies the name.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), key.to_raw(), attr.to_raw()) }
}
