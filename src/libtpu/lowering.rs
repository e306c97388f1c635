//! What libtpu's Mosaic compiler lowers, per chip: the table measured by
//! `scripts/libtpu/lowering_sweep.py` (generated kernels: ops x element types
//! x memory spaces, compiled by libtpu 0.0.50.1 for v5e, v6e and v7x;
//! `data/libtpu/lowering.json`), and the structural rules it found (one
//! block per function, static shapes, no 64-bit element types).
//!
//! An op is looked up by its key (`op_key`): its name with the shape-free
//! types of its operands and results (`vector<f32>`, `memref<f32,smem>`).
//! A key libtpu refused on the chip is an error with libtpu's message; a key
//! it compiled passes; any other key is "not checked" ([`Coverage`]): only
//! libtpu's compile can decide it (`validate --compile-check`), as it alone
//! decides layouts and shapes.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use super::LibtpuError;
use crate::serde::ir::{self, Op};
use crate::target::Chip;

/// The measured table (see the module docs).
const TABLE: &str = include_str!("../../data/libtpu/lowering.json");

/// The chips the table covers.
pub const MEASURED_CHIPS: [Chip; 3] = [Chip::V5e, Chip::V6e, Chip::V7x];

/// libtpu's verdict on one key for one chip: `None` compiled.
type Verdicts = HashMap<String, Option<String>>;

struct Table {
    ops: HashMap<String, Verdicts>,
}

fn verdicts(value: &serde_json::Value) -> Verdicts {
    value
        .as_object()
        .into_iter()
        .flatten()
        .map(|(chip, v)| {
            let message = v
                .get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string);
            (chip.clone(), message)
        })
        .collect()
}

fn table() -> &'static Table {
    static TABLE_CELL: OnceLock<Table> = OnceLock::new();
    TABLE_CELL.get_or_init(|| {
        // The table is committed data: a parse failure is a build defect,
        // caught by the tests, and leaves the table empty (nothing checked).
        let json: serde_json::Value = serde_json::from_str(TABLE).unwrap_or_default();
        let ops = json
            .get("ops")
            .and_then(|o| o.as_object())
            .into_iter()
            .flatten()
            .map(|(key, v)| (key.clone(), verdicts(v)))
            .collect();
        Table { ops }
    })
}

/// libtpu's verdict on op key `key` for `chip` from the table: `None` not
/// measured, `Some(None)` compiled, `Some(Some(message))` refused.
pub fn verdict(key: &str, chip: Chip) -> Option<Option<&'static str>> {
    let chip = chip.to_string();
    table()
        .ops
        .get(key)
        .and_then(|v| v.get(&chip))
        .map(|m| m.as_deref())
}

/// Number of op keys in the table.
pub fn table_len() -> usize {
    table().ops.len()
}

/// A type without its shape: `vector<8x128xf32>` is `vector<f32>`,
/// `memref<8x128xf32, #tpu.memory_space<smem>>` is `memref<f32,smem>`
/// (`none` without a memory space); other types as printed.
pub fn shape_free(ty: &str) -> String {
    let (kind, inner) = if let Some(inner) = ty.strip_prefix("vector<") {
        ("vector", inner)
    } else if let Some(inner) = ty.strip_prefix("memref<") {
        ("memref", inner)
    } else {
        return ty.to_string();
    };
    let inner = inner.strip_suffix('>').unwrap_or(inner);
    let parts = crate::mosaic::vocab::split_top(inner);
    let dims_elem = parts.first().copied().unwrap_or("");
    let element = dims_elem.rsplit('x').next().unwrap_or(dims_elem).trim();
    if kind == "vector" {
        return format!("vector<{element}>");
    }
    let space = parts
        .iter()
        .find_map(|p| p.trim().strip_prefix("#tpu.memory_space<"))
        .map(|s| s.split([',', '>']).next().unwrap_or("").trim().to_string())
        .unwrap_or_else(|| "none".to_string());
    format!("memref<{element},{space}>")
}

/// An op's key: `name(operand types)->(result types)`, types shape-free.
pub(crate) fn op_key(op: Op<'_>) -> String {
    let types = |values: Vec<mlir_sys::MlirValue>| {
        values
            .into_iter()
            .map(|v| shape_free(&ir::type_text(ir::value_type(v))))
            .collect::<Vec<_>>()
            .join(",")
    };
    let results = (0..op.num_results()).map(|i| op.result(i)).collect();
    format!(
        "{}({})->({})",
        op.name(),
        types(op.operands()),
        types(results)
    )
}

/// Ops whose lowering is the structure around them (terminators).
const STRUCTURAL: &[&str] = &["func.return", "scf.yield", "scf.condition"];

/// What the lowering rules covered for a call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Coverage {
    /// The chip the table was consulted for (`None`: no target, or a chip
    /// the sweep did not measure; then no op was checked).
    pub chip: Option<Chip>,
    /// Ops of the kernel's main function (terminators excluded).
    pub ops: usize,
    /// Of them, ops whose key the table has for the chip.
    pub checked: usize,
    /// The names of the other ops, each once, sorted.
    pub not_checked: Vec<String>,
}

/// libtpu's lowering rules for a call: the kernel's main function (the one
/// libtpu lowers, as the call contract picks it, a hand-written `func @main`
/// included), the call's operand and result types (as printed; `None` without a signature), `target`. Errors
/// in rule order: 64-bit and dynamic call types, a main function of several
/// blocks, then each refused op (first use first, each key once).
pub(crate) fn check(
    main: Option<(String, Op<'_>)>,
    types: Option<(&[String], &[String])>,
    target: Option<Chip>,
) -> (Vec<LibtpuError>, Coverage) {
    let mut errors = Vec::new();
    if let Some((operands, results)) = types {
        let places = operands
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("operand {i}"), t))
            .chain(
                results
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (format!("result {i}"), t)),
            );
        // A dynamic grid bound is i64::MIN in `iteration_bounds`.
        let dynamic_kernel = main.as_ref().is_some_and(|(_, op)| {
            op.attr("iteration_bounds")
                .and_then(ir::as_i64_array)
                .is_some_and(|b| b.contains(&i64::MIN))
        });
        for (place, ty) in places {
            let element = shape_free(&ty.replacen("tensor<", "vector<", 1));
            if matches!(
                element.as_str(),
                "vector<i64>" | "vector<f64>" | "vector<ui64>" | "vector<si64>" | "i64" | "f64"
            ) || ty == "tensor<i64>"
                || ty == "tensor<f64>"
            {
                errors.push(LibtpuError::SixtyFourBit {
                    place: place.clone(),
                    ty: ty.clone(),
                });
            }
            if ty.starts_with("tensor<") && ty.contains('?') && !dynamic_kernel {
                errors.push(LibtpuError::DynamicShapeStaticKernel {
                    place,
                    ty: ty.clone(),
                });
            }
        }
    }
    let chip = target.filter(|c| MEASURED_CHIPS.contains(c));
    let mut coverage = Coverage {
        chip,
        ..Coverage::default()
    };
    let Some((function, op)) = main else {
        return (errors, coverage);
    };
    if op.num_regions() > 0 {
        let blocks = ir::region_blocks(op.region(0)).len();
        if blocks > 1 {
            errors.push(LibtpuError::MultiBlockFunction { function, blocks });
        }
    }
    let mut unchecked = BTreeSet::new();
    let mut refused = BTreeSet::new();
    // A kernel repeats its ops: the key (printed, shape-free types) and the
    // table's verdict are computed once per name and uniqued operand and
    // result types.
    type Looked = (String, Option<(Chip, Option<&'static str>)>);
    let mut memo: std::collections::HashMap<(String, Vec<usize>), Looked> =
        std::collections::HashMap::new();
    for op in pre_order(op) {
        let name = op.name();
        if STRUCTURAL.contains(&name.as_str()) {
            continue;
        }
        coverage.ops += 1;
        let types: Vec<usize> = op
            .operands()
            .into_iter()
            .chain((0..op.num_results()).map(|i| op.result(i)))
            .map(|v| ir::value_type(v).ptr as usize)
            .chain(std::iter::once(op.num_operands()))
            .collect();
        let (key, looked) = memo.entry((name.clone(), types)).or_insert_with(|| {
            let key = op_key(op);
            let looked = chip.and_then(|c| verdict(&key, c).map(|v| (c, v)));
            (key, looked)
        });
        match *looked {
            Some((_, None)) => coverage.checked += 1,
            Some((chip, Some(message))) => {
                coverage.checked += 1;
                if refused.insert(key.clone()) {
                    errors.push(LibtpuError::LoweringRefused {
                        op: name,
                        key: key.clone(),
                        chip,
                        libtpu: message.to_string(),
                    });
                }
            }
            None => {
                unchecked.insert(name);
            }
        }
    }
    coverage.not_checked = unchecked.into_iter().collect();
    (errors, coverage)
}

/// Every op nested in `op` (not `op` itself), an op before its children.
fn pre_order(op: Op<'_>) -> Vec<Op<'_>> {
    fn walk<'a>(op: Op<'a>, out: &mut Vec<Op<'a>>) {
        for r in 0..op.num_regions() {
            for block in ir::region_blocks(op.region(r)) {
                let mut child = ir::block_first_op(block);
                while let Some(c) = child {
                    out.push(c);
                    walk(c, out);
                    child = c.next();
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(op, &mut out);
    out
}
