//! Verifies a Mosaic kernel module as jaxlib 0.12 does when it parses one:
//! unknown `tpu` ops, property conversion and enum values (jaxlib's parse
//! errors), then per op the ODS checks (region/result/operand counts,
//! `operandSegmentSizes`, required attributes, attribute constraints, type
//! constraints, traits), the hand-written verifiers, core-type rules and
//! memory-space ownership. Messages are jaxlib's, verbatim; where jaxlib
//! stops at the first error of a function, every error found is reported.
//!
//! [`verify_module`] also materialises the default-valued properties jaxlib
//! fills in (`add = false`, `priority = 0 : i32`, ...) so that the module is
//! what jaxlib makes of the text.

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{
    Attribute, AttributeLike, Module, OperationRef, RegionLike, Type, TypeLike, ValueLike,
};

use super::dialect::{AttrDef, AttrKind, OpDef, Table, ValueKind, table};
use super::types::{Space, Ty};
use super::verifiers;
use crate::ffi::tcc_operation_get_properties;

/// One problem jaxlib reports for a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifyError {
    /// Where: `file:line:col` of the op's location when it has one, else the
    /// location as MLIR prints it.
    pub location: String,
    /// The op (`tpu.vector_store`).
    pub op: String,
    /// jaxlib's message, verbatim (with its `'tpu.X' op ` prefix when jaxlib
    /// has one).
    pub message: String,
    /// Our own line saying what to change, when jaxlib's text alone does not.
    pub hint: Option<String>,
    /// jaxlib reports it while parsing (before any verification), so it is
    /// the first (and only) message jaxlib gives.
    pub at_parse: bool,
    /// The attribute whose body does not parse (jaxlib's parser points at
    /// the body, not at the op): its name, for errors about one attribute.
    pub attribute: Option<String>,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.location, self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// The errors, one per line (hints indented below their error).
pub fn join_errors(errors: &[VerifyError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Verifies every op of `module` (and fills in jaxlib's default-valued
/// properties). Errors come in jaxlib's order: parse-time errors first, then
/// verification errors in walk order; `errors[0]` is what jaxlib reports first.
pub fn verify_module<'c>(module: &mut Module<'c>) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier::new(table(), module.as_operation());
    v.visit(module.as_operation());
    if v.errors.is_empty() {
        materialise_defaults(module, &mut v);
    }
    v.verdict()
}

/// Verifies without changing anything.
pub fn verify_operation(op: OperationRef<'_, '_>) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier::new(table(), op);
    v.visit(op);
    v.verdict()
}

fn materialise_defaults<'c>(module: &mut Module<'c>, v: &mut Verifier) {
    let ctx_ref: melior::ContextRef<'c> = module.context();
    // SAFETY: the context is the module's own, alive for this whole call.
    let ctx = unsafe { ctx_ref.to_ref() };
    fill(module.as_operation(), v, ctx);
}

fn fill(op: OperationRef<'_, '_>, v: &mut Verifier, ctx: &melior::Context) {
    if let OpKind::Tpu(def) = v.kind_of(op) {
        // An op whose inherent attributes are all plain attributes (a
        // deserialized body) gets its defaults the same way, so that one op
        // does not mix both forms.
        let mut plain = None;
        for a in &def.attributes {
            let Some(default) = &a.default else { continue };
            if op.attribute(&a.name).is_ok() {
                continue;
            }
            let plain =
                *plain.get_or_insert_with(|| props_text(op) == "{}" && op.attribute_count() > 0);
            let Some(attr) = Attribute::parse(ctx, default) else {
                continue;
            };
            let key = mlir_sys::MlirStringRef {
                data: a.name.as_ptr().cast(),
                length: a.name.len(),
            };
            // SAFETY: `op` is a live operation of the module being verified,
            // `key` borrows `a.name` for the call and `attr` belongs to the
            // same context.
            unsafe {
                if plain {
                    mlir_sys::mlirOperationSetDiscardableAttributeByName(
                        op.to_raw(),
                        key,
                        attr.to_raw(),
                    );
                } else {
                    mlir_sys::mlirOperationSetInherentAttributeByName(
                        op.to_raw(),
                        key,
                        attr.to_raw(),
                    );
                }
            }
        }
    }
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(o) = inner {
                fill(o, v, ctx);
                inner = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// A multiply-rotate hasher for the pointer-keyed caches (SipHash cost a
/// quarter of the verifier's time).
#[derive(Default, Clone, Copy)]
pub(crate) struct PtrHasher(u64);

impl std::hash::Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

pub(crate) type PtrMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<PtrHasher>>;

/// A `tpu.core_type` value.
pub(crate) type CoreType = &'static str;

pub(crate) struct Verifier {
    pub(crate) table: &'static Table,
    pub(crate) errors: Vec<VerifyError>,
    /// Types whose memory space was checked in this run (per run: a second
    /// kernel with the same bad type gets its error too).
    spaces_checked: PtrMap<usize, ()>,
    /// `tpu` ops without regions that passed in this run, by signature hash
    /// ([`Self::check_op_once`]).
    passed: PtrMap<u64, Vec<mlir_sys::MlirOperation>>,
    /// The operand group sizes `check_ods` computed for the current op.
    segments: Vec<usize>,
    /// Pure functions of uniqued types, attributes and names.
    memo: Memo,
    /// The serial of the context verified (the memo is kept for it on drop).
    serial: u64,
}

impl Drop for Verifier {
    fn drop(&mut self) {
        std::mem::take(&mut self.memo).keep(self.serial);
    }
}

/// What the verifier derives from uniqued types, attributes and op names
/// alone (their text, parsed forms, constraint verdicts): the same in every
/// kernel of a context, so kept across runs while the context lives.
#[derive(Default)]
struct Memo {
    types: PtrMap<usize, Rc<Ty>>,
    attr_text: PtrMap<usize, Rc<str>>,
    /// (constraint summary address, type) -> satisfied.
    satisfied: PtrMap<(usize, usize), Option<bool>>,
    arrays: PtrMap<usize, Rc<[i64]>>,
    /// What each op name (by its uniqued identifier) is to the verifier.
    kinds: PtrMap<usize, OpKind>,
    /// jaxlib's parse error for an attribute's `#tpu.` body, if any.
    bodies: PtrMap<usize, Option<Rc<str>>>,
}

thread_local! {
    /// The last context's memo on this thread, with that context's serial.
    static MEMO: std::cell::RefCell<Option<(u64, Memo)>> = const { std::cell::RefCell::new(None) };
}

impl Memo {
    /// The memo kept for the context numbered `serial` (a fresh one for
    /// another context, or without a serial). Keys are the context's own
    /// uniqued pointers, valid while it lives; serials are never reused, so a
    /// memo is never read for a context other than its own.
    fn take(serial: u64) -> Memo {
        if serial == 0 {
            return Memo::default();
        }
        MEMO.with(|m| match m.borrow_mut().take() {
            Some((s, memo)) if s == serial => memo,
            _ => Memo::default(),
        })
    }

    /// Keeps this memo for the context numbered `serial` (replacing the one
    /// of any other context: one context's worth is kept per thread).
    fn keep(self, serial: u64) {
        if serial != 0 {
            MEMO.with(|m| *m.borrow_mut() = Some((serial, self)));
        }
    }
}

/// The serial of `op`'s context (see `tcc_context_serial`).
fn context_serial(op: OperationRef<'_, '_>) -> u64 {
    // SAFETY: `op` is live, so is its context.
    unsafe { crate::ffi::tcc_context_serial(mlir_sys::mlirOperationGetContext(op.to_raw())) }
}

/// What an op name is to the verifier: looked up once per name and run.
#[derive(Clone, Copy)]
enum OpKind {
    /// Not a `tpu` op.
    Other,
    /// A `tpu` op jaxlib does not have.
    UnknownTpu,
    /// A `tpu` op of the table.
    Tpu(&'static OpDef),
    /// A name MLIR's text parser refuses (a NUL character, or not UTF-8),
    /// which only bytecode can carry: the kernel could not be printed and
    /// read back.
    Unprintable,
}

/// What the hand-written verifiers see of one op.
pub(crate) struct OpView<'v, 'c, 'a> {
    pub(crate) op: OperationRef<'c, 'a>,
    pub(crate) def: &'static OpDef,
    pub(crate) name: &'static str,
    /// Operand types, flat.
    pub(crate) flat: Vec<Rc<Ty>>,
    /// Start and size of each operand definition's group.
    pub(crate) segments: Vec<(usize, usize)>,
    /// Result types grouped by definition.
    pub(crate) results: Vec<Vec<Rc<Ty>>>,
    pub(crate) v: &'v mut Verifier,
}

impl OpView<'_, '_, '_> {
    /// The operand named `name` as jaxlib's accessor reads it: for a single
    /// operand, the value at its group's start whatever the group's size
    /// (so a wrong `operandSegmentSizes` shifts it, as in jaxlib); for an
    /// optional one, that value when the group is not empty.
    pub(crate) fn operand(&self, name: &str) -> Option<Rc<Ty>> {
        let i = self.def.operand_index(name)?;
        let (start, size) = *self.segments.get(i)?;
        if self.def.operands[i].kind != ValueKind::Single && size == 0 {
            return None;
        }
        self.flat.get(start).cloned()
    }

    /// All operands of the group named `name`.
    pub(crate) fn group(&self, name: &str) -> Vec<Rc<Ty>> {
        let Some(i) = self.def.operand_index(name) else {
            return Vec::new();
        };
        let Some(&(start, size)) = self.segments.get(i) else {
            return Vec::new();
        };
        self.flat.iter().skip(start).take(size).cloned().collect()
    }

    /// The result `i` (flat).
    pub(crate) fn result(&self, i: usize) -> Option<Rc<Ty>> {
        self.results.iter().flatten().nth(i).cloned()
    }

    /// Attribute text (inherent or discardable), `None` if absent.
    pub(crate) fn attr(&mut self, name: &str) -> Option<Rc<str>> {
        let attr = self.op.attribute(name).ok()?;
        Some(self.v.text_of(attr))
    }

    /// A boolean attribute (absent = its default, false).
    pub(crate) fn flag(&mut self, name: &str) -> bool {
        self.attr(name).is_some_and(|t| &*t == "true")
    }

    /// An integer attribute's value.
    pub(crate) fn int(&mut self, name: &str) -> Option<i64> {
        let t = self.attr(name)?;
        parse_int(&t)
    }

    /// A dense array attribute's values (`array<i32: 1, 2>`).
    pub(crate) fn array(&mut self, name: &str) -> Option<Rc<[i64]>> {
        let attr = self.op.attribute(name).ok()?;
        Some(self.v.array_of(attr))
    }

    /// The inner text of a `#tpu.<mnemonic><...>` attribute, trimmed, a quoted
    /// enum value unquoted.
    pub(crate) fn tpu_attr(&mut self, name: &str) -> Option<String> {
        let t = self.attr(name)?;
        let start = t.find('<')?;
        let body = t.get(start + 1..t.len().saturating_sub(1))?.trim();
        // An enum value may be written as a string (`<"max">`); jaxlib reads
        // it as the keyword. (The body parsed before the verifiers run, so a
        // quoted value here has no escapes that matter.)
        let body = body
            .strip_prefix('"')
            .and_then(|b| b.strip_suffix('"'))
            .unwrap_or(body);
        Some(body.to_string())
    }

    /// The core type of the nearest ancestor with `tpu.core_type`
    /// (`main` counts as tc); `None` without any.
    pub(crate) fn core_type(&mut self) -> Option<CoreType> {
        core_type_of(self.op, self.v)
    }

    /// Reports `message` with the `'tpu.X' op ` prefix.
    pub(crate) fn op_error(&mut self, message: impl Into<String>) {
        let m = format!("'{}' op {}", self.name, message.into());
        self.v.error(self.op, m, None, false);
    }

    /// Reports `message` without a prefix (jaxlib's plain `emitError`).
    pub(crate) fn plain_error(&mut self, message: impl Into<String>) {
        self.v.error(self.op, message.into(), None, false);
    }
}

pub(crate) fn parse_int(t: &str) -> Option<i64> {
    match t {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    let n = t.split(" : ").next()?.trim();
    n.parse().ok()
}

pub(crate) fn parse_array(t: &str) -> Vec<i64> {
    let inner = t
        .strip_prefix("array<")
        .and_then(|x| x.strip_suffix('>'))
        .unwrap_or("");
    match inner.split_once(':') {
        Some((_, vals)) => vals
            .split(',')
            .filter_map(|x| match x.trim() {
                "true" => Some(1),
                "false" => Some(0),
                x => x.parse().ok(),
            })
            .collect(),
        None => Vec::new(),
    }
}

fn core_type_of(op: OperationRef<'_, '_>, v: &mut Verifier) -> Option<CoreType> {
    let mut cur = op.parent_operation();
    while let Some(p) = cur {
        if let Ok(attr) = p.discardable_attribute("tpu.core_type") {
            let t = v.text_of(attr);
            match &*t {
                "#tpu.core_type<tc>" => return Some("tc"),
                "#tpu.core_type<sc_scalar_subcore>" => return Some("sc_scalar_subcore"),
                "#tpu.core_type<sc_vector_subcore>" => return Some("sc_vector_subcore"),
                _ => {}
            }
        }
        if crate::ffi::identifier_str(&p.name()) == "func.func"
            && let Ok(sym) = p.attribute("sym_name")
            && v.text_of(sym).as_ref() == "\"main\""
        {
            return Some("tc");
        }
        cur = p.parent_operation();
    }
    None
}

/// `file:line:col` of the first file position inside a location.
fn location_text(op: OperationRef<'_, '_>) -> String {
    let loc = op.location().to_string();
    // loc("file":3:5 ...) / loc(callsite("f"("file":3:5) at ...)).
    let bytes = loc.as_bytes();
    let mut i = 0;
    while let Some(q) = loc[i..].find('"') {
        let start = i + q + 1;
        let Some(len) = loc[start..].find('"') else {
            break;
        };
        let end = start + len;
        let rest = &loc[end + 1..];
        if let Some(r) = rest.strip_prefix(':') {
            let digits: String = r
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ':')
                .collect();
            let mut parts = digits.split(':');
            if let (Some(l), Some(c)) = (parts.next(), parts.next())
                && !l.is_empty()
                && !c.is_empty()
            {
                return format!("{}:{l}:{c}", &loc[start..end]);
            }
        }
        i = end + 1;
        if i >= bytes.len() {
            break;
        }
    }
    loc
}

impl Verifier {
    /// A verifier for ops of `op`'s context, with what was memoized for it.
    fn new(table: &'static Table, op: OperationRef<'_, '_>) -> Self {
        let serial = context_serial(op);
        Verifier {
            serial,
            table,
            errors: Vec::new(),
            spaces_checked: PtrMap::default(),
            passed: PtrMap::default(),
            segments: Vec::new(),
            memo: Memo::take(serial),
        }
    }

    /// The errors found, parse-time errors first (jaxlib's order), if any.
    fn verdict(mut self) -> Result<(), Vec<VerifyError>> {
        if self.errors.is_empty() {
            return Ok(());
        }
        let mut errors = std::mem::take(&mut self.errors);
        errors.sort_by_key(|e| !e.at_parse);
        Err(errors)
    }

    /// What `op`'s name is (memoized per uniqued name: no string work per op).
    fn kind_of(&mut self, op: OperationRef<'_, '_>) -> OpKind {
        let ident = op.name();
        let key = ident.to_raw().ptr as usize;
        if let Some(kind) = self.memo.kinds.get(&key) {
            return *kind;
        }
        // (Not `StringRef::as_str`, which drops a trailing NUL.)
        let bytes = crate::ffi::string_ref_bytes(ident.as_string_ref());
        let kind = match std::str::from_utf8(bytes) {
            Ok(name) if name.contains('\0') => OpKind::Unprintable,
            Err(_) => OpKind::Unprintable,
            Ok(name) if name.starts_with("tpu.") => {
                self.table.op(name).map_or(OpKind::UnknownTpu, OpKind::Tpu)
            }
            Ok(_) => OpKind::Other,
        };
        self.memo.kinds.insert(key, kind);
        kind
    }

    pub(crate) fn error(
        &mut self,
        op: OperationRef<'_, '_>,
        message: String,
        hint: Option<String>,
        at_parse: bool,
    ) {
        let name = op.name();
        self.errors.push(VerifyError {
            location: location_text(op),
            op: crate::ffi::identifier_str(&name).to_string(),
            message,
            hint,
            at_parse,
            attribute: None,
        });
    }

    /// A dense array attribute's values, parsed once per attribute.
    pub(crate) fn array_of(&mut self, attr: Attribute<'_>) -> Rc<[i64]> {
        let key = attr.to_raw().ptr as usize;
        if let Some(a) = self.memo.arrays.get(&key) {
            return a.clone();
        }
        let a: Rc<[i64]> = parse_array(&self.text_of(attr)).into();
        self.memo.arrays.insert(key, a.clone());
        a
    }

    pub(crate) fn text_of(&mut self, attr: Attribute<'_>) -> Rc<str> {
        let key = attr.to_raw().ptr as usize;
        if let Some(t) = self.memo.attr_text.get(&key) {
            return t.clone();
        }
        let t: Rc<str> = crate::ffi::attr_text(attr.to_raw()).into();
        self.memo.attr_text.insert(key, t.clone());
        t
    }

    /// [`tpu_body_error`] of `attr`'s text, memoized per attribute.
    fn body_error(&mut self, attr: Attribute<'_>) -> Option<Rc<str>> {
        let key = attr.to_raw().ptr as usize;
        if let Some(e) = self.memo.bodies.get(&key) {
            return e.clone();
        }
        let text = self.text_of(attr);
        let e: Option<Rc<str>> = tpu_body_error(self.table, &text).map(Into::into);
        self.memo.bodies.insert(key, e.clone());
        e
    }

    /// Whether `t` satisfies the constraint of `d`, memoized per type.
    fn satisfies(&mut self, d: &'static super::dialect::ValueDef, t: Type<'_>) -> Option<bool> {
        let summary = d.constraint.as_deref()?;
        let key = (summary.as_ptr() as usize, t.to_raw().ptr as usize);
        if let Some(r) = self.memo.satisfied.get(&key) {
            return *r;
        }
        let ty = self.ty(t);
        let example = d.example.as_deref().map(Ty::parse);
        let r = super::types::satisfies(summary, &ty, example.as_ref());
        self.memo.satisfied.insert(key, r);
        r
    }

    fn ty(&mut self, t: Type<'_>) -> Rc<Ty> {
        let key = t.to_raw().ptr as usize;
        if let Some(ty) = self.memo.types.get(&key) {
            return ty.clone();
        }
        let ty = Rc::new(Ty::parse(&crate::ffi::type_text(t.to_raw())));
        self.memo.types.insert(key, ty.clone());
        ty
    }

    fn visit(&mut self, op: OperationRef<'_, '_>) {
        let ok = self.check_op_once(op);
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for i in 0..b.argument_count() {
                    if let Ok(arg) = b.argument(i) {
                        self.check_space(op, arg.r#type());
                    }
                }
                let mut inner = b.first_operation();
                while let Some(o) = inner {
                    self.visit(o);
                    inner = o.next_in_block();
                }
                block = b.next_in_region();
            }
        }
        if ok {
            self.check_terminators(op);
        }
    }

    /// [`Self::check_op`], skipped for a `tpu` op without regions whose twin
    /// (same name, attributes, properties, operand and result types and
    /// parent op, so the same core type) passed before in this run: the
    /// checks read nothing else, and a kernel repeats its ops. Errors carry
    /// the op's location, so ops that failed are never twins.
    fn check_op_once(&mut self, op: OperationRef<'_, '_>) -> bool {
        if op.region_count() != 0 || !matches!(self.kind_of(op), OpKind::Tpu(_)) {
            return self.check_op(op);
        }
        // SAFETY: `op` and every op in `passed` are live ops of the module
        // being verified; the calls only read them.
        let hash = unsafe { crate::ffi::tcc_op_signature_hash(op.to_raw()) };
        let twin = |&other: &mlir_sys::MlirOperation| unsafe {
            crate::ffi::tcc_op_same_signature(other, op.to_raw())
        };
        if self
            .passed
            .get(&hash)
            .is_some_and(|ops| ops.iter().any(twin))
        {
            return true;
        }
        let before = self.errors.len();
        let ok = self.check_op(op);
        if ok && self.errors.len() == before {
            self.passed.entry(hash).or_default().push(op.to_raw());
        }
        ok
    }

    /// Region ops: each block ends with `tpu.yield` (checked after the ops
    /// inside, as MLIR's verifier does on leaving a block).
    fn check_terminators(&mut self, op: OperationRef<'_, '_>) {
        if op.region_count() == 0 {
            return;
        }
        let OpKind::Tpu(def) = self.kind_of(op) else {
            return;
        };
        if def.regions == 0 {
            return;
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                if let Some(last) = last_op(&b)
                    && crate::ffi::identifier_str(&last.name()) != "tpu.yield"
                {
                    self.error(
                        last,
                        format!("block with no terminator, has {last}"),
                        Some(format!("end the body of `{}` with \"tpu.yield\"", def.name)),
                        false,
                    );
                    return;
                }
                block = b.next_in_region();
            }
        }
    }

    /// Memory-space ownership (`MemorySpaceAttr::verify`), once per type.
    fn check_space(&mut self, op: OperationRef<'_, '_>, t: Type<'_>) {
        let key = t.to_raw().ptr as usize;
        if self.spaces_checked.insert(key, ()).is_some() {
            return;
        }
        let ty = self.ty(t);
        if let Some(Space {
            name,
            core: Some(core),
        }) = ty.space()
        {
            let bad = match name.as_str() {
                "any" | "hbm" | "host" | "vmem_shared" => {
                    Some(format!("Memory space {name} cannot be owned by a core"))
                }
                "vmem" if core == "sc_scalar_subcore" => {
                    Some(format!("Memory space vmem cannot be owned by core {core}"))
                }
                "cmem" if core != "tc" => {
                    Some(format!("Memory space cmem cannot be owned by core {core}"))
                }
                _ => None,
            };
            if let Some(m) = bad {
                let hint = Some(format!(
                    "write `#tpu.memory_space<{name}>` without a core, or a memory space that core owns"
                ));
                self.error(op, m, hint, true);
            }
        }
    }

    fn check_op(&mut self, op: OperationRef<'_, '_>) -> bool {
        for i in 0..op.result_count() {
            if let Ok(r) = op.result(i) {
                self.check_space(op, r.r#type());
            }
        }
        if op.discardable_attribute_count() > 0
            && let Ok(attr) = op.discardable_attribute("tpu.core_type")
        {
            let t = self.text_of(attr);
            if let Some(inner) = t
                .strip_prefix("#tpu.core_type<")
                .and_then(|x| x.strip_suffix('>'))
                && !["tc", "sc_scalar_subcore", "sc_vector_subcore"].contains(&inner)
            {
                self.error(
                    op,
                    "expected ::mlir::tpu::CoreType to be one of: tc, sc_scalar_subcore, sc_vector_subcore".into(),
                    None,
                    true,
                );
            }
        }
        let def = match self.kind_of(op) {
            OpKind::Other => return true,
            OpKind::Tpu(def) => def,
            OpKind::Unprintable => {
                let ident = op.name();
                let bytes = crate::ffi::string_ref_bytes(ident.as_string_ref());
                let message = if std::str::from_utf8(bytes).is_ok() {
                    "null character not allowed in operation name"
                } else {
                    "operation name is not valid UTF-8"
                };
                let hint = format!(
                    "the op is named {:?}: bytecode can carry such a name, but no MLIR text parser reads it back, so it is refused (every kernel this crate accepts prints and reads back)",
                    String::from_utf8_lossy(bytes)
                );
                self.error(op, message.to_string(), Some(hint), true);
                return false;
            }
            OpKind::UnknownTpu => {
                let ident = op.name();
                let name = crate::ffi::identifier_str(&ident);
                let hint = nearest_op(self.table, name).map(|n| format!("did you mean `{n}`?"));
                self.error(
                op,
                format!("unregistered operation '{name}' found in dialect ('tpu') that does not allow unknown operations"),
                hint,
                true,
            );
                return false;
            }
        };
        if self.check_properties(op, def) || !self.check_ods(op, def) {
            return false;
        }
        let (flat, segments) = self.flat_operands(op);
        let results = self.grouped_results(op, def);
        let mut view = OpView {
            op,
            def,
            name: &def.name,
            flat,
            segments,
            results,
            v: self,
        };
        let before = view.v.errors.len();
        verifiers::verify(&mut view);
        self.errors.len() == before
    }

    /// Property conversion and enum parsing (jaxlib's parse-time errors).
    /// Returns true when an error was reported.
    fn check_properties(&mut self, op: OperationRef<'_, '_>, def: &'static OpDef) -> bool {
        let name = &def.name;
        if def.attributes.is_empty() && !def.attributed_sized_operands && props_text(op) != "{}" {
            let dict = props_text(op);
            self.error(
                op,
                format!(
                    "invalid properties {dict} for op {name}: this operation has empty properties"
                ),
                Some(format!("`{name}` has no properties: remove `<{{...}}>`")),
                true,
            );
            return true;
        }
        // jaxlib parses every attribute's body, in the order of the text (which
        // jaxlib prints sorted by name), before it converts the properties: the
        // first malformed body by name is reported.
        let mut first: Option<(&str, Rc<str>, Attribute<'_>)> = None;
        for (a, attr, _) in kinded_attributes(self.table, op, def) {
            if let Some(message) = self.body_error(attr)
                && first.as_ref().is_none_or(|(n, ..)| a.name.as_str() < *n)
            {
                first = Some((a.name.as_str(), message, attr));
            }
        }
        if let Some((attr_name, message, attr)) = first {
            let text = self.text_of(attr);
            let hint = Some(format!("`{attr_name}` of `{name}` is malformed: {text}"));
            self.error(op, message.to_string(), hint, true);
            if let Some(last) = self.errors.last_mut() {
                last.attribute = Some(attr_name.to_string());
            }
            return true;
        }
        for (a, attr, kind) in kinded_attributes(self.table, op, def) {
            let text = self.text_of(attr);
            let ok = match kind.storage.as_str() {
                "integer" => is_integer_attr(&text),
                "bool" => &*text == "true" || &*text == "false",
                "array" => {
                    let el = kind.element.as_deref().unwrap_or("");
                    text.strip_prefix("array<")
                        .is_some_and(|r| r.starts_with(el) && r[el.len()..].starts_with([':', '>']))
                }
                "string" => text.starts_with('"'),
                "type" => attr.is_type(),
                "tpu" => {
                    let m = kind.mnemonic.as_deref().unwrap_or("");
                    text.strip_prefix("#tpu.")
                        .is_some_and(|r| r.starts_with(m) && r[m.len()..].starts_with('<'))
                }
                _ => true,
            };
            if !ok {
                let dict = props_text(op);
                let hint = Some(format!(
                    "`{}` of `{name}` is {}; write e.g. `{} = {}`",
                    a.name,
                    a.kind.as_deref().unwrap_or("?"),
                    a.name,
                    a.default.as_deref().unwrap_or(sample(kind))
                ));
                self.error(
                    op,
                    format!(
                        "invalid properties {dict} for op {name}: Invalid attribute `{}` in property conversion: {text}",
                        a.name
                    ),
                    hint,
                    true,
                );
                return true;
            }
            // The enums' bodies were parsed above; the memory space keeps its own check.
            if kind.storage == "tpu"
                && enum_name(kind.mnemonic.as_deref().unwrap_or("")).is_none()
                && let Some(values) = &kind.values
            {
                let inner = text
                    .find('<')
                    .and_then(|s| text.get(s + 1..text.len().saturating_sub(1)))
                    .unwrap_or("");
                if !values.iter().any(|v| v == inner) {
                    self.error(
                        op,
                        format!(
                            "expected ::mlir::tpu::Enum to be one of: {}",
                            values.join(", ")
                        ),
                        None,
                        true,
                    );
                    return true;
                }
            }
        }
        if def.attributed_sized_operands
            && let Ok(attr) = op.attribute("operandSegmentSizes")
            // As a plain attribute (generic form without `<{...}>`), jaxlib's
            // parser converts it into the property where it can and drops it
            // silently where it cannot (the sizes then count zero operands).
            && op.discardable_attribute("operandSegmentSizes").is_err()
        {
            let text = self.text_of(attr);
            let problem = if !text.starts_with("array<i32") {
                Some("expected DenseI32ArrayAttr".to_string())
            } else {
                let n = parse_array(&text).len();
                (n != def.operands.len()).then(|| {
                    format!(
                        "size mismatch in attribute conversion: {n} vs {}",
                        def.operands.len()
                    )
                })
            };
            if let Some(problem) = problem {
                let dict = props_text(op);
                self.error(
                    op,
                    format!(
                        "invalid properties {dict} for op {name}: for `operandSegmentSizes`: {problem}"
                    ),
                    None,
                    true,
                );
                return true;
            }
        }
        false
    }

    /// `operandSegmentSizes` as jaxlib holds it after parsing: empty when
    /// absent, or when given as a plain attribute that does not convert to the
    /// property (not `array<i32: ...>` with one entry per definition).
    fn segment_sizes(&mut self, op: OperationRef<'_, '_>, def: &OpDef) -> Rc<[i64]> {
        let Ok(attr) = op.attribute("operandSegmentSizes") else {
            return Rc::from(Vec::new());
        };
        let sizes = self.array_of(attr);
        let converts =
            self.text_of(attr).starts_with("array<i32") && sizes.len() == def.operands.len();
        if converts || op.discardable_attribute("operandSegmentSizes").is_err() {
            sizes
        } else {
            Rc::from(Vec::new())
        }
    }

    /// Segment sizes of the operand definitions (from `operandSegmentSizes`,
    /// or derived when the op has at most one non-single definition).
    fn operand_segments(&mut self, op: OperationRef<'_, '_>, def: &OpDef) -> Vec<usize> {
        let n = op.operand_count();
        if def.attributed_sized_operands {
            let sizes = self.segment_sizes(op, def);
            return (0..def.operands.len())
                .map(|i| sizes.get(i).copied().unwrap_or(0).max(0) as usize)
                .collect();
        }
        derive_segments(&def.operands, n)
    }

    fn flat_operands(&mut self, op: OperationRef<'_, '_>) -> (Vec<Rc<Ty>>, Vec<(usize, usize)>) {
        let sizes = std::mem::take(&mut self.segments);
        let mut segments = Vec::with_capacity(sizes.len());
        let mut start = 0;
        for s in sizes {
            segments.push((start, s));
            start += s;
        }
        let flat = (0..op.operand_count())
            .filter_map(|i| op.operand(i).ok())
            .map(|v| self.ty(v.r#type()))
            .collect();
        (flat, segments)
    }

    fn grouped_results(&mut self, op: OperationRef<'_, '_>, def: &OpDef) -> Vec<Vec<Rc<Ty>>> {
        let segs = derive_segments(&def.results, op.result_count());
        let mut out = Vec::new();
        let mut i = 0;
        for s in segs {
            let mut g = Vec::new();
            for _ in 0..s {
                if let Ok(v) = op.result(i) {
                    g.push(self.ty(v.r#type()));
                }
                i += 1;
            }
            out.push(g);
        }
        out
    }

    /// The first ODS violation in the operand or result groups `defs` of
    /// `sizes` values each (`what`: `operand`, `result`): an optional operand
    /// group holding more than one value, or a value whose type (`type_of`
    /// its flat index) breaks its group's constraint.
    fn group_violation<'c>(
        &mut self,
        defs: &'static [super::dialect::ValueDef],
        sizes: &[usize],
        what: &str,
        type_of: impl Fn(usize) -> Option<Type<'c>>,
    ) -> Option<String> {
        let mut flat = 0;
        for (d, size) in defs.iter().zip(sizes.iter()) {
            if what == "operand" && d.kind == ValueKind::Optional && *size > 1 {
                return Some(format!(
                    "operand group starting at #{flat} requires 0 or 1 element, but found {size}"
                ));
            }
            if let Some(summary) = &d.constraint {
                for k in 0..*size {
                    let Some(t) = type_of(flat + k) else {
                        continue;
                    };
                    if self.satisfies(d, t) == Some(false) {
                        return Some(format!(
                            "{what} #{} must be {summary}, but got '{}'",
                            flat + k,
                            t
                        ));
                    }
                }
            }
            flat += size;
        }
        None
    }

    /// ODS checks in jaxlib's order. Returns false after the first error.
    fn check_ods(&mut self, op: OperationRef<'_, '_>, def: &'static OpDef) -> bool {
        let name = &def.name;
        let e = |v: &mut Self, m: String, hint: Option<String>| {
            v.error(op, format!("'{name}' op {m}"), hint, false);
            false
        };
        // Regions.
        let nr = op.region_count();
        if def.regions == 0 && nr != 0 {
            return e(self, "requires zero regions".into(), None);
        }
        if def.regions == 1 && nr != 1 {
            return e(self, "requires one region".into(), None);
        }
        // Results.
        let m = op.result_count();
        let (singles, variadic) = single_count(&def.results);
        if !variadic {
            if m != singles {
                let msg = match singles {
                    0 => "requires zero results".to_string(),
                    1 => "requires one result".to_string(),
                    n => format!("expected {n} results"),
                };
                return e(
                    self,
                    msg,
                    Some(format!(
                        "`{name}` has {} result(s); this one has {m}",
                        singles
                    )),
                );
            }
        } else if m < singles {
            return e(
                self,
                format!("expected {singles} or more results, but found {m}"),
                None,
            );
        }
        // Operands.
        let n = op.operand_count();
        let (singles, variadic) = single_count(&def.operands);
        if !variadic {
            if n != singles {
                let msg = match singles {
                    0 => "requires zero operands".to_string(),
                    1 => "requires a single operand".to_string(),
                    k => format!("expected {k} operands, but found {n}"),
                };
                return e(self, msg, None);
            }
        } else if n < singles {
            return e(
                self,
                format!("expected {singles} or more operands, but found {n}"),
                None,
            );
        }
        // operandSegmentSizes.
        let segs = self.operand_segments(op, def);
        if def.attributed_sized_operands && self.segment_sizes(op, def).iter().any(|s| *s < 0) {
            return e(
                self,
                "'operandSegmentSizes' attribute cannot have negative elements".to_string(),
                None,
            );
        }
        if def.attributed_sized_operands {
            let total: usize = segs.iter().sum();
            if total != n {
                let hint = if op.attribute("operandSegmentSizes").is_err() {
                    Some(format!(
                        "add `operandSegmentSizes = array<i32: ...>` ({} entries: {}) to the properties",
                        def.operands.len(),
                        def.operands
                            .iter()
                            .map(|o| o.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                } else {
                    None
                };
                return e(
                    self,
                    format!(
                        "operand count ({n}) does not match with the total size ({total}) specified in attribute 'operandSegmentSizes'"
                    ),
                    hint,
                );
            }
        }
        // Required attributes (sorted by name, as ODS emits them).
        let mut required: Vec<&str> = def
            .attributes
            .iter()
            .filter(|a| a.required)
            .map(|a| a.name.as_str())
            .collect();
        required.sort_unstable();
        for a in required {
            if op.attribute(a).is_err() {
                let kind = def
                    .attribute(a)
                    .and_then(|d| d.kind.clone())
                    .unwrap_or_default();
                return e(
                    self,
                    format!("requires attribute '{a}'"),
                    Some(format!(
                        "add `{a}` ({kind}) to the op's properties `<{{...}}>`"
                    )),
                );
            }
        }
        // Attribute constraints (integer width/signedness).
        for (a, attr, kind) in kinded_attributes(self.table, op, def) {
            if kind.storage != "integer" {
                continue;
            }
            let text = self.text_of(attr);
            let ty = text
                .split(" : ")
                .nth(1)
                .unwrap_or(if &*text == "true" || &*text == "false" {
                    "i1"
                } else {
                    "i64"
                });
            let signed = kind.signedness.as_deref() == Some("signed");
            let width = kind.width.unwrap_or(64);
            let matches = ty
                .strip_prefix(if signed { "si" } else { "i" })
                .and_then(|w| w.parse::<u32>().ok())
                == Some(width);
            if !matches {
                let want = format!("{}i{width}", if signed { "s" } else { "" });
                return e(
                    self,
                    format!(
                        "attribute '{}' failed to satisfy constraint: {}",
                        a.name,
                        kind.summary.as_deref().unwrap_or("")
                    ),
                    Some(format!("write `{} = <value> : {want}`", a.name)),
                );
            }
        }
        // Operand groups and types.
        let operand_type = |i: usize| op.operand(i).ok().map(|v| v.r#type());
        if let Some(msg) = self.group_violation(&def.operands, &segs, "operand", operand_type) {
            return e(self, msg, None);
        }
        let rsegs = derive_segments(&def.results, m);
        let result_type = |i: usize| op.result(i).ok().map(|v| v.r#type());
        if let Some(msg) = self.group_violation(&def.results, &rsegs, "result", result_type) {
            return e(self, msg, None);
        }
        // `AllShapesMatch<["indices", "output"]>` (not in the op table's traits),
        // verified before `AllElementTypesMatch<["source", "output"]>`.
        if name == "tpu.dynamic_gather"
            && let (Ok(i), Ok(r)) = (op.operand(1), op.result(0))
            && self.ty(i.r#type()).shape() != self.ty(r.r#type()).shape()
        {
            return e(
                self,
                "failed to verify that all of {indices, output} have same shape".into(),
                None,
            );
        }
        // `ElementwiseMappable` of `reduce_precision` (not in the op table's
        // traits) comes before its `SameOperandsAndResultType`.
        if name == "tpu.reduce_precision" {
            let types: Vec<Rc<Ty>> = (0..n)
                .filter_map(|i| op.operand(i).ok().map(|v| v.r#type()))
                .chain((0..m).filter_map(|i| op.result(i).ok().map(|v| v.r#type())))
                .map(|t| self.ty(t))
                .collect();
            let shapes: Vec<Option<&[i64]>> = types
                .iter()
                .filter(|t| t.is_vector())
                .map(|t| t.shape())
                .collect();
            if shapes.windows(2).any(|w| w[0] != w[1]) {
                return e(
                    self,
                    "all non-scalar operands/results must have the same shape and base type".into(),
                    None,
                );
            }
        }
        // Traits.
        for t in &def.traits {
            let all_types: Vec<Rc<Ty>> = (0..n)
                .filter_map(|i| op.operand(i).ok().map(|v| v.r#type()))
                .chain((0..m).filter_map(|i| op.result(i).ok().map(|v| v.r#type())))
                .map(|t| self.ty(t))
                .collect();
            let msg = match t.as_str() {
                "SameOperandsAndResultType"
                    if all_types
                        .windows(2)
                        .any(|w| w[0].elem() != w[1].elem() || w[0].shape() != w[1].shape()) =>
                {
                    Some("requires the same type for all operands and results".to_string())
                }
                "SameOperandsAndResultShape"
                    if all_types.windows(2).any(|w| w[0].shape() != w[1].shape()) =>
                {
                    Some("requires the same shape for all operands and results".to_string())
                }
                "SameOperandsAndResultRank" => {
                    let ranks: Vec<_> = all_types.iter().map(|t| t.rank()).collect();
                    let (ops, res) = ranks.split_at(n.min(ranks.len()));
                    if ops.windows(2).any(|w| w[0] != w[1]) {
                        Some("operands don't have matching ranks".to_string())
                    } else if res.iter().any(|r| Some(r) != ops.first()) {
                        Some("result type has different rank than operands".to_string())
                    } else {
                        None
                    }
                }
                "SameTypeOperands"
                    if all_types[..n.min(all_types.len())]
                        .windows(2)
                        .any(|w| w[0] != w[1]) =>
                {
                    Some("requires all operands to have the same type".to_string())
                }
                "AllTypesMatch(value,result)" if all_types.first() != all_types.get(n) => {
                    Some("failed to verify that all of {value, result} have same type".to_string())
                }
                "AllElementTypesMatch(source,output)"
                    if all_types.first().map(|t| t.elem().to_string())
                        != all_types.get(n).map(|t| t.elem().to_string()) =>
                {
                    Some(
                        "failed to verify that all of {source, output} have same element type"
                            .to_string(),
                    )
                }
                _ => None,
            };
            if let Some(msg) = msg {
                return e(self, msg, None);
            }
        }
        // InferTypeOpInterface of ops whose result type is operand 0's.
        if name == "tpu.annotate"
            && let (Ok(a), Ok(r)) = (op.operand(0), op.result(0))
            && a.r#type() != r.r#type()
        {
            return e(
                self,
                format!(
                    "inferred type(s) '{}' are incompatible with return type(s) of operation '{}'",
                    a.r#type(),
                    r.r#type()
                ),
                None,
            );
        }
        if name == "tpu.yield" && op.next_in_block().is_some() {
            return e(
                self,
                "must be the last operation in the parent block".into(),
                None,
            );
        }
        self.segments = segs;
        true
    }
}

fn last_op<'c, 'a>(b: &melior::ir::BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut cur = b.first_operation()?;
    while let Some(next) = cur.next_in_block() {
        cur = next;
    }
    Some(cur)
}

/// Group sizes of definitions without `operandSegmentSizes`: optional and
/// variadic groups share what the single ones leave, evenly
/// (SameVariadicOperandSize), rounding down, as ODS does.
/// How many of the operand or result groups `defs` hold exactly one value,
/// and whether any other group (optional, variadic) makes the count vary.
fn single_count(defs: &[super::dialect::ValueDef]) -> (usize, bool) {
    let singles = defs.iter().filter(|d| d.kind == ValueKind::Single).count();
    (singles, defs.len() != singles)
}

fn derive_segments(defs: &[super::dialect::ValueDef], n: usize) -> Vec<usize> {
    let singles = defs.iter().filter(|d| d.kind == ValueKind::Single).count();
    let others = defs.len() - singles;
    let share = n.saturating_sub(singles).checked_div(others).unwrap_or(0);
    defs.iter()
        .map(|d| match d.kind {
            ValueKind::Single => 1,
            _ => share,
        })
        .collect()
}

fn is_integer_attr(t: &str) -> bool {
    if t == "true" || t == "false" {
        return true;
    }
    let (num, ty) = match t.split_once(" : ") {
        Some((a, b)) => (a, Some(b)),
        None => (t, None),
    };
    num.trim().parse::<i128>().is_ok()
        && ty.is_none_or(|ty| ty == "index" || super::types::is_integer(ty))
}

/// jaxlib's parse error for the body of a `#tpu.<mnemonic>...` attribute
/// whose grammar is known here (the dimension numbers of `matmul` and `conv`,
/// the enums), wherever it stands; `None` when it parses or is not one of them.
fn tpu_body_error(table: &Table, text: &str) -> Option<String> {
    let rest = text.strip_prefix("#tpu.")?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (mnemonic, body) = rest.split_at(end);
    match mnemonic {
        "dot_dimension_numbers" => super::syntax::dot_dimension_numbers(body).err(),
        "conv_dimension_numbers" => super::syntax::conv_dimension_numbers(body).err(),
        _ => {
            let enum_name = enum_name(mnemonic)?;
            let values = table
                .attribute_kinds
                .values()
                .filter(|k| k.storage == "tpu" && k.mnemonic.as_deref() == Some(mnemonic))
                .find_map(|k| k.values.as_ref())?;
            super::syntax::enum_value(body, enum_name, values).err()
        }
    }
}

/// The C++ name of the `tpu` enum whose attribute mnemonic is `mnemonic`.
fn enum_name(mnemonic: &str) -> Option<&'static str> {
    Some(match mnemonic {
        "reduction_kind" => "ReductionKind",
        "rounding_mode" => "RoundingMode",
        "contract_precision" => "ContractPrecision",
        "pack_format" => "PackFormat",
        _ => return None,
    })
}

fn sample(kind: &super::dialect::AttrKind) -> &'static str {
    match kind.storage.as_str() {
        "integer" => "0 : i32",
        "bool" => "false",
        "array" => "array<i32>",
        "string" => "\"\"",
        _ => "...",
    }
}

/// The attributes of `def` that `op` carries and whose ODS kind the table
/// knows, with that kind (what the property and constraint checks walk).
fn kinded_attributes<'c>(
    table: &'static Table,
    op: OperationRef<'c, '_>,
    def: &'static OpDef,
) -> impl Iterator<Item = (&'static AttrDef, Attribute<'c>, &'static AttrKind)> {
    def.attributes.iter().filter_map(move |a| {
        let attr = op.attribute(&a.name).ok()?;
        let kind = table.attribute_kinds.get(a.kind.as_deref()?)?;
        Some((a, attr, kind))
    })
}

/// The `<{...}>` of an op as jaxlib prints it in `invalid properties {...}`
/// (`{}` when it has none).
fn props_text(op: OperationRef<'_, '_>) -> String {
    // SAFETY: `op` is a live operation; a null result is checked before use.
    let raw = unsafe { tcc_operation_get_properties(op.to_raw()) };
    if raw.ptr.is_null() {
        return "{}".to_string();
    }
    // SAFETY: non-null attribute owned by the op's context.
    let attr = unsafe { Attribute::from_raw(raw) };
    if !attr.is_dictionary() {
        return "{}".to_string();
    }
    attr.to_string()
}

/// The known op name closest to `name` (edit distance ≤ 3).
fn nearest_op(table: &Table, name: &str) -> Option<String> {
    crate::spelling::nearest(name, table.ops.keys().map(String::as_str)).map(str::to_string)
}
