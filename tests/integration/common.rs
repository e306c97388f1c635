//! Shared test helpers: where the reference material is, golden cases, blessing.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// This repository's test reference data (`tests/data`): the JAX goldens and
/// other outputs of real JAX, so that a plain clone tests itself.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The JAX goldens folder (`tests/data/jax-goldens`, or `TCC_GOLDENS_DIR`).
pub fn goldens_dir() -> PathBuf {
    match std::env::var_os("TCC_GOLDENS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => data_dir().join("jax-goldens"),
    }
}

/// The jaxref scripts kept in this repository (`scripts/jaxref/ref`).
pub fn jaxref_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jaxref/ref")
}

/// Every golden case folder (those with a `case.json`), sorted by name.
pub fn golden_cases() -> Vec<PathBuf> {
    let dir = goldens_dir();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read goldens at {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.join("case.json").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 30,
        "expected the JAX goldens, found {} cases",
        cases.len()
    );
    cases
}

/// The case's folder name.
pub fn case_name(case: &Path) -> String {
    case.file_name().unwrap().to_string_lossy().into_owned()
}

/// This repository's `mlir-fixtures` folder.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures")
}

/// The python of the jaxref venv, when it is set up (`REFCHECK_VENV`, else
/// `~/.cache/tpu-custom-call/jaxref-venv` where `make refs` puts it, else
/// `scripts/jaxref/ref/.venv`); `None` prints why the caller is skipping.
pub fn jaxref_python(test: &str) -> Option<PathBuf> {
    let venv = std::env::var_os("REFCHECK_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            let cached =
                PathBuf::from(std::env::var_os("HOME")?).join(".cache/tpu-custom-call/jaxref-venv");
            cached.join("bin/python").is_file().then_some(cached)
        })
        .unwrap_or_else(|| jaxref_dir().join(".venv"));
    let python = venv.join("bin/python");
    if python.is_file() {
        Some(python)
    } else {
        eprintln!(
            "SKIPPED {test}: real jaxlib not set up (no {}); run `make refs` \
             or set REFCHECK_VENV",
            python.display()
        );
        None
    }
}

/// Runs the built CLI from the repository root with `args`; returns
/// (exit code, stdout, stderr).
pub fn run_cli(args: &[&str]) -> (i32, Vec<u8>, String) {
    run_cli_stdin(args, None)
}

/// Like [`run_cli`], feeding `stdin`.
pub fn run_cli_stdin(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tpu-custom-call");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            pipe.write_all(bytes).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Compares `actual` with the golden file at `path`; with `BLESS=1` rewrites
/// it instead. Returns a description of the mismatch, if any: a line diff and
/// how to bless.
pub fn check_golden(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(path, actual).unwrap();
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    Some(format!(
        "{} differs (run with BLESS=1 to accept):\n{}",
        path.display(),
        line_diff(&expected, actual)
    ))
}

/// A unified-style diff of two texts: the lines between their common prefix
/// and suffix, `-` expected and `+` actual, with three lines of context.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let context = 3;
    let start = prefix.saturating_sub(context);
    let after = old.len() - suffix;
    let old_end = (after + context).min(old.len());
    let new_end = (new.len() - suffix + context).min(new.len());
    let mut out = format!(
        "@@ -{},{} +{},{} @@\n",
        start + 1,
        old_end - start,
        start + 1,
        new_end - start
    );
    for line in &old[start..prefix] {
        out.push_str(&format!(" {line}\n"));
    }
    for line in &old[prefix..old.len() - suffix] {
        out.push_str(&format!("-{line}\n"));
    }
    for line in &new[prefix..new.len() - suffix] {
        out.push_str(&format!("+{line}\n"));
    }
    for line in &old[after..old_end] {
        out.push_str(&format!(" {line}\n"));
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the texts differ in their final newline)\n");
    }
    out
}

/// How two byte strings differ: a [`line_diff`] when both are texts of
/// several lines; else the lengths and the first differing offset, with
/// what surrounds it on each side (as text when both are UTF-8, else hex).
pub fn bytes_diff(expected: &[u8], actual: &[u8]) -> String {
    let texts = std::str::from_utf8(expected)
        .ok()
        .zip(std::str::from_utf8(actual).ok());
    if let Some((expected, actual)) = texts
        && expected.trim_end().contains('\n')
        && actual.trim_end().contains('\n')
    {
        return line_diff(expected, actual);
    }
    let at = expected
        .iter()
        .zip(actual)
        .take_while(|(a, b)| a == b)
        .count();
    let (before, after) = if texts.is_some() { (40, 40) } else { (8, 8) };
    let start = at.saturating_sub(before);
    let window = |bytes: &[u8]| -> String {
        let piece = &bytes[start.min(bytes.len())..(at + after).min(bytes.len())];
        if texts.is_some() {
            format!("{:?}", String::from_utf8_lossy(piece))
        } else {
            piece
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    format!(
        "{} bytes expected, {} actual; first difference at byte {at}\n-@{start}: {}\n+@{start}: {}\n",
        expected.len(),
        actual.len(),
        window(expected),
        window(actual)
    )
}

/// The failures of a loop over cases, reported together at the end rather
/// than at the first (so one run shows every case that fails).
#[derive(Debug, Default)]
pub struct Failures(Vec<String>);

impl Failures {
    /// No failure yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `message()` unless `ok`.
    pub fn check(&mut self, ok: bool, message: impl FnOnce() -> String) {
        if !ok {
            self.0.push(message());
        }
    }

    /// Records `message` (a failure found otherwise, e.g. in a `match`).
    pub fn fail(&mut self, message: impl Into<String>) {
        self.0.push(message.into());
    }

    /// The value of `result`; or records its error under `what` and gives
    /// `None` (the caller skips the rest of that case).
    pub fn ok<T, E: std::fmt::Display>(
        &mut self,
        what: impl std::fmt::Display,
        result: Result<T, E>,
    ) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                self.0.push(format!("{what}: {e}"));
                None
            }
        }
    }

    /// Records a mismatch of the text `actual` with `expected` (a golden or
    /// a reference output), under `what`, as a [`line_diff`].
    pub fn text(&mut self, what: impl std::fmt::Display, actual: &str, expected: &str) {
        if actual != expected {
            self.0.push(format!(
                "{what} differs (- expected, + actual):\n{}",
                line_diff(expected, actual)
            ));
        }
    }

    /// Records a mismatch of the bytes `actual` with `expected`, under
    /// `what`, as a [`bytes_diff`].
    pub fn bytes(&mut self, what: impl std::fmt::Display, actual: &[u8], expected: &[u8]) {
        if actual != expected {
            self.0.push(format!(
                "{what} differs (- expected, + actual):\n{}",
                bytes_diff(expected, actual)
            ));
        }
    }

    /// How many failures were recorded.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Records a mismatch of `actual` and `expected`, under `what`.
    pub fn eq<T: PartialEq + std::fmt::Debug>(
        &mut self,
        what: impl std::fmt::Display,
        actual: T,
        expected: T,
    ) {
        if actual != expected {
            self.0.push(format!(
                "{what}:\n  actual:   {actual:?}\n  expected: {expected:?}"
            ));
        }
    }

    /// Takes over the failures of `other` (checks of one case made apart).
    pub fn extend(&mut self, other: Failures) {
        self.0.extend(other.0);
    }

    /// Panics with every failure recorded, if any.
    pub fn assert_none(self) {
        assert!(
            self.0.is_empty(),
            "{} failure(s):\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

/// The one-call lowering entry points the tests were written against before
/// the validation witness (issue 16): each validates the call with
/// `validate::validate_with` (the target and `jax_rules_only` of its
/// options) and lowers it with a `Lowerer`; the first problem is the error.
pub mod oneshot {
    use melior::ir::{Location, Module, OperationRef, Type, Value, ValueLike};
    use tpu_custom_call::bytecode::Encodings;
    use tpu_custom_call::emit::InsertionPoint;
    use tpu_custom_call::lower::{self, Lowered, Lowerer};
    use tpu_custom_call::validate::{self, Signature, ValidateOptions, ValidatedCall};
    use tpu_custom_call::{Chip, Error, Kernel, Params};

    /// What to check and how to lower.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct LowerOptions {
        /// The chip to validate against.
        pub target: Option<Chip>,
        /// Producer string of the bodies.
        pub producer: Option<String>,
        /// Builtin attribute encodings of the bodies.
        pub encodings: Encodings,
        /// Leave libtpu's rules out.
        pub jax_rules_only: bool,
        /// The libtpu release the call is for.
        pub libtpu: tpu_custom_call::libtpu::releases::LibtpuVersion,
    }

    impl LowerOptions {
        /// The lowering half.
        pub fn lowering(&self) -> lower::LowerOptions {
            lower::LowerOptions {
                producer: self.producer.clone(),
                encodings: self.encodings,
                libtpu: self.libtpu.clone(),
            }
        }

        /// The validation half.
        pub fn rules(&self) -> ValidateOptions {
            if self.jax_rules_only {
                ValidateOptions::jax_rules_only()
            } else {
                ValidateOptions::all_rules()
            }
            .with_libtpu(self.libtpu.clone())
        }
    }

    fn first(errors: Vec<Error>) -> Error {
        errors
            .into_iter()
            .next()
            .expect("a failed validation has an error")
    }

    /// Validates `kernel` called with `signature`.
    pub fn validated<'k, 'c>(
        kernel: &'k Kernel<'c>,
        params: &Params,
        signature: Signature<'c>,
        options: &LowerOptions,
    ) -> Result<ValidatedCall<'k, 'c>, Error> {
        validate::validate_with(kernel, signature, params, options.target, &options.rules())
            .map_err(first)
    }

    fn parse<'c>(kernel: &Kernel<'c>, types: &[String]) -> Option<Vec<Type<'c>>> {
        let ctx = kernel.module().context();
        // SAFETY: the kernel's context outlives 'c.
        let ctx = unsafe { ctx.to_ref() };
        types.iter().map(|t| Type::parse(ctx, t)).collect()
    }

    /// Lowers one call (types as MLIR text), without building the op.
    pub fn lower(
        kernel: &Kernel<'_>,
        params: &Params,
        operand_types: &[String],
        result_types: &[String],
        options: &LowerOptions,
    ) -> Result<Lowered, Error> {
        let (Some(operands), Some(results)) =
            (parse(kernel, operand_types), parse(kernel, result_types))
        else {
            panic!("test bug: unparsable types {operand_types:?} -> {result_types:?}");
        };
        let call = validated(kernel, params, Signature::new(operands, results), options)?;
        Lowerer::new(options.lowering()).lower(&call)
    }

    /// Lowers one call into a whole module.
    pub fn emit_module<'c>(
        ctx: &'c melior::Context,
        kernel: &Kernel<'c>,
        params: &Params,
        operand_types: &[Type<'c>],
        result_types: &[Type<'c>],
        options: &LowerOptions,
    ) -> Result<Module<'c>, Error> {
        let signature = Signature::new(operand_types, result_types);
        let call = validated(kernel, params, signature, options)?;
        Lowerer::new(options.lowering()).emit_module(ctx, &call)
    }

    /// Lowers one call and inserts it at `point`.
    #[allow(clippy::too_many_arguments)]
    pub fn emit_call<'c, 'a>(
        kernel: &Kernel<'c>,
        params: &Params,
        point: InsertionPoint<'c, 'a>,
        location: Location<'c>,
        operands: &[Value<'c, 'a>],
        shape_operands: &[Value<'c, 'a>],
        result_types: &[Type<'c>],
        options: &LowerOptions,
    ) -> Result<OperationRef<'c, 'a>, Error> {
        let operand_types: Vec<Type<'c>> = operands.iter().map(|v| v.r#type()).collect();
        let signature = Signature::new(operand_types, result_types);
        let call = validated(kernel, params, signature, options)?;
        Lowerer::new(options.lowering()).emit_call(&call, point, location, operands, shape_operands)
    }

    /// Every problem of a call (`validate::problems`, types as MLIR text).
    pub fn validate_all(
        kernel: Option<&Kernel<'_>>,
        params: &Params,
        signature: Option<(&[String], &[String])>,
        target: Option<Chip>,
    ) -> Vec<Error> {
        let signature = match (kernel, signature) {
            (Some(kernel), Some((operands, results))) => {
                match (parse(kernel, operands), parse(kernel, results)) {
                    (Some(o), Some(r)) => Some(Signature::new(o, r)),
                    _ => None,
                }
            }
            _ => None,
        };
        validate::problems(kernel, signature.as_ref(), params, target)
    }
}

/// The first message of a kernel MLIR or our `tpu` verifier refuses (`None`
/// when it loads): the diagnostic's or verifier error's message without its
/// location, as jaxlib's first message is compared.
pub fn first_message(
    result: Result<tpu_custom_call::Kernel<'_>, tpu_custom_call::KernelError>,
) -> Option<String> {
    use tpu_custom_call::KernelError;
    match result {
        Ok(_) => None,
        Err(KernelError::Dialect { errors, .. }) => Some(
            errors
                .first()
                .map(|e| e.message.clone())
                .unwrap_or_default(),
        ),
        Err(KernelError::Parse { diagnostics, .. } | KernelError::Verify { diagnostics, .. }) => {
            Some(
                diagnostics
                    .first()
                    .map(|d| d.message.clone())
                    .unwrap_or_default(),
            )
        }
        Err(e @ KernelError::UnknownMemorySpace { .. }) => {
            // `file:line:col: <jaxlib's message>\n  hint: ...`
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("").to_string();
            Some(
                first
                    .split_once(": ")
                    .map_or(first.clone(), |(_, m)| m.to_string()),
            )
        }
        Err(e) => Some(e.to_string()),
    }
}

/// Whether this build parses the pretty form of `stablehlo` ops as JAX
/// prints them (the pass-through dialect's custom syntax, issue 31).
pub fn pretty_hlo_syntax() -> bool {
    let ctx = tpu_custom_call::Context::new();
    tpu_custom_call::interop::read_module(
        &ctx,
        b"module {\n  func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n    %0 = stablehlo.add %arg0, %arg0 : tensor<f32>\n    return %0 : tensor<f32>\n  }\n}\n",
        "probe",
    )
    .is_ok()
}
