//! Transcoding MLIR bytecode between the builtin encodings of LLVM 22 and of
//! the MLIR inside jaxlib 0.12 (producer `MLIR24.0.0git`).
//!
//! Newer MLIR writes some builtin attributes and types in binary where LLVM 22
//! writes their text: the `affine_map` layout of every memref type (attribute
//! code 23), integer sets (24), strided layouts (25), and the 8-, 6- and 4-bit
//! float types and `tf32` (type codes 21 to 32). LLVM 22 rejects those codes,
//! so [`down`] replaces each with exactly the text LLVM 22's writer prints for
//! it, and [`up`] does the reverse so a body we write can equal jaxlib's byte
//! for byte. Only those entries (and the sizes, section lengths and alignment
//! padding that depend on them) change; every other byte is kept.
//!
//! The numbering of attributes and types is the same in both MLIRs (neither
//! form references other attributes, types or strings), so no table other
//! than the attribute/type entries needs rewriting.

mod builtin;
mod container;
mod encoding;
mod error;
mod guard;
mod ir;

pub use builtin::{AffineExpr, AffineMap, BinaryOp, IntegerSet, MAX_AFFINE_IDS, StridedLayout};
pub use container::{Bytecode, Entry, MAGIC, MAX_VERSION};
pub use error::{EntryKind, Section, TranscodeError};

use builtin::Down;

/// How deep attributes and types may nest in bytecode: the longest chain of
/// builtin entries referencing each other, plus the bracket nesting of
/// textual entries. Same limit, same reasons as
/// [`crate::kernel::MAX_TEXT_NESTING`] (see [`TranscodeError::TooDeep`]).
pub const MAX_REFERENCE_DEPTH: usize = crate::kernel::MAX_TEXT_NESTING;

/// Which MLIR's builtin bytecode encodings to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encodings {
    /// LLVM 22's: readable by every TPU toolchain (textual affine maps).
    #[default]
    Llvm22,
    /// LLVM 24's, as jaxlib 0.12 writes them (binary affine maps).
    Llvm24,
}

impl Encodings {
    /// The LLVM major version, as spelled on the command line (`22`, `24`).
    pub const fn llvm_version(self) -> u32 {
        match self {
            Self::Llvm22 => 22,
            Self::Llvm24 => 24,
        }
    }
}

impl std::fmt::Display for Encodings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.llvm_version())
    }
}

impl std::str::FromStr for Encodings {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().trim_start_matches("llvm") {
            "22" => Ok(Self::Llvm22),
            "24" => Ok(Self::Llvm24),
            _ => Err(format!(
                "bytecode encodings `{s}` is not known: use 22 (LLVM 22, readable everywhere) or 24 (what JAX 0.12 writes)"
            )),
        }
    }
}

/// Rewrites `bytes` to use the builtin encodings `to`.
pub fn transcode(bytes: &[u8], to: Encodings) -> Result<Vec<u8>, TranscodeError> {
    match to {
        Encodings::Llvm22 => down(bytes),
        Encodings::Llvm24 => up(bytes),
    }
}

/// Rewrites every builtin attribute and type whose binary encoding LLVM 22
/// does not know into the text LLVM 22's writer prints for it. Bytecode LLVM
/// 22 already reads comes back unchanged. Input whose builtin attributes
/// reference each other in a cycle or nest deeper than [`MAX_REFERENCE_DEPTH`]
/// is rejected (MLIR 22 would hang or overflow its stack on it), and
/// so is input with a count larger than the bytes it describes or an index
/// past its table (MLIR 22 would abort the process on it).
pub fn down(bytes: &[u8]) -> Result<Vec<u8>, TranscodeError> {
    let file = Bytecode::parse(bytes)?;
    guard::check_acyclic(&file)?;
    guard::check_text_is_utf8(&file)?;
    guard::check_memory_spaces(&file)?;
    guard::check_typed_builtins(&file)?;
    ir::check_ir(&file)?;
    let Some(builtin) = file.builtin_dialect() else {
        return Ok(bytes.to_vec());
    };
    file.rewrite(|entry| {
        if entry.dialect != builtin || !entry.custom {
            return Ok(None);
        }
        let down = match entry.kind {
            EntryKind::Attribute => builtin::down_attribute(entry.data, entry.offset),
            EntryKind::Type => builtin::down_type(entry.data, entry.offset),
        }
        .map_err(|e| bad_entry(entry, e))?;
        match down {
            Down::Keep => Ok(None),
            Down::Text(text) => {
                let mut data = text.into_bytes();
                data.push(0);
                Ok(Some((false, data)))
            }
            Down::UnknownCode(code) => Err(match entry.kind {
                EntryKind::Attribute => TranscodeError::UnknownAttributeCode {
                    code,
                    index: entry.index,
                    offset: entry.offset,
                },
                EntryKind::Type => TranscodeError::UnknownTypeCode {
                    code,
                    index: entry.index,
                    offset: entry.offset,
                },
            }),
        }
    })
}

/// Rewrites every builtin attribute and type LLVM 22 wrote as text but newer
/// MLIR (jaxlib 0.12) writes in binary into that binary encoding.
pub fn up(bytes: &[u8]) -> Result<Vec<u8>, TranscodeError> {
    let file = Bytecode::parse(bytes)?;
    let Some(builtin) = file.builtin_dialect() else {
        return Ok(bytes.to_vec());
    };
    file.rewrite(|entry| {
        if entry.dialect != builtin || entry.custom {
            return Ok(None);
        }
        let Some(text) = entry.text() else {
            return Ok(None);
        };
        let encoded = match entry.kind {
            EntryKind::Attribute => builtin::up_attribute(text),
            EntryKind::Type => Ok(builtin::up_type(text)),
        }
        .map_err(|reason| TranscodeError::BadText {
            kind: entry.kind,
            index: entry.index,
            offset: entry.offset,
            text: text.to_string(),
            reason,
        })?;
        Ok(encoded.map(|data| (true, data)))
    })
}

/// Whether `bytes` (MLIR bytecode) holds builtin encodings LLVM 22 cannot
/// read, i.e. whether [`down`] would change it.
pub fn needs_down(bytes: &[u8]) -> Result<bool, TranscodeError> {
    Ok(down(bytes)? != bytes)
}

/// Wraps a decoding error inside an entry with the entry's identity.
fn bad_entry(entry: &Entry<'_>, error: TranscodeError) -> TranscodeError {
    match error {
        TranscodeError::Malformed { offset, reason, .. } => TranscodeError::BadEntry {
            kind: entry.kind,
            index: entry.index,
            offset,
            reason,
        },
        other => other,
    }
}

/// The names of the operations whose properties `bytes` stores in the op's
/// own encoding (ops registered where the file was written, format version 5
/// or newer), sorted and without repeats. A reader where such an op is not
/// registered cannot decode those properties (MLIR 22 would read the first of
/// them as the whole property dictionary and drop the rest):
/// [`crate::interop`] refuses them.
pub fn native_property_ops(bytes: &[u8]) -> Result<Vec<String>, TranscodeError> {
    let file = Bytecode::parse(bytes)?;
    if file.version < container::NATIVE_PROPERTIES {
        // No native properties before version 5 (and no IR walk for Mosaic
        // bodies, written at version 0).
        return Ok(Vec::new());
    }
    let indices = ir::native_property_ops(&file)?;
    let mut names: Vec<String> = indices
        .into_iter()
        .filter_map(|i| file.op_name_texts.get(i as usize).cloned())
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}
