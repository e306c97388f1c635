//! The compiled engine ([`super::Engine::Jit`]): a kernel body compiled
//! through MLIR's LLVM pipeline and run by MLIR's ExecutionEngine.
//!
//! Only the body is compiled: the grid, the pipeline's block copies,
//! scratch, cores and devices stay in `call.rs`, shared with the
//! interpreter; the body gets the program ids and memref descriptors over
//! the machine's own buffers. [`emit`] rewrites the kernel into upstream
//! ops (and calls of the small runtime below), [`compile`] lowers it to
//! the LLVM dialect with upstream conversions and makes native code, once
//! per kernel and options (a process-wide cache).

mod emit;
pub mod equality;
mod guard;

pub use guard::set_guard_pages;

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use super::ExecError;
use super::array::{Array, Data};
use super::dtype::ElemType;
use super::eval::{Interp, Val};
use super::machine::Machine;
use super::program::{Inst, Program, VTy};

/// A kernel body compiled to native code.
pub(crate) struct Compiled {
    /// `_mlir_tcc_body`: the packed entry point (one pointer per expanded
    /// argument).
    entry: Entry,
    args: Vec<VTy>,
    rt: Vec<Inst>,
    /// The names of the ops in `rt` (for the engine report).
    rt_names: Vec<String>,
    checks: Vec<emit::Check>,
    /// Seconds the compile took (when this process compiled it).
    pub compile_seconds: f64,
    /// The engine and context holding `entry`'s code (freed last).
    _owned: Owned,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("runtime_ops", &self.rt.len())
            .field("checks", &self.checks.len())
            .field("compile_seconds", &self.compile_seconds)
            .finish_non_exhaustive()
    }
}

/// Why a kernel runs on the interpreter although the compiled engine was asked.
pub(crate) type Fallback = String;

/// The upstream pipeline from the emitted module to the LLVM dialect.
///
/// `lower-affine` runs twice: `expand-strided-metadata` turns the views
/// `tcc-bufferize-vectors` makes at dynamic offsets (a row loaded at an
/// index read from memory) into `affine.apply`, which must be lowered
/// before the arith conversion (else an `unrealized_conversion_cast` is
/// left and the ExecutionEngine refuses the module: found by the equality
/// sweep, tests/data/exec/sem_fori_loop).
///
/// THE PLACE FOR `tcc-bufferize-vectors`: the vecloops pass
/// (`tcc_jit_bufferize_vectors`, cpp/) runs on the emitted module before
/// this pipeline (see [`lower`]): it turns vectors larger than a native
/// vector into buffers and loops of native-width vectors, which the
/// pipeline below then lowers without unrolling.
const PIPELINE: &str = "builtin.module(func.func(lower-vector-multi-reduction), \
     convert-vector-to-scf{full-unroll=false}, lower-affine, \
     convert-scf-to-cf, convert-math-to-llvm, \
     convert-math-to-libm, convert-vector-to-llvm, expand-strided-metadata, \
     lower-affine, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, \
     convert-cf-to-llvm, convert-func-to-llvm, convert-ub-to-llvm, \
     reconcile-unrealized-casts)";

/// Runs on the emitted module before `tcc-bufferize-vectors`: `arith-expand`
/// rewrites `arith.maximumf`/`minimumf` into a compare and selects that
/// ignore signed zeros (max(+0, -0) = -0), so it must not see the
/// `maximumf`/`minimumf` the bufferized reductions (and
/// `lower-vector-multi-reduction`) create: those lower to LLVM's
/// `llvm.maximum`/`llvm.minimum`, which order -0 below +0 as the
/// interpreter does.
const PRE_PIPELINE: &str = "builtin.module(arith-expand{include-bf16=true})";

/// Parses the emitted text and lowers it to the LLVM dialect: the one
/// function where every pass of the compiled engine runs.
fn lower<'c>(ctx: &'c melior::Context, text: &str) -> Result<melior::ir::Module<'c>, String> {
    let (module, diags) = crate::context::capture(ctx, || melior::ir::Module::parse(ctx, text));
    let mut module = module.ok_or_else(|| {
        format!(
            "the emitted module does not parse: {}",
            crate::context::join_diagnostics(&diags)
        )
    })?;
    let pre = melior::pass::PassManager::new(ctx);
    melior::utility::parse_pass_pipeline(pre.as_operation_pass_manager(), PRE_PIPELINE)
        .map_err(|e| format!("the pass pipeline does not parse: {e}"))?;
    let (ran, diags) = crate::context::capture(ctx, || pre.run(&mut module));
    ran.map_err(|_| {
        format!(
            "arith-expand failed: {}",
            crate::context::join_diagnostics(&diags)
        )
    })?;
    // tcc-bufferize-vectors: big vectors into loops of native-width
    // vectors (docs/jit.md); an op it cannot rewrite refuses the kernel
    // (the caller runs it on the interpreter).
    let (ok, diags) = crate::context::capture(ctx, || {
        // SAFETY: the module is live, owned here, used by no other thread.
        unsafe { crate::ffi::tcc_jit_bufferize_vectors(module.as_operation().to_raw()) }
    });
    if !ok {
        return Err(format!(
            "tcc-bufferize-vectors refused the kernel: {}",
            crate::context::join_diagnostics(&diags)
        ));
    }
    // tcc-approximate-math: f32 exp/log/tanh/erf as MLIR's polynomial
    // approximations on the native-width vectors (docs/jit.md, "Math").
    let (ok, diags) = crate::context::capture(ctx, || {
        // SAFETY: as above.
        unsafe { crate::ffi::tcc_jit_approximate_math(module.as_operation().to_raw()) }
    });
    if !ok {
        return Err(format!(
            "tcc-approximate-math failed: {}",
            crate::context::join_diagnostics(&diags)
        ));
    }
    let pm = melior::pass::PassManager::new(ctx);
    melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), PIPELINE)
        .map_err(|e| format!("the pass pipeline does not parse: {e}"))?;
    let (ran, diags) = crate::context::capture(ctx, || pm.run(&mut module));
    ran.map_err(|_| {
        format!(
            "lowering to LLVM failed: {}",
            crate::context::join_diagnostics(&diags)
        )
    })?;
    Ok(module)
}

/// Compiled kernels of this process, by emitted text and runtime table.
fn cache() -> &'static Mutex<HashMap<String, Arc<Compiled>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Compiled>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The outcome of asking for a kernel's compiled form.
pub(crate) enum Prepared {
    /// Compiled (now, or earlier: `cached`).
    Ready(Arc<Compiled>, bool),
    /// Not compiled: why.
    Refused(Fallback),
}

/// Emits and compiles the kernel `main` of `prog` (or finds it in the
/// process-wide cache).
pub(crate) fn prepare(prog: &Program, main: &str, fuse: bool, flush: bool) -> Prepared {
    let em = match emit::emit(prog, main, fuse, flush) {
        Ok(e) => e,
        Err(r) => return Prepared::Refused(r.to_string()),
    };
    let key = format!(
        "{}\n// runtime {:?}\n// checks {:?}",
        em.text, em.rt, em.checks
    );
    let mut cache = match cache().lock() {
        Ok(c) => c,
        Err(p) => p.into_inner(),
    };
    if let Some(c) = cache.get(&key) {
        return Prepared::Ready(Arc::clone(c), true);
    }
    if let Some(dir) = std::env::var_os("TCC_JIT_DUMP") {
        // Debugging aid: every emitted module, by its position in the cache.
        let path = std::path::Path::new(&dir).join(format!("kernel{}.mlir", cache.len()));
        let _ = std::fs::write(path, &em.text);
    }
    let start = Instant::now();
    match compile(&em.text) {
        Ok((entry, owned)) => {
            let c = Arc::new(Compiled {
                entry,
                args: em.args,
                rt_names: em
                    .rt
                    .iter()
                    .map(|i| {
                        prog.sites
                            .get(i.site as usize)
                            .map_or_else(|| "?".to_string(), |s| s.op.clone())
                    })
                    .collect(),
                rt: em.rt,
                checks: em.checks,
                compile_seconds: start.elapsed().as_secs_f64(),
                _owned: owned,
            });
            cache.insert(key, Arc::clone(&c));
            Prepared::Ready(c, false)
        }
        Err(e) => Prepared::Refused(format!("the compiled engine failed to build it: {e}")),
    }
}

/// The packed entry point of a compiled body.
type Entry = unsafe extern "C" fn(*mut *mut c_void);

/// What a compiled kernel's code lives in: its ExecutionEngine and the MLIR
/// context it was lowered in, freed with the [`Compiled`] holding them (the
/// cache keeps it while the process may run it again; a run holds an
/// `Arc`), so a process compiling many kernels (the `jit` fuzz target,
/// [`clear_cache`]) does not keep every one.
struct Owned {
    engine: mlir_sys::MlirExecutionEngine,
    ctx: *mut melior::Context,
}

// SAFETY: the engine and context are only touched by `drop` (one owner);
// the code they hold is called through `Compiled::entry`, which any thread
// may call.
unsafe impl Send for Owned {}
// SAFETY: as above: no method reads them.
unsafe impl Sync for Owned {}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: made by `compile`, owned here alone; the engine goes
        // first (it was created from a module of the context).
        unsafe {
            mlir_sys::mlirExecutionEngineDestroy(self.engine);
            drop(Box::from_raw(self.ctx));
        }
    }
}

/// Drops the process-wide cache of compiled kernels (their code is freed
/// once no run holds them): later runs compile again. For processes that
/// compile many distinct kernels (the `jit` fuzz target).
pub fn clear_cache() {
    let mut cache = match cache().lock() {
        Ok(c) => c,
        Err(p) => p.into_inner(),
    };
    cache.clear();
}

/// Lowers and JIT-compiles a module; returns the packed entry point and
/// the engine and context holding its code.
fn compile(text: &str) -> Result<(Entry, Owned), String> {
    let raw: *mut melior::Context = Box::into_raw(Box::new(crate::context::jit_context()));
    // SAFETY: `raw` is freed only after every borrow of it (the module,
    // dropped inside `build`) is gone: below on failure, else by `Owned`.
    let ctx: &'static melior::Context = unsafe { &*raw };
    match build(ctx, text) {
        Ok((entry, engine)) => Ok((entry, Owned { engine, ctx: raw })),
        Err(e) => {
            // SAFETY: as above; nothing of the context is left.
            drop(unsafe { Box::from_raw(raw) });
            Err(e)
        }
    }
}

/// [`compile`] inside a context: the module lowered, an engine made of it.
fn build(
    ctx: &'static melior::Context,
    text: &str,
) -> Result<(Entry, mlir_sys::MlirExecutionEngine), String> {
    let module = lower(ctx, text)?;
    // SAFETY: the module is a valid LLVM-dialect module of `ctx`; the engine
    // is checked for null before use and destroyed here on failure, else by
    // its `Owned`.
    unsafe {
        let engine = mlir_sys::mlirExecutionEngineCreate(
            module.to_raw(),
            opt_level(),
            0,
            std::ptr::null(),
            false,
            false,
        );
        if engine.ptr.is_null() {
            return Err("MLIR's ExecutionEngine refused the module".into());
        }
        let symbols: [(&str, *mut c_void); 2] = [
            ("tcc_jit_op", tcc_jit_op as *mut c_void),
            ("tcc_jit_oob", tcc_jit_oob as *mut c_void),
        ];
        for (name, ptr) in symbols {
            mlir_sys::mlirExecutionEngineRegisterSymbol(
                engine,
                mlir_sys::MlirStringRef {
                    data: name.as_ptr().cast(),
                    length: name.len(),
                },
                ptr,
            );
        }
        let name = "_mlir_tcc_body";
        let f = mlir_sys::mlirExecutionEngineLookup(
            engine,
            mlir_sys::MlirStringRef {
                data: name.as_ptr().cast(),
                length: name.len(),
            },
        );
        if f.is_null() {
            mlir_sys::mlirExecutionEngineDestroy(engine);
            return Err("the compiled body has no entry point".into());
        }
        Ok((std::mem::transmute::<*mut c_void, Entry>(f), engine))
    }
}

/// LLVM's optimisation level for compiled kernels: `TCC_JIT_OPT` (0-3),
/// default 2.
fn opt_level() -> i32 {
    std::env::var("TCC_JIT_OPT")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|l| (0..=3).contains(l))
        .unwrap_or(2)
}

/// What the runtime functions see while a body runs.
struct Rt<'a> {
    prog: &'a Program,
    machine: &'a Machine,
    compiled: &'a Compiled,
    dev: usize,
    core: usize,
    megacore: usize,
    grid: Vec<i64>,
    point: Vec<i64>,
    fuse: bool,
    flush: bool,
    /// Per kernel argument: its buffer's label.
    labels: Vec<String>,
    /// The floating-point control word outside compiled code.
    outer_csr: Option<u32>,
    error: Option<ExecError>,
}

impl Compiled {
    /// The ops the compiled body runs through the runtime, by name.
    pub(crate) fn runtime_ops(&self) -> Vec<String> {
        self.rt_names.clone()
    }

    /// Runs the body once on `args` (the interpreter's values: program ids,
    /// then memrefs of the machine's buffers).
    pub(crate) fn call(&self, it: &Interp<'_>, args: &[Val]) -> Result<(), ExecError> {
        if args.len() != self.args.len() {
            return Err(ExecError::new(format!(
                "the compiled body takes {} argument(s), given {}",
                self.args.len(),
                args.len()
            )));
        }
        let mut words: Vec<u64> = Vec::with_capacity(8 * args.len() + 1);
        // Guarded copies of the buffers (the fuzz build: guard.rs) and the
        // machine's buffers they copy back to.
        let guarding = guard::enabled();
        let mut guarded: Vec<(guard::Guarded, u64)> = Vec::new();
        let mut labels = Vec::with_capacity(args.len());
        {
            let mut st = it.machine.lock();
            for (k, (v, t)) in args.iter().zip(&self.args).enumerate() {
                match (v, t) {
                    (Val::A(a), VTy::Scalar(_)) => {
                        words.push(a.data.get_i64(0) as u64);
                        labels.push(String::new());
                    }
                    (Val::M(m), VTy::MemRef(e, shape, _)) => {
                        let b = st
                            .bufs
                            .get_mut(m.dev)
                            .and_then(|d| d.get_mut(m.buf))
                            .ok_or_else(|| ExecError::new("a memref of no buffer"))?;
                        let len: usize = shape.iter().product();
                        let whole = m.offset == 0
                            && m.cast.is_none()
                            && &m.shape == shape
                            && m.strides == Array::strides(shape)
                            && b.data.len() >= len;
                        if !whole {
                            return Err(ExecError::new(format!(
                                "argument {k} is not a whole buffer of shape {shape:?}"
                            )));
                        }
                        let (ptr, size) = match (&mut b.data, e) {
                            (Data::F64(v), ElemType::F64) => (v.as_mut_ptr() as u64, 8),
                            (Data::F32(v), ElemType::F32 | ElemType::BF16) => {
                                (v.as_mut_ptr() as u64, 4)
                            }
                            (Data::I64(v), e) if e.is_int() => (v.as_mut_ptr() as u64, 8),
                            _ => {
                                return Err(ExecError::new(format!(
                                    "argument {k}'s buffer does not hold {e}"
                                )));
                            }
                        };
                        labels.push(b.label.clone());
                        let ptr = if guarding {
                            // SAFETY: the buffer holds at least `len`
                            // elements of `size` bytes (checked above).
                            match unsafe { guard::Guarded::new(ptr as *const u8, len * size) } {
                                Some(g) => {
                                    let p = g.ptr() as u64;
                                    guarded.push((g, ptr));
                                    p
                                }
                                None => ptr,
                            }
                        } else {
                            ptr
                        };
                        words.push(ptr);
                        words.push(ptr);
                        words.push(0);
                        words.extend(shape.iter().map(|&d| d as u64));
                        words.extend(Array::strides(shape).iter().map(|&d| d as u64));
                    }
                    _ => {
                        return Err(ExecError::new(format!(
                            "argument {k} does not match the compiled body"
                        )));
                    }
                }
            }
        }
        let mut rt = Rt {
            prog: it.prog,
            machine: it.machine,
            compiled: self,
            dev: it.dev,
            core: it.core,
            megacore: it.megacore,
            grid: it.grid.clone(),
            point: it.point.clone(),
            fuse: it.fuse,
            flush: it.flush_subnormals,
            labels,
            outer_csr: None,
            error: None,
        };
        let mut ctx_word = (&mut rt as *mut Rt<'_>) as u64;
        let mut ptrs: Vec<*mut c_void> = Vec::with_capacity(words.len() + 1);
        ptrs.push((&mut ctx_word as *mut u64).cast());
        for w in words.iter_mut() {
            ptrs.push((w as *mut u64).cast());
        }
        let csr = if rt.flush { fp::enter_flush() } else { None };
        rt.outer_csr = csr;
        // SAFETY: the entry point was compiled from a module whose body
        // takes exactly these expanded arguments (the context as i64, the
        // scalars, then per memref: allocated and aligned pointers,
        // offset, sizes, strides); the pointers are to live buffers of
        // this device that no other thread touches while the body runs
        // (the compiled engine refuses DMAs and remote access), and every
        // access is bounds-checked in the compiled code.
        unsafe { (self.entry)(ptrs.as_mut_ptr()) };
        if let Some(c) = csr {
            fp::leave(c);
        }
        let mut overflow = None;
        for (g, dst) in guarded {
            // SAFETY: `dst` is the machine buffer the copy was made from,
            // still live (the machine outlives the call).
            if let Err(e) = unsafe { g.finish(dst as *mut u8) } {
                overflow.get_or_insert(e);
            }
        }
        if let Some(e) = overflow {
            return Err(ExecError::new(format!("memory-safety violation: {e}")));
        }
        match rt.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The x86 control word: flush-to-zero and denormals-are-zero while
/// compiled code runs (the interpreter's default `Subnormals::FlushToZero`).
mod fp {
    #[cfg(target_arch = "x86_64")]
    pub(super) fn enter_flush() -> Option<u32> {
        let mut old: u32 = 0;
        // SAFETY: reads and writes the SSE control register of this thread.
        unsafe {
            std::arch::asm!("stmxcsr [{}]", in(reg) &mut old, options(nostack));
            let new = old | 0x8040;
            std::arch::asm!("ldmxcsr [{}]", in(reg) &new, options(nostack, readonly));
        }
        Some(old)
    }

    #[cfg(target_arch = "x86_64")]
    pub(super) fn leave(old: u32) {
        // SAFETY: restores a value read by `enter_flush`.
        unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &old, options(nostack, readonly)) };
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn enter_flush() -> Option<u32> {
        None
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn leave(_old: u32) {}

    /// The compiled engine can honour `Subnormals::FlushToZero` here.
    pub(crate) const CAN_FLUSH: bool = cfg!(target_arch = "x86_64");
}

pub(crate) use fp::CAN_FLUSH;

/// Reads `n` elements of `e` in storage form at `p`.
///
/// # Safety
/// `p` points to `n` storage elements of `e`.
unsafe fn read_array(p: *const u8, t: &VTy) -> Array {
    let e = t.elem().unwrap_or(ElemType::F32);
    let shape = t.shape().to_vec();
    let n: usize = shape.iter().product();
    // SAFETY: per the caller.
    let data = unsafe {
        match e {
            ElemType::F64 => Data::F64(std::slice::from_raw_parts(p.cast::<f64>(), n).to_vec()),
            e if e.is_float() => Data::F32(std::slice::from_raw_parts(p.cast::<f32>(), n).to_vec()),
            _ => Data::I64(std::slice::from_raw_parts(p.cast::<i64>(), n).to_vec()),
        }
    };
    Array::new(e, shape, data)
}

/// Writes an array in storage form at `p` (`n` elements of `t`).
///
/// # Safety
/// `p` points to room for the elements of `t`.
unsafe fn write_array(p: *mut u8, t: &VTy, a: &Array) -> bool {
    let n: usize = t.shape().iter().product();
    if a.len() != n {
        return false;
    }
    let e = t.elem().unwrap_or(ElemType::F32);
    // SAFETY: per the caller.
    unsafe {
        match (&a.data, e) {
            (Data::F64(v), ElemType::F64) => {
                std::ptr::copy_nonoverlapping(v.as_ptr(), p.cast::<f64>(), n)
            }
            (Data::F32(v), e) if e.is_float() && e != ElemType::F64 => {
                std::ptr::copy_nonoverlapping(v.as_ptr(), p.cast::<f32>(), n)
            }
            (Data::I64(v), e) if e.is_int() => {
                std::ptr::copy_nonoverlapping(v.as_ptr(), p.cast::<i64>(), n)
            }
            _ => return false,
        }
    }
    true
}

/// The runtime: runs the interpreter's definition of op `id` on the
/// operands whose storage the pointer table at `table` lists (results'
/// buffers after them).
unsafe extern "C" fn tcc_jit_op(ctx: i64, id: i64, table: i64) {
    // SAFETY: `ctx` is the `Rt` of the running call (`Compiled::call`).
    let rt = unsafe { &mut *(ctx as *mut Rt<'_>) };
    if rt.error.is_some() {
        return;
    }
    if let Some(c) = rt.outer_csr {
        fp::leave(c);
    }
    let run =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<(), ExecError> {
            let inst =
                rt.compiled.rt.get(id as usize).ok_or_else(|| {
                    ExecError::new("the compiled body called an unknown runtime op")
                })?;
            let ptrs = table as *const u64;
            let n_args = inst.args.len() + if inst.fused.is_some() { 2 } else { 0 };
            let mut args = Vec::with_capacity(n_args);
            for i in 0..n_args {
                let t = if i < inst.arg_ty.len() {
                    inst.arg_ty[i].clone()
                } else {
                    // A fused product's operands have the result's type.
                    inst.res_ty[0].clone()
                };
                // SAFETY: the table has one pointer per operand then result,
                // each to a stack buffer of its storage type.
                args.push(unsafe { read_array(*ptrs.add(i) as *const u8, &t) });
            }
            let mut interp = Interp::new(rt.prog, rt.machine, rt.dev);
            interp.core = rt.core;
            interp.megacore = rt.megacore;
            interp.grid.clone_from(&rt.grid);
            interp.point.clone_from(&rt.point);
            interp.fuse = rt.fuse;
            interp.flush_subnormals = rt.flush;
            let outs = interp.exec_detached(inst, args)?;
            for (k, (a, t)) in outs.iter().zip(&inst.res_ty).enumerate() {
                // SAFETY: as above.
                let ok = unsafe { write_array(*ptrs.add(n_args + k) as *mut u8, t, a) };
                if !ok {
                    return Err(ExecError::new(format!(
                        "the runtime op's result {k} does not fit its buffer"
                    )));
                }
            }
            Ok(())
        }));
    match run {
        Ok(Ok(())) => {}
        Ok(Err(e)) => rt.error = Some(e),
        Err(_) => {
            rt.error = Some(ExecError::new(
                "a runtime op of the compiled engine panicked",
            ))
        }
    }
    if rt.outer_csr.is_some() {
        fp::enter_flush();
    }
}

/// The runtime: an access out of bounds (check `id`, indices at `idx`):
/// the interpreter's error, the first one only.
unsafe extern "C" fn tcc_jit_oob(ctx: i64, id: i64, idx: i64) {
    // SAFETY: `ctx` is the `Rt` of the running call (`Compiled::call`).
    let rt = unsafe { &mut *(ctx as *mut Rt<'_>) };
    if rt.error.is_some() {
        return;
    }
    let Some(check) = rt.compiled.checks.get(id as usize) else {
        rt.error = Some(ExecError::new(
            "the compiled body failed an unknown bounds check",
        ));
        return;
    };
    // SAFETY: `idx` holds one index per dimension of the view.
    let idx: Vec<i64> =
        unsafe { std::slice::from_raw_parts(idx as *const i64, check.shape.len()).to_vec() };
    let label = check
        .arg
        .and_then(|a| rt.labels.get(a))
        .cloned()
        .unwrap_or_default();
    let site = &rt.prog.sites[check.site as usize];
    rt.error = Some(ExecError::at(
        format!(
            "out-of-bounds access of {label}: indices {idx:?} with extent {:?} on a view of shape {:?}",
            check.extent, check.shape
        ),
        site.op.clone(),
        site.loc.clone(),
    ));
}
