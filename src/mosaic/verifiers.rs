//! The hand-written `verify()` of jaxlib 0.12's `tpu` ops (those that have
//! one), with jaxlib's messages in jaxlib's order, and the core-type rules.
//! Each function reports at most one error (jaxlib's first) per op.

use std::rc::Rc;

use melior::ir::operation::OperationLike;

use super::attrs::TiledLayout;
use super::types::{DYN, Space, Ty, bitwidth, is_float, is_integer};
use super::verify::OpView;

/// Runs the hand-written verifier of `v`'s op, if it has one.
pub(crate) fn verify(v: &mut OpView<'_, '_, '_>) {
    match v.name {
        "tpu.vector_store" => vector_store(v),
        "tpu.vector_load" => vector_load(v),
        "tpu.memref_slice" => memref_slice(v),
        "tpu.enqueue_dma" => dma(v, true),
        "tpu.wait_dma" => dma(v, false),
        "tpu.wait_dma2" => wait_dma2(v),
        "tpu.sem_signal" => sem_signal(v),
        "tpu.sem_wait" => rank0(v, "semaphore", "Semaphore reference must be rank 0"),
        "tpu.sem_barrier" if v.result(0).is_some_and(|t| not_rank0(&t)) => {
            v.op_error("Barrier semaphore reference must be rank 0");
        }
        "tpu.matmul" => matmul(v),
        "tpu.strided_load" | "tpu.strided_store" => strided(v),
        "tpu.reduce" => reduce(v),
        "tpu.all_reduce" => all_reduce(v),
        "tpu.scan" => scan(v),
        "tpu.iota" => iota(v),
        "tpu.reciprocal" => {
            let e = v
                .operand("input")
                .map(|t| t.elem().to_string())
                .unwrap_or_default();
            if e != "f32" && e != "bf16" {
                v.op_error("Not implemented: Reciprocal op for non-f32/bf16 dtypes");
            }
        }
        "tpu.region" => {
            for i in 0..v.op.result_count() {
                let Some(t) = v.result(i) else { continue };
                let ok = t.is_vector()
                    || is_float(t.elem())
                    || is_integer(t.elem())
                    || t.elem() == "index";
                if !ok || t.is_memref() {
                    v.op_error("Region result must be float, int, index or a vector type.");
                    return;
                }
            }
        }
        "tpu.core_id" | "tpu.subcore_id" => match v.core_type() {
            None => v.op_error("Failed to infer the core type from parent ops"),
            Some("tc") => v.op_error("Unsupported core type: tc"),
            _ => {}
        },
        "tpu.enqueue_indirect_dma" => enqueue_indirect_dma(v),
        "tpu.vector_load_idx" | "tpu.vector_store_idx" => {
            if v.operand("base").is_some_and(|b| !base_in_vmem(v, &b)) {
                return;
            }
            let rank = v.operand("base").and_then(|t| t.rank()).unwrap_or(0);
            let n = v.group("indices").len();
            if n != rank {
                return v.op_error(format!(
                    "Expected one index vector for each dimension of the base memref with dimension: {rank}. Got: {n}."
                ));
            }
            let value = if v.name == "tpu.vector_load_idx" {
                v.result(0)
            } else {
                v.operand("valueToStore")
            };
            let elem_mismatch =
                matches!((v.operand("base"), &value), (Some(b), Some(x)) if b.elem() != x.elem());
            let Some(want) = value.and_then(|t| t.shape().map(<[i64]>::to_vec)) else {
                return;
            };
            let list = |s: &[i64]| {
                s.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            for (i, t) in v.group("indices").iter().enumerate() {
                if let Some(got) = t.shape()
                    && got != want.as_slice()
                {
                    return v.op_error(format!(
                        "Expected {} elements in indices. Got {} in index #{i}.",
                        list(&want),
                        list(got)
                    ));
                }
            }
            if elem_mismatch {
                v.op_error(if v.name == "tpu.vector_load_idx" {
                    "Expected base and result element type to match."
                } else {
                    "Expected base and valueToStore element type to match"
                });
            }
        }
        "tpu.vector_compress_store"
        | "tpu.vector_expand_load"
        | "tpu.compress_store_vreg"
        | "tpu.expand_load_vreg" => compress_expand(v),
        "tpu.pack_elementwise" | "tpu.unpack_elementwise" => pack_elementwise(v),
        "tpu.pack_subelements" | "tpu.pack_vmsk" => pack_subelements(v),
        "tpu.stochastic_convert_elementwise" => {
            if elementwise_mappable(v) {
                return;
            }
            let t = v.attr("dst_type").unwrap_or_else(|| "".into());
            let ok = matches!(&*t, "bf16") || t.starts_with("f8");
            if !ok {
                v.op_error(format!("Unsupported destination type: '{t}'"));
            }
        }
        "tpu.sublane_shuffle" => sublane_shuffle(v),
        "tpu.annotate" => {
            let set = ["no_store", "no_hazard", "no_hazard_no_deps"]
                .into_iter()
                .filter(|f| v.flag(f))
                .count();
            let hazard = v.flag("no_hazard") || v.flag("no_hazard_no_deps");
            if set > 1 {
                v.op_error("At most one of no_store, no_hazard, or no_hazard_no_deps can be set");
            } else if hazard
                && v.operand("operand")
                    .is_some_and(|t| t.space().is_none_or(|s| s.name != "vmem"))
            {
                v.op_error("Hazard overrides are only valid for VMEM allocations");
            }
        }
        "tpu.memref_memory_space_is" => {
            let space = v.tpu_attr("memory_space").unwrap_or_default();
            if space.split(',').next().map(str::trim) == Some("any") {
                v.op_error("Comparing to 'any' can never succeed");
            }
        }
        "tpu.dynamic_gather" => {
            let dims = v.array("dimensions").unwrap_or_else(|| Vec::new().into());
            let rank = v.operand("source").and_then(|t| t.rank()).unwrap_or(0) as i64;
            let mut seen = std::collections::HashSet::new();
            if !dims.iter().all(|d| seen.insert(*d)) {
                v.op_error("Dimensions must be unique");
            } else if let Some(d) = dims.iter().find(|d| **d < 0 || **d >= rank) {
                v.op_error(format!("Dimensions must be in [0, rank), but got {d}"));
            } else if let (Some(src), Some(out)) = (v.operand("source"), v.result(0))
                && let (Some(ss), Some(os)) = (src.shape(), out.shape())
            {
                if ss.len() != os.len() {
                    v.op_error("Source and result shapes must have the same rank");
                } else if (0..ss.len()).any(|i| !dims.contains(&(i as i64)) && ss[i] != os[i]) {
                    v.op_error("Source and result shapes must match on non-gather dimensions");
                }
            }
        }
        "tpu.conv" => conv(v),
        "tpu.log_buffer" => {
            let rank = v.operand("input").and_then(|t| t.rank()).unwrap_or(0);
            if v.array("shape").is_some_and(|s| s.len() != rank) {
                v.op_error("Shape must have the same length as the rank of the input");
            }
        }
        "tpu.reinterpret_cast" => reinterpret_cast(v),
        "tpu.mask_cast" => {
            let (Some(a), Some(b)) = (v.operand("input"), v.result(0)) else {
                return;
            };
            let (Some(sa), Some(sb)) = (a.shape(), b.shape()) else {
                return;
            };
            // Equal ranks: all but the minormost dimension; ranks one apart:
            // the shorter shape is a prefix of the longer.
            let k = if sa.len() == sb.len() {
                sa.len().saturating_sub(1)
            } else {
                sa.len().min(sb.len())
            };
            if sa.len().abs_diff(sb.len()) > 1 {
                v.op_error("Input and output ranks must differ by at most 1");
            } else if sa[..k] != sb[..k] {
                v.op_error("Input and output shapes must match on leading dimensions");
            }
        }
        "tpu.wait_indirect_dma" => {
            if v.core_type().unwrap_or("tc") != "sc_vector_subcore" {
                return v.op_error("Wait indirect DMA is supported only on the SC vector subcore");
            }
            if v.operand("semaphore").is_some_and(|t| not_rank0(&t)) {
                return v.op_error("Indirect DMA wait semaphore must be rank 0");
            }
            let (Some(src), Some(dst)) = (v.operand("src"), v.operand("dst")) else {
                return;
            };
            if src.space().is_none() || dst.space().is_none() {
                v.op_error("Source and target memory spaces must be provided");
            } else if indirect_direction(&src, &dst).is_none() {
                v.op_error(INDIRECT_SPACES);
            }
        }
        "tpu.shared_memref_slice" => {
            let c = v.core_type().unwrap_or("tc");
            if c != "sc_vector_subcore" {
                return v.op_error(format!("Unsupported core type: {c}"));
            }
            let (Some(src), Some(dst)) = (v.operand("mem_ref"), v.result(0)) else {
                return;
            };
            if src
                .space()
                .is_none_or(|s| s.name != "vmem_shared" || s.core.is_some())
            {
                v.op_error("Source memref must have memory space #tpu.memory_space<vmem_shared>");
            } else if dst.space().is_none_or(|s| {
                s.name != "vmem" || s.core.as_deref().is_some_and(|c| c != "sc_vector_subcore")
            }) {
                v.op_error(
                    "Target memref must have memory space #tpu.memory_space<vmem, sc_vector_subcore>",
                );
            } else if src.elem() != dst.elem() {
                v.op_error("Source and target element types must match.");
            } else if let (Some(ss), Some(ds)) = (src.shape(), dst.shape()) {
                let n = ss.len();
                if n != ds.len() {
                    v.op_error("Target shape rank must match source shape rank.");
                } else if n > 0 && ss[..n - 1] != ds[..n - 1] {
                    v.op_error(
                        "Target shape must match source shape for all dimensions except the last.",
                    );
                } else if n > 0 && ds[n - 1] != 0 && ss[n - 1] % ds[n - 1] != 0 {
                    v.op_error(
                        "Source shape's minormost dimension must be divisible by target shape's minormost dimension.",
                    );
                }
            }
        }
        "tpu.fetch_and_add_sync" => {
            let c = v
                .operand("base")
                .and_then(|t| t.space().and_then(|s| s.core.clone()))
                .unwrap_or_else(|| v.core_type().unwrap_or("tc").to_string());
            if c == "sc_scalar_subcore" {
                v.op_error("SC scalar subcore target not supported yet");
            } else if c != "sc_vector_subcore" {
                v.op_error(format!("Only SC vector subcore is supported, got {c}"));
            } else {
                let rank = v.operand("base").and_then(|t| t.rank()).unwrap_or(0);
                let n = v.group("indices").len();
                if n != rank {
                    v.op_error(format!(
                        "Number of indices ({n}) must match memref rank ({rank})"
                    ));
                }
            }
        }
        "tpu.concatenate" => concatenate(v),
        "tpu.dynamic_rotate" => dynamic_rotate(v),
        "tpu.transpose" => transpose(v),
        "tpu.reshape" => {
            let (Some(a), Some(b)) = (v.operand("source"), v.result(0)) else {
                return;
            };
            if a.elem() != b.elem() {
                v.op_error("element type must match");
            } else if elems(&a) != elems(&b) {
                v.op_error("element count must match");
            }
        }
        "tpu.memref_squeeze" => {
            let (Some(a), Some(b)) = (v.operand("input"), v.result(0)) else {
                return;
            };
            if a.space() != b.space() {
                v.op_error("Memory spaces do not match.");
            } else if a.elem() != b.elem() {
                v.op_error("Element types don't match.");
            } else if let (Some(sa), Some(sb)) = (a.shape(), b.shape())
                && !squeezes_to(sa, sb)
            {
                let text = |s: &[i64]| {
                    let parts: Vec<String> = s.iter().map(ToString::to_string).collect();
                    format!("({})", parts.join(","))
                };
                v.plain_error(format!(
                    "Target shape is not valid. Source: {}, Target: {}.",
                    text(sa),
                    text(sb)
                ));
            } else if a.is_tiled() != b.is_tiled() {
                v.op_error("Either both src and dst or none of them should have a tiled layout");
            } else if let (Some(tiles), Some(sa), Some(sb)) = (a.tiles(), a.shape(), b.shape()) {
                squeezed_tiling(v, &tiles, sa, sb);
            }
        }
        "tpu.assume_multiple" => {
            if let Some(m) = v.int("multiple")
                && m == 0
            {
                v.plain_error(format!("Multiple must be >= 1, got {m}"));
            }
        }
        "tpu.log" => log(v),
        "tpu.sort" => {
            let (Some(k), Some(sk)) = (v.operand("keys"), v.result(1)) else {
                return;
            };
            let list = |t: &Ty| {
                t.shape()
                    .unwrap_or(&[])
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            for (what, other) in [
                ("value", v.operand("values")),
                ("input mask", v.operand("mask")),
                ("output mask", v.result(0)),
            ] {
                if let Some(o) = other
                    && k.is_vector()
                    && o.is_vector()
                    && k.shape() != o.shape()
                {
                    return v.op_error(format!(
                        "Key and {what} shapes must match: {} vs {}",
                        list(&k),
                        list(&o)
                    ));
                }
            }
            if k != sk && k.is_vector() && sk.is_vector() {
                let (a, b) = (
                    vector_text(k.shape().unwrap_or(&[]), k.elem()),
                    vector_text(sk.shape().unwrap_or(&[]), sk.elem()),
                );
                return v.op_error(format!(
                    "Key and sorted_key types must match: '{a}' vs '{b}'"
                ));
            }
            if let (Some(x), Some(sx)) = (v.operand("values"), v.result(2))
                && x != sx
                && x.is_vector()
                && sx.is_vector()
            {
                let (a, b) = (
                    vector_text(x.shape().unwrap_or(&[]), x.elem()),
                    vector_text(sx.shape().unwrap_or(&[]), sx.elem()),
                );
                v.op_error(format!(
                    "Value and sorted_value types must match: '{a}' vs '{b}'"
                ));
            }
        }
        "tpu.memref_bitcast" => memref_bitcast(v),
        "tpu.bitcast" => {
            let (Some(a), Some(b)) = (v.operand("input"), v.result(0)) else {
                return;
            };
            let (Some(sa), Some(sb)) = (a.shape(), b.shape()) else {
                return;
            };
            let (Some(wa), Some(wb)) = (bitwidth(a.elem()), bitwidth(b.elem())) else {
                return;
            };
            if wa == wb {
                if sa != sb {
                    v.plain_error(
                        "Expected input and output shapes are the same when bitwidth does not change.",
                    );
                }
                return;
            }
            if sa.len() < 2 {
                if wa != wb {
                    v.plain_error(
                        "Not implemented: bitcast between different bitwidths on a 1D vector.",
                    );
                }
                return;
            }
            let mut want = sa.to_vec();
            let k = want.len() - 2;
            want[k] = want[k].saturating_mul(i64::from(wa)) / i64::from(wb.max(1));
            if want.as_slice() != sb {
                v.plain_error(
                    "Expected input and output shapes are the same after multiplying the second-minor dimension by the ratio of bitwidths.",
                );
            }
        }
        "tpu.tile_size" => {
            let rank = v.operand("source").and_then(|t| t.rank()).unwrap_or(0) as i64;
            if let Some(i) = v.int("index")
                && (i < 0 || i >= rank)
            {
                v.op_error("Index out of bounds");
            }
        }
        "tpu.unpack_subelements" => unpack_subelements(v),
        "tpu.erase_memref_layout" => {
            let (Some(a), Some(b)) = (v.operand("operand"), v.result(0)) else {
                return;
            };
            if a.shape() != b.shape() {
                v.op_error("requires the same shape for all operands and results");
            } else if a.elem() != b.elem() {
                v.op_error("requires the same element type for all operands and results");
            } else if a.space() != b.space() {
                v.op_error("Cannot change the memref memory space");
            } else if b.layout().is_some() {
                v.op_error("Memref layout must be erased");
            }
        }
        "tpu.memref_reshape" => memref_reshape(v),
        "tpu.weird" => {
            if elementwise_mappable(v) {
                return;
            }
            // A vector's element type, else the type itself.
            let of = |t: &Ty| {
                if t.is_vector() {
                    t.elem().to_string()
                } else {
                    match t {
                        Ty::Other(s) => s.clone(),
                        _ => String::new(),
                    }
                }
            };
            if v.operand("input").is_some_and(|t| of(&t) != "f32") {
                v.op_error("Input type must be F32");
            } else if v.result(0).is_some_and(|t| of(&t) != "i1") {
                v.op_error("Output type must be I1");
            }
        }
        "tpu.reduce_index" => {
            let kind = v.tpu_attr("kind").unwrap_or_default();
            let rank = v.operand("input").and_then(|t| t.rank()).unwrap_or(0) as i64;
            let axis = v.int("axis").unwrap_or(0);
            if kind != "arg_max" && kind != "arg_min" {
                v.op_error("Reduction kind must be arg_max or arg_min");
            } else if axis < 0 || axis >= rank {
                v.op_error(format!(
                    "Axis must be in [0, {rank}), but got {}",
                    axis as u32
                ));
            } else if v
                .operand("input")
                .is_some_and(|t| t.elem() != "f32" && t.elem() != "bf16")
            {
                v.op_error(
                    "Not Implemented: Only f32 and bf16 input is supported for arg_max and arg_min",
                );
            } else if let (Some(i), Some(o)) = (v.operand("input"), v.result(0)) {
                let want = format!("i{}", bitwidth(i.elem()).unwrap_or(32));
                if o.elem() != want {
                    v.op_error(format!("Arg_max and arg_min must have {want} output"));
                } else if o.rank().map(|r| r + 1) != i.rank() {
                    v.op_error("Output rank must be one less than input rank");
                } else if let (Some(is), Some(os)) = (i.shape(), o.shape()) {
                    let kept = is.iter().enumerate().filter(|(d, _)| *d as i64 != axis);
                    for ((d, x), y) in kept.zip(os) {
                        if x != y {
                            return v.op_error(format!(
                                "Output shape must match input shape on non-reduction dimensions. Output shape {} does not match input shape {} at input dimension {d}",
                                shape_text(os),
                                shape_text(is)
                            ));
                        }
                    }
                }
            }
        }
        "tpu.shuffled_load" | "tpu.shuffled_store" => {
            let Some(base) = v.operand("base") else {
                return;
            };
            let rank = base.rank().unwrap_or(0);
            let n = v.group("indices").len();
            if n != rank {
                return v.op_error(format!(
                    "Base memref's rank and indices size do not match: {rank} vs {n}"
                ));
            }
            let value = if v.name == "tpu.shuffled_load" {
                v.result(0)
            } else {
                v.operand("valueToStore")
            };
            if v.name == "tpu.shuffled_store"
                && let Some(val) = &value
                && val.rank().is_some_and(|r| r != n)
            {
                return v.op_error(format!(
                    "The rank of value to store and indices size do not match: {rank} vs {n}"
                ));
            }
            let sublanes = value.and_then(|t| t.shape().and_then(|s| s.first().copied()));
            let mask = v.array("sublane_mask").map_or(0, |m| m.len()) as i64;
            if let Some(sublanes) = sublanes
                && sublanes != mask
            {
                return v.op_error(format!(
                    "Expected sublane mask size equals to {sublanes} but got {mask}"
                ));
            }
            let offsets = v.array("sublane_offsets").map_or(0, |m| m.len()) as i64;
            if let Some(sublanes) = sublanes
                && sublanes != offsets
            {
                v.op_error(format!(
                    "Expected sublane offsets size equals to {sublanes} but got {offsets}"
                ));
            }
        }
        "tpu.truncf" | "tpu.extf" | "tpu.sitofp" | "tpu.uitofp" | "tpu.fptosi" | "tpu.fptoui" => {
            elementwise_mappable(v);
        }
        _ => {}
    }
}

fn unpack_subelements(v: &mut OpView<'_, '_, '_>) {
    let (Some(src), Some(out)) = (v.operand("source"), v.result(0)) else {
        return;
    };
    let factor = match (bitwidth(out.elem()), bitwidth(src.elem())) {
        (Some(o), Some(s)) if s > 0 => i64::from(o / s),
        _ => 1,
    };
    if let Some(i) = v.int("index")
        && (i < 0 || i >= factor)
    {
        return v.op_error(format!(
            "Index must be between 0 and the packing factor ({factor}), got {}",
            i as u32
        ));
    }
    if v.flag("unsigned_integers") && !is_integer(src.elem()) {
        v.op_error("unsigned_integers can only be set when the source type is an integer");
    }
}

/// `memref_bitcast` (jaxlib's `MemRefBitcastOp::inferResultType`, then a
/// comparison with the result type): with a change of bitwidth the
/// second-minor dimension is scaled by the ratio of bitwidths, and a tiled
/// layout's tiles follow ([`bitcast_tiles`]); a memref of another layout
/// keeps it only when the bitwidth does not change.
fn memref_bitcast(v: &mut OpView<'_, '_, '_>) {
    let (Some(src), Some(out)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    let (
        Ty::MemRef {
            shape,
            layout,
            space,
            ..
        },
        Ty::MemRef { elem: out_elem, .. },
    ) = (&*src, &*out)
    else {
        return;
    };
    let (Some(ws), Some(wd)) = (bitwidth(src.elem()), bitwidth(out_elem)) else {
        return;
    };
    let (ws, wd) = (i64::from(ws), i64::from(wd));
    let mut expected = shape.clone();
    let expected_layout = if ws == wd {
        canonical_layout(&src)
    } else {
        let Some(k) = shape.len().checked_sub(2) else {
            return v.op_error("Cannot bitcast along 2nd minor in 1D memref");
        };
        if shape[k] == DYN {
            return v.op_error("Not implemented: Dynamic 2nd minor dimension");
        }
        let bits = shape[k].wrapping_mul(ws);
        if wd == 0 || bits % wd != 0 {
            return v.op_error("Input 2nd minor dimension bits not a multiple of result bitwidth");
        }
        expected[k] = bits / wd;
        match layout {
            None => None,
            Some(_) if src.is_tiled() => {
                let (Some(tiles), Some(strides)) = (src.tiles(), src.tile_strides()) else {
                    return;
                };
                match bitcast_tiles(&tiles, ws, wd) {
                    Ok(tiles) => Some(tiled_text(tiles, strides)),
                    Err(message) => return v.op_error(message),
                }
            }
            Some(_) => return v.op_error("Expected a tiled layout for the input memref."),
        }
    };
    let same = out.shape() == Some(&expected[..])
        && out.elem() == out_elem
        && canonical_layout(&out) == expected_layout
        && out.space() == space.as_ref();
    if !same {
        let text = memref_text(
            &expected,
            out_elem,
            expected_layout.as_deref(),
            space.as_ref(),
        );
        v.op_error(format!("Expected result type to be '{text}'"));
    }
}

/// The tiles of a bitcast's result (jaxlib 0.12's `inferResultType`), or its
/// message. Trailing tiles of ones are dropped; a last tile `(p, 1)` is the
/// interleaving (packing) tile, `p` rows of `src_bits`-wide elements (1 when
/// there is none), which becomes `p * src_bits / dst_bits`; every tile's
/// second-minor size (a 1-D tile is `(1, n)`) is scaled by the same ratio of
/// packings, tiles of ones are dropped, and a packing tile is appended when
/// the result packs several elements and the source had none.
fn bitcast_tiles(
    tiles: &[Vec<i64>],
    src_bits: i64,
    dst_bits: i64,
) -> Result<Vec<Vec<i64>>, String> {
    let mut n = tiles.len();
    while n > 0 && tiles[n - 1].iter().all(|&d| d == 1) {
        n -= 1;
    }
    let tiles = &tiles[..n];
    for (level, pair) in tiles.windows(2).enumerate() {
        if pair[0].len() < pair[1].len() {
            return Err(format!(
                "Not implemented: Tile at level {} tiles across previous tiles.",
                level + 1
            ));
        }
    }
    let packing_tile = tiles
        .last()
        .filter(|t| t.len() >= 2 && t.last() == Some(&1))
        .and_then(|t| t.get(t.len() - 2).copied());
    let input_factor = packing_tile.unwrap_or(1);
    let bits = input_factor.wrapping_mul(src_bits);
    if dst_bits == 0 || bits % dst_bits != 0 {
        return Err(
            "Not implemented: Input 2nd minor interleaving tile bits not a multiple of result bitwidth"
                .into(),
        );
    }
    let result_factor = bits / dst_bits;
    // jaxlib CHECK-fails (aborts) where these do not hold.
    let aborts =
        |check: &str| format!("jaxlib 0.12 aborts on this bitcast (Check failed: {check})");
    let mut out = Vec::new();
    for tile in tiles.iter().filter(|t| !t.is_empty()) {
        let mut dims = tile.clone();
        if dims.len() == 1 {
            if input_factor != 1 {
                return Err(aborts("input_factor == 1"));
            }
            if result_factor == 1 {
                return Err(aborts("result_factor != 1"));
            }
            dims.insert(0, 1);
        }
        let k = dims.len() - 2;
        let scaled = dims[k].wrapping_mul(result_factor);
        match scaled.checked_rem(input_factor) {
            Some(0) => dims[k] = scaled / input_factor,
            _ => {
                return Err(aborts(
                    "*(tile.end() - 2) * result_factor % input_factor == 0",
                ));
            }
        }
        if !dims.iter().all(|&d| d == 1) {
            out.push(dims);
        }
    }
    if result_factor != 1 && packing_tile.is_none() {
        out.push(vec![result_factor, 1]);
    }
    Ok(out)
}

/// `memref_reshape` (jaxlib 0.12's `MemRefReshapeOp::verify`): memory
/// spaces, element types, element counts and dynamic dimensions, then the
/// result layout jaxlib infers (`inferResultLayout`, see
/// [`reshape_layout`]).
fn memref_reshape(v: &mut OpView<'_, '_, '_>) {
    let (Some(a), Some(b)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    if a.space() != b.space() {
        return v.op_error("Memory spaces do not match.");
    }
    if a.elem() != b.elem() {
        return v.op_error("Element types don't match.");
    }
    let (Some(sa), Some(sb)) = (a.shape(), b.shape()) else {
        return;
    };
    // Static element count (dynamic dimensions count as 1), dynamic count.
    let count = |s: &[i64]| {
        s.iter().fold((1i64, 0usize), |(n, d), &x| {
            if x == DYN {
                (n, d + 1)
            } else {
                (n.wrapping_mul(x), d)
            }
        })
    };
    let ((in_elems, in_dyn), (out_elems, out_dyn)) = (count(sa), count(sb));
    if (in_dyn == 0) != (out_dyn == 0) {
        return v.op_error("Input and result shapes must be both static or both dynamic.");
    }
    if in_dyn == 0 && in_elems != out_elems {
        return v.op_error("Input and result number of elements don't match.");
    }
    if out_dyn >= 2 {
        return v.op_error("Multiple result dynamic dimensions (their values are ambiguous).");
    }
    if in_dyn != 0 && !(in_dyn < 2 && in_elems == out_elems) {
        return v.op_error(
            "Not implemented: Input with multiple dynamic dimensions or a changing single dynamic dimension.",
        );
    }
    match reshape_layout(&a, sa, sb) {
        Reshaped::Layout(expected) => {
            if canonical_layout(&b) != expected {
                let text = expected.unwrap_or_else(|| identity_map(sb.len()));
                v.op_error(format!("Expected result layout to be {text}"));
            }
        }
        Reshaped::Error(message) => v.op_error(message),
        Reshaped::Unknown => {}
    }
}

/// What jaxlib infers for a reshape's result layout.
enum Reshaped {
    /// This layout (`None`: the identity).
    Layout(Option<String>),
    /// This refusal.
    Error(String),
    /// A tile size below 1 after the first tile, or negative (jaxlib prints
    /// `Invalid value` or accepts), or a layout jaxlib refuses before the
    /// op: not judged.
    Unknown,
}

/// Our refusal of a reshape jaxlib 0.12 cannot judge: it dies of a division
/// by zero (SIGFPE).
const RESHAPE_DIVIDES_BY_ZERO: &str = "jaxlib 0.12 aborts on this reshape (integer division by zero in MemRefReshapeOp::inferResultLayout)";

/// jaxlib's refusal of a reshape of a tiled layout it cannot re-tile.
const RESHAPE_UNSUPPORTED: &str = "Not implemented: Supported only when (a) tiled dimensions remain \
unchanged, except maybe for tile-aligned folding/unfolding of the first tiled dimension, or (b) the \
input layout has a single tile, under specific conditions.";

/// The result layout of reshaping `src` (of shape `from`) to `to`
/// (jaxlib's `MemRefReshapeOp::inferResultLayout`): the identity from the
/// identity; from a tiled layout, whose tiles must be contiguous
/// ([`tiles_contiguous`]), contiguous strides ([`contiguous_strides`]) of
/// no tiles when there are none or the first tile is all ones, of the same
/// tiles when the tiled dimensions are unchanged but for tile-aligned sizes
/// of the first one that is not 1 ([`tiling_kept`]), else of the one tile
/// [`retiled`] finds for a single-tile layout.
fn reshape_layout(src: &Ty, from: &[i64], to: &[i64]) -> Reshaped {
    if src.layout().is_none() {
        return Reshaped::Layout(None);
    }
    if !src.is_tiled() {
        return Reshaped::Error("Only tiled or identity layouts supported.".into());
    }
    let (Some(tiles), Some(strides)) = (src.tiles(), src.tile_strides()) else {
        return Reshaped::Unknown;
    };
    let first: &[i64] = tiles.first().map_or(&[], Vec::as_slice);
    if strides.len() != from.len() || first.len() > from.len() {
        return Reshaped::Unknown;
    }
    if first.contains(&0) {
        // Measured: every reshape whose first tile has a size of 0 kills
        // jaxlib with SIGFPE, the same shape kept or not.
        return Reshaped::Error(RESHAPE_DIVIDES_BY_ZERO.into());
    }
    if tiles.iter().flatten().any(|&t| t < 1) {
        return Reshaped::Unknown;
    }
    if !tiles_contiguous(from, first, &strides) {
        return Reshaped::Error("Not implemented: Reshape on a non-contiguous memref.".into());
    }
    let layout = |tiles: Vec<Vec<i64>>| {
        let strides = contiguous_strides(to, tiles.first().map_or(&[], Vec::as_slice));
        Reshaped::Layout(Some(tiled_text(tiles, strides)))
    };
    if tiles.is_empty() {
        return layout(Vec::new());
    }
    match tiling_kept(first, from, to) {
        Some(true) => return layout(tiles),
        Some(false) => return layout(Vec::new()),
        None => {}
    }
    if tiles.len() != 1 {
        return Reshaped::Error(RESHAPE_UNSUPPORTED.into());
    }
    match retiled(first, from, to) {
        Ok(Some(tile)) => layout(vec![tile]),
        Ok(None) => Reshaped::Error(RESHAPE_UNSUPPORTED.into()),
        Err(message) => Reshaped::Error(message),
    }
}

/// Whether a reshape from `from` to `to` keeps the tiling whose first tile
/// is `first`: `Some(false)` when that tile is all ones (the result is
/// untiled), `Some(true)` when the tiled dimensions after the tile's
/// leading ones are unchanged, except the first of them, which may change
/// between two multiples of its tile size; `None` otherwise.
fn tiling_kept(first: &[i64], from: &[i64], to: &[i64]) -> Option<bool> {
    let k = first.len();
    let from = from.get(from.len().checked_sub(k)?..)?;
    let to = to.get(to.len().checked_sub(k)?..)?;
    let lead = first.iter().take_while(|&&t| t == 1).count();
    let (Some(&t), Some(&a), Some(&b)) = (first.get(lead), from.get(lead), to.get(lead)) else {
        return Some(false);
    };
    let aligned = |d: i64| d != DYN && d % t == 0;
    let kept = (a == b || (aligned(a) && aligned(b))) && from.get(lead + 1..) == to.get(lead + 1..);
    kept.then_some(true)
}

/// The one tile of a reshape from `from` to `to` of a layout whose single
/// tile is `first` (`Ok(None)` where jaxlib finds none). As jaxlib, walking
/// both shapes: a dynamic or padded (not tile-aligned) dimension passes
/// unchanged with its tile size; otherwise the dimensions' tile counts are
/// gathered until one whose tile size is not 1 (the outer elements), then
/// its tile size and those of the following dimensions while the dimension
/// before each is a single tile (the inner elements), and the result's
/// dimensions take the outer elements, a tile size of 1 each (once the
/// result tile has begun), then the inner ones, each its size. jaxlib
/// divides by zero (zero sizes) or loops forever (a step that consumes
/// nothing) on some shapes: refused with our message.
fn retiled(first: &[i64], from: &[i64], to: &[i64]) -> Result<Option<Vec<i64>>, String> {
    let untiled = from.len().saturating_sub(first.len());
    let tile_size = |d: usize| {
        d.checked_sub(untiled)
            .and_then(|i| first.get(i))
            .copied()
            .unwrap_or(1)
    };
    let size = |shape: &[i64], d: usize| shape.get(d).copied().unwrap_or(DYN);
    let kept = |d: usize| {
        let n = size(from, d);
        n == DYN || n % tile_size(d) != 0
    };
    let aborts = || RESHAPE_DIVIDES_BY_ZERO.to_string();
    let rem = |a: i64, b: i64| a.checked_rem(b).ok_or_else(aborts);
    let (mut di, mut dr) = (0, 0);
    let mut tile = Vec::new();
    while di < from.len() || dr < to.len() {
        if di < from.len() && kept(di) {
            if dr == to.len() || size(from, di) != size(to, dr) {
                return Ok(None);
            }
            if di >= untiled {
                tile.push(tile_size(di));
            }
            di += 1;
            dr += 1;
            continue;
        }
        let start = (di, dr);
        let mut outer = 1i64;
        while di < from.len() && !kept(di) {
            let t = tile_size(di);
            outer = outer.wrapping_mul(size(from, di) / t);
            if t != 1 {
                break;
            }
            di += 1;
        }
        let mut inner = 1i64;
        while di < from.len() && !kept(di) {
            inner = inner.wrapping_mul(tile_size(di));
            di += 1;
            if di == from.len() || size(from, di) != tile_size(di) {
                break;
            }
        }
        while dr < to.len() && size(to, dr) != DYN {
            let n = size(to, dr);
            if rem(outer, n)? == 0 {
                if !tile.is_empty() {
                    tile.push(1);
                }
                outer = outer.wrapping_div(n);
                dr += 1;
            } else if rem(n, outer)? == 0 {
                break;
            } else {
                return Ok(None);
            }
        }
        while dr < to.len() && size(to, dr) != DYN {
            let n = size(to, dr);
            if rem(n, outer)? != 0 {
                return Err(aborts());
            }
            let n = n.wrapping_div(outer);
            outer = 1;
            if rem(inner, n)? == 0 {
                if !tile.is_empty() || n != 1 {
                    tile.push(n);
                }
                inner = inner.wrapping_div(n);
                dr += 1;
            } else if rem(n, inner)? == 0 {
                break;
            } else {
                return Ok(None);
            }
        }
        if outer != 1 || inner != 1 {
            return Ok(None);
        }
        if (di, dr) == start {
            return Err(
                "jaxlib 0.12 never returns on this reshape (MemRefReshapeOp::inferResultLayout \
                        loops forever: a step consumes no dimension)"
                    .into(),
            );
        }
    }
    Ok(Some(tile))
}

/// The number of `tile`-sized tiles along dimension `d` of `shape` (its size
/// when untiled or dynamic; `tile` covers the trailing dimensions, none
/// when it has more than the shape, as in jaxlib's unsigned arithmetic).
fn tile_count(shape: &[i64], tile: &[i64], d: usize) -> i64 {
    let n = shape.get(d).copied().unwrap_or(DYN);
    let t = shape
        .len()
        .checked_sub(tile.len())
        .and_then(|untiled| d.checked_sub(untiled))
        .and_then(|i| tile.get(i))
        .copied()
        .unwrap_or(1);
    if n == DYN || t < 1 {
        n
    } else {
        n / t + i64::from(n % t > 0)
    }
}

/// The tile strides of a contiguous (row-major, in tiles) layout of `shape`
/// whose first tile is `tile` (jaxlib's `getContiguousTileStrides`): `None`
/// (`?`) above a dynamic dimension.
fn contiguous_strides(shape: &[i64], tile: &[i64]) -> Vec<Option<i64>> {
    let mut strides = vec![None; shape.len()];
    let mut stride = Some(1i64);
    for (d, slot) in strides.iter_mut().enumerate().rev() {
        *slot = stride;
        let n = tile_count(shape, tile, d);
        stride = stride.filter(|_| n != DYN).map(|s| s.wrapping_mul(n));
    }
    strides
}

/// Whether the tiles of a layout of `shape` whose first tile is `tile`
/// with `strides` are contiguous (jaxlib's
/// `getNumTrailingDimsWithContiguousTiles` covers every dimension): from
/// the minor dimension, each stride is static and the contiguous one, or
/// its dimension has a single tile; a dynamic size makes every stride
/// above it a mismatch.
fn tiles_contiguous(shape: &[i64], tile: &[i64], strides: &[Option<i64>]) -> bool {
    let mut stride = Some(1i64);
    for (d, &given) in strides.iter().enumerate().rev() {
        let n = tile_count(shape, tile, d);
        if (stride.is_none() || given != stride) && n != 1 {
            return false;
        }
        stride = stride.filter(|_| n != DYN).map(|s| s.wrapping_mul(n));
    }
    true
}

/// How jaxlib prints a tiled layout: `#tpu.tiled<(8,128)(2,1),[1,1]>`.
fn tiled_text(tiles: Vec<Vec<i64>>, strides: Vec<Option<i64>>) -> String {
    format!("#tpu.{}", TiledLayout { tiles, strides })
}

/// A memref's layout as jaxlib prints it: a tiled layout respelled, another
/// as written, `None` for the identity.
fn canonical_layout(t: &Ty) -> Option<String> {
    let layout = t.layout()?;
    match (t.tiles(), t.tile_strides()) {
        (Some(tiles), Some(strides)) if t.is_tiled() => Some(tiled_text(tiles, strides)),
        _ => Some(layout.to_string()),
    }
}

/// The identity affine map of `rank` dimensions, as MLIR prints it.
fn identity_map(rank: usize) -> String {
    let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
    let dims = dims.join(", ");
    format!("affine_map<({dims}) -> ({dims})>")
}

/// How MLIR prints a memref type.
fn memref_text(shape: &[i64], elem: &str, layout: Option<&str>, space: Option<&Space>) -> String {
    let mut text = String::from("memref<");
    for d in shape {
        if *d == DYN {
            text.push_str("?x");
        } else {
            text.push_str(&format!("{d}x"));
        }
    }
    text.push_str(elem);
    if let Some(l) = layout {
        text.push_str(&format!(", {l}"));
    }
    if let Some(sp) = space {
        match &sp.core {
            Some(c) => text.push_str(&format!(", #tpu.memory_space<{}, {c}>", sp.name)),
            None => text.push_str(&format!(", #tpu.memory_space<{}>", sp.name)),
        }
    }
    text.push('>');
    text
}

/// `enqueue_indirect_dma`: SC vector subcore only, then the offsets, the
/// memory spaces and the gather/scatter shapes.
fn enqueue_indirect_dma(v: &mut OpView<'_, '_, '_>) {
    if v.core_type().unwrap_or("tc") != "sc_vector_subcore" {
        return v.op_error("Enqueue indirect DMA is supported only on the SC vector subcore");
    }
    let (Some(src), Some(dst), Some(off)) = (
        v.operand("source"),
        v.operand("target"),
        v.operand("offsets"),
    ) else {
        return;
    };
    if off.is_memref() && !in_vmem(&off) {
        return v.op_error("Offsets memref must be in VMEM");
    }
    if let Some(os) = off.shape()
        && os.len() != 1
        && !(os.len() == 2 && os[0] == 1)
    {
        return v.op_error(format!(
            "Offsets shape must be 1D or (1, N), got {}",
            shape_text(os)
        ));
    }
    if src.space().is_none() || dst.space().is_none() {
        return v.op_error("Source and target memory spaces must be provided");
    }
    if src.elem() != dst.elem() {
        return v.op_error("Source and target element type mismatch");
    }
    let Some(gather) = indirect_direction(&src, &dst) else {
        return v.op_error(INDIRECT_SPACES);
    };
    let (Some(ss), Some(ds), Some(os)) = (src.shape(), dst.shape(), off.shape()) else {
        return;
    };
    // A gather reads slices of the source: its leading (sample) dimensions
    // are indexed by the offsets.
    if gather {
        let slice = ds.len().saturating_sub(os.len());
        if ss.len() <= slice {
            return v.op_error(format!(
                "Source (gather operand) rank must be > slice rank, got source rank: {}, slice rank: {slice}",
                ss.len()
            ));
        }
        let sample = &ss[..ss.len() - slice];
        if !(sample.len() == 1 || (sample.len() == 2 && sample[0] == 1)) {
            return v.op_error(format!(
                "Source (gather operand) sample shape must be 1D or (1, N), got {}",
                shape_text(sample)
            ));
        }
        if sample.len() != os.len() {
            return v.op_error(format!(
                "Source (gather operand) sample rank must match offsets rank, got {} vs {}",
                sample.len(),
                os.len()
            ));
        }
    }
    // The indexed side (gather operand / scatter result) and the dense side.
    let (indexed, dense, what) = if gather {
        (
            ss,
            ds,
            ["source", "gather operand", "target", "gather result"],
        )
    } else {
        (
            ds,
            ss,
            ["target", "scatter result", "source", "scatter operand"],
        )
    };
    if dense.len() < os.len() || dense[..os.len()] != *os {
        return v.op_error(format!(
            "Offsets shape {} must match the majormost dimensions of the {} ({}) shape {}",
            shape_text(os),
            what[2],
            what[3],
            shape_text(dense)
        ));
    }
    let minor = dense.len() - os.len();
    if indexed.len() < minor || indexed[indexed.len() - minor..] != dense[os.len()..] {
        v.op_error(format!(
            "{minor} minormost dimension of the {} ({}) shape {} must match the minormost dimension of the {} ({}) shape {}",
            what[0],
            what[1],
            shape_text(indexed),
            what[2],
            what[3],
            shape_text(dense)
        ));
    }
}

/// The dimensions of `source` that squeezing to `target` drops, matched from
/// the minor end as jaxlib's `computeSqueezedDimsChecked` does (`None` when
/// `target` is not a squeeze of `source`).
fn squeezed_dims(source: &[i64], target: &[i64]) -> Option<Vec<usize>> {
    let mut squeezed = Vec::new();
    let mut t = target.len();
    for (i, &d) in source.iter().enumerate().rev() {
        if t > 0 && target[t - 1] == d {
            t -= 1;
        } else if d == 1 {
            squeezed.push(i);
        } else {
            return None;
        }
    }
    squeezed.reverse();
    (t == 0).then_some(squeezed)
}

/// `memref_squeeze` of a tiled memref (jaxlib's `verifyTiling`): a squeezed
/// dimension may be tiled only by a tile of size 1, and only with one tile.
fn squeezed_tiling(v: &mut OpView<'_, '_, '_>, tiles: &[Vec<i64>], source: &[i64], target: &[i64]) {
    let Some(squeezed) = squeezed_dims(source, target) else {
        return;
    };
    let Some(first) = tiles.first() else {
        return;
    };
    let first_tiled = source.len() as i64 - first.len() as i64;
    let tiled = squeezed
        .iter()
        .map(|&d| d as i64)
        .filter(|&d| d >= first_tiled);
    if tiles.len() > 1 {
        if tiled.count() > 0 {
            v.op_error("When multiple tiles are present, no tiled dimensions can be squeezed.");
        }
        return;
    }
    let sizes = tiled.filter_map(|d| {
        usize::try_from(d - first_tiled)
            .ok()
            .and_then(|i| first.get(i))
    });
    if sizes.into_iter().any(|&size| size != 1) {
        v.op_error("All tiled squeezed dimensions must be of size 1.");
    }
}

/// Whether `target` is `source` with some size-1 dimensions removed (matched
/// greedily from the front).
fn squeezes_to(source: &[i64], target: &[i64]) -> bool {
    let mut j = 0;
    for &d in source {
        if target.get(j) == Some(&d) {
            j += 1;
        } else if d != 1 {
            return false;
        }
    }
    j == target.len()
}

const INDIRECT_SPACES: &str =
    "The transfer must be between HBM and VMEM, VMEM_SHARED and VMEM, or TC VMEM and VMEM";

/// The direction of an indirect DMA: `Some(true)` for a gather (remote to
/// local VMEM), `Some(false)` for a scatter, `None` for other memory spaces.
fn indirect_direction(src: &Ty, dst: &Ty) -> Option<bool> {
    let space = |t: &Ty| -> (String, Option<String>) {
        t.space()
            .map_or((String::new(), None), |s| (s.name.clone(), s.core.clone()))
    };
    let local = |t: &Ty| space(t).0 == "vmem";
    let remote = |t: &Ty| {
        let (n, c) = space(t);
        n == "hbm" || n == "vmem_shared" || (n == "vmem" && c.as_deref() == Some("tc"))
    };
    if remote(src) && local(dst) {
        Some(true)
    } else if local(src) && remote(dst) {
        Some(false)
    } else {
        None
    }
}

/// The `ElementwiseMappable` trait's checks (vectors are the non-scalar
/// types); true when it reported an error.
fn elementwise_mappable(v: &mut OpView<'_, '_, '_>) -> bool {
    let ins: Vec<Rc<Ty>> = v.flat.iter().filter(|t| t.is_vector()).cloned().collect();
    let outs: Vec<Rc<Ty>> = v
        .results
        .iter()
        .flatten()
        .filter(|t| t.is_vector())
        .cloned()
        .collect();
    if !outs.is_empty() && ins.is_empty() {
        v.op_error("if a result is non-scalar, then at least one operand must be non-scalar");
    } else if !ins.is_empty() && outs.is_empty() {
        v.op_error(
            "if an operand is non-scalar, then there must be at least one non-scalar result",
        );
    } else if ins
        .iter()
        .chain(&outs)
        .any(|t| t.shape() != ins.first().and_then(|f| f.shape()))
    {
        v.op_error("all non-scalar operands/results must have the same shape and base type");
    } else {
        return false;
    }
    true
}

/// Compress stores and expand loads: index count, then the dimension or the
/// mask length.
fn compress_expand(v: &mut OpView<'_, '_, '_>) {
    let store = v.name.contains("store");
    let value = if store {
        v.operand("valueToStore")
    } else {
        v.result(0)
    };
    let what = if store { "valueToStore" } else { "result" };
    let base = v.operand("base");
    let rank = base.as_ref().and_then(|t| t.rank()).unwrap_or(0);
    let vreg = v.name.ends_with("_vreg");
    if !vreg
        && let Some(value) = &value
        && value.rank().is_some_and(|r| r != rank)
    {
        return v.op_error(format!(
            "Expected {what} to have the same rank as base ({rank}). Got: {}.",
            value.rank().unwrap_or(0)
        ));
    }
    if base.as_ref().is_some_and(|b| !base_in_vmem(v, b)) {
        return;
    }
    let elem_mismatch = matches!((&base, &value), (Some(b), Some(x)) if b.elem() != x.elem());
    let elem_message = format!("Expected base and {what} element type to match");
    if vreg && elem_mismatch {
        return v.op_error(elem_message);
    }
    if !indices_match_rank(v, rank) {
        return;
    }
    let Some(value) = value else { return };
    let vrank = value.rank().unwrap_or(0) as i64;
    if vreg {
        let mask = v.operand("mask");
        let (a, b) = (
            value.shape().and_then(|s| s.first().copied()),
            mask.and_then(|m| m.shape().and_then(|s| s.first().copied())),
        );
        if let (Some(a), Some(b)) = (a, b)
            && a != b
        {
            let what = if store { "valueToStore" } else { "result" };
            v.op_error(format!(
                "Expected {what} dimension 0 to match mask dimension 0: {a} vs {b}."
            ));
        }
        return;
    }
    let key = if store { "compress_dim" } else { "expand_dim" };
    if let Some(d) = v.int(key)
        && (d < 0 || d >= vrank)
    {
        return v.op_error(format!("Expected {key} to be in [0, {vrank}). Got: {d}."));
    }
    if elem_mismatch {
        return v.op_error(elem_message);
    }
    if let (Some(bs), Some(vs)) = (base.as_ref().and_then(|b| b.shape()), value.shape()) {
        let dim = v.int(key).unwrap_or(0);
        for (i, (x, b)) in vs.iter().zip(bs).enumerate() {
            if i as i64 != dim && x > b {
                let (adj, what) = if store {
                    ("Non-compressed", "valueToStore")
                } else {
                    ("Non-expanded", "result")
                };
                return v.op_error(format!(
                    "{adj} dimension {i} of {what} goes out of bounds of base ({x} > {b})."
                ));
            }
        }
    }
    if let Some(mask) = v.operand("mask")
        && let (Some(ms), Some(vs)) = (mask.shape(), value.shape())
        && ms != vs
    {
        let what = if store { "value" } else { "result" };
        v.op_error(format!(
            "Expected mask shape to match {what} shape: {}. Got: {}.",
            shape_text(vs),
            shape_text(ms)
        ));
    }
}

/// `pack_elementwise` / `unpack_elementwise`: supported type pairs, then the
/// number of sources or the index against the packing factor.
fn pack_elementwise(v: &mut OpView<'_, '_, '_>) {
    if elementwise_mappable(v) {
        return;
    }
    let pack = v.name == "tpu.pack_elementwise";
    let (wide, narrow) = if pack {
        (
            v.group("sources").first().map(|t| t.elem().to_string()),
            v.attr("target_type").map(|t| t.to_string()),
        )
    } else {
        (
            v.result(0).map(|t| t.elem().to_string()),
            v.attr("source_type").map(|t| t.to_string()),
        )
    };
    let (Some(wide), Some(narrow)) = (wide, narrow) else {
        return;
    };
    let ok = (wide == "f32" && narrow == "bf16") || (is_integer(&wide) && is_integer(&narrow));
    if !ok {
        return v
            .op_error("Only packing/unpacking f32 <-> bf16 and integer <-> integer is supported");
    }
    if pack
        && let Some(out) = v.result(0)
        && bitwidth(out.elem()) != bitwidth(&wide)
    {
        return v.op_error("All sources must have the same bitwidth as the result");
    }
    let factor = match (bitwidth(&wide), bitwidth(&narrow)) {
        (Some(w), Some(n)) if n > 0 => i64::from(w / n),
        _ => return,
    };
    if pack {
        let n = v.group("sources").len() as i64;
        if n != factor {
            v.op_error(format!(
                "The number of sources must match the packing factor ({factor}), got {n}"
            ));
        }
    } else if let Some(i) = v.int("index")
        && (i < 0 || i >= factor)
    {
        v.op_error(format!(
            "Index must be between 0 and the packing factor ({factor}), got {}",
            i as u32
        ));
    }
}

/// `pack_subelements` / `pack_vmsk`: one position per source, shapes equal
/// but for the packing dimension, and (sub-elements) the bitwidth ratio.
fn pack_subelements(v: &mut OpView<'_, '_, '_>) {
    let sources = v.group("sources");
    let positions = v.array("positions").map_or(0, |p| p.len());
    if sources.len() != positions {
        return v.op_error("Size of sources and positions must match");
    }
    let pos = v.array("positions").unwrap_or_else(|| Vec::new().into());
    let mut seen = std::collections::HashSet::new();
    if !pos.iter().all(|p| seen.insert(*p)) {
        return v.op_error("Positions must be unique");
    }
    let (Some(src), Some(out)) = (sources.first(), v.result(0)) else {
        return;
    };
    let (Some(ss), Some(os)) = (src.shape(), out.shape()) else {
        return;
    };
    if v.name == "tpu.pack_subelements" && ss.len() != os.len() && ss.len() + 1 != os.len() {
        return v.op_error("The source rank must be equal to the result rank, or smaller by 1");
    }
    // pack_subelements into a new minormost dimension (the SparseCore form,
    // `(vector<16xf32>, vector<16xf32>) -> vector<16x2xbf16>`): the sources'
    // whole shape is the result's leading one.
    let new_dim = v.name == "tpu.pack_subelements" && os.len() == ss.len() + 1;
    let lead = if new_dim {
        ss.len()
    } else {
        ss.len().saturating_sub(1)
    };
    if os.len() < lead || ss[..lead] != os[..lead] {
        return v.op_error(
            "Source and result shapes must match except for packing (result's minormost) dimension",
        );
    }
    if v.name != "tpu.pack_subelements" {
        // pack_vmsk: the packing ratio is the result's minormost dimension
        // over the source's (or the new minormost dimension).
        let ratio = match (ss.last(), os.last()) {
            (Some(&l), Some(&o)) if os.len() == ss.len() && l > 0 => o / l,
            (_, Some(&o)) if os.len() == ss.len() + 1 => o,
            _ => return,
        };
        if let Some(p) = pos.iter().find(|p| **p < 0 || **p >= ratio) {
            v.op_error(format!(
                "Positions must be between 0 and the packing ratio ({ratio}), got {p}"
            ));
        }
        return;
    }
    let (Some(ws), Some(wo)) = (bitwidth(src.elem()), bitwidth(out.elem())) else {
        return;
    };
    let (Some(&ls), Some(&lo)) = (if new_dim { Some(&1) } else { ss.last() }, os.last()) else {
        return;
    };
    if wo == 0 || ls <= 0 || i64::from(ws) * ls != i64::from(wo) * lo {
        return v.op_error("Ratio of bitwidths must match the ratio of packing dimensions");
    }
    let ratio = i64::from(ws / wo);
    if let Some(p) = pos.iter().find(|p| **p < 0 || **p >= ratio) {
        v.op_error(format!(
            "Positions must be between 0 and the packing ratio ({ratio}), got {p}"
        ));
    }
}

/// conv's group rule for one LHS dimension (`group` = (dimension, count
/// attribute, its positive value)): the LHS size `n` splits into whole groups,
/// and one group is the `target` dimension's size. Reports jaxlib's message and
/// returns true when it does not.
fn group_split_error(
    v: &mut OpView<'_, '_, '_>,
    (dim, count_name, count): (&str, &str, i64),
    n: i64,
    (target, t): (&str, i64),
) -> bool {
    if n % count != 0 {
        v.op_error(format!(
            "LHS {dim} dimension size ({n}) must be divisible by {count_name} ({count})"
        ));
        return true;
    }
    if n / count != t {
        v.op_error(format!(
            "LHS {dim} dimension size divided by {count_name} ({n} / {count} = {}) must match {target} dimension size ({t})",
            n / count
        ));
        return true;
    }
    false
}

/// `conv`: acc and result types, the ranks against the spatial dimensions,
/// the spatial counts, each operand's dimension numbers a permutation, the
/// window attributes' sizes, the group counts, the feature and batch sizes,
/// then per spatial dimension its stride, dilations, padded size and output
/// size (in jaxlib's order; its int64 arithmetic wraps, so ours does).
fn conv(v: &mut OpView<'_, '_, '_>) {
    let Some(dn) = v.attr("dimension_numbers") else {
        return;
    };
    let (Some(acc), Some(out)) = (v.operand("acc"), v.result(0)) else {
        return;
    };
    if acc != out {
        let text = |t: &Ty| vector_text(t.shape().unwrap_or(&[]), t.elem());
        return v.op_error(format!(
            "Conv acc and result have different types: '{}' vs '{}'",
            text(&acc),
            text(&out)
        ));
    }
    let Some(Ok([(lb, lf, lsp), (rif, rof, rsp), (ob, of, osp)])) = dn
        .strip_prefix("#tpu.conv_dimension_numbers")
        .map(super::syntax::conv_dimension_numbers)
    else {
        return;
    };
    let (Some(lhs), Some(rhs)) = (v.operand("lhs"), v.operand("rhs")) else {
        return;
    };
    let (Some(ls), Some(rs), Some(os)) = (lhs.shape(), rhs.shape(), acc.shape()) else {
        return;
    };
    let n_spatial = lsp.len();
    let Some(rank) = n_spatial.checked_add(2) else {
        return;
    };
    for (what, shape) in [("lhs", ls), ("rhs", rs), ("acc", os)] {
        if shape.len() != rank {
            return v.op_error(format!(
                "Expected {what} rank to be {rank} (2 + num_spatial), got {}",
                shape.len()
            ));
        }
    }
    if rsp.len() != n_spatial || osp.len() != n_spatial {
        return v.op_error("Expected spatial dimensions count to match across operands");
    }
    // Each operand's two named dimensions and its spatial ones are distinct
    // and in range, and so cover every dimension exactly once.
    let permutes = |d0: i64, d1: i64, spatial: &[i64]| {
        let mut seen = vec![false; rank];
        [d0, d1].iter().chain(spatial).all(|&d| {
            usize::try_from(d)
                .ok()
                .and_then(|d| seen.get_mut(d))
                .is_some_and(|s| !std::mem::replace(s, true))
        }) && seen.iter().all(|s| *s)
    };
    for (what, d0, d1, spatial) in [
        ("lhs", lb, lf, &lsp),
        ("rhs", rif, rof, &rsp),
        ("acc/result", ob, of, &osp),
    ] {
        if !permutes(d0, d1, spatial) {
            return v.op_error(format!("Invalid dimension permutation for {what}"));
        }
    }
    let empty = || -> Rc<[i64]> { Vec::new().into() };
    let strides = v.array("window_strides").unwrap_or_else(empty);
    let padding = v.array("padding").unwrap_or_else(empty);
    let ldil = v.array("lhs_dilation").unwrap_or_else(empty);
    let rdil = v.array("rhs_dilation").unwrap_or_else(empty);
    let reversal = v.attr("window_reversal").map_or(0, |t| {
        t.matches("true").count() + t.matches("false").count()
    });
    if strides.len() != n_spatial
        || Some(padding.len()) != n_spatial.checked_mul(2)
        || ldil.len() != n_spatial
        || rdil.len() != n_spatial
        || reversal != n_spatial
    {
        return v.op_error("Expected window attributes size to match spatial dims");
    }
    let groups = v.int("feature_group_count").unwrap_or(1);
    let batch_groups = v.int("batch_group_count").unwrap_or(1);
    if groups <= 0 {
        return v.op_error("Expected feature_group_count to be positive");
    }
    if batch_groups <= 0 {
        return v.op_error("Expected batch_group_count to be positive");
    }
    if groups > 1 && batch_groups > 1 {
        return v.op_error("At most one of batch_group_count and feature_group_count may be > 1");
    }
    // The permutations above make every dimension number an index of its shape.
    let size = |shape: &[i64], d: i64| usize::try_from(d).ok().and_then(|d| shape.get(d).copied());
    let (Some(in_feat), Some(k_in_feat)) = (size(ls, lf), size(rs, rif)) else {
        return;
    };
    if group_split_error(
        v,
        ("feature", "feature_group_count", groups),
        in_feat,
        ("kernel input feature", k_in_feat),
    ) {
        return;
    }
    let (Some(out_feat), Some(k_out_feat)) = (size(os, of), size(rs, rof)) else {
        return;
    };
    // At most one count exceeds 1, so the product does not overflow.
    let g = groups.saturating_mul(batch_groups);
    if k_out_feat % g != 0 {
        return v.op_error(format!(
            "Kernel output feature dimension size ({k_out_feat}) must be divisible by feature_group_count * batch_group_count ({g})"
        ));
    }
    if out_feat != k_out_feat {
        return v.op_error(format!(
            "ACC output feature dimension size ({out_feat}) must match kernel output feature dimension size ({k_out_feat})"
        ));
    }
    let (Some(in_batch), Some(out_batch)) = (size(ls, lb), size(os, ob)) else {
        return;
    };
    if group_split_error(
        v,
        ("batch", "batch_group_count", batch_groups),
        in_batch,
        ("ACC output batch", out_batch),
    ) {
        return;
    }
    // A size dilated by `dil`: 0 stays 0 (wrapping, as jaxlib's int64 does).
    let dilate = |n: i64, dil: i64| {
        if n == 0 {
            0
        } else {
            n.wrapping_sub(1).wrapping_mul(dil).wrapping_add(1)
        }
    };
    for i in 0..n_spatial {
        let (Some(&ld), Some(&kd), Some(&od)) = (lsp.get(i), rsp.get(i), osp.get(i)) else {
            return;
        };
        let (Some(in_size), Some(k_size), Some(o_size)) =
            (size(ls, ld), size(rs, kd), size(os, od))
        else {
            return;
        };
        let lo_hi = i
            .checked_mul(2)
            .and_then(|j| Some((padding.get(j)?, padding.get(j + 1)?)));
        let (Some(&stride), Some((&lo, &hi)), Some(&l_dil), Some(&r_dil)) =
            (strides.get(i), lo_hi, ldil.get(i), rdil.get(i))
        else {
            return;
        };
        if stride <= 0 {
            return v.op_error("Expected window strides to be positive");
        }
        if l_dil <= 0 || r_dil <= 0 {
            return v.op_error("Expected dilations to be positive");
        }
        let padded = dilate(in_size, l_dil).wrapping_add(lo).wrapping_add(hi);
        let kernel = dilate(k_size, r_dil);
        if padded < kernel {
            return v.op_error(format!(
                "Padded input spatial size ({padded}) must be at least dilated kernel size ({kernel}) for spatial dimension {i}"
            ));
        }
        // `stride` is positive, so the division cannot overflow.
        let want = padded
            .wrapping_sub(kernel)
            .wrapping_div(stride)
            .wrapping_add(1);
        if o_size != want {
            return v.op_error(format!(
                "Output spatial dimension {od} size mismatch: expected {want}, got {o_size}"
            ));
        }
    }
}

/// `sublane_shuffle`: a 2D or 3D vreg, one pattern entry per sublane (the
/// majormost dimension), each
/// indexing the two operands' sublanes.
fn sublane_shuffle(v: &mut OpView<'_, '_, '_>) {
    let Some(out) = v.result(0) else { return };
    let Some(s) = out.shape() else { return };
    if s.len() != 2 && s.len() != 3 {
        return v.op_error("Vreg rank should be 2 or 3");
    }
    // A vreg is (sublanes, lanes[, packing]).
    let sublanes = s[0];
    let pattern = v.array("pattern").unwrap_or_else(|| Vec::new().into());
    if pattern.len() as i64 != sublanes {
        return v.op_error(format!(
            "Expected pattern size ({}) to match result/operand sublanes ({sublanes})",
            pattern.len()
        ));
    }
    let max = sublanes.saturating_mul(2) - 1;
    if let Some(p) = pattern.iter().find(|p| **p < 0 || **p > max) {
        v.op_error(format!("Pattern index {p} out of bounds [0, {max}]"));
    }
}

/// `reinterpret_cast`: the dynamic sizes the result type asks for, and the
/// same memory space on both sides.
fn reinterpret_cast(v: &mut OpView<'_, '_, '_>) {
    let (Some(src), Some(out)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    let dynamic = out
        .shape()
        .map_or(0, |s| s.iter().filter(|d| **d == DYN).count());
    let n = v.group("dynamic_sizes").len();
    if dynamic != n {
        return v.op_error(format!(
            "expected {dynamic} dynamic size(s) for the result type, but got {n}"
        ));
    }
    if src.space() != out.space() {
        let text = |t: &Ty| {
            t.space()
                .map_or("<<NULL ATTRIBUTE>>".to_string(), |s| match &s.core {
                    Some(c) => format!("#tpu.memory_space<{}, {c}>", s.name),
                    None => format!("#tpu.memory_space<{}>", s.name),
                })
        };
        v.op_error(format!(
            "Source and target memory spaces must match, but got {} and {}",
            text(&src),
            text(&out)
        ));
    }
}

fn elems(t: &Ty) -> Option<i64> {
    let s = t.shape()?;
    if s.contains(&DYN) {
        return None;
    }
    s.iter().try_fold(1i64, |acc, d| acc.checked_mul(*d))
}

fn shape_text(s: &[i64]) -> String {
    let parts: Vec<String> = s.iter().map(ToString::to_string).collect();
    format!("({})", parts.join(", "))
}

fn in_vmem(t: &Ty) -> bool {
    t.space().is_none_or(|s| s.name == "vmem")
}

/// Not a rank-0 ref: jaxlib reads a rank from whatever type the accessor
/// gives (a shifted segment can hand it an `i32`), which is never 0 there.
fn not_rank0(t: &Ty) -> bool {
    t.rank() != Some(0)
}

fn rank0(v: &mut OpView<'_, '_, '_>, operand: &str, message: &str) {
    if v.operand(operand).is_some_and(|t| not_rank0(&t)) {
        v.op_error(message.to_string());
    }
}

/// The base's rank; a base that is not a memref (a shifted segment) is an
/// error in jaxlib too (it reads a garbage rank).
/// One index per dimension of the base memref (`Expected N indices.`);
/// false after reporting.
fn indices_match_rank(v: &mut OpView<'_, '_, '_>, rank: usize) -> bool {
    if v.group("indices").len() != rank {
        v.op_error(format!("Expected {rank} indices."));
        return false;
    }
    true
}

/// The base memref of a vector load/store is in VMEM; false after reporting.
fn base_in_vmem(v: &mut OpView<'_, '_, '_>, base: &Ty) -> bool {
    if !in_vmem(base) {
        v.op_error("Expected base memref to be in VMEM.");
        return false;
    }
    true
}

/// `base` and `value` (the op's `what`: `result`, `valueToStore`) have one
/// element type; jaxlib's message ends in `end` (`.` for loads, nothing for
/// stores). False after reporting.
fn elements_match(
    v: &mut OpView<'_, '_, '_>,
    base: &Ty,
    value: &Ty,
    what: &str,
    end: &str,
) -> bool {
    if base.elem() != value.elem() {
        v.op_error(format!(
            "Expected base and {what} element type to match{end}"
        ));
        return false;
    }
    true
}

/// A masked `access` (`load`, `store`) moves 32-bit elements; false after
/// reporting jaxlib's `Not implemented` error.
fn masked_32bit(v: &mut OpView<'_, '_, '_>, value: &Ty, access: &str) -> bool {
    if bitwidth(value.elem()) != Some(32) {
        v.plain_error(format!(
            "Not implemented: masked {access} with non-32-bit element type"
        ));
        return false;
    }
    true
}

fn base_rank(v: &mut OpView<'_, '_, '_>, base: &Ty) -> Option<usize> {
    if !base.is_memref() {
        v.plain_error(format!(
            "'{}' op base is not a memref: operandSegmentSizes does not give `base` its value",
            v.name
        ));
        return None;
    }
    base.rank()
}

fn strided(v: &mut OpView<'_, '_, '_>) {
    let Some(base) = v.operand("base") else {
        return;
    };
    let rank = base.rank().unwrap_or(0);
    let n = v.group("indices").len();
    if n != rank {
        return v.plain_error(format!(
            "Base memref's rank and indices size do not match: {rank} vs {n}"
        ));
    }
    let s = v.array("strides").unwrap_or_default().len();
    if s != rank {
        return v.plain_error(format!(
            "Base memref's rank and strides size do not match: {rank} vs {s}"
        ));
    }
    let value = if v.name == "tpu.strided_load" {
        v.result(0)
    } else {
        v.operand("valueToStore")
    };
    if let Some(r) = value.and_then(|t| t.rank())
        && r != rank
    {
        v.plain_error(format!(
            "Base memref's rank and result's rank do not match: {rank} vs {r}"
        ));
    }
}

fn vector_store(v: &mut OpView<'_, '_, '_>) {
    let (Some(val), Some(base)) = (v.operand("valueToStore"), v.operand("base")) else {
        return;
    };
    let strides = v.array("strides").unwrap_or_default();
    if !strides.is_empty() {
        v.plain_error("Not implemented: general vector store with strides.");
        return;
    }
    let Some(rank) = base_rank(v, &base) else {
        return;
    };
    if !indices_match_rank(v, rank)
        || !base_in_vmem(v, &base)
        || !elements_match(v, &base, &val, "valueToStore", "")
    {
        return;
    }
    if let Some(mask) = v.operand("mask") {
        if !masked_32bit(v, &val, "store") {
            return;
        }
        let (vs, ms) = (val.shape().unwrap_or(&[]), mask.shape().unwrap_or(&[]));
        if vs != ms {
            v.op_error(format!(
                "Expected mask shape to match result shape: {}. Got: {}.",
                shape_text(vs),
                shape_text(ms)
            ));
        }
    }
}

fn vector_load(v: &mut OpView<'_, '_, '_>) {
    let (Some(base), Some(res)) = (v.operand("base"), v.result(0)) else {
        return;
    };
    let Some(rank) = base_rank(v, &base) else {
        return;
    };
    if !indices_match_rank(v, rank) {
        return;
    }
    let strides = v.array("strides").unwrap_or_default();
    if !strides.is_empty() {
        if strides.len() != rank {
            v.op_error(format!("Expected {rank} strides."));
        } else {
            v.plain_error("Not implemented: general vector load with strides.");
        }
        return;
    }
    if !base_in_vmem(v, &base) || !elements_match(v, &base, &res, "result", ".") {
        return;
    }
    if let Some(mask) = v.operand("mask") {
        if !masked_32bit(v, &res, "load") {
            return;
        }
        let (rs, ms) = (res.shape().unwrap_or(&[]), mask.shape().unwrap_or(&[]));
        let ok = rs.len() == ms.len() && rs.iter().zip(ms).all(|(r, m)| *m == 1 || m == r);
        if !ok {
            v.op_error("Expected mask shape to be broadcastable to result shape.");
        }
    }
}

fn memref_slice(v: &mut OpView<'_, '_, '_>) {
    let (Some(src), Some(dst)) = (v.operand("mem_ref"), v.result(0)) else {
        return;
    };
    let dyn_dims = dst
        .shape()
        .unwrap_or(&[])
        .iter()
        .filter(|d| **d == DYN)
        .count();
    if v.group("dynamic_sizes").len() != dyn_dims {
        v.op_error(
            "Number of provided dynamic dimensions sizes must match the number of dynamic dimensions in the target type.",
        );
        return;
    }
    if src.space().is_some_and(|s| s.name == "semaphore_mem")
        && !src.elem().starts_with("!tpu.semaphore")
        && !src.elem().starts_with("!tpu.dma_semaphore")
    {
        v.op_error("References to semaphore memory space must have a semaphore element type.");
        return;
    }
    let rank = src.rank().unwrap_or(0);
    if v.group("base_idx").len() != rank || dst.rank() != Some(rank) {
        v.op_error("Indices and slice shapes must match.");
        return;
    }
    if dst.space() != src.space() {
        v.op_error("Memory spaces do not match.");
        return;
    }
    // jaxlib compares only whether each side is tiled, not the tilings.
    if src.is_tiled() != dst.is_tiled() {
        v.op_error("Source and target layouts must match.");
        return;
    }
    if let Some(first) = src.tiles().and_then(|t| t.into_iter().next())
        && first.len() > rank
    {
        v.op_error(format!(
            "Source memref has {rank} dimensions, but the tiling has {} dimensions. The memref must have at least as many dimensions as the tiling.",
            first.len()
        ));
    }
}

/// The memory space's owning core, else the issuing core.
fn core_of(t: &Ty, issuing: &'static str) -> String {
    t.space()
        .and_then(|s| s.core.clone())
        .unwrap_or_else(|| issuing.to_string())
}

// Early returns mirror jaxlib's order of checks, one error per op.
#[allow(clippy::needless_return)]
fn dma(v: &mut OpView<'_, '_, '_>, enqueue: bool) {
    let (Some(src), Some(dst)) = (v.operand("source"), v.operand("target")) else {
        return;
    };
    let src_sem = v.operand("source_semaphore");
    let dst_sem = v.operand("target_semaphore");
    let device_id = v.operand("device_id").is_some();
    let core_id = v.operand("core_id").is_some();
    let subcore_id = v.operand("subcore_id").is_some();
    if dst_sem.as_ref().is_some_and(|t| not_rank0(t)) {
        return v.op_error("DMA target semaphore must be rank 0");
    }
    if src_sem.as_ref().is_some_and(|t| not_rank0(t)) {
        return v.op_error("DMA source semaphore reference must be rank 0");
    }
    if let (Some(a), Some(b)) = (&src_sem, &dst_sem)
        && a.elem() != b.elem()
    {
        return v.op_error("DMA source and target semaphore must have the same type");
    }
    if src.elem() != dst.elem() {
        return v.op_error("DMA source and target element type mismatch");
    }
    if src.shape() != dst.shape() {
        return v.op_error("DMA source and target shape mismatch.");
    }
    let issuing = v.core_type().unwrap_or("tc");
    let sc = issuing != "tc";
    if sc && src.space().is_none() {
        return v.op_error("Source memory space must be provided for SparseCore DMA");
    }
    if sc && dst.space().is_none() {
        return v.op_error("Target memory space must be provided for SparseCore DMA");
    }
    let priority = v.int("priority").unwrap_or(0);
    if priority != 0 && priority != 1 {
        return v.op_error(format!(
            "Not implemented: only support priority 0 or 1, but got {priority}"
        ));
    }
    if priority != 0 && device_id {
        return v.op_error("Not implemented: non-zero priority is not supported for remote DMA");
    }
    if let Some(sem_core) = src_sem
        .as_ref()
        .and_then(|t| t.space().and_then(|s| s.core.clone()))
        && sem_core != core_of(&src, issuing)
    {
        return v.op_error("Source semaphore and source ref core type mismatched");
    }
    let target_core = dst_sem
        .as_ref()
        .map(|t| core_of(t, issuing))
        .unwrap_or_else(|| issuing.to_string());
    if target_core != issuing && !core_id {
        return v.op_error(format!(
            "Core id must be specified when target core type ({target_core}) is different from source core type ({issuing})"
        ));
    }
    if v.flag("strict_ordering") && !sc {
        return v
            .op_error("Strict ordering is only supported on the SC scalar and vector subcores");
    }
    let explicit_smem = |t: &Ty| {
        t.space()
            .is_some_and(|s| s.name == "smem" && s.core.as_deref() == Some("tc"))
    };
    let non_dma_sem = [&src_sem, &dst_sem]
        .iter()
        .any(|s| s.as_ref().is_some_and(|t| t.elem() == "!tpu.semaphore"));
    if (explicit_smem(&src) || explicit_smem(&dst)) && non_dma_sem {
        return v.op_error("Non-DMA semaphores are not supported for DMAs involving SMEM");
    }
    if subcore_id && target_core != "sc_vector_subcore" {
        return v
            .op_error("Subcore id should not be set unless target core type is SC vector subcore");
    }
    let local = |t: &Ty| match issuing {
        "sc_vector_subcore" => t.space().is_some_and(|s| s.name == "vmem"),
        "sc_scalar_subcore" => t.space().is_some_and(|s| s.name == "smem"),
        _ => true,
    };
    if enqueue {
        if (device_id || core_id) && src_sem.is_none() {
            return v.op_error(
                "DMA source semaphore must be specified when device_id or core_id is specified",
            );
        }
        if !sc {
            if dst_sem.is_none() {
                return v.op_error("DMA target semaphore must be specified");
            }
            if src_sem.is_some() && !device_id && !core_id {
                return v.op_error(
                    "DMA destination device_id or core_id must be specified when source semaphore is specified",
                );
            }
        } else if src_sem.is_some() && !device_id && !core_id && !local(&src) && local(&dst) {
            return v.op_error(
                "Source semaphores are unsupported for transfers from a non-local memory to local memory on SparseCore",
            );
        }
    } else {
        let wait_target = v.flag("wait_target");
        if !sc {
            if wait_target && dst_sem.is_none() {
                return v.op_error("DMA target semaphore must be specified");
            }
            if !wait_target && src_sem.is_none() {
                return v.op_error("The awaited semaphore must be provided");
            }
            if wait_target && src_sem.is_some() && !device_id && !core_id {
                return v.op_error(
                    "DMA destination device_id or core_id must be specified when source semaphore is specified",
                );
            }
        } else if !wait_target && !local(&src) && local(&dst) {
            return v.op_error(
                "Awaiting source read completion is unsupported for transfers from a non-local memory to local memory on SparseCore",
            );
        }
        let awaited = if wait_target { &dst_sem } else { &src_sem };
        if let Some(t) = awaited
            && core_of(t, issuing) != issuing
        {
            v.op_error("Can only await semaphores attached to the local core");
        }
    }
}

fn wait_dma2(v: &mut OpView<'_, '_, '_>) {
    let Some(sem) = v.operand("semaphore") else {
        return;
    };
    if not_rank0(&sem) {
        return v.op_error("DMA wait semaphore must be rank 0");
    }
    let issuing = v.core_type().unwrap_or("tc");
    if core_of(&sem, issuing) != issuing {
        v.op_error("Can only await semaphores attached to the local core");
    }
}

fn sem_signal(v: &mut OpView<'_, '_, '_>) {
    let Some(sem) = v.operand("semaphore") else {
        return;
    };
    if not_rank0(&sem) {
        return v.op_error("Semaphore reference must be rank 0");
    }
    let issuing = v.core_type().unwrap_or("tc");
    let target = core_of(&sem, issuing);
    let remote = v.operand("device_id").is_some() || v.operand("core_id").is_some();
    if !remote && target != issuing {
        return v.op_error(format!(
            "Target core type ({target}) must match source core type ({issuing}) when device_id and core_id are not specified"
        ));
    }
    if v.operand("subcore_id").is_some() && target != "sc_vector_subcore" {
        v.op_error("Subcore id should not be set unless target core type is SC vector subcore");
    }
}

/// `matmul`: the acc type, then (with dimension numbers) the counts, order
/// and sizes of the dimension lists against the operands, each dimension
/// used once, the batch sizes, and the output dim order
/// `[0, lhs_batch_dims, 0, lhs_non_contracting_dims, 1, rhs_non_contracting_dims]`
/// (each dimension paired with its operand), in jaxlib 0.12's order.
fn matmul(v: &mut OpView<'_, '_, '_>) {
    let (Some(acc), Some(res)) = (v.operand("acc"), v.result(0)) else {
        return;
    };
    if acc != res {
        return v.op_error("Not implemented: matmul acc and result have different types");
    }
    if bitwidth(acc.elem()) != Some(32) {
        return v.op_error("Expected matmul acc to be 32-bit");
    }
    if v.flag("transpose_lhs") {
        return v.op_error(
            "Lhs transpose not supported via this API - please use the dimension numbers API.",
        );
    }
    let Some(dn) = v.attr("dimension_numbers") else {
        return;
    };
    let Some(Ok(lists)) = dn
        .strip_prefix("#tpu.dot_dimension_numbers")
        .map(super::syntax::dot_dimension_numbers)
    else {
        return;
    };
    let (Some(lhs), Some(rhs)) = (v.operand("lhs"), v.operand("rhs")) else {
        return;
    };
    let (ls, rs) = (lhs.shape().unwrap_or(&[]), rhs.shape().unwrap_or(&[]));
    let [lc, rc, lnc, rnc, order, lb, rb] = &lists;
    if lc.len() != rc.len() || lc.is_empty() {
        return v.op_error(
            "Not implemented: number of lhs and rhs contracting dims must be equal and non-zero",
        );
    }
    for (side, nc) in [("lhs", lnc), ("rhs", rnc)] {
        if !nc.is_sorted() {
            return v.op_error(format!(
                "Not implemented: {side} non contracting dims must be sorted"
            ));
        }
    }
    for (side, c, nc, b, shape) in [("lhs", lc, lnc, lb, ls), ("rhs", rc, rnc, rb, rs)] {
        if c.len() + nc.len() + b.len() != shape.len() {
            return v.op_error(format!(
                "Not implemented: {side} contracting + non contracting + batch dims must be of the same size as the {side} shape"
            ));
        }
    }
    // jaxlib compares the sizes before it checks the dimensions are in range
    // (reading out of bounds then, often crashing): a dimension out of range
    // counts as a mismatch here.
    let dim = |s: &[i64], d: i64| usize::try_from(d).ok().and_then(|d| s.get(d)).copied();
    let same = |(l, r): (&i64, &i64)| dim(ls, *l).is_some_and(|l| Some(l) == dim(rs, *r));
    if !lc.iter().zip(rc).all(same) {
        return v
            .op_error("Not implemented: lhs and rhs contracting dims must be of the same size");
    }
    if lb.len() != rb.len() {
        return v
            .op_error("Not implemented: lhs and rhs should have the same number of batch dims");
    }
    for (side, lists, shape) in [("lhs", [lc, lnc, lb], ls), ("rhs", [rc, rnc, rb], rs)] {
        let mut seen = vec![false; shape.len()];
        for &d in lists.into_iter().flatten() {
            let Some(slot) = usize::try_from(d).ok().and_then(|i| seen.get_mut(i)) else {
                return v.op_error(format!("Illegal: Dim {d} is out of bounds for {side}"));
            };
            if *slot {
                return v.op_error(format!(
                    "Illegal: Dim {d} repeats in dimension numbers of {side}"
                ));
            }
            *slot = true;
        }
        // Unreachable once the counts match the rank, kept as jaxlib has it.
        if let Some(d) = seen.iter().position(|s| !s) {
            return v.op_error(format!(
                "Illegal: Dim {d} is not seen in {side} dimension numbers"
            ));
        }
    }
    // The dimensions are in range now. A batch size of 0 cannot occur
    // (vector dimensions are positive), so `batch size must be > 0` is not
    // ported.
    if !lb.iter().zip(rb).all(same) {
        return v.op_error("Not Implemented: batch size must be equal");
    }
    if order.len() % 2 != 0 {
        return v.op_error("Illegal: output dim order must have an even number of elements.");
    }
    let expected = lb
        .iter()
        .chain(lnc)
        .flat_map(|&d| [0, d])
        .chain(rnc.iter().flat_map(|&d| [1, d]));
    if !order.iter().copied().eq(expected) {
        v.op_error(
            "Illegal: output dim order must be in the form of [0, lhs_batch_dims, 0, lhs_non_contracting_dims, 1, rhs_non_contracting_dims]",
        );
    }
}

const DEPRECATED_KINDS: &str = "max and min reduction kind symbols are deprecated. Max and min reductions are supported via maxf, minf, maxsi, minsi, maxui, or minui instead";

/// The common reduction-kind/element-type rules; returns true after an error.
/// `scan` ends its messages with a period and allows fewer kinds.
fn kind_rules(v: &mut OpView<'_, '_, '_>, elem: &str, scan: bool) -> bool {
    let reduce = v.name == "tpu.reduce";
    let kind = v.tpu_attr("kind").unwrap_or_default();
    let dot = if scan { "." } else { "" };
    match kind.as_str() {
        "max" | "min" => {
            v.op_error(format!("{DEPRECATED_KINDS}{dot}"));
            true
        }
        "arg_max" | "arg_min" | "find_first_set" if scan => {
            v.op_error("Only sum, max and min reductions are supported.");
            true
        }
        "arg_max" | "arg_min" if reduce => {
            v.op_error("arg_max/arg_min not supported - use tpu.reduce_index instead");
            true
        }
        "find_first_set" if reduce => {
            v.op_error("find_first_set not supported");
            true
        }
        "maxf" | "minf" if !is_float(elem) => {
            v.op_error(format!(
                "maxf and minf reductions require float element type{dot}"
            ));
            true
        }
        "maxsi" | "minsi" | "maxui" | "minui" if !is_integer(elem) => {
            v.op_error(format!(
                "maxsi, minsi, maxui and minui reductions require integer element type{dot}"
            ));
            true
        }
        _ => false,
    }
}

fn reduce(v: &mut OpView<'_, '_, '_>) {
    let (Some(inp), Some(out)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    if kind_rules(v, inp.elem(), false) {
        return;
    }
    let dims = v.array("dimensions").unwrap_or_default();
    let is = inp.shape().unwrap_or(&[]);
    let os = out.shape().unwrap_or(&[]);
    for &d in dims.iter() {
        if d < 0 || d as usize >= is.len() {
            return v.op_error(format!(
                "Reduced dimension {d} is out of bounds [0, {})",
                is.len()
            ));
        }
    }
    for (i, d) in dims.iter().enumerate() {
        if dims[..i].contains(d) {
            return v.op_error(format!("Reduced dimension {d} is present more than once"));
        }
    }
    for (i, &size) in os.iter().enumerate() {
        let want = if dims.contains(&(i as i64)) {
            1
        } else {
            is.get(i).copied().unwrap_or(1)
        };
        if size != want {
            return v.op_error(format!(
                "Expected output dimension {i} to have size {want}, but got {size}"
            ));
        }
    }
    if inp.elem() != out.elem() {
        v.op_error(
            "Input and output must have the same element type for sum, max and min reductions",
        );
    }
}

fn all_reduce(v: &mut OpView<'_, '_, '_>) {
    let (Some(inp), Some(out)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    let kind = v.tpu_attr("kind").unwrap_or_default();
    // A mask (i1 vector) reduces to i32 counts or indices, before any kind rule.
    if inp.is_vector() && inp.elem() == "i1" {
        if out.elem() != "i32" {
            return v.op_error("Vector mask all-reduce must have i32 output");
        }
        if !matches!(kind.as_str(), "sum" | "find_first_set") {
            v.op_error("Mask all-reduce only supports sum and find_first_set kinds");
        }
        return;
    }
    if kind_rules(v, inp.elem(), false) {
        return;
    }
    if kind == "find_first_set" {
        return v.op_error("Only i1 input is supported for find_first_set");
    }
    if matches!(kind.as_str(), "arg_max" | "arg_min") {
        if !matches!(inp.elem(), "f32" | "bf16") {
            return v.op_error(
                "Not Implemented: Only f32 and bf16 input is supported for arg_max and arg_min",
            );
        }
        // The index has the input's width.
        let index = if inp.elem() == "bf16" { "i16" } else { "i32" };
        if out.elem() != index {
            v.op_error(format!("Arg_max and arg_min must have {index} output"));
        }
        return;
    }
    if matches!(
        kind.as_str(),
        "sum" | "maxf" | "minf" | "maxsi" | "minsi" | "maxui" | "minui"
    ) && inp != out
    {
        v.op_error("Sum, max, and min reductions must have the same input and output type");
    }
}

fn scan(v: &mut OpView<'_, '_, '_>) {
    let (Some(inp), Some(out)) = (v.operand("input"), v.result(0)) else {
        return;
    };
    let kind = v.tpu_attr("kind").unwrap_or_default();
    match kind.as_str() {
        "max" | "min" => return v.op_error(format!("{DEPRECATED_KINDS}.")),
        "arg_max" | "arg_min" | "find_first_set" => {
            return v.op_error("Only sum, max and min reductions are supported.");
        }
        _ => {}
    }
    if inp.elem() == "i1" {
        if out.elem() != "i32" {
            return v.op_error("Output element type must be i32 vector for i1 vector inputs.");
        }
    } else if inp.elem() != out.elem() {
        return v.op_error("Input and output element type mismatch.");
    }
    let rank = inp.rank().unwrap_or(0) as i64;
    if let Some(d) = v.int("dimension")
        && (d < 0 || d >= rank)
    {
        return v.op_error("Dimension must be in [0, rank).");
    }
    if let (Some(a), Some(b)) = (inp.shape(), out.shape())
        && a != b
    {
        return v.op_error(format!(
            "Input and output shape mismatch. Input shape: {}. Output shape: {}.",
            shape_text(a),
            shape_text(b)
        ));
    }
    if inp.elem() == "i1" && kind != "sum" {
        return v.op_error("Only sum reduction is supported for i1 vector inputs.");
    }
    if kind_rules(v, inp.elem(), true) {
        return;
    }
    if let Some(mask) = v.operand("mask")
        && mask.shape() != inp.shape()
        && let (Some(want), Some(got)) = (elems(&inp), elems(&mask))
    {
        v.op_error(format!(
            "Mask and input mismatch. Expected mask of length: {want}, but got {got}."
        ));
    }
}

fn iota(v: &mut OpView<'_, '_, '_>) {
    let Some(out) = v.result(0) else { return };
    let rank = out.rank().unwrap_or(0) as i64;
    let dims = v.array("dimensions").unwrap_or_default();
    for d in dims.iter() {
        if *d < 0 || *d >= rank {
            return v.op_error(format!("Invalid dimension: {d}"));
        }
    }
    let mut sorted = dims.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != dims.len() {
        v.op_error("Dimensions must be unique");
    }
}

fn vector_text(shape: &[i64], elem: &str) -> String {
    let mut t = String::from("vector<");
    for d in shape {
        t.push_str(&format!("{d}x"));
    }
    t.push_str(elem);
    t.push('>');
    t
}

fn concatenate(v: &mut OpView<'_, '_, '_>) {
    let srcs = v.group("sources");
    if srcs.len() < 2 {
        return v.op_error("Expected at least 2 operands for concatenate op.");
    }
    if srcs.iter().any(|s| s.elem() != srcs[0].elem()) {
        return v
            .op_error("Not implemented:: Expected all operands to have the same element type.");
    }
    // InferTypeOpInterface: the result is the sources joined along `dimension`.
    if let (Some(first), Some(out)) = (srcs.first(), v.result(0))
        && let Some(shape) = first.shape()
    {
        let dim = v.int("dimension").unwrap_or(0);
        let Some(d) = usize::try_from(dim).ok().filter(|d| *d < shape.len()) else {
            return v.op_error("failed to infer returned types");
        };
        // Each source's dimensions (but the concatenated one) against the
        // first source's.
        if srcs.iter().any(|x| {
            x.shape().is_some_and(|xs| {
                xs.iter()
                    .enumerate()
                    .any(|(i, n)| i != d && shape.get(i) != Some(n))
            })
        }) {
            return v.op_error(
                "Not implemented: Expected all operands to have the same shape outside of the concat dim",
            );
        }
        let mut inferred = shape.to_vec();
        inferred[d] = srcs
            .iter()
            .map(|s| s.shape().and_then(|s| s.get(d)).copied().unwrap_or(0))
            .fold(0i64, i64::saturating_add);
        if out.shape() != Some(inferred.as_slice()) || out.elem() != first.elem() {
            let (inf, ret) = (
                vector_text(&inferred, first.elem()),
                vector_text(out.shape().unwrap_or(&[]), out.elem()),
            );
            return v.op_error(format!(
                "inferred type(s) '{inf}' are incompatible with return type(s) of operation '{ret}'"
            ));
        }
    }
    if srcs.len() < 2 {
        return v.op_error("Expected at least 2 operands for concatenate op.");
    }
    if srcs.iter().any(|s| s.elem() != srcs[0].elem()) {
        v.op_error("Not implemented:: Expected all operands to have the same element type.");
    }
}

fn dynamic_rotate(v: &mut OpView<'_, '_, '_>) {
    let Some(val) = v.operand("value") else {
        return;
    };
    let rank = val.rank().unwrap_or(0) as i64;
    if let Some(d) = v.int("dimension")
        && (d < 0 || d >= rank)
    {
        return v.op_error(format!("Invalid dimension: {d}"));
    }
    let stride = v.int("stride");
    let stride_dim = v.int("stride_dimension");
    if let Some(s) = stride
        && s < 0
    {
        return v.op_error("Rotate stride must be >= 0 if it is specified");
    }
    if let Some(d) = stride_dim
        && (d < 0 || d >= rank)
    {
        return v.op_error(format!("Invalid stride dimension: {d}"));
    }
    if stride.is_some() != stride_dim.is_some() {
        v.op_error("Expected either none or both stride and stride dimension are present");
    }
}

fn transpose(v: &mut OpView<'_, '_, '_>) {
    let (Some(inp), Some(out)) = (v.operand("vector"), v.result(0)) else {
        return;
    };
    if inp.elem() != out.elem() {
        return v.op_error("Expected input and output element types to match");
    }
    let perm = v.array("permutation").unwrap_or_default();
    let is = inp.shape().unwrap_or(&[]);
    if perm.len() != is.len() {
        return v.op_error("Expected permutation rank to match input rank");
    }
    if out.rank().is_some_and(|r| r != perm.len()) {
        return v.op_error("Expected permutation rank to match output rank");
    }
    for (i, p) in perm.iter().enumerate() {
        if perm[..i].contains(p) {
            return v.op_error(format!("Permutation element repeated: {p}"));
        }
    }
    let permuted: Vec<i64> = perm
        .iter()
        .map(|&p| {
            usize::try_from(p)
                .ok()
                .and_then(|p| is.get(p))
                .copied()
                .unwrap_or(-1)
        })
        .collect();
    if out.shape().unwrap_or(&[]) != permuted.as_slice() {
        v.op_error(
            "Expected input shape permuted by the given permutation to match the output shape",
        );
    }
}

fn log(v: &mut OpView<'_, '_, '_>) {
    let core = v.core_type().unwrap_or("tc");
    if core == "tc" {
        return;
    }
    if v.flag("formatted") {
        return v.op_error("Formatted logging is not supported on SC");
    }
    let inputs = v.group("inputs");
    if inputs.len() > 1 {
        return v.op_error("SC logging only supports 0 or 1 inputs");
    }
    if core == "sc_scalar_subcore" && inputs.iter().any(|t| t.is_vector()) {
        v.op_error("SC scalar subcore does not support logging vectors");
    }
}
