//! The few pieces of the PJRT C API (`xla/pjrt/c/pjrt_c_api.h`) that compiling
//! for a topology needs, written by hand, and a safe wrapper over them.
//!
//! Layouts follow the header of PJRT API 0.113–0.116 (libtpu 0.0.50.1 reports
//! 0.116): every argument struct starts with `struct_size` and
//! `extension_start`, and the plugin checks `struct_size` against the size it
//! was built with, so each struct here ends at the last field of that header.
//! The `PJRT_Api` function table only ever grows at its end; the slots before
//! the ones used are kept as opaque pointers in their header order.
//!
//! This module loads libtpu.so with `dlopen` and is the only code of the crate
//! that touches it. It runs in the worker process (see [`super::worker`]):
//! libtpu aborts its process on some inputs.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::Path;
use std::ptr;

/// `PJRT_Error` (opaque).
#[repr(C)]
pub(crate) struct PjrtError {
    _private: [u8; 0],
}

/// `PJRT_TopologyDescription` (opaque).
#[repr(C)]
struct PjrtTopology {
    _private: [u8; 0],
}

/// `PJRT_Executable` (opaque).
#[repr(C)]
struct PjrtExecutable {
    _private: [u8; 0],
}

/// `PJRT_DeviceDescription` (opaque).
#[repr(C)]
struct PjrtDeviceDescription {
    _private: [u8; 0],
}

/// `PJRT_Api_Version`.
#[repr(C)]
struct ApiVersion {
    struct_size: usize,
    extension_start: *mut c_void,
    major_version: c_int,
    minor_version: c_int,
}

type Fn<A> = unsafe extern "C" fn(*mut A) -> *mut PjrtError;
type VoidFn<A> = unsafe extern "C" fn(*mut A);
type Slot = *const c_void;

/// `PJRT_Api`, up to `PJRT_Executable_GetCompiledMemoryStats` (slot 96 of the
/// table); the table of a newer plugin continues after it.
#[repr(C)]
struct Api {
    struct_size: usize,
    extension_start: *mut c_void,
    pjrt_api_version: ApiVersion,
    error_destroy: VoidFn<ErrorDestroyArgs>,
    error_message: VoidFn<ErrorMessageArgs>,
    /// `PJRT_Error_GetCode`.
    _error_get_code: Slot,
    plugin_initialize: Fn<PluginInitializeArgs>,
    /// `PJRT_Plugin_Attributes`, `PJRT_Event_*` (5), `PJRT_Client_*` (13).
    _plugin_to_client: [Slot; 19],
    device_description_id: Fn<DeviceDescriptionIdArgs>,
    /// `PJRT_DeviceDescription_*` (5), `PJRT_Device_*` (6), `PJRT_Memory_*` (5).
    _device_to_memory: [Slot; 16],
    executable_destroy: Fn<ExecutableDestroyArgs>,
    /// `PJRT_Executable_Name` … `_NumOutputs` (4).
    _executable_name_to_outputs: [Slot; 4],
    executable_size_of_generated_code: Fn<SizeOfGeneratedCodeArgs>,
    /// `PJRT_Executable_GetCostAnalysis` … `_Serialize` (4),
    /// `PJRT_LoadedExecutable_*` (8), `PJRT_Buffer_*` (19),
    /// `PJRT_CopyToDeviceStream_*` (5).
    _cost_to_stream: [Slot; 36],
    topology_create: Fn<TopologyCreateArgs>,
    topology_destroy: Fn<TopologyDestroyArgs>,
    /// `PJRT_TopologyDescription_PlatformName`, `_PlatformVersion`.
    _topology_platform: [Slot; 2],
    topology_get_device_descriptions: Fn<TopologyDeviceDescriptionsArgs>,
    /// `PJRT_TopologyDescription_Serialize`, `_Attributes`.
    _topology_serialize: [Slot; 2],
    compile: Fn<CompileArgs>,
    /// `PJRT_Executable_OutputElementTypes`, `_OutputDimensions`,
    /// `PJRT_Buffer_CopyToMemory`, `PJRT_Client_CreateViewOfDeviceBuffer`,
    /// `PJRT_Executable_Fingerprint`, `PJRT_Client_TopologyDescription`.
    _output_types_to_client_topology: [Slot; 6],
    executable_get_compiled_memory_stats: Fn<CompiledMemoryStatsArgs>,
}

#[repr(C)]
struct ErrorDestroyArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    error: *mut PjrtError,
}

#[repr(C)]
struct ErrorMessageArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    error: *const PjrtError,
    message: *const c_char,
    message_size: usize,
}

#[repr(C)]
struct PluginInitializeArgs {
    struct_size: usize,
    extension_start: *mut c_void,
}

/// `PJRT_NamedValue_Type`.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(dead_code)] // the discriminants are the header's, not all are built
enum NamedValueType {
    String = 0,
    Int64 = 1,
    Int64List = 2,
    Float = 3,
    Bool = 4,
}

/// `PJRT_NamedValue` (the anonymous union is one pointer-sized slot).
#[repr(C)]
struct NamedValue {
    struct_size: usize,
    extension_start: *mut c_void,
    name: *const c_char,
    name_size: usize,
    kind: NamedValueType,
    value: usize,
    value_size: usize,
}

#[repr(C)]
struct TopologyCreateArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    topology_name: *const c_char,
    topology_name_size: usize,
    create_options: *const NamedValue,
    num_options: usize,
    topology: *mut PjrtTopology,
}

#[repr(C)]
struct TopologyDestroyArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    topology: *mut PjrtTopology,
}

#[repr(C)]
struct TopologyDeviceDescriptionsArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    topology: *const PjrtTopology,
    descriptions: *const *mut PjrtDeviceDescription,
    num_descriptions: usize,
}

#[repr(C)]
struct DeviceDescriptionIdArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    device_description: *mut PjrtDeviceDescription,
    id: c_int,
}

/// `PJRT_Program`.
#[repr(C)]
struct Program {
    struct_size: usize,
    extension_start: *mut c_void,
    code: *mut c_char,
    code_size: usize,
    format: *const c_char,
    format_size: usize,
}

#[repr(C)]
struct CompileArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    topology: *const PjrtTopology,
    program: *const Program,
    compile_options: *const c_char,
    compile_options_size: usize,
    client: *mut c_void,
    executable: *mut PjrtExecutable,
}

#[repr(C)]
struct ExecutableDestroyArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    executable: *mut PjrtExecutable,
}

#[repr(C)]
struct SizeOfGeneratedCodeArgs {
    struct_size: usize,
    extension_start: *mut c_void,
    executable: *mut PjrtExecutable,
    size_in_bytes: i64,
}

/// `PJRT_Executable_GetCompiledMemoryStats_Args` (mirrors
/// `xla::CompiledMemoryStats`).
#[repr(C)]
#[derive(Default)]
struct CompiledMemoryStatsArgs {
    struct_size: usize,
    extension_start: usize,
    executable: usize,
    generated_code_size_in_bytes: i64,
    argument_size_in_bytes: i64,
    output_size_in_bytes: i64,
    alias_size_in_bytes: i64,
    temp_size_in_bytes: i64,
    host_generated_code_size_in_bytes: i64,
    host_argument_size_in_bytes: i64,
    host_output_size_in_bytes: i64,
    host_alias_size_in_bytes: i64,
    host_temp_size_in_bytes: i64,
    peak_memory_in_bytes: i64,
    total_size_in_bytes: i64,
    total_allocation_bytes: i64,
    indefinite_allocations: i64,
    peak_unpadded_heap_bytes: i64,
}

/// Device memory statistics of one compiled executable, as PJRT reports them
/// (`xla::CompiledMemoryStats`), in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// `SizeOfGeneratedCodeInBytes`: the executable's code.
    pub generated_code_size: i64,
    /// Parameters in device memory (HBM).
    pub argument_size: i64,
    /// Results in device memory.
    pub output_size: i64,
    /// Bytes of parameters reused for results.
    pub alias_size: i64,
    /// Temporary buffers.
    pub temp_size: i64,
    /// Peak device memory of one execution.
    pub peak_memory: i64,
    /// Total device memory.
    pub total_size: i64,
}

/// A loaded libtpu with its PJRT table initialized.
pub(crate) struct Plugin {
    api: &'static Api,
    /// `major.minor` of the plugin's PJRT API.
    pub(crate) version: (i32, i32),
}

/// A topology description made by the plugin.
pub(crate) struct Topology<'p> {
    plugin: &'p Plugin,
    raw: *mut PjrtTopology,
}

impl Plugin {
    /// `dlopen`s libtpu.so, finds `GetPjrtApi`, checks the table is large
    /// enough, and runs `PJRT_Plugin_Initialize`.
    pub(crate) fn load(path: &Path) -> Result<Plugin, String> {
        let cpath = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("{}: the path contains a NUL byte", path.display()))?;
        // SAFETY: dlopen with a valid C string; the handle is never closed
        // (libtpu does not support being unloaded), so it lives as long as
        // the process and `'static` references into it are sound.
        let handle = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(format!("cannot load {}: {}", path.display(), dl_error()));
        }
        // SAFETY: dlsym on a live handle with a valid C string.
        let symbol = unsafe { libc::dlsym(handle, c"GetPjrtApi".as_ptr()) };
        if symbol.is_null() {
            return Err(format!(
                "{} is not a PJRT plugin (no GetPjrtApi): {}",
                path.display(),
                dl_error()
            ));
        }
        // SAFETY: GetPjrtApi is `const PJRT_Api* GetPjrtApi(void)` in every
        // PJRT plugin.
        let get_api: unsafe extern "C" fn() -> *const Api = unsafe { std::mem::transmute(symbol) };
        // SAFETY: calling the plugin's entry point; it returns a pointer to a
        // static table (or null).
        let api = unsafe { get_api() };
        if api.is_null() {
            return Err(format!("{}: GetPjrtApi returned no API", path.display()));
        }
        // SAFETY: the plugin's table is static and at least as large as its
        // `struct_size`, checked against our prefix before any slot is read.
        let api: &'static Api = unsafe { &*api };
        if api.struct_size < std::mem::size_of::<Api>() {
            return Err(format!(
                "{}: its PJRT API table has {} bytes, fewer than the {} of PJRT 0.113+; \
                 use libtpu 0.0.50.1",
                path.display(),
                api.struct_size,
                std::mem::size_of::<Api>()
            ));
        }
        if api.pjrt_api_version.major_version != 0 {
            return Err(format!(
                "{}: PJRT API {}.{}, this binding knows 0.x; use libtpu 0.0.50.1",
                path.display(),
                api.pjrt_api_version.major_version,
                api.pjrt_api_version.minor_version
            ));
        }
        let plugin = Plugin {
            api,
            version: (
                api.pjrt_api_version.major_version,
                api.pjrt_api_version.minor_version,
            ),
        };
        let mut args = PluginInitializeArgs {
            struct_size: std::mem::size_of::<PluginInitializeArgs>(),
            extension_start: ptr::null_mut(),
        };
        // SAFETY: a correctly sized argument struct for this slot.
        plugin.check(unsafe { (api.plugin_initialize)(&mut args) })?;
        Ok(plugin)
    }

    /// Turns a returned `PJRT_Error*` into its message (and frees it).
    fn check(&self, error: *mut PjrtError) -> Result<(), String> {
        if error.is_null() {
            return Ok(());
        }
        let mut args = ErrorMessageArgs {
            struct_size: std::mem::size_of::<ErrorMessageArgs>(),
            extension_start: ptr::null_mut(),
            error,
            message: ptr::null(),
            message_size: 0,
        };
        // SAFETY: `error` is a live error the plugin returned.
        unsafe { (self.api.error_message)(&mut args) };
        let message = if args.message.is_null() {
            String::from("(libtpu gave no message)")
        } else {
            // SAFETY: the plugin's message has `message_size` bytes and lives
            // as long as `error`, which is destroyed only below.
            let bytes =
                unsafe { crate::ffi::foreign_slice(args.message.cast::<u8>(), args.message_size) };
            String::from_utf8_lossy(bytes).into_owned()
        };
        let mut destroy = ErrorDestroyArgs {
            struct_size: std::mem::size_of::<ErrorDestroyArgs>(),
            extension_start: ptr::null_mut(),
            error,
        };
        // SAFETY: destroys the error exactly once.
        unsafe { (self.api.error_destroy)(&mut destroy) };
        Err(message)
    }

    /// `PJRT_TopologyDescription_Create` with the compile-only create options
    /// (`chips_per_host_bounds = [2, 2, 1]`, `num_slices = 1`,
    /// `chip_config_name = "default"`).
    pub(crate) fn topology(&self, name: &str) -> Result<Topology<'_>, String> {
        let bounds: [i64; 3] = [2, 2, 1];
        let default = "default";
        let named = |name: &'static CStr, kind, value: usize, value_size| NamedValue {
            struct_size: std::mem::size_of::<NamedValue>(),
            extension_start: ptr::null_mut(),
            name: name.as_ptr(),
            name_size: name.to_bytes().len(),
            kind,
            value,
            value_size,
        };
        let options = [
            named(
                c"chips_per_host_bounds",
                NamedValueType::Int64List,
                bounds.as_ptr() as usize,
                bounds.len(),
            ),
            named(c"num_slices", NamedValueType::Int64, 1, 1),
            named(
                c"chip_config_name",
                NamedValueType::String,
                default.as_ptr() as usize,
                default.len(),
            ),
        ];
        let mut args = TopologyCreateArgs {
            struct_size: std::mem::size_of::<TopologyCreateArgs>(),
            extension_start: ptr::null_mut(),
            topology_name: name.as_ptr().cast(),
            topology_name_size: name.len(),
            create_options: options.as_ptr(),
            num_options: options.len(),
            topology: ptr::null_mut(),
        };
        // SAFETY: every pointer in `args` and `options` outlives the call.
        self.check(unsafe { (self.api.topology_create)(&mut args) })?;
        Ok(Topology {
            plugin: self,
            raw: args.topology,
        })
    }
}

impl Topology<'_> {
    /// The global ids of the topology's devices, in the plugin's order.
    pub(crate) fn device_ids(&self) -> Result<Vec<i64>, String> {
        let api = self.plugin.api;
        let mut args = TopologyDeviceDescriptionsArgs {
            struct_size: std::mem::size_of::<TopologyDeviceDescriptionsArgs>(),
            extension_start: ptr::null_mut(),
            topology: self.raw,
            descriptions: ptr::null(),
            num_descriptions: 0,
        };
        // SAFETY: a live topology and a correctly sized argument struct.
        self.plugin
            .check(unsafe { (api.topology_get_device_descriptions)(&mut args) })?;
        if args.descriptions.is_null() {
            return Ok(Vec::new());
        }
        // SAFETY: the plugin returned `num_descriptions` pointers that live as
        // long as the topology.
        let descriptions =
            unsafe { crate::ffi::foreign_slice(args.descriptions, args.num_descriptions) };
        descriptions
            .iter()
            .map(|&description| {
                let mut id = DeviceDescriptionIdArgs {
                    struct_size: std::mem::size_of::<DeviceDescriptionIdArgs>(),
                    extension_start: ptr::null_mut(),
                    device_description: description,
                    id: 0,
                };
                // SAFETY: a description of the live topology.
                self.plugin
                    .check(unsafe { (api.device_description_id)(&mut id) })?;
                Ok(i64::from(id.id))
            })
            .collect()
    }

    /// `PJRT_Compile` of an MLIR module (text or bytecode) with serialized
    /// `CompileOptionsProto` bytes, for this topology and no client; the
    /// executable's memory statistics, or libtpu's message.
    pub(crate) fn compile(&self, module: &[u8], options: &[u8]) -> Result<MemoryStats, String> {
        let api = self.plugin.api;
        let format = "mlir";
        let program = Program {
            struct_size: std::mem::size_of::<Program>(),
            extension_start: ptr::null_mut(),
            // The plugin only reads `code` when compiling.
            code: module.as_ptr().cast_mut().cast(),
            code_size: module.len(),
            format: format.as_ptr().cast(),
            format_size: format.len(),
        };
        let mut args = CompileArgs {
            struct_size: std::mem::size_of::<CompileArgs>(),
            extension_start: ptr::null_mut(),
            topology: self.raw,
            program: &program,
            compile_options: options.as_ptr().cast(),
            compile_options_size: options.len(),
            client: ptr::null_mut(),
            executable: ptr::null_mut(),
        };
        // SAFETY: `module`, `options` and `program` outlive the call.
        self.plugin.check(unsafe { (api.compile)(&mut args) })?;
        let executable = args.executable;
        let stats = self.stats(executable);
        let mut destroy = ExecutableDestroyArgs {
            struct_size: std::mem::size_of::<ExecutableDestroyArgs>(),
            extension_start: ptr::null_mut(),
            executable,
        };
        // SAFETY: destroys the executable made above exactly once.
        let _ = self
            .plugin
            .check(unsafe { (api.executable_destroy)(&mut destroy) });
        stats
    }

    fn stats(&self, executable: *mut PjrtExecutable) -> Result<MemoryStats, String> {
        let api = self.plugin.api;
        let mut code = SizeOfGeneratedCodeArgs {
            struct_size: std::mem::size_of::<SizeOfGeneratedCodeArgs>(),
            extension_start: ptr::null_mut(),
            executable,
            size_in_bytes: 0,
        };
        // SAFETY: a live executable and a correctly sized argument struct.
        self.plugin
            .check(unsafe { (api.executable_size_of_generated_code)(&mut code) })?;
        let mut memory = CompiledMemoryStatsArgs {
            struct_size: std::mem::size_of::<CompiledMemoryStatsArgs>(),
            executable: executable as usize,
            ..CompiledMemoryStatsArgs::default()
        };
        // SAFETY: a live executable and a correctly sized argument struct.
        self.plugin
            .check(unsafe { (api.executable_get_compiled_memory_stats)(&mut memory) })?;
        Ok(MemoryStats {
            generated_code_size: code.size_in_bytes,
            argument_size: memory.argument_size_in_bytes,
            output_size: memory.output_size_in_bytes,
            alias_size: memory.alias_size_in_bytes,
            temp_size: memory.temp_size_in_bytes,
            peak_memory: memory.peak_memory_in_bytes,
            total_size: memory.total_size_in_bytes,
        })
    }
}

impl Drop for Topology<'_> {
    fn drop(&mut self) {
        let mut args = TopologyDestroyArgs {
            struct_size: std::mem::size_of::<TopologyDestroyArgs>(),
            extension_start: ptr::null_mut(),
            topology: self.raw,
        };
        // SAFETY: destroys the topology made by `Plugin::topology` once.
        let _ = self
            .plugin
            .check(unsafe { (self.plugin.api.topology_destroy)(&mut args) });
    }
}

/// The last `dlerror()` text.
fn dl_error() -> String {
    // SAFETY: dlerror returns null or a C string valid until the next dl call.
    let message = unsafe { libc::dlerror() };
    if message.is_null() {
        String::from("unknown dlopen error")
    } else {
        // SAFETY: non-null C string from dlerror.
        unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Offsets and sizes from the C header (x86-64 / aarch64 LP64).
    #[test]
    fn layouts_match_the_header() {
        assert_eq!(offset_of!(Api, error_destroy), 40);
        // Slot index * 8 + 40.
        assert_eq!(offset_of!(Api, plugin_initialize), 40 + 3 * 8);
        assert_eq!(offset_of!(Api, device_description_id), 40 + 23 * 8);
        assert_eq!(offset_of!(Api, executable_destroy), 40 + 40 * 8);
        assert_eq!(
            offset_of!(Api, executable_size_of_generated_code),
            40 + 45 * 8
        );
        assert_eq!(offset_of!(Api, topology_create), 40 + 82 * 8);
        assert_eq!(
            offset_of!(Api, topology_get_device_descriptions),
            40 + 86 * 8
        );
        assert_eq!(offset_of!(Api, compile), 40 + 89 * 8);
        assert_eq!(
            offset_of!(Api, executable_get_compiled_memory_stats),
            40 + 96 * 8
        );
        assert_eq!(size_of::<NamedValue>(), 56);
        assert_eq!(size_of::<CompileArgs>(), 64);
        assert_eq!(size_of::<CompiledMemoryStatsArgs>(), 24 + 15 * 8);
    }
}
