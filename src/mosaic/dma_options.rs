//! Named-argument builders for the DMA and semaphore ops of the `tpu`
//! dialect, re-exported by [`super::ops`]: the generated `ops::enqueue_dma`
//! takes eleven positional arguments, mostly `None`; these take the required
//! ones and a method per optional part, with jaxlib's defaults.
//!
//! ```
//! # use tpu_custom_call::melior::ir::{Block, BlockLike, Location, Type, Value};
//! # use tpu_custom_call::mosaic::attrs::{self, MemorySpace};
//! use tpu_custom_call::mosaic::ops;
//! # let ctx = tpu_custom_call::Context::new();
//! # let loc = Location::unknown(&ctx);
//! # let buf = attrs::memref(&ctx, &[8, 128], Type::float32(&ctx), MemorySpace::Vmem, None);
//! # let sem = attrs::memref(&ctx, &[], attrs::dma_semaphore_type(&ctx), MemorySpace::SemaphoreMem, None);
//! # let i32 = tpu_custom_call::melior::ir::r#type::IntegerType::new(&ctx, 32).into();
//! # let block = Block::new(&[(buf, loc), (buf, loc), (sem, loc), (sem, loc), (i32, loc)]);
//! # let v = |i| -> Value { block.argument(i).unwrap().into() };
//! # let (src, dst, send, recv, device) = (v(0), v(1), v(2), v(3), v(4));
//! let start = ops::EnqueueDma::new(src, dst, recv)
//!     .source_semaphore(send)
//!     .device(device)
//!     .priority(1)
//!     .build(&ctx, loc);
//! assert!(start.to_string().contains("priority = 1"));
//! let wait = ops::WaitDma::new(src, dst, recv).source_semaphore(send).device(device).build(&ctx, loc);
//! assert!(wait.to_string().contains("wait_target = true"));
//! ```

use melior::Context as MlirContext;
use melior::ir::{Location, Operation, Value};

/// `tpu.enqueue_dma`: a DMA of `source` into `target` signalling
/// `target_semaphore` (Pallas's `copy.start()`); a remote one also names the
/// source semaphore and the device.
#[derive(Clone, Debug)]
pub struct EnqueueDma<'c, 'v> {
    source: Value<'c, 'v>,
    target: Value<'c, 'v>,
    target_semaphore: Value<'c, 'v>,
    source_semaphore: Option<Value<'c, 'v>>,
    device_id: Option<Value<'c, 'v>>,
    core_id: Option<Value<'c, 'v>>,
    subcore_id: Option<Value<'c, 'v>>,
    priority: Option<i32>,
    strict_ordering: Option<bool>,
}

impl<'c, 'v> EnqueueDma<'c, 'v> {
    /// `source` into `target`, signalling `target_semaphore`.
    pub fn new(
        source: Value<'c, 'v>,
        target: Value<'c, 'v>,
        target_semaphore: Value<'c, 'v>,
    ) -> Self {
        Self {
            source,
            target,
            target_semaphore,
            source_semaphore: None,
            device_id: None,
            core_id: None,
            subcore_id: None,
            priority: None,
            strict_ordering: None,
        }
    }

    /// The semaphore signalled when the source is read (a remote copy's
    /// send semaphore).
    pub fn source_semaphore(mut self, sem: Value<'c, 'v>) -> Self {
        self.source_semaphore = Some(sem);
        self
    }

    /// The target device (a logical device id, `i32`).
    pub fn device(mut self, id: Value<'c, 'v>) -> Self {
        self.device_id = Some(id);
        self
    }

    /// The target core.
    pub fn core(mut self, id: Value<'c, 'v>) -> Self {
        self.core_id = Some(id);
        self
    }

    /// The target subcore.
    pub fn subcore(mut self, id: Value<'c, 'v>) -> Self {
        self.subcore_id = Some(id);
        self
    }

    /// The attribute `priority` (jaxlib's default 0).
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = Some(priority);
        self
    }

    /// The attribute `strict_ordering` (jaxlib's default `false`).
    pub fn strict_ordering(mut self, value: bool) -> Self {
        self.strict_ordering = Some(value);
        self
    }

    /// Builds the op.
    pub fn build(self, ctx: &'c MlirContext, location: Location<'c>) -> Operation<'c> {
        super::ops::enqueue_dma(
            ctx,
            self.source,
            self.source_semaphore,
            self.target,
            Some(self.target_semaphore),
            self.device_id,
            self.core_id,
            self.subcore_id,
            self.priority,
            self.strict_ordering,
            location,
        )
    }
}

/// `tpu.wait_dma`: waits for the DMA of `source` into `target` on
/// `target_semaphore` (`wait_target`, the default: Pallas's `copy.wait()`
/// of a local copy and `wait_recv()`), or on the source semaphore
/// (`.wait_target(false)`: `wait_send()`).
#[derive(Clone, Debug)]
pub struct WaitDma<'c, 'v> {
    dma: EnqueueDma<'c, 'v>,
    wait_target: bool,
}

impl<'c, 'v> WaitDma<'c, 'v> {
    /// Waits for `source` into `target` on `target_semaphore`.
    pub fn new(
        source: Value<'c, 'v>,
        target: Value<'c, 'v>,
        target_semaphore: Value<'c, 'v>,
    ) -> Self {
        Self {
            dma: EnqueueDma::new(source, target, target_semaphore),
            wait_target: true,
        }
    }

    /// The source semaphore (a remote copy's send semaphore).
    pub fn source_semaphore(mut self, sem: Value<'c, 'v>) -> Self {
        self.dma = self.dma.source_semaphore(sem);
        self
    }

    /// The device of a remote copy (a logical device id, `i32`).
    pub fn device(mut self, id: Value<'c, 'v>) -> Self {
        self.dma = self.dma.device(id);
        self
    }

    /// The core of the copy.
    pub fn core(mut self, id: Value<'c, 'v>) -> Self {
        self.dma = self.dma.core(id);
        self
    }

    /// The subcore of the copy.
    pub fn subcore(mut self, id: Value<'c, 'v>) -> Self {
        self.dma = self.dma.subcore(id);
        self
    }

    /// The attribute `wait_target`: `true` (default) waits for the target's
    /// bytes, `false` for the source's (a remote copy's send).
    pub fn wait_target(mut self, value: bool) -> Self {
        self.wait_target = value;
        self
    }

    /// The attribute `priority` (jaxlib's default 0).
    pub fn priority(mut self, priority: i32) -> Self {
        self.dma = self.dma.priority(priority);
        self
    }

    /// The attribute `strict_ordering` (jaxlib's default `false`).
    pub fn strict_ordering(mut self, value: bool) -> Self {
        self.dma = self.dma.strict_ordering(value);
        self
    }

    /// Builds the op.
    pub fn build(self, ctx: &'c MlirContext, location: Location<'c>) -> Operation<'c> {
        let d = self.dma;
        super::ops::wait_dma(
            ctx,
            d.source,
            d.source_semaphore,
            d.target,
            Some(d.target_semaphore),
            d.device_id,
            d.core_id,
            d.subcore_id,
            self.wait_target,
            d.priority,
            d.strict_ordering,
            location,
        )
    }
}

/// `tpu.sem_signal`: adds `amount` (`i32`) to a semaphore, of this device
/// or (`.device(id)`) of another (`pl.semaphore_signal(sem, n,
/// device_id=…)`).
#[derive(Clone, Debug)]
pub struct SemSignal<'c, 'v> {
    semaphore: Value<'c, 'v>,
    amount: Value<'c, 'v>,
    device_id: Option<Value<'c, 'v>>,
    core_id: Option<Value<'c, 'v>>,
    subcore_id: Option<Value<'c, 'v>>,
}

impl<'c, 'v> SemSignal<'c, 'v> {
    /// Signals `semaphore` by `amount`.
    pub fn new(semaphore: Value<'c, 'v>, amount: Value<'c, 'v>) -> Self {
        Self {
            semaphore,
            amount,
            device_id: None,
            core_id: None,
            subcore_id: None,
        }
    }

    /// The device whose semaphore is signalled (a logical device id).
    pub fn device(mut self, id: Value<'c, 'v>) -> Self {
        self.device_id = Some(id);
        self
    }

    /// The core whose semaphore is signalled.
    pub fn core(mut self, id: Value<'c, 'v>) -> Self {
        self.core_id = Some(id);
        self
    }

    /// The subcore whose semaphore is signalled.
    pub fn subcore(mut self, id: Value<'c, 'v>) -> Self {
        self.subcore_id = Some(id);
        self
    }

    /// Builds the op.
    pub fn build(self, ctx: &'c MlirContext, location: Location<'c>) -> Operation<'c> {
        super::ops::sem_signal(
            ctx,
            self.semaphore,
            self.amount,
            self.device_id,
            self.core_id,
            self.subcore_id,
            location,
        )
    }
}
