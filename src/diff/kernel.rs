//! Two kernels compared field by field: the attributes of each kernel
//! function (`dimension_semantics`, `iteration_bounds`, `window_params`,
//! `scalar_prefetch`, `scratch_operands`, `tpu.core_type`,
//! `function_type`, ...) as named fields, and the bodies compared modulo
//! SSA names.
//!
//! Field names: `lowered_module_asm.ATTR` for the kernel function (the one
//! with Pallas' attributes: `window_params`, `iteration_bounds`,
//! `dimension_semantics`, `tpu.core_type`, else `@main`, else the first
//! function), `lowered_module_asm.@NAME.ATTR` for the others (index maps:
//! `@transform_0`); a `window_params` list of equal lengths is compared entry
//! by entry (`lowered_module_asm.window_params[1]`). The body
//! (`lowered_module_asm`) is the kernel printed in the pretty form without
//! the functions' attributes; two bodies are aligned on their lines with
//! every SSA value and block name blanked out, then the names of aligned
//! lines must correspond one to one: an inserted op is one added line (not a
//! renumbering of every value after it), swapped operands are a changed line.

use std::collections::HashMap;

use melior::ir::BlockLike;
use melior::ir::operation::OperationLike;

use crate::decode::DecodedCall;

/// The attributes that make a function the kernel function.
const KERNEL_MARKERS: [&str; 4] = [
    "window_params",
    "iteration_bounds",
    "dimension_semantics",
    "tpu.core_type",
];

/// The kernel function's attributes Pallas writes, also accepted bare by
/// [`crate::diff::DiffOptions::ignore`] (`window_params` for
/// `lowered_module_asm.window_params`).
pub const KERNEL_FIELDS: [&str; 7] = [
    "dimension_semantics",
    "iteration_bounds",
    "window_params",
    "scalar_prefetch",
    "scratch_operands",
    "tpu.core_type",
    "function_type",
];

/// One function of a kernel module: its name and attributes (printed,
/// `sym_name` left out).
struct Function {
    name: String,
    attributes: Vec<(String, String)>,
}

impl Function {
    fn is_kernel(&self) -> bool {
        self.attributes
            .iter()
            .any(|(n, _)| KERNEL_MARKERS.contains(&n.as_str()))
    }
}

fn functions(call: &DecodedCall<'_>) -> Vec<Function> {
    let module = call.kernel.module();
    let mut out = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(current) = op {
        if crate::ffi::identifier_str(&current.name()) == "func.func" {
            let mut name = String::new();
            let mut attributes = Vec::new();
            for (n, value) in crate::decode::all_attributes(current) {
                let text = value.to_string();
                if n == "sym_name" {
                    name = text.trim_matches('"').to_string();
                } else {
                    attributes.push((n, text));
                }
            }
            out.push(Function { name, attributes });
        }
        op = current.next_in_block();
    }
    out
}

/// The index of the kernel function among `funcs`.
fn kernel_function(funcs: &[Function]) -> Option<usize> {
    funcs
        .iter()
        .position(Function::is_kernel)
        .or_else(|| funcs.iter().position(|f| f.name == "main"))
        .or(if funcs.is_empty() { None } else { Some(0) })
}

/// A field of a kernel: `(name, value in a, value in b)`.
pub(super) type Field = (String, Option<String>, Option<String>);

/// The functions' attributes of two kernels that differ, as named fields.
pub(super) fn attribute_fields(a: &DecodedCall<'_>, b: &DecodedCall<'_>) -> Vec<Field> {
    let (fa, fb) = (functions(a), functions(b));
    let (ka, kb) = (kernel_function(&fa), kernel_function(&fb));
    let mut out = Vec::new();
    // The kernel functions, whatever their names.
    if let (Some(i), Some(j)) = (ka, kb) {
        if fa[i].name != fb[j].name {
            out.push((
                "lowered_module_asm.sym_name".to_string(),
                Some(format!("@{}", fa[i].name)),
                Some(format!("@{}", fb[j].name)),
            ));
        }
        compare_attributes("lowered_module_asm", &fa[i], &fb[j], &mut out);
    }
    // The others by name.
    let others = |funcs: &[Function], kernel: Option<usize>| -> Vec<usize> {
        (0..funcs.len()).filter(|&i| Some(i) != kernel).collect()
    };
    let (oa, ob) = (others(&fa, ka), others(&fb, kb));
    let mut names: Vec<&str> = oa
        .iter()
        .map(|&i| fa[i].name.as_str())
        .chain(ob.iter().map(|&j| fb[j].name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let x = oa.iter().map(|&i| &fa[i]).find(|f| f.name == name);
        let y = ob.iter().map(|&j| &fb[j]).find(|f| f.name == name);
        let prefix = format!("lowered_module_asm.@{name}");
        match (x, y) {
            (Some(x), Some(y)) => compare_attributes(&prefix, x, y, &mut out),
            (x, y) => {
                let present = |f: Option<&Function>| f.map(|_| "a function".to_string());
                out.push((prefix, present(x), present(y)));
            }
        }
    }
    out
}

fn compare_attributes(prefix: &str, a: &Function, b: &Function, out: &mut Vec<Field>) {
    let mut names: Vec<&str> = a
        .attributes
        .iter()
        .chain(&b.attributes)
        .map(|(n, _)| n.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let get = |f: &Function, name: &str| {
        f.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    for name in names {
        let (x, y) = (get(a, name), get(b, name));
        if x == y {
            continue;
        }
        let field = format!("{prefix}.{name}");
        if name == "window_params"
            && let (Some(xs), Some(ys)) = (
                x.as_deref().and_then(split_list),
                y.as_deref().and_then(split_list),
            )
            && xs.len() == ys.len()
        {
            for (k, (p, q)) in xs.iter().zip(&ys).enumerate() {
                if p != q {
                    out.push((format!("{field}[{k}]"), Some(p.clone()), Some(q.clone())));
                }
            }
            continue;
        }
        out.push((field, x, y));
    }
}

/// The entries of a printed array attribute `[e0, e1, ...]`, split at its
/// top-level commas; `None` if it is not one.
fn split_list(text: &str) -> Option<Vec<String>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    let (mut depth, mut start, mut quoted) = (0i32, 0, false);
    let bytes = inner.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'[' | b'{' | b'(' | b'<' if !quoted => depth += 1,
            b']' | b'}' | b')' | b'>' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                out.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = inner[start..].trim();
    if !last.is_empty() {
        out.push(last.to_string());
    }
    Some(out)
}

/// The kernel's text without its functions' attribute dictionaries
/// (`func.func @f(...) attributes {...} {` becomes `func.func @f(...) {`):
/// they are compared as fields.
pub(super) fn without_function_attributes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if (trimmed.starts_with("func.func ") || trimmed.starts_with("func.func@"))
            && let Some(at) = line.find(") attributes {")
        {
            let start = at + ") attributes ".len();
            if let Some(len) = balanced(&line[start..]) {
                out.push_str(&line[..at + 1]);
                out.push_str(&line[start + len..]);
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// The length of the balanced `{...}` at the start of `text` (quotes
/// respected).
fn balanced(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let (mut depth, mut quoted, mut i) = (0i32, false, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'{' if !quoted => depth += 1,
            b'}' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// A name token: `%name`, `%name#2`, `^bb1`; `(start, end)` byte ranges.
fn name_tokens(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut quoted) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\\' && quoted {
            i += 2;
            continue;
        }
        if c == b'"' {
            quoted = !quoted;
        } else if !quoted && (c == b'%' || c == b'^') {
            let start = i;
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || matches!(bytes[i], b'_' | b'.' | b'$' | b'-'))
            {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'#' {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                if j > i + 1 {
                    i = j;
                }
            }
            if i > start + 1 {
                out.push((start, i));
            }
            continue;
        }
        i += 1;
    }
    out
}

/// The line with every SSA value and block name blanked out (`%`, `^`).
fn blanked(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (s, e) in name_tokens(line) {
        out.push_str(&line[last..s + 1]);
        last = e;
    }
    out.push_str(&line[last..]);
    out
}

/// The unified diff of two kernel texts modulo SSA names (labels `a_label`,
/// `b_label`, 3 lines of context): lines aligned on their blanked form, then
/// aligned lines whose names do not correspond one to one reported as
/// changed. Empty when the texts are equal modulo names.
pub(super) fn diff_modulo_names(a: &str, b: &str, a_label: &str, b_label: &str) -> String {
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let (ba, bb): (Vec<String>, Vec<String>) = (
        la.iter().map(|l| blanked(l)).collect(),
        lb.iter().map(|l| blanked(l)).collect(),
    );
    let ra: Vec<&str> = ba.iter().map(String::as_str).collect();
    let rb: Vec<&str> = bb.iter().map(String::as_str).collect();
    let script = super::edit_script(&ra, &rb);
    // Names of aligned lines must map one to one, in both directions.
    let mut forward: HashMap<&str, &str> = HashMap::new();
    let mut backward: HashMap<&str, &str> = HashMap::new();
    let mut edits = Vec::with_capacity(script.len());
    for edit in script {
        let super::Edit::Equal(i, j) = edit else {
            edits.push(edit);
            continue;
        };
        let (x, y) = (la[i], lb[j]);
        let names = |l: &str| -> Vec<(usize, usize)> { name_tokens(l) };
        let (nx, ny) = (names(x), names(y));
        let mut consistent = nx.len() == ny.len();
        let mut added: Vec<(&str, &str)> = Vec::new();
        if consistent {
            for (&(s, e), &(t, f)) in nx.iter().zip(&ny) {
                let (p, q) = (&x[s..e], &y[t..f]);
                let known_f = forward
                    .get(p)
                    .copied()
                    .or_else(|| added.iter().find(|(k, _)| *k == p).map(|(_, v)| *v));
                let known_b = backward
                    .get(q)
                    .copied()
                    .or_else(|| added.iter().find(|(_, v)| *v == q).map(|(k, _)| *k));
                match (known_f, known_b) {
                    (Some(v), _) if v != q => consistent = false,
                    (_, Some(k)) if k != p => consistent = false,
                    (None, None) => added.push((p, q)),
                    _ => {}
                }
                if !consistent {
                    break;
                }
            }
        }
        if consistent {
            for (p, q) in added {
                forward.insert(p, q);
                backward.insert(q, p);
            }
            edits.push(edit);
        } else {
            edits.push(super::Edit::Delete(i));
            edits.push(super::Edit::Insert(j));
        }
    }
    super::render_unified(&edits, &la, &lb, a_label, b_label, 3)
}
