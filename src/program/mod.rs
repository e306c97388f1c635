//! Running a whole lowered program on the CPU: XLA's CPU compiler (through
//! the PJRT C API and the `xla-cpu-pjrt` plugin) for the StableHLO, the
//! executor ([`crate::exec`]) for every `tpu_custom_call`.
//!
//! [`Program::load`] decodes and compiles each call's kernel once (a call
//! *site*), rewrites each call into a typed XLA FFI custom call that names
//! its site ([`rewrite`]), and has XLA compile the module; [`Program::run`]
//! runs `@main` on global arrays. XLA calls our handler ([`handler`]) for
//! each kernel call it reaches, with its own buffers; the handler runs the
//! executor with the program's [`RunOptions`] and writes the results back.
//! An executor error (or panic) inside a kernel fails the run with an error
//! naming the call ([`ProgramError::Call`]).
//!
//! ```no_run
//! use tpu_custom_call::Context;
//! use tpu_custom_call::exec::{Array, ElemType};
//! use tpu_custom_call::program::{Program, ProgramOptions};
//!
//! let ctx = Context::new();
//! let bytes = std::fs::read("mlir-fixtures/jax-programs/pallas_add.mlir")?;
//! let program = Program::load(&ctx, &bytes, "pallas_add.mlir", &ProgramOptions::default())?;
//! let x = Array::filled(ElemType::F32, &[8, 128], 1.0);
//! let out = program.run(&[x.clone(), x])?;
//! assert_eq!(out.results[0].data.get_f64(0), 2.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod handler;
pub mod rewrite;
// The corpus branch's module; its errors carry the values that disagree.
#[allow(clippy::result_large_err)]
pub mod sharding;
mod site;
mod xla;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::exec::{Array, ExecError, Execution, RunOptions, TensorType};

pub use site::{live_sites, site_is_registered};

/// How a program is loaded and run.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    /// The executor's options, for every kernel call of the program.
    pub run: RunOptions,
    /// Devices (XLA CPU devices; SPMD partitions of a sharded program).
    pub devices: usize,
    /// A PJRT CPU plugin; `None`: the one `pjrt::find_cpu_plugin` finds.
    pub plugin: Option<PathBuf>,
    /// How long a device waits for the others at a kernel call that talks
    /// across devices before the run fails (a deadlock guard).
    pub rendezvous_timeout: Duration,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            run: RunOptions::default(),
            devices: 1,
            plugin: None,
            rendezvous_timeout: Duration::from_secs(60),
        }
    }
}

/// Why a program could not be loaded or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// The module could not be read or rewritten.
    #[error("{source_name}: {message}")]
    Module {
        /// The module's name.
        source_name: String,
        /// What is wrong.
        message: String,
    },
    /// A kernel call could not be compiled, or failed while running.
    #[error("tpu_custom_call #{index} ({kernel}){}: {error}", location.as_ref().map(|l| format!(" at {l}")).unwrap_or_default())]
    Call {
        /// Position among the module's `tpu_custom_call`s.
        index: usize,
        /// The kernel's name.
        kernel: String,
        /// Where the call is in the module.
        location: Option<String>,
        /// The executor's error.
        error: Box<ExecError>,
    },
    /// The inputs do not match `@main`'s arguments.
    #[error("{0}")]
    Input(String),
    /// The PJRT plugin could not be found or loaded, or XLA refused the
    /// module or failed to run it.
    #[error("{0}")]
    Xla(String),
}

/// One call site of a program, as reported.
#[derive(Clone, Debug)]
pub struct CallReport {
    /// Position among the module's `tpu_custom_call`s.
    pub index: usize,
    /// The kernel's name.
    pub kernel: String,
    /// Where the call is in the module (`line 12`).
    pub location: Option<String>,
    /// Executor runs (one per device per execution, or one for all devices
    /// of a cross-device kernel).
    pub runs: u64,
    /// Seconds the executor ran this call (all runs).
    pub seconds: f64,
    /// Per result, elements no op wrote (with
    /// [`RunOptions::detect_uninitialized`]).
    pub unwritten: Vec<Option<u64>>,
    /// Seconds decoding and compiling the kernel (once, at load).
    pub decode_seconds: f64,
}

/// What a run did besides its results.
#[derive(Clone, Debug)]
pub struct ProgramReport {
    /// Each call site.
    pub calls: Vec<CallReport>,
    /// Seconds XLA took to compile the module (at load).
    pub compile_seconds: f64,
    /// Seconds decoding the kernels (at load).
    pub decode_seconds: f64,
    /// Seconds of this run (XLA and the executor).
    pub run_seconds: f64,
    /// Devices.
    pub devices: usize,
}

/// A run's results (`@main`'s, global arrays) and its report.
#[derive(Clone, Debug)]
pub struct Outputs {
    /// `@main`'s results in order.
    pub results: Vec<Array>,
    /// What ran.
    pub report: ProgramReport,
}

/// `@main`'s argument and result types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainSignature {
    /// Argument types, as printed.
    pub arguments: Vec<String>,
    /// Result types, as printed.
    pub results: Vec<String>,
}

/// A program loaded for XLA's CPU compiler, its kernels compiled.
pub struct Program {
    name: String,
    signature: MainSignature,
    arguments: Vec<TensorType>,
    results: Vec<TensorType>,
    /// `@main`'s shardings (programs over several devices).
    shardings: Option<sharding::MainShardings>,
    sites: Vec<site::SiteGuard>,
    executable: xla::Compiled,
    compile_seconds: f64,
    decode_seconds: f64,
    decode_each: Vec<f64>,
    options: ProgramOptions,
    /// Runs of one program take turns (its sites' reports, error slots and
    /// step counters are per run).
    turn: std::sync::Mutex<()>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("signature", &self.signature)
            .field("calls", &self.sites.len())
            .finish()
    }
}

impl Program {
    /// Reads a module (ours, JAX's `Lowered.as_text()` or
    /// `Exported.mlir_module()`, text or bytecode, with or without
    /// kernels), decodes and compiles each kernel once, and has XLA compile
    /// the rewritten module for `options.devices` CPU devices.
    pub fn load(
        ctx: &crate::Context,
        bytes: &[u8],
        name: &str,
        options: &ProgramOptions,
    ) -> Result<Program, ProgramError> {
        if options.devices == 0 {
            return Err(ProgramError::Input("devices must be at least 1".into()));
        }
        let signature = main_signature(ctx, bytes, name)?;
        let arguments = signature
            .arguments
            .iter()
            .enumerate()
            .map(|(k, t)| tensor_type(t, &format!("argument {k} of @main")))
            .collect::<Result<Vec<_>, _>>()?;
        let polymorphic = arguments
            .iter()
            .any(|t| t.shape.contains(&crate::exec::DYNAMIC_DIM));
        if polymorphic {
            // Measured: XLA's PJRT compile does not refine shapes (JAX runs
            // StableHLO's refinement in Python before it compiles); given
            // @main with static types that convert to the exported ones, the
            // plugin refuses the dynamic callee ("Unbounded dynamism is
            // disabled"). StableHLO's refinement pass is not in this build.
            return Err(ProgramError::Input(format!(
                "{name}: @main has symbolic dimensions ({}): XLA's CPU compiler runs static \
                 shapes only and this build has no StableHLO shape refinement; export with \
                 concrete shapes (`jax.export` of concrete `ShapeDtypeStruct`s)",
                signature
                    .arguments
                    .iter()
                    .filter(|t| t.contains('?'))
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let results = signature
            .results
            .iter()
            .enumerate()
            .map(|(k, t)| tensor_type(t, &format!("result {k} of @main")))
            .collect::<Result<Vec<_>, _>>()?;
        let shardings = partitioning(ctx, bytes, name, options.devices, &signature)?;
        let started = Instant::now();
        let found =
            crate::decode::find_calls(ctx, bytes, name).map_err(|e| ProgramError::Module {
                source_name: name.to_string(),
                message: e.to_string(),
            })?;
        let mut sites = Vec::with_capacity(found.len());
        let failed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut decode_each = Vec::with_capacity(found.len());
        for f in found {
            let t0 = Instant::now();
            let index = f.index;
            let kernel = f.kernel_name.clone().unwrap_or_else(|| "kernel".into());
            let location = f.line.map(|l| format!("{name}:{l}"));
            let call_err = |error: ExecError| ProgramError::Call {
                index,
                kernel: kernel.clone(),
                location: location.clone(),
                error: Box::new(error),
            };
            let decoded = crate::decode::decode_call(ctx, f)
                .map_err(|e| call_err(ExecError::new(e.to_string())))?;
            let execution = Execution::of_call(&decoded).map_err(call_err)?;
            // Kernels that talk across devices, or ask which device they
            // run on, run with all devices at once (the executor gives a
            // device run alone the id 0).
            let rendezvous = options.devices > 1
                && (decoded.config.has_communication || reads_device_id(&decoded.kernel));
            sites.push(site::register(site::Site::new(
                index,
                kernel.clone(),
                location.clone(),
                execution,
                options.run.clone(),
                options.devices,
                rendezvous,
                options.rendezvous_timeout,
                std::sync::Arc::clone(&failed),
            )));
            decode_each.push(t0.elapsed().as_secs_f64());
        }
        let decode_seconds = started.elapsed().as_secs_f64();
        let rewrites: Vec<rewrite::SiteRewrite> = sites
            .iter()
            .map(|g| rewrite::SiteRewrite { site: g.site.id })
            .collect();
        let text = rewrite::rewrite_module(ctx, bytes, name, &rewrites)?;
        let executable =
            xla::compile(&text, options).map_err(|e| ProgramError::Xla(format!("{name}: {e}")))?;
        let compile_seconds = executable.executable.compile_time().as_secs_f64();
        // What the executable expects wins over the annotations: XLA's
        // partitioner also shards arguments and results @main leaves
        // unannotated (JAX reads them back from the compiled executable).
        let shardings = shardings.map(|mut s| {
            let chosen = |texts: &[Option<String>], k: usize| {
                texts
                    .get(k)
                    .and_then(Option::as_deref)
                    .and_then(|t| sharding::Sharding::parse_hlo(t).ok())
            };
            for (k, a) in s.args.iter_mut().enumerate() {
                if let Some(x) = chosen(executable.executable.parameter_shardings(), k) {
                    *a = Some(x);
                }
            }
            for (k, r) in s.results.iter_mut().enumerate() {
                if let Some(x) = chosen(executable.executable.result_shardings(), k) {
                    *r = Some(x);
                }
            }
            s
        });
        Ok(Program {
            name: name.to_string(),
            signature,
            arguments,
            results,
            shardings,
            sites,
            executable,
            compile_seconds,
            decode_seconds,
            decode_each,
            options: options.clone(),
            turn: std::sync::Mutex::new(()),
        })
    }

    /// `@main`'s argument and result types.
    pub fn signature(&self) -> &MainSignature {
        &self.signature
    }

    /// The number of `tpu_custom_call` sites.
    pub fn calls(&self) -> usize {
        self.sites.len()
    }

    /// The process-wide ids of the program's call sites, in call order
    /// (each registered while the program lives: [`site_is_registered`]).
    pub fn site_ids(&self) -> Vec<u64> {
        self.sites.iter().map(|g| g.site.id).collect()
    }

    /// The module text XLA compiled is not kept; this is its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks inputs against `@main`'s arguments: count, element type and
    /// shape, naming the first argument that differs.
    pub fn check_inputs(&self, inputs: &[Array]) -> Result<(), ProgramError> {
        if inputs.len() != self.arguments.len() {
            return Err(ProgramError::Input(format!(
                "{}: @main takes {} argument(s), {} given",
                self.name,
                self.arguments.len(),
                inputs.len()
            )));
        }
        for (k, (a, t)) in inputs.iter().zip(&self.arguments).enumerate() {
            if a.elem != t.elem {
                return Err(ProgramError::Input(format!(
                    "{}: argument {k} of @main is `{}`, the input has element type {}",
                    self.name, self.signature.arguments[k], a.elem
                )));
            }
            let fits = a.shape.len() == t.shape.len()
                && a.shape
                    .iter()
                    .zip(&t.shape)
                    .all(|(&x, &d)| d == crate::exec::DYNAMIC_DIM || d == x);
            if !fits {
                return Err(ProgramError::Input(format!(
                    "{}: argument {k} of @main is `{}`, the input has shape {:?}",
                    self.name, self.signature.arguments[k], a.shape
                )));
            }
        }
        Ok(())
    }

    /// Runs `@main` on global arrays (checked first) and returns its
    /// results with a report. Runs of one program from several threads
    /// take turns; several programs run at once.
    pub fn run(&self, inputs: &[Array]) -> Result<Outputs, ProgramError> {
        self.check_inputs(inputs)?;
        let _turn = self.turn.lock().unwrap_or_else(|e| e.into_inner());
        let before: Vec<site::SiteStats> = self
            .sites
            .iter()
            .map(|g| g.site.stats.lock().map(|s| s.clone()).unwrap_or_default())
            .collect();
        for g in &self.sites {
            g.site.reset();
        }
        let started = Instant::now();
        let per_device = self.split(inputs)?;
        let outcome = xla::execute(&self.executable, &per_device);
        let run_seconds = started.elapsed().as_secs_f64();
        let results = match outcome {
            Ok(r) => self.assemble(r)?,
            Err(message) => {
                // A kernel's error comes back as XLA's; name the call (the
                // first to fail: devices waiting for it fail after it).
                let first = self
                    .sites
                    .iter()
                    .filter_map(|g| {
                        let recorded = g.site.stats.lock().ok().and_then(|s| s.error.clone());
                        recorded.map(|(at, e)| (at, g, e))
                    })
                    .min_by_key(|(at, _, _)| *at);
                if let Some((_, g, error)) = first {
                    return Err(ProgramError::Call {
                        index: g.site.index,
                        kernel: g.site.kernel.clone(),
                        location: g.site.location.clone(),
                        error: Box::new(error),
                    });
                }
                let hint = if self.options.devices > 1 && message.contains("the program takes") {
                    " (XLA's partitioner sharded an argument @main does not annotate: lower \
                     with in_shardings)"
                } else {
                    ""
                };
                return Err(ProgramError::Xla(format!("{}: {message}{hint}", self.name)));
            }
        };
        let calls = self
            .sites
            .iter()
            .zip(before)
            .zip(&self.decode_each)
            .map(|((g, b), &d)| {
                let now = g.site.stats.lock().map(|s| s.clone()).unwrap_or_default();
                CallReport {
                    index: g.site.index,
                    kernel: g.site.kernel.clone(),
                    location: g.site.location.clone(),
                    runs: now.runs - b.runs,
                    seconds: now.seconds - b.seconds,
                    unwritten: now.unwritten,
                    decode_seconds: d,
                }
            })
            .collect();
        Ok(Outputs {
            results,
            report: ProgramReport {
                calls,
                compile_seconds: self.compile_seconds,
                decode_seconds: self.decode_seconds,
                run_seconds,
                devices: self.options.devices,
            },
        })
    }
}

impl Program {
    /// Global inputs as per-device argument lists (each argument split by
    /// its sharding; an unannotated one replicated).
    fn split(&self, inputs: &[Array]) -> Result<Vec<Vec<Array>>, ProgramError> {
        let devices = self.options.devices;
        let Some(shardings) = &self.shardings else {
            return Ok(vec![inputs.to_vec()]);
        };
        let mut per_device = vec![Vec::with_capacity(inputs.len()); devices];
        for (k, a) in inputs.iter().enumerate() {
            let parts = match shardings.args.get(k).and_then(Option::as_ref) {
                Some(s) => s.split(a, devices).map_err(|e| {
                    ProgramError::Input(format!("{}: argument {k} of @main: {e}", self.name))
                })?,
                None => vec![a.clone(); devices],
            };
            for (d, p) in parts.into_iter().enumerate() {
                per_device[d].push(p);
            }
        }
        Ok(per_device)
    }

    /// Per-device results as global arrays (each assembled by its
    /// sharding, every copy checked; an unannotated one read from device 0).
    fn assemble(&self, mut per_device: Vec<Vec<Array>>) -> Result<Vec<Array>, ProgramError> {
        let Some(shardings) = &self.shardings else {
            return Ok(per_device.pop().unwrap_or_default());
        };
        (0..self.results.len())
            .map(|k| {
                let parts: Vec<Array> = per_device
                    .iter_mut()
                    .map(|r| {
                        std::mem::replace(
                            &mut r[k],
                            Array::filled(crate::exec::ElemType::F32, &[], 0.0),
                        )
                    })
                    .collect();
                match shardings.results.get(k).and_then(Option::as_ref) {
                    Some(s) => s
                        .assemble(&parts, &self.results[k].shape, &format!("result {k}"))
                        .map_err(|e| ProgramError::Xla(format!("{}: {e}", self.name))),
                    // Unannotated: replicated, unless XLA's partitioner
                    // chose otherwise (then each device holds a piece
                    // whose layout is XLA's: refused, not guessed).
                    None => match parts.into_iter().next() {
                        Some(a) if a.shape == self.results[k].shape => Ok(a),
                        Some(a) => Err(ProgramError::Xla(format!(
                            "{}: result {k} of @main has no sharding annotation and XLA's \
                             partitioner split it (each device holds {:?} of {:?}); lower with \
                             out_shardings",
                            self.name, a.shape, self.results[k].shape
                        ))),
                        None => Err(ProgramError::Xla(format!(
                            "{}: no device returned result {k}",
                            self.name
                        ))),
                    },
                }
            })
            .collect()
    }
}

/// The module's partitions (`mhlo.num_partitions`) against the devices
/// asked for, and `@main`'s shardings when there are several.
fn partitioning(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
    devices: usize,
    signature: &MainSignature,
) -> Result<Option<sharding::MainShardings>, ProgramError> {
    let text = std::str::from_utf8(bytes).ok();
    let partitions = match text {
        Some(t) => t.split_once("mhlo.num_partitions = ").and_then(|(_, r)| {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            r[..end].parse::<usize>().ok()
        }),
        // Bytecode: the module op's attribute.
        None => crate::interop::read_module(ctx, bytes, name)
            .ok()
            .and_then(|m| {
                use melior::ir::operation::OperationLike;
                let a = m.as_operation().attribute("mhlo.num_partitions").ok()?;
                melior::ir::attribute::IntegerAttribute::try_from(a)
                    .ok()
                    .map(|i| i.value() as usize)
            }),
    }
    .unwrap_or(1);
    if partitions != devices {
        return Err(ProgramError::Input(format!(
            "{name}: the module is partitioned for {partitions} device(s) \
             (mhlo.num_partitions = {partitions}), {devices} asked for: run it on {partitions}"
        )));
    }
    if devices == 1 {
        return Ok(None);
    }
    // @main's annotations where this reads them (JAX's text); else none:
    // the executable's own shardings (read after XLA compiles) decide.
    let unannotated = || sharding::MainShardings {
        num_partitions: partitions,
        args: vec![None; signature.arguments.len()],
        results: vec![None; signature.results.len()],
    };
    Ok(Some(
        text.and_then(|t| sharding::MainShardings::from_text(t).ok())
            .unwrap_or_else(unannotated),
    ))
}

/// Runs a module's `@main` on global arrays in one call: [`Program::load`]
/// then [`Program::run`] (load once and run many times to decode and
/// compile once).
pub fn run_module(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
    inputs: &[Array],
    options: &ProgramOptions,
) -> Result<Outputs, ProgramError> {
    Program::load(ctx, bytes, name, options)?.run(inputs)
}

/// Whether a kernel has a `tpu.device_id` op.
fn reads_device_id(kernel: &crate::Kernel<'_>) -> bool {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let mut found = false;
    kernel.operation().walk(WalkOrder::PreOrder, |op| {
        if crate::ffi::identifier_str(&op.name()) == "tpu.device_id" {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// A printed type as the executor's, or an error naming `what`.
fn tensor_type(text: &str, what: &str) -> Result<TensorType, ProgramError> {
    TensorType::parse(text).ok_or_else(|| {
        ProgramError::Input(format!(
            "{what} has type `{text}`, which the runner does not hold (tensors of bool, \
             integer and float elements)"
        ))
    })
}

/// Splits `text` at top-level commas (outside brackets and strings).
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut in_str, mut escaped) = (0i32, 0usize, false, false);
    for (i, c) in text.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(&text[start..]);
    }
    parts
}

/// A type at the start of `text` (up to a top-level `{` or whitespace).
fn leading_type(text: &str) -> &str {
    let text = text.trim_start();
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            '{' if depth == 0 => return text[..i].trim(),
            c if c.is_whitespace() && depth == 0 => return &text[..i],
            _ => {}
        }
    }
    text.trim()
}

/// `@main`'s signature: read from the text's `func.func public @main(`
/// header, or from the parsed module.
pub fn main_signature(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
) -> Result<MainSignature, ProgramError> {
    let bad = |m: &str| ProgramError::Module {
        source_name: name.to_string(),
        message: m.to_string(),
    };
    if let Ok(text) = std::str::from_utf8(bytes)
        && let Some(at) = text.find(" @main(")
        && text[..at].trim_end().ends_with("func.func public")
            | text[..at].trim_end().ends_with("func.func")
    {
        let open = at + " @main".len();
        let close = crate::decode::matching(text, open, b'(', b')')
            .ok_or_else(|| bad("@main's argument list is not closed"))?;
        let arguments = split_top(&text[open + 1..close])
            .into_iter()
            .map(|a| {
                let ty = a.split_once(':').map_or("", |(_, t)| t);
                leading_type(ty).to_string()
            })
            .collect();
        let rest = text[close + 1..].trim_start();
        let results = match rest.strip_prefix("->") {
            None => Vec::new(),
            Some(r) => {
                let r = r.trim_start();
                if r.starts_with('(') {
                    let start = text.len() - r.len();
                    let end = crate::decode::matching(text, start, b'(', b')')
                        .ok_or_else(|| bad("@main's result list is not closed"))?;
                    split_top(&text[start + 1..end])
                        .into_iter()
                        .map(|t| leading_type(t).to_string())
                        .collect()
                } else {
                    vec![leading_type(r).to_string()]
                }
            }
        };
        return Ok(MainSignature { arguments, results });
    }
    parsed_main_signature(ctx, bytes, name)
}

/// `@main`'s signature from the parsed module (generic text, bytecode).
fn parsed_main_signature(
    ctx: &crate::Context,
    bytes: &[u8],
    name: &str,
) -> Result<MainSignature, ProgramError> {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let module =
        crate::interop::read_module(ctx, bytes, name).map_err(|e| ProgramError::Module {
            source_name: name.to_string(),
            message: e.to_string(),
        })?;
    let mut found = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if crate::ffi::identifier_str(&op.name()) == "func.func"
            && let Ok(sym) = op.attribute("sym_name")
            && crate::kernel::string_attr_value(sym).as_deref() == Some("main")
            && let Ok(ty) = op.attribute("function_type")
            && let Ok(ty) = melior::ir::attribute::TypeAttribute::try_from(ty)
            && let Ok(f) = melior::ir::r#type::FunctionType::try_from(ty.value())
        {
            let arguments = (0..f.input_count())
                .filter_map(|i| f.input(i).ok())
                .map(|t| t.to_string())
                .collect();
            let results = (0..f.result_count())
                .filter_map(|i| f.result(i).ok())
                .map(|t| t.to_string())
                .collect();
            found = Some(MainSignature { arguments, results });
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found.ok_or_else(|| ProgramError::Module {
        source_name: name.to_string(),
        message: "the module has no func.func @main".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_signature_from_pretty_text() {
        let ctx = crate::Context::new();
        let text = r#"module @m {
  func.func public @main(%arg0: tensor<8x128xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<i32>) -> (tensor<8x128xf32> {jax.result_info = "result"}, tensor<2xi32>) {
    return
  }
}"#;
        let s = main_signature(&ctx, text.as_bytes(), "m").unwrap();
        assert_eq!(s.arguments, ["tensor<8x128xf32>", "tensor<i32>"]);
        assert_eq!(s.results, ["tensor<8x128xf32>", "tensor<2xi32>"]);
    }
}
