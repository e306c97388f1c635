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
