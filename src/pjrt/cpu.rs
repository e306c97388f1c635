//! XLA's CPU compiler and runtime through the PJRT CPU plugin, in process:
//! a client over N CPU devices, compiled programs, executions on host
//! arrays.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::PjrtError;
use super::api::{
    BufferDestroyArgs, BufferDimensionsArgs, BufferElementTypeArgs, BufferFromHostBufferArgs,
    BufferToHostArgs, ClientCompileArgs, ClientCreateArgs, ClientDestroyArgs, ClientDevicesArgs,
    ClientPlatformNameArgs, DeviceGetDescriptionArgs, EXTENSION_FFI, EventArgs,
    ExecutableNumOutputsArgs, ExecuteArgs, ExecuteOptions, FFI_REGISTER_SIZE,
    FFI_REGISTER_TYPED_SIZE, FfiExtension, FfiRegisterHandlerArgs, FfiRegisterTypedHandlerArgs,
    GetExecutableArgs, HOST_BUFFER_IMMUTABLE_ONLY_DURING_CALL, LoadedExecutableDestroyArgs,
    LoadedExecutableDevicesArgs, MemoryLayout, NamedValue, NamedValueType, OptimizedProgramArgs,
    Plugin, Program, RawBuffer, RawClient, RawDevice, RawError, RawEvent, RawExecutable,
    RawLoadedExecutable,
};
use super::ffi;
use super::hlo::{self, Shape};
use super::host::{array_from_bytes, host_bytes};
use super::options::compile_options_for;
use crate::exec::{Array, ElemType, TensorType};

/// A typed XLA FFI handler (`XLA_FFI_Handler`): takes the
/// `XLA_FFI_CallFrame*` ([`ffi::CallFrame`]), returns null or an
/// `XLA_FFI_Error*` ([`ffi::error`]). It must answer the registration-time
/// metadata query first ([`ffi::answer_metadata`]) and never unwind.
pub type FfiHandler = unsafe extern "C" fn(call_frame: *mut c_void) -> *mut c_void;

/// The SPMD partitioner a multi-device compile uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Partitioner {
    /// Shardy when the module has Shardy shardings (`sdy.` anywhere in it,
    /// text or bytecode), else GSPMD, as JAX picks by how it lowered.
    #[default]
    Auto,
    /// Shardy (`use_shardy_partitioner`, JAX 0.12's default).
    Shardy,
    /// GSPMD (`mhlo.sharding` attributes).
    Gspmd,
}

/// How a program is compiled.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    /// SPMD partitions: 1 compiles for one device; N > 1 runs XLA's SPMD
    /// partitioner over the client's first N devices (partition `i` on
    /// device `i`), as JAX's `mhlo.num_partitions = N` modules expect (0 is
    /// taken as 1).
    pub num_partitions: usize,
    /// Which partitioner (only used when `num_partitions > 1`).
    pub partitioner: Partitioner,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            num_partitions: 1,
            partitioner: Partitioner::Auto,
        }
    }
}

/// The most CPU devices a client is made with (XLA itself has no limit;
/// each device is a thread pool's share, and more than this is a mistake).
const MAX_DEVICES: usize = 1024;

struct ClientInner {
    plugin: &'static Plugin,
    raw: *mut RawClient,
    /// The client's addressable devices, in the plugin's order.
    devices: Vec<*mut RawDevice>,
    /// Their global ids (`PJRT_DeviceDescription_Id`).
    device_ids: Vec<i64>,
    platform: String,
}

// SAFETY: a PJRT client and its devices may be used from any thread (XLA's
// `PjRtClient` is thread-safe); the raw pointers are only handed to it.
unsafe impl Send for ClientInner {}
// SAFETY: as above.
unsafe impl Sync for ClientInner {}

impl Drop for ClientInner {
    fn drop(&mut self) {
        let mut args = ClientDestroyArgs {
            struct_size: std::mem::size_of::<ClientDestroyArgs>(),
            extension_start: ptr::null_mut(),
            client: self.raw,
        };
        // SAFETY: destroys the client made in `CpuClient::new` once, after
        // every executable (they hold this `Arc`).
        let _ = unsafe {
            self.plugin.call(
                self.plugin.api.client_destroy,
                "PJRT_Client_Destroy",
                &mut args,
            )
        };
    }
}

/// A PJRT CPU client of one plugin over a number of CPU devices. Cheap to
/// clone (shared); `Send + Sync`.
#[derive(Clone)]
pub struct CpuClient {
    inner: Arc<ClientInner>,
}

impl std::fmt::Debug for CpuClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuClient")
            .field("plugin", &self.inner.plugin.path)
            .field("devices", &self.inner.devices.len())
            .finish()
    }
}

/// The process's shared clients, by plugin path and device count.
fn shared_clients() -> &'static Mutex<HashMap<(PathBuf, usize), CpuClient>> {
    static CLIENTS: OnceLock<Mutex<HashMap<(PathBuf, usize), CpuClient>>> = OnceLock::new();
    CLIENTS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Serializes handler registration (the reported FFI version is global).
fn registration_lock() -> &'static Mutex<()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(|| Mutex::new(()))
}

impl CpuClient {
    /// Loads the plugin (once per process) and creates a client with
    /// `devices` CPU devices (the plugin's `cpu_device_count` create
    /// option).
    pub fn new(plugin: &Path, devices: usize) -> Result<CpuClient, PjrtError> {
        if devices == 0 || devices > MAX_DEVICES {
            return Err(PjrtError::Argument(format!(
                "{devices} CPU devices: a client has 1 to {MAX_DEVICES}"
            )));
        }
        let plugin = Plugin::load(plugin).map_err(PjrtError::Plugin)?;
        let options = [NamedValue::new(
            c"cpu_device_count",
            NamedValueType::Int64,
            devices,
            1,
        )];
        let mut args = ClientCreateArgs {
            struct_size: std::mem::size_of::<ClientCreateArgs>(),
            extension_start: ptr::null_mut(),
            create_options: options.as_ptr(),
            num_options: options.len(),
            kv_get_callback: ptr::null(),
            kv_get_user_arg: ptr::null_mut(),
            kv_put_callback: ptr::null(),
            kv_put_user_arg: ptr::null_mut(),
            client: ptr::null_mut(),
            kv_try_get_callback: ptr::null(),
            kv_try_get_user_arg: ptr::null_mut(),
        };
        // SAFETY: `options` outlives the call; the struct is correctly sized.
        unsafe { plugin.call(plugin.api.client_create, "PJRT_Client_Create", &mut args) }.map_err(
            |m| PjrtError::Plugin(format!("{}: creating a client: {m}", plugin.path.display())),
        )?;
        // From here on the client is destroyed by `ClientInner::drop`.
        let mut inner = ClientInner {
            plugin,
            raw: args.client,
            devices: Vec::new(),
            device_ids: Vec::new(),
            platform: String::new(),
        };
        let mut name = ClientPlatformNameArgs {
            struct_size: std::mem::size_of::<ClientPlatformNameArgs>(),
            extension_start: ptr::null_mut(),
            client: inner.raw,
            platform_name: ptr::null(),
            platform_name_size: 0,
        };
        // SAFETY: a live client.
        unsafe {
            plugin.call(
                plugin.api.client_platform_name,
                "PJRT_Client_PlatformName",
                &mut name,
            )
        }
        .map_err(PjrtError::Plugin)?;
        // SAFETY: the name lives as long as the client.
        inner.platform = String::from_utf8_lossy(unsafe {
            crate::ffi::foreign_slice(name.platform_name.cast::<u8>(), name.platform_name_size)
        })
        .into_owned();
        let mut list = ClientDevicesArgs {
            struct_size: std::mem::size_of::<ClientDevicesArgs>(),
            extension_start: ptr::null_mut(),
            client: inner.raw,
            devices: ptr::null(),
            num_devices: 0,
        };
        // SAFETY: a live client.
        unsafe {
            plugin.call(
                plugin.api.client_addressable_devices,
                "PJRT_Client_AddressableDevices",
                &mut list,
            )
        }
        .map_err(PjrtError::Plugin)?;
        // SAFETY: `num_devices` pointers owned by the client.
        inner.devices =
            unsafe { crate::ffi::foreign_slice(list.devices, list.num_devices) }.to_vec();
        if inner.devices.len() != devices {
            return Err(PjrtError::Plugin(format!(
                "{}: asked for {devices} CPU devices (cpu_device_count), the client has {}",
                plugin.path.display(),
                inner.devices.len()
            )));
        }
        inner.device_ids = inner
            .devices
            .iter()
            .map(|&device| device_id(plugin, device))
            .collect::<Result<_, _>>()
            .map_err(PjrtError::Plugin)?;
        Ok(CpuClient {
            inner: Arc::new(inner),
        })
    }

    /// The process's one client of `plugin` with `devices` devices, made on
    /// first use and kept for the life of the process (clients own thread
    /// pools: share them rather than make one per program).
    pub fn shared(plugin: &Path, devices: usize) -> Result<CpuClient, PjrtError> {
        let mut clients = shared_clients().lock().unwrap_or_else(|e| e.into_inner());
        let key = (plugin.to_path_buf(), devices);
        if let Some(client) = clients.get(&key) {
            return Ok(client.clone());
        }
        let client = CpuClient::new(plugin, devices)?;
        clients.insert(key, client.clone());
        Ok(client)
    }

    /// The number of CPU devices.
    pub fn devices(&self) -> usize {
        self.inner.devices.len()
    }

    /// The global ids of the devices, in the plugin's order.
    pub fn device_ids(&self) -> &[i64] {
        &self.inner.device_ids
    }

    /// The platform name the plugin reports (`cpu`).
    pub fn platform(&self) -> &str {
        &self.inner.platform
    }

    /// The plugin's PJRT C API version (`0.81`).
    pub fn plugin_api_version(&self) -> (i32, i32) {
        self.inner.plugin.version
    }

    /// The plugin file.
    pub fn plugin_path(&self) -> &Path {
        &self.inner.plugin.path
    }

    /// Registers a typed XLA FFI handler for `stablehlo.custom_call
    /// @target(...) {api_version = 4 : i32}` on the CPU platform, through
    /// the plugin's FFI extension. XLA keeps one registry per process (not
    /// per client): registering a target again with the same handler is a
    /// no-op, with another handler an error. Register before compiling the
    /// modules that call it.
    ///
    /// The handler reports [`ffi::API_VERSION`] when XLA asks at
    /// registration; if XLA refuses it and names the versions it supports,
    /// the oldest of them is reported instead (this binding reads only the
    /// fields every 0.x version has).
    pub fn register_ffi_handler(&self, target: &str, handler: FfiHandler) -> Result<(), PjrtError> {
        let plugin = self.inner.plugin;
        let Some((base, size)) = plugin.extension(EXTENSION_FFI) else {
            return Err(PjrtError::Unsupported(format!(
                "{}: the plugin has no FFI extension: custom calls cannot run",
                plugin.path.display()
            )));
        };
        if size < std::mem::size_of::<FfiExtension>() {
            return Err(PjrtError::Unsupported(format!(
                "{}: the plugin's FFI extension ({size} bytes) has no register_handler (FFI \
                 extension version 2 has)",
                plugin.path.display()
            )));
        }
        // SAFETY: the extension is at least as large as `FfiExtension`.
        let extension = unsafe { &*(base as *const _ as *const FfiExtension) };
        let platform = self.inner.platform.clone();
        let _guard = registration_lock()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // Two layouts of the registration arguments exist under one
        // extension version: xla-cpu-pjrt 0.0.1's (typed only, no
        // `api_version`) and the newer header's. A plugin refuses a
        // `struct_size` smaller than its own with an error (never reading
        // past it), so the smaller, older layout is tried first and the
        // newer one only when the plugin asks for more.
        let register = |version: (i32, i32)| -> Result<(), String> {
            ffi::set_reported_version(version);
            let mut typed = FfiRegisterTypedHandlerArgs {
                struct_size: FFI_REGISTER_TYPED_SIZE,
                target_name: target.as_ptr().cast(),
                target_name_size: target.len(),
                handler: handler as *mut c_void,
                platform_name: platform.as_ptr().cast(),
                platform_name_size: platform.len(),
                traits: 0,
            };
            // SAFETY: `target` and `platform` outlive the call; the handler
            // is a function of the right type for the life of the process;
            // the struct has the fields the plugin reads for this size.
            let slot = extension.register_handler.map(|f| {
                // SAFETY: the same function, called with the older layout
                // (both layouts start with `struct_size`).
                unsafe {
                    std::mem::transmute::<
                        unsafe extern "C" fn(*mut FfiRegisterHandlerArgs) -> *mut RawError,
                        unsafe extern "C" fn(*mut FfiRegisterTypedHandlerArgs) -> *mut RawError,
                    >(f)
                }
            });
            let first = unsafe { plugin.call(slot, "PJRT_FFI_Register_Handler", &mut typed) };
            match first {
                Err(message) if message.contains("size") && message.contains("expected") => {
                    let mut args = FfiRegisterHandlerArgs {
                        struct_size: FFI_REGISTER_SIZE,
                        target_name: target.as_ptr().cast(),
                        target_name_size: target.len(),
                        api_version: 1,
                        handler: handler as *mut c_void,
                        platform_name: platform.as_ptr().cast(),
                        platform_name_size: platform.len(),
                        traits: 0,
                    };
                    // SAFETY: as above, the newer layout.
                    unsafe {
                        plugin.call(
                            extension.register_handler,
                            "PJRT_FFI_Register_Handler",
                            &mut args,
                        )
                    }
                }
                other => other,
            }
        };
        let fail =
            |m: String| PjrtError::Plugin(format!("registering the FFI handler `{target}`: {m}"));
        match register(ffi::API_VERSION) {
            Ok(()) => Ok(()),
            Err(message) => match minimum_ffi_version(&message) {
                Some(minimum) if minimum.0 == 0 && minimum > ffi::API_VERSION => {
                    register(minimum).map_err(fail)
                }
                _ => Err(fail(message)),
            },
        }
    }

    /// Compiles a StableHLO module (MLIR text or bytecode, as JAX's
    /// `Lowered.as_text()` or `Exported.mlir_module()`) with XLA's CPU
    /// compiler. XLA's refusal is [`PjrtError::Compile`] with its message.
    pub fn compile(
        &self,
        module: &[u8],
        options: &ProgramOptions,
    ) -> Result<Executable, PjrtError> {
        let n = options.num_partitions.max(1);
        if n > self.devices() {
            return Err(PjrtError::Argument(format!(
                "{n} partitions on a client of {} CPU devices",
                self.devices()
            )));
        }
        let shardy = match options.partitioner {
            Partitioner::Shardy => true,
            Partitioner::Gspmd => false,
            Partitioner::Auto => memchr::memmem::find(module, b"sdy.").is_some(),
        };
        if main_returns_tuple(module) {
            return Err(PjrtError::Unsupported(
                "@main returns a tuple: not supported (JAX's @main returns arrays; XLA would \
                 flatten a tuple result into separate outputs)"
                    .into(),
            ));
        }
        let compile_options = compile_options_for(&self.inner.device_ids[..n], shardy);
        let plugin = self.inner.plugin;
        let program = Program::mlir(module);
        let mut args = ClientCompileArgs {
            struct_size: std::mem::size_of::<ClientCompileArgs>(),
            extension_start: ptr::null_mut(),
            client: self.inner.raw,
            program: &program,
            compile_options: compile_options.as_ptr().cast(),
            compile_options_size: compile_options.len(),
            executable: ptr::null_mut(),
        };
        let start = Instant::now();
        // SAFETY: `module`, `program` and the options outlive the call.
        unsafe { plugin.call(plugin.api.client_compile, "PJRT_Client_Compile", &mut args) }
            .map_err(PjrtError::Compile)?;
        let compile_time = start.elapsed();
        let mut executable = Executable {
            client: self.inner.clone(),
            raw: args.executable,
            devices: Vec::new(),
            compile_time,
            num_outputs: 0,
            parameters: None,
            results: None,
            shardings: (Vec::new(), Vec::new()),
        };
        executable.describe(n)?;
        Ok(executable)
    }
}

/// Whether the text form of a module declares `@main` with a `tuple<...>`
/// among its results (from the argument list's closing parenthesis to the
/// body's `{`, skipping strings); bytecode is not looked into.
fn main_returns_tuple(module: &[u8]) -> bool {
    if module.starts_with(b"ML\xefR") {
        return false;
    }
    let Some(start) = memchr::memmem::find(module, b"@main(") else {
        return false;
    };
    let mut depth = 0usize;
    let mut in_string = false;
    let mut args_closed = false;
    let mut i = start + 5;
    while i < module.len() {
        let c = module[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    args_closed |= depth == 0;
                }
                b'{' if depth == 0 => return false,
                b't' if args_closed && module[i..].starts_with(b"tuple<") => return true,
                _ => {}
            }
        }
        i += 1;
    }
    false
}

/// `PJRT_Device_GetDescription` + `PJRT_DeviceDescription_Id`.
fn device_id(plugin: &Plugin, device: *mut RawDevice) -> Result<i64, String> {
    let mut args = DeviceGetDescriptionArgs {
        struct_size: std::mem::size_of::<DeviceGetDescriptionArgs>(),
        extension_start: ptr::null_mut(),
        device,
        device_description: ptr::null_mut(),
    };
    // SAFETY: a device of a live client.
    unsafe {
        plugin.call(
            plugin.api.device_get_description,
            "PJRT_Device_GetDescription",
            &mut args,
        )
    }?;
    plugin.description_id(args.device_description)
}

/// The oldest FFI API version XLA says it supports, from its refusal
/// ("... Minimum supported API version is (0.1).").
fn minimum_ffi_version(message: &str) -> Option<(i32, i32)> {
    let rest = &message[message.find("Minimum supported API version is (")? + 34..];
    let (major, rest) = rest.split_once('.')?;
    let (minor, _) = rest.split_once(')')?;
    Some((major.trim().parse().ok()?, minor.trim().parse().ok()?))
}

/// A compiled program, ready to run on its devices.
pub struct Executable {
    client: Arc<ClientInner>,
    raw: *mut RawLoadedExecutable,
    /// The devices it runs on, partition `i` on `devices[i]`.
    devices: Vec<*mut RawDevice>,
    compile_time: Duration,
    num_outputs: usize,
    /// Per-device parameter types and shapes, from the optimized program.
    parameters: Option<Vec<Shape>>,
    /// Per-device result types and shapes.
    results: Option<Vec<Shape>>,
    /// The shardings SPMD partitioning chose for the parameters and the
    /// results (HLO text form), when the optimized program records them.
    shardings: (Vec<Option<String>>, Vec<Option<String>>),
}

// SAFETY: a loaded executable may be executed from any thread; the raw
// pointers are only handed to the plugin, which synchronizes.
unsafe impl Send for Executable {}
// SAFETY: as above.
unsafe impl Sync for Executable {}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable")
            .field("devices", &self.devices.len())
            .field("num_outputs", &self.num_outputs)
            .field("compile_time", &self.compile_time)
            .finish()
    }
}

impl Drop for Executable {
    fn drop(&mut self) {
        let plugin = self.client.plugin;
        let mut args = LoadedExecutableDestroyArgs {
            struct_size: std::mem::size_of::<LoadedExecutableDestroyArgs>(),
            extension_start: ptr::null_mut(),
            executable: self.raw,
        };
        // SAFETY: destroys the executable compiled by `CpuClient::compile`
        // once; the client outlives it (held by `self.client`).
        let _ = unsafe {
            plugin.call(
                plugin.api.loaded_executable_destroy,
                "PJRT_LoadedExecutable_Destroy",
                &mut args,
            )
        };
    }
}

/// Owns one PJRT buffer.
struct Buffer {
    plugin: &'static Plugin,
    raw: *mut RawBuffer,
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.raw.is_null() {
            return;
        }
        let mut args = BufferDestroyArgs {
            struct_size: std::mem::size_of::<BufferDestroyArgs>(),
            extension_start: ptr::null_mut(),
            buffer: self.raw,
        };
        // SAFETY: destroys a buffer this process owns, once.
        let _ = unsafe {
            self.plugin.call(
                self.plugin.api.buffer_destroy,
                "PJRT_Buffer_Destroy",
                &mut args,
            )
        };
    }
}

/// A launch id for one execution, unique in the process (never 0): the CPU
/// plugin makes it the run id FFI handlers see ([`ffi::run_id`]), so the
/// devices' calls of one execution share it and no two executions do.
fn next_launch_id() -> c_int {
    static NEXT: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if id == 0 {
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    } else {
        id
    }
}

/// Awaits an event (if any) and destroys it; the event's error, if any.
fn await_event(plugin: &Plugin, event: *mut RawEvent) -> Result<(), String> {
    if event.is_null() {
        return Ok(());
    }
    let mut args = EventArgs {
        struct_size: std::mem::size_of::<EventArgs>(),
        extension_start: ptr::null_mut(),
        event,
    };
    // SAFETY: a live event this process owns.
    let result = unsafe { plugin.call(plugin.api.event_await, "PJRT_Event_Await", &mut args) };
    let mut destroy = EventArgs {
        struct_size: std::mem::size_of::<EventArgs>(),
        extension_start: ptr::null_mut(),
        event,
    };
    // SAFETY: destroys the event once.
    let _ = unsafe { plugin.call(plugin.api.event_destroy, "PJRT_Event_Destroy", &mut destroy) };
    result
}

impl Executable {
    /// Wall time of XLA's compile.
    pub fn compile_time(&self) -> Duration {
        self.compile_time
    }

    /// Outputs per device.
    pub fn num_outputs(&self) -> usize {
        self.num_outputs
    }

    /// The devices it runs on (its partitions).
    pub fn devices(&self) -> usize {
        self.devices.len()
    }

    /// Parameters per device, when XLA's optimized program says (always
    /// for the CPU plugin).
    pub fn num_parameters(&self) -> Option<usize> {
        self.parameters.as_ref().map(Vec::len)
    }

    /// The per-device parameter types (after SPMD partitioning: each
    /// device's shard), from XLA's optimized program; `None` when XLA did
    /// not say or a type has no host counterpart.
    pub fn parameter_types(&self) -> Option<Vec<TensorType>> {
        tensor_types(self.parameters.as_ref()?)
    }

    /// The per-device result types, as [`Executable::parameter_types`].
    pub fn result_types(&self) -> Option<Vec<TensorType>> {
        tensor_types(self.results.as_ref()?)
    }

    /// Reads the executable's devices, outputs and signature.
    fn describe(&mut self, partitions: usize) -> Result<(), PjrtError> {
        let plugin = self.client.plugin;
        let mut devices = LoadedExecutableDevicesArgs {
            struct_size: std::mem::size_of::<LoadedExecutableDevicesArgs>(),
            extension_start: ptr::null_mut(),
            executable: self.raw,
            devices: ptr::null(),
            num_devices: 0,
        };
        // SAFETY: a live executable.
        unsafe {
            plugin.call(
                plugin.api.loaded_executable_addressable_devices,
                "PJRT_LoadedExecutable_AddressableDevices",
                &mut devices,
            )
        }
        .map_err(PjrtError::Plugin)?;
        // SAFETY: `num_devices` pointers owned by the executable.
        self.devices =
            unsafe { crate::ffi::foreign_slice(devices.devices, devices.num_devices) }.to_vec();
        if self.devices.len() != partitions {
            return Err(PjrtError::Plugin(format!(
                "compiled for {partitions} partitions, the executable runs on {} devices",
                self.devices.len()
            )));
        }
        let mut get = GetExecutableArgs {
            struct_size: std::mem::size_of::<GetExecutableArgs>(),
            extension_start: ptr::null_mut(),
            loaded_executable: self.raw,
            executable: ptr::null_mut(),
        };
        // SAFETY: a live executable.
        unsafe {
            plugin.call(
                plugin.api.loaded_executable_get_executable,
                "PJRT_LoadedExecutable_GetExecutable",
                &mut get,
            )
        }
        .map_err(PjrtError::Plugin)?;
        let result = self.describe_executable(get.executable);
        plugin.destroy_executable(get.executable);
        result
    }

    fn describe_executable(&mut self, executable: *mut RawExecutable) -> Result<(), PjrtError> {
        let plugin = self.client.plugin;
        let mut outputs = ExecutableNumOutputsArgs {
            struct_size: std::mem::size_of::<ExecutableNumOutputsArgs>(),
            extension_start: ptr::null_mut(),
            executable,
            num_outputs: 0,
        };
        // SAFETY: a live executable.
        unsafe {
            plugin.call(
                plugin.api.executable_num_outputs,
                "PJRT_Executable_NumOutputs",
                &mut outputs,
            )
        }
        .map_err(PjrtError::Plugin)?;
        self.num_outputs = outputs.num_outputs;
        // The signature: a program without one still runs, with XLA's own
        // checks of the arguments.
        if let Ok(shape) = optimized_program_shape(plugin, executable) {
            let results = match shape.result {
                Shape::Tuple(items) => items,
                one => vec![one],
            };
            if results.iter().any(|r| !matches!(r, Shape::Array { .. })) {
                return Err(PjrtError::Unsupported(
                    "the program returns a tuple (or token) among its results: not supported \
                     (JAX's @main returns arrays)"
                        .into(),
                ));
            }
            if results.len() == self.num_outputs {
                self.results = Some(results);
            }
            self.parameters = Some(shape.parameters);
            self.shardings = (shape.parameter_shardings, shape.result_shardings);
        }
        Ok(())
    }

    /// The shardings XLA's SPMD partitioner gave the program's parameters
    /// (`spmd_parameters_shardings` of the optimized HLO), in HLO's text form
    /// (`{devices=[4,1]<=[4]}`, `{replicated}`); one per parameter, `None`
    /// for kinds without a text here; empty for a program on one device.
    /// What JAX reads back as the compiled executable's input shardings.
    pub fn parameter_shardings(&self) -> &[Option<String>] {
        &self.shardings.0
    }

    /// The results' shardings (`spmd_output_sharding`), likewise.
    pub fn result_shardings(&self) -> &[Option<String>] {
        &self.shardings.1
    }

    /// Runs the program: `args[device][parameter]` host arrays (one list
    /// per device the program was compiled for, partition `i` on device
    /// `i`); returns `results[device][output]`. Types and shapes are
    /// checked against the program's parameters first (an error names the
    /// argument). Everything the run made on the plugin's side is freed
    /// before it returns, on success and on error.
    pub fn execute(&self, args: &[Vec<Array>]) -> Result<Vec<Vec<Array>>, PjrtError> {
        let plugin = self.client.plugin;
        let devices = self.devices.len();
        if args.len() != devices {
            return Err(PjrtError::Argument(format!(
                "{} argument list(s) for a program on {devices} device(s): give one list per device",
                args.len()
            )));
        }
        let num_args = args.first().map_or(0, Vec::len);
        if args.iter().any(|list| list.len() != num_args) {
            return Err(PjrtError::Argument(
                "the devices' argument lists differ in length".into(),
            ));
        }
        let mut inputs: Vec<Vec<Buffer>> = Vec::with_capacity(devices);
        for (d, list) in args.iter().enumerate() {
            let at = |i: usize| {
                if devices > 1 {
                    format!("argument {i} of device {d}")
                } else {
                    format!("argument {i}")
                }
            };
            if let Some(parameters) = &self.parameters
                && list.len() != parameters.len()
            {
                let whose = if devices > 1 {
                    format!("device {d}: ")
                } else {
                    String::new()
                };
                return Err(PjrtError::Argument(format!(
                    "{whose}{} argument(s) given, the program takes {}",
                    list.len(),
                    parameters.len()
                )));
            }
            let mut buffers = Vec::with_capacity(list.len());
            for (i, array) in list.iter().enumerate() {
                let Some(kind) = buffer_type(array.elem) else {
                    return Err(PjrtError::Unsupported(format!(
                        "{}: element type {} has no XLA buffer type here",
                        at(i),
                        array.elem
                    )));
                };
                if let Some(Shape::Array { element_type, dims }) =
                    self.parameters.as_ref().and_then(|p| p.get(i))
                {
                    let given: Vec<i64> = array.shape.iter().map(|&d| d as i64).collect();
                    let wanted = ffi::DataType(*element_type);
                    if ffi::DataType::of(array.elem) != Some(wanted) || &given != dims {
                        return Err(PjrtError::Argument(format!(
                            "{}: {} given, the program takes {}",
                            at(i),
                            describe(&array.shape, &array.elem.to_string()),
                            describe_xla(*element_type, dims)
                        )));
                    }
                }
                if array.shape.iter().product::<usize>() != array.data.len() {
                    return Err(PjrtError::Argument(format!(
                        "{}: {} elements for shape {:?}",
                        at(i),
                        array.data.len(),
                        array.shape
                    )));
                }
                buffers.push(self.upload(array, kind, self.devices[d]).map_err(|m| {
                    PjrtError::Plugin(format!("{}: copying to device {d}: {m}", at(i)))
                })?);
            }
            inputs.push(buffers);
        }
        let raw_inputs: Vec<Vec<*mut RawBuffer>> = inputs
            .iter()
            .map(|list| list.iter().map(|b| b.raw).collect())
            .collect();
        let argument_lists: Vec<*const *mut RawBuffer> =
            raw_inputs.iter().map(|list| list.as_ptr()).collect();
        let mut raw_outputs: Vec<Vec<*mut RawBuffer>> =
            vec![vec![ptr::null_mut(); self.num_outputs]; devices];
        let output_lists: Vec<*mut *mut RawBuffer> = raw_outputs
            .iter_mut()
            .map(|list| list.as_mut_ptr())
            .collect();
        let mut events: Vec<*mut RawEvent> = vec![ptr::null_mut(); devices];
        let mut options = ExecuteOptions {
            struct_size: std::mem::size_of::<ExecuteOptions>(),
            extension_start: ptr::null_mut(),
            send_callbacks: ptr::null_mut(),
            recv_callbacks: ptr::null_mut(),
            num_send_ops: 0,
            num_recv_ops: 0,
            launch_id: next_launch_id(),
            non_donatable_input_indices: ptr::null(),
            num_non_donatable_input_indices: 0,
            context: ptr::null_mut(),
            call_location: ptr::null(),
            num_tasks: 0,
            task_ids: ptr::null_mut(),
            incarnation_ids: ptr::null_mut(),
        };
        let mut execute = ExecuteArgs {
            struct_size: std::mem::size_of::<ExecuteArgs>(),
            extension_start: ptr::null_mut(),
            executable: self.raw,
            options: &mut options,
            argument_lists: argument_lists.as_ptr(),
            num_devices: devices,
            num_args,
            output_lists: output_lists.as_ptr(),
            device_complete_events: events.as_mut_ptr(),
            execute_device: ptr::null_mut(),
        };
        // SAFETY: every list has the lengths given, the buffers are live,
        // and the output and event arrays are ours to be filled.
        let launched = unsafe {
            plugin.call(
                plugin.api.loaded_executable_execute,
                "PJRT_LoadedExecutable_Execute",
                &mut execute,
            )
        };
        // Own whatever the plugin returned before anything can fail.
        let outputs: Vec<Vec<Buffer>> = raw_outputs
            .iter()
            .map(|list| list.iter().map(|&raw| Buffer { plugin, raw }).collect())
            .collect();
        let mut failure = launched.err();
        for &event in &events {
            if let Err(message) = await_event(plugin, event) {
                failure.get_or_insert(message);
            }
        }
        drop(inputs);
        if let Some(message) = failure {
            return Err(PjrtError::Execute(message));
        }
        outputs
            .iter()
            .enumerate()
            .map(|(d, list)| {
                list.iter()
                    .enumerate()
                    .map(|(o, buffer)| {
                        download(plugin, buffer.raw).map_err(|m| {
                            PjrtError::Plugin(format!("output {o} of device {d}: {m}"))
                        })
                    })
                    .collect()
            })
            .collect()
    }

    /// `PJRT_Client_BufferFromHostBuffer` of one array on one device.
    fn upload(&self, array: &Array, kind: c_int, device: *mut RawDevice) -> Result<Buffer, String> {
        let plugin = self.client.plugin;
        let bytes = host_bytes(array)?;
        let dims: Vec<i64> = array.shape.iter().map(|&d| d as i64).collect();
        let mut args = BufferFromHostBufferArgs {
            struct_size: std::mem::size_of::<BufferFromHostBufferArgs>(),
            extension_start: ptr::null_mut(),
            client: self.client.raw,
            data: bytes.as_ptr().cast(),
            kind,
            dims: dims.as_ptr(),
            num_dims: dims.len(),
            byte_strides: ptr::null(),
            num_byte_strides: 0,
            host_buffer_semantics: HOST_BUFFER_IMMUTABLE_ONLY_DURING_CALL,
            device,
            memory: ptr::null_mut(),
            device_layout: ptr::null_mut(),
            done_with_host_buffer: ptr::null_mut(),
            buffer: ptr::null_mut(),
        };
        // SAFETY: `bytes` and `dims` outlive the call (the plugin copies the
        // data during it); `device` belongs to the live client.
        unsafe {
            plugin.call(
                plugin.api.client_buffer_from_host_buffer,
                "PJRT_Client_BufferFromHostBuffer",
                &mut args,
            )
        }?;
        let buffer = Buffer {
            plugin,
            raw: args.buffer,
        };
        await_event(plugin, args.done_with_host_buffer)?;
        Ok(buffer)
    }
}

/// Host tensor types of XLA array shapes; `None` if one is not an array of
/// a host element type.
fn tensor_types(shapes: &[Shape]) -> Option<Vec<TensorType>> {
    shapes
        .iter()
        .map(|shape| match shape {
            Shape::Array { element_type, dims } => Some(TensorType {
                elem: ffi::DataType(*element_type).elem()?,
                shape: dims
                    .iter()
                    .map(|&d| usize::try_from(d).ok())
                    .collect::<Option<_>>()?,
            }),
            _ => None,
        })
        .collect()
}

/// The serialized optimized program's entry signature.
fn optimized_program_shape(
    plugin: &Plugin,
    executable: *mut RawExecutable,
) -> Result<hlo::ProgramShape, String> {
    let mut program = Program {
        struct_size: std::mem::size_of::<Program>(),
        extension_start: ptr::null_mut(),
        code: ptr::null_mut(),
        code_size: 0,
        format: ptr::null(),
        format_size: 0,
    };
    let mut args = OptimizedProgramArgs {
        struct_size: std::mem::size_of::<OptimizedProgramArgs>(),
        extension_start: ptr::null_mut(),
        executable,
        program: &mut program,
    };
    // SAFETY: a live executable; a null `code` asks for the size.
    unsafe {
        plugin.call(
            plugin.api.executable_optimized_program,
            "PJRT_Executable_OptimizedProgram",
            &mut args,
        )
    }?;
    let mut code = vec![0u8; program.code_size];
    program.code = code.as_mut_ptr().cast();
    args.program = &mut program;
    // SAFETY: `code` has the size the plugin asked for.
    unsafe {
        plugin.call(
            plugin.api.executable_optimized_program,
            "PJRT_Executable_OptimizedProgram",
            &mut args,
        )
    }?;
    code.truncate(program.code_size);
    // SAFETY: the format string is the plugin's static text.
    let format =
        unsafe { crate::ffi::foreign_slice(program.format.cast::<u8>(), program.format_size) };
    hlo::entry_shape(&code, format == b"hlo_with_config")
}

/// `PJRT_Buffer_Type` of an element type; `None` for types without one.
fn buffer_type(elem: ElemType) -> Option<c_int> {
    Some(match elem {
        ElemType::Int(1) => 1,
        ElemType::Int(8) => 2,
        ElemType::Int(16) => 3,
        ElemType::Int(32) => 4,
        ElemType::Int(64) | ElemType::Index => 5,
        ElemType::UInt(8) => 6,
        ElemType::UInt(16) => 7,
        ElemType::UInt(32) => 8,
        ElemType::UInt(64) => 9,
        ElemType::F16 => 10,
        ElemType::F32 => 11,
        ElemType::F64 => 12,
        ElemType::BF16 => 13,
        ElemType::F8E5M2 => 16,
        ElemType::F8E4M3FN => 17,
        ElemType::F8E4M3B11FNUZ => 18,
        _ => return None,
    })
}

/// The element type of a `PJRT_Buffer_Type`.
fn elem_of_buffer_type(kind: c_int) -> Option<ElemType> {
    Some(match kind {
        1 => ElemType::Int(1),
        2 => ElemType::Int(8),
        3 => ElemType::Int(16),
        4 => ElemType::Int(32),
        5 => ElemType::Int(64),
        6 => ElemType::UInt(8),
        7 => ElemType::UInt(16),
        8 => ElemType::UInt(32),
        9 => ElemType::UInt(64),
        10 => ElemType::F16,
        11 => ElemType::F32,
        12 => ElemType::F64,
        13 => ElemType::BF16,
        16 => ElemType::F8E5M2,
        17 => ElemType::F8E4M3FN,
        18 => ElemType::F8E4M3B11FNUZ,
        _ => return None,
    })
}

/// `f32[8,128]`.
fn describe(shape: &[usize], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("{elem}[{}]", dims.join(","))
}

fn describe_xla(element_type: i32, dims: &[i64]) -> String {
    let elem = ffi::DataType(element_type)
        .elem()
        .map_or_else(|| format!("xla type {element_type}"), |e| e.to_string());
    let dims: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!("{elem}[{}]", dims.join(","))
}

/// Copies one result buffer to the host as an array.
fn download(plugin: &Plugin, buffer: *mut RawBuffer) -> Result<Array, String> {
    if buffer.is_null() {
        return Err("the plugin returned no buffer".into());
    }
    let mut kind = BufferElementTypeArgs {
        struct_size: std::mem::size_of::<BufferElementTypeArgs>(),
        extension_start: ptr::null_mut(),
        buffer,
        kind: 0,
    };
    // SAFETY: a live buffer.
    unsafe {
        plugin.call(
            plugin.api.buffer_element_type,
            "PJRT_Buffer_ElementType",
            &mut kind,
        )
    }?;
    let Some(elem) = elem_of_buffer_type(kind.kind) else {
        return Err(format!(
            "element type {} (PJRT_Buffer_Type) has no host counterpart here",
            kind.kind
        ));
    };
    let mut dims = BufferDimensionsArgs {
        struct_size: std::mem::size_of::<BufferDimensionsArgs>(),
        extension_start: ptr::null_mut(),
        buffer,
        dims: ptr::null(),
        num_dims: 0,
    };
    // SAFETY: a live buffer.
    unsafe {
        plugin.call(
            plugin.api.buffer_dimensions,
            "PJRT_Buffer_Dimensions",
            &mut dims,
        )
    }?;
    // SAFETY: `num_dims` dimensions that live as long as the buffer.
    let shape: Vec<usize> = unsafe { crate::ffi::foreign_slice(dims.dims, dims.num_dims) }
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .collect();
    let rank = shape.len() as i64;
    let minor_to_major: Vec<i64> = (0..rank).rev().collect();
    let mut layout = MemoryLayout::row_major(&minor_to_major);
    let size = shape.iter().product::<usize>() * elem.bytes();
    let mut bytes = vec![0u8; size.max(1)];
    let mut copy = BufferToHostArgs {
        struct_size: std::mem::size_of::<BufferToHostArgs>(),
        extension_start: ptr::null_mut(),
        src: buffer,
        host_layout: &mut layout,
        dst: bytes.as_mut_ptr().cast(),
        dst_size: size,
        event: ptr::null_mut(),
    };
    // SAFETY: `bytes` holds `size` bytes, the dense size of the buffer in
    // the row-major layout asked for; both outlive the awaited copy.
    unsafe {
        plugin.call(
            plugin.api.buffer_to_host_buffer,
            "PJRT_Buffer_ToHostBuffer",
            &mut copy,
        )
    }?;
    await_event(plugin, copy.event)?;
    Ok(array_from_bytes(elem, shape, &bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tuple_results_of_main() {
        let tuple =
            b"func.func @main(%x: tensor<2xf32> {a = \"tuple<\"}) -> tuple<tensor<2xf32>> {\n";
        assert!(main_returns_tuple(tuple));
        let nested = b"func.func public @main(%x: tensor<f32>) -> (tensor<f32> {r = \"{x}\"}, tuple<tensor<f32>>) {";
        assert!(main_returns_tuple(nested));
        let arrays = b"func.func @main(%x: tuple<tensor<f32>>) -> (tensor<f32> {r = \"tuple<\"}) {\n %0 = stablehlo.tuple";
        assert!(!main_returns_tuple(arrays));
        assert!(!main_returns_tuple(b"ML\xefR tuple<"));
    }

    #[test]
    fn reads_the_minimum_version_from_xlas_refusal() {
        let message = "XLA FFI handler registration for f on platform cpu (canonical host) failed \
                       because the handler's API version (0.1) is incompatible with the \
                       framework's API version (0.3). Minimum supported API version is (0.2).";
        assert_eq!(minimum_ffi_version(message), Some((0, 2)));
        assert_eq!(minimum_ffi_version("other"), None);
    }

    #[test]
    fn host_bytes_round_trip_every_type() {
        let types = [
            ElemType::F64,
            ElemType::F32,
            ElemType::BF16,
            ElemType::F16,
            ElemType::F8E4M3FN,
            ElemType::F8E5M2,
            ElemType::F8E4M3B11FNUZ,
            ElemType::Int(1),
            ElemType::Int(8),
            ElemType::Int(16),
            ElemType::Int(32),
            ElemType::Int(64),
            ElemType::UInt(8),
            ElemType::UInt(16),
            ElemType::UInt(32),
            ElemType::UInt(64),
        ];
        for elem in types {
            let kind = buffer_type(elem).unwrap();
            assert_eq!(elem_of_buffer_type(kind), Some(elem));
            let values = [-3.0, -1.0, 0.0, 0.5, 1.0, 2.0];
            let mut a = Array::filled(elem, &[2, 3], 0.0);
            for (i, v) in values.iter().enumerate() {
                a.data
                    .set_f64(i, if elem.is_float() { elem.round(*v) } else { *v });
                if !elem.is_float() {
                    let w = elem.wrap(a.data.get_i64(i));
                    let w = if let ElemType::UInt(b) = elem {
                        if b < 64 { w & ((1 << b) - 1) } else { w }
                    } else {
                        w
                    };
                    a.data.set_f64(i, w as f64);
                }
            }
            let bytes = host_bytes(&a).unwrap();
            assert_eq!(bytes.len(), 6 * elem.bytes(), "{elem}");
            assert_eq!(array_from_bytes(elem, vec![2, 3], &bytes), a, "{elem}");
        }
    }
}
