//! Hints for authors' mistakes: the op or attribute name they probably
//! meant, from the `tpu` op table and MLIR 22's upstream op names.

use crate::spelling::nearest;

/// Op names of the upstream dialects kernels use (MLIR 22), for hints.
const UPSTREAM_OPS: &str = include_str!("../../data/mosaic/upstream-ops.txt");

/// The op name quoted in MLIR's "unknown op" messages (`custom op 'math.expp'
/// is unknown`, `unregistered operation 'math.expp' found in dialect ...`),
/// and the known op closest to it: ` (did you mean `math.exp`?)`.
pub(crate) fn unknown_op_hint(message: &str) -> Option<String> {
    let name = ["custom op '", "unregistered operation '"]
        .iter()
        .find_map(|prefix| {
            let rest = &message[message.find(prefix)? + prefix.len()..];
            Some(&rest[..rest.find('\'')?])
        })?;
    let tpu = super::dialect::table().ops().map(|o| o.name.as_str());
    let upstream = UPSTREAM_OPS.lines().filter(|l| !l.starts_with('#'));
    let near = nearest(name, upstream.chain(tpu))?;
    Some(format!(" (did you mean `{near}`?)"))
}

/// For MLIR's "requires attribute 'X'" on op `O`: an attribute of an `O` in
/// the module's printed text whose name is close to `X`: ` (did you mean
/// `X`? the op has `Y`)`.
pub(crate) fn missing_attribute_hint(message: &str, module_text: &str) -> Option<String> {
    let op = message.strip_prefix('\'')?.split('\'').next()?;
    let rest = &message[message.find("requires attribute '")? + "requires attribute '".len()..];
    let attr = &rest[..rest.find('\'')?];
    let mut names: Vec<&str> = Vec::new();
    for line in module_text.lines().filter(|l| {
        l.contains(&format!("\"{op}\""))
            || l.contains(&format!(" {op} "))
            || l.contains(&format!("{op}("))
    }) {
        let bytes = line.as_bytes();
        for (at, _) in line.match_indices(" = ") {
            let start = line[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            if start < at && bytes[start].is_ascii_alphabetic() {
                names.push(&line[start..at]);
            }
        }
    }
    let near = nearest(attr, names)?;
    Some(format!(" (did you mean `{attr}`? the op has `{near}`)"))
}

/// ` (did you mean `tpu.x`?)` for a `tpu` op name the dialect does not have.
pub(crate) fn tpu_op_hint(op: &str) -> String {
    if super::dialect::table().op(op).is_some() {
        return String::new();
    }
    let tpu = super::dialect::table().ops().map(|o| o.name.as_str());
    nearest(op, tpu)
        .map(|n| format!(" (did you mean `{n}`?)"))
        .unwrap_or_default()
}

/// Appends to each diagnostic the hint for an unknown op or a misspelled
/// required attribute, read from the diagnostics' own text (their notes
/// print the op).
pub(crate) fn add_hints(diagnostics: &mut [crate::context::Diagnostic]) {
    let text: String = diagnostics
        .iter()
        .flat_map(|d| {
            std::iter::once(d.message.as_str()).chain(d.notes.iter().map(|n| n.message.as_str()))
        })
        .collect::<Vec<_>>()
        .join("\n");
    for d in diagnostics {
        if let Some(hint) =
            unknown_op_hint(&d.message).or_else(|| missing_attribute_hint(&d.message, &text))
        {
            d.message.push_str(&hint);
        }
    }
}
