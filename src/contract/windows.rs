//! The window parameters libtpu checks before it lowers a kernel: each
//! window's `transform_indices` is a function of the kernel, taking the grid
//! indices and the scalar prefetch references, and returning one block index
//! per block dimension. Measured by `scripts/libtpu/lowering_sweep.py`
//! (`window/*` rows): libtpu 0.0.50.1 refuses the first two on v5e, v6e and
//! v7x and aborts on the third. Shared by validation (libtpu's rules, skipped
//! with `ValidateOptions::jax_rules_only`) and
//! `run` (`exec::Execution::new`), which must not compute numbers for a
//! kernel libtpu refuses.

use super::{ContractError, functions, kernel_signature};
use crate::kernel::Kernel;
use crate::mosaic::vocab::split_top;
use crate::serde::ir;

/// Inputs and results of a `func.func`'s `function_type`, counted.
fn arity(op: ir::Op<'_>) -> Option<(usize, usize)> {
    let text = ir::attr_text(op.attr("function_type")?);
    let count = |s: &str| {
        let s = s.trim();
        let inner = s
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .unwrap_or(s);
        if inner.trim().is_empty() {
            0
        } else {
            split_top(inner).len()
        }
    };
    // The inputs end at the `)` closing the first `(`.
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => {
                depth -= 1;
                if depth == 0 && c == ')' {
                    let results = text[i + 1..].trim_start().strip_prefix("->")?;
                    return Some((count(&text[..=i]), count(results)));
                }
            }
            _ => {}
        }
    }
    None
}

/// Every window of the kernel's main function whose `transform_indices`
/// libtpu refuses (no such function, the wrong number of arguments or of
/// results), in window order. Empty without a main function or windows.
pub fn window_errors(kernel: &Kernel<'_>) -> Vec<ContractError> {
    let Some(sig) = kernel_signature(kernel) else {
        return Vec::new();
    };
    let Some(windows) = &sig.windows else {
        return Vec::new();
    };
    let funcs = functions(kernel);
    let expected = sig.grid.len() + sig.scalar_prefetch;
    let mut errors = Vec::new();
    for (window, w) in windows.iter().enumerate() {
        let Some(map) = &w.transform else {
            continue;
        };
        let Some((_, op)) = funcs.iter().find(|(name, _)| name == map) else {
            errors.push(ContractError::WindowMapMissing {
                function: sig.function.clone(),
                window,
                map: map.clone(),
            });
            continue;
        };
        let Some((got, results)) = arity(*op) else {
            continue;
        };
        if got != expected {
            errors.push(ContractError::WindowMapArity {
                function: sig.function.clone(),
                window,
                map: map.clone(),
                got,
                expected,
                grid: sig.grid.len(),
                prefetch: sig.scalar_prefetch,
            });
        } else if let Some(bounds) = &w.bounds
            && results != bounds.len()
        {
            errors.push(ContractError::WindowMapResults {
                function: sig.function.clone(),
                window,
                map: map.clone(),
                got: results,
                rank: bounds.len(),
            });
        }
    }
    errors
}
