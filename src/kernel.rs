//! Mosaic kernel modules in and out: MLIR text or bytecode in, verified;
//! text (generic or pretty, with or without locations) and bytecode (chosen
//! format version, settable producer string) out.

use std::ffi::c_void;

use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use melior::ir::{AttributeLike, Module, OperationRef};
use mlir_sys::{MlirStringRef, mlirModuleCreateParse};

use crate::context::{Context, Diagnostic, join_diagnostics};

/// The four bytes every MLIR bytecode file starts with.
pub const BYTECODE_MAGIC: &[u8; 4] = b"ML\xefR";

/// Errors while loading, printing or writing a kernel module.
#[derive(Debug, thiserror::Error)]
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
    /// MLIR could not parse the text or bytecode.
    #[error("{source_name}: failed to parse MLIR {format}:\n{}", join_diagnostics(.diagnostics))]
    Parse {
        /// Name of the input.
        source_name: String,
        /// `text` or `bytecode`.
        format: &'static str,
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
    /// The top-level operation is not a `builtin.module`, or it is empty.
    #[error("{source_name}: {message}")]
    NotAKernel {
        /// Name of the input.
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// A `tpu` op written in its custom (pretty) syntax, which only parses in
    /// generic form.
    #[error(
        "{source_name}:{line}:{column}: `{op}` is in custom (pretty) form, which this tool does not parse for `tpu` ops; \
         write it in generic form (`\"{op}\"(...) : (...) -> (...)`, as `mlir-opt --mlir-print-op-generic` or \
         jaxlib's `print_generic_op_form=True` prints it)"
    )]
    PrettyTpuOp {
        /// Name of the input.
        source_name: String,
        /// The op name, e.g. `tpu.vector_store`.
        op: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
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
    /// The printer produced bytes that are not UTF-8 (should not happen).
    #[error("MLIR printer failed: {0}")]
    Print(String),
}

/// How to print a module as text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every op in generic form (`"dialect.op"(...) <{...}> ({...}) : ...`).
    /// `tpu` ops are always generic: there is no custom syntax for them here.
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

unsafe extern "C" {
    fn tcc_write_bytecode(
        op: mlir_sys::MlirOperation,
        producer: MlirStringRef,
        version: i64,
        callback: mlir_sys::MlirStringCallback,
        user_data: *mut c_void,
    ) -> bool;
    fn tcc_current_bytecode_version() -> i64;
    fn tcc_default_producer() -> *const std::ffi::c_char;
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

    /// Parses MLIR text (upstream ops in either form, `tpu` ops in generic form).
    pub fn from_text(ctx: &'c Context, text: &str, source_name: &str) -> Result<Self, KernelError> {
        if text.trim().is_empty() {
            return Err(KernelError::Empty {
                source_name: source_name.to_string(),
            });
        }
        let module = parse_module(ctx, text.as_bytes(), source_name, "text")?;
        Self::from_module_named(ctx, module, source_name)
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
        let module = parse_module(ctx, bytes, source_name, "bytecode")?;
        Self::from_module_named(ctx, module, source_name)
    }

    /// Takes a module the caller built with melior and verifies it.
    pub fn from_module(ctx: &'c Context, module: Module<'c>) -> Result<Self, KernelError> {
        Self::from_module_named(ctx, module, "<module>")
    }

    fn from_module_named(
        ctx: &'c Context,
        module: Module<'c>,
        source_name: &str,
    ) -> Result<Self, KernelError> {
        let (ok, diagnostics) = ctx.capture(|| module.as_operation().verify());
        if !ok {
            return Err(KernelError::Verify {
                source_name: source_name.to_string(),
                diagnostics,
            });
        }
        if module.body().first_operation().is_none() {
            return Err(KernelError::NotAKernel {
                source_name: source_name.to_string(),
                message: "module is empty: a Mosaic kernel module holds at least one func.func"
                    .to_string(),
            });
        }
        Ok(Self { module })
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

    /// Writes the module as MLIR bytecode.
    pub fn to_bytecode(&self, options: &BytecodeOptions) -> Result<Vec<u8>, KernelError> {
        write_bytecode(self.operation(), options)
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
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Parses text or bytecode into a module, collecting diagnostics.
pub(crate) fn parse_module<'c>(
    ctx: &'c Context,
    bytes: &[u8],
    source_name: &str,
    format: &'static str,
) -> Result<Module<'c>, KernelError> {
    if format == "text"
        && let Some(err) = find_pretty_tpu_op(bytes, source_name)
    {
        return Err(err);
    }
    let (module, diagnostics) = ctx.capture(|| {
        let source = MlirStringRef {
            data: bytes.as_ptr() as *const _,
            length: bytes.len(),
        };
        // SAFETY: the context is live; `source` points to `bytes`, which outlive
        // the call (MLIR copies what it keeps). A null module is handled below.
        unsafe {
            let raw = mlirModuleCreateParse(ctx.mlir().to_raw(), source);
            Module::from_option_raw(raw)
        }
    });
    let Some(module) = module else {
        return Err(KernelError::Parse {
            source_name: source_name.to_string(),
            format,
            diagnostics,
        });
    };
    Ok(module)
}

/// Finds a `tpu.` op written in custom form (`%x = tpu.op ...` or a statement
/// starting with `tpu.`), which MLIR would reject with a less helpful message.
fn find_pretty_tpu_op(bytes: &[u8], source_name: &str) -> Option<KernelError> {
    let text = std::str::from_utf8(bytes).ok()?;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let after_results = match trimmed.strip_prefix('%') {
            Some(_) => match trimmed.find('=') {
                Some(eq) => trimmed[eq + 1..].trim_start(),
                None => continue,
            },
            None => trimmed,
        };
        if let Some(rest) = after_results.strip_prefix("tpu.") {
            let op_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len());
            if op_len == 0 {
                continue;
            }
            let column = line.len() - after_results.len() + 1;
            return Some(KernelError::PrettyTpuOp {
                source_name: source_name.to_string(),
                op: format!("tpu.{}", &rest[..op_len]),
                line: u32::try_from(index + 1).unwrap_or(u32::MAX),
                column: u32::try_from(column).unwrap_or(u32::MAX),
            });
        }
    }
    None
}

/// Prints any operation as text.
pub(crate) fn print_operation(
    op: OperationRef<'_, '_>,
    options: PrintOptions,
) -> Result<String, KernelError> {
    let mut flags = OperationPrintingFlags::new();
    if options.generic {
        flags = flags.print_generic_operation_form();
    }
    if options.debug_info {
        flags = flags.enable_debug_info(true, false);
    }
    op.to_string_with_flags(flags)
        .map_err(|e| KernelError::Print(e.to_string()))
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
    let producer = options.producer.as_deref().unwrap_or(default_producer());
    let mut bytes: Vec<u8> = Vec::new();
    unsafe extern "C" fn collect(chunk: MlirStringRef, user_data: *mut c_void) {
        // SAFETY: `user_data` is the `Vec<u8>` below; `chunk` is valid for the call.
        unsafe {
            let out = &mut *(user_data as *mut Vec<u8>);
            out.extend_from_slice(std::slice::from_raw_parts(
                chunk.data as *const u8,
                chunk.length,
            ));
        }
    }
    // SAFETY: `op` is valid; the producer bytes outlive the call; `collect`
    // only appends to `bytes`.
    let ok = unsafe {
        tcc_write_bytecode(
            op.to_raw(),
            MlirStringRef {
                data: producer.as_ptr() as *const _,
                length: producer.len(),
            },
            version,
            Some(collect),
            &mut bytes as *mut Vec<u8> as *mut c_void,
        )
    };
    if ok {
        Ok(bytes)
    } else {
        Err(KernelError::WriteBytecode {
            version,
            diagnostics: Vec::new(),
        })
    }
}
