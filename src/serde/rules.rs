//! Per-op upgrade (deserialize) and downgrade (serialize) rules of JAX 0.12's
//! `mosaic-serde` pass (reference section 6.4), keyed by the unmangled op name.
//!
//! Downgrade rules run on the freshly mangled op (every attribute is a plain,
//! discardable attribute there) when the target version is below 18. Only the
//! thresholds reachable from the versions this crate serializes to (11..=18)
//! are implemented: 12 (`enqueue_dma` target semaphore, `reinterpret_cast`
//! dynamic offset), 13 (`matmul` hint), 14 (subcore ids), 15 and 16
//! (`reinterpret_cast` segments), 17 (`scan` dimension) and 18 (reduction kinds).
//!
//! Upgrade rules run on the still-mangled op before it is re-created, with the
//! version stored in the body, and cover every version JAX reads (1..=18).

use mlir_sys::{MlirAttribute, MlirContext, MlirValue};

use super::ir::{self, Op, OpSpec};

/// A rule failure: JAX's message and whether JAX emitted it with
/// `emitOpError` (shown as `'<op>' op <message>`) or `emitError`.
#[derive(Debug)]
pub(crate) struct RuleError {
    pub(crate) message: String,
    pub(crate) op_error: bool,
}

fn err(message: impl Into<String>) -> RuleError {
    RuleError {
        message: message.into(),
        op_error: false,
    }
}

fn op_err(message: impl Into<String>) -> RuleError {
    RuleError {
        message: message.into(),
        op_error: true,
    }
}

type RuleResult<T = ()> = Result<T, RuleError>;

/// What an upgrade rule did with the op.
pub(crate) enum Upgraded {
    /// The op is still there and must be re-created under its real name.
    Kept,
    /// The rule replaced and erased the op.
    Erased,
}

const SEGMENTS: &str = "operandSegmentSizes";

/// Ops whose downgrade rule acts at a version this crate serializes to
/// (11..=17). JAX 0.12 also has rules for `tpu.wait_dma2`,
/// `tpu.dynamic_gather`, `tpu.iota`, `vector.multi_reduction`, `tpu.store` and
/// `arith.constant`, which only act below version 11.
pub(crate) const DOWNGRADED_OPS: &[&str] = &[
    "tpu.enqueue_dma",
    "tpu.wait_dma",
    "tpu.sem_signal",
    "tpu.reinterpret_cast",
    "tpu.matmul",
    "tpu.scan",
    "tpu.reduce",
];

/// Runs the downgrade rule for `name` (the unmangled name) on the mangled op.
pub(crate) fn downgrade(name: &str, op: Op, version: u32) -> RuleResult {
    match name {
        "tpu.enqueue_dma" => enqueue_dma_downgrade(op, version),
        "tpu.wait_dma" => subcore_segments_downgrade(op, version, 7, 5, 6, "wait_dma"),
        "tpu.sem_signal" => subcore_segments_downgrade(op, version, 5, 3, 4, "semaphore_signal"),
        "tpu.reinterpret_cast" => reinterpret_cast_downgrade(op, version),
        "tpu.matmul" => matmul_downgrade(op, version),
        "tpu.scan" => scan_downgrade(op, version),
        "tpu.reduce" => reduce_downgrade(op, version),
        // The remaining rules only act below version 11, the oldest version
        // this crate serializes to.
        _ => Ok(()),
    }
}

/// Runs the upgrade rule for `name` (the unmangled name) on the mangled op,
/// given the version stored in the body.
pub(crate) fn upgrade(name: &str, op: Op, version: u32) -> RuleResult<Upgraded> {
    match name {
        "tpu.enqueue_dma" => enqueue_dma_upgrade(op, version),
        "tpu.wait_dma2" => wait_dma2_upgrade(op, version),
        "tpu.wait_dma" => wait_dma_upgrade(op, version),
        "tpu.dynamic_gather" => dimension_to_dimensions(op, version, 5),
        "tpu.iota" => dimension_to_dimensions(op, version, 6),
        "tpu.sem_signal" => sem_signal_upgrade(op, version),
        "vector.multi_reduction" => multi_reduction_upgrade(op, version),
        "tpu.store" => {
            if version < 11 {
                op.set_attr("add", ir::bool_attr(op.context(), false));
            }
            Ok(())
        }
        "tpu.reinterpret_cast" => reinterpret_cast_upgrade(op, version),
        "tpu.matmul" => {
            if version < 13 {
                op.set_attr("transpose_lhs_hint", ir::bool_attr(op.context(), false));
            }
            Ok(())
        }
        "tpu.scan" => scan_upgrade(op, version),
        "tpu.reduce" => reduce_upgrade(op, version),
        "tpu.repeat" => return repeat_upgrade(op),
        _ => Ok(()),
    }
    .map(|()| Upgraded::Kept)
}

// ----- helpers --------------------------------------------------------------

fn segments(op: Op) -> RuleResult<Vec<i32>> {
    op.attr(SEGMENTS)
        .and_then(ir::as_i32_array)
        .ok_or_else(|| err("Missing or invalid AttrSizedOperandSegments"))
}

fn set_segments(op: Op, sizes: &[i32]) {
    op.set_attr(SEGMENTS, ir::i32_array_attr(op.context(), sizes));
}

/// Index of the first operand of segment `seg`, if the sizes are sane.
fn segment_start(sizes: &[i32], seg: usize) -> Option<usize> {
    sizes[..seg]
        .iter()
        .try_fold(0usize, |acc, &s| usize::try_from(s).ok().map(|s| acc + s))
}

/// `#tpu.core_type<...>` of the nearest enclosing function that has one.
fn parent_core_type(op: Op) -> Option<String> {
    let mut cur = op.parent();
    while let Some(p) = cur {
        let name = p.name();
        if name == "func.func" || name == "stable_mosaic.func.func" {
            return p.attr("tpu.core_type").map(ir::attr_text);
        }
        cur = p.parent();
    }
    None
}

const SC_VECTOR_SUBCORE: &str = "#tpu.core_type<sc_vector_subcore>";
const NUM_SUBCORES: i64 = 16;

/// Creates `name` with one i32 result before `anchor`.
fn create_i32_op(
    ctx: MlirContext,
    anchor: Op,
    name: &str,
    operands: &[MlirValue],
    attrs: &[(&str, MlirAttribute)],
) -> RuleResult<MlirValue> {
    let named: Vec<_> = attrs.iter().map(|(n, a)| ir::named(ctx, n, *a)).collect();
    let registered = ir::is_registered_op(ctx, name);
    let op = ir::create_op(OpSpec {
        name,
        location: anchor.location(),
        results: &[ir::i32_type(ctx)],
        operands,
        attributes: if registered { &[] } else { &named },
        successors: &[],
        regions: Vec::new(),
    })
    .ok_or_else(|| err(format!("MLIR refused to create {name}")))?;
    if registered {
        ir::set_attributes(op, &named)
            .map_err(|a| err(format!("{name} refused its attribute `{a}`")))?;
    }
    ir::insert_before(anchor, op);
    Ok(op.result(0))
}

/// v14 downgrade: folds `subcore_id` into `core_id` as `core_id * 16 + subcore_id`
/// with pre-mangled arith ops (JAX's `linearize_subcore`).
fn linearize_subcore(op: Op, sizes: &[i32], core_seg: usize, subcore_seg: usize) -> RuleResult {
    if parent_core_type(op).as_deref() != Some(SC_VECTOR_SUBCORE) {
        return Err(err(
            "subcore_id linearization requested for non-SC vector subcore type",
        ));
    }
    if sizes.len() <= core_seg || sizes.len() <= subcore_seg {
        return Err(err("Unexpected size of operandSegmentSizes"));
    }
    if sizes[core_seg] == 0 || sizes[subcore_seg] == 0 {
        return Err(err(
            "Expected both core_id and subcore_id to be present for linearization",
        ));
    }
    let (Some(core_idx), Some(subcore_idx)) = (
        segment_start(sizes, core_seg),
        segment_start(sizes, subcore_seg),
    ) else {
        return Err(err("Unexpected size of operandSegmentSizes"));
    };
    let mut operands = op.operands();
    if core_idx >= operands.len() || subcore_idx >= operands.len() {
        return Err(err("Unexpected size of operandSegmentSizes"));
    }
    let ctx = op.context();
    let c16 = create_i32_op(
        ctx,
        op,
        "stable_mosaic.arith.constant",
        &[],
        &[("value", ir::int_attr(ctx, 32, NUM_SUBCORES))],
    )?;
    let mul = create_i32_op(
        ctx,
        op,
        "stable_mosaic.arith.muli",
        &[operands[core_idx], c16],
        &[],
    )?;
    let add = create_i32_op(
        ctx,
        op,
        "stable_mosaic.arith.addi",
        &[mul, operands[subcore_idx]],
        &[],
    )?;
    operands[core_idx] = add;
    operands.remove(subcore_idx);
    op.set_operands(&operands);
    Ok(())
}

/// v14 upgrade: splits a linear `core_id` of an SC vector-subcore kernel into
/// `core_id / 16` and `core_id % 16` (JAX's `delinearize_subcore`).
fn delinearize_subcore(op: Op, core_seg: usize, subcore_seg: usize) -> RuleResult {
    if parent_core_type(op).as_deref() != Some(SC_VECTOR_SUBCORE) {
        return Ok(());
    }
    let mut sizes = op
        .attr(SEGMENTS)
        .and_then(ir::as_i32_array)
        .ok_or_else(|| err("Missing operandSegmentSizes attribute"))?;
    if sizes.len() <= core_seg || sizes.len() <= subcore_seg {
        return Err(err("Unexpected size of operandSegmentSizes"));
    }
    if sizes[core_seg] == 0 {
        return Ok(());
    }
    let (Some(core_idx), Some(subcore_idx)) = (
        segment_start(&sizes, core_seg),
        segment_start(&sizes, subcore_seg),
    ) else {
        return Err(err("Unexpected size of operandSegmentSizes"));
    };
    let mut operands = op.operands();
    if core_idx >= operands.len() || subcore_idx > operands.len() {
        return Err(err("Unexpected size of operandSegmentSizes"));
    }
    let ctx = op.context();
    let core = operands[core_idx];
    let c16 = create_i32_op(
        ctx,
        op,
        "arith.constant",
        &[],
        &[("value", ir::int_attr(ctx, 32, NUM_SUBCORES))],
    )?;
    let div = create_i32_op(ctx, op, "arith.divui", &[core, c16], &[])?;
    let rem = create_i32_op(ctx, op, "arith.remui", &[core, c16], &[])?;
    operands[core_idx] = div;
    operands.insert(subcore_idx, rem);
    op.set_operands(&operands);
    sizes[subcore_seg] = 1;
    set_segments(op, &sizes);
    Ok(())
}

// ----- DMA and semaphores -----------------------------------------------------

fn enqueue_dma_downgrade(op: Op, version: u32) -> RuleResult {
    if version < 14 {
        let sizes = segments(op)?;
        if sizes.len() != 7 {
            return Err(err(
                "Unexpected size of AttrSizedOperandSegments for enqueue_dma",
            ));
        }
        if sizes[6] != 0 {
            linearize_subcore(op, &sizes, 5, 6)?;
        }
        set_segments(op, &sizes[..6]);
    }
    if version < 12 {
        let sizes = segments(op)?;
        if sizes.len() != 6 {
            return Err(err(
                "Unexpected size of AttrSizedOperandSegments for enqueue_dma",
            ));
        }
        if sizes[3] == 0 {
            return Err(err(
                "Cannot downgrade enqueue_dma without target_semaphore to version < 12",
            ));
        }
    }
    Ok(())
}

/// `wait_dma` (7 segments, core 5 / subcore 6) and `sem_signal` (5 segments,
/// core 3 / subcore 4) below version 14.
fn subcore_segments_downgrade(
    op: Op,
    version: u32,
    count: usize,
    core_seg: usize,
    subcore_seg: usize,
    what: &str,
) -> RuleResult {
    if version < 14 {
        let sizes = segments(op)?;
        if sizes.len() != count {
            return Err(err(format!(
                "Unexpected size of AttrSizedOperandSegments for {what}"
            )));
        }
        if sizes[subcore_seg] != 0 {
            linearize_subcore(op, &sizes, core_seg, subcore_seg)?;
        }
        set_segments(op, &sizes[..count - 1]);
    }
    Ok(())
}

fn enqueue_dma_upgrade(op: Op, version: u32) -> RuleResult {
    let ctx = op.context();
    if version < 2 {
        let sizes: &[i32] = match op.num_operands() {
            3 => &[1, 0, 1, 1, 0, 0],
            5 => &[1, 1, 1, 1, 1, 0],
            n => {
                return Err(err(format!(
                    "Unexpected operand count in tpu.enqueue_dma: {n}"
                )));
            }
        };
        set_segments(op, sizes);
    }
    if version < 4 {
        op.set_attr("priority", ir::int_attr(ctx, 32, 0));
    }
    if version < 14 {
        let mut sizes = segments(op)?;
        if sizes.len() != 6 {
            return Err(err(
                "Unexpected size of AttrSizedOperandSegments for enqueue_dma",
            ));
        }
        sizes.push(0);
        set_segments(op, &sizes);
        return delinearize_subcore(op, 5, 6);
    }
    Ok(())
}

fn wait_dma2_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 7 {
        let n = op.num_operands();
        if n != 3 {
            return Err(err(format!(
                "Unexpected operand count in tpu.wait_dma2: {n}"
            )));
        }
        set_segments(op, &[1, 1, 1, 0, 0]);
    }
    Ok(())
}

fn wait_dma_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 14 {
        let mut sizes = segments(op)?;
        if sizes.len() != 6 {
            return Err(err(
                "Unexpected size of AttrSizedOperandSegments for wait_dma",
            ));
        }
        sizes.push(0);
        set_segments(op, &sizes);
        return delinearize_subcore(op, 5, 6);
    }
    Ok(())
}

fn sem_signal_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 2 {
        let sizes: &[i32] = match op.num_operands() {
            2 => &[1, 1, 0, 0],
            3 => &[1, 1, 1, 0],
            _ => return Err(err("Unexpected operand count in tpu.semaphore_signal")),
        };
        set_segments(op, sizes);
    }
    if version < 14 {
        let mut sizes = segments(op)?;
        if sizes.len() != 4 {
            return Err(err(
                "Unexpected size of AttrSizedOperandSegments for semaphore_signal.",
            ));
        }
        sizes.push(0);
        set_segments(op, &sizes);
        return delinearize_subcore(op, 3, 4);
    }
    Ok(())
}

// ----- attribute shape changes ---------------------------------------------

/// `dynamic_gather` (v5) and `iota` (v6): `dimension : i32` became
/// `dimensions = array<i32: d>`.
fn dimension_to_dimensions(op: Op, version: u32, threshold: u32) -> RuleResult {
    if version < threshold {
        let dimension = match op.attr("dimension").and_then(ir::as_int) {
            Some((d, 32)) => d as i32,
            _ => return Err(err("Missing or invalid dimension attribute")),
        };
        op.remove_attr("dimension");
        op.set_attr("dimensions", ir::i32_array_attr(op.context(), &[dimension]));
    }
    Ok(())
}

fn multi_reduction_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 3 {
        let Some(attr) = op.attr("reduction_dims") else {
            return Err(err("Missing reduction_dims attribute"));
        };
        let Some(items) = ir::as_array(attr) else {
            return Err(op_err("reduction_dims attribute is not an ArrayAttr"));
        };
        let mut dims = Vec::with_capacity(items.len());
        for item in items {
            match ir::as_int(item) {
                Some((d, _)) => dims.push(d),
                None => {
                    return Err(op_err(
                        "reduction_dims attribute contains a non-IntegerAttr",
                    ));
                }
            }
        }
        op.set_attr("reduction_dims", ir::i64_array_attr(op.context(), &dims));
    }
    Ok(())
}

fn reinterpret_cast_downgrade(op: Op, version: u32) -> RuleResult {
    if version < 16 {
        // Segments are [source, dynamic_offset, dynamic_sizes, dynamic_strides].
        if let Some(mut sizes) = op.attr(SEGMENTS).and_then(ir::as_i32_array)
            && sizes.len() == 4
        {
            if sizes[3] > 0 {
                return Err(op_err(
                    "Can only downgrade below version 16 when dynamic_strides is empty",
                ));
            }
            sizes.pop();
            set_segments(op, &sizes);
        }
    }
    if version < 15 {
        if let Some(sizes) = op.attr(SEGMENTS).and_then(ir::as_i32_array)
            && sizes.get(2).is_some_and(|&s| s > 0)
        {
            return Err(op_err(
                "Can only downgrade below version 15 when dynamic_sizes is empty",
            ));
        }
        op.remove_attr(SEGMENTS);
    }
    if version < 12 && op.num_operands() == 2 {
        return Err(op_err(
            "Can only downgrade below version 12 when dynamic_offset is not set",
        ));
    }
    Ok(())
}

fn reinterpret_cast_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 15 {
        let dynamic_offset = op.num_operands() > 1;
        set_segments(op, &[1, i32::from(dynamic_offset), 0]);
    }
    if version < 16 {
        let mut sizes = segments(op)?;
        if sizes.len() == 3 {
            sizes.push(0);
            set_segments(op, &sizes);
        }
    }
    Ok(())
}

fn matmul_downgrade(op: Op, version: u32) -> RuleResult {
    if version < 13 {
        let Some(hint) = op.attr("transpose_lhs_hint").and_then(ir::as_bool) else {
            return Err(op_err("Missing transpose_lhs_hint attribute"));
        };
        if hint {
            return Err(op_err(
                "Can only downgrade below version 12 when transpose_lhs_hint is False ",
            ));
        }
        op.remove_attr("transpose_lhs_hint");
    }
    Ok(())
}

// ----- reductions --------------------------------------------------------------

/// The `<...>` of `#tpu.reduction_kind<...>`, if `attr` is one.
fn reduction_kind(attr: MlirAttribute) -> Option<String> {
    let text = ir::tpu_attr_text(attr)?;
    text.strip_prefix("reduction_kind<")
        .and_then(|rest| rest.strip_suffix('>'))
        .map(str::to_string)
}

/// Sets `kind = #tpu.reduction_kind<kind>` (the op has a `#tpu.` kind already,
/// so the `tpu` dialect is loaded).
fn set_reduction_kind(op: Op, kind: &str) {
    let attr = ir::tpu_attr(op.context(), &format!("reduction_kind<{kind}>"));
    op.set_attr("kind", attr);
}

fn kind_of(op: Op) -> RuleResult<String> {
    op.attr("kind")
        .and_then(reduction_kind)
        .ok_or_else(|| err("Missing or invalid kind attribute"))
}

/// Below v18, `maxf`/`minf` and one signedness of integer max/min map back to
/// the deprecated `max`/`min`; the other signedness cannot be expressed.
fn downgrade_kind(op: Op, int_kind_ok: [&str; 2], int_kind_bad: [&str; 2]) -> RuleResult {
    let kind = kind_of(op)?;
    let new = match kind.as_str() {
        "maxf" => "max",
        "minf" => "min",
        k if k == int_kind_ok[0] => "max",
        k if k == int_kind_ok[1] => "min",
        k if int_kind_bad.contains(&k) => {
            return Err(op_err(format!(
                "Cannot downgrade reduction kind {k} below version 18"
            )));
        }
        _ => return Ok(()),
    };
    set_reduction_kind(op, new);
    Ok(())
}

/// At or above v18, `max`/`min` become `maxf`/`minf` for floats and the given
/// integer kinds for integers.
fn upgrade_kind(op: Op, int_kinds: [&str; 2], missing_input: &str, bad_input: &str) -> RuleResult {
    let kind = kind_of(op)?;
    let (is_max, what) = match kind.as_str() {
        "max" => (true, "max"),
        "min" => (false, "min"),
        _ => return Ok(()),
    };
    if op.num_operands() == 0 {
        return Err(err(missing_input));
    }
    let Some((_, is_float, is_int)) = ir::vector_info(ir::value_type(op.operand(0))) else {
        return Err(err(bad_input));
    };
    let new = match (is_float, is_int, is_max) {
        (true, _, true) => "maxf",
        (true, _, false) => "minf",
        (_, true, true) => int_kinds[0],
        (_, true, false) => int_kinds[1],
        _ => {
            return Err(err(format!(
                "Unsupported element type for {what} reduction"
            )));
        }
    };
    set_reduction_kind(op, new);
    Ok(())
}

fn scan_downgrade(op: Op, version: u32) -> RuleResult {
    if version < 18 {
        downgrade_kind(op, ["maxui", "minui"], ["maxsi", "minsi"])?;
    }
    if version < 17 {
        let Some((dimension, _)) = op.attr("dimension").and_then(ir::as_int) else {
            return Err(err("Missing or invalid dimensions attribute"));
        };
        let rank = (op.num_operands() > 0)
            .then(|| ir::vector_info(ir::value_type(op.operand(0))))
            .flatten()
            .map(|(rank, _, _)| rank);
        if rank != Some(dimension + 1) {
            return Err(err(
                "Can only downgrade below version 16 when dimension is the last dimension",
            ));
        }
        op.remove_attr("dimension");
    }
    Ok(())
}

fn scan_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 17 {
        if op.num_operands() == 0 {
            return Err(err("Missing input operand for scan operation"));
        }
        let Some((rank, _, _)) = ir::vector_info(ir::value_type(op.operand(0))) else {
            return Err(err("Invalid input type for scan operation"));
        };
        op.set_attr("dimension", ir::int_attr(op.context(), 64, rank - 1));
    }
    if version < 18 {
        upgrade_kind(
            op,
            ["maxui", "minui"],
            "Missing input operand for scan operation",
            "Invalid input type for scan operation",
        )?;
    }
    Ok(())
}

fn reduce_downgrade(op: Op, version: u32) -> RuleResult {
    if version < 18 {
        downgrade_kind(op, ["maxsi", "minsi"], ["maxui", "minui"])?;
    }
    Ok(())
}

fn reduce_upgrade(op: Op, version: u32) -> RuleResult {
    if version < 18 {
        upgrade_kind(
            op,
            ["maxsi", "minsi"],
            "Missing input operand",
            "Invalid input type",
        )?;
    }
    Ok(())
}

// ----- tpu.repeat ---------------------------------------------------------------

/// `tpu.repeat` no longer exists: it becomes a `tpu.concatenate` of `times`
/// copies of its input along `dimension` (or the input itself when `times` is 1).
fn repeat_upgrade(op: Op) -> RuleResult<Upgraded> {
    if op.num_operands() != 1 || op.num_results() != 1 {
        return Err(err("Unexpected operand/result count in tpu.repeat"));
    }
    let dimension = op.attr("dimension").and_then(ir::as_int);
    let times = op.attr("times").and_then(ir::as_int);
    let (Some((dimension, dim_width)), Some((times, _))) = (dimension, times) else {
        return Err(err("Missing dimension or times attribute in tpu.repeat"));
    };
    let input = op.operand(0);
    let replacement = if times == 1 {
        input
    } else {
        let Ok(count) = usize::try_from(times) else {
            return Err(err("Missing dimension or times attribute in tpu.repeat"));
        };
        let ctx = op.context();
        let operands = vec![input; count];
        let attrs = [ir::named(
            ctx,
            "dimension",
            ir::int_attr(ctx, dim_width, dimension),
        )];
        let concat = ir::create_op(OpSpec {
            name: "tpu.concatenate",
            location: op.location(),
            results: &[ir::value_type(op.result(0))],
            operands: &operands,
            attributes: &attrs,
            successors: &[],
            regions: Vec::new(),
        })
        .ok_or_else(|| err("MLIR refused to create tpu.concatenate"))?;
        ir::insert_before(op, concat);
        concat.result(0)
    };
    replace_uses(op.result(0), replacement);
    op.erase();
    Ok(Upgraded::Erased)
}

fn replace_uses(of: MlirValue, with: MlirValue) {
    // SAFETY: both values are live in the same module.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(of, with) }
}
