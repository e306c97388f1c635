//! tpu-custom-call as an `mlir-opt` plugin: the `tpu`, `stablehlo` and
//! `tpu_custom_call` dialects and the `tpu-custom-call-lower` /
//! `tpu-custom-call-verify` passes, for
//!
//! ```text
//! mlir-opt-22 --load-dialect-plugin=P --load-pass-plugin=P \
//!   --pass-pipeline='builtin.module(tpu-custom-call-lower)' model.mlir
//! ```
//!
//! where `P` is the library `make plugin` builds (`tpu-custom-call plugin-path`
//! prints it). The library links the host's MLIR (`libMLIR.so.22.1`) as a
//! shared library; see docs/architecture.md, "The mlir-opt plugin". A host
//! with another MLIR is refused at load time, with a message saying why.

use std::ffi::{c_char, c_void};

// The crate's passes, dialects and C++ (its `#[no_mangle]` pass bodies and the
// functions declared below) are linked only if the crate is named.
extern crate tpu_custom_call;

/// The plugin API version of MLIR 22 (`MLIR_PLUGIN_API_VERSION`).
const API_VERSION: u32 = 1;

/// An API version no host accepts: a refused load.
const REFUSED: u32 = 0;

const NAME: &[u8] = b"tpu-custom-call\0";
const VERSION: &[u8] = concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes();

unsafe extern "C" {
    fn tcc_plugin_register_dialects(registry: *mut c_void);
    fn tcc_plugin_host_problem(message: *mut c_char, size: usize) -> bool;
    fn tcc_register_passes();
}

/// `mlir::DialectPluginLibraryInfo`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register: unsafe extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register: unsafe extern "C" fn(),
}

/// The API version to report: [`API_VERSION`] if the host runs the MLIR
/// this plugin links, otherwise [`REFUSED`] after saying why on stderr (the
/// host then reports a failed load and goes on without the plugin).
fn host_api_version() -> u32 {
    let mut message = [0 as c_char; 1024];
    // SAFETY: the buffer and its size match; the C++ side NUL-terminates.
    if unsafe { tcc_plugin_host_problem(message.as_mut_ptr(), message.len()) } {
        // SAFETY: NUL-terminated by snprintf.
        let text = unsafe { std::ffi::CStr::from_ptr(message.as_ptr()) };
        eprintln!("{}", text.to_string_lossy());
        return REFUSED;
    }
    API_VERSION
}

unsafe extern "C" fn register_dialects(registry: *mut c_void) {
    // SAFETY: the host hands its `mlir::DialectRegistry *`.
    unsafe { tcc_plugin_register_dialects(registry) }
}

unsafe extern "C" fn register_passes() {
    // The host has registered MLIR's own passes: only ours are added.
    // SAFETY: called once by the host, on its pass registry.
    unsafe { tcc_register_passes() }
}

/// The entry point `--load-dialect-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: host_api_version(),
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register: register_dialects,
    }
}

/// The entry point `--load-pass-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: host_api_version(),
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register: register_passes,
    }
}
