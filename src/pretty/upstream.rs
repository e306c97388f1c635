//! Upstream ops whose custom syntax changed between LLVM 22 (our MLIR) and
//! MLIR 24 (jaxlib 0.12's), bridged as text the way the `tpu` ops are.
//!
//! MLIR 24 writes the slice positions of `vector.extract_strided_slice` and
//! `vector.insert_strided_slice` as keywords before the attribute dictionary,
//! where LLVM 22 keeps them inside it:
//!
//! ```text
//! MLIR 24: %1 = vector.extract_strided_slice %0 offsets = [0], sizes = [8], strides = [1] {a} : vector<16xf32> to vector<8xf32>
//! LLVM 22: %1 = vector.extract_strided_slice %0 {a, offsets = [0], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
//! ```
//!
//! Neither parser reads the other's form (jaxlib 0.12: "custom op
//! 'vector.extract_strided_slice' expected 'offsets'"). [`to_llvm22`] runs
//! before MLIR parses a kernel; [`to_mlir24`] after it prints one in pretty
//! form, so our print-out reads as jaxlib prints it (and jaxlib reads it).

use std::borrow::Cow;

use super::lex::{Kind, Lexer};
use super::{next_line, op_name_on_line};

/// The ops, with the keywords MLIR 24 writes for them, in its order.
const OPS: [(&str, &[&str]); 2] = [
    (
        "vector.extract_strided_slice",
        &["offsets", "sizes", "strides"],
    ),
    ("vector.insert_strided_slice", &["offsets", "strides"]),
];

/// The keywords of `op` if it is one of [`OPS`].
fn keywords(op: &str) -> Option<&'static [&'static str]> {
    OPS.iter().find(|(name, _)| *name == op).map(|(_, k)| *k)
}

/// Calls `rewrite` on every line starting one of [`OPS`] (with a lexer just
/// after the op name and the op's keywords); a `Some((end, text))` replaces
/// the bytes from the op name's end to `end`. Borrowed when nothing changed.
fn rewrite_ops<'t>(
    text: &'t str,
    mut rewrite: impl FnMut(&mut Lexer<'t>, &'static [&'static str]) -> Option<(usize, String)>,
) -> Cow<'t, str> {
    if !text.contains("_strided_slice") {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut line_start = 0;
    while line_start < text.len() {
        let here = line_start;
        line_start = next_line(text, here);
        let Some((mut lx, name)) = op_name_on_line(text, here) else {
            continue;
        };
        if name.kind != Kind::Ident {
            continue;
        }
        let Some(words) = keywords(lx.text(name)) else {
            continue;
        };
        if let Some((end, replacement)) = rewrite(&mut lx, words) {
            out.push_str(&text[copied..name.end]);
            out.push_str(&replacement);
            copied = end;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Steps over the op's operands (`%a`, `%a, %b`); the text after the op name
/// up to the last operand.
fn operands<'t>(lx: &mut Lexer<'t>, from: usize) -> Option<&'t str> {
    loop {
        if lx.next_tok().kind != Kind::Value {
            return None;
        }
        if !lx.eat(",") {
            return Some(&lx.src[from..lx.pos]);
        }
    }
}

/// Rewrites MLIR 24's keyword form of the ops into LLVM 22's (positions in
/// the attribute dictionary); every other byte is kept (lines too, so
/// diagnostics keep their line numbers). Ops already in LLVM 22's form, or
/// that do not read as either, are left for MLIR's parser to judge.
pub(crate) fn to_llvm22(text: &str) -> Cow<'_, str> {
    rewrite_ops(text, |lx, words| {
        let from = lx.pos;
        let operands = operands(lx, from)?;
        let mut entries = Vec::new();
        for (i, word) in words.iter().enumerate() {
            if i > 0 && !lx.eat(",") {
                return None;
            }
            let key = lx.next_tok();
            if key.kind != Kind::Ident || lx.text(key) != *word || !lx.eat("=") {
                return None;
            }
            let (start, end) = lx.balanced_item()?;
            entries.push(format!("{word} = {}", &lx.src[start..end]));
        }
        // MLIR 24's optional attribute dictionary follows the keywords.
        let mut dict = String::new();
        if lx.peek().kind == Kind::Punct && lx.text(lx.peek()) == "{" {
            let (start, end) = lx.balanced_item()?;
            let inner = lx.src[start + 1..end - 1].trim();
            if !inner.is_empty() {
                dict = format!("{inner}, ");
            }
        }
        Some((
            lx.pos,
            format!("{operands} {{{dict}{}}}", entries.join(", ")),
        ))
    })
}

/// Rewrites LLVM 22's printed form of the ops into MLIR 24's (as jaxlib 0.12
/// prints them): the positions out of the attribute dictionary, as keywords
/// in MLIR 24's order, then what is left of the dictionary.
pub(crate) fn to_mlir24(printed: &str) -> Cow<'_, str> {
    rewrite_ops(printed, |lx, words| {
        let from = lx.pos;
        let operands = operands(lx, from)?;
        if !(lx.peek().kind == Kind::Punct && lx.text(lx.peek()) == "{") {
            return None;
        }
        lx.next_tok();
        let mut positions = vec![None; words.len()];
        let mut rest = Vec::new();
        if !lx.eat("}") {
            loop {
                let key = lx.next_tok();
                let key_text = lx.text(key);
                let value = if lx.eat("=") {
                    let (start, end) = lx.attr_value()?;
                    Some(&lx.src[start..end])
                } else {
                    None
                };
                match (words.iter().position(|w| *w == key_text), value) {
                    (Some(i), Some(value)) => positions[i] = Some(value),
                    (_, Some(value)) => rest.push(format!("{key_text} = {value}")),
                    (_, None) => rest.push(key_text.to_string()),
                }
                if lx.eat("}") {
                    break;
                }
                if !lx.eat(",") {
                    return None;
                }
            }
        }
        let mut keywords = Vec::new();
        for (word, value) in words.iter().zip(positions) {
            keywords.push(format!("{word} = {}", value?));
        }
        let mut out = format!("{operands} {}", keywords.join(", "));
        if !rest.is_empty() {
            out.push_str(&format!(" {{{}}}", rest.join(", ")));
        }
        Some((lx.pos, out))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The lines as jaxlib 0.12 prints them (MLIR 24), and as LLVM 22 does.
    const MLIR24: &str = "    %0 = vector.extract_strided_slice %arg0 offsets = [0, 64], sizes = [4, 64], strides = [1, 1] : vector<8x128xf32> to vector<4x64xf32>\n    %1 = vector.insert_strided_slice %arg2, %arg0 offsets = [8], strides = [1] {bar} : vector<8xf32> into vector<16xf32>\n";
    const LLVM22: &str = "    %0 = vector.extract_strided_slice %arg0 {offsets = [0, 64], sizes = [4, 64], strides = [1, 1]} : vector<8x128xf32> to vector<4x64xf32>\n    %1 = vector.insert_strided_slice %arg2, %arg0 {bar, offsets = [8], strides = [1]} : vector<8xf32> into vector<16xf32>\n";

    #[test]
    fn both_directions() {
        assert_eq!(to_llvm22(MLIR24), LLVM22);
        assert_eq!(to_mlir24(LLVM22), MLIR24);
        // Each form is left alone by the rewrite towards itself.
        assert!(matches!(to_llvm22(LLVM22), Cow::Borrowed(_)));
        assert!(matches!(to_mlir24(MLIR24), Cow::Borrowed(_)));
    }
}
