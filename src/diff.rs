//! Comparing the `tpu_custom_call`s of two modules by meaning.
//!
//! Lowering test harnesses check that a compiler lowers a model to the calls
//! they expect (often: the calls JAX makes). Comparing the printed modules
//! fails on every irrelevant difference (producer string, MLIR 24 vs 22
//! encodings of the same body, debug-location blobs, attribute order, SSA
//! names) and says nothing useful on a real one. [`diff_modules`] decodes both
//! modules ([`crate::decode`]), pairs their calls (in order, or by kernel
//! name), and reports per pair what differs:
//!
//! - `backend_config` fields by their JAX names (`vmem_limit_bytes`,
//!   `cost_estimate`, ...; the fields of JAX's `CustomCallBackendConfig`),
//!   `lowered_module_asm_version` for the body's Mosaic IR version and
//!   `megachip_parallelism_config.use_core_ids` for JAX's export mode;
//! - the body (`lowered_module_asm`) as the decoded kernel: equal kernels
//!   written by different producers or encodings are equal; different ones
//!   show a unified diff of the two kernels in the pretty form. Debug
//!   locations (`debug_locations`) are compared only when asked
//!   ([`DiffOptions::locations`]), as the locations of the decoded kernels;
//! - op attributes by name (`operand_layouts`, `output_operand_aliases`,
//!   `has_side_effect`, ...; `mhlo.frontend_attributes` entry by entry,
//!   `kernel_metadata` as JSON);
//! - operand and result types (`operand_types[1]`, `result_types`);
//! - what feeds each operand (`operands[0]`: `%arg1 of @main`, another call's
//!   result, the ops between; [`wiring`]), by [`diff_modules`], which reads
//!   both modules whole ([`diff_calls`] has the calls only and says so in
//!   [`DiffReport::not_compared`]);
//!
//! and the calls left unpaired. [`DiffReport::compared`] lists what was
//! compared.
//!
//! ```
//! use tpu_custom_call::diff::{self, DiffOptions};
//! use tpu_custom_call::Context;
//!
//! let ctx = Context::new();
//! let jax = std::fs::read("tests/data/jax-goldens/add_basic/module.mlir")?;
//! let report = diff::diff_modules(&ctx, (&jax, "jax.mlir"), (&jax, "ours.mlir"), &DiffOptions::default())?;
//! assert!(report.is_equal(), "{report}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};

use melior::Context;

use crate::config::{BackendConfig, FlagValue, MemorySpace};
use crate::decode::{self, DecodedCall};
use crate::kernel::PrintOptions;

pub mod kernel;
pub mod wiring;

/// Errors of the diff layer itself (decoding errors come from
/// [`crate::decode`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// `--ignore` named a field that no call has.
    #[error(
        "--ignore `{field}` is not a field of a tpu_custom_call{}; fields are the backend_config fields \
         by their JAX names, the op attributes, `operand_types`, `result_types`, `lowered_module_asm` \
         and `debug_locations`",
        closest.as_ref().map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default()
    )]
    UnknownField {
        /// The field as given.
        field: String,
        /// The known field closest to it.
        closest: Option<String>,
    },
    /// A module could not be read or its calls decoded.
    #[error(transparent)]
    Decode(#[from] crate::decode::DecodeError),
    /// A decoded kernel could not be printed.
    #[error(transparent)]
    Kernel(#[from] crate::kernel::KernelError),
    /// What was given as a module is not one (a file's path given where
    /// its text was expected, a file that cannot be read).
    #[error("{message}")]
    NotAModule {
        /// What is wrong, and what to do.
        message: String,
    },
}

/// How calls of the two modules are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchBy {
    /// [`MatchBy::Name`] when a module has several calls and every call of
    /// both has a `kernel_name` attribute, else [`MatchBy::Order`] (the
    /// default: a kernel inserted among named calls shows as one unpaired
    /// call, not as every later pair differing).
    #[default]
    Auto,
    /// The n-th call of one module with the n-th of the other.
    Order,
    /// Each call with the next unpaired call of the same `kernel_name` in the
    /// other module (in order among calls of one name). A call without a
    /// `kernel_name` attribute goes by its kernel module's name.
    Name,
}

/// What to compare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffOptions {
    /// How calls are paired.
    pub match_by: MatchBy,
    /// Fields not compared: a field name (`vmem_limit_bytes`,
    /// `operand_layouts`), or a prefix of names ending before `.` or `[`
    /// (`mhlo.frontend_attributes`, `operand_types`). See [`FIELDS`].
    pub ignore: Vec<String>,
    /// Compare the kernels' debug locations too (`debug_locations`).
    pub locations: bool,
}

/// The backend_config fields compared, by their JAX names (JAX's
/// `CustomCallBackendConfig`, plus the JSON-only `use_core_ids`).
pub const CONFIG_FIELDS: [&str; 24] = [
    "lowered_module_asm",
    "lowered_module_asm_version",
    "has_communication",
    "collective_id",
    "device_type",
    "cost_estimate",
    "needs_hlo_passes",
    "needs_layout_passes",
    "vmem_limit_bytes",
    "flags",
    "allow_input_fusion",
    "serialization_format",
    "internal_scratch_in_bytes",
    "output_memory_spaces",
    "disable_bounds_checks",
    "disable_semaphore_checks",
    "active_core_count",
    "input_memory_spaces",
    "skip_device_barrier",
    "shape_invariant_numerics",
    "tiling",
    "opt_level",
    "megachip_parallelism_config.use_core_ids",
    "implicit_sharding",
];

/// The fields [`FIELDS`] adds to [`CONFIG_FIELDS`] (those without a `.`):
/// the kernel's locations, the op's types, attributes and the whole
/// `backend_config`.
const OTHER_FIELDS: [&str; 14] = [
    "debug_locations",
    "operands",
    "operand_types",
    "result_types",
    "api_version",
    "call_target_name",
    "called_computations",
    "has_side_effect",
    "operand_layouts",
    "result_layouts",
    "output_operand_aliases",
    "kernel_name",
    "indices_of_shape_operands",
    "backend_config",
];

/// Every field name [`DiffOptions::ignore`] accepts without a `.` (names
/// with a `.` are taken as attribute names: `mhlo.frontend_attributes`,
/// `mhlo.sharding`...): the [`CONFIG_FIELDS`] without a `.`, then the
/// kernel's locations, the op's types and attributes, and `backend_config`.
pub const FIELDS: [&str; 37] = fields_without_dot();

/// Builds [`FIELDS`]: the dotless [`CONFIG_FIELDS`], then [`OTHER_FIELDS`].
const fn fields_without_dot() -> [&'static str; 37] {
    let mut out = [""; 37];
    let mut n = 0;
    let mut i = 0;
    while i < CONFIG_FIELDS.len() {
        if !has_dot(CONFIG_FIELDS[i]) {
            out[n] = CONFIG_FIELDS[i];
            n += 1;
        }
        i += 1;
    }
    let mut j = 0;
    while j < OTHER_FIELDS.len() {
        out[n] = OTHER_FIELDS[j];
        n += 1;
        j += 1;
    }
    assert!(n == out.len(), "FIELDS has the wrong length");
    out
}

/// Whether a field name holds a `.` (usable in a `const`).
const fn has_dot(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'.' {
            return true;
        }
        i += 1;
    }
    false
}

/// What a difference is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DifferenceKind {
    /// A backend_config field other than the body.
    Config,
    /// The kernel (body) or its debug locations.
    Kernel,
    /// An op attribute (or an `mhlo.frontend_attributes` entry).
    Attribute,
    /// An operand or result type (or their number).
    Type,
    /// What feeds an operand ([`wiring`]).
    Wiring,
}

impl DifferenceKind {
    /// `config`, `kernel`, `attribute`, `type`.
    pub const fn name(self) -> &'static str {
        match self {
            DifferenceKind::Config => "config",
            DifferenceKind::Kernel => "kernel",
            DifferenceKind::Attribute => "attribute",
            DifferenceKind::Type => "type",
            DifferenceKind::Wiring => "wiring",
        }
    }
}

/// One field that differs between two paired calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The field (`vmem_limit_bytes`, `operand_layouts`, `operand_types[1]`,
    /// `mhlo.frontend_attributes.kernel_metadata`, `lowered_module_asm`).
    pub field: String,
    /// What it is about.
    pub kind: DifferenceKind,
    /// The value in the first module (`None`: absent there); for kernels a
    /// summary.
    pub a: Option<String>,
    /// The value in the second module.
    pub b: Option<String>,
    /// For kernels: a unified diff of the two kernels in the pretty form.
    pub diff: Option<String>,
}

/// Two paired calls and what differs between them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairReport {
    /// Index of the call in the first module.
    pub a_index: usize,
    /// Index of the call in the second module.
    pub b_index: usize,
    /// Kernel name of the first call.
    pub a_kernel_name: Option<String>,
    /// Kernel name of the second call.
    pub b_kernel_name: Option<String>,
    /// Every difference, in a fixed order (types, attributes, config, kernel).
    pub differences: Vec<Difference>,
}

/// Which module a call is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first module.
    A,
    /// The second module.
    B,
}

/// A call with no partner in the other module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpairedCall {
    /// The module it is in.
    pub side: Side,
    /// Its index there.
    pub index: usize,
    /// Its kernel name.
    pub kernel_name: Option<String>,
}

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffReport {
    /// Name of the first module.
    pub a_name: String,
    /// Name of the second module.
    pub b_name: String,
    /// Number of calls in the first module.
    pub a_calls: usize,
    /// Number of calls in the second module.
    pub b_calls: usize,
    /// Every pair, equal ones included.
    pub pairs: Vec<PairReport>,
    /// Calls left unpaired.
    pub unpaired: Vec<UnpairedCall>,
    /// How the calls were paired ([`MatchBy::Auto`] resolved).
    pub paired_by: MatchBy,
    /// What was compared, in words (types, attributes, config, kernels, and
    /// the operand wiring when both modules were read whole).
    pub compared: Vec<String>,
    /// What was not compared, and why (the operand wiring of calls compared
    /// without their modules, or of a module not read whole).
    pub not_compared: Vec<String>,
}

/// What every comparison covers ([`DiffReport::compared`]).
const COMPARED: [&str; 4] = [
    "operand and result types",
    "op attributes",
    "backend_config fields",
    "kernels (decoded; debug locations with --locations)",
];

impl DiffReport {
    /// No pair differs and no call is unpaired.
    pub fn is_equal(&self) -> bool {
        self.unpaired.is_empty() && self.pairs.iter().all(|p| p.differences.is_empty())
    }

    /// The names of the fields that differ, pair after pair
    /// (`["lowered_module_asm.dimension_semantics", "vmem_limit_bytes"]`):
    /// what a test asserts on.
    pub fn fields(&self) -> Vec<&str> {
        self.differences()
            .map(|(_, _, d)| d.field.as_str())
            .collect()
    }

    /// Every difference of every pair, as `(a index, b index, difference)`.
    pub fn differences(&self) -> impl Iterator<Item = (usize, usize, &Difference)> {
        self.pairs
            .iter()
            .flat_map(|p| p.differences.iter().map(|d| (p.a_index, p.b_index, d)))
    }

    /// The JSON object `diff --json` prints: `a`, `b` (names), `equal`,
    /// `a_calls`, `b_calls`, `pairs` (`a`, `b` indices, kernel names, `equal`,
    /// `differences`: `field`, `kind`, `a`, `b` as printed (config values as
    /// JSON text, attributes as MLIR prints them; `null` when absent), `diff`)
    /// `unpaired` (`side`, `index`, `kernel_name`), `paired_by` (`name` or
    /// `order`), `compared` and
    /// `not_compared` (lists of words).
    pub fn to_json(&self) -> serde_json::Value {
        let pairs: Vec<serde_json::Value> = self
            .pairs
            .iter()
            .map(|p| {
                serde_json::json!({
                    "a": p.a_index,
                    "b": p.b_index,
                    "a_kernel_name": p.a_kernel_name,
                    "b_kernel_name": p.b_kernel_name,
                    "equal": p.differences.is_empty(),
                    "differences": p.differences.iter().map(|d| serde_json::json!({
                        "field": d.field,
                        "kind": d.kind.name(),
                        "a": d.a,
                        "b": d.b,
                        "diff": d.diff,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let unpaired: Vec<serde_json::Value> = self
            .unpaired
            .iter()
            .map(|u| {
                serde_json::json!({
                    "side": match u.side { Side::A => "a", Side::B => "b" },
                    "index": u.index,
                    "kernel_name": u.kernel_name,
                })
            })
            .collect();
        serde_json::json!({
            "a": self.a_name,
            "b": self.b_name,
            "equal": self.is_equal(),
            "a_calls": self.a_calls,
            "b_calls": self.b_calls,
            "pairs": pairs,
            "unpaired": unpaired,
            "paired_by": match self.paired_by { MatchBy::Name => "name", _ => "order" },
            "compared": self.compared,
            "not_compared": self.not_compared,
        })
    }
}

fn call_label(index: usize, name: &Option<String>) -> String {
    match name {
        Some(n) => format!("#{index} ({n})"),
        None => format!("#{index}"),
    }
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {one}s")
    }
}

impl fmt::Display for DiffReport {
    /// The text `diff` prints: one block per differing pair, then the unpaired
    /// calls; one line when everything is equal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_equal() {
            return writeln!(
                f,
                "{} and {}: {} equal",
                self.a_name,
                self.b_name,
                plural(self.a_calls, "tpu_custom_call")
            );
        }
        writeln!(f, "--- {} ({})", self.a_name, plural(self.a_calls, "call"))?;
        writeln!(f, "+++ {} ({})", self.b_name, plural(self.b_calls, "call"))?;
        writeln!(f, "compared: {}", self.compared.join("; "))?;
        if self.a_calls > 1 || self.b_calls > 1 {
            writeln!(
                f,
                "paired: {}",
                match self.paired_by {
                    MatchBy::Name => "by kernel_name",
                    _ => "in order",
                }
            )?;
        }
        for n in &self.not_compared {
            writeln!(f, "not compared: {n}")?;
        }
        for pair in self.pairs.iter().filter(|p| !p.differences.is_empty()) {
            writeln!(
                f,
                "tpu_custom_call {} vs {}: {}",
                call_label(pair.a_index, &pair.a_kernel_name),
                call_label(pair.b_index, &pair.b_kernel_name),
                plural(pair.differences.len(), "difference")
            )?;
            for d in &pair.differences {
                writeln!(f, "  {} ({}):", d.field, d.kind.name())?;
                match &d.diff {
                    Some(diff) => {
                        for line in diff.lines() {
                            writeln!(f, "    {line}")?;
                        }
                    }
                    None => {
                        let show = |v: &Option<String>| v.clone().unwrap_or("(absent)".into());
                        writeln!(f, "    - {}", show(&d.a))?;
                        writeln!(f, "    + {}", show(&d.b))?;
                    }
                }
            }
        }
        for u in &self.unpaired {
            let (name, other) = match u.side {
                Side::A => (&self.a_name, &self.b_name),
                Side::B => (&self.b_name, &self.a_name),
            };
            writeln!(
                f,
                "only in {name}: tpu_custom_call {} (no partner in {other})",
                call_label(u.index, &u.kernel_name)
            )?;
        }
        Ok(())
    }
}

/// Checks the `ignore` list: every name is a known field (see [`FIELDS`]) or
/// contains a `.` (an attribute such as `mhlo.sharding`).
pub fn check_options(options: &DiffOptions) -> Result<(), DiffError> {
    for field in &options.ignore {
        let base = field.split('[').next().unwrap_or(field);
        if base.contains('.') || FIELDS.contains(&base) || kernel::KERNEL_FIELDS.contains(&base) {
            continue;
        }
        let closest = FIELDS
            .iter()
            .map(|k| (crate::spelling::edit_distance(base, k), *k))
            .min()
            .filter(|(d, k)| *d <= 2.max(k.len() / 3))
            .map(|(_, k)| k.to_string());
        return Err(DiffError::UnknownField {
            field: field.clone(),
            closest,
        });
    }
    Ok(())
}

fn ignored(options: &DiffOptions, field: &str) -> bool {
    let matches = |field: &str| {
        options.ignore.iter().any(|i| {
            field == i
                || field
                    .strip_prefix(i.as_str())
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        })
    };
    // The kernel function's attributes also by their bare names (`window_params`).
    matches(field)
        || field
            .strip_prefix("lowered_module_asm.")
            .is_some_and(|rest| !rest.starts_with('@') && matches(rest))
}

/// Decodes both modules (bytecode, generic text, or JAX's pretty text, each
/// given as `(bytes, name)`) and compares their calls.
pub fn diff_modules(
    ctx: &Context,
    a: (&[u8], &str),
    b: (&[u8], &str),
    options: &DiffOptions,
) -> Result<DiffReport, DiffError> {
    check_options(options)?;
    let a_calls = decode::decode_module(ctx, a.0, a.1)?;
    let b_calls = decode::decode_module(ctx, b.0, b.1)?;
    let mut report = diff_calls(&a_calls, a.1, &b_calls, b.1, options)?;
    report.not_compared.clear();
    if ignored(options, "operands") {
        report
            .not_compared
            .push("operand wiring (--ignore operands)".to_string());
        return Ok(report);
    }
    match (
        wiring::operand_wiring(ctx, a.0, a.1),
        wiring::operand_wiring(ctx, b.0, b.1),
    ) {
        (Ok(wa), Ok(wb)) => {
            report.compared.push(wiring::COMPARED.to_string());
            for pair in &mut report.pairs {
                let (Some(x), Some(y)) = (wa.get(pair.a_index), wb.get(pair.b_index)) else {
                    continue;
                };
                let wired = wiring_differences(x, y)
                    .into_iter()
                    .filter(|d| !ignored(options, &d.field));
                // Wiring comes first: the types and the rest are the call's own.
                let own = std::mem::take(&mut pair.differences);
                pair.differences = wired.chain(own).collect();
            }
        }
        (Err(e), _) | (_, Err(e)) => report
            .not_compared
            .push(format!("operand wiring: a module was not read whole ({e})")),
    }
    Ok(report)
}

/// The operands of two calls fed differently: one [`Difference`] per operand
/// (`operands[i]`), or one for the whole list when their numbers differ.
/// `a` and `b` are [`wiring::operand_wiring`] entries.
pub fn wiring_differences(a: &[String], b: &[String]) -> Vec<Difference> {
    let mut out = Vec::new();
    let options = DiffOptions::default();
    if a.len() != b.len() {
        push_if_differs(
            &mut out,
            &options,
            "operands",
            DifferenceKind::Wiring,
            Some(format!("({})", a.join(", "))),
            Some(format!("({})", b.join(", "))),
        );
        return out;
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        push_if_differs(
            &mut out,
            &options,
            &format!("operands[{i}]"),
            DifferenceKind::Wiring,
            Some(x.clone()),
            Some(y.clone()),
        );
    }
    out
}

/// Compares already decoded calls (of modules named `a_name` and `b_name`).
pub fn diff_calls(
    a: &[DecodedCall<'_>],
    a_name: &str,
    b: &[DecodedCall<'_>],
    b_name: &str,
    options: &DiffOptions,
) -> Result<DiffReport, DiffError> {
    check_options(options)?;
    let match_by = resolve_match(a, b, options.match_by);
    let (pairs, unpaired) = pair_calls(a, b, match_by);
    let mut reports = Vec::with_capacity(pairs.len());
    for (i, j) in pairs {
        let differences = diff_pair(&a[i], a_name, &b[j], b_name, options)?;
        reports.push(PairReport {
            a_index: a[i].found.index,
            b_index: b[j].found.index,
            a_kernel_name: a[i].found.kernel_name.clone(),
            b_kernel_name: b[j].found.kernel_name.clone(),
            differences,
        });
    }
    let unpaired = unpaired
        .into_iter()
        .map(|(side, i)| {
            let call = match side {
                Side::A => &a[i],
                Side::B => &b[i],
            };
            UnpairedCall {
                side,
                index: call.found.index,
                kernel_name: call.found.kernel_name.clone(),
            }
        })
        .collect();
    Ok(DiffReport {
        a_name: a_name.to_string(),
        b_name: b_name.to_string(),
        a_calls: a.len(),
        b_calls: b.len(),
        pairs: reports,
        unpaired,
        paired_by: match_by,
        compared: COMPARED.iter().map(|c| c.to_string()).collect(),
        not_compared: vec![
            "operand wiring (the calls were compared without their modules: use diff_modules)"
                .to_string(),
        ],
    })
}

/// [`MatchBy::Auto`] made [`MatchBy::Name`] or [`MatchBy::Order`].
fn resolve_match(a: &[DecodedCall<'_>], b: &[DecodedCall<'_>], by: MatchBy) -> MatchBy {
    match by {
        MatchBy::Auto => {
            let several = a.len() > 1 || b.len() > 1;
            let named = a.iter().chain(b).all(|c| c.found.kernel_name.is_some());
            if several && named {
                MatchBy::Name
            } else {
                MatchBy::Order
            }
        }
        other => other,
    }
}

/// Pairs positions of `a` and `b`; returns the pairs and the unpaired ones.
type Pairing = (Vec<(usize, usize)>, Vec<(Side, usize)>);

fn pair_calls(a: &[DecodedCall<'_>], b: &[DecodedCall<'_>], by: MatchBy) -> Pairing {
    match by {
        MatchBy::Order | MatchBy::Auto => {
            let n = a.len().min(b.len());
            let pairs = (0..n).map(|i| (i, i)).collect();
            let unpaired = (n..a.len())
                .map(|i| (Side::A, i))
                .chain((n..b.len()).map(|i| (Side::B, i)))
                .collect();
            (pairs, unpaired)
        }
        MatchBy::Name => {
            // The `kernel_name` attribute, else the kernel module's own name.
            let key = |call: &DecodedCall<'_>| {
                call.found
                    .kernel_name
                    .clone()
                    .or_else(|| call.kernel.name())
            };
            let b_keys: Vec<Option<String>> = b.iter().map(key).collect();
            let mut taken = vec![false; b.len()];
            let mut pairs = Vec::new();
            let mut unpaired = Vec::new();
            for (i, call) in a.iter().enumerate() {
                let name = key(call);
                let partner = (0..b.len()).find(|&j| !taken[j] && b_keys[j] == name);
                match partner {
                    Some(j) => {
                        taken[j] = true;
                        pairs.push((i, j));
                    }
                    None => unpaired.push((Side::A, i)),
                }
            }
            unpaired.extend(
                taken
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| !**t)
                    .map(|(j, _)| (Side::B, j)),
            );
            (pairs, unpaired)
        }
    }
}

fn push_if_differs(
    out: &mut Vec<Difference>,
    options: &DiffOptions,
    field: &str,
    kind: DifferenceKind,
    a: Option<String>,
    b: Option<String>,
) {
    if a != b && !ignored(options, field) {
        out.push(Difference {
            field: field.to_string(),
            kind,
            a,
            b,
            diff: None,
        });
    }
}

fn diff_pair(
    a: &DecodedCall<'_>,
    a_name: &str,
    b: &DecodedCall<'_>,
    b_name: &str,
    options: &DiffOptions,
) -> Result<Vec<Difference>, DiffError> {
    let mut out = Vec::new();
    diff_types(
        &mut out,
        options,
        "operand_types",
        &a.found.operand_types,
        &b.found.operand_types,
    );
    diff_types(
        &mut out,
        options,
        "result_types",
        &a.found.result_types,
        &b.found.result_types,
    );
    diff_attributes(&mut out, options, a, b);
    diff_config(&mut out, options, a, b);
    diff_kernels(&mut out, options, (a, a_name), (b, b_name))?;
    Ok(out)
}

fn diff_types(
    out: &mut Vec<Difference>,
    options: &DiffOptions,
    field: &str,
    a: &[String],
    b: &[String],
) {
    if a.len() != b.len() {
        push_if_differs(
            out,
            options,
            field,
            DifferenceKind::Type,
            Some(format!("({})", a.join(", "))),
            Some(format!("({})", b.join(", "))),
        );
        return;
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        push_if_differs(
            out,
            options,
            &format!("{field}[{i}]"),
            DifferenceKind::Type,
            Some(x.clone()),
            Some(y.clone()),
        );
    }
}

const FRONTEND: &str = "mhlo.frontend_attributes";

fn diff_attributes(
    out: &mut Vec<Difference>,
    options: &DiffOptions,
    a: &DecodedCall<'_>,
    b: &DecodedCall<'_>,
) {
    let mut names: Vec<&str> = a
        .found
        .attributes
        .iter()
        .chain(&b.found.attributes)
        .map(|(n, _)| n.as_str())
        .filter(|n| *n != "backend_config" && *n != FRONTEND)
        .collect();
    names.sort_unstable();
    names.dedup();
    // StableHLO's defaults: an absent attribute means its default value (JAX's
    // export and `forward_compatible` emission leave them out).
    let value = |call: &DecodedCall<'_>, name: &str| {
        call.found
            .attribute(name)
            .or_else(|| {
                decode::PRETTY_DEFAULTS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| *v)
            })
            .map(str::to_string)
    };
    for name in names {
        push_if_differs(
            out,
            options,
            name,
            DifferenceKind::Attribute,
            value(a, name),
            value(b, name),
        );
    }
    // The frontend attributes entry by entry (strings; JSON compared as JSON).
    let entry = |call: &DecodedCall<'_>, key: &str| {
        call.found
            .frontend_attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let mut keys: Vec<&str> = a
        .found
        .frontend_attributes
        .iter()
        .chain(&b.found.frontend_attributes)
        .map(|(k, _)| k.as_str())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        let (x, y) = (entry(a, key), entry(b, key));
        if let (Some(x), Some(y)) = (&x, &y) {
            let parse = |s: &str| serde_json::from_str::<serde_json::Value>(s).ok();
            if let (Some(jx), Some(jy)) = (parse(x), parse(y))
                && jx == jy
            {
                continue;
            }
        }
        push_if_differs(
            out,
            options,
            &format!("{FRONTEND}.{key}"),
            DifferenceKind::Attribute,
            x,
            y,
        );
    }
    // A frontend attribute dictionary with non-string entries: compare it whole.
    let whole = |call: &DecodedCall<'_>| {
        call.found
            .attribute(FRONTEND)
            .filter(|_| call.found.frontend_attributes.is_empty())
            .map(str::to_string)
    };
    push_if_differs(
        out,
        options,
        FRONTEND,
        DifferenceKind::Attribute,
        whole(a),
        whole(b),
    );
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn memory_spaces(list: &Option<Vec<Option<MemorySpace>>>) -> String {
    match list {
        None => "null".into(),
        Some(list) => format!(
            "[{}]",
            list.iter()
                .map(|m| m.map_or("null".into(), |m| json_string(&m.param_name())))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("null".into(), |v| v.to_string())
}

/// The value of each compared config field, as JSON text.
fn config_fields(call: &DecodedCall<'_>) -> Vec<(&'static str, String)> {
    let c: BackendConfig = call.config.canonical();
    let flags = c.flags.as_ref().map(|flags| {
        let entries: Vec<String> = flags
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    FlagValue::Bool(v) => v.to_string(),
                    FlagValue::Int(v) => v.to_string(),
                    FlagValue::Double(v) => format!("{v:?}"),
                };
                format!("{}: {value}", json_string(name))
            })
            .collect();
        format!("{{{}}}", entries.join(", "))
    });
    let cost = c.cost_estimate.map(|e| {
        format!(
            "{{\"flops\": {}, \"transcendentals\": {}, \"bytes_accessed\": {}, \"remote_bytes_transferred\": {}}}",
            e.flops, e.transcendentals, e.bytes_accessed, e.remote_bytes_transferred
        )
    });
    let fusion = c.allow_input_fusion.as_ref().map(|v| {
        format!(
            "[{}]",
            v.iter().map(bool::to_string).collect::<Vec<_>>().join(", ")
        )
    });
    vec![
        (
            "lowered_module_asm_version",
            // A plain body's version attribute is not read by libtpu: it
            // is compared as written.
            if call.body_form.is_plain() {
                format!(
                    "{} (plain body)",
                    call.version_attribute.as_deref().unwrap_or("none")
                )
            } else {
                call.ir_version.to_string()
            },
        ),
        ("has_communication", c.has_communication.to_string()),
        ("collective_id", opt(c.collective_id)),
        (
            "device_type",
            opt(c.device_type.map(|d| json_string(d.jax_name()))),
        ),
        ("cost_estimate", opt(cost)),
        ("needs_hlo_passes", c.needs_hlo_passes.to_string()),
        ("needs_layout_passes", c.needs_layout_passes.to_string()),
        ("vmem_limit_bytes", opt(c.vmem_limit_bytes)),
        ("flags", opt(flags)),
        ("allow_input_fusion", opt(fusion)),
        ("serialization_format", opt(c.serialization_format)),
        (
            "internal_scratch_in_bytes",
            opt(c.internal_scratch_in_bytes),
        ),
        (
            "output_memory_spaces",
            memory_spaces(&c.output_memory_spaces),
        ),
        ("disable_bounds_checks", c.disable_bounds_checks.to_string()),
        (
            "disable_semaphore_checks",
            c.disable_semaphore_checks.to_string(),
        ),
        ("active_core_count", opt(c.active_core_count)),
        ("input_memory_spaces", memory_spaces(&c.input_memory_spaces)),
        ("skip_device_barrier", c.skip_device_barrier.to_string()),
        (
            "shape_invariant_numerics",
            c.shape_invariant_numerics.to_string(),
        ),
        ("tiling", opt(c.tiling.map(|t| json_string(t.param_name())))),
        ("opt_level", opt(c.opt_level.map(|o| json_string(o.name())))),
        (
            "megachip_parallelism_config.use_core_ids",
            opt(call.report.use_core_ids),
        ),
        (
            "implicit_sharding",
            opt(c.implicit_sharding.as_ref().map(|s| {
                let mut text = String::new();
                crate::config::json::write_python_json(&mut text, &s.value);
                text
            })),
        ),
    ]
}

fn diff_config(
    out: &mut Vec<Difference>,
    options: &DiffOptions,
    a: &DecodedCall<'_>,
    b: &DecodedCall<'_>,
) {
    for ((field, x), (_, y)) in config_fields(a).into_iter().zip(config_fields(b)) {
        push_if_differs(
            out,
            options,
            field,
            DifferenceKind::Config,
            Some(x),
            Some(y),
        );
    }
    // Keys the reader does not know: compared as written.
    let unknown = |call: &DecodedCall<'_>| -> Vec<(String, String)> {
        call.report
            .unknown_keys
            .iter()
            .map(|k| {
                let mut value = String::new();
                crate::config::json::write_compact_json(&mut value, &k.value);
                // One line: that writer puts a newline after every `[`, `{` and `,`.
                let value = serde_json::from_str::<serde_json::Value>(&value)
                    .map_or(value.replace('\n', ""), |v| v.to_string());
                let path = k.path.to_string();
                (path.trim_start_matches('$').to_string(), value)
            })
            .collect()
    };
    let (ua, ub) = (unknown(a), unknown(b));
    let mut paths: Vec<&String> = ua.iter().chain(&ub).map(|(p, _)| p).collect();
    paths.sort_unstable();
    paths.dedup();
    for path in paths {
        let get = |list: &[(String, String)]| {
            list.iter().find(|(p, _)| p == path).map(|(_, v)| v.clone())
        };
        push_if_differs(
            out,
            options,
            &format!("backend_config{path}"),
            DifferenceKind::Config,
            get(&ua),
            get(&ub),
        );
    }
}

/// The IR version is reported as `lowered_module_asm_version`: the kernels
/// are compared without it.
fn without_version(text: String) -> String {
    const KEY: &str = "stable_mosaic.version = ";
    let Some(at) = text.find(KEY) else {
        return text;
    };
    let start = at + KEY.len();
    let rest = &text[start..];
    // An integer (`15 : i64`) or, in a plain body, a string (`"1"`).
    let digits = match rest.strip_prefix('"') {
        Some(quoted) => quoted.find('"').map_or(0, |end| end + 2),
        None => {
            let n = rest
                .bytes()
                .take_while(|b| b.is_ascii_digit() || *b == b'-')
                .count();
            n + rest[n..].strip_prefix(" : i64").map_or(0, |_| 6)
        }
    };
    let mut out = text;
    out.replace_range(start..start + digits, "_");
    out
}

fn print_kernel(call: &DecodedCall<'_>, debug_info: bool) -> Result<String, DiffError> {
    Ok(without_version(call.kernel.print(PrintOptions {
        generic: true,
        debug_info,
    })?))
}

/// The unified diff of two kernels in the pretty form (generic if the
/// pretty forms happen to print the same).
fn kernel_diff(
    (a, a_label): (&DecodedCall<'_>, String),
    (b, b_label): (&DecodedCall<'_>, String),
    debug_info: bool,
) -> Result<String, DiffError> {
    // The pretty form is for reading only: if it cannot be printed, the
    // generic form is shown.
    let pretty = |call: &DecodedCall<'_>| call.kernel.print_pretty(debug_info).ok();
    if let (Some(pa), Some(pb)) = (pretty(a), pretty(b)) {
        let (pa, pb) = (without_version(pa), without_version(pb));
        if pa != pb {
            return Ok(unified_diff(&pa, &pb, &a_label, &b_label, 3));
        }
    }
    let (ga, gb) = (print_kernel(a, debug_info)?, print_kernel(b, debug_info)?);
    Ok(unified_diff(&ga, &gb, &a_label, &b_label, 3))
}

fn diff_kernels(
    out: &mut Vec<Difference>,
    options: &DiffOptions,
    (a, a_name): (&DecodedCall<'_>, &str),
    (b, b_name): (&DecodedCall<'_>, &str),
) -> Result<(), DiffError> {
    let labels = || {
        (
            format!("{a_name} #{}", a.found.index),
            format!("{b_name} #{}", b.found.index),
        )
    };
    let summary = |text: &str, call: &DecodedCall<'_>| {
        format!(
            "{} lines, {} body bytes",
            text.lines().count(),
            call.config.body.len()
        )
    };
    let check_body = !ignored(options, "lowered_module_asm");
    let (ka, kb) = (print_kernel(a, false)?, print_kernel(b, false)?);
    if ka != kb {
        // Field by field: the functions' attributes, then the bodies modulo
        // SSA names ([`kernel`]).
        let mut seen = false;
        for (field, x, y) in kernel::attribute_fields(a, b) {
            seen = true;
            push_if_differs(out, options, &field, DifferenceKind::Kernel, x, y);
        }
        let body = |call: &DecodedCall<'_>, generic: &str| {
            let text = call
                .kernel
                .print_pretty(false)
                .map(without_version)
                .unwrap_or_else(|_| generic.to_string());
            kernel::without_function_attributes(&text)
        };
        let (la, lb) = labels();
        let diff = kernel::diff_modulo_names(&body(a, &ka), &body(b, &kb), &la, &lb);
        if !diff.is_empty() {
            seen = true;
            if check_body {
                out.push(Difference {
                    field: "lowered_module_asm".into(),
                    kind: DifferenceKind::Kernel,
                    a: Some(summary(&ka, a)),
                    b: Some(summary(&kb, b)),
                    diff: Some(diff),
                });
            }
        }
        if !seen && check_body {
            // Nothing the fields show (a module attribute, say): the kernels whole.
            out.push(Difference {
                field: "lowered_module_asm".into(),
                kind: DifferenceKind::Kernel,
                a: Some(summary(&ka, a)),
                b: Some(summary(&kb, b)),
                diff: Some(kernel_diff((a, la), (b, lb), false)?),
            });
        }
        return Ok(());
    }
    if options.locations && !ignored(options, "debug_locations") {
        let (la_text, lb_text) = (print_kernel(a, true)?, print_kernel(b, true)?);
        if la_text != lb_text {
            let (la, lb) = labels();
            let size = |call: &DecodedCall<'_>| {
                call.config.debug_locations.as_ref().map_or_else(
                    || "inline in the body".to_string(),
                    |d| format!("{} bytes, unzipped", d.len()),
                )
            };
            out.push(Difference {
                field: "debug_locations".into(),
                kind: DifferenceKind::Kernel,
                a: Some(size(a)),
                b: Some(size(b)),
                diff: Some(kernel_diff((a, la), (b, lb), true)?),
            });
        }
    }
    Ok(())
}

/// One step of an edit script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    Equal(usize, usize),
    Delete(usize),
    Insert(usize),
}

/// Beyond this many edits the middle part is shown as removed then added
/// (still a correct diff, not a minimal one): Myers' trace is O(D²).
const MAX_EDITS: usize = 1000;

/// A shortest edit script from `a` to `b` (Myers' O((N+M)D) algorithm), on
/// the part between the common prefix and suffix.
fn edit_script(a: &[&str], b: &[&str]) -> Vec<Edit> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut edits: Vec<Edit> = (0..prefix).map(|i| Edit::Equal(i, i)).collect();
    let middle = myers(ma, mb).unwrap_or_else(|| {
        (0..ma.len())
            .map(Edit::Delete)
            .chain((0..mb.len()).map(Edit::Insert))
            .collect()
    });
    edits.extend(middle.into_iter().map(|e| match e {
        Edit::Equal(i, j) => Edit::Equal(i + prefix, j + prefix),
        Edit::Delete(i) => Edit::Delete(i + prefix),
        Edit::Insert(j) => Edit::Insert(j + prefix),
    }));
    let (sa, sb) = (a.len() - suffix, b.len() - suffix);
    edits.extend((0..suffix).map(|k| Edit::Equal(sa + k, sb + k)));
    edits
}

fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Edit>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    // trace[d] = v[-d-1 ..= d+1] before step d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let idx = |k: isize| (k + offset) as usize;
    let mut end = None;
    'outer: for d in 0..=(max.min(MAX_EDITS) as isize) {
        trace.push(v[idx(-d - 1)..=idx(d + 1)].to_vec());
        let mut k = -d;
        while k <= d {
            let mut x = if k == -d || (k != d && v[idx(k - 1)] < v[idx(k + 1)]) {
                v[idx(k + 1)]
            } else {
                v[idx(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[idx(k)] = x;
            if x >= n && y >= m {
                end = Some(d);
                break 'outer;
            }
            k += 2;
        }
    }
    let d_end = end?;
    let mut edits = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let snap = &trace[d as usize];
        let at = |k: isize| snap[(k + d + 1) as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && at(k - 1) < at(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = at(prev_k);
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            edits.push(Edit::Equal(x as usize, y as usize));
        }
        if x == prev_x {
            y -= 1;
            edits.push(Edit::Insert(y as usize));
        } else {
            x -= 1;
            edits.push(Edit::Delete(x as usize));
        }
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        edits.push(Edit::Equal(x as usize, y as usize));
    }
    edits.reverse();
    Some(edits)
}

/// A line-based unified diff of `a` and `b` (`---`/`+++` headers with the
/// labels, `@@ -l,n +l,n @@` hunks with `context` lines around changes);
/// empty when the texts are equal.
pub fn unified_diff(a: &str, b: &str, a_label: &str, b_label: &str, context: usize) -> String {
    let la: Vec<&str> = a.lines().collect();
    let lb: Vec<&str> = b.lines().collect();
    let edits = edit_script(&la, &lb);
    render_unified(&edits, &la, &lb, a_label, b_label, context)
}

/// The unified diff text of an edit script over the lines `la` and `lb`.
fn render_unified(
    edits: &[Edit],
    la: &[&str],
    lb: &[&str],
    a_label: &str,
    b_label: &str,
    context: usize,
) -> String {
    let changed: Vec<usize> = edits
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Edit::Equal(..)))
        .map(|(i, _)| i)
        .collect();
    if changed.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let _ = writeln!(out, "--- {a_label}");
    let _ = writeln!(out, "+++ {b_label}");
    // Group changes whose context overlaps into hunks.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let start = i.saturating_sub(context);
        let stop = (i + context + 1).min(edits.len());
        match groups.last_mut() {
            Some((_, end)) if start <= *end => *end = stop,
            _ => groups.push((start, stop)),
        }
    }
    for (start, stop) in groups {
        let hunk = &edits[start..stop];
        // Line numbers: position in a / b at the start of the hunk.
        let pos = |edits: &[Edit]| {
            edits.iter().fold((0, 0), |(x, y), e| match e {
                Edit::Equal(..) => (x + 1, y + 1),
                Edit::Delete(_) => (x + 1, y),
                Edit::Insert(_) => (x, y + 1),
            })
        };
        let (a0, b0) = pos(&edits[..start]);
        let (na, nb) = pos(hunk);
        let range = |s: usize, n: usize| {
            if n == 0 {
                format!("{s},0")
            } else if n == 1 {
                format!("{}", s + 1)
            } else {
                format!("{},{n}", s + 1)
            }
        };
        let _ = writeln!(out, "@@ -{} +{} @@", range(a0, na), range(b0, nb));
        for e in hunk {
            let _ = match *e {
                // The second text's: a kernel diff modulo SSA names shows
                // its context in the second kernel's names.
                Edit::Equal(_, j) => writeln!(out, " {}", lb[j]),
                Edit::Delete(i) => writeln!(out, "-{}", la[i]),
                Edit::Insert(j) => writeln!(out, "+{}", lb[j]),
            };
        }
    }
    out
}
