//! The Mosaic (`tpu` dialect) vocabulary every layer shares: the memory
//! spaces, the nesting limit of MLIR text, and the text scanners that run on
//! every kernel before MLIR sees it. A leaf: it imports no other module of
//! the crate.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A memory space of the Mosaic `tpu` dialect (`#tpu.memory_space<...>`), as
/// kernel memrefs carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TpuMemorySpace {
    /// `any` (the compiler picks).
    Any,
    /// `vmem`.
    Vmem,
    /// `smem`.
    Smem,
    /// `hbm`.
    Hbm,
    /// `cmem` (only chips with CMEM: v4, v4i).
    Cmem,
    /// `semaphore_mem`.
    SemaphoreMem,
    /// `vmem_shared`, SparseCore shared VMEM (Pallas `VMEM_SHARED`).
    VmemShared,
    /// `host`.
    Host,
}

impl TpuMemorySpace {
    /// Every space, in the dialect's enum order.
    pub const ALL: [TpuMemorySpace; 8] = [
        TpuMemorySpace::Any,
        TpuMemorySpace::Vmem,
        TpuMemorySpace::Smem,
        TpuMemorySpace::Hbm,
        TpuMemorySpace::Cmem,
        TpuMemorySpace::SemaphoreMem,
        TpuMemorySpace::VmemShared,
        TpuMemorySpace::Host,
    ];

    /// The keyword inside `#tpu.memory_space<...>`.
    pub const fn keyword(self) -> &'static str {
        match self {
            TpuMemorySpace::Any => "any",
            TpuMemorySpace::Vmem => "vmem",
            TpuMemorySpace::Smem => "smem",
            TpuMemorySpace::Hbm => "hbm",
            TpuMemorySpace::Cmem => "cmem",
            TpuMemorySpace::SemaphoreMem => "semaphore_mem",
            TpuMemorySpace::VmemShared => "vmem_shared",
            TpuMemorySpace::Host => "host",
        }
    }
}

/// How deep brackets (`(`, `[`, `{`, `<`) may nest in MLIR text, counting
/// what an alias reference (`#map`, `!t0`) stands for as nested at the point
/// of use. MLIR 22's parser, printer and verifier recurse per level and
/// overflow the stack (an abort), measured with `tpu-custom-call kernel`:
/// 100,000 nested `[` or 3,000 nested regions on an 8 MiB stack; 30,000
/// nested `tuple<`, `memref<2x`, `tensor<2x` on 8 MiB and 4,000 nested `tuple<`
/// on 2 MiB; a chain of 100,000 aliases `#a1 = [#a0]` on 8 MiB and of 10,000
/// on 2 MiB (each alias is shallow, the attribute it builds is not). The
/// limit leaves room on a 2 MiB thread (Rust's default for spawned threads);
/// the JAX goldens nest at most 15 deep. Bytecode has the same limit on the
/// depth of attribute and type references
/// (the bytecode transcoder's `MAX_REFERENCE_DEPTH`).
pub const MAX_TEXT_NESTING: usize = 200;

/// The memory spaces of Mosaic's `#tpu.memory_space<...>` attribute, as
/// jaxlib 0.12 parses them (checked with `scripts/jaxref/memory_spaces.py`;
/// any other value is a parse error there): the keywords of
/// [`TpuMemorySpace::ALL`], in the dialect's order.
pub const MEMORY_SPACES: [&str; 8] = {
    let mut names = [""; 8];
    let mut i = 0;
    while i < names.len() {
        names[i] = TpuMemorySpace::ALL[i].keyword();
        i += 1;
    }
    names
};

/// An unknown memory space found in text.
pub struct UnknownMemorySpaceAt {
    /// Byte offset of the `#`.
    pub offset: usize,
    /// The value between `<` and `>`.
    pub value: String,
}

/// The first `#tpu.memory_space<X>` (or `<X, core type>`) outside string
/// literals whose `X` is not one of [`MEMORY_SPACES`].
pub fn find_unknown_memory_space(text: &[u8]) -> Option<UnknownMemorySpaceAt> {
    // Fast path (this runs on every kernel text): when every occurrence,
    // strings included, names a known space, there is nothing to find.
    let all_known = memchr::memmem::find_iter(text, MEMORY_SPACE_PREFIX)
        .all(|at| is_known_memory_space(memory_space_value(text, at)));
    if all_known {
        return None;
    }
    find_unknown_memory_space_outside_strings(text)
}

const MEMORY_SPACE_PREFIX: &[u8] = b"#tpu.memory_space<";

/// The text between `<` and `>` of the `#tpu.memory_space<...>` at `at`.
fn memory_space_value(text: &[u8], at: usize) -> &[u8] {
    let value = &text[at + MEMORY_SPACE_PREFIX.len()..];
    &value[..memchr::memchr(b'>', value).unwrap_or(value.len())]
}

/// Whether a memory-space value names one of [`MEMORY_SPACES`]
/// (`<vmem, sc_vector_subcore>`: the space, then a core type).
fn is_known_memory_space(value: &[u8]) -> bool {
    let space = value.split(|&b| b == b',').next().unwrap_or_default();
    MEMORY_SPACES
        .iter()
        .any(|m| m.as_bytes() == space.trim_ascii())
}

/// [`find_unknown_memory_space`] by a full scan that skips string literals.
fn find_unknown_memory_space_outside_strings(text: &[u8]) -> Option<UnknownMemorySpaceAt> {
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' if text[i..].starts_with(MEMORY_SPACE_PREFIX) => {
                let value = memory_space_value(text, i);
                if !is_known_memory_space(value) {
                    return Some(UnknownMemorySpaceAt {
                        offset: i,
                        value: String::from_utf8_lossy(value).into_owned(),
                    });
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where text first nests deeper than a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeepAt {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// Finds the first place where `text` nests deeper than `limit` (brackets
/// outside string literals and comments, `->` not closing anything, alias
/// references counting their definition's depth); `Ok(max depth)` otherwise.
pub fn text_nesting(text: &[u8], limit: usize) -> Result<usize, TooDeepAt> {
    let mut scan = NestingScan::new(text, limit);
    let mut i = 0;
    while i < text.len() {
        i = scan.step(i)?;
    }
    Ok(scan.max)
}

/// [`text_nesting`]'s verdict without the maximum depth, several times
/// faster on kernel text. The text is taken 32 bytes at a time: strings
/// closed within the chunk are masked out (prefix XOR of the quotes), and the
/// brackets of the run before the first byte the exact scan must see (a
/// comment start, an alias reference where aliases matter, a string left
/// open or holding a backslash) are counted at once when they cannot cross `limit`;
/// everything else goes through the same exact scan, so the error position is
/// the same.
pub fn check_text_nesting(text: &[u8], limit: usize) -> Result<(), TooDeepAt> {
    let mut scan = NestingScan::new(text, limit);
    let mut i = 0;
    while i < text.len() {
        if scan.defining.is_none()
            && let Some(chunk) = text.get(i..i + 32)
            && (i == 0 || text[i - 1] != b'-')
        {
            let m = chunk_masks(chunk);
            // Bytes inside a string: from an opening quote up to (not
            // including) its closing one. The chunk starts outside a string.
            // A backslash may escape a quote: then every quote is left to the
            // exact scan.
            let (inside, quotes) = if m.backslashes == 0 {
                (prefix_xor(m.quotes), 0)
            } else {
                (0, m.quotes)
            };
            // A string still open at the chunk's end ends the run at its
            // opening quote (the exact scan takes the string from there).
            let open_string = if inside & 0x8000_0000 != 0 {
                1 << (31 - m.quotes.leading_zeros())
            } else {
                0
            };
            let closes_all = (m.closes & !inside).count_ones() as usize;
            // `#name` / `!name` matter only where an alias could be defined
            // (depth 0) or used (some alias defined): with no alias so far and
            // a depth no close in this chunk can bring to 0, they are plain.
            let plain_references = scan.aliases.is_empty() && scan.depth > closes_all;
            let mut special = m.slashes & !inside | quotes | open_string;
            if !plain_references {
                special |= m.references & !inside;
            }
            // The run before the first special byte (the whole chunk if none).
            let run = special.trailing_zeros() as usize;
            let in_run = if run == 32 {
                u32::MAX
            } else {
                (1u32 << run) - 1
            } & !inside;
            let (opens, closes) = (
                (m.opens & in_run).count_ones() as usize,
                (m.closes & in_run).count_ones() as usize,
            );
            if run > 0 && scan.depth + opens <= limit && scan.depth >= closes {
                scan.depth = scan.depth + opens - closes;
                i += run;
                continue;
            }
        }
        i = scan.step(i)?;
    }
    Ok(())
}

/// Bit k set when an odd number of bits 0..=k of `x` are set.
fn prefix_xor(mut x: u32) -> u32 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x
}

/// Bit masks (bit k = byte k) of a 32-byte chunk, for the nesting check.
struct ChunkMasks {
    /// `(`, `[`, `{`, `<`.
    opens: u32,
    /// `)`, `]`, `}`, `>` (not the `>` of a `->` inside the chunk).
    closes: u32,
    /// `"`.
    quotes: u32,
    /// `\` (an escape: the exact scan takes over).
    backslashes: u32,
    /// `/` (a comment may start).
    slashes: u32,
    /// `#`, `!` (alias definitions and uses). Newlines matter only while an
    /// alias is being defined, when the exact scan runs.
    references: u32,
}

fn chunk_masks(chunk: &[u8]) -> ChunkMasks {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        debug_assert_eq!(chunk.len(), 32);
        // SAFETY: SSE2 is part of x86_64; `chunk` holds 32 readable bytes
        // (the two unaligned loads read exactly those).
        unsafe {
            let lo = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let hi = _mm_loadu_si128(chunk.as_ptr().add(16).cast::<__m128i>());
            let any = |cs: &[u8]| {
                let half = |v: __m128i| {
                    let mut m = _mm_cmpeq_epi8(v, _mm_set1_epi8(cs[0] as i8));
                    for &c in &cs[1..] {
                        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)));
                    }
                    _mm_movemask_epi8(m) as u32
                };
                half(lo) | half(hi) << 16
            };
            let arrows = (any(b"-") << 1) & any(b">");
            ChunkMasks {
                opens: any(b"([{<"),
                closes: any(b")]}>") & !arrows,
                quotes: any(b"\""),
                backslashes: any(b"\\"),
                slashes: any(b"/"),
                references: any(b"#!"),
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mask = |cs: &[u8]| {
            chunk
                .iter()
                .enumerate()
                .filter(|(_, b)| cs.contains(b))
                .fold(0u32, |m, (k, _)| m | 1 << k)
        };
        let arrows = (mask(b"-") << 1) & mask(b">");
        ChunkMasks {
            opens: mask(b"([{<"),
            closes: mask(b")]}>") & !arrows,
            quotes: mask(b"\""),
            backslashes: mask(b"\\"),
            slashes: mask(b"/"),
            references: mask(b"#!"),
        }
    }
}

/// The exact nesting scan's state: one token at a time.
struct NestingScan<'t> {
    text: &'t [u8],
    limit: usize,
    aliases: HashMap<&'t [u8], usize, BuildHasherDefault<AliasHasher>>,
    /// The alias being defined (`#name = ...` at depth 0) and its depth so far.
    defining: Option<(&'t [u8], usize)>,
    depth: usize,
    max: usize,
}

impl<'t> NestingScan<'t> {
    fn new(text: &'t [u8], limit: usize) -> Self {
        NestingScan {
            text,
            limit,
            aliases: HashMap::default(),
            defining: None,
            depth: 0,
            max: 0,
        }
    }

    fn too_deep(&self, offset: usize) -> TooDeepAt {
        let before = &self.text[..offset.min(self.text.len())];
        let line = memchr::memchr_iter(b'\n', before).count() as u32 + 1;
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |n| n + 1);
        TooDeepAt {
            line,
            column: (offset - line_start + 1) as u32,
        }
    }

    /// Records that a token at `at` reached depth `reached`.
    fn reach(&mut self, at: usize, reached: usize) -> Result<(), TooDeepAt> {
        if reached > self.limit {
            return Err(self.too_deep(at));
        }
        self.max = self.max.max(reached);
        if let Some((_, d)) = &mut self.defining {
            *d = (*d).max(reached);
        }
        Ok(())
    }

    /// Scans the token at `i` (`i < text.len()`); returns where the next
    /// one starts.
    fn step(&mut self, mut i: usize) -> Result<usize, TooDeepAt> {
        // What each byte is to the scan; most bytes are `OTHER` and cost one
        // table lookup.
        const OTHER: u8 = 0;
        const OPEN: u8 = 1;
        const CLOSE: u8 = 2;
        const ANGLE_CLOSE: u8 = 3;
        const QUOTE: u8 = 4;
        const SLASH: u8 = 5;
        const REFERENCE: u8 = 6;
        const NEWLINE: u8 = 7;
        static CLASS: [u8; 256] = {
            let mut table = [OTHER; 256];
            table[b'(' as usize] = OPEN;
            table[b'[' as usize] = OPEN;
            table[b'{' as usize] = OPEN;
            table[b'<' as usize] = OPEN;
            table[b')' as usize] = CLOSE;
            table[b']' as usize] = CLOSE;
            table[b'}' as usize] = CLOSE;
            table[b'>' as usize] = ANGLE_CLOSE;
            table[b'"' as usize] = QUOTE;
            table[b'/' as usize] = SLASH;
            table[b'#' as usize] = REFERENCE;
            table[b'!' as usize] = REFERENCE;
            table[b'\n' as usize] = NEWLINE;
            table
        };
        let text = self.text;
        match CLASS[text[i] as usize] {
            OTHER => {
                i += 1;
                while let Some(&b) = text.get(i) {
                    if CLASS[b as usize] != OTHER {
                        break;
                    }
                    i += 1;
                }
                Ok(i)
            }
            OPEN => {
                self.depth += 1;
                self.reach(i, self.depth)?;
                Ok(i + 1)
            }
            CLOSE => {
                self.depth = self.depth.saturating_sub(1);
                Ok(i + 1)
            }
            ANGLE_CLOSE => {
                // The `>` of `->` closes nothing.
                if i == 0 || text[i - 1] != b'-' {
                    self.depth = self.depth.saturating_sub(1);
                }
                Ok(i + 1)
            }
            QUOTE => {
                // A string literal: skip to the closing quote (escapes kept).
                // Kernel strings are short: a plain loop beats a search call.
                i += 1;
                while let Some(&b) = text.get(i) {
                    match b {
                        b'"' => return Ok(i + 1),
                        b'\\' => i += 2,
                        _ => i += 1,
                    }
                }
                Ok(text.len())
            }
            SLASH => {
                if text.get(i + 1) == Some(&b'/') {
                    Ok(memchr::memchr(b'\n', &text[i..]).map_or(text.len(), |n| i + n))
                } else {
                    Ok(i + 1)
                }
            }
            NEWLINE => {
                if self.depth == 0
                    && let Some((name, d)) = self.defining.take()
                {
                    self.aliases.insert(name, d);
                }
                Ok(i + 1)
            }
            _ => {
                // `#name` or `!name`: an alias definition or use.
                let is_id =
                    |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-');
                let start = i;
                let mut end = i + 1;
                while end < text.len() && is_id(text[end]) {
                    end += 1;
                }
                let name = &text[start..end];
                let mut reached = self.depth;
                // Aliases have no `.` (`#tpu.foo` is a dialect attribute) and
                // no `<` after them.
                if end > start + 1 && !name.contains(&b'.') && text.get(end) != Some(&b'<') {
                    let rest = text[end..].iter().position(|&c| c != b' ');
                    let is_definition = self.depth == 0
                        && rest.is_some_and(|r| {
                            text[end + r] == b'=' && text.get(end + r + 1) != Some(&b'=')
                        });
                    if is_definition {
                        if let Some((name, d)) = self.defining.take() {
                            self.aliases.insert(name, d);
                        }
                        self.defining = Some((name, 0));
                    } else {
                        reached = self.depth + self.aliases.get(name).copied().unwrap_or(0);
                    }
                }
                self.reach(start, reached)?;
                Ok(end)
            }
        }
    }
}

/// A small multiplicative hasher for alias names (FxHash's scheme): the
/// nesting scan looks up every `#loc` reference, and SipHash made that the
/// scan's main cost. Nothing here is adversarial: a collision only costs time.
#[derive(Default)]
struct AliasHasher(u64);

impl Hasher for AliasHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Splits a type's or attribute's body at top-level commas (outside `<>`,
/// `()`, `[]`, `{}`), each part trimmed; an empty last part is dropped (`""`
/// gives no part).
pub(crate) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}
