//! A Pallas TPU call on host arrays: operands into HBM, blocks through
//! VMEM/SMEM around each grid point, results out.

use std::rc::Rc;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use super::array::{Array, Data};
use super::dtype::ElemType;
use super::eval::{Interp, MemRef, Val};
use super::jit;
use super::machine::Machine;
use super::program::{Program, VTy};
use super::{DmaTiming, Engine, EngineReport, ExecError, RunOptions, RunReport};
use crate::contract::{self, DYNAMIC};
use crate::decode::DecodedCall;
use crate::kernel::Kernel;
use crate::serde::ir::{self, Op};

/// A dimension known only when the call runs (`?` in `tensor<?x128xf32>`):
/// an operand's comes from its input array, a result's from an operand of
/// the same type.
pub const DYNAMIC_DIM: usize = usize::MAX;

/// The type of a call operand or result: element type and shape (with
/// [`DYNAMIC_DIM`] for `?`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    /// Element type (`ui8` kept unsigned: it is what the host array holds).
    pub elem: ElemType,
    /// Dimensions.
    pub shape: Vec<usize>,
}

impl TensorType {
    /// MLIR's text of the type (`tensor<?x128xf32>`).
    pub fn text(&self) -> String {
        let mut s = String::from("tensor<");
        for &d in &self.shape {
            if d == DYNAMIC_DIM {
                s.push('?');
            } else {
                s.push_str(&d.to_string());
            }
            s.push('x');
        }
        s.push_str(&self.elem.to_string());
        s.push('>');
        s
    }

    /// Reads `tensor<8x128xf32>` (or a bare scalar type `tensor<i32>`).
    pub fn parse(text: &str) -> Option<TensorType> {
        let body = text.trim().strip_prefix("tensor<")?.strip_suffix('>')?;
        let mut dims = Vec::new();
        let mut rest = body;
        while let Some(x) = rest.find('x') {
            let d = &rest[..x];
            if d == "?" {
                dims.push(DYNAMIC_DIM);
            } else if let Ok(d) = d.parse::<usize>() {
                dims.push(d);
            } else {
                break;
            }
            rest = &rest[x + 1..];
        }
        // An encoding (`, #...`) is not part of the element type.
        let elem = rest.split(',').next()?.trim();
        Some(TensorType {
            elem: ElemType::parse(elem)?,
            shape: dims,
        })
    }
}

/// What the call passes and returns: the custom call's operand and result
/// types and its `output_operand_aliases`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallShape {
    /// Operands in order (dynamic grid bounds and scalar prefetch first, as
    /// the call passes them).
    pub operands: Vec<TensorType>,
    /// Results in order.
    pub results: Vec<TensorType>,
    /// `(operand, result)`: the result starts as the operand.
    pub aliases: Vec<(usize, usize)>,
}

impl CallShape {
    /// The shape of a decoded call (its data operands, results, aliases).
    pub fn of(call: &DecodedCall<'_>) -> Result<CallShape, ExecError> {
        let parse = |t: &String| {
            TensorType::parse(t).ok_or_else(|| {
                ExecError::new(format!(
                    "call type `{t}` is not a static tensor the executor can hold"
                ))
            })
        };
        let operands = call
            .found
            .data_operand_types()
            .iter()
            .map(parse)
            .collect::<Result<_, _>>()?;
        let results = call
            .found
            .result_types
            .iter()
            .map(parse)
            .collect::<Result<Vec<_>, _>>()?;
        let aliases = call
            .found
            .attribute("output_operand_aliases")
            .and_then(|a| crate::decode::parse_aliases(a, results.len()))
            .unwrap_or_default();
        Ok(CallShape {
            operands,
            results,
            aliases,
        })
    }
}

/// What one device's run returns: its results and, per result, the
/// elements never written (when tracked).
type DeviceRun = (Vec<Array>, Vec<Option<u64>>);

/// An output block's finished visit: the core and the first and last grid
/// points.
type Visit = (usize, Vec<i64>, Vec<i64>);

/// An operand's window onto its block.
#[derive(Clone, Debug)]
enum Win {
    /// The kernel gets the HBM buffer itself (`ANY`, HBM, semaphores).
    Direct,
    /// A block copied through a VMEM/SMEM buffer.
    Block {
        /// `window_bounds` (squeezed dims as 1).
        bounds: Vec<usize>,
        /// The index-map function, if any (none: the block at the origin).
        transform: Option<String>,
        /// `#tpu.element_window`: the index map returns element offsets.
        element: bool,
    },
}

/// A kernel compiled for one call shape, ready to run on any inputs.
#[derive(Debug)]
pub struct Execution {
    /// Per window: `#tpu.revisit_mode<any>` (an output block that may be
    /// visited again, read back from HBM when a visit starts).
    revisit_any: Vec<bool>,
    program: Arc<Program>,
    call: CallShape,
    main: String,
    grid: Vec<i64>,
    parallel: Vec<bool>,
    scalar_prefetch: usize,
    scratch: Vec<VTy>,
    /// Grid dims that are separate cores or subcores (`core_parallel`,
    /// `subcore_parallel`): each coordinate has its own scratch memory.
    per_core: Vec<bool>,
    /// Grid dims that are vector subcores (`subcore_parallel`): their
    /// coordinates share the core's `vmem_shared` scratch.
    subcore: Vec<bool>,
    /// Vector subcores meet at a `tpu.barrier`: each grid point (a subcore)
    /// runs on a thread of its own, and a barrier waits for this many
    /// subcores (those of one SparseCore).
    subcore_threads: Option<usize>,
    /// How many leading grid dimensions are `parallel`: the ones a megacore
    /// chip splits between its TensorCores ([`RunOptions::cores`]).
    megacore: usize,
    windows: Vec<Win>,
    /// Trailing result-shape operands of the call ([`Execution::shape_operands`]).
    shape_operands: Vec<TensorType>,
    /// The compiled body, per `fuse_multiply_add` and subnormal mode (emitted and compiled at
    /// the first run that asks for [`super::Engine::Jit`]).
    jit: [OnceLock<Result<Arc<jit::Compiled>, String>>; 4],
}

fn dim_semantics_text(op: Op<'_>) -> Vec<String> {
    op.attr("dimension_semantics")
        .and_then(ir::as_array)
        .map(|l| l.into_iter().map(crate::ffi::attr_text).collect())
        .unwrap_or_default()
}

fn window_kinds(op: Op<'_>) -> Vec<bool> {
    op.attr("window_params")
        .and_then(ir::as_array)
        .map(|l| {
            l.into_iter()
                .map(|a| crate::ffi::attr_text(a).contains("element_window"))
                .collect()
        })
        .unwrap_or_default()
}

impl Execution {
    /// Compiles a kernel for a call: every op resolved (an op without CPU
    /// semantics is an error here, naming it and its location).
    pub fn new(kernel: &Kernel<'_>, call: CallShape) -> Result<Execution, ExecError> {
        let sig = contract::kernel_signature(kernel).ok_or_else(|| {
            ExecError::new("the kernel has no main function (a `func.func` with Pallas attributes)")
        })?;
        // What libtpu refuses about the windows, validation refuses too:
        // no numbers for a kernel no TPU runs.
        if let Some(e) = contract::window_errors(kernel).into_iter().next() {
            return Err(ExecError::new(e.to_string()));
        }
        let program = Program::compile(Op::of(kernel.operation()))?;
        let main_op = contract::functions(kernel)
            .into_iter()
            .find(|(n, _)| *n == sig.function)
            .map(|(_, op)| op)
            .ok_or_else(|| ExecError::new("the kernel's main function is missing"))?;
        let semantics = dim_semantics_text(main_op);
        let parallel: Vec<bool> = semantics.iter().map(|t| t.contains("parallel")).collect();
        let per_core: Vec<bool> = semantics
            .iter()
            .map(|t| t.contains("core_parallel"))
            .collect();
        let subcore: Vec<bool> = semantics
            .iter()
            .map(|t| t.contains("subcore_parallel"))
            .collect();
        let element = window_kinds(main_op);
        let revisit_any: Vec<bool> = main_op
            .attr("window_params")
            .and_then(ir::as_array)
            .map(|l| {
                l.into_iter()
                    .map(|a| crate::ffi::attr_text(a).contains("#tpu.revisit_mode<any>"))
                    .collect()
            })
            .unwrap_or_default();
        let func = program
            .func(&sig.function)
            .ok_or_else(|| ExecError::new("the kernel's main function did not compile"))?;
        let arg_ty = &func.arg_ty;
        let grid = sig.grid.clone();
        // libtpu's grid rule (dynamic bounds again once read, in `run`).
        contract::grid::steps(&sig.function, &grid).map_err(|e| ExecError::new(e.to_string()))?;
        let dynamic = grid.iter().filter(|&&b| b == DYNAMIC).count();
        let buffers = sig.buffers().ok_or_else(|| {
            ExecError::new(format!(
                "the kernel's attributes ask for more arguments than @{} has",
                sig.function
            ))
        })?;
        let inputs = call
            .operands
            .len()
            .checked_sub(dynamic + sig.scalar_prefetch)
            .ok_or_else(|| {
                ExecError::new(
                    "the call has fewer operands than the kernel's grid bounds and scalar prefetch",
                )
            })?;
        if inputs + call.results.len() != buffers {
            return Err(ExecError::new(format!(
                "the call passes {inputs} input(s) and {} result(s), but @{} has {buffers} input/output buffer argument(s)",
                call.results.len(),
                sig.function
            )));
        }
        // Vector subcores that meet at a `tpu.barrier` run on threads of
        // their own (else one after another, each grid point in turn).
        let subcores: i64 = grid
            .iter()
            .zip(&subcore)
            .filter(|(_, s)| **s)
            .map(|(&b, _)| if b == DYNAMIC { i64::MAX } else { b })
            .fold(1i64, i64::saturating_mul);
        let barrier_site = program
            .sites
            .iter()
            .find(|s| s.op == "tpu.barrier")
            .cloned();
        let first = grid.len() + sig.scalar_prefetch;
        let mut windows = Vec::with_capacity(buffers);
        for k in 0..buffers {
            let ty = &arg_ty[first + k];
            let space = match ty {
                VTy::MemRef(_, _, s) => s.clone(),
                other => {
                    return Err(ExecError::new(format!(
                        "argument {} of @{} is `{}`, not a memref",
                        first + k,
                        sig.function,
                        super::program::ty_text(other)
                    )));
                }
            };
            let operand = if k < inputs {
                &call.operands[dynamic + sig.scalar_prefetch + k]
            } else {
                &call.results[k - inputs]
            };
            let w = sig.windows.as_ref().and_then(|w| w.get(k));
            let win = match w {
                Some(w) if w.transform.is_some() || w.bounds.is_some() => Win::Block {
                    bounds: w
                        .bounds
                        .clone()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|b| {
                            usize::try_from(b).map_err(|_| {
                                ExecError::new(format!(
                                    "operand {k}'s block window {:?} has a negative dimension",
                                    w.bounds.as_deref().unwrap_or_default()
                                ))
                            })
                        })
                        .collect::<Result<_, _>>()?,
                    transform: w.transform.clone(),
                    element: element.get(k).copied().unwrap_or(false),
                },
                _ if matches!(space.as_str(), "any" | "hbm" | "semaphore_mem") => Win::Direct,
                _ => Win::Block {
                    bounds: operand.shape.clone(),
                    transform: None,
                    element: false,
                },
            };
            if let Win::Block { bounds, .. } = &win {
                if bounds.len() != operand.shape.len() {
                    return Err(ExecError::new(format!(
                        "operand {k}'s window {bounds:?} has another rank than its array {:?}",
                        operand.shape
                    )));
                }
                let n = elements(bounds).ok_or_else(|| {
                    ExecError::new(format!("operand {k}'s window {bounds:?} is too large"))
                })?;
                if n != ty.shape().iter().product::<usize>() {
                    return Err(ExecError::new(format!(
                        "operand {k}'s window {bounds:?} does not match its kernel argument `{}`",
                        super::program::ty_text(ty)
                    )));
                }
            }
            if let Win::Block {
                transform: Some(t), ..
            } = &win
                && program.func(t).is_none()
            {
                return Err(ExecError::new(format!(
                    "the index map @{t} of operand {k} is not in the module"
                )));
            }
            windows.push(win);
        }
        let scratch = arg_ty[first + buffers..].to_vec();
        let threads = subcores > 1 && barrier_site.is_some();
        if let Some(site) = barrier_site.filter(|_| threads)
            && (subcores == i64::MAX
                || grid.contains(&DYNAMIC)
                || !per_core.iter().all(|&c| c)
                || windows.iter().any(|w| matches!(w, Win::Block { .. })))
        {
            // A thread per subcore needs every grid point to be a (sub)core
            // and no pipeline; anything else would run them in turn, which a
            // barrier cannot: refused (a wrong number is worse).
            return Err(ExecError::at(
                "a barrier across vector subcores (plsc.subcore_barrier) is supported only in a kernel whose grid is all core_parallel / subcore_parallel with a static size and whose operands are not pipelined blocks: the executor could not hold one subcore at the barrier until the others arrive, so what they exchange across it would be wrong".to_string(),
                site.op.clone(),
                site.loc.clone(),
            ));
        }
        Ok(Execution {
            subcore_threads: threads.then_some(subcores as usize),
            revisit_any,
            program: Arc::new(program),
            call,
            main: sig.function,
            grid,
            parallel,
            scalar_prefetch: sig.scalar_prefetch,
            scratch,
            per_core,
            subcore,
            megacore: semantics
                .iter()
                .take_while(|t| t.trim_end().ends_with("<parallel>"))
                .count(),
            windows,
            shape_operands: Vec::new(),
            jit: Default::default(),
        })
    }

    /// Compiles a validated call (its kernel, signature and
    /// `input_output_aliases`): what `lower` would emit, executed instead.
    pub fn of_validated(
        call: &crate::validate::ValidatedCall<'_, '_>,
    ) -> Result<Execution, ExecError> {
        let parse = |t: &melior::ir::Type<'_>| {
            let text = t.to_string();
            TensorType::parse(&text).ok_or_else(|| {
                ExecError::new(format!(
                    "call type `{text}` is not a tensor the executor can hold"
                ))
            })
        };
        let shape = CallShape {
            operands: call
                .signature()
                .operands()
                .iter()
                .map(parse)
                .collect::<Result<_, _>>()?,
            results: call
                .signature()
                .results()
                .iter()
                .map(parse)
                .collect::<Result<_, _>>()?,
            aliases: call.params().input_output_aliases.clone(),
        };
        Execution::new(call.kernel(), shape)
    }

    /// The kernel function's argument types.
    fn main_args(&self) -> &[VTy] {
        self.program
            .func(&self.main)
            .map_or(&[], |f| f.arg_ty.as_slice())
    }

    /// Compiles a decoded call's kernel.
    pub fn of_call(call: &DecodedCall<'_>) -> Result<Execution, ExecError> {
        let mut e = Execution::new(&call.kernel, CallShape::of(call)?)?;
        let data = call.found.data_operand_types().len();
        e.shape_operands = call.found.operand_types[data..]
            .iter()
            .map(|t| {
                TensorType::parse(t).ok_or_else(|| {
                    ExecError::new(format!("result-shape operand type `{t}` is not a tensor"))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(e)
    }

    /// The call's trailing result-shape operands (JAX's shape-polymorphic
    /// exports pass one per result, `indices_of_shape_operands`): each holds
    /// its result's dimensions. [`Execution::run`] takes them after the
    /// data operands, or not at all.
    pub fn shape_operands(&self) -> &[TensorType] {
        &self.shape_operands
    }

    /// Splits off and checks the result-shape operands of one device's
    /// operands, when given.
    fn data_inputs<'a>(&self, inputs: &'a [Array]) -> Result<&'a [Array], ExecError> {
        let n = self.call.operands.len();
        if self.shape_operands.is_empty() || inputs.len() != n + self.shape_operands.len() {
            return Ok(inputs);
        }
        let (data, shapes) = inputs.split_at(n);
        let call = self.concrete(data)?;
        for (r, (a, t)) in shapes.iter().zip(&call.results).enumerate() {
            let held: Vec<i64> = (0..a.len()).map(|i| a.data.get_i64(i)).collect();
            let want: Vec<i64> = t.shape.iter().map(|&d| d as i64).collect();
            if held != want {
                return Err(ExecError::new(format!(
                    "operand {} is the result-shape operand of result {r} (`indices_of_shape_operands`): it must hold the result's dimensions {want:?}, it holds {held:?}",
                    n + r
                )));
            }
        }
        Ok(data)
    }

    /// The call's operand and result types.
    pub fn call_shape(&self) -> &CallShape {
        &self.call
    }

    /// The compiled kernel (its op sites: [`super::equality::ulp_bound`]).
    pub(crate) fn program(&self) -> &Program {
        &self.program
    }

    /// Runs the call on one device.
    pub fn run(&self, inputs: &[Array], options: &RunOptions) -> Result<Vec<Array>, ExecError> {
        let mut out = self.run_devices(&[inputs.to_vec()], options)?;
        Ok(out.pop().unwrap_or_default())
    }

    /// Runs the call on several devices at once (one input set each, one
    /// thread each): `tpu.device_id` is the position in `inputs`.
    pub fn run_devices(
        &self,
        inputs: &[Vec<Array>],
        options: &RunOptions,
    ) -> Result<Vec<Vec<Array>>, ExecError> {
        Ok(self.run_report(inputs, options)?.results)
    }

    /// Runs the call on several devices (as [`Execution::run_devices`]) and
    /// reports what it observed besides the results.
    pub fn run_report(
        &self,
        inputs: &[Vec<Array>],
        options: &RunOptions,
    ) -> Result<RunReport, ExecError> {
        let devices = inputs.len().max(1);
        if options.cores == 0 {
            return Err(ExecError::new("RunOptions::cores must be at least 1"));
        }
        let (compiled, mut engine) = self.engine_for(options);
        let jit = compiled.as_deref();
        let started = Instant::now();
        let mut machine = Machine::new(devices, options.uninitialized);
        machine.max_bytes = options.max_bytes;
        machine.track_writes = options.detect_uninitialized;
        machine.detect_races = options.detect_races;
        machine.dma = options.dma;
        machine.cores = options.cores;
        // Buffers are allocated in the same order on every device, so a
        // remote DMA's target buffer has the same index everywhere.
        let results: Vec<Result<DeviceRun, ExecError>> = if devices == 1 {
            vec![self.device(&machine, 0, &inputs[0], options, jit)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..devices)
                    .map(|d| {
                        let machine = &machine;
                        let ins = &inputs[d];
                        std::thread::Builder::new()
                            .stack_size(64 << 20)
                            .spawn_scoped(s, move || {
                                let r = self.device(machine, d, ins, options, jit);
                                let mut st = machine.lock();
                                st.live -= 1;
                                if let Err(e) = &r
                                    && st.failed.is_none()
                                {
                                    st.failed = Some(format!("device {d} failed: {}", e.message));
                                }
                                drop(st);
                                machine.wake.notify_all();
                                r
                            })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| match h {
                        Ok(h) => h
                            .join()
                            .unwrap_or_else(|_| Err(ExecError::new("a device thread panicked"))),
                        Err(e) => Err(ExecError::new(format!("cannot start a device thread: {e}"))),
                    })
                    .collect()
            })
        };
        // The first real failure (not one that only stopped because another failed).
        let mut outs = Vec::with_capacity(devices);
        let mut unwritten: Vec<Option<u64>> = Vec::new();
        let mut first_err: Option<ExecError> = None;
        for r in results {
            match r {
                Ok((v, u)) => {
                    outs.push(v);
                    if unwritten.is_empty() {
                        unwritten = u;
                    } else {
                        for (a, b) in unwritten.iter_mut().zip(u) {
                            *a = a.zip(b).map(|(x, y)| x + y);
                        }
                    }
                }
                Err(e) => {
                    let secondary = e.message.starts_with("stopped: ");
                    if first_err
                        .as_ref()
                        .is_none_or(|f| f.message.starts_with("stopped: ") && !secondary)
                    {
                        first_err = Some(e);
                    }
                }
            }
        }
        let mut races = std::mem::take(&mut machine.lock().races);
        for (a, b) in machine.core_conflicts() {
            let site = |x: &super::machine::HbmAccess| {
                if x.site == 0 {
                    "the pipeline's block copy".to_string()
                } else {
                    let s = &self.program.sites[x.site as usize];
                    if s.loc.is_empty() {
                        format!("`{}`", s.op)
                    } else {
                        format!("`{}` at {}", s.op, s.loc)
                    }
                }
            };
            let label = machine.lock().bufs[a.region.dev][a.region.buf]
                .label
                .clone();
            let verb = |x: &super::machine::HbmAccess| if x.write { "writes" } else { "reads" };
            races.push(super::machine::Race {
                text: format!(
                    "core {} ({} [grid point {}]) {} {label} and core {} ({} [grid point {}]) {} it: the TensorCores are not ordered, so which comes first differs between runs",
                    a.core,
                    site(&a),
                    point_text(&a.point),
                    verb(&a),
                    b.core,
                    site(&b),
                    point_text(&b.point),
                    verb(&b),
                ),
                key: (a.site, b.site, a.write),
            });
        }
        if !races.is_empty() {
            let mut text = format!(
                "{} race(s) found (accesses to memory while a DMA into or out of it is in flight, or by cores and vector subcores that nothing orders; on a TPU their numbers depend on timing):",
                races.len()
            );
            for (i, r) in races.iter().enumerate() {
                text.push_str(&format!("\n  {}. {}", i + 1, r.text));
            }
            if let Some(e) = &first_err {
                text.push_str(&format!("\nthe run also failed: {e}"));
            }
            return Err(ExecError::new(text));
        }
        if let Some(mut e) = first_err {
            if options.cores == 1
                && self.megacore > 0
                && e.message.contains("can never be satisfied")
            {
                e.message.push_str(
                    "; the grid has a leading `parallel` dimension: a kernel written for a megacore chip (JAX's `megacore_mode`, state kept per core in SMEM or scratch) runs each part on its own TensorCore: try RunOptions::cores = 2 (`--cores 2`, or `--target v4`/`v5p`)",
                );
            }
            return Err(e);
        }
        self.check_dmas(&machine)?;
        if options.detect_races {
            check_semaphores(&machine)?;
        }
        engine.run_seconds = started.elapsed().as_secs_f64();
        Ok(RunReport {
            results: outs,
            unwritten,
            engine,
        })
    }

    /// A DMA semaphore not back to zero: a DMA never waited for.
    fn check_dmas(&self, machine: &Machine) -> Result<(), ExecError> {
        let st = machine.lock();
        for (d, bufs) in st.bufs.iter().enumerate() {
            for b in bufs {
                if b.elem != ElemType::DmaSemaphore || b.freed {
                    continue;
                }
                if let Data::I64(v) = &b.data
                    && let Some((i, n)) = v.iter().enumerate().find(|(_, n)| **n != 0)
                {
                    return Err(ExecError::new(format!(
                            "a DMA was still in flight when the kernel returned: {}[{i}] on device {d} holds {n} byte(s) never waited for",
                            b.label
                        ))
                        .with_point(&[], (machine.devices > 1).then_some(d)));
                }
            }
        }
        Ok(())
    }

    /// The engine a run uses: the compiled body (emitted and compiled once
    /// per kernel and `fuse_multiply_add`), or the interpreter and why.
    fn engine_for(&self, options: &RunOptions) -> (Option<Arc<jit::Compiled>>, EngineReport) {
        let interp = |why: Option<String>| EngineReport {
            engine: Engine::Interpreter,
            fallback: why,
            compile_seconds: 0.0,
            cached: false,
            run_seconds: 0.0,
            runtime_ops: Vec::new(),
        };
        if options.engine == Engine::Interpreter {
            return (None, interp(None));
        }
        let why = if options.detect_races {
            Some("race detection (detect_races) needs the interpreter: it checks every access")
        } else if options.detect_uninitialized {
            Some(
                "uninitialised-read detection (detect_uninitialized) needs the interpreter: it checks every access",
            )
        } else if matches!(options.dma, DmaTiming::Random(_)) {
            Some("random DMA timing (DmaTiming::Random) needs the interpreter: it counts ops")
        } else if options.max_ops.is_some() {
            Some("an op budget (max_ops) needs the interpreter: it counts ops")
        } else if options.subnormals == super::Subnormals::FlushToZero && !jit::CAN_FLUSH {
            Some("flushing subnormals needs the interpreter on this CPU")
        } else {
            None
        };
        if let Some(why) = why {
            return (None, interp(Some(why.to_string())));
        }
        let flush = options.subnormals == super::Subnormals::FlushToZero;
        let slot = &self.jit[usize::from(options.fuse_multiply_add) + 2 * usize::from(flush)];
        let mut fresh = None;
        let got = slot.get_or_init(|| {
            match jit::prepare(&self.program, &self.main, options.fuse_multiply_add, flush) {
                jit::Prepared::Ready(c, cached) => {
                    fresh = Some(if cached { 0.0 } else { c.compile_seconds });
                    Ok(c)
                }
                jit::Prepared::Refused(why) => Err(why),
            }
        });
        match got {
            Ok(c) => (
                Some(Arc::clone(c)),
                EngineReport {
                    engine: Engine::Jit,
                    fallback: None,
                    compile_seconds: fresh.unwrap_or(0.0),
                    cached: fresh.is_none_or(|s| s == 0.0),
                    run_seconds: 0.0,
                    runtime_ops: c.runtime_ops(),
                },
            ),
            Err(why) => (None, interp(Some(why.clone()))),
        }
    }

    fn device(
        &self,
        machine: &Machine,
        dev: usize,
        inputs: &[Array],
        options: &RunOptions,
        jit: Option<&jit::Compiled>,
    ) -> Result<DeviceRun, ExecError> {
        let multi = (machine.devices > 1).then_some(dev);
        let tag = |e: ExecError| {
            if multi.is_some() {
                ExecError {
                    device: e.device.or(multi),
                    ..e
                }
            } else {
                e
            }
        };
        let inputs = self.data_inputs(inputs).map_err(tag)?;
        let call = &self.concrete(inputs).map_err(tag)?;
        for (k, (a, t)) in inputs.iter().zip(&call.operands).enumerate() {
            let one_element = a.len() == 1 && t.shape.iter().product::<usize>() == 1;
            if (a.shape != t.shape && !one_element) || a.elem.signless() != t.elem.signless() {
                return Err(tag(ExecError::new(format!(
                    "operand {k} is {}{:?}, the call takes {}{:?}",
                    a.elem, a.shape, t.elem, t.shape
                ))));
            }
        }
        let prog: &Program = &self.program;
        let mut it = Interp::new(prog, machine, dev);
        it.fuse = options.fuse_multiply_add;
        it.flush_subnormals = options.subnormals == super::Subnormals::FlushToZero;
        // Grid.
        let dynamic = self.grid.iter().filter(|&&b| b == DYNAMIC).count();
        let mut dyn_vals = inputs[..dynamic].iter().map(Array::scalar_i64);
        let grid: Vec<i64> = self
            .grid
            .iter()
            .map(|&b| {
                if b == DYNAMIC {
                    dyn_vals.next().unwrap_or(0)
                } else {
                    b
                }
            })
            .collect();
        // libtpu's grid rule: every bound in range and fewer than 2^31 - 1
        // steps, so the step count and every index below fit a `usize`.
        let total = contract::grid::steps(&self.main, &grid)
            .map_err(|e| tag(ExecError::new(e.to_string())))?
            .unwrap_or(0) as usize;
        it.grid = grid.clone();
        it.barrier = Some(
            machine
                .alloc(dev, ElemType::Semaphore, 1, "the barrier semaphore".into())
                .map_err(|m| tag(ExecError::new(m)))?,
        );
        it.ops_left = options.max_ops;
        // Scalar prefetch operands, in SMEM: one copy per TensorCore (each
        // core's SMEM gets its own; kernels keep state there).
        let sp_start = dynamic;
        let first = self.grid.len();
        let alloc_sp = |core: usize| -> Result<Vec<Val>, ExecError> {
            let on = if options.cores > 1 {
                format!(" of core {core}")
            } else {
                String::new()
            };
            let mut sp_args = Vec::with_capacity(self.scalar_prefetch);
            for i in 0..self.scalar_prefetch {
                let a = &inputs[sp_start + i];
                let buf = machine
                    .alloc_with(
                        dev,
                        a.elem.signless(),
                        signless_data(a),
                        format!("scalar prefetch operand {i} (SMEM){on}"),
                    )
                    .map_err(|m| tag(ExecError::new(m)))?;
                let shape = self.main_args()[first + i].shape().to_vec();
                sp_args.push(Val::M(Rc::new(MemRef::whole(
                    dev,
                    buf,
                    a.elem.signless(),
                    if shape.is_empty() {
                        a.shape.clone()
                    } else {
                        shape
                    },
                ))));
            }
            Ok(sp_args)
        };
        let sp_core0 = alloc_sp(0)?;
        // HBM buffers of inputs and outputs, padded to whole blocks.
        let in_start = dynamic + self.scalar_prefetch;
        let n_in = call.operands.len() - in_start;
        let mut hbm: Vec<MemRef> = Vec::with_capacity(self.windows.len());
        for k in 0..self.windows.len() {
            let (t, label) = if k < n_in {
                (&call.operands[in_start + k], format!("input {k} (HBM)"))
            } else {
                (
                    &call.results[k - n_in],
                    format!("output {} (HBM)", k - n_in),
                )
            };
            let elem = t.elem.signless();
            let padded: Vec<usize> = match &self.windows[k] {
                Win::Block {
                    bounds,
                    element: false,
                    ..
                } => t
                    .shape
                    .iter()
                    .zip(bounds)
                    .map(|(&d, &b)| {
                        if b == 0 {
                            Some(d)
                        } else {
                            d.div_ceil(b).checked_mul(b)
                        }
                    })
                    .collect::<Option<Vec<usize>>>()
                    .ok_or_else(|| {
                        tag(ExecError::new(format!(
                            "{label}: the shape {:?} padded to whole blocks of {bounds:?} overflows the address space",
                            t.shape
                        )))
                    })?,
                _ => t.shape.clone(),
            };
            if k >= n_in {
                let r = k - n_in;
                if let Some(&(op, _)) = call.aliases.iter().find(|(_, res)| *res == r)
                    && op >= in_start
                    && op - in_start < n_in
                {
                    let m = hbm[op - in_start].clone();
                    hbm.push(m);
                    continue;
                }
            }
            // An input filling its buffer (no padding) is moved in as it is,
            // without filling the buffer first (unless written elements are
            // tracked: the buffer then has its marks).
            if k < n_in {
                let a = &inputs[in_start + k];
                let data = signless_data(a);
                let same_kind = std::mem::discriminant(&data)
                    == std::mem::discriminant(&Data::filled(elem, 0, 0.0));
                if a.shape == padded && same_kind && data.len() == a.len() && !machine.track_writes
                {
                    let buf = machine
                        .alloc_with(dev, elem, data, label)
                        .map_err(|m| tag(ExecError::new(m)))?;
                    hbm.push(MemRef::whole(dev, buf, elem, padded.clone()));
                    continue;
                }
            }
            let buf = machine
                .alloc(dev, elem, elements(&padded).unwrap_or(usize::MAX), label)
                .map_err(|m| tag(ExecError::new(m)))?;
            let view = MemRef::whole(dev, buf, elem, padded.clone());
            if k < n_in {
                let a = &inputs[in_start + k];
                let zero = vec![0i64; a.shape.len()];
                write_whole(&it, &view, &zero, &a.shape, &signless_data(a))?;
                // The padding past the array is not the kernel's to initialise.
                machine.mark_written(dev, buf);
            }
            hbm.push(view);
        }
        // The grid, split among the cores: each core runs its grid points
        // with its own VMEM blocks and scratch.
        let main = prog
            .func(&self.main)
            .ok_or_else(|| ExecError::new("main function missing"))?;
        let perms = self.permutations(&grid, options.seed);
        let point_of = |t: usize| -> Vec<i64> {
            let mut rem = t;
            let mut p = vec![0i64; grid.len()];
            for d in (0..grid.len()).rev() {
                let b = grid[d] as usize;
                let i = rem % b.max(1);
                rem /= b.max(1);
                p[d] = match &perms[d] {
                    Some(perm) => perm[i] as i64,
                    None => i as i64,
                };
            }
            p
        };
        let cores = options.cores.max(1);
        // The leading `parallel` dimensions (flattened) are split into
        // contiguous ranges of ceil(points / cores), as Mosaic (and JAX's
        // interpret mode with several cores) splits them.
        let lead = self.megacore;
        let parallel_points: usize = grid[..lead].iter().map(|&b| b.max(0) as usize).product();
        let per_core = parallel_points.div_ceil(cores).max(1);
        let core_of_point = |p: &[i64]| -> usize {
            if cores == 1 || lead == 0 {
                return 0;
            }
            let linear = p[..lead]
                .iter()
                .zip(&grid[..lead])
                .fold(0usize, |acc, (&i, &b)| {
                    acc * b.max(1) as usize + i.max(0) as usize
                });
            (linear / per_core).min(cores - 1)
        };
        let mut scratch = ScratchStore::default();
        // The (megacore, core and subcore coordinates) a point's scratch
        // belongs to; without the subcores, its SparseCore (`vmem_shared`
        // scratch: one per core, whatever the subcore).
        let key_of = |point: &[i64], mc: usize, subcores: bool| -> Vec<i64> {
            let mut key: Vec<i64> = if cores > 1 {
                vec![mc as i64]
            } else {
                Vec::new()
            };
            key.extend(
                point
                    .iter()
                    .zip(self.per_core.iter().zip(&self.subcore))
                    .filter(|(_, (c, s))| **c && (subcores || !**s))
                    .map(|(p, _)| *p),
            );
            key
        };
        // (scratch key, SparseCore key) of a point.
        let keys = |point: &[i64], mc: usize| (key_of(point, mc, true), key_of(point, mc, false));
        // Races between cores and vector subcores sharing memory: each
        // (sub)core of a grid with more than one is an agent of the
        // happens-before ([`super::races`]).
        let agents =
            machine.detect_races && self.per_core.iter().zip(&grid).any(|(&c, &b)| c && b > 1);
        let agent_of = |point: &[i64], mc: usize| {
            agents.then(|| machine.lock().hb.agent(dev, &key_of(point, mc, true)))
        };
        // `tpu.core_id`: the coordinate along the first core-parallel
        // dimension, else the megacore's core.
        let core_id = |key: &[i64], mc: usize| {
            if self.per_core.iter().any(|&c| c) {
                key.get(usize::from(cores > 1)).map_or(0, |&c| c as usize)
            } else {
                mc
            }
        };
        // Per output: the blocks already written back (block start -> the
        // core and the grid points of that visit).
        let mut visited: Vec<std::collections::HashMap<Vec<usize>, Visit>> =
            vec![std::collections::HashMap::new(); self.windows.len()];
        let mut done = 0u64;
        // Every core's buffers exist before any device starts (a remote DMA
        // finds its target buffer allocated).
        let mut core_sets = Vec::with_capacity(cores);
        let mut sp_core0 = Some(sp_core0);
        for mc in 0..cores {
            // The core's first grid point (its points are visited lazily below).
            let first = (0..total).map(point_of).find(|p| core_of_point(p) == mc);
            if first.is_none() && mc > 0 {
                continue;
            }
            let win_args = self
                .window_buffers(machine, dev, n_in, &hbm, mc, cores)
                .map_err(tag)?;
            let first_point = first.clone().unwrap_or_else(|| vec![0; grid.len()]);
            self.scratch_of(&mut scratch, machine, dev, keys(&first_point, mc), cores)
                .map_err(tag)?;
            let sp_args = match sp_core0.take() {
                Some(sp) if mc == 0 => sp,
                _ => alloc_sp(mc)?,
            };
            core_sets.push((mc, first, win_args, sp_args));
        }
        if machine.devices > 1 {
            machine
                .start_barrier()
                .map_err(|f| tag(ExecError::new(format!("stopped: {f}"))))?;
        }
        for (mc, first, win_args, sp_args) in core_sets {
            let mut prev: Vec<Option<Vec<usize>>> = vec![None; self.windows.len()];
            // Where each output's current visit began.
            let mut visit_start: Vec<Vec<i64>> = vec![Vec::new(); self.windows.len()];
            let mut cur = match &first {
                Some(p) => self
                    .starts(&mut it, p, &sp_args, &hbm, n_in)
                    .map_err(|e| tag(e.with_point(p, multi)))?,
                None => Vec::new(),
            };
            it.megacore = mc;
            if let Some(size) = self.subcore_threads {
                // Every point is a vector subcore (or a core): each runs on a
                // thread of its own, and `tpu.barrier` waits for the
                // subcores of its SparseCore.
                let points: Vec<Vec<i64>> = (0..total)
                    .map(point_of)
                    .filter(|p| core_of_point(p) == mc)
                    .collect();
                let mut jobs = Vec::with_capacity(points.len());
                for point in points {
                    let at = |e: ExecError| tag(e.with_point(&point, multi));
                    let (key, group) = keys(&point, mc);
                    let core = core_id(&key, mc);
                    let set = self
                        .scratch_of(&mut scratch, machine, dev, (key, group.clone()), cores)
                        .map_err(at)?;
                    let mems = sp_args
                        .iter()
                        .chain(&win_args)
                        .chain(set)
                        .map(Detached::of)
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(at)?;
                    jobs.push(SubcoreJob {
                        agent: agent_of(&point, mc),
                        point,
                        core,
                        group,
                        mems,
                    });
                }
                let n = jobs.len() as u64;
                run_subcores(&it, main, jobs, size, multi).map_err(tag)?;
                done += n;
                if let Some(p) = &options.progress {
                    p(done, total as u64, dev);
                }
                continue;
            }
            let mut points = (0..total)
                .map(point_of)
                .filter(|p| core_of_point(p) == mc)
                .peekable();
            while let Some(point) = points.next() {
                let point = &point;
                let at = |e: ExecError| tag(e.with_point(point, multi));
                it.point.clone_from(point);
                it.agent = agent_of(point, mc);
                let next = match points.peek() {
                    Some(np) => Some(
                        self.starts(&mut it, np, &sp_args, &hbm, n_in)
                            .map_err(|e| tag(e.with_point(np, multi)))?,
                    ),
                    None => None,
                };
                // Copy in the inputs whose block moved.
                for k in 0..n_in {
                    let Win::Block { bounds, .. } = &self.windows[k] else {
                        continue;
                    };
                    if prev[k].as_ref() != Some(&cur[k]) {
                        let Val::M(local) = &win_args[k] else {
                            continue;
                        };
                        copy_block(&it, &hbm[k], &cur[k], bounds, local, true).map_err(at)?;
                    }
                }
                // Outputs starting a visit of a block: one visited before and
                // left is a revisit; the block buffer starts uninitialised.
                for k in n_in..self.windows.len() {
                    if !matches!(self.windows[k], Win::Block { .. })
                        || prev[k].as_ref() == Some(&cur[k])
                    {
                        continue;
                    }
                    if self.revisit_any.get(k).copied().unwrap_or(false) {
                        // `RevisitMode.ANY`: the pipeline reads the block back.
                        if let (Win::Block { bounds, .. }, Val::M(local)) =
                            (&self.windows[k], &win_args[k])
                        {
                            copy_block(&it, &hbm[k], &cur[k], bounds, local, true).map_err(at)?;
                        }
                        visit_start[k].clone_from(point);
                        continue;
                    }
                    if let Some((c, first, last)) = visited[k].get(&cur[k]) {
                        let Win::Block { bounds, .. } = &self.windows[k] else {
                            continue;
                        };
                        let block: Vec<usize> = cur[k]
                            .iter()
                            .zip(bounds)
                            .map(|(&s, &b)| s.checked_div(b).unwrap_or(0))
                            .collect();
                        let by = if cores > 1 {
                            format!(" on core {c}")
                        } else {
                            String::new()
                        };
                        let again = if cores > 1 {
                            format!(" on core {mc}")
                        } else {
                            String::new()
                        };
                        return Err(at(ExecError::new(format!(
                            "Revisited block: output {}'s block {block:?} (elements from {:?}) was visited at grid points {} to {}{by} and written back, then visited again at grid point {}{again}: a TPU does not read an output block back, so the earlier visit's writes are lost (visit each output block in one run of consecutive grid points{})",
                            k - n_in,
                            cur[k],
                            point_text(first),
                            point_text(last),
                            point_text(point),
                            if cores > 1 {
                                ", and on one core: the leading parallel dimension is split between the TensorCores"
                            } else {
                                ""
                            }
                        ))));
                    }
                    visit_start[k].clone_from(point);
                    if let Val::M(local) = &win_args[k] {
                        machine.reset(local.dev, local.buf);
                    }
                }
                let mut args: Vec<Val> = point
                    .iter()
                    .map(|&i| Val::A(Rc::new(Array::int(ElemType::Int(32), i))))
                    .collect();
                args.extend(sp_args.iter().cloned());
                args.extend(win_args.iter().cloned());
                let (key, group) = keys(point, mc);
                it.core = core_id(&key, mc);
                let set = self
                    .scratch_of(&mut scratch, machine, dev, (key, group), cores)
                    .map_err(at)?;
                args.extend(set.iter().cloned());
                match jit {
                    Some(c) => c.call(&it, &args).map_err(at)?,
                    None => {
                        it.call(main, args).map_err(at)?;
                    }
                }
                // Copy out the outputs whose block moves next (or at the end).
                for k in n_in..self.windows.len() {
                    let Win::Block { bounds, .. } = &self.windows[k] else {
                        continue;
                    };
                    let moves = next.as_ref().is_none_or(|n| n[k] != cur[k]);
                    if moves {
                        let Val::M(local) = &win_args[k] else {
                            continue;
                        };
                        copy_block(&it, &hbm[k], &cur[k], bounds, local, false).map_err(at)?;
                        visited[k].insert(
                            cur[k].clone(),
                            (mc, std::mem::take(&mut visit_start[k]), point.clone()),
                        );
                    }
                }
                prev.clone_from(&cur.iter().cloned().map(Some).collect());
                done += 1;
                if let Some(p) = &options.progress {
                    p(done, total as u64, dev);
                }
                if let Some(n) = next {
                    cur = n;
                }
            }
        }
        // DMAs this device started and no wait completed copy before the call
        // returns (a TPU completes them; one started here may be waited for by
        // a later call, which holds its semaphore): whether they were waited
        // for is then judged by their semaphores, whatever the schedule.
        {
            let mut s = machine.lock();
            let st = &mut *s;
            for d in st.dmas.iter_mut().filter(|d| d.issuer == dev) {
                d.complete(&mut st.bufs);
            }
        }
        // Results: the logical part of each output's HBM buffer.
        let mut results = Vec::with_capacity(call.results.len());
        let mut unwritten = Vec::with_capacity(call.results.len());
        for (r, t) in call.results.iter().enumerate() {
            let view = &hbm[n_in + r];
            let zero = vec![0i64; t.shape.len()];
            let data = read_whole(&it, view, &zero, &t.shape).map_err(tag)?;
            results.push(Array::new(t.elem, t.shape.clone(), data));
            unwritten.push(it.count_unwritten(view, &t.shape));
        }
        Ok((results, unwritten))
    }

    /// The VMEM/SMEM buffers of the windows on one core (HBM-resident
    /// operands are the HBM buffers themselves).
    fn window_buffers(
        &self,
        machine: &Machine,
        dev: usize,
        n_in: usize,
        hbm: &[MemRef],
        core: usize,
        cores: usize,
    ) -> Result<Vec<Val>, ExecError> {
        let first = self.grid.len() + self.scalar_prefetch;
        let mut win_args = Vec::with_capacity(self.windows.len());
        for (k, w) in self.windows.iter().enumerate() {
            let ty = &self.main_args()[first + k];
            match w {
                Win::Direct => {
                    let shape = ty.shape().to_vec();
                    let m = MemRef {
                        shape: shape.clone(),
                        strides: Array::strides(&shape),
                        ..hbm[k].clone()
                    };
                    if shape.iter().product::<usize>() != hbm[k].shape.iter().product::<usize>() {
                        return Err(ExecError::new(format!(
                            "operand {k} is passed whole but its kernel argument `{}` has another size",
                            super::program::ty_text(ty)
                        )));
                    }
                    win_args.push(Val::M(Rc::new(m)));
                }
                Win::Block { .. } => {
                    let (elem, shape, space) = match ty {
                        VTy::MemRef(e, s, sp) => (*e, s.clone(), sp.clone()),
                        _ => unreachable!("checked in new"),
                    };
                    let what = if k < n_in {
                        format!("input {k}")
                    } else {
                        format!("output {}", k - n_in)
                    };
                    let on = if cores > 1 {
                        format!(" of core {core}")
                    } else {
                        String::new()
                    };
                    let buf = machine
                        .alloc(
                            dev,
                            elem,
                            elements(&shape).unwrap_or(usize::MAX),
                            format!("{what}'s block ({}){on}", space.to_uppercase()),
                        )
                        .map_err(ExecError::new)?;
                    win_args.push(Val::M(Rc::new(MemRef::whole(dev, buf, elem, shape))));
                }
            }
        }
        Ok(win_args)
    }

    /// One set of scratch buffers (per core, or per core-parallel coordinate).
    /// The scratch buffers of the point whose scratch key is `key` (its
    /// megacore, core and subcore coordinates), allocated at its first use;
    /// `vmem_shared` scratch is the one buffer of its SparseCore
    /// (`shared_key`, the key without the subcores).
    fn scratch_of<'s>(
        &self,
        store: &'s mut ScratchStore,
        machine: &Machine,
        dev: usize,
        (key, shared_key): (Vec<i64>, Vec<i64>),
        cores: usize,
    ) -> Result<&'s [Val], ExecError> {
        let ScratchStore { sets, shared } = store;
        if let std::collections::hash_map::Entry::Vacant(v) = sets.entry(key.clone()) {
            let at = if key.is_empty() {
                String::new()
            } else if cores > 1 && key.len() == 1 {
                format!(" of core {}", key[0])
            } else {
                format!(" of core {key:?}")
            };
            let mut out = Vec::with_capacity(self.scratch.len());
            for (i, ty) in self.scratch.iter().enumerate() {
                let VTy::MemRef(e, s, sp) = ty else {
                    return Err(ExecError::new(format!(
                        "scratch operand {i} has type `{}`, which the executor cannot allocate",
                        super::program::ty_text(ty)
                    )));
                };
                let slot = (sp == "vmem_shared").then(|| (shared_key.clone(), i));
                if let Some(m) = slot.as_ref().and_then(|k| shared.get(k)) {
                    out.push(m.clone());
                    continue;
                }
                let buf = machine
                    .alloc(
                        dev,
                        *e,
                        elements(s).unwrap_or(usize::MAX),
                        format!("scratch operand {i} ({}){at}", sp.to_uppercase()),
                    )
                    .map_err(ExecError::new)?;
                let m = Val::M(Rc::new(MemRef::whole(dev, buf, *e, s.clone())));
                if let Some(k) = slot {
                    shared.insert(k, m.clone());
                }
                out.push(m);
            }
            v.insert(out);
        }
        Ok(&sets[&key])
    }

    /// The call shape with every dynamic dimension resolved from the inputs.
    fn concrete(&self, inputs: &[Array]) -> Result<CallShape, ExecError> {
        if inputs.len() != self.call.operands.len() {
            let shapes = if self.shape_operands.is_empty() {
                String::new()
            } else {
                format!(
                    " (or {} with its {} trailing result-shape operand(s))",
                    self.call.operands.len() + self.shape_operands.len(),
                    self.shape_operands.len()
                )
            };
            return Err(ExecError::new(format!(
                "the call takes {} operand(s){shapes}, given {}",
                self.call.operands.len(),
                inputs.len()
            )));
        }
        let mut call = self.call.clone();
        for (k, (t, a)) in call.operands.iter_mut().zip(inputs).enumerate() {
            if !t.shape.contains(&DYNAMIC_DIM) {
                continue;
            }
            if a.shape.len() != t.shape.len()
                || t.shape
                    .iter()
                    .zip(&a.shape)
                    .any(|(&d, &x)| d != DYNAMIC_DIM && d != x)
            {
                return Err(ExecError::new(format!(
                    "operand {k} is {}{:?}, the call takes {}",
                    a.elem,
                    a.shape,
                    t.text()
                )));
            }
            t.shape = a.shape.clone();
        }
        for (r, t) in call.results.iter_mut().enumerate() {
            if !t.shape.contains(&DYNAMIC_DIM) {
                continue;
            }
            let same = self.call.operands.iter().position(|o| o == t).ok_or_else(|| {
                ExecError::new(format!(
                    "result {r} has the dynamic type {} and no operand has that type to take its shape from",
                    t.text()
                ))
            })?;
            t.shape = call.operands[same].shape.clone();
        }
        Ok(call)
    }

    /// Each window's block start (element offsets) at a grid point.
    fn starts<'p>(
        &self,
        it: &mut Interp<'p>,
        point: &[i64],
        sp: &[Val],
        hbm: &[MemRef],
        n_in: usize,
    ) -> Result<Vec<Vec<usize>>, ExecError> {
        let prog: &'p Program = it.prog;
        let mut out = Vec::with_capacity(self.windows.len());
        for (k, w) in self.windows.iter().enumerate() {
            let Win::Block {
                bounds,
                transform,
                element,
            } = w
            else {
                out.push(Vec::new());
                continue;
            };
            let idx: Vec<i64> = match transform {
                None => vec![0; bounds.len()],
                Some(t) => {
                    let f = prog
                        .func(t)
                        .ok_or_else(|| ExecError::new(format!("index map @{t} missing")))?;
                    let mut args: Vec<Val> = point
                        .iter()
                        .map(|&i| Val::A(Rc::new(Array::int(ElemType::Int(32), i))))
                        .collect();
                    args.extend(sp.iter().cloned());
                    args.truncate(f.body.args.len());
                    let vals = it.call(f, args)?;
                    vals.iter()
                        .map(|v| match v {
                            Val::A(a) => Ok(a.scalar_i64()),
                            _ => Err(ExecError::new(format!("index map @{t} returned a memref"))),
                        })
                        .collect::<Result<_, _>>()?
                }
            };
            if idx.len() != bounds.len() {
                return Err(ExecError::new(format!(
                    "the index map of operand {k} returns {} indices for a rank-{} block",
                    idx.len(),
                    bounds.len()
                )));
            }
            let what = if k < n_in {
                format!("input {k}")
            } else {
                format!("output {}", k - n_in)
            };
            let mut s = Vec::with_capacity(idx.len());
            for d in 0..idx.len() {
                let start = if *element {
                    idx[d]
                } else {
                    idx[d].saturating_mul(bounds[d] as i64)
                };
                if start < 0
                    || (start as usize)
                        .checked_add(bounds[d])
                        .is_none_or(|end| end > hbm[k].shape[d])
                {
                    return Err(ExecError::new(format!(
                        "out-of-bounds block index {idx:?} for {what}: block {bounds:?} at offset {start} in dimension {d} of an array padded to {:?}",
                        hbm[k].shape
                    )));
                }
                s.push(start as usize);
            }
            out.push(s);
        }
        Ok(out)
    }

    fn permutations(&self, grid: &[i64], seed: Option<u64>) -> Vec<Option<Vec<usize>>> {
        let Some(seed) = seed else {
            return vec![None; grid.len()];
        };
        let mut rng = SplitMix(seed);
        grid.iter()
            .enumerate()
            .map(|(d, &b)| {
                if !self.parallel.get(d).copied().unwrap_or(false) {
                    return None;
                }
                let mut p: Vec<usize> = (0..b as usize).collect();
                for i in (1..p.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    p.swap(i, j);
                }
                Some(p)
            })
            .collect()
    }
}

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn copy_block(
    it: &Interp<'_>,
    hbm: &MemRef,
    start: &[usize],
    bounds: &[usize],
    local: &MemRef,
    into_local: bool,
) -> Result<(), ExecError> {
    let st: Vec<i64> = start.iter().map(|&s| s as i64).collect();
    if !it.machine.logs_hbm()
        && it
            .copy_box_plain(hbm, &st, bounds, local, into_local)
            .is_some()
    {
        return Ok(());
    }
    let zero = vec![0i64; local.shape.len()];
    it.log_block_copy(hbm, &st, bounds, !into_local);
    if into_local {
        let data = read_whole(it, hbm, &st, bounds)?;
        write_whole(it, local, &zero, &local.shape, &data)?;
        it.copy_written(hbm, &st, bounds, local, &zero, &local.shape);
        Ok(())
    } else {
        let data = read_whole(it, local, &zero, &local.shape)?;
        write_whole(it, hbm, &st, bounds, &data)?;
        // What the kernel left unwritten stays unwritten in HBM.
        it.copy_written(local, &zero, &local.shape, hbm, &st, bounds);
        Ok(())
    }
}

/// A grid point as `(i, j, k)`.
fn point_text(p: &[i64]) -> String {
    format!(
        "({})",
        p.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn read_whole(
    it: &Interp<'_>,
    m: &MemRef,
    start: &[i64],
    extent: &[usize],
) -> Result<Data, ExecError> {
    it.read_box(&DRIVER, m, start, extent, &[])
}

fn write_whole(
    it: &Interp<'_>,
    m: &MemRef,
    start: &[i64],
    extent: &[usize],
    data: &Data,
) -> Result<(), ExecError> {
    it.write_box(&DRIVER, m, start, extent, &[], data, None, false)
}

/// The pipeline's copies are not ops of the kernel: their errors name the
/// driver (site 0 is reserved for it).
static DRIVER: std::sync::LazyLock<super::program::Inst> =
    std::sync::LazyLock::new(super::program::Inst::driver);

/// The values a kernel sees for a host array: unsigned integers
/// (`ui32` operands, held zero-extended on the host) become the signless
/// integers of their width, sign-extended as every other integer is held,
/// so that signed ops after a `uint32 -> int32` cast (`shrsi`, `cmpi slt`,
/// `divsi`, `sitofp`, ...) see `0x80000000` as `-2^31`, as the TPU does.
fn signless_data(a: &Array) -> Data {
    match (a.elem, &a.data) {
        (ElemType::UInt(w), Data::I64(v)) => {
            let t = ElemType::Int(w);
            Data::I64(v.iter().map(|&x| t.wrap(x)).collect())
        }
        _ => a.data.clone(),
    }
}

/// Seeded random inputs for a call: floats uniform in [-1, 1) (rounded to
/// their type), integers uniform in [0, 8) (small and non-negative, so
/// scalar-prefetch operands used as block indices tend to stay in range),
/// booleans fair coins. The same seed gives the same arrays.
pub fn random_inputs(call: &CallShape, seed: u64) -> Result<Vec<Array>, ExecError> {
    if let Some((k, t)) = call
        .operands
        .iter()
        .enumerate()
        .find(|(_, t)| t.shape.contains(&DYNAMIC_DIM))
    {
        return Err(ExecError::new(format!(
            "operand {k} has the dynamic type {}: random inputs need static shapes (give the inputs)",
            t.text()
        )));
    }
    if let Some((k, t)) = call
        .operands
        .iter()
        .enumerate()
        .find(|(_, t)| elements(&t.shape).is_none_or(|n| n > 1 << 34))
    {
        return Err(ExecError::new(format!(
            "operand {k} ({}) is too large to fill",
            t.text()
        )));
    }
    let mut rng = SplitMix(seed);
    Ok(call
        .operands
        .iter()
        .map(|t| {
            let n = elements(&t.shape).unwrap_or(0);
            let data = if t.elem.is_float() {
                let mut d = Data::filled(t.elem, n, 0.0);
                for i in 0..n {
                    let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
                    d.set_f64(i, t.elem.round(2.0 * u - 1.0));
                }
                d
            } else if t.elem == ElemType::Int(1) {
                Data::I64((0..n).map(|_| (rng.next() & 1) as i64).collect())
            } else {
                Data::I64((0..n).map(|_| (rng.next() % 8) as i64).collect())
            };
            Array::new(t.elem, t.shape.clone(), data)
        })
        .collect())
}

/// Semaphores (not DMA semaphores: [`Execution::check_dmas`]) not back to
/// zero when the kernel returned, as JAX's interpret mode checks at kernel
/// exit (it prints the first, `Semaphore 2000 has non-zero count for 0
/// (global core 0) at kernel exit: 1`, and goes on); here every one is
/// named and the run fails. Semaphores the call takes or returns (handed
/// on to another call) are left alone.
fn check_semaphores(machine: &Machine) -> Result<(), ExecError> {
    let st = machine.lock();
    let mut left = Vec::new();
    for (d, bufs) in st.bufs.iter().enumerate() {
        for b in bufs {
            if b.elem != ElemType::Semaphore
                || b.freed
                || b.label.starts_with("input ")
                || b.label.starts_with("output ")
            {
                continue;
            }
            if let Data::I64(v) = &b.data {
                for (i, &n) in v.iter().enumerate().filter(|(_, n)| **n != 0) {
                    let at = if machine.devices > 1 {
                        format!(" on device {d}")
                    } else {
                        String::new()
                    };
                    left.push(format!("{}[{i}]{at} holds {n}", b.label));
                }
            }
        }
    }
    if left.is_empty() {
        return Ok(());
    }
    Err(ExecError::new(format!(
        "{} semaphore(s) not back to zero when the kernel returned (a signal no wait took; JAX's interpret mode prints \"Semaphore ... has non-zero count ... at kernel exit\"; on a TPU the next kernel to use the semaphore finds it set): {}",
        left.len(),
        left.join("; ")
    )))
}

/// The element count of a shape, `None` when it overflows (a buffer that big
/// is then refused by the allocator's budget or size check).
fn elements(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// A whole-buffer memref handed to a vector subcore's thread ([`Val`]
/// holds `Rc`s, which stay on their thread).
struct Detached {
    dev: usize,
    buf: usize,
    offset: usize,
    shape: Vec<usize>,
    strides: Vec<usize>,
    elem: ElemType,
}

impl Detached {
    fn of(v: &Val) -> Result<Detached, ExecError> {
        match v {
            Val::M(m) if m.cast.is_none() => Ok(Detached {
                dev: m.dev,
                buf: m.buf,
                offset: m.offset,
                shape: m.shape.clone(),
                strides: m.strides.clone(),
                elem: m.elem,
            }),
            _ => Err(ExecError::new(
                "a vector subcore's argument is not a plain buffer (a thread cannot take it)",
            )),
        }
    }

    fn attach(self) -> Val {
        Val::M(Rc::new(MemRef {
            dev: self.dev,
            buf: self.buf,
            offset: self.offset,
            shape: self.shape,
            strides: self.strides,
            elem: self.elem,
            cast: None,
        }))
    }
}

/// One vector subcore's run: its grid point, `tpu.core_id`, SparseCore
/// (the barrier's group) and memref arguments (after the point's indices).
struct SubcoreJob {
    /// Its agent in the race detector's happens-before.
    agent: Option<usize>,
    point: Vec<i64>,
    core: usize,
    group: Vec<i64>,
    mems: Vec<Detached>,
}

/// Runs vector subcores at once, each on a thread with an interpreter set up
/// as `template`; `tpu.barrier` waits for the `size` subcores of a group.
/// The first failure (not one that only stopped because another failed).
fn run_subcores(
    template: &Interp<'_>,
    main: &super::program::Func,
    jobs: Vec<SubcoreJob>,
    size: usize,
    multi: Option<usize>,
) -> Result<(), ExecError> {
    let machine = template.machine;
    let dev = template.dev;
    let n = jobs.len();
    let base = {
        let mut s = machine.lock();
        // The device's own place among the running threads passes to its
        // subcores while they run.
        s.live += n.saturating_sub(1);
        let base = s.next_thread;
        s.next_thread += n;
        s.turns.insert(
            dev,
            super::machine::Turn {
                base,
                done: vec![false; n],
                at: 0,
            },
        );
        base
    };
    let results: Vec<Result<(), ExecError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .into_iter()
            .enumerate()
            .map(|(i, job)| {
                let (prog, grid) = (template.prog, template.grid.clone());
                let (fuse, flush, barrier, ops_left, megacore) = (
                    template.fuse,
                    template.flush_subnormals,
                    template.barrier,
                    template.ops_left,
                    template.megacore,
                );
                let group = job.group.clone();
                let spawned = std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, move || {
                        let mut it = Interp::new(prog, machine, dev);
                        it.fuse = fuse;
                        it.flush_subnormals = flush;
                        it.grid = grid;
                        it.barrier = barrier;
                        it.ops_left = ops_left;
                        it.megacore = megacore;
                        it.core = job.core;
                        it.point.clone_from(&job.point);
                        it.thread = base + i;
                        it.subcores = Some((job.group.clone(), size));
                        it.agent = job.agent;
                        let mut args: Vec<Val> = job
                            .point
                            .iter()
                            .map(|&x| Val::A(Rc::new(Array::int(ElemType::Int(32), x))))
                            .collect();
                        args.extend(job.mems.into_iter().map(Detached::attach));
                        let r = machine
                            .await_turn(dev, base + i)
                            .map_err(ExecError::new)
                            .and_then(|()| it.call(main, args).map(|_| ()))
                            .map_err(|e| e.with_point(&job.point, multi));
                        if let Err(e) = &r {
                            let mut st = machine.lock();
                            if st.failed.is_none() {
                                st.failed = Some(format!(
                                    "the vector subcore at grid point {:?} failed: {}",
                                    job.point, e.message
                                ));
                            }
                        }
                        machine.subcore_finished(dev, &job.group, base + i);
                        r
                    });
                if spawned.is_err() {
                    // The others must not wait for it at a barrier.
                    let mut st = machine.lock();
                    if st.failed.is_none() {
                        st.failed = Some("a vector subcore thread did not start".into());
                    }
                    drop(st);
                    machine.subcore_finished(dev, &group, base + i);
                }
                spawned
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Err(ExecError::new("a vector subcore thread panicked"))),
                Err(e) => Err(ExecError::new(format!(
                    "cannot start a vector subcore thread: {e}"
                ))),
            })
            .collect()
    });
    {
        let mut s = machine.lock();
        s.live += 1;
        s.turns.remove(&dev);
    }
    let mut first: Option<ExecError> = None;
    for r in results {
        if let Err(e) = r {
            let secondary = e.message.starts_with("stopped: ");
            if first
                .as_ref()
                .is_none_or(|f| f.message.starts_with("stopped: ") && !secondary)
            {
                first = Some(e);
            }
        }
    }
    first.map_or(Ok(()), Err)
}

/// Every scratch set allocated so far in a run on one device: per scratch
/// key ([`Execution::scratch_of`]), and the `vmem_shared` buffers per
/// (SparseCore, scratch operand).
#[derive(Default)]
struct ScratchStore {
    sets: std::collections::HashMap<Vec<i64>, Vec<Val>>,
    shared: std::collections::HashMap<(Vec<i64>, usize), Val>,
}
