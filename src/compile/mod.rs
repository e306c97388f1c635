//! Compiling StableHLO modules with the real TPU compiler, offline: libtpu
//! 0.0.50.1 through the PJRT C API for a TPU topology description, no TPU, no
//! Python.
//!
//! libtpu aborts its process on some inputs (a shape-polymorphic JAX export:
//! `Check failed: !count_overflow`), so compiles run in a worker process: an
//! executable started with the hidden subcommand [`WORKER_SUBCOMMAND`], which
//! calls [`run_worker`]. A crash becomes [`Verdict::Crashed`] for that module
//! and the next compile starts a fresh worker. The worker is, in order:
//! [`CompileOptions::worker`]; the path in `TPU_CUSTOM_CALL_WORKER`; the
//! current executable when it is the `tpu-custom-call` CLI; a
//! current program itself on Linux (a test binary of a crate depending on
//! this one, say: no binary of yours, no setup), started again with
//! [`SELF_WORKER_ENV`] set, which this library's start-up hook (it runs
//! before `main`, before the test harness) turns into the worker; elsewhere
//! a `tpu-custom-call` executable beside the current one (cargo's target
//! folder), on `PATH` or in `$CARGO_HOME/bin` (`cargo install
//! tpu-custom-call`). A program can also serve the worker from its own
//! `main`: call [`serve_worker_if_asked`] first thing and set
//! [`CompileOptions::worker`] to `std::env::current_exe()`. Without any, the
//! error says which of these to set ([`CompileError::NoWorker`]).
//!
//! A worker that hangs is killed after [`Compiler::timeout`] (by default
//! [`DEFAULT_TIMEOUT_SECONDS`] per module, or `TPU_CUSTOM_CALL_COMPILE_TIMEOUT`
//! seconds when set): the module's verdict is [`Verdict::TimedOut`]
//! (`libtpu timed out after N s`) and the next compile starts a fresh worker.
//!
//! ```no_run
//! use tpu_custom_call::compile::{self, CompileOptions};
//! use tpu_custom_call::target::Chip;
//!
//! let module = std::fs::read("add.stablehlo.mlir")?;
//! let verdict = compile::compile_module(&module, &CompileOptions { chip: Chip::V6e, ..Default::default() })?;
//! println!("{}", verdict.error().unwrap_or_else(|| "compiled".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod estimate;
mod worker;

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use crate::pjrt::MemoryStats;
pub use estimate::{
    CallEstimate, Estimate, EstimateError, EstimateOptions, estimate, estimate_many,
};

use crate::target::Chip;

/// The libtpu release whose compiler JAX 0.12 uses.
pub const LIBTPU_VERSION: &str = "0.0.50.1";

/// How long one module may take before its worker is killed, when neither
/// [`Compiler::set_timeout`] nor `TPU_CUSTOM_CALL_COMPILE_TIMEOUT` says
/// otherwise (the slowest golden module compiles in well under a second).
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 300;

/// The environment variable that sets the default timeout, in seconds
/// (a decimal number, e.g. `30` or `0.5`), for every [`Compiler`] and so for
/// `tpu-custom-call compile` and `emit --compile-check`.
pub const TIMEOUT_ENV: &str = "TPU_CUSTOM_CALL_COMPILE_TIMEOUT";

/// The default timeout: `TPU_CUSTOM_CALL_COMPILE_TIMEOUT` seconds when it is
/// set to a positive number, else [`DEFAULT_TIMEOUT_SECONDS`].
pub fn default_timeout() -> Duration {
    std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
        .map_or(
            Duration::from_secs(DEFAULT_TIMEOUT_SECONDS),
            Duration::from_secs_f64,
        )
}

/// The hidden subcommand that runs [`run_worker`] in the worker executable.
pub const WORKER_SUBCOMMAND: &str = "__compile-worker";

/// A deviceless topology libtpu 0.0.50.1 makes for a chip (measured with
/// `scripts/libtpu/devices_sweep.py`, `tests/data/compile/devices.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Topology {
    /// Its name as PJRT takes it (`v5e:2x4`).
    pub name: &'static str,
    /// Its devices.
    pub devices: usize,
    /// Whether libtpu compiles for its first N devices, N below
    /// [`Topology::devices`] (measured for every N to 16 and for 24 of 32);
    /// v5e's 4x8 takes only all of them ("RET_CHECK failure ... device_count
    /// == target.Topology()->LogicalDeviceCount"), and subsets of the
    /// topologies above 32 devices are not measured: only all.
    pub subsets: bool,
}

const fn topo(name: &'static str, devices: usize, subsets: bool) -> Topology {
    Topology {
        name,
        devices,
        subsets,
    }
}

/// The chips libtpu compiles for here, with `TPU_ACCELERATOR_TYPE` (as
/// `tpu_compile.py` names it) and their topologies, from small to large: a
/// compile for N devices uses the smallest that takes N.
pub const TOPOLOGIES: [(Chip, &str, &[Topology]); 5] = [
    (
        Chip::V4,
        "v4-8",
        &[
            topo("v4:2x2x1", 8, true),
            topo("v4:2x2x2", 16, true),
            topo("v4:2x2x4", 32, true),
            topo("v4:2x4x4", 64, false),
            topo("v4:4x4x4", 128, false),
        ],
    ),
    (
        Chip::V5e,
        "v5litepod-4",
        &[
            topo("v5e:2x2", 4, true),
            topo("v5e:2x4", 8, true),
            topo("v5e:4x4", 16, true),
            topo("v5e:4x8", 32, false),
            topo("v5e:8x8", 64, false),
            topo("v5e:8x16", 128, false),
            topo("v5e:16x16", 256, false),
        ],
    ),
    (
        Chip::V5p,
        "v5p-8",
        &[
            topo("v5p:2x2x1", 4, true),
            topo("v5p:2x2x2", 8, true),
            topo("v5p:2x2x4", 16, true),
            topo("v5p:2x4x4", 32, true),
            topo("v5p:4x4x4", 64, false),
        ],
    ),
    (
        Chip::V6e,
        "v6e-4",
        &[
            topo("v6e:2x2", 4, true),
            topo("v6e:2x4", 8, true),
            topo("v6e:4x4", 16, true),
            topo("v6e:4x8", 32, true),
            topo("v6e:8x8", 64, false),
            topo("v6e:8x16", 128, false),
            topo("v6e:16x16", 256, false),
        ],
    ),
    (
        Chip::V7x,
        "tpu7x-8",
        &[
            topo("tpu7x:2x2x1", 8, true),
            topo("tpu7x:2x2x2", 16, true),
            topo("tpu7x:2x2x4", 32, true),
            topo("tpu7x:2x4x4", 64, false),
            topo("tpu7x:4x4x4", 128, false),
        ],
    ),
];

/// The topology a compile for `devices` devices of `chip` uses: the smallest
/// that takes them; `None` when none does.
pub fn topology_for(chip: Chip, devices: usize) -> Option<&'static Topology> {
    let (_, _, topologies) = TOPOLOGIES.iter().find(|(c, ..)| *c == chip)?;
    topologies
        .iter()
        .find(|t| devices >= 1 && (t.devices == devices || (t.subsets && devices < t.devices)))
}

/// The device counts libtpu 0.0.50.1's deviceless topologies of `chip`
/// compile for, in words (`1 to 16, 32, 64, 128 and 256`); `None` for a
/// chip without topologies.
pub fn device_counts(chip: Chip) -> Option<String> {
    let (_, _, topologies) = TOPOLOGIES.iter().find(|(c, ..)| *c == chip)?;
    let upto = topologies
        .iter()
        .filter(|t| t.subsets)
        .map(|t| t.devices)
        .max()
        .unwrap_or(1);
    let mut parts = vec![format!("1 to {upto}")];
    parts.extend(
        topologies
            .iter()
            .filter(|t| t.devices > upto)
            .map(|t| t.devices.to_string()),
    );
    let last = parts.pop().unwrap_or_default();
    Some(if parts.is_empty() {
        last
    } else {
        format!("{} and {last}", parts.join(", "))
    })
}

/// The most devices any chip's topology has here.
pub fn max_devices(chip: Option<Chip>) -> usize {
    TOPOLOGIES
        .iter()
        .filter(|(c, ..)| chip.is_none_or(|chip| *c == chip))
        .flat_map(|(_, _, ts)| ts.iter().map(|t| t.devices))
        .max()
        .unwrap_or(1)
}

/// What to compile for and with.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The chip (one of [`TOPOLOGIES`]).
    pub chip: Chip,
    /// SPMD partitions with a device assignment (the counts
    /// [`device_counts`] lists for the chip): kernels that address other
    /// devices need more than one.
    pub devices: usize,
    /// libtpu.so; `None` looks it up with [`find_libtpu`].
    pub libtpu: Option<PathBuf>,
    /// The executable that runs the worker; `None` is the current one.
    pub worker: Option<PathBuf>,
    /// How long one module (and the worker's start) may take before the
    /// worker is killed; `None` is [`default_timeout`] (see
    /// [`Compiler::set_timeout`]).
    pub timeout: Option<Duration>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            chip: Chip::V5e,
            devices: 1,
            libtpu: None,
            worker: None,
            timeout: None,
        }
    }
}

/// The compiler's verdict on one module.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Verdict {
    /// libtpu compiled it.
    Compiled {
        /// The executable's memory statistics.
        stats: MemoryStats,
        /// Wall time of the compile (worker start-up included when it had to
        /// start).
        seconds: f64,
    },
    /// libtpu refused it.
    Refused {
        /// libtpu's message, verbatim.
        message: String,
        /// Wall time of the compile.
        seconds: f64,
    },
    /// The worker did not answer within the timeout and was killed.
    TimedOut {
        /// The timeout, in seconds.
        limit: f64,
        /// Wall time until the worker was killed.
        seconds: f64,
    },
    /// libtpu aborted the worker process on it.
    Crashed {
        /// The `Check failed` line of libtpu's log, or its last line.
        message: String,
        /// Wall time of the compile.
        seconds: f64,
    },
}

impl Verdict {
    /// The module compiled.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Compiled { .. })
    }

    /// libtpu's message, `libtpu crashed: ...` for a crash, `libtpu timed
    /// out after N s` for a timeout; `None` when the module compiled.
    pub fn error(&self) -> Option<String> {
        match self {
            Verdict::Compiled { .. } => None,
            Verdict::Refused { message, .. } => Some(message.clone()),
            Verdict::Crashed { message, .. } => Some(format!("libtpu crashed: {message}")),
            Verdict::TimedOut { limit, .. } => Some(format!(
                "libtpu timed out after {} s",
                format_seconds(*limit)
            )),
        }
    }

    /// The memory statistics of a compiled module.
    pub fn stats(&self) -> Option<&MemoryStats> {
        match self {
            Verdict::Compiled { stats, .. } => Some(stats),
            _ => None,
        }
    }

    /// Wall time of the compile, in seconds.
    pub fn seconds(&self) -> f64 {
        match self {
            Verdict::Compiled { seconds, .. }
            | Verdict::Refused { seconds, .. }
            | Verdict::Crashed { seconds, .. }
            | Verdict::TimedOut { seconds, .. } => *seconds,
        }
    }
}

/// `300`, `0.5`: seconds as a user wrote them.
fn format_seconds(seconds: f64) -> String {
    if seconds.fract() == 0.0 {
        format!("{seconds:.0}")
    } else {
        let text = format!("{seconds:.3}");
        text.trim_end_matches('0').to_string()
    }
}

/// Why nothing could be compiled (as opposed to a module libtpu refused).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompileError {
    /// No libtpu.so where it was looked for.
    #[error(
        "libtpu.so not found (looked at {}); run scripts/install-deps.sh, which keeps libtpu \
         {LIBTPU_VERSION} from PyPI in ~/.cache/tpu-custom-call/libtpu/{LIBTPU_VERSION}/, or give \
         --libtpu PATH or TPU_LIBRARY_PATH",
        .searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    LibtpuNotFound {
        /// The paths tried, in order.
        searched: Vec<PathBuf>,
    },
    /// A chip with no topology here.
    #[error(
        "target `{chip}` cannot be compiled for: libtpu {LIBTPU_VERSION} topologies exist for v4, \
         v5e, v5p, v6e and v7x"
    )]
    UnsupportedChip {
        /// The chip asked for.
        chip: Chip,
    },
    /// A device count no deviceless topology of the chip compiles for.
    #[error(
        "--devices {devices}: libtpu {LIBTPU_VERSION}'s deviceless {chip} topologies compile for {counts} devices"
    )]
    Devices {
        /// The count asked for.
        devices: usize,
        /// The chip.
        chip: Chip,
        /// The counts they compile for, in words.
        counts: String,
    },
    /// No worker executable was given or found (see [`find_worker`]).
    #[error(
        "no libtpu worker: compiling runs libtpu in a worker process, the `tpu-custom-call` executable, and none \
         was found beside this program, on PATH or in $CARGO_HOME/bin (and this platform cannot start the program \
         itself as the worker: that is Linux only). Install it (`cargo install tpu-custom-call`, or `cargo build` \
         in its repository), then set CompileOptions::worker or {WORKER_ENV} to its path; or make this program \
         its own worker: call compile::serve_worker_if_asked() first thing in main and set \
         CompileOptions::worker to std::env::current_exe()"
    )]
    NoWorker,
    /// The worker process could not be started or did not come up.
    #[error("the libtpu worker ({}) failed: {message}", .worker.display())]
    Worker {
        /// The worker executable.
        worker: PathBuf,
        /// What went wrong (libtpu's message when it failed to load).
        message: String,
    },
}

/// Finds libtpu.so: `explicit` (`--libtpu`), then `TPU_LIBRARY_PATH` (JAX's
/// variable), then `~/.cache/tpu-custom-call/libtpu/0.0.50.1/libtpu.so` (where
/// `scripts/install-deps.sh` puts it).
pub fn find_libtpu(explicit: Option<&Path>) -> Result<PathBuf, CompileError> {
    let mut searched = Vec::new();
    if let Some(path) = explicit {
        if path.is_file() {
            return Ok(path.to_path_buf());
        }
        return Err(CompileError::LibtpuNotFound {
            searched: vec![path.to_path_buf()],
        });
    }
    if let Some(path) = std::env::var_os("TPU_LIBRARY_PATH").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        searched.push(path);
    }
    if let Some(path) = default_libtpu_path() {
        if path.is_file() {
            return Ok(path);
        }
        searched.push(path);
    }
    Err(CompileError::LibtpuNotFound { searched })
}

/// `$HOME/.cache/tpu-custom-call/libtpu/0.0.50.1/libtpu.so`.
pub fn default_libtpu_path() -> Option<PathBuf> {
    release_libtpu_path(LIBTPU_VERSION)
}

/// Where `scripts/libtpu/install-release.sh` puts a release:
/// `$TPU_CUSTOM_CALL_LIBTPU_CACHE/<release>/libtpu.so`, by default
/// `$HOME/.cache/tpu-custom-call/libtpu/<release>/libtpu.so`.
pub fn release_libtpu_path(release: &str) -> Option<PathBuf> {
    let cache = match std::env::var_os("TPU_CUSTOM_CALL_LIBTPU_CACHE").filter(|c| !c.is_empty()) {
        Some(cache) => PathBuf::from(cache),
        None => {
            let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
            PathBuf::from(home).join(".cache/tpu-custom-call/libtpu")
        }
    };
    Some(cache.join(release).join("libtpu.so"))
}

/// Compiles one module (StableHLO text, pretty or generic, or bytecode) in a
/// worker of its own. For several modules keep a [`Compiler`]: the worker
/// starts once (about half a second), later compiles take tens of ms.
pub fn compile_module(module: &[u8], options: &CompileOptions) -> Result<Verdict, CompileError> {
    Compiler::new(options.clone())?.compile(module)
}

/// A worker process kept across compiles for one chip and device count.
pub struct Compiler {
    options: CompileOptions,
    /// The PJRT C API version the worker reported when it started.
    pjrt_api: Option<(u32, u32)>,
    /// The release of the library, once looked for.
    release: Option<Option<IdentifiedRelease>>,
    topology: &'static str,
    accelerator: &'static str,
    libtpu: PathBuf,
    worker: PathBuf,
    timeout: Duration,
    /// Extra environment of the worker ([`Compiler::set_env`]).
    env: Vec<(OsString, OsString)>,
    running: Option<Running>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    /// The worker's JSON answers, read by a thread of their own so that a
    /// hanging worker can be waited for with a timeout.
    answers: Receiver<serde_json::Value>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

/// Why no answer came.
enum NoAnswer {
    /// The worker exited (or closed its answer pipe).
    Died,
    /// The timeout passed.
    TimedOut,
}

impl Compiler {
    /// Checks the options and finds libtpu; the worker starts at the first
    /// compile.
    pub fn new(options: CompileOptions) -> Result<Compiler, CompileError> {
        let &(_, accelerator, _) = TOPOLOGIES
            .iter()
            .find(|(chip, ..)| *chip == options.chip)
            .ok_or(CompileError::UnsupportedChip { chip: options.chip })?;
        let topology = topology_for(options.chip, options.devices)
            .ok_or_else(|| CompileError::Devices {
                devices: options.devices,
                chip: options.chip,
                counts: device_counts(options.chip).unwrap_or_default(),
            })?
            .name;
        let libtpu = find_libtpu(options.libtpu.as_deref())?;
        let worker = match &options.worker {
            Some(path) => path.clone(),
            None => find_worker()?,
        };
        let timeout = options
            .timeout
            .map_or_else(default_timeout, |t| t.max(Duration::from_millis(1)));
        Ok(Compiler {
            options,
            pjrt_api: None,
            release: None,
            topology,
            accelerator,
            libtpu,
            worker,
            timeout,
            env: Vec::new(),
            running: None,
        })
    }

    /// How long one module (and the worker's start) may take before the
    /// worker is killed: [`default_timeout`] unless set.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sets the timeout for the next compiles (a zero one is taken as 1 ms).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout.max(Duration::from_millis(1));
    }

    /// The compiler with another timeout (see [`Compiler::set_timeout`]).
    pub fn with_timeout(mut self, timeout: Duration) -> Compiler {
        self.set_timeout(timeout);
        self
    }

    /// Sets a variable of the worker's environment (e.g. `LIBTPU_INIT_ARGS`,
    /// which libtpu reads once when it loads): a running worker is ended so
    /// that the next compile starts one with it.
    pub fn set_env(&mut self, key: impl Into<OsString>, value: impl Into<OsString>) {
        let key = key.into();
        self.env.retain(|(k, _)| *k != key);
        self.env.push((key, value.into()));
        if let Some(running) = self.running.take() {
            running.finish();
        }
    }

    /// Ends the worker (the next compile starts a fresh one): returns the
    /// memory libtpu keeps between compiles.
    pub fn stop_worker(&mut self) {
        if let Some(running) = self.running.take() {
            running.finish();
        }
    }

    /// The options this compiler was made with.
    pub fn options(&self) -> &CompileOptions {
        &self.options
    }

    /// The libtpu.so in use.
    pub fn libtpu(&self) -> &Path {
        &self.libtpu
    }

    /// The PJRT C API version the library reported (`Some` once a worker
    /// started: after the first compile, or [`Compiler::start_worker`]).
    pub fn pjrt_api(&self) -> Option<(u32, u32)> {
        self.pjrt_api
    }

    /// Starts the worker now (it otherwise starts at the first compile), so
    /// that [`Compiler::pjrt_api`] is known.
    pub fn start_worker(&mut self) -> Result<(), CompileError> {
        if self.running.is_none() {
            let running = self.start()?;
            self.running = Some(running);
        }
        Ok(())
    }

    /// The release of the library in use, where it can be read (see
    /// [`identify_release`]); looked for once.
    pub fn release(&mut self) -> Option<&IdentifiedRelease> {
        if self.release.is_none() {
            self.release = Some(identify_release(&self.libtpu));
        }
        self.release.as_ref().and_then(Option::as_ref)
    }

    /// Which libtpu this compiler uses, in words: `libtpu 0.0.52 (PJRT C API
    /// 0.117; release from its install record)`, the release left out when
    /// it cannot be read (then the releases with that PJRT version).
    pub fn describe_libtpu(&mut self) -> String {
        let pjrt = self.pjrt_api;
        let release = self.release().cloned();
        describe_libtpu(release.as_ref(), pjrt)
    }

    /// The JSON `compile --json` gives of the libtpu in use: `path`,
    /// `release` (or null), `release_from`, `pjrt_api` (or null).
    pub fn libtpu_json(&mut self) -> serde_json::Value {
        let path = self.libtpu.display().to_string();
        let pjrt = self.pjrt_api.map(|(a, b)| format!("{a}.{b}"));
        let release = self.release().cloned();
        serde_json::json!({
            "path": path,
            "release": release.as_ref().map(|r| r.version.clone()),
            "release_from": release.as_ref().map(|r| r.source.as_str()),
            "pjrt_api": pjrt,
        })
    }

    /// What to change when this compiler refused a module with `message`
    /// (see [`fix_for_refusal`]).
    pub fn fix_for(&mut self, message: &str) -> Option<String> {
        let pjrt = self.pjrt_api;
        let release = self.release().cloned();
        fix_for_refusal(message, release.as_ref(), pjrt)
    }

    fn worker_error(&self, message: impl Into<String>) -> CompileError {
        CompileError::Worker {
            worker: self.worker.clone(),
            message: message.into(),
        }
    }

    fn start(&mut self) -> Result<Running, CompileError> {
        let mut command = Command::new(&self.worker);
        command
            .arg(WORKER_SUBCOMMAND)
            .arg(self.topology)
            .arg(self.options.devices.to_string())
            .arg(&self.libtpu)
            // Compile-only libtpu: no metadata server, no TPU to ask, other
            // libtpu processes allowed.
            .env("TPU_SKIP_MDS_QUERY", "1")
            .env("TPU_ACCELERATOR_TYPE", self.accelerator)
            .env("TPU_WORKER_HOSTNAMES", "localhost")
            .env("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
            .env(SELF_WORKER_ENV, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if std::env::var_os("TF_CPP_MIN_LOG_LEVEL").is_none() {
            command.env("TF_CPP_MIN_LOG_LEVEL", "3");
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        let mut child = command
            .spawn()
            .map_err(|e| self.worker_error(e.to_string()))?;
        let (Some(stdin), Some(mut stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(self.worker_error("no pipes to the worker"));
        };
        // Drain stderr (libtpu's log) so the worker never blocks on it; keep
        // the tail for crash messages.
        let stderr = std::thread::spawn(move || {
            let mut tail = Vec::new();
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 256 * 1024 {
                    tail.drain(..tail.len() - 128 * 1024);
                }
            }
            tail
        });
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(&mut stdout);
            let mut line = String::new();
            loop {
                line.clear();
                match stdout.read_line(&mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if let Ok(value) = serde_json::from_str(&line)
                            && sender.send(value).is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        let mut running = Running {
            child,
            stdin,
            answers,
            stderr: Some(stderr),
        };
        match running.answer(self.timeout) {
            Ok(answer) if answer.get("ready").is_some() => {
                self.pjrt_api = answer
                    .get("ready")
                    .and_then(|v| v.as_str())
                    .and_then(parse_pjrt_api);
                Ok(running)
            }
            Ok(answer) => {
                let message = answer
                    .get("fatal")
                    .and_then(|m| m.as_str())
                    .unwrap_or("unexpected answer")
                    .to_string();
                running.finish();
                Err(self.worker_error(message))
            }
            Err(NoAnswer::TimedOut) => {
                running.kill();
                Err(self.worker_error(format!(
                    "it did not load libtpu within {} s (the timeout; set {TIMEOUT_ENV} to raise it)",
                    format_seconds(self.timeout.as_secs_f64())
                )))
            }
            Err(NoAnswer::Died) => {
                let log = running.finish();
                Err(self.worker_error(format!(
                    "it exited before loading libtpu: {}",
                    crash_line(&log)
                )))
            }
        }
    }

    /// Compiles one module: StableHLO text (pretty or generic) or bytecode.
    pub fn compile(&mut self, module: &[u8]) -> Result<Verdict, CompileError> {
        let started = Instant::now();
        let mut running = match self.running.take() {
            Some(running) => running,
            None => self.start()?,
        };
        let sent = running
            .stdin
            .write_all(&(module.len() as u64).to_le_bytes())
            .and_then(|()| running.stdin.write_all(module))
            .and_then(|()| running.stdin.flush());
        let answer = match sent {
            Ok(()) => running.answer(self.timeout),
            Err(_) => Err(NoAnswer::Died),
        };
        let seconds = started.elapsed().as_secs_f64();
        let answer = match answer {
            Ok(answer) => answer,
            Err(NoAnswer::TimedOut) => {
                running.kill();
                return Ok(Verdict::TimedOut {
                    limit: self.timeout.as_secs_f64(),
                    seconds,
                });
            }
            Err(NoAnswer::Died) => {
                let log = running.finish();
                return Ok(Verdict::Crashed {
                    message: crash_line(&log),
                    seconds,
                });
            }
        };
        self.running = Some(running);
        match answer.get("error").and_then(|e| e.as_str()) {
            Some(message) => Ok(Verdict::Refused {
                message: message.to_string(),
                seconds,
            }),
            None => {
                let stat = |name: &str| {
                    answer
                        .pointer(&format!("/stats/{name}"))
                        .and_then(serde_json::Value::as_i64)
                        .unwrap_or(0)
                };
                Ok(Verdict::Compiled {
                    stats: MemoryStats {
                        generated_code_size: stat("generated_code_size"),
                        argument_size: stat("argument_size"),
                        output_size: stat("output_size"),
                        alias_size: stat("alias_size"),
                        temp_size: stat("temp_size"),
                        peak_memory: stat("peak_memory"),
                        total_size: stat("total_size"),
                    },
                    seconds,
                })
            }
        }
    }
}

impl Running {
    /// The worker's next JSON answer within `timeout`.
    fn answer(&mut self, timeout: Duration) -> Result<serde_json::Value, NoAnswer> {
        self.answers.recv_timeout(timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => NoAnswer::TimedOut,
            RecvTimeoutError::Disconnected => NoAnswer::Died,
        })
    }

    /// Kills a hanging worker. Its log is not waited for: whatever the worker
    /// started may still hold the pipe, and the reading thread ends with it.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        drop(self.stderr.take());
    }

    /// Ends the worker and returns its stderr.
    fn finish(mut self) -> Vec<u8> {
        drop(self.stdin);
        let _ = self.child.wait();
        self.stderr
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for Compiler {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            running.finish();
        }
    }
}

/// `0.116` -> `(0, 116)`.
fn parse_pjrt_api(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The release of a libtpu.so, and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentifiedRelease {
    /// The release number, e.g. `0.0.52`.
    pub version: String,
    /// Where it was read.
    pub source: ReleaseSource,
}

/// Where the release of a libtpu.so was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReleaseSource {
    /// The `RELEASE` file beside it (`scripts/libtpu/install-release.sh`).
    InstallRecord,
    /// The `libtpu-<release>.dist-info` of the wheel it came with (a pip
    /// install: `site-packages/libtpu/libtpu.so`).
    WheelMetadata,
    /// The build stamp in the library, found in the table of releases.
    BuildStamp,
}

impl ReleaseSource {
    /// How `compile` says it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ReleaseSource::InstallRecord => "install record",
            ReleaseSource::WheelMetadata => "wheel metadata",
            ReleaseSource::BuildStamp => "build stamp",
        }
    }
}

/// The release of the libtpu.so at `path`: the `RELEASE` file beside it
/// (written by `scripts/libtpu/install-release.sh`), else the wheel's
/// `libtpu-<release>.dist-info` beside its `libtpu/` folder (pip), else the
/// library's build stamp (`Built on ... (<epoch>)`) looked up in
/// [`crate::libtpu::releases::RELEASES`]. `None` when none says.
pub fn identify_release(path: &Path) -> Option<IdentifiedRelease> {
    let valid = |text: &str| {
        let text = text.trim();
        crate::libtpu::releases::LibtpuVersion::parse(text)
            .ok()
            .map(|_| text.to_string())
    };
    let dir = path.parent()?;
    if let Some(version) = std::fs::read_to_string(dir.join("RELEASE"))
        .ok()
        .and_then(|t| valid(&t))
    {
        return Some(IdentifiedRelease {
            version,
            source: ReleaseSource::InstallRecord,
        });
    }
    if dir.file_name().is_some_and(|n| n == "libtpu")
        && let Some(site) = dir.parent()
        && let Ok(entries) = std::fs::read_dir(site)
    {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(version) = name
                .strip_prefix("libtpu-")
                .and_then(|rest| rest.strip_suffix(".dist-info"))
                .and_then(valid)
            {
                return Some(IdentifiedRelease {
                    version,
                    source: ReleaseSource::WheelMetadata,
                });
            }
        }
    }
    let epoch = build_epoch(path)?;
    crate::libtpu::releases::with_build_epoch(epoch).map(|r| IdentifiedRelease {
        version: r.version.to_string(),
        source: ReleaseSource::BuildStamp,
    })
}

/// The build time stamped in a libtpu.so: `Built on Oct 22 2026 00:45:19
/// (1792655119)` -> 1792655119. Reads the file (hundreds of MB) in chunks.
pub fn build_epoch(path: &Path) -> Option<u64> {
    const MARK: &[u8] = b"Built on ";
    let mut file = std::fs::File::open(path).ok()?;
    let mut buffer = vec![0u8; 1 << 22];
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let n = file.read(&mut buffer).ok()?;
        if n == 0 {
            return None;
        }
        let mut window = std::mem::take(&mut carry);
        window.extend_from_slice(&buffer[..n]);
        let mut from = 0;
        while let Some(at) = window[from..]
            .windows(MARK.len())
            .position(|w| w == MARK)
            .map(|p| p + from)
        {
            let rest = &window[at + MARK.len()..];
            let line = &rest[..rest.len().min(48)];
            if let Some(open) = line.iter().position(|&b| b == b'(')
                && let Some(close) = line[open..].iter().position(|&b| b == b')')
                && let Some(epoch) = std::str::from_utf8(&line[open + 1..open + close])
                    .ok()
                    .and_then(|t| t.parse().ok())
            {
                return Some(epoch);
            }
            from = at + 1;
        }
        carry = window[window.len().saturating_sub(64)..].to_vec();
    }
}

/// `libtpu 0.0.52 (PJRT C API 0.117; release from its install record)`, or
/// without a release `libtpu with PJRT C API 0.116 (release unknown: 0.0.50,
/// 0.0.50.1 or 0.0.51 report it)`.
pub fn describe_libtpu(release: Option<&IdentifiedRelease>, pjrt: Option<(u32, u32)>) -> String {
    let pjrt_text = pjrt.map_or("unknown".to_string(), |(a, b)| format!("{a}.{b}"));
    match release {
        Some(r) => format!(
            "libtpu {} (PJRT C API {pjrt_text}; release from its {})",
            r.version,
            r.source.as_str()
        ),
        None => {
            let candidates = pjrt
                .map(|(a, b)| crate::libtpu::releases::with_pjrt_api(a, b))
                .unwrap_or_default();
            let which = match candidates.as_slice() {
                [] => "release unknown".to_string(),
                [one] => format!("release unknown: {} reports it", one.version),
                many => format!(
                    "release unknown: {} report it",
                    many.iter()
                        .map(|r| r.version)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            format!("libtpu with PJRT C API {pjrt_text} ({which})")
        }
    }
}

/// The fix for a version refusal of libtpu: which `--libtpu-version` (or
/// `--ir-version` / `--debug-locations` / `--bytecode-encodings`) emits what
/// the library in use compiles. `release` is the library's release when
/// known, `pjrt` its PJRT C API version (then the oldest release reporting
/// it stands in for the release). `None`: the message is no version
/// refusal.
pub fn fix_for_refusal(
    message: &str,
    release: Option<&IdentifiedRelease>,
    pjrt: Option<(u32, u32)>,
) -> Option<String> {
    use crate::libtpu::releases::{self, LibtpuVersion, SparseCore};
    let kind = RefusalKind::of(message)?;
    // The release to emit for: the library's own, else the oldest one with
    // its PJRT version (whose facts every later one also has).
    let target = release
        .and_then(|r| LibtpuVersion::parse(&r.version).ok())
        .or_else(|| {
            pjrt.and_then(|(a, b)| releases::with_pjrt_api(a, b).first().copied())
                .and_then(|r| LibtpuVersion::parse(r.version).ok())
        });
    let flag = target.as_ref().map(|v| format!("`--libtpu-version {v}`"));
    let with_flag = |alternative: String| match &flag {
        Some(flag) => format!("emit with {flag} (or {alternative})"),
        None => format!("emit with {alternative}"),
    };
    Some(match kind {
        RefusalKind::IrVersion { highest } if highest < crate::serde::LOWEST_IR_VERSION => {
            let first = releases::first_release(|r| r.reads_any_ir_version());
            format!(
                "this libtpu reads serialization versions up to {highest}, and this crate writes 11 to 18:                  compile with libtpu {} or newer",
                first.map_or("0.0.38", |r| r.version)
            )
        }
        RefusalKind::IrVersion { highest } => with_flag(format!(
            "`--ir-version {}`, the newest it reads",
            highest.min(crate::serde::HIGHEST_IR_VERSION)
        )),
        RefusalKind::DebugLocationsField => with_flag(
            "`--debug-locations inline`: this libtpu has no `debug_locations` field".to_string(),
        ),
        RefusalKind::Encodings => with_flag(
            "`--bytecode-encodings 22`: this libtpu's parser predates MLIR 24's encodings".to_string(),
        ),
        RefusalKind::ReductionKind => {
            let highest = target.as_ref().map_or(17, |v| {
                v.release()
                    .highest_ir_version
                    .min(crate::serde::HIGHEST_IR_VERSION - 1)
            });
            with_flag(format!(
                "`--ir-version {highest}`: bodies at 18 spell reduction kinds this libtpu does not read"
            ))
        }
        RefusalKind::CoreIds => {
            let first = releases::first_release(|r| r.sparse_core > SparseCore::Refused);
            format!(
                "this libtpu compiles no SparseCore kernel (`--libtpu-version` refuses them): compile with                  libtpu {} or newer",
                first.map_or("0.0.41", |r| r.version)
            )
        }
        RefusalKind::OptLevel => with_flag(
            "PARAMS.json without `opt_level`: this libtpu does not know that SparseCore opt level".to_string(),
        ),
        RefusalKind::MegachipConflict => with_flag(
            "PARAMS.json `forward_compatible: true`: this libtpu takes a one-core SparseCore call's core              in `megachip_parallelism_config`"
                .to_string(),
        ),
    })
}

/// The version refusals of libtpu this crate knows the fix of.
enum RefusalKind {
    /// `Unsupported version: expected <= N but got M`.
    IrVersion { highest: u32 },
    /// `no such field: 'debug_locations'`.
    DebugLocationsField,
    /// `unknown attribute code` (MLIR 24 encodings in an older parser).
    Encodings,
    /// `expected ::mlir::tpu::ReductionKind to be one of` (version 18 kinds).
    ReductionKind,
    /// `no such field: 'core_ids'`.
    CoreIds,
    /// `conflicting megachip_parallelism_config and sparse_core_config`.
    MegachipConflict,
    /// `no such field: 'backend_opt_level'`, `unknown enum value: 'O1'`.
    OptLevel,
}

impl RefusalKind {
    fn of(message: &str) -> Option<RefusalKind> {
        // libtpu's JSON errors pad words with extra spaces (`no  such field`).
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        let message = message.as_str();
        if let Some(rest) = message.split("Unsupported version: expected <= ").nth(1) {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            return digits
                .parse()
                .ok()
                .map(|highest| RefusalKind::IrVersion { highest });
        }
        if message.contains("no such field: 'debug_locations'") {
            Some(RefusalKind::DebugLocationsField)
        } else if message.contains("unknown attribute code") {
            Some(RefusalKind::Encodings)
        } else if message.contains("ReductionKind to be one of") {
            Some(RefusalKind::ReductionKind)
        } else if message.contains("no such field: 'core_ids'") {
            Some(RefusalKind::CoreIds)
        } else if message.contains("conflicting megachip_parallelism_config and sparse_core_config")
        {
            Some(RefusalKind::MegachipConflict)
        } else if message.contains("no such field: 'backend_opt_level'")
            || ["O0", "O1", "O2", "O3"]
                .iter()
                .any(|l| message.contains(&format!("unknown enum value: '{l}'")))
        {
            Some(RefusalKind::OptLevel)
        } else {
            None
        }
    }
}

/// The line of libtpu's log that says why it aborted.
fn crash_line(log: &[u8]) -> String {
    let text = String::from_utf8_lossy(log);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // glog FATAL lines (`F1201 ...`).
    let fatal = |l: &&&str| {
        l.len() > 5 && l.starts_with('F') && l.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
    };
    let noise = ["***", "@ ", "PC:", "https://"];
    let line = lines
        .iter()
        .find(|l| l.contains("Check failed"))
        .or_else(|| lines.iter().find(|l| l.starts_with("LLVM ERROR")))
        .or_else(|| lines.iter().find(fatal))
        .or_else(|| {
            lines
                .iter()
                .rev()
                .find(|l| !l.contains("RAW:") && !noise.iter().any(|n| l.starts_with(n)))
        })
        .or_else(|| lines.last())
        .copied()
        .unwrap_or("the worker exited without a message");
    // glog's prefix (`F1201 04:28:00.023545    4651 `) says nothing about the input.
    let line = match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        [level, _, thread, ..]
            if level.len() > 1
                && level[1..].bytes().all(|b| b.is_ascii_digit())
                && thread.bytes().all(|b| b.is_ascii_digit()) =>
        {
            line.split_once(thread)
                .map_or(line, |(_, rest)| rest.trim_start())
        }
        _ => line,
    };
    let chars: Vec<char> = line.chars().collect();
    chars[chars.len().saturating_sub(300)..].iter().collect()
}

/// The environment variable naming the worker executable when
/// [`CompileOptions::worker`] is not set.
pub const WORKER_ENV: &str = "TPU_CUSTOM_CALL_WORKER";

/// The worker executable when none is given: see the module documentation.
pub fn find_worker() -> Result<PathBuf, CompileError> {
    if let Some(path) = std::env::var_os(WORKER_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let current = std::env::current_exe().ok();
    let is_cli = |p: &Path| {
        p.file_stem()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "tpu-custom-call")
    };
    if let Some(exe) = current.as_deref().filter(|p| is_cli(p)) {
        return Ok(exe.to_path_buf());
    }
    // The program itself, served by the start-up hook: always this
    // library's own version (a `tpu-custom-call` found elsewhere may be
    // another build).
    if let Some(exe) = current.as_ref().filter(|_| self_worker::available()) {
        return Ok(exe.clone());
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(dir) = current.as_deref().and_then(Path::parent) {
        dirs.push(dir.to_path_buf());
        // Tests and examples live one level below cargo's profile folder.
        if let Some(up) = dir.parent() {
            dirs.push(up.to_path_buf());
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(home) = cargo_home {
        dirs.push(home.join("bin"));
    }
    dirs.into_iter()
        .map(|d| d.join("tpu-custom-call"))
        .find(|p| p.is_file())
        .ok_or(CompileError::NoWorker)
}

/// Set (to `1`) in the environment of every worker [`Compiler`] starts:
/// with it, and [`WORKER_SUBCOMMAND`] as the first argument, this library's
/// start-up hook (Linux) serves the worker before the program's `main` runs,
/// so any program linking the library (a test binary) can be its own worker.
pub const SELF_WORKER_ENV: &str = "TPU_CUSTOM_CALL_SELF_WORKER";

/// The start-up hook that lets any program linking this library be its own
/// worker ([`SELF_WORKER_ENV`]).
#[cfg(target_os = "linux")]
mod self_worker {
    use std::ffi::{CStr, OsStr, OsString, c_char, c_int};
    use std::os::unix::ffi::OsStrExt;

    type Init = extern "C" fn(c_int, *const *const c_char, *const *const c_char);

    /// glibc and musl call `.init_array` entries with `argc, argv, envp`
    /// before `main`.
    #[used]
    #[unsafe(link_section = ".init_array")]
    static SERVE: Init = serve;

    extern "C" fn serve(argc: c_int, argv: *const *const c_char, _envp: *const *const c_char) {
        if std::env::var_os(super::SELF_WORKER_ENV).is_none_or(|v| v != "1") || argv.is_null() {
            return;
        }
        let args: Vec<OsString> = (0..argc.max(0) as usize)
            .map(|i| {
                // SAFETY: argv holds argc valid C strings (the C runtime's contract).
                let arg = unsafe { CStr::from_ptr(*argv.add(i)) };
                OsStr::from_bytes(arg.to_bytes()).to_owned()
            })
            .collect();
        if args.get(1).is_none_or(|a| a != super::WORKER_SUBCOMMAND) {
            return;
        }
        std::process::exit(super::run_worker(&args[2..]));
    }

    /// Whether the hook is linked in (it is wherever this is: the reference
    /// keeps the hook's object in the link).
    pub(super) fn available() -> bool {
        std::hint::black_box(&SERVE);
        true
    }
}

/// Where the program cannot be its own worker.
#[cfg(not(target_os = "linux"))]
mod self_worker {
    pub(super) fn available() -> bool {
        false
    }
}

/// For a program that is its own worker: when the process was started as
/// the worker (its first argument is [`WORKER_SUBCOMMAND`]), runs it and
/// returns the exit code to exit with; `None` otherwise (carry on).
///
/// ```no_run
/// // First thing in `main`:
/// if let Some(code) = tpu_custom_call::compile::serve_worker_if_asked() {
///     std::process::exit(code);
/// }
/// // ... later: CompileOptions { worker: std::env::current_exe().ok(), .. }
/// ```
pub fn serve_worker_if_asked() -> Option<i32> {
    let args: Vec<OsString> = std::env::args_os().collect();
    (args.get(1).is_some_and(|a| a == WORKER_SUBCOMMAND)).then(|| run_worker(&args[2..]))
}

/// The worker's entry point: `args` are what follows [`WORKER_SUBCOMMAND`]
/// (topology, devices, libtpu path). Returns the exit code.
pub fn run_worker(args: &[OsString]) -> i32 {
    let [topology, devices, libtpu] = args else {
        eprintln!("{WORKER_SUBCOMMAND}: expected TOPOLOGY DEVICES LIBTPU");
        return 2;
    };
    let (Some(topology), Some(devices)) = (
        topology.to_str(),
        devices.to_str().and_then(|d| d.parse().ok()),
    ) else {
        eprintln!("{WORKER_SUBCOMMAND}: bad arguments");
        return 2;
    };
    worker::run(topology, devices, Path::new(libtpu))
}

/// The verify pass's `compile` option: compiles the module `op` for `target`
/// in a worker of the current executable; `None` when it compiled, else the
/// message for the pass to report.
pub(crate) fn check_operation(
    op: melior::ir::OperationRef<'_, '_>,
    target: Option<Chip>,
) -> Option<String> {
    let Some(chip) = target else {
        return Some("compile: needs `target`, the chip to compile for".to_string());
    };
    let text = match crate::kernel::print_operation(op, crate::PrintOptions::default()) {
        Ok(text) => text,
        Err(e) => return Some(format!("compile: {e}")),
    };
    let options = CompileOptions {
        chip,
        ..CompileOptions::default()
    };
    match compile_module(text.as_bytes(), &options) {
        Ok(verdict) => verdict
            .error()
            .map(|message| format!("libtpu ({chip}): {message}")),
        Err(e) => Some(format!("compile: {e}")),
    }
}
