//! The declarative-format engine: compiles the [`OpDef`] table once, parses
//! an op written in its custom syntax into its generic parts, and prints the
//! generic parts back in custom syntax with MLIR's ODS spacing rules.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::lex::{Kind, Lexer};
use super::ops::{OPS, OpDef};

/// How many values an operand or result group holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    One,
    Optional,
    Variadic,
}

/// How a `$attr` directive spells the attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AttrKind {
    /// `<value>` for `#dialect.enum<value>` (the payload is `#dialect.enum`).
    Enum(&'static str),
    /// `2` for `2 : i32` (the type is the payload).
    Int(&'static str),
    /// `[1, 2]` for `array<i32: 1, 2>` (the element type is the payload).
    Array(&'static str),
    /// Printed in full either way (`true`, `"text"`, `#tpu.x<...>`).
    Verbatim,
}

#[derive(Debug)]
pub(crate) struct AttrDef {
    pub name: &'static str,
    pub kind: AttrKind,
    pub default: Option<&'static str>,
}

/// One element of a declarative format.
#[derive(Debug)]
pub(crate) enum Elem {
    Literal(&'static str),
    Operand(usize),
    Attr(usize),
    /// `type($x)`: of an operand (`false`) or a result (`true`), by index.
    Type(bool, usize),
    FunctionalType,
    /// `type(results)`: every result type.
    ResultTypes,
    AttrDict,
    /// `( ... )?`, anchored on the element at `anchor`.
    Optional {
        elems: Vec<Elem>,
        anchor: usize,
    },
}

/// Where a type the format does not spell comes from.
#[derive(Debug)]
pub(crate) enum Implied {
    Fixed(&'static str),
    /// Same as operand (`false`) or result (`true`) number.
    SameAs(bool, usize),
}

/// A compiled [`OpDef`].
#[derive(Debug)]
pub(crate) struct OpSpec {
    pub name: String,
    pub def: &'static OpDef,
    pub operands: Vec<(&'static str, Arity)>,
    pub results: Vec<(&'static str, Arity)>,
    pub attrs: Vec<AttrDef>,
    pub implied_operands: Vec<Option<Implied>>,
    pub implied_results: Vec<Option<Implied>>,
    pub format: Vec<Elem>,
}

fn names(list: &'static str) -> Vec<(&'static str, Arity)> {
    list.split_whitespace()
        .map(|n| {
            if let Some(n) = n.strip_suffix('*') {
                (n, Arity::Variadic)
            } else if let Some(n) = n.strip_suffix('?') {
                (n, Arity::Optional)
            } else {
                (n, Arity::One)
            }
        })
        .collect()
}

fn compile(def: &'static OpDef) -> OpSpec {
    let operands = names(def.operands);
    let results = names(def.results);
    let attrs: Vec<AttrDef> = def
        .attrs
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|entry| {
            let (name, rest) = entry.split_once(':').expect("attr entry is name:kind");
            let (kind, default) = match rest.split_once('=') {
                Some((k, d)) => (k.trim(), Some(d.trim())),
                None => (rest.trim(), None),
            };
            let kind = match kind {
                k if k.starts_with('#') => AttrKind::Enum(k),
                "i32" | "i64" | "si32" => AttrKind::Int(kind),
                "bool" | "str" | "any" => AttrKind::Verbatim,
                k => AttrKind::Array(
                    k.strip_prefix("array<")
                        .and_then(|k| k.strip_suffix('>'))
                        .expect("attr kind"),
                ),
            };
            AttrDef {
                name: name.trim(),
                kind,
                default,
            }
        })
        .collect();
    let find = |name: &str| -> (bool, usize) {
        if let Some(i) = operands.iter().position(|(n, _)| *n == name) {
            (false, i)
        } else if let Some(i) = results.iter().position(|(n, _)| *n == name) {
            (true, i)
        } else {
            panic!("tpu.{}: unknown name `{name}` in table", def.name)
        }
    };
    let mut implied_operands: Vec<Option<Implied>> = operands.iter().map(|_| None).collect();
    let mut implied_results: Vec<Option<Implied>> = results.iter().map(|_| None).collect();
    for entry in def.implied.split_whitespace() {
        let (name, source) = entry.split_once('=').expect("implied entry is name=type");
        let implied = match source.strip_prefix('$') {
            Some(other) => {
                let (is_result, i) = find(other);
                Implied::SameAs(is_result, i)
            }
            None => Implied::Fixed(source),
        };
        match find(name) {
            (false, i) => implied_operands[i] = Some(implied),
            (true, i) => implied_results[i] = Some(implied),
        }
    }
    let mut tokens = tokenize_format(def.format).into_iter().peekable();
    let (format, _) = parse_elems(&mut tokens, def, &operands, &results, &attrs);
    OpSpec {
        name: format!("tpu.{}", def.name),
        def,
        operands,
        results,
        attrs,
        implied_operands,
        implied_results,
        format,
    }
}

fn tokenize_format(format: &'static str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut rest = format.trim_start();
    while !rest.is_empty() {
        let len = if let Some(inner) = rest.strip_prefix('`') {
            inner.find('`').expect("closed literal") + 2
        } else if rest.starts_with("type(") || rest.starts_with("functional-type(") {
            rest.find(')').expect("closed directive") + 1
        } else if rest.starts_with(")?") {
            2
        } else if rest.starts_with('(') {
            1
        } else {
            rest.find(|c: char| c.is_whitespace() || c == ')')
                .unwrap_or(rest.len())
        };
        out.push(&rest[..len]);
        rest = rest[len..].trim_start();
    }
    out
}

/// Parses format tokens up to the end or a closing `)?`; returns the
/// elements and the index of the anchor (`^`) among them, if any.
fn parse_elems(
    tokens: &mut std::iter::Peekable<std::vec::IntoIter<&'static str>>,
    def: &OpDef,
    operands: &[(&str, Arity)],
    results: &[(&str, Arity)],
    attrs: &[AttrDef],
) -> (Vec<Elem>, Option<usize>) {
    let mut elems = Vec::new();
    let mut anchor = None;
    while let Some(tok) = tokens.next() {
        if tok == ")?" {
            break;
        }
        let elem = if tok == "(" {
            let (inner, inner_anchor) = parse_elems(tokens, def, operands, results, attrs);
            Elem::Optional {
                elems: inner,
                anchor: inner_anchor
                    .unwrap_or_else(|| panic!("tpu.{}: optional group without anchor", def.name)),
            }
        } else if tok == "attr-dict" {
            Elem::AttrDict
        } else if tok == "functional-type(operands, results)" {
            Elem::FunctionalType
        } else if tok == "type(results)" {
            Elem::ResultTypes
        } else if let Some(lit) = tok.strip_prefix('`') {
            Elem::Literal(&lit[..lit.len() - 1])
        } else if let Some(name) = tok.strip_prefix("type($").and_then(|n| n.strip_suffix(')')) {
            match operands.iter().position(|(n, _)| *n == name) {
                Some(i) => Elem::Type(false, i),
                None => Elem::Type(
                    true,
                    results
                        .iter()
                        .position(|(n, _)| *n == name)
                        .unwrap_or_else(|| panic!("tpu.{}: unknown type({name})", def.name)),
                ),
            }
        } else if let Some(name) = tok.strip_prefix('$') {
            let (name, is_anchor) = match name.strip_suffix('^') {
                Some(n) => (n, true),
                None => (name, false),
            };
            if is_anchor {
                anchor = Some(elems.len());
            }
            match operands.iter().position(|(n, _)| *n == name) {
                Some(i) => Elem::Operand(i),
                None => Elem::Attr(
                    attrs
                        .iter()
                        .position(|a| a.name == name)
                        .unwrap_or_else(|| panic!("tpu.{}: unknown ${name}", def.name)),
                ),
            }
        } else {
            panic!("tpu.{}: bad format token `{tok}`", def.name)
        };
        elems.push(elem);
    }
    (elems, anchor)
}

/// The compiled table, by op name (`tpu.scan`).
pub(crate) fn specs() -> &'static BTreeMap<&'static str, OpSpec> {
    static SPECS: OnceLock<BTreeMap<&'static str, OpSpec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        OPS.iter()
            .map(|def| {
                let spec = compile(def);
                let name: &'static str = Box::leak(spec.name.clone().into_boxed_str());
                (name, spec)
            })
            .collect()
    })
}

/// A dictionary entry: key as written, value as written (`None` for a unit
/// attribute).
pub(crate) type Entry = (String, Option<String>);

/// An op in generic terms: what `"tpu.op"(...) <{...}> {...} : (...) -> ...`
/// spells, operands and types grouped as the op declares them.
#[derive(Debug, Default)]
pub(crate) struct GenericOp {
    pub operands: Vec<Vec<String>>,
    pub operand_types: Vec<Vec<String>>,
    pub result_types: Vec<Vec<String>>,
    /// Inherent attributes (properties), sorted by key.
    pub props: BTreeMap<String, Option<String>>,
    /// Discardable attributes, sorted by key.
    pub attrs: BTreeMap<String, Option<String>>,
}

/// A syntax error: byte offset and what was expected there.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub expected: String,
}

fn expected<T>(lx: &Lexer<'_>, what: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        offset: lx.peek().start,
        expected: what.into(),
    })
}

/// Reads `{key = value, unit_key, ...}` at the cursor.
pub(crate) fn parse_dict(lx: &mut Lexer<'_>) -> Result<Vec<Entry>, SyntaxError> {
    if !lx.eat("{") {
        return expected(lx, "`{`");
    }
    let mut entries = Vec::new();
    if lx.eat("}") {
        return Ok(entries);
    }
    loop {
        let key = lx.peek();
        if !matches!(key.kind, Kind::Ident | Kind::Str) {
            return expected(lx, "an attribute name");
        }
        lx.next_tok();
        let value = if lx.eat("=") {
            let Some((start, end)) = lx.attr_value() else {
                return expected(lx, "an attribute value");
            };
            Some(lx.src[start..end].to_string())
        } else {
            None
        };
        entries.push((lx.text(key).to_string(), value));
        if lx.eat("}") {
            return Ok(entries);
        }
        if !lx.eat(",") {
            return expected(lx, "`,` or `}`");
        }
    }
}

impl OpSpec {
    fn attr_index(&self, name: &str) -> Option<usize> {
        self.attrs.iter().position(|a| a.name == name)
    }

    /// Reads the op in custom syntax, the cursor just after its name.
    pub(crate) fn parse_custom(&self, lx: &mut Lexer<'_>) -> Result<GenericOp, SyntaxError> {
        let mut op = GenericOp {
            operands: vec![Vec::new(); self.operands.len()],
            operand_types: vec![Vec::new(); self.operands.len()],
            result_types: vec![Vec::new(); self.results.len()],
            ..GenericOp::default()
        };
        self.parse_elems(&self.format, lx, &mut op)?;
        // Types the format leaves out.
        for (i, implied) in self.implied_operands.iter().enumerate() {
            let n = op.operands[i].len();
            match implied {
                Some(Implied::Fixed(ty)) => op.operand_types[i] = vec![ty.to_string(); n],
                Some(Implied::SameAs(true, j)) => op.operand_types[i] = op.result_types[*j].clone(),
                Some(Implied::SameAs(false, j)) => {
                    op.operand_types[i] = op.operand_types[*j].clone()
                }
                None => {}
            }
        }
        for (i, implied) in self.implied_results.iter().enumerate() {
            match implied {
                Some(Implied::Fixed(ty)) => op.result_types[i] = vec![ty.to_string()],
                Some(Implied::SameAs(false, j)) => {
                    op.result_types[i] = op.operand_types[*j].clone()
                }
                Some(Implied::SameAs(true, j)) => op.result_types[i] = op.result_types[*j].clone(),
                None => {}
            }
        }
        for (i, (name, _)) in self.operands.iter().enumerate() {
            if op.operand_types[i].len() != op.operands[i].len() {
                return Err(SyntaxError {
                    offset: lx.pos,
                    expected: format!(
                        "{} type(s) for operand group `{name}`, found {}",
                        op.operands[i].len(),
                        op.operand_types[i].len()
                    ),
                });
            }
        }
        // Inherent attributes MLIR fills in with their defaults.
        for attr in &self.attrs {
            if let Some(default) = attr.default {
                op.props
                    .entry(attr.name.to_string())
                    .or_insert_with(|| Some(default.to_string()));
            }
        }
        if self.def.segments {
            let sizes: Vec<String> = op.operands.iter().map(|g| g.len().to_string()).collect();
            op.props.insert(
                "operandSegmentSizes".to_string(),
                Some(format!("array<i32: {}>", sizes.join(", "))),
            );
        }
        Ok(op)
    }

    fn parse_elems(
        &self,
        elems: &[Elem],
        lx: &mut Lexer<'_>,
        op: &mut GenericOp,
    ) -> Result<(), SyntaxError> {
        for elem in elems {
            match elem {
                Elem::Literal(lit) => {
                    if !lx.eat(lit) {
                        return expected(lx, format!("`{lit}`"));
                    }
                }
                Elem::Operand(i) => {
                    let (name, arity) = self.operands[*i];
                    let group = &mut op.operands[*i];
                    if arity == Arity::Variadic {
                        while lx.peek().kind == Kind::Value {
                            let tok = lx.next_tok();
                            group.push(lx.text(tok).to_string());
                            let mut probe = lx.clone();
                            if !(probe.eat(",") && probe.peek().kind == Kind::Value) {
                                break;
                            }
                            lx.eat(",");
                        }
                    } else {
                        let tok = lx.peek();
                        if tok.kind != Kind::Value {
                            return expected(lx, format!("an SSA value for operand `{name}`"));
                        }
                        lx.next_tok();
                        group.push(lx.text(tok).to_string());
                    }
                }
                Elem::Attr(i) => {
                    let attr = &self.attrs[*i];
                    let value = parse_stripped(attr, lx)?;
                    op.props.insert(attr.name.to_string(), Some(value));
                }
                Elem::Type(is_result, i) => {
                    let (name, arity, count) = if *is_result {
                        let (name, arity) = self.results[*i];
                        (name, arity, None)
                    } else {
                        let (name, arity) = self.operands[*i];
                        (name, arity, Some(op.operands[*i].len()))
                    };
                    let types = parse_types(lx, count, arity, name)?;
                    if *is_result {
                        op.result_types[*i] = types;
                    } else {
                        op.operand_types[*i] = types;
                    }
                }
                Elem::FunctionalType => {
                    if !lx.eat("(") {
                        return expected(lx, "`(` of the operand types");
                    }
                    let mut types = Vec::new();
                    if !lx.eat(")") {
                        loop {
                            types.push(one_type(lx)?);
                            if lx.eat(")") {
                                break;
                            }
                            if !lx.eat(",") {
                                return expected(lx, "`,` or `)`");
                            }
                        }
                    }
                    let mut types = types.into_iter();
                    for (i, group) in op.operands.iter().enumerate() {
                        op.operand_types[i] = types.by_ref().take(group.len()).collect();
                    }
                    if lx.peek().kind != Kind::Arrow {
                        return expected(lx, "`->`");
                    }
                    lx.next_tok();
                    let results = if lx.eat("(") {
                        let mut results = Vec::new();
                        if !lx.eat(")") {
                            loop {
                                results.push(one_type(lx)?);
                                if lx.eat(")") {
                                    break;
                                }
                                if !lx.eat(",") {
                                    return expected(lx, "`,` or `)`");
                                }
                            }
                        }
                        results
                    } else {
                        vec![one_type(lx)?]
                    };
                    if results.len() != self.results.len() {
                        return expected(lx, format!("{} result type(s)", self.results.len()));
                    }
                    op.result_types = results.into_iter().map(|t| vec![t]).collect();
                }
                Elem::ResultTypes => {
                    for i in 0..self.results.len() {
                        if i > 0 && !lx.eat(",") {
                            return expected(lx, "`,` between the result types");
                        }
                        op.result_types[i] = vec![one_type(lx)?];
                    }
                }
                Elem::AttrDict => {
                    if lx.peek().kind == Kind::Punct && lx.text(lx.peek()) == "{" {
                        for (key, value) in parse_dict(lx)? {
                            let bare = key.trim_matches('"');
                            if self.attr_index(bare).is_some() {
                                op.props.insert(bare.to_string(), value);
                            } else {
                                op.attrs.insert(key, value);
                            }
                        }
                    }
                }
                Elem::Optional { elems, .. } => {
                    if self.group_starts(&elems[0], lx) {
                        self.parse_elems(elems, lx, op)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether the next token starts an optional group beginning with `first`.
    fn group_starts(&self, first: &Elem, lx: &Lexer<'_>) -> bool {
        let tok = lx.peek();
        let text = lx.text(tok);
        match first {
            Elem::Literal(lit) => tok.kind != Kind::Eof && text == *lit,
            Elem::Operand(_) => tok.kind == Kind::Value,
            Elem::Type(..) => lx.at_type(),
            Elem::Attr(i) => match self.attrs[*i].kind {
                AttrKind::Enum(_) => text == "<",
                AttrKind::Int(_) => tok.kind == Kind::Num || text == "-",
                AttrKind::Array(_) => text == "[",
                AttrKind::Verbatim => !matches!(tok.kind, Kind::Eof | Kind::Punct),
            },
            Elem::AttrDict | Elem::FunctionalType | Elem::ResultTypes | Elem::Optional { .. } => {
                false
            }
        }
    }

    /// Prints the op in custom syntax (the text after the op name), or `None`
    /// when the generic op does not fit the declaration (then it stays generic).
    pub(crate) fn print_custom(&self, op: &GenericOp) -> Option<String> {
        for attr in self.attrs.iter() {
            if attr.default.is_none()
                && self.format_uses_attr(&self.format, attr.name)
                && !self.attr_in_optional(&self.format, attr.name)
                && !op.props.contains_key(attr.name)
            {
                return None;
            }
        }
        let mut printer = Printer {
            out: String::new(),
            space: true,
            punct: false,
        };
        self.print_elems(&self.format, op, &mut printer, true)?;
        Some(printer.out)
    }

    fn format_uses_attr(&self, elems: &[Elem], name: &str) -> bool {
        elems.iter().any(|e| match e {
            Elem::Attr(i) => self.attrs[*i].name == name,
            Elem::Optional { elems, .. } => self.format_uses_attr(elems, name),
            _ => false,
        })
    }

    fn attr_in_optional(&self, elems: &[Elem], name: &str) -> bool {
        elems.iter().any(|e| match e {
            Elem::Optional { elems, .. } => self.format_uses_attr(elems, name),
            _ => false,
        })
    }

    /// The value of attribute `i` when it is set to something else than its
    /// default.
    fn non_default<'o>(&self, op: &'o GenericOp, i: usize) -> Option<&'o str> {
        let attr = &self.attrs[i];
        let value = op.props.get(attr.name)?.as_deref()?;
        (Some(value) != attr.default).then_some(value)
    }

    fn print_elems(
        &self,
        elems: &[Elem],
        op: &GenericOp,
        p: &mut Printer,
        emit: bool,
    ) -> Option<()> {
        for elem in elems {
            match elem {
                Elem::Literal(lit) => p.literal(lit, emit),
                Elem::Operand(i) => p.element(&op.operands[*i].join(", "), emit),
                Elem::Attr(i) => {
                    let text = if emit {
                        let value = op.props.get(self.attrs[*i].name)?.as_deref()?;
                        strip_attr(&self.attrs[*i], value)?
                    } else {
                        String::new()
                    };
                    p.element(&text, emit);
                }
                Elem::Type(true, i) => p.element(&op.result_types[*i].join(", "), emit),
                Elem::Type(false, i) => p.element(&op.operand_types[*i].join(", "), emit),
                Elem::ResultTypes => {
                    let results: Vec<&str> = op
                        .result_types
                        .iter()
                        .flatten()
                        .map(String::as_str)
                        .collect();
                    p.element(&results.join(", "), emit);
                }
                Elem::FunctionalType => {
                    let inputs: Vec<&str> = op
                        .operand_types
                        .iter()
                        .flatten()
                        .map(String::as_str)
                        .collect();
                    let results: Vec<&str> = op
                        .result_types
                        .iter()
                        .flatten()
                        .map(String::as_str)
                        .collect();
                    let results = match results.as_slice() {
                        [one] if !one.starts_with('(') => one.to_string(),
                        many => format!("({})", many.join(", ")),
                    };
                    p.element(&format!("({}) -> {results}", inputs.join(", ")), emit);
                }
                Elem::AttrDict => {
                    let mut shown: BTreeMap<&str, &Option<String>> = BTreeMap::new();
                    for (key, value) in &op.props {
                        let elided = key == "operandSegmentSizes"
                            || self.format_uses_attr(&self.format, key)
                            || self.attr_index(key).is_some_and(|i| {
                                self.attrs[i].default.is_some() && self.non_default(op, i).is_none()
                            });
                        if !elided {
                            shown.insert(key.trim_matches('"'), value);
                        }
                    }
                    for (key, value) in &op.attrs {
                        shown.insert(key.trim_matches('"'), value);
                    }
                    if emit && !shown.is_empty() {
                        let entries: Vec<String> = shown
                            .iter()
                            .map(|(key, value)| {
                                let key = print_key(key);
                                match value {
                                    Some(v) => format!("{key} = {v}"),
                                    None => key,
                                }
                            })
                            .collect();
                        p.out.push_str(&format!(" {{{}}}", entries.join(", ")));
                    }
                    p.punct = false;
                }
                Elem::Optional { elems, anchor } => {
                    let present = emit
                        && match &elems[*anchor] {
                            Elem::Operand(i) => !op.operands[*i].is_empty(),
                            Elem::Attr(i) => self.non_default(op, *i).is_some(),
                            Elem::Type(true, i) => !op.result_types[*i].is_empty(),
                            Elem::Type(false, i) => !op.operand_types[*i].is_empty(),
                            _ => false,
                        };
                    self.print_elems(elems, op, p, present)?;
                }
            }
        }
        Some(())
    }
}

/// A dictionary key as MLIR prints it: bare when it is a bare identifier.
fn print_key(key: &str) -> String {
    let bare = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if bare {
        key.to_string()
    } else {
        format!("\"{key}\"")
    }
}

/// The ODS printer's spacing state (`shouldEmitSpace`, `lastWasPunctuation`),
/// tracked statically through optional groups as the generated C++ does.
struct Printer {
    out: String,
    space: bool,
    punct: bool,
}

impl Printer {
    fn literal(&mut self, lit: &str, emit: bool) {
        let first = lit.chars().next().unwrap_or(' ');
        let space_before = if lit.len() != 1 && lit != "->" {
            true
        } else if self.punct {
            !">)}],".contains(first)
        } else {
            !"<>(){}[],".contains(first)
        };
        if emit {
            if self.space && space_before {
                self.out.push(' ');
            }
            self.out.push_str(lit);
        }
        self.space = lit.len() != 1 || !"<({[".contains(first);
        self.punct = first != '_' && !first.is_ascii_alphabetic();
    }

    fn element(&mut self, text: &str, emit: bool) {
        if emit {
            if self.space || !self.punct {
                self.out.push(' ');
            }
            self.out.push_str(text);
        }
        self.punct = false;
        self.space = true;
    }
}

/// The short form a `$attr` directive prints, from the generic value.
fn strip_attr(attr: &AttrDef, value: &str) -> Option<String> {
    match &attr.kind {
        AttrKind::Enum(prefix) => {
            let body = value.strip_prefix(prefix)?;
            (body.starts_with('<') && body.ends_with('>')).then(|| body.to_string())
        }
        AttrKind::Int(ty) => {
            let number = value.strip_suffix(ty)?.strip_suffix(" : ")?;
            (!number.is_empty() && !number.contains(' ')).then(|| number.to_string())
        }
        AttrKind::Array(ty) => {
            let body = value.strip_prefix("array<")?.strip_suffix('>')?;
            if body == *ty {
                Some("[]".to_string())
            } else {
                let items = body.strip_prefix(ty)?.strip_prefix(": ")?;
                Some(format!("[{items}]"))
            }
        }
        AttrKind::Verbatim => Some(value.to_string()),
    }
}

/// Reads the short form of a `$attr` directive; returns the generic value.
fn parse_stripped(attr: &AttrDef, lx: &mut Lexer<'_>) -> Result<String, SyntaxError> {
    let what = || format!("the value of `{}`", attr.name);
    match &attr.kind {
        AttrKind::Enum(prefix) => {
            if lx.text(lx.peek()) != "<" {
                return expected(lx, format!("`<...>` for {}", what()));
            }
            let Some((start, end)) = lx.balanced_item() else {
                return expected(lx, what());
            };
            Ok(format!("{prefix}{}", &lx.src[start..end]))
        }
        AttrKind::Int(ty) => {
            let negative = lx.eat("-");
            let tok = lx.peek();
            if tok.kind != Kind::Num {
                return expected(lx, format!("an integer for {}", what()));
            }
            lx.next_tok();
            let sign = if negative { "-" } else { "" };
            Ok(format!("{sign}{} : {ty}", lx.text(tok)))
        }
        AttrKind::Array(ty) => {
            if lx.text(lx.peek()) != "[" {
                return expected(lx, format!("`[...]` for {}", what()));
            }
            let Some((start, end)) = lx.balanced_item() else {
                return expected(lx, what());
            };
            let items = lx.src[start + 1..end - 1].trim();
            Ok(if items.is_empty() {
                format!("array<{ty}>")
            } else {
                format!("array<{ty}: {items}>")
            })
        }
        AttrKind::Verbatim => match lx.balanced_item() {
            Some((start, end)) => Ok(lx.src[start..end].to_string()),
            None => expected(lx, what()),
        },
    }
}

fn one_type(lx: &mut Lexer<'_>) -> Result<String, SyntaxError> {
    match lx.ty() {
        Some((start, end)) => Ok(lx.src[start..end].to_string()),
        None => expected(lx, "a type"),
    }
}

/// Reads the types of a `type($x)` directive: `count` of them when the
/// operand group is known, else as many as follow.
fn parse_types(
    lx: &mut Lexer<'_>,
    count: Option<usize>,
    arity: Arity,
    name: &str,
) -> Result<Vec<String>, SyntaxError> {
    let mut types = Vec::new();
    match count {
        Some(n) => {
            for i in 0..n {
                if i > 0 && !lx.eat(",") {
                    return expected(lx, format!("`,` between the types of `{name}`"));
                }
                types.push(one_type(lx)?);
            }
        }
        None if arity == Arity::One => types.push(one_type(lx)?),
        None => {
            while lx.at_type() {
                types.push(one_type(lx)?);
                let mut probe = lx.clone();
                if !(probe.eat(",") && probe.at_type()) {
                    break;
                }
                lx.eat(",");
            }
        }
    }
    Ok(types)
}

/// An op in generic form as MLIR prints it, flat.
#[derive(Debug)]
pub(crate) struct FlatOp {
    pub operands: Vec<String>,
    pub operand_types: Vec<String>,
    pub result_types: Vec<String>,
    pub props: Vec<Entry>,
    pub attrs: Vec<Entry>,
}

/// Reads a generic op after its quoted name; `None` when it has regions or
/// successors, or is not well formed (it then stays as it is).
pub(crate) fn parse_generic(lx: &mut Lexer<'_>) -> Option<FlatOp> {
    let list =
        |lx: &mut Lexer<'_>, close: &str, item: &dyn Fn(&mut Lexer<'_>) -> Option<String>| {
            let mut items = Vec::new();
            if lx.eat(close) {
                return Some(items);
            }
            loop {
                items.push(item(lx)?);
                if lx.eat(close) {
                    return Some(items);
                }
                if !lx.eat(",") {
                    return None;
                }
            }
        };
    let value = |lx: &mut Lexer<'_>| {
        let tok = lx.next_tok();
        (tok.kind == Kind::Value).then(|| lx.text(tok).to_string())
    };
    let ty = |lx: &mut Lexer<'_>| one_type(lx).ok();
    if !lx.eat("(") {
        return None;
    }
    let operands = list(lx, ")", &value)?;
    let mut props = Vec::new();
    let mut probe = lx.clone();
    if probe.eat("<") && probe.peek().kind == Kind::Punct && probe.text(probe.peek()) == "{" {
        props = parse_dict(&mut probe).ok()?;
        if !probe.eat(">") {
            return None;
        }
        *lx = probe;
    }
    let mut attrs = Vec::new();
    if lx.text(lx.peek()) == "{" {
        attrs = parse_dict(lx).ok()?;
    }
    if !lx.eat(":") || !lx.eat("(") {
        return None;
    }
    let operand_types = list(lx, ")", &ty)?;
    if lx.next_tok().kind != Kind::Arrow {
        return None;
    }
    let result_types = if lx.eat("(") {
        list(lx, ")", &ty)?
    } else {
        vec![ty(lx)?]
    };
    Some(FlatOp {
        operands,
        operand_types,
        result_types,
        props,
        attrs,
    })
}

/// Splits `total` values into the declared groups: by `operandSegmentSizes`
/// when given, else with at most one variadic or optional group taking the
/// rest.
fn group_sizes(
    groups: &[(&str, Arity)],
    total: usize,
    segments: Option<&str>,
) -> Option<Vec<usize>> {
    if let Some(segments) = segments {
        let body = segments.strip_prefix("array<i32")?.strip_suffix('>')?;
        let sizes: Vec<usize> = match body.strip_prefix(": ") {
            Some(items) => items
                .split(", ")
                .map(|s| s.parse().ok())
                .collect::<Option<_>>()?,
            None if body.is_empty() => Vec::new(),
            None => return None,
        };
        let fits = sizes.len() == groups.len()
            && sizes.iter().sum::<usize>() == total
            && sizes
                .iter()
                .zip(groups)
                .all(|(&n, (_, arity))| match arity {
                    Arity::One => n == 1,
                    Arity::Optional => n <= 1,
                    Arity::Variadic => true,
                });
        return fits.then_some(sizes);
    }
    let fixed = groups.iter().filter(|(_, a)| *a == Arity::One).count();
    let open: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].1 != Arity::One)
        .collect();
    match open.as_slice() {
        [] => (total == fixed).then(|| vec![1; groups.len()]),
        [i] => {
            let rest = total.checked_sub(fixed)?;
            if groups[*i].1 == Arity::Optional && rest > 1 {
                return None;
            }
            Some(
                (0..groups.len())
                    .map(|j| if j == *i { rest } else { 1 })
                    .collect(),
            )
        }
        // Several variadic groups without segment sizes: ODS then requires
        // `SameVariadicOperandSize`, an equal split.
        many if many.iter().all(|&i| groups[i].1 == Arity::Variadic) => {
            let rest = total.checked_sub(fixed)?;
            if rest % many.len() != 0 {
                return None;
            }
            let each = rest / many.len();
            Some(
                groups
                    .iter()
                    .map(|(_, a)| if *a == Arity::One { 1 } else { each })
                    .collect(),
            )
        }
        _ => None,
    }
}

fn split<T: Clone>(items: &[T], sizes: &[usize]) -> Vec<Vec<T>> {
    let mut rest = items;
    sizes
        .iter()
        .map(|&n| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        })
        .collect()
}

impl OpSpec {
    /// Groups a flat generic op by this declaration; `None` if it does not fit.
    pub(crate) fn group(&self, flat: FlatOp) -> Option<GenericOp> {
        if flat.operands.len() != flat.operand_types.len() {
            return None;
        }
        let props: BTreeMap<String, Option<String>> = flat.props.into_iter().collect();
        let segments = props.get("operandSegmentSizes").cloned().flatten();
        if self.def.segments != segments.is_some() {
            return None;
        }
        let sizes = group_sizes(&self.operands, flat.operands.len(), segments.as_deref())?;
        let result_sizes = group_sizes(&self.results, flat.result_types.len(), None)?;
        // Every inherent attribute must be one this declaration knows, and
        // the types the format leaves out must be the implied ones.
        if props
            .keys()
            .any(|k| k != "operandSegmentSizes" && self.attr_index(k).is_none())
        {
            return None;
        }
        let op = GenericOp {
            operands: split(&flat.operands, &sizes),
            operand_types: split(&flat.operand_types, &sizes),
            result_types: split(&flat.result_types, &result_sizes),
            props,
            attrs: flat.attrs.into_iter().collect(),
        };
        for (i, implied) in self.implied_operands.iter().enumerate() {
            let want: Vec<String> = match implied {
                Some(Implied::Fixed(ty)) => vec![ty.to_string(); op.operands[i].len()],
                Some(Implied::SameAs(true, j)) => op.result_types[*j].clone(),
                Some(Implied::SameAs(false, j)) => op.operand_types[*j].clone(),
                None => continue,
            };
            if op.operand_types[i] != want {
                return None;
            }
        }
        Some(op)
    }
}

/// Writes a generic op: `"tpu.op"(%a) <{...}> {...} : (t) -> r`.
pub(crate) fn write_generic(name: &str, op: &GenericOp) -> String {
    let dict = |entries: &BTreeMap<String, Option<String>>| {
        entries
            .iter()
            .map(|(k, v)| match v {
                Some(v) => format!("{k} = {v}"),
                None => k.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!(
        "\"{name}\"({})",
        op.operands
            .iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !op.props.is_empty() {
        out.push_str(&format!(" <{{{}}}>", dict(&op.props)));
    }
    if !op.attrs.is_empty() {
        out.push_str(&format!(" {{{}}}", dict(&op.attrs)));
    }
    let results: Vec<&String> = op.result_types.iter().flatten().collect();
    let results = match results.as_slice() {
        [one] if !one.starts_with('(') => one.to_string(),
        many => format!(
            "({})",
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    out.push_str(&format!(
        " : ({}) -> {results}",
        op.operand_types
            .iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out
}
