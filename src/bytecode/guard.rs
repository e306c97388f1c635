//! A check run before handing transcoded bytes to LLVM 22: MLIR 22's reader
//! loops forever on attributes that reference themselves (an attribute cycle
//! such as a location whose child is an array holding that location), which
//! only corrupted input contains. The builtin encodings of LLVM 22 are decoded
//! just far enough to find each entry's references, and a cycle is rejected.
//! References inside other dialects' binary encodings are not visible here.

use super::container::{Bytecode, Entry};
use super::encoding::Cursor;
use super::error::{EntryKind, Section, TranscodeError};

/// A node of the reference graph: attributes first, then types.
type Node = usize;

/// What a builtin entry's fields are, in order, as far as references go.
#[derive(Clone, Copy)]
enum Field {
    Attr,
    Type,
    /// A list of attributes.
    Attrs,
    /// A list of types.
    Types,
    /// A list of (attribute, attribute) pairs (dictionary).
    NamedAttrs,
    /// A varint to skip.
    VarInt,
    /// A list of signed varints to skip (shapes).
    Shape,
    /// A list of varints to skip (line/column data of a location range).
    VarInts,
    /// A list of single bytes to skip (flags, e.g. scalable dimensions).
    Bytes,
    /// Anything after this is not a reference: stop.
    Rest,
}

fn attribute_fields(code: u64) -> &'static [Field] {
    use Field::*;
    match code {
        0 => &[Attrs],
        1 => &[NamedAttrs],
        3 => &[VarInt, Type],
        4 => &[Attr],
        5 => &[Attr, Attrs],
        6 => &[Type],
        8 | 9 | 16 | 17 | 18 | 19 => &[Type, Rest],
        10 | 14 => &[Attr, Attr],
        11 => &[Attr, Rest],
        22 => &[Attr, VarInts],
        12 => &[Attrs],
        13 => &[Attrs, Attr],
        20 => &[Type, Attr, Attr],
        21 => &[Attr],
        _ => &[Rest],
    }
}

fn type_fields(code: u64) -> &'static [Field] {
    use Field::*;
    match code {
        2 => &[Types, Types],
        9 | 16 | 18 => &[Type],
        10 => &[Shape, Type, Attr],
        11 => &[Attr, Shape, Type, Attr],
        13 | 19 => &[Shape, Type],
        14 => &[Attr, Shape, Type],
        15 => &[Types],
        17 => &[Attr, Type],
        20 => &[Bytes, Shape, Type],
        _ => &[Rest],
    }
}

/// The references of one builtin entry (best effort: stops at the first
/// field it cannot read; MLIR reports those itself).
/// A list length larger than the entry's remaining bytes is reported through
/// `too_long`.
fn references(
    entry: &Entry<'_>,
    num_attrs: usize,
    out: &mut Vec<Node>,
    too_long: &mut Option<TranscodeError>,
) {
    let mut c = Cursor::new(entry.data, entry.offset, Section::AttrType);
    let Ok(code) = c.varint() else { return };
    let fields = match entry.kind {
        EntryKind::Attribute => attribute_fields(code),
        EntryKind::Type => type_fields(code),
    };
    let attr = |v: u64| usize::try_from(v).ok();
    let ty = |v: u64| {
        usize::try_from(v)
            .ok()
            .and_then(|v| v.checked_add(num_attrs))
    };
    for field in fields {
        let ok = (|| -> Result<bool, TranscodeError> {
            match field {
                Field::Attr => out.extend(attr(c.varint()?)),
                Field::Type => out.extend(ty(c.varint()?)),
                Field::Attrs
                | Field::Types
                | Field::NamedAttrs
                | Field::Shape
                | Field::VarInts
                | Field::Bytes => {
                    let at = c.offset();
                    let n = c.varint()?;
                    if n > c.remaining() as u64 {
                        // MLIR reserves room for the list before reading it:
                        // a corrupted length aborts it.
                        *too_long = Some(c.error_at(
                            at,
                            format!(
                                "list length {n} exceeds the {} bytes left in the entry",
                                c.remaining()
                            ),
                        ));
                        return Ok(false);
                    }
                    let n = n as usize;
                    for _ in 0..n {
                        if matches!(field, Field::Bytes) {
                            c.byte()?;
                            continue;
                        }
                        let v = c.varint()?;
                        match field {
                            Field::Attrs => out.extend(attr(v)),
                            Field::Types => out.extend(ty(v)),
                            Field::NamedAttrs => {
                                out.extend(attr(v));
                                out.extend(attr(c.varint()?));
                            }
                            _ => {}
                        }
                    }
                }
                Field::VarInt => {
                    c.varint()?;
                }
                Field::Rest => return Ok(false),
            }
            Ok(true)
        })();
        if !matches!(ok, Ok(true)) {
            return;
        }
    }
}

/// Rejects a file whose builtin attributes and types reference each other in
/// a cycle (MLIR 22 would never finish reading it), or nest deeper than
/// [`super::MAX_REFERENCE_DEPTH`] through references or in an entry's text.
///
/// The depth guard: a chain of 300,000 array attributes each holding the
/// previous one (`mlir-opt --emit-bytecode` of `#a1 = [#a0]`, ...) made
/// MLIR 22's reader run for over 20 minutes (its deferred-entry worklist is
/// quadratic in the depth: 1.6 s at 10,000), and a chain of 10,000 aborted
/// the process on a 2 MiB thread (stack overflow while reading and
/// printing). Regression test:
/// `tests/integration/bytecode.rs::deep_attribute_references_are_refused`.
pub(crate) fn check_acyclic(file: &Bytecode<'_>) -> Result<(), TranscodeError> {
    let limit = super::MAX_REFERENCE_DEPTH;
    let builtin = file.builtin_dialect();
    let num_attrs = file
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Attribute)
        .count();
    let n = file.entries.len();
    let too_deep = |entry: &Entry<'_>| TranscodeError::TooDeep {
        kind: entry.kind,
        index: entry.index,
        offset: entry.offset,
        limit,
    };
    let mut edges: Vec<Vec<Node>> = vec![Vec::new(); n];
    // The depth an entry has by itself: its text's nesting, or 1.
    let mut own = vec![1usize; n];
    for (node, entry) in file.entries.iter().enumerate() {
        if Some(entry.dialect) == builtin && entry.custom {
            let mut too_long = None;
            references(entry, num_attrs, &mut edges[node], &mut too_long);
            if let Some(TranscodeError::Malformed { offset, reason, .. }) = too_long {
                return Err(TranscodeError::BadEntry {
                    kind: entry.kind,
                    index: entry.index,
                    offset,
                    reason,
                });
            }
            edges[node].retain(|&to| to < n);
        } else if !entry.custom {
            let text = entry.data.strip_suffix(&[0]).unwrap_or(entry.data);
            own[node] = crate::mosaic::vocab::text_nesting(text, limit)
                .map_err(|_| too_deep(entry))?
                .max(1);
        }
    }
    // Iterative depth-first search: 0 = unseen, 1 = on the stack, 2 = done
    // (its depth known).
    let mut state = vec![0u8; n];
    let mut depth = vec![0usize; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(Node, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&to) = edges[node].get(*next) {
                *next += 1;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    1 => {
                        let entry = &file.entries[to];
                        return Err(TranscodeError::CyclicReference {
                            kind: entry.kind,
                            index: entry.index,
                            offset: entry.offset,
                        });
                    }
                    _ => {}
                }
            } else {
                let below = edges[node].iter().map(|&to| depth[to]).max().unwrap_or(0);
                depth[node] = own[node].max(below + 1);
                if depth[node] > limit {
                    return Err(too_deep(&file.entries[node]));
                }
                state[node] = 2;
                stack.pop();
            }
        }
    }
    Ok(())
}

/// Rejects text MLIR could quote in a diagnostic but that is not UTF-8
/// (strings, dialect names, textual attribute and type entries): a diagnostic
/// that is not UTF-8 cannot be reported through our context (it aborts), and
/// Mosaic kernels only hold UTF-8 text.
pub(crate) fn check_text_is_utf8(file: &Bytecode<'_>) -> Result<(), TranscodeError> {
    if let Some(index) = file
        .strings
        .iter()
        .position(|s| std::str::from_utf8(s).is_err())
    {
        return Err(TranscodeError::Malformed {
            section: Section::String,
            offset: file.string_offsets.get(index).copied().unwrap_or(0),
            reason: format!(
                "string {index} ({:?}) is not UTF-8",
                String::from_utf8_lossy(file.strings[index])
            ),
        });
    }
    if let Some(name) = file
        .dialects
        .iter()
        .find(|d| std::str::from_utf8(d).is_err())
    {
        return Err(TranscodeError::Malformed {
            section: Section::Dialect,
            offset: 0,
            reason: format!(
                "dialect name {:?} is not UTF-8",
                String::from_utf8_lossy(name)
            ),
        });
    }
    for entry in &file.entries {
        if !entry.custom && std::str::from_utf8(entry.data).is_err() {
            return Err(TranscodeError::BadEntry {
                kind: entry.kind,
                index: entry.index,
                offset: entry.offset,
                reason: "textual entry is not UTF-8".into(),
            });
        }
    }
    Ok(())
}

/// Builtin attribute codes whose reading or printing trusts their type.
const INTEGER_ATTR: u64 = 8;
const FLOAT_ATTR: u64 = 9;
const DENSE_ARRAY: u64 = 17;
const DENSE_INT_OR_FP_ELEMENTS: u64 = 18;

/// What a builtin scalar type is, as far as storage goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scalar {
    /// An integer type of this many bits.
    Int(u64),
    /// A float type of this many bits.
    Float(u64),
    /// `index`.
    Index,
    /// `complex<...>` of an integer or float type of this many storage bits.
    Complex(u64),
}

/// The scalar type of type entry `ty`: `Err` when it is not a builtin scalar
/// type, `Ok(None)` when it is textual but not a scalar this knows (rejected
/// by the callers: MLIR casts the parsed type unchecked).
fn scalar(
    file: &Bytecode<'_>,
    builtin: usize,
    num_attrs: usize,
    ty: u64,
    depth: u8,
) -> Result<Option<Scalar>, ()> {
    let entry = usize::try_from(ty)
        .ok()
        .and_then(|t| t.checked_add(num_attrs))
        .and_then(|i| file.entries.get(i))
        .ok_or(())?;
    if entry.dialect != builtin {
        return Err(());
    }
    if let Some(text) = entry.text() {
        let digits = |s: &str| s.parse::<u64>().ok().filter(|w| *w > 0);
        let int = text
            .strip_prefix("si")
            .or_else(|| text.strip_prefix("ui"))
            .or_else(|| text.strip_prefix('i'))
            .and_then(digits);
        return Ok(Some(match (int, text) {
            (Some(width), _) => Scalar::Int(width),
            (None, "index") => Scalar::Index,
            (None, "bf16" | "f16") => Scalar::Float(16),
            (None, "tf32") => Scalar::Float(19),
            (None, "f32") => Scalar::Float(32),
            (None, "f64") => Scalar::Float(64),
            (None, "f80") => Scalar::Float(80),
            (None, "f128") => Scalar::Float(128),
            (None, t) if t.starts_with("f8") => Scalar::Float(8),
            (None, t) if t.starts_with("f6") => Scalar::Float(6),
            (None, t) if t.starts_with("f4") => Scalar::Float(4),
            // Other text (e.g. `complex<f32>`): MLIR parses it itself, but
            // its width is unknown here.
            _ => return Ok(None),
        }));
    }
    if !entry.custom {
        return Err(());
    }
    let mut c = Cursor::new(entry.data, entry.offset, Section::AttrType);
    Ok(Some(match c.varint().map_err(|_| ())? {
        0 => Scalar::Int(c.varint().map_err(|_| ())? >> 2),
        1 => Scalar::Index,
        3 | 4 => Scalar::Float(16),
        5 => Scalar::Float(32),
        6 => Scalar::Float(64),
        7 => Scalar::Float(80),
        8 => Scalar::Float(128),
        9 if depth == 0 => {
            let inner = c.varint().map_err(|_| ())?;
            match scalar(file, builtin, num_attrs, inner, 1)? {
                Some(Scalar::Int(w) | Scalar::Float(w)) => Scalar::Complex(storage_bits(w)),
                Some(_) => return Err(()),
                None => return Ok(None),
            }
        }
        21 => Scalar::Float(19),
        22..=27 | 32 => Scalar::Float(8),
        28 => Scalar::Float(4),
        29 | 30 => Scalar::Float(6),
        _ => return Err(()),
    }))
}

/// Bits a dense elements attribute stores per element of `width` bits.
fn storage_bits(width: u64) -> u64 {
    if width == 1 { 1 } else { width.div_ceil(8) * 8 }
}

/// The static shape of a builtin ranked tensor or vector type entry and its
/// element type, `Ok(None)` for textual entries (MLIR parses those itself).
fn shaped(
    file: &Bytecode<'_>,
    builtin: usize,
    num_attrs: usize,
    ty: u64,
) -> Result<Option<(Vec<i64>, u64)>, ()> {
    let entry = usize::try_from(ty)
        .ok()
        .and_then(|t| t.checked_add(num_attrs))
        .and_then(|i| file.entries.get(i))
        .ok_or(())?;
    if entry.dialect != builtin {
        return Err(());
    }
    if !entry.custom {
        return Ok(None);
    }
    let mut c = Cursor::new(entry.data, entry.offset, Section::AttrType);
    let e = |_| ();
    let code = c.varint().map_err(e)?;
    match code {
        13 | 19 => {}
        14 => {
            c.varint().map_err(e)?;
        }
        20 => {
            let n = c.varint().map_err(e)?;
            c.bytes(n, "scalable flags").map_err(e)?;
        }
        _ => return Err(()),
    }
    let rank = c.varint().map_err(e)?;
    if rank > c.remaining() as u64 {
        return Err(());
    }
    let mut shape = Vec::with_capacity(rank as usize);
    for _ in 0..rank {
        shape.push(c.signed_varint().map_err(e)?);
    }
    Ok(Some((shape, c.varint().map_err(e)?)))
}

/// Rejects builtin attributes MLIR 22 builds unchecked from their type:
/// float attributes whose type is not a float type (a bad cast while
/// reading), dense arrays whose element type is not an integer or float type
/// or whose data is not `size` elements long, and dense elements whose data
/// size does not fit their static shape (reads past the data when printing).
/// Found by the serde mutation test (segmentation faults;
/// `mlir-fixtures/crashers/dense_array_bad_element_type.mlirbc`) and the
/// transcoder's corruption test.
pub(crate) fn check_typed_builtins(file: &Bytecode<'_>) -> Result<(), TranscodeError> {
    let Some(builtin) = file.builtin_dialect() else {
        return Ok(());
    };
    let num_attrs = file
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Attribute)
        .count();
    for entry in &file.entries {
        if entry.kind != EntryKind::Attribute || entry.dialect != builtin || !entry.custom {
            continue;
        }
        let mut c = Cursor::new(entry.data, entry.offset, Section::AttrType);
        let Ok(code) = c.varint() else { continue };
        if ![
            INTEGER_ATTR,
            FLOAT_ATTR,
            DENSE_ARRAY,
            DENSE_INT_OR_FP_ELEMENTS,
        ]
        .contains(&code)
        {
            continue;
        }
        let bad = |reason: String| TranscodeError::BadEntry {
            kind: entry.kind,
            index: entry.index,
            offset: entry.offset,
            reason,
        };
        let ty = c.varint()?;
        match code {
            INTEGER_ATTR | FLOAT_ATTR => {
                let width = match (code, scalar(file, builtin, num_attrs, ty, 0)) {
                    (FLOAT_ATTR, Ok(Some(Scalar::Float(w)))) => w,
                    (FLOAT_ATTR, _) => {
                        return Err(bad(format!(
                            "float attribute type (type {ty}) is not a float type"
                        )));
                    }
                    // MLIR checks integer attribute types itself.
                    (_, Ok(Some(Scalar::Int(w)))) => w,
                    _ => continue,
                };
                // Values wider than 64 bits are a word count and the words:
                // MLIR allocates the words before reading them.
                let at = c.offset();
                if width > 64 {
                    let words = c.varint()?;
                    if words > c.remaining() as u64 {
                        return Err(TranscodeError::BadEntry {
                            kind: entry.kind,
                            index: entry.index,
                            offset: at,
                            reason: format!(
                                "{width}-bit value of {words} words exceeds the {} bytes left in the entry",
                                c.remaining()
                            ),
                        });
                    }
                    for _ in 0..words {
                        c.varint()?;
                    }
                } else if width <= 8 {
                    c.byte()?;
                } else {
                    c.varint()?;
                }
            }
            DENSE_ARRAY => {
                let width = match scalar(file, builtin, num_attrs, ty, 0) {
                    Ok(Some(Scalar::Int(w) | Scalar::Float(w))) => Some(w.div_ceil(8)),
                    _ => {
                        return Err(bad(format!(
                            "dense array element type (type {ty}) is not an integer or float type"
                        )));
                    }
                };
                let size = c.varint()?;
                let blob = c.varint()?;
                if let Some(width) = width
                    && size.checked_mul(width) != Some(blob)
                {
                    return Err(bad(format!(
                        "dense array of {size} elements of {width} bytes has {blob} bytes of data"
                    )));
                }
            }
            _ => {
                let not_shaped = || {
                    bad(format!(
                        "dense elements type (type {ty}) is not a static tensor or vector type"
                    ))
                };
                let Some((shape, element)) =
                    shaped(file, builtin, num_attrs, ty).map_err(|()| not_shaped())?
                else {
                    continue;
                };
                let count = shape.iter().try_fold(1u64, |n, &d| {
                    u64::try_from(d).ok().and_then(|d| n.checked_mul(d))
                });
                let Some(count) = count else {
                    return Err(not_shaped());
                };
                let bits = match scalar(file, builtin, num_attrs, element, 0) {
                    Ok(Some(Scalar::Int(w) | Scalar::Float(w))) => storage_bits(w),
                    Ok(Some(Scalar::Index)) => 64,
                    Ok(Some(Scalar::Complex(w))) => 2 * w,
                    Ok(None) | Err(()) => {
                        return Err(bad(format!(
                            "dense elements element type (type {element}) is not an integer, index, float or complex type"
                        )));
                    }
                };
                let blob = c.varint()?;
                let ok = if bits == 1 {
                    blob == 1 || Some(blob) == count.checked_add(7).map(|n| n / 8)
                } else {
                    blob.checked_mul(8) == Some(bits)
                        || count.checked_mul(bits) == blob.checked_mul(8)
                };
                if !ok {
                    return Err(bad(format!(
                        "dense elements of {count} elements of {bits} bits have {blob} bytes of data"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Rejects a textual `tpu` entry holding a `#tpu.memory_space<...>` that
/// Mosaic does not know ([`crate::mosaic::MEMORY_SPACES`]): our pass-through
/// dialect would read it verbatim, jaxlib and the TPU compiler cannot.
pub(crate) fn check_memory_spaces(file: &Bytecode<'_>) -> Result<(), TranscodeError> {
    let Some(tpu) = file.dialects.iter().position(|d| *d == b"tpu") else {
        return Ok(());
    };
    for entry in &file.entries {
        if entry.dialect != tpu || entry.custom {
            continue;
        }
        if let Some(at) = crate::mosaic::vocab::find_unknown_memory_space(entry.data) {
            return Err(TranscodeError::Malformed {
                section: Section::AttrType,
                offset: entry.offset,
                reason: format!(
                    "{} entry {}: `#tpu.memory_space<{}>` is not a Mosaic memory space (one of {})",
                    entry.kind,
                    entry.index,
                    at.value,
                    crate::mosaic::MEMORY_SPACES.join(", ")
                ),
            });
        }
    }
    Ok(())
}
