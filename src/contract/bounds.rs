//! Static accesses past a buffer's end: a load, store or slice whose indices
//! are constants and whose window reaches past its memref (Pallas's
//! `x_ref[pl.ds(200, 128)]` on a 256-row ref). JAX refuses them while
//! tracing; libtpu compiles them (the TPU reads or writes what lies beyond);
//! a kernel built another way is refused here, with the op's location.
//!
//! Only what is certain is refused: every index a constant, every shape
//! static. Masked stores (whose lanes past the end may be masked off) and
//! loads nobody uses (Mosaic erases them: every Pallas store is preceded by
//! one over its window) are left alone.

use mlir_sys::MlirValue;

use crate::kernel::Kernel;
use crate::mosaic::verify::PtrMap;
use crate::serde::ir::{self, Op};

/// One access past the end of its buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfBounds {
    /// The op (`vector.load`).
    pub op: String,
    /// Its location, as MLIR prints it.
    pub location: String,
    /// The constant indices.
    pub indices: Vec<i64>,
    /// The window's extent per dimension (the vector or slice shape, strided).
    pub extent: Vec<i64>,
    /// The memref's shape.
    pub shape: Vec<i64>,
    /// The first dimension it leaves.
    pub dim: usize,
}

/// An access: the memref, the constant indices, the window's shape, the strides.
type Access = (MlirValue, Vec<i64>, Vec<i64>, Vec<i64>);

/// The constant an index value holds (`arith.constant`), if it is one.
fn constant(v: MlirValue) -> Option<i64> {
    let mut value = 0;
    // SAFETY: the value belongs to the kernel module, alive for the call;
    // `value` is a valid place for the result.
    unsafe { crate::ffi::tcc_value_int_constant(v, &mut value) }.then_some(value)
}

/// A static shape (memref or vector), `None` if any dimension is dynamic.
fn static_shape_of(ty: mlir_sys::MlirType) -> Option<Vec<i64>> {
    // SAFETY: the type is live; shaped-type queries only on shaped types.
    unsafe {
        if !mlir_sys::mlirTypeIsAShaped(ty) || !mlir_sys::mlirShapedTypeHasRank(ty) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(ty);
        (0..rank)
            .map(|d| {
                (!mlir_sys::mlirShapedTypeIsDynamicDim(ty, d as isize))
                    .then(|| mlir_sys::mlirShapedTypeGetDimSize(ty, d as isize))
            })
            .collect()
    }
}

/// What the walk derives from uniqued types and op names alone, once each.
#[derive(Default)]
struct Memo {
    shapes: PtrMap<usize, Option<Vec<i64>>>,
    kinds: PtrMap<usize, Option<Kind>>,
}

impl Memo {
    /// [`static_shape_of`] the value's type.
    fn static_shape(&mut self, v: MlirValue) -> Option<Vec<i64>> {
        let ty = ir::value_type(v);
        self.shapes
            .entry(ty.ptr as usize)
            .or_insert_with(|| static_shape_of(ty))
            .clone()
    }

    /// [`kind`] of an op's name, by the name's address (the index holds one
    /// copy of each distinct name).
    fn kind(&mut self, name: &str) -> Option<Kind> {
        *self
            .kinds
            .entry(name.as_ptr() as usize)
            .or_insert_with(|| kind(name))
    }
}

fn used(v: MlirValue) -> bool {
    // SAFETY: the value is live.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(v)) }
}

/// The constants of ODS segment `index` (ops with `operandSegmentSizes`)
/// when segment `mask` is empty and every operand of `index` is a constant;
/// else `None`. The sizes are read once.
fn unmasked_constant_segment(op: Op<'_>, index: usize, mask: usize) -> Option<Vec<i64>> {
    let sizes = op.attr("operandSegmentSizes").and_then(ir::as_i32_array)?;
    if *sizes.get(mask)? != 0 {
        return None;
    }
    let start: i32 = sizes.get(..index)?.iter().sum();
    let len = *sizes.get(index)?;
    // Sizes that do not describe the operands (a malformed op) check nothing.
    if start < 0 || len < 0 || (start + len) as usize > op.num_operands() {
        return None;
    }
    constants((start..start + len).map(|k| op.operand(k as usize)))
}

/// The kinds of op that access a buffer, by how their operands are laid out.
#[derive(Clone, Copy)]
enum Kind {
    Load,
    TpuLoad,
    Store,
    TpuStore,
    Slice,
}

/// An op's [`Kind`], from its name compared in place (most ops are none:
/// no name is copied for them).
fn kind(name: &str) -> Option<Kind> {
    match name {
        "vector.load" | "tpu.strided_load" | "memref.load" => Some(Kind::Load),
        "tpu.vector_load" => Some(Kind::TpuLoad),
        "vector.store" | "tpu.strided_store" | "memref.store" => Some(Kind::Store),
        "tpu.vector_store" => Some(Kind::TpuStore),
        "tpu.memref_slice" => Some(Kind::Slice),
        _ => None,
    }
}

/// The constants `values` hold, or `None` at the first that is not one (the
/// check comes before anything else is collected: most accesses of a real
/// kernel have a dynamic index).
fn constants(values: impl Iterator<Item = MlirValue>) -> Option<Vec<i64>> {
    values.map(constant).collect()
}

/// Every static access past the end of its buffer in the kernel.
pub fn out_of_bounds(kernel: &Kernel<'_>) -> Vec<OutOfBounds> {
    let index = kernel.op_index();
    let mut out = Vec::new();
    let mut memo = Memo::default();
    for node in index.post_order() {
        let op = node.op;
        let Some(kind) = memo.kind(node.name) else {
            continue;
        };
        let access: Option<Access> = match kind {
            Kind::Load => {
                let n = op.num_operands();
                if n == 0 || op.num_results() != 1 || !used(op.result(0)) {
                    continue;
                }
                let Some(indices) = constants((1..n).map(|k| op.operand(k))) else {
                    continue;
                };
                let shape = memo.static_shape(op.result(0)).unwrap_or_default();
                Some((op.operand(0), indices, shape, strides(op)))
            }
            Kind::TpuLoad => {
                if op.num_operands() < 1 || op.num_results() != 1 || !used(op.result(0)) {
                    continue;
                }
                unmasked_constant_segment(op, 1, 2).map(|idx| {
                    (
                        op.operand(0),
                        idx,
                        memo.static_shape(op.result(0)).unwrap_or_default(),
                        strides(op),
                    )
                })
            }
            Kind::Store => {
                let n = op.num_operands();
                if n < 2 {
                    continue;
                }
                let Some(indices) = constants((2..n).map(|k| op.operand(k))) else {
                    continue;
                };
                let shape = memo.static_shape(op.operand(0)).unwrap_or_default();
                Some((op.operand(1), indices, shape, strides(op)))
            }
            Kind::TpuStore if op.num_operands() < 2 => None,
            Kind::TpuStore => unmasked_constant_segment(op, 2, 3).map(|idx| {
                (
                    op.operand(1),
                    idx,
                    memo.static_shape(op.operand(0)).unwrap_or_default(),
                    strides(op),
                )
            }),
            Kind::Slice if op.num_results() == 1 && op.num_operands() >= 1 => {
                unmasked_constant_segment(op, 1, 2).and_then(|idx| {
                    memo.static_shape(op.result(0))
                        .map(|s| (op.operand(0), idx, s, Vec::new()))
                })
            }
            Kind::Slice => None,
        };
        let Some((base, indices, window, steps)) = access else {
            continue;
        };
        let Some(shape) = memo.static_shape(base) else {
            continue;
        };
        if indices.len() != shape.len() || window.len() > shape.len() {
            continue;
        }
        let mut extent = vec![1i64; shape.len() - window.len()];
        extent.extend(&window);
        let reach = |d: usize| -> i64 {
            let step = steps.get(d).copied().filter(|&s| s > 0).unwrap_or(1);
            indices[d].saturating_add(extent[d].saturating_sub(1).saturating_mul(step))
        };
        if let Some(dim) =
            (0..shape.len()).find(|&d| indices[d] < 0 || (extent[d] > 0 && reach(d) >= shape[d]))
        {
            out.push(OutOfBounds {
                op: op.name(),
                location: crate::serde::location_text(op.location()),
                indices,
                extent,
                shape,
                dim,
            });
        }
    }
    out
}

/// The `strides` attribute (i32 or i64 array), empty without one.
fn strides(op: Op<'_>) -> Vec<i64> {
    op.attr("strides")
        .and_then(|a| {
            ir::as_i32_array(a)
                .map(|v| v.into_iter().map(i64::from).collect())
                .or_else(|| ir::as_i64_array(a))
        })
        .unwrap_or_default()
}
