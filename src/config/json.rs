//! A small JSON reader and the Python-compatible writing helpers the config
//! and the parameters need.
//!
//! `serde_json` would silently keep the last of two duplicate keys and lose
//! the integer/float distinction Python's `json` keeps, so the reader is our
//! own: it keeps object keys in order, keeps number literals verbatim, rejects
//! duplicate keys and reports every error with a JSON path (`$.a.b[2]`).
//! The writers reproduce Python's `json.dumps(..., sort_keys=True, indent=0,
//! separators=(",", ":"))` (with the default `ensure_ascii=True`) and Python's
//! `repr(float)`.

use std::fmt::Write as _;

/// A parsed JSON value, with object members in document order and numbers as
/// written.
#[derive(Clone, Debug, PartialEq)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number literal, kept verbatim.
    Number(JsonNumber),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object, members in document order (keys are unique).
    Object(Vec<(String, JsonValue)>),
}

/// A JSON number literal as written (`7`, `-5`, `0.5`, `1e-07`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonNumber(String);

impl JsonNumber {
    /// A number from an integer.
    pub fn from_i64(value: i64) -> Self {
        JsonNumber(value.to_string())
    }

    /// A number from a finite double (Python's repr); `None` for inf/nan.
    pub fn from_f64(value: f64) -> Option<Self> {
        value
            .is_finite()
            .then(|| JsonNumber(python_float_repr(value)))
    }

    /// The literal as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether Python's `json` reads this literal as an `int` (no fraction,
    /// no exponent).
    pub fn is_integer(&self) -> bool {
        !self.0.contains(['.', 'e', 'E'])
    }

    /// The value as an `i64`, when it is an integer literal in range.
    pub fn as_i64(&self) -> Option<i64> {
        if self.is_integer() {
            self.0.parse().ok()
        } else {
            None
        }
    }

    /// The value as a double (`inf` when out of range, as Python does).
    pub fn as_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }
}

impl JsonValue {
    /// Python's type name of the value `json.loads` makes of it (`int`,
    /// `float`, `str`, `bool`, `NoneType`, `list`, `dict`).
    pub fn python_type(&self) -> &'static str {
        match self {
            JsonValue::Null => "NoneType",
            JsonValue::Bool(_) => "bool",
            JsonValue::Number(n) if n.is_integer() => "int",
            JsonValue::Number(_) => "float",
            JsonValue::String(_) => "str",
            JsonValue::Array(_) => "list",
            JsonValue::Object(_) => "dict",
        }
    }

    /// Python's `str()` of the value `json.loads` makes of it, for scalars
    /// (`None`, `True`, `1.5`, `yes`); containers print as compact JSON.
    pub fn python_str(&self) -> String {
        match self {
            JsonValue::Null => "None".to_string(),
            JsonValue::Bool(true) => "True".to_string(),
            JsonValue::Bool(false) => "False".to_string(),
            JsonValue::Number(n) if n.is_integer() => n.as_str().to_string(),
            JsonValue::Number(n) => {
                let v = n.as_f64();
                if v.is_nan() {
                    "nan".into()
                } else if v.is_infinite() {
                    if v > 0.0 { "inf".into() } else { "-inf".into() }
                } else {
                    python_float_repr(v)
                }
            }
            JsonValue::String(s) => s.clone(),
            other => {
                let mut out = String::new();
                write_compact_json(&mut out, other);
                out
            }
        }
    }

    /// A short description of the kind of value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            JsonValue::Null => "null",
            JsonValue::Bool(_) => "a boolean",
            JsonValue::Number(n) if n.is_integer() => "an integer",
            JsonValue::Number(_) => "a float",
            JsonValue::String(_) => "a string",
            JsonValue::Array(_) => "an array",
            JsonValue::Object(_) => "an object",
        }
    }
}

/// One step of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// A JSON path such as `$.custom_call_config.flag_configs[1]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonPath(pub Vec<PathSegment>);

impl JsonPath {
    /// The root, `$`.
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }

    /// This path extended by an object key.
    pub fn key(&self, key: &str) -> Self {
        let mut segments = self.0.clone();
        segments.push(PathSegment::Key(key.to_string()));
        JsonPath(segments)
    }

    /// This path extended by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(PathSegment::Index(index));
        JsonPath(segments)
    }
}

impl std::fmt::Display for JsonPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("$")?;
        for segment in &self.0 {
            match segment {
                PathSegment::Key(k)
                    if !k.is_empty()
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    write!(f, ".{k}")?
                }
                PathSegment::Key(k) => {
                    f.write_str("[")?;
                    let mut quoted = String::new();
                    write_python_json_string(&mut quoted, k);
                    f.write_str(&quoted)?;
                    f.write_str("]")?
                }
                PathSegment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// Why a document is not acceptable JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonSyntaxError {
    /// Not JSON: byte offset and what was wrong.
    Malformed {
        /// Where in the document (the enclosing value).
        path: JsonPath,
        /// Byte offset of the problem.
        offset: usize,
        /// What was expected or found.
        message: String,
    },
    /// An object has the same key twice.
    DuplicateKey {
        /// The object holding the key.
        path: JsonPath,
        /// The repeated key.
        key: String,
    },
}

const MAX_DEPTH: usize = 128;

/// Parses a whole JSON document (surrounding whitespace allowed).
pub fn parse_json(bytes: &[u8]) -> Result<JsonValue, JsonSyntaxError> {
    let mut parser = Parser {
        bytes,
        pos: 0,
        path: Vec::new(),
    };
    parser.skip_ws();
    let value = parser.value()?;
    parser.skip_ws();
    if parser.pos != bytes.len() {
        return Err(parser.error("unexpected data after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: Vec<PathSegment>,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> JsonSyntaxError {
        let found = match self.bytes.get(self.pos) {
            None => "end of input".to_string(),
            Some(b) if b.is_ascii_graphic() => format!("`{}`", *b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        };
        JsonSyntaxError::Malformed {
            path: JsonPath(self.path.clone()),
            offset: self.pos,
            message: format!("{message} at byte {} (found {found})", self.pos),
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &[u8]) -> bool {
        if self.bytes[self.pos..].starts_with(literal) {
            self.pos += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Result<JsonValue, JsonSyntaxError> {
        if self.path.len() > MAX_DEPTH {
            return Err(self.error("JSON nested too deeply"));
        }
        match self.bytes.get(self.pos) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(JsonValue::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') if self.eat(b"true") => Ok(JsonValue::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(JsonValue::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(JsonValue::Null),
            _ => Err(self.error("expected a JSON value")),
        }
    }

    fn object(&mut self) -> Result<JsonValue, JsonSyntaxError> {
        self.pos += 1;
        let mut members: Vec<(String, JsonValue)> = Vec::new();
        self.skip_ws();
        if self.eat(b"}") {
            return Ok(JsonValue::Object(members));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.error("expected a string key"));
            }
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(JsonSyntaxError::DuplicateKey {
                    path: JsonPath(self.path.clone()),
                    key,
                });
            }
            self.skip_ws();
            if !self.eat(b":") {
                return Err(self.error("expected `:`"));
            }
            self.skip_ws();
            self.path.push(PathSegment::Key(key.clone()));
            let value = self.value()?;
            self.path.pop();
            members.push((key, value));
            self.skip_ws();
            if self.eat(b",") {
                continue;
            }
            if self.eat(b"}") {
                return Ok(JsonValue::Object(members));
            }
            return Err(self.error("expected `,` or `}`"));
        }
    }

    fn array(&mut self) -> Result<JsonValue, JsonSyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.eat(b"]") {
            return Ok(JsonValue::Array(items));
        }
        loop {
            self.skip_ws();
            self.path.push(PathSegment::Index(items.len()));
            let value = self.value()?;
            self.path.pop();
            items.push(value);
            self.skip_ws();
            if self.eat(b",") {
                continue;
            }
            if self.eat(b"]") {
                return Ok(JsonValue::Array(items));
            }
            return Err(self.error("expected `,` or `]`"));
        }
    }

    fn number(&mut self) -> Result<JsonValue, JsonSyntaxError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while let Some(b'0'..=b'9') = p.bytes.get(p.pos) {
                p.pos += 1;
            }
            p.pos - s
        };
        self.eat(b"-");
        let int_start = self.pos;
        let n = digits(self);
        if n == 0 || (n > 1 && self.bytes[int_start] == b'0') {
            self.pos = int_start;
            return Err(self.error("invalid number"));
        }
        if self.eat(b".") && digits(self) == 0 {
            return Err(self.error("expected digits after `.`"));
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected exponent digits"));
            }
        }
        // The slice is ASCII digits and signs only.
        let text = String::from_utf8_lossy(&self.bytes[start..self.pos]).into_owned();
        Ok(JsonValue::Number(JsonNumber(text)))
    }

    fn hex4(&mut self) -> Result<u32, JsonSyntaxError> {
        let Some(chunk) = self.bytes.get(self.pos..self.pos + 4) else {
            return Err(self.error("truncated \\u escape"));
        };
        let text = std::str::from_utf8(chunk).ok();
        match text.and_then(|t| u32::from_str_radix(t, 16).ok()) {
            Some(v) if chunk.iter().all(u8::is_ascii_hexdigit) => {
                self.pos += 4;
                Ok(v)
            }
            _ => Err(self.error("invalid \\u escape")),
        }
    }

    fn string(&mut self) -> Result<String, JsonSyntaxError> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let start = self.pos;
            self.pos += plain_run(&self.bytes[start..]);
            out.extend_from_slice(&self.bytes[start..self.pos]);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return String::from_utf8(out).map_err(|e| {
                        let bad = start + e.utf8_error().valid_up_to();
                        JsonSyntaxError::Malformed {
                            path: JsonPath(self.path.clone()),
                            offset: bad,
                            message: "string is not valid UTF-8".to_string(),
                        }
                    });
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let Some(&escape) = self.bytes.get(self.pos) else {
                        return Err(self.error("truncated escape"));
                    };
                    self.pos += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !self.eat(b"\\u") {
                                    return Err(self.error("unpaired surrogate in \\u escape"));
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("unpaired surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            match char::from_u32(code) {
                                Some(c) => c,
                                None => return Err(self.error("unpaired surrogate in \\u escape")),
                            }
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("invalid escape"));
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

/// The length of the leading run of bytes that need no attention inside a
/// string (not `"`, `\\` or a control character), eight bytes at a time.
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `x` is zero iff its high bit is set in `zero(x)` (no false
    // positives below the first zero byte, which is all we look at).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Bytes below 0x20 (ASCII only: `!x` drops bytes with the high bit).
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        if zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\'))) | control != 0 {
            break;
        }
        n += 8;
    }
    n + bytes[n..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(bytes.len() - n)
}

/// Python's `repr(float)` of a finite double: shortest round-trip digits,
/// scientific notation when the exponent is below -4 or at least 16
/// (`0.5`, `1.0`, `1e-07`, `1e+16`, `123456789.123`).
pub fn python_float_repr(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    // `{:e}` gives the shortest round-trip digits, e.g. `1.2345e8`, `-5e-7`.
    let sci = format!("{value:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let mut out = String::from(sign);
    if (-4..16).contains(&exponent) {
        let point = exponent + 1; // digits before the decimal point
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-point) as usize));
            out.push_str(&digits);
        } else if point as usize >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exponent < 0 { '-' } else { '+' },
            exponent.abs()
        );
    }
    out
}

/// Appends `s` as a JSON string the way Python's `json.dumps` writes it with
/// `ensure_ascii=True`: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and
/// `\uXXXX` (lower-case hex, surrogate pairs) for everything outside
/// printable ASCII.
pub fn write_python_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Appends `value` as Python's `json.dumps(value, sort_keys=True, indent=0,
/// separators=(",", ":"))` does (JAX's `_compact_json_object`): a newline
/// after every `{`/`[` and `,` and before every `}`/`]` of a non-empty
/// container, keys sorted. Numbers are written as their literal; a float
/// literal is re-rendered with Python's repr.
pub fn write_compact_json(out: &mut String, value: &JsonValue) {
    match value {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsonValue::Number(n) if n.is_integer() => {
            // Normalize `-0` and the like as Python's int() would.
            match n.as_str().parse::<i128>() {
                Ok(v) => {
                    let _ = write!(out, "{v}");
                }
                Err(_) => out.push_str(n.as_str()),
            }
        }
        JsonValue::Number(n) => {
            let v = n.as_f64();
            if v.is_nan() {
                out.push_str("NaN")
            } else if v.is_infinite() {
                out.push_str(if v > 0.0 { "Infinity" } else { "-Infinity" })
            } else {
                out.push_str(&python_float_repr(v))
            }
        }
        JsonValue::String(s) => write_python_json_string(out, s),
        JsonValue::Array(items) if items.is_empty() => out.push_str("[]"),
        JsonValue::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                write_compact_json(out, item);
            }
            out.push_str("\n]");
        }
        JsonValue::Object(members) if members.is_empty() => out.push_str("{}"),
        JsonValue::Object(members) => {
            let mut sorted: Vec<&(String, JsonValue)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            out.push_str("{\n");
            for (i, (key, item)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                write_python_json_string(out, key);
                out.push(':');
                write_compact_json(out, item);
            }
            out.push_str("\n}");
        }
    }
}

/// Appends `value` as Python's `json.dumps(value)` does with its default
/// separators (`", "`, `": "`), keys in the order given: how a client's
/// `implicit_sharding` object is written back.
pub fn write_python_json(out: &mut String, value: &JsonValue) {
    match value {
        JsonValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_json(out, item);
            }
            out.push(']');
        }
        JsonValue::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_python_json_string(out, key);
                out.push_str(": ");
                write_python_json(out, item);
            }
            out.push('}');
        }
        JsonValue::Number(n) => out.push_str(n.as_str()),
        other => write_compact_json(out, other),
    }
}
