//! The primitive encodings of MLIR bytecode: prefix varints, zigzag signed
//! varints, NUL-terminated strings, read through a bounds-checked cursor that
//! knows which section it is in so every error names the section and offset.

use super::error::{Section, TranscodeError};

/// Reads primitives from a slice of the input, reporting absolute offsets.
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Offset of `data[0]` in the whole input.
    base: usize,
    section: Section,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, which starts at `base` in the input.
    pub(crate) fn new(data: &'a [u8], base: usize, section: Section) -> Self {
        Self {
            data,
            pos: 0,
            base,
            section,
        }
    }

    /// Absolute offset of the next byte.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Position relative to the start of the cursor's slice.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Whether every byte was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// Bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Skips to absolute offset `offset` (at or after the current one, within
    /// the slice).
    pub(crate) fn seek(&mut self, offset: usize) {
        self.pos = (offset - self.base).min(self.data.len());
    }

    /// The bytes from relative position `start` to the current position.
    pub(crate) fn since(&self, start: usize) -> &'a [u8] {
        &self.data[start..self.pos]
    }

    /// An error at absolute offset `offset` in this cursor's section.
    pub(crate) fn error_at(&self, offset: usize, reason: impl Into<String>) -> TranscodeError {
        TranscodeError::Malformed {
            section: self.section,
            offset,
            reason: reason.into(),
        }
    }

    /// An error at the current position.
    pub(crate) fn error(&self, reason: impl Into<String>) -> TranscodeError {
        self.error_at(self.offset(), reason)
    }

    /// Reads one byte.
    pub(crate) fn byte(&mut self) -> Result<u8, TranscodeError> {
        let Some(&b) = self.data.get(self.pos) else {
            return Err(self.error("unexpected end of data, expected a byte"));
        };
        self.pos += 1;
        Ok(b)
    }

    /// Reads `n` bytes.
    pub(crate) fn bytes(&mut self, n: u64, what: &str) -> Result<&'a [u8], TranscodeError> {
        if n > self.remaining() as u64 {
            return Err(self.error(format!(
                "{what} of {n} bytes runs past the end ({} bytes left)",
                self.remaining()
            )));
        }
        let n = n as usize;
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Reads a prefix varint: the count of trailing zero bits of the first
    /// byte plus one is the total length (a zero first byte means 9 bytes).
    pub(crate) fn varint(&mut self) -> Result<u64, TranscodeError> {
        let start = self.offset();
        let Some(&first) = self.data.get(self.pos) else {
            return Err(self.error("unexpected end of data, expected a varint"));
        };
        let len = if first == 0 {
            9
        } else {
            first.trailing_zeros() as usize + 1
        };
        if self.remaining() < len {
            return Err(self.error_at(
                start,
                format!(
                    "truncated varint: needs {len} bytes, {} left",
                    self.remaining()
                ),
            ));
        }
        let bytes = &self.data[self.pos..self.pos + len];
        self.pos += len;
        if len == 9 {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(&bytes[1..]);
            return Ok(u64::from_le_bytes(raw));
        }
        let mut raw = [0u8; 8];
        raw[..len].copy_from_slice(bytes);
        Ok(u64::from_le_bytes(raw) >> len)
    }

    /// Reads a varint whose low bit is a flag: `(value, flag)`.
    pub(crate) fn varint_with_flag(&mut self) -> Result<(u64, bool), TranscodeError> {
        let v = self.varint()?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// Reads a zigzag-encoded signed varint.
    pub(crate) fn signed_varint(&mut self) -> Result<i64, TranscodeError> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// Reads a varint that must fit in `usize` and be at most `max`.
    pub(crate) fn count(&mut self, max: u64, what: &str) -> Result<usize, TranscodeError> {
        let start = self.offset();
        let v = self.varint()?;
        if v > max {
            return Err(self.error_at(start, format!("{what} {v} exceeds the limit of {max}")));
        }
        Ok(v as usize)
    }

    /// Reads a NUL-terminated string (without the NUL).
    pub(crate) fn c_str(&mut self, what: &str) -> Result<&'a [u8], TranscodeError> {
        let rest = &self.data[self.pos..];
        let Some(nul) = rest.iter().position(|&b| b == 0) else {
            return Err(self.error(format!("{what} is not NUL-terminated")));
        };
        self.pos += nul + 1;
        Ok(&rest[..nul])
    }
}

/// Appends the shortest prefix varint for `value`.
pub(crate) fn write_varint(out: &mut Vec<u8>, value: u64) {
    for n in 1..=8u32 {
        if n == 8 && value >> 56 != 0 {
            break;
        }
        if n < 8 && value >> (7 * n) != 0 {
            continue;
        }
        let encoded = (value << n) | (1 << (n - 1));
        out.extend_from_slice(&encoded.to_le_bytes()[..n as usize]);
        return;
    }
    out.push(0);
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends a zigzag-encoded signed varint.
pub(crate) fn write_signed_varint(out: &mut Vec<u8>, value: i64) {
    write_varint(out, ((value << 1) ^ (value >> 63)) as u64);
}

/// Appends a varint with a flag in its low bit.
pub(crate) fn write_varint_with_flag(out: &mut Vec<u8>, value: u64, flag: bool) {
    write_varint(out, (value << 1) | u64::from(flag));
}
