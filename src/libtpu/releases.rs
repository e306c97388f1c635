//! The libtpu releases this crate knows: what each one reads of a
//! `tpu_custom_call`, so that `--libtpu-version V` (library:
//! [`LibtpuVersion`] in `LowerOptions::libtpu` and
//! `ValidateOptions::libtpu`) emits what release V compiles, and refuses
//! what it cannot.
//!
//! Every fact of [`RELEASES`] is measured: `scripts/libtpu/releases.py`
//! emits probe calls with this crate and compiles them with each release's
//! own libtpu.so (from its PyPI wheel) through `tpu-custom-call compile
//! --libtpu`, on v5e, v6e and v7x; its output is `data/libtpu/releases.json`,
//! which `tests/integration/releases.rs` holds this table to. Rerun it after
//! a libtpu release and add the row.
//!
//! A release the table does not hold (a newer one, or one between two rows)
//! takes the facts of the nearest older row, with a warning
//! ([`LibtpuVersion::warning`]); a release older than the oldest row, or a
//! string that is no release number, is an error naming the known releases.

use std::fmt;
use std::str::FromStr;

use crate::config::OptLevel;

/// How a release takes SparseCore calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SparseCore {
    /// It refuses SparseCore vector-subcore kernels (Mosaic: `Failed to
    /// propagate the layout to all operations`), whatever the config.
    Refused,
    /// One-core calls must name the core in `megachip_parallelism_config`
    /// (JAX's form before 0.0.50): with `sparse_core_config.core_ids` it says
    /// `conflicting megachip_parallelism_config and sparse_core_config` (on
    /// v5p and v6e; 0.0.41 and 0.0.42.1 on every chip).
    Megachip,
    /// It reads `sparse_core_config.core_ids` (JAX 0.12's form); the
    /// `megachip_parallelism_config` form compiles too.
    CoreIds,
}

impl SparseCore {
    /// How the compatibility table says it.
    pub const fn name(self) -> &'static str {
        match self {
            SparseCore::Refused => "refused",
            SparseCore::Megachip => "megachip_parallelism_config",
            SparseCore::CoreIds => "core_ids",
        }
    }
}

/// What one libtpu release reads, as measured (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Release {
    /// The PyPI version, e.g. `0.0.50.1`.
    pub version: &'static str,
    /// The PJRT C API version its plugin reports (major, minor).
    pub pjrt_api: (u32, u32),
    /// The newest Mosaic serialization version it reads (`Unsupported
    /// version: expected <= N`); below 11 it reads none this crate writes.
    pub highest_ir_version: u32,
    /// It reads the `debug_locations` field of `custom_call_config`
    /// (without it: `no such field: 'debug_locations'`).
    pub debug_locations_field: bool,
    /// Its Mosaic parser reads MLIR 24's builtin attribute encodings (JAX
    /// 0.12's body bytes); without: `unknown attribute code: 23`.
    pub llvm24_encodings: bool,
    /// How it takes SparseCore calls.
    pub sparse_core: SparseCore,
    /// The SparseCore `opt_level`s it knows
    /// (`sparse_core_config.comp_env.backend_opt_level`; without the field:
    /// `no such field: 'backend_opt_level'`, without the value: `unknown
    /// enum value: 'O1'`).
    pub sc_opt_levels: &'static [OptLevel],
    /// The build time stamped in its libtpu.so (`Built on ... (<this>)`),
    /// which names the release of a library found without its wheel.
    pub build_epoch: u64,
}

impl Release {
    /// The release's version numbers.
    pub fn parts(&self) -> Vec<u32> {
        parse_parts(self.version).unwrap_or_default()
    }

    /// It reads some serialization version this crate writes (11 and up).
    pub const fn reads_any_ir_version(&self) -> bool {
        self.highest_ir_version >= crate::serde::LOWEST_IR_VERSION
    }

    /// The PJRT C API version as libtpu reports it (`0.116`).
    pub fn pjrt_api_text(&self) -> String {
        format!("{}.{}", self.pjrt_api.0, self.pjrt_api.1)
    }
}

/// One row of [`RELEASES`], its columns in table order.
#[allow(clippy::too_many_arguments)] // a table row: one argument per column
const fn release(
    version: &'static str,
    pjrt_api: (u32, u32),
    highest_ir_version: u32,
    debug_locations_field: bool,
    llvm24_encodings: bool,
    sparse_core: SparseCore,
    sc_opt_levels: &'static [OptLevel],
    build_epoch: u64,
) -> Release {
    Release {
        version,
        pjrt_api,
        highest_ir_version,
        debug_locations_field,
        llvm24_encodings,
        sparse_core,
        sc_opt_levels,
        build_epoch,
    }
}

use OptLevel::{O0, O1, O2, O3};
use SparseCore::{CoreIds, Megachip, Refused};

/// Every release measured, oldest first (`data/libtpu/releases.json`, made by
/// `scripts/libtpu/releases.py`). Columns: version, PJRT C API, newest
/// serialization version, `debug_locations` field, MLIR 24 encodings,
/// SparseCore, SparseCore `opt_level`s, build stamp.
#[rustfmt::skip] // one row a line, as scripts/libtpu/releases.py --print-table prints them
pub const RELEASES: &[Release] = &[
    // RELEASES-TABLE-BEGIN: `scripts/libtpu/releases.py --print-table` prints these rows
    release("0.0.35", (0, 90), 9, false, false, Refused, &[], 1770167003),
    release("0.0.36", (0, 91), 9, false, false, Refused, &[], 1771637013),
    release("0.0.37", (0, 98), 10, false, false, Refused, &[], 1772652728),
    release("0.0.38", (0, 100), 11, false, false, Refused, &[], 1773901367),
    release("0.0.39", (0, 103), 11, false, false, Refused, &[], 1775533690),
    release("0.0.40", (0, 103), 11, false, false, Refused, &[], 1776115041),
    release("0.0.41", (0, 108), 13, false, false, Megachip, &[], 1778694137),
    release("0.0.42", (0, 112), 15, false, false, Megachip, &[O0, O2], 1781541704),
    release("0.0.42.1", (0, 112), 15, false, false, Megachip, &[O0, O2], 1781719728),
    release("0.0.43.2", (0, 113), 15, false, true, Megachip, &[O0, O1, O2, O3], 1787608532),
    release("0.0.45", (0, 114), 15, false, true, Megachip, &[O0, O1, O2, O3], 1785546908),
    release("0.0.46", (0, 114), 15, false, true, Megachip, &[O0, O1, O2, O3], 1786578214),
    release("0.0.46.1", (0, 114), 15, false, true, Megachip, &[O0, O1, O2, O3], 1788263760),
    release("0.0.46.2", (0, 114), 15, false, true, Megachip, &[O0, O1, O2, O3], 1790986157),
    release("0.0.46.3", (0, 114), 15, false, true, Megachip, &[O0, O1, O2, O3], 1792067139),
    release("0.0.47", (0, 114), 16, false, true, Megachip, &[O0, O1, O2, O3], 1787977202),
    release("0.0.47.1", (0, 114), 16, false, true, Megachip, &[O0, O1, O2, O3], 1791986322),
    release("0.0.48", (0, 115), 17, false, true, Megachip, &[O0, O1, O2, O3], 1789421265),
    release("0.0.48.1", (0, 115), 17, false, true, Megachip, &[O0, O1, O2, O3], 1792069683),
    release("0.0.49", (0, 115), 17, false, true, Megachip, &[O0, O1, O2, O3], 1790063623),
    release("0.0.50", (0, 116), 18, true, true, CoreIds, &[O0, O1, O2, O3], 1791359221),
    release("0.0.50.1", (0, 116), 18, true, true, CoreIds, &[O0, O1, O2, O3], 1792655119),
    release("0.0.51", (0, 116), 18, true, true, CoreIds, &[O0, O1, O2, O3], 1792589089),
    release("0.0.52", (0, 117), 18, true, true, CoreIds, &[O0, O1, O2, O3], 1793869648),
    // RELEASES-TABLE-END
];

/// The release JAX 0.12 pairs with (`jax[tpu]` 0.12 pins libtpu 0.0.50.1),
/// and the default of `--libtpu-version`: its emission is the crate's
/// default, byte for byte.
pub const DEFAULT_RELEASE: &str = "0.0.50.1";

/// The row of `version` in [`RELEASES`], exactly.
pub fn find(version: &str) -> Option<&'static Release> {
    RELEASES.iter().find(|r| r.version == version)
}

/// The default release's row.
pub fn default_release() -> &'static Release {
    find(DEFAULT_RELEASE).unwrap_or(&RELEASES[RELEASES.len() - 1])
}

/// The releases of the table, as a list for messages (`0.0.35, ..., 0.0.52`).
pub fn known_versions() -> String {
    RELEASES
        .iter()
        .map(|r| r.version)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The releases whose plugin reports this PJRT C API version.
pub fn with_pjrt_api(major: u32, minor: u32) -> Vec<&'static Release> {
    RELEASES
        .iter()
        .filter(|r| r.pjrt_api == (major, minor))
        .collect()
}

/// The release whose libtpu.so carries this build stamp.
pub fn with_build_epoch(epoch: u64) -> Option<&'static Release> {
    RELEASES
        .iter()
        .find(|r| r.build_epoch != 0 && r.build_epoch == epoch)
}

/// `0.0.50.1` -> `[0, 0, 50, 1]`: two to four dot-separated numbers.
fn parse_parts(text: &str) -> Option<Vec<u32>> {
    let parts: Vec<u32> = text
        .split('.')
        .map(|p| {
            (!p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()?;
    (2..=4).contains(&parts.len()).then_some(parts)
}

/// Version order, missing trailing parts as 0 (`0.0.50` < `0.0.50.1`).
fn cmp_parts(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
    let n = a.len().max(b.len());
    let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
    (0..n)
        .map(|i| at(a, i).cmp(&at(b, i)))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// A `--libtpu-version` that names no release this crate can emit for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReleaseError {
    /// Not a release number.
    #[error(
        "--libtpu-version `{given}` is not a libtpu release (e.g. {DEFAULT_RELEASE}); the known releases: {}",
        known_versions()
    )]
    Malformed {
        /// What was given.
        given: String,
    },
    /// Older than every release measured.
    #[error(
        "--libtpu-version {given} is older than every release measured ({}, the oldest); the known \
         releases: {}",
        RELEASES[0].version,
        known_versions()
    )]
    TooOld {
        /// What was given.
        given: String,
    },
}

/// Which libtpu the emission is for: a release number, and the row of
/// [`RELEASES`] whose facts apply (its own, or the nearest older one's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LibtpuVersion {
    given: String,
    index: usize,
}

impl Default for LibtpuVersion {
    /// [`DEFAULT_RELEASE`].
    fn default() -> Self {
        LibtpuVersion::parse(DEFAULT_RELEASE).expect("the default release is in the table")
    }
}

impl LibtpuVersion {
    /// Reads a release number: its own row, or the nearest older row's facts
    /// (see [`LibtpuVersion::warning`]).
    pub fn parse(text: &str) -> Result<LibtpuVersion, ReleaseError> {
        let given = text.trim();
        let parts = parse_parts(given).ok_or_else(|| ReleaseError::Malformed {
            given: text.to_string(),
        })?;
        let index = RELEASES
            .iter()
            .rposition(|r| cmp_parts(&r.parts(), &parts).is_le())
            .ok_or_else(|| ReleaseError::TooOld {
                given: given.to_string(),
            })?;
        Ok(LibtpuVersion {
            given: given.to_string(),
            index,
        })
    }

    /// The row of this release (`&RELEASES[..]`).
    pub fn release(&self) -> &'static Release {
        &RELEASES[self.index]
    }

    /// The release number as given.
    pub fn version(&self) -> &str {
        &self.given
    }

    /// The release is a row of the table (not the nearest older one's facts).
    pub fn is_measured(&self) -> bool {
        cmp_parts(
            &self.release().parts(),
            &parse_parts(&self.given).unwrap_or_default(),
        )
        .is_eq()
    }

    /// It is the default release ([`DEFAULT_RELEASE`]).
    pub fn is_default(&self) -> bool {
        self.release().version == DEFAULT_RELEASE && self.is_measured()
    }

    /// What to warn about: a release outside the table, emitted for with
    /// the nearest older release's facts.
    pub fn warning(&self) -> Option<String> {
        (!self.is_measured()).then(|| {
            format!(
                "libtpu {} is not among the releases measured: emitting with the facts of {}, the nearest \
                 older one (scripts/libtpu/releases.py measures a release)",
                self.given,
                self.release().version
            )
        })
    }

    /// The serialization version emitted when none is asked for: JAX 0.12's
    /// forward-compatible 15, or the release's newest when it reads less;
    /// `None` when it reads none this crate writes.
    pub fn default_ir_version(&self) -> Option<u32> {
        let highest = self.release().highest_ir_version;
        (highest >= crate::serde::LOWEST_IR_VERSION)
            .then(|| highest.min(crate::serde::DEFAULT_IR_VERSION))
    }

    /// The parameter defaults for calls this release compiles: JAX 0.12's,
    /// with the serialization version it reads when it reads less than 15
    /// ([`LibtpuVersion::default_ir_version`]); the default release (0.0.50.1)
    /// changes nothing. PARAMS.json goes over them with
    /// [`Params::from_json_all_over`](crate::params::Params::from_json_all_over).
    pub fn default_params(&self) -> crate::params::Params {
        let mut params = crate::params::Params::default();
        if let Some(version) = self.default_ir_version() {
            params.ir_version = Some(version);
        }
        params
    }

    /// The serialization version emitted for `ir_version: null` (JAX's "the
    /// newest"): the release's newest, capped at this crate's (18).
    pub fn newest_ir_version(&self) -> u32 {
        self.release()
            .highest_ir_version
            .min(crate::serde::HIGHEST_IR_VERSION)
    }
}

impl FromStr for LibtpuVersion {
    type Err = ReleaseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        LibtpuVersion::parse(text)
    }
}

impl fmt::Display for LibtpuVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.given)
    }
}

/// What a call needs of the libtpu that compiles it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// The serialization version of its body.
    pub ir_version: u32,
    /// Its config has a `debug_locations` field.
    pub debug_locations_field: bool,
    /// Its body uses MLIR 24's builtin attribute encodings.
    pub llvm24_encodings: bool,
    /// It is a SparseCore call, and how its config names the core:
    /// `Some(CoreIds)` for `sparse_core_config.core_ids`, `Some(Megachip)`
    /// otherwise (megachip form, or no core named).
    pub sparse_core: Option<SparseCore>,
    /// The SparseCore `opt_level` its config names.
    pub opt_level: Option<OptLevel>,
    /// Its body is a plain MLIR module (no `serialization_format`, text or
    /// bytecode), which libtpu reads whatever its `stable_mosaic.version`
    /// says: measured to compile with the releases of
    /// [`PLAIN_BODY_RELEASES`] (older ones not measured).
    pub plain_body: bool,
}

/// The releases measured to compile a plain MLIR body (text, no
/// `serialization_format`; `tests/integration/text_body.rs` compiles one
/// with each installed release): every release installed here.
pub const PLAIN_BODY_RELEASES: &[&str] = &["0.0.42.1", "0.0.47.1", "0.0.50.1", "0.0.52"];

/// `release` is at least the oldest release measured to compile a plain
/// body.
fn reads_plain_body(release: &Release) -> bool {
    let oldest = parse_parts(PLAIN_BODY_RELEASES[0]).unwrap_or_default();
    cmp_parts(&release.parts(), &oldest) != std::cmp::Ordering::Less
}

impl Needs {
    /// Why `release` cannot compile a call with these needs, one phrase per
    /// reason (empty: it can).
    pub fn unmet_by(&self, release: &Release) -> Vec<String> {
        let mut why = Vec::new();
        if self.plain_body && !reads_plain_body(release) {
            why.push(format!(
                "its body is plain MLIR (no serialization_format), measured to compile from libtpu {} on; \
                 libtpu {} was not measured",
                PLAIN_BODY_RELEASES[0], release.version
            ));
        }
        if !self.plain_body && release.highest_ir_version < self.ir_version {
            why.push(format!(
                "its body is at serialization version {}, and libtpu {} reads up to {}",
                self.ir_version, release.version, release.highest_ir_version
            ));
        }
        if self.debug_locations_field && !release.debug_locations_field {
            why.push(format!(
                "its config has a `debug_locations` field, which libtpu {} does not know",
                release.version
            ));
        }
        if self.llvm24_encodings && !release.llvm24_encodings {
            why.push(format!(
                "its body uses MLIR 24's bytecode encodings, which libtpu {}'s parser predates",
                release.version
            ));
        }
        if let Some(form) = self.sparse_core
            && release.sparse_core < form
        {
            why.push(match (form, release.sparse_core) {
                (_, SparseCore::Refused) => format!(
                    "it is a SparseCore call, and libtpu {} compiles no SparseCore kernel",
                    release.version
                ),
                _ => format!(
                    "it names its SparseCore in `sparse_core_config.core_ids`, which libtpu {} takes only \
                     in `megachip_parallelism_config`",
                    release.version
                ),
            });
        }
        if let Some(level) = self.opt_level
            && !release.sc_opt_levels.contains(&level)
        {
            why.push(format!(
                "its config names opt_level {}, which libtpu {} does not know",
                level.name(),
                release.version
            ));
        }
        why
    }

    /// The needs as JSON (`inspect --json`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "ir_version": self.ir_version,
            "debug_locations_field": self.debug_locations_field,
            "llvm24_encodings": self.llvm24_encodings,
            "sparse_core": self.sparse_core.map(SparseCore::name),
            "opt_level": self.opt_level.map(OptLevel::name),
            "plain_body": self.plain_body,
        })
    }

    /// Why, in words, the oldest release is the oldest: the needs that
    /// rule the older ones out (`serialization version 15, debug_locations
    /// field`), or `nothing beyond the oldest release measured`.
    pub fn describe(&self) -> String {
        let mut parts = vec![if self.plain_body {
            "plain MLIR body, no serialization_format".to_string()
        } else {
            format!("serialization version {}", self.ir_version)
        }];
        if self.debug_locations_field {
            parts.push("`debug_locations` field".to_string());
        }
        if self.llvm24_encodings {
            parts.push("MLIR 24 encodings".to_string());
        }
        match self.sparse_core {
            Some(SparseCore::CoreIds) => parts.push("SparseCore, `core_ids`".to_string()),
            Some(_) => parts.push("SparseCore".to_string()),
            None => {}
        }
        if let Some(level) = self.opt_level {
            parts.push(format!("opt_level {}", level.name()));
        }
        parts.join(", ")
    }
    /// `release` compiles a call with these needs (as far as the facts of
    /// the table go).
    pub fn met_by(&self, release: &Release) -> bool {
        (if self.plain_body {
            reads_plain_body(release)
        } else {
            release.highest_ir_version >= self.ir_version
        }) && (!self.debug_locations_field || release.debug_locations_field)
            && (!self.llvm24_encodings || release.llvm24_encodings)
            && self
                .sparse_core
                .is_none_or(|form| release.sparse_core >= form)
            && self
                .opt_level
                .is_none_or(|level| release.sc_opt_levels.contains(&level))
    }

    /// The oldest release of the table that compiles it; `None`: none does.
    pub fn oldest_release(&self) -> Option<&'static Release> {
        RELEASES.iter().find(|r| self.met_by(r))
    }

    /// What the oldest release is, in words, for `inspect` / `validate`.
    pub fn describe_oldest(&self) -> String {
        match self.oldest_release() {
            Some(r) => format!("libtpu {} or newer", r.version),
            None => "no libtpu release measured".to_string(),
        }
    }
}

/// The first release (oldest) of which `test` holds, for "first accepted by"
/// messages.
pub fn first_release(test: impl Fn(&Release) -> bool) -> Option<&'static Release> {
    RELEASES.iter().find(|r| test(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_ordered_and_has_the_default() {
        for pair in RELEASES.windows(2) {
            assert!(
                cmp_parts(&pair[0].parts(), &pair[1].parts()).is_lt(),
                "{} before {}",
                pair[0].version,
                pair[1].version
            );
        }
        assert_eq!(LibtpuVersion::default().release().version, DEFAULT_RELEASE);
        assert!(LibtpuVersion::default().is_default());
        assert_eq!(LibtpuVersion::default().default_ir_version(), Some(15));
    }

    #[test]
    fn parse_exact_between_newer_and_bad() {
        let newest = RELEASES[RELEASES.len() - 1].version;
        assert!(LibtpuVersion::parse(newest).unwrap().is_measured());
        let future = LibtpuVersion::parse("0.0.99").unwrap();
        assert_eq!(future.release().version, newest);
        assert!(future.warning().unwrap().contains("nearest older"));
        assert!(LibtpuVersion::parse(" 0.0.50.1 ").unwrap().is_default());
        for bad in [
            "",
            "0",
            "latest",
            "0.0.50.1.2",
            "0..50",
            "v0.0.50",
            "0.0.5x",
            "-1.0.0",
        ] {
            let e = LibtpuVersion::parse(bad).unwrap_err();
            assert!(e.to_string().contains(DEFAULT_RELEASE), "{bad}: {e}");
        }
        assert!(matches!(
            LibtpuVersion::parse("0.0.1"),
            Err(ReleaseError::TooOld { .. })
        ));
    }
}
