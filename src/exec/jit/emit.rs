//! The kernel body, rewritten into upstream MLIR (`func`, `arith`, `math`,
//! `vector`, `scf`, `memref`) as text: the input of the LLVM pipeline.
//!
//! The text is emitted from the interpreter's own compiled [`Program`]
//! (values in slots, attributes decoded, loads nothing uses dropped), so
//! both engines start from one reading of the kernel. Each op is either
//! lowered to upstream ops reproducing the interpreter's definition
//! (arithmetic, compares, casts, reductions, shifts, `tpu.iota`, bf16
//! conversions, ...: `emit/native.rs`, docs/jit.md), or (pure ops with subtle
//! semantics not lowered yet: integer division, saturating conversions,
//! f64 arithmetic, float `mul` reductions, matmul, ...) stored to stack
//! buffers and handed to the runtime (`tcc_jit_op`), which runs the
//! interpreter's definition of that op. An elementwise body is emitted
//! strip-mined (`emit/tile.rs`). Ops that touch memory in ways the compiled engine does not model
//! (DMAs, semaphores, masked or strided accesses, scoped buffers, views) are
//! refused: the call then runs on the interpreter, which says so.
//!
//! Memory: every memref argument is a whole buffer of the machine in its
//! storage type (`f32` for `f32`/`bf16`, `f64`, `i64` for every integer and
//! `index`): loads convert to the kernel's type, stores back. Every load and
//! store checks its indices; an access out of bounds calls `tcc_jit_oob`
//! (the run fails with the interpreter's message) and is clamped to the
//! origin, so compiled code never reads or writes outside its buffers.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::super::array::{Array, Data};
use super::super::dtype::ElemType;
use super::super::program::{Bin, Block, Cast, Inst, Kind, Program, Slot, Un, VTy};

mod native;
mod tile;

/// Why a kernel is not compiled: the op and its location.
#[derive(Clone, Debug)]
pub(crate) struct Refusal {
    pub op: String,
    pub loc: String,
    pub why: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the op `{}`", self.op)?;
        if !self.loc.is_empty() {
            write!(f, " at {}", self.loc)?;
        }
        write!(f, " is not compiled ({})", self.why)
    }
}

/// A bounds check's static facts, for the interpreter's message.
#[derive(Clone, Debug)]
pub(crate) struct Check {
    /// The op's site.
    pub site: u32,
    /// The kernel argument whose buffer the view is of.
    pub arg: Option<usize>,
    /// The view's shape and the access's extent.
    pub shape: Vec<usize>,
    pub extent: Vec<usize>,
}

/// What emission produced.
#[derive(Clone, Debug)]
pub(crate) struct Emitted {
    /// The module text.
    pub text: String,
    /// The ops the runtime runs (`tcc_jit_op`'s first argument indexes it),
    /// operands renumbered `0..n`, results after them.
    pub rt: Vec<Inst>,
    /// Bounds checks (`tcc_jit_oob`'s first argument indexes it).
    pub checks: Vec<Check>,
    /// The kernel function's argument types.
    pub args: Vec<VTy>,
}

/// A memref value: its static facts.
#[derive(Clone, Debug)]
struct Mem {
    elem: ElemType,
    shape: Vec<usize>,
    arg: Option<usize>,
}

type E<T> = Result<T, Refusal>;

/// The storage element type of the machine's buffers for a kernel type.
fn storage(e: ElemType) -> Option<&'static str> {
    Some(match e {
        ElemType::F32 | ElemType::BF16 => "f32",
        ElemType::F64 => "f64",
        ElemType::Int(_) | ElemType::UInt(_) | ElemType::Index => "i64",
        _ => return None,
    })
}

/// The kernel-level text of an element type the compiled engine handles.
fn elem_text(e: ElemType) -> Option<String> {
    Some(match e {
        ElemType::F32 => "f32".into(),
        ElemType::BF16 => "bf16".into(),
        ElemType::F64 => "f64".into(),
        ElemType::Int(w) | ElemType::UInt(w) if w > 0 && w <= 64 => format!("i{w}"),
        ElemType::Index => "index".into(),
        _ => return None,
    })
}

/// A constant's value text: `v`, or `dense<v>` for a vector.
fn splat(shape: Option<&[usize]>, v: &str) -> String {
    match shape {
        None => v.to_string(),
        Some(_) => format!("dense<{v}>"),
    }
}

fn dims(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("{d}x")).collect()
}

fn shaped(shape: Option<&[usize]>, elem: &str) -> String {
    match shape {
        None => elem.to_string(),
        Some(s) => format!("vector<{}{elem}>", dims(s)),
    }
}

const CMPI: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];
const CMPF: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// Ops without memory operands the runtime may run through the interpreter.
fn pure(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Const(_)
            | Kind::Bin(_)
            | Kind::Un(_)
            | Kind::CmpI(_)
            | Kind::CmpF(_)
            | Kind::Select
            | Kind::Cast(_)
            | Kind::Fma
            | Kind::Broadcast
            | Kind::ShapeCast
            | Kind::MultiReduce(..)
            | Kind::Reduce(..)
            | Kind::AllReduce { .. }
            | Kind::Reduction(_)
            | Kind::Scan(..)
            | Kind::ReduceIndex(..)
            | Kind::Extract(_)
            | Kind::Insert(_)
            | Kind::ExtractStrided { .. }
            | Kind::InsertStrided { .. }
            | Kind::Transpose(_)
            | Kind::Iota(_)
            | Kind::ConstantMask(_)
            | Kind::CreateMask
            | Kind::Concat(_)
            | Kind::DynamicRotate { .. }
            | Kind::PackElementwise(_)
            | Kind::UnpackElementwise { .. }
            | Kind::DynamicGather(_)
            | Kind::VectorBitcast { .. }
            | Kind::Sort { .. }
            | Kind::ScanCount
            | Kind::Matmul { .. }
            | Kind::DeviceId
            | Kind::CoreId
            | Kind::IterationBound(_)
    )
}

struct Em<'p> {
    prog: &'p Program,
    fuse: bool,
    flush: bool,
    out: String,
    hoist: String,
    tmp: usize,
    names: HashMap<Slot, String>,
    tys: HashMap<Slot, VTy>,
    mems: HashMap<Slot, Mem>,
    /// Integer values known to be a splat of one constant (scalar
    /// constants and their broadcasts): a shift by one below the width is
    /// a plain shift.
    splats: HashMap<Slot, i64>,
    rt: Vec<Inst>,
    checks: Vec<Check>,
    depth: usize,
    /// Bytes of the stack buffers the runtime's operands and results take
    /// ([`STACK_BUDGET`]).
    stack: usize,
    /// Heap buffers of the runtime's big operands and results (name, type),
    /// freed before the body returns.
    heap: Vec<(String, String)>,
}

/// The most bytes of stack buffers (the operands and results of ops run by
/// the runtime, hoisted to the body's entry) a compiled body may take: it
/// runs on the caller's thread (a test thread has 2 MiB of stack, XLA's
/// handler threads may have less), where a whole-block vector (1 MiB for
/// 256x1024 f32) would overflow the stack and abort the process. Above it
/// the kernel runs on the interpreter, which keeps its values on the heap.
const STACK_BUDGET: usize = 256 << 10;

/// Runtime operands and results larger than this many bytes live on the
/// heap (allocated at the body's entry, freed before it returns).
const HEAP_ABOVE: usize = 4 << 10;

/// Emits the kernel function `main` of `prog` as a module whose function
/// `tcc_body(ctx: i64, <main's arguments>)` runs the body.
pub(crate) fn emit(prog: &Program, main: &str, fuse: bool, flush: bool) -> E<Emitted> {
    let f = prog.func(main).ok_or_else(|| Refusal {
        op: "func.func".into(),
        loc: String::new(),
        why: format!("no function @{main}"),
    })?;
    let mut em = Em {
        prog,
        fuse,
        flush,
        out: String::new(),
        hoist: String::new(),
        tmp: 0,
        names: HashMap::new(),
        tys: HashMap::new(),
        mems: HashMap::new(),
        splats: HashMap::new(),
        rt: Vec::new(),
        checks: Vec::new(),
        depth: 1,
        stack: 0,
        heap: Vec::new(),
    };
    let mut params = vec!["%ctx: i64".to_string()];
    for (k, (&slot, ty)) in f.body.args.iter().zip(&f.arg_ty).enumerate() {
        let name = format!("%a{k}");
        let t = match ty {
            VTy::MemRef(e, shape, _) => {
                let st = storage(*e)
                    .ok_or_else(|| em.refuse_at(0, &format!("a memref argument of {e}")))?;
                if shape.contains(&super::super::DYNAMIC_DIM) {
                    return Err(em.refuse_at(0, "a memref argument of dynamic size"));
                }
                em.mems.insert(
                    slot,
                    Mem {
                        elem: *e,
                        shape: shape.clone(),
                        arg: Some(k),
                    },
                );
                format!("memref<{}{st}>", dims(shape))
            }
            VTy::Scalar(e) => elem_text(*e).ok_or_else(|| em.refuse_at(0, "argument type"))?,
            _ => return Err(em.refuse_at(0, "an argument that is neither a scalar nor a memref")),
        };
        params.push(format!("{name}: {t}"));
        em.names.insert(slot, name);
        em.tys.insert(slot, ty.clone());
    }
    if !em.tiled_body(&f.body)? {
        em.block_body(&f.body, Term::Return)?;
    }
    if em.stack > STACK_BUDGET {
        return Err(Refusal {
            op: "func.func".into(),
            loc: String::new(),
            why: format!(
                "the operands and results of the ops it runs through the runtime need {} bytes of stack, beyond the compiled engine's budget of {STACK_BUDGET}",
                em.stack
            ),
        });
    }
    let mut text = String::new();
    text.push_str("module {\n");
    text.push_str("  func.func private @tcc_jit_op(i64, i64, i64)\n");
    text.push_str("  func.func private @tcc_jit_oob(i64, i64, i64)\n");
    let _ = writeln!(text, "  func.func @tcc_body({}) {{", params.join(", "));
    text.push_str("    %c0 = arith.constant 0 : index\n");
    text.push_str(&em.hoist);
    text.push_str(&em.out);
    text.push_str("  }\n}\n");
    Ok(Emitted {
        text,
        rt: em.rt,
        checks: em.checks,
        args: f.arg_ty.clone(),
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Term {
    Return,
    Yield,
    Condition,
}

impl Em<'_> {
    fn refuse_at(&self, site: u32, why: &str) -> Refusal {
        // Site 0 is the pipeline's block copy: refusals there are the kernel
        // function's own (its arguments).
        let s = self.prog.sites.get(site as usize).filter(|_| site > 0);
        Refusal {
            op: s
                .map(|s| s.op.clone())
                .unwrap_or_else(|| "func.func".into()),
            loc: s.map(|s| s.loc.clone()).unwrap_or_default(),
            why: why.to_string(),
        }
    }

    fn refuse(&self, inst: &Inst, why: &str) -> Refusal {
        self.refuse_at(inst.site, why)
    }

    fn fresh(&mut self, p: &str) -> String {
        self.tmp += 1;
        format!("%{p}{}", self.tmp)
    }

    fn line(&mut self, s: &str) {
        for _ in 0..=self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn hoisted(&mut self, s: &str) {
        self.hoist.push_str("    ");
        self.hoist.push_str(s);
        self.hoist.push('\n');
    }

    fn name(&self, inst: &Inst, s: Slot) -> E<String> {
        self.names
            .get(&s)
            .cloned()
            .ok_or_else(|| self.refuse(inst, "an operand defined outside what is compiled"))
    }

    fn ty(&self, inst: &Inst, s: Slot) -> E<VTy> {
        self.tys
            .get(&s)
            .cloned()
            .ok_or_else(|| self.refuse(inst, "an operand of unknown type"))
    }

    /// Kernel-level type text of a scalar or vector.
    fn kt(&self, inst: &Inst, t: &VTy) -> E<String> {
        match t {
            VTy::Scalar(e) => elem_text(*e).ok_or_else(|| self.refuse(inst, "element type")),
            VTy::Vector(e, s) if !s.is_empty() => {
                let et = elem_text(*e).ok_or_else(|| self.refuse(inst, "element type"))?;
                Ok(shaped(Some(s), &et))
            }
            _ => Err(self.refuse(inst, "a value type the compiled engine does not hold")),
        }
    }

    fn define(&mut self, slot: Slot, ty: &VTy) -> String {
        let n = format!("%s{slot}");
        self.names.insert(slot, n.clone());
        self.tys.insert(slot, ty.clone());
        n
    }

    fn block_body(&mut self, b: &Block, term: Term) -> E<()> {
        for inst in &b.insts {
            if matches!(inst.kind, Kind::Yield) {
                let args = inst
                    .args
                    .iter()
                    .map(|&s| self.name(inst, s))
                    .collect::<E<Vec<_>>>()?;
                let tys = inst
                    .args
                    .iter()
                    .map(|&s| self.ty(inst, s).and_then(|t| self.vt(inst, &t)))
                    .collect::<E<Vec<_>>>()?;
                if term == Term::Return {
                    self.free_heap();
                }
                let op = match term {
                    Term::Return => "func.return",
                    Term::Yield => "scf.yield",
                    Term::Condition => "scf.condition",
                };
                self.line(&format!(
                    "\"{op}\"({}) : ({}) -> ()",
                    args.join(", "),
                    tys.join(", ")
                ));
                return Ok(());
            }
            self.inst(inst)?;
        }
        if term != Term::Return {
            self.line("\"scf.yield\"() : () -> ()");
        } else {
            self.free_heap();
            self.line("\"func.return\"() : () -> ()");
        }
        Ok(())
    }

    /// Frees the heap buffers (before the body's return).
    fn free_heap(&mut self) {
        for (buf, bt) in std::mem::take(&mut self.heap) {
            self.line(&format!("memref.dealloc {buf} : {bt}"));
        }
    }

    /// Type text of any value (memrefs included).
    fn vt(&self, inst: &Inst, t: &VTy) -> E<String> {
        match t {
            VTy::MemRef(..) => Err(self.refuse(inst, "a memref passed through a region")),
            t => self.kt(inst, t),
        }
    }

    /// A region with block arguments.
    fn region(&mut self, b: &Block, arg_tys: &[VTy], term: Term, inst: &Inst) -> E<String> {
        let saved = std::mem::take(&mut self.out);
        let mut header = Vec::new();
        for (&s, t) in b.args.iter().zip(arg_tys) {
            let tt = self.vt(inst, t)?;
            let n = self.define(s, t);
            header.push(format!("{n}: {tt}"));
        }
        self.depth += 1;
        let r = self.block_body(b, term);
        self.depth -= 1;
        let body = std::mem::replace(&mut self.out, saved);
        r?;
        let mut text = String::from("{\n");
        if !header.is_empty() {
            let _ = writeln!(text, "^bb0({}):", header.join(", "));
        }
        text.push_str(&body);
        for _ in 0..=self.depth {
            text.push_str("  ");
        }
        text.push('}');
        Ok(text)
    }

    fn results(&mut self, inst: &Inst) -> E<(String, Vec<String>)> {
        let tys = inst
            .res_ty
            .iter()
            .map(|t| self.vt(inst, t))
            .collect::<E<Vec<_>>>()?;
        let lhs = match inst.res.len() {
            0 => String::new(),
            1 => format!("{} = ", self.define(inst.res[0], &inst.res_ty[0])),
            n => {
                let base = self.fresh("m");
                for (i, (&s, t)) in inst.res.iter().zip(&inst.res_ty).enumerate() {
                    self.names.insert(s, format!("{base}#{i}"));
                    self.tys.insert(s, t.clone());
                }
                format!("{base}:{n} = ")
            }
        };
        Ok((lhs, tys))
    }

    fn inst(&mut self, inst: &Inst) -> E<()> {
        match &inst.kind {
            Kind::Nop => Ok(()),
            Kind::Identity => {
                let s = *inst.args.first().ok_or_else(|| self.refuse(inst, "no operand"))?;
                let r = *inst.res.first().ok_or_else(|| self.refuse(inst, "no result"))?;
                if let Some(m) = self.mems.get(&s).cloned() {
                    self.mems.insert(r, m);
                } else if self.ty(inst, s)? != inst.res_ty[0] {
                    return Err(self.refuse(inst, "a cast between types"));
                }
                let n = self.name(inst, s)?;
                self.names.insert(r, n);
                self.tys.insert(r, inst.res_ty[0].clone());
                Ok(())
            }
            Kind::For => {
                let (lhs, tys) = self.results(inst)?;
                let mut arg_tys = vec![inst.arg_ty[0].clone()];
                arg_tys.extend(inst.arg_ty[3..].iter().cloned());
                let operands = self.operands(inst)?;
                let body = inst
                    .regions
                    .first()
                    .ok_or_else(|| self.refuse(inst, "no body"))?;
                let region = self.region(body, &arg_tys, Term::Yield, inst)?;
                let in_tys = inst
                    .arg_ty
                    .iter()
                    .map(|t| self.vt(inst, t))
                    .collect::<E<Vec<_>>>()?;
                self.line(&format!(
                    "{lhs}\"scf.for\"({}) ({region}) : ({}) -> ({})",
                    operands.join(", "),
                    in_tys.join(", "),
                    tys.join(", ")
                ));
                Ok(())
            }
            Kind::If => {
                let (lhs, tys) = self.results(inst)?;
                let cond = self.name(inst, inst.args[0])?;
                let then = match inst.regions.first() {
                    Some(b) => self.region(b, &[], Term::Yield, inst)?,
                    None => return Err(self.refuse(inst, "no then region")),
                };
                let els = match inst.regions.get(1) {
                    Some(b) if !b.insts.is_empty() => self.region(b, &[], Term::Yield, inst)?,
                    _ if inst.res.is_empty() => "{\n}".to_string(),
                    _ => return Err(self.refuse(inst, "no else region")),
                };
                let ct = self.vt(inst, &inst.arg_ty[0])?;
                self.line(&format!(
                    "{lhs}\"scf.if\"({cond}) ({then}, {els}) : ({ct}) -> ({})",
                    tys.join(", ")
                ));
                Ok(())
            }
            Kind::While => {
                let (lhs, tys) = self.results(inst)?;
                let operands = self.operands(inst)?;
                let (Some(before), Some(after)) = (inst.regions.first(), inst.regions.get(1))
                else {
                    return Err(self.refuse(inst, "regions missing"));
                };
                let b = self.region(before, &inst.arg_ty, Term::Condition, inst)?;
                let a = self.region(after, &inst.res_ty, Term::Yield, inst)?;
                let in_tys = inst
                    .arg_ty
                    .iter()
                    .map(|t| self.vt(inst, t))
                    .collect::<E<Vec<_>>>()?;
                self.line(&format!(
                    "{lhs}\"scf.while\"({}) ({b}, {a}) : ({}) -> ({})",
                    operands.join(", "),
                    in_tys.join(", "),
                    tys.join(", ")
                ));
                Ok(())
            }
            Kind::Load { strides } if strides.iter().all(|&s| s == 1) => self.load(inst),
            Kind::Store {
                strides,
                add: false,
                sublanes: None,
            } if strides.iter().all(|&s| s == 1) => self.store(inst),
            Kind::ScalarLoad => self.load(inst),
            Kind::ScalarStore => self.store(inst),
            k if pure(k) => {
                if !self.native(inst)? {
                    self.runtime(inst)?;
                }
                Ok(())
            }
            _ => Err(self.refuse(
                inst,
                "the compiled engine runs no DMAs, semaphores, scoped buffers, views, masked, strided or accumulating accesses yet",
            )),
        }
    }

    fn operands(&self, inst: &Inst) -> E<Vec<String>> {
        inst.args.iter().map(|&s| self.name(inst, s)).collect()
    }

    /// Lowers a pure op to upstream ops when it is one the compiled engine
    /// computes bit for bit as the interpreter does; `false`: not lowered.
    fn native(&mut self, inst: &Inst) -> E<bool> {
        if inst.res.len() != 1 {
            return Ok(false);
        }
        let rt = inst.res_ty[0].clone();
        let Some(re) = rt.elem() else {
            return Ok(false);
        };
        if elem_text(re).is_none() {
            return Ok(false);
        }
        let arg_elem = inst.arg_ty.first().and_then(VTy::elem);
        // f64 is not flushed by the interpreter, but would be by the CPU's
        // flush mode: its arithmetic goes to the runtime.
        let float = |e: Option<ElemType>| matches!(e, Some(ElemType::F32));
        let int = |e: Option<ElemType>| {
            matches!(
                e,
                Some(ElemType::Int(_) | ElemType::UInt(_) | ElemType::Index)
            )
        };
        match &inst.kind {
            Kind::Bin(op @ (Bin::ShLI | Bin::ShRSI | Bin::ShRUI)) => {
                return self.shift(inst, *op, &rt);
            }
            Kind::Iota(dims) => return self.iota(inst, dims, &rt),
            Kind::MultiReduce(kind, dims) => return self.reduction(inst, *kind, Some(dims), &rt),
            Kind::Reduction(kind) => return self.reduction(inst, *kind, None, &rt),
            Kind::Reduce(kind, dims) => return self.reduction(inst, *kind, Some(dims), &rt),
            Kind::Cast(c @ Cast::FloatToFloat) => return self.float_cast(inst, *c, &rt),
            Kind::Un(op @ (Un::Rsqrt | Un::NegF | Un::AbsF))
            | Kind::Un(
                op @ (Un::Erf | Un::Exp2 | Un::Log2 | Un::Log10 | Un::Sin | Un::Cos | Un::Atan),
            ) => return self.unary(inst, *op, &rt),
            _ => {}
        }
        let text: String = match &inst.kind {
            Kind::Const(a) => {
                let Some(v) = self.constant(a, &rt) else {
                    return Ok(false);
                };
                if let Data::I64(d) = &a.data
                    && int(Some(re))
                    && d.first().is_some_and(|x| d.iter().all(|y| y == x))
                {
                    self.splats.insert(inst.res[0], d[0]);
                }
                v
            }
            Kind::Bin(op) if self.fuse && inst.fused.is_some() => {
                return self.multiply_add(inst, *op, &rt);
            }
            Kind::Bin(op) => {
                if inst.args.len() != 2 || (self.fuse && inst.fused.is_some()) {
                    return Ok(false);
                }
                let name = match op {
                    Bin::AddF if float(arg_elem) => "arith.addf",
                    Bin::SubF if float(arg_elem) => "arith.subf",
                    Bin::MulF if float(arg_elem) => "arith.mulf",
                    Bin::DivF if float(arg_elem) => "arith.divf",
                    Bin::MaximumF if float(arg_elem) => "arith.maximumf",
                    Bin::MinimumF if float(arg_elem) => "arith.minimumf",
                    Bin::AddI if int(arg_elem) => "arith.addi",
                    Bin::SubI if int(arg_elem) => "arith.subi",
                    Bin::MulI if int(arg_elem) => "arith.muli",
                    Bin::AndI if int(arg_elem) => "arith.andi",
                    Bin::OrI if int(arg_elem) => "arith.ori",
                    Bin::XOrI if int(arg_elem) => "arith.xori",
                    Bin::MaxSI if int(arg_elem) => "arith.maxsi",
                    Bin::MinSI if int(arg_elem) => "arith.minsi",
                    Bin::MaxUI if int(arg_elem) => "arith.maxui",
                    Bin::MinUI if int(arg_elem) => "arith.minui",
                    _ => return Ok(false),
                };
                let a = self.name(inst, inst.args[0])?;
                let b = self.name(inst, inst.args[1])?;
                let t = self.kt(inst, &rt)?;
                if inst.arg_ty[0] != rt || inst.arg_ty[1] != rt {
                    return Ok(false);
                }
                if matches!(op, Bin::MaximumF | Bin::MinimumF) {
                    // Compares and selects, as the interpreter defines them
                    // (NaN if either is; of equal operands the positive zero
                    // for max, the negative for min). The CPU's max/min
                    // return a subnormal operand as it is: with flushing,
                    // the operands are flushed by bits first.
                    let (a, b) = if self.flush {
                        (
                            self.flush_bits(&a, rt.shape()),
                            self.flush_bits(&b, rt.shape()),
                        )
                    } else {
                        (a, b)
                    };
                    let r = self.max_min(&a, &b, rt.shape(), *op == Bin::MaximumF);
                    let slot = inst.res[0];
                    self.names.insert(slot, r);
                    self.tys.insert(slot, rt.clone());
                    return Ok(true);
                } else {
                    format!("{name} {a}, {b} : {t}")
                }
            }
            Kind::Un(op) => {
                if arg_elem != Some(ElemType::F32) || inst.arg_ty[0] != rt {
                    return Ok(false);
                }
                let name = match op {
                    Un::Exp => "math.exp",
                    Un::Log => "math.log",
                    Un::Tanh => "math.tanh",
                    Un::Sqrt => "math.sqrt",
                    Un::Floor => "math.floor",
                    Un::Ceil => "math.ceil",
                    Un::Trunc => "math.trunc",
                    Un::RoundEven => "math.roundeven",
                    _ => return Ok(false),
                };
                let a = self.name(inst, inst.args[0])?;
                let t = self.kt(inst, &rt)?;
                format!("{name} {a} : {t}")
            }
            Kind::CmpI(p) | Kind::CmpF(p) => {
                let (ok, name, preds): (bool, &str, &[&str]) = match inst.kind {
                    Kind::CmpI(_) => (int(arg_elem), "arith.cmpi", &CMPI),
                    _ => (float(arg_elem), "arith.cmpf", &CMPF),
                };
                let Some(pred) = usize::try_from(*p).ok().and_then(|p| preds.get(p)) else {
                    return Ok(false);
                };
                if !ok || inst.args.len() != 2 || inst.arg_ty[0] != inst.arg_ty[1] {
                    return Ok(false);
                }
                let a = self.name(inst, inst.args[0])?;
                let b = self.name(inst, inst.args[1])?;
                let t = self.kt(inst, &inst.arg_ty[0])?;
                format!("{name} {pred}, {a}, {b} : {t}")
            }
            Kind::Select => {
                if inst.args.len() != 3 || inst.arg_ty[1] != rt || inst.arg_ty[2] != rt {
                    return Ok(false);
                }
                let c = self.name(inst, inst.args[0])?;
                let a = self.name(inst, inst.args[1])?;
                let b = self.name(inst, inst.args[2])?;
                let ct = self.kt(inst, &inst.arg_ty[0])?;
                let t = self.kt(inst, &rt)?;
                format!("arith.select {c}, {a}, {b} : {ct}, {t}")
            }
            Kind::Cast(c) => {
                let Some(ae) = arg_elem else { return Ok(false) };
                if inst.arg_ty[0].shape() != rt.shape() {
                    return Ok(false);
                }
                let a = self.name(inst, inst.args[0])?;
                let at = self.kt(inst, &inst.arg_ty[0])?;
                let t = self.kt(inst, &rt)?;
                let name = match c {
                    Cast::ExtSI | Cast::ExtUI if int(Some(ae)) && int(Some(re)) => {
                        let index = ae == ElemType::Index || re == ElemType::Index;
                        let (wi, wo) = (ae.bits(), re.bits());
                        if index && ae != re {
                            if *c == Cast::ExtSI {
                                "arith.index_cast"
                            } else {
                                "arith.index_castui"
                            }
                        } else if wi == wo {
                            let r = inst.res[0];
                            self.names.insert(r, a);
                            self.tys.insert(r, rt.clone());
                            return Ok(true);
                        } else if wo < wi {
                            "arith.trunci"
                        } else if *c == Cast::ExtSI {
                            "arith.extsi"
                        } else {
                            "arith.extui"
                        }
                    }
                    Cast::SIToFP if matches!(ae, ElemType::Int(w) if w > 1) && float(Some(re)) => {
                        "arith.sitofp"
                    }
                    Cast::UIToFP if matches!(ae, ElemType::Int(w) if w > 1) && float(Some(re)) => {
                        "arith.uitofp"
                    }
                    _ => return Ok(false),
                };
                format!("{name} {a} : {at} to {t}")
            }
            Kind::Broadcast => {
                let src = self.ty(inst, inst.args[0])?;
                let a = self.name(inst, inst.args[0])?;
                if src == rt {
                    let r = inst.res[0];
                    self.names.insert(r, a);
                    self.tys.insert(r, rt.clone());
                    return Ok(true);
                }
                if !matches!(rt, VTy::Vector(..)) || src.elem() != Some(re) {
                    return Ok(false);
                }
                if let Some(&k) = self.splats.get(&inst.args[0]) {
                    self.splats.insert(inst.res[0], k);
                }
                let st = self.kt(inst, &src)?;
                let t = self.kt(inst, &rt)?;
                format!("vector.broadcast {a} : {st} to {t}")
            }
            Kind::ShapeCast => {
                let src = self.ty(inst, inst.args[0])?;
                if !matches!(src, VTy::Vector(..)) || !matches!(rt, VTy::Vector(..)) {
                    return Ok(false);
                }
                let a = self.name(inst, inst.args[0])?;
                let st = self.kt(inst, &src)?;
                let t = self.kt(inst, &rt)?;
                format!("vector.shape_cast {a} : {st} to {t}")
            }
            _ => return Ok(false),
        };
        let r = self.define(inst.res[0], &rt);
        self.line(&format!("{r} = {text}"));
        Ok(true)
    }

    /// `maximumf` / `minimumf` of two f32 values by compares and selects.
    fn max_min(&mut self, a: &str, b: &str, shape: &[usize], max: bool) -> String {
        let sh = (!shape.is_empty()).then_some(shape);
        let (ft, it, bt) = (shaped(sh, "f32"), shaped(sh, "i32"), shaped(sh, "i1"));
        let n: Vec<String> = (0..11).map(|_| self.fresh("w")).collect();
        let (pred, neg_pick, pos_pick) = if max { ("ogt", b, a) } else { ("olt", a, b) };
        let lines = [
            format!("{} = arith.cmpf uno, {a}, {b} : {ft}", n[0]),
            format!("{} = arith.cmpf oeq, {a}, {b} : {ft}", n[1]),
            format!("{} = arith.cmpf {pred}, {a}, {b} : {ft}", n[2]),
            format!("{} = arith.bitcast {a} : {ft} to {it}", n[3]),
            format!("{} = arith.constant {} : {it}", n[4], splat(sh, "0")),
            format!("{} = arith.cmpi slt, {}, {} : {it}", n[5], n[3], n[4]),
            format!(
                "{} = arith.select {}, {neg_pick}, {pos_pick} : {bt}, {ft}",
                n[6], n[5]
            ),
            format!("{} = arith.select {}, {a}, {b} : {bt}, {ft}", n[7], n[2]),
            format!(
                "{} = arith.select {}, {}, {} : {bt}, {ft}",
                n[8], n[1], n[6], n[7]
            ),
            format!(
                "{} = arith.constant {} : {ft}",
                n[9],
                splat(sh, "0x7FC00000")
            ),
            format!(
                "{} = arith.select {}, {}, {} : {bt}, {ft}",
                n[10], n[0], n[9], n[8]
            ),
        ];
        for l in lines {
            self.line(&l);
        }
        n[10].clone()
    }

    /// An f32 value with subnormals replaced by zeros of their sign.
    fn flush_bits(&mut self, v: &str, shape: &[usize]) -> String {
        let sh = (!shape.is_empty()).then_some(shape);
        let (ft, it) = (shaped(sh, "f32"), shaped(sh, "i32"));
        let n: Vec<String> = (0..9).map(|_| self.fresh("q")).collect();
        let lines = [
            format!("{} = arith.bitcast {v} : {ft} to {it}", n[0]),
            format!(
                "{} = arith.constant {} : {it}",
                n[1],
                splat(sh, "2147483647")
            ),
            format!("{} = arith.andi {}, {} : {it}", n[2], n[0], n[1]),
            format!("{} = arith.constant {} : {it}", n[3], splat(sh, "8388608")),
            format!("{} = arith.cmpi ult, {}, {} : {it}", n[4], n[2], n[3]),
            format!(
                "{} = arith.constant {} : {it}",
                n[5],
                splat(sh, "-2147483648")
            ),
            format!("{} = arith.andi {}, {} : {it}", n[6], n[0], n[5]),
            format!(
                "{} = arith.select {}, {}, {} : {}, {it}",
                n[7],
                n[4],
                n[6],
                n[0],
                shaped(sh, "i1")
            ),
            format!("{} = arith.bitcast {} : {it} to {ft}", n[8], n[7]),
        ];
        for l in lines {
            self.line(&l);
        }
        n[8].clone()
    }

    /// `arith.constant` text of an array, or `None`.
    fn constant(&mut self, a: &Array, ty: &VTy) -> Option<String> {
        let e = ty.elem()?;
        let et = elem_text(e)?;
        let n = a.len();
        let one = |i: usize| -> Option<String> {
            Some(match (e, &a.data) {
                (ElemType::F32, Data::F32(v)) => format!("0x{:08X}", v[i].to_bits()),
                (ElemType::BF16, Data::F32(v)) => format!("0x{:04X}", v[i].to_bits() >> 16),
                (ElemType::F64, Data::F64(v)) => format!("0x{:016X}", v[i].to_bits()),
                (ElemType::Int(1), Data::I64(v)) => (v[i] != 0).to_string(),
                (ElemType::Int(_) | ElemType::UInt(_) | ElemType::Index, Data::I64(v)) => {
                    v[i].to_string()
                }
                _ => return None,
            })
        };
        match ty {
            // `true : i1` does not parse: a boolean literal has its type.
            VTy::Scalar(_) if n == 1 && e == ElemType::Int(1) => {
                Some(format!("arith.constant {}", one(0)?))
            }
            VTy::Scalar(_) if n == 1 => Some(format!("arith.constant {} : {et}", one(0)?)),
            VTy::Vector(_, shape) if !shape.is_empty() && shape.iter().product::<usize>() == n => {
                let t = shaped(Some(shape), &et);
                let first = one(0)?;
                let splat = (1..n).all(|i| one(i).as_deref() == Some(first.as_str()));
                if splat || n == 0 {
                    return Some(format!("arith.constant dense<{first}> : {t}"));
                }
                let all = (0..n).map(one).collect::<Option<Vec<_>>>()?;
                let flat = self.fresh("k");
                self.line(&format!(
                    "{flat} = arith.constant dense<[{}]> : vector<{n}x{et}>",
                    all.join(", ")
                ));
                Some(format!(
                    "vector.shape_cast {flat} : vector<{n}x{et}> to {t}"
                ))
            }
            _ => None,
        }
    }

    /// A value in its storage type (`to`: kernel -> storage).
    fn convert(&mut self, v: &str, e: ElemType, shape: Option<&[usize]>, to: bool) -> String {
        let Some(st) = storage(e) else {
            return v.to_string();
        };
        let kt = shaped(shape, &elem_text(e).unwrap_or_default());
        let stt = shaped(shape, st);
        let op = match e {
            ElemType::F32 | ElemType::F64 | ElemType::Int(64) | ElemType::UInt(64) => {
                return v.to_string();
            }
            ElemType::BF16 => {
                // By bits: a bf16 is the high half of its f32 (the stored
                // value is bf16-exact), NaN payloads and signs kept.
                let (i16t, i32t) = (shaped(shape, "i16"), shaped(shape, "i32"));
                let (a, b, c, k) = (
                    self.fresh("c"),
                    self.fresh("c"),
                    self.fresh("c"),
                    self.fresh("c"),
                );
                let r = self.fresh("c");
                self.line(&format!(
                    "{k} = arith.constant {} : {i32t}",
                    splat(shape, "16")
                ));
                if to {
                    self.line(&format!("{a} = arith.bitcast {v} : {kt} to {i16t}"));
                    self.line(&format!("{b} = arith.extui {a} : {i16t} to {i32t}"));
                    self.line(&format!("{c} = arith.shli {b}, {k} : {i32t}"));
                    self.line(&format!("{r} = arith.bitcast {c} : {i32t} to {stt}"));
                } else {
                    self.line(&format!("{a} = arith.bitcast {v} : {stt} to {i32t}"));
                    self.line(&format!("{b} = arith.shrui {a}, {k} : {i32t}"));
                    self.line(&format!("{c} = arith.trunci {b} : {i32t} to {i16t}"));
                    self.line(&format!("{r} = arith.bitcast {c} : {i16t} to {kt}"));
                }
                return r;
            }
            ElemType::Index => "arith.index_cast",
            ElemType::Int(1) if to => "arith.extui",
            _ if to => "arith.extsi",
            _ => "arith.trunci",
        };
        let r = self.fresh("c");
        let (from, into) = if to { (kt, stt) } else { (stt, kt) };
        self.line(&format!("{r} = {op} {v} : {from} to {into}"));
        r
    }

    /// The memref operand `slot` of a load/store with its indices, checked:
    /// returns (memref name, its type, safe index names).
    fn checked(
        &mut self,
        inst: &Inst,
        base: Slot,
        idx: &[Slot],
        vshape: &[usize],
    ) -> E<(String, String, Mem)> {
        let mem = self
            .mems
            .get(&base)
            .cloned()
            .ok_or_else(|| self.refuse(inst, "a memref that is not a kernel argument"))?;
        let rank = mem.shape.len();
        if idx.len() != rank || vshape.len() > rank {
            return Err(self.refuse(inst, "indices do not match the memref"));
        }
        let mut extent = vec![1usize; rank - vshape.len()];
        extent.extend_from_slice(vshape);
        if extent.iter().zip(&mem.shape).any(|(e, s)| e > s) {
            return Err(self.refuse(inst, "an access larger than its memref"));
        }
        for &i in idx {
            if self.ty(inst, i)? != VTy::Scalar(ElemType::Index) {
                return Err(self.refuse(inst, "indices that are not `index`"));
            }
        }
        let names = idx
            .iter()
            .map(|&s| self.name(inst, s))
            .collect::<E<Vec<_>>>()?;
        let st = storage(mem.elem).ok_or_else(|| self.refuse(inst, "memref element type"))?;
        let mt = format!("memref<{}{st}>", dims(&mem.shape));
        let m = self.name(inst, base)?;
        if rank == 0 {
            return Ok((format!("{m}[]"), mt, mem));
        }
        // ok = all(idx[d] <= shape[d] - extent[d]) (unsigned: negatives fail).
        let mut ok: Option<String> = None;
        for d in 0..rank {
            let lim = self.fresh("l");
            self.line(&format!(
                "{lim} = arith.constant {} : index",
                mem.shape[d] - extent[d]
            ));
            let c = self.fresh("b");
            self.line(&format!(
                "{c} = arith.cmpi ule, {}, {lim} : index",
                names[d]
            ));
            ok = Some(match ok {
                None => c,
                Some(p) => {
                    let a = self.fresh("b");
                    self.line(&format!("{a} = arith.andi {p}, {c} : i1"));
                    a
                }
            });
        }
        let ok = ok.unwrap_or_default();
        let id = self.checks.len();
        self.checks.push(Check {
            site: inst.site,
            arg: mem.arg,
            shape: mem.shape.clone(),
            extent: extent.clone(),
        });
        // The indices' buffer, for the message.
        let buf = self.fresh("ib");
        self.hoisted(&format!("{buf} = memref.alloca() : memref<{rank}xi64>"));
        let bad = self.fresh("b");
        let t = self.fresh("t");
        self.line(&format!("{t} = arith.constant true"));
        self.line(&format!("{bad} = arith.xori {ok}, {t} : i1"));
        let mut body = String::new();
        for (d, n) in names.iter().enumerate() {
            let _ = writeln!(
                body,
                "  %x{d} = arith.index_cast {n} : index to i64\n  %d{d} = arith.constant {d} : index\n  memref.store %x{d}, {buf}[%d{d}] : memref<{rank}xi64>"
            );
        }
        let _ = writeln!(
            body,
            "  %p = memref.extract_aligned_pointer_as_index {buf} : memref<{rank}xi64> -> index\n  %pi = arith.index_cast %p : index to i64\n  %id = arith.constant {id} : i64\n  func.call @tcc_jit_oob(%ctx, %id, %pi) : (i64, i64, i64) -> ()"
        );
        self.line(&format!("scf.if {bad} {{\n{body}}}"));
        let mut safe = Vec::with_capacity(rank);
        for n in &names {
            let s = self.fresh("i");
            self.line(&format!("{s} = arith.select {ok}, {n}, %c0 : index"));
            safe.push(s);
        }
        Ok((format!("{m}[{}]", safe.join(", ")), mt, mem))
    }

    fn load(&mut self, inst: &Inst) -> E<()> {
        let (base, idx, mask) = if inst.segments.is_empty() {
            (inst.args[0], &inst.args[1..], &[][..])
        } else {
            (inst.segment(0)[0], inst.segment(1), inst.segment(2))
        };
        if !mask.is_empty() || inst.res.len() != 1 {
            return Err(self.refuse(inst, "a masked load"));
        }
        let rt = inst.res_ty[0].clone();
        let (vshape, scalar) = match &rt {
            VTy::Vector(_, s) if !s.is_empty() => (s.clone(), false),
            VTy::Scalar(_) => (Vec::new(), true),
            _ => return Err(self.refuse(inst, "a load of this type")),
        };
        let (at, mt, mem) = self.checked(inst, base, idx, &vshape)?;
        if Some(mem.elem) != rt.elem() {
            return Err(self.refuse(inst, "a load of another element type"));
        }
        let st = storage(mem.elem).unwrap_or("f32");
        let raw = self.fresh("r");
        if scalar {
            self.line(&format!("{raw} = memref.load {at} : {mt}"));
        } else {
            let pad = self.fresh("z");
            let zero = if st == "i64" { "0" } else { "0.0" };
            self.line(&format!("{pad} = arith.constant {zero} : {st}"));
            let inb = vec!["true"; vshape.len()].join(", ");
            self.line(&format!(
                "{raw} = vector.transfer_read {at}, {pad} {{in_bounds = [{inb}]}} : {mt}, {}",
                shaped(Some(&vshape), st)
            ));
        }
        let v = self.convert(&raw, mem.elem, (!scalar).then_some(&vshape[..]), false);
        self.names.insert(inst.res[0], v);
        self.tys.insert(inst.res[0], rt);
        Ok(())
    }

    fn store(&mut self, inst: &Inst) -> E<()> {
        let (val, base, idx, mask) = if inst.segments.is_empty() {
            (inst.args[0], inst.args[1], &inst.args[2..], &[][..])
        } else {
            (
                inst.segment(0)[0],
                inst.segment(1)[0],
                inst.segment(2),
                inst.segment(3),
            )
        };
        if !mask.is_empty() {
            return Err(self.refuse(inst, "a masked store"));
        }
        let vt = self.ty(inst, val)?;
        let (vshape, scalar) = match &vt {
            VTy::Vector(_, s) if !s.is_empty() => (s.clone(), false),
            VTy::Scalar(_) => (Vec::new(), true),
            _ => return Err(self.refuse(inst, "a store of this type")),
        };
        let v = self.name(inst, val)?;
        let (at, mt, mem) = self.checked(inst, base, idx, &vshape)?;
        if Some(mem.elem) != vt.elem() {
            return Err(self.refuse(inst, "a store of another element type"));
        }
        let s = self.convert(&v, mem.elem, (!scalar).then_some(&vshape[..]), true);
        let st = storage(mem.elem).unwrap_or("f32");
        if scalar {
            self.line(&format!("memref.store {s}, {at} : {mt}"));
        } else {
            let inb = vec!["true"; vshape.len()].join(", ");
            self.line(&format!(
                "vector.transfer_write {s}, {at} {{in_bounds = [{inb}]}} : {}, {mt}",
                shaped(Some(&vshape), st)
            ));
        }
        Ok(())
    }

    /// A pure op run by the runtime: operands stored to stack buffers in
    /// their storage types, `tcc_jit_op` called, results loaded back.
    fn runtime(&mut self, inst: &Inst) -> E<()> {
        let mut slots: Vec<Slot> = inst.args.clone();
        let fused = if self.fuse {
            inst.fused.map(|(a, b, first)| {
                let n = slots.len() as Slot;
                slots.push(a);
                slots.push(b);
                (n, n + 1, first)
            })
        } else {
            None
        };
        let mut vals = Vec::new();
        for &s in &slots {
            if self.mems.contains_key(&s) {
                return Err(self.refuse(inst, "a memref operand"));
            }
            let t = self.ty(inst, s)?;
            vals.push((self.name(inst, s)?, t));
        }
        let n_args = slots.len();
        let mut table = Vec::new();
        for (v, t) in &vals {
            let (ptr, buf, bt, vshape) = self.stack_buffer(inst, t)?;
            table.push(ptr);
            let e = t.elem().unwrap_or(ElemType::F32);
            match &vshape {
                None => {
                    let s = self.convert(v, e, None, true);
                    self.line(&format!("memref.store {s}, {buf}[%c0] : {bt}"));
                }
                Some(shape) => {
                    let s = self.convert(v, e, Some(shape), true);
                    let st = storage(e).unwrap_or("f32");
                    let at = vec!["%c0"; shape.len()].join(", ");
                    let inb = vec!["true"; shape.len()].join(", ");
                    self.line(&format!(
                        "vector.transfer_write {s}, {buf}[{at}] {{in_bounds = [{inb}]}} : {}, {bt}",
                        shaped(Some(shape), st)
                    ));
                }
            }
        }
        let mut outs = Vec::new();
        for t in &inst.res_ty {
            let (ptr, buf, bt, vshape) = self.stack_buffer(inst, t)?;
            table.push(ptr);
            outs.push((buf, bt, vshape, t.clone()));
        }
        // The pointer table.
        let tb = self.fresh("pt");
        self.hoisted(&format!(
            "{tb} = memref.alloca() : memref<{}xi64>",
            table.len().max(1)
        ));
        for (i, p) in table.iter().enumerate() {
            let c = self.fresh("n");
            self.hoisted(&format!("{c} = arith.constant {i} : index"));
            self.hoisted(&format!(
                "memref.store {p}, {tb}[{c}] : memref<{}xi64>",
                table.len().max(1)
            ));
        }
        let tp = self.fresh("p");
        self.hoisted(&format!(
            "{tp} = memref.extract_aligned_pointer_as_index {tb} : memref<{}xi64> -> index",
            table.len().max(1)
        ));
        let tpi = self.fresh("p");
        self.hoisted(&format!("{tpi} = arith.index_cast {tp} : index to i64"));
        let id = self.rt.len();
        let idc = self.fresh("n");
        self.line(&format!("{idc} = arith.constant {id} : i64"));
        self.line(&format!(
            "func.call @tcc_jit_op(%ctx, {idc}, {tpi}) : (i64, i64, i64) -> ()"
        ));
        for (k, (buf, bt, vshape, t)) in outs.into_iter().enumerate() {
            let e = t.elem().unwrap_or(ElemType::F32);
            let st = storage(e).unwrap_or("f32");
            let r = inst.res[k];
            let v = match &vshape {
                None => {
                    let raw = self.fresh("r");
                    self.line(&format!("{raw} = memref.load {buf}[%c0] : {bt}"));
                    self.convert(&raw, e, None, false)
                }
                Some(shape) => {
                    let raw = self.fresh("r");
                    let pad = self.fresh("z");
                    let zero = if st == "i64" { "0" } else { "0.0" };
                    self.line(&format!("{pad} = arith.constant {zero} : {st}"));
                    let at = vec!["%c0"; shape.len()].join(", ");
                    let inb = vec!["true"; shape.len()].join(", ");
                    self.line(&format!(
                        "{raw} = vector.transfer_read {buf}[{at}], {pad} {{in_bounds = [{inb}]}} : {bt}, {}",
                        shaped(Some(shape), st)
                    ));
                    self.convert(&raw, e, Some(shape), false)
                }
            };
            self.names.insert(r, v);
            self.tys.insert(r, t);
        }
        // The runtime's copy of the op: operands 0..n, results after.
        let mut op = inst.clone();
        op.args = (0..inst.args.len() as Slot).collect();
        op.res = (n_args as Slot..(n_args + inst.res.len()) as Slot).collect();
        op.fused = fused;
        op.regions = Vec::new();
        if !inst.segments.is_empty() {
            op.segments = inst.segments.clone();
        }
        self.rt.push(op);
        Ok(())
    }

    /// A hoisted stack buffer for a scalar or vector value: (pointer as
    /// i64, buffer, its type, the vector shape).
    #[allow(clippy::type_complexity)]
    fn stack_buffer(
        &mut self,
        inst: &Inst,
        t: &VTy,
    ) -> E<(String, String, String, Option<Vec<usize>>)> {
        let (e, shape) = match t {
            VTy::Scalar(e) => (*e, None),
            VTy::Vector(e, s) if !s.is_empty() => (*e, Some(s.clone())),
            _ => return Err(self.refuse(inst, "an operand type the runtime cannot pass")),
        };
        if elem_text(e).is_none() {
            return Err(self.refuse(inst, "an element type the compiled engine does not hold"));
        }
        let st = storage(e).ok_or_else(|| self.refuse(inst, "element type"))?;
        let elems: usize = shape.as_ref().map_or(1, |s| s.iter().product());
        let bytes = elems * if st == "f32" { 4 } else { 8 };
        let buf = self.fresh("sb");
        let bt = match &shape {
            Some(s) => format!("memref<{}{st}>", dims(s)),
            None => format!("memref<1x{st}>"),
        };
        if bytes > HEAP_ABOVE {
            // A whole-block operand: on the heap, freed before the return.
            self.hoisted(&format!(
                "{buf} = memref.alloc() {{alignment = 64 : i64}} : {bt}"
            ));
            self.heap.push((buf.clone(), bt.clone()));
        } else {
            self.stack += bytes;
            self.hoisted(&format!("{buf} = memref.alloca() : {bt}"));
        }
        let p = self.fresh("p");
        self.hoisted(&format!(
            "{p} = memref.extract_aligned_pointer_as_index {buf} : {bt} -> index"
        ));
        let pi = self.fresh("p");
        self.hoisted(&format!("{pi} = arith.index_cast {p} : index to i64"));
        Ok((pi, buf, bt, shape))
    }
}
