//! A small MLIR token scanner: just enough to find op boundaries, read SSA
//! values, and step over attributes and types as balanced token runs without
//! understanding them (they are copied verbatim).

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Bare identifier or keyword (`tpu.scan`, `masked`, `i32`, `x8xf32`).
    Ident,
    /// SSA value (`%0`, `%arg1`, `%0#2`).
    Value,
    /// Attribute alias or dialect attribute start (`#loc3`, `#tpu.reduction_kind`).
    Hash,
    /// Type alias or dialect type start (`!tpu.dma_semaphore`).
    Bang,
    /// Symbol reference (`@kernel`).
    At,
    /// Block label (`^bb0`).
    Caret,
    /// String literal, quotes included.
    Str,
    /// Number (`0`, `1.5e3`, `0x7F`); a leading `-` is a separate token.
    Num,
    /// `->`.
    Arrow,
    /// Any other single character (`(`, `<`, `,`, `=`, `:`, `-`, `?`...).
    Punct,
    /// End of input.
    Eof,
}

/// One token: its kind and byte range in the scanned text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// A cursor over MLIR text.
#[derive(Clone)]
pub(crate) struct Lexer<'a> {
    pub src: &'a str,
    pub pos: usize,
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, pos: usize) -> Self {
        Self { src, pos }
    }

    /// The text of a token.
    pub fn text(&self, tok: Tok) -> &'a str {
        &self.src[tok.start..tok.end]
    }

    fn skip_trivia(&mut self) {
        let bytes = self.src.as_bytes();
        loop {
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if bytes[self.pos..].starts_with(b"//") {
                while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                return;
            }
        }
    }

    /// Whether a newline lies between the cursor and the next token.
    pub fn newline_before_next(&self) -> bool {
        let mut probe = self.clone();
        let start = probe.pos;
        probe.skip_trivia();
        self.src[start..probe.pos].contains('\n')
    }

    /// The next token, without moving.
    pub fn peek(&self) -> Tok {
        self.clone().next_tok()
    }

    /// The next token.
    pub fn next_tok(&mut self) -> Tok {
        self.skip_trivia();
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let Some(&c) = bytes.get(start) else {
            return Tok {
                kind: Kind::Eof,
                start,
                end: start,
            };
        };
        let mut end = start + 1;
        let id_run = |mut i: usize| {
            while i < bytes.len() && is_id_char(bytes[i]) {
                i += 1;
            }
            i
        };
        let kind = match c {
            b'"' => {
                while end < bytes.len() && bytes[end] != b'"' && bytes[end] != b'\n' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                end = (end + 1).min(bytes.len());
                // An escape may have stepped into a multi-byte character.
                while !self.src.is_char_boundary(end) {
                    end += 1;
                }
                Kind::Str
            }
            b'%' => {
                // SSA names may hold `-` (`%c-1_i32`).
                while end < bytes.len() && (is_id_char(bytes[end]) || bytes[end] == b'-') {
                    end += 1;
                }
                if bytes.get(end) == Some(&b'#') {
                    end += 1;
                    while end < bytes.len() && bytes[end].is_ascii_digit() {
                        end += 1;
                    }
                }
                Kind::Value
            }
            b'#' | b'!' | b'@' | b'^' => {
                if bytes.get(end) == Some(&b'"') {
                    let mut inner = Lexer::new(self.src, end);
                    end = inner.next_tok().end;
                } else {
                    end = id_run(end);
                }
                match c {
                    b'#' => Kind::Hash,
                    b'!' => Kind::Bang,
                    b'@' => Kind::At,
                    _ => Kind::Caret,
                }
            }
            b'-' if bytes.get(end) == Some(&b'>') => {
                end += 1;
                Kind::Arrow
            }
            c if c.is_ascii_digit() => {
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'.')
                {
                    // `1e-5`: a sign right after an exponent belongs to the number.
                    end += 1;
                    if matches!(bytes[end - 1], b'e' | b'E')
                        && matches!(bytes.get(end), Some(b'-' | b'+'))
                    {
                        end += 1;
                    }
                }
                Kind::Num
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                end = id_run(end);
                Kind::Ident
            }
            _ => {
                end = start + self.src[start..].chars().next().map_or(1, char::len_utf8);
                Kind::Punct
            }
        };
        self.pos = end;
        Tok { kind, start, end }
    }

    /// Consumes the next token if its text is `s`.
    pub fn eat(&mut self, s: &str) -> bool {
        let tok = self.peek();
        if tok.kind != Kind::Eof && self.text(tok) == s {
            self.pos = tok.end;
            true
        } else {
            false
        }
    }

    /// Steps over one balanced run starting at the next token: a bracket
    /// group, or a token with the bracket group glued to it (`vector<...>`,
    /// `#tpu.x<...>`, `array<i32: 1>`). Returns the byte range.
    pub fn balanced_item(&mut self) -> Option<(usize, usize)> {
        let first = self.next_tok();
        if first.kind == Kind::Eof {
            return None;
        }
        let text = self.text(first);
        let mut end = first.end;
        let opens_group = matches!(text, "<" | "(" | "[" | "{");
        if opens_group {
            self.pos = first.start;
            end = self.skip_group()?;
        } else if matches!(first.kind, Kind::Ident | Kind::Hash | Kind::Bang)
            && self.src.as_bytes().get(first.end) == Some(&b'<')
        {
            end = self.skip_group()?;
        }
        self.pos = end;
        Some((first.start, end))
    }

    /// Steps over a bracket group starting at the next token (which must
    /// open one); returns the end offset.
    fn skip_group(&mut self) -> Option<usize> {
        let mut depth = 0usize;
        loop {
            let tok = self.next_tok();
            match tok.kind {
                Kind::Eof => return None,
                Kind::Punct => match self.text(tok) {
                    "<" | "(" | "[" | "{" => depth += 1,
                    ">" | ")" | "]" | "}" => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(tok.end);
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
            if depth == 0 {
                return Some(tok.end);
            }
        }
    }

    /// Steps over an attribute value up to (not including) a `,` or closing
    /// bracket at depth 0. Returns the trimmed byte range.
    pub fn attr_value(&mut self) -> Option<(usize, usize)> {
        let start = self.peek().start;
        let mut end = start;
        loop {
            let tok = self.peek();
            match (tok.kind, self.text(tok)) {
                (Kind::Eof, _) => return None,
                (Kind::Punct, "," | "}" | ")" | "]" | ">") => break,
                _ => {
                    end = self.balanced_item()?.1;
                }
            }
        }
        (end > start).then_some((start, end))
    }

    /// Whether the next token can start a type.
    pub fn at_type(&self) -> bool {
        let tok = self.peek();
        match tok.kind {
            Kind::Bang => true,
            Kind::Punct => self.text(tok) == "(",
            Kind::Ident => is_builtin_type_keyword(self.text(tok)),
            _ => false,
        }
    }

    /// Steps over one type; returns its byte range.
    pub fn ty(&mut self) -> Option<(usize, usize)> {
        if !self.at_type() {
            return None;
        }
        let (start, mut end) = self.balanced_item()?;
        // A function type: `(...) -> result`.
        if self.src[start..end].starts_with('(') && self.peek().kind == Kind::Arrow {
            self.next_tok();
            end = self.ty()?.1;
        }
        Some((start, end))
    }
}

/// Builtin type keywords MLIR accepts where a type is expected.
fn is_builtin_type_keyword(s: &str) -> bool {
    let int_width = |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
    matches!(
        s,
        "index"
            | "memref"
            | "vector"
            | "tensor"
            | "tuple"
            | "complex"
            | "none"
            | "bf16"
            | "f16"
            | "f32"
            | "f64"
            | "f80"
            | "f128"
            | "tf32"
    ) || s.starts_with("f8E")
        || s.starts_with("f4E")
        || s.starts_with("f6E")
        || s.strip_prefix('i').is_some_and(int_width)
        || s.strip_prefix("si").is_some_and(int_width)
        || s.strip_prefix("ui").is_some_and(int_width)
}

/// 1-based line and column (in bytes) of a byte offset.
pub(crate) fn line_column(src: &str, offset: usize) -> (u32, u32) {
    let before = &src[..offset.min(src.len())];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = offset - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}
