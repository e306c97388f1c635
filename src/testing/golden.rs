//! Golden modules a test suite keeps in files, compared by meaning, and
//! blessed (rewritten from the actual module) with `BLESS=1`.
//!
//! The rules of blessing, each there because a hand-written `BLESS=1` got it
//! wrong:
//!
//! - only under `BLESS=1` (exactly `1`; [`GoldenOptions::from_env`]), and only
//!   the file of the assertion that differs: nothing else is written;
//! - only from a test that passes: the write is made when the test's thread
//!   ends, and not at all when that thread panicked, whether the test failed
//!   or expected the panic (`catch_unwind`); a test marked `#[should_panic]`
//!   (read from its source: the caller's file, the function the test thread
//!   is named after) never blesses, and under `BLESS=1` its assertion panics
//!   as without. A negative test can therefore not bless, and should not
//!   call [`assert_golden`] anyway: [`golden_diff`] returns the report and
//!   never blesses;
//! - only a module that decodes and whose every call is valid
//!   ([`crate::validate::module_report`], without a chip: JAX's rules and
//!   ours): an invalid module is never written as a golden;
//! - one golden per assertion: when two assertions of one process (two tests,
//!   or one test twice) compare the same file with modules that differ by
//!   meaning, the second fails naming the first, and nothing is blessed (a
//!   bless already written is undone): there is no "first one wins";
//! - a golden equal by meaning is left as it is (no churn of bytes: producer
//!   strings, locations, attribute order).
//!
//! What was blessed is printed on stderr (`blessed PATH (test NAME): ...`),
//! and so is what was not (`not blessed PATH (test NAME): the test failed`).
//! Outside the libtest harness (no test thread: a doctest, a
//! `harness = false` test) the write is made at once.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use crate::diff::{DiffOptions, DiffReport};

/// The environment variable that turns blessing on (`BLESS=1`).
pub const BLESS_ENV: &str = "BLESS";

/// How [`assert_golden_with`] compares and whether it blesses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoldenOptions {
    /// Rewrite a golden that differs (or is missing) from the actual module,
    /// under the rules of this module's documentation.
    pub bless: bool,
    /// How the modules are compared ([`crate::diff::DiffOptions`]).
    pub diff: DiffOptions,
}

impl GoldenOptions {
    /// Blessing as the environment says: `BLESS=1` turns it on; any other
    /// value (or none) leaves it off.
    pub fn from_env() -> Self {
        GoldenOptions {
            bless: std::env::var_os(BLESS_ENV).is_some_and(|v| v == "1"),
            diff: DiffOptions::default(),
        }
    }
}

/// What one process has asserted against one golden file.
struct Asserted {
    /// The first assertion's test and module.
    test: String,
    module: Vec<u8>,
    /// The file's bytes before any bless (`None`: it did not exist).
    original: Option<Vec<u8>>,
    /// Two assertions disagreed: nothing is blessed.
    conflict: bool,
    /// The bless was written.
    written: bool,
}

fn registry() -> &'static Mutex<HashMap<PathBuf, Asserted>> {
    static REGISTRY: std::sync::OnceLock<Mutex<HashMap<PathBuf, Asserted>>> =
        std::sync::OnceLock::new();
    REGISTRY.get_or_init(|| Mutex::new(HashMap::new()))
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<PathBuf, Asserted>> {
    // A panic while holding the lock only ever comes from this module's own
    // messages (raised after the lock is released): take the data anyway.
    registry().lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// This thread panicked (set by the hook installed once).
    static PANICKED: Cell<bool> = const { Cell::new(false) };
    /// Blesses waiting for the end of this thread's test.
    static PENDING: RefCell<Pending> = const { RefCell::new(Pending(Vec::new())) };
}

/// A bless to write when the test passes.
struct Bless {
    /// The registry's key (absolute).
    path: PathBuf,
    /// The path as the assertion gave it.
    shown: String,
    bytes: Vec<u8>,
    test: String,
    what: String,
}

struct Pending(Vec<Bless>);

impl Drop for Pending {
    /// The end of the test's thread: write the blesses if it did not panic.
    fn drop(&mut self) {
        let panicked = PANICKED.try_with(Cell::get).unwrap_or(true);
        for bless in self.0.drain(..) {
            if panicked {
                eprintln!(
                    "not blessed {} (test {}): the test failed or expected a failure; a test blesses \
                     only when it passes",
                    bless.shown, bless.test
                );
            } else {
                commit(bless);
            }
        }
    }
}

fn install_panic_flag() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = PANICKED.try_with(|p| p.set(true));
            previous(info);
        }));
    });
}

fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("unnamed thread")
        .to_string()
}

/// Writes a bless (atomically: a temporary file beside it, renamed), unless
/// two assertions disagreed on the file meanwhile.
fn commit(bless: Bless) {
    let mut goldens = lock();
    let entry = goldens.get_mut(&bless.path);
    if entry.as_ref().is_some_and(|e| e.conflict) {
        eprintln!(
            "not blessed {} (test {}): several assertions compare it with different modules",
            bless.shown, bless.test
        );
        return;
    }
    match write_atomically(&bless.path, &bless.bytes) {
        Ok(()) => {
            if let Some(entry) = entry {
                entry.written = true;
            }
            eprintln!(
                "blessed {} (test {}): {}",
                bless.shown, bless.test, bless.what
            );
        }
        Err(e) => eprintln!("not blessed {} (test {}): {e}", bless.shown, bless.test),
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file_name = path
        .file_name()
        .map_or_else(|| "golden".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{file_name}.bless-{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The golden's key: the path made absolute (the working directory of a
/// test is its package's root).
fn key(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Compares the actual module with the golden file at `path`, by meaning
/// ([`crate::diff`]); never blesses. For negative tests: assert on the
/// report (`!report.is_equal()`, the fields in
/// [`DiffReport::differences`]). Panics when the golden cannot be read or
/// either module cannot be decoded.
#[track_caller]
pub fn golden_diff(actual: impl AsRef<[u8]>, path: impl AsRef<Path>) -> DiffReport {
    golden_diff_with(actual, path, &DiffOptions::default())
}

/// [`golden_diff`] with comparison options.
#[track_caller]
pub fn golden_diff_with(
    actual: impl AsRef<[u8]>,
    path: impl AsRef<Path>,
    options: &DiffOptions,
) -> DiffReport {
    let path = path.as_ref();
    let golden = std::fs::read(path)
        .unwrap_or_else(|e| panic!("cannot read the golden {}: {e}", path.display()));
    compare(&golden, path, actual.as_ref(), options)
        .unwrap_or_else(|e| panic!("cannot compare with the golden {}: {e}", path.display()))
}

fn compare(
    golden: &[u8],
    path: &Path,
    actual: &[u8],
    options: &DiffOptions,
) -> Result<DiffReport, String> {
    super::check_not_path("the actual module", actual)?;
    let ctx = crate::Context::new();
    let name = path.display().to_string();
    crate::diff::diff_modules(&ctx, (golden, &name), (actual, "actual"), options)
        .map_err(|e| e.to_string())
}

/// Asserts that `actual` (module text in JAX's pretty or generic form, or
/// bytecode) equals by meaning the golden module in the file at `path`; with
/// `BLESS=1` a missing or different golden is rewritten from `actual` when
/// the test passes (the rules are in this module's documentation). Panics
/// with the diff report (and how to bless) when they differ.
///
/// ```no_run
/// use tpu_custom_call::testing::assert_golden;
///
/// let ours = std::fs::read("target/my-compiler/add.mlir").unwrap();
/// assert_golden(&ours, "tests/goldens/add.mlir"); // BLESS=1 cargo test rewrites it
/// ```
#[track_caller]
pub fn assert_golden(actual: impl AsRef<[u8]>, path: impl AsRef<Path>) {
    assert_golden_with(actual, path, &GoldenOptions::from_env());
}

/// [`assert_golden`] of a module built in memory (printed in the generic
/// form, without locations, first).
#[track_caller]
pub fn assert_module_golden(actual: &melior::ir::Module<'_>, path: impl AsRef<Path>) {
    let printed = crate::kernel::print_module(
        actual,
        crate::PrintOptions {
            generic: true,
            debug_info: false,
        },
    )
    .unwrap_or_else(|e| panic!("cannot print the actual module: {e}"));
    assert_golden_with(printed, path, &GoldenOptions::from_env());
}

/// [`assert_golden`] with explicit options (blessing on or off, comparison
/// options), whatever the environment says.
#[track_caller]
pub fn assert_golden_with(
    actual: impl AsRef<[u8]>,
    path: impl AsRef<Path>,
    options: &GoldenOptions,
) {
    let caller = std::panic::Location::caller();
    let expects_panic = options.bless && expects_panic(caller.file(), caller.line());
    let options = if expects_panic {
        eprintln!(
            "note: {}:{}: not blessing in a #[should_panic] test",
            caller.file(),
            caller.line()
        );
        &GoldenOptions {
            bless: false,
            ..options.clone()
        }
    } else {
        options
    };
    if let Err(message) = golden_check(actual.as_ref(), path.as_ref(), options) {
        panic!("{message}");
    }
}

/// Whether the test running this thread is marked `#[should_panic]`, read
/// from its source: the test function the thread is named after (libtest
/// names it `module::test`) in the caller's file, else the function around
/// the caller's line. `false` when the source cannot be read.
fn expects_panic(file: &str, line: u32) -> bool {
    let candidates = [
        Some(PathBuf::from(file)),
        std::env::var_os("CARGO_MANIFEST_DIR").map(|d| PathBuf::from(d).join(file)),
    ];
    // In a workspace the caller's file is relative to the workspace root and
    // the test runs in the package's folder: also try the file's path with
    // its leading folders taken off.
    let stripped = Path::new(file).ancestors().count().saturating_sub(1);
    let tails = (1..stripped).filter_map(|n| {
        let tail: PathBuf = Path::new(file).components().skip(n).collect();
        tail.is_file().then_some(tail)
    });
    let Some(source) = candidates
        .into_iter()
        .flatten()
        .chain(tails)
        .find_map(|p| std::fs::read_to_string(p).ok())
    else {
        return false;
    };
    let lines: Vec<&str> = source.lines().collect();
    let test = std::thread::current()
        .name()
        .map(|n| n.rsplit("::").next().unwrap_or(n).to_string());
    let is_fn = |l: &str, name: Option<&str>| {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t.strip_prefix("async ").unwrap_or(t);
        match (t.strip_prefix("fn "), name) {
            (Some(rest), Some(name)) => rest
                .strip_prefix(name)
                .is_some_and(|r| r.starts_with('(') || r.starts_with('<')),
            (Some(_), None) => true,
            (None, _) => false,
        }
    };
    let at = test
        .as_deref()
        .and_then(|name| lines.iter().position(|l| is_fn(l, Some(name))))
        .or_else(|| {
            let upto = (line as usize).min(lines.len());
            (0..upto).rev().find(|&i| is_fn(lines[i], None))
        });
    let Some(at) = at else {
        return false;
    };
    // The attributes above it, up to the end of the previous item.
    lines[..at]
        .iter()
        .rev()
        .take_while(|l| {
            let t = l.trim_end();
            !(t.ends_with('}') || t.ends_with(';'))
        })
        .filter(|l| !l.trim_start().starts_with("//"))
        .any(|l| l.contains("should_panic"))
}

/// The check behind [`assert_golden_with`]: `Err(message)` where it panics.
fn golden_check(actual: &[u8], path: &Path, options: &GoldenOptions) -> Result<(), String> {
    crate::diff::check_options(&options.diff).map_err(|e| e.to_string())?;
    let shown = path.display().to_string();
    let test = test_name();
    let golden = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read the golden {shown}: {e}")),
    };
    super::check_not_path("the actual module", actual)?;
    // The actual module must decode, whatever the golden.
    let ctx = crate::Context::new();
    crate::decode::find_calls(&ctx, actual, "actual")
        .map_err(|e| format!("the actual module compared with {shown} cannot be decoded: {e}"))?;
    let report = match &golden {
        Some(bytes) => match compare(bytes, path, actual, &options.diff) {
            Ok(report) => Some(report),
            // A golden that no longer decodes: only blessing can fix it.
            Err(e) if options.bless => {
                eprintln!("note: the golden {shown} cannot be decoded ({e}); blessing replaces it");
                None
            }
            Err(e) => return Err(format!("cannot compare with the golden {shown}: {e}")),
        },
        None => None,
    };
    let others = register(path, &test, actual, golden.as_deref(), options)?;
    let equal = report.as_ref().is_some_and(DiffReport::is_equal);
    if equal {
        return Ok(());
    }
    if !options.bless {
        let also = if others.is_empty() {
            String::new()
        } else {
            format!("\n(this golden is also asserted by: {})", others.join(", "))
        };
        return Err(match report {
            Some(report) => format!(
                "the module differs from the golden {shown}:\n{report}To accept the actual module as the \
                 golden: {BLESS_ENV}=1 cargo test{also}"
            ),
            None => format!(
                "the golden {shown} does not exist; {BLESS_ENV}=1 cargo test writes it from the actual \
                 module{also}"
            ),
        });
    }
    // Blessing: only a valid module.
    let verdict = crate::validate::module_report(
        &ctx,
        actual,
        "the actual module",
        None,
        &crate::validate::ValidateOptions::default(),
    )
    .map_err(|e| format!("not blessed {shown}: {e}"))?;
    if !verdict.is_valid() {
        return Err(format!(
            "not blessed {shown}: only a valid module is written as a golden, and {verdict}"
        ));
    }
    let what = match &report {
        Some(r) => {
            let fields: Vec<String> = r
                .differences()
                .map(|(a, b, d)| {
                    if a == b {
                        format!("#{a} {}", d.field)
                    } else {
                        format!("#{a}/#{b} {}", d.field)
                    }
                })
                .chain(
                    r.unpaired
                        .iter()
                        .map(|u| format!("call #{} only on one side", u.index)),
                )
                .collect();
            format!("was different ({})", fields.join(", "))
        }
        None if golden.is_some() => "was not a decodable module".to_string(),
        None => "created".to_string(),
    };
    let bless = Bless {
        path: key(path),
        shown: shown.clone(),
        bytes: actual.to_vec(),
        test,
        what,
    };
    if std::thread::current().name().is_none_or(|n| n == "main") {
        // No test thread to wait for: write now.
        commit(bless);
        return Ok(());
    }
    install_panic_flag();
    PENDING.with(|p| p.borrow_mut().0.push(bless));
    Ok(())
}

/// Records an assertion on a golden; `Err` when an earlier assertion of this
/// process compared it with a module that differs by meaning (and then
/// nothing is blessed: a bless already written is undone). `Ok` lists the
/// other tests that asserted it.
fn register(
    path: &Path,
    test: &str,
    actual: &[u8],
    golden: Option<&[u8]>,
    options: &GoldenOptions,
) -> Result<Vec<String>, String> {
    let k = key(path);
    let mut goldens = lock();
    let Some(entry) = goldens.get_mut(&k) else {
        goldens.insert(
            k,
            Asserted {
                test: test.to_string(),
                module: actual.to_vec(),
                original: golden.map(<[u8]>::to_vec),
                conflict: false,
                written: false,
            },
        );
        return Ok(Vec::new());
    };
    let ctx = crate::Context::new();
    let first = format!("the module of test {}", entry.test);
    let same = crate::diff::diff_modules(
        &ctx,
        (&entry.module, &first),
        (actual, &format!("the module of test {test}")),
        &options.diff,
    );
    match same {
        Ok(report) if report.is_equal() => Ok(if entry.test == test {
            Vec::new()
        } else {
            vec![entry.test.clone()]
        }),
        // Without blessing each assertion fails or passes on its own.
        _ if !options.bless => Ok(vec![format!("{} (with another module)", entry.test)]),
        other => {
            entry.conflict = true;
            let mut undone = String::new();
            if entry.written {
                let restored = match &entry.original {
                    Some(bytes) => write_atomically(&k, bytes),
                    None => std::fs::remove_file(&k),
                };
                undone = match restored {
                    Ok(()) => format!("; the bless test {} wrote is undone", entry.test),
                    Err(e) => format!(
                        "; the bless test {} wrote could not be undone: {e}",
                        entry.test
                    ),
                };
                entry.written = false;
            }
            let diff = match other {
                Ok(report) => report.to_string(),
                Err(e) => e.to_string(),
            };
            Err(format!(
                "several assertions on the golden {}: test {} compared it with another module than \
                 test {test}; one golden per assertion (give each its own file); nothing is \
                 blessed{undone}:\n{diff}",
                path.display(),
                entry.test,
            ))
        }
    }
}
