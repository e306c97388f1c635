//! Memory and semaphores shared by the devices of one execution: buffers
//! (HBM operands, VMEM/SMEM blocks, scratch, semaphores) per device, and
//! the blocking waits of several devices running at once.

use std::sync::{Condvar, Mutex, MutexGuard};

use super::array::Data;
use super::dtype::ElemType;

/// Uninitialised memory: what a buffer holds before it is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Uninitialized {
    /// NaN for floats, the largest value for integers, `true` for `i1`: JAX's
    /// interpret-mode default, which makes reads of unwritten memory show.
    #[default]
    Nan,
    /// Zeros.
    Zero,
}

impl Uninitialized {
    /// The fill value for an element type.
    pub(crate) fn value(self, elem: ElemType) -> f64 {
        match self {
            Uninitialized::Zero => 0.0,
            Uninitialized::Nan if elem.is_float() => f64::NAN,
            Uninitialized::Nan => match elem {
                ElemType::Semaphore | ElemType::DmaSemaphore => 0.0,
                t => t.max_value(),
            },
        }
    }
}

/// One buffer of one device.
#[derive(Debug)]
pub(crate) struct Buffer {
    pub elem: ElemType,
    pub data: Data,
    /// What it holds, for messages (`input 0 (HBM)`, `scratch 1`).
    pub label: String,
    /// `true` once its scope ended.
    pub freed: bool,
    /// Which elements were ever written, when uninitialised reads are
    /// tracked ([`super::RunOptions::detect_uninitialized`]) and this
    /// buffer can hold unwritten memory (scratch, output blocks and HBM
    /// outputs, scoped buffers).
    pub written: Option<Vec<bool>>,
}

/// One element range of one buffer: a DMA's source or destination.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub dev: usize,
    pub buf: usize,
    /// Element offsets in the buffer, in the order copied.
    pub offs: Vec<usize>,
    /// The smallest and largest offset (a cheap first overlap test).
    pub lo: usize,
    pub hi: usize,
}

impl Region {
    pub(crate) fn new(dev: usize, buf: usize, offs: Vec<usize>) -> Region {
        let lo = offs.iter().copied().min().unwrap_or(0);
        let hi = offs.iter().copied().max().unwrap_or(0);
        Region {
            dev,
            buf,
            offs,
            lo,
            hi,
        }
    }

    /// The first of `offs` (positions into it) this region also holds.
    pub(crate) fn first_overlap(&self, dev: usize, buf: usize, offs: &[usize]) -> Option<usize> {
        if self.dev != dev || self.buf != buf || self.offs.is_empty() {
            return None;
        }
        let mut sorted: Option<Vec<usize>> = None;
        for (i, &o) in offs.iter().enumerate() {
            if o < self.lo || o > self.hi {
                continue;
            }
            let s = sorted.get_or_insert_with(|| {
                let mut v = self.offs.clone();
                v.sort_unstable();
                v
            });
            if s.binary_search(&o).is_ok() {
                return Some(i);
            }
        }
        None
    }
}

/// A semaphore: (device, buffer, position).
pub(crate) type SemRef = (usize, usize, usize);

/// A DMA started and not yet known to be complete: its copy may not have
/// happened yet ([`super::DmaTiming`]), and its source and destination are
/// in flight until the waits on its semaphores take its bytes.
#[derive(Clone, Debug)]
pub(crate) struct Dma {
    /// The device that started it.
    pub issuer: usize,
    /// The starting op's site ([`super::program::Program::sites`]) and grid point.
    pub site: u32,
    pub point: Vec<i64>,
    pub src: Region,
    pub dst: Region,
    pub dst_sem: Option<SemRef>,
    pub src_sem: Option<SemRef>,
    pub bytes: i64,
    /// The copy (and the semaphore signals) happened.
    pub copied: bool,
    /// Bytes of the destination (source) side not yet taken by a wait.
    pub dst_open: i64,
    pub src_open: i64,
    /// `DmaTiming::Random`: complete once the issuer has run this many ops.
    pub due: Option<u64>,
    /// A scatter-add (`tpu.enqueue_indirect_dma` with `add`): the copy adds
    /// each source element to its destination, in order.
    pub add: bool,
}

impl Dma {
    /// The copy, the semaphore signals and the written marks: the DMA
    /// completes. Idempotent.
    pub(crate) fn complete(&mut self, bufs: &mut [Vec<Buffer>]) {
        if self.copied {
            return;
        }
        self.copied = true;
        if bufs[self.src.dev][self.src.buf].freed {
            return;
        }
        let (data, written) = {
            let b = &bufs[self.src.dev][self.src.buf];
            (
                b.data.gather(&self.src.offs),
                b.written
                    .as_ref()
                    .map(|w| self.src.offs.iter().map(|&o| w[o]).collect::<Vec<_>>()),
            )
        };
        let d = &mut bufs[self.dst.dev][self.dst.buf];
        if !d.freed && self.add {
            for (i, &o) in self.dst.offs.iter().enumerate() {
                if o >= d.data.len() {
                    continue;
                }
                match (&mut d.data, &data) {
                    (Data::I64(dv), Data::I64(sv)) => {
                        dv[o] = d.elem.wrap(dv[o].wrapping_add(sv[i]))
                    }
                    (dv, sv) => {
                        let y = d.elem.round(dv.get_f64(o) + sv.get_f64(i));
                        dv.set_f64(o, y);
                    }
                }
            }
            if let Some(dw) = &mut d.written {
                for (i, &o) in self.dst.offs.iter().enumerate() {
                    dw[o] = dw[o] && written.as_ref().is_none_or(|w| w[i]);
                }
            }
        } else if !d.freed {
            d.data.scatter(&self.dst.offs, &data);
            if let Some(dw) = &mut d.written {
                for (i, &o) in self.dst.offs.iter().enumerate() {
                    dw[o] = written.as_ref().is_none_or(|w| w[i]);
                }
            }
        }
        for (dev, buf, pos) in [self.dst_sem, self.src_sem].into_iter().flatten() {
            // A semaphore whose scope already ended is not signalled (its
            // scope's end reported the copy still in flight).
            if let Some(b) = bufs[dev].get_mut(buf)
                && !b.freed
                && let Data::I64(v) = &mut b.data
                && let Some(x) = v.get_mut(pos)
            {
                *x = super::dtype::wrap_int(32, *x + self.bytes);
            }
        }
    }

    pub(crate) fn open(&self) -> bool {
        self.dst_open > 0 || self.src_open > 0 || !self.copied
    }
}

/// A race found while running: two accesses to one region, at least one of
/// them a write, not ordered by a DMA wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Race {
    pub text: String,
    /// (site of the DMA, site of the access) for de-duplication.
    pub key: (u32, u32, bool),
}

/// Everything the devices share.
#[derive(Debug)]
pub(crate) struct State {
    /// Buffers per device.
    pub bufs: Vec<Vec<Buffer>>,
    /// Devices still running.
    pub live: usize,
    /// What each waiting device (or vector subcore thread) waits for.
    pub waits: std::collections::HashMap<usize, Wait>,
    /// `tpu.barrier` per SparseCore (device, core coordinates): subcores
    /// arrived, subcores that returned, and the barrier's generation.
    pub barriers: std::collections::HashMap<(usize, Vec<i64>), BarrierState>,
    /// Vector-subcore threads per device take turns: one runs at a time,
    /// until it blocks or returns, then the next in order (a fixed
    /// interleaving, so the same run gives the same numbers).
    pub turns: std::collections::HashMap<usize, Turn>,
    /// The next vector-subcore thread's number (after the devices').
    pub next_thread: usize,
    /// Bytes the live buffers take (their storage).
    pub bytes: u64,
    /// Set when a device fails or all deadlock: the others stop.
    pub failed: Option<String>,
    /// Devices done allocating their buffers (the start barrier).
    pub ready: usize,
    /// DMAs in flight (recorded when they can be late or races are watched).
    pub dmas: Vec<Dma>,
    /// Races found so far (`RunOptions::detect_races`).
    pub races: Vec<Race>,
    /// With several TensorCores and races watched: every access of each
    /// core to HBM (DMAs, the pipeline's block copies), compared across
    /// cores when the run ends (cores run one after the other here, and
    /// nothing orders them on a TPU).
    pub hbm_log: Vec<HbmAccess>,
    /// Happens-before between the cores and vector subcores of a grid
    /// that share memory (races watched).
    pub hb: super::races::HappensBefore,
}

/// One core's access to an HBM buffer ([`State::hbm_log`]).
#[derive(Clone, Debug)]
pub(crate) struct HbmAccess {
    pub core: usize,
    pub region: Region,
    pub write: bool,
    /// The op's site (0: the pipeline's block copy) and grid point.
    pub site: u32,
    pub point: Vec<i64>,
}

/// What a blocked thread waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    /// (device, buffer, position, amount) of a semaphore.
    Semaphore(usize, usize, usize, i64),
    /// The other vector subcores of its SparseCore, at a `tpu.barrier`:
    /// the barrier (device, group) and the generation it waits to end.
    Barrier((usize, Vec<i64>), u64),
}

/// One SparseCore's `tpu.barrier`.
#[derive(Clone, Debug, Default)]
pub(crate) struct BarrierState {
    pub arrived: usize,
    pub finished: usize,
    pub generation: u64,
}

/// The turn of a device's vector-subcore threads ([`State::turns`]).
#[derive(Clone, Debug)]
pub(crate) struct Turn {
    /// The first thread's number; the others follow it.
    pub base: usize,
    /// Per thread: it returned.
    pub done: Vec<bool>,
    /// The thread running (an index from `base`).
    pub at: usize,
}

impl Turn {
    fn index(&self, thread: usize) -> Option<usize> {
        thread
            .checked_sub(self.base)
            .filter(|&i| i < self.done.len())
    }
}

impl State {
    /// Whether `thread` may run now (always, outside a turn).
    pub(crate) fn has_turn(&self, dev: usize, thread: usize) -> bool {
        self.turns
            .get(&dev)
            .is_none_or(|t| t.index(thread).is_none_or(|i| i == t.at))
    }

    /// `thread` blocks (or returned, `done`): the next thread in order
    /// that has not returned runs.
    pub(crate) fn pass_turn(&mut self, dev: usize, thread: usize, done: bool) {
        let Some(t) = self.turns.get_mut(&dev) else {
            return;
        };
        let Some(me) = t.index(thread) else {
            return;
        };
        if done {
            t.done[me] = true;
        }
        if t.at != me {
            return;
        }
        let n = t.done.len();
        if let Some(next) = (1..=n).map(|k| (me + k) % n).find(|&j| !t.done[j]) {
            t.at = next;
        }
    }

    /// Every running thread waits and no wait can be satisfied by the
    /// semaphores as they are, nor by a DMA still to copy (a barrier that
    /// every subcore reached has already opened).
    pub(crate) fn deadlocked(&self) -> bool {
        self.waits.len() >= self.live
            && self.waits.values().all(|w| match w {
                // One that opened since: that thread is about to run.
                Wait::Barrier(key, generation) => self
                    .barriers
                    .get(key)
                    .is_none_or(|b| b.generation == *generation),
                &Wait::Semaphore(d, b, p, n) => {
                    self.bufs[d]
                        .get(b)
                        .is_none_or(|buf| buf.data.get_i64(p) < n)
                        && !self.dmas.iter().any(|x| {
                            !x.copied
                                && (x.dst_sem == Some((d, b, p)) || x.src_sem == Some((d, b, p)))
                        })
                }
            })
    }
}

/// The shared memory and the condition variable waits block on.
#[derive(Debug)]
pub(crate) struct Machine {
    pub state: Mutex<State>,
    pub wake: Condvar,
    pub uninit: Uninitialized,
    pub devices: usize,
    /// The most bytes all buffers may take together (`RunOptions::max_bytes`).
    pub max_bytes: Option<u64>,
    /// Track written elements and report reads of unwritten ones.
    pub track_writes: bool,
    /// Watch accesses against DMAs in flight.
    pub detect_races: bool,
    /// When DMAs copy.
    pub dma: super::DmaTiming,
    /// TensorCores sharing each device's grid (`RunOptions::cores`).
    pub cores: usize,
}

impl Machine {
    pub(crate) fn new(devices: usize, uninit: Uninitialized) -> Machine {
        Machine {
            state: Mutex::new(State {
                bufs: (0..devices).map(|_| Vec::new()).collect(),
                live: devices,
                waits: std::collections::HashMap::new(),
                barriers: std::collections::HashMap::new(),
                turns: std::collections::HashMap::new(),
                next_thread: devices,
                failed: None,
                ready: 0,
                bytes: 0,
                dmas: Vec::new(),
                races: Vec::new(),
                hbm_log: Vec::new(),
                hb: super::races::HappensBefore::default(),
            }),
            wake: Condvar::new(),
            uninit,
            devices,
            max_bytes: None,
            track_writes: false,
            detect_races: false,
            dma: super::DmaTiming::AtStart,
            cores: 1,
        }
    }

    /// HBM accesses are logged per core (races watched, several cores).
    pub(crate) fn logs_hbm(&self) -> bool {
        self.detect_races && self.cores > 1
    }

    /// Logs a core's access to an HBM buffer, when [`Machine::logs_hbm`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn log_hbm(
        &self,
        core: usize,
        dev: usize,
        buf: usize,
        offs: &[usize],
        write: bool,
        site: u32,
        point: &[i64],
    ) {
        if !self.logs_hbm() {
            return;
        }
        let mut s = self.lock();
        if !s.bufs[dev]
            .get(buf)
            .is_some_and(|b| b.label.ends_with("(HBM)"))
        {
            return;
        }
        s.hbm_log.push(HbmAccess {
            core,
            region: Region::new(dev, buf, offs.to_vec()),
            write,
            site,
            point: point.to_vec(),
        });
    }

    /// Conflicting HBM accesses of different cores (one of them a write):
    /// `(first, second)` pairs of [`State::hbm_log`], each pair of sites once.
    pub(crate) fn core_conflicts(&self) -> Vec<(HbmAccess, HbmAccess)> {
        let s = self.lock();
        let log = &s.hbm_log;
        let mut out: Vec<(HbmAccess, HbmAccess)> = Vec::new();
        for (i, a) in log.iter().enumerate() {
            for b in &log[i + 1..] {
                if a.core == b.core
                    || !(a.write || b.write)
                    || a.region.dev != b.region.dev
                    || a.region.buf != b.region.buf
                    || a.region.hi < b.region.lo
                    || b.region.hi < a.region.lo
                {
                    continue;
                }
                if out.iter().any(|(x, y)| {
                    x.site == a.site && y.site == b.site && x.write == a.write && y.write == b.write
                }) {
                    continue;
                }
                if a.region
                    .first_overlap(b.region.dev, b.region.buf, &b.region.offs)
                    .is_some()
                {
                    out.push((a.clone(), b.clone()));
                }
            }
        }
        out
    }

    /// DMAs are recorded (late copies, or races watched).
    pub(crate) fn records_dmas(&self) -> bool {
        self.detect_races || self.dma != super::DmaTiming::AtStart
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        match self.state.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Allocates a buffer on a device, filled with the uninitialised value
    /// (semaphores with zero). Returns its index.
    pub(crate) fn alloc(
        &self,
        dev: usize,
        elem: ElemType,
        len: usize,
        label: String,
    ) -> Result<usize, String> {
        self.reserve(elem, len, &label)?;
        let fill = self.uninit.value(elem);
        let data = Data::filled(elem, len, fill);
        let buf = self.push(dev, elem, data, label);
        if self.track_writes && !matches!(elem, ElemType::Semaphore | ElemType::DmaSemaphore) {
            self.lock().bufs[dev][buf].written = Some(vec![false; len]);
        }
        Ok(buf)
    }

    /// Marks a whole buffer written (inputs, aliased outputs).
    pub(crate) fn mark_written(&self, dev: usize, buf: usize) {
        if let Some(w) = &mut self.lock().bufs[dev][buf].written {
            w.iter_mut().for_each(|x| *x = true);
        }
    }

    /// Refills a buffer with the uninitialised value and forgets what was
    /// written (an output block starting a new visit).
    pub(crate) fn reset(&self, dev: usize, buf: usize) {
        let mut s = self.lock();
        let b = &mut s.bufs[dev][buf];
        b.data.fill(b.elem, self.uninit.value(b.elem));
        if let Some(w) = &mut b.written {
            w.iter_mut().for_each(|x| *x = false);
        }
    }

    /// Allocates a buffer holding `data`.
    pub(crate) fn alloc_with(
        &self,
        dev: usize,
        elem: ElemType,
        data: Data,
        label: String,
    ) -> Result<usize, String> {
        self.reserve(elem, data.len(), &label)?;
        Ok(self.push(dev, elem, data, label))
    }

    fn storage(elem: ElemType, len: usize) -> u64 {
        let each = if elem == ElemType::F64 || elem.is_int() {
            8
        } else {
            4
        };
        (len as u64).saturating_mul(each)
    }

    /// Counts a buffer against the byte budget, before it is allocated.
    fn reserve(&self, elem: ElemType, len: usize, label: &str) -> Result<(), String> {
        if len > 1 << 34 {
            return Err(format!(
                "{label} would hold {len} elements: more than this executor allocates (2^34)"
            ));
        }
        let need = Self::storage(elem, len);
        let mut s = self.lock();
        let total = s.bytes.saturating_add(need);
        if let Some(max) = self.max_bytes
            && total > max
        {
            return Err(format!(
                "{label} needs {need} bytes, which would take the run's buffers to {total} bytes, over its limit of {max}"
            ));
        }
        s.bytes = total;
        Ok(())
    }

    fn push(&self, dev: usize, elem: ElemType, data: Data, label: String) -> usize {
        let mut s = self.lock();
        let bufs = &mut s.bufs[dev];
        bufs.push(Buffer {
            elem,
            data,
            label,
            freed: false,
            written: None,
        });
        bufs.len() - 1
    }

    /// Waits until every device has allocated its buffers (so a remote DMA
    /// or signal never meets a device that has not set up yet), as JAX's
    /// interpret mode barriers all devices before the first grid point.
    /// `Err` if another device failed first.
    pub(crate) fn start_barrier(&self) -> Result<(), String> {
        let mut s = self.lock();
        s.ready += 1;
        self.wake.notify_all();
        loop {
            if let Some(f) = &s.failed {
                return Err(f.clone());
            }
            if s.ready >= self.devices {
                return Ok(());
            }
            s = self.wait(s);
        }
    }

    /// Releases the lock until [`Machine::wake`] is notified (a poisoned
    /// lock is taken as it is: the failing thread set `failed`).
    pub(crate) fn wait<'a>(&self, s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        match self.wake.wait(s) {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    /// `tpu.barrier` of a vector subcore running on its own thread: blocks
    /// until all `size` subcores of its SparseCore (`group`) arrive. An
    /// error when one returned without arriving, another thread failed, or
    /// every thread is blocked.
    pub(crate) fn subcore_barrier(
        &self,
        dev: usize,
        group: &[i64],
        size: usize,
        thread: usize,
        agent: Option<usize>,
    ) -> Result<(), String> {
        let key = (dev, group.to_vec());
        let mut s = self.lock();
        if let Some(a) = agent {
            s.hb.barrier_arrive(a, &key);
        }
        let b = s.barriers.entry(key.clone()).or_default();
        b.arrived += 1;
        let generation = b.generation;
        if b.arrived == size {
            b.arrived = 0;
            b.generation += 1;
            if let Some(a) = agent {
                s.hb.barrier_open(&key);
                s.hb.barrier_leave(a, &key);
            }
            drop(s);
            self.wake.notify_all();
            return Ok(());
        }
        loop {
            if let Some(f) = &s.failed {
                let f = f.clone();
                s.waits.remove(&thread);
                return Err(format!("stopped: {f}"));
            }
            if !s.has_turn(dev, thread) {
                s = self.wait(s);
                continue;
            }
            let b = &s.barriers[&key];
            if b.generation != generation {
                s.waits.remove(&thread);
                if let Some(a) = agent {
                    s.hb.barrier_leave(a, &key);
                }
                return Ok(());
            }
            if b.finished > 0 {
                let msg = format!(
                    "a barrier that can never open: {} of the {size} vector subcores returned without reaching it ({} wait at it)",
                    b.finished, b.arrived
                );
                s.waits.remove(&thread);
                s.failed = Some(format!("device {dev}: a subcore barrier never opened"));
                drop(s);
                self.wake.notify_all();
                return Err(msg);
            }
            s.waits
                .insert(thread, Wait::Barrier(key.clone(), generation));
            if s.deadlocked() {
                s.waits.remove(&thread);
                s.failed = Some(format!("device {dev} deadlocked"));
                drop(s);
                self.wake.notify_all();
                return Err(
                    "a barrier that can never open: every vector subcore still running waits, at the barrier or on a semaphore no one can signal"
                        .to_string(),
                );
            }
            s.pass_turn(dev, thread, false);
            self.wake.notify_all();
            s = self.wait(s);
        }
    }

    /// Blocks a vector subcore's thread until its first turn.
    pub(crate) fn await_turn(&self, dev: usize, thread: usize) -> Result<(), String> {
        let mut s = self.lock();
        loop {
            if let Some(f) = &s.failed {
                return Err(format!("stopped: {f}"));
            }
            if s.has_turn(dev, thread) {
                return Ok(());
            }
            s = self.wait(s);
        }
    }

    /// A vector subcore's thread returned: it will never reach a barrier,
    /// and the next one runs.
    pub(crate) fn subcore_finished(&self, dev: usize, group: &[i64], thread: usize) {
        let mut s = self.lock();
        s.pass_turn(dev, thread, true);
        s.live = s.live.saturating_sub(1);
        s.barriers
            .entry((dev, group.to_vec()))
            .or_default()
            .finished += 1;
        drop(s);
        self.wake.notify_all();
    }

    /// Releases a scoped buffer's storage. A DMA semaphore whose scope ends
    /// while a copy signalling it is still in flight (or its count was never
    /// waited down to zero) is an error: on a TPU its memory is reused while
    /// the copy still signals it. The storage is released either way.
    pub(crate) fn free(&self, dev: usize, buf: usize) -> Result<(), String> {
        let mut s = self.lock();
        let mut verdict = Ok(());
        if let Some(b) = s.bufs[dev].get(buf)
            && b.elem == ElemType::DmaSemaphore
            && !b.freed
        {
            let in_flight = s
                .dmas
                .iter()
                .filter(|d| !d.copied)
                .filter(|d| {
                    [d.dst_sem, d.src_sem]
                        .into_iter()
                        .flatten()
                        .any(|(x, y, _)| (x, y) == (dev, buf))
                })
                .map(|d| d.bytes)
                .sum::<i64>();
            let held = match &b.data {
                Data::I64(v) => v.iter().sum::<i64>(),
                _ => 0,
            };
            if in_flight != 0 || held != 0 {
                verdict = Err(format!(
                    "{}: its scope ended with {} byte(s) of DMA never waited for (a copy still in flight signals it, or its count was not waited down to 0); on a TPU the semaphore's memory is reused while the copy still signals it: wait for every copy before the scope (pl.run_scoped) ends",
                    b.label,
                    in_flight + held
                ));
            }
        }
        if let Some(b) = s.bufs[dev].get_mut(buf) {
            let freed = Self::storage(b.elem, b.data.len());
            b.freed = true;
            b.data = Data::I64(Vec::new());
            s.bytes = s.bytes.saturating_sub(freed);
        }
        verdict
    }
}
