//! The `main` of every fuzz target.
//!
//! Targets are not `#![no_main]` as cargo-fuzz makes them: then `main` comes
//! from whichever static archive defines it first, and the MLIR archives
//! mlir-sys links (LLVM 22) include `mlir-opt`'s `main`, which parses
//! libFuzzer's flags as MLIR options and exits. Each target defines its own
//! `main` calling this, which runs libFuzzer through `LLVMFuzzerRunDriver`.

use std::ffi::{CString, c_char, c_int};
use std::os::unix::ffi::OsStringExt as _;

unsafe extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
}

extern "C" fn test_one_input(data: *const u8, size: usize) -> c_int {
    // SAFETY: libFuzzer passes a buffer of `size` readable bytes; this is the
    // entry point libfuzzer-sys exports as `LLVMFuzzerTestOneInput`.
    unsafe { libfuzzer_sys::test_input_wrap(data, size) }
}

/// Runs libFuzzer with the process arguments and the target's
/// `fuzz_target!` body; never returns.
pub fn main() -> ! {
    let args: Vec<CString> = std::env::args_os()
        .map(|a| CString::new(a.into_vec()).expect("argument with a NUL byte"))
        .collect();
    let mut ptrs: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr().cast_mut()).collect();
    ptrs.push(std::ptr::null_mut());
    let mut argc = c_int::try_from(args.len()).expect("too many arguments");
    let mut argv = ptrs.as_mut_ptr();
    // SAFETY: argc/argv describe NUL-terminated strings that outlive the call
    // (libFuzzer never returns from the driver but through `exit`).
    let code = unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, test_one_input) };
    std::process::exit(code)
}
