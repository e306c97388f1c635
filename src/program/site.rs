//! Call sites: each `tpu_custom_call` of a loaded program, its kernel
//! decoded and compiled once, in a process-wide registry keyed by an id no
//! other site of this process shares (several programs, several threads).
//! The registry holds a site while its [`super::Program`] lives.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::exec::{Array, ExecError, Execution, RunOptions};

/// What a site observed over its runs.
#[derive(Clone, Debug, Default)]
pub(crate) struct SiteStats {
    /// Executor runs (one per device per execution, or one per rendezvous).
    pub runs: u64,
    /// Seconds in the executor.
    pub seconds: f64,
    /// Per result, elements never written (with `detect_uninitialized`).
    pub unwritten: Vec<Option<u64>>,
    /// The first error, as the executor gave it, and when.
    pub error: Option<(Instant, ExecError)>,
}

/// One step's devices meeting at a cross-device call.
#[derive(Default)]
struct Gathering {
    inputs: Vec<Option<Vec<Array>>>,
    arrived: usize,
    outcome: Option<Result<Vec<Vec<Array>>, ExecError>>,
    collected: usize,
}

/// A call site of a loaded program.
pub(crate) struct Site {
    /// Process-wide id (the rewritten call's `tcc_site`).
    pub id: u64,
    /// Position among the module's `tpu_custom_call`s.
    pub index: usize,
    /// The kernel's name.
    pub kernel: String,
    /// Where the call is (`line 12`), when known.
    pub location: Option<String>,
    /// The compiled kernel.
    pub execution: Execution,
    /// The program's run options.
    pub options: RunOptions,
    /// Devices the program runs on.
    pub devices: usize,
    /// The kernel talks across devices: the devices' invocations of one step
    /// meet and run together ([`Execution::run_devices`]).
    pub rendezvous: bool,
    /// How long a device waits for the others at a rendezvous.
    pub timeout: Duration,
    pub(crate) stats: Mutex<SiteStats>,
    /// Set when any call of the program failed in this run: devices waiting
    /// at a rendezvous stop waiting (the failed device will not come).
    failed: Arc<AtomicBool>,
    /// Per device, the executions of this site so far.
    steps: Mutex<Vec<u64>>,
    meeting: Mutex<HashMap<u64, Gathering>>,
    arrived: Condvar,
}

/// Locks, whatever a panicking holder left (the data stays usable: counters
/// and collected arrays).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Site {
    /// A site ready to register.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        index: usize,
        kernel: String,
        location: Option<String>,
        execution: Execution,
        options: RunOptions,
        devices: usize,
        rendezvous: bool,
        timeout: Duration,
        failed: Arc<AtomicBool>,
    ) -> Site {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Site {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            index,
            kernel,
            location,
            execution,
            options,
            devices,
            rendezvous,
            timeout,
            stats: Mutex::new(SiteStats::default()),
            failed,
            steps: Mutex::new(vec![0; devices.max(1)]),
            meeting: Mutex::new(HashMap::new()),
            arrived: Condvar::new(),
        }
    }

    /// How messages name the call: `tpu_custom_call #1 (kernel) at line 12`.
    pub(crate) fn label(&self) -> String {
        let mut s = format!("tpu_custom_call #{} ({})", self.index, self.kernel);
        if let Some(l) = &self.location {
            s.push_str(&format!(" at {l}"));
        }
        s
    }

    /// Records an error (the first one is kept) and tells the program's
    /// other sites.
    pub(crate) fn record_error(&self, e: &ExecError) {
        let mut st = lock(&self.stats);
        if st.error.is_none() {
            st.error = Some((Instant::now(), e.clone()));
        }
        self.failed.store(true, Ordering::SeqCst);
        self.arrived.notify_all();
    }

    /// Before a run: no error, step counters at 0, no meeting left from a
    /// failed run (whose devices stopped at different steps).
    pub(crate) fn reset(&self) {
        lock(&self.stats).error = None;
        lock(&self.steps).iter_mut().for_each(|s| *s = 0);
        lock(&self.meeting).clear();
        self.failed.store(false, Ordering::SeqCst);
    }

    fn account(&self, started: Instant, unwritten: Vec<Option<u64>>) {
        let mut st = lock(&self.stats);
        st.runs += 1;
        st.seconds += started.elapsed().as_secs_f64();
        if st.unwritten.is_empty() {
            st.unwritten = unwritten;
        } else {
            for (a, b) in st.unwritten.iter_mut().zip(unwritten) {
                if let (Some(x), Some(y)) = (a.as_mut(), b) {
                    *x += y;
                }
            }
        }
    }

    /// Runs the kernel for `device` on its inputs: alone, or, for a
    /// cross-device kernel, with the other devices' invocations of the same
    /// step (one thread runs them all; each gets its own results).
    pub(crate) fn execute(
        &self,
        device: usize,
        inputs: Vec<Array>,
    ) -> Result<Vec<Array>, ExecError> {
        if !self.rendezvous || self.devices <= 1 {
            let started = Instant::now();
            let report = self.execution.run_report(&[inputs], &self.options)?;
            self.account(started, report.unwritten);
            return Ok(report.results.into_iter().next().unwrap_or_default());
        }
        if device >= self.devices {
            return Err(ExecError::new(format!(
                "the call ran for partition {device}, but the program runs on {} device(s)",
                self.devices
            )));
        }
        let step = {
            let mut steps = lock(&self.steps);
            let s = steps[device];
            steps[device] += 1;
            s
        };
        let mut meeting = lock(&self.meeting);
        let g = meeting.entry(step).or_default();
        if g.inputs.is_empty() {
            g.inputs = vec![None; self.devices];
        }
        g.inputs[device] = Some(inputs);
        g.arrived += 1;
        if g.arrived == self.devices {
            // The last to arrive runs every device's call.
            let all: Vec<Vec<Array>> = g
                .inputs
                .iter_mut()
                .map(|i| i.take().unwrap_or_default())
                .collect();
            drop(meeting);
            let started = Instant::now();
            let outcome = match self.execution.run_report(&all, &self.options) {
                Ok(report) => {
                    self.account(started, report.unwritten);
                    Ok(report.results)
                }
                Err(e) => Err(e),
            };
            meeting = lock(&self.meeting);
            if let Some(g) = meeting.get_mut(&step) {
                g.outcome = Some(outcome);
            }
            self.arrived.notify_all();
        } else {
            let deadline = Instant::now() + self.timeout;
            loop {
                let g = meeting.get(&step);
                match g {
                    Some(g) if g.outcome.is_some() => break,
                    Some(g) if g.arrived < self.devices && Instant::now() >= deadline => {
                        let arrived = g.arrived;
                        meeting.remove(&step);
                        return Err(ExecError::new(format!(
                            "device {device} waited {:.0} s for the other devices at step {step}: \
                             {arrived} of {} arrived (the devices' programs did not all reach this \
                             call; raise the rendezvous timeout if they are only slow)",
                            self.timeout.as_secs_f64(),
                            self.devices
                        )));
                    }
                    None => {
                        return Err(ExecError::new(format!(
                            "device {device}: the rendezvous of step {step} was abandoned"
                        )));
                    }
                    Some(g) if g.arrived < self.devices && self.failed.load(Ordering::SeqCst) => {
                        let arrived = g.arrived;
                        meeting.remove(&step);
                        return Err(ExecError::new(format!(
                            "device {device} stopped waiting at step {step} ({arrived} of {} \
                             arrived): another call of the program failed",
                            self.devices
                        )));
                    }
                    _ => {}
                }
                let wait = deadline
                    .saturating_duration_since(Instant::now())
                    .clamp(Duration::from_millis(10), Duration::from_millis(100));
                meeting = self
                    .arrived
                    .wait_timeout(meeting, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
        let g = meeting
            .get_mut(&step)
            .ok_or_else(|| ExecError::new("the rendezvous lost its results"))?;
        let mine = match g.outcome.as_ref() {
            Some(Ok(results)) => Ok(results.get(device).cloned().unwrap_or_default()),
            Some(Err(e)) => Err(e.clone()),
            None => Err(ExecError::new("the rendezvous ended without results")),
        };
        g.collected += 1;
        if g.collected == self.devices {
            meeting.remove(&step);
        }
        mine
    }
}

fn registry() -> &'static Mutex<HashMap<u64, Arc<Site>>> {
    static SITES: OnceLock<Mutex<HashMap<u64, Arc<Site>>>> = OnceLock::new();
    SITES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Registers a site; it stays until the returned guard is dropped.
pub(crate) fn register(site: Site) -> SiteGuard {
    let site = Arc::new(site);
    lock(registry()).insert(site.id, Arc::clone(&site));
    SiteGuard { site }
}

/// The site of an id, while its program lives.
pub(crate) fn lookup(id: u64) -> Option<Arc<Site>> {
    lock(registry()).get(&id).cloned()
}

/// Whether the site `id` is registered (its program lives).
pub fn site_is_registered(id: u64) -> bool {
    lock(registry()).contains_key(&id)
}

/// Sites registered now (tests check that dropped programs leave none).
pub fn live_sites() -> usize {
    lock(registry()).len()
}

/// Keeps a site registered; dropping it removes the site.
pub(crate) struct SiteGuard {
    pub(crate) site: Arc<Site>,
}

impl Drop for SiteGuard {
    fn drop(&mut self) {
        lock(registry()).remove(&self.site.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::{ElemType, random_inputs};

    fn add_site(devices: usize, timeout: Duration) -> Site {
        add_site_failing_with(devices, timeout, Arc::new(AtomicBool::new(false)))
    }

    fn add_site_failing_with(devices: usize, timeout: Duration, failed: Arc<AtomicBool>) -> Site {
        let ctx = crate::Context::new();
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/program/one_kernel/module.mlir"
        ))
        .unwrap();
        let calls = crate::decode::decode_module(&ctx, &bytes, "one_kernel").unwrap();
        let execution = Execution::of_call(&calls[0]).unwrap();
        Site::new(
            0,
            "_add_kernel".into(),
            None,
            execution,
            RunOptions::default(),
            devices,
            true,
            timeout,
            failed,
        )
    }

    /// A device waiting for the others stops when another call of the
    /// program fails (that device will not come), long before the timeout;
    /// the next run starts clean.
    #[test]
    fn a_failure_elsewhere_ends_the_wait() {
        let failed = Arc::new(AtomicBool::new(false));
        let waiting = add_site_failing_with(2, Duration::from_secs(60), Arc::clone(&failed));
        let other = add_site_failing_with(2, Duration::from_secs(60), Arc::clone(&failed));
        let inputs = random_inputs(waiting.execution.call_shape(), 1).unwrap();
        let started = Instant::now();
        let e = std::thread::scope(|s| {
            let h = s.spawn(|| waiting.execute(0, inputs.clone()));
            std::thread::sleep(Duration::from_millis(100));
            other.record_error(&ExecError::new("boom"));
            h.join().unwrap().unwrap_err()
        });
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            e.message.contains("another call of the program failed"),
            "{e}"
        );
        waiting.reset();
        other.reset();
        assert!(!failed.load(Ordering::SeqCst));
        assert!(lock(&waiting.meeting).is_empty());
        assert_eq!(*lock(&waiting.steps), vec![0, 0]);
    }

    /// A device whose partners never come fails after the timeout, saying
    /// how many arrived (no hang).
    #[test]
    fn a_rendezvous_nobody_joins_times_out() {
        let site = add_site(2, Duration::from_millis(200));
        let inputs = random_inputs(site.execution.call_shape(), 1).unwrap();
        let e = site.execute(0, inputs).unwrap_err();
        assert!(
            e.message.contains("device 0 waited") && e.message.contains("1 of 2 arrived"),
            "{e}"
        );
    }

    /// The devices of one step meet, one run serves all, each gets its own
    /// results; steps are counted per device.
    #[test]
    fn devices_of_a_step_meet_and_get_their_own_results() {
        let site = add_site(3, Duration::from_secs(30));
        let shape = site.execution.call_shape().clone();
        for _step in 0..2 {
            let results: Vec<Vec<Array>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..3)
                    .map(|d| {
                        let site = &site;
                        let inputs = random_inputs(&shape, d as u64).unwrap();
                        s.spawn(move || (inputs.clone(), site.execute(d, inputs).unwrap()))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        let (inputs, out) = h.join().unwrap();
                        // The add kernel: each device's own x + y.
                        let n = inputs[0].len();
                        for i in 0..n {
                            let want = ElemType::F32
                                .round(inputs[0].data.get_f64(i) + inputs[1].data.get_f64(i));
                            assert_eq!(out[0].data.get_f64(i), want);
                        }
                        out
                    })
                    .collect()
            });
            assert_eq!(results.len(), 3);
        }
        assert_eq!(lock(&site.stats).runs, 2);
        assert!(lock(&site.meeting).is_empty());
    }
}
