//! The bytecode container: header, sections, the string and dialect tables,
//! and the attribute/type entries with their per-dialect size table. Parsing
//! keeps the raw bytes of everything, so writing back changes only the
//! entries that were replaced (and the lengths, sizes and alignment padding
//! that depend on them).

use super::encoding::{Cursor, write_varint, write_varint_with_flag};
use super::error::{EntryKind, Section, TranscodeError};

/// The four bytes every MLIR bytecode file starts with.
pub const MAGIC: &[u8; 4] = b"ML\xefR";

/// The newest bytecode format version LLVM 22 and jaxlib 0.12 write.
pub const MAX_VERSION: u64 = 6;

/// Bytecode version from which dialect entries carry a "has version" flag.
const DIALECT_VERSIONING: u64 = 1;

/// Bytecode version from which isolated regions are nested sections.
pub(crate) const LAZY_LOADING: u64 = 2;

/// Bytecode version from which use-list orders may be encoded.
pub(crate) const USE_LIST_ORDERING: u64 = 3;

/// Bytecode version from which block argument locations may be elided and the
/// op name count precedes the op names.
pub(crate) const ELIDE_UNKNOWN_BLOCK_ARG_LOCATION: u64 = 4;

/// Bytecode version from which op names carry a "was registered" flag and
/// native properties are encoded.
pub(crate) const NATIVE_PROPERTIES: u64 = 5;

/// The byte MLIR pads aligned sections with.
const ALIGNMENT_BYTE: u8 = 0xCB;

/// Limit on counts read from the input (entries, strings, dialects), far above
/// anything real, so a corrupted count cannot make us allocate wildly.
const MAX_COUNT: u64 = 1 << 24;

/// One top-level section, as read.
#[derive(Clone, Debug)]
pub(crate) struct RawSection<'a> {
    /// Section id (0 to 8).
    pub(crate) id: u8,
    /// Alignment when the section header carries one.
    pub(crate) alignment: Option<u64>,
    /// Raw bytes of the header (id byte, length, alignment) without padding.
    pub(crate) header: &'a [u8],
    /// Offset of the data in the input.
    pub(crate) data_offset: usize,
    /// The section's data.
    pub(crate) data: &'a [u8],
}

/// One attribute or type entry.
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    /// Attribute or type.
    pub kind: EntryKind,
    /// Index among the attributes (or types).
    pub index: usize,
    /// Index of its dialect in [`Bytecode::dialects`].
    pub dialect: usize,
    /// Whether the dialect's binary encoding is used (else the data is the
    /// NUL-terminated textual form).
    pub custom: bool,
    /// Offset of the data in the input.
    pub offset: usize,
    /// The entry's bytes.
    pub data: &'a [u8],
    /// The raw size varint in the offset section.
    size_varint: &'a [u8],
}

impl Entry<'_> {
    /// The textual form, for entries without a custom encoding (NUL removed).
    pub fn text(&self) -> Option<&str> {
        if self.custom {
            return None;
        }
        let raw = self.data.strip_suffix(&[0]).unwrap_or(self.data);
        std::str::from_utf8(raw).ok()
    }
}

/// A piece of the offset section: raw bytes kept as they are, or the size of
/// an entry.
#[derive(Clone, Debug)]
enum OffsetPiece<'a> {
    Raw(&'a [u8]),
    Entry(usize),
}

/// A parsed bytecode file.
#[derive(Clone, Debug)]
pub struct Bytecode<'a> {
    pub(crate) input: &'a [u8],
    /// Bytecode format version.
    pub version: u64,
    /// Producer string (e.g. `MLIR24.0.0git`).
    pub producer: &'a [u8],
    header_len: usize,
    sections: Vec<RawSection<'a>>,
    /// The string table.
    pub strings: Vec<&'a [u8]>,
    /// Offset of each string in the input.
    pub string_offsets: Vec<usize>,
    /// Dialect names, in the order entries refer to them.
    pub dialects: Vec<&'a [u8]>,
    /// Attribute entries, then type entries.
    pub entries: Vec<Entry<'a>>,
    offset_pieces: Vec<OffsetPiece<'a>>,
    /// Bytes of the attribute/type section after the last entry.
    attr_type_trailing: &'a [u8],
    /// The operation names, in the order the IR section refers to them: for
    /// each, whether it was registered when written (from version 5 on).
    pub(crate) op_names: Vec<Option<bool>>,
    /// The full name of each operation name (`dialect.op`), same order.
    pub(crate) op_name_texts: Vec<String>,
}

impl<'a> Bytecode<'a> {
    /// Parses the container (not the IR section).
    pub fn parse(input: &'a [u8]) -> Result<Self, TranscodeError> {
        if !input.starts_with(MAGIC) {
            return Err(TranscodeError::NotBytecode);
        }
        let mut header = Cursor::new(input, 0, Section::Header);
        header.bytes(4, "magic")?;
        let version_offset = header.offset();
        let version = header.varint()?;
        if version > MAX_VERSION {
            let _ = version_offset;
            return Err(TranscodeError::UnsupportedVersion { version });
        }
        let producer = header.c_str("producer string")?;
        let header_len = header.pos();

        let mut sections: Vec<RawSection<'a>> = Vec::new();
        let mut at = header_len;
        while at < input.len() {
            let section = read_section(input, at, Section::Header)?;
            if sections.iter().any(|s| s.id == section.id) {
                let name = Section::from_id(section.id).map_or("?", Section::name);
                return Err(TranscodeError::Malformed {
                    section: Section::Header,
                    offset: at,
                    reason: format!("duplicate {name} section (id {})", section.id),
                });
            }
            if section.id == 7 {
                return Err(TranscodeError::Malformed {
                    section: Section::Header,
                    offset: at,
                    reason: "dialect versions section (id 7) at top level: it belongs inside the dialect section".into(),
                });
            }
            at = section.data_offset + section.data.len();
            sections.push(section);
        }
        let find = |id: u8| -> Result<&RawSection<'a>, TranscodeError> {
            sections
                .iter()
                .find(|s| s.id == id)
                .ok_or(TranscodeError::MissingSection {
                    section: Section::from_id(id).unwrap_or(Section::Header),
                })
        };
        for id in [0, 1, 2, 3, 4] {
            find(id)?;
        }
        let (strings, string_offsets) = parse_strings(find(0)?)?;
        let (dialects, op_names, op_name_texts) = parse_dialects(find(1)?, version, &strings)?;
        let attr_type = find(2)?.clone();
        let (entries, offset_pieces, used) = parse_entries(find(3)?, &attr_type, dialects.len())?;
        Ok(Self {
            input,
            version,
            producer,
            header_len,
            sections,
            strings,
            string_offsets,
            dialects,
            entries,
            offset_pieces,
            attr_type_trailing: &attr_type.data[used..],
            op_names,
            op_name_texts,
        })
    }

    /// Where the data of a top-level section lies in the input, if present.
    pub fn section_span(&self, section: Section) -> Option<std::ops::Range<usize>> {
        self.sections
            .iter()
            .find(|s| Section::from_id(s.id) == Some(section))
            .map(|s| s.data_offset..s.data_offset + s.data.len())
    }

    /// The top-level section with id `id`, if present.
    pub(crate) fn section(&self, id: u8) -> Option<&RawSection<'a>> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// Index of the `builtin` dialect, if the file uses it.
    pub fn builtin_dialect(&self) -> Option<usize> {
        self.dialects.iter().position(|d| *d == b"builtin")
    }

    /// Writes the file back with some entries replaced: `replace(entry)`
    /// returns the new `(custom, data)` of an entry, or `None` to keep it.
    pub(crate) fn rewrite<F>(&self, mut replace: F) -> Result<Vec<u8>, TranscodeError>
    where
        F: FnMut(&Entry<'a>) -> Result<Option<(bool, Vec<u8>)>, TranscodeError>,
    {
        let mut replaced: Vec<Option<(bool, Vec<u8>)>> = Vec::with_capacity(self.entries.len());
        for entry in &self.entries {
            replaced.push(replace(entry)?);
        }
        if replaced.iter().all(Option::is_none) {
            return Ok(self.input.to_vec());
        }
        let mut attr_type = Vec::new();
        for (entry, new) in self.entries.iter().zip(&replaced) {
            match new {
                Some((_, data)) => attr_type.extend_from_slice(data),
                None => attr_type.extend_from_slice(entry.data),
            }
        }
        attr_type.extend_from_slice(self.attr_type_trailing);
        let mut offsets = Vec::new();
        for piece in &self.offset_pieces {
            match piece {
                OffsetPiece::Raw(raw) => offsets.extend_from_slice(raw),
                OffsetPiece::Entry(i) => match &replaced[*i] {
                    Some((custom, data)) => {
                        write_varint_with_flag(&mut offsets, data.len() as u64, *custom)
                    }
                    None => offsets.extend_from_slice(self.entries[*i].size_varint),
                },
            }
        }

        let mut out = Vec::with_capacity(self.input.len() + attr_type.len());
        out.extend_from_slice(&self.input[..self.header_len]);
        for section in &self.sections {
            let new_data: Option<&[u8]> = match section.id {
                2 => Some(&attr_type),
                3 => Some(&offsets),
                _ => None,
            };
            match (new_data, section.alignment) {
                (None, None) => {
                    out.extend_from_slice(section.header);
                    out.extend_from_slice(section.data);
                }
                (data, alignment) => {
                    let data = data.unwrap_or(section.data);
                    match data == section.data {
                        true if alignment.is_none() => out.extend_from_slice(section.header),
                        _ => {
                            out.push(section.header[0]);
                            write_varint(&mut out, data.len() as u64);
                            if let Some(alignment) = alignment {
                                write_varint(&mut out, alignment);
                            }
                        }
                    }
                    if let Some(alignment) = alignment {
                        // Alignment is validated as a power of two when read.
                        while !(out.len() as u64).is_multiple_of(alignment) {
                            out.push(ALIGNMENT_BYTE);
                        }
                    }
                    out.extend_from_slice(data);
                }
            }
        }
        Ok(out)
    }
}

/// Reads a section header and its data starting at `at`.
pub(crate) fn read_section<'a>(
    input: &'a [u8],
    at: usize,
    within: Section,
) -> Result<RawSection<'a>, TranscodeError> {
    let mut c = Cursor::new(&input[at..], at, within);
    let id_byte = c.byte()?;
    let id = id_byte & 0x7f;
    if Section::from_id(id).is_none() {
        return Err(c.error_at(
            at,
            format!("unknown section id {id}: MLIR knows ids 0 to 8"),
        ));
    }
    let length = c.varint()?;
    let alignment = if id_byte & 0x80 != 0 {
        let align_at = c.offset();
        let alignment = c.varint()?;
        if alignment == 0 || !alignment.is_power_of_two() || alignment > 1 << 16 {
            return Err(c.error_at(
                align_at,
                format!("section alignment {alignment} is not a power of two up to 65536"),
            ));
        }
        Some(alignment)
    } else {
        None
    };
    let header_len = c.pos();
    if let Some(alignment) = alignment {
        while !(c.offset() as u64).is_multiple_of(alignment) {
            let pad_at = c.offset();
            if c.byte()? != ALIGNMENT_BYTE {
                return Err(c.error_at(pad_at, "alignment padding byte is not 0xCB"));
            }
        }
    }
    let data_offset = c.offset();
    let name = Section::from_id(id).map_or("section", Section::name);
    let data = c.bytes(length, &format!("{name} section"))?;
    Ok(RawSection {
        id,
        alignment,
        header: &input[at..at + header_len],
        data_offset,
        data,
    })
}

/// Reads the string table: count, lengths (last string first), then the
/// NUL-terminated strings.
#[allow(clippy::type_complexity)]
fn parse_strings<'a>(
    section: &RawSection<'a>,
) -> Result<(Vec<&'a [u8]>, Vec<usize>), TranscodeError> {
    let mut c = Cursor::new(section.data, section.data_offset, Section::String);
    let count = c.count(MAX_COUNT, "string count")?;
    let mut lengths = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        lengths.push(c.varint()?);
    }
    let mut strings = vec![&[][..]; count];
    let mut offsets = vec![0; count];
    for ((slot, offset), &len) in strings
        .iter_mut()
        .zip(&mut offsets)
        .zip(lengths.iter().rev())
    {
        let at = c.offset();
        *offset = at;
        let raw = c.bytes(len, "string")?;
        match raw.split_last() {
            Some((0, s)) => *slot = s,
            _ => return Err(c.error_at(at, "string is not NUL-terminated")),
        }
    }
    Ok((strings, offsets))
}

/// Reads the dialect names, then the operation names (for each, whether it
/// was registered, from version 5 on). The op names' counts are checked
/// against the bytes left: MLIR 22 reserves room for the announced number of
/// op names before reading them (a corrupted count aborts it).
#[allow(clippy::type_complexity)]
fn parse_dialects<'a>(
    section: &RawSection<'a>,
    version: u64,
    strings: &[&'a [u8]],
) -> Result<(Vec<&'a [u8]>, Vec<Option<bool>>, Vec<String>), TranscodeError> {
    let mut c = Cursor::new(section.data, section.data_offset, Section::Dialect);
    let count = c.count(MAX_COUNT, "dialect count")?;
    let mut dialects = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        let at = c.offset();
        let (index, has_version) = if version < DIALECT_VERSIONING {
            (c.varint()?, false)
        } else {
            c.varint_with_flag()?
        };
        let Some(name) = strings.get(usize::try_from(index).unwrap_or(usize::MAX)) else {
            return Err(c.error_at(
                at,
                format!(
                    "dialect name {index} is not in the string table ({} strings)",
                    strings.len()
                ),
            ));
        };
        dialects.push(*name);
        if has_version {
            let nested_at = c.offset();
            let nested = read_section(section.data, c.pos(), Section::Dialect)
                .map_err(|e| rebase(e, section.data_offset))?;
            if nested.id != 7 {
                return Err(c.error_at(nested_at, "expected a dialect versions section (id 7)"));
            }
            let skip = nested.data_offset + nested.data.len() - c.pos();
            c.bytes(skip as u64, "dialect version")?;
        }
    }
    let mut op_names = Vec::new();
    let mut op_name_texts = Vec::new();
    if version >= ELIDE_UNKNOWN_BLOCK_ARG_LOCATION {
        // Every op name takes at least one byte.
        let remaining = c.remaining().saturating_sub(1) as u64;
        let count = c.count(
            remaining,
            "operation name count (bounded by the bytes left)",
        )?;
        op_names.reserve(count);
    }
    while !c.is_empty() {
        let dialect_at = c.offset();
        let dialect = c.varint()?;
        if dialect >= dialects.len() as u64 {
            return Err(c.error_at(
                dialect_at,
                format!(
                    "dialect {dialect} of an operation name group does not exist ({} dialects)",
                    dialects.len()
                ),
            ));
        }
        let remaining = c.remaining() as u64;
        let count = c.count(
            remaining,
            "operation name group size (bounded by the bytes left)",
        )?;
        for _ in 0..count {
            let at = c.offset();
            let (name, registered) = if version >= NATIVE_PROPERTIES {
                let (name, registered) = c.varint_with_flag()?;
                (name, Some(registered))
            } else {
                (c.varint()?, None)
            };
            if name >= strings.len() as u64 {
                return Err(c.error_at(
                    at,
                    format!(
                        "operation name {name} is not in the string table ({} strings)",
                        strings.len()
                    ),
                ));
            }
            op_names.push(registered);
            op_name_texts.push(format!(
                "{}.{}",
                String::from_utf8_lossy(dialects[dialect as usize]),
                String::from_utf8_lossy(strings[name as usize])
            ));
        }
    }
    Ok((dialects, op_names, op_name_texts))
}

/// Shifts the offset of an error raised on a sub-slice read from position 0.
fn rebase(error: TranscodeError, base: usize) -> TranscodeError {
    match error {
        TranscodeError::Malformed {
            section,
            offset,
            reason,
        } => TranscodeError::Malformed {
            section,
            offset: offset + base,
            reason,
        },
        other => other,
    }
}

/// Reads the offset section and slices the attribute/type entries out of the
/// attribute/type section. Returns the entries, the offset section as pieces
/// and the number of attribute/type bytes the entries cover.
#[allow(clippy::type_complexity)]
fn parse_entries<'a>(
    offsets: &RawSection<'a>,
    attr_type: &RawSection<'a>,
    num_dialects: usize,
) -> Result<(Vec<Entry<'a>>, Vec<OffsetPiece<'a>>, usize), TranscodeError> {
    let mut c = Cursor::new(offsets.data, offsets.data_offset, Section::AttrTypeOffset);
    let mut pieces = Vec::new();
    let start = c.pos();
    let num_attrs = c.count(MAX_COUNT, "attribute count")?;
    let num_types = c.count(MAX_COUNT, "type count")?;
    pieces.push(OffsetPiece::Raw(c.since(start)));
    let mut entries: Vec<Entry<'a>> = Vec::with_capacity((num_attrs + num_types).min(1 << 16));
    let mut used = 0usize;
    for (kind, total) in [
        (EntryKind::Attribute, num_attrs),
        (EntryKind::Type, num_types),
    ] {
        let mut index = 0;
        while index < total {
            let group_start = c.pos();
            let dialect_at = c.offset();
            let dialect = c.varint()?;
            if dialect >= num_dialects as u64 {
                return Err(c.error_at(
                    dialect_at,
                    format!("dialect {dialect} of a {kind} group does not exist ({num_dialects} dialects)"),
                ));
            }
            let count_at = c.offset();
            let count = c.varint()?;
            if count > (total - index) as u64 {
                return Err(c.error_at(
                    count_at,
                    format!(
                        "{kind} group of {count} entries overruns the {total} {kind}s announced ({index} read)"
                    ),
                ));
            }
            pieces.push(OffsetPiece::Raw(c.since(group_start)));
            for _ in 0..count {
                let size_start = c.pos();
                let size_at = c.offset();
                let (size, custom) = c.varint_with_flag()?;
                if size > (attr_type.data.len() - used) as u64 {
                    return Err(c.error_at(
                        size_at,
                        format!(
                            "{kind} entry {index} of {size} bytes at offset {} runs past the end of the attribute/type section ({} bytes)",
                            attr_type.data_offset + used,
                            attr_type.data.len()
                        ),
                    ));
                }
                let size = size as usize;
                pieces.push(OffsetPiece::Entry(entries.len()));
                entries.push(Entry {
                    kind,
                    index,
                    dialect: dialect as usize,
                    custom,
                    offset: attr_type.data_offset + used,
                    data: &attr_type.data[used..used + size],
                    size_varint: c.since(size_start),
                });
                used += size;
                index += 1;
            }
        }
    }
    if !c.is_empty() {
        return Err(c.error(format!("{} unexpected trailing bytes", c.remaining())));
    }
    Ok((entries, pieces, used))
}
