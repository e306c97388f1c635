//! The bodies of `#tpu.dot_dimension_numbers<...>`,
//! `#tpu.conv_dimension_numbers<...>` and the `tpu` enum attributes, read as
//! jaxlib 0.12's attribute parsers read them: MLIR's lexer (lazy, one token of
//! lookahead, so a bad character is reported when the token before it is
//! consumed) and the grammar of each attribute. Errors are jaxlib's first
//! message (`expected ','`, `expected integer value`, `unexpected character`,
//! ...); the location is the caller's.

/// A token of MLIR's lexer, as far as these grammars tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    /// A decimal or `0x` integer literal (its spelling).
    Int(&'a str),
    /// A bare identifier or keyword (`sum`, `true`, `i32`).
    Word(&'a str),
    /// A string literal (its unescaped value).
    Str,
    /// One of `- [ ] < > ,`.
    Punct(u8),
    /// Any other valid token (`(`, `->`, `#a`, `1.5`, ...).
    Other,
    Eof,
}

/// MLIR's lexer over one attribute body.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// The unescaped value of the last string literal.
    string: String,
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

impl<'a> Lexer<'a> {
    fn at(&self, i: usize) -> u8 {
        self.text.as_bytes().get(i).copied().unwrap_or(0)
    }

    fn lex(&mut self) -> Result<Tok<'a>, String> {
        let b = self.text.as_bytes();
        loop {
            let start = self.pos;
            let Some(&c) = b.get(start) else {
                return Ok(Tok::Eof);
            };
            self.pos += 1;
            return Ok(match c {
                b' ' | b'\t' | b'\n' | b'\r' | 0 => continue,
                b'/' if self.at(self.pos) == b'/' => {
                    while !matches!(self.at(self.pos), b'\n' | b'\r' | 0) {
                        self.pos += 1;
                    }
                    continue;
                }
                b'-' if self.at(self.pos) == b'>' => {
                    self.pos += 1;
                    Tok::Other
                }
                b'-' | b'[' | b']' | b'<' | b'>' | b',' => Tok::Punct(c),
                b':' | b'(' | b')' | b'{' | b'}' | b'=' | b'?' | b'*' | b'+' | b'|' | b'/' => {
                    Tok::Other
                }
                b'.' => {
                    if self.at(self.pos) == b'.' && self.at(self.pos + 1) == b'.' {
                        self.pos += 2;
                        Tok::Other
                    } else {
                        return Err("expected three consecutive dots for an ellipsis".into());
                    }
                }
                b'@' => {
                    let n = self.at(self.pos);
                    if n == b'"' {
                        self.pos += 1;
                        self.string()?;
                    } else if n.is_ascii_alphabetic() || n == b'_' {
                        while is_ident(self.at(self.pos)) {
                            self.pos += 1;
                        }
                    } else {
                        return Err("@ identifier expected to start with letter or '_'".into());
                    }
                    Tok::Other
                }
                b'#' | b'!' | b'^' | b'%' => {
                    let n = self.at(self.pos);
                    let punct = |c: u8| matches!(c, b'$' | b'.' | b'_' | b'-');
                    if n.is_ascii_digit() {
                        while self.at(self.pos).is_ascii_digit() {
                            self.pos += 1;
                        }
                    } else if n.is_ascii_alphabetic() || punct(n) {
                        while {
                            let c = self.at(self.pos);
                            c.is_ascii_alphanumeric() || punct(c)
                        } {
                            self.pos += 1;
                        }
                    } else {
                        return Err(match c {
                            b'#' => "invalid attribute name",
                            b'!' => "invalid type identifier",
                            b'^' => "invalid block name",
                            _ => "invalid SSA name",
                        }
                        .into());
                    }
                    Tok::Other
                }
                b'"' => {
                    self.string()?;
                    Tok::Str
                }
                b'0'..=b'9' => self.number(start),
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    while is_ident(self.at(self.pos)) {
                        self.pos += 1;
                    }
                    Tok::Word(&self.text[start..self.pos])
                }
                _ => return Err("unexpected character".into()),
            });
        }
    }

    /// A string literal after its `"`, unescaped into `self.string`.
    fn string(&mut self) -> Result<(), String> {
        self.string.clear();
        let b = self.text.as_bytes();
        let mut bytes = Vec::new();
        loop {
            match b.get(self.pos) {
                None | Some(b'\n' | b'\r') => {
                    return Err("expected '\"' in string literal".into());
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.string = String::from_utf8_lossy(&bytes).into_owned();
                    return Ok(());
                }
                Some(b'\\') => {
                    let e = self.at(self.pos + 1);
                    let h = self.at(self.pos + 2);
                    match e {
                        b'"' | b'\\' => bytes.push(e),
                        b'n' => bytes.push(b'\n'),
                        b't' => bytes.push(b'\t'),
                        _ if e.is_ascii_hexdigit() && h.is_ascii_hexdigit() => {
                            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                            bytes.push(hex(e) * 16 + hex(h));
                            self.pos += 1;
                        }
                        _ => return Err("unknown escape in string literal".into()),
                    }
                    self.pos += 2;
                }
                Some(&c) => {
                    bytes.push(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// A number from its first digit: `0x` hex, decimal, or a float.
    fn number(&mut self, start: usize) -> Tok<'a> {
        let b = self.text.as_bytes();
        if b[start] == b'0' && self.at(self.pos) == b'x' {
            if !self.at(self.pos + 1).is_ascii_hexdigit() {
                return Tok::Int(&self.text[start..self.pos]);
            }
            self.pos += 2;
            while self.at(self.pos).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Tok::Int(&self.text[start..self.pos]);
        }
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if self.at(self.pos) != b'.' {
            return Tok::Int(&self.text[start..self.pos]);
        }
        self.pos += 1;
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.at(self.pos), b'e' | b'E') {
            let (n1, n2) = (self.at(self.pos + 1), self.at(self.pos + 2));
            if n1.is_ascii_digit() || (matches!(n1, b'-' | b'+') && n2.is_ascii_digit()) {
                self.pos += 2;
                while self.at(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        Tok::Other
    }
}

/// An LL(1) parser over the lexer: consuming a token lexes the next one, and a
/// lexer error is the first message.
struct Parser<'a> {
    lexer: Lexer<'a>,
    tok: Tok<'a>,
}

type Parsed<T> = Result<T, String>;

impl<'a> Parser<'a> {
    /// A parser whose first token is the first of `text`.
    fn new(text: &'a str) -> Parsed<Self> {
        let mut lexer = Lexer {
            text,
            pos: 0,
            string: String::new(),
        };
        let tok = lexer.lex()?;
        Ok(Self { lexer, tok })
    }

    fn consume(&mut self) -> Parsed<()> {
        self.tok = self.lexer.lex()?;
        Ok(())
    }

    fn punct(&mut self, c: u8) -> Parsed<()> {
        if self.tok != Tok::Punct(c) {
            return Err(format!("expected '{}'", c as char));
        }
        self.consume()
    }

    fn optional_punct(&mut self, c: u8) -> Parsed<bool> {
        if self.tok != Tok::Punct(c) {
            return Ok(false);
        }
        self.consume()?;
        Ok(true)
    }

    /// `parseInteger` into an `int64_t`: `true` is -1, `false` 0, `- 1` -1.
    fn integer(&mut self) -> Parsed<i64> {
        match self.tok {
            Tok::Word("true") => return self.consume().map(|()| -1),
            Tok::Word("false") => return self.consume().map(|()| 0),
            Tok::Int(_) | Tok::Punct(b'-') => {}
            _ => return Err("expected integer value".into()),
        }
        let negative = self.optional_punct(b'-')?;
        let Tok::Int(spelling) = self.tok else {
            return Err("expected integer value".into());
        };
        self.consume()?;
        let magnitude = match spelling.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => spelling.parse::<u64>().ok(),
        };
        let value = magnitude.and_then(|m| {
            if negative {
                0i64.checked_sub_unsigned(m)
            } else {
                i64::try_from(m).ok()
            }
        });
        value.ok_or_else(|| "integer value too large".into())
    }

    /// `[a, b, ...]`; with `may_be_empty`, `[]` too.
    fn list(&mut self, may_be_empty: bool) -> Parsed<Vec<i64>> {
        self.punct(b'[')?;
        let mut values = Vec::new();
        if may_be_empty && self.optional_punct(b']')? {
            return Ok(values);
        }
        values.push(self.integer()?);
        while self.optional_punct(b',')? {
            values.push(self.integer()?);
        }
        self.punct(b']')?;
        Ok(values)
    }
}

/// The seven lists of `#tpu.dot_dimension_numbers` from the text after the
/// mnemonic (`<[1], [0], [0], [1], [0, 0, 1, 1], [], []>`): lhs and rhs
/// contracting (not empty), lhs and rhs non-contracting, output dim order (not
/// empty), lhs and rhs batch.
pub(crate) fn dot_dimension_numbers(body: &str) -> Parsed<[Vec<i64>; 7]> {
    let mut p = Parser::new(body)?;
    p.punct(b'<')?;
    let mut lists: [Vec<i64>; 7] = Default::default();
    for (i, list) in lists.iter_mut().enumerate() {
        if i > 0 {
            p.punct(b',')?;
        }
        *list = p.list(!matches!(i, 0 | 1 | 4))?;
    }
    p.punct(b'>')?;
    Ok(lists)
}

/// `#tpu.conv_dimension_numbers` from the text after the mnemonic
/// (`<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>`): for each of lhs, rhs and
/// output, two dimensions then the spatial ones (possibly none).
pub(crate) fn conv_dimension_numbers(body: &str) -> Parsed<[(i64, i64, Vec<i64>); 3]> {
    let mut p = Parser::new(body)?;
    p.punct(b'<')?;
    let mut parts: [(i64, i64, Vec<i64>); 3] = Default::default();
    for (i, part) in parts.iter_mut().enumerate() {
        if i > 0 {
            p.punct(b',')?;
        }
        part.0 = p.integer()?;
        p.punct(b',')?;
        part.1 = p.integer()?;
        p.punct(b',')?;
        part.2 = p.list(true)?;
    }
    p.punct(b'>')?;
    Ok(parts)
}

/// The value of a `tpu` enum attribute from the text after the mnemonic
/// (`<sum>`, `< "sum" >`), which must be one of `values` (the message names
/// `::mlir::tpu::{enum_name}`).
pub(crate) fn enum_value(body: &str, enum_name: &str, values: &[String]) -> Parsed<String> {
    let mut p = Parser::new(body)?;
    p.punct(b'<')?;
    let value = match p.tok {
        Tok::Word(w) => w.to_string(),
        Tok::Str => p.lexer.string.clone(),
        _ => return Err("expected valid keyword or string".into()),
    };
    p.consume()?;
    if !values.contains(&value) {
        return Err(format!(
            "expected ::mlir::tpu::{enum_name} to be one of: {}",
            values.join(", ")
        ));
    }
    p.punct(b'>')?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(lists: &str) -> Result<[Vec<i64>; 7], String> {
        dot_dimension_numbers(&format!("<{lists}>"))
    }

    #[test]
    fn dot_grammar_as_jaxlib() {
        let ok = dot("[1], [0], [0], [1], [0, 0, 1, 1], [], []").unwrap();
        assert_eq!(ok[4], vec![0, 0, 1, 1]);
        let cases = [
            ("[1], [0], [0], [1], [0, 0, 1, 1], []", "expected ','"),
            (
                "[1], [0], [0], [1], [0, 0, 1, 1], [], [], []",
                "expected '>'",
            ),
            ("[1] [0], [0], [1], [0, 0, 1, 1], [], []", "expected ','"),
            (
                "[], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected integer value",
            ),
            ("[1], [0], [0], [1], [], [], []", "expected integer value"),
            (
                "[1,], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected integer value",
            ),
            (
                "[+1], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected integer value",
            ),
            (
                "[1.5], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected integer value",
            ),
            ("[1 2], [0], [0], [1], [0, 0, 1, 1], [], []", "expected ']'"),
            ("[1e3], [0], [0], [1], [0, 0, 1, 1], [], []", "expected ']'"),
            (
                "[0X10], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected ']'",
            ),
            (
                "[9223372036854775808], [0], [0], [1], [0, 0, 1, 1], [], []",
                "integer value too large",
            ),
            (
                "[99999999999999999999;], [0], [0], [1], [0, 0, 1, 1], [], []",
                "unexpected character",
            ),
            (
                "[1]; [0], [0], [1], [0, 0, 1, 1], [], []",
                "unexpected character",
            ),
            (
                "[.5], [0], [0], [1], [0, 0, 1, 1], [], []",
                "expected three consecutive dots for an ellipsis",
            ),
            (
                "[1], [0], [0], [1], [0, 0, 1, 1], [], [1 #]",
                "invalid attribute name",
            ),
            (
                "[1], [0], [0], [1], [0, 0, 1, 1], [], [@1]",
                "@ identifier expected to start with letter or '_'",
            ),
            (
                "[\"a\\q\"], [0], [0], [1], [0, 0, 1, 1], [], []",
                "unknown escape in string literal",
            ),
            ("", "expected '['"),
        ];
        for (body, message) in cases {
            assert_eq!(dot(body).unwrap_err(), message, "{body}");
        }
        let odd =
            dot("[-1], [0x10], [true], [false], [- 0], [], [ 1 // c\n, -9223372036854775808]")
                .unwrap();
        assert_eq!(odd[0], vec![-1]);
        assert_eq!(odd[1], vec![16]);
        assert_eq!(odd[2], vec![-1]);
        assert_eq!(odd[6], vec![1, i64::MIN]);
        assert_eq!(dot_dimension_numbers("").unwrap_err(), "expected '<'");
    }

    #[test]
    fn conv_and_enum_grammar_as_jaxlib() {
        let c = conv_dimension_numbers("<0, 3, [1, 2], 2, 3, [], 0, 3, [1, 2]>").unwrap();
        assert_eq!(c[1], (2, 3, vec![]));
        for (body, message) in [
            (
                "<[0], 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>",
                "expected integer value",
            ),
            ("<0, 3, 1, 2, 3, [0, 1], 0, 3, [1, 2]>", "expected '['"),
            (
                "<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2], 1>",
                "expected '>'",
            ),
            ("<>", "expected integer value"),
        ] {
            assert_eq!(conv_dimension_numbers(body).unwrap_err(), message, "{body}");
        }
        let values = ["sum".to_string(), "max".to_string()];
        assert_eq!(
            enum_value("< \"sum\" >", "ReductionKind", &values).unwrap(),
            "sum"
        );
        assert_eq!(
            enum_value("<>", "ReductionKind", &values).unwrap_err(),
            "expected valid keyword or string"
        );
        assert_eq!(
            enum_value("<sum,>", "ReductionKind", &values).unwrap_err(),
            "expected '>'"
        );
        assert_eq!(
            enum_value("<foo,>", "ReductionKind", &values).unwrap_err(),
            "expected ::mlir::tpu::ReductionKind to be one of: sum, max"
        );
        assert_eq!(
            enum_value("", "ReductionKind", &values).unwrap_err(),
            "expected '<'"
        );
    }

    proptest::proptest! {
        /// Any text of the grammars' characters (and some others) gets a
        /// verdict from each parser, never a panic; what parses is printed
        /// back by [`crate::mosaic::attrs::DotDimensionNumbers`]' grammar and
        /// parses again to the same lists.
        #[test]
        fn parsers_never_panic(body in "[<>\\[\\],0-9a-fx+ \n/\"#!@.;\\-]{0,40}") {
            let values = ["sum".to_string(), "max".to_string()];
            let _ = conv_dimension_numbers(&body);
            let _ = enum_value(&body, "ReductionKind", &values);
            if let Ok(lists) = dot_dimension_numbers(&body) {
                let printed = format!(
                    "<{}>",
                    lists.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(", ")
                );
                proptest::prop_assert_eq!(dot_dimension_numbers(&printed).ok(), Some(lists));
            }
        }

        /// Well-formed bodies (any spacing, hex, `true`/`false`) parse to
        /// their lists; one byte changed anywhere never panics.
        #[test]
        fn dot_bodies_parse_to_their_lists(
            lists in proptest::collection::vec(proptest::collection::vec(-3i64..300, 1..4), 7),
            hex in proptest::bool::ANY,
            space in "[ \n]{0,2}",
            at in 0usize..200,
            byte in proptest::num::u8::ANY,
        ) {
            let item = |d: &i64| if hex && *d >= 0 { format!("{space}0x{d:x}") } else { format!("{space}{d}") };
            let text = format!(
                "<{}>",
                lists
                    .iter()
                    .map(|l| format!("[{}]", l.iter().map(item).collect::<Vec<_>>().join(",")))
                    .collect::<Vec<_>>()
                    .join(&format!(",{space}"))
            );
            let want: [Vec<i64>; 7] = lists.clone().try_into().unwrap();
            proptest::prop_assert_eq!(dot_dimension_numbers(&text), Ok(want));
            let mut bytes = text.into_bytes();
            let i = at % bytes.len();
            bytes[i] = byte;
            let _ = dot_dimension_numbers(&String::from_utf8_lossy(&bytes));
        }
    }
}
