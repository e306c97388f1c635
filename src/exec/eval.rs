//! The interpreter: runs a compiled function on values, one op at a time.
//! Vectors are whole arrays (an op is one loop over its elements), so the
//! cost of interpretation is per op, not per element.

use std::rc::Rc;

use super::ExecError;
use super::array::{Array, Data, for_each_index};
use super::dtype::{ElemType, wrap_int};
use super::machine::{Machine, Wait};
use super::ops;
use super::program::{Block, Func, Inst, Kind, Program, VTy};
use super::races::Access;

/// A memref: a view of a buffer on a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemRef {
    pub dev: usize,
    pub buf: usize,
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
    pub elem: ElemType,
    /// A `tpu.memref_bitcast` view: the view of the underlying buffer (in
    /// its own element type) that this one reinterprets.
    pub cast: Option<Rc<MemRef>>,
}

impl MemRef {
    /// A whole buffer seen with a row-major shape.
    pub(crate) fn whole(dev: usize, buf: usize, elem: ElemType, shape: Vec<usize>) -> MemRef {
        let strides = Array::strides(&shape);
        MemRef {
            dev,
            buf,
            offset: 0,
            shape,
            strides,
            elem,
            cast: None,
        }
    }

    fn len(&self) -> usize {
        self.shape.iter().product()
    }

    fn is_contiguous(&self) -> bool {
        let mut expect = 1;
        for d in (0..self.shape.len()).rev() {
            if self.shape[d] != 1 && self.strides[d] != expect {
                return false;
            }
            expect *= self.shape[d];
        }
        true
    }
}

/// A runtime value.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    None,
    A(Rc<Array>),
    M(Rc<MemRef>),
}

/// How a block ended.
enum Flow {
    /// Its terminator's operands.
    Values(Vec<Val>),
}

/// One device (and core) running functions of a program.
pub(crate) struct Interp<'p> {
    pub prog: &'p Program,
    pub machine: &'p Machine,
    pub dev: usize,
    pub core: usize,
    /// `iteration_bounds` of the kernel (for `tpu.iteration_bound`).
    pub grid: Vec<i64>,
    /// The barrier semaphore of each device (buffer index), if allocated.
    pub barrier: Option<usize>,
    /// Contract multiply-adds (see [`super::RunOptions::fuse_multiply_add`]).
    pub fuse: bool,
    /// Ops this device may still execute (`RunOptions::max_ops`).
    pub ops_left: Option<u64>,
    /// The grid point being run (race and uninitialised-read reports).
    pub point: Vec<i64>,
    /// The TensorCore running it ([`super::RunOptions::cores`]).
    pub megacore: usize,
    /// Set while a copy (a DMA, the pipeline's block copies) reads and
    /// writes: copies move written marks along and are not kernel accesses.
    copying: std::cell::Cell<bool>,
    /// Ops run on this device (`DmaTiming::Random` deadlines).
    ops_run: u64,
    /// The earliest deadline of this device's random-time DMAs.
    next_due: Option<u64>,
    /// This device's random DMA times.
    rng: u64,
    /// Flush `f32`/`bf16` subnormal operands and results of arithmetic to
    /// zero (see [`super::Subnormals`]).
    pub flush_subnormals: bool,
    /// Who waits, in the machine's deadlock accounting: the device, or a
    /// vector subcore's thread.
    pub thread: usize,
    /// A vector subcore running on its own thread: its SparseCore (the
    /// barrier's group) and how many subcores `tpu.barrier` waits for.
    pub subcores: Option<(Vec<i64>, usize)>,
    /// The core or vector subcore running, as an agent of the race
    /// detector's happens-before ([`super::races`]); `None` when races
    /// are not watched or the grid has one core.
    pub agent: Option<usize>,
    scopes: Vec<Vec<usize>>,
}

type R<T> = Result<T, ExecError>;

/// A box's extent in every dimension of a rank-`rank` view (the vector
/// covers the trailing ones) and its step per dimension (1 without a stride).
fn extent_and_steps(rank: usize, vshape: &[usize], strides: &[i64]) -> (Vec<usize>, Vec<usize>) {
    let mut extent = vec![1usize; rank - vshape.len()];
    extent.extend_from_slice(vshape);
    let steps = (0..rank)
        .map(|d| strides.get(d).map_or(1, |&s| s.max(1) as usize))
        .collect();
    (extent, steps)
}

/// Where something ran, for messages: `grid point (0, 1)` (`, device 2`).
fn place(point: &[i64], device: Option<usize>) -> String {
    let mut text = format!(
        "grid point ({})",
        point
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(d) = device {
        text.push_str(&format!(", device {d}"));
    }
    text
}

/// `a` with its `f32`/`bf16` subnormals replaced by zeros of their sign,
/// `None` when it has none (the common case: no copy).
fn flush_array(a: &Array) -> Option<Array> {
    if !matches!(a.elem, ElemType::F32 | ElemType::BF16) {
        return None;
    }
    let Data::F32(v) = &a.data else {
        return None;
    };
    // Subnormal: magnitude bits in 1..=0x7f_ffff (one compare, branch-free
    // over the whole vector so that it vectorises).
    let sub = |x: f32| (x.to_bits() & 0x7fff_ffff).wrapping_sub(1) < 0x007f_ffff;
    if !v.iter().fold(false, |acc, &x| acc | sub(x)) {
        return None;
    }
    let data = v
        .iter()
        .map(|&x| if sub(x) { 0f32.copysign(x) } else { x })
        .collect();
    Some(Array::new(a.elem, a.shape.clone(), Data::F32(data)))
}

impl<'p> Interp<'p> {
    pub(crate) fn new(prog: &'p Program, machine: &'p Machine, dev: usize) -> Interp<'p> {
        Interp {
            prog,
            machine,
            dev,
            core: 0,
            grid: Vec::new(),
            barrier: None,
            fuse: false,
            ops_left: None,
            flush_subnormals: true,
            point: Vec::new(),
            megacore: 0,
            copying: std::cell::Cell::new(false),
            ops_run: 0,
            next_due: None,
            rng: match machine.dma {
                super::DmaTiming::Random(seed) => seed ^ (dev as u64).wrapping_mul(0x9e37_79b9),
                _ => 0,
            },
            thread: dev,
            subcores: None,
            agent: None,
            scopes: Vec::new(),
        }
    }

    /// Calls a function with arguments; returns its results.
    pub(crate) fn call(&mut self, f: &'p Func, args: Vec<Val>) -> R<Vec<Val>> {
        if args.len() != f.body.args.len() {
            return Err(ExecError::new(format!(
                "function @{} takes {} argument(s), given {}",
                f.name,
                f.body.args.len(),
                args.len()
            )));
        }
        let mut frame = vec![Val::None; f.slots];
        let Flow::Values(v) = self.block(&mut frame, &f.body, args)?;
        Ok(v)
    }

    fn block(&mut self, frame: &mut [Val], b: &'p Block, args: Vec<Val>) -> R<Flow> {
        for (&s, v) in b.args.iter().zip(args) {
            frame[s as usize] = v;
        }
        self.scopes.push(Vec::new());
        let mut out = Flow::Values(Vec::new());
        let mut result = Ok(());
        for inst in &b.insts {
            if matches!(inst.kind, Kind::Yield) {
                out = Flow::Values(
                    inst.args
                        .iter()
                        .map(|&s| frame[s as usize].clone())
                        .collect(),
                );
                break;
            }
            if let Err(e) = self.exec(frame, inst) {
                result = Err(e);
                break;
            }
        }
        if let Some(scope) = self.scopes.pop() {
            for buf in scope {
                if let Err(m) = self.machine.free(self.dev, buf)
                    && result.is_ok()
                {
                    result = Err(ExecError::new(m));
                }
            }
        }
        result.map(|()| out)
    }

    fn fail(&self, inst: &Inst, msg: impl Into<String>) -> ExecError {
        let site = &self.prog.sites[inst.site as usize];
        ExecError::at(msg.into(), site.op.clone(), site.loc.clone())
    }

    fn arr(&self, frame: &[Val], inst: &Inst, s: u32) -> R<Rc<Array>> {
        match &frame[s as usize] {
            Val::A(a) => Ok(a.clone()),
            Val::M(_) => Err(self.fail(inst, "expected a vector or scalar operand, got a memref")),
            Val::None => Err(self.fail(inst, "reads a value that was never defined")),
        }
    }

    fn mem(&self, frame: &[Val], inst: &Inst, s: u32) -> R<Rc<MemRef>> {
        match &frame[s as usize] {
            Val::M(m) => Ok(m.clone()),
            _ => Err(self.fail(inst, "expected a memref operand")),
        }
    }

    fn index(&self, frame: &[Val], inst: &Inst, s: u32) -> R<i64> {
        Ok(self.arr(frame, inst, s)?.scalar_i64())
    }

    fn set(frame: &mut [Val], inst: &Inst, i: usize, a: Array) {
        frame[inst.res[i] as usize] = Val::A(Rc::new(a));
    }

    /// `vector.extract`/`insert` positions: the static ones, with each
    /// dynamic marker taken from the next of `dynamic`'s operands.
    fn positions(&self, frame: &[Val], inst: &Inst, pos: &[i64], dynamic: &[u32]) -> R<Vec<i64>> {
        let mut dynamic = dynamic.iter();
        pos.iter()
            .map(|&x| {
                if x != i64::MIN {
                    return Ok(x);
                }
                let s = dynamic
                    .next()
                    .ok_or_else(|| self.fail(inst, "missing a dynamic position"))?;
                self.index(frame, inst, *s)
            })
            .collect()
    }

    /// An optional operand as an array.
    fn opt_arr(&self, frame: &[Val], inst: &Inst, slot: Option<&u32>) -> R<Option<Rc<Array>>> {
        slot.map(|&s| self.arr(frame, inst, s)).transpose()
    }

    /// Operands as arrays.
    fn arrs(&self, frame: &[Val], inst: &Inst, slots: &[u32]) -> R<Vec<Rc<Array>>> {
        slots.iter().map(|&s| self.arr(frame, inst, s)).collect()
    }

    /// The first `N` operands as arrays.
    fn args<const N: usize>(&self, frame: &[Val], inst: &Inst) -> R<[Rc<Array>; N]> {
        let mut out: [Option<Rc<Array>>; N] = std::array::from_fn(|_| None);
        for (i, slot) in out.iter_mut().enumerate() {
            let s = *inst
                .args
                .get(i)
                .ok_or_else(|| self.fail(inst, "too few operands"))?;
            *slot = Some(self.arr(frame, inst, s)?);
        }
        Ok(out.map(|a| a.expect("filled above")))
    }

    /// Sets the first result from an op's outcome (its error named at the op).
    fn put(&self, frame: &mut [Val], inst: &Inst, r: Result<Array, String>) -> R<()> {
        let r = r.map_err(|m| self.fail(inst, m))?;
        Self::set(frame, inst, 0, r);
        Ok(())
    }

    /// `a` under the shape of the op's first result (same element count).
    fn reshape_to(&self, inst: &Inst, a: Array) -> R<Array> {
        let shape = inst
            .res_ty
            .first()
            .map(|t| t.shape().to_vec())
            .unwrap_or_default();
        if shape.iter().product::<usize>() != a.len() {
            return Err(self.fail(
                inst,
                format!(
                    "computes {} element(s) for a result of shape {shape:?}",
                    a.len()
                ),
            ));
        }
        Ok(a.reshaped(shape))
    }

    fn res_elem(&self, inst: &Inst, i: usize) -> R<ElemType> {
        inst.res_ty
            .get(i)
            .and_then(VTy::elem)
            .ok_or_else(|| self.fail(inst, "result type is not supported"))
    }

    /// Runs one pure op (no memory operands) on arrays: the compiled
    /// engine's runtime calls this for the ops it does not lower itself, so
    /// both engines share one definition of each op. `inst`'s operands are
    /// slots `0..args.len()` and its results the slots after them.
    pub(crate) fn exec_detached(&mut self, inst: &'p Inst, args: Vec<Array>) -> R<Vec<Array>> {
        let n = args.len();
        let mut frame: Vec<Val> = args.into_iter().map(|a| Val::A(Rc::new(a))).collect();
        frame.resize(n + inst.res.len(), Val::None);
        self.exec(&mut frame, inst)?;
        frame
            .drain(n..)
            .map(|v| match v {
                Val::A(a) => Ok(Rc::unwrap_or_clone(a)),
                _ => Err(self.fail(inst, "the op gave no value")),
            })
            .collect()
    }

    fn exec(&mut self, frame: &mut [Val], inst: &'p Inst) -> R<()> {
        if let Some(due) = self.next_due {
            self.ops_run += 1;
            if self.ops_run >= due {
                self.complete_due();
            }
        }
        if !self.flush_subnormals || !inst.kind.flushes() {
            return self.exec_op(frame, inst);
        }
        // The TPU's vector unit reads f32 subnormals as zero and flushes
        // subnormal results: operands are flushed for this op only (a
        // bitcast or a store of the same value still sees its bits).
        let mut saved: Vec<(usize, Val)> = Vec::new();
        let fused = inst.fused.map(|(a, b, _)| [a, b]);
        for (i, &slot) in inst.args.iter().chain(fused.iter().flatten()).enumerate() {
            // Values another flushing op computed are flushed already.
            if i < 64 && inst.flushed_args & (1 << i) != 0 {
                continue;
            }
            let slot = slot as usize;
            if let Some(Val::A(a)) = frame.get(slot)
                && let Some(flushed) = flush_array(a)
            {
                let old = std::mem::replace(&mut frame[slot], Val::A(Rc::new(flushed)));
                saved.push((slot, old));
            }
        }
        let r = self.exec_op(frame, inst);
        for (slot, v) in saved.into_iter().rev() {
            frame[slot] = v;
        }
        r?;
        for &slot in &inst.res {
            if let Some(Val::A(a)) = frame.get(slot as usize)
                && let Some(flushed) = flush_array(a)
            {
                frame[slot as usize] = Val::A(Rc::new(flushed));
            }
        }
        Ok(())
    }

    fn exec_op(&mut self, frame: &mut [Val], inst: &'p Inst) -> R<()> {
        if let Some(left) = &mut self.ops_left {
            if *left == 0 {
                return Err(self.fail(
                    inst,
                    "the run reached its limit of executed ops (RunOptions::max_ops)",
                ));
            }
            *left -= 1;
        }
        match &inst.kind {
            Kind::Const(a) => Self::set(frame, inst, 0, a.clone()),
            Kind::Bin(op) if self.fuse && inst.fused.is_some() => {
                let Some((x, y, product_first)) = inst.fused else {
                    unreachable!()
                };
                let x = self.arr(frame, inst, x)?;
                let y = self.arr(frame, inst, y)?;
                let other = self.arr(frame, inst, inst.args[if product_first { 1 } else { 0 }])?;
                let r = ops::multiply_add(
                    &x,
                    &y,
                    &other,
                    *op == super::program::Bin::SubF,
                    product_first,
                )
                .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Bin(op) => {
                let [a, b] = self.args(frame, inst)?;
                self.put(frame, inst, ops::binary(*op, &a, &b))?;
            }
            Kind::Un(op) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let r = ops::unary(*op, &a, out).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Fma => {
                let [a, b, c] = self.args(frame, inst)?;
                self.put(frame, inst, ops::fma(&a, &b, &c))?;
            }
            Kind::CmpI(p) => {
                let [a, b] = self.args(frame, inst)?;
                self.put(frame, inst, ops::cmpi(*p, &a, &b))?;
            }
            Kind::CmpF(p) => {
                let [a, b] = self.args(frame, inst)?;
                self.put(frame, inst, ops::cmpf(*p, &a, &b))?;
            }
            Kind::Select => {
                let [c, a, b] = self.args(frame, inst)?;
                self.put(frame, inst, ops::select(&c, &a, &b))?;
            }
            Kind::Cast(c) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let r = ops::cast(*c, &a, out).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Load { strides } => self.load(frame, inst, strides)?,
            Kind::Store {
                strides,
                add,
                sublanes,
            } => self.store(frame, inst, strides, *add, sublanes.as_deref())?,
            Kind::ScalarLoad => {
                let m = self.mem(frame, inst, inst.args[0])?;
                let idx = self.indices(frame, inst, &inst.args[1..])?;
                let shape = vec![1; m.shape.len()];
                let data = self.read_box(inst, &m, &idx, &shape, &[])?;
                Self::set(frame, inst, 0, Array::new(m.elem, Vec::new(), data));
            }
            Kind::ScalarStore => {
                let v = self.arr(frame, inst, inst.args[0])?;
                let m = self.mem(frame, inst, inst.args[1])?;
                let idx = self.indices(frame, inst, &inst.args[2..])?;
                let shape = vec![1; m.shape.len()];
                self.write_box(inst, &m, &idx, &shape, &[], &v.data, None, false)?;
            }
            Kind::Broadcast => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let shape = inst.res_ty[0].shape().to_vec();
                let r = ops::broadcast(&a, &shape).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::ShapeCast => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let shape = inst.res_ty[0].shape().to_vec();
                if shape.iter().product::<usize>() != a.len() {
                    return Err(self.fail(inst, "shape cast changes the element count"));
                }
                Self::set(frame, inst, 0, a.reshaped(shape));
            }
            Kind::MultiReduce(kind, dims) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let acc = self.arr(frame, inst, inst.args[1])?;
                let r = ops::reduce(*kind, &a, dims, Some(&acc)).map_err(|m| self.fail(inst, m))?;
                let r = self.reshape_to(inst, r)?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Reduce(kind, dims) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let r = ops::reduce(*kind, &a, dims, None).map_err(|m| self.fail(inst, m))?;
                let r = self.reshape_to(inst, r)?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Reduction(kind) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let dims: Vec<usize> = (0..a.shape.len()).collect();
                let acc = self.opt_arr(frame, inst, inst.args.get(1))?;
                let r = ops::reduce(*kind, &a, &dims, acc.as_deref())
                    .map_err(|m| self.fail(inst, m))?;
                let r = self.reshape_to(inst, r)?;
                Self::set(frame, inst, 0, r);
            }
            Kind::AllReduce { kind, dim } => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let shape = inst.res_ty[0].shape().to_vec();
                let r =
                    ops::all_reduce(kind, &a, *dim, out, &shape).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Scan(kind, dim) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let r = match inst.args.get(1) {
                    Some(&m) => {
                        let mask = self.arr(frame, inst, m)?;
                        ops::masked_scan(*kind, &a, &mask, *dim)
                    }
                    None => ops::scan(*kind, &a, *dim),
                }
                .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::ReduceIndex(kind, axis) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let r = ops::reduce_index(*kind, &a, *axis, out).map_err(|m| self.fail(inst, m))?;
                let r = self.reshape_to(inst, r)?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Extract(pos) => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let p = self.positions(frame, inst, pos, &inst.args[1..])?;
                let r = ops::extract(&a, &p).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Insert(pos) => {
                let v = self.arr(frame, inst, inst.args[0])?;
                let dest = self.arr(frame, inst, inst.args[1])?;
                let p = self.positions(frame, inst, pos, &inst.args[2..])?;
                let r = ops::insert(&v, &dest, &p).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::ExtractStrided {
                offsets,
                sizes,
                strides,
            } => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let r = ops::extract_strided(&a, offsets, sizes, strides)
                    .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::InsertStrided { offsets, strides } => {
                let v = self.arr(frame, inst, inst.args[0])?;
                let dest = self.arr(frame, inst, inst.args[1])?;
                let r = ops::insert_strided(&v, &dest, offsets, strides)
                    .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::Transpose(perm) => {
                let [a] = self.args(frame, inst)?;
                self.put(frame, inst, ops::transpose(&a, perm))?;
            }
            Kind::Iota(dims) => {
                let out = self.res_elem(inst, 0)?;
                let shape = inst.res_ty[0].shape().to_vec();
                Self::set(frame, inst, 0, ops::iota(out, &shape, dims));
            }
            Kind::ConstantMask(sizes) => {
                let shape = inst.res_ty[0].shape().to_vec();
                let bounds: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
                Self::set(frame, inst, 0, ops::mask(&shape, &bounds));
            }
            Kind::CreateMask => {
                let shape = inst.res_ty[0].shape().to_vec();
                let bounds = self.indices(frame, inst, &inst.args)?;
                Self::set(frame, inst, 0, ops::mask(&shape, &bounds));
            }
            Kind::Concat(dim) => {
                let parts = inst
                    .args
                    .iter()
                    .map(|&s| self.arr(frame, inst, s))
                    .collect::<R<Vec<_>>>()?;
                let r = ops::concat(&parts, *dim).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::DynamicRotate { dim, stride } => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let amount = self.index(frame, inst, inst.args[1])?;
                let r = ops::rotate(&a, amount, *dim, *stride).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::PackElementwise(target) => {
                let parts = inst
                    .args
                    .iter()
                    .map(|&s| self.arr(frame, inst, s))
                    .collect::<R<Vec<_>>>()?;
                let out = self.res_elem(inst, 0)?;
                let r =
                    ops::pack_elementwise(&parts, *target, out).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::UnpackElementwise { index, source } => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let r = ops::unpack_elementwise(&a, *index, *source, out)
                    .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::DynamicGather(dim) => {
                let x = self.arr(frame, inst, inst.args[0])?;
                let idx = self.arr(frame, inst, inst.args[1])?;
                let r = ops::dynamic_gather(&x, &idx, *dim).map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::VectorBitcast { minor } => {
                let a = self.arr(frame, inst, inst.args[0])?;
                let out = self.res_elem(inst, 0)?;
                let shape = inst.res_ty[0].shape().to_vec();
                let r = if a.elem.bits() == out.bits() && shape == a.shape {
                    ops::cast(super::program::Cast::Bitcast, &a, out)
                } else {
                    ops::vector_bitcast(&a, out, &shape, *minor)
                }
                .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, r);
            }
            Kind::MemBitcast => {
                let m = self.mem(frame, inst, inst.args[0])?;
                self.no_cast(inst, &m)?;
                let VTy::MemRef(elem, shape, _) = &inst.res_ty[0] else {
                    return Err(self.fail(inst, "the result is not a static memref"));
                };
                if shape.len() != m.shape.len() {
                    return Err(self.fail(inst, "the bitcast changes the rank"));
                }
                let v = MemRef {
                    shape: shape.clone(),
                    strides: Array::strides(shape),
                    elem: *elem,
                    cast: Some(m.clone()),
                    ..(*m).clone()
                };
                frame[inst.res[0] as usize] = Val::M(Rc::new(v));
            }
            Kind::Sort { descending } => {
                let keys = self.arr(frame, inst, inst.args[0])?;
                let values = self.arr(frame, inst, inst.args[1])?;
                let mask = self.opt_arr(frame, inst, inst.args.get(2))?;
                let (m, k, v) = ops::sort(&keys, &values, mask.as_deref(), *descending)
                    .map_err(|e| self.fail(inst, e))?;
                Self::set(frame, inst, 0, m);
                Self::set(frame, inst, 1, k);
                Self::set(frame, inst, 2, v);
            }
            Kind::ScanCount => {
                let mask = self.arr(frame, inst, inst.args[0])?;
                let values = self.arr(frame, inst, inst.args[1])?;
                let (last, counts) =
                    ops::scan_count(&mask, &values).map_err(|e| self.fail(inst, e))?;
                Self::set(frame, inst, 0, last);
                Self::set(frame, inst, 1, counts);
            }
            Kind::LoadIdx => {
                let m = self.mem(frame, inst, self.one(inst, 0)?)?;
                self.no_cast(inst, &m)?;
                let idx = self.arrs(frame, inst, inst.segment(1))?;
                let mask = self.opt_arr(frame, inst, inst.segment(2).first())?;
                let (elem, shape) = match &inst.res_ty[0] {
                    VTy::Vector(e, s) => (*e, s.clone()),
                    _ => return Err(self.fail(inst, "the result is not a vector")),
                };
                let offs = self.gather_offsets(inst, &m, &idx, &shape, mask.as_deref())?;
                let mut data = Data::filled(elem, offs.len(), 0.0);
                {
                    let mut st = self.machine.lock();
                    let on: Vec<usize> = offs.iter().flatten().copied().collect();
                    self.watch(&mut st, inst, m.dev, m.buf, &on, Access::Read, None);
                    let b = &st.bufs[m.dev][m.buf];
                    for (k, o) in offs.iter().enumerate() {
                        if let Some(o) = *o
                            && o < b.data.len()
                        {
                            data.scatter(&[k], &b.data.gather(&[o]));
                        }
                    }
                }
                Self::set(frame, inst, 0, Array::new(elem, shape, data));
            }
            Kind::StoreIdx { add } => {
                let v = self.arr(frame, inst, self.one(inst, 0)?)?;
                let m = self.mem(frame, inst, self.one(inst, 1)?)?;
                self.no_cast(inst, &m)?;
                let idx = self.arrs(frame, inst, inst.segment(2))?;
                let mask = self.opt_arr(frame, inst, inst.segment(3).first())?;
                let offs = self.gather_offsets(inst, &m, &idx, &v.shape, mask.as_deref())?;
                {
                    let mut st = self.machine.lock();
                    let on: Vec<usize> = offs.iter().flatten().copied().collect();
                    let lanes: Vec<usize> =
                        (0..offs.len()).filter(|&k| offs[k].is_some()).collect();
                    let kind = if *add { Access::Add } else { Access::Write };
                    let new = v.data.gather(&lanes);
                    self.watch(&mut st, inst, m.dev, m.buf, &on, kind, Some(&new));
                }
                self.scatter_lanes(&m, &offs, &v, *add);
            }
            Kind::ExpandLoad => {
                let m = self.mem(frame, inst, inst.args[0])?;
                let mask = self.arr(frame, inst, inst.args[inst.args.len() - 1])?;
                let start = self.indices(frame, inst, &inst.args[1..inst.args.len() - 1])?;
                let (elem, shape) = match &inst.res_ty[0] {
                    VTy::Vector(e, s) => (*e, s.clone()),
                    _ => return Err(self.fail(inst, "the result is not a vector")),
                };
                if shape.iter().product::<usize>() != mask.len() {
                    return Err(self.fail(inst, "mask and result differ in size"));
                }
                let count = (0..mask.len())
                    .filter(|&i| mask.data.get_i64(i) != 0)
                    .count();
                let mut extent = vec![1usize; m.shape.len().saturating_sub(1)];
                extent.push(count);
                let src = self.read_box(inst, &m, &start, &extent, &[])?;
                let mut data = Data::filled(elem, mask.len(), 0.0);
                let mut j = 0;
                for i in 0..mask.len() {
                    if mask.data.get_i64(i) != 0 {
                        data.scatter(&[i], &src.gather(&[j]));
                        j += 1;
                    }
                }
                Self::set(frame, inst, 0, Array::new(elem, shape, data));
            }
            Kind::CompressStore { add } => {
                let v = self.arr(frame, inst, inst.args[0])?;
                let m = self.mem(frame, inst, inst.args[1])?;
                let mask = self.arr(frame, inst, inst.args[inst.args.len() - 1])?;
                let start = self.indices(frame, inst, &inst.args[2..inst.args.len() - 1])?;
                if mask.len() != v.len() {
                    return Err(self.fail(inst, "mask and value differ in size"));
                }
                let keep: Vec<usize> = (0..mask.len())
                    .filter(|&i| mask.data.get_i64(i) != 0)
                    .collect();
                let mut extent = vec![1usize; m.shape.len().saturating_sub(1)];
                extent.push(keep.len());
                self.write_box(
                    inst,
                    &m,
                    &start,
                    &extent,
                    &[],
                    &v.data.gather(&keep),
                    None,
                    *add,
                )?;
            }
            Kind::IndirectDma { .. } => self.indirect_dma(frame, inst)?,
            Kind::WaitIndirectDma => {
                let sem = self.mem(frame, inst, inst.args[0])?;
                let local = self.local_side(inst, 1, 2);
                let m = self.mem(frame, inst, inst.args[local])?;
                let bytes = (m.len() * m.elem.bytes()) as i64;
                self.dma_wait(inst, &sem, bytes)?;
            }
            Kind::Matmul {
                dims,
                transpose_lhs,
                transpose_rhs,
            } => {
                let l = self.arr(frame, inst, inst.args[0])?;
                let r = self.arr(frame, inst, inst.args[1])?;
                let acc = self.arr(frame, inst, inst.args[2])?;
                let out = ops::matmul(&l, &r, &acc, dims, *transpose_lhs, *transpose_rhs)
                    .map_err(|m| self.fail(inst, m))?;
                Self::set(frame, inst, 0, out);
            }
            Kind::MemSlice => {
                let m = self.mem(frame, inst, inst.args[0])?;
                let idx = self.indices(frame, inst, inst.segment(1))?;
                let mut sizes = self.indices(frame, inst, inst.segment(2))?.into_iter();
                let mut shape = inst.res_ty[0].shape().to_vec();
                for d in shape.iter_mut().filter(|d| **d == super::DYNAMIC_DIM) {
                    let n = sizes
                        .next()
                        .ok_or_else(|| self.fail(inst, "a dynamic size without its operand"))?;
                    *d = usize::try_from(n)
                        .map_err(|_| self.fail(inst, format!("a negative slice size {n}")))?;
                }
                let v = self.slice(inst, &m, &idx, &shape)?;
                frame[inst.res[0] as usize] = Val::M(Rc::new(v));
            }
            Kind::MemView => {
                let m = self.mem(frame, inst, inst.args[0])?;
                let mut shape = inst.res_ty[0].shape().to_vec();
                let dynamic = shape.iter().filter(|&&d| d == super::DYNAMIC_DIM).count();
                if dynamic > 0 {
                    let known: usize = shape.iter().filter(|&&d| d != super::DYNAMIC_DIM).product();
                    let squeezed: Vec<usize> =
                        m.shape.iter().copied().filter(|&d| d != 1).collect();
                    if dynamic == 1 && known > 0 && m.len() % known == 0 {
                        let fill = m.len() / known;
                        shape
                            .iter_mut()
                            .filter(|d| **d == super::DYNAMIC_DIM)
                            .for_each(|d| *d = fill);
                    } else if squeezed.len() == shape.len() {
                        shape = squeezed;
                    } else {
                        return Err(self.fail(
                            inst,
                            format!(
                                "cannot infer the dynamic sizes of the view of {:?}",
                                m.shape
                            ),
                        ));
                    }
                }
                let v = self.view(inst, &m, shape)?;
                frame[inst.res[0] as usize] = Val::M(Rc::new(v));
            }
            Kind::Alloca | Kind::SemAlloc => {
                let VTy::MemRef(elem, shape, space) = &inst.res_ty[0] else {
                    return Err(self.fail(inst, "allocates a type that is not a static memref"));
                };
                let len = shape
                    .iter()
                    .try_fold(1usize, |a, &d| a.checked_mul(d))
                    .filter(|&n| {
                        n <= super::program::MAX_ELEMENTS && !shape.contains(&super::DYNAMIC_DIM)
                    })
                    .ok_or_else(|| {
                        self.fail(
                            inst,
                            format!(
                                "allocates {shape:?} elements: not a static size of at most 2^28"
                            ),
                        )
                    })?;
                let site = &self.prog.sites[inst.site as usize];
                let label = format!(
                    "{} ({space}) at {}",
                    site.op,
                    if site.loc.is_empty() { "?" } else { &site.loc }
                );
                let buf = self
                    .machine
                    .alloc(self.dev, *elem, len, label)
                    .map_err(|m| self.fail(inst, m))?;
                if let Some(scope) = self.scopes.last_mut() {
                    scope.push(buf);
                }
                frame[inst.res[0] as usize] =
                    Val::M(Rc::new(MemRef::whole(self.dev, buf, *elem, shape.clone())));
            }
            Kind::Region => {
                let Flow::Values(v) = match inst.regions.first() {
                    Some(b) => self.block(frame, b, Vec::new())?,
                    None => Flow::Values(Vec::new()),
                };
                for (i, v) in v.into_iter().enumerate().take(inst.res.len()) {
                    frame[inst.res[i] as usize] = v;
                }
            }
            Kind::If => {
                let c = self.index(frame, inst, inst.args[0])? != 0;
                let region = if c {
                    inst.regions.first()
                } else {
                    inst.regions.get(1)
                };
                let vals = match region {
                    Some(b) if !b.insts.is_empty() => {
                        let Flow::Values(v) = self.block(frame, b, Vec::new())?;
                        v
                    }
                    _ => Vec::new(),
                };
                for (i, v) in vals.into_iter().enumerate().take(inst.res.len()) {
                    frame[inst.res[i] as usize] = v;
                }
            }
            Kind::IndexSwitch(cases) => {
                let x = self.index(frame, inst, inst.args[0])?;
                let region = cases.iter().position(|&c| c == x).map_or(0, |i| i + 1);
                let b = inst
                    .regions
                    .get(region)
                    .ok_or_else(|| self.fail(inst, "missing a case region"))?;
                let Flow::Values(v) = self.block(frame, b, Vec::new())?;
                for (i, v) in v.into_iter().enumerate().take(inst.res.len()) {
                    frame[inst.res[i] as usize] = v;
                }
            }
            Kind::For => {
                let lb = self.arr(frame, inst, inst.args[0])?;
                let ub = self.index(frame, inst, inst.args[1])?;
                let step = self.index(frame, inst, inst.args[2])?;
                if step <= 0 {
                    return Err(
                        self.fail(inst, format!("loop step is {step}: it must be positive"))
                    );
                }
                let elem = lb.elem;
                let mut iters: Vec<Val> = inst.args[3..]
                    .iter()
                    .map(|&s| frame[s as usize].clone())
                    .collect();
                let body = inst
                    .regions
                    .first()
                    .ok_or_else(|| self.fail(inst, "has no body"))?;
                let mut i = lb.scalar_i64();
                while i < ub {
                    let mut args = Vec::with_capacity(1 + iters.len());
                    args.push(Val::A(Rc::new(Array::int(elem, i))));
                    args.append(&mut iters);
                    let Flow::Values(v) = self.block(frame, body, args)?;
                    iters = v;
                    i = match i.checked_add(step) {
                        Some(n) => n,
                        None => break,
                    };
                }
                for (k, v) in iters.into_iter().enumerate().take(inst.res.len()) {
                    frame[inst.res[k] as usize] = v;
                }
            }
            Kind::While => {
                let mut vals: Vec<Val> = inst
                    .args
                    .iter()
                    .map(|&s| frame[s as usize].clone())
                    .collect();
                let (Some(before), Some(after)) = (inst.regions.first(), inst.regions.get(1))
                else {
                    return Err(self.fail(inst, "needs two regions"));
                };
                loop {
                    let Flow::Values(v) = self.block(frame, before, vals)?;
                    let Some((cond, rest)) = v.split_first() else {
                        return Err(self.fail(inst, "`scf.condition` has no operands"));
                    };
                    let go = match cond {
                        Val::A(a) => a.scalar_i64() != 0,
                        _ => false,
                    };
                    if !go {
                        for (k, v) in rest.iter().enumerate().take(inst.res.len()) {
                            frame[inst.res[k] as usize] = v.clone();
                        }
                        break;
                    }
                    let Flow::Values(v) = self.block(frame, after, rest.to_vec())?;
                    vals = v;
                }
            }
            Kind::Call(name) => {
                let f = self.prog.func(name).ok_or_else(|| {
                    self.fail(
                        inst,
                        format!("calls @{name}, which the module does not define"),
                    )
                })?;
                let args = inst
                    .args
                    .iter()
                    .map(|&s| frame[s as usize].clone())
                    .collect();
                let out = self.call(f, args)?;
                for (k, v) in out.into_iter().enumerate().take(inst.res.len()) {
                    frame[inst.res[k] as usize] = v;
                }
            }
            Kind::Identity => {
                frame[inst.res[0] as usize] = frame[inst.args[0] as usize].clone();
            }
            Kind::SubcoreBarrier => {
                if let Some((group, size)) = &self.subcores {
                    self.machine
                        .subcore_barrier(self.dev, group, *size, self.thread, self.agent)
                        .map_err(|m| self.fail(inst, m))?;
                }
            }
            Kind::Nop => {
                for (k, t) in inst.res_ty.iter().enumerate() {
                    if let VTy::Scalar(e) = t {
                        Self::set(frame, inst, k, Array::int(*e, 0));
                    }
                }
            }
            Kind::DeviceId => Self::set(
                frame,
                inst,
                0,
                Array::int(ElemType::Int(32), self.dev as i64),
            ),
            Kind::CoreId => Self::set(
                frame,
                inst,
                0,
                Array::int(ElemType::Int(32), self.core as i64),
            ),
            Kind::IterationBound(d) => {
                let v = *self
                    .grid
                    .get(*d)
                    .ok_or_else(|| self.fail(inst, format!("the grid has no dimension {d}")))?;
                let e = self.res_elem(inst, 0)?;
                Self::set(frame, inst, 0, Array::int(e, v));
            }
            Kind::SemBarrier => {
                let buf = self
                    .barrier
                    .ok_or_else(|| self.fail(inst, "no barrier semaphore was allocated"))?;
                frame[inst.res[0] as usize] = Val::M(Rc::new(MemRef::whole(
                    self.dev,
                    buf,
                    ElemType::Semaphore,
                    Vec::new(),
                )));
            }
            Kind::SemSignal => {
                let sem = self.mem(frame, inst, self.one(inst, 0)?)?;
                let amount = self.index(frame, inst, self.one(inst, 1)?)?;
                let dev = self.target_device(frame, inst, inst.segment(2))?;
                self.sem_add(inst, &sem, dev, amount)?;
            }
            Kind::SemWait => {
                let sem = self.mem(frame, inst, inst.args[0])?;
                let amount = self.index(frame, inst, inst.args[1])?;
                self.sem_wait(inst, &sem, amount)?;
            }
            Kind::SemRead => {
                let sem = self.mem(frame, inst, inst.args[0])?;
                let v = self.sem_value(inst, &sem)?;
                Self::set(frame, inst, 0, Array::int(ElemType::Int(32), v));
            }
            Kind::EnqueueDma => self.enqueue_dma(frame, inst)?,
            Kind::WaitDma { wait_target } => {
                let sem_seg = if *wait_target { 3 } else { 1 };
                let sem = match inst.segment(sem_seg).first() {
                    Some(&s) => self.mem(frame, inst, s)?,
                    None => {
                        return Err(self.fail(inst, "waits on a semaphore the op does not give"));
                    }
                };
                let dst = self.mem(frame, inst, self.one(inst, 2)?)?;
                let bytes = (dst.len() * dst.elem.bytes()) as i64;
                self.dma_wait(inst, &sem, bytes)?;
            }
            Kind::WaitDma2 => {
                let sem = self.mem(frame, inst, self.one(inst, 0)?)?;
                let dst = self.mem(frame, inst, self.one(inst, 2)?)?;
                let bytes = (dst.len() * dst.elem.bytes()) as i64;
                self.dma_wait(inst, &sem, bytes)?;
            }
            Kind::Yield => {}
        }
        Ok(())
    }

    /// The single operand of ODS segment `i` (an error if the op lacks it).
    fn one(&self, inst: &Inst, i: usize) -> R<u32> {
        match inst.segment(i) {
            [s] => Ok(*s),
            _ => Err(self.fail(
                inst,
                format!("operand group {i} does not hold exactly one value"),
            )),
        }
    }

    fn indices(&self, frame: &[Val], inst: &Inst, slots: &[u32]) -> R<Vec<i64>> {
        slots.iter().map(|&s| self.index(frame, inst, s)).collect()
    }

    fn target_device(&self, frame: &[Val], inst: &Inst, seg: &[u32]) -> R<usize> {
        match seg.first() {
            None => Ok(self.dev),
            Some(&s) => {
                let d = self.index(frame, inst, s)?;
                if d < 0 || d as usize >= self.machine.devices {
                    Err(self.fail(
                        inst,
                        format!(
                            "device id {d} is out of range: the run has {} device(s) (`--devices`)",
                            self.machine.devices
                        ),
                    ))
                } else {
                    Ok(d as usize)
                }
            }
        }
    }

    /// The box a load or store touches: per view dim its start, extent and
    /// step. The vector covers the trailing dims; leading dims are single.
    fn box_of(
        &self,
        inst: &Inst,
        m: &MemRef,
        idx: &[i64],
        vshape: &[usize],
        strides: &[i64],
    ) -> R<(Vec<usize>, Vec<usize>, Vec<usize>)> {
        let rank = m.shape.len();
        if idx.len() != rank {
            return Err(self.fail(
                inst,
                format!("{} indices for a rank-{rank} memref", idx.len()),
            ));
        }
        if vshape.len() > rank {
            return Err(self.fail(inst, "the vector has a higher rank than the memref"));
        }
        let (extent, steps) = extent_and_steps(rank, vshape, strides);
        let mut start = Vec::with_capacity(rank);
        for d in 0..rank {
            let i = idx[d];
            let last = i.saturating_add((extent[d] as i64 - 1).saturating_mul(steps[d] as i64));
            if i < 0 || (extent[d] > 0 && last >= m.shape[d] as i64) {
                return Err(self.oob(inst, m, idx, &extent));
            }
            start.push(i as usize);
        }
        Ok((start, extent, steps))
    }

    /// [`Self::box_of`] without the bounds check (non-negative indices):
    /// for masked stores, whose masked-in lanes are checked one by one.
    fn box_unchecked(
        &self,
        m: &MemRef,
        idx: &[i64],
        vshape: &[usize],
        strides: &[i64],
    ) -> Option<(Vec<usize>, Vec<usize>, Vec<usize>)> {
        let rank = m.shape.len();
        if idx.len() != rank || vshape.len() > rank || idx.iter().any(|&i| i < 0) {
            return None;
        }
        let (extent, steps) = extent_and_steps(rank, vshape, strides);
        Some((idx.iter().map(|&i| i as usize).collect(), extent, steps))
    }

    fn oob(&self, inst: &Inst, m: &MemRef, idx: &[i64], extent: &[usize]) -> ExecError {
        let label = {
            let s = self.machine.lock();
            s.bufs[m.dev]
                .get(m.buf)
                .map(|b| b.label.clone())
                .unwrap_or_default()
        };
        self.fail(
            inst,
            format!(
                "out-of-bounds access of {label}: indices {idx:?} with extent {extent:?} on a view of shape {:?}",
                m.shape
            ),
        )
    }

    /// A box of unit steps over a view whose last dimension is contiguous:
    /// the offset of each row (in row-major order) and the row length.
    fn plain_rows(
        m: &MemRef,
        start: &[usize],
        extent: &[usize],
        steps: &[usize],
    ) -> Option<(Vec<usize>, usize)> {
        let rank = extent.len();
        if rank == 0 || steps.iter().any(|&s| s != 1) || m.strides.get(rank - 1) != Some(&1) {
            return None;
        }
        let inner = extent[rank - 1];
        if inner == 0 || extent.contains(&0) {
            return None;
        }
        let base = m.offset
            + start
                .iter()
                .zip(&m.strides)
                .map(|(s, st)| s * st)
                .sum::<usize>();
        let mut rows = Vec::with_capacity(extent[..rank - 1].iter().product());
        for_each_index(&extent[..rank - 1], |outer| {
            rows.push(
                base + outer
                    .iter()
                    .zip(&m.strides)
                    .map(|(i, t)| i * t)
                    .sum::<usize>(),
            );
        });
        Some((rows, inner))
    }

    fn offsets(m: &MemRef, start: &[usize], extent: &[usize], steps: &[usize]) -> Vec<usize> {
        let base = m.offset
            + start
                .iter()
                .zip(&m.strides)
                .map(|(s, st)| s * st)
                .sum::<usize>();
        let n: usize = extent.iter().product();
        let mut out = Vec::with_capacity(n);
        if extent.is_empty() {
            out.push(base);
            return out;
        }
        let rank = extent.len();
        let inner = extent[rank - 1];
        let inner_step = steps[rank - 1] * m.strides[rank - 1];
        for_each_index(&extent[..rank - 1], |outer| {
            let mut o = base;
            for (d, &i) in outer.iter().enumerate() {
                o += i * steps[d] * m.strides[d];
            }
            for k in 0..inner {
                out.push(o + k * inner_step);
            }
        });
        out
    }

    /// Refuses a `tpu.memref_bitcast` view where only loads and stores
    /// through it are defined.
    fn no_cast(&self, inst: &Inst, m: &MemRef) -> R<()> {
        if m.cast.is_some() {
            return Err(self.fail(
                inst,
                "this use of a `tpu.memref_bitcast` view is not supported (loads and stores through it are)",
            ));
        }
        Ok(())
    }

    /// The rows under a box of a bitcast view: (start, extent) in the
    /// underlying view, and where the box starts within their bitcast.
    fn cast_box(
        &self,
        inst: &Inst,
        m: &MemRef,
        base: &MemRef,
        idx: &[i64],
        extent: &[usize],
    ) -> R<(Vec<i64>, Vec<usize>, usize)> {
        let rank = m.shape.len();
        if rank < 2 || extent.len() != rank || idx.len() != rank || base.shape.len() != rank {
            return Err(self.fail(
                inst,
                "a load or store through a `tpu.memref_bitcast` view of rank < 2",
            ));
        }
        let (bv, bb) = (m.elem.bits() as usize, base.elem.bits() as usize);
        let row = rank - 2;
        let mut start = idx.to_vec();
        let mut ext = extent.to_vec();
        let mut skip = 0;
        if bv <= bb {
            let r = bb / bv;
            let s = idx[row].max(0) as usize;
            start[row] = (s / r) as i64;
            ext[row] = (s + extent[row]).div_ceil(r) - s / r;
            skip = s % r;
        } else {
            let q = bv / bb;
            start[row] = idx[row].saturating_mul(q as i64);
            ext[row] = extent[row] * q;
        }
        Ok((start, ext, skip))
    }

    /// The underlying rows of a box, read and bitcast to the view's type.
    fn cast_rows(
        &self,
        inst: &Inst,
        m: &MemRef,
        base: &MemRef,
        start: &[i64],
        ext: &[usize],
    ) -> R<Array> {
        let raw = Array::new(
            base.elem,
            ext.to_vec(),
            self.read_box(inst, base, start, ext, &[])?,
        );
        let row = ext.len() - 2;
        let mut shape = ext.to_vec();
        shape[row] = ext[row] * base.elem.bits() as usize / m.elem.bits() as usize;
        ops::vector_bitcast(&raw, m.elem, &shape, false).map_err(|e| self.fail(inst, e))
    }

    fn read_cast(
        &self,
        inst: &Inst,
        m: &MemRef,
        base: &MemRef,
        idx: &[i64],
        extent: &[usize],
    ) -> R<Data> {
        let (start, ext, skip) = self.cast_box(inst, m, base, idx, extent)?;
        let view = self.cast_rows(inst, m, base, &start, &ext)?;
        let mut offs = vec![0usize; extent.len()];
        offs[extent.len() - 2] = skip;
        let part =
            ops::extract_strided(&view, &offs, extent, &[]).map_err(|e| self.fail(inst, e))?;
        Ok(part.data)
    }

    #[allow(clippy::too_many_arguments)]
    fn write_cast(
        &self,
        inst: &Inst,
        m: &MemRef,
        base: &MemRef,
        idx: &[i64],
        extent: &[usize],
        data: &Data,
        add: bool,
    ) -> R<()> {
        let (start, ext, skip) = self.cast_box(inst, m, base, idx, extent)?;
        // The whole underlying rows: read, update the view's part, write back
        // (the read is the store's own, not a read of the kernel's data).
        let was = self.copying.replace(true);
        let view = self.cast_rows(inst, m, base, &start, &ext);
        self.copying.set(was);
        let view = view?;
        let mut offs = vec![0usize; extent.len()];
        offs[extent.len() - 2] = skip;
        let mut value = Array::new(m.elem, extent.to_vec(), data.clone());
        if add {
            let cur =
                ops::extract_strided(&view, &offs, extent, &[]).map_err(|e| self.fail(inst, e))?;
            let op = if m.elem.is_float() {
                super::program::Bin::AddF
            } else {
                super::program::Bin::AddI
            };
            value = ops::binary(op, &cur, &value).map_err(|e| self.fail(inst, e))?;
        }
        let view =
            ops::insert_strided(&value, &view, &offs, &[]).map_err(|e| self.fail(inst, e))?;
        let back =
            ops::vector_bitcast(&view, base.elem, &ext, false).map_err(|e| self.fail(inst, e))?;
        self.write_box(inst, base, &start, &ext, &[], &back.data, None, false)
    }

    pub(crate) fn read_box(
        &self,
        inst: &Inst,
        m: &MemRef,
        idx: &[i64],
        vshape: &[usize],
        strides: &[i64],
    ) -> R<Data> {
        self.read_box_masked(inst, m, idx, vshape, strides, None)
    }

    /// The element of a box at position `i` of its elements, as indices of
    /// the view (for messages).
    fn box_index(start: &[usize], extent: &[usize], steps: &[usize], i: usize) -> Vec<usize> {
        let mut rem = i;
        let mut out = vec![0usize; extent.len()];
        for d in (0..extent.len()).rev() {
            let e = extent[d].max(1);
            out[d] = start[d] + (rem % e) * steps[d];
            rem /= e;
        }
        out
    }

    fn where_(&self) -> String {
        place(&self.point, (self.machine.devices > 1).then_some(self.dev))
    }

    /// Is this access a kernel op's own (not a copy's)?
    fn kernel_access(&self, inst: &Inst) -> bool {
        inst.site != 0 && !self.copying.get()
    }

    /// The race checks of a kernel op's access to elements `offs` of a
    /// buffer: against the DMAs in flight, and against the unordered
    /// accesses of other cores and vector subcores to shared memory
    /// (`new`: the values a write stores, in the order of `offs`).
    #[allow(clippy::too_many_arguments)]
    fn watch(
        &self,
        s: &mut super::machine::State,
        inst: &Inst,
        dev: usize,
        buf: usize,
        offs: &[usize],
        kind: Access,
        new: Option<&Data>,
    ) {
        if !self.machine.detect_races || !self.kernel_access(inst) {
            return;
        }
        if !s.dmas.is_empty() {
            self.note_races(s, inst, dev, buf, offs, kind != Access::Read);
        }
        self.note_shared(s, inst.site, dev, buf, offs, kind, false, new);
    }

    /// Records an access of this core or vector subcore to a shared buffer
    /// (HBM, `VMEM_SHARED`) in the happens-before history, and a race for
    /// each access of another one it conflicts with and is not ordered
    /// after ([`super::races`]).
    #[allow(clippy::too_many_arguments)]
    fn note_shared(
        &self,
        s: &mut super::machine::State,
        site: u32,
        dev: usize,
        buf: usize,
        offs: &[usize],
        kind: Access,
        dma: bool,
        new: Option<&Data>,
    ) {
        let Some(agent) = self.agent else {
            return;
        };
        let Some(b) = s.bufs[dev].get(buf) else {
            return;
        };
        if !(b.label.contains("(HBM)") || b.label.contains("(VMEM_SHARED)")) {
            return;
        }
        let (len, label) = (b.data.len(), b.label.clone());
        // Which elements a write changes (a write of the value an element
        // already holds is not a race: nothing depends on which lands first).
        let changed: Option<Vec<bool>> = new.filter(|_| kind == Access::Write).map(|v| {
            offs.iter()
                .enumerate()
                .map(|(i, &o)| {
                    if o >= len || i >= v.len() {
                        return true;
                    }
                    let (x, y) = (b.data.get_f64(o), v.get_f64(i));
                    !(x == y && x.is_sign_negative() == y.is_sign_negative()
                        || x.is_nan() && y.is_nan())
                })
                .collect()
        });
        let origin = super::races::Origin {
            site,
            point: self.point.clone(),
            dev: self.dev,
            dma,
        };
        let found = s.hb.access(
            agent,
            (dev, buf),
            len,
            offs,
            kind,
            changed.as_deref(),
            origin,
        );
        for c in found {
            let text = self.conflict_text(&c, &label);
            s.races.push(super::machine::Race {
                text,
                key: (
                    c.first.site | 1 << 31,
                    c.second.site,
                    c.second_kind != Access::Read,
                ),
            });
        }
    }

    /// A race between two cores or vector subcores, in words.
    fn conflict_text(&self, c: &super::races::Conflict, label: &str) -> String {
        let who = |o: &super::races::Origin| {
            let site = &self.prog.sites[o.site as usize];
            let at = if site.loc.is_empty() {
                String::new()
            } else {
                format!(" at {}", site.loc)
            };
            format!(
                "{}`{}`{at} [{}]",
                if o.dma { "the DMA " } else { "" },
                site.op,
                place(&o.point, (self.machine.devices > 1).then_some(o.dev))
            )
        };
        let (v1, v2) = c.verbs();
        format!(
            "{} {v1} {label} (element {}) and {} {v2} it, and nothing orders the two: they run on different cores or vector subcores (grid points ({}) and ({})), with no subcore barrier, semaphore signal and wait, or DMA wait between them",
            who(&c.first),
            c.element,
            who(&c.second),
            c.first
                .point
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            c.second
                .point
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    /// Notes a race for each DMA in flight whose destination `offs` of
    /// buffer `(m.dev, m.buf)` touch (or, for writes, whose source).
    fn note_races(
        &self,
        s: &mut super::machine::State,
        inst: &Inst,
        dev: usize,
        buf: usize,
        offs: &[usize],
        write: bool,
    ) {
        let mut found = Vec::new();
        for d in &s.dmas {
            let into =
                (d.dst_open > 0 || !d.copied) && d.dst.first_overlap(dev, buf, offs).is_some();
            let out_of = write
                && (d.src_open > 0 || !d.copied)
                && d.src.first_overlap(dev, buf, offs).is_some();
            if !into && !out_of {
                continue;
            }
            let key = (d.site, inst.site, write);
            if s.races.iter().any(|r| r.key == key)
                || found.iter().any(|r: &super::machine::Race| r.key == key)
            {
                continue;
            }
            let me = &self.prog.sites[inst.site as usize];
            let them = &self.prog.sites[d.site as usize];
            let label = s.bufs[dev]
                .get(buf)
                .map(|b| b.label.clone())
                .unwrap_or_default();
            let at = |loc: &str| {
                if loc.is_empty() {
                    String::new()
                } else {
                    format!(" at {loc}")
                }
            };
            let them_where = place(&d.point, (self.machine.devices > 1).then_some(d.issuer));
            found.push(super::machine::Race {
                text: format!(
                    "`{}`{} [{}] {} {label} while the DMA `{}`{} [{them_where}] {} it is in flight (started, not yet waited for)",
                    me.op,
                    at(&me.loc),
                    self.where_(),
                    if write { "writes" } else { "reads" },
                    them.op,
                    at(&them.loc),
                    if into { "into" } else { "out of" },
                ),
                key,
            });
        }
        s.races.extend(found);
    }

    /// A box read, with the lanes a mask turns off not counted as reads
    /// of unwritten memory.
    pub(crate) fn read_box_masked(
        &self,
        inst: &Inst,
        m: &MemRef,
        idx: &[i64],
        vshape: &[usize],
        strides: &[i64],
        lanes: Option<&Array>,
    ) -> R<Data> {
        if let Some(base) = &m.cast {
            if strides.iter().any(|&s| s != 1) {
                return Err(self.fail(inst, "a strided load through a `tpu.memref_bitcast` view"));
            }
            let mut extent = vec![1usize; m.shape.len().saturating_sub(vshape.len())];
            extent.extend_from_slice(vshape);
            self.box_of(inst, m, idx, vshape, strides)?;
            return self.read_cast(inst, m, base, idx, &extent);
        }
        let (start, extent, steps) = self.box_of(inst, m, idx, vshape, strides)?;
        if lanes.is_none()
            && !self.machine.detect_races
            && let Some((rows, inner)) = Self::plain_rows(m, &start, &extent, &steps)
        {
            let s = self.machine.lock();
            let b = &s.bufs[m.dev][m.buf];
            if !b.freed
                && b.written.is_none()
                && rows.last().is_none_or(|&r| r + inner <= b.data.len())
            {
                return Ok(b.data.gather_rows(&rows, inner));
            }
        }
        let offs = Self::offsets(m, &start, &extent, &steps);
        let mut s = self.machine.lock();
        let b = &s.bufs[m.dev][m.buf];
        if b.freed {
            return Err(self.fail(inst, format!("reads {} after its scope ended", b.label)));
        }
        if offs.last().is_some_and(|&o| o >= b.data.len()) {
            return Err(self.fail(inst, format!("reads past the end of {}", b.label)));
        }
        if self.kernel_access(inst) {
            if let Some(w) = &b.written {
                let on = |i: usize| lanes.is_none_or(|l| i >= l.len() || l.data.get_i64(i) != 0);
                if let Some(i) = (0..offs.len()).find(|&i| on(i) && !w[offs[i]]) {
                    let at = Self::box_index(&start, &extent, &steps, i);
                    return Err(self.uninitialised(inst, &b.label, m, &at, ""));
                }
            }
            self.watch(&mut s, inst, m.dev, m.buf, &offs, Access::Read, None);
        }
        Ok(s.bufs[m.dev][m.buf].data.gather(&offs))
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn write_box(
        &self,
        inst: &Inst,
        m: &MemRef,
        idx: &[i64],
        vshape: &[usize],
        strides: &[i64],
        data: &Data,
        mask: Option<&Array>,
        add: bool,
    ) -> R<()> {
        if let Some(base) = &m.cast {
            if mask.is_some() || strides.iter().any(|&s| s != 1) {
                return Err(self.fail(
                    inst,
                    "a masked or strided store through a `tpu.memref_bitcast` view",
                ));
            }
            let mut extent = vec![1usize; m.shape.len().saturating_sub(vshape.len())];
            extent.extend_from_slice(vshape);
            self.box_of(inst, m, idx, vshape, strides)?;
            return self.write_cast(inst, m, base, idx, &extent, data, add);
        }
        // A masked store may reach past the view where every lane outside
        // is masked off (as on a TPU, and as interpret mode allows).
        let (start, extent, steps) = match (mask, self.box_of(inst, m, idx, vshape, strides)) {
            (_, Ok(b)) => b,
            (Some(_), Err(e)) => self.box_unchecked(m, idx, vshape, strides).ok_or(e)?,
            (None, Err(e)) => return Err(e),
        };
        if mask.is_none()
            && !add
            && !self.machine.detect_races
            && let Some((rows, inner)) = Self::plain_rows(m, &start, &extent, &steps)
            && rows.len() * inner == data.len()
        {
            let mut s = self.machine.lock();
            let b = &mut s.bufs[m.dev][m.buf];
            if !b.freed
                && b.written.is_none()
                && rows.last().is_none_or(|&r| r + inner <= b.data.len())
                && b.data.scatter_rows(&rows, inner, data)
            {
                return Ok(());
            }
        }
        let mut offs = Self::offsets(m, &start, &extent, &steps);
        if data.len() != offs.len() {
            return Err(self.fail(
                inst,
                format!(
                    "writes {} element(s) into a box of {}",
                    data.len(),
                    offs.len()
                ),
            ));
        }
        let mut vals = data.clone();
        if let Some(mask) = mask {
            if mask.len() != offs.len() {
                return Err(self.fail(
                    inst,
                    format!(
                        "mask of {} element(s) for a store of {}",
                        mask.len(),
                        offs.len()
                    ),
                ));
            }
            let keep: Vec<usize> = (0..offs.len())
                .filter(|&i| mask.data.get_i64(i) != 0)
                .collect();
            for &i in &keep {
                let at = Self::box_index(&start, &extent, &steps, i);
                if at.iter().zip(&m.shape).any(|(&a, &d)| a >= d) {
                    return Err(self.oob(inst, m, idx, &extent));
                }
            }
            offs = keep.iter().map(|&i| offs[i]).collect();
            vals = data.gather(&keep);
        }
        let mut s = self.machine.lock();
        if self.kernel_access(inst) {
            let kind = if add { Access::Add } else { Access::Write };
            self.watch(&mut s, inst, m.dev, m.buf, &offs, kind, Some(&vals));
        }
        let b = &mut s.bufs[m.dev][m.buf];
        if b.freed {
            return Err(self.fail(inst, format!("writes {} after its scope ended", b.label)));
        }
        if offs.last().is_some_and(|&o| o >= b.data.len()) {
            return Err(self.fail(inst, format!("writes past the end of {}", b.label)));
        }
        if !self.copying.get()
            && let Some(w) = &mut b.written
        {
            for &o in &offs {
                w[o] = true;
            }
        }
        if add {
            let old = b.data.gather(&offs);
            let sum = ops::binary(
                if m.elem.is_float() {
                    super::program::Bin::AddF
                } else {
                    super::program::Bin::AddI
                },
                &Array::new(m.elem, vec![offs.len()], old),
                &Array::new(m.elem, vec![offs.len()], vals),
            )
            .map_err(|e| self.fail(inst, e))?;
            vals = sum.data;
        }
        b.data.scatter(&offs, &vals);
        Ok(())
    }

    fn load(&self, frame: &mut [Val], inst: &Inst, strides: &[i64]) -> R<()> {
        let m = self.mem(frame, inst, inst.args[0])?;
        let (idx_slots, mask) = if has_segments(inst) {
            (inst.segment(1), inst.segment(2).first().copied())
        } else {
            (&inst.args[1..], None)
        };
        let idx = self.indices(frame, inst, idx_slots)?;
        let (elem, vshape) = match &inst.res_ty[0] {
            VTy::Vector(e, s) => (*e, s.clone()),
            VTy::Scalar(e) => (*e, Vec::new()),
            _ => return Err(self.fail(inst, "loads a type that is not a vector")),
        };
        if elem.signless() != m.elem.signless() {
            return Err(self.fail(inst, format!("loads {elem} from a memref of {}", m.elem)));
        }
        let mask = self.opt_arr(frame, inst, mask.as_ref())?;
        let mut data = self.read_box_masked(inst, &m, &idx, &vshape, strides, mask.as_deref())?;
        if let Some(mask) = mask {
            if mask.len() != data.len() {
                return Err(self.fail(
                    inst,
                    format!(
                        "mask of {} element(s) for a load of {}",
                        mask.len(),
                        data.len()
                    ),
                ));
            }
            for i in 0..data.len() {
                if mask.data.get_i64(i) == 0 {
                    data.set_f64(i, 0.0);
                }
            }
        }
        Self::set(frame, inst, 0, Array::new(elem, vshape, data));
        Ok(())
    }

    fn store(
        &self,
        frame: &mut [Val],
        inst: &Inst,
        strides: &[i64],
        add: bool,
        sublanes: Option<&[bool]>,
    ) -> R<()> {
        let v = self.arr(frame, inst, inst.args[0])?;
        let m = self.mem(frame, inst, inst.args[1])?;
        let (idx_slots, mask) = if has_segments(inst) {
            (inst.segment(2), inst.segment(3).first().copied())
        } else {
            (&inst.args[2..], None)
        };
        let idx = self.indices(frame, inst, idx_slots)?;
        let mask = self.opt_arr(frame, inst, mask.as_ref())?;
        if v.elem.signless() != m.elem.signless() {
            return Err(self.fail(
                inst,
                format!("stores {} into a memref of {}", v.elem, m.elem),
            ));
        }
        let mask = match (mask, sublanes) {
            (Some(m), _) => Some(m),
            (None, Some(rows)) => Some(Rc::new(
                ops::sublane_mask(&v.shape, rows).map_err(|e| self.fail(inst, e))?,
            )),
            (None, None) => None,
        };
        self.write_box(
            inst,
            &m,
            &idx,
            &v.shape,
            strides,
            &v.data,
            mask.as_deref(),
            add,
        )
    }

    fn slice(&self, inst: &Inst, m: &MemRef, idx: &[i64], shape: &[usize]) -> R<MemRef> {
        self.no_cast(inst, m)?;
        if idx.len() != m.shape.len() || shape.len() != m.shape.len() {
            return Err(self.fail(inst, "slice rank differs from the memref's"));
        }
        let mut offset = m.offset;
        for d in 0..idx.len() {
            if idx[d] < 0
                || (idx[d] as usize)
                    .checked_add(shape[d])
                    .is_none_or(|end| end > m.shape[d])
            {
                return Err(self.oob(inst, m, idx, shape));
            }
            offset += idx[d] as usize * m.strides[d];
        }
        Ok(MemRef {
            dev: m.dev,
            buf: m.buf,
            offset,
            shape: shape.to_vec(),
            strides: m.strides.clone(),
            elem: m.elem,
            cast: None,
        })
    }

    fn view(&self, inst: &Inst, m: &MemRef, shape: Vec<usize>) -> R<MemRef> {
        self.no_cast(inst, m)?;
        if shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) != Some(m.len()) {
            return Err(self.fail(inst, "changes the element count"));
        }
        // Dropping or adding unit dims keeps the strides of the others.
        let kept: Vec<usize> = (0..m.shape.len()).filter(|&d| m.shape[d] != 1).collect();
        let new_non_unit: Vec<usize> = shape.iter().copied().filter(|&d| d != 1).collect();
        if kept.iter().map(|&d| m.shape[d]).collect::<Vec<_>>() == new_non_unit {
            let mut strides = Vec::with_capacity(shape.len());
            let mut it = kept.iter();
            for &d in &shape {
                if d == 1 {
                    strides.push(1);
                } else {
                    strides.push(m.strides[*it.next().unwrap_or(&0)]);
                }
            }
            return Ok(MemRef {
                shape,
                strides,
                ..m.clone()
            });
        }
        if !m.is_contiguous() {
            return Err(self.fail(inst, "reshapes a memref view that is not contiguous"));
        }
        let strides = Array::strides(&shape);
        Ok(MemRef {
            shape,
            strides,
            ..m.clone()
        })
    }

    fn sem_pos(&self, inst: &Inst, sem: &MemRef) -> R<usize> {
        if sem.len() != 1 {
            return Err(self.fail(
                inst,
                format!(
                    "expects one semaphore, given a view of shape {:?}",
                    sem.shape
                ),
            ));
        }
        Ok(sem.offset)
    }

    fn sem_value(&self, inst: &Inst, sem: &MemRef) -> R<i64> {
        let pos = self.sem_pos(inst, sem)?;
        let s = self.machine.lock();
        Ok(s.bufs[sem.dev][sem.buf].data.get_i64(pos))
    }

    fn sem_add(&self, inst: &Inst, sem: &MemRef, dev: usize, amount: i64) -> R<()> {
        let pos = self.sem_pos(inst, sem)?;
        let mut s = self.machine.lock();
        let b = s.bufs[dev]
            .get_mut(sem.buf)
            .ok_or_else(|| self.fail(inst, format!("device {dev} has no such semaphore")))?;
        if let Data::I64(v) = &mut b.data {
            v[pos] = wrap_int(32, v[pos] + amount);
        }
        if let Some(a) = self.agent {
            let c = s.hb.release(a);
            s.hb.signal((dev, sem.buf, pos), &c);
        }
        drop(s);
        self.machine.wake.notify_all();
        Ok(())
    }

    /// Waits until a semaphore holds `amount`, then takes it. With one
    /// device nothing else can signal: a short semaphore is an error at once.
    fn sem_wait(&self, inst: &Inst, sem: &MemRef, amount: i64) -> R<()> {
        let pos = self.sem_pos(inst, sem)?;
        let mut s = self.machine.lock();
        loop {
            if let Some(f) = &s.failed {
                let f = f.clone();
                s.waits.remove(&self.thread);
                return Err(self.fail(inst, format!("stopped: {f}")));
            }
            if !s.has_turn(self.dev, self.thread) {
                s = self.machine.wait(s);
                continue;
            }
            if !s.dmas.is_empty() {
                // DMAs that signal this semaphore and have not copied yet
                // complete now, oldest first, until it holds enough.
                let key = (sem.dev, sem.buf, pos);
                let st = &mut *s;
                for d in st.dmas.iter_mut() {
                    if st.bufs[sem.dev][sem.buf].data.get_i64(pos) >= amount {
                        break;
                    }
                    if !d.copied && (d.dst_sem == Some(key) || d.src_sem == Some(key)) {
                        d.complete(&mut st.bufs);
                    }
                }
            }
            let b = &mut s.bufs[sem.dev][sem.buf];
            let have = b.data.get_i64(pos);
            if have >= amount {
                if let Data::I64(v) = &mut b.data {
                    v[pos] -= amount;
                }
                s.waits.remove(&self.thread);
                if let Some(a) = self.agent {
                    s.hb.acquire(a, (sem.dev, sem.buf, pos));
                }
                return Ok(());
            }
            s.waits
                .insert(self.thread, Wait::Semaphore(sem.dev, sem.buf, pos, amount));
            // A deadlock: every running device waits, and no wait can be
            // satisfied by the semaphores as they are (a device that was
            // signalled but has not run yet still counts as satisfiable).
            let stuck = s.deadlocked();
            if stuck {
                let label = s.bufs[sem.dev][sem.buf].label.clone();
                let msg = format!(
                    "a semaphore wait can never be satisfied: {label}[{pos}] on device {} holds {have}, the wait needs {amount}, and no other device{} can signal it",
                    sem.dev,
                    if self.machine.devices > 1 {
                        " still running"
                    } else {
                        ""
                    }
                );
                s.failed = Some(format!("device {} deadlocked", self.dev));
                s.waits.remove(&self.thread);
                drop(s);
                self.machine.wake.notify_all();
                return Err(self.fail(inst, msg));
            }
            // A vector subcore blocks: the next one runs.
            s.pass_turn(self.dev, self.thread, false);
            self.machine.wake.notify_all();
            s = self.machine.wait(s);
        }
    }

    /// Flat offsets of the elements a gather or scatter addresses (one
    /// index vector per memref dimension); `None` for masked-off lanes.
    fn gather_offsets(
        &self,
        inst: &Inst,
        m: &MemRef,
        idx: &[Rc<Array>],
        shape: &[usize],
        mask: Option<&Array>,
    ) -> R<Vec<Option<usize>>> {
        let n: usize = shape.iter().product();
        if idx.len() != m.shape.len()
            || idx.iter().any(|a| a.len() != n)
            || mask.is_some_and(|k| k.len() != n)
        {
            return Err(self.fail(
                inst,
                "index vectors do not match the memref's rank and the vector's size",
            ));
        }
        let mut out = Vec::with_capacity(n);
        for e in 0..n {
            if mask.is_some_and(|k| k.data.get_i64(e) == 0) {
                out.push(None);
                continue;
            }
            let mut o = m.offset;
            for (d, a) in idx.iter().enumerate() {
                let i = a.data.get_i64(e);
                if i < 0 || i as usize >= m.shape[d] {
                    let at: Vec<i64> = idx.iter().map(|a| a.data.get_i64(e)).collect();
                    return Err(self.oob(inst, m, &at, &vec![1; m.shape.len()]));
                }
                o += i as usize * m.strides[d];
            }
            out.push(Some(o));
        }
        Ok(out)
    }

    /// Writes `v`'s lanes at `offs` in lane order (a later lane wins), or
    /// adds them.
    fn scatter_lanes(&self, m: &MemRef, offs: &[Option<usize>], v: &Array, add: bool) {
        let mut st = self.machine.lock();
        let b = &mut st.bufs[m.dev][m.buf];
        for (k, o) in offs.iter().enumerate() {
            let Some(o) = *o else { continue };
            if o >= b.data.len() {
                continue;
            }
            match (&mut b.data, &v.data) {
                (Data::I64(d), Data::I64(s)) => {
                    d[o] = if add {
                        m.elem.wrap(d[o].wrapping_add(s[k]))
                    } else {
                        s[k]
                    }
                }
                (d, s) => {
                    let x = s.get_f64(k);
                    let y = if add {
                        m.elem.round(d.get_f64(o) + x)
                    } else {
                        x
                    };
                    d.set_f64(o, y);
                }
            }
        }
    }

    /// Which of operands `a` and `b` is the local side of an indirect DMA
    /// (not in HBM): the other is the one its offsets index.
    fn local_side(&self, inst: &Inst, a: usize, b: usize) -> usize {
        let remote = |i: usize| matches!(inst.arg_ty.get(i), Some(VTy::MemRef(_, _, s)) if s == "hbm" || s == "any");
        if remote(a) && !remote(b) { b } else { a }
    }

    /// `tpu.enqueue_indirect_dma`: a gather (target local: row `k` of the
    /// target is row `offsets[k]` of the source) or a scatter (source local:
    /// row `k` of the source goes to row `offsets[k]` of the target).
    fn indirect_dma(&mut self, frame: &[Val], inst: &Inst) -> R<()> {
        let src = self.mem(frame, inst, inst.args[0])?;
        let dst = self.mem(frame, inst, inst.args[1])?;
        self.no_cast(inst, &src)?;
        self.no_cast(inst, &dst)?;
        // The offsets: a vector, or a ref holding them (read whole).
        let offsets = match &frame[inst.args[2] as usize] {
            Val::M(m) => {
                let zero = vec![0i64; m.shape.len()];
                Rc::new(Array::new(
                    m.elem,
                    vec![m.len()],
                    self.read_box(inst, m, &zero, &m.shape, &[])?,
                ))
            }
            _ => self.arr(frame, inst, inst.args[2])?,
        };
        let sem = self.mem(frame, inst, inst.args[3])?;
        let add = matches!(inst.kind, Kind::IndirectDma { add: true });
        // A gather reads the offsets' rows of HBM or VMEM_SHARED into the
        // subcore's VMEM; a scatter writes VMEM's rows there.
        let shared = |i: usize| matches!(inst.arg_ty.get(i), Some(VTy::MemRef(_, _, s)) if s == "vmem_shared");
        let gather = self.local_side(inst, 0, 1) == 1 || (shared(0) && !shared(1));
        let (indexed, other) = if gather { (&src, &dst) } else { (&dst, &src) };
        if indexed.shape.is_empty()
            || other.shape.is_empty()
            || indexed.shape[1..] != other.shape[1..]
            || offsets.len() > other.shape[0]
        {
            return Err(self.fail(
                inst,
                format!(
                    "an indirect copy between {:?} and {:?} with {} offsets",
                    src.shape,
                    dst.shape,
                    offsets.len()
                ),
            ));
        }
        let row: Vec<usize> = indexed.shape[1..].to_vec();
        let row_len: usize = row.iter().product();
        let mut box_shape = vec![1];
        box_shape.extend_from_slice(&row);
        let bytes = (offsets.len() * row_len * dst.elem.bytes()) as i64;
        let rows = |it: &Self, m: &MemRef, at: &[i64]| -> R<Vec<usize>> {
            let (st, ex, steps) = it.box_of(inst, m, at, &box_shape, &[])?;
            Ok(Self::offsets(m, &st, &ex, &steps))
        };
        let mut src_offs = Vec::with_capacity(offsets.len() * row_len);
        let mut dst_offs = Vec::with_capacity(offsets.len() * row_len);
        for k in 0..offsets.len() {
            let i = offsets.data.get_i64(k);
            if i < 0 || i as usize >= indexed.shape[0] {
                return Err(self.oob(inst, indexed, &[i], &[1]));
            }
            let mut at_indexed = vec![i];
            at_indexed.extend(std::iter::repeat_n(0, row.len()));
            let mut at_other = vec![k as i64];
            at_other.extend(std::iter::repeat_n(0, row.len()));
            let (from_at, to_at) = if gather {
                (&at_indexed, &at_other)
            } else {
                (&at_other, &at_indexed)
            };
            if self.machine.records_dmas() {
                src_offs.extend(rows(self, &src, from_at)?);
                dst_offs.extend(rows(self, &dst, to_at)?);
                continue;
            }
            let data = self.read_box(inst, &src, from_at, &box_shape, &[])?;
            self.write_box(inst, &dst, to_at, &box_shape, &[], &data, None, add)?;
        }
        if !self.machine.records_dmas() {
            return self.sem_add(inst, &sem, self.dev, bytes);
        }
        // Recorded (watched for races, or copied late): its rows are in
        // flight until `tpu.wait_indirect_dma` takes its bytes. Its source
        // is read as a load reads (unwritten elements are an error).
        {
            let s = self.machine.lock();
            if let Some(w) = &s.bufs[src.dev][src.buf].written
                && let Some(&o) = src_offs.iter().find(|&&o| o < w.len() && !w[o])
            {
                let label = s.bufs[src.dev][src.buf].label.clone();
                return Err(self.fail(
                    inst,
                    format!(
                        "reads uninitialised memory: element {o} (flat) of {label} was never written before this indirect DMA read it [{}]",
                        self.where_()
                    ),
                ));
            }
        }
        let sem_ref = self.sem_ref(inst, &sem, self.dev)?;
        self.start_dma(
            inst,
            (src.dev, src.buf, src_offs),
            (dst.dev, dst.buf, dst_offs),
            Some(sem_ref),
            None,
            bytes,
            add,
        )
    }

    fn enqueue_dma(&mut self, frame: &[Val], inst: &Inst) -> R<()> {
        let src = self.mem(frame, inst, self.one(inst, 0)?)?;
        let src_sem = match inst.segment(1).first() {
            Some(&s) => Some(self.mem(frame, inst, s)?),
            None => None,
        };
        let dst = self.mem(frame, inst, self.one(inst, 2)?)?;
        let dst_sem = match inst.segment(3).first() {
            Some(&s) => Some(self.mem(frame, inst, s)?),
            None => None,
        };
        let dev = self.target_device(frame, inst, inst.segment(4))?;
        if src.len() != dst.len() {
            return Err(self.fail(
                inst,
                format!(
                    "copies {:?} elements into a view of shape {:?}",
                    src.shape, dst.shape
                ),
            ));
        }
        if src.elem.bytes() != dst.elem.bytes() {
            return Err(self.fail(inst, format!("copies {} into {}", src.elem, dst.elem)));
        }
        // A DMA reads its source as a load does: never-written elements are
        // an uninitialised read (when tracked), reported like a load's.
        if self.kernel_access(inst) && src.cast.is_none() {
            self.check_initialised(inst, &src)?;
        }
        let target = MemRef {
            dev,
            ..(*dst).clone()
        };
        let bytes = (dst.len() * dst.elem.bytes()) as i64;
        if self.machine.records_dmas() && src.cast.is_none() && dst.cast.is_none() {
            return self.record_dma(
                inst,
                &src,
                &target,
                dst_sem.as_deref(),
                src_sem.as_deref(),
                bytes,
            );
        }
        self.copy_view(inst, &src, &target)?;
        if let Some(sem) = dst_sem {
            self.sem_add(inst, &sem, dev, bytes)?;
        }
        if let Some(sem) = src_sem {
            self.sem_add(inst, &sem, self.dev, bytes)?;
        }
        Ok(())
    }

    /// Copies one whole view into another (same element count), moving
    /// the written marks along: a copy is not a read of its data.
    pub(crate) fn copy_view(&self, inst: &Inst, src: &MemRef, dst: &MemRef) -> R<()> {
        let zero_s = vec![0i64; src.shape.len()];
        let zero_d = vec![0i64; dst.shape.len()];
        self.copying.set(true);
        let r = self
            .read_box(inst, src, &zero_s, &src.shape, &[])
            .and_then(|data| {
                self.write_box(inst, dst, &zero_d, &dst.shape, &[], &data, None, false)
            });
        self.copying.set(false);
        r?;
        self.copy_written(src, &zero_s, &src.shape, dst, &zero_d, &dst.shape);
        Ok(())
    }

    /// The error of a read of element `at` of the view `m` of buffer `label`
    /// that was never written (`what`: which operand read it, if not the
    /// op's only one).
    fn uninitialised(
        &self,
        inst: &Inst,
        label: &str,
        m: &MemRef,
        at: &[usize],
        what: &str,
    ) -> ExecError {
        self.fail(
            inst,
            format!(
                "reads uninitialised memory: element {at:?} of {label} (a view of shape {:?}) was never written before this read{what} [{}]",
                m.shape,
                self.where_()
            ),
        )
    }

    /// Fails on the first element of the view `m` never written (when
    /// writes are tracked), with the words of an uninitialised load.
    fn check_initialised(&self, inst: &Inst, m: &MemRef) -> R<()> {
        let zero = vec![0i64; m.shape.len()];
        let (start, extent, steps) = self.box_of(inst, m, &zero, &m.shape, &[])?;
        let offs = Self::offsets(m, &start, &extent, &steps);
        let s = self.machine.lock();
        let b = &s.bufs[m.dev][m.buf];
        let Some(w) = &b.written else {
            return Ok(());
        };
        if let Some(i) = (0..offs.len()).find(|&i| offs[i] < w.len() && !w[offs[i]]) {
            let at = Self::box_index(&start, &extent, &steps, i);
            return Err(self.uninitialised(inst, &b.label, m, &at, " (the DMA's source)"));
        }
        Ok(())
    }

    /// The buffer offsets of every element of a view, in order.
    fn view_offsets(&self, inst: &Inst, m: &MemRef) -> R<Vec<usize>> {
        let zero = vec![0i64; m.shape.len()];
        let (start, extent, steps) = self.box_of(inst, m, &zero, &m.shape, &[])?;
        Ok(Self::offsets(m, &start, &extent, &steps))
    }

    fn sem_ref(&self, inst: &Inst, sem: &MemRef, dev: usize) -> R<super::machine::SemRef> {
        Ok((dev, sem.buf, self.sem_pos(inst, sem)?))
    }

    /// Starts a DMA that completes later (`DmaTiming`) or is watched for
    /// races: recorded in the machine until its waits take its bytes.
    fn record_dma(
        &mut self,
        inst: &Inst,
        src: &MemRef,
        dst: &MemRef,
        dst_sem: Option<&MemRef>,
        src_sem: Option<&MemRef>,
        bytes: i64,
    ) -> R<()> {
        let src_offs = self.view_offsets(inst, src)?;
        let dst_offs = self.view_offsets(inst, dst)?;
        let dst_sem = dst_sem
            .map(|m| self.sem_ref(inst, m, dst.dev))
            .transpose()?;
        let src_sem = src_sem
            .map(|m| self.sem_ref(inst, m, self.dev))
            .transpose()?;
        self.start_dma(
            inst,
            (src.dev, src.buf, src_offs),
            (dst.dev, dst.buf, dst_offs),
            dst_sem,
            src_sem,
            bytes,
            false,
        )
    }

    /// Starts a recorded DMA between element lists of two buffers
    /// (`add`: a scatter-add).
    #[allow(clippy::too_many_arguments)]
    fn start_dma(
        &mut self,
        inst: &Inst,
        (src_dev, src_buf, src_offs): (usize, usize, Vec<usize>),
        (dst_dev, dst_buf, dst_offs): (usize, usize, Vec<usize>),
        dst_sem: Option<super::machine::SemRef>,
        src_sem: Option<super::machine::SemRef>,
        bytes: i64,
        add: bool,
    ) -> R<()> {
        use super::machine::{Dma, Region};
        {
            let s = self.machine.lock();
            for (dev, buf, offs, what) in [
                (src_dev, src_buf, &src_offs, "reads past the end of"),
                (dst_dev, dst_buf, &dst_offs, "writes past the end of"),
            ] {
                let b = &s.bufs[dev][buf];
                if b.freed {
                    return Err(
                        self.fail(inst, format!("copies {} after its scope ended", b.label))
                    );
                }
                if offs.iter().any(|&o| o >= b.data.len()) {
                    return Err(self.fail(inst, format!("{what} {}", b.label)));
                }
            }
        }
        // The DMA's own read and write, against DMAs already in flight and
        // the unordered accesses of other cores and subcores; its
        // semaphores carry its issuer's clock to their waits.
        if self.machine.detect_races {
            let mut s = self.machine.lock();
            if !s.dmas.is_empty() {
                self.note_races(&mut s, inst, src_dev, src_buf, &src_offs, false);
                self.note_races(&mut s, inst, dst_dev, dst_buf, &dst_offs, true);
            }
            let kind = if add { Access::Add } else { Access::Write };
            let moved = s.bufs[src_dev][src_buf].data.gather(&src_offs);
            self.note_shared(
                &mut s,
                inst.site,
                src_dev,
                src_buf,
                &src_offs,
                Access::Read,
                true,
                None,
            );
            self.note_shared(
                &mut s,
                inst.site,
                dst_dev,
                dst_buf,
                &dst_offs,
                kind,
                true,
                Some(&moved),
            );
            if let Some(a) = self.agent {
                let c = s.hb.release(a);
                for sem in [dst_sem, src_sem].into_iter().flatten() {
                    s.hb.signal(sem, &c);
                }
            }
        }
        if self.machine.logs_hbm() {
            for (dev, buf, offs, write) in [
                (src_dev, src_buf, &src_offs, false),
                (dst_dev, dst_buf, &dst_offs, true),
            ] {
                self.machine
                    .log_hbm(self.megacore, dev, buf, offs, write, inst.site, &self.point);
            }
        }
        let mut dma = Dma {
            issuer: self.dev,
            site: inst.site,
            point: self.point.clone(),
            src: Region::new(src_dev, src_buf, src_offs),
            dst: Region::new(dst_dev, dst_buf, dst_offs),
            dst_sem,
            src_sem,
            bytes,
            copied: false,
            dst_open: if dst_sem.is_some() { bytes } else { 0 },
            src_open: bytes,
            due: None,
            add,
        };
        match self.machine.dma {
            super::DmaTiming::AtStart => {}
            super::DmaTiming::AtWait => dma.due = Some(u64::MAX),
            super::DmaTiming::Random(_) => {
                // SplitMix64 step.
                self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = self.rng;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                if z & 1 == 0 {
                    let due = self.ops_run + 1 + (z >> 1) % 48;
                    dma.due = Some(due);
                    self.next_due = Some(self.next_due.map_or(due, |d| d.min(due)));
                }
            }
        }
        let mut s = self.machine.lock();
        if dma.due.is_none() {
            dma.complete(&mut s.bufs);
        }
        s.dmas.push(dma);
        drop(s);
        self.machine.wake.notify_all();
        Ok(())
    }

    /// The pipeline's block copy between a view and a whole contiguous
    /// buffer, row by row as slices, when nothing observes the elements
    /// (no race detector, no tracking of written elements, no bitcast view):
    /// the same result as [`Self::read_box`] then [`Self::write_box`]
    /// without building index lists. `None` when it does not apply (the
    /// caller takes the general path, which also gives every error).
    pub(crate) fn copy_box_plain(
        &self,
        view: &MemRef,
        start: &[i64],
        extent: &[usize],
        whole: &MemRef,
        into_whole: bool,
    ) -> Option<()> {
        if self.machine.detect_races
            || self.machine.track_writes
            || view.cast.is_some()
            || whole.cast.is_some()
            || whole.offset != 0
            || whole.strides != Array::strides(&whole.shape)
            || (view.dev, view.buf) == (whole.dev, whole.buf)
        {
            return None;
        }
        let (st, ex, steps) = self
            .box_of(&Inst::driver(), view, start, extent, &[])
            .ok()?;
        let n: usize = ex.iter().product();
        if n != whole.shape.iter().product::<usize>() {
            return None;
        }
        let (rows, inner) = Self::plain_rows(view, &st, &ex, &steps)?;
        let mut s = self.machine.lock();
        let dev = &mut s.bufs;
        let (v, w) = if view.dev == whole.dev {
            let d = &mut dev[view.dev];
            if view.buf < whole.buf {
                let (a, b) = d.split_at_mut(whole.buf);
                (&mut a[view.buf], &mut b[0])
            } else {
                let (a, b) = d.split_at_mut(view.buf);
                (&mut b[0], &mut a[whole.buf])
            }
        } else if view.dev < whole.dev {
            let (a, b) = dev.split_at_mut(whole.dev);
            (&mut a[view.dev][view.buf], &mut b[0][whole.buf])
        } else {
            let (a, b) = dev.split_at_mut(view.dev);
            (&mut b[0][view.buf], &mut a[whole.dev][whole.buf])
        };
        if v.freed
            || w.freed
            || w.data.len() < n
            || rows.last().is_some_and(|&r| r + inner > v.data.len())
        {
            return None;
        }
        fn rows_copy<T: Copy>(
            v: &mut [T],
            w: &mut [T],
            rows: &[usize],
            inner: usize,
            into_whole: bool,
        ) {
            for (k, &r) in rows.iter().enumerate() {
                let (vs, ws) = (&mut v[r..r + inner], &mut w[k * inner..(k + 1) * inner]);
                if into_whole {
                    ws.copy_from_slice(vs);
                } else {
                    vs.copy_from_slice(ws);
                }
            }
        }
        match (&mut v.data, &mut w.data) {
            (Data::F32(a), Data::F32(b)) => rows_copy(a, b, &rows, inner, into_whole),
            (Data::F64(a), Data::F64(b)) => rows_copy(a, b, &rows, inner, into_whole),
            (Data::I64(a), Data::I64(b)) => rows_copy(a, b, &rows, inner, into_whole),
            _ => return None,
        }
        Some(())
    }

    /// Copies the written marks of a box of `src` onto a box of `dst` (the
    /// same element count), after a copy of their data.
    pub(crate) fn copy_written(
        &self,
        src: &MemRef,
        src_start: &[i64],
        src_extent: &[usize],
        dst: &MemRef,
        dst_start: &[i64],
        dst_extent: &[usize],
    ) {
        if !self.machine.track_writes || src.cast.is_some() || dst.cast.is_some() {
            return;
        }
        let d = &Inst::driver();
        let (Ok((ss, se, sst)), Ok((ds, de, dst_steps))) = (
            self.box_of(d, src, src_start, src_extent, &[]),
            self.box_of(d, dst, dst_start, dst_extent, &[]),
        ) else {
            return;
        };
        let so = Self::offsets(src, &ss, &se, &sst);
        let d_o = Self::offsets(dst, &ds, &de, &dst_steps);
        let mut s = self.machine.lock();
        let marks: Option<Vec<bool>> = s.bufs[src.dev][src.buf].written.as_ref().map(|w| {
            so.iter()
                .map(|&o| w.get(o).copied().unwrap_or(true))
                .collect()
        });
        if let Some(w) = &mut s.bufs[dst.dev][dst.buf].written {
            for (i, &o) in d_o.iter().enumerate() {
                if let Some(x) = w.get_mut(o) {
                    *x = marks
                        .as_ref()
                        .is_none_or(|m| m.get(i).copied().unwrap_or(true));
                }
            }
        }
    }

    /// Logs the pipeline's copy of a block from or to HBM for the cross-core
    /// race check.
    pub(crate) fn log_block_copy(
        &self,
        hbm: &MemRef,
        start: &[i64],
        extent: &[usize],
        write: bool,
    ) {
        if !self.machine.logs_hbm() {
            return;
        }
        if let Ok((st, ex, steps)) = self.box_of(&Inst::driver(), hbm, start, extent, &[]) {
            let offs = Self::offsets(hbm, &st, &ex, &steps);
            self.machine.log_hbm(
                self.megacore,
                hbm.dev,
                hbm.buf,
                &offs,
                write,
                0,
                &self.point,
            );
        }
    }

    /// Elements of a box of a buffer never written, when writes are tracked.
    pub(crate) fn count_unwritten(&self, m: &MemRef, extent: &[usize]) -> Option<u64> {
        if !self.machine.track_writes || m.cast.is_some() {
            return None;
        }
        let zero = vec![0i64; extent.len()];
        let (st, ex, steps) = self.box_of(&Inst::driver(), m, &zero, extent, &[]).ok()?;
        let offs = Self::offsets(m, &st, &ex, &steps);
        let s = self.machine.lock();
        let w = s.bufs[m.dev][m.buf].written.as_ref()?;
        Some(
            offs.iter()
                .filter(|&&o| !w.get(o).copied().unwrap_or(true))
                .count() as u64,
        )
    }

    /// Completes this device's random-time DMAs whose time came.
    fn complete_due(&mut self) {
        let now = self.ops_run;
        let mut s = self.machine.lock();
        let st = &mut *s;
        let mut next = None;
        for d in &mut st.dmas {
            if d.issuer != self.dev || d.copied {
                continue;
            }
            match d.due {
                Some(t) if t <= now => d.complete(&mut st.bufs),
                Some(t) if t != u64::MAX => next = Some(next.map_or(t, |n: u64| n.min(t))),
                _ => {}
            }
        }
        self.next_due = next;
        drop(s);
        self.machine.wake.notify_all();
    }

    /// A DMA wait: takes `bytes` from the semaphore (completing DMAs that
    /// signal it and have not copied yet), then retires that many bytes of
    /// the DMAs on it: their regions are no longer in flight.
    fn dma_wait(&mut self, inst: &Inst, sem: &MemRef, bytes: i64) -> R<()> {
        self.sem_wait(inst, sem, bytes)?;
        if !self.machine.records_dmas() {
            return Ok(());
        }
        let key = (sem.dev, sem.buf, self.sem_pos(inst, sem)?);
        let mut s = self.machine.lock();
        let mut left = bytes;
        for d in s.dmas.iter_mut().filter(|d| d.dst_sem == Some(key)) {
            if left <= 0 {
                break;
            }
            let take = left.min(d.dst_open);
            d.dst_open -= take;
            left -= take;
        }
        let mut left = bytes;
        for d in s
            .dmas
            .iter_mut()
            .filter(|d| d.src_sem == Some(key) || (d.src_sem.is_none() && d.dst_sem == Some(key)))
        {
            if left <= 0 {
                break;
            }
            let take = left.min(d.src_open);
            d.src_open -= take;
            left -= take;
        }
        s.dmas.retain(super::machine::Dma::open);
        Ok(())
    }
}

fn has_segments(inst: &Inst) -> bool {
    !inst.segments.is_empty()
}
