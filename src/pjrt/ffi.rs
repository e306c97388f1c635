//! The XLA FFI C ABI (`xla/ffi/api/c_api.h` in openxla/xla), the part a
//! typed custom-call handler needs, written by hand: the call frame XLA
//! passes a handler, its buffers, the error a handler returns, and the
//! metadata query XLA makes when the handler is registered.
//!
//! Every struct starts with `struct_size` and (almost all) an extension
//! pointer, and only ever grows at its end, so a handler reads the fields
//! below from any XLA whose FFI API is 0.1 or newer and never writes past
//! what the caller's `struct_size` says.
//!
//! A handler registered with `CpuClient::register_ffi_handler` is called
//! in two ways:
//!
//! 1. once at registration, with a *metadata* call frame
//!    ([`answer_metadata`] fills it; the handler must return null right
//!    after): XLA refuses a handler whose API version is not one it supports;
//! 2. once per execution of each custom call, with the call's operands
//!    ([`CallFrame::args`]) and results ([`CallFrame::rets`]) as XLA buffers
//!    (dense, row-major, XLA owns them; results are written in place).
//!
//! A handler returns null for success or an error made by [`error`] (XLA
//! owns and frees it). It must never unwind across the C boundary: catch
//! panics (`std::panic::catch_unwind`) and turn them into an error.
//!
//! ```
//! use std::ffi::c_void;
//! use tpu_custom_call::pjrt::ffi::{self, CallFrame};
//!
//! /// Adds 1 to an f32 buffer.
//! unsafe extern "C" fn add_one(frame: *mut c_void) -> *mut c_void {
//!     let frame = frame.cast::<CallFrame>();
//!     // SAFETY: XLA passes a live call frame.
//!     unsafe {
//!         if ffi::answer_metadata(frame) {
//!             return std::ptr::null_mut();
//!         }
//!         let (Some(x), Some(y)) = ((*frame).arg(0), (*frame).ret(0)) else {
//!             return ffi::error(frame, ffi::ErrorCode::InvalidArgument, "add_one: one operand, one result");
//!         };
//!         let n = x.elements();
//!         let (x, y) = (x.data.cast::<f32>(), y.data.cast::<f32>());
//!         for i in 0..n {
//!             *y.add(i) = *x.add(i) + 1.0;
//!         }
//!     }
//!     std::ptr::null_mut()
//! }
//! ```

use std::ffi::{CString, c_char, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(feature = "exec")]
use crate::exec::ElemType;

/// The FFI API version this binding is written against and reports at
/// registration when the framework does not say otherwise: 0.1, the
/// oldest whose call frame, buffer and error layouts are all the ones
/// below (the plugin accepts any version from its minimum to its own).
pub const API_VERSION: (i32, i32) = (0, 1);

/// The version [`answer_metadata`] reports: `major << 32 | minor`, set by
/// the client before it registers (see [`set_reported_version`]).
static REPORTED_VERSION: AtomicU64 = AtomicU64::new(pack(API_VERSION));

const fn pack((major, minor): (i32, i32)) -> u64 {
    ((major as u32 as u64) << 32) | (minor as u32 as u64)
}

/// Sets the API version handlers report at registration (process-wide):
/// the client calls it with the framework's version when XLA named one.
pub fn set_reported_version(version: (i32, i32)) {
    REPORTED_VERSION.store(pack(version), Ordering::Relaxed);
}

/// The API version handlers report at registration.
pub fn reported_version() -> (i32, i32) {
    let v = REPORTED_VERSION.load(Ordering::Relaxed);
    ((v >> 32) as u32 as i32, v as u32 as i32)
}

/// `XLA_FFI_Error` (opaque; owned by whoever receives it).
#[repr(C)]
pub struct Error {
    _private: [u8; 0],
}

/// `XLA_FFI_InvokeContext` (opaque).
#[repr(C)]
pub struct InvokeContext {
    _private: [u8; 0],
}

/// `XLA_FFI_InternalExtension` (`XLA_FFI_Extension_Base` in older headers):
/// the head of every extension chained from an `extension_start`.
#[repr(C)]
pub struct ExtensionBase {
    /// `struct_size`.
    pub struct_size: usize,
    /// `type` ([`EXTENSION_METADATA`] for the registration query).
    pub kind: i32,
    /// The next extension, or null.
    pub next: *mut ExtensionBase,
}

/// `XLA_FFI_Extension_Metadata`: the extension type of the metadata query.
pub const EXTENSION_METADATA: i32 = 1;

/// `XLA_FFI_Api_Version`.
#[repr(C)]
pub struct ApiVersion {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// Major version.
    pub major_version: i32,
    /// Minor version.
    pub minor_version: i32,
}

/// `XLA_FFI_Metadata`: what a handler says about itself at registration.
/// Newer headers add `state_type_id` after `traits`; it is never written.
#[repr(C)]
pub struct Metadata {
    /// `struct_size`.
    pub struct_size: usize,
    /// The handler's FFI API version.
    pub api_version: ApiVersion,
    /// `XLA_FFI_Handler_Traits` bits (0: none).
    pub traits: u32,
}

/// `XLA_FFI_Metadata_Extension`.
#[repr(C)]
pub struct MetadataExtension {
    /// Its head (`kind == EXTENSION_METADATA`).
    pub extension_base: ExtensionBase,
    /// The metadata to fill.
    pub metadata: *mut Metadata,
}

/// `XLA_FFI_Error_Code` (absl status codes).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// `OK`.
    Ok = 0,
    /// `CANCELLED`.
    Cancelled = 1,
    /// `UNKNOWN`.
    Unknown = 2,
    /// `INVALID_ARGUMENT`.
    InvalidArgument = 3,
    /// `NOT_FOUND`.
    NotFound = 5,
    /// `FAILED_PRECONDITION`.
    FailedPrecondition = 9,
    /// `UNIMPLEMENTED`.
    Unimplemented = 12,
    /// `INTERNAL`.
    Internal = 13,
}

/// `XLA_FFI_Error_Create_Args`.
#[repr(C)]
pub struct ErrorCreateArgs {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// A NUL-terminated message (XLA copies it).
    pub message: *const c_char,
    /// The code.
    pub errc: ErrorCode,
}

/// `XLA_FFI_Error_Create`.
pub type ErrorCreate = unsafe extern "C" fn(*mut ErrorCreateArgs) -> *mut Error;

/// `XLA_FFI_RunId_Get_Args`.
#[repr(C)]
pub struct RunIdGetArgs {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// The call's context.
    pub ctx: *mut InvokeContext,
    /// Out: the run id.
    pub run_id: i64,
}

/// `XLA_FFI_DeviceOrdinal_Get_Args`.
#[repr(C)]
pub struct DeviceOrdinalGetArgs {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// The call's context.
    pub ctx: *mut InvokeContext,
    /// Out: the device's ordinal.
    pub device_ordinal: i32,
}

/// A function of the table taking one argument struct.
pub type ApiFn<A> = Option<unsafe extern "C" fn(*mut A) -> *mut Error>;
type Slot = *const c_void;

/// `XLA_FFI_Api`, up to `XLA_FFI_DeviceOrdinal_Get` (the table only grows
/// at its end: a slot is there when `struct_size` reaches past it, see
/// [`run_id`] and [`device_ordinal`]).
#[repr(C)]
pub struct Api {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// The framework's FFI API version.
    pub api_version: ApiVersion,
    /// `internal_api` (XLA's own).
    pub internal_api: *const c_void,
    /// `XLA_FFI_Error_Create`.
    pub error_create: ErrorCreate,
    /// `XLA_FFI_Error_GetDetails` … `XLA_FFI_Future_SetError` (15 slots).
    pub _error_get_details_to_future_set_error: [Slot; 15],
    /// `XLA_FFI_RunId_Get`.
    pub run_id_get: ApiFn<RunIdGetArgs>,
    /// `XLA_FFI_DeviceOrdinal_Get`.
    pub device_ordinal_get: ApiFn<DeviceOrdinalGetArgs>,
}

/// The framework's table of a running call, when it has the slot ending
/// at `end` bytes.
unsafe fn api_with(frame: *const CallFrame, end: usize) -> Option<&'static Api> {
    // SAFETY: a live frame whose `api` is XLA's static table (or null).
    let api = unsafe { frame.as_ref()?.api.as_ref()? };
    (api.struct_size >= end).then_some(api)
}

/// The run id of the running execution (`XLA_FFI_RunId_Get`): the same for
/// every device's call of one `execute`, different across executions; the
/// key a rendezvous between devices' calls of one step needs. (The CPU
/// plugin takes it from the execution's launch id, which
/// `Executable::execute` makes unique per execution: measured, 0 for
/// every execution otherwise.) `None` when
/// the framework's API has no such slot or fails.
///
/// # Safety
/// `frame` is the frame XLA passed the running handler.
pub unsafe fn run_id(frame: *const CallFrame) -> Option<i64> {
    let end = std::mem::offset_of!(Api, run_id_get) + std::mem::size_of::<usize>();
    // SAFETY: forwarded.
    let api = unsafe { api_with(frame, end) }?;
    let mut args = RunIdGetArgs {
        struct_size: std::mem::size_of::<RunIdGetArgs>(),
        extension_start: std::ptr::null_mut(),
        // SAFETY: a live frame.
        ctx: unsafe { (*frame).ctx },
        run_id: 0,
    };
    // SAFETY: the slot exists (size checked) and takes these arguments.
    let error = unsafe { (api.run_id_get?)(&mut args) };
    // An error is XLA's to free with `XLA_FFI_Error_Destroy`, which this
    // binding does not call: it is leaked (a few bytes, on a path the CPU
    // plugin never takes).
    error.is_null().then_some(args.run_id)
}

/// The ordinal of the device the call runs on (`XLA_FFI_DeviceOrdinal_Get`):
/// with SPMD partitions on the client's devices in order, the partition.
/// `None` as for [`run_id`].
///
/// # Safety
/// As [`run_id`].
pub unsafe fn device_ordinal(frame: *const CallFrame) -> Option<i32> {
    let end = std::mem::offset_of!(Api, device_ordinal_get) + std::mem::size_of::<usize>();
    // SAFETY: forwarded.
    let api = unsafe { api_with(frame, end) }?;
    let mut args = DeviceOrdinalGetArgs {
        struct_size: std::mem::size_of::<DeviceOrdinalGetArgs>(),
        extension_start: std::ptr::null_mut(),
        // SAFETY: a live frame.
        ctx: unsafe { (*frame).ctx },
        device_ordinal: 0,
    };
    // SAFETY: the slot exists (size checked) and takes these arguments.
    let error = unsafe { (api.device_ordinal_get?)(&mut args) };
    error.is_null().then_some(args.device_ordinal)
}

/// `XLA_FFI_ExecutionStage`.
pub const STAGE_EXECUTE: i32 = 3;

/// `XLA_FFI_DataType`: `xla::PrimitiveType`'s numbers.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataType(pub i32);

impl DataType {
    /// `PRED`.
    pub const PRED: DataType = DataType(1);
    /// `S8`.
    pub const S8: DataType = DataType(2);
    /// `S16`.
    pub const S16: DataType = DataType(3);
    /// `S32`.
    pub const S32: DataType = DataType(4);
    /// `S64`.
    pub const S64: DataType = DataType(5);
    /// `U8`.
    pub const U8: DataType = DataType(6);
    /// `U16`.
    pub const U16: DataType = DataType(7);
    /// `U32`.
    pub const U32: DataType = DataType(8);
    /// `U64`.
    pub const U64: DataType = DataType(9);
    /// `F16`.
    pub const F16: DataType = DataType(10);
    /// `F32`.
    pub const F32: DataType = DataType(11);
    /// `F64`.
    pub const F64: DataType = DataType(12);
    /// `BF16`.
    pub const BF16: DataType = DataType(16);
    /// `F8E5M2`.
    pub const F8E5M2: DataType = DataType(19);
    /// `F8E4M3FN`.
    pub const F8E4M3FN: DataType = DataType(20);
    /// `F8E4M3B11FNUZ`.
    pub const F8E4M3B11FNUZ: DataType = DataType(23);

    #[cfg(feature = "exec")]
    /// The executor's element type of an XLA type; `None` for types it has
    /// no counterpart of (complex, sub-byte, other f8s, tokens).
    pub fn elem(self) -> Option<ElemType> {
        Some(match self {
            DataType::PRED => ElemType::Int(1),
            DataType::S8 => ElemType::Int(8),
            DataType::S16 => ElemType::Int(16),
            DataType::S32 => ElemType::Int(32),
            DataType::S64 => ElemType::Int(64),
            DataType::U8 => ElemType::UInt(8),
            DataType::U16 => ElemType::UInt(16),
            DataType::U32 => ElemType::UInt(32),
            DataType::U64 => ElemType::UInt(64),
            DataType::F16 => ElemType::F16,
            DataType::F32 => ElemType::F32,
            DataType::F64 => ElemType::F64,
            DataType::BF16 => ElemType::BF16,
            DataType::F8E5M2 => ElemType::F8E5M2,
            DataType::F8E4M3FN => ElemType::F8E4M3FN,
            DataType::F8E4M3B11FNUZ => ElemType::F8E4M3B11FNUZ,
            _ => return None,
        })
    }

    #[cfg(feature = "exec")]
    /// The XLA type of an executor element type (`index` is `S64`); `None`
    /// for semaphores and integer widths XLA has no type of.
    pub fn of(elem: ElemType) -> Option<DataType> {
        Some(match elem {
            ElemType::Int(1) => DataType::PRED,
            ElemType::Int(8) => DataType::S8,
            ElemType::Int(16) => DataType::S16,
            ElemType::Int(32) => DataType::S32,
            ElemType::Int(64) | ElemType::Index => DataType::S64,
            ElemType::UInt(8) => DataType::U8,
            ElemType::UInt(16) => DataType::U16,
            ElemType::UInt(32) => DataType::U32,
            ElemType::UInt(64) => DataType::U64,
            ElemType::F16 => DataType::F16,
            ElemType::F32 => DataType::F32,
            ElemType::F64 => DataType::F64,
            ElemType::BF16 => DataType::BF16,
            ElemType::F8E5M2 => DataType::F8E5M2,
            ElemType::F8E4M3FN => DataType::F8E4M3FN,
            ElemType::F8E4M3B11FNUZ => DataType::F8E4M3B11FNUZ,
            _ => return None,
        })
    }
}

/// `XLA_FFI_Buffer`: one operand or result of a call, dense and row-major.
#[repr(C)]
pub struct Buffer {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// Element type.
    pub dtype: DataType,
    /// The elements (XLA's memory, valid during the call).
    pub data: *mut c_void,
    /// Rank.
    pub rank: i64,
    /// `rank` dimensions.
    pub dims: *mut i64,
}

impl Buffer {
    /// The dimensions.
    ///
    /// # Safety
    /// `self` is a buffer XLA passed to the running call.
    pub unsafe fn dims(&self) -> &[i64] {
        let rank = usize::try_from(self.rank).unwrap_or(0);
        if rank == 0 || self.dims.is_null() {
            return &[];
        }
        // SAFETY: XLA's buffer has `rank` dimensions that live for the call.
        unsafe { std::slice::from_raw_parts(self.dims, rank) }
    }

    /// The number of elements (1 for a scalar).
    ///
    /// # Safety
    /// As [`Buffer::dims`].
    pub unsafe fn elements(&self) -> usize {
        // SAFETY: forwarded.
        unsafe { self.dims() }
            .iter()
            .map(|&d| usize::try_from(d).unwrap_or(0))
            .product()
    }
}

#[cfg(feature = "exec")]
impl Buffer {
    /// The buffer's elements as a host array of the executor.
    ///
    /// # Safety
    /// As [`Buffer::dims`]; `data` holds the buffer's elements.
    pub unsafe fn to_array(&self) -> Result<crate::exec::Array, String> {
        let elem = self
            .dtype
            .elem()
            .ok_or_else(|| format!("XLA element type {} has no host counterpart", self.dtype.0))?;
        // SAFETY: forwarded.
        let shape: Vec<usize> = unsafe { self.dims() }
            .iter()
            .map(|&d| usize::try_from(d).unwrap_or(0))
            .collect();
        let n: usize = shape.iter().product();
        let bytes = if n == 0 || self.data.is_null() {
            &[][..]
        } else {
            // SAFETY: XLA's buffer holds `n` dense elements of the type.
            unsafe { std::slice::from_raw_parts(self.data.cast::<u8>(), n * elem.bytes()) }
        };
        if bytes.len() < n * elem.bytes() {
            return Err("the buffer has no data".into());
        }
        Ok(super::host::array_from_bytes(elem, shape, bytes))
    }

    /// Writes `array` into this buffer (a result): its element type and
    /// shape must be the buffer's.
    ///
    /// # Safety
    /// As [`Buffer::dims`]; `data` is writable for the buffer's elements.
    pub unsafe fn write_array(&self, array: &crate::exec::Array) -> Result<(), String> {
        // SAFETY: forwarded.
        let dims = unsafe { self.dims() };
        let same_shape = dims.len() == array.shape.len()
            && dims.iter().zip(&array.shape).all(|(&d, &s)| d == s as i64);
        if DataType::of(array.elem) != Some(self.dtype) || !same_shape {
            return Err(format!(
                "a {}{:?} array for an XLA buffer of type {} and shape {dims:?}",
                array.elem, array.shape, self.dtype.0
            ));
        }
        let bytes = super::host::host_bytes(array)?;
        if !bytes.is_empty() {
            // SAFETY: the buffer holds exactly these bytes (same type and
            // shape), and XLA does not touch it during the call.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.data.cast::<u8>(), bytes.len())
            };
        }
        Ok(())
    }
}

/// `XLA_FFI_ArgType_BUFFER` / `XLA_FFI_RetType_BUFFER`.
pub const TYPE_BUFFER: i32 = 1;

/// `XLA_FFI_Args`.
#[repr(C)]
pub struct Args {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// Number of operands.
    pub size: i64,
    /// `size` types (`TYPE_BUFFER`).
    pub types: *mut i32,
    /// `size` pointers (to [`Buffer`]s).
    pub args: *mut *mut c_void,
}

/// `XLA_FFI_Rets` (same layout as [`Args`]).
#[repr(C)]
pub struct Rets {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// Number of results.
    pub size: i64,
    /// `size` types (`TYPE_BUFFER`).
    pub types: *mut i32,
    /// `size` pointers (to [`Buffer`]s).
    pub rets: *mut *mut c_void,
}

/// `XLA_FFI_ByteSpan`.
#[repr(C)]
pub struct ByteSpan {
    /// The bytes (not NUL-terminated).
    pub ptr: *const c_char,
    /// Their count.
    pub len: usize,
}

/// `XLA_FFI_AttrType_STRING` (the attribute is a [`ByteSpan`]).
pub const ATTR_STRING: i32 = 4;
/// `XLA_FFI_AttrType_SCALAR` (an `XLA_FFI_Scalar`: data type, pointer).
pub const ATTR_SCALAR: i32 = 3;

/// `XLA_FFI_Attrs`: the call's `backend_config` dictionary, sorted by name.
#[repr(C)]
pub struct Attrs {
    /// `struct_size`.
    pub struct_size: usize,
    /// `extension_start`.
    pub extension_start: *mut ExtensionBase,
    /// Number of attributes.
    pub size: i64,
    /// `size` types (`ATTR_*`).
    pub types: *mut i32,
    /// `size` names.
    pub names: *mut *mut ByteSpan,
    /// `size` values.
    pub attrs: *mut *mut c_void,
}

/// `XLA_FFI_CallFrame`: what XLA passes a handler. Newer headers add
/// `future` after `attrs`; it is never touched here.
#[repr(C)]
pub struct CallFrame {
    /// `struct_size`.
    pub struct_size: usize,
    /// Extensions: the metadata query at registration, else null.
    pub extension_start: *mut ExtensionBase,
    /// The framework's API (null in the metadata query).
    pub api: *const Api,
    /// The execution context.
    pub ctx: *mut InvokeContext,
    /// `XLA_FFI_ExecutionStage` ([`STAGE_EXECUTE`]).
    pub stage: i32,
    /// Operands.
    pub args: Args,
    /// Results.
    pub rets: Rets,
    /// Attributes.
    pub attrs: Attrs,
}

impl CallFrame {
    /// Operand `i` when it is a buffer.
    ///
    /// # Safety
    /// `self` is the live frame of a running (non-metadata) call.
    pub unsafe fn arg(&self, i: usize) -> Option<&Buffer> {
        // SAFETY: forwarded.
        unsafe { nth(self.args.size, self.args.types, self.args.args, i) }
    }

    /// Result `i` when it is a buffer.
    ///
    /// # Safety
    /// As [`CallFrame::arg`].
    pub unsafe fn ret(&self, i: usize) -> Option<&Buffer> {
        // SAFETY: forwarded.
        unsafe { nth(self.rets.size, self.rets.types, self.rets.rets, i) }
    }

    /// The number of operands.
    pub fn num_args(&self) -> usize {
        usize::try_from(self.args.size).unwrap_or(0)
    }

    /// The number of results.
    pub fn num_rets(&self) -> usize {
        usize::try_from(self.rets.size).unwrap_or(0)
    }

    /// The string attribute `name` of the call's `backend_config`.
    ///
    /// # Safety
    /// As [`CallFrame::arg`].
    pub unsafe fn string_attr(&self, name: &str) -> Option<&[u8]> {
        let n = usize::try_from(self.attrs.size).ok()?;
        if n == 0 || self.attrs.names.is_null() {
            return None;
        }
        for i in 0..n {
            // SAFETY: XLA's attribute arrays have `size` entries that live
            // for the call, each name a span of live bytes.
            unsafe {
                let span = &**self.attrs.names.add(i);
                let key = std::slice::from_raw_parts(span.ptr.cast::<u8>(), span.len);
                if key == name.as_bytes() && *self.attrs.types.add(i) == ATTR_STRING {
                    let value = &*(*self.attrs.attrs.add(i)).cast::<ByteSpan>();
                    return Some(std::slice::from_raw_parts(
                        value.ptr.cast::<u8>(),
                        value.len,
                    ));
                }
            }
        }
        None
    }
}

/// Entry `i` of an argument/result array when it is a buffer.
unsafe fn nth<'a>(
    size: i64,
    types: *const i32,
    items: *mut *mut c_void,
    i: usize,
) -> Option<&'a Buffer> {
    let n = usize::try_from(size).ok()?;
    if i >= n || types.is_null() || items.is_null() {
        return None;
    }
    // SAFETY: XLA's arrays have `size` entries; a buffer entry points to a
    // live `XLA_FFI_Buffer`.
    unsafe {
        if *types.add(i) != TYPE_BUFFER {
            return None;
        }
        items.add(i).read().cast::<Buffer>().as_ref()
    }
}

/// Answers XLA's registration-time metadata query: when `frame` carries
/// the metadata extension, writes the API version (see
/// [`reported_version`]) and no traits, and returns true (the handler
/// then returns null at once); false for a real call.
///
/// # Safety
/// `frame` is the frame XLA passed the handler.
pub unsafe fn answer_metadata(frame: *mut CallFrame) -> bool {
    if frame.is_null() {
        return false;
    }
    // SAFETY: a live frame; its extension chain (if any) is XLA's.
    unsafe {
        let mut ext = (*frame).extension_start;
        while !ext.is_null() {
            if (*ext).kind == EXTENSION_METADATA {
                let metadata = (*ext.cast::<MetadataExtension>()).metadata;
                if !metadata.is_null() {
                    let (major, minor) = reported_version();
                    (*metadata).api_version.major_version = major;
                    (*metadata).api_version.minor_version = minor;
                    (*metadata).traits = 0;
                }
                return true;
            }
            ext = (*ext).next;
        }
    }
    false
}

/// An XLA error with `message` (XLA copies it and owns the error), to
/// return from the handler; null when the frame has no API (the metadata
/// query, where a handler has nothing to report).
///
/// # Safety
/// `frame` is the frame XLA passed the running handler.
pub unsafe fn error(frame: *const CallFrame, code: ErrorCode, message: &str) -> *mut c_void {
    // SAFETY: a live frame.
    let api = unsafe { frame.as_ref() }.map_or(std::ptr::null(), |f| f.api);
    // SAFETY: XLA's API table, live for the call.
    let Some(api) = (unsafe { api.as_ref() }) else {
        return std::ptr::null_mut();
    };
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    let mut args = ErrorCreateArgs {
        struct_size: std::mem::size_of::<ErrorCreateArgs>(),
        extension_start: std::ptr::null_mut(),
        message: text.as_ptr(),
        errc: code,
    };
    // SAFETY: a correctly sized argument struct; XLA copies the message.
    unsafe { (api.error_create)(&mut args) }.cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Offsets and sizes from `xla/ffi/api/c_api.h` (LP64).
    #[test]
    fn layouts_match_the_header() {
        assert_eq!(size_of::<Buffer>(), 48);
        assert_eq!(size_of::<Args>(), 40);
        assert_eq!(size_of::<Attrs>(), 48);
        assert_eq!(offset_of!(CallFrame, stage), 32);
        assert_eq!(offset_of!(CallFrame, args), 40);
        assert_eq!(offset_of!(CallFrame, rets), 80);
        assert_eq!(offset_of!(CallFrame, attrs), 120);
        assert_eq!(size_of::<CallFrame>(), 168);
        assert_eq!(offset_of!(Api, error_create), 48);
        assert_eq!(offset_of!(Api, run_id_get), 176);
        assert_eq!(offset_of!(Api, device_ordinal_get), 184);
        assert_eq!(size_of::<ErrorCreateArgs>(), 32);
        assert_eq!(offset_of!(Metadata, traits), 32);
        assert_eq!(size_of::<MetadataExtension>(), 32);
    }

    #[cfg(feature = "exec")]
    #[test]
    fn data_types_round_trip() {
        for t in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 19, 20, 23] {
            let elem = DataType(t).elem().unwrap();
            assert_eq!(DataType::of(elem), Some(DataType(t)));
        }
    }
}
