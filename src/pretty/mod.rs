//! The custom (pretty) syntax of the `tpu` ops Pallas emits, read and printed
//! as text.
//!
//! Our pass-through `tpu` dialect registers no ops; its C++ parse hook reads
//! the custom form from the table of `ops.rs` (over `tcc_rust_tpu_op_table`,
//! so that MLIR itself, e.g. mlir-opt with the plugin, reads it), but MLIR
//! prints `tpu` ops in generic form. This module works at the text level,
//! driven by the same table of the ops' declarative assembly formats (one
//! entry per op, checked against real jaxlib output):
//! - [`pretty_to_generic`] rewrites each `tpu` op written in custom syntax
//!   into the generic op MLIR builds from it (operands, `operandSegmentSizes`,
//!   properties including the default-valued ones, types), leaving every other
//!   byte untouched, so that MLIR then parses the result;
//! - [`generic_to_pretty`] rewrites the generic `tpu` ops of MLIR's printed
//!   output into their custom syntax, spaced as MLIR's ODS printer spaces
//!   them, so a kernel prints as JAX prints it.
//!
//! The table covers every op of jaxlib 0.12's `tpu` dialect that has a custom
//! syntax (94 of its 100 ops); `tpu.region`, `tpu.trace`, `tpu.trace_start`,
//! `tpu.trace_stop`, `tpu.prng_random_bits` and `tpu.prng_set_seed_32` have
//! none, and JAX prints them in generic form too.
//!
//! Ops are found line by line (MLIR prints one op per line; an op may not
//! start in the middle of a line), then read token by token.

use std::borrow::Cow;

mod format;
mod lex;
mod ops;
mod upstream;

use format::{parse_generic, specs, write_generic};
use lex::{Kind, Lexer, Tok, line_column};

/// Errors while reading `tpu` ops in custom syntax.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrettyError {
    /// A `tpu` op in custom syntax that is not in the table.
    #[error(
        "{line}:{column}: `{op}` is in custom (pretty) form, which this tool does not know for this op{}; \
         write it in generic form (`\"{op}\"(...) : (...) -> (...)`, as `mlir-opt --mlir-print-op-generic` or \
         jaxlib's `print_generic_op_form=True` prints it)", crate::mosaic::hints::tpu_op_hint(.op)
    )]
    UnknownOp {
        /// The op name, e.g. `tpu.trace_start`.
        op: String,
        /// 1-based line.
        line: u32,
        /// 1-based column (in bytes).
        column: u32,
    },
    /// A known `tpu` op whose custom syntax does not read.
    #[error(
        "{line}:{column}: cannot read `{op}` in custom (pretty) form: expected {expected}, found {found}; \
         write it as JAX prints it, or in generic form (`mlir-opt --mlir-print-op-generic`)"
    )]
    Syntax {
        /// The op name.
        op: String,
        /// 1-based line of the offending token.
        line: u32,
        /// 1-based column of the offending token.
        column: u32,
        /// What the format expects there.
        expected: String,
        /// The text found there (a token, or `end of input`).
        found: String,
    },
}

/// The names of the `tpu` ops whose custom syntax this module reads and
/// prints (`tpu.enqueue_dma`, ...), sorted.
pub fn supported_ops() -> impl Iterator<Item = &'static str> {
    specs().keys().copied()
}

/// The op-name token of the op starting on the line at `line_start`, if the
/// line starts an op: after the optional result list (`%0 = `, `%0:2 = `,
/// `%a, %b = `).
fn op_name_on_line<'a>(src: &'a str, line_start: usize) -> Option<(Lexer<'a>, Tok)> {
    let line_end = src[line_start..]
        .find('\n')
        .map_or(src.len(), |i| line_start + i);
    let line = &src[line_start..line_end];
    if line.trim_start().starts_with("//") {
        return None;
    }
    let mut lx = Lexer::new(src, line_start);
    let mut tok = lx.next_tok();
    if tok.start >= line_end {
        return None;
    }
    if tok.kind == Kind::Value {
        loop {
            if lx.eat(":") && lx.next_tok().kind != Kind::Num {
                return None;
            }
            if lx.eat("=") {
                break;
            }
            if !lx.eat(",") || lx.next_tok().kind != Kind::Value {
                return None;
            }
        }
        tok = lx.next_tok();
    }
    (tok.start < line_end).then_some((lx, tok))
}

fn next_line(src: &str, from: usize) -> usize {
    src[from..].find('\n').map_or(src.len(), |i| from + i + 1)
}

/// Rewrites every `tpu` op written in custom syntax into generic form, and
/// the upstream ops whose syntax MLIR 24 changed into LLVM 22's, leaving all
/// other text byte for byte (line count kept, so MLIR's
/// diagnostics keep their line numbers). Borrowed when there is nothing to
/// rewrite.
///
/// # Errors
/// [`PrettyError::UnknownOp`] for a custom-syntax `tpu` op not in the table,
/// [`PrettyError::Syntax`] for one that does not read.
pub fn pretty_to_generic(text: &str) -> Result<Cow<'_, str>, PrettyError> {
    match upstream::to_llvm22(text) {
        Cow::Borrowed(_) => tpu_to_generic(text),
        Cow::Owned(text) => Ok(Cow::Owned(tpu_to_generic(&text)?.into_owned())),
    }
}

/// [`pretty_to_generic`] for the `tpu` ops.
fn tpu_to_generic(text: &str) -> Result<Cow<'_, str>, PrettyError> {
    let mut out = String::new();
    let mut copied = 0;
    let mut line_start = 0;
    let finder = memchr::memmem::Finder::new(b"tpu.");
    while line_start < text.len() {
        // The next line that may hold a `tpu` op in custom form: one with a
        // bare `tpu.` at the line start or after whitespace or `=` (`#tpu.`,
        // `!tpu.` and `"tpu.` cannot start one). Found by searching the whole
        // text; other lines are skipped without lexing them.
        let Some(hit) = finder
            .find_iter(&text.as_bytes()[line_start..])
            .map(|i| line_start + i)
            .find(|&i| {
                i == 0 || matches!(text.as_bytes()[i - 1], b'\n' | b' ' | b'\t' | b'\r' | b'=')
            })
        else {
            break;
        };
        line_start = memchr::memrchr(b'\n', &text.as_bytes()[line_start..hit])
            .map_or(line_start, |i| line_start + i + 1);
        let Some((mut lx, name)) = op_name_on_line(text, line_start) else {
            line_start = next_line(text, line_start);
            continue;
        };
        let op = lx.text(name);
        if name.kind != Kind::Ident || !op.starts_with("tpu.") {
            line_start = next_line(text, line_start);
            continue;
        }
        let Some(spec) = specs().get(op) else {
            let (line, column) = line_column(text, name.start);
            return Err(PrettyError::UnknownOp {
                op: op.to_string(),
                line,
                column,
            });
        };
        let syntax = |offset: usize, expected: String, lx: &Lexer<'_>| {
            let (line, column) = line_column(text, offset);
            let mut probe = Lexer::new(text, offset);
            let tok = probe.next_tok();
            PrettyError::Syntax {
                op: op.to_string(),
                line,
                column,
                expected,
                found: if tok.kind == Kind::Eof {
                    "end of input".to_string()
                } else {
                    format!("`{}`", lx.text(tok))
                },
            }
        };
        let generic = spec
            .parse_custom(&mut lx)
            .map_err(|e| syntax(e.offset, e.expected, &lx))?;
        // The op must end its line (a location may follow).
        let after = lx.peek();
        if !lx.newline_before_next() && after.kind != Kind::Eof && lx.text(after) != "loc" {
            return Err(syntax(after.start, format!("the end of `{op}`"), &lx));
        }
        let newlines = text[name.start..lx.pos].matches('\n').count();
        out.push_str(&text[copied..name.start]);
        out.push_str(&write_generic(op, &generic));
        out.push_str(&"\n".repeat(newlines));
        copied = lx.pos;
        line_start = next_line(text, lx.pos);
    }
    if copied == 0 {
        return Ok(Cow::Borrowed(text));
    }
    out.push_str(&text[copied..]);
    Ok(Cow::Owned(out))
}

/// Rewrites the generic `tpu` ops of MLIR-printed text into their custom
/// syntax, as JAX prints them, and the upstream ops whose syntax MLIR 24
/// changed into MLIR 24's; every other byte is kept. Ops not in the
/// table, with regions, or that do not fit their declaration stay generic
/// (as JAX prints ops without a custom syntax, e.g. `tpu.region`).
pub fn generic_to_pretty(printed: &str) -> String {
    let mut out = String::new();
    let mut copied = 0;
    let mut line_start = 0;
    while line_start < printed.len() {
        let here = line_start;
        line_start = next_line(printed, here);
        let Some((mut lx, name)) = op_name_on_line(printed, here) else {
            continue;
        };
        if name.kind != Kind::Str {
            continue;
        }
        let op = lx.text(name).trim_matches('"');
        let Some(spec) = specs().get(op) else {
            continue;
        };
        let Some(custom) = parse_generic(&mut lx)
            .and_then(|flat| spec.group(flat))
            .and_then(|generic| spec.print_custom(&generic))
        else {
            continue;
        };
        out.push_str(&printed[copied..name.start]);
        out.push_str(op);
        out.push_str(&custom);
        copied = lx.pos;
        line_start = next_line(printed, lx.pos.max(here));
    }
    if copied == 0 {
        return upstream::to_mlir24(printed).into_owned();
    }
    out.push_str(&printed[copied..]);
    upstream::to_mlir24(&out).into_owned()
}
