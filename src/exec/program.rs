//! A kernel module compiled once into a form the interpreter runs without
//! calling into MLIR: values numbered into frame slots, attributes decoded,
//! every op resolved to an [`Kind`]. An op the executor has no semantics for
//! is refused here, before anything runs, naming the op and its location.

use std::collections::HashMap;

use mlir_sys::{MlirAttribute, MlirBlock, MlirType, MlirValue};

use super::ExecError;
use super::array::{Array, Data};
use super::dtype::ElemType;
use crate::ffi;
use crate::mosaic::types::{Ty, split_top};
use crate::serde::ir::{self, Op};

/// The most elements a value or buffer of the kernel may have (1 GiB of
/// `f32`): a kernel's vectors and blocks are far smaller on a TPU.
pub(crate) const MAX_ELEMENTS: usize = 1 << 28;

/// The fewest operands and results the interpreter reads of an op.
fn arity(kind: &Kind) -> (usize, usize) {
    match kind {
        Kind::Const(_)
        | Kind::Iota(_)
        | Kind::ConstantMask(_)
        | Kind::DeviceId
        | Kind::CoreId
        | Kind::IterationBound(_)
        | Kind::SemBarrier => (0, 1),
        Kind::Alloca | Kind::SemAlloc => (0, 1),
        Kind::Bin(_) | Kind::CmpI(_) | Kind::CmpF(_) => (2, 1),
        Kind::AllReduce { .. } => (1, 1),
        Kind::Un(_)
        | Kind::Cast(_)
        | Kind::Broadcast
        | Kind::ShapeCast
        | Kind::Reduce(..)
        | Kind::Reduction(_)
        | Kind::Scan(..)
        | Kind::ReduceIndex(..)
        | Kind::Extract(_)
        | Kind::ExtractStrided { .. }
        | Kind::Transpose(_)
        | Kind::Identity
        | Kind::MemView
        | Kind::SemRead => (1, 1),
        Kind::Select | Kind::Fma | Kind::Matmul { .. } => (3, 1),
        Kind::PackElementwise(_)
        | Kind::UnpackElementwise { .. }
        | Kind::VectorBitcast { .. }
        | Kind::MemBitcast => (1, 1),
        Kind::DynamicGather(_) | Kind::LoadIdx => (2, 1),
        Kind::Sort { .. } => (2, 3),
        Kind::StoreIdx { .. } => (3, 0),
        Kind::ExpandLoad => (3, 1),
        Kind::CompressStore { .. } => (4, 0),
        Kind::ScanCount => (2, 2),
        Kind::IndirectDma { .. } => (4, 0),
        Kind::WaitIndirectDma => (3, 0),
        Kind::MultiReduce(..)
        | Kind::Insert(_)
        | Kind::InsertStrided { .. }
        | Kind::DynamicRotate { .. } => (2, 1),
        Kind::Concat(_) => (1, 1),
        Kind::Load { .. } | Kind::ScalarLoad | Kind::MemSlice => (1, 1),
        Kind::Store { .. } | Kind::ScalarStore => (2, 0),
        Kind::CreateMask => (0, 1),
        Kind::For => (3, 0),
        Kind::If | Kind::IndexSwitch(_) => (1, 0),
        Kind::SemWait => (2, 0),
        Kind::SemSignal => (2, 0),
        Kind::EnqueueDma | Kind::WaitDma { .. } => (2, 0),
        Kind::WaitDma2 => (3, 0),
        Kind::While
        | Kind::Region
        | Kind::Nop
        | Kind::SubcoreBarrier
        | Kind::Call(_)
        | Kind::Yield => (0, 0),
    }
}

/// A vector (a value the interpreter materialises) of more than
/// [`MAX_ELEMENTS`]; memrefs are views of buffers, whose allocations are
/// bounded when made (`RunOptions::max_bytes`).
fn too_large(t: &VTy) -> bool {
    if !matches!(t, VTy::Vector(..)) {
        return false;
    }
    t.shape()
        .iter()
        .filter(|&&d| d != super::DYNAMIC_DIM)
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .is_none_or(|n| n > MAX_ELEMENTS)
}

/// A value's slot in its function's frame.
pub(crate) type Slot = u32;

/// The type of a value, as far as execution needs it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum VTy {
    /// A scalar (integer, index, float).
    Scalar(ElemType),
    /// A vector.
    Vector(ElemType, Vec<usize>),
    /// A memref (element, shape, memory space name).
    MemRef(ElemType, Vec<usize>, String),
    /// Anything else (kept for messages).
    Other(String),
}

impl VTy {
    pub(crate) fn parse(text: &str) -> VTy {
        match Ty::parse(text) {
            Ty::Vector { shape, elem } => match ElemType::parse(&elem) {
                Some(e) if shape.iter().all(|&d| d >= 0) => {
                    VTy::Vector(e, shape.iter().map(|&d| d as usize).collect())
                }
                _ => VTy::Other(text.to_string()),
            },
            Ty::MemRef {
                shape, elem, space, ..
            } => match ElemType::parse(&elem) {
                // `?` (a dynamic size, given by an operand) is kept as
                // `DYNAMIC_DIM`.
                Some(e) if shape.iter().all(|&d| d >= 0 || d == i64::MIN) => VTy::MemRef(
                    e,
                    shape
                        .iter()
                        .map(|&d| {
                            if d == i64::MIN {
                                super::DYNAMIC_DIM
                            } else {
                                d as usize
                            }
                        })
                        .collect(),
                    space.map(|s| s.name).unwrap_or_else(|| "any".to_string()),
                ),
                _ => VTy::Other(text.to_string()),
            },
            Ty::Other(t) => match ElemType::parse(&t) {
                Some(e) => VTy::Scalar(e),
                None => VTy::Other(t),
            },
            Ty::UnrankedMemRef => VTy::Other(text.to_string()),
        }
    }

    /// Element type of a scalar, vector or memref.
    pub(crate) fn elem(&self) -> Option<ElemType> {
        match self {
            VTy::Scalar(e) | VTy::Vector(e, _) | VTy::MemRef(e, _, _) => Some(*e),
            VTy::Other(_) => None,
        }
    }

    /// Shape of a vector or memref; empty for a scalar.
    pub(crate) fn shape(&self) -> &[usize] {
        match self {
            VTy::Vector(_, s) | VTy::MemRef(_, s, _) => s,
            _ => &[],
        }
    }
}

/// Binary elementwise operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bin {
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    RemSI,
    RemUI,
    CeilDivSI,
    CeilDivUI,
    FloorDivSI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRSI,
    ShRUI,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
    AddF,
    SubF,
    MulF,
    DivF,
    RemF,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    PowF,
    Atan2,
    CopySign,
}

/// Unary elementwise operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Un {
    NegF,
    AbsF,
    AbsI,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log1p,
    Log2,
    Log10,
    Tanh,
    Sqrt,
    Rsqrt,
    Cbrt,
    Sin,
    Cos,
    Tan,
    Atan,
    Asin,
    Acos,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
    RoundEven,
    Trunc,
    Logistic,
    Reciprocal,
    CountLeadingZeros,
    CountTrailingZeros,
    PopCount,
    IsNaN,
    IsInf,
    IsFinite,
    /// `tpu.weird`: NaN or infinite (Pallas lowers `jnp.isfinite` to its
    /// negation).
    Weird,
}

/// Element-type conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cast {
    /// Integer to integer, zero-extending (also `index_castui`).
    ExtUI,
    /// Integer to integer, sign-extending (also `trunci`, `index_cast`).
    ExtSI,
    /// Float to float.
    FloatToFloat,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    /// Same bits, another type of the same width.
    Bitcast,
}

/// Reduction kinds (`vector.kind`, `tpu.reduction_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Red {
    Add,
    Mul,
    MaxF,
    MinF,
    MaxNumF,
    MinNumF,
    MaxSI,
    MinSI,
    MaxUI,
    MinUI,
    And,
    Or,
    XOr,
    ArgMax,
    ArgMin,
}

impl Red {
    pub(crate) fn parse(text: &str) -> Option<Red> {
        // `#vector.kind<add>`, `#tpu.reduction_kind<max>`, or the bare word.
        let word = text
            .rsplit('<')
            .next()
            .unwrap_or(text)
            .trim_end_matches('>')
            .trim();
        Some(match word {
            "add" | "sum" => Red::Add,
            "mul" => Red::Mul,
            "maximumf" | "maxf" | "max" => Red::MaxF,
            "minimumf" | "minf" | "min" => Red::MinF,
            "maxnumf" => Red::MaxNumF,
            "minnumf" => Red::MinNumF,
            "maxsi" => Red::MaxSI,
            "minsi" => Red::MinSI,
            "maxui" => Red::MaxUI,
            "minui" => Red::MinUI,
            "and" => Red::And,
            "or" => Red::Or,
            "xor" => Red::XOr,
            "arg_max" => Red::ArgMax,
            "arg_min" => Red::ArgMin,
            _ => return None,
        })
    }
}

/// `#tpu.dot_dimension_numbers<...>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DotDims {
    pub lhs_contracting: Vec<usize>,
    pub rhs_contracting: Vec<usize>,
    pub lhs_non_contracting: Vec<usize>,
    pub rhs_non_contracting: Vec<usize>,
    /// Output dims as (operand 0 = lhs / 1 = rhs, dim) pairs.
    pub output: Vec<(usize, usize)>,
    pub lhs_batch: Vec<usize>,
    pub rhs_batch: Vec<usize>,
}

/// What an op does.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Const(Array),
    Bin(Bin),
    Un(Un),
    CmpI(i64),
    CmpF(i64),
    Select,
    Cast(Cast),
    Fma,
    /// `vector.load` / `tpu.vector_load` / `tpu.load`: base, indices, mask?
    Load {
        strides: Vec<i64>,
    },
    /// `vector.store` / `tpu.vector_store` / `tpu.store`: value, base, indices, mask?
    Store {
        strides: Vec<i64>,
        add: bool,
        /// `tpu.store`'s `sublane_mask` when some sublane is off.
        sublanes: Option<Vec<bool>>,
    },
    /// `memref.load`.
    ScalarLoad,
    /// `memref.store` (value, base, indices).
    ScalarStore,
    Broadcast,
    ShapeCast,
    MultiReduce(Red, Vec<usize>),
    /// `tpu.reduce`: no accumulator.
    Reduce(Red, Vec<usize>),
    /// `tpu.all_reduce`: the reduction along `dim` in every element of the
    /// result (`sum` of a mask counts its set lanes, `find_first_set` gives
    /// the first set lane's index or the lane count).
    AllReduce {
        kind: String,
        dim: usize,
    },
    /// `vector.reduction` to a scalar, optional accumulator.
    Reduction(Red),
    Scan(Red, usize),
    ReduceIndex(Red, usize),
    Extract(Vec<i64>),
    Insert(Vec<i64>),
    ExtractStrided {
        offsets: Vec<usize>,
        sizes: Vec<usize>,
        strides: Vec<usize>,
    },
    InsertStrided {
        offsets: Vec<usize>,
        strides: Vec<usize>,
    },
    Transpose(Vec<usize>),
    Iota(Vec<usize>),
    ConstantMask(Vec<usize>),
    CreateMask,
    Concat(usize),
    DynamicRotate {
        dim: usize,
        stride: Option<(i64, usize)>,
    },
    /// `tpu.pack_elementwise`: sources converted to `target` and packed
    /// into the result's integers, source 0 in the lowest bits.
    PackElementwise(ElemType),
    /// `tpu.unpack_elementwise`: sub-element `index` (0: lowest bits) of
    /// type `source`, converted to the result type.
    UnpackElementwise {
        index: usize,
        source: ElemType,
    },
    /// `tpu.dynamic_gather` along one dimension (indices taken modulo its size).
    DynamicGather(usize),
    /// `tpu.bitcast` (sub-elements along the second-minor dimension) or
    /// `vector.bitcast` (along the minor dimension, `minor`).
    VectorBitcast {
        minor: bool,
    },
    /// `tpu.memref_bitcast`: a view of another element type.
    MemBitcast,
    /// `tpu.sort`: (keys, values, mask?) -> (mask, keys, values), stable.
    Sort {
        descending: bool,
    },
    /// `tpu.vector_load_idx`: base, one index vector per dimension, mask?
    LoadIdx,
    /// `tpu.vector_store_idx`: value, base, index vectors, mask?
    StoreIdx {
        add: bool,
    },
    /// `tpu.expand_load_vreg`: base, start indices, mask.
    ExpandLoad,
    /// `tpu.compress_store_vreg`: value, base, start indices, mask.
    CompressStore {
        add: bool,
    },
    /// `tpu.scan_count`: (mask, values) -> (last-occurrence mask, running counts).
    ScanCount,
    /// `tpu.enqueue_indirect_dma`: source, target, offsets, semaphore.
    IndirectDma {
        add: bool,
    },
    /// `tpu.wait_indirect_dma`: semaphore, source, target.
    WaitIndirectDma,
    Matmul {
        dims: DotDims,
        transpose_lhs: bool,
        transpose_rhs: bool,
    },
    MemSlice,
    MemView,
    Alloca,
    Region,
    SemAlloc,
    EnqueueDma,
    WaitDma {
        wait_target: bool,
    },
    WaitDma2,
    SemSignal,
    SemWait,
    SemRead,
    SemBarrier,
    DeviceId,
    CoreId,
    IterationBound(usize),
    /// Returns its first operand (`tpu.assume_multiple`, layouts, casts of memory spaces).
    Identity,
    /// No effect on values (`tpu.trace_start`, `tpu.delay`, `tpu.log`).
    Nop,
    /// `tpu.barrier` (`plsc.subcore_barrier`): waits for every vector
    /// subcore of its SparseCore.
    SubcoreBarrier,
    For,
    If,
    While,
    IndexSwitch(Vec<i64>),
    Call(String),
    /// A terminator: `scf.yield`, `tpu.yield`, `func.return`, `scf.condition`.
    Yield,
}

/// One op, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Inst {
    pub kind: Kind,
    pub args: Vec<Slot>,
    /// Operand segments (start, length) from `operandSegmentSizes`; empty
    /// for ops without it (each operand its own).
    pub segments: Vec<(usize, usize)>,
    pub res: Vec<Slot>,
    pub res_ty: Vec<VTy>,
    /// Operand types (memory spaces of memrefs, element types).
    pub arg_ty: Vec<VTy>,
    pub regions: Vec<Block>,
    /// Index into [`Program::sites`].
    pub site: u32,
    /// For an `addf`/`subf` with an operand that is a `mulf` used only
    /// here: that product's operands `(a, b)` and whether the product is
    /// the first operand (see [`super::RunOptions::fuse_multiply_add`]).
    pub fused: Option<(Slot, Slot, bool)>,
    /// Bit `i`: operand `i` (then the fused product's two) is the result of
    /// an op that flushes subnormals ([`Kind::flushes`]), so it holds none.
    pub flushed_args: u64,
}

impl Inst {
    /// A placeholder op for the pipeline's own copies (site 0).
    pub(crate) fn driver() -> Inst {
        Inst {
            kind: Kind::Nop,
            args: Vec::new(),
            segments: Vec::new(),
            res: Vec::new(),
            res_ty: Vec::new(),
            arg_ty: Vec::new(),
            regions: Vec::new(),
            site: 0,
            fused: None,
            flushed_args: 0,
        }
    }

    /// The slots of operand segment `i` (ODS operand order).
    pub(crate) fn segment(&self, i: usize) -> &[Slot] {
        if self.segments.is_empty() {
            return self.args.get(i..i + 1).unwrap_or(&[]);
        }
        match self.segments.get(i) {
            Some(&(s, n)) => &self.args[s..s + n],
            None => &[],
        }
    }
}

/// A block: its arguments and ops (the last one its terminator).
#[derive(Clone, Debug, Default)]
pub(crate) struct Block {
    pub args: Vec<Slot>,
    pub insts: Vec<Inst>,
}

/// Where an op is, for messages.
#[derive(Clone, Debug)]
pub(crate) struct Site {
    pub op: String,
    pub loc: String,
}

/// A compiled function.
#[derive(Clone, Debug)]
pub(crate) struct Func {
    pub name: String,
    pub slots: usize,
    pub body: Block,
    pub arg_ty: Vec<VTy>,
}

/// Every function of a kernel module, compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    pub funcs: Vec<Func>,
    pub by_name: HashMap<String, usize>,
    pub sites: Vec<Site>,
}

impl Program {
    pub(crate) fn func(&self, name: &str) -> Option<&Func> {
        self.by_name.get(name).map(|&i| &self.funcs[i])
    }

    /// Compiles every `func.func` of a module.
    pub(crate) fn compile(module: Op<'_>) -> Result<Program, ExecError> {
        let mut p = Program::default();
        // Site 0: the pipeline's block copies around the kernel body.
        p.sites.push(Site {
            op: "block copy".into(),
            loc: String::new(),
        });
        let body = ir::region_blocks(module.region(0));
        let Some(&block) = body.first() else {
            return Ok(p);
        };
        let mut child = ir::block_first_op(block);
        while let Some(op) = child {
            child = op.next();
            if op.name() != "func.func" {
                continue;
            }
            let name = op
                .attr("sym_name")
                .map(|a| unquote(&ffi::attr_text(a)))
                .unwrap_or_default();
            let mut c = FuncCompiler {
                program: &mut p,
                slots: HashMap::new(),
            };
            let blocks = ir::region_blocks(op.region(0));
            let Some(&entry) = blocks.first() else {
                continue;
            };
            if blocks.len() > 1 {
                return Err(c.refuse(op, "functions with more than one block are not supported"));
            }
            let mut body = c.block(entry)?;
            let mut uses = HashMap::new();
            drop_dead_ops(&mut body);
            count_uses(&body, &mut uses);
            fuse_multiply_adds(&mut body, &uses);
            let mut flushed = std::collections::HashSet::new();
            flushing_results(&body, &mut flushed);
            mark_flushed_args(&mut body, &flushed);
            let arg_ty: Vec<VTy> = ir::block_args(entry)
                .into_iter()
                .map(|v| VTy::parse(&ffi::type_text(ir::value_type(v))))
                .collect();
            if let Some(t) = arg_ty.iter().find(|t| too_large(t)) {
                return Err(c.refuse(
                    op,
                    &format!(
                        "an argument of type `{}` has more than 2^28 elements",
                        ty_text(t)
                    ),
                ));
            }
            let slots = c.slots.len();
            p.by_name.insert(name.clone(), p.funcs.len());
            p.funcs.push(Func {
                name,
                slots,
                body,
                arg_ty,
            });
        }
        Ok(p)
    }
}

fn unquote(s: &str) -> String {
    s.trim().trim_matches('"').to_string()
}

struct FuncCompiler<'p> {
    program: &'p mut Program,
    slots: HashMap<usize, Slot>,
}

fn value_type(v: MlirValue) -> MlirType {
    ir::value_type(v)
}

impl FuncCompiler<'_> {
    fn site(&mut self, op: Op<'_>) -> u32 {
        let loc = location_text(op);
        self.program.sites.push(Site { op: op.name(), loc });
        (self.program.sites.len() - 1) as u32
    }

    fn refuse(&mut self, op: Op<'_>, what: &str) -> ExecError {
        ExecError::at(
            format!("`{}`: {what}", op.name()),
            op.name(),
            location_text(op),
        )
    }

    fn def(&mut self, v: MlirValue) -> Slot {
        let n = self.slots.len() as Slot;
        *self.slots.entry(v.ptr as usize).or_insert(n)
    }

    fn usage(&mut self, op: Op<'_>, v: MlirValue) -> Result<Slot, ExecError> {
        match self.slots.get(&(v.ptr as usize)) {
            Some(&s) => Ok(s),
            None => Err(self.refuse(op, "uses a value defined outside its function")),
        }
    }

    fn block(&mut self, block: MlirBlock) -> Result<Block, ExecError> {
        let args = ir::block_args(block)
            .into_iter()
            .map(|v| self.def(v))
            .collect();
        let mut insts = Vec::new();
        let mut child = ir::block_first_op(block);
        while let Some(op) = child {
            child = op.next();
            insts.push(self.inst(op)?);
        }
        Ok(Block { args, insts })
    }

    fn inst(&mut self, op: Op<'_>) -> Result<Inst, ExecError> {
        let name = op.name();
        let mut args = Vec::with_capacity(op.num_operands());
        let mut arg_ty = Vec::with_capacity(op.num_operands());
        for v in op.operands() {
            args.push(self.usage(op, v)?);
            arg_ty.push(VTy::parse(&ffi::type_text(value_type(v))));
        }
        let mut res = Vec::new();
        let mut res_ty = Vec::new();
        for i in 0..op.num_results() {
            let v = op.result(i);
            res.push(self.def(v));
            res_ty.push(VTy::parse(&ffi::type_text(value_type(v))));
        }
        let mut regions = Vec::new();
        for r in 0..op.num_regions() {
            let blocks = ir::region_blocks(op.region(r));
            match blocks.as_slice() {
                [] => regions.push(Block::default()),
                [b] => regions.push(self.block(*b)?),
                _ => return Err(self.refuse(op, "regions with several blocks are not supported")),
            }
        }
        if let Some(t) = res_ty.iter().find(|t| too_large(t)) {
            return Err(self.refuse(
                op,
                &format!(
                    "a value of type `{}` has more than 2^28 elements",
                    ty_text(t)
                ),
            ));
        }
        let kind = self.kind(op, &name, &arg_ty, &res_ty)?;
        let segments = segments(op, args.len());
        let (min_args, min_res) = arity(&kind);
        if args.len() < min_args || res.len() < min_res {
            return Err(self.refuse(
                op,
                &format!(
                    "has {} operand(s) and {} result(s); the executor needs at least {min_args} and {min_res}",
                    args.len(),
                    res.len()
                ),
            ));
        }
        let needs_segments = matches!(
            kind,
            Kind::EnqueueDma
                | Kind::WaitDma { .. }
                | Kind::WaitDma2
                | Kind::SemSignal
                | Kind::MemSlice
        );
        if needs_segments && segments.iter().map(|s| s.1).sum::<usize>() != args.len() {
            return Err(self.refuse(op, "has no `operandSegmentSizes` matching its operands"));
        }
        let site = self.site(op);
        Ok(Inst {
            kind,
            args,
            segments,
            res,
            res_ty,
            arg_ty,
            regions,
            site,
            fused: None,
            flushed_args: 0,
        })
    }

    fn kind(
        &mut self,
        op: Op<'_>,
        name: &str,
        arg_ty: &[VTy],
        res_ty: &[VTy],
    ) -> Result<Kind, ExecError> {
        let attr = |n: &str| op.attr(n);
        let text = |n: &str| op.attr(n).map(ffi::attr_text);
        // `DenseI64ArrayAttr` or `DenseI32ArrayAttr` (`tpu.strided_load`'s
        // and `tpu.vector_store`'s strides are `i32`).
        let i64s = |n: &str| {
            let a = op.attr(n);
            a.and_then(ir::as_i64_array)
                .or_else(|| {
                    a.and_then(ir::as_i32_array)
                        .map(|v| v.into_iter().map(i64::from).collect())
                })
                .unwrap_or_default()
        };
        let usizes = |n: &str| -> Vec<usize> {
            let a = op.attr(n);
            a.and_then(ir::as_i64_array)
                .or_else(|| {
                    a.and_then(ir::as_i32_array)
                        .map(|v| v.into_iter().map(i64::from).collect())
                })
                .or_else(|| {
                    a.and_then(ir::as_array).map(|l| {
                        l.into_iter()
                            .filter_map(|x| ir::as_int(x).map(|(v, _)| v))
                            .collect()
                    })
                })
                .unwrap_or_default()
                .into_iter()
                .map(|v| v.max(0) as usize)
                .collect()
        };
        let int = |n: &str| op.attr(n).and_then(ir::as_int).map(|(v, _)| v);
        let flag = |n: &str| op.attr(n).and_then(ir::as_bool).unwrap_or(false);
        let red = |n: &str| text(n).as_deref().and_then(Red::parse);
        let k = match name {
            "arith.constant" => {
                let a = attr("value").ok_or_else(|| self.refuse(op, "has no `value`"))?;
                let ty = res_ty.first().cloned().unwrap_or(VTy::Other(String::new()));
                Kind::Const(constant(a, &ty).ok_or_else(|| {
                    self.refuse(
                        op,
                        &format!("constant of type `{}` is not supported", ty_text(&ty)),
                    )
                })?)
            }
            "arith.addi" => Kind::Bin(Bin::AddI),
            "arith.subi" => Kind::Bin(Bin::SubI),
            "arith.muli" => Kind::Bin(Bin::MulI),
            "arith.divsi" => Kind::Bin(Bin::DivSI),
            "arith.divui" => Kind::Bin(Bin::DivUI),
            "arith.remsi" => Kind::Bin(Bin::RemSI),
            "arith.remui" => Kind::Bin(Bin::RemUI),
            "arith.ceildivsi" => Kind::Bin(Bin::CeilDivSI),
            "arith.ceildivui" => Kind::Bin(Bin::CeilDivUI),
            "arith.floordivsi" => Kind::Bin(Bin::FloorDivSI),
            "arith.andi" => Kind::Bin(Bin::AndI),
            "arith.ori" => Kind::Bin(Bin::OrI),
            "arith.xori" => Kind::Bin(Bin::XOrI),
            "arith.shli" => Kind::Bin(Bin::ShLI),
            "arith.shrsi" => Kind::Bin(Bin::ShRSI),
            "arith.shrui" => Kind::Bin(Bin::ShRUI),
            "arith.maxsi" => Kind::Bin(Bin::MaxSI),
            "arith.minsi" => Kind::Bin(Bin::MinSI),
            "arith.maxui" => Kind::Bin(Bin::MaxUI),
            "arith.minui" => Kind::Bin(Bin::MinUI),
            "arith.addf" => Kind::Bin(Bin::AddF),
            "arith.subf" => Kind::Bin(Bin::SubF),
            "arith.mulf" => Kind::Bin(Bin::MulF),
            "arith.divf" => Kind::Bin(Bin::DivF),
            "arith.remf" => Kind::Bin(Bin::RemF),
            "arith.maximumf" => Kind::Bin(Bin::MaximumF),
            "arith.minimumf" => Kind::Bin(Bin::MinimumF),
            "arith.maxnumf" => Kind::Bin(Bin::MaxNumF),
            "arith.minnumf" => Kind::Bin(Bin::MinNumF),
            "math.powf" => Kind::Bin(Bin::PowF),
            "math.atan2" => Kind::Bin(Bin::Atan2),
            "math.copysign" => Kind::Bin(Bin::CopySign),
            "arith.negf" => Kind::Un(Un::NegF),
            "math.absf" => Kind::Un(Un::AbsF),
            "math.absi" => Kind::Un(Un::AbsI),
            "math.exp" => Kind::Un(Un::Exp),
            "math.exp2" => Kind::Un(Un::Exp2),
            "math.expm1" => Kind::Un(Un::Expm1),
            "math.log" => Kind::Un(Un::Log),
            "math.log1p" => Kind::Un(Un::Log1p),
            "math.log2" => Kind::Un(Un::Log2),
            "math.log10" => Kind::Un(Un::Log10),
            "math.tanh" => Kind::Un(Un::Tanh),
            "math.sqrt" => Kind::Un(Un::Sqrt),
            "math.rsqrt" => Kind::Un(Un::Rsqrt),
            "math.cbrt" => Kind::Un(Un::Cbrt),
            "math.sin" => Kind::Un(Un::Sin),
            "math.cos" => Kind::Un(Un::Cos),
            "math.tan" => Kind::Un(Un::Tan),
            "math.atan" => Kind::Un(Un::Atan),
            "math.asin" => Kind::Un(Un::Asin),
            "math.acos" => Kind::Un(Un::Acos),
            "math.sinh" => Kind::Un(Un::Sinh),
            "math.cosh" => Kind::Un(Un::Cosh),
            "math.asinh" => Kind::Un(Un::Asinh),
            "math.acosh" => Kind::Un(Un::Acosh),
            "math.atanh" => Kind::Un(Un::Atanh),
            "math.erf" => Kind::Un(Un::Erf),
            "math.erfc" => Kind::Un(Un::Erfc),
            "math.floor" => Kind::Un(Un::Floor),
            "math.ceil" => Kind::Un(Un::Ceil),
            "math.round" => Kind::Un(Un::Round),
            "math.roundeven" => Kind::Un(Un::RoundEven),
            "math.trunc" => Kind::Un(Un::Trunc),
            "math.ctlz" => Kind::Un(Un::CountLeadingZeros),
            "math.cttz" => Kind::Un(Un::CountTrailingZeros),
            "math.ctpop" => Kind::Un(Un::PopCount),
            "math.isnan" => Kind::Un(Un::IsNaN),
            "math.isinf" => Kind::Un(Un::IsInf),
            "tpu.weird" => Kind::Un(Un::Weird),
            "math.isfinite" => Kind::Un(Un::IsFinite),
            "tpu.logistic" => Kind::Un(Un::Logistic),
            "tpu.reciprocal" => Kind::Un(Un::Reciprocal),
            "math.fma" | "vector.fma" => Kind::Fma,
            "arith.cmpi" => Kind::CmpI(int("predicate").unwrap_or(0)),
            "arith.cmpf" => Kind::CmpF(int("predicate").unwrap_or(0)),
            "arith.select" => Kind::Select,
            "arith.extui" | "arith.index_castui" => Kind::Cast(Cast::ExtUI),
            "arith.extsi" | "arith.trunci" | "arith.index_cast" => Kind::Cast(Cast::ExtSI),
            "arith.extf" | "arith.truncf" | "tpu.extf" | "tpu.truncf" => {
                Kind::Cast(Cast::FloatToFloat)
            }
            "arith.sitofp" | "tpu.sitofp" => Kind::Cast(Cast::SIToFP),
            "arith.uitofp" | "tpu.uitofp" => Kind::Cast(Cast::UIToFP),
            "arith.fptosi" | "tpu.fptosi" => Kind::Cast(Cast::FPToSI),
            "arith.fptoui" | "tpu.fptoui" => Kind::Cast(Cast::FPToUI),
            "arith.bitcast" => Kind::Cast(Cast::Bitcast),
            "vector.load" | "tpu.vector_load" | "tpu.strided_load" => Kind::Load {
                strides: i64s("strides"),
            },
            "tpu.load" => {
                if op
                    .attr("sublane_stride")
                    .and_then(ir::as_int)
                    .is_some_and(|(v, _)| v != 1)
                {
                    return Err(self.refuse(op, "a sublane stride other than 1 is not supported"));
                }
                Kind::Load {
                    strides: Vec::new(),
                }
            }
            "vector.store" | "tpu.vector_store" | "tpu.store" | "tpu.strided_store" => {
                let sublanes = text("sublane_mask").map(|t| {
                    t.split([':', ',', '[', ']', '<', '>', ' '])
                        .filter_map(|w| match w.trim() {
                            "true" => Some(true),
                            "false" => Some(false),
                            _ => None,
                        })
                        .collect::<Vec<bool>>()
                });
                Kind::Store {
                    strides: i64s("strides"),
                    add: flag("add"),
                    sublanes: sublanes.filter(|m| m.contains(&false)),
                }
            }
            "memref.load" => Kind::ScalarLoad,
            "memref.store" => Kind::ScalarStore,
            "vector.broadcast" | "vector.splat" => Kind::Broadcast,
            "vector.shape_cast" | "tpu.reshape" => Kind::ShapeCast,
            "vector.multi_reduction" => Kind::MultiReduce(
                red("kind").ok_or_else(|| self.refuse(op, "unknown combining kind"))?,
                usizes("reduction_dims"),
            ),
            "vector.reduction" => Kind::Reduction(
                red("kind").ok_or_else(|| self.refuse(op, "unknown combining kind"))?,
            ),
            "tpu.reduce" => Kind::Reduce(
                red("kind").ok_or_else(|| self.refuse(op, "unknown reduction kind"))?,
                usizes("dimensions"),
            ),
            "tpu.all_reduce" => Kind::AllReduce {
                kind: text("kind")
                    .map(|t| {
                        t.rsplit('<')
                            .next()
                            .unwrap_or("")
                            .trim_end_matches('>')
                            .trim()
                            .to_string()
                    })
                    .unwrap_or_default(),
                dim: int("dim").unwrap_or(0).max(0) as usize,
            },
            "tpu.scan" => Kind::Scan(
                red("kind").ok_or_else(|| self.refuse(op, "unknown reduction kind"))?,
                int("dimension").unwrap_or(0) as usize,
            ),
            "tpu.reduce_index" => Kind::ReduceIndex(
                red("kind").ok_or_else(|| self.refuse(op, "unknown reduction kind"))?,
                int("axis").unwrap_or(0) as usize,
            ),
            "vector.extract" => {
                let pos = i64s("static_position");
                Kind::Extract(pos)
            }
            "vector.insert" => Kind::Insert(i64s("static_position")),
            "vector.extract_strided_slice" => Kind::ExtractStrided {
                offsets: usizes("offsets"),
                sizes: usizes("sizes"),
                strides: usizes("strides"),
            },
            "vector.insert_strided_slice" => Kind::InsertStrided {
                offsets: usizes("offsets"),
                strides: usizes("strides"),
            },
            "vector.transpose" | "tpu.transpose" => Kind::Transpose(usizes("permutation")),
            "tpu.iota" => Kind::Iota(usizes("dimensions")),
            "vector.constant_mask" => Kind::ConstantMask(usizes("mask_dim_sizes")),
            "vector.create_mask" | "tpu.create_mask" => {
                if name == "tpu.create_mask" {
                    return Err(self.refuse(op, "is not supported yet"));
                }
                Kind::CreateMask
            }
            "tpu.concatenate" => Kind::Concat(int("dimension").unwrap_or(0) as usize),
            "tpu.dynamic_rotate" => {
                let stride = int("stride")
                    .zip(int("stride_dimension"))
                    .map(|(s, d)| (s, d as usize));
                Kind::DynamicRotate {
                    dim: int("dimension").unwrap_or(0) as usize,
                    stride,
                }
            }
            "tpu.pack_elementwise" => {
                let t = text("target_type")
                    .and_then(|t| ElemType::parse(&t))
                    .ok_or_else(|| self.refuse(op, "has no readable `target_type`"))?;
                Kind::PackElementwise(t)
            }
            "tpu.unpack_elementwise" => {
                let t = text("source_type")
                    .and_then(|t| ElemType::parse(&t))
                    .ok_or_else(|| self.refuse(op, "has no readable `source_type`"))?;
                Kind::UnpackElementwise {
                    index: int("index").unwrap_or(0).max(0) as usize,
                    source: t,
                }
            }
            "tpu.dynamic_gather" => match usizes("dimensions").as_slice() {
                [d] => Kind::DynamicGather(*d),
                _ => return Err(self.refuse(op, "gathers along other than one dimension")),
            },
            "tpu.bitcast" => Kind::VectorBitcast { minor: false },
            "vector.bitcast" => Kind::VectorBitcast { minor: true },
            "tpu.memref_bitcast" => Kind::MemBitcast,
            "tpu.sort" => Kind::Sort {
                descending: flag("descending"),
            },
            "tpu.vector_load_idx" => Kind::LoadIdx,
            "tpu.vector_store_idx" => Kind::StoreIdx { add: flag("add") },
            "tpu.expand_load_vreg" => Kind::ExpandLoad,
            "tpu.compress_store_vreg" => Kind::CompressStore { add: flag("add") },
            // With layout passes (Pallas's default) the same ops at the
            // ref's rank, along `expand_dim` / `compress_dim`: run where
            // that is the last dimension and the others are 1 (one vector
            // of lanes, what Pallas's SparseCore lowering makes).
            "tpu.vector_expand_load" | "tpu.vector_compress_store" => {
                let (dim, shape) = if name == "tpu.vector_expand_load" {
                    (
                        int("expand_dim"),
                        res_ty.first().map(|t| t.shape().to_vec()),
                    )
                } else {
                    (
                        int("compress_dim"),
                        arg_ty.first().map(|t| t.shape().to_vec()),
                    )
                };
                let shape = shape.unwrap_or_default();
                let lanes = shape.len().checked_sub(1);
                if lanes.is_none()
                    || dim != lanes.map(|l| l as i64)
                    || shape[..shape.len() - 1].iter().any(|&d| d != 1)
                {
                    return Err(self.refuse(
                        op,
                        "runs only along the last dimension of a vector whose other dimensions are 1",
                    ));
                }
                if name == "tpu.vector_expand_load" {
                    Kind::ExpandLoad
                } else {
                    Kind::CompressStore { add: flag("add") }
                }
            }
            "tpu.scan_count" => Kind::ScanCount,
            "tpu.enqueue_indirect_dma" => {
                if op.num_operands() > 4 {
                    return Err(self.refuse(op, "an `offset_filter` is not supported"));
                }
                Kind::IndirectDma { add: flag("add") }
            }
            "tpu.wait_indirect_dma" => Kind::WaitIndirectDma,
            "tpu.matmul" => {
                let dims = match text("dimension_numbers") {
                    Some(t) => parse_dot_dims(&t)
                        .ok_or_else(|| self.refuse(op, "unreadable `dimension_numbers`"))?,
                    None => DotDims {
                        lhs_contracting: vec![1],
                        rhs_contracting: vec![0],
                        lhs_non_contracting: vec![0],
                        rhs_non_contracting: vec![1],
                        output: vec![(0, 0), (1, 1)],
                        lhs_batch: vec![],
                        rhs_batch: vec![],
                    },
                };
                Kind::Matmul {
                    dims,
                    transpose_lhs: flag("transpose_lhs"),
                    transpose_rhs: flag("transpose_rhs"),
                }
            }
            "tpu.memref_slice" => Kind::MemSlice,
            "tpu.memref_squeeze"
            | "tpu.memref_reshape"
            | "tpu.erase_memref_layout"
            | "memref.collapse_shape"
            | "memref.expand_shape" => Kind::MemView,
            "memref.alloca" | "memref.alloc" => Kind::Alloca,
            "tpu.region" => Kind::Region,
            "tpu.sem_alloc" => Kind::SemAlloc,
            "tpu.enqueue_dma" => Kind::EnqueueDma,
            "tpu.wait_dma" => Kind::WaitDma {
                wait_target: op.attr("wait_target").and_then(ir::as_bool).unwrap_or(true),
            },
            "tpu.wait_dma2" => Kind::WaitDma2,
            "tpu.sem_signal" => Kind::SemSignal,
            "tpu.sem_wait" => Kind::SemWait,
            "tpu.sem_read" => Kind::SemRead,
            "tpu.sem_barrier" => Kind::SemBarrier,
            "tpu.device_id" => Kind::DeviceId,
            "tpu.core_id" => Kind::CoreId,
            "tpu.iteration_bound" => Kind::IterationBound(int("dim").unwrap_or(0) as usize),
            "tpu.assume_multiple" | "tpu.assume_layout" => Kind::Identity,
            "tpu.trace_start" | "tpu.trace_stop" | "tpu.trace_value" | "tpu.delay" | "tpu.log" => {
                Kind::Nop
            }
            "tpu.barrier" => Kind::SubcoreBarrier,
            "tpu.trace" => Kind::Region,
            "scf.for" => Kind::For,
            "scf.if" => Kind::If,
            "scf.while" => Kind::While,
            "scf.index_switch" => Kind::IndexSwitch(i64s("cases")),
            "func.call" => Kind::Call(
                text("callee")
                    .map(|t| t.trim_start_matches('@').trim_matches('"').to_string())
                    .unwrap_or_default(),
            ),
            "scf.yield" | "tpu.yield" | "func.return" | "scf.condition" => Kind::Yield,
            _ => {
                return Err(self.refuse(
                    op,
                    "this op has no CPU semantics in the executor yet (see docs/execute.md for the ops it runs)",
                ));
            }
        };
        Ok(k)
    }
}

/// Operand segments from `operandSegmentSizes`, or each operand its own.
fn segments(op: Op<'_>, n: usize) -> Vec<(usize, usize)> {
    let sizes = op.attr("operandSegmentSizes").and_then(|a| {
        ir::as_i32_array(a)
            .map(|v| v.into_iter().map(i64::from).collect::<Vec<_>>())
            .or_else(|| ir::as_i64_array(a))
    });
    match sizes {
        Some(sizes) => {
            let mut start = 0;
            sizes
                .into_iter()
                .map(|s| {
                    let s = s.max(0) as usize;
                    let seg = (start.min(n), s.min(n.saturating_sub(start)));
                    start += s;
                    seg
                })
                .collect()
        }
        None => Vec::new(),
    }
}

pub(crate) fn ty_text(t: &VTy) -> String {
    match t {
        VTy::Scalar(e) => e.to_string(),
        VTy::Vector(e, s) => format!(
            "vector<{}x{e}>",
            s.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("x")
        ),
        VTy::MemRef(e, s, sp) => format!(
            "memref<{}x{e}, {sp}>",
            s.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("x")
        ),
        VTy::Other(t) => t.clone(),
    }
}

fn location_text(op: Op<'_>) -> String {
    // SAFETY: the op's location is live with its module.
    let attr = unsafe { mlir_sys::mlirLocationGetAttribute(op.location()) };
    let t = ffi::attr_text(attr);
    if t == "loc(unknown)" {
        String::new()
    } else {
        t
    }
}

/// Parses `#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>`.
pub(crate) fn parse_dot_dims(text: &str) -> Option<DotDims> {
    let body = text
        .trim()
        .strip_prefix("#tpu.dot_dimension_numbers<")?
        .strip_suffix('>')?;
    let lists: Vec<Vec<usize>> = split_top(body)
        .into_iter()
        .map(|l| {
            let l = l.trim().trim_start_matches('[').trim_end_matches(']');
            l.split(',')
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().parse::<usize>().ok())
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<_>>()?;
    if lists.len() < 5 {
        return None;
    }
    let output = lists[4]
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| (c[0], c[1]))
        .collect();
    Some(DotDims {
        lhs_contracting: lists[0].clone(),
        rhs_contracting: lists[1].clone(),
        lhs_non_contracting: lists[2].clone(),
        rhs_non_contracting: lists[3].clone(),
        output,
        lhs_batch: lists.get(5).cloned().unwrap_or_default(),
        rhs_batch: lists.get(6).cloned().unwrap_or_default(),
    })
}

/// The value of an `arith.constant`'s attribute.
fn constant(a: MlirAttribute, ty: &VTy) -> Option<Array> {
    let elem = ty.elem()?;
    let shape = ty.shape().to_vec();
    let n: usize = shape.iter().product();
    // SAFETY: every attribute kind is checked before it is read; indices are
    // below the element count.
    unsafe {
        use mlir_sys::*;
        if mlirAttributeIsAInteger(a) {
            return Some(Array::int(elem, mlirIntegerAttrGetValueInt(a)));
        }
        if mlirAttributeIsAFloat(a) {
            return Some(Array::float(elem, mlirFloatAttrGetValueDouble(a)));
        }
        if !mlirAttributeIsADenseElements(a) {
            return None;
        }
        if mlirDenseElementsAttrIsSplat(a) {
            let s = mlirDenseElementsAttrGetSplatValue(a);
            let v = if mlirAttributeIsAInteger(s) {
                elem.wrap(mlirIntegerAttrGetValueInt(s)) as f64
            } else if mlirAttributeIsAFloat(s) {
                mlirFloatAttrGetValueDouble(s)
            } else {
                return None;
            };
            if elem.is_int() {
                let iv = if mlirAttributeIsAInteger(s) {
                    mlirIntegerAttrGetValueInt(s)
                } else {
                    v as i64
                };
                return Some(Array::new(elem, shape, Data::I64(vec![elem.wrap(iv); n])));
            }
            return Some(Array::filled(elem, &shape, v));
        }
        let idx = |i: usize| i as isize;
        let data = match elem {
            ElemType::F32 => Data::F32(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetFloatValue(a, idx(i)))
                    .collect(),
            ),
            ElemType::F64 => Data::F64(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetDoubleValue(a, idx(i)))
                    .collect(),
            ),
            t if t.is_float() => {
                let raw = mlirDenseElementsAttrGetRawData(a) as *const u8;
                let bytes = t.bytes();
                if raw.is_null() {
                    return None;
                }
                // SAFETY: MLIR's raw data of a dense float attribute of `n`
                // elements of `bytes` bytes each, alive with the attribute.
                let raw = crate::ffi::foreign_slice(raw, n.checked_mul(bytes)?);
                Data::F32(
                    (0..n)
                        .map(|i| {
                            let mut b = 0u64;
                            for k in 0..bytes {
                                b |= u64::from(raw[i * bytes + k]) << (8 * k);
                            }
                            t.float_from_bits(b) as f32
                        })
                        .collect(),
                )
            }
            ElemType::Int(1) => Data::I64(
                (0..n)
                    .map(|i| i64::from(mlirDenseElementsAttrGetBoolValue(a, idx(i))))
                    .collect(),
            ),
            ElemType::Int(8) => Data::I64(
                (0..n)
                    .map(|i| i64::from(mlirDenseElementsAttrGetInt8Value(a, idx(i))))
                    .collect(),
            ),
            ElemType::Int(16) => Data::I64(
                (0..n)
                    .map(|i| i64::from(mlirDenseElementsAttrGetInt16Value(a, idx(i))))
                    .collect(),
            ),
            ElemType::Int(32) => Data::I64(
                (0..n)
                    .map(|i| i64::from(mlirDenseElementsAttrGetInt32Value(a, idx(i))))
                    .collect(),
            ),
            ElemType::Int(64) => Data::I64(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetInt64Value(a, idx(i)))
                    .collect(),
            ),
            ElemType::Index => Data::I64(
                (0..n)
                    .map(|i| mlirDenseElementsAttrGetIndexValue(a, idx(i)) as i64)
                    .collect(),
            ),
            _ => return None,
        };
        Some(Array::new(elem, shape, data))
    }
}

fn count_uses(b: &Block, uses: &mut HashMap<Slot, usize>) {
    for i in &b.insts {
        for &a in &i.args {
            *uses.entry(a).or_default() += 1;
        }
        for r in &i.regions {
            count_uses(r, uses);
        }
    }
}

/// Ops without effects whose results nothing uses do nothing: Mosaic's
/// canonicalization erases them before the TPU runs the kernel (every
/// Pallas store, and every `swap`, is preceded by a load of its window,
/// often through a `shape_cast` nobody reads; a masked store's window may
/// reach past the buffer where only the masked-in lanes are inside; Pallas's
/// SparseCore `store_compressed` loads its window with `tpu.expand_load_vreg`
/// and discards it: jaxlib's `canonicalize` erases that load), so they must
/// not fault, nor count as reads, here either. Repeated until nothing
/// more is dead (a dead `shape_cast` makes its load dead).
fn drop_dead_ops(b: &mut Block) {
    loop {
        let mut uses = HashMap::new();
        count_uses(b, &mut uses);
        if !drop_dead(b, &uses) {
            return;
        }
    }
}

/// One pass of [`drop_dead_ops`]: `true` if an op was dropped.
fn drop_dead(b: &mut Block, uses: &HashMap<Slot, usize>) -> bool {
    let mut dropped = false;
    for i in &mut b.insts {
        for r in &mut i.regions {
            dropped |= drop_dead(r, uses);
        }
        let pure = matches!(
            i.kind,
            Kind::Load { .. }
                | Kind::ScalarLoad
                | Kind::LoadIdx
                | Kind::ExpandLoad
                | Kind::DynamicGather(_)
                | Kind::Const(_)
                | Kind::Bin(_)
                | Kind::Un(_)
                | Kind::Fma
                | Kind::CmpI(_)
                | Kind::CmpF(_)
                | Kind::Select
                | Kind::Cast(_)
                | Kind::Broadcast
                | Kind::ShapeCast
                | Kind::Extract(_)
                | Kind::ExtractStrided { .. }
                | Kind::Transpose(_)
                | Kind::MemSlice
                | Kind::MemView
        );
        if pure
            && i.regions.is_empty()
            && !i.res.is_empty()
            && i.res.iter().all(|r| !uses.contains_key(r))
        {
            i.kind = Kind::Nop;
            i.args.clear();
            i.segments.clear();
            dropped = true;
        }
    }
    dropped
}

/// The slots computed by ops that flush subnormals.
fn flushing_results(b: &Block, out: &mut std::collections::HashSet<Slot>) {
    for i in &b.insts {
        for r in &i.regions {
            flushing_results(r, out);
        }
        if i.kind.flushes() {
            out.extend(i.res.iter().copied());
        }
    }
}

/// Sets [`Inst::flushed_args`].
fn mark_flushed_args(b: &mut Block, flushed: &std::collections::HashSet<Slot>) {
    for i in &mut b.insts {
        for r in &mut i.regions {
            mark_flushed_args(r, flushed);
        }
        if !i.kind.flushes() {
            continue;
        }
        let fused = i.fused.map(|(a, c, _)| [a, c]);
        let mut mask = 0u64;
        for (k, s) in i.args.iter().chain(fused.iter().flatten()).enumerate() {
            if k < 64 && flushed.contains(s) {
                mask |= 1 << k;
            }
        }
        i.flushed_args = mask;
    }
}

impl Kind {
    /// Ops that compute on floats (as opposed to moving their bits: loads,
    /// stores, selects, bitcasts, conversions, shape ops): the ones whose
    /// subnormal operands and results a TPU flushes to zero.
    pub(crate) fn flushes(&self) -> bool {
        matches!(
            self,
            Kind::Bin(_)
                | Kind::Un(_)
                | Kind::Fma
                | Kind::CmpF(_)
                | Kind::Matmul { .. }
                | Kind::MultiReduce(..)
                | Kind::Reduce(..)
                | Kind::Reduction(_)
                | Kind::AllReduce { .. }
                | Kind::Scan(..)
                | Kind::ReduceIndex(..)
        )
    }
}

/// Marks each float `addf`/`subf` whose operand is a `mulf` of the same
/// block used nowhere else: the pairs XLA on CPU contracts into fused
/// multiply-adds.
///
/// XLA first merges identical multiplies (common subexpressions) within
/// one fused expression (the ops feeding one store), so a `mulf` whose twin
/// (same operands) feeds the same store has several uses there and is not
/// contracted; twins feeding different stores are separate fusions, each
/// contracted on its own.
fn fuse_multiply_adds(b: &mut Block, uses: &HashMap<Slot, usize>) {
    let roots = expression_roots(b);
    let mut products: HashMap<(Slot, Slot), Vec<Slot>> = HashMap::new();
    collect_products(b, &mut products);
    // A product with a twin sharing a root with it is not fusible.
    let mut shared = std::collections::HashSet::new();
    for twins in products.values().filter(|t| t.len() > 1) {
        for (k, &p) in twins.iter().enumerate() {
            let rp = roots.get(&p);
            if twins.iter().enumerate().any(|(j, q)| {
                j != k
                    && rp
                        .zip(roots.get(q))
                        .is_some_and(|(x, y)| x.iter().any(|r| y.contains(r)))
            }) {
                shared.insert(p);
            }
        }
    }
    fuse_with(b, uses, &shared);
}

/// Float multiplies by unordered operand pair (their results), in a block
/// and its regions.
fn collect_products(b: &Block, out: &mut HashMap<(Slot, Slot), Vec<Slot>>) {
    for i in &b.insts {
        for r in &i.regions {
            collect_products(r, out);
        }
        if matches!(i.kind, Kind::Bin(Bin::MulF)) && i.args.len() == 2 && !i.res.is_empty() {
            let key = (i.args[0].min(i.args[1]), i.args[0].max(i.args[1]));
            out.entry(key).or_default().push(i.res[0]);
        }
    }
}

/// For each value, the ops with effects (stores, yields, calls: the roots
/// of XLA's fused expressions) its value flows into, by op position.
fn expression_roots(b: &Block) -> HashMap<Slot, Vec<usize>> {
    fn walk<'a>(b: &'a Block, all: &mut Vec<&'a Inst>) {
        for i in &b.insts {
            all.push(i);
            for r in &i.regions {
                walk(r, all);
            }
        }
    }
    let mut all = Vec::new();
    walk(b, &mut all);
    let producer: HashMap<Slot, usize> = all
        .iter()
        .enumerate()
        .flat_map(|(k, i)| i.res.iter().map(move |&r| (r, k)))
        .collect();
    let mut roots: HashMap<Slot, Vec<usize>> = HashMap::new();
    for (k, i) in all.iter().enumerate() {
        if !i.res.is_empty() && !matches!(i.kind, Kind::Call(_)) {
            continue;
        }
        // Everything this root reads, transitively through value-producing ops.
        let mut stack: Vec<Slot> = i.args.clone();
        let mut seen = std::collections::HashSet::new();
        while let Some(slot) = stack.pop() {
            if !seen.insert(slot) {
                continue;
            }
            roots.entry(slot).or_default().push(k);
            if let Some(&p) = producer.get(&slot) {
                stack.extend(all[p].args.iter().copied());
            }
        }
    }
    roots
}

fn fuse_with(b: &mut Block, uses: &HashMap<Slot, usize>, shared: &std::collections::HashSet<Slot>) {
    let mut products: HashMap<Slot, (Slot, Slot)> = HashMap::new();
    for i in &mut b.insts {
        for r in &mut i.regions {
            fuse_with(r, uses, shared);
        }
        // `f32` only: a narrower product is rounded to its type before the
        // add (XLA computes bf16 ops in f32 and rounds each), so there is
        // nothing to contract.
        let float = i
            .res_ty
            .first()
            .and_then(VTy::elem)
            .is_some_and(|e| e == ElemType::F32);
        match i.kind {
            Kind::Bin(Bin::MulF)
                if float && uses.get(&i.res[0]) == Some(&1) && !shared.contains(&i.res[0]) =>
            {
                products.insert(i.res[0], (i.args[0], i.args[1]));
            }
            Kind::Bin(Bin::AddF | Bin::SubF) if float => {
                if let Some(&(a, c)) = products.get(&i.args[0]) {
                    i.fused = Some((a, c, true));
                } else if let Some(&(a, c)) = products.get(&i.args[1]) {
                    i.fused = Some((a, c, false));
                }
            }
            _ => {}
        }
    }
}
