//! The one error of every `FromStr` of a spelled enum (`DeviceType`,
//! `Tiling`, `OptLevel`, `SideEffect`, `DebugLocations`, `AutoAssignMode`): a
//! leaf, so every layer can use it.

/// A name that is not one of an enum's spellings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a {kind}: use one of {}", .expected.join(", "))]
pub struct UnknownSpelling {
    /// What was being parsed (`debug-locations mode`).
    pub kind: &'static str,
    /// The text given.
    pub text: String,
    /// The canonical spellings.
    pub expected: &'static [&'static str],
}

/// `FromStr` and `Display` for a `Copy` enum with `ALL` and a canonical
/// spelling function; parsing goes through the enum's own `parse`.
macro_rules! spelled {
    ($ty:ty, $kind:literal, $name:ident, [$($spelling:literal),+ $(,)?]) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.$name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::spelling::UnknownSpelling;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                <$ty>::parse(text).ok_or_else(|| $crate::spelling::UnknownSpelling {
                    kind: $kind,
                    text: text.to_string(),
                    expected: &[$($spelling),+],
                })
            }
        }
    };
}

pub(crate) use spelled;

/// Op names of the upstream dialects kernels use (MLIR 22), for hints.
const UPSTREAM_OPS: &str = include_str!("../data/mosaic/upstream-ops.txt");

/// Levenshtein distance between two names.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate closest to `name` (at most 3 edits, and fewer than half
/// its length); ties go to the alphabetically first.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = 3.min(name.chars().count().div_ceil(2));
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let d = edit_distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bn)| d < bd || (d == bd && c < bn)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

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
    let tpu = crate::mosaic::dialect::table()
        .ops()
        .map(|o| o.name.as_str());
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
    if crate::mosaic::dialect::table().op(op).is_some() {
        return String::new();
    }
    let tpu = crate::mosaic::dialect::table()
        .ops()
        .map(|o| o.name.as_str());
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
