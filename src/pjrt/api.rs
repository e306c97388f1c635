//! The pieces of the PJRT C API (`xla/pjrt/c/pjrt_c_api.h`) this crate
//! uses, written by hand, and the loaded plugin they are called through:
//! libtpu (compiling for a topology, in the compile worker) and the XLA CPU
//! plugin (clients, buffers, executions, in process).
//!
//! Layouts follow the header the CPU plugin `xla-cpu-pjrt` 0.0.1 ships (PJRT
//! API 0.81); libtpu 0.0.50.1 reports 0.116, whose structs are the same up
//! to the fields used here. Every argument struct starts with `struct_size`
//! and `extension_start`, structs only ever grow at their end, and a plugin
//! accepts a `struct_size` at least as large as the one it was built with,
//! so each struct here ends at the last field of the 0.81 header. The
//! `PJRT_Api` function table also only grows at its end: it is declared
//! here up to `PJRT_Executable_GetCompiledMemoryStats` (slot 96), every slot
//! named in header order, and a plugin whose table is shorter is refused
//! when it loads. A slot a plugin leaves null is an error when called, not
//! a crash.
//!
//! This module `dlopen`s the plugins and is the only code of the crate
//! that calls into them. Plugins are loaded once per path and never
//! unloaded (neither libtpu nor XLA supports being unloaded).
// Buffers, layouts and the FFI extension serve only the in-process CPU client,
// which needs the executor (`exec`): with `pjrt` alone they are unused.
#![cfg_attr(not(feature = "exec"), allow(dead_code))]

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::{Mutex, OnceLock};

/// Declares opaque PJRT handle types.
macro_rules! opaque {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[repr(C)]
        pub(crate) struct $name {
            _private: [u8; 0],
        }
    )*};
}

opaque! {
    /// `PJRT_Error`.
    RawError;
    /// `PJRT_TopologyDescription`.
    RawTopology;
    /// `PJRT_Executable`.
    RawExecutable;
    /// `PJRT_LoadedExecutable`.
    RawLoadedExecutable;
    /// `PJRT_DeviceDescription`.
    RawDeviceDescription;
    /// `PJRT_Device`.
    RawDevice;
    /// `PJRT_Client`.
    RawClient;
    /// `PJRT_Buffer`.
    RawBuffer;
    /// `PJRT_Event`.
    RawEvent;
}

/// `PJRT_Api_Version`.
#[repr(C)]
pub(crate) struct ApiVersion {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) major_version: c_int,
    pub(crate) minor_version: c_int,
}

/// `PJRT_Extension_Base`: the head of every extension of the table.
#[repr(C)]
pub(crate) struct ExtensionBase {
    pub(crate) struct_size: usize,
    pub(crate) kind: c_int,
    pub(crate) next: *mut ExtensionBase,
}

/// `PJRT_Extension_Type_FFI`.
pub(crate) const EXTENSION_FFI: c_int = 5;

/// A slot of the table: a function of one argument struct, null when the
/// plugin does not implement it.
pub(crate) type Fn<A> = Option<unsafe extern "C" fn(*mut A) -> *mut RawError>;
type VoidFn<A> = Option<unsafe extern "C" fn(*mut A)>;
type Slot = *const c_void;

/// `PJRT_Api`, slots 0–96 in header order.
#[repr(C)]
pub(crate) struct Api {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut ExtensionBase,
    pub(crate) pjrt_api_version: ApiVersion,
    // 0
    pub(crate) error_destroy: VoidFn<ErrorDestroyArgs>,
    pub(crate) error_message: VoidFn<ErrorMessageArgs>,
    _error_get_code: Slot,
    pub(crate) plugin_initialize: Fn<PluginInitializeArgs>,
    _plugin_attributes: Slot,
    // 5
    pub(crate) event_destroy: Fn<EventArgs>,
    _event_is_ready: Slot,
    _event_error: Slot,
    pub(crate) event_await: Fn<EventArgs>,
    _event_on_ready: Slot,
    // 10
    pub(crate) client_create: Fn<ClientCreateArgs>,
    pub(crate) client_destroy: Fn<ClientDestroyArgs>,
    pub(crate) client_platform_name: Fn<ClientPlatformNameArgs>,
    _client_process_index: Slot,
    _client_platform_version: Slot,
    // 15
    _client_devices: Slot,
    pub(crate) client_addressable_devices: Fn<ClientDevicesArgs>,
    _client_lookup_device: Slot,
    _client_lookup_addressable_device: Slot,
    _client_addressable_memories: Slot,
    // 20
    pub(crate) client_compile: Fn<ClientCompileArgs>,
    _client_default_device_assignment: Slot,
    pub(crate) client_buffer_from_host_buffer: Fn<BufferFromHostBufferArgs>,
    pub(crate) device_description_id: Fn<DeviceDescriptionIdArgs>,
    _device_description_process_index: Slot,
    // 25
    _device_description_attributes: Slot,
    _device_description_kind: Slot,
    _device_description_debug_string: Slot,
    _device_description_to_string: Slot,
    pub(crate) device_get_description: Fn<DeviceGetDescriptionArgs>,
    // 30
    _device_is_addressable: Slot,
    _device_local_hardware_id: Slot,
    _device_addressable_memories: Slot,
    _device_default_memory: Slot,
    _device_memory_stats: Slot,
    // 35
    _memory_id: Slot,
    _memory_kind: Slot,
    _memory_debug_string: Slot,
    _memory_to_string: Slot,
    _memory_addressable_by_devices: Slot,
    // 40
    pub(crate) executable_destroy: Fn<ExecutableDestroyArgs>,
    _executable_name: Slot,
    _executable_num_replicas: Slot,
    _executable_num_partitions: Slot,
    pub(crate) executable_num_outputs: Fn<ExecutableNumOutputsArgs>,
    // 45
    pub(crate) executable_size_of_generated_code: Fn<SizeOfGeneratedCodeArgs>,
    _executable_get_cost_analysis: Slot,
    _executable_output_memory_kinds: Slot,
    pub(crate) executable_optimized_program: Fn<OptimizedProgramArgs>,
    _executable_serialize: Slot,
    // 50
    pub(crate) loaded_executable_destroy: Fn<LoadedExecutableDestroyArgs>,
    pub(crate) loaded_executable_get_executable: Fn<GetExecutableArgs>,
    pub(crate) loaded_executable_addressable_devices: Fn<LoadedExecutableDevicesArgs>,
    _loaded_executable_delete: Slot,
    _loaded_executable_is_deleted: Slot,
    // 55
    pub(crate) loaded_executable_execute: Fn<ExecuteArgs>,
    _executable_deserialize_and_load: Slot,
    _loaded_executable_fingerprint: Slot,
    pub(crate) buffer_destroy: Fn<BufferDestroyArgs>,
    pub(crate) buffer_element_type: Fn<BufferElementTypeArgs>,
    // 60
    pub(crate) buffer_dimensions: Fn<BufferDimensionsArgs>,
    _buffer_unpadded_dimensions: Slot,
    _buffer_dynamic_dimension_indices: Slot,
    _buffer_get_memory_layout: Slot,
    _buffer_on_device_size_in_bytes: Slot,
    // 65
    _buffer_device: Slot,
    _buffer_memory: Slot,
    _buffer_delete: Slot,
    _buffer_is_deleted: Slot,
    _buffer_copy_to_device: Slot,
    // 70
    pub(crate) buffer_to_host_buffer: Fn<BufferToHostArgs>,
    _buffer_is_on_cpu: Slot,
    _buffer_ready_event: Slot,
    _buffer_unsafe_pointer: Slot,
    _buffer_increase_external_reference_count: Slot,
    // 75
    _buffer_decrease_external_reference_count: Slot,
    _buffer_opaque_device_memory_data_pointer: Slot,
    _copy_to_device_stream: [Slot; 5],
    // 82
    pub(crate) topology_create: Fn<TopologyCreateArgs>,
    pub(crate) topology_destroy: Fn<TopologyDestroyArgs>,
    _topology_platform_name: Slot,
    // 85
    _topology_platform_version: Slot,
    pub(crate) topology_get_device_descriptions: Fn<TopologyDeviceDescriptionsArgs>,
    _topology_serialize: Slot,
    _topology_attributes: Slot,
    pub(crate) compile: Fn<CompileArgs>,
    // 90
    _executable_output_element_types: Slot,
    _executable_output_dimensions: Slot,
    _buffer_copy_to_memory: Slot,
    _client_create_view_of_device_buffer: Slot,
    _executable_fingerprint: Slot,
    // 95
    _client_topology_description: Slot,
    pub(crate) executable_get_compiled_memory_stats: Fn<CompiledMemoryStatsArgs>,
}

#[repr(C)]
pub(crate) struct ErrorDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) error: *mut RawError,
}

#[repr(C)]
pub(crate) struct ErrorMessageArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) error: *const RawError,
    pub(crate) message: *const c_char,
    pub(crate) message_size: usize,
}

#[repr(C)]
pub(crate) struct PluginInitializeArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
}

/// `PJRT_Event_Await_Args` and `PJRT_Event_Destroy_Args` (one layout).
#[repr(C)]
pub(crate) struct EventArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) event: *mut RawEvent,
}

/// `PJRT_NamedValue_Type`.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(dead_code)] // the discriminants are the header's, not all are built
pub(crate) enum NamedValueType {
    String = 0,
    Int64 = 1,
    Int64List = 2,
    Float = 3,
    Bool = 4,
}

/// `PJRT_NamedValue` (the anonymous union is one pointer-sized slot).
#[repr(C)]
pub(crate) struct NamedValue {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) name: *const c_char,
    pub(crate) name_size: usize,
    pub(crate) kind: NamedValueType,
    pub(crate) value: usize,
    pub(crate) value_size: usize,
}

impl NamedValue {
    /// A named value; `value` is the union's bits (an integer or a pointer).
    pub(crate) fn new(
        name: &'static CStr,
        kind: NamedValueType,
        value: usize,
        value_size: usize,
    ) -> NamedValue {
        NamedValue {
            struct_size: std::mem::size_of::<NamedValue>(),
            extension_start: ptr::null_mut(),
            name: name.as_ptr(),
            name_size: name.to_bytes().len(),
            kind,
            value,
            value_size,
        }
    }
}

#[repr(C)]
pub(crate) struct ClientCreateArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) create_options: *const NamedValue,
    pub(crate) num_options: usize,
    pub(crate) kv_get_callback: *const c_void,
    pub(crate) kv_get_user_arg: *mut c_void,
    pub(crate) kv_put_callback: *const c_void,
    pub(crate) kv_put_user_arg: *mut c_void,
    pub(crate) client: *mut RawClient,
    pub(crate) kv_try_get_callback: *const c_void,
    pub(crate) kv_try_get_user_arg: *mut c_void,
}

#[repr(C)]
pub(crate) struct ClientDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) client: *mut RawClient,
}

#[repr(C)]
pub(crate) struct ClientPlatformNameArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) client: *mut RawClient,
    pub(crate) platform_name: *const c_char,
    pub(crate) platform_name_size: usize,
}

/// `PJRT_Client_AddressableDevices_Args`.
#[repr(C)]
pub(crate) struct ClientDevicesArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) client: *mut RawClient,
    pub(crate) devices: *const *mut RawDevice,
    pub(crate) num_devices: usize,
}

/// `PJRT_Program`.
#[repr(C)]
pub(crate) struct Program {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) code: *mut c_char,
    pub(crate) code_size: usize,
    pub(crate) format: *const c_char,
    pub(crate) format_size: usize,
}

impl Program {
    /// An MLIR program (text or bytecode) the plugin only reads.
    pub(crate) fn mlir(module: &[u8]) -> Program {
        let format = "mlir";
        Program {
            struct_size: std::mem::size_of::<Program>(),
            extension_start: ptr::null_mut(),
            // The plugin only reads `code` when compiling.
            code: module.as_ptr().cast_mut().cast(),
            code_size: module.len(),
            format: format.as_ptr().cast(),
            format_size: format.len(),
        }
    }
}

#[repr(C)]
pub(crate) struct ClientCompileArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) client: *mut RawClient,
    pub(crate) program: *const Program,
    pub(crate) compile_options: *const c_char,
    pub(crate) compile_options_size: usize,
    pub(crate) executable: *mut RawLoadedExecutable,
}

/// `PJRT_HostBufferSemantics_kImmutableOnlyDuringCall`: the plugin copies
/// the host data before `BufferFromHostBuffer` returns.
pub(crate) const HOST_BUFFER_IMMUTABLE_ONLY_DURING_CALL: c_int = 0;

#[repr(C)]
pub(crate) struct BufferFromHostBufferArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) client: *mut RawClient,
    pub(crate) data: *const c_void,
    pub(crate) kind: c_int,
    pub(crate) dims: *const i64,
    pub(crate) num_dims: usize,
    pub(crate) byte_strides: *const i64,
    pub(crate) num_byte_strides: usize,
    pub(crate) host_buffer_semantics: c_int,
    pub(crate) device: *mut RawDevice,
    pub(crate) memory: *mut c_void,
    pub(crate) device_layout: *mut MemoryLayout,
    pub(crate) done_with_host_buffer: *mut RawEvent,
    pub(crate) buffer: *mut RawBuffer,
}

/// `PJRT_Buffer_MemoryLayout` with the tiled variant of its union
/// (`PJRT_Buffer_MemoryLayout_Tiled`, the larger one).
#[repr(C)]
pub(crate) struct MemoryLayout {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) tiled_struct_size: usize,
    pub(crate) tiled_extension_start: *mut c_void,
    pub(crate) minor_to_major: *const i64,
    pub(crate) minor_to_major_size: usize,
    pub(crate) tile_dims: *const i64,
    pub(crate) tile_dim_sizes: *const usize,
    pub(crate) num_tiles: usize,
    pub(crate) kind: c_int,
}

/// `PJRT_Buffer_MemoryLayout_Type_Tiled`.
pub(crate) const LAYOUT_TILED: c_int = 0;

impl MemoryLayout {
    /// The dense row-major layout (no tiles) of `minor_to_major`, which must
    /// outlive the use of the layout.
    pub(crate) fn row_major(minor_to_major: &[i64]) -> MemoryLayout {
        MemoryLayout {
            struct_size: std::mem::size_of::<MemoryLayout>(),
            extension_start: ptr::null_mut(),
            tiled_struct_size: 7 * std::mem::size_of::<usize>(),
            tiled_extension_start: ptr::null_mut(),
            minor_to_major: minor_to_major.as_ptr(),
            minor_to_major_size: minor_to_major.len(),
            tile_dims: ptr::null(),
            tile_dim_sizes: ptr::null(),
            num_tiles: 0,
            kind: LAYOUT_TILED,
        }
    }
}

#[repr(C)]
pub(crate) struct DeviceGetDescriptionArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) device: *mut RawDevice,
    pub(crate) device_description: *mut RawDeviceDescription,
}

#[repr(C)]
pub(crate) struct TopologyCreateArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) topology_name: *const c_char,
    pub(crate) topology_name_size: usize,
    pub(crate) create_options: *const NamedValue,
    pub(crate) num_options: usize,
    pub(crate) topology: *mut RawTopology,
}

#[repr(C)]
pub(crate) struct TopologyDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) topology: *mut RawTopology,
}

#[repr(C)]
pub(crate) struct TopologyDeviceDescriptionsArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) topology: *const RawTopology,
    pub(crate) descriptions: *const *mut RawDeviceDescription,
    pub(crate) num_descriptions: usize,
}

#[repr(C)]
pub(crate) struct DeviceDescriptionIdArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) device_description: *mut RawDeviceDescription,
    pub(crate) id: c_int,
}

#[repr(C)]
pub(crate) struct CompileArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) topology: *const RawTopology,
    pub(crate) program: *const Program,
    pub(crate) compile_options: *const c_char,
    pub(crate) compile_options_size: usize,
    pub(crate) client: *mut c_void,
    pub(crate) executable: *mut RawExecutable,
}

#[repr(C)]
pub(crate) struct ExecutableDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawExecutable,
}

#[repr(C)]
pub(crate) struct ExecutableNumOutputsArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawExecutable,
    pub(crate) num_outputs: usize,
}

#[repr(C)]
pub(crate) struct SizeOfGeneratedCodeArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawExecutable,
    pub(crate) size_in_bytes: i64,
}

#[repr(C)]
pub(crate) struct OptimizedProgramArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawExecutable,
    pub(crate) program: *mut Program,
}

#[repr(C)]
pub(crate) struct LoadedExecutableDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawLoadedExecutable,
}

#[repr(C)]
pub(crate) struct GetExecutableArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) loaded_executable: *mut RawLoadedExecutable,
    pub(crate) executable: *mut RawExecutable,
}

#[repr(C)]
pub(crate) struct LoadedExecutableDevicesArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawLoadedExecutable,
    pub(crate) devices: *const *mut RawDevice,
    pub(crate) num_devices: usize,
}

/// `PJRT_ExecuteOptions` (no callbacks, no context, launch id 0).
#[repr(C)]
pub(crate) struct ExecuteOptions {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) send_callbacks: *mut c_void,
    pub(crate) recv_callbacks: *mut c_void,
    pub(crate) num_send_ops: usize,
    pub(crate) num_recv_ops: usize,
    pub(crate) launch_id: c_int,
    pub(crate) non_donatable_input_indices: *const i64,
    pub(crate) num_non_donatable_input_indices: usize,
    pub(crate) context: *mut c_void,
    pub(crate) call_location: *const c_char,
    pub(crate) num_tasks: usize,
    pub(crate) task_ids: *mut c_int,
    pub(crate) incarnation_ids: *mut i64,
}

#[repr(C)]
pub(crate) struct ExecuteArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) executable: *mut RawLoadedExecutable,
    pub(crate) options: *mut ExecuteOptions,
    pub(crate) argument_lists: *const *const *mut RawBuffer,
    pub(crate) num_devices: usize,
    pub(crate) num_args: usize,
    pub(crate) output_lists: *const *mut *mut RawBuffer,
    pub(crate) device_complete_events: *mut *mut RawEvent,
    pub(crate) execute_device: *mut RawDevice,
}

#[repr(C)]
pub(crate) struct BufferDestroyArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) buffer: *mut RawBuffer,
}

#[repr(C)]
pub(crate) struct BufferElementTypeArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) buffer: *mut RawBuffer,
    pub(crate) kind: c_int,
}

#[repr(C)]
pub(crate) struct BufferDimensionsArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) buffer: *mut RawBuffer,
    pub(crate) dims: *const i64,
    pub(crate) num_dims: usize,
}

#[repr(C)]
pub(crate) struct BufferToHostArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: *mut c_void,
    pub(crate) src: *mut RawBuffer,
    pub(crate) host_layout: *mut MemoryLayout,
    pub(crate) dst: *mut c_void,
    pub(crate) dst_size: usize,
    pub(crate) event: *mut RawEvent,
}

/// `PJRT_Executable_GetCompiledMemoryStats_Args` (mirrors
/// `xla::CompiledMemoryStats`).
#[repr(C)]
#[derive(Default)]
pub(crate) struct CompiledMemoryStatsArgs {
    pub(crate) struct_size: usize,
    pub(crate) extension_start: usize,
    pub(crate) executable: usize,
    pub(crate) generated_code_size_in_bytes: i64,
    pub(crate) argument_size_in_bytes: i64,
    pub(crate) output_size_in_bytes: i64,
    pub(crate) alias_size_in_bytes: i64,
    pub(crate) temp_size_in_bytes: i64,
    pub(crate) host_generated_code_size_in_bytes: i64,
    pub(crate) host_argument_size_in_bytes: i64,
    pub(crate) host_output_size_in_bytes: i64,
    pub(crate) host_alias_size_in_bytes: i64,
    pub(crate) host_temp_size_in_bytes: i64,
    pub(crate) peak_memory_in_bytes: i64,
    pub(crate) total_size_in_bytes: i64,
    pub(crate) total_allocation_bytes: i64,
    pub(crate) indefinite_allocations: i64,
    pub(crate) peak_unpadded_heap_bytes: i64,
}

/// `PJRT_FFI_Extension` (`xla/pjrt/c/pjrt_c_api_ffi_extension.h`, version 2).
#[repr(C)]
pub(crate) struct FfiExtension {
    pub(crate) base: ExtensionBase,
    pub(crate) type_id_register: Slot,
    pub(crate) user_data_add: Slot,
    pub(crate) register_handler: Fn<FfiRegisterHandlerArgs>,
}

/// `PJRT_FFI_Register_Handler_Args` as `xla-cpu-pjrt` 0.0.1 reads it (no
/// `extension_start`, no `api_version`: typed handlers only), measured on
/// its machine code; its `struct_size` ends at `traits`
/// ([`FFI_REGISTER_TYPED_SIZE`]).
#[repr(C)]
pub(crate) struct FfiRegisterTypedHandlerArgs {
    pub(crate) struct_size: usize,
    pub(crate) target_name: *const c_char,
    pub(crate) target_name_size: usize,
    pub(crate) handler: *mut c_void,
    pub(crate) platform_name: *const c_char,
    pub(crate) platform_name_size: usize,
    pub(crate) traits: u32,
}

/// `struct_size` of [`FfiRegisterTypedHandlerArgs`]: `offsetof(traits) + 4`.
pub(crate) const FFI_REGISTER_TYPED_SIZE: usize = 52;

/// `PJRT_FFI_Register_Handler_Args` of the newer header (openxla/xla's
/// `pjrt_c_api_ffi_extension.h`: `api_version` after the target name, 0
/// untyped, 1 typed); its `struct_size` ends at `traits`
/// ([`FFI_REGISTER_SIZE`]).
#[repr(C)]
pub(crate) struct FfiRegisterHandlerArgs {
    pub(crate) struct_size: usize,
    pub(crate) target_name: *const c_char,
    pub(crate) target_name_size: usize,
    pub(crate) api_version: c_int,
    pub(crate) handler: *mut c_void,
    pub(crate) platform_name: *const c_char,
    pub(crate) platform_name_size: usize,
    pub(crate) traits: u32,
}

/// `struct_size` of [`FfiRegisterHandlerArgs`]: `offsetof(traits) + 4`.
pub(crate) const FFI_REGISTER_SIZE: usize = 60;

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

/// A loaded PJRT plugin with its table initialized; one per path, for the
/// life of the process.
pub(crate) struct Plugin {
    pub(crate) api: &'static Api,
    /// `major.minor` of the plugin's PJRT API.
    pub(crate) version: (i32, i32),
    /// The file it was loaded from.
    pub(crate) path: PathBuf,
}

// SAFETY: the table is immutable static data of the plugin, and PJRT's
// functions may be called from any thread.
unsafe impl Send for Plugin {}
// SAFETY: as above.
unsafe impl Sync for Plugin {}

/// A topology description made by the plugin.
pub(crate) struct Topology<'p> {
    plugin: &'p Plugin,
    raw: *mut RawTopology,
}

/// The plugins loaded so far, by the path they were asked for.
fn loaded() -> &'static Mutex<HashMap<PathBuf, &'static Plugin>> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, &'static Plugin>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

impl Plugin {
    /// Loads the plugin at `path` once per process (later calls return the
    /// same one): `dlopen`, `GetPjrtApi`, a check that the table is large
    /// enough, `PJRT_Plugin_Initialize`.
    pub(crate) fn load(path: &Path) -> Result<&'static Plugin, String> {
        // One plugin per file, however its path is spelled (the dynamic
        // loader would hand back the same library, initialized twice).
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut loaded = loaded().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(plugin) = loaded.get(&key) {
            return Ok(plugin);
        }
        let plugin: &'static Plugin = Box::leak(Box::new(Plugin::open(path)?));
        loaded.insert(key, plugin);
        Ok(plugin)
    }

    fn open(path: &Path) -> Result<Plugin, String> {
        let cpath = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("{}: the path contains a NUL byte", path.display()))?;
        // SAFETY: dlopen with a valid C string; the handle is never closed
        // (plugins do not support being unloaded), so it lives as long as
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
                "{}: its PJRT API table has {} bytes, fewer than the {} of the slots this binding \
                 uses (PJRT 0.81 or newer has them)",
                path.display(),
                api.struct_size,
                std::mem::size_of::<Api>()
            ));
        }
        if api.pjrt_api_version.major_version != 0 {
            return Err(format!(
                "{}: PJRT API {}.{}, this binding knows 0.x",
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
            path: path.to_path_buf(),
        };
        let mut args = PluginInitializeArgs {
            struct_size: std::mem::size_of::<PluginInitializeArgs>(),
            extension_start: ptr::null_mut(),
        };
        // SAFETY: a correctly sized argument struct for this slot.
        unsafe { plugin.call(api.plugin_initialize, "PJRT_Plugin_Initialize", &mut args) }?;
        Ok(plugin)
    }

    /// Calls one slot of the table: an error naming it when the plugin
    /// leaves it null, the plugin's message when it fails.
    ///
    /// # Safety
    /// `args` is the slot's argument struct, with `struct_size` set and
    /// every pointer in it valid for the call.
    pub(crate) unsafe fn call<A>(
        &self,
        slot: Fn<A>,
        name: &str,
        args: &mut A,
    ) -> Result<(), String> {
        let Some(function) = slot else {
            return Err(format!(
                "{}: the plugin does not implement {name}",
                self.path.display()
            ));
        };
        // SAFETY: the caller's contract.
        self.check(unsafe { function(args) })
    }

    /// Turns a returned `PJRT_Error*` into its message (and frees it).
    pub(crate) fn check(&self, error: *mut RawError) -> Result<(), String> {
        if error.is_null() {
            return Ok(());
        }
        let mut message = String::from("(the plugin gave no message)");
        if let Some(error_message) = self.api.error_message {
            let mut args = ErrorMessageArgs {
                struct_size: std::mem::size_of::<ErrorMessageArgs>(),
                extension_start: ptr::null_mut(),
                error,
                message: ptr::null(),
                message_size: 0,
            };
            // SAFETY: `error` is a live error the plugin returned.
            unsafe { error_message(&mut args) };
            if !args.message.is_null() {
                // SAFETY: the plugin's message has `message_size` bytes and
                // lives as long as `error`, which is destroyed only below.
                let bytes = unsafe {
                    crate::ffi::foreign_slice(args.message.cast::<u8>(), args.message_size)
                };
                message = String::from_utf8_lossy(bytes).into_owned();
            }
        }
        if let Some(error_destroy) = self.api.error_destroy {
            let mut destroy = ErrorDestroyArgs {
                struct_size: std::mem::size_of::<ErrorDestroyArgs>(),
                extension_start: ptr::null_mut(),
                error,
            };
            // SAFETY: destroys the error exactly once.
            unsafe { error_destroy(&mut destroy) };
        }
        Err(message)
    }

    /// The extension of type `kind` in the table's chain, if the plugin has
    /// it, with its `struct_size`.
    pub(crate) fn extension(&self, kind: c_int) -> Option<(&'static ExtensionBase, usize)> {
        let mut next = self.api.extension_start;
        // SAFETY: the chain is static data of the plugin, each entry a live
        // `PJRT_Extension_Base`.
        while let Some(ext) = unsafe { next.as_ref() } {
            if ext.kind == kind {
                return Some((ext, ext.struct_size));
            }
            next = ext.next;
        }
        None
    }

    /// `PJRT_TopologyDescription_Create` with the compile-only create options
    /// (`chips_per_host_bounds = [2, 2, 1]`, `num_slices = 1`,
    /// `chip_config_name = "default"`).
    pub(crate) fn topology(&self, name: &str) -> Result<Topology<'_>, String> {
        let bounds: [i64; 3] = [2, 2, 1];
        let default = "default";
        let options = [
            NamedValue::new(
                c"chips_per_host_bounds",
                NamedValueType::Int64List,
                bounds.as_ptr() as usize,
                bounds.len(),
            ),
            NamedValue::new(c"num_slices", NamedValueType::Int64, 1, 1),
            NamedValue::new(
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
        unsafe {
            self.call(
                self.api.topology_create,
                "PJRT_TopologyDescription_Create",
                &mut args,
            )
        }?;
        Ok(Topology {
            plugin: self,
            raw: args.topology,
        })
    }

    /// `PJRT_Executable_Destroy` (errors ignored: nothing to do about them).
    pub(crate) fn destroy_executable(&self, executable: *mut RawExecutable) {
        let mut destroy = ExecutableDestroyArgs {
            struct_size: std::mem::size_of::<ExecutableDestroyArgs>(),
            extension_start: ptr::null_mut(),
            executable,
        };
        // SAFETY: destroys an executable the caller owns, once.
        let _ = unsafe {
            self.call(
                self.api.executable_destroy,
                "PJRT_Executable_Destroy",
                &mut destroy,
            )
        };
    }
}

impl Topology<'_> {
    /// The global ids of the topology's devices, in the plugin's order.
    pub(crate) fn device_ids(&self) -> Result<Vec<i64>, String> {
        let plugin = self.plugin;
        let mut args = TopologyDeviceDescriptionsArgs {
            struct_size: std::mem::size_of::<TopologyDeviceDescriptionsArgs>(),
            extension_start: ptr::null_mut(),
            topology: self.raw,
            descriptions: ptr::null(),
            num_descriptions: 0,
        };
        // SAFETY: a live topology and a correctly sized argument struct.
        unsafe {
            plugin.call(
                plugin.api.topology_get_device_descriptions,
                "PJRT_TopologyDescription_GetDeviceDescriptions",
                &mut args,
            )
        }?;
        // SAFETY: the plugin returned `num_descriptions` pointers that live as
        // long as the topology.
        let descriptions =
            unsafe { crate::ffi::foreign_slice(args.descriptions, args.num_descriptions) };
        descriptions
            .iter()
            .map(|&description| plugin.description_id(description))
            .collect()
    }

    /// `PJRT_Compile` of an MLIR module (text or bytecode) with serialized
    /// `CompileOptionsProto` bytes, for this topology and no client; the
    /// executable's memory statistics, or the plugin's message.
    pub(crate) fn compile(&self, module: &[u8], options: &[u8]) -> Result<MemoryStats, String> {
        let plugin = self.plugin;
        let program = Program::mlir(module);
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
        unsafe { plugin.call(plugin.api.compile, "PJRT_Compile", &mut args) }?;
        let executable = args.executable;
        let stats = self.stats(executable);
        plugin.destroy_executable(executable);
        stats
    }

    fn stats(&self, executable: *mut RawExecutable) -> Result<MemoryStats, String> {
        let plugin = self.plugin;
        let mut code = SizeOfGeneratedCodeArgs {
            struct_size: std::mem::size_of::<SizeOfGeneratedCodeArgs>(),
            extension_start: ptr::null_mut(),
            executable,
            size_in_bytes: 0,
        };
        // SAFETY: a live executable and a correctly sized argument struct.
        unsafe {
            plugin.call(
                plugin.api.executable_size_of_generated_code,
                "PJRT_Executable_SizeOfGeneratedCodeInBytes",
                &mut code,
            )
        }?;
        let mut memory = CompiledMemoryStatsArgs {
            struct_size: std::mem::size_of::<CompiledMemoryStatsArgs>(),
            executable: executable as usize,
            ..CompiledMemoryStatsArgs::default()
        };
        // SAFETY: a live executable and a correctly sized argument struct.
        unsafe {
            plugin.call(
                plugin.api.executable_get_compiled_memory_stats,
                "PJRT_Executable_GetCompiledMemoryStats",
                &mut memory,
            )
        }?;
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

impl Plugin {
    /// `PJRT_DeviceDescription_Id`.
    pub(crate) fn description_id(
        &self,
        description: *mut RawDeviceDescription,
    ) -> Result<i64, String> {
        let mut id = DeviceDescriptionIdArgs {
            struct_size: std::mem::size_of::<DeviceDescriptionIdArgs>(),
            extension_start: ptr::null_mut(),
            device_description: description,
            id: 0,
        };
        // SAFETY: a description the plugin made, alive with its owner.
        unsafe {
            self.call(
                self.api.device_description_id,
                "PJRT_DeviceDescription_Id",
                &mut id,
            )
        }?;
        Ok(i64::from(id.id))
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
        let _ = unsafe {
            self.plugin.call(
                self.plugin.api.topology_destroy,
                "PJRT_TopologyDescription_Destroy",
                &mut args,
            )
        };
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

    /// Offsets and sizes from the C header (x86-64 / aarch64 LP64): the
    /// 0.81 header the CPU plugin ships, measured with its `offsetof`.
    #[test]
    fn layouts_match_the_header() {
        assert_eq!(offset_of!(Api, error_destroy), 40);
        // Slot index * 8 + 40.
        assert_eq!(offset_of!(Api, plugin_initialize), 40 + 3 * 8);
        assert_eq!(offset_of!(Api, event_await), 104);
        assert_eq!(offset_of!(Api, client_create), 120);
        assert_eq!(offset_of!(Api, client_buffer_from_host_buffer), 216);
        assert_eq!(offset_of!(Api, device_description_id), 40 + 23 * 8);
        assert_eq!(offset_of!(Api, executable_destroy), 40 + 40 * 8);
        assert_eq!(
            offset_of!(Api, executable_size_of_generated_code),
            40 + 45 * 8
        );
        assert_eq!(offset_of!(Api, executable_optimized_program), 424);
        assert_eq!(offset_of!(Api, loaded_executable_addressable_devices), 456);
        assert_eq!(offset_of!(Api, loaded_executable_execute), 480);
        assert_eq!(offset_of!(Api, buffer_dimensions), 520);
        assert_eq!(offset_of!(Api, buffer_to_host_buffer), 600);
        assert_eq!(offset_of!(Api, topology_create), 40 + 82 * 8);
        assert_eq!(
            offset_of!(Api, topology_get_device_descriptions),
            40 + 86 * 8
        );
        assert_eq!(offset_of!(Api, compile), 752);
        assert_eq!(offset_of!(Api, executable_get_compiled_memory_stats), 808);
        assert_eq!(size_of::<NamedValue>(), 56);
        assert_eq!(size_of::<CompileArgs>(), 64);
        assert_eq!(size_of::<CompiledMemoryStatsArgs>(), 24 + 15 * 8);
        assert_eq!(size_of::<ClientCreateArgs>(), 88);
        assert_eq!(size_of::<ClientCompileArgs>(), 56);
        assert_eq!(size_of::<Program>(), 48);
        assert_eq!(size_of::<BufferFromHostBufferArgs>(), 120);
        assert_eq!(offset_of!(BufferFromHostBufferArgs, kind), 32);
        assert_eq!(
            offset_of!(BufferFromHostBufferArgs, host_buffer_semantics),
            72
        );
        assert_eq!(offset_of!(BufferFromHostBufferArgs, buffer), 112);
        assert_eq!(size_of::<ExecuteOptions>(), 112);
        assert_eq!(offset_of!(ExecuteOptions, launch_id), 48);
        assert_eq!(offset_of!(ExecuteOptions, context), 72);
        assert_eq!(size_of::<ExecuteArgs>(), 80);
        assert_eq!(size_of::<BufferToHostArgs>(), 56);
        assert_eq!(size_of::<OptimizedProgramArgs>(), 32);
        assert_eq!(size_of::<MemoryLayout>(), 80);
        assert_eq!(size_of::<FfiExtension>(), 48);
        assert_eq!(
            offset_of!(FfiRegisterHandlerArgs, traits) + 4,
            FFI_REGISTER_SIZE
        );
        assert_eq!(
            offset_of!(FfiRegisterTypedHandlerArgs, traits) + 4,
            FFI_REGISTER_TYPED_SIZE
        );
    }
}
