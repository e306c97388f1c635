//! The XLA FFI handler every rewritten call site runs: XLA's operand
//! buffers in, the executor on them, the results written into XLA's result
//! buffers. An executor error or a panic becomes an XLA error naming the
//! call (XLA fails the execution with it); nothing unwinds into XLA.

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::exec::ExecError;
use crate::pjrt::ffi::{self, ATTR_SCALAR, CallFrame, DataType, ErrorCode};

use super::rewrite::SITE_ATTRIBUTE;
use super::site::{self, Site};

/// `XLA_FFI_Scalar`: a scalar attribute's type and value.
#[repr(C)]
struct Scalar {
    dtype: DataType,
    value: *const c_void,
}

/// The handler registered under [`super::rewrite::FFI_TARGET`].
///
/// # Safety
/// Called by XLA with a live call frame.
pub unsafe extern "C" fn handler(frame: *mut c_void) -> *mut c_void {
    let frame = frame.cast::<CallFrame>();
    // SAFETY: XLA passes a live frame; the metadata query is answered first.
    unsafe {
        if ffi::answer_metadata(frame) {
            return std::ptr::null_mut();
        }
        let Some(f) = frame.as_ref() else {
            return std::ptr::null_mut();
        };
        if f.stage != ffi::STAGE_EXECUTE {
            return std::ptr::null_mut();
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| run(f)));
        let message = match outcome {
            Ok(Ok(())) => return std::ptr::null_mut(),
            Ok(Err(message)) => message,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                format!("the executor panicked: {what}")
            }
        };
        ffi::error(frame, ErrorCode::Internal, &message)
    }
}

/// The call site's id from the frame's attributes.
///
/// # Safety
/// `f` is a live frame of a running call.
unsafe fn site_id(f: &CallFrame) -> Option<u64> {
    let n = usize::try_from(f.attrs.size).ok()?;
    if f.attrs.names.is_null() || f.attrs.types.is_null() || f.attrs.attrs.is_null() {
        return None;
    }
    for i in 0..n {
        // SAFETY: XLA's attribute arrays have `size` live entries.
        unsafe {
            let span = &**f.attrs.names.add(i);
            let key = std::slice::from_raw_parts(span.ptr.cast::<u8>(), span.len);
            if key != SITE_ATTRIBUTE.as_bytes() || *f.attrs.types.add(i) != ATTR_SCALAR {
                continue;
            }
            let scalar = &*(*f.attrs.attrs.add(i)).cast::<Scalar>();
            if scalar.value.is_null() {
                return None;
            }
            return match scalar.dtype {
                DataType::S64 | DataType::U64 => Some(*scalar.value.cast::<u64>()),
                DataType::S32 | DataType::U32 => Some(u64::from(*scalar.value.cast::<u32>())),
                _ => None,
            };
        }
    }
    None
}

/// Runs one invocation: the error text is what XLA reports.
///
/// # Safety
/// `f` is a live frame of a running call.
unsafe fn run(f: &CallFrame) -> Result<(), String> {
    // SAFETY: forwarded.
    let id = unsafe { site_id(f) }
        .ok_or_else(|| format!("the call has no integer `{SITE_ATTRIBUTE}` attribute"))?;
    let site = site::lookup(id)
        .ok_or_else(|| format!("call site {id} is not registered (its program was dropped)"))?;
    // SAFETY: forwarded.
    let outcome = unsafe { run_site(f, &site) };
    outcome.map_err(|e| {
        site.record_error(&e);
        format!("{}: {e}", site.label())
    })
}

/// Reads the operands, runs the site, writes the results.
///
/// # Safety
/// `f` is a live frame of a running call.
unsafe fn run_site(f: &CallFrame, site: &Site) -> Result<(), ExecError> {
    let shape = site.execution.call_shape();
    let data_operands = shape.operands.len() + site.execution.shape_operands().len();
    let want = data_operands;
    if f.num_args() != want || f.num_rets() != shape.results.len() {
        return Err(ExecError::new(format!(
            "XLA passed {} operand(s) and {} result(s), the call has {want} and {}",
            f.num_args(),
            f.num_rets(),
            shape.results.len()
        )));
    }
    let mut inputs = Vec::with_capacity(data_operands);
    for i in 0..data_operands {
        // SAFETY: forwarded; `i` is below the frame's operand count.
        let buffer = unsafe { f.arg(i) }
            .ok_or_else(|| ExecError::new(format!("operand {i} is not a buffer")))?;
        // SAFETY: XLA's buffer, live for the call.
        inputs.push(
            unsafe { buffer.to_array() }
                .map_err(|m| ExecError::new(format!("operand {i}: {m}")))?,
        );
    }
    // The device (SPMD partition) this invocation runs for, as XLA says
    // (`XLA_FFI_DeviceOrdinal_Get`): only a rendezvous needs it.
    let device = if site.rendezvous && site.devices > 1 {
        // SAFETY: the live frame of this call.
        let ordinal = unsafe { ffi::device_ordinal(f) };
        match ordinal.and_then(|d| usize::try_from(d).ok()) {
            Some(d) => d,
            None => {
                return Err(ExecError::new(
                    "XLA does not say which device this call runs on \
                     (XLA_FFI_DeviceOrdinal_Get): a kernel that talks across devices needs it",
                ));
            }
        }
    } else {
        0
    };
    let results = site.execute(device, inputs)?;
    for (k, r) in results.iter().enumerate() {
        // SAFETY: `k` is below the frame's result count.
        let buffer = unsafe { f.ret(k) }
            .ok_or_else(|| ExecError::new(format!("result {k} is not a buffer")))?;
        // SAFETY: XLA's result buffer, live and writable for the call.
        unsafe { buffer.write_array(r) }.map_err(|m| ExecError::new(format!("result {k}: {m}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pjrt::ffi::{
        Api, ApiVersion, Args, Attrs, ByteSpan, ErrorCreateArgs, ExtensionBase, Rets, TYPE_BUFFER,
    };
    use std::sync::Mutex;

    /// What the fake `XLA_FFI_Error_Create` was asked to make.
    static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

    unsafe extern "C" fn fake_error_create(args: *mut ErrorCreateArgs) -> *mut ffi::Error {
        // SAFETY: the handler passes a live argument struct with a C string.
        let text = unsafe { std::ffi::CStr::from_ptr((*args).message) }
            .to_string_lossy()
            .into_owned();
        MESSAGES.lock().unwrap().push(text);
        // Any non-null pointer stands for the error here.
        std::ptr::NonNull::<ffi::Error>::dangling().as_ptr()
    }

    fn fake_api() -> Api {
        Api {
            struct_size: std::mem::size_of::<Api>(),
            extension_start: std::ptr::null_mut(),
            api_version: ApiVersion {
                struct_size: std::mem::size_of::<ApiVersion>(),
                extension_start: std::ptr::null_mut(),
                major_version: 0,
                minor_version: 1,
            },
            internal_api: std::ptr::null(),
            error_create: fake_error_create,
            _error_get_details_to_future_set_error: [std::ptr::null(); 15],
            run_id_get: None,
            device_ordinal_get: None,
        }
    }

    /// A call frame of one f32[8,128] operand and result and a `tcc_site`
    /// attribute, as XLA passes it (EXECUTE stage).
    struct Frame {
        frame: CallFrame,
        _keep: Vec<Box<dyn std::any::Any>>,
    }

    fn frame(
        api: &Api,
        site: i64,
        data: &mut [f32],
        out: &mut [f32],
        dims: &mut [i64; 2],
    ) -> Frame {
        let buffer = |p: *mut f32, dims: *mut i64| {
            Box::new(ffi::Buffer {
                struct_size: std::mem::size_of::<ffi::Buffer>(),
                extension_start: std::ptr::null_mut(),
                dtype: DataType::F32,
                data: p.cast(),
                rank: 2,
                dims,
            })
        };
        let mut arg = buffer(data.as_mut_ptr(), dims.as_mut_ptr());
        let mut ret = buffer(out.as_mut_ptr(), dims.as_mut_ptr());
        let mut arg_ptrs: Box<[*mut c_void; 2]> = Box::new([
            (&mut *arg as *mut ffi::Buffer).cast(),
            (&mut *arg as *mut ffi::Buffer).cast(),
        ]);
        let mut ret_ptrs: Box<[*mut c_void; 1]> =
            Box::new([(&mut *ret as *mut ffi::Buffer).cast()]);
        let mut types: Box<[i32; 2]> = Box::new([TYPE_BUFFER; 2]);
        let mut value: Box<i64> = Box::new(site);
        let mut scalar = Box::new(Scalar {
            dtype: DataType::S64,
            value: (&mut *value as *mut i64).cast(),
        });
        let mut name = Box::new(ByteSpan {
            ptr: SITE_ATTRIBUTE.as_ptr().cast(),
            len: SITE_ATTRIBUTE.len(),
        });
        let mut names: Box<[*mut ByteSpan; 1]> = Box::new([&mut *name]);
        let mut attr_types: Box<[i32; 1]> = Box::new([ffi::ATTR_SCALAR]);
        let mut attrs: Box<[*mut c_void; 1]> = Box::new([(&mut *scalar as *mut Scalar).cast()]);
        let frame = CallFrame {
            struct_size: std::mem::size_of::<CallFrame>(),
            extension_start: std::ptr::null_mut(),
            api,
            ctx: std::ptr::null_mut(),
            stage: ffi::STAGE_EXECUTE,
            args: Args {
                struct_size: std::mem::size_of::<Args>(),
                extension_start: std::ptr::null_mut(),
                size: 2,
                types: types.as_mut_ptr(),
                args: arg_ptrs.as_mut_ptr(),
            },
            rets: Rets {
                struct_size: std::mem::size_of::<Rets>(),
                extension_start: std::ptr::null_mut(),
                size: 1,
                types: types.as_mut_ptr(),
                rets: ret_ptrs.as_mut_ptr(),
            },
            attrs: Attrs {
                struct_size: std::mem::size_of::<Attrs>(),
                extension_start: std::ptr::null_mut(),
                size: 1,
                types: attr_types.as_mut_ptr(),
                names: names.as_mut_ptr(),
                attrs: attrs.as_mut_ptr(),
            },
        };
        Frame {
            frame,
            _keep: vec![
                arg, ret, arg_ptrs, ret_ptrs, types, value, scalar, name, names, attr_types, attrs,
            ],
        }
    }

    /// The handler on fake frames: the metadata query, a run writing the
    /// result into XLA's buffer, and errors (an unknown site, a wrong
    /// element type) as XLA errors naming the call, never a panic or abort.
    #[test]
    fn the_handler_runs_the_kernel_and_reports_errors_through_xla() {
        let api = fake_api();
        // The metadata query: answered, no error.
        let mut metadata = ffi::Metadata {
            struct_size: std::mem::size_of::<ffi::Metadata>(),
            api_version: ApiVersion {
                struct_size: std::mem::size_of::<ApiVersion>(),
                extension_start: std::ptr::null_mut(),
                major_version: -1,
                minor_version: -1,
            },
            traits: 7,
        };
        let mut extension = ffi::MetadataExtension {
            extension_base: ExtensionBase {
                struct_size: std::mem::size_of::<ffi::MetadataExtension>(),
                kind: ffi::EXTENSION_METADATA,
                next: std::ptr::null_mut(),
            },
            metadata: &mut metadata,
        };
        let (mut x, mut out, mut dims) = (vec![1.5f32; 1024], vec![0f32; 1024], [8i64, 128]);
        let mut query = frame(&api, 0, &mut x, &mut out, &mut dims);
        query.frame.extension_start = (&mut extension as *mut ffi::MetadataExtension).cast();
        // SAFETY: a well-formed frame.
        let r = unsafe { handler((&mut query.frame as *mut CallFrame).cast()) };
        assert!(r.is_null());
        assert_eq!(metadata.api_version.major_version, 0);
        assert_eq!(metadata.traits, 0);

        // A registered site: the add kernel, x + x.
        let ctx = crate::Context::new();
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/program/one_kernel/module.mlir"
        ))
        .unwrap();
        let calls = crate::decode::decode_module(&ctx, &bytes, "one_kernel").unwrap();
        let guard = site::register(Site::new(
            0,
            "_add_kernel".into(),
            Some("one_kernel:7".into()),
            crate::exec::Execution::of_call(&calls[0]).unwrap(),
            crate::exec::RunOptions::default(),
            1,
            false,
            std::time::Duration::from_secs(1),
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        ));
        let id = guard.site.id as i64;
        let mut run = frame(&api, id, &mut x, &mut out, &mut dims);
        // SAFETY: a well-formed frame over live buffers.
        let r = unsafe { handler((&mut run.frame as *mut CallFrame).cast()) };
        assert!(r.is_null(), "{:?}", MESSAGES.lock().unwrap());
        assert!(out.iter().all(|&v| v == 3.0));

        // An element type the call does not take: an XLA error naming the call.
        let mut wrong = frame(&api, id, &mut x, &mut out, &mut dims);
        // SAFETY: the frame's first operand is a live buffer.
        unsafe {
            (*(*wrong.frame.args.args).cast::<ffi::Buffer>()).dtype = DataType::S32;
        }
        // SAFETY: as above.
        let r = unsafe { handler((&mut wrong.frame as *mut CallFrame).cast()) };
        assert!(!r.is_null());
        let last = MESSAGES.lock().unwrap().last().cloned().unwrap();
        assert!(
            last.starts_with("tpu_custom_call #0 (_add_kernel) at one_kernel:7: "),
            "{last}"
        );
        drop(guard);

        // The site is gone with its program: an error, not a crash.
        let mut gone = frame(&api, id, &mut x, &mut out, &mut dims);
        // SAFETY: as above.
        let r = unsafe { handler((&mut gone.frame as *mut CallFrame).cast()) };
        assert!(!r.is_null());
        let last = MESSAGES.lock().unwrap().last().cloned().unwrap();
        assert!(
            last.contains("is not registered (its program was dropped)"),
            "{last}"
        );
    }
}
