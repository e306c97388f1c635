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
}

/// Everything the devices share.
#[derive(Debug)]
pub(crate) struct State {
    /// Buffers per device.
    pub bufs: Vec<Vec<Buffer>>,
    /// Devices still running.
    pub live: usize,
    /// What each waiting device waits for: (device, buffer, position,
    /// amount) of a semaphore.
    pub waits: std::collections::HashMap<usize, (usize, usize, usize, i64)>,
    /// Bytes the live buffers take (their storage).
    pub bytes: u64,
    /// Set when a device fails or all deadlock: the others stop.
    pub failed: Option<String>,
    /// Devices done allocating their buffers (the start barrier).
    pub ready: usize,
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
}

impl Machine {
    pub(crate) fn new(devices: usize, uninit: Uninitialized) -> Machine {
        Machine {
            state: Mutex::new(State {
                bufs: (0..devices).map(|_| Vec::new()).collect(),
                live: devices,
                waits: std::collections::HashMap::new(),
                failed: None,
                ready: 0,
                bytes: 0,
            }),
            wake: Condvar::new(),
            uninit,
            devices,
            max_bytes: None,
        }
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
        Ok(self.push(dev, elem, data, label))
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
            s = match self.wake.wait(s) {
                Ok(g) => g,
                Err(p) => p.into_inner(),
            };
        }
    }

    /// Releases a scoped buffer's storage.
    pub(crate) fn free(&self, dev: usize, buf: usize) {
        let mut s = self.lock();
        if let Some(b) = s.bufs[dev].get_mut(buf) {
            let freed = Self::storage(b.elem, b.data.len());
            b.freed = true;
            b.data = Data::I64(Vec::new());
            s.bytes = s.bytes.saturating_sub(freed);
        }
    }
}
