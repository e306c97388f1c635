//! What feeds each call: every operand of a `tpu_custom_call` described by
//! where its value comes from, so that two modules whose calls are equal but
//! wired differently (`call(%arg1, %arg0)` against `call(%arg0, %arg1)`)
//! differ.
//!
//! An operand is described as
//! - `%argN of @f`: argument N of function `@f` (a block argument of another
//!   op's region: `argument N of a block of \`op\``); an argument of a
//!   function other than `@main` that one `func.call` calls is described by
//!   that call's operand instead (JAX's nested `jit`s put a call inside
//!   `@matmul` that `@main` calls with its own arguments);
//! - `result R of tpu_custom_call #k`: another call's result (that call's own
//!   operands are compared at its own pair);
//! - `op{attributes}(operand, ...)`: any other op, by name, attributes and
//!   operands, recursively up to [`MAX_DEPTH`] ops deep (regions of those ops,
//!   such as a reduction's body, are not compared).

use std::collections::HashMap;

use melior::Context;
use melior::ir::block::BlockArgument;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationResult;
use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Value, ValueLike};

use crate::decode;

/// How many ops deep the producers of an operand are described.
pub const MAX_DEPTH: usize = 8;

/// What [`super::DiffReport::compared`] says the wiring comparison covers.
pub const COMPARED: &str = "operand wiring (what feeds each operand: @main's arguments, \
     other calls' results and the ops between, by name, attributes and operands, up to 8 ops \
     deep; those ops' regions are not compared)";

/// Per call (pre-order, as [`decode::find_calls`] numbers them), a
/// description of each operand's source; an error says why the module could
/// not be read as a whole ([`crate::interop::read_module`]).
pub fn operand_wiring(ctx: &Context, bytes: &[u8], name: &str) -> Result<Vec<Vec<String>>, String> {
    let module =
        crate::kernel::interop::read_module(ctx, bytes, name).map_err(|e| e.to_string())?;
    let mut calls = Vec::new();
    let mut callers: HashMap<String, Vec<mlir_sys::MlirOperation>> = HashMap::new();
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if decode::is_tpu_custom_call(op) {
                calls.push(op.to_raw());
            } else if crate::ffi::identifier_str(&op.name()) == "func.call"
                && let Some(callee) = op
                    .attribute("callee")
                    .ok()
                    .map(|a| a.to_string().trim_start_matches('@').to_string())
            {
                callers.entry(callee).or_default().push(op.to_raw());
            }
            melior::ir::operation::WalkResult::Advance
        });
    let index: HashMap<usize, usize> = calls
        .iter()
        .enumerate()
        .map(|(k, raw)| (raw.ptr as usize, k))
        .collect();
    let mut describer = Describer {
        calls: &index,
        callers: &callers,
        memo: HashMap::new(),
    };
    Ok(calls
        .iter()
        .map(|&raw| {
            // SAFETY: `raw` was collected from `module`, alive here.
            let op = unsafe { OperationRef::from_raw(raw) };
            op.operands().map(|v| describer.value(v, 0)).collect()
        })
        .collect())
}

struct Describer<'i> {
    /// Call op address -> call index.
    calls: &'i HashMap<usize, usize>,
    /// Function name -> the `func.call`s of it.
    callers: &'i HashMap<String, Vec<mlir_sys::MlirOperation>>,
    /// (value address, depth) -> description.
    memo: HashMap<(usize, usize), String>,
}

impl Describer<'_> {
    fn value(&mut self, v: Value<'_, '_>, depth: usize) -> String {
        let key = (v.to_raw().ptr as usize, depth);
        if let Some(s) = self.memo.get(&key) {
            return s.clone();
        }
        let s = self.describe(v, depth);
        self.memo.insert(key, s.clone());
        s
    }

    fn describe(&mut self, v: Value<'_, '_>, depth: usize) -> String {
        if let Ok(arg) = BlockArgument::try_from(v) {
            let n = arg.argument_number();
            let block = arg.owner();
            return match block.parent_operation() {
                Some(parent) if crate::ffi::identifier_str(&parent.name()) == "func.func" => {
                    let function = parent
                        .attribute("sym_name")
                        .ok()
                        .and_then(crate::kernel::string_attr_value)
                        .unwrap_or_default();
                    match self.callers.get(&function).map(Vec::as_slice) {
                        Some(&[caller]) if function != "main" && depth < MAX_DEPTH => {
                            // SAFETY: `caller` was collected from the module
                            // the described values belong to, alive here.
                            let caller = unsafe { OperationRef::from_raw(caller) };
                            match caller.operand(n) {
                                Ok(fed) => self.value(fed, depth + 1),
                                Err(_) => format!("%arg{n} of @{function}"),
                            }
                        }
                        _ => format!("%arg{n} of @{function}"),
                    }
                }
                Some(parent) => format!(
                    "argument {n} of a block of `{}`",
                    crate::ffi::identifier_str(&parent.name())
                ),
                None => format!("argument {n} of a detached block"),
            };
        }
        let Ok(result) = OperationResult::try_from(v) else {
            return "(a value of unknown kind)".to_string();
        };
        let op = result.owner();
        let r = result.result_number();
        if let Some(k) = self.calls.get(&(op.to_raw().ptr as usize)) {
            return format!("result {r} of tpu_custom_call #{k}");
        }
        let name = crate::ffi::identifier_str(&op.name()).to_string();
        let which = if op.result_count() > 1 {
            format!("#{r}")
        } else {
            String::new()
        };
        if depth >= MAX_DEPTH {
            return format!("{name}{which}(...)");
        }
        let attributes = decode::all_attributes(op)
            .into_iter()
            .map(|(n, a)| format!("{n} = {a}"))
            .collect::<Vec<_>>();
        let attributes = if attributes.is_empty() {
            String::new()
        } else {
            format!("{{{}}}", attributes.join(", "))
        };
        let operands = op
            .operands()
            .map(|o| self.value(o, depth + 1))
            .collect::<Vec<_>>()
            .join(", ");
        format!("{name}{which}{attributes}({operands})")
    }
}
