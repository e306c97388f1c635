//! Types as the verifier sees them: parsed from MLIR's printed form (the
//! `tpu` types and attributes are pass-through text in our context), and the
//! ODS type-constraint summaries of the op table as predicates.

/// A type, structurally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// `vector<8x128xf32>` (scalable dims count as their size).
    Vector { shape: Vec<i64>, elem: String },
    /// `memref<8x128xf32, #tpu.tiled<...>, #tpu.memory_space<vmem>>`.
    MemRef {
        shape: Vec<i64>,
        elem: String,
        layout: Option<String>,
        space: Option<Space>,
    },
    /// `memref<*xf32>`.
    UnrankedMemRef,
    /// Anything else, by its text (`i32`, `index`, `f32`, `tensor<...>`).
    Other(String),
}

/// A `#tpu.memory_space<name[, core]>`, or a memory space we cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Space {
    /// `vmem`, `smem`, ... (the whole text when it is not a `tpu` memory space).
    pub name: String,
    /// `tc`, `sc_scalar_subcore`, `sc_vector_subcore`.
    pub core: Option<String>,
}

/// Dynamic dimension marker.
pub(crate) const DYN: i64 = i64::MIN;

pub(crate) use super::vocab::split_top;

/// Shape prefix `8x128x` then the rest (element type and, for memrefs, more).
fn shape_and_rest(body: &str) -> (Vec<i64>, &str) {
    let mut shape = Vec::new();
    let mut rest = body;
    loop {
        let end = rest.find('x');
        let Some(end) = end else { break };
        let dim = rest[..end].trim_matches(|c| c == '[' || c == ']');
        if dim == "?" {
            shape.push(DYN);
        } else if let Ok(n) = dim.parse::<i64>() {
            shape.push(n);
        } else {
            break;
        }
        rest = &rest[end + 1..];
    }
    (shape, rest)
}

impl Ty {
    /// Parses MLIR's printed form of a type.
    pub(crate) fn parse(text: &str) -> Ty {
        if let Some(body) = text
            .strip_prefix("vector<")
            .and_then(|b| b.strip_suffix('>'))
        {
            let (shape, rest) = shape_and_rest(body);
            return Ty::Vector {
                shape,
                elem: rest.trim().to_string(),
            };
        }
        if let Some(body) = text
            .strip_prefix("memref<")
            .and_then(|b| b.strip_suffix('>'))
        {
            if body.starts_with('*') {
                return Ty::UnrankedMemRef;
            }
            let (shape, rest) = shape_and_rest(body);
            let parts = split_top(rest);
            let elem = parts.first().copied().unwrap_or("").to_string();
            let mut layout = None;
            let mut space = None;
            for p in parts.iter().skip(1) {
                if let Some(inner) = p
                    .strip_prefix("#tpu.memory_space<")
                    .and_then(|x| x.strip_suffix('>'))
                {
                    let mut it = inner.split(',').map(str::trim);
                    space = Some(Space {
                        name: it.next().unwrap_or("").to_string(),
                        core: it.next().map(str::to_string),
                    });
                } else if layout.is_none() && space.is_none() {
                    layout = Some(p.to_string());
                } else {
                    space = Some(Space {
                        name: p.to_string(),
                        core: None,
                    });
                }
            }
            return Ty::MemRef {
                shape,
                elem,
                layout,
                space,
            };
        }
        Ty::Other(text.to_string())
    }

    /// Shape of a vector or ranked memref.
    pub(crate) fn shape(&self) -> Option<&[i64]> {
        match self {
            Ty::Vector { shape, .. } | Ty::MemRef { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// Rank of a vector or ranked memref.
    pub(crate) fn rank(&self) -> Option<usize> {
        self.shape().map(<[i64]>::len)
    }

    /// Element type of a vector or memref, the type itself for a scalar.
    pub(crate) fn elem(&self) -> &str {
        match self {
            Ty::Vector { elem, .. } | Ty::MemRef { elem, .. } => elem,
            Ty::UnrankedMemRef => "",
            Ty::Other(t) => t,
        }
    }

    /// The memory space of a memref.
    pub(crate) fn space(&self) -> Option<&Space> {
        match self {
            Ty::MemRef { space, .. } => space.as_ref(),
            _ => None,
        }
    }

    /// The layout of a memref (`#tpu.tiled<...>`, an affine map, ...).
    pub(crate) fn layout(&self) -> Option<&str> {
        match self {
            Ty::MemRef { layout, .. } => layout.as_deref(),
            _ => None,
        }
    }

    /// Whether a memref has Mosaic's tiled layout (`#tpu.tiled<...>`).
    pub(crate) fn is_tiled(&self) -> bool {
        self.layout().is_some_and(|l| tiled_mnemonic(l).is_some())
    }

    /// The tiles of a memref's tiled layout, outermost first (`[[8, 128],
    /// [2, 1]]` for `#tpu.tiled<(8,128)(2,1),[1,1]>`); `None` without a tiled
    /// layout, or when a tile size is not a plain integer.
    pub(crate) fn tiles(&self) -> Option<Vec<Vec<i64>>> {
        tiles(tiled_mnemonic(self.layout()?)?)
    }

    /// The tile strides of a memref's tiled layout, one per dimension
    /// (`None` for a dynamic `?` stride): `[1, 1]` for
    /// `#tpu.tiled<(8,128),[1,1]>`; `None` without a readable tiled layout.
    pub(crate) fn tile_strides(&self) -> Option<Vec<Option<i64>>> {
        tile_strides(tiled_mnemonic(self.layout()?)?)
    }

    pub(crate) fn is_vector(&self) -> bool {
        matches!(self, Ty::Vector { .. })
    }

    pub(crate) fn is_memref(&self) -> bool {
        matches!(self, Ty::MemRef { .. })
    }
}

/// The text after `#tpu.tiled` of a tiled layout (`<(8,128),[1,1]>`).
fn tiled_mnemonic(layout: &str) -> Option<&str> {
    let rest = layout.strip_prefix("#tpu.tiled")?;
    rest.trim_start().starts_with('<').then_some(rest)
}

/// The tiles of `<(8,128)(2,1),[1,1]>`, as MLIR accepted them (jaxlib's
/// grammar; the text is kept verbatim, so there may be spaces).
fn tiles(body: &str) -> Option<Vec<Vec<i64>>> {
    let mut rest = body.trim_start().strip_prefix('<')?.trim_start();
    let mut tiles = Vec::new();
    while let Some(inner) = rest.strip_prefix('(') {
        let end = inner.find(')')?;
        let dims = &inner[..end];
        let tile = if dims.trim().is_empty() {
            Vec::new()
        } else {
            dims.split(',').map(integer).collect::<Option<Vec<i64>>>()?
        };
        tiles.push(tile);
        rest = inner[end + 1..].trim_start();
    }
    Some(tiles)
}

/// The strides after the tiles of `<(8,128)(2,1),[1,1]>` (`?` is dynamic).
fn tile_strides(body: &str) -> Option<Vec<Option<i64>>> {
    let mut rest = body.trim_start().strip_prefix('<')?.trim_start();
    while let Some(inner) = rest.strip_prefix('(') {
        let end = inner.find(')')?;
        rest = inner[end + 1..].trim_start();
    }
    let list = rest
        .strip_prefix(',')?
        .trim_start()
        .strip_prefix('[')?
        .split(']')
        .next()?;
    if list.trim().is_empty() {
        return Some(Vec::new());
    }
    list.split(',')
        .map(|s| match s.trim() {
            "?" => Some(None),
            s => integer(s).map(Some),
        })
        .collect()
}

/// An MLIR integer literal as `parseInteger` reads it into an `int64_t`
/// (`-8`, `0x10`; `true` and `false` are the 1-bit integers -1 and 0).
fn integer(text: &str) -> Option<i64> {
    let text = text.trim();
    match text {
        "true" => return Some(-1),
        "false" => return Some(0),
        _ => {}
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d.trim_start()),
        None => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    let value = if negative {
        0i64.checked_sub_unsigned(magnitude)?
    } else {
        i64::try_from(magnitude).ok()?
    };
    Some(value)
}

/// Bit width of a scalar type (`i32` 32, `bf16` 16, `index` 64), `None` if unknown.
pub(crate) fn bitwidth(elem: &str) -> Option<u32> {
    match elem {
        "index" => Some(64),
        "bf16" | "f16" => Some(16),
        "f32" | "tf32" => Some(32),
        "f64" => Some(64),
        e if e.starts_with("f8") || e.starts_with("!tpu.float8") => Some(8),
        e if e.starts_with("f4") => Some(4),
        e if e.starts_with("f6") => Some(6),
        e => {
            let digits = e
                .strip_prefix("si")
                .or_else(|| e.strip_prefix("ui"))
                .or_else(|| e.strip_prefix('i'))?;
            digits.parse().ok()
        }
    }
}

pub(crate) fn is_float(elem: &str) -> bool {
    matches!(
        elem,
        "bf16" | "f16" | "f32" | "f64" | "tf32" | "f80" | "f128"
    ) || elem.starts_with("f8")
        || elem.starts_with("f4")
        || elem.starts_with("f6")
}

pub(crate) fn is_integer(elem: &str) -> bool {
    let digits = elem
        .strip_prefix("si")
        .or_else(|| elem.strip_prefix("ui"))
        .or_else(|| elem.strip_prefix('i'));
    digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

pub(crate) fn is_signless_integer(elem: &str) -> bool {
    elem.starts_with('i') && is_integer(elem)
}

/// One scalar alternative of a summary (`32-bit signless integer`, `bfloat16 type`, `integer`, ...).
fn scalar_matches(phrase: &str, elem: &str) -> Option<bool> {
    let phrase = phrase.trim();
    Some(match phrase {
        "index" => elem == "index",
        "integer" => is_integer(elem),
        "signless integer" => is_signless_integer(elem),
        "floating-point" => is_float(elem),
        "bfloat16 type" => elem == "bf16",
        "any non-token type" | "any type" => elem != "!tpu.token",
        _ => {
            if let Some(w) = phrase.strip_suffix("-bit signless integer") {
                elem == format!("i{w}")
            } else if let Some(w) = phrase.strip_suffix("-bit signed integer") {
                elem == format!("si{w}")
            } else if let Some(w) = phrase.strip_suffix("-bit unsigned integer") {
                elem == format!("ui{w}")
            } else if let Some(w) = phrase.strip_suffix("-bit float") {
                match w {
                    "16" => elem == "f16",
                    "32" => elem == "f32",
                    "64" => elem == "f64",
                    _ => return None,
                }
            } else if phrase.is_empty() {
                // The semaphore types have an empty summary.
                elem == "!tpu.semaphore" || elem == "!tpu.dma_semaphore"
            } else {
                return None;
            }
        }
    })
}

/// Element alternatives `A or B or C`, each a scalar phrase.
fn elems_match(list: &str, elem: &str) -> Option<bool> {
    let mut any = false;
    for alt in list.split(" or ") {
        any |= scalar_matches(alt, elem)?;
    }
    Some(any)
}

/// `ranks 1` / `ranks 2/3`.
fn ranks_match(ranks: &str, rank: usize) -> bool {
    ranks
        .split('/')
        .any(|r| r.trim().parse::<usize>().ok() == Some(rank))
}

/// One top-level alternative of a summary.
fn alt_matches(alt: &str, ty: &Ty, example: Option<&Ty>) -> Option<bool> {
    let alt = alt.trim();
    if alt == "native-sized vreg" {
        return Some(matches!(ty, Ty::Vector { shape, .. } if !shape.is_empty()));
    }
    if let Some(ranks) = alt
        .strip_prefix(" of ranks ")
        .or_else(|| alt.strip_prefix("of ranks "))
    {
        return Some(matches!(ty, Ty::Vector { shape, .. } if ranks_match(ranks, shape.len())));
    }
    for (prefix, want_vector) in [("vector of ", true), ("memref of ", false)] {
        if let Some(body) = alt.strip_prefix(prefix) {
            let (elems, ranks) = match body.split_once(" values") {
                Some((e, r)) => (e, r.trim().strip_prefix("of ranks ")),
                None => return None,
            };
            let kind_ok = if want_vector {
                matches!(ty, Ty::Vector { shape, .. } if !shape.is_empty())
            } else {
                ty.is_memref()
            };
            if !kind_ok {
                return Some(false);
            }
            if let Some(r) = ranks
                && !ranks_match(r, ty.rank().unwrap_or(0))
            {
                return Some(false);
            }
            if elems.trim().is_empty() {
                // `memref of  values`: one semaphore type, the example's.
                return Some(match example {
                    Some(ex) => ex.elem() == ty.elem(),
                    None => scalar_matches("", ty.elem())?,
                });
            }
            if elems.trim() == "or" {
                return scalar_matches("", ty.elem());
            }
            return elems_match(elems, ty.elem());
        }
    }
    match ty {
        Ty::Other(t) => elems_match(alt, t),
        _ => {
            // A scalar phrase never matches a shaped type, if we know the phrase.
            elems_match(alt, "\u{0}").map(|_| false)
        }
    }
}

/// Does `ty` satisfy the summary? `None` when the summary is not understood
/// (then the verifier accepts, never rejecting what jaxlib may accept).
pub(crate) fn satisfies(summary: &str, ty: &Ty, example: Option<&Ty>) -> Option<bool> {
    let summary = summary.strip_prefix("variadic of ").unwrap_or(summary);
    // Top-level alternatives: split before `vector of` / `memref of`, and scalar `A or B`.
    let mut alts: Vec<&str> = Vec::new();
    let mut rest = summary;
    loop {
        let cut = [" or vector of ", " or memref of "]
            .iter()
            .filter_map(|p| rest.find(p).map(|i| (i, p.len() - "vector of ".len())))
            .min();
        match cut {
            Some((i, skip)) => {
                alts.push(&rest[..i]);
                rest = &rest[i + skip..];
            }
            None => {
                alts.push(rest);
                break;
            }
        }
    }
    let mut any = false;
    for alt in alts {
        let alt = alt.trim_start_matches(" or ").trim_start_matches("or ");
        if alt.starts_with("vector of ")
            || alt.starts_with("memref of ")
            || alt.contains("ranks")
            || alt == "native-sized vreg"
        {
            any |= alt_matches(alt, ty, example)?;
        } else {
            // Scalar alternatives `A or B`.
            any |= alt_matches(alt, ty, example)?;
        }
    }
    Some(any)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        let v = Ty::parse("vector<8x128xf32>");
        let m = Ty::parse("memref<8x128xf32, #tpu.memory_space<vmem>>");
        let i = Ty::parse("index");
        assert_eq!(
            satisfies("vector of any non-token type values", &v, None),
            Some(true)
        );
        assert_eq!(
            satisfies("vector of any non-token type values", &m, None),
            Some(false)
        );
        assert_eq!(
            satisfies("memref of any non-token type values", &m, None),
            Some(true)
        );
        assert_eq!(satisfies("variadic of index", &i, None), Some(true));
        assert_eq!(
            satisfies("variadic of index", &Ty::parse("i32"), None),
            Some(false)
        );
        assert_eq!(
            satisfies(
                "memref of 32-bit signless integer values or vector of 32-bit signless integer values of ranks 1",
                &Ty::parse("vector<16xi32>"),
                None
            ),
            Some(true)
        );
        assert_eq!(
            satisfies(
                "memref of 32-bit signless integer values or vector of 32-bit signless integer values of ranks 1",
                &Ty::parse("vector<8x128xi32>"),
                None
            ),
            Some(false)
        );
        let sem = Ty::parse("memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>");
        let dma = Ty::parse("memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>");
        assert_eq!(satisfies("memref of  or  values", &sem, None), Some(true));
        assert_eq!(
            satisfies("memref of  values", &dma, Some(&sem)),
            Some(false)
        );
        assert_eq!(
            satisfies("index or integer", &Ty::parse("i8"), None),
            Some(true)
        );
        assert_eq!(
            satisfies(
                "signless integer or vector of signless integer values",
                &Ty::parse("vector<8xi32>"),
                None
            ),
            Some(true)
        );
        assert_eq!(satisfies(" of ranks 2", &v, None), Some(true));
        assert_eq!(m.space().map(|s| s.name.as_str()), Some("vmem"));
    }

    #[test]
    fn tiled_layouts() {
        let tiled = |layout: &str| {
            Ty::parse(&format!(
                "memref<8x128xf32, {layout}, #tpu.memory_space<vmem>>"
            ))
        };
        let t = tiled("#tpu.tiled<(8,128)(2,1),[1,1]>");
        assert!(t.is_tiled());
        assert_eq!(t.tiles(), Some(vec![vec![8, 128], vec![2, 1]]));
        assert_eq!(t.space().map(|s| s.name.as_str()), Some("vmem"));
        let spaced = tiled("#tpu.tiled< ( 8 , 0x80 ) () ( - 2 ) , [ 1 , 1 ] >");
        assert_eq!(spaced.tiles(), Some(vec![vec![8, 128], vec![], vec![-2]]));
        assert_eq!(tiled("#tpu.tiled<,[1,1]>").tiles(), Some(vec![]));
        let bools = tiled("#tpu.tiled<(true,false),[1,1]>");
        assert_eq!(bools.tiles(), Some(vec![vec![-1, 0]]));
        assert_eq!(tiled("#tpu.tiled<(x,1),[1,1]>").tiles(), None);
        assert!(tiled("#tpu.tiled<(x,1),[1,1]>").is_tiled());
        assert_eq!(t.tile_strides(), Some(vec![Some(1), Some(1)]));
        assert_eq!(spaced.tile_strides(), Some(vec![Some(1), Some(1)]));
        let dynamic = tiled("#tpu.tiled<,[?,1]>");
        assert_eq!(dynamic.tile_strides(), Some(vec![None, Some(1)]));
        let strided = tiled("strided<[128, 1]>");
        assert!(!strided.is_tiled());
        assert_eq!(strided.tiles(), None);
        assert!(!Ty::parse("memref<8x128xf32, #tpu.memory_space<vmem>>").is_tiled());
    }
}
