//! Guarded buffers for compiled code (the `jit` fuzz target; docs/jit.md,
//! "Memory safety"). Compiled kernels are not instrumented by
//! AddressSanitizer, so with guarding on ([`set_guard_pages`] or
//! `TCC_JIT_GUARD=1`), each buffer handed to a compiled body is copied into
//! a fresh mapping laid out as
//!
//! ```text
//! [ guard page | canary bytes ... | the buffer ] [ guard page ]
//! ```
//!
//! the buffer ending exactly where the trailing guard page starts (its
//! start is then aligned to the element size, all the compiled code
//! assumes). A read or write past its end, or more than the slack before
//! its start, faults on a guard page (`PROT_NONE`): SIGSEGV, which
//! libFuzzer reports as a crash. A write into the slack before the buffer
//! changes a canary byte, found after the call (a panic naming the buffer).
//! The buffer is copied back into the machine's after the call. Linux only
//! (elsewhere guarding is a no-op).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not decided yet (the environment decides), 1: off, 2: on.
static GUARD: AtomicU8 = AtomicU8::new(0);

/// Turns guarded buffers on or off for every later compiled call of this
/// process (the `jit` fuzz target turns them on). Default: off, or on when
/// the environment variable `TCC_JIT_GUARD` is `1`.
pub fn set_guard_pages(on: bool) {
    GUARD.store(if on { 2 } else { 1 }, Ordering::Relaxed);
}

/// Whether compiled calls guard their buffers now.
pub(crate) fn enabled() -> bool {
    match GUARD.load(Ordering::Relaxed) {
        0 => {
            static ENV: OnceLock<bool> = OnceLock::new();
            *ENV.get_or_init(|| std::env::var("TCC_JIT_GUARD").is_ok_and(|v| v == "1"))
        }
        g => g == 2,
    }
}

/// The byte every unused byte of a guarded mapping holds.
const CANARY: u8 = 0xA5;

#[cfg(target_os = "linux")]
mod sys {
    use std::ffi::c_void;
    unsafe extern "C" {
        pub fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        pub fn mprotect(addr: *mut c_void, len: usize, prot: i32) -> i32;
        pub fn munmap(addr: *mut c_void, len: usize) -> i32;
        pub fn sysconf(name: i32) -> i64;
    }
    pub const PROT_NONE: i32 = 0;
    pub const PROT_RW: i32 = 3;
    pub const MAP_PRIVATE_ANONYMOUS: i32 = 0x02 | 0x20;
    pub const SC_PAGESIZE: i32 = 30;
}

/// One buffer copied into a guarded mapping.
pub(crate) struct Guarded {
    map: *mut u8,
    map_len: usize,
    /// Where the buffer starts in the mapping, and its length in bytes.
    data: *mut u8,
    len: usize,
    /// Where the slack (canary bytes) starts: after the leading guard page.
    slack: *mut u8,
}

impl Guarded {
    /// Copies `len` bytes at `src` into a new guarded mapping; `None` if
    /// the mapping cannot be made (or not on Linux).
    ///
    /// # Safety
    /// `src` points to `len` readable bytes.
    #[cfg(target_os = "linux")]
    pub(crate) unsafe fn new(src: *const u8, len: usize) -> Option<Guarded> {
        // SAFETY: plain system calls on a mapping owned here.
        unsafe {
            let page = usize::try_from(sys::sysconf(sys::SC_PAGESIZE))
                .ok()
                .filter(|&p| p > 0)?;
            // One page of slack at least, then the buffer rounded up to pages.
            let body = len.div_ceil(page) * page + page;
            let map_len = body + 2 * page;
            let map = sys::mmap(
                std::ptr::null_mut(),
                map_len,
                sys::PROT_RW,
                sys::MAP_PRIVATE_ANONYMOUS,
                -1,
                0,
            );
            if map as isize == -1 || map.is_null() {
                return None;
            }
            let map = map.cast::<u8>();
            let slack = map.add(page);
            let tail = slack.add(body);
            if sys::mprotect(map.cast(), page, sys::PROT_NONE) != 0
                || sys::mprotect(tail.cast(), page, sys::PROT_NONE) != 0
            {
                sys::munmap(map.cast(), map_len);
                return None;
            }
            std::ptr::write_bytes(slack, CANARY, body);
            let data = tail.sub(len);
            std::ptr::copy_nonoverlapping(src, data, len);
            Some(Guarded {
                map,
                map_len,
                data,
                len,
                slack,
            })
        }
    }

    /// Not on Linux: no guarding.
    ///
    /// # Safety
    /// None needed.
    #[cfg(not(target_os = "linux"))]
    pub(crate) unsafe fn new(_src: *const u8, _len: usize) -> Option<Guarded> {
        None
    }

    /// The buffer's address inside the mapping.
    pub(crate) fn ptr(&self) -> *mut u8 {
        self.data
    }

    /// Checks the canary bytes, copies the buffer back to `dst` and unmaps:
    /// `Err` names how many canary bytes changed (a write before the
    /// buffer's start).
    ///
    /// # Safety
    /// `dst` points to `len` writable bytes (the buffer this was made from).
    pub(crate) unsafe fn finish(self, dst: *mut u8) -> Result<(), String> {
        // SAFETY: the slack and data lie inside the live mapping; `dst` per
        // the caller.
        unsafe {
            let slack_len = self.data.offset_from(self.slack) as usize;
            let slack = std::slice::from_raw_parts(self.slack, slack_len);
            let bad = slack.iter().filter(|&&b| b != CANARY).count();
            let last = slack.iter().rposition(|&b| b != CANARY);
            std::ptr::copy_nonoverlapping(self.data, dst, self.len);
            #[cfg(target_os = "linux")]
            sys::munmap(self.map.cast(), self.map_len);
            if bad > 0 {
                let before = slack_len - last.unwrap_or(0);
                return Err(format!(
                    "compiled code wrote {bad} byte(s) before the start of a buffer \
                     of {} bytes (up to {before} bytes before it)",
                    self.len
                ));
            }
        }
        Ok(())
    }
}
