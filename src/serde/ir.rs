//! Thin helpers over the MLIR C API used by the serde rewrite.
//!
//! Everything here works on raw handles (`MlirOperation`, `MlirAttribute`, ...)
//! that belong to a module the caller owns and keeps alive for the duration of
//! the call. That invariant is what every `// SAFETY:` comment below relies on:
//! the functions are crate-private and only ever handed handles obtained from
//! such a module (never null unless documented).

use std::ffi::c_void;
use std::marker::PhantomData;

use mlir_sys::*;

pub(crate) use crate::ffi::sref;
use crate::ffi::{
    tcc_operation_get_properties, tcc_operation_is_registered, tcc_serde_mangle,
    tcc_serde_take_locations, tcc_tpu_attr_get, tcc_tpu_attr_text,
};

/// The mangled copy of the kernel module `kernel` (every op but
/// `builtin.module` renamed `stable_mosaic.<name>`, inherent attributes made
/// plain, `stable_mosaic.version = version` on the top module), built in one
/// pass in C++ (`cpp/serde.cpp`), with the copies of the ops named in
/// `rule_names`, in post-order, each with the index of its name.
///
/// The module belongs to the kernel's context (`'c`); the ops are inside it
/// and valid while it lives (the caller keeps it for as long as it uses them).
pub(crate) fn mangled_copy<'c>(
    kernel: melior::ir::OperationRef<'c, '_>,
    version: u32,
    rule_names: &[&str],
) -> (melior::ir::Module<'c>, Vec<(Op<'c>, usize)>) {
    unsafe extern "C" fn found(op: MlirOperation, index: isize, user_data: *mut c_void) {
        // SAFETY: `user_data` is the `Vec` below, alive for the whole call.
        let out = unsafe { &mut *(user_data as *mut Vec<(Op, usize)>) };
        out.push((unsafe { Op::from_raw(op) }, index as usize));
    }
    let names: Vec<MlirStringRef> = rule_names.iter().map(|n| sref(n)).collect();
    let mut ops: Vec<(Op, usize)> = Vec::new();
    // SAFETY: `kernel` is a live `builtin.module` (only read); the names
    // outlive the call; `found` only appends to `ops`. The result is a new
    // detached `builtin.module` that the returned `Module` owns.
    let module = unsafe {
        let copy = tcc_serde_mangle(
            kernel.to_raw(),
            i64::from(version),
            names.as_ptr(),
            names.len() as isize,
            found,
            &mut ops as *mut Vec<(Op, usize)> as *mut c_void,
        );
        melior::ir::Module::from_raw(mlirModuleFromOperation(copy))
    };
    (module, ops)
}

/// Replaces every location slot of `module` (the op, then per region and
/// block the block arguments and the nested ops) by `loc(unknown)`; with
/// `collect`, returns the replaced locations as an array attribute.
pub(crate) fn take_locations(module: Op, collect: bool) -> Option<MlirAttribute> {
    // SAFETY: see the module invariant.
    let locs = unsafe { tcc_serde_take_locations(module.0, collect) };
    (!locs.ptr.is_null()).then_some(locs)
}

/// The text after `#tpu.` of a pass-through `tpu` attribute
/// (`reduction_kind<maxf>`), `None` for other attributes.
pub(crate) fn tpu_attr_text(attr: MlirAttribute) -> Option<String> {
    // SAFETY: the attribute is live; a null string means another kind.
    let text = unsafe { tcc_tpu_attr_text(attr) };
    (!text.data.is_null()).then(|| to_string(text))
}

/// The pass-through `tpu` attribute `#tpu.<text>`. Only for contexts where
/// the `tpu` dialect is loaded (it is once any `#tpu.` attribute was read).
pub(crate) fn tpu_attr(ctx: MlirContext, text: &str) -> MlirAttribute {
    // SAFETY: the context is live and its `tpu` dialect loaded (caller).
    unsafe { tcc_tpu_attr_get(ctx, sref(text)) }
}

/// Copies an `MlirStringRef` into a Rust string.
pub(crate) fn to_string(s: MlirStringRef) -> String {
    // SAFETY: MLIR guarantees `data` points to `length` valid bytes (or is
    // null) for as long as the owning object lives, which spans this copy.
    unsafe { crate::ffi::lossy_string(s) }
}

pub(crate) use crate::ffi::{attr_text, type_text};

/// An operation handle inside a module borrowed for `'a`: the module (and
/// its context) outlive every `Op` taken from it.
#[derive(Clone, Copy)]
pub(crate) struct Op<'a>(pub(crate) MlirOperation, PhantomData<&'a ()>);

impl<'a> Op<'a> {
    /// The op behind a melior reference, for as long as the reference's
    /// module borrow.
    pub(crate) fn of(op: melior::ir::OperationRef<'_, 'a>) -> Op<'a> {
        Op(op.to_raw(), PhantomData)
    }

    /// An op from a raw handle (possibly null: check [`Op::is_null`]).
    ///
    /// # Safety
    /// `raw` is null or a live op of a module that outlives `'a`.
    pub(crate) unsafe fn from_raw(raw: MlirOperation) -> Op<'a> {
        Op(raw, PhantomData)
    }

    pub(crate) fn is_null(self) -> bool {
        self.0.ptr.is_null()
    }

    pub(crate) fn context(self) -> MlirContext {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetContext(self.0) }
    }

    pub(crate) fn name(self) -> String {
        // SAFETY: see the module invariant.
        unsafe { to_string(mlirIdentifierStr(mlirOperationGetName(self.0))) }
    }

    pub(crate) fn is_registered(self) -> bool {
        // SAFETY: see the module invariant.
        unsafe { tcc_operation_is_registered(self.0) }
    }

    /// Names of the op's properties when they are a dictionary (as for every
    /// unregistered op that has any), in the dictionary's order.
    pub(crate) fn property_names(self) -> Vec<String> {
        // SAFETY: see the module invariant; the properties attribute is
        // checked for null and for being a dictionary before it is read.
        unsafe {
            let properties = tcc_operation_get_properties(self.0);
            if properties.ptr.is_null() || !mlirAttributeIsADictionary(properties) {
                return Vec::new();
            }
            (0..mlirDictionaryAttrGetNumElements(properties))
                .map(|i| {
                    to_string(mlirIdentifierStr(
                        mlirDictionaryAttrGetElement(properties, i).name,
                    ))
                })
                .collect()
        }
    }

    pub(crate) fn location(self) -> MlirLocation {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetLocation(self.0) }
    }

    pub(crate) fn set_location(self, loc: MlirLocation) {
        // SAFETY: see the module invariant; `loc` belongs to the same context.
        unsafe { mlirOperationSetLocation(self.0, loc) }
    }

    pub(crate) fn num_operands(self) -> usize {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetNumOperands(self.0) as usize }
    }

    pub(crate) fn operand(self, i: usize) -> MlirValue {
        // SAFETY: callers pass `i < num_operands()`.
        unsafe { mlirOperationGetOperand(self.0, i as isize) }
    }

    pub(crate) fn operands(self) -> Vec<MlirValue> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    pub(crate) fn set_operands(self, values: &[MlirValue]) {
        // SAFETY: the values belong to the same module.
        unsafe { mlirOperationSetOperands(self.0, values.len() as isize, values.as_ptr()) }
    }

    pub(crate) fn num_results(self) -> usize {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetNumResults(self.0) as usize }
    }

    pub(crate) fn result(self, i: usize) -> MlirValue {
        // SAFETY: callers pass `i < num_results()`.
        unsafe { mlirOperationGetResult(self.0, i as isize) }
    }

    pub(crate) fn num_regions(self) -> usize {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetNumRegions(self.0) as usize }
    }

    pub(crate) fn region(self, i: usize) -> MlirRegion {
        // SAFETY: callers pass `i < num_regions()`.
        unsafe { mlirOperationGetRegion(self.0, i as isize) }
    }

    pub(crate) fn successors(self) -> Vec<MlirBlock> {
        // SAFETY: see the module invariant; indices are in range.
        unsafe {
            let n = mlirOperationGetNumSuccessors(self.0);
            (0..n)
                .map(|i| mlirOperationGetSuccessor(self.0, i))
                .collect()
        }
    }

    pub(crate) fn block(self) -> MlirBlock {
        // SAFETY: see the module invariant.
        unsafe { mlirOperationGetBlock(self.0) }
    }

    pub(crate) fn parent(self) -> Option<Op<'a>> {
        // SAFETY: see the module invariant.
        let parent = unsafe { Op::from_raw(mlirOperationGetParentOperation(self.0)) };
        (!parent.is_null()).then_some(parent)
    }

    pub(crate) fn next(self) -> Option<Op<'a>> {
        // SAFETY: see the module invariant.
        let next = unsafe { Op::from_raw(mlirOperationGetNextInBlock(self.0)) };
        (!next.is_null()).then_some(next)
    }

    /// Discardable attributes, in stored order.
    pub(crate) fn discardable_attrs(self) -> Vec<(String, MlirAttribute)> {
        // SAFETY: see the module invariant; indices are in range.
        unsafe {
            let n = mlirOperationGetNumDiscardableAttributes(self.0);
            (0..n)
                .map(|i| {
                    let named = mlirOperationGetDiscardableAttribute(self.0, i);
                    (to_string(mlirIdentifierStr(named.name)), named.attribute)
                })
                .collect()
        }
    }

    /// `op->getAttrs()`: inherent and discardable attributes of a registered
    /// op, sorted by name.
    pub(crate) fn registered_attr_dictionary(self) -> Vec<MlirNamedAttribute> {
        // SAFETY: see the module invariant; indices are in range. Each call
        // rebuilds the same (uniqued, sorted) dictionary.
        unsafe {
            let n = mlirOperationGetNumAttributes(self.0);
            (0..n)
                .map(|i| mlirOperationGetAttribute(self.0, i))
                .collect()
        }
    }

    /// An attribute by name: the inherent one (property) if any, else the
    /// discardable one.
    pub(crate) fn attr(self, name: &str) -> Option<MlirAttribute> {
        // SAFETY: see the module invariant.
        unsafe {
            if mlirOperationHasInherentAttributeByName(self.0, sref(name)) {
                let a = mlirOperationGetInherentAttributeByName(self.0, sref(name));
                if !a.ptr.is_null() {
                    return Some(a);
                }
            }
            let a = mlirOperationGetDiscardableAttributeByName(self.0, sref(name));
            (!a.ptr.is_null()).then_some(a)
        }
    }

    /// Sets a discardable attribute (every attribute of a mangled op is one).
    pub(crate) fn set_attr(self, name: &str, value: MlirAttribute) {
        // SAFETY: see the module invariant; `value` is non-null.
        unsafe { mlirOperationSetDiscardableAttributeByName(self.0, sref(name), value) }
    }

    /// Removes a discardable attribute.
    pub(crate) fn remove_attr(self, name: &str) {
        // SAFETY: see the module invariant.
        unsafe {
            mlirOperationRemoveDiscardableAttributeByName(self.0, sref(name));
        }
    }

    /// Erases the op (it must have no remaining uses).
    pub(crate) fn erase(self) {
        // SAFETY: the op is in a block the caller owns; uses were replaced.
        unsafe { mlirOperationDestroy(self.0) }
    }
}

/// Blocks of a region, in order.
pub(crate) fn region_blocks(region: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    // SAFETY: the region is valid; iteration stops at the null block.
    unsafe {
        let mut block = mlirRegionGetFirstBlock(region);
        while !block.ptr.is_null() {
            out.push(block);
            block = mlirBlockGetNextInRegion(block);
        }
    }
    out
}

/// First op of a block, if any.
///
/// The op lives as long as the block's module, which the caller holds for `'a`.
pub(crate) fn block_first_op<'a>(block: MlirBlock) -> Option<Op<'a>> {
    // SAFETY: the block is valid.
    let op = unsafe { Op::from_raw(mlirBlockGetFirstOperation(block)) };
    (!op.is_null()).then_some(op)
}

/// Arguments of a block.
pub(crate) fn block_args(block: MlirBlock) -> Vec<MlirValue> {
    // SAFETY: the block is valid; indices are in range.
    unsafe {
        let n = mlirBlockGetNumArguments(block);
        (0..n).map(|i| mlirBlockGetArgument(block, i)).collect()
    }
}

/// Calls `f` on every op nested in `op` (not `op` itself), children of an op
/// before the op (post-order).
pub(crate) fn collect_post_order(op: Op, out: &mut Vec<Op>) {
    for r in 0..op.num_regions() {
        for block in region_blocks(op.region(r)) {
            let mut child = block_first_op(block);
            while let Some(c) = child {
                collect_post_order(c, out);
                out.push(c);
                child = c.next();
            }
        }
    }
}

/// An op of an [`OpIndex`](crate::ffi::OpIndex) with its name.
#[derive(Clone, Copy)]
pub(crate) struct Indexed<'a> {
    pub(crate) op: Op<'a>,
    pub(crate) name: &'a str,
}

/// The index's ops as [`Op`]s, borrowed from the index.
impl crate::ffi::OpIndex {
    /// The op at pre-order position `i` (`i < len()`).
    pub(crate) fn at(&self, i: usize) -> Indexed<'_> {
        let (op, name) = self.raw(i);
        Indexed {
            // SAFETY: the index's invariant (the module lives, its ops
            // unchanged since the index was built).
            op: unsafe { Op::from_raw(op) },
            name,
        }
    }

    /// The root and every op in it, in pre-order.
    pub(crate) fn pre_order(&self) -> impl Iterator<Item = Indexed<'_>> {
        (0..self.len()).map(|i| self.at(i))
    }

    /// Every op nested in the op at pre-order position `at` (not that op),
    /// children before their op: what [`collect_post_order`] lists.
    pub(crate) fn post_order_in(&self, at: usize) -> impl Iterator<Item = Indexed<'_>> {
        self.post_order_within(at)
            .iter()
            .map(|&i| self.at(i as usize))
    }

    /// Every op nested in the root, children before their op.
    pub(crate) fn post_order(&self) -> impl Iterator<Item = Indexed<'_>> {
        self.post_order_in(0)
    }

    /// The pre-order position of `op`, if it is in the index.
    pub(crate) fn position_of(&self, op: Op<'_>) -> Option<usize> {
        self.position(op.0)
    }
}

/// The type of a value.
pub(crate) fn value_type(v: MlirValue) -> MlirType {
    // SAFETY: the value is valid.
    unsafe { mlirValueGetType(v) }
}

pub(crate) fn unknown_loc(ctx: MlirContext) -> MlirLocation {
    // SAFETY: the context is live.
    unsafe { mlirLocationUnknownGet(ctx) }
}

// ----- attributes -----------------------------------------------------------

pub(crate) fn bool_attr(ctx: MlirContext, v: bool) -> MlirAttribute {
    // SAFETY: the context is live.
    unsafe { mlirBoolAttrGet(ctx, v as i32) }
}

pub(crate) fn as_bool(a: MlirAttribute) -> Option<bool> {
    // SAFETY: the kind is checked before reading.
    unsafe { mlirAttributeIsABool(a).then(|| mlirBoolAttrGetValue(a)) }
}

pub(crate) fn int_attr(ctx: MlirContext, width: u32, v: i64) -> MlirAttribute {
    // SAFETY: the context is live.
    unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, width), v) }
}

/// `(value, bit width)` of an `IntegerAttr`.
pub(crate) fn as_int(a: MlirAttribute) -> Option<(i64, u32)> {
    // SAFETY: the kinds are checked before reading.
    unsafe {
        if !mlirAttributeIsAInteger(a) {
            return None;
        }
        let ty = mlirAttributeGetType(a);
        let width = if mlirTypeIsAInteger(ty) {
            mlirIntegerTypeGetWidth(ty)
        } else {
            64 // index
        };
        if width > 64 {
            return None;
        }
        Some((mlirIntegerAttrGetValueInt(a), width))
    }
}

pub(crate) fn i32_array_attr(ctx: MlirContext, v: &[i32]) -> MlirAttribute {
    // SAFETY: the context is live; the slice outlives the call.
    unsafe { mlirDenseI32ArrayGet(ctx, v.len() as isize, v.as_ptr()) }
}

pub(crate) fn as_i32_array(a: MlirAttribute) -> Option<Vec<i32>> {
    // SAFETY: the kind is checked before reading; indices are in range.
    unsafe {
        if !mlirAttributeIsADenseI32Array(a) {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(a);
        Some((0..n).map(|i| mlirDenseI32ArrayGetElement(a, i)).collect())
    }
}

pub(crate) fn i64_array_attr(ctx: MlirContext, v: &[i64]) -> MlirAttribute {
    // SAFETY: the context is live; the slice outlives the call.
    unsafe { mlirDenseI64ArrayGet(ctx, v.len() as isize, v.as_ptr()) }
}

pub(crate) fn as_i64_array(a: MlirAttribute) -> Option<Vec<i64>> {
    // SAFETY: the kind is checked before reading; indices are in range.
    unsafe {
        if !mlirAttributeIsADenseI64Array(a) {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(a);
        Some((0..n).map(|i| mlirDenseI64ArrayGetElement(a, i)).collect())
    }
}

pub(crate) fn as_array(a: MlirAttribute) -> Option<Vec<MlirAttribute>> {
    // SAFETY: the kind is checked before reading; indices are in range.
    unsafe {
        if !mlirAttributeIsAArray(a) {
            return None;
        }
        let n = mlirArrayAttrGetNumElements(a);
        Some((0..n).map(|i| mlirArrayAttrGetElement(a, i)).collect())
    }
}

// ----- types ----------------------------------------------------------------

/// Element kind of a vector type: `(rank, element is float, element is integer)`.
pub(crate) fn vector_info(ty: MlirType) -> Option<(i64, bool, bool)> {
    // SAFETY: the kinds are checked before reading.
    unsafe {
        if !mlirTypeIsAVector(ty) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(ty);
        let elem = mlirShapedTypeGetElementType(ty);
        Some((rank, mlirTypeIsAFloat(elem), mlirTypeIsAInteger(elem)))
    }
}

pub(crate) fn i32_type(ctx: MlirContext) -> MlirType {
    // SAFETY: the context is live.
    unsafe { mlirIntegerTypeGet(ctx, 32) }
}

// ----- building ops ---------------------------------------------------------

/// Everything needed to create an op with the C API.
pub(crate) struct OpSpec<'a> {
    pub(crate) name: &'a str,
    pub(crate) location: MlirLocation,
    pub(crate) results: &'a [MlirType],
    pub(crate) operands: &'a [MlirValue],
    pub(crate) attributes: &'a [MlirNamedAttribute],
    pub(crate) successors: &'a [MlirBlock],
    pub(crate) regions: Vec<MlirRegion>,
}

/// Creates a detached op; owned regions in `spec.regions` are consumed.
pub(crate) fn create_op<'a>(spec: OpSpec<'_>) -> Option<Op<'a>> {
    // SAFETY: every handle in `spec` belongs to the same live context; the
    // regions are owned (freshly created) and handed over to the new op; the
    // state lives until `mlirOperationCreate` returns. A null result (MLIR
    // refused the state) is reported as `None`.
    unsafe {
        let mut state = mlirOperationStateGet(sref(spec.name), spec.location);
        mlirOperationStateAddResults(
            &mut state,
            spec.results.len() as isize,
            spec.results.as_ptr(),
        );
        mlirOperationStateAddOperands(
            &mut state,
            spec.operands.len() as isize,
            spec.operands.as_ptr(),
        );
        mlirOperationStateAddAttributes(
            &mut state,
            spec.attributes.len() as isize,
            spec.attributes.as_ptr(),
        );
        mlirOperationStateAddSuccessors(
            &mut state,
            spec.successors.len() as isize,
            spec.successors.as_ptr(),
        );
        mlirOperationStateAddOwnedRegions(
            &mut state,
            spec.regions.len() as isize,
            spec.regions.as_ptr(),
        );
        let op = Op::from_raw(mlirOperationCreate(&mut state));
        if op.is_null() {
            return None;
        }
        // Default-valued properties the attributes did not give (a body
        // without `fastmath`) get their defaults, as the text parser's ops do:
        // a null one crashes the op's printer.
        crate::ffi::tcc_operation_populate_default_properties(op.0);
        Some(op)
    }
}

/// Sets attributes on a freshly created op: on a registered op, inherent
/// ones go into its properties (creating it from an attribute list would leave
/// them discardable), the others are discardable.
///
/// An inherent attribute the op's property cannot hold (an attribute of
/// another kind: MLIR's property conversion leaves the property null) is
/// refused: `Err` gives its name.
pub(crate) fn set_attributes(op: Op, attributes: &[MlirNamedAttribute]) -> Result<(), String> {
    for named in attributes {
        // SAFETY: `op` is live; `named` holds a live identifier and attribute.
        unsafe {
            let name = mlirIdentifierStr(named.name);
            if mlirOperationHasInherentAttributeByName(op.0, name) {
                mlirOperationSetInherentAttributeByName(op.0, name, named.attribute);
                let held = mlir_sys::mlirOperationGetInherentAttributeByName(op.0, name);
                if !mlir_sys::mlirAttributeEqual(held, named.attribute) {
                    return Err(to_string(name));
                }
            } else {
                mlirOperationSetDiscardableAttributeByName(op.0, name, named.attribute);
            }
        }
    }
    Ok(())
}

/// Splits `attributes` into those named in `inherent` and the rest.
pub(crate) fn split_inherent(
    attributes: &[MlirNamedAttribute],
    inherent: impl Fn(&str) -> bool,
) -> (Vec<MlirNamedAttribute>, Vec<MlirNamedAttribute>) {
    attributes.iter().partition(|named| {
        // SAFETY: `named` holds a live identifier.
        let name = to_string(unsafe { mlirIdentifierStr(named.name) });
        inherent(&name)
    })
}

/// Gives an unregistered op `properties` as its properties dictionary (what
/// MLIR prints as `<{...}>`); false when the op refuses them.
pub(crate) fn set_unregistered_properties(op: Op, properties: &[MlirNamedAttribute]) -> bool {
    // SAFETY: `op` is live; every attribute belongs to its context; the
    // dictionary copies the list.
    unsafe {
        let dict = mlir_sys::mlirDictionaryAttrGet(
            mlir_sys::mlirOperationGetContext(op.0),
            properties.len() as isize,
            properties.as_ptr(),
        );
        crate::ffi::tcc_operation_set_properties(op.0, dict)
    }
}

/// Whether `name` is a registered op, loading its dialect first (dialects
/// are registered in the context but loaded lazily).
pub(crate) fn is_registered_op(ctx: MlirContext, name: &str) -> bool {
    // SAFETY: the context is live; an unknown dialect name yields null.
    unsafe {
        if let Some((dialect, _)) = name.split_once('.') {
            mlirContextGetOrLoadDialect(ctx, sref(dialect));
        }
        mlirContextIsRegisteredOperation(ctx, sref(name))
    }
}

/// A named attribute for [`OpSpec::attributes`].
pub(crate) fn named(ctx: MlirContext, name: &str, attr: MlirAttribute) -> MlirNamedAttribute {
    // SAFETY: the context is live.
    unsafe { mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref(name)), attr) }
}

/// Inserts detached `new` right after `anchor` in `anchor`'s block.
pub(crate) fn insert_after(anchor: Op, new: Op) {
    // SAFETY: `anchor` is in a block; `new` is detached and becomes owned by it.
    unsafe { mlirBlockInsertOwnedOperationAfter(anchor.block(), anchor.0, new.0) }
}

/// Inserts detached `new` right before `anchor` in `anchor`'s block.
pub(crate) fn insert_before(anchor: Op, new: Op) {
    // SAFETY: `anchor` is in a block; `new` is detached and becomes owned by it.
    unsafe { mlirBlockInsertOwnedOperationBefore(anchor.block(), anchor.0, new.0) }
}

/// Moves every region body of `from` into fresh regions, returned owned.
pub(crate) fn take_regions(from: Op) -> Vec<MlirRegion> {
    (0..from.num_regions())
        .map(|i| {
            // SAFETY: a fresh region takes the blocks of a live region.
            unsafe {
                let region = mlirRegionCreate();
                mlirRegionTakeBody(region, from.region(i));
                region
            }
        })
        .collect()
}

/// Replaces all uses of `old`'s results by `new`'s (same count).
pub(crate) fn replace_results(old: Op, new: Op) {
    for i in 0..old.num_results().min(new.num_results()) {
        // SAFETY: both values are live results in the same module.
        unsafe { mlirValueReplaceAllUsesOfWith(old.result(i), new.result(i)) }
    }
}

#[cfg(test)]
mod tests {
    //! The op index (`tcc_op_index`) against the Rust walks it replaced.

    use super::{Op, block_first_op, collect_post_order, region_blocks};
    use crate::{Context, Kernel};

    const NESTED: &str = r#"
func.func @main(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %l = vector.load %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %p = arith.cmpi eq, %i, %c0 : index
    scf.if %p {
      %a = arith.addf %l, %l : vector<8x128xf32>
      vector.store %a, %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    } else {
      vector.store %l, %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    }
  }
  return
}
func.func @other(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}
"#;

    fn pre_order<'a>(op: Op<'a>, out: &mut Vec<Op<'a>>) {
        out.push(op);
        for r in 0..op.num_regions() {
            for block in region_blocks(op.region(r)) {
                let mut child = block_first_op(block);
                while let Some(c) = child {
                    pre_order(c, out);
                    child = c.next();
                }
            }
        }
    }

    fn ptrs<'a>(ops: impl Iterator<Item = Op<'a>>) -> Vec<usize> {
        ops.map(|op| op.0.ptr as usize).collect()
    }

    #[test]
    fn the_op_index_lists_what_the_walks_list() {
        let ctx = Context::new();
        let kernel = Kernel::from_text(&ctx, NESTED, "nested").expect("the kernel loads");
        let root = Op::of(kernel.operation());
        let index = kernel.op_index();

        let mut walked = Vec::new();
        pre_order(root, &mut walked);
        // module, 2 functions, 2 constants, for, load, cmpi, if, addf, 2 stores,
        // 3 yields, 2 returns, addi.
        assert_eq!(walked.len(), 18);
        assert_eq!(
            ptrs(index.pre_order().map(|n| n.op)),
            ptrs(walked.iter().copied())
        );
        for node in index.pre_order() {
            assert_eq!(node.name, node.op.name());
        }

        let mut post = Vec::new();
        collect_post_order(root, &mut post);
        assert_eq!(
            ptrs(index.post_order().map(|n| n.op)),
            ptrs(post.into_iter())
        );

        // Every op's subtree: what it nests, in both orders.
        for (i, &op) in walked.iter().enumerate() {
            let mut nested = Vec::new();
            pre_order(op, &mut nested);
            assert_eq!(index.end(i), i + nested.len(), "end of {}", op.name());
            let mut post = Vec::new();
            collect_post_order(op, &mut post);
            assert_eq!(index.position_of(op), Some(i));
            assert_eq!(
                ptrs(index.post_order_in(i).map(|n| n.op)),
                ptrs(post.into_iter()),
                "post-order in {}",
                op.name()
            );
        }
    }

    #[test]
    fn checks_share_one_index_only_inside_the_scope() {
        let ctx = Context::new();
        let kernel = Kernel::from_text(&ctx, NESTED, "nested").expect("the kernel loads");
        let fresh = |a: &std::rc::Rc<crate::ffi::OpIndex>, b: &std::rc::Rc<crate::ffi::OpIndex>| {
            !std::rc::Rc::ptr_eq(a, b)
        };
        assert!(fresh(&kernel.op_index(), &kernel.op_index()));
        let (first, inner) = kernel.sharing_op_index(|| {
            let first = kernel.op_index();
            // Nested scopes share the outer one's index and keep it.
            let inner = kernel.sharing_op_index(|| kernel.op_index());
            assert!(!fresh(&first, &kernel.op_index()));
            (first, inner)
        });
        assert!(!fresh(&first, &inner));
        assert!(
            fresh(&first, &kernel.op_index()),
            "the scope's index is dropped with it"
        );
    }
}
