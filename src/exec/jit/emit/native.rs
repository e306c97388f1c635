//! Ops lowered to upstream MLIR whose interpreter definitions need more
//! than one upstream op to reproduce: reductions, integer shifts,
//! `tpu.iota`, `bf16` conversions and the `f32` functions the interpreter
//! computes through `f64` (docs/jit.md, "Ops lowered natively").
//!
//! Each method emits the op and returns `Ok(true)`, or `Ok(false)` (nothing
//! emitted) when the op's types are outside what it reproduces: the op
//! then runs on the runtime as before.

use super::super::super::dtype::ElemType;
use super::super::super::program::{Cast, Inst, Red, Un, VTy};
use super::{E, Em, elem_text, shaped, splat};

/// An integer element type of width 2..=64 (`i1` and `index` are left to
/// the runtime).
fn int_width(e: ElemType) -> Option<u32> {
    match e {
        ElemType::Int(w) | ElemType::UInt(w) if (2..=64).contains(&w) => Some(w),
        _ => None,
    }
}

/// The `f32` functions the interpreter computes in `f64` and rounds, that
/// the compiled engine computes with the `f32` function of the same name
/// (transcendentals: equal within the ulp bound of docs/jit.md).
fn f32_function(op: Un) -> Option<&'static str> {
    Some(match op {
        Un::Erf => "math.erf",
        Un::Exp2 => "math.exp2",
        Un::Log2 => "math.log2",
        Un::Log10 => "math.log10",
        Un::Sin => "math.sin",
        Un::Cos => "math.cos",
        Un::Atan => "math.atan",
        _ => return None,
    })
}

impl Em<'_> {
    /// Binds the result of `inst` to an emitted value.
    fn bind(&mut self, inst: &Inst, v: String) {
        let slot = inst.res[0];
        self.names.insert(slot, v);
        self.tys.insert(slot, inst.res_ty[0].clone());
    }

    /// One emitted line `%x = TEXT`: the fresh name.
    fn emit1(&mut self, p: &str, text: &str) -> String {
        let r = self.fresh(p);
        self.line(&format!("{r} = {text}"));
        r
    }

    /// A splat (or scalar) integer constant of type text `t`.
    fn int_const(&mut self, sh: Option<&[usize]>, et: &str, v: i64) -> String {
        let t = shaped(sh, et);
        self.emit1(
            "k",
            &format!("arith.constant {} : {t}", splat(sh, &v.to_string())),
        )
    }

    /// `arith.shli` / `arith.shrsi` / `arith.shrui` with the interpreter's
    /// (XLA's) result for amounts of the width or more, or negative (as
    /// unsigned, so also large): 0, or the sign for `shrsi`. A constant
    /// amount below the width is one plain shift.
    pub(super) fn shift(&mut self, inst: &Inst, op: super::Bin, rt: &VTy) -> E<bool> {
        let Some(e) = rt.elem() else { return Ok(false) };
        let Some(w) = int_width(e) else {
            return Ok(false);
        };
        if inst.args.len() != 2 || inst.arg_ty[0] != *rt || inst.arg_ty[1] != *rt {
            return Ok(false);
        }
        let name = match op {
            super::Bin::ShLI => "arith.shli",
            super::Bin::ShRSI => "arith.shrsi",
            _ => "arith.shrui",
        };
        let a = self.name(inst, inst.args[0])?;
        let b = self.name(inst, inst.args[1])?;
        let t = self.kt(inst, rt)?;
        let sh = (!rt.shape().is_empty()).then_some(rt.shape());
        let et = format!("i{w}");
        // The amount as unsigned.
        let known = self.splats.get(&inst.args[1]).map(|&v| {
            if w == 64 {
                v as u64
            } else {
                (v as u64) & ((1u64 << w) - 1)
            }
        });
        if let Some(k) = known
            && k < u64::from(w)
        {
            let r = self.emit1("h", &format!("{name} {a}, {b} : {t}"));
            self.bind(inst, r);
            return Ok(true);
        }
        let wc = self.int_const(sh, &et, i64::from(w));
        let zero = self.int_const(sh, &et, 0);
        let bt = shaped(sh, "i1");
        let ok = self.emit1("h", &format!("arith.cmpi ult, {b}, {wc} : {t}"));
        let safe = self.emit1("h", &format!("arith.select {ok}, {b}, {zero} : {bt}, {t}"));
        let r = self.emit1("h", &format!("{name} {a}, {safe} : {t}"));
        let over = if op == super::Bin::ShRSI {
            let top = self.int_const(sh, &et, i64::from(w) - 1);
            self.emit1("h", &format!("arith.shrsi {a}, {top} : {t}"))
        } else {
            zero
        };
        let res = self.emit1("h", &format!("arith.select {ok}, {r}, {over} : {bt}, {t}"));
        self.bind(inst, res);
        Ok(true)
    }

    /// `tpu.iota`: per iterated dimension a `vector.step`, cast to the
    /// element type and broadcast along the others, weighted and summed
    /// (the interpreter's row-major index over `dims`). Integer results
    /// whose largest value fits the signed type only (the interpreter
    /// does not wrap).
    pub(super) fn iota(&mut self, inst: &Inst, dims: &[usize], rt: &VTy) -> E<bool> {
        let VTy::Vector(e, shape) = rt else {
            return Ok(false);
        };
        let Some(w) = int_width(*e) else {
            return Ok(false);
        };
        let rank = shape.len();
        if rank == 0 || !inst.args.is_empty() {
            return Ok(false);
        }
        let dims: Vec<usize> = if dims.is_empty() {
            (0..rank).collect()
        } else {
            dims.iter().copied().filter(|&d| d < rank).collect()
        };
        let total: u128 = dims.iter().map(|&d| shape[d] as u128).product();
        if total == 0 || total - 1 > (1u128 << (w - 1)) - 1 {
            return Ok(false);
        }
        let et = format!("i{w}");
        let t = shaped(Some(shape), &et);
        let mut acc: Option<String> = None;
        let mut weight: u128 = 1;
        for &d in dims.iter().rev() {
            let n = shape[d];
            // A small 0..n is a constant (a big `index` step cast to a
            // small vector is a shape tcc-bufferize-vectors does not
            // rewrite).
            let mut v = if n * (w as usize) <= 512 {
                let all = (0..n).map(|k| k.to_string()).collect::<Vec<_>>();
                self.emit1(
                    "y",
                    &format!(
                        "arith.constant dense<[{}]> : vector<{n}x{et}>",
                        all.join(", ")
                    ),
                )
            } else {
                let step = self.emit1("y", &format!("vector.step : vector<{n}xindex>"));
                self.emit1(
                    "y",
                    &format!("arith.index_cast {step} : vector<{n}xindex> to vector<{n}x{et}>"),
                )
            };
            if d + 1 != rank {
                let mut unit = vec![n];
                unit.extend(std::iter::repeat_n(1, rank - d - 1));
                let ut = shaped(Some(&unit), &et);
                v = self.emit1(
                    "y",
                    &format!("vector.shape_cast {v} : vector<{n}x{et}> to {ut}"),
                );
                v = self.emit1("y", &format!("vector.broadcast {v} : {ut} to {t}"));
            } else if rank > 1 {
                v = self.emit1(
                    "y",
                    &format!("vector.broadcast {v} : vector<{n}x{et}> to {t}"),
                );
            }
            if weight != 1 {
                let k = self.int_const(Some(shape), &et, weight as i64);
                v = self.emit1("y", &format!("arith.muli {v}, {k} : {t}"));
            }
            acc = Some(match acc {
                None => v,
                Some(p) => self.emit1("y", &format!("arith.addi {p}, {v} : {t}")),
            });
            weight *= n as u128;
        }
        let Some(r) = acc else { return Ok(false) };
        self.bind(inst, r);
        Ok(true)
    }

    /// A `bf16` value widened to `f32` by bits (exact, no flushing).
    pub(super) fn bf16_to_f32(&mut self, v: &str, sh: Option<&[usize]>) -> String {
        let (bt, i16t, i32t, ft) = (
            shaped(sh, "bf16"),
            shaped(sh, "i16"),
            shaped(sh, "i32"),
            shaped(sh, "f32"),
        );
        let a = self.emit1("g", &format!("arith.bitcast {v} : {bt} to {i16t}"));
        let b = self.emit1("g", &format!("arith.extui {a} : {i16t} to {i32t}"));
        let k = self.int_const(sh, "i32", 16);
        let c = self.emit1("g", &format!("arith.shli {b}, {k} : {i32t}"));
        self.emit1("g", &format!("arith.bitcast {c} : {i32t} to {ft}"))
    }

    /// An `f32` value rounded to `bf16` as the interpreter's `round_bf16`:
    /// to nearest, ties to even, by bits (no flushing); a NaN keeps its
    /// high half with the quiet bit set.
    pub(super) fn f32_to_bf16(&mut self, v: &str, sh: Option<&[usize]>) -> String {
        let (bt, i16t, i32t, ft, it1) = (
            shaped(sh, "bf16"),
            shaped(sh, "i16"),
            shaped(sh, "i32"),
            shaped(sh, "f32"),
            shaped(sh, "i1"),
        );
        let b = self.emit1("g", &format!("arith.bitcast {v} : {ft} to {i32t}"));
        let nan = self.emit1("g", &format!("arith.cmpf uno, {v}, {v} : {ft}"));
        let k16 = self.int_const(sh, "i32", 16);
        let one = self.int_const(sh, "i32", 1);
        let bias = self.int_const(sh, "i32", 0x7fff);
        let quiet = self.int_const(sh, "i32", 0x40_0000);
        let hi = self.emit1("g", &format!("arith.shrui {b}, {k16} : {i32t}"));
        let lsb = self.emit1("g", &format!("arith.andi {hi}, {one} : {i32t}"));
        let inc = self.emit1("g", &format!("arith.addi {bias}, {lsb} : {i32t}"));
        let rounded = self.emit1("g", &format!("arith.addi {b}, {inc} : {i32t}"));
        let q = self.emit1("g", &format!("arith.ori {b}, {quiet} : {i32t}"));
        let s = self.emit1(
            "g",
            &format!("arith.select {nan}, {q}, {rounded} : {it1}, {i32t}"),
        );
        let top = self.emit1("g", &format!("arith.shrui {s}, {k16} : {i32t}"));
        let t = self.emit1("g", &format!("arith.trunci {top} : {i32t} to {i16t}"));
        self.emit1("g", &format!("arith.bitcast {t} : {i16t} to {bt}"))
    }

    /// `arith.extf` / `arith.truncf` between `bf16` and `f32` (the
    /// interpreter neither flushes nor changes a finite value's bits).
    pub(super) fn float_cast(&mut self, inst: &Inst, c: Cast, rt: &VTy) -> E<bool> {
        if c != Cast::FloatToFloat || inst.args.len() != 1 {
            return Ok(false);
        }
        let at = &inst.arg_ty[0];
        if at.shape() != rt.shape() || matches!(at, VTy::MemRef(..)) {
            return Ok(false);
        }
        let sh = (!rt.shape().is_empty()).then_some(rt.shape());
        let a = self.name(inst, inst.args[0])?;
        let r = match (at.elem(), rt.elem()) {
            (Some(ElemType::BF16), Some(ElemType::F32)) => self.bf16_to_f32(&a, sh),
            (Some(ElemType::F32), Some(ElemType::BF16)) => self.f32_to_bf16(&a, sh),
            (Some(x), Some(y)) if x == y && matches!(x, ElemType::F32 | ElemType::BF16) => a,
            _ => return Ok(false),
        };
        self.bind(inst, r);
        Ok(true)
    }

    /// `f32` unary ops the interpreter computes in `f64` or with flushing
    /// the CPU's flush mode would not reproduce: `rsqrt` (in `f64`, then
    /// rounded: bit for bit), `negf`/`absf` (bit ops, operand flushed
    /// first), the transcendentals of [`f32_function`] (operand and result
    /// flushed by bits: libm's code does not honour the flush mode).
    pub(super) fn unary(&mut self, inst: &Inst, op: Un, rt: &VTy) -> E<bool> {
        if inst.args.len() != 1 || inst.arg_ty[0] != *rt || rt.elem() != Some(ElemType::F32) {
            return Ok(false);
        }
        let sh = (!rt.shape().is_empty()).then_some(rt.shape());
        let ft = shaped(sh, "f32");
        let a = self.name(inst, inst.args[0])?;
        let x = if self.flush {
            self.flush_bits(&a, rt.shape())
        } else {
            a
        };
        let r = match op {
            Un::Rsqrt => {
                let dt = shaped(sh, "f64");
                let d = self.emit1("u", &format!("arith.extf {x} : {ft} to {dt}"));
                let s = self.emit1("u", &format!("math.sqrt {d} : {dt}"));
                let one = self.emit1("u", &format!("arith.constant {} : {dt}", splat(sh, "1.0")));
                let q = self.emit1("u", &format!("arith.divf {one}, {s} : {dt}"));
                self.emit1("u", &format!("arith.truncf {q} : {dt} to {ft}"))
            }
            Un::NegF => self.emit1("u", &format!("arith.negf {x} : {ft}")),
            Un::AbsF => self.emit1("u", &format!("math.absf {x} : {ft}")),
            op => {
                let Some(f) = f32_function(op) else {
                    return Ok(false);
                };
                let r = self.emit1("u", &format!("{f} {x} : {ft}"));
                if self.flush {
                    self.flush_bits(&r, rt.shape())
                } else {
                    r
                }
            }
        };
        self.bind(inst, r);
        Ok(true)
    }

    /// An f32 `addf`/`subf` the interpreter contracts with its `mulf`
    /// operand (`RunOptions::fuse_multiply_add`, `ops::multiply_add`): one
    /// `math.fma` (rounded once), the negation on the addend or on the
    /// product's first factor for a subtraction; operands flushed by bits
    /// first (a libm `fmaf` would not honour the flush mode).
    pub(super) fn multiply_add(&mut self, inst: &Inst, op: super::Bin, rt: &VTy) -> E<bool> {
        let Some((x, y, product_first)) = inst.fused else {
            return Ok(false);
        };
        if rt.elem() != Some(ElemType::F32)
            || inst.args.len() != 2
            || inst.arg_ty.iter().any(|t| t != rt)
            || !matches!(op, super::Bin::AddF | super::Bin::SubF)
        {
            return Ok(false);
        }
        if self.ty(inst, x)? != *rt || self.ty(inst, y)? != *rt {
            return Ok(false);
        }
        let sh = (!rt.shape().is_empty()).then_some(rt.shape());
        let ft = shaped(sh, "f32");
        let mut v = vec![
            self.name(inst, x)?,
            self.name(inst, y)?,
            self.name(inst, inst.args[if product_first { 1 } else { 0 }])?,
        ];
        if self.flush {
            for n in &mut v {
                *n = self.flush_bits(n, rt.shape());
            }
        }
        let [a, b, c] = [v[0].clone(), v[1].clone(), v[2].clone()];
        let (a, c) = match (op == super::Bin::SubF, product_first) {
            (false, _) => (a, c),
            (true, true) => {
                let n = self.emit1("u", &format!("arith.negf {c} : {ft}"));
                (a, n)
            }
            (true, false) => {
                let n = self.emit1("u", &format!("arith.negf {a} : {ft}"));
                (n, c)
            }
        };
        let r = self.emit1("u", &format!("math.fma {a}, {b}, {c} : {ft}"));
        self.bind(inst, r);
        Ok(true)
    }

    /// `vector.multi_reduction`, `tpu.reduce` (`dims`) or `vector.reduction` (`None`) as
    /// the interpreter computes it (`ops::reduce`):
    /// - `f32`/`bf16` add: the elements summed in `f32` in source order
    ///   from +0.0, then the accumulator added (`bf16`: elements widened
    ///   exactly, the final sum rounded to `bf16`);
    /// - `maximumf`/`minimumf` (`f32`/`bf16`): operands flushed by bits,
    ///   the upstream reduction (order-free: NaN if any, -0 < +0);
    /// - integers (add, mul, and, or, xor, max/min signed and unsigned):
    ///   the upstream reduction, wrapping.
    ///
    /// Float `mul` (the interpreter multiplies in `f64`) and `maxnumf` /
    /// `minnumf` stay on the runtime.
    pub(super) fn reduction(
        &mut self,
        inst: &Inst,
        kind: Red,
        dims: Option<&[usize]>,
        rt: &VTy,
    ) -> E<bool> {
        let Some(&src) = inst.args.first() else {
            return Ok(false);
        };
        let st = self.ty(inst, src)?;
        let VTy::Vector(e, sshape) = &st else {
            return Ok(false);
        };
        if sshape.is_empty() || rt.elem() != Some(*e) {
            return Ok(false);
        }
        let acc = inst.args.get(1).copied();
        if inst.args.len() > 2 {
            return Ok(false);
        }
        if let Some(a) = acc
            && self.ty(inst, a)? != *rt
        {
            return Ok(false);
        }
        // The result's shape must be the kept dims'.
        let kept: Vec<usize> = match dims {
            Some(d) => {
                if d.iter().any(|&x| x >= sshape.len()) {
                    return Ok(false);
                }
                (0..sshape.len())
                    .filter(|x| !d.contains(x))
                    .map(|x| sshape[x])
                    .collect()
            }
            None => {
                if sshape.len() != 1 {
                    return Ok(false);
                }
                Vec::new()
            }
        };
        // `tpu.reduce` keeps the reduced dims as 1s: the reduction is
        // computed on the kept shape, then reshaped.
        if rt.shape().iter().product::<usize>() != kept.iter().product::<usize>()
            || acc.is_some() && rt.shape() != kept.as_slice()
        {
            return Ok(false);
        }
        let float = matches!(e, ElemType::F32 | ElemType::BF16);
        let word = match (kind, float) {
            (Red::Add, true) => "add",
            (Red::MaxF, true) => "maximumf",
            (Red::MinF, true) => "minimumf",
            (_, true) => return Ok(false),
            (_, false) if int_width(*e).is_none() => return Ok(false),
            (Red::Add, false) => "add",
            (Red::Mul, false) => "mul",
            (Red::And, false) => "and",
            (Red::Or, false) => "or",
            (Red::XOr, false) => "xor",
            (Red::MaxSI, false) => "maxsi",
            (Red::MinSI, false) => "minsi",
            (Red::MaxUI, false) => "maxui",
            (Red::MinUI, false) => "minui",
            _ => return Ok(false),
        };
        let ssh = Some(&sshape[..]);
        let rsh = (!kept.is_empty()).then_some(&kept[..]);
        let mut s = self.name(inst, src)?;
        let mut a = match acc {
            Some(a) => Some(self.name(inst, a)?),
            None => None,
        };
        let et = if float {
            "f32".to_string()
        } else {
            elem_text(*e).unwrap_or_default()
        };
        if *e == ElemType::BF16 {
            s = self.bf16_to_f32(&s, ssh);
            a = a.map(|a| self.bf16_to_f32(&a, rsh));
        }
        let (stt, rtt) = (shaped(ssh, &et), shaped(rsh, &et));
        let red = |em: &mut Self, s: &str, init: Option<&str>| -> String {
            let init = init.map(|i| format!(", {i}")).unwrap_or_default();
            match dims {
                Some(d) => {
                    let d = d.iter().map(|x| x.to_string()).collect::<Vec<_>>();
                    em.emit1(
                        "v",
                        &format!(
                            "vector.multi_reduction <{word}>, {s}{init} [{}] : {stt} to {rtt}",
                            d.join(", ")
                        ),
                    )
                }
                None => em.emit1(
                    "v",
                    &format!("vector.reduction <{word}>, {s}{init} : {stt} into {rtt}"),
                ),
            }
        };
        // No accumulator (`tpu.reduce`): the kind's identity, as the
        // interpreter starts from it (a float sum needs none: it starts
        // from +0.0 below).
        if a.is_none() && dims.is_some() && !(float && kind == Red::Add) {
            let id = match (kind, float) {
                (Red::MaxF, _) => "0xFF800000".to_string(),
                (Red::MinF, _) => "0x7F800000".to_string(),
                (Red::Add | Red::Or | Red::XOr | Red::MaxUI, _) => "0".to_string(),
                (Red::Mul, _) => "1".to_string(),
                (Red::And | Red::MinUI, _) => "-1".to_string(),
                (Red::MaxSI, _) => {
                    let w = int_width(*e).unwrap_or(64);
                    (if w == 64 {
                        i64::MIN
                    } else {
                        -(1i64 << (w - 1))
                    })
                    .to_string()
                }
                (Red::MinSI, _) => {
                    let w = int_width(*e).unwrap_or(64);
                    (if w == 64 {
                        i64::MAX
                    } else {
                        (1i64 << (w - 1)) - 1
                    })
                    .to_string()
                }
                _ => return Ok(false),
            };
            a = Some(self.emit1("v", &format!("arith.constant {} : {rtt}", splat(rsh, &id))));
        }
        let r = if !float {
            red(self, &s, a.as_deref())
        } else if kind == Red::Add {
            let zero = self.emit1(
                "v",
                &format!("arith.constant {} : {rtt}", splat(rsh, "0.0")),
            );
            let sum = red(self, &s, Some(&zero));
            match a {
                Some(a) => self.emit1("v", &format!("arith.addf {a}, {sum} : {rtt}")),
                None => sum,
            }
        } else {
            if self.flush {
                s = self.flush_bits(&s, sshape);
                a = a.map(|a| self.flush_bits(&a, &kept));
            }
            red(self, &s, a.as_deref())
        };
        let r = if *e == ElemType::BF16 {
            self.f32_to_bf16(&r, rsh)
        } else {
            r
        };
        let r = if rt.shape() == kept.as_slice() {
            r
        } else {
            let from = shaped(rsh, &elem_text(*e).unwrap_or_default());
            let to = self.kt(inst, rt)?;
            let op = if kept.is_empty() {
                "vector.broadcast"
            } else {
                "vector.shape_cast"
            };
            self.emit1("v", &format!("{op} {r} : {from} to {to}"))
        };
        self.bind(inst, r);
        Ok(true)
    }
}
