//! The builtin-dialect encodings LLVM 22 lacks, in both directions: binary
//! (as jaxlib 0.12's MLIR writes it) to the text LLVM 22's writer prints, and
//! that text back to binary.
//!
//! Attribute codes 23 (`AffineMapAttr`), 24 (`IntegerSetAttr`) and 25
//! (`StridedLayoutAttr`), and type codes 21 to 32 (the float types LLVM 22
//! writes as text: `tf32` and the 8-, 6- and 4-bit floats) come from
//! llvm-project pull requests 191970 and 207488; every layout below was
//! checked against bytes jaxlib 0.12 writes (see `scripts/jaxref/`).

use std::fmt::Write as _;

use super::encoding::{Cursor, write_signed_varint, write_varint};
use super::error::{Section, TranscodeError};

/// The last builtin attribute code LLVM 22 knows (`FileLineColRange`).
pub(crate) const LAST_LLVM22_ATTRIBUTE: u64 = 22;
/// The last builtin type code LLVM 22 knows (`VectorTypeWithScalableDims`).
pub(crate) const LAST_LLVM22_TYPE: u64 = 20;

/// Builtin attribute code of `AffineMapAttr`.
pub(crate) const AFFINE_MAP: u64 = 23;
/// Builtin attribute code of `IntegerSetAttr`.
pub(crate) const INTEGER_SET: u64 = 24;
/// Builtin attribute code of `StridedLayoutAttr`.
pub(crate) const STRIDED_LAYOUT: u64 = 25;

/// The builtin types with newer codes: code 21 + index, and their keyword.
pub(crate) const NEW_TYPES: [&str; 12] = [
    "tf32",
    "f8E5M2",
    "f8E4M3",
    "f8E4M3FN",
    "f8E5M2FNUZ",
    "f8E4M3FNUZ",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f4E2M1FN",
    "f6E2M3FN",
    "f6E3M2FN",
    "f8E8M0FNU",
];

/// Builtin type code of the first entry of [`NEW_TYPES`].
pub(crate) const FIRST_NEW_TYPE: u64 = 21;

/// `ShapedType::kDynamic`, printed `?` in strided layouts.
const DYNAMIC: i64 = i64::MIN;

/// MLIR's bound on the work stack while decoding one affine expression.
const MAX_WORK: usize = 128;
/// Bound on nesting while parsing affine expression text.
const MAX_DEPTH: usize = 200;
/// Bound on results and constraints read from binary.
const MAX_ITEMS: u64 = 1 << 16;
/// Bound on the dim and symbol counts of an affine map or integer set read
/// from binary. Unlike results, they cost no bytes each: one varint announces
/// them, and the map prints (and LLVM 22 re-parses) every `d<i>`/`s<i>`, or an
/// identity map materializes one result per dim. The `body_decoder` fuzz target
/// found a 468-byte body whose affine map announced millions of dims (seconds
/// of printing; up to `u32::MAX` dims would exhaust memory), see
/// `mlir-fixtures/fuzz/`. Mosaic kernels have memrefs and vectors of rank < 10.
pub const MAX_AFFINE_IDS: u64 = 4096;

/// The kind of a binary affine expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `*`
    Mul,
    /// `mod`
    Mod,
    /// `floordiv`
    FloorDiv,
    /// `ceildiv`
    CeilDiv,
}

impl BinaryOp {
    /// Wire kind (0, 1, 2 are dim, symbol, constant).
    const fn code(self) -> u64 {
        match self {
            Self::Add => 3,
            Self::Mul => 4,
            Self::Mod => 5,
            Self::FloorDiv => 6,
            Self::CeilDiv => 7,
        }
    }

    const fn from_code(code: u64) -> Option<Self> {
        Some(match code {
            3 => Self::Add,
            4 => Self::Mul,
            5 => Self::Mod,
            6 => Self::FloorDiv,
            7 => Self::CeilDiv,
            _ => return None,
        })
    }

    const fn spelling(self) -> &'static str {
        match self {
            Self::Add => " + ",
            Self::Mul => " * ",
            Self::Mod => " mod ",
            Self::FloorDiv => " floordiv ",
            Self::CeilDiv => " ceildiv ",
        }
    }
}

/// An affine expression tree, as MLIR stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AffineExpr {
    /// `dN`
    Dim(u64),
    /// `sN`
    Symbol(u64),
    /// An integer constant.
    Constant(i64),
    /// A binary operation.
    Binary(BinaryOp, Box<AffineExpr>, Box<AffineExpr>),
}

/// An affine map: dims, symbols and result expressions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineMap {
    /// Number of dimensions.
    pub num_dims: u64,
    /// Number of symbols.
    pub num_symbols: u64,
    /// Result expressions.
    pub results: Vec<AffineExpr>,
}

/// An integer set: dims, symbols and constraints (`== 0` when `eq`, else `>= 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntegerSet {
    /// Number of dimensions.
    pub num_dims: u64,
    /// Number of symbols.
    pub num_symbols: u64,
    /// Constraints with their equality flags.
    pub constraints: Vec<(AffineExpr, bool)>,
}

/// A strided layout: offset and strides (`i64::MIN` is dynamic, `?`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StridedLayout {
    /// The offset.
    pub offset: i64,
    /// The strides.
    pub strides: Vec<i64>,
}

// ---------------------------------------------------------------------------
// Binary reading
// ---------------------------------------------------------------------------

fn read_expr(c: &mut Cursor<'_>) -> Result<AffineExpr, TranscodeError> {
    enum Work {
        Read,
        Combine(BinaryOp),
    }
    let mut work = vec![Work::Read];
    let mut operands: Vec<AffineExpr> = Vec::new();
    while let Some(item) = work.pop() {
        if work.len() + 1 > MAX_WORK {
            return Err(c.error(
                "affine expression nests too deeply (work stack over 128, as MLIR limits it)",
            ));
        }
        match item {
            Work::Combine(op) => {
                let (Some(rhs), Some(lhs)) = (operands.pop(), operands.pop()) else {
                    return Err(c.error("malformed affine expression: operand underflow"));
                };
                operands.push(AffineExpr::Binary(op, Box::new(lhs), Box::new(rhs)));
            }
            Work::Read => {
                let at = c.offset();
                let kind = c.varint()?;
                match kind {
                    0 => operands.push(AffineExpr::Dim(c.varint()?)),
                    1 => operands.push(AffineExpr::Symbol(c.varint()?)),
                    2 => operands.push(AffineExpr::Constant(c.signed_varint()?)),
                    _ => match BinaryOp::from_code(kind) {
                        Some(op) => {
                            work.push(Work::Combine(op));
                            work.push(Work::Read);
                            work.push(Work::Read);
                        }
                        None => {
                            return Err(c.error_at(
                                at,
                                format!("unknown affine expression kind {kind} (known: 0 to 7)"),
                            ));
                        }
                    },
                }
            }
        }
    }
    match (operands.pop(), operands.is_empty()) {
        (Some(expr), true) => Ok(expr),
        _ => Err(c.error("malformed affine expression: expected a single result")),
    }
}

fn read_dim_position(c: &mut Cursor<'_>) -> Result<AffineExpr, TranscodeError> {
    Ok(AffineExpr::Dim(c.varint()?))
}

/// Reads the payload of an `AffineMapAttr` (after the code).
pub(crate) fn read_affine_map(c: &mut Cursor<'_>) -> Result<AffineMap, TranscodeError> {
    let at = c.offset();
    let header = c.varint()?;
    let kind = header & 3;
    let num_dims = header >> 2;
    if num_dims > MAX_AFFINE_IDS {
        return Err(c.error_at(
            at,
            format!("affine map dim count {num_dims} exceeds the limit of {MAX_AFFINE_IDS}"),
        ));
    }
    match kind {
        0 => Ok(AffineMap {
            num_dims,
            num_symbols: 0,
            results: (0..num_dims).map(AffineExpr::Dim).collect(),
        }),
        1 => {
            if num_dims > MAX_ITEMS {
                return Err(c.error_at(at, format!("permutation of {num_dims} dims")));
            }
            let results = (0..num_dims)
                .map(|_| read_dim_position(c))
                .collect::<Result<_, _>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols: 0,
                results,
            })
        }
        2 => {
            let n = c.count(MAX_ITEMS, "projected permutation result count")?;
            let results = (0..n)
                .map(|_| read_dim_position(c))
                .collect::<Result<_, _>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols: 0,
                results,
            })
        }
        _ => {
            let num_symbols = c.count(MAX_AFFINE_IDS, "affine map symbol count")? as u64;
            let n = c.count(MAX_ITEMS, "affine map result count")?;
            let results = (0..n).map(|_| read_expr(c)).collect::<Result<_, _>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols,
                results,
            })
        }
    }
}

/// Reads the payload of an `IntegerSetAttr`: dims, symbols, constraint count,
/// the constraints, then one byte per constraint (1 for `== 0`).
pub(crate) fn read_integer_set(c: &mut Cursor<'_>) -> Result<IntegerSet, TranscodeError> {
    let num_dims = c.count(MAX_AFFINE_IDS, "integer set dim count")? as u64;
    let num_symbols = c.count(MAX_AFFINE_IDS, "integer set symbol count")? as u64;
    let n = c.count(MAX_ITEMS, "integer set constraint count")?;
    let exprs: Vec<AffineExpr> = (0..n).map(|_| read_expr(c)).collect::<Result<_, _>>()?;
    let mut constraints = Vec::with_capacity(n);
    for expr in exprs {
        let at = c.offset();
        let flag = c.byte()?;
        if flag > 1 {
            return Err(c.error_at(at, format!("equality flag {flag} is neither 0 nor 1")));
        }
        constraints.push((expr, flag == 1));
    }
    Ok(IntegerSet {
        num_dims,
        num_symbols,
        constraints,
    })
}

/// Reads the payload of a `StridedLayoutAttr`: signed offset, then the
/// strides as a signed varint list.
pub(crate) fn read_strided(c: &mut Cursor<'_>) -> Result<StridedLayout, TranscodeError> {
    let offset = c.signed_varint()?;
    let n = c.count(MAX_ITEMS, "stride count")?;
    let strides = (0..n)
        .map(|_| c.signed_varint())
        .collect::<Result<_, _>>()?;
    Ok(StridedLayout { offset, strides })
}

// ---------------------------------------------------------------------------
// Binary writing
// ---------------------------------------------------------------------------

fn write_expr(out: &mut Vec<u8>, expr: &AffineExpr) {
    match expr {
        AffineExpr::Dim(p) => {
            write_varint(out, 0);
            write_varint(out, *p);
        }
        AffineExpr::Symbol(p) => {
            write_varint(out, 1);
            write_varint(out, *p);
        }
        AffineExpr::Constant(v) => {
            write_varint(out, 2);
            write_signed_varint(out, *v);
        }
        AffineExpr::Binary(op, lhs, rhs) => {
            write_varint(out, op.code());
            write_expr(out, lhs);
            write_expr(out, rhs);
        }
    }
}

impl AffineMap {
    fn dim_positions(&self) -> Option<Vec<u64>> {
        self.results
            .iter()
            .map(|e| match e {
                AffineExpr::Dim(p) => Some(*p),
                _ => None,
            })
            .collect()
    }

    /// Whether MLIR's `isProjectedPermutation()` holds (no symbols, distinct
    /// dims, no more results than dims).
    fn is_projected_permutation(&self) -> bool {
        if self.num_symbols > 0 || self.results.len() as u64 > self.num_dims {
            return false;
        }
        let Some(positions) = self.dim_positions() else {
            return false;
        };
        let mut seen = std::collections::HashSet::new();
        positions
            .iter()
            .all(|p| *p < self.num_dims && seen.insert(*p))
    }

    /// Appends the binary encoding (code included), choosing the compact form
    /// the way MLIR's writer does.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        write_varint(out, AFFINE_MAP);
        let positions = self.dim_positions();
        let is_identity = self.num_symbols == 0
            && self.results.len() as u64 == self.num_dims
            && positions
                .as_ref()
                .is_some_and(|p| p.iter().enumerate().all(|(i, d)| *d == i as u64));
        if is_identity {
            write_varint(out, self.num_dims << 2);
            return;
        }
        if self.is_projected_permutation() {
            let positions = positions.unwrap_or_default();
            if positions.len() as u64 == self.num_dims {
                write_varint(out, (self.num_dims << 2) | 1);
            } else {
                write_varint(out, (self.num_dims << 2) | 2);
                write_varint(out, positions.len() as u64);
            }
            for p in positions {
                write_varint(out, p);
            }
            return;
        }
        write_varint(out, (self.num_dims << 2) | 3);
        write_varint(out, self.num_symbols);
        write_varint(out, self.results.len() as u64);
        for e in &self.results {
            write_expr(out, e);
        }
    }
}

impl IntegerSet {
    /// Appends the binary encoding (code included).
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        write_varint(out, INTEGER_SET);
        write_varint(out, self.num_dims);
        write_varint(out, self.num_symbols);
        write_varint(out, self.constraints.len() as u64);
        for (e, _) in &self.constraints {
            write_expr(out, e);
        }
        for (_, eq) in &self.constraints {
            out.push(u8::from(*eq));
        }
    }
}

impl StridedLayout {
    /// Appends the binary encoding (code included).
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        write_varint(out, STRIDED_LAYOUT);
        write_signed_varint(out, self.offset);
        write_varint(out, self.strides.len() as u64);
        for s in &self.strides {
            write_signed_varint(out, *s);
        }
    }
}

// ---------------------------------------------------------------------------
// Printing, exactly as MLIR's AsmPrinter does
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    Weak,
    Strong,
}

fn print_expr(out: &mut String, expr: &AffineExpr, enclosing: Binding) {
    let (op, lhs, rhs) = match expr {
        AffineExpr::Dim(p) => {
            let _ = write!(out, "d{p}");
            return;
        }
        AffineExpr::Symbol(p) => {
            let _ = write!(out, "s{p}");
            return;
        }
        AffineExpr::Constant(v) => {
            let _ = write!(out, "{v}");
            return;
        }
        AffineExpr::Binary(op, lhs, rhs) => (*op, &**lhs, &**rhs),
    };
    let open = enclosing == Binding::Strong;
    if open {
        out.push('(');
    }
    if op != BinaryOp::Add {
        if op == BinaryOp::Mul && *rhs == AffineExpr::Constant(-1) {
            out.push('-');
            print_expr(out, lhs, Binding::Strong);
        } else {
            print_expr(out, lhs, Binding::Strong);
            out.push_str(op.spelling());
            print_expr(out, rhs, Binding::Strong);
        }
    } else if let AffineExpr::Binary(BinaryOp::Mul, rlhs, rrhs) = rhs
        && let AffineExpr::Constant(c) = **rrhs
        && c <= -1
    {
        print_expr(out, lhs, Binding::Weak);
        out.push_str(" - ");
        if c == -1 {
            let binding = match **rlhs {
                AffineExpr::Binary(BinaryOp::Add, ..) => Binding::Strong,
                _ => Binding::Weak,
            };
            print_expr(out, rlhs, binding);
        } else {
            print_expr(out, rlhs, Binding::Strong);
            let _ = write!(out, " * {}", c.wrapping_neg());
        }
    } else if let AffineExpr::Constant(c) = rhs
        && *c < 0
    {
        print_expr(out, lhs, Binding::Weak);
        let _ = write!(out, " - {}", c.wrapping_neg());
    } else {
        print_expr(out, lhs, Binding::Weak);
        out.push_str(" + ");
        print_expr(out, rhs, Binding::Weak);
    }
    if open {
        out.push(')');
    }
}

fn print_ids(out: &mut String, num_dims: u64, num_symbols: u64) {
    out.push('(');
    for i in 0..num_dims {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "d{i}");
    }
    out.push(')');
    if num_symbols > 0 {
        out.push('[');
        for i in 0..num_symbols {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "s{i}");
        }
        out.push(']');
    }
}

impl AffineMap {
    /// The attribute as MLIR prints it: `affine_map<(d0, d1) -> (d1, d0)>`.
    pub fn to_text(&self) -> String {
        let mut out = String::from("affine_map<");
        print_ids(&mut out, self.num_dims, self.num_symbols);
        out.push_str(" -> (");
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            print_expr(&mut out, e, Binding::Weak);
        }
        out.push_str(")>");
        out
    }
}

impl IntegerSet {
    /// The attribute as MLIR prints it: `affine_set<(d0)[s0] : (d0 - s0 >= 0)>`.
    pub fn to_text(&self) -> String {
        let mut out = String::from("affine_set<");
        print_ids(&mut out, self.num_dims, self.num_symbols);
        out.push_str(" : (");
        for (i, (e, eq)) in self.constraints.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            print_expr(&mut out, e, Binding::Weak);
            out.push_str(if *eq { " == 0" } else { " >= 0" });
        }
        out.push_str(")>");
        out
    }
}

impl StridedLayout {
    /// The attribute as MLIR prints it: `strided<[4, 1], offset: ?>`.
    pub fn to_text(&self) -> String {
        let value = |v: i64| {
            if v == DYNAMIC {
                "?".to_string()
            } else {
                v.to_string()
            }
        };
        let strides: Vec<String> = self.strides.iter().map(|s| value(*s)).collect();
        let mut out = format!("strided<[{}]", strides.join(", "));
        if self.offset != 0 {
            let _ = write!(out, ", offset: {}", value(self.offset));
        }
        out.push('>');
        out
    }
}

// ---------------------------------------------------------------------------
// Parsing the printed text back (the inverse of the printer above)
// ---------------------------------------------------------------------------

/// A tiny parser over printed attribute text.
struct TextParser<'t> {
    s: &'t [u8],
    pos: usize,
    depth: usize,
}

type TextResult<T> = Result<T, String>;

impl<'t> TextParser<'t> {
    fn new(s: &'t str) -> Self {
        Self {
            s: s.as_bytes(),
            pos: 0,
            depth: 0,
        }
    }

    fn skip_ws(&mut self) {
        while self
            .s
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        if self.s[self.pos..].starts_with(token.as_bytes()) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    /// Like [`Self::eat`] for a keyword: not followed by an identifier character.
    fn eat_keyword(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = &self.s[self.pos..];
        if rest.starts_with(word.as_bytes())
            && !rest
                .get(word.len())
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> TextResult<()> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(format!("expected `{token}` at column {}", self.pos + 1))
        }
    }

    fn end(&mut self) -> TextResult<()> {
        self.skip_ws();
        if self.pos == self.s.len() {
            Ok(())
        } else {
            Err(format!("unexpected text at column {}", self.pos + 1))
        }
    }

    fn digits(&mut self) -> TextResult<u128> {
        self.skip_ws();
        let start = self.pos;
        let mut value: u128 = 0;
        while let Some(b) = self.s.get(self.pos).filter(|b| b.is_ascii_digit()) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u128::from(b - b'0')))
                .filter(|v| *v <= 1u128 << 64)
                .ok_or_else(|| format!("integer too large at column {}", start + 1))?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(format!("expected an integer at column {}", start + 1));
        }
        Ok(value)
    }

    fn constant(negative: bool, magnitude: u128) -> TextResult<i64> {
        let v = if negative {
            -(magnitude as i128)
        } else {
            magnitude as i128
        };
        i64::try_from(v).map_err(|_| format!("integer {v} does not fit in 64 bits"))
    }

    /// `(d0, d1)[s0]`: checks the names are in order and returns the counts.
    fn ids(&mut self) -> TextResult<(u64, u64)> {
        let list = |p: &mut Self, open: &str, close: &str, prefix: char| -> TextResult<u64> {
            p.expect(open)?;
            let mut n = 0u64;
            if p.eat(close) {
                return Ok(0);
            }
            loop {
                p.expect(&format!("{prefix}{n}"))?;
                n += 1;
                if p.eat(close) {
                    return Ok(n);
                }
                p.expect(",")?;
            }
        };
        let dims = list(self, "(", ")", 'd')?;
        self.skip_ws();
        let symbols = if self.s.get(self.pos) == Some(&b'[') {
            list(self, "[", "]", 's')?
        } else {
            0
        };
        Ok((dims, symbols))
    }

    /// Low precedence: terms joined by `+` and `-`, left to right.
    fn expr(&mut self, dims: u64, syms: u64) -> TextResult<AffineExpr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("affine expression nests too deeply".into());
        }
        let mut acc = self.term(dims, syms)?;
        loop {
            if self.eat("+") {
                let rhs = self.term(dims, syms)?;
                acc = bin(BinaryOp::Add, acc, rhs);
            } else if self.peek_minus() {
                self.pos += 1;
                self.skip_ws();
                let literal = self.s.get(self.pos).is_some_and(u8::is_ascii_digit);
                let rhs = self.term(dims, syms)?;
                let rhs = match rhs {
                    // `a - 7` is `a + -7`.
                    AffineExpr::Constant(c) if literal => {
                        AffineExpr::Constant(c.checked_neg().ok_or("constant overflow")?)
                    }
                    // `a - x * 3` is `a + x * -3`.
                    AffineExpr::Binary(BinaryOp::Mul, x, c) if matches!(*c, AffineExpr::Constant(v) if v > 1) => {
                        bin(BinaryOp::Mul, *x, negate_constant(*c))
                    }
                    // `a - x` is `a + x * -1`.
                    other => bin(BinaryOp::Mul, other, AffineExpr::Constant(-1)),
                };
                acc = bin(BinaryOp::Add, acc, rhs);
            } else {
                break;
            }
        }
        self.depth -= 1;
        Ok(acc)
    }

    /// A binary `-` (after skipping spaces), as opposed to the end of input.
    fn peek_minus(&mut self) -> bool {
        self.skip_ws();
        self.s.get(self.pos) == Some(&b'-')
    }

    /// High precedence: `*`, `floordiv`, `ceildiv`, `mod`, left to right.
    fn term(&mut self, dims: u64, syms: u64) -> TextResult<AffineExpr> {
        let mut acc = self.unary(dims, syms)?;
        loop {
            let op = if self.eat("*") {
                BinaryOp::Mul
            } else if self.eat_keyword("floordiv") {
                BinaryOp::FloorDiv
            } else if self.eat_keyword("ceildiv") {
                BinaryOp::CeilDiv
            } else if self.eat_keyword("mod") {
                BinaryOp::Mod
            } else {
                return Ok(acc);
            };
            let rhs = self.unary(dims, syms)?;
            acc = bin(op, acc, rhs);
        }
    }

    fn unary(&mut self, dims: u64, syms: u64) -> TextResult<AffineExpr> {
        self.skip_ws();
        if self.eat("-") {
            self.skip_ws();
            if self.s.get(self.pos).is_some_and(u8::is_ascii_digit) {
                let m = self.digits()?;
                return Ok(AffineExpr::Constant(Self::constant(true, m)?));
            }
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return Err("affine expression nests too deeply".into());
            }
            let operand = self.unary(dims, syms)?;
            self.depth -= 1;
            return Ok(bin(BinaryOp::Mul, operand, AffineExpr::Constant(-1)));
        }
        self.primary(dims, syms)
    }

    fn primary(&mut self, dims: u64, syms: u64) -> TextResult<AffineExpr> {
        self.skip_ws();
        match self.s.get(self.pos) {
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr(dims, syms)?;
                self.expect(")")?;
                Ok(e)
            }
            Some(b'd') | Some(b's') => {
                let is_dim = self.s[self.pos] == b'd';
                self.pos += 1;
                let n = self.digits()?;
                let n = u64::try_from(n).map_err(|_| "identifier too large".to_string())?;
                match is_dim {
                    true if n < dims => Ok(AffineExpr::Dim(n)),
                    false if n < syms => Ok(AffineExpr::Symbol(n)),
                    _ => Err(format!(
                        "`{}{n}` is not declared",
                        if is_dim { 'd' } else { 's' }
                    )),
                }
            }
            Some(b) if b.is_ascii_digit() => {
                let m = self.digits()?;
                Ok(AffineExpr::Constant(Self::constant(false, m)?))
            }
            _ => Err(format!(
                "expected an affine expression at column {}",
                self.pos + 1
            )),
        }
    }

    /// `?` or an integer.
    fn int_or_dynamic(&mut self) -> TextResult<i64> {
        if self.eat("?") {
            return Ok(DYNAMIC);
        }
        let negative = self.eat("-");
        let m = self.digits()?;
        Self::constant(negative, m)
    }
}

/// `-c` for a positive constant (any other expression is returned as is).
fn negate_constant(expr: AffineExpr) -> AffineExpr {
    match expr {
        AffineExpr::Constant(v) => AffineExpr::Constant(v.wrapping_neg()),
        other => other,
    }
}

fn bin(op: BinaryOp, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
    AffineExpr::Binary(op, Box::new(lhs), Box::new(rhs))
}

impl AffineMap {
    /// Parses the text MLIR prints for an affine map attribute, rebuilding the
    /// exact tree that printed it (the printer's sugar undone: `a - 2` is
    /// `a + -2`, `a - b` is `a + b * -1`, `-a` is `a * -1`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut p = TextParser::new(text);
        p.expect("affine_map<")?;
        let (num_dims, num_symbols) = p.ids()?;
        p.expect("->")?;
        p.expect("(")?;
        let mut results = Vec::new();
        if !p.eat(")") {
            loop {
                results.push(p.expr(num_dims, num_symbols)?);
                if p.eat(")") {
                    break;
                }
                p.expect(",")?;
            }
        }
        p.expect(">")?;
        p.end()?;
        Ok(Self {
            num_dims,
            num_symbols,
            results,
        })
    }
}

impl IntegerSet {
    /// Parses the text MLIR prints for an integer set attribute.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut p = TextParser::new(text);
        p.expect("affine_set<")?;
        let (num_dims, num_symbols) = p.ids()?;
        p.expect(":")?;
        p.expect("(")?;
        let mut constraints = Vec::new();
        if !p.eat(")") {
            loop {
                let e = p.expr(num_dims, num_symbols)?;
                let eq = if p.eat("==") {
                    true
                } else {
                    p.expect(">=")?;
                    false
                };
                p.expect("0")?;
                constraints.push((e, eq));
                if p.eat(")") {
                    break;
                }
                p.expect(",")?;
            }
        }
        p.expect(">")?;
        p.end()?;
        Ok(Self {
            num_dims,
            num_symbols,
            constraints,
        })
    }
}

impl StridedLayout {
    /// Parses the text MLIR prints for a strided layout attribute.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut p = TextParser::new(text);
        p.expect("strided<")?;
        p.expect("[")?;
        let mut strides = Vec::new();
        if !p.eat("]") {
            loop {
                strides.push(p.int_or_dynamic()?);
                if p.eat("]") {
                    break;
                }
                p.expect(",")?;
            }
        }
        let offset = if p.eat(",") {
            p.expect("offset")?;
            p.expect(":")?;
            p.int_or_dynamic()?
        } else {
            0
        };
        p.expect(">")?;
        p.end()?;
        Ok(Self { offset, strides })
    }
}

// ---------------------------------------------------------------------------
// Entry-level conversions
// ---------------------------------------------------------------------------

/// What a builtin entry becomes when encoding down to LLVM 22.
pub(crate) enum Down {
    /// LLVM 22 knows this encoding: keep it.
    Keep,
    /// Replace by this text (without the NUL).
    Text(String),
    /// A code newer than anything we know.
    UnknownCode(u64),
}

/// Decodes a builtin attribute entry that LLVM 22 may not know.
pub(crate) fn down_attribute(data: &[u8], offset: usize) -> Result<Down, TranscodeError> {
    let mut c = Cursor::new(data, offset, Section::AttrType);
    let code = c.varint()?;
    let text = match code {
        0..=LAST_LLVM22_ATTRIBUTE => return Ok(Down::Keep),
        AFFINE_MAP => read_affine_map(&mut c)?.to_text(),
        INTEGER_SET => read_integer_set(&mut c)?.to_text(),
        STRIDED_LAYOUT => read_strided(&mut c)?.to_text(),
        _ => return Ok(Down::UnknownCode(code)),
    };
    if !c.is_empty() {
        return Err(c.error(format!(
            "{} unexpected trailing bytes after the attribute",
            c.remaining()
        )));
    }
    Ok(Down::Text(text))
}

/// Decodes a builtin type entry that LLVM 22 may not know.
pub(crate) fn down_type(data: &[u8], offset: usize) -> Result<Down, TranscodeError> {
    let mut c = Cursor::new(data, offset, Section::AttrType);
    let code = c.varint()?;
    if code <= LAST_LLVM22_TYPE {
        return Ok(Down::Keep);
    }
    let Some(name) = code
        .checked_sub(FIRST_NEW_TYPE)
        .and_then(|i| NEW_TYPES.get(i as usize))
    else {
        return Ok(Down::UnknownCode(code));
    };
    if !c.is_empty() {
        return Err(c.error(format!(
            "{} unexpected trailing bytes after the type",
            c.remaining()
        )));
    }
    Ok(Down::Text((*name).to_string()))
}

/// The binary encoding LLVM 24 writes for a builtin attribute LLVM 22 wrote
/// as `text`, `Ok(None)` when LLVM 24 writes it as text too.
pub(crate) fn up_attribute(text: &str) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    if text.starts_with("affine_map<") {
        AffineMap::parse(text)?.encode(&mut out);
    } else if text.starts_with("affine_set<") {
        IntegerSet::parse(text)?.encode(&mut out);
    } else if text.starts_with("strided<") {
        StridedLayout::parse(text)?.encode(&mut out);
    } else {
        return Ok(None);
    }
    Ok(Some(out))
}

/// The binary encoding LLVM 24 writes for a builtin type LLVM 22 wrote as text.
pub(crate) fn up_type(text: &str) -> Option<Vec<u8>> {
    let index = NEW_TYPES.iter().position(|n| *n == text)?;
    let mut out = Vec::new();
    write_varint(&mut out, FIRST_NEW_TYPE + index as u64);
    Some(out)
}
