//! The one place an MLIR context is made.
//!
//! A [`Context`] registers exactly the dialects a Mosaic kernel or its StableHLO
//! wrapper needs (`func`, `arith`, `math`, `vector`, `scf`, `memref`, `cf`,
//! `index`, plus the pass-through `tpu`, `stablehlo`, `sdy` and `chlo` dialects compiled from
//! `cpp/passthrough.cpp`), allows unregistered dialects, disables MLIR's thread
//! pool (creation stays cheap and output deterministic), and captures every
//! diagnostic instead of printing it.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use melior::dialect::{DialectHandle, DialectRegistry};
use melior::ir::Location;
use melior::{Context as MlirContext, diagnostic::DiagnosticSeverity};
use mlir_sys::MlirLocation;

use crate::ffi::{
    mlirGetDialectHandle__tcc_chlo__, mlirGetDialectHandle__tcc_sdy__,
    mlirGetDialectHandle__tcc_stablehlo__, mlirGetDialectHandle__tcc_tpu__,
};

/// How serious a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// An error: the operation that raised it failed.
    Error,
    /// A warning.
    Warning,
    /// A note attached to another diagnostic.
    Note,
    /// A remark.
    Remark,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

/// One MLIR diagnostic, copied out of the context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity of the diagnostic.
    pub severity: Severity,
    /// 1-based line of the source position, when the location has one.
    pub line: Option<u32>,
    /// 1-based column of the source position, when the location has one.
    pub column: Option<u32>,
    /// The location as MLIR prints it (`loc("file":3:5)`, `loc(unknown)`, ...).
    pub location: String,
    /// The message text.
    pub message: String,
    /// Notes attached to the diagnostic, in order.
    pub notes: Vec<Diagnostic>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{line}:{column}: ")?,
            _ if self.location != "loc(unknown)"
                && !self.location.is_empty()
                && !self.location.ends_with(":0:0)") =>
            {
                write!(f, "{}: ", self.location)?
            }
            _ => {}
        }
        write!(f, "{}: {}", self.severity, self.message)?;
        for note in &self.notes {
            write!(f, "\n  {note}")?;
        }
        Ok(())
    }
}

/// Formats a list of diagnostics one per line (used by error `Display`s).
pub(crate) fn join_diagnostics(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "(MLIR gave no diagnostic)".to_string();
    }
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// An MLIR context set up for Mosaic kernels and StableHLO modules, with
/// diagnostics captured.
///
/// ```
/// let ctx = tpu_custom_call::Context::new();
/// assert!(ctx.mlir().allow_unregistered_dialects());
/// ```
pub struct Context {
    // Declared first so it is dropped first; the handler (which owns a clone of
    // `sink`) is destroyed with the context.
    mlir: MlirContext,
    sink: Rc<RefCell<Vec<Diagnostic>>>,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context").finish_non_exhaustive()
    }
}

/// The dialect handles registered in every [`Context`].
fn dialect_handles() -> [DialectHandle; 12] {
    // SAFETY: these functions only return static handle descriptors.
    unsafe {
        [
            DialectHandle::func(),
            DialectHandle::arith(),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__math__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__vector__()),
            DialectHandle::scf(),
            DialectHandle::memref(),
            DialectHandle::cf(),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__index__()),
            DialectHandle::from_raw(mlirGetDialectHandle__tcc_tpu__()),
            DialectHandle::from_raw(mlirGetDialectHandle__tcc_stablehlo__()),
            DialectHandle::from_raw(mlirGetDialectHandle__tcc_sdy__()),
            DialectHandle::from_raw(mlirGetDialectHandle__tcc_chlo__()),
        ]
    }
}

impl Context {
    /// Makes a context with the Mosaic/StableHLO dialects registered and
    /// loaded, unregistered dialects allowed and multithreading disabled.
    pub fn new() -> Self {
        let registry = DialectRegistry::new();
        for handle in dialect_handles() {
            handle.insert_dialect(&registry);
        }
        let mlir = MlirContext::new_with_registry(&registry, false);
        load_dialects(&mlir);
        mlir.set_allow_unregistered_dialects(true);
        let sink = Rc::new(RefCell::new(Vec::new()));
        let handler_sink = Rc::clone(&sink);
        mlir.attach_diagnostic_handler(move |diagnostic| {
            handler_sink.borrow_mut().push(convert(&diagnostic));
            true
        });
        Self { mlir, sink }
    }

    /// The underlying melior context, for building IR directly.
    pub fn mlir(&self) -> &MlirContext {
        &self.mlir
    }

    /// Removes and returns every diagnostic captured so far.
    pub fn take_diagnostics(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.sink.borrow_mut())
    }

    /// Runs `f` and returns its result with the diagnostics it raised (see
    /// [`capture`]).
    pub fn capture<T>(&self, f: impl FnOnce() -> T) -> (T, Vec<Diagnostic>) {
        capture(&self.mlir, f)
    }

    /// An unknown location in this context.
    pub fn unknown_location(&self) -> Location<'_> {
        Location::unknown(&self.mlir)
    }
}

/// A context for the compiled engine (`exec`'s JIT): every upstream dialect
/// and the LLVM IR translations registered, every pass registered (once per
/// process) so that pass pipelines parse, multithreading disabled.
#[cfg(feature = "exec")]
pub(crate) fn jit_context() -> MlirContext {
    static PASSES: std::sync::Once = std::sync::Once::new();
    PASSES.call_once(melior::utility::register_all_passes);
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    let mlir = MlirContext::new_with_registry(&registry, false);
    mlir.load_all_available_dialects();
    melior::utility::register_all_llvm_translations(&mlir);
    mlir
}

impl std::ops::Deref for Context {
    type Target = MlirContext;

    fn deref(&self) -> &MlirContext {
        &self.mlir
    }
}

/// Prepares a context the caller made: registers and loads the dialects a
/// Mosaic kernel or StableHLO module needs (including the pass-through `tpu`
/// and `stablehlo` dialects) and allows unregistered dialects. Every function
/// of this crate that parses or builds IR expects a context prepared this way
/// (a [`Context`] is).
pub fn prepare(ctx: &MlirContext) {
    let registry = DialectRegistry::new();
    for handle in dialect_handles() {
        handle.insert_dialect(&registry);
    }
    ctx.append_dialect_registry(&registry);
    load_dialects(ctx);
    ctx.set_allow_unregistered_dialects(true);
}

/// Loads every dialect of [`dialect_handles`] into `ctx`, so that melior's own
/// op builders (`arith::constant`, `func::func`, ...), which need the op
/// registered to infer results and store properties, work on it. Registering
/// alone makes a dialect available to the parser only.
fn load_dialects(ctx: &MlirContext) {
    for handle in dialect_handles() {
        handle.load_dialect(ctx);
    }
}

/// Runs `f` with a diagnostic handler on top of `ctx`'s handlers and returns
/// `f`'s result with every diagnostic raised meanwhile; they are not passed on
/// to other handlers (nothing is printed).
pub fn capture<T>(ctx: &MlirContext, f: impl FnOnce() -> T) -> (T, Vec<Diagnostic>) {
    let sink = Rc::new(RefCell::new(Vec::new()));
    let handler_sink = Rc::clone(&sink);
    let id = ctx.attach_diagnostic_handler(move |diagnostic| {
        handler_sink.borrow_mut().push(convert(&diagnostic));
        true
    });
    let value = f();
    ctx.detach_diagnostic_handler(id);
    let diagnostics = std::mem::take(&mut *sink.borrow_mut());
    (value, diagnostics)
}

fn convert(diagnostic: &melior::diagnostic::Diagnostic) -> Diagnostic {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    let location = diagnostic.location();
    let (line, column) = line_column(location.to_raw());
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|note| convert(&note))
        .collect();
    Diagnostic {
        severity,
        line,
        column,
        // Printed without `to_string`: melior's `Display` fails (and
        // `to_string` panics) on text that is not UTF-8, which malformed
        // input can produce.
        // SAFETY: the location is live for the duration of the handler; the
        // callback only appends bytes.
        location: print_lossy(|cb, data| unsafe {
            mlir_sys::mlirLocationPrint(location.to_raw(), cb, data)
        }),
        message: {
            use std::fmt::Write as _;
            let mut message = String::new();
            if write!(message, "{diagnostic}").is_err() {
                message.push_str("<message is not UTF-8>");
            }
            message
        },
        notes,
    }
}

/// Collects what an MLIR print function writes, replacing invalid UTF-8.
fn print_lossy(print: impl FnOnce(mlir_sys::MlirStringCallback, *mut std::ffi::c_void)) -> String {
    unsafe extern "C" fn append(chunk: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `Vec<u8>` below; `chunk` is valid for the call.
        unsafe {
            let out = &mut *(data as *mut Vec<u8>);
            out.extend_from_slice(crate::ffi::bytes(chunk));
        }
    }
    let mut bytes: Vec<u8> = Vec::new();
    print(
        Some(append),
        &mut bytes as *mut Vec<u8> as *mut std::ffi::c_void,
    );
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Start line and column of a file location, looking through name and
/// call-site wrappers.
fn line_column(mut location: MlirLocation) -> (Option<u32>, Option<u32>) {
    // SAFETY: `location` is a valid location owned by a live context; these
    // queries only read it.
    unsafe {
        for _ in 0..64 {
            if mlir_sys::mlirLocationIsAFileLineColRange(location) {
                let line = mlir_sys::mlirLocationFileLineColRangeGetStartLine(location);
                let column = mlir_sys::mlirLocationFileLineColRangeGetStartColumn(location);
                // Bytecode and other sourceless diagnostics say `:0:0`.
                let known = |v: i32| u32::try_from(v).ok().filter(|&v| v > 0);
                return (known(line), known(column));
            } else if mlir_sys::mlirLocationIsAName(location) {
                location = mlir_sys::mlirLocationNameGetChildLoc(location);
            } else if mlir_sys::mlirLocationIsACallSite(location) {
                location = mlir_sys::mlirLocationCallSiteGetCallee(location);
            } else {
                break;
            }
        }
    }
    (None, None)
}
