//! Mosaic kernel modules in and out: MLIR text or bytecode in, verified;
//! text (generic or pretty, with or without locations) and bytecode (chosen
//! format version, settable producer string) out.

pub mod interop;

use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{AttributeLike, Module, OperationRef};
use mlir_sys::MlirStringRef;

use melior::Context;

use crate::context::{Diagnostic, capture, join_diagnostics};
use crate::ffi::OpIndex;
use crate::ffi::{
    collect_bytes, tcc_current_bytecode_version, tcc_default_producer,
    tcc_operation_get_properties, tcc_operation_is_registered, tcc_print_operation,
    tcc_write_bytecode,
};
pub use crate::mosaic::vocab::{MAX_TEXT_NESTING, MEMORY_SPACES};
use crate::mosaic::vocab::{check_text_nesting, find_unknown_memory_space};

/// The four bytes every MLIR bytecode file starts with.
pub const BYTECODE_MAGIC: &[u8; 4] = crate::bytecode::MAGIC;

/// How a module's bytes are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModuleFormat {
    /// MLIR text (generic or custom form).
    Text,
    /// MLIR bytecode.
    Bytecode,
}

impl ModuleFormat {
    /// `text` or `bytecode`.
    pub const fn name(self) -> &'static str {
        match self {
            ModuleFormat::Text => "text",
            ModuleFormat::Bytecode => "bytecode",
        }
    }

    /// Parses `text` or `bytecode`.
    pub fn parse(s: &str) -> Option<Self> {
        [ModuleFormat::Text, ModuleFormat::Bytecode]
            .into_iter()
            .find(|f| f.name() == s)
    }

    /// The format of `bytes`: bytecode when they start with the bytecode
    /// magic, text otherwise.
    pub fn sniff(bytes: &[u8]) -> Self {
        if bytes.starts_with(BYTECODE_MAGIC) {
            ModuleFormat::Bytecode
        } else {
            ModuleFormat::Text
        }
    }
}

crate::spelling::spelled!(ModuleFormat, "module format", name, ["text", "bytecode"]);

/// `kernel @name` for a module built in memory: its `sym_name`, else its
/// first function's.
fn built_kernel_name(module: &Module<'_>) -> String {
    use melior::ir::operation::OperationLike;
    let sym = |o: &melior::ir::OperationRef<'_, '_>| {
        o.attribute("sym_name").ok().map(|a| {
            crate::ffi::attr_text(a.to_raw())
                .trim_matches('"')
                .to_string()
        })
    };
    let name = sym(&module.as_operation()).or_else(|| {
        let mut child = module.body().first_operation();
        while let Some(c) = child {
            if crate::ffi::identifier_str(&c.name()) == "func.func" {
                return sym(&c);
            }
            child = c.next_in_block();
        }
        None
    });
    match name {
        Some(n) if !n.is_empty() => format!("kernel @{n}"),
        _ => "<module>".to_string(),
    }
}

/// Errors while loading, printing or writing a kernel module. `Debug`
/// prints the message (what `main() -> Result<..>` shows).
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum KernelError {
    /// The input has no content.
    #[error(
        "{source_name}: input is empty: expected a Mosaic kernel module (MLIR text or bytecode)"
    )]
    Empty {
        /// Name of the input (file name, `<stdin>`, `<memory>`).
        source_name: String,
    },
    /// Neither UTF-8 text nor bytecode.
    #[error(
        "{source_name}: input is neither MLIR text (invalid UTF-8 at byte {offset}) nor MLIR bytecode (no `ML\\xEFR` magic)"
    )]
    NotMlir {
        /// Name of the input.
        source_name: String,
        /// Offset of the first invalid UTF-8 byte.
        offset: usize,
    },
    /// A `#tpu.memory_space<...>` that Mosaic does not know: our pass-through
    /// `tpu` dialect would keep it verbatim, but jaxlib (and the TPU
    /// compiler) cannot parse it.
    #[error(
        "{source_name}:{line}:{column}: expected one of [{}] for Memory space, got: {value}\n  \
         hint: `#tpu.memory_space<{value}>` is not a Mosaic memory space (jaxlib's message above)",
        MEMORY_SPACES.join(", ")
    )]
    UnknownMemorySpace {
        /// Name of the input.
        source_name: String,
        /// 1-based line.
        line: u32,
        /// 1-based column of the `#`.
        column: u32,
        /// The value written between `<` and `>`.
        value: String,
    },
    /// MLIR could not parse the text or bytecode.
    #[error("{source_name}: failed to parse MLIR {format}:\n{}", join_diagnostics(.diagnostics))]
    Parse {
        /// Name of the input.
        source_name: String,
        /// `text` or `bytecode`.
        format: ModuleFormat,
        /// Every diagnostic MLIR raised.
        diagnostics: Vec<Diagnostic>,
    },
    /// The module parsed but does not verify.
    #[error("{source_name}: kernel module does not verify:\n{}", join_diagnostics(.diagnostics))]
    Verify {
        /// Name of the input.
        source_name: String,
        /// Every diagnostic the verifier raised.
        diagnostics: Vec<Diagnostic>,
    },
    /// The kernel is not valid Mosaic: jaxlib 0.12 refuses it (every problem
    /// found, jaxlib's first first; see [`crate::mosaic::verify`]).
    #[error(
        "{source_name}: kernel is not valid Mosaic (jaxlib 0.12 refuses it):\n{}",
        crate::mosaic::verify::join_errors(.errors)
    )]
    Dialect {
        /// Name of the input.
        source_name: String,
        /// Every problem, jaxlib's messages verbatim.
        errors: Vec<crate::mosaic::verify::VerifyError>,
    },
    /// The top-level operation is not a `builtin.module`, or it is empty.
    #[error("{source_name}: {message}")]
    NotAKernel {
        /// Name of the input.
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// A `tpu` op written in custom (pretty) syntax that this tool does not
    /// know (see [`crate::pretty::supported_ops`]); it parses in generic form.
    #[error(
        "{source_name}:{line}:{column}: `{op}` is in custom (pretty) form, which this tool does not know for this op{}; \
         write it in generic form (`\"{op}\"(...) : (...) -> (...)`, as `mlir-opt --mlir-print-op-generic` or \
         jaxlib's `print_generic_op_form=True` prints it)", crate::mosaic::hints::tpu_op_hint(.op)
    )]
    PrettyTpuOp {
        /// Name of the input.
        source_name: String,
        /// The op name, e.g. `tpu.trace_start`.
        op: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
    },
    /// A known `tpu` op whose custom (pretty) syntax does not read.
    #[error("{source_name}:{error}")]
    PrettySyntax {
        /// Name of the input.
        source_name: String,
        /// What is wrong, with line and column.
        error: crate::pretty::PrettyError,
    },
    /// Brackets nested deeper than [`MAX_TEXT_NESTING`] (aliases counted at
    /// their point of use): MLIR's parser and printer recurse per level and
    /// would overflow the stack (an abort).
    #[error(
        "{source_name}:{line}:{column}: brackets nested more than {limit} deep (aliases counted where used): \
         MLIR's parser recurses per level, so nesting is limited to {limit} (real kernels nest a few dozen)"
    )]
    TooDeep {
        /// Name of the input.
        source_name: String,
        /// 1-based line of the bracket past the limit.
        line: u32,
        /// 1-based column of that bracket.
        column: u32,
        /// The limit.
        limit: usize,
    },
    /// MLIR refused to write bytecode (for example a format version older than
    /// a feature the module uses).
    #[error("cannot write bytecode at format version {version}:\n{}", join_diagnostics(.diagnostics))]
    WriteBytecode {
        /// The requested format version.
        version: i64,
        /// Diagnostics raised by the writer.
        diagnostics: Vec<Diagnostic>,
    },
    /// Bytecode before format version 5 has no place for the properties
    /// (`<{...}>`) of unregistered ops: MLIR would drop them silently.
    #[error(
        "bytecode format version {version} cannot hold the properties (`<{{...}}>`) of unregistered op `{op}`: \
         MLIR writes them from version 5 on and would drop them; serialize the kernel first (mosaic-serde turns \
         properties into attributes) or write version 5 or newer"
    )]
    PropertiesNeedVersion5 {
        /// The requested format version.
        version: i64,
        /// The first offending op.
        op: String,
    },
    /// Bytecode whose builtin encodings could not be transcoded for LLVM 22.
    #[error("{source_name}: {error}")]
    Transcode {
        /// Name of the input.
        source_name: String,
        /// What the transcoder found.
        error: crate::bytecode::TranscodeError,
    },
    /// The requested bytecode format version is outside what this MLIR writes.
    #[error(
        "bytecode format version {version} is not supported: this MLIR writes versions 0 to {max}"
    )]
    UnsupportedBytecodeVersion {
        /// The requested version.
        version: i64,
        /// The newest version this MLIR writes.
        max: i64,
    },
    /// Bytecode whose ops store their properties in the ops' own encoding
    /// (written by an MLIR where they are registered, e.g. jaxlib), for ops
    /// this MLIR does not register: it cannot decode them (see
    /// [`crate::interop`]).
    #[error(
        "{source_name}: cannot read the properties (inherent attributes) of {}: this bytecode stores them in the \
         op's own encoding (written where the op's dialect is registered, e.g. by jaxlib), which this tool cannot \
         decode; pass the module as text instead: `module.operation.get_asm(print_generic_op_form=True)` in \
         jaxlib (generic form, read everywhere) or JAX's `lowered.as_text()` (read by `inspect`), or as bytecode written with `write_bytecode(f, desired_version=4)` \
         (format 4 keeps them as plain attributes; it works when no attribute needs its dialect's own encoding)",
        ops.iter().map(|op| format!("`{op}`")).collect::<Vec<_>>().join(", ")
    )]
    ForeignProperties {
        /// Name of the input.
        source_name: String,
        /// The ops whose properties cannot be decoded, sorted.
        ops: Vec<String>,
    },
    /// Bytecode with attributes or types in a dialect's own binary encoding,
    /// for dialects this MLIR cannot decode (`sdy`, or `stablehlo` as jaxlib
    /// writes it).
    #[error(
        "{source_name}: cannot read the attributes or types of dialect{} {}: this bytecode stores them in the \
         dialect's own encoding (written where the dialect is registered, e.g. by jaxlib), which this tool cannot \
         decode; pass the module as text instead: `module.operation.get_asm(print_generic_op_form=True)` in \
         jaxlib (generic form, read everywhere) or JAX's `lowered.as_text()` (read by `inspect`)",
        if dialects.len() > 1 { "s" } else { "" },
        dialects.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ")
    )]
    ForeignEncoding {
        /// Name of the input.
        source_name: String,
        /// The dialects, sorted.
        dialects: Vec<String>,
    },
    /// An unregistered op whose properties cannot become plain attributes
    /// for bytecode other MLIRs read (see [`crate::interop::portable_copy`]).
    #[error(
        "cannot write bytecode that jaxlib reads: the properties of `{op}` are not a dictionary or repeat one of its \
         attributes; write the module as text instead"
    )]
    PropertiesNotPortable {
        /// The op.
        op: String,
    },
    /// An op in a custom (pretty) syntax this tool does not know: an op of a
    /// dialect it lacks (`mhlo`), or one the pass-through `stablehlo` / `sdy`
    /// dialects have no custom form for (`cpp/asm_format.cpp`).
    #[error(
        "{source_name}:{line}:{column}: `{op}` is in pretty (custom) form, which this tool cannot read (it knows no \
         custom syntax for `{op}`); pass the module in generic form, converted in one line with jaxlib: \
         {conversion}",
        conversion = crate::interop::generic_conversion_command(source_name)
    )]
    PrettyForeignOp {
        /// Name of the input.
        source_name: String,
        /// The op, e.g. `stablehlo.constant`.
        op: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
    },
    /// The printer produced bytes that are not UTF-8 (should not happen).
    #[error("MLIR printer failed: {0}")]
    Print(String),
}

/// How to print a module as text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every op in generic form (`"dialect.op"(...) <{...}> ({...}) : ...`).
    /// Otherwise every op whose dialect has a custom syntax here prints in it
    /// (upstream ops, and `stablehlo` / `sdy` ops where the pass-through
    /// dialects know theirs) and `tpu` ops generic (MLIR knows no custom
    /// syntax for them); [`Kernel::print_pretty`] and [`print_module_pretty`]
    /// print those too, as jaxlib does.
    pub generic: bool,
    /// Print locations (`loc(...)`), as `#loc` aliases at the end.
    pub debug_info: bool,
}

impl PrintOptions {
    /// Generic op form with locations: what JAX dumps as `kernel_pre_serde.generic.mlir`.
    pub const GENERIC_WITH_LOCATIONS: Self = Self {
        generic: true,
        debug_info: true,
    };
}

/// How to write a module as bytecode.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BytecodeOptions {
    /// Bytecode format version; `None` is the newest this MLIR writes.
    pub version: Option<i64>,
    /// Producer string written into the header; `None` is this MLIR's own
    /// ([`default_producer`]).
    pub producer: Option<String>,
}

impl BytecodeOptions {
    /// Format version 0 with our MLIR's producer: what JAX writes Mosaic bodies as.
    pub fn version0() -> Self {
        Self {
            version: Some(0),
            producer: None,
        }
    }
}

/// The newest bytecode format version this MLIR writes.
pub fn current_bytecode_version() -> i64 {
    // SAFETY: returns a constant.
    unsafe { tcc_current_bytecode_version() }
}

/// The producer string this MLIR writes by default (`MLIR` + LLVM version,
/// e.g. `MLIR22.1.8`).
pub fn default_producer() -> &'static str {
    // SAFETY: returns a pointer to a static NUL-terminated string.
    let raw = unsafe { std::ffi::CStr::from_ptr(tcc_default_producer()) };
    raw.to_str().unwrap_or("MLIR")
}

/// A loaded, verified Mosaic kernel module.
pub struct Kernel<'c> {
    module: Module<'c>,
    /// Inside [`Kernel::sharing_op_index`]: the op index its checks share,
    /// built by the first of them.
    index: std::cell::RefCell<Option<std::rc::Rc<OpIndex>>>,
    sharing: std::cell::Cell<bool>,
}

impl std::fmt::Debug for Kernel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}

impl<'c> Kernel<'c> {
    /// Loads a kernel from bytes: MLIR bytecode when they start with the
    /// bytecode magic, MLIR text otherwise. `source_name` names the input in
    /// errors.
    pub fn load(ctx: &'c Context, bytes: &[u8], source_name: &str) -> Result<Self, KernelError> {
        if bytes.starts_with(BYTECODE_MAGIC) {
            return Self::from_bytecode(ctx, bytes, source_name);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Self::from_text(ctx, text, source_name),
            Err(e) if bytes.trim_ascii().is_empty() => Err(KernelError::Empty {
                source_name: source_name.to_string(),
            })
            .or(Err(KernelError::NotMlir {
                source_name: source_name.to_string(),
                offset: e.valid_up_to(),
            })),
            Err(e) => Err(KernelError::NotMlir {
                source_name: source_name.to_string(),
                offset: e.valid_up_to(),
            }),
        }
    }

    /// Parses MLIR text: upstream ops in either form, `tpu` ops in generic
    /// form or in the custom (pretty) syntax JAX prints (for the ops of
    /// [`crate::pretty::supported_ops`]).
    pub fn from_text(ctx: &'c Context, text: &str, source_name: &str) -> Result<Self, KernelError> {
        if text.trim().is_empty() {
            return Err(KernelError::Empty {
                source_name: source_name.to_string(),
            });
        }
        check_nesting(text.as_bytes(), source_name)?;
        if let Some(at) = find_unknown_memory_space(text.as_bytes()) {
            let line = text[..at.offset].matches('\n').count() as u32 + 1;
            let column =
                (at.offset - text[..at.offset].rfind('\n').map_or(0, |i| i + 1)) as u32 + 1;
            return Err(KernelError::UnknownMemorySpace {
                source_name: source_name.to_string(),
                line,
                column,
                value: at.value,
            });
        }
        let text = crate::pretty::pretty_to_generic(text).map_err(|error| match error {
            crate::pretty::PrettyError::UnknownOp { op, line, column } => {
                KernelError::PrettyTpuOp {
                    source_name: source_name.to_string(),
                    op,
                    line,
                    column,
                }
            }
            error => KernelError::PrettySyntax {
                source_name: source_name.to_string(),
                error,
            },
        })?;
        // Checked above when the text is unchanged; rewritten pretty ops
        // change the bracket structure, so that text is checked again.
        let module = match &text {
            std::borrow::Cow::Borrowed(text) => {
                parse_checked(ctx, text.as_bytes(), source_name, ModuleFormat::Text)?
            }
            std::borrow::Cow::Owned(text) => {
                parse_module(ctx, text.as_bytes(), source_name, ModuleFormat::Text)?
            }
        };
        Self::from_parsed(module, source_name).map_err(|e| match e {
            KernelError::Dialect {
                source_name,
                mut errors,
            } => {
                for error in &mut errors {
                    locate_in_text(error, &text, &source_name);
                }
                KernelError::Dialect {
                    source_name,
                    errors,
                }
            }
            e => e,
        })
    }

    /// Parses MLIR bytecode written by this MLIR (LLVM 22) or older.
    pub fn from_bytecode(
        ctx: &'c Context,
        bytes: &[u8],
        source_name: &str,
    ) -> Result<Self, KernelError> {
        if bytes.is_empty() {
            return Err(KernelError::Empty {
                source_name: source_name.to_string(),
            });
        }
        let module = parse_module(ctx, bytes, source_name, ModuleFormat::Bytecode)?;
        Self::from_parsed(module, source_name)
    }

    /// Takes a module the caller built with melior and verifies it. Errors
    /// name the kernel (`kernel @softmax`: the module's or its first
    /// function's name) and the op.
    pub fn from_module(ctx: &'c Context, module: Module<'c>) -> Result<Self, KernelError> {
        let name = built_kernel_name(&module);
        Self::from_module_named(ctx, module, &name)
    }

    pub(crate) fn from_module_named(
        ctx: &'c Context,
        module: Module<'c>,
        source_name: &str,
    ) -> Result<Self, KernelError> {
        let (ok, mut diagnostics) =
            capture(ctx, || crate::ffi::verify_operation(module.as_operation()));
        if !ok {
            crate::mosaic::hints::add_hints(&mut diagnostics);
            return Err(KernelError::Verify {
                source_name: source_name.to_string(),
                diagnostics,
            });
        }
        Self::from_parsed(module, source_name)
    }

    /// A module MLIR's parser returned: the parser verified it already
    /// (`tcc_parse_module` verifies after parsing), so verifying again
    /// would only double the cost.
    fn from_parsed(mut module: Module<'c>, source_name: &str) -> Result<Self, KernelError> {
        if module.body().first_operation().is_none() {
            return Err(KernelError::NotAKernel {
                source_name: source_name.to_string(),
                message: "module is empty: a Mosaic kernel module holds at least one func.func"
                    .to_string(),
            });
        }
        crate::mosaic::verify::verify_module(&mut module).map_err(|errors| {
            KernelError::Dialect {
                source_name: source_name.to_string(),
                errors,
            }
        })?;
        Ok(Self {
            module,
            index: Default::default(),
            sharing: Default::default(),
        })
    }

    /// Every op of the kernel, listed by one walk (see [`OpIndex`]): inside
    /// [`Kernel::sharing_op_index`] the same list for every caller, elsewhere
    /// a fresh one.
    pub(crate) fn op_index(&self) -> std::rc::Rc<OpIndex> {
        if let Some(index) = self.index.borrow().as_ref() {
            return std::rc::Rc::clone(index);
        }
        let index = std::rc::Rc::new(OpIndex::build(self.operation()));
        if self.sharing.get() {
            *self.index.borrow_mut() = Some(std::rc::Rc::clone(&index));
        }
        index
    }

    /// Runs `f`, which only reads the kernel (adds, moves or erases no op),
    /// with one [`Kernel::op_index`] for all the checks in it.
    pub(crate) fn sharing_op_index<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Reset<'k, 'c>(&'k Kernel<'c>, bool);
        impl Drop for Reset<'_, '_> {
            fn drop(&mut self) {
                self.0.sharing.set(self.1);
                if !self.1 {
                    self.0.index.borrow_mut().take();
                }
            }
        }
        let _reset = Reset(self, self.sharing.replace(true));
        f()
    }

    /// The kernel module.
    pub fn module(&self) -> &Module<'c> {
        &self.module
    }

    /// The kernel module, mutably.
    pub fn module_mut(&mut self) -> &mut Module<'c> {
        &mut self.module
    }

    /// Gives up the kernel and returns its module.
    pub fn into_module(self) -> Module<'c> {
        self.module
    }

    /// The top-level operation (`builtin.module`).
    pub fn operation(&self) -> OperationRef<'c, '_> {
        self.module.as_operation()
    }

    /// The module's `sym_name`, if it has one (Pallas sets it to the kernel name).
    pub fn name(&self) -> Option<String> {
        let attr = self.operation().attribute("sym_name").ok()?;
        string_attr_value(attr)
    }

    /// Prints the module as MLIR text.
    pub fn print(&self, options: PrintOptions) -> Result<String, KernelError> {
        print_operation(self.operation(), options)
    }

    /// Prints the module as JAX prints it: every op in custom (pretty) form,
    /// `tpu` ops included (those of [`crate::pretty::supported_ops`]; others
    /// stay generic, as JAX prints ops without a custom syntax).
    pub fn print_pretty(&self, debug_info: bool) -> Result<String, KernelError> {
        let printed = print_operation(
            self.operation(),
            PrintOptions {
                generic: false,
                debug_info,
            },
        )?;
        Ok(crate::pretty::generic_to_pretty(&printed))
    }

    /// Writes the module as MLIR bytecode.
    pub fn to_bytecode(&self, options: &BytecodeOptions) -> Result<Vec<u8>, KernelError> {
        write_bytecode(self.operation(), options)
    }
}

/// The bytes of a `StringAttr` (MLIR strings may hold any bytes, e.g. `"\\FF"`),
/// `None` for other attribute kinds.
pub(crate) fn string_attr_bytes(attr: melior::ir::Attribute<'_>) -> Option<Vec<u8>> {
    // SAFETY: the attribute is valid; the kind is checked before reading.
    unsafe {
        let raw = attr.to_raw();
        if !mlir_sys::mlirAttributeIsAString(raw) {
            return None;
        }
        let s = mlir_sys::mlirStringAttrGetValue(raw);
        Some(crate::ffi::bytes(s).to_vec())
    }
}

/// Reads the value of a `StringAttr`, `None` for other attribute kinds.
pub(crate) fn string_attr_value(attr: melior::ir::Attribute<'_>) -> Option<String> {
    // SAFETY: the attribute is valid; the kind is checked before reading.
    unsafe {
        let raw = attr.to_raw();
        if !mlir_sys::mlirAttributeIsAString(raw) {
            return None;
        }
        let s = mlir_sys::mlirStringAttrGetValue(raw);
        Some(crate::ffi::lossy_string(s))
    }
}

/// A verifier error of a kernel parsed from `text`: MLIR names the parsed
/// buffer `-`, so its `-:line:col` becomes `source_name:line:col`; an error
/// about one attribute's body points at the body (after `name = #x<`), where
/// jaxlib's parser reports it, rather than at the op.
fn locate_in_text(error: &mut crate::mosaic::verify::VerifyError, text: &str, source_name: &str) {
    let Some(rest) = error.location.strip_prefix("-:") else {
        return;
    };
    let mut parts = rest.splitn(2, ':');
    let (Some(Ok(line)), Some(Ok(mut column))) = (
        parts.next().map(str::parse::<usize>),
        parts.next().map(str::parse::<usize>),
    ) else {
        return;
    };
    if let (Some(name), Some(source_line)) = (&error.attribute, text.lines().nth(line - 1))
        && let Some(from) = source_line.get(column.saturating_sub(1)..)
        && let Some(at) = from.find(&format!("{name} ="))
        && let Some(open) = from[at..].find('<')
    {
        let body = at + open + 1;
        let blank = from[body..].len() - from[body..].trim_start().len();
        column += body + blank;
    }
    error.location = format!("{source_name}:{line}:{column}");
}

/// Rejects text that nests deeper than [`MAX_TEXT_NESTING`] (aliases counted
/// where used), before any MLIR parser sees it: for text parsed piecewise
/// (a function type given on the command line, one statement of a pretty
/// module). [`Kernel::from_text`] and [`parse_module_bytes`] run it already.
pub fn check_nesting(text: &[u8], source_name: &str) -> Result<(), KernelError> {
    check_text_nesting(text, MAX_TEXT_NESTING).map_err(|at| KernelError::TooDeep {
        source_name: source_name.to_string(),
        line: at.line,
        column: at.column,
        limit: MAX_TEXT_NESTING,
    })
}

/// Parses text or bytecode into a module, collecting diagnostics.
pub(crate) fn parse_module<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
    format: ModuleFormat,
) -> Result<Module<'c>, KernelError> {
    if format == ModuleFormat::Text {
        check_nesting(bytes, source_name)?;
    }
    parse_checked(ctx, bytes, source_name, format)
}

/// [`parse_module`] of text whose nesting was checked already.
fn parse_checked<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
    format: ModuleFormat,
) -> Result<Module<'c>, KernelError> {
    // Bytecode from newer MLIR (JAX 0.12 writes LLVM 24's builtin encodings):
    // rewrite what LLVM 22 cannot read first; a no-op for other bytecode.
    let transcoded;
    let bytes = if format == ModuleFormat::Bytecode {
        transcoded = crate::bytecode::down(bytes).map_err(|error| KernelError::Transcode {
            source_name: source_name.to_string(),
            error,
        })?;
        crate::interop::check_native_properties(ctx, &transcoded, source_name)?;
        transcoded.as_slice()
    } else {
        // Guard: MLIR 22's text lexer finds the end of its input by reading
        // the NUL `llvm::MemoryBuffer` normally puts after it, but
        // `mlirModuleCreateParse` wraps the caller's bytes without copying
        // and without that terminator. The lexer then reads past the end of
        // `bytes` (found by the `kernel_text` fuzz target: the 8 bytes
        // ` thftsil`, a heap-buffer-overflow under ASan, see
        // `mlir-fixtures/fuzz/`), and when the text is a slice of a larger
        // buffer it lexes whatever follows. Parse a NUL-terminated copy.
        transcoded = nul_terminated(bytes);
        &transcoded[..bytes.len()]
    };
    let (module, diagnostics) = capture(ctx, || {
        let source = MlirStringRef {
            data: bytes.as_ptr() as *const _,
            length: bytes.len(),
        };
        // SAFETY: the context is live; `source` points to `bytes`, which outlive
        // the call (MLIR copies what it keeps) and, for text, are followed by
        // a NUL in the same allocation. A null module is handled below.
        unsafe {
            let raw = crate::ffi::tcc_parse_module(ctx.to_raw(), source);
            Module::from_option_raw(raw)
        }
    });
    let Some(module) = module else {
        let mut diagnostics = diagnostics;
        crate::mosaic::hints::add_hints(&mut diagnostics);
        return Err(KernelError::Parse {
            source_name: source_name.to_string(),
            format,
            diagnostics,
        });
    };
    Ok(module)
}

/// `bytes` followed by a NUL byte (the terminator MLIR's text lexer reads).
pub(crate) fn nul_terminated(bytes: &[u8]) -> Vec<u8> {
    let mut copy = Vec::with_capacity(bytes.len() + 1);
    copy.extend_from_slice(bytes);
    copy.push(0);
    copy
}

/// The first bytecode format version that stores op properties
/// (`kNativePropertiesEncoding` in MLIR).
const FIRST_VERSION_WITH_PROPERTIES: i64 = 5;

/// Name of the first op (pre-order) that is unregistered and has properties.
fn first_unregistered_op_with_properties(root: OperationRef<'_, '_>) -> Option<String> {
    let mut found = None;
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        // SAFETY: `op` is a valid operation inside `root`; both calls only read it.
        let offending = unsafe {
            !tcc_operation_is_registered(op.to_raw())
                && !tcc_operation_get_properties(op.to_raw()).ptr.is_null()
        };
        if offending {
            found = Some(crate::ffi::identifier_string(&op.name()));
            melior::ir::operation::WalkResult::Interrupt
        } else {
            melior::ir::operation::WalkResult::Advance
        }
    });
    found
}

/// Parses any module (not only kernels): text or bytecode, diagnostics
/// collected, no verification beyond the parser's. `format` is `"text"` or
/// `"bytecode"`.
pub fn parse_module_bytes<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
    format: ModuleFormat,
) -> Result<Module<'c>, KernelError> {
    if bytes.trim_ascii().is_empty() {
        return Err(KernelError::Empty {
            source_name: source_name.to_string(),
        });
    }
    parse_module(ctx, bytes, source_name, format)
}

/// Prints any module (a StableHLO module with calls, for instance) as text.
pub fn print_module(module: &Module<'_>, options: PrintOptions) -> Result<String, KernelError> {
    print_operation(module.as_operation(), options)
}

/// Prints any module as jaxlib prints it (`Module.operation.get_asm()`, or
/// with `enable_debug_info=True` for `debug_info`): every op in its custom
/// (pretty) form where its dialect has one here, `tpu` ops included (those
/// of [`crate::pretty::supported_ops`]), the others generic. What `opt`
/// prints by default.
pub fn print_module_pretty(module: &Module<'_>, debug_info: bool) -> Result<String, KernelError> {
    let printed = print_operation(
        module.as_operation(),
        PrintOptions {
            generic: false,
            debug_info,
        },
    )?;
    Ok(if printed.contains("\"tpu.") {
        crate::pretty::generic_to_pretty(&printed)
    } else {
        printed
    })
}

/// Writes any module as bytecode (same checks as [`Kernel::to_bytecode`]),
/// readable with the same meaning by MLIRs where `stablehlo` and `tpu` are
/// registered (jaxlib): unregistered ops' properties are written as plain
/// attributes ([`crate::interop::portable_copy`]).
pub fn module_bytecode(
    module: &Module<'_>,
    options: &BytecodeOptions,
) -> Result<Vec<u8>, KernelError> {
    match crate::interop::portable_copy(module.as_operation())? {
        Some(copy) => {
            // SAFETY: `copy` is alive until the end of this arm, past the borrow.
            let copy_ref = unsafe { OperationRef::from_raw(copy.to_raw()) };
            write_bytecode(copy_ref, options)
        }
        None => write_bytecode(module.as_operation(), options),
    }
}

/// Prints any operation as text (through one buffer: the C API's printer
/// streams are unbuffered and call back once per character).
pub(crate) fn print_operation(
    op: OperationRef<'_, '_>,
    options: PrintOptions,
) -> Result<String, KernelError> {
    // SAFETY: `op` is live; the collecting buffer is `collect_bytes`'s own.
    let ((), bytes) = collect_bytes(|callback, data| unsafe {
        tcc_print_operation(
            op.to_raw(),
            options.generic,
            options.debug_info,
            false,
            callback,
            data,
        )
    });
    String::from_utf8(bytes).map_err(|e| KernelError::Print(e.to_string()))
}

/// Writes any operation as bytecode with a producer string.
pub(crate) fn write_bytecode(
    op: OperationRef<'_, '_>,
    options: &BytecodeOptions,
) -> Result<Vec<u8>, KernelError> {
    let max = current_bytecode_version();
    let version = options.version.unwrap_or(max);
    if !(0..=max).contains(&version) {
        return Err(KernelError::UnsupportedBytecodeVersion { version, max });
    }
    if version < FIRST_VERSION_WITH_PROPERTIES
        && let Some(op) = first_unregistered_op_with_properties(op)
    {
        return Err(KernelError::PropertiesNeedVersion5 { version, op });
    }
    let producer = options.producer.as_deref().unwrap_or(default_producer());
    // `to_ref` borrows the `ContextRef`: keep it in a binding for as long as
    // the reference is used.
    let ctx_ref = op.context();
    // SAFETY: the op's context outlives this call; `ctx_ref` outlives `ctx`.
    let ctx = unsafe { ctx_ref.to_ref() };
    // The writer's diagnostics go to the context's handlers: collect them.
    let ((ok, bytes), diagnostics) = capture(ctx, || {
        // SAFETY: `op` is live; the producer bytes outlive the call; the
        // collecting buffer is `collect_bytes`'s own.
        collect_bytes(|callback, data| unsafe {
            tcc_write_bytecode(
                op.to_raw(),
                crate::ffi::sref(producer),
                version,
                callback,
                data,
            )
        })
    });
    if ok {
        Ok(bytes)
    } else {
        Err(KernelError::WriteBytecode {
            version,
            diagnostics,
        })
    }
}

impl std::fmt::Debug for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    //! The memoizing verifier (`cpp/verify.cpp`) against MLIR's own: the same
    //! verdict and the same diagnostics on kernels whose repeated ops are
    //! valid, where a repeated op differs in one thing, and on the structural
    //! errors the verifier checks besides ops.

    use crate::context::capture;
    use melior::ir::Module;

    const HEAD: &str = r#"func.func @k(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %n: memref<8x128xi32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
"#;

    /// `n` copies of a load, an add and a store of the same types.
    fn repeated(n: usize) -> String {
        let mut body = String::new();
        for i in 0..n {
            body += &format!(
                "  %l{i} = vector.load %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>\n  %a{i} = arith.addf %l{i}, %l{i} : vector<8x128xf32>\n  vector.store %a{i}, %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>\n"
            );
        }
        body
    }

    fn kernels() -> Vec<(&'static str, String)> {
        let end = "  return\n}\n";
        vec![
            ("valid", format!("{HEAD}{}{end}", repeated(20))),
            (
                // The same op name and operand types, another result type.
                "load of another element type after valid twins",
                format!(
                    "{HEAD}{}  %bad = vector.load %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xi32>\n{end}",
                    repeated(5)
                ),
            ),
            (
                "invalid op first, then its valid twins",
                format!(
                    "{HEAD}  %bad = vector.load %m[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>\n{}{end}",
                    repeated(5)
                ),
            ),
            (
                "add with another fastmath",
                format!(
                    "{HEAD}{}  %f = arith.addf %l0, %l0 fastmath<fast> : vector<8x128xf32>\n{end}",
                    repeated(3)
                ),
            ),
            (
                "integer add on floats after valid twins",
                format!(
                    "{HEAD}{}  %i = \"arith.addi\"(%l0, %l0) : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>\n{end}",
                    repeated(3)
                ),
            ),
            (
                "use before definition among twins",
                format!(
                    "{HEAD}  %u = arith.addf %late, %late : vector<8x128xf32>\n  %late = vector.load %m[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>\n{}{end}",
                    repeated(3)
                ),
            ),
            (
                "constant of the wrong type",
                format!(
                    "{HEAD}{}  %k = \"arith.constant\"() <{{value = 1 : i32}}> : () -> index\n{end}",
                    repeated(2)
                ),
            ),
            (
                "unknown op of a registered dialect",
                format!("{HEAD}{}  \"arith.bogus\"() : () -> ()\n{end}", repeated(2)),
            ),
            ("missing terminator", format!("{HEAD}{}}}\n", repeated(2))),
            (
                "the same twins in two functions",
                format!(
                    "{HEAD}{}{end}{}{}{end}",
                    repeated(3),
                    HEAD.replace("@k", "@k2"),
                    repeated(3)
                ),
            ),
        ]
    }

    #[test]
    fn the_memoizing_verifier_agrees_with_mlirs() {
        let ctx = crate::Context::new();
        let mut failures = 0;
        for (case, text) in kernels() {
            let source = super::nul_terminated(text.as_bytes());
            let (theirs, their_diags) = capture(&ctx, || Module::parse(&ctx, &text).is_some());
            let (ours, our_diags) = capture(&ctx, || {
                let raw = mlir_sys::MlirStringRef {
                    data: source.as_ptr().cast(),
                    length: text.len(),
                };
                // SAFETY: the context is live and `source` NUL-terminated.
                unsafe { Module::from_option_raw(crate::ffi::tcc_parse_module(ctx.to_raw(), raw)) }
                    .is_some()
            });
            assert_eq!(ours, theirs, "{case}: verdict");
            assert_eq!(our_diags, their_diags, "{case}: diagnostics");
            failures += usize::from(!theirs);
        }
        // Three cases are valid; MLIR refuses the seven others.
        assert_eq!(failures, kernels().len() - 3);
    }
}
