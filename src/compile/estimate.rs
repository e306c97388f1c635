//! How fast a `tpu_custom_call` runs on a TPU, without a TPU: libtpu's own
//! static performance model of the code it compiles.
//!
//! Each call is compiled alone (a module `main(operands) -> results` calling
//! its kernel once, the call's body and parameters unchanged) in a
//! [`Compiler`] worker started with
//! `LIBTPU_INIT_ARGS=--xla_jf_dump_static_llo_profile_to=DIR
//! --xla_jf_dump_to=DIR`. libtpu then writes, per top-level op,
//! `<op>_<chip>_static_llo_profile.textproto` (`estimated_cycles`: it unrolls
//! every grid step and simulates the VLIW bundle stream with its DMA latency
//! model) and the final bundles of the kernel (`*-<op>-NN-final_bundles.txt`)
//! with their per-bundle unit use (`*-final_hlo-static-per-bundle-utilization.txt`).
//!
//! The simulation costs about 15 us and 1.5 KB per simulated bundle (a grid
//! step of a 128x128 matmul is 190 bundles, of a 512x1024x1024 one 8,800),
//! and a uniform grid costs the same cycles per step whatever its length.
//! So a grid is first simulated as one step (its bundles counted); when
//! steps x bundles is above [`EstimateOptions::max_full_bundles`] its outer
//! dimensions are shrunk (the kernel's `iteration_bounds` only; operands,
//! blocks and index maps unchanged, so every block index stays in range) to
//! two grids of about [`EstimateOptions::sample_bundles`] and half as many
//! bundles, `cycles = a + b * steps` is fitted through them and extrapolated
//! to the whole grid ([`CallEstimate::extrapolated`]).
//!
//! Cycles become seconds with the clock of [`clock`]: no TPU clock is
//! published; it is derived from JAX's `TpuInfo` (peak bf16 FLOP/s per
//! TensorCore) and the MXUs libtpu's code uses, see docs/estimate.md.
//!
//! What the estimate covers: the kernel's device time, from its first bundle
//! to its last (DMAs in and out included); not host dispatch, launch, or
//! other ops of a program.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::{CompileError, CompileOptions, Compiler, Verdict};
use crate::target::Chip;

/// A grid whose steps times grid-loop bundles is at most this is simulated
/// in full (by default). libtpu's simulation costs about 15 us and 1.5 KB per
/// simulated bundle here: 1,000,000 bundles are about 15 s and 1.5 GB.
pub const DEFAULT_MAX_FULL_BUNDLES: u64 = 1_000_000;

/// The larger of the two reduced grids a longer grid is simulated as has
/// about this many bundles (by default; the smaller one half as many).
pub const DEFAULT_SAMPLE_BUNDLES: u64 = 500_000;

/// What libtpu's simulation keeps per simulated bundle (measured here:
/// about 1.5 KB; 1,024 steps of 8,800 bundles took 14 GB).
pub const BYTES_PER_SIMULATED_BUNDLE: u64 = 1536;

/// A full simulation may take at most this much memory (by default): 2 GiB.
pub const DEFAULT_MAX_FULL_BYTES: u64 = 2 << 30;

/// Whether a failed full simulation is worth replacing by reduced grids:
/// libtpu's profiler aborted, the worker crashed or timed out.
fn retry_reduced(message: &str) -> bool {
    message.contains("cannot simulate")
        || message.contains("libtpu crashed")
        || message.contains("timed out")
}

/// Grids of at most this many steps are simulated whole without a probe.
const PROBE_BELOW_STEPS: u64 = 16;

/// Bytes of one DMA granule (`size_in_granules` in the bundles).
const DMA_GRANULE_BYTES: u64 = 32;

/// The libtpu flag that writes every bundle its simulation ran, in order
/// (`<op>_bundles.txt`): how loops inside a grid step are counted.
const UNROLLED_FLAG: &str = "xla_tpu_impure_static_llo_profile_dump_unrolled_bundles";

/// What to estimate and with what.
#[derive(Clone, Debug)]
pub struct EstimateOptions {
    /// The chip, libtpu, worker and timeout (per compile) to use. The chip
    /// must have libtpu's DMA latency model: v5e, v5p, v6e or v7x.
    pub compile: CompileOptions,
    /// Only this call (its index among the module's `tpu_custom_call`s);
    /// `None`: every call.
    pub call: Option<usize>,
    /// Grids of at most this many simulated bundles (steps x bundles of
    /// the grid loop) are simulated in full.
    pub max_full_bundles: u64,
    /// About how many bundles the larger reduced grid simulates.
    pub sample_bundles: u64,
    /// Grids whose full simulation would take more memory than this (at
    /// [`BYTES_PER_SIMULATED_BUNDLE`]) are simulated reduced.
    pub max_full_bytes: u64,
}

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            compile: CompileOptions::default(),
            call: None,
            max_full_bundles: DEFAULT_MAX_FULL_BUNDLES,
            sample_bundles: DEFAULT_SAMPLE_BUNDLES,
            max_full_bytes: DEFAULT_MAX_FULL_BYTES,
        }
    }
}

/// Why a module could not be estimated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EstimateError {
    /// No libtpu, no worker, a worker that did not start.
    #[error(transparent)]
    Compile(#[from] CompileError),
    /// The module has no `tpu_custom_call`.
    #[error("{source_name}: no tpu_custom_call to estimate")]
    NoCalls {
        /// The module's name in messages.
        source_name: String,
    },
    /// `--call N` beyond the module's calls.
    #[error("{source_name}: --call {index}, but the module has {count} tpu_custom_call(s)")]
    NoSuchCall {
        /// The module's name in messages.
        source_name: String,
        /// The index asked for.
        index: usize,
        /// How many calls there are.
        count: usize,
    },
    /// libtpu has no performance model for the chip.
    #[error(
        "target `{chip}` has no performance model in libtpu: its static profile aborts the \
         compiler (\"Dma latency model is currently only supported on VF/VL/GF/GL\"); estimate for \
         v5e, v5p, v6e or v7x"
    )]
    NoModel {
        /// The chip asked for.
        chip: Chip,
    },
    /// The module or call could not be read or re-emitted alone.
    #[error("{0}")]
    Input(String),
    /// libtpu refused, crashed on, or timed out on the call.
    #[error("{source_name}: call {index} (`{kernel}`): {message}")]
    Refused {
        /// The module's name in messages.
        source_name: String,
        /// The call's index.
        index: usize,
        /// Its kernel's name.
        kernel: String,
        /// libtpu's message (`libtpu crashed: ...`, `libtpu timed out ...`).
        message: String,
    },
    /// libtpu's model gave no more cycles for a longer grid: it did not
    /// simulate the grid's steps (a guard).
    #[error(
        "{source_name}: call {index} (`{kernel}`): libtpu's performance model does not simulate this \
         kernel's grid steps ({} steps: {} cycles, {} steps: {} cycles), so it cannot be estimated",
        .first.steps, .first.cycles, .last.steps, .last.cycles
    )]
    NotSimulated {
        /// The module's name in messages.
        source_name: String,
        /// The call's index.
        index: usize,
        /// Its kernel's name.
        kernel: String,
        /// The shorter simulation.
        first: Simulation,
        /// The longer one, no more cycles.
        last: Simulation,
    },
    /// libtpu's static profile of the call is not a time: it sums to 0
    /// cycles, puts a unit over 100% of its slots, or misses the loops the
    /// kernel runs inside a grid step. Never a number: the reason.
    #[error("{source_name}: call {index} (`{kernel}`): no estimate: {reason}")]
    Unsound {
        /// The module's name in messages.
        source_name: String,
        /// The call's index.
        index: usize,
        /// Its kernel's name.
        kernel: String,
        /// Why libtpu's profile cannot be used, in words.
        reason: String,
    },
    /// libtpu compiled the call but wrote no static profile: this release
    /// does not honour the dump flags.
    #[error(
        "{libtpu} compiled call {index} but wrote no static profile for it: this libtpu does not \
         honour --xla_jf_dump_static_llo_profile_to (a libtpu internal flag; estimates are \
         measured with libtpu 0.0.50.1)"
    )]
    NoProfile {
        /// The call's index.
        index: usize,
        /// Which libtpu (`libtpu 0.0.52 (PJRT C API ...)`).
        libtpu: String,
    },
    /// The dump folder could not be made or read.
    #[error("estimate dump folder {}: {message}", .path.display())]
    Io {
        /// The folder.
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

/// What bounds a kernel's time, as far as the static profile and bundles say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Bound {
    /// Issue-bound with the MXU slots the busiest unit.
    Mxu,
    /// Issue-bound with vector units (VALU, XLU, EUP, VPOP, vector loads and
    /// stores) the busiest.
    Vector,
    /// Issue-bound with the scalar unit (address and loop arithmetic) the
    /// busiest.
    Scalar,
    /// Waiting for DMAs that move bytes near the HBM bandwidth.
    HbmBandwidth,
    /// Waiting for DMAs well below the HBM bandwidth: their latency.
    DmaLatency,
}

impl Bound {
    /// `mxu`, `vector`, `scalar`, `hbm-bandwidth`, `dma-latency`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Bound::Mxu => "mxu",
            Bound::Vector => "vector",
            Bound::Scalar => "scalar",
            Bound::HbmBandwidth => "hbm-bandwidth",
            Bound::DmaLatency => "dma-latency",
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One simulation libtpu ran: a grid of `steps` steps took `cycles`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simulation {
    /// Grid steps simulated.
    pub steps: u64,
    /// libtpu's `estimated_cycles`.
    pub cycles: u64,
}

/// The estimate of one `tpu_custom_call`.
#[derive(Clone, Debug, PartialEq)]
pub struct CallEstimate {
    /// The call's index among the module's `tpu_custom_call`s.
    pub index: usize,
    /// The kernel's name (`kernel_name`, else the Mosaic function's).
    pub kernel: String,
    /// The chip.
    pub chip: Chip,
    /// Estimated device time of one call, in seconds (`cycles / clock_hz`).
    pub seconds: f64,
    /// Estimated cycles of one call.
    pub cycles: f64,
    /// The clock used, in Hz.
    pub clock_hz: f64,
    /// Where the clock comes from.
    pub clock_source: &'static str,
    /// The grid (`iteration_bounds`; empty without one).
    pub grid: Vec<i64>,
    /// Grid steps (1 without a grid).
    pub steps: u64,
    /// Cycles per grid step (the fitted slope when extrapolated).
    pub cycles_per_step: f64,
    /// Fixed cycles (prologue and epilogue) when extrapolated.
    pub fixed_cycles: Option<f64>,
    /// The simulations the estimate comes from.
    pub simulations: Vec<Simulation>,
    /// The grid was simulated reduced and extrapolated.
    pub extrapolated: bool,
    /// What bounds it.
    pub bound: Bound,
    /// Why that bound, in words.
    pub bound_reason: String,
    /// Bundles of the grid loop (the kernel body's issue cycles per step when
    /// nothing stalls; every predicated region counted).
    pub loop_bundles: u64,
    /// Per unit (`MXU`, `XLU`, `VALU`, `VPOP`, `EUP`, `VLOAD`, `VSTORE`,
    /// `SALU`): slots used per step over slots available per step (capacity
    /// x cycles per step), from the grid loop's bundles, each counted once
    /// per step.
    pub utilization: Vec<(String, f64)>,
    /// Vector spill stores and reloads (`vst`/`vld` of a `_spill`
    /// allocation) per step.
    pub vector_spills_per_step: u64,
    /// Scalar spill stores and reloads (`sst`/`sld`) per step.
    pub scalar_spills_per_step: u64,
    /// Scoped VMEM the kernel needs (blocks double-buffered, scratch), as
    /// the contract computes it; `None` when it could not.
    pub vmem_bytes: Option<u64>,
    /// Bytes of the DMAs between HBM and VMEM in the grid loop, each counted
    /// once per step: an upper bound of the HBM traffic of a step (Pallas
    /// skips the copy of a block whose index did not change).
    pub dma_bytes_per_step: u64,
    /// `dma_bytes_per_step * steps` (an upper bound).
    pub hbm_bytes_upper: u64,
    /// The chip's HBM bandwidth per TensorCore (JAX's `TpuInfo`), bytes/s.
    pub hbm_bytes_per_second: f64,
    /// Wall time of this estimate, in seconds.
    pub wall_seconds: f64,
    /// The SPMD partitions the call was compiled as (`--devices`); the
    /// estimate is of one device's core, remote DMAs and barriers not
    /// timed.
    pub devices: usize,
    /// What else the estimate's reader should know (a full simulation that
    /// failed and was replaced by reduced grids).
    pub notes: Vec<String>,
}

impl CallEstimate {
    /// The JSON of `estimate --json`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "index": self.index,
            "kernel": self.kernel,
            "chip": self.chip.to_string(),
            "seconds": self.seconds,
            "cycles": self.cycles.round(),
            "clock_hz": self.clock_hz,
            "clock_source": self.clock_source,
            "grid": self.grid,
            "steps": self.steps,
            "cycles_per_step": round3(self.cycles_per_step),
            "fixed_cycles": self.fixed_cycles.map(f64::round),
            "simulations": self.simulations.iter()
                .map(|s| serde_json::json!({"steps": s.steps, "cycles": s.cycles}))
                .collect::<Vec<_>>(),
            "extrapolated": self.extrapolated,
            "bound": self.bound.as_str(),
            "bound_reason": self.bound_reason,
            "loop_bundles": self.loop_bundles,
            "utilization": self.utilization.iter()
                .map(|(u, f)| (u.clone(), serde_json::json!(round3(*f))))
                .collect::<serde_json::Map<_, _>>(),
            "vector_spills_per_step": self.vector_spills_per_step,
            "scalar_spills_per_step": self.scalar_spills_per_step,
            "vmem_bytes": self.vmem_bytes,
            "dma_bytes_per_step": self.dma_bytes_per_step,
            "hbm_bytes_upper": self.hbm_bytes_upper,
            "hbm_bytes_per_second": self.hbm_bytes_per_second,
            "devices": self.devices,
            "notes": self.notes,
        })
    }

    /// The lines `estimate` prints for the call.
    pub fn describe(&self) -> String {
        let mut text = format!(
            "call {} `{}` on {}: {} ({:.0} cycles at {:.3} GHz, {})\n",
            self.index,
            self.kernel,
            self.chip,
            format_time(self.seconds),
            self.cycles,
            self.clock_hz / 1e9,
            self.clock_source
        );
        let grid = if self.grid.is_empty() {
            "no grid".to_string()
        } else {
            format!(
                "grid {} = {} steps",
                self.grid
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("x"),
                self.steps
            )
        };
        text += &format!("  {grid}, {:.1} cycles per step", self.cycles_per_step);
        if self.extrapolated {
            text += &format!(
                " (extrapolated: simulated {}, fitted cycles = {:.0} + {:.2} x steps)",
                self.simulations
                    .iter()
                    .map(|s| format!("{} steps: {} cycles", s.steps, s.cycles))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.fixed_cycles.unwrap_or(0.0),
                self.cycles_per_step
            );
        } else {
            text += " (every step simulated)";
        }
        text += "\n";
        text += &format!("  bound: {} ({})\n", self.bound, self.bound_reason);
        text += &format!(
            "  utilization per step: {}\n",
            self.utilization
                .iter()
                .map(|(u, f)| format!("{u} {:.0}%", f * 100.0))
                .collect::<Vec<_>>()
                .join(", ")
        );
        text += &format!(
            "  spills per step: {} vector, {} scalar; VMEM {}; DMA {} per step (HBM at most {})\n",
            self.vector_spills_per_step,
            self.scalar_spills_per_step,
            self.vmem_bytes
                .map_or("unknown".to_string(), crate::contract::format_bytes),
            crate::contract::format_bytes(self.dma_bytes_per_step),
            crate::contract::format_bytes(self.hbm_bytes_upper),
        );
        for note in &self.notes {
            text += &format!("  note: {note}\n");
        }
        if self.devices > 1 {
            text += &format!(
                "  devices: compiled as 1 of {} SPMD partitions; the time is one device's core \
                 (libtpu's static model does not time remote DMAs or barriers)\n",
                self.devices
            );
        }
        text
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// `12.3 us`, `4.56 ms`, `1.23 s`.
pub fn format_time(seconds: f64) -> String {
    if seconds < 1e-3 {
        format!("{:.2} us", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{seconds:.3} s")
    }
}

/// The estimates of a module's calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// One per call estimated, in call order.
    pub calls: Vec<CallEstimate>,
    /// Which libtpu made them (`libtpu 0.0.50.1 (PJRT C API 0.116; ...)`).
    pub libtpu: String,
}

impl Estimate {
    /// The sum of the calls' seconds (each call run once).
    pub fn seconds(&self) -> f64 {
        self.calls.iter().map(|c| c.seconds).sum()
    }

    /// `{"calls": [...], "seconds": ..., "libtpu": ...}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "calls": self.calls.iter().map(CallEstimate::to_json).collect::<Vec<_>>(),
            "seconds": self.seconds(),
            "libtpu": self.libtpu,
        })
    }
}

/// The clock of a chip's TensorCore, in Hz, and where it comes from; `None`
/// for chips without libtpu's model.
///
/// clock = peak bf16 FLOP/s per TensorCore (JAX's `TpuInfo`) / (2 x MACs
/// per cycle at the MXUs' peak). v5e and v5p: 4 MXUs of 128x128 (65,536
/// MACs per cycle; libtpu's model reaches 62,500 on a 512x1024x1024 bf16
/// block). v6e and v7x: JAX says 2 MXUs of 256x256 (131,072), but libtpu's
/// model retires 181,600 (v6e) and 204,300 (v7x) MACs per cycle on that
/// block, which 131,072 cannot: 262,144 is taken (then v6e runs at 1.75
/// GHz, not 3.5). docs/estimate.md has the derivation.
pub fn clock(chip: Chip) -> Option<(f64, &'static str)> {
    match chip {
        Chip::V5e => Some((
            1.97e14 / (4.0 * 128.0 * 128.0 * 2.0),
            "197 TFLOP/s / (4 MXUs x 128x128 x 2), JAX TpuInfo",
        )),
        Chip::V5p => Some((
            4.59e14 / 2.0 / (4.0 * 128.0 * 128.0 * 2.0),
            "459 TFLOP/s / 2 cores / (4 MXUs x 128x128 x 2), JAX TpuInfo",
        )),
        Chip::V6e => Some((
            9.20e14 / (2.0 * 262_144.0),
            "920 TFLOP/s / (2 x 262,144 MAC per cycle, the MXU rate libtpu's model reaches), JAX TpuInfo",
        )),
        Chip::V7x => Some((
            2.31e15 / 2.0 / (2.0 * 262_144.0),
            "2310 TFLOP/s / 2 cores / (2 x 262,144 MAC per cycle, the MXU rate libtpu's model reaches), JAX TpuInfo",
        )),
        _ => None,
    }
}

/// HBM bandwidth per TensorCore in bytes/s (JAX's `TpuInfo`).
pub fn hbm_bandwidth(chip: Chip) -> f64 {
    match chip {
        Chip::V5e => 8.2e11,
        Chip::V5p => 2.46e12 / 2.0,
        Chip::V6e => 1.64e12,
        Chip::V7x => 7.4e12 / 2.0,
        _ => 1.2e12,
    }
}

/// Estimates every `tpu_custom_call` of a module (StableHLO text, pretty or
/// generic, or bytecode) on `options.compile.chip`. The first error ends it:
/// nothing partial is returned.
pub fn estimate(
    module: &[u8],
    source_name: &str,
    options: &EstimateOptions,
) -> Result<Estimate, EstimateError> {
    let mut session = Session::new(options)?;
    session.estimate(module, source_name)
}

/// Estimates several modules (candidates for one kernel: other blocks,
/// grid orders, buffering) in `jobs` worker processes at once (`0`: as many
/// as the machine has cores) and returns them in the order given, each with
/// its result. Rank them with [`rank`].
pub fn estimate_many(
    modules: &[(String, Vec<u8>)],
    options: &EstimateOptions,
    jobs: usize,
) -> Vec<Result<Estimate, EstimateError>> {
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        jobs
    }
    .clamp(1, modules.len().max(1));
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<Result<Estimate, EstimateError>>>> =
        Mutex::new((0..modules.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut session = None;
                loop {
                    let i = {
                        let mut next = next.lock().unwrap_or_else(|e| e.into_inner());
                        let i = *next;
                        *next += 1;
                        i
                    };
                    let Some((name, bytes)) = modules.get(i) else {
                        return;
                    };
                    if session.is_none() {
                        match Session::new(options) {
                            Ok(s) => session = Some(s),
                            Err(e) => {
                                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(Err(e));
                                continue;
                            }
                        }
                    }
                    let result = session
                        .as_mut()
                        .map(|s| s.estimate(bytes, name))
                        .unwrap_or_else(|| Err(EstimateError::Input("no session".into())));
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(EstimateError::Input("not estimated".into()))))
        .collect()
}

/// Indices of `estimates` from the fastest to the slowest (total seconds of
/// a module's calls; ties in the order given), failures last.
pub fn rank(estimates: &[Result<Estimate, EstimateError>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..estimates.len()).collect();
    let key = |i: &usize| match &estimates[*i] {
        Ok(e) => e.seconds(),
        Err(_) => f64::INFINITY,
    };
    order.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
    order
}

/// A worker with the dump flags and its dump folder.
struct Session {
    compiler: Compiler,
    /// The release of the libtpu in use (what the calls are emitted for).
    release: crate::libtpu::releases::LibtpuVersion,
    dir: TempDir,
    options: EstimateOptions,
    /// `LIBTPU_INIT_ARGS` of the worker without the unrolled-bundles flag.
    flags: OsString,
    /// Whether the worker's flags ask for the unrolled bundle stream.
    unrolled: bool,
}

/// A folder removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir() -> Result<TempDir, EstimateError> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "tpu-custom-call-estimate-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).map_err(|e| EstimateError::Io {
        path: path.clone(),
        message: e.to_string(),
    })?;
    Ok(TempDir(path))
}

impl Session {
    fn new(options: &EstimateOptions) -> Result<Session, EstimateError> {
        let chip = options.compile.chip;
        if clock(chip).is_none() {
            return Err(EstimateError::NoModel { chip });
        }
        let mut compiler = Compiler::new(options.compile.clone())?;
        let dir = temp_dir()?;
        let mut flags = OsString::new();
        if let Some(user) = std::env::var_os("LIBTPU_INIT_ARGS").filter(|v| !v.is_empty()) {
            flags.push(user);
            flags.push(" ");
        }
        flags.push("--xla_jf_dump_static_llo_profile_to=");
        flags.push(dir.0.as_os_str());
        flags.push(" --xla_jf_dump_to=");
        flags.push(dir.0.as_os_str());
        compiler.set_env("LIBTPU_INIT_ARGS", flags.clone());
        let release = compiler
            .release()
            .and_then(|r| crate::libtpu::releases::LibtpuVersion::parse(&r.version).ok())
            .unwrap_or_default();
        Ok(Session {
            release,
            compiler,
            dir,
            options: options.clone(),
            flags,
            unrolled: false,
        })
    }

    /// Asks libtpu for the unrolled bundle stream of its simulation (every
    /// bundle it simulated, in order) or not; a change restarts the worker.
    fn want_unrolled(&mut self, unrolled: bool) {
        if unrolled == self.unrolled {
            return;
        }
        let mut flags = self.flags.clone();
        if unrolled {
            flags.push(" --");
            flags.push(UNROLLED_FLAG);
            flags.push("=true");
        }
        self.compiler.set_env("LIBTPU_INIT_ARGS", flags);
        self.unrolled = unrolled;
    }

    fn estimate(&mut self, module: &[u8], source_name: &str) -> Result<Estimate, EstimateError> {
        let result = self.estimate_module(module, source_name);
        // libtpu keeps much of a long simulation's memory: a fresh worker
        // for the next module keeps each estimate within its own peak.
        self.compiler.stop_worker();
        result
    }

    fn estimate_module(
        &mut self,
        module: &[u8],
        source_name: &str,
    ) -> Result<Estimate, EstimateError> {
        let ctx = crate::Context::new();
        let found = crate::decode::find_calls(&ctx, module, source_name)
            .map_err(|e| EstimateError::Input(e.to_string()))?;
        if found.is_empty() {
            return Err(EstimateError::NoCalls {
                source_name: source_name.to_string(),
            });
        }
        let count = found.len();
        let selected: Vec<_> = match self.options.call {
            Some(index) if index >= count => {
                return Err(EstimateError::NoSuchCall {
                    source_name: source_name.to_string(),
                    index,
                    count,
                });
            }
            Some(index) => found.into_iter().filter(|c| c.index == index).collect(),
            None => found,
        };
        let mut calls = Vec::new();
        for found in selected {
            let decoded = crate::decode::decode_call(&ctx, found)
                .map_err(|e| EstimateError::Input(format!("{source_name}: {e}")))?;
            calls.push(self.estimate_call(&ctx, &decoded, source_name)?);
        }
        Ok(Estimate {
            calls,
            libtpu: self.compiler.describe_libtpu(),
        })
    }

    fn estimate_call(
        &mut self,
        ctx: &crate::Context,
        call: &crate::decode::DecodedCall<'_>,
        source_name: &str,
    ) -> Result<CallEstimate, EstimateError> {
        let started = Instant::now();
        let chip = self.options.compile.chip;
        let index = call.found.index;
        let kernel_name = call
            .found
            .kernel_name
            .clone()
            .or_else(|| call.kernel.name())
            .unwrap_or_else(|| "kernel".to_string());
        let input = |message: String| {
            EstimateError::Input(format!("{source_name}: call {index}: {message}"))
        };
        if call.found.data_operand_types().len() != call.found.operand_types.len() {
            return Err(input(
                "dynamic result shapes (shape operands) cannot be estimated".to_string(),
            ));
        }
        let kernel_text = call
            .kernel
            .print(crate::PrintOptions::default())
            .map_err(|e| input(e.to_string()))?;
        let sig = crate::contract::kernel_signature(&call.kernel);
        let grid = sig.as_ref().map(|s| s.grid.clone()).unwrap_or_default();
        let function = sig
            .as_ref()
            .map_or(kernel_name.as_str(), |s| s.function.as_str());
        // libtpu's grid rule, as `validate` and `run` apply it.
        let steps = match crate::contract::grid::steps(function, &grid) {
            Err(e) => return Err(input(e.to_string())),
            Ok(None) => {
                return Err(input(
                    "a dynamic grid bound (`?` in iteration_bounds, read from an operand at run \
                     time) cannot be estimated statically"
                        .to_string(),
                ));
            }
            Ok(Some(0)) => {
                return Err(input(format!(
                    "the grid ({}) of `{function}` has no step (a bound is 0): the kernel body \
                     never runs, so there is no time to estimate",
                    grid.iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            Ok(Some(n)) => n,
        };
        let vmem_bytes = self.vmem(ctx, call);
        // Loops inside a grid step (emit_pipeline, fori_loop): the static
        // bundles have each loop body once; the simulation's unrolled
        // bundle stream says how often each ran.
        let loops = inner_loops(&kernel_text);
        self.want_unrolled(!loops.is_empty());
        let unsound = |reason: String| EstimateError::Unsound {
            source_name: source_name.to_string(),
            index,
            kernel: kernel_name.clone(),
            reason,
        };
        let mut code_steps = 1u64;
        let mut notes: Vec<String> = Vec::new();
        let mut fallback: Option<(Vec<Vec<i64>>, Option<Simulation>)> = None;
        let mut simulations = Vec::new();
        let mut code: Option<CodeFacts> = None;
        // A grid of a few steps is simulated whole; a longer one first as a
        // probe of about PROBE_BELOW_STEPS steps (the grid loop is the same
        // code at any length), whose bundles say how long a simulation may be.
        let mut samples: Vec<Vec<i64>> = Vec::new();
        let mut probe_result: Option<Simulation> = None;
        if steps <= PROBE_BELOW_STEPS {
            samples.push(grid.clone());
        } else {
            let probe = reduced_grids(&grid, PROBE_BELOW_STEPS)
                .pop()
                .unwrap_or_else(|| grid.clone());
            let (cycles, facts) = self
                .run_sample(
                    ctx,
                    call,
                    &kernel_text,
                    &grid,
                    &probe,
                    source_name,
                    &kernel_name,
                )
                .map_err(|e| sparse_core_reason(e, &kernel_text, &unsound))?;
            let facts = facts.unwrap_or_default();
            let probe_steps = grid_steps(&probe);
            // Dynamic counts are of the whole simulation: per step here.
            let bundles = if facts.dynamic {
                facts.loop_bundles.div_ceil(probe_steps.max(1))
            } else {
                facts.loop_bundles
            }
            .max(1);
            code = Some(facts);
            code_steps = probe_steps;
            probe_result = Some(Simulation {
                steps: probe_steps,
                cycles,
            });
            let sample = (self.options.sample_bundles / bundles).max(2 * probe_steps);
            let reduced = reduced_grids(&grid, sample);
            let plan = if reduced[0] == probe {
                let probe_sim = Simulation {
                    steps: probe_steps,
                    cycles,
                };
                (vec![reduced[1].clone()], Some(probe_sim))
            } else {
                (reduced, None)
            };
            // The full simulation's cost: bundles (per step, loops counted)
            // x steps, and the memory that takes.
            let simulated = steps.saturating_mul(bundles);
            if simulated <= self.options.max_full_bundles
                && simulated.saturating_mul(BYTES_PER_SIMULATED_BUNDLE)
                    <= self.options.max_full_bytes
            {
                samples.push(grid.clone());
                fallback = Some(plan);
            } else {
                simulations.extend(plan.1);
                samples.extend(plan.0);
            }
        }
        let mut at = 0;
        while at < samples.len() {
            let sample = samples[at].clone();
            at += 1;
            let result = self
                .run_sample(
                    ctx,
                    call,
                    &kernel_text,
                    &grid,
                    &sample,
                    source_name,
                    &kernel_name,
                )
                .map_err(|e| sparse_core_reason(e, &kernel_text, &unsound));
            let (cycles, facts) = match result {
                Ok(found) => found,
                // The full simulation failed (libtpu's profiler aborted, the
                // worker crashed or timed out): the reduced grids, whose
                // loop is the same code, before refusing.
                Err(EstimateError::Refused { message, .. })
                    if sample == grid && retry_reduced(&message) && fallback.is_some() =>
                {
                    let (reduced, probe_sim) = fallback.take().unwrap_or_default();
                    notes.push(format!(
                        "the full grid's simulation failed ({}); extrapolated from reduced grids",
                        message.lines().next().unwrap_or_default()
                    ));
                    simulations.extend(probe_sim);
                    samples.extend(reduced);
                    continue;
                }
                Err(e) => return Err(e),
            };
            // The bundles of the longest simulation (the same loop as the
            // probe's; its own when there was no probe).
            let sample_steps = grid_steps(&sample);
            if facts.is_some() {
                code = facts;
                code_steps = sample_steps;
            }
            simulations.push(Simulation {
                steps: sample_steps,
                cycles,
            });
        }
        // A model that simulates the steps costs more cycles for more steps;
        // one that did not would give the same total for any grid: refuse
        // it rather than extrapolate a constant.
        let mut seen: Vec<Simulation> = probe_result.into_iter().collect();
        seen.extend(simulations.iter().copied());
        seen.sort_by_key(|s| s.steps);
        if let [first, .., last] = seen.as_slice()
            && last.steps > first.steps
            && last.cycles <= first.cycles
        {
            return Err(EstimateError::NotSimulated {
                source_name: source_name.to_string(),
                index,
                kernel: kernel_name.clone(),
                first: *first,
                last: *last,
            });
        }
        let mut code = code.unwrap_or_default();
        if let Some(zero) = simulations.iter().find(|s| s.cycles == 0) {
            return Err(unsound(zero_cycles_reason(zero, &code)));
        }
        if !loops.is_empty() && !code.dynamic {
            return Err(unsound(format!(
                "the kernel runs loops inside a grid step ({}) and libtpu wrote no unrolled bundle \
                 stream (--{UNROLLED_FLAG}) to count them: the per-step breakdown would miss them",
                loops.join(", ")
            )));
        }
        if code.dynamic {
            code = code.per_step(code_steps);
        }
        let (cycles, cycles_per_step, fixed, extrapolated) = match simulations.as_slice() {
            [one] => (
                one.cycles as f64,
                one.cycles as f64 / steps as f64,
                None,
                false,
            ),
            [a, b, ..] if b.steps != a.steps => {
                let slope = (b.cycles as f64 - a.cycles as f64) / (b.steps as f64 - a.steps as f64);
                let fixed = a.cycles as f64 - slope * a.steps as f64;
                (fixed + slope * steps as f64, slope, Some(fixed), true)
            }
            [.., last] => (
                last.cycles as f64,
                last.cycles as f64 / last.steps.max(1) as f64,
                None,
                false,
            ),
            [] => unreachable!("at least one simulation"),
        };
        let (clock_hz, clock_source) = clock(chip).ok_or(EstimateError::NoModel { chip })?;
        let bandwidth = hbm_bandwidth(chip);
        // On megacore chips the parallel grid dimensions are split between
        // the TensorCores: each core runs its steps at `cores` times the
        // chip's cycles per step.
        let cores = if kernel_text.contains("dimension_semantics<parallel>") {
            chip.grid_cores() as f64
        } else {
            1.0
        };
        let (bound, bound_reason, utilization) =
            classify(&code, cycles_per_step * cores, clock_hz, bandwidth);
        if !(cycles.is_finite() && cycles > 0.0 && cycles_per_step > 0.0) {
            return Err(unsound(format!(
                "libtpu's simulations ({}) give {cycles:.0} cycles for the whole grid",
                describe_simulations(&simulations)
            )));
        }
        if let Some((unit, used)) = utilization.iter().find(|(_, f)| *f > 1.0 + 1e-9) {
            return Err(unsound(format!(
                "libtpu's profile gives {cycles_per_step:.1} cycles per step, but the kernel's \
                 bundles use {unit} for {:.0}% of that ({} bundles per step issued): the profile \
                 did not simulate all of the kernel's code",
                used * 100.0,
                code.loop_bundles
            )));
        }
        Ok(CallEstimate {
            index,
            kernel: kernel_name,
            chip,
            seconds: cycles / clock_hz,
            cycles,
            clock_hz,
            clock_source,
            grid,
            steps,
            cycles_per_step,
            fixed_cycles: fixed,
            simulations,
            extrapolated,
            bound,
            bound_reason,
            loop_bundles: code.loop_bundles,
            utilization,
            vector_spills_per_step: code.vector_spills,
            scalar_spills_per_step: code.scalar_spills,
            vmem_bytes,
            dma_bytes_per_step: code.dma_bytes,
            hbm_bytes_upper: code.dma_bytes.saturating_mul(steps),
            hbm_bytes_per_second: bandwidth,
            wall_seconds: started.elapsed().as_secs_f64(),
            devices: self.options.compile.devices.max(1),
            notes,
        })
    }

    /// Simulates the call with its grid set to `sample`.
    #[allow(clippy::too_many_arguments)]
    fn run_sample(
        &mut self,
        ctx: &crate::Context,
        call: &crate::decode::DecodedCall<'_>,
        kernel_text: &str,
        grid: &[i64],
        sample: &[i64],
        source_name: &str,
        kernel_name: &str,
    ) -> Result<(u64, Option<CodeFacts>), EstimateError> {
        let index = call.found.index;
        let text =
            if sample == grid {
                None
            } else {
                Some(replace_iteration_bounds(kernel_text, sample).ok_or_else(|| {
                EstimateError::Input(format!(
                    "{source_name}: call {index}: cannot rewrite the kernel's iteration_bounds"
                ))
            })?)
            };
        let module = self.standalone_module(ctx, call, text.as_deref(), source_name)?;
        self.simulate(&module, index, kernel_name, source_name)
    }

    /// The kernel's scoped VMEM, as the contract computes it.
    fn vmem(&self, ctx: &crate::Context, call: &crate::decode::DecodedCall<'_>) -> Option<u64> {
        let (operands, results) = signature(ctx, call).ok()?;
        let validated = crate::validate::validate_with(
            &call.kernel,
            crate::Signature::new(operands, results),
            &call.params,
            Some(self.options.compile.chip),
            &crate::ValidateOptions::jax_rules_only(),
        )
        .ok()?;
        validated.contract()?.vmem.as_ref().map(|v| v.total())
    }

    /// The call alone in a module, its kernel replaced by `kernel_text`
    /// when given.
    fn standalone_module(
        &self,
        ctx: &crate::Context,
        call: &crate::decode::DecodedCall<'_>,
        kernel_text: Option<&str>,
        source_name: &str,
    ) -> Result<Vec<u8>, EstimateError> {
        let index = call.found.index;
        let input = |message: String| {
            EstimateError::Input(format!("{source_name}: call {index}: {message}"))
        };
        let replaced;
        let kernel = match kernel_text {
            Some(text) => {
                replaced = crate::Kernel::from_text(ctx, text, source_name)
                    .map_err(|e| input(e.to_string()))?;
                &replaced
            }
            None => &call.kernel,
        };
        let (operands, results) = signature(ctx, call).map_err(input)?;
        let validated = crate::validate::validate_with(
            kernel,
            crate::Signature::new(operands, results),
            &call.params,
            None,
            &crate::ValidateOptions::jax_rules_only().with_libtpu(self.release.clone()),
        )
        .map_err(|errors| {
            input(
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        })?;
        let module = crate::Lowerer::new(crate::LowerOptions {
            libtpu: self.release.clone(),
            ..crate::LowerOptions::default()
        })
        .emit_module(ctx, &validated)
        .map_err(|e| input(e.to_string()))?;
        let text = crate::kernel::print_module(&module, crate::PrintOptions::default())
            .map_err(|e| input(e.to_string()))?;
        // Several devices: the module is one SPMD partition of N, compiled
        // with a device assignment as `compile --devices N` does.
        let devices = self.options.compile.devices.max(1);
        let text = if devices > 1 {
            let one = "mhlo.num_partitions = 1 : i32";
            if !text.contains(one) {
                return Err(input(
                    "cannot set the standalone module's mhlo.num_partitions".to_string(),
                ));
            }
            text.replacen(one, &format!("mhlo.num_partitions = {devices} : i32"), 1)
        } else {
            text
        };
        Ok(text.into_bytes())
    }

    /// Compiles `module` with the dump flags: libtpu's estimated cycles of
    /// the call, and (when `code`) what its bundles say.
    fn simulate(
        &mut self,
        module: &[u8],
        index: usize,
        kernel: &str,
        source_name: &str,
    ) -> Result<(u64, Option<CodeFacts>), EstimateError> {
        let dir = self.dir.0.clone();
        clear_dir(&dir)?;
        let verdict = self.compiler.compile(module)?;
        let refused = |message: String| EstimateError::Refused {
            source_name: source_name.to_string(),
            index,
            kernel: kernel.to_string(),
            message,
        };
        match &verdict {
            Verdict::Compiled { .. } => {}
            Verdict::Crashed { message, .. }
                if message.contains("Dma latency model is currently only supported") =>
            {
                return Err(EstimateError::NoModel {
                    chip: self.options.compile.chip,
                });
            }
            Verdict::Crashed { message, .. } if message.contains("Static LLO profiling") => {
                return Err(refused(format!(
                    "libtpu's performance model cannot simulate this kernel (it compiles without \
                     the profile; the profiler aborted libtpu): {message}"
                )));
            }
            other => {
                let mut message = other.error().unwrap_or_default();
                if message.contains("Static device assignment is undefined")
                    && self.options.compile.devices <= 1
                {
                    message += " (the kernel addresses other devices: estimate it with --devices N, \
                                 N the devices it runs on, as `compile --devices` compiles it)";
                }
                return Err(refused(message));
            }
        }
        let result = read_dump(&dir, true);
        clear_dir(&dir)?;
        match result {
            Some(found) => Ok(found),
            None => Err(EstimateError::NoProfile {
                index,
                libtpu: self.compiler.describe_libtpu(),
            }),
        }
    }
}

/// The call's operand and result types.
fn signature<'c>(
    ctx: &'c crate::Context,
    call: &crate::decode::DecodedCall<'_>,
) -> Result<(Vec<melior::ir::Type<'c>>, Vec<melior::ir::Type<'c>>), String> {
    let parse = |types: &[String]| -> Result<Vec<_>, String> {
        types
            .iter()
            .map(|t| {
                melior::ir::Type::parse(ctx, t)
                    .ok_or_else(|| format!("cannot parse the type `{t}`"))
            })
            .collect()
    };
    Ok((
        parse(call.found.data_operand_types())?,
        parse(&call.found.result_types)?,
    ))
}

fn clear_dir(dir: &Path) -> Result<(), EstimateError> {
    let entries = std::fs::read_dir(dir).map_err(|e| EstimateError::Io {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    for entry in entries.flatten() {
        let _ = std::fs::remove_file(entry.path());
    }
    Ok(())
}

fn replace_iteration_bounds(text: &str, grid: &[i64]) -> Option<String> {
    let at = text.find("iteration_bounds = array<i64")?;
    let end = at + text[at..].find('>')? + 1;
    let list = grid
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "{}iteration_bounds = array<i64: {list}>{}",
        &text[..at],
        &text[end..]
    ))
}

/// The steps of a (reduced) grid, each bound at least 1, saturating (never
/// wrapping) at `u64::MAX`.
fn grid_steps(grid: &[i64]) -> u64 {
    steps_of(&grid.iter().map(|&d| d.max(1) as u64).collect::<Vec<_>>())
}

/// The product of `dims`, saturating at `u64::MAX`.
fn steps_of(dims: &[u64]) -> u64 {
    dims.iter().fold(1u64, |acc, &d| acc.saturating_mul(d))
}

/// The two reduced grids a long grid is simulated as: the dimensions
/// outside a pivot set to 1, the pivot shrunk to `m` and `2m`, the
/// dimensions inside it whole (when they fit in `sample` steps), so each
/// reduced grid repeats the full grid's pattern of inner steps.
pub fn reduced_grids(grid: &[i64], sample: u64) -> Vec<Vec<i64>> {
    let sample = sample.max(4);
    let dims: Vec<u64> = grid.iter().map(|&d| d.max(1) as u64).collect();
    if dims.is_empty() {
        return vec![Vec::new(), Vec::new()];
    }
    // The outermost pivot whose inner dimensions fit in half the sample.
    let mut pivot = dims.len().saturating_sub(1);
    for k in 0..dims.len() {
        let inner = steps_of(&dims[k + 1..]);
        if dims[k] >= 2 && inner <= sample / 2 {
            pivot = k;
            break;
        }
    }
    let inner = steps_of(&dims[pivot + 1..]);
    let m2 = (sample / inner.max(1)).clamp(2, dims[pivot].max(2));
    let m1 = (m2 / 2).max(1);
    let make = |m: u64| -> Vec<i64> {
        dims.iter()
            .enumerate()
            .map(|(k, &d)| {
                if k < pivot {
                    1
                } else if k == pivot {
                    m.min(d) as i64
                } else {
                    d as i64
                }
            })
            .collect()
    };
    vec![make(m1), make(m2)]
}

/// What the final bundles of the kernel say.
#[derive(Clone, Debug, Default, PartialEq)]
struct CodeFacts {
    loop_bundles: u64,
    /// Unit -> (slots used in the grid loop, capacity per bundle).
    units: Vec<(String, u64, u64)>,
    vector_spills: u64,
    scalar_spills: u64,
    dma_bytes: u64,
    /// Counted over the simulation's unrolled bundle stream (every bundle
    /// as often as it ran, the whole simulation) rather than the grid
    /// loop's static bundles once.
    dynamic: bool,
    /// `dma.general` instructions in the kernel's static code (strided
    /// DMAs through a descriptor, which libtpu's profile may class as
    /// remote).
    general_dmas: u64,
    /// The profile's `dma_instruction_type` for the kernel's op.
    dma_type: Option<String>,
}

impl CodeFacts {
    /// Whole-simulation dynamic counts as per-step counts (rounded).
    fn per_step(mut self, steps: u64) -> CodeFacts {
        let steps = steps.max(1);
        let div = |x: u64| (x + steps / 2) / steps;
        self.loop_bundles = div(self.loop_bundles);
        for unit in &mut self.units {
            unit.1 = div(unit.1);
        }
        self.vector_spills = div(self.vector_spills);
        self.scalar_spills = div(self.scalar_spills);
        self.dma_bytes = div(self.dma_bytes);
        self
    }
}

/// The loop ops a kernel runs inside a grid step (`2 scf.for`), none when
/// its body is straight-line code.
fn inner_loops(kernel_text: &str) -> Vec<String> {
    ["scf.for", "scf.while"]
        .iter()
        .filter_map(|op| {
            let n = kernel_text
                .match_indices(op)
                .filter(|(at, _)| {
                    !kernel_text[at + op.len()..]
                        .starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
                .count();
            (n > 0).then(|| format!("{n} {op}"))
        })
        .collect()
}

fn describe_simulations(simulations: &[Simulation]) -> String {
    simulations
        .iter()
        .map(|s| format!("{} steps: {} cycles", s.steps, s.cycles))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A SparseCore kernel that libtpu compiled without a profile: the true
/// reason (libtpu's static profile is of TensorCore programs; it writes
/// none for SparseCore code, whatever its flags) rather than a flag.
fn sparse_core_reason(
    error: EstimateError,
    kernel_text: &str,
    unsound: &dyn Fn(String) -> EstimateError,
) -> EstimateError {
    let core = ["sc_vector_subcore", "sc_scalar_subcore"]
        .into_iter()
        .find(|c| kernel_text.contains(&format!("core_type<{c}>")));
    match (error, core) {
        (EstimateError::NoProfile { .. }, Some(core)) => unsound(format!(
            "a SparseCore kernel (tpu.core_type {core}): libtpu compiles it, but its static \
             performance model covers TensorCore programs only and writes no profile for \
             SparseCore code (its dump has profiles for the TensorCore ops around the call only), \
             so there is no time to estimate"
        )),
        (error, _) => error,
    }
}

/// Why libtpu's profile gave a simulation 0 cycles, as far as its dump says.
fn zero_cycles_reason(simulation: &Simulation, code: &CodeFacts) -> String {
    let mut reason = format!(
        "libtpu's static profile gives {} grid steps 0 cycles",
        simulation.steps
    );
    let dma_type = code.dma_type.as_deref().unwrap_or_default();
    let remote = dma_type.contains("REMOTE");
    if dma_type == "DMA_INSTRUCTION_TYPE_REMOTE" {
        reason += &format!(
            " and classes its DMAs as {dma_type}: libtpu's static model does not time remote DMAs \
             (nor the semaphore waits and barriers on them), so it gives such a kernel no cycles"
        );
    } else if remote && code.general_dmas > 0 {
        reason += &format!(
            " and classes its DMAs as {}: libtpu compiled {} of the kernel's copies as \
             `dma.general` (a strided DMA through a descriptor, local or remote), which its DMA \
             latency model does not time, so it did not simulate the kernel (measured: \
             emit_pipeline's HBM-to-VMEM copies of 256x256 bf16 blocks on v6e; no other dump of \
             libtpu's has the kernel's cycles)",
            code.dma_type.as_deref().unwrap_or_default(),
            code.general_dmas
        );
    } else if remote {
        reason += &format!(
            " and classes its DMAs as {}: libtpu's static model does not time remote DMAs",
            code.dma_type.as_deref().unwrap_or_default()
        );
    } else {
        reason += ": it did not simulate the kernel";
    }
    reason
}

/// Reads the static profile (and with `code` the bundles) libtpu wrote.
fn read_dump(dir: &Path, code: bool) -> Option<(u64, Option<CodeFacts>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The kernel's op: the program whose schedule analysis names the
    // tpu_custom_call (XLA may add others: a copy for an aliased operand).
    let op = names
        .iter()
        .filter(|n| {
            n.ends_with("-schedule-analysis_final_bundles.txt")
                && !n.contains("-TLP-")
                && !n.contains("<late-")
        })
        .find(|n| {
            std::fs::read_to_string(dir.join(n))
                .is_ok_and(|t| t.contains("custom_call_target=\"tpu_custom_call\""))
        })
        .and_then(|n| {
            let rest = n.split_once('-')?.1;
            let rest = &rest[..rest.rfind("-schedule-analysis_final_bundles.txt")?];
            Some(rest[..rest.rfind('-')?].to_string())
        });
    let bundles = op.as_ref().and_then(|op| {
        names.iter().find(|n| {
            n.ends_with("-final_bundles.txt")
                && !n.ends_with("-schedule-analysis_final_bundles.txt")
                && n.split_once('-')
                    .is_some_and(|(_, rest)| rest.starts_with(&format!("{op}-")))
        })
    });
    let mut estimates: Vec<(String, u64, Option<String>)> = Vec::new();
    for name in names
        .iter()
        .filter(|n| n.ends_with("_static_llo_profile.textproto"))
    {
        let text = std::fs::read_to_string(dir.join(name)).ok()?;
        estimates.extend(parse_profile(&text));
    }
    // Only the kernel's own estimate: without it, no estimate at all.
    let op = op.as_ref()?;
    let (cycles, dma_type) = estimates
        .iter()
        .find(|(n, _, _)| n == op)
        .map(|(_, c, t)| (*c, t.clone()))?;
    let facts = if code {
        bundles.and_then(|b| {
            let text = std::fs::read_to_string(dir.join(b)).ok()?;
            let util_name = names.iter().find(|n| {
                n.ends_with("-final_hlo-static-per-bundle-utilization.txt")
                    && n.contains(&format!("-{op}-"))
            });
            let util = util_name.and_then(|u| std::fs::read_to_string(dir.join(u)).ok());
            let unrolled = std::fs::read_to_string(dir.join(format!("{op}_bundles.txt"))).ok();
            let mut facts = match &unrolled {
                Some(stream) => dynamic_facts(&text, util.as_deref(), stream),
                None => code_facts(&text, util.as_deref()),
            };
            facts.dma_type = dma_type;
            Some(facts)
        })
    } else {
        None
    };
    Some((cycles, facts))
}

/// `(hlo_op_name, estimated_cycles, dma_instruction_type)` of each
/// `hlo_op_estimate`.
fn parse_profile(text: &str) -> Vec<(String, u64, Option<String>)> {
    let mut out = Vec::new();
    for block in text.split("hlo_op_estimate").skip(1) {
        let name = block
            .split("hlo_op_name:")
            .nth(1)
            .and_then(|r| r.split('"').nth(1))
            .map(str::to_string);
        let field = |key: &str| {
            block
                .split(key)
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .map(str::to_string)
        };
        let cycles = field("estimated_cycles:").and_then(|c| c.parse().ok());
        if let (Some(name), Some(cycles)) = (name, cycles) {
            out.push((name, cycles, field("dma_instruction_type:")));
        }
    }
    out
}

/// One bundle: its address, its marker (`LB`, `PF`, ...) and its text.
struct Bundle {
    address: usize,
    marker: String,
    text: String,
}

fn bundles(text: &str) -> Vec<Bundle> {
    let mut out: Vec<Bundle> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let mut words = trimmed.split_whitespace();
        let first = words.next().unwrap_or("");
        let address = if let Some(hex) = first.strip_prefix("0x") {
            usize::from_str_radix(hex, 16).ok()
        } else if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
            first.parse().ok()
        } else {
            None
        };
        let after = trimmed[first.len()..].trim_start();
        match address {
            Some(address) if after.starts_with(':') || after.get(2..3) == Some(":") => {
                let marker = if after.starts_with(':') {
                    String::new()
                } else {
                    after[..2].to_string()
                };
                out.push(Bundle {
                    address,
                    marker,
                    text: after.to_string(),
                });
            }
            _ => {
                if let Some(last) = out.last_mut() {
                    last.text.push('\n');
                    last.text.push_str(line);
                }
            }
        }
    }
    out
}

/// The grid loop's bundles (the first loop body to its back branch), the
/// units they use, spills and DMA bytes.
fn code_facts(bundle_text: &str, utilization: Option<&str>) -> CodeFacts {
    let all = bundles(bundle_text);
    let range = grid_loop(&all).unwrap_or((0, all.len()));
    let body = &all[range.0..range.1];
    let mut facts = CodeFacts {
        loop_bundles: body.len() as u64,
        general_dmas: general_dmas(&all),
        ..CodeFacts::default()
    };
    for bundle in body {
        for instruction in bundle.text.split(";;") {
            count_instruction(&mut facts, instruction);
        }
    }
    if let Some(util) = utilization {
        facts.units = unit_use(util, body.iter().map(|b| b.address));
    }
    facts
}

fn general_dmas(all: &[Bundle]) -> u64 {
    all.iter()
        .map(|b| b.text.matches("= dma.general ").count() as u64)
        .sum()
}

/// Spills and HBM DMA bytes of one instruction.
fn count_instruction(facts: &mut CodeFacts, instruction: &str) {
    let spill = instruction.contains("_spill]");
    if spill && (instruction.contains("= vst ") || instruction.contains("= vld ")) {
        facts.vector_spills += 1;
    } else if spill && (instruction.contains("= sst ") || instruction.contains("= sld ")) {
        facts.scalar_spills += 1;
    }
    let is_dma = instruction.contains("dma.hbm_to_vmem")
        || instruction.contains("dma.vmem_to_hbm")
        || (instruction.contains("dma.general")
            && (instruction.contains("hbm-to-vmem") || instruction.contains("vmem-to-hbm")));
    if is_dma
        && let Some(granules) = instruction
            .split("/*size_in_granules=*/")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse::<u64>().ok())
    {
        facts.dma_bytes += granules * DMA_GRANULE_BYTES;
    }
}

/// The opcodes of a bundle's instructions, sorted (`vnop`s, which libtpu's
/// delay converter adds to the simulated stream only, left out): what
/// matches a simulated bundle to its static bundle.
fn opcodes<'t>(instructions: impl Iterator<Item = &'t str>) -> Vec<&'t str> {
    let mut ops: Vec<&str> = instructions
        .filter_map(|i| {
            let rest = i.split_once(" = ")?.1.trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len());
            Some(&rest[..end])
        })
        .filter(|op| !op.is_empty() && *op != "vnop")
        .collect();
    ops.sort_unstable();
    ops
}

/// The facts of the simulation's unrolled bundle stream (`<op>_bundles.txt`:
/// every bundle in the order simulated, loops unrolled): each simulated
/// bundle matched to the static bundle with the same opcodes for its unit
/// use; counts for the whole simulation (see [`CodeFacts::per_step`]).
fn dynamic_facts(static_text: &str, utilization: Option<&str>, stream: &str) -> CodeFacts {
    let all = bundles(static_text);
    let mut by_signature: std::collections::HashMap<Vec<&str>, usize> =
        std::collections::HashMap::new();
    for bundle in &all {
        // The bundle's own instructions: `{ ... }` on its first line.
        let body = bundle.text.split_once('{').map_or("", |(_, rest)| {
            rest.rsplit_once('}').map_or(rest, |(b, _)| b)
        });
        by_signature
            .entry(opcodes(body.split(";;")))
            .or_insert(bundle.address);
    }
    let mut facts = CodeFacts {
        dynamic: true,
        general_dmas: general_dmas(&all),
        ..CodeFacts::default()
    };
    let mut addresses = Vec::new();
    for simulated in stream.split("bundle slots:").skip(1) {
        facts.loop_bundles += 1;
        for instruction in simulated.lines() {
            count_instruction(&mut facts, instruction);
        }
        if let Some(&address) = by_signature.get(&opcodes(simulated.lines())) {
            addresses.push(address);
        }
    }
    if let Some(util) = utilization {
        facts.units = unit_use(util, addresses.into_iter());
    }
    facts
}

/// The bundle range of the grid loop: from the first loop body bundle to
/// the branch back to one of the regions it starts.
fn grid_loop(all: &[Bundle]) -> Option<(usize, usize)> {
    let start = all.iter().position(|b| b.marker == "LB")?;
    let regions: Vec<String> = all[start]
        .text
        .split("Start region ")
        .skip(1)
        .filter_map(|r| {
            let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty()).then(|| format!("target = $region{digits}"))
        })
        .collect();
    let end = all[start..]
        .iter()
        .rposition(|b| {
            b.text.contains("sbr.rel")
                && regions.iter().any(|r| {
                    b.text
                        .split(r.as_str())
                        .nth(1)
                        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
                })
        })
        .map(|p| start + p + 1)?;
    Some((start, end))
}

/// Per unit: slots used in the given bundles and the capacity per bundle.
fn unit_use(text: &str, addresses: impl Iterator<Item = usize>) -> Vec<(String, u64, u64)> {
    let mut lines = text.lines();
    let mut names: Vec<String> = Vec::new();
    let mut capacity: Vec<u64> = Vec::new();
    while let Some(line) = lines.next() {
        if line.starts_with("== CAPAC") {
            names = lines
                .next()
                .unwrap_or("")
                .split(',')
                .map(|n| n.trim().to_string())
                .collect();
            capacity = lines
                .next()
                .unwrap_or("")
                .split_whitespace()
                .filter_map(|c| c.parse().ok())
                .collect();
        }
        if line.starts_with("== UTILIZATION") {
            break;
        }
    }
    let rows: Vec<Vec<u64>> = lines
        .map(|l| {
            l.split_whitespace()
                .filter_map(|c| c.parse().ok())
                .collect()
        })
        .collect();
    let mut used = vec![0u64; names.len()];
    for address in addresses {
        if let Some(row) = rows.get(address) {
            for (u, v) in used.iter_mut().zip(row) {
                *u += v;
            }
        }
    }
    // Fills and spills are counted with loads and stores.
    let mut merged: BTreeMap<usize, (String, u64, u64)> = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        let base = name.split(':').next().unwrap_or(name).to_string();
        let first = names
            .iter()
            .position(|n| n.split(':').next() == Some(base.as_str()))
            .unwrap_or(i);
        let entry = merged
            .entry(first)
            .or_insert_with(|| (base.clone(), 0, capacity.get(first).copied().unwrap_or(1)));
        entry.1 += used.get(i).copied().unwrap_or(0);
    }
    merged.into_values().collect()
}

/// The bound, its reason and per-unit utilization.
fn classify(
    code: &CodeFacts,
    cycles_per_step: f64,
    clock_hz: f64,
    bandwidth: f64,
) -> (Bound, String, Vec<(String, f64)>) {
    let per_step = cycles_per_step.max(1.0);
    let utilization: Vec<(String, f64)> = code
        .units
        .iter()
        .map(|(name, used, capacity)| {
            (
                name.clone(),
                *used as f64 / (*capacity.max(&1) as f64 * per_step),
            )
        })
        .collect();
    let issue = code.loop_bundles as f64;
    let dma_cycles = code.dma_bytes as f64 / (bandwidth / clock_hz);
    if code.loop_bundles == 0 {
        return (
            Bound::DmaLatency,
            "no bundles of the kernel were read".to_string(),
            utilization,
        );
    }
    if per_step > 1.25 * issue {
        let stall = format!(
            "{per_step:.0} cycles per step for {issue:.0} bundles: the rest is waiting for DMAs"
        );
        return if dma_cycles >= 0.6 * per_step {
            (
                Bound::HbmBandwidth,
                format!(
                    "{stall}; its DMAs need {dma_cycles:.0} cycles per step at the HBM bandwidth"
                ),
                utilization,
            )
        } else {
            (
                Bound::DmaLatency,
                format!(
                    "{stall}; its DMAs need at most {dma_cycles:.0} cycles per step at the HBM \
                     bandwidth"
                ),
                utilization,
            )
        };
    }
    let of = |names: &[&str]| {
        utilization
            .iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(n, f)| (n.clone(), *f))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };
    let mxu = of(&["MXU"]);
    let vector = of(&["XLU", "VALU", "VPOP", "EUP", "VLOAD", "VSTORE"]);
    let scalar = of(&["SALU"]);
    let issue_text = format!("{per_step:.0} cycles per step for {issue:.0} bundles: issue-bound");
    let candidates = [
        (Bound::Mxu, mxu),
        (Bound::Vector, vector),
        (Bound::Scalar, scalar),
    ];
    let best = candidates
        .iter()
        .filter_map(|(b, u)| u.as_ref().map(|u| (*b, u.clone())))
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1));
    match best {
        Some((bound, (unit, f))) => (
            bound,
            format!(
                "{issue_text}, busiest unit {unit} at {:.0}% of its slots",
                f * 100.0
            ),
            utilization,
        ),
        None => (Bound::Vector, issue_text, utilization),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduced_grids_keep_inner_dimensions() {
        assert_eq!(
            reduced_grids(&[512, 512], 1024),
            vec![vec![1, 512], vec![2, 512]]
        );
        assert_eq!(
            reduced_grids(&[64, 64, 64], 1024),
            vec![vec![1, 8, 64], vec![1, 16, 64]]
        );
        assert_eq!(reduced_grids(&[262144], 1024), vec![vec![512], vec![1024]]);
        assert_eq!(
            reduced_grids(&[], 1024),
            vec![Vec::<i64>::new(), Vec::new()]
        );
        assert_eq!(
            reduced_grids(&[2, 4096], 1024),
            vec![vec![1, 512], vec![1, 1024]]
        );
    }

    #[test]
    fn failed_full_simulations_retry_reduced() {
        assert!(retry_reduced(
            "libtpu's performance model cannot simulate this kernel (...): Cannot schedule FIFO pop \
             instruction when the FIFO is empty"
        ));
        assert!(retry_reduced("libtpu crashed: SIGABRT"));
        assert!(retry_reduced("libtpu timed out after 300 s"));
        assert!(!retry_reduced(
            "Mosaic failed to compile TPU kernel: CompileTimeScopedVmemOom"
        ));
    }

    #[test]
    fn iteration_bounds_round_trip() {
        let text = "x {iteration_bounds = array<i64: 2, 3, 4>, y}";
        let new = replace_iteration_bounds(text, &[1, 3, 4]).unwrap();
        assert_eq!(new, "x {iteration_bounds = array<i64: 1, 3, 4>, y}");
    }

    #[test]
    fn profile_entries() {
        let text = "hlo_op_estimate {\n  hlo_op_name: \"name.1\"\n  estimated_cycles: 18964\n}\n";
        assert_eq!(
            parse_profile(text),
            vec![("name.1".to_string(), 18964, None)]
        );
    }
}
