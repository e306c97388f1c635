//! The transcoder's error type and the names of bytecode sections it reports.

use std::fmt;

/// A part of a bytecode file, named in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Section {
    /// Magic, format version and producer string.
    Header,
    /// Section 0: the string table.
    String,
    /// Section 1: dialect names and op names.
    Dialect,
    /// Section 2: attribute and type entries.
    AttrType,
    /// Section 3: sizes of the attribute and type entries, grouped by dialect.
    AttrTypeOffset,
    /// Section 4: the operations.
    Ir,
    /// Section 5: resources.
    Resource,
    /// Section 6: resource offsets.
    ResourceOffset,
    /// Section 7: dialect versions (nested in the dialect section).
    DialectVersions,
    /// Section 8: native operation properties.
    Properties,
}

impl Section {
    /// The section with bytecode section id `id`, if there is one.
    pub const fn from_id(id: u8) -> Option<Self> {
        Some(match id {
            0 => Self::String,
            1 => Self::Dialect,
            2 => Self::AttrType,
            3 => Self::AttrTypeOffset,
            4 => Self::Ir,
            5 => Self::Resource,
            6 => Self::ResourceOffset,
            7 => Self::DialectVersions,
            8 => Self::Properties,
            _ => return None,
        })
    }

    /// The name used in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Header => "header",
            Self::String => "string",
            Self::Dialect => "dialect",
            Self::AttrType => "attribute/type",
            Self::AttrTypeOffset => "attribute/type offset",
            Self::Ir => "IR",
            Self::Resource => "resource",
            Self::ResourceOffset => "resource offset",
            Self::DialectVersions => "dialect versions",
            Self::Properties => "properties",
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Attribute or type: the two kinds of entries of the attribute/type section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// An attribute entry.
    Attribute,
    /// A type entry.
    Type,
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Attribute => "attribute",
            Self::Type => "type",
        })
    }
}

/// Errors while reading, rewriting or writing MLIR bytecode.
///
/// Every offset is a byte offset from the start of the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TranscodeError {
    /// The input does not start with the bytecode magic.
    #[error("input is not MLIR bytecode: expected the magic `ML\\xEFR` at offset 0")]
    NotBytecode,
    /// The format version is newer than any MLIR we know writes.
    #[error(
        "bytecode format version {version} is not supported: this transcoder reads versions 0 to 6"
    )]
    UnsupportedVersion {
        /// The version in the header.
        version: u64,
    },
    /// Bytes that do not follow the bytecode format.
    #[error("malformed bytecode in the {section} section at offset {offset}: {reason}")]
    Malformed {
        /// The section being read.
        section: Section,
        /// Where the problem is.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A section MLIR requires is absent.
    #[error("malformed bytecode: the required {section} section is missing")]
    MissingSection {
        /// The missing section.
        section: Section,
    },
    /// A builtin attribute code this transcoder does not know (newer than
    /// LLVM 24's encodings): reported, never guessed.
    #[error(
        "unknown builtin attribute code {code} in attribute entry {index} at offset {offset}: \
         this transcoder knows codes 0 to 25 (LLVM 22 reads 0 to 22)"
    )]
    UnknownAttributeCode {
        /// The code.
        code: u64,
        /// Index of the attribute entry.
        index: usize,
        /// Offset of the entry.
        offset: usize,
    },
    /// A builtin type code this transcoder does not know.
    #[error(
        "unknown builtin type code {code} in type entry {index} at offset {offset}: \
         this transcoder knows codes 0 to 32 (LLVM 22 reads 0 to 20)"
    )]
    UnknownTypeCode {
        /// The code.
        code: u64,
        /// Index of the type entry.
        index: usize,
        /// Offset of the entry.
        offset: usize,
    },
    /// A binary encoding that does not decode (bad affine expression kind,
    /// trailing bytes, out-of-range counts).
    #[error("malformed builtin {kind} entry {index} at offset {offset}: {reason}")]
    BadEntry {
        /// Attribute or type.
        kind: EntryKind,
        /// Index of the entry.
        index: usize,
        /// Offset of the entry.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A textual builtin entry that should get a binary encoding but does not
    /// parse (only when encoding up to LLVM 24).
    #[error("cannot encode builtin {kind} entry {index} at offset {offset} (`{text}`): {reason}")]
    BadText {
        /// Attribute or type.
        kind: EntryKind,
        /// Index of the entry.
        index: usize,
        /// Offset of the entry.
        offset: usize,
        /// The entry's text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Attributes or types that reference each other in a cycle (only
    /// corrupted input has them; MLIR 22's reader would never finish).
    #[error(
        "builtin {kind} entry {index} at offset {offset} references itself through other entries: \
         the attribute/type section is corrupted"
    )]
    CyclicReference {
        /// Attribute or type.
        kind: EntryKind,
        /// Index of an entry on the cycle.
        index: usize,
        /// Offset of that entry.
        offset: usize,
    },
    /// Attributes and types nested (through references, or in an entry's
    /// text) deeper than [`super::MAX_REFERENCE_DEPTH`]: MLIR 22's reader
    /// slows down quadratically on such chains and its printer recurses per
    /// level (a stack overflow).
    #[error(
        "{kind} entry {index} at offset {offset} nests attributes and types more than {limit} deep: \
         MLIR reads and prints them recursively, so nesting is limited to {limit} (real kernels nest a few dozen)"
    )]
    TooDeep {
        /// Attribute or type.
        kind: EntryKind,
        /// Index of the entry.
        index: usize,
        /// Offset of the entry.
        offset: usize,
        /// The limit.
        limit: usize,
    },
}
