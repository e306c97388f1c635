//! Races between the cores and vector subcores of one kernel that share
//! memory (`VMEM_SHARED`, HBM): happens-before by vector clocks
//! ([`super::RunOptions::detect_races`]).
//!
//! Every core or vector subcore of a `core_parallel` / `subcore_parallel`
//! grid is an *agent* with a vector clock. Orderings between agents are the
//! ones a TPU gives: a `tpu.barrier` (`plsc.subcore_barrier`) joins the
//! clocks of every subcore of its SparseCore; a semaphore signal (and a
//! DMA's completion, which signals its semaphores) releases the signaller's
//! clock into the semaphore, and a wait on it acquires what the semaphore
//! holds. Each element of a shared buffer keeps its last accesses (agent,
//! clock, kind): an access conflicts with one of another agent whose clock
//! it has not acquired, when one of the two writes. Scatter-adds
//! (`add = true` indirect DMAs, `tpu.vector_store_idx` with `add`) are
//! atomic on the hardware: two adds never conflict with each other, an add
//! and a read or a plain write do.
//!
//! The clocks are exact for the orderings above (no false positive from a
//! lost ordering); a semaphore keeps the join of every release into it,
//! so a wait acquires more than the signals it consumed, which can hide a
//! race but never invents one.

use std::collections::HashMap;

/// How an element is accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
    /// An atomic add (scatter-add): commutes with other adds.
    Add,
}

impl Access {
    fn verb(self) -> &'static str {
        match self {
            Access::Read => "reads",
            Access::Write => "writes",
            Access::Add => "adds into",
        }
    }

    fn conflicts(self, other: Access) -> bool {
        !matches!(
            (self, other),
            (Access::Read, Access::Read) | (Access::Add, Access::Add)
        )
    }
}

/// Who made an access, for messages: the op's site, grid point, device.
#[derive(Clone, Debug)]
pub(crate) struct Origin {
    pub site: u32,
    pub point: Vec<i64>,
    pub dev: usize,
    /// The access is a DMA's (started by the agent; the element moves
    /// some time before its wait).
    pub dma: bool,
}

/// One access kept in an element's history.
#[derive(Clone, Copy, Debug)]
struct Mark {
    agent: u32,
    clock: u32,
    kind: Access,
    /// A write that changed the element's value.
    changed: bool,
    origin: u32,
}

/// A race between two agents: the earlier access and the later one.
#[derive(Clone, Debug)]
pub(crate) struct Conflict {
    pub first: Origin,
    pub first_kind: Access,
    pub second: Origin,
    pub second_kind: Access,
    /// The element (offset in its buffer).
    pub element: usize,
}

impl Conflict {
    /// `(first verb, second verb)`.
    pub(crate) fn verbs(&self) -> (&'static str, &'static str) {
        (self.first_kind.verb(), self.second_kind.verb())
    }
}

/// The vector clocks of one run and the access history of shared buffers.
#[derive(Debug, Default)]
pub(crate) struct HappensBefore {
    /// (device, agent key) -> agent id.
    ids: HashMap<(usize, Vec<i64>), usize>,
    /// Per agent: its vector clock (indexed by agent id).
    clocks: Vec<Vec<u32>>,
    /// What each semaphore (device, buffer, position) released.
    sems: HashMap<(usize, usize, usize), Vec<u32>>,
    /// Per barrier (device, SparseCore): the join of the clocks arrived
    /// so far, and that of the last opening.
    arrived: HashMap<(usize, Vec<i64>), Vec<u32>>,
    opened: HashMap<(usize, Vec<i64>), Vec<u32>>,
    /// Per shared buffer (device, buffer): per element, its kept accesses.
    shadow: HashMap<(usize, usize), Vec<Vec<Mark>>>,
    origins: Vec<Origin>,
    /// Each origin's index in `origins` (accesses of one op at one grid
    /// point share it).
    origin_ids: HashMap<(u32, Vec<i64>, usize, bool), u32>,
    /// Pairs of (first site, second site, kinds) already reported.
    seen: Vec<(u32, u32, u8, u8)>,
}

fn join(into: &mut Vec<u32>, from: &[u32]) {
    if into.len() < from.len() {
        into.resize(from.len(), 0);
    }
    for (a, &b) in into.iter_mut().zip(from) {
        *a = (*a).max(b);
    }
}

fn kind_code(k: Access) -> u8 {
    match k {
        Access::Read => 0,
        Access::Write => 1,
        Access::Add => 2,
    }
}

impl HappensBefore {
    /// The agent of (device, key), created with clock 1 at its first use.
    pub(crate) fn agent(&mut self, dev: usize, key: &[i64]) -> usize {
        if let Some(&id) = self.ids.get(&(dev, key.to_vec())) {
            return id;
        }
        let id = self.clocks.len();
        let mut c = vec![0; id + 1];
        c[id] = 1;
        self.clocks.push(c);
        self.ids.insert((dev, key.to_vec()), id);
        id
    }

    /// The agent's clock now, then a new epoch of its own (a release: what
    /// it does next is not covered by what it released).
    pub(crate) fn release(&mut self, agent: usize) -> Vec<u32> {
        let c = self.clocks[agent].clone();
        self.clocks[agent][agent] += 1;
        c
    }

    /// A semaphore signal (or a DMA's completion) with a released clock.
    pub(crate) fn signal(&mut self, sem: (usize, usize, usize), clock: &[u32]) {
        join(self.sems.entry(sem).or_default(), clock);
    }

    /// A wait on a semaphore: the agent acquires what it holds.
    pub(crate) fn acquire(&mut self, agent: usize, sem: (usize, usize, usize)) {
        if let Some(c) = self.sems.get(&sem) {
            let c = c.clone();
            join(&mut self.clocks[agent], &c);
        }
    }

    /// An agent arrives at a barrier.
    pub(crate) fn barrier_arrive(&mut self, agent: usize, barrier: &(usize, Vec<i64>)) {
        let c = self.release(agent);
        join(self.arrived.entry(barrier.clone()).or_default(), &c);
    }

    /// The barrier opens (the last subcore arrived).
    pub(crate) fn barrier_open(&mut self, barrier: &(usize, Vec<i64>)) {
        let c = self.arrived.remove(barrier).unwrap_or_default();
        self.opened.insert(barrier.clone(), c);
    }

    /// An agent leaves an opened barrier.
    pub(crate) fn barrier_leave(&mut self, agent: usize, barrier: &(usize, Vec<i64>)) {
        if let Some(c) = self.opened.get(barrier) {
            let c = c.clone();
            join(&mut self.clocks[agent], &c);
        }
    }

    /// Records accesses of `agent` to elements `offs` of a shared buffer of
    /// `len` elements (`changed`: per element, whether a write changes its
    /// value; a write that does not is benign against reads and writes of
    /// other agents); returns the new conflicts (each pair of sites and
    /// kinds once).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn access(
        &mut self,
        agent: usize,
        buf: (usize, usize),
        len: usize,
        offs: &[usize],
        kind: Access,
        changed: Option<&[bool]>,
        origin: Origin,
    ) -> Vec<Conflict> {
        let clock: Vec<u32> = self.clocks[agent].clone();
        let own = clock.get(agent).copied().unwrap_or(0);
        let my_site = origin.site;
        let okey = (origin.site, origin.point.clone(), origin.dev, origin.dma);
        let oid = match self.origin_ids.get(&okey) {
            Some(&id) => id,
            None => {
                let id = self.origins.len() as u32;
                self.origins.push(origin);
                self.origin_ids.insert(okey, id);
                id
            }
        };
        let cells = self
            .shadow
            .entry(buf)
            .or_insert_with(|| vec![Vec::new(); len]);
        let mut found: Vec<(u32, Access, usize)> = Vec::new();
        for (i, &o) in offs.iter().enumerate() {
            let Some(cell) = cells.get_mut(o) else {
                continue;
            };
            let changes = match kind {
                Access::Read => false,
                Access::Add => true,
                Access::Write => changed.is_none_or(|c| c.get(i).copied().unwrap_or(true)),
            };
            for m in cell.iter() {
                let ordered = clock.get(m.agent as usize).copied().unwrap_or(0) >= m.clock;
                // A write that left the value as it was races with nothing
                // (reads see the same value, either write leaves it).
                let benign = match (m.kind, kind) {
                    (Access::Write, Access::Read) => !m.changed,
                    (_, Access::Write) if m.kind != Access::Add => !changes,
                    _ => false,
                };
                if m.agent as usize != agent
                    && !ordered
                    && !benign
                    && kind.conflicts(m.kind)
                    && !found.iter().any(|f| f.0 == m.origin)
                {
                    found.push((m.origin, m.kind, o));
                }
            }
            // Keep what a later access may still race with: drop this
            // agent's earlier mark of the same kind, and marks this
            // access is ordered after when it writes.
            // (An earlier write of this agent that changed the element
            // keeps the new mark a changing one.)
            let before = cell
                .iter()
                .any(|m| m.agent as usize == agent && m.kind == kind && m.changed);
            cell.retain(|m| {
                let ordered = clock.get(m.agent as usize).copied().unwrap_or(0) >= m.clock;
                let mine = m.agent as usize == agent && m.kind == kind;
                let covered = kind == Access::Write && ordered;
                !(mine || covered)
            });
            cell.push(Mark {
                agent: agent as u32,
                clock: own,
                kind,
                changed: changes || before,
                origin: oid,
            });
        }
        let mut out = Vec::new();
        for (first, first_kind, element) in found {
            let f = self.origins[first as usize].clone();
            let key = (f.site, my_site, kind_code(first_kind), kind_code(kind));
            if self.seen.contains(&key) {
                continue;
            }
            self.seen.push(key);
            out.push(Conflict {
                first: f,
                first_kind,
                second: self.origins[oid as usize].clone(),
                second_kind: kind,
                element,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(site: u32, sub: i64) -> Origin {
        Origin {
            site,
            point: vec![0, sub],
            dev: 0,
            dma: false,
        }
    }

    const BUF: (usize, usize) = (0, 7);

    #[test]
    fn unordered_conflicting_accesses_of_two_agents_race_once() {
        let mut hb = HappensBefore::default();
        let (a, b) = (hb.agent(0, &[0, 0]), hb.agent(0, &[0, 1]));
        assert!(
            hb.access(a, BUF, 4, &[0, 1], Access::Write, None, at(1, 0))
                .is_empty()
        );
        // Reads of one agent never race with its own writes.
        assert!(
            hb.access(a, BUF, 4, &[0], Access::Read, None, at(2, 0))
                .is_empty()
        );
        let c = hb.access(b, BUF, 4, &[1, 2], Access::Read, None, at(3, 1));
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].first.site, c[0].second.site, c[0].element), (1, 3, 1));
        assert_eq!(c[0].verbs(), ("writes", "reads"));
        // The same pair of sites is reported once.
        assert!(
            hb.access(b, BUF, 4, &[0], Access::Read, None, at(3, 1))
                .is_empty()
        );
    }

    #[test]
    fn barriers_and_semaphores_order_agents() {
        let mut hb = HappensBefore::default();
        let (a, b) = (hb.agent(0, &[0, 0]), hb.agent(0, &[0, 1]));
        let barrier = (0, vec![0]);
        hb.access(a, BUF, 4, &[0], Access::Write, None, at(1, 0));
        hb.barrier_arrive(a, &barrier);
        hb.barrier_arrive(b, &barrier);
        hb.barrier_open(&barrier);
        hb.barrier_leave(a, &barrier);
        hb.barrier_leave(b, &barrier);
        assert!(
            hb.access(b, BUF, 4, &[0], Access::Read, None, at(2, 1))
                .is_empty()
        );
        // After the barrier, a's write is again unordered with b's read...
        hb.access(a, BUF, 4, &[1], Access::Write, None, at(3, 0));
        // ... until a signals a semaphore b waits on.
        let c = hb.release(a);
        hb.signal((0, 3, 0), &c);
        hb.acquire(b, (0, 3, 0));
        assert!(
            hb.access(b, BUF, 4, &[1], Access::Read, None, at(4, 1))
                .is_empty()
        );
        // What a does after its signal is not covered by it.
        hb.access(a, BUF, 4, &[2], Access::Write, None, at(5, 0));
        assert_eq!(
            hb.access(b, BUF, 4, &[2], Access::Read, None, at(6, 1))
                .len(),
            1
        );
    }

    #[test]
    fn scatter_adds_commute_and_unchanged_writes_are_benign() {
        let mut hb = HappensBefore::default();
        let (a, b) = (hb.agent(0, &[0, 0]), hb.agent(0, &[0, 1]));
        hb.access(a, BUF, 4, &[0], Access::Add, None, at(1, 0));
        assert!(
            hb.access(b, BUF, 4, &[0], Access::Add, None, at(1, 1))
                .is_empty()
        );
        // A read of an element being added into races.
        assert_eq!(
            hb.access(b, BUF, 4, &[0], Access::Read, None, at(2, 1))
                .len(),
            1
        );
        // Two writes of the value an element already holds: benign.
        hb.access(a, BUF, 4, &[3], Access::Write, Some(&[true]), at(3, 0));
        assert!(
            hb.access(b, BUF, 4, &[3], Access::Write, Some(&[false]), at(4, 1))
                .is_empty()
        );
        // A write that changes it races with the other agent's write.
        assert_eq!(
            hb.access(b, BUF, 4, &[3], Access::Write, Some(&[true]), at(5, 1))
                .len(),
            1
        );
    }
}
