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
