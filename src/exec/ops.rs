//! The semantics of each op on arrays: elementwise arithmetic with the
//! rounding and wrapping of the element type, reductions, shape ops and the
//! matmul. Integer corner cases follow XLA (what JAX's interpret mode runs):
//! division by zero gives -1 (all ones), remainder by zero the dividend,
//! shifts by the width or more give 0 (or the sign).

use super::array::{Array, Data, for_each_index};
use super::dtype::{ElemType, wrap_int};
use super::program::{Bin, Cast, DotDims, Red, Un};

type R<T> = Result<T, String>;

fn same_shape(a: &Array, b: &Array) -> R<()> {
    if a.shape != b.shape {
        return Err(format!(
            "operand shapes differ: {:?} and {:?}",
            a.shape, b.shape
        ));
    }
    Ok(())
}

#[inline]
fn int_bin(op: Bin, t: ElemType, a: i64, b: i64) -> i64 {
    let w = t.int_width();
    let ua = t.unsigned(a);
    let ub = t.unsigned(b);
    let r = match op {
        Bin::AddI => a.wrapping_add(b),
        Bin::SubI => a.wrapping_sub(b),
        Bin::MulI => a.wrapping_mul(b),
        Bin::DivSI => {
            if b == 0 {
                -1
            } else if w > 1 && a == wrap_int(w, 1i64 << (w - 1).min(63)) && b == -1 {
                a
            } else {
                a.wrapping_div(b)
            }
        }
        Bin::DivUI => ua.checked_div(ub).map_or(-1, |q| q as i64),
        Bin::RemSI => {
            if b == 0 {
                a
            } else {
                a.wrapping_rem(b)
            }
        }
        Bin::RemUI => {
            if ub == 0 {
                a
            } else {
                (ua % ub) as i64
            }
        }
        Bin::CeilDivSI => {
            if b == 0 {
                -1
            } else {
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) == (b < 0)) {
                    q.wrapping_add(1)
                } else {
                    q
                }
            }
        }
        Bin::CeilDivUI => {
            if ub == 0 {
                -1
            } else {
                ua.div_ceil(ub) as i64
            }
        }
        Bin::FloorDivSI => {
            if b == 0 {
                -1
            } else {
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
        }
        Bin::AndI => a & b,
        Bin::OrI => a | b,
        Bin::XOrI => a ^ b,
        Bin::ShLI => {
            if ub >= u64::from(w) {
                0
            } else {
                a.wrapping_shl(ub as u32)
            }
        }
        Bin::ShRSI => {
            if ub >= u64::from(w) {
                if a < 0 { -1 } else { 0 }
            } else {
                a >> ub
            }
        }
        Bin::ShRUI => {
            if ub >= u64::from(w) {
                0
            } else {
                (ua >> ub) as i64
            }
        }
        Bin::MaxSI => a.max(b),
        Bin::MinSI => a.min(b),
        Bin::MaxUI => {
            if ua >= ub {
                a
            } else {
                b
            }
        }
        Bin::MinUI => {
            if ua <= ub {
                a
            } else {
                b
            }
        }
        _ => 0,
    };
    wrap_int(w, r)
}

#[inline]
fn float_bin(op: Bin, a: f64, b: f64) -> f64 {
    match op {
        Bin::AddF => a + b,
        Bin::SubF => a - b,
        Bin::MulF => a * b,
        Bin::DivF => a / b,
        Bin::RemF => a % b,
        Bin::MaximumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                if a.is_sign_negative() { b } else { a }
            } else {
                a.max(b)
            }
        }
        Bin::MinimumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a == b {
                if a.is_sign_negative() { a } else { b }
            } else {
                a.min(b)
            }
        }
        Bin::MaxNumF => a.max(b),
        Bin::MinNumF => a.min(b),
        Bin::PowF => a.powf(b),
        Bin::Atan2 => a.atan2(b),
        Bin::CopySign => a.copysign(b),
        _ => f64::NAN,
    }
}

#[inline]
fn float_bin32(op: Bin, a: f32, b: f32) -> f32 {
    match op {
        Bin::AddF => a + b,
        Bin::SubF => a - b,
        Bin::MulF => a * b,
        Bin::DivF => a / b,
        _ => float_bin(op, f64::from(a), f64::from(b)) as f32,
    }
}

/// An elementwise binary op on two arrays of one shape and type.
pub(crate) fn binary(op: Bin, a: &Array, b: &Array) -> R<Array> {
    same_shape(a, b)?;
    let t = a.elem;
    let data = match (&a.data, &b.data) {
        (Data::F32(x), Data::F32(y)) => {
            let mut out: Vec<f32> = x
                .iter()
                .zip(y)
                .map(|(&p, &q)| float_bin32(op, p, q))
                .collect();
            if t != ElemType::F32 {
                out.iter_mut().for_each(|v| *v = t.round_f32(*v));
            }
            Data::F32(out)
        }
        (Data::F64(x), Data::F64(y)) => Data::F64(
            x.iter()
                .zip(y)
                .map(|(&p, &q)| float_bin(op, p, q))
                .collect(),
        ),
        (Data::I64(x), Data::I64(y)) => Data::I64(
            x.iter()
                .zip(y)
                .map(|(&p, &q)| int_bin(op, t, p, q))
                .collect(),
        ),
        _ => return Err(format!("operand types differ: {} and {}", a.elem, b.elem)),
    };
    Ok(Array::new(t, a.shape.clone(), data))
}

fn erf(x: f64) -> f64 {
    // Abramowitz-Stegun 7.1.26 is too coarse for f32; use the series /
    // continued fraction split for full f64 accuracy.
    if x.is_nan() || x == 0.0 {
        // NaN, and +-0 (the series below would never converge on 0).
        return x;
    }
    let a = x.abs();
    // erf(6) = 1 - 2.2e-17 rounds to 1 in f64: the tail, infinities included.
    if a >= 6.0 {
        return 1f64.copysign(x);
    }
    let r = if a < 2.0 {
        // Maclaurin series.
        let mut sum = a;
        let mut term = a;
        let x2 = a * a;
        let mut n = 0.0;
        // Converges in at most ~60 terms for a < 2; the bound keeps it finite.
        for _ in 0..200 {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        1.0 - erfc_cf(a)
    };
    r.copysign(x)
}

fn erfc_cf(a: f64) -> f64 {
    // Continued fraction for erfc, a >= 2 (Lentz).
    let mut f = a;
    let mut c = a;
    let mut d = 0.0;
    for n in 1..200 {
        let an = f64::from(n) / 2.0;
        d = a + an * d;
        d = if d == 0.0 { 1e-300 } else { 1.0 / d };
        c = a + an / c;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-a * a).exp() / f / std::f64::consts::PI.sqrt()
}

fn float_un(op: Un, x: f64) -> f64 {
    match op {
        Un::NegF => -x,
        Un::AbsF => x.abs(),
        Un::Exp => x.exp(),
        Un::Exp2 => x.exp2(),
        Un::Expm1 => x.exp_m1(),
        Un::Log => x.ln(),
        Un::Log1p => x.ln_1p(),
        Un::Log2 => x.log2(),
        Un::Log10 => x.log10(),
        Un::Tanh => x.tanh(),
        Un::Sqrt => x.sqrt(),
        Un::Rsqrt => 1.0 / x.sqrt(),
        Un::Cbrt => x.cbrt(),
        Un::Sin => x.sin(),
        Un::Cos => x.cos(),
        Un::Tan => x.tan(),
        Un::Atan => x.atan(),
        Un::Asin => x.asin(),
        Un::Acos => x.acos(),
        Un::Sinh => x.sinh(),
        Un::Cosh => x.cosh(),
        Un::Asinh => x.asinh(),
        Un::Acosh => x.acosh(),
        Un::Atanh => x.atanh(),
        Un::Erf => erf(x),
        Un::Erfc => 1.0 - erf(x),
        Un::Floor => x.floor(),
        Un::Ceil => x.ceil(),
        Un::Round => x.round(),
        Un::RoundEven => x.round_ties_even(),
        Un::Trunc => x.trunc(),
        Un::Logistic => 1.0 / (1.0 + (-x).exp()),
        Un::Reciprocal => 1.0 / x,
        _ => f64::NAN,
    }
}

/// An elementwise unary op; `out` is the result's element type (`i1` for
/// the `is*` predicates).
pub(crate) fn unary(op: Un, a: &Array, out: ElemType) -> R<Array> {
    let t = a.elem;
    let data = match (&a.data, op) {
        (_, Un::IsNaN | Un::IsInf | Un::IsFinite | Un::Weird) => Data::I64(
            (0..a.len())
                .map(|i| {
                    let x = a.data.get_f64(i);
                    i64::from(match op {
                        Un::IsNaN => x.is_nan(),
                        Un::IsInf => x.is_infinite(),
                        Un::Weird => !x.is_finite(),
                        _ => x.is_finite(),
                    })
                })
                .collect(),
        ),
        (Data::F32(x), _) => Data::F32(
            x.iter()
                .map(|&v| {
                    let r = match op {
                        Un::NegF => -v,
                        Un::AbsF => v.abs(),
                        Un::Exp => v.exp(),
                        Un::Log => v.ln(),
                        Un::Tanh => v.tanh(),
                        Un::Sqrt => v.sqrt(),
                        _ => float_un(op, f64::from(v)) as f32,
                    };
                    t.round_f32(r)
                })
                .collect(),
        ),
        (Data::F64(x), _) => Data::F64(x.iter().map(|&v| float_un(op, v)).collect()),
        (Data::I64(x), _) => {
            let w = t.int_width();
            Data::I64(
                x.iter()
                    .map(|&v| {
                        let u = t.unsigned(v);
                        let r = match op {
                            Un::AbsI => v.wrapping_abs(),
                            Un::CountLeadingZeros => {
                                i64::from(u.leading_zeros()) - i64::from(64 - w)
                            }
                            Un::CountTrailingZeros => i64::from(u.trailing_zeros().min(w)),
                            Un::PopCount => i64::from(u.count_ones()),
                            _ => v,
                        };
                        wrap_int(w, r)
                    })
                    .collect(),
            )
        }
    };
    let elem = if matches!(op, Un::IsNaN | Un::IsInf | Un::IsFinite | Un::Weird) {
        out
    } else {
        t
    };
    Ok(Array::new(elem, a.shape.clone(), data))
}

/// `a * b + c`, fused (rounded once).
pub(crate) fn fma(a: &Array, b: &Array, c: &Array) -> R<Array> {
    same_shape(a, b)?;
    same_shape(a, c)?;
    let t = a.elem;
    let mut out = Data::filled(t, a.len(), 0.0);
    for i in 0..a.len() {
        let v = a
            .data
            .get_f64(i)
            .mul_add(b.data.get_f64(i), c.data.get_f64(i));
        out.set_f64(i, t.round(v));
    }
    Ok(Array::new(t, a.shape.clone(), out))
}

/// `x * y + c` (`x * y - c`, or `c - x * y` when the product is second),
/// rounded once: a contracted `mulf` + `addf`/`subf`.
pub(crate) fn multiply_add(
    x: &Array,
    y: &Array,
    c: &Array,
    sub: bool,
    product_first: bool,
) -> R<Array> {
    same_shape(x, y)?;
    same_shape(x, c)?;
    let t = c.elem;
    let (Data::F32(xv), Data::F32(yv), Data::F32(cv)) = (&x.data, &y.data, &c.data) else {
        return Err("fused multiply-add of non-f32 storage".into());
    };
    let out = xv
        .iter()
        .zip(yv)
        .zip(cv)
        .map(|((&a, &b), &c)| {
            let r = match (sub, product_first) {
                (false, _) => a.mul_add(b, c),
                (true, true) => a.mul_add(b, -c),
                (true, false) => (-a).mul_add(b, c),
            };
            t.round_f32(r)
        })
        .collect();
    Ok(Array::new(t, c.shape.clone(), Data::F32(out)))
}

/// `arith.cmpi` with MLIR's predicate numbering.
pub(crate) fn cmpi(p: i64, a: &Array, b: &Array) -> R<Array> {
    same_shape(a, b)?;
    let t = a.elem;
    let (Data::I64(x), Data::I64(y)) = (&a.data, &b.data) else {
        return Err("cmpi on non-integers".into());
    };
    let out = x
        .iter()
        .zip(y)
        .map(|(&p1, &q)| {
            let (u, v) = (t.unsigned(p1), t.unsigned(q));
            i64::from(match p {
                0 => p1 == q,
                1 => p1 != q,
                2 => p1 < q,
                3 => p1 <= q,
                4 => p1 > q,
                5 => p1 >= q,
                6 => u < v,
                7 => u <= v,
                8 => u > v,
                _ => u >= v,
            })
        })
        .collect();
    Ok(Array::new(
        ElemType::Int(1),
        a.shape.clone(),
        Data::I64(out),
    ))
}

/// `arith.cmpf` with MLIR's predicate numbering.
pub(crate) fn cmpf(p: i64, a: &Array, b: &Array) -> R<Array> {
    same_shape(a, b)?;
    let out = (0..a.len())
        .map(|i| {
            let (x, y) = (a.data.get_f64(i), b.data.get_f64(i));
            let unordered = x.is_nan() || y.is_nan();
            i64::from(match p {
                0 => false,
                1 => !unordered && x == y,
                2 => !unordered && x > y,
                3 => !unordered && x >= y,
                4 => !unordered && x < y,
                5 => !unordered && x <= y,
                6 => !unordered && x != y,
                7 => !unordered,
                8 => unordered || x == y,
                9 => unordered || x > y,
                10 => unordered || x >= y,
                11 => unordered || x < y,
                12 => unordered || x <= y,
                13 => unordered || x != y,
                14 => unordered,
                _ => true,
            })
        })
        .collect();
    Ok(Array::new(
        ElemType::Int(1),
        a.shape.clone(),
        Data::I64(out),
    ))
}

/// `arith.select` with a scalar or elementwise condition.
pub(crate) fn select(c: &Array, a: &Array, b: &Array) -> R<Array> {
    same_shape(a, b)?;
    if c.shape.is_empty() {
        return Ok(if c.scalar_i64() != 0 {
            a.clone()
        } else {
            b.clone()
        });
    }
    if c.shape != a.shape {
        return Err(format!(
            "condition shape {:?} differs from {:?}",
            c.shape, a.shape
        ));
    }
    let mut out = b.data.clone();
    match (&mut out, &a.data) {
        (Data::F32(o), Data::F32(x)) => (0..o.len()).for_each(|i| {
            if c.data.get_i64(i) != 0 {
                o[i] = x[i];
            }
        }),
        (Data::F64(o), Data::F64(x)) => (0..o.len()).for_each(|i| {
            if c.data.get_i64(i) != 0 {
                o[i] = x[i];
            }
        }),
        (Data::I64(o), Data::I64(x)) => (0..o.len()).for_each(|i| {
            if c.data.get_i64(i) != 0 {
                o[i] = x[i];
            }
        }),
        _ => return Err("select between values of different types".into()),
    }
    Ok(Array::new(a.elem, a.shape.clone(), out))
}

/// Element-type conversions.
pub(crate) fn cast(c: Cast, a: &Array, out: ElemType) -> R<Array> {
    let n = a.len();
    let from = a.elem;
    let data = match c {
        Cast::ExtUI => Data::I64(
            (0..n)
                .map(|i| out.wrap(from.unsigned(a.data.get_i64(i)) as i64))
                .collect(),
        ),
        Cast::ExtSI => Data::I64(
            (0..n)
                .map(|i| {
                    let v = a.data.get_i64(i);
                    // An `i1` true sign-extends to all ones.
                    let v = if from == ElemType::Int(1) { -v } else { v };
                    out.wrap(v)
                })
                .collect(),
        ),
        Cast::FloatToFloat | Cast::SIToFP | Cast::UIToFP => {
            let mut d = Data::filled(out, n, 0.0);
            for i in 0..n {
                let v = match c {
                    Cast::SIToFP => a.data.get_i64(i) as f64,
                    Cast::UIToFP => from.unsigned(a.data.get_i64(i)) as f64,
                    _ => a.data.get_f64(i),
                };
                d.set_f64(i, out.round(v));
            }
            d
        }
        Cast::FPToSI | Cast::FPToUI => {
            let w = out.int_width();
            let (lo, hi) = if c == Cast::FPToUI {
                (
                    0f64,
                    if w >= 64 {
                        u64::MAX as f64
                    } else {
                        ((1u64 << w) - 1) as f64
                    },
                )
            } else if w >= 64 {
                (i64::MIN as f64, i64::MAX as f64)
            } else {
                (-((1u64 << (w - 1)) as f64), ((1u64 << (w - 1)) - 1) as f64)
            };
            Data::I64(
                (0..n)
                    .map(|i| {
                        let v = a.data.get_f64(i);
                        let v = if v.is_nan() {
                            0.0
                        } else {
                            v.trunc().clamp(lo, hi)
                        };
                        let bits = if c == Cast::FPToUI {
                            v as u64 as i64
                        } else {
                            v as i64
                        };
                        out.wrap(bits)
                    })
                    .collect(),
            )
        }
        Cast::Bitcast => {
            if from.bits() != out.bits() {
                return Err(format!(
                    "bitcast between {from} and {out} of different widths"
                ));
            }
            if from.is_float() && out.is_float() {
                let mut d = Data::filled(out, n, 0.0);
                for i in 0..n {
                    d.set_f64(i, out.float_from_bits(from.float_bits(a.data.get_f64(i))));
                }
                d
            } else if from.is_float() {
                Data::I64(
                    (0..n)
                        .map(|i| out.wrap(from.float_bits(a.data.get_f64(i)) as i64))
                        .collect(),
                )
            } else if out.is_float() {
                let mut d = Data::filled(out, n, 0.0);
                for i in 0..n {
                    d.set_f64(i, out.float_from_bits(from.unsigned(a.data.get_i64(i))));
                }
                d
            } else {
                Data::I64((0..n).map(|i| out.wrap(a.data.get_i64(i))).collect())
            }
        }
    };
    Ok(Array::new(out, a.shape.clone(), data))
}

/// Broadcasts a scalar or a vector (trailing dims aligned, unit dims
/// stretched) to `shape`.
pub(crate) fn broadcast(a: &Array, shape: &[usize]) -> R<Array> {
    if a.shape == shape {
        return Ok(a.clone());
    }
    let n: usize = shape.iter().product();
    if a.len() == 1 {
        let data = match &a.data {
            Data::F32(v) => Data::F32(vec![v[0]; n]),
            Data::F64(v) => Data::F64(vec![v[0]; n]),
            Data::I64(v) => Data::I64(vec![v[0]; n]),
        };
        return Ok(Array::new(a.elem, shape.to_vec(), data));
    }
    if a.shape.len() > shape.len() {
        return Err(format!("cannot broadcast {:?} to {:?}", a.shape, shape));
    }
    let lead = shape.len() - a.shape.len();
    for (d, &s) in a.shape.iter().enumerate() {
        if s != 1 && s != shape[lead + d] {
            return Err(format!("cannot broadcast {:?} to {:?}", a.shape, shape));
        }
    }
    let src_strides = Array::strides(&a.shape);
    let mut idx = Vec::with_capacity(n);
    for_each_index(shape, |i| {
        let mut o = 0;
        for (d, &s) in a.shape.iter().enumerate() {
            if s != 1 {
                o += i[lead + d] * src_strides[d];
            }
        }
        idx.push(o);
    });
    Ok(Array::new(a.elem, shape.to_vec(), a.data.gather(&idx)))
}

fn red_identity(kind: Red, t: ElemType) -> f64 {
    match kind {
        Red::Add | Red::Or | Red::XOr | Red::MaxUI => 0.0,
        Red::Mul => 1.0,
        Red::MaxF | Red::MaxNumF => f64::NEG_INFINITY,
        Red::MinF | Red::MinNumF => f64::INFINITY,
        Red::MaxSI => -((1u64 << (t.int_width().clamp(2, 64) - 1)) as f64),
        Red::MinSI => ((1u64 << (t.int_width().clamp(2, 64) - 1)) - 1) as f64,
        Red::MinUI | Red::And => -1.0,
        Red::ArgMax | Red::ArgMin => 0.0,
    }
}

fn combine_f(kind: Red, a: f64, b: f64) -> f64 {
    match kind {
        Red::Add => a + b,
        Red::Mul => a * b,
        Red::MaxF => float_bin(Bin::MaximumF, a, b),
        Red::MinF => float_bin(Bin::MinimumF, a, b),
        Red::MaxNumF => a.max(b),
        Red::MinNumF => a.min(b),
        _ => f64::NAN,
    }
}

fn combine_i(kind: Red, t: ElemType, a: i64, b: i64) -> i64 {
    let op = match kind {
        Red::Add => Bin::AddI,
        Red::Mul => Bin::MulI,
        Red::MaxSI | Red::MaxF => Bin::MaxSI,
        Red::MinSI | Red::MinF => Bin::MinSI,
        Red::MaxUI => Bin::MaxUI,
        Red::MinUI => Bin::MinUI,
        Red::And => Bin::AndI,
        Red::Or => Bin::OrI,
        Red::XOr => Bin::XOrI,
        _ => Bin::AddI,
    };
    int_bin(op, t, a, b)
}

/// Reduces `a` over `dims` (the result drops them), combined with `acc`.
/// Floats accumulate in `f32` (`f64` for `f64`) and round once at the end.
pub(crate) fn reduce(kind: Red, a: &Array, dims: &[usize], acc: Option<&Array>) -> R<Array> {
    let rank = a.shape.len();
    if dims.iter().any(|&d| d >= rank) {
        return Err(format!(
            "reduction dimension out of range for shape {:?}",
            a.shape
        ));
    }
    let keep: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
    let out_shape: Vec<usize> = keep.iter().map(|&d| a.shape[d]).collect();
    let n_out: usize = out_shape.iter().product();
    let t = a.elem;
    let out_strides = Array::strides(&out_shape);
    let mut target = Vec::with_capacity(a.len());
    for_each_index(&a.shape, |i| {
        target.push(
            keep.iter()
                .zip(&out_strides)
                .map(|(&d, s)| i[d] * s)
                .sum::<usize>(),
        );
    });
    let data = if t.is_float() {
        let id = red_identity(kind, t);
        let mut out = vec![id; n_out];
        if matches!(&a.data, Data::F32(_)) && kind == Red::Add {
            let mut o32 = vec![0f32; n_out];
            if let Data::F32(v) = &a.data {
                for (k, &x) in v.iter().enumerate() {
                    o32[target[k]] += x;
                }
            }
            out = o32.into_iter().map(f64::from).collect();
        } else {
            for (k, &o) in target.iter().enumerate() {
                out[o] = combine_f(kind, out[o], a.data.get_f64(k));
            }
        }
        if let Some(acc) = acc {
            if acc.len() != n_out {
                return Err("accumulator shape differs from the result".into());
            }
            for (o, v) in out.iter_mut().enumerate() {
                *v = combine_f(kind, acc.data.get_f64(o), *v);
            }
        }
        let mut d = Data::filled(t, n_out, 0.0);
        for (o, v) in out.into_iter().enumerate() {
            d.set_f64(o, t.round(v));
        }
        d
    } else {
        let id = t.wrap(red_identity(kind, t) as i64);
        let mut out = vec![id; n_out];
        for (k, &o) in target.iter().enumerate() {
            out[o] = combine_i(kind, t, out[o], a.data.get_i64(k));
        }
        if let Some(acc) = acc {
            if acc.len() != n_out {
                return Err("accumulator shape differs from the result".into());
            }
            for (o, v) in out.iter_mut().enumerate() {
                *v = combine_i(kind, t, acc.data.get_i64(o), *v);
            }
        }
        Data::I64(out)
    };
    Ok(Array::new(t, out_shape, data))
}

/// `a` with the elements where `mask` is false replaced by the identity
/// of a reduction kind.
pub(crate) fn mask_identity(kind: Red, a: &Array, mask: &Array) -> R<Array> {
    same_shape(a, mask)?;
    let id = red_identity(kind, a.elem);
    let mut out = a.data.clone();
    for i in 0..a.len() {
        if mask.data.get_i64(i) == 0 {
            if a.elem.is_float() {
                out.set_f64(i, id);
            } else if let Data::I64(v) = &mut out {
                v[i] = a.elem.wrap(id as i64);
            }
        }
    }
    Ok(Array::new(a.elem, a.shape.clone(), out))
}

/// Inclusive scan along `dim` of the elements whose mask is true
/// (`tpu.scan` with a mask): masked-out elements take no part (the kind's
/// identity), and a maximum or minimum passes `a`'s own elements through
/// until the first masked-in one (JAX's `plsc.cummax` documentation and its
/// test on a TPU, `tests/pallas/tpu_sparsecore_pallas_test.py`
/// `test_masked_cummax`; `test_masked_cumsum`: a sum gives 0 there).
pub(crate) fn masked_scan(kind: Red, a: &Array, mask: &Array, dim: usize) -> R<Array> {
    let mut out = scan(kind, &mask_identity(kind, a, mask)?, dim)?;
    let extremum = matches!(
        kind,
        Red::MaxF
            | Red::MinF
            | Red::MaxNumF
            | Red::MinNumF
            | Red::MaxSI
            | Red::MinSI
            | Red::MaxUI
            | Red::MinUI
    );
    if !extremum {
        return Ok(out);
    }
    let strides = Array::strides(&a.shape);
    let mut outer = a.shape.clone();
    outer[dim] = 1;
    for_each_index(&outer, |i| {
        let base: usize = i.iter().zip(&strides).map(|(x, s)| x * s).sum();
        for k in 0..a.shape[dim] {
            let at = base + k * strides[dim];
            if mask.data.get_i64(at) != 0 {
                break;
            }
            out.data.scatter(&[at], &a.data.gather(&[at]));
        }
    });
    Ok(out)
}

/// Inclusive scan along `dim`.
pub(crate) fn scan(kind: Red, a: &Array, dim: usize) -> R<Array> {
    if dim >= a.shape.len() {
        return Err(format!(
            "scan dimension {dim} out of range for shape {:?}",
            a.shape
        ));
    }
    let t = a.elem;
    let strides = Array::strides(&a.shape);
    let mut out = a.data.clone();
    let mut outer = a.shape.clone();
    outer[dim] = 1;
    for_each_index(&outer, |i| {
        let base: usize = i.iter().zip(&strides).map(|(x, s)| x * s).sum();
        for k in 1..a.shape[dim] {
            let cur = base + k * strides[dim];
            let prev = base + (k - 1) * strides[dim];
            if t.is_float() {
                let v = t.round(combine_f(kind, out.get_f64(prev), out.get_f64(cur)));
                out.set_f64(cur, v);
            } else {
                let v = combine_i(kind, t, out.get_i64(prev), out.get_i64(cur));
                if let Data::I64(o) = &mut out {
                    o[cur] = v;
                }
            }
        }
    });
    Ok(Array::new(t, a.shape.clone(), out))
}

/// Index of the max/min along `axis` (first on ties).
pub(crate) fn reduce_index(kind: Red, a: &Array, axis: usize, out: ElemType) -> R<Array> {
    if axis >= a.shape.len() {
        return Err(format!("axis {axis} out of range for shape {:?}", a.shape));
    }
    let strides = Array::strides(&a.shape);
    let mut outer = a.shape.clone();
    outer[axis] = 1;
    let mut res = Vec::new();
    let want_max = matches!(kind, Red::ArgMax | Red::MaxF | Red::MaxSI | Red::MaxUI);
    for_each_index(&outer, |i| {
        let base: usize = i.iter().zip(&strides).map(|(x, s)| x * s).sum();
        let mut best = 0usize;
        let mut bv = a.data.get_f64(base);
        for k in 1..a.shape[axis] {
            let v = a.data.get_f64(base + k * strides[axis]);
            let better = if bv.is_nan() {
                false
            } else if v.is_nan() {
                true
            } else if want_max {
                v > bv
            } else {
                v < bv
            };
            if better {
                best = k;
                bv = v;
            }
        }
        res.push(best as i64);
    });
    Ok(Array::new(out, outer, Data::I64(res)))
}

/// `vector.extract` at leading positions.
pub(crate) fn extract(a: &Array, pos: &[i64]) -> R<Array> {
    if pos.len() > a.shape.len() {
        return Err("more positions than dimensions".into());
    }
    let strides = Array::strides(&a.shape);
    let mut off = 0;
    for (d, &p) in pos.iter().enumerate() {
        if p < 0 || p as usize >= a.shape[d] {
            return Err(format!(
                "position {pos:?} out of range for shape {:?}",
                a.shape
            ));
        }
        off += p as usize * strides[d];
    }
    let shape = a.shape[pos.len()..].to_vec();
    let n: usize = shape.iter().product();
    let idx: Vec<usize> = (off..off + n).collect();
    Ok(Array::new(a.elem, shape, a.data.gather(&idx)))
}

/// `vector.insert` of `v` into `dest` at leading positions.
pub(crate) fn insert(v: &Array, dest: &Array, pos: &[i64]) -> R<Array> {
    let strides = Array::strides(&dest.shape);
    let mut off = 0;
    for (d, &p) in pos.iter().enumerate() {
        if p < 0 || d >= dest.shape.len() || p as usize >= dest.shape[d] {
            return Err(format!(
                "position {pos:?} out of range for shape {:?}",
                dest.shape
            ));
        }
        off += p as usize * strides[d];
    }
    let idx: Vec<usize> = (off..off + v.len()).collect();
    let mut out = dest.clone();
    out.data.scatter(&idx, &v.data);
    Ok(out)
}

fn strided_index(
    shape: &[usize],
    offsets: &[usize],
    sizes: &[usize],
    steps: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let mut ext = shape.to_vec();
    for (d, &s) in sizes.iter().enumerate() {
        ext[d] = s;
    }
    let strides = Array::strides(shape);
    let mut idx = Vec::new();
    for_each_index(&ext, |i| {
        let mut o = 0;
        for d in 0..shape.len() {
            let off = offsets.get(d).copied().unwrap_or(0);
            let st = steps.get(d).copied().unwrap_or(1);
            o += (off + i[d] * st) * strides[d];
        }
        idx.push(o);
    });
    (ext, idx)
}

/// `vector.extract_strided_slice`.
pub(crate) fn extract_strided(
    a: &Array,
    offsets: &[usize],
    sizes: &[usize],
    steps: &[usize],
) -> R<Array> {
    if sizes.len() > a.shape.len() || offsets.len() > a.shape.len() || steps.contains(&0) {
        return Err(format!(
            "slice {offsets:?}/{sizes:?}/{steps:?} does not fit shape {:?}",
            a.shape
        ));
    }
    for d in 0..a.shape.len() {
        let size = sizes.get(d).copied().unwrap_or(a.shape[d]);
        let last = (size.max(1) - 1)
            .checked_mul(steps.get(d).copied().unwrap_or(1))
            .and_then(|x| x.checked_add(offsets.get(d).copied().unwrap_or(0)));
        if size > 0 && last.is_none_or(|l| l >= a.shape[d]) {
            return Err(format!("slice out of range for shape {:?}", a.shape));
        }
    }
    let (ext, idx) = strided_index(&a.shape, offsets, sizes, steps);
    Ok(Array::new(a.elem, ext, a.data.gather(&idx)))
}

/// `vector.insert_strided_slice`.
pub(crate) fn insert_strided(
    v: &Array,
    dest: &Array,
    offsets: &[usize],
    steps: &[usize],
) -> R<Array> {
    if v.shape.len() > dest.shape.len()
        || offsets.len() > dest.shape.len()
        || steps.contains(&0)
        || v.elem.signless() != dest.elem.signless()
    {
        return Err(format!("cannot insert {:?} into {:?}", v.shape, dest.shape));
    }
    let lead = dest.shape.len() - v.shape.len();
    let mut sizes = vec![1; lead];
    sizes.extend_from_slice(&v.shape);
    let mut offs = offsets.to_vec();
    offs.resize(dest.shape.len(), 0);
    let mut st = vec![1; lead];
    st.extend_from_slice(steps);
    for d in 0..dest.shape.len() {
        let last = (sizes[d].max(1) - 1)
            .checked_mul(st.get(d).copied().unwrap_or(1))
            .and_then(|x| x.checked_add(offs[d]));
        if last.is_none_or(|l| l >= dest.shape[d]) {
            return Err(format!("slice out of range for shape {:?}", dest.shape));
        }
    }
    let (_, idx) = strided_index(&dest.shape, &offs, &sizes, &st);
    let mut out = dest.clone();
    out.data.scatter(&idx, &v.data);
    Ok(out)
}

/// Permutes dims: result dim `i` is input dim `perm[i]`.
pub(crate) fn transpose(a: &Array, perm: &[usize]) -> R<Array> {
    let mut seen = vec![false; perm.len()];
    let valid = perm.len() == a.shape.len()
        && perm
            .iter()
            .all(|&p| p < seen.len() && !std::mem::replace(&mut seen[p], true));
    if !valid {
        return Err(format!("permutation {perm:?} for shape {:?}", a.shape));
    }
    let shape: Vec<usize> = perm.iter().map(|&p| a.shape[p]).collect();
    let strides = Array::strides(&a.shape);
    if a.shape.len() == 2 && perm == [1, 0] {
        let (r, c) = (a.shape[0], a.shape[1]);
        let mut idx = Vec::with_capacity(a.len());
        for j in 0..c {
            for i in 0..r {
                idx.push(i * c + j);
            }
        }
        return Ok(Array::new(a.elem, shape, a.data.gather(&idx)));
    }
    let mut idx = Vec::with_capacity(a.len());
    for_each_index(&shape, |i| {
        idx.push(
            perm.iter()
                .enumerate()
                .map(|(k, &p)| i[k] * strides[p])
                .sum(),
        );
    });
    Ok(Array::new(a.elem, shape, a.data.gather(&idx)))
}

/// `tpu.iota`: each element its index along `dims` (row-major over them).
pub(crate) fn iota(elem: ElemType, shape: &[usize], dims: &[usize]) -> Array {
    let dims: Vec<usize> = if dims.is_empty() {
        (0..shape.len()).collect()
    } else {
        dims.iter().copied().filter(|&d| d < shape.len()).collect()
    };
    let mut out = Vec::with_capacity(shape.iter().product());
    for_each_index(shape, |i| {
        let mut v = 0usize;
        for &d in &dims {
            v = v * shape[d] + i[d];
        }
        out.push(v as i64);
    });
    if elem.is_float() {
        let n = out.len();
        let mut d = Data::filled(elem, n, 0.0);
        for (k, v) in out.into_iter().enumerate() {
            d.set_f64(k, elem.round(v as f64));
        }
        return Array::new(elem, shape.to_vec(), d);
    }
    Array::new(elem, shape.to_vec(), Data::I64(out))
}

/// A mask: true where every index is below its bound.
pub(crate) fn mask(shape: &[usize], bounds: &[i64]) -> Array {
    let mut out = Vec::with_capacity(shape.iter().product());
    for_each_index(shape, |i| {
        out.push(i64::from(
            i.iter().zip(bounds).all(|(&x, &b)| (x as i64) < b),
        ));
    });
    Array::new(ElemType::Int(1), shape.to_vec(), Data::I64(out))
}

/// The element mask of a `sublane_mask`: one flag per row (the
/// second-minor dimension), or per element of a one-dimensional vector.
pub(crate) fn sublane_mask(shape: &[usize], rows: &[bool]) -> R<Array> {
    let rank = shape.len();
    let dim = if rank >= 2 && shape[rank - 2] == rows.len() {
        rank - 2
    } else if rank >= 1 && shape[rank - 1] == rows.len() {
        rank - 1
    } else {
        return Err(format!(
            "a sublane mask of {} for a vector of shape {shape:?}",
            rows.len()
        ));
    };
    let mut out = Vec::with_capacity(shape.iter().product());
    for_each_index(shape, |i| out.push(i64::from(rows[i[dim]])));
    Ok(Array::new(ElemType::Int(1), shape.to_vec(), Data::I64(out)))
}

/// Concatenation along `dim`.
pub(crate) fn concat(parts: &[std::rc::Rc<Array>], dim: usize) -> R<Array> {
    let first = parts.first().ok_or("nothing to concatenate")?;
    let mut shape = first.shape.clone();
    if dim >= shape.len() {
        return Err(format!("dimension {dim} out of range"));
    }
    if parts
        .iter()
        .any(|p| p.shape.len() != shape.len() || p.elem.signless() != first.elem.signless())
    {
        return Err("concatenated vectors differ in rank or type".into());
    }
    shape[dim] = parts.iter().map(|p| p.shape[dim]).sum();
    let mut out = Data::filled(first.elem, shape.iter().product(), 0.0);
    let strides = Array::strides(&shape);
    let mut at = 0;
    for p in parts {
        let mut idx = Vec::with_capacity(p.len());
        for_each_index(&p.shape, |i| {
            let mut o = 0;
            for d in 0..i.len() {
                o += (i[d] + if d == dim { at } else { 0 }) * strides[d];
            }
            idx.push(o);
        });
        out.scatter(&idx, &p.data);
        at += p.shape[dim];
    }
    Ok(Array::new(first.elem, shape, out))
}

/// `tpu.dynamic_rotate` (`pltpu.roll`): element `i` moves to `i + amount`
/// (mod the size) along `dim`; with a stride, slice `k` along the stride
/// dimension moves by `amount + k * stride`.
pub(crate) fn rotate(a: &Array, amount: i64, dim: usize, stride: Option<(i64, usize)>) -> R<Array> {
    if dim >= a.shape.len() || stride.is_some_and(|(_, d)| d >= a.shape.len()) {
        return Err(format!("dimension {dim} out of range"));
    }
    let n = a.shape[dim] as i64;
    let strides = Array::strides(&a.shape);
    let mut idx = Vec::with_capacity(a.len());
    for_each_index(&a.shape, |i| {
        let shift = amount.wrapping_add(stride.map_or(0, |(s, sd)| s.wrapping_mul(i[sd] as i64)));
        let src = (i[dim] as i64).wrapping_sub(shift).rem_euclid(n.max(1)) as usize;
        let mut o = 0;
        for d in 0..i.len() {
            o += if d == dim { src } else { i[d] } * strides[d];
        }
        idx.push(o);
    });
    Ok(Array::new(a.elem, a.shape.clone(), a.data.gather(&idx)))
}

/// `tpu.matmul`: `acc + lhs . rhs` with the dimension numbers; products and
/// sums in `f32` for float operands narrower than `f64` (exact products of
/// bf16), `i64` for integers; rounded to the accumulator's type.
pub(crate) fn matmul(
    l: &Array,
    r: &Array,
    acc: &Array,
    dims: &DotDims,
    tl: bool,
    tr: bool,
) -> R<Array> {
    use std::borrow::Cow;
    let l: Cow<'_, Array> = if tl {
        Cow::Owned(transpose(l, &[1, 0])?)
    } else {
        Cow::Borrowed(l)
    };
    let r: Cow<'_, Array> = if tr {
        Cow::Owned(transpose(r, &[1, 0])?)
    } else {
        Cow::Borrowed(r)
    };
    // Bring lhs to [batch, m, k] and rhs to [batch, k, n].
    let lperm: Vec<usize> = dims
        .lhs_batch
        .iter()
        .chain(&dims.lhs_non_contracting)
        .chain(&dims.lhs_contracting)
        .copied()
        .collect();
    let rperm: Vec<usize> = dims
        .rhs_batch
        .iter()
        .chain(&dims.rhs_contracting)
        .chain(&dims.rhs_non_contracting)
        .copied()
        .collect();
    let is_perm = |p: &[usize], n: usize| {
        let mut seen = vec![false; n];
        p.len() == n
            && p.iter()
                .all(|&d| d < n && !std::mem::replace(&mut seen[d], true))
    };
    if !is_perm(&lperm, l.shape.len()) || !is_perm(&rperm, r.shape.len()) {
        return Err("dimension numbers do not cover the operands".into());
    }
    let size = |a: &Array, ds: &[usize]| ds.iter().map(|&d| a.shape[d]).product::<usize>();
    let b = size(&l, &dims.lhs_batch);
    let m = size(&l, &dims.lhs_non_contracting);
    let k = size(&l, &dims.lhs_contracting);
    let n = size(&r, &dims.rhs_non_contracting);
    if size(&r, &dims.rhs_contracting) != k || size(&r, &dims.rhs_batch) != b {
        return Err(format!(
            "matmul operand shapes {:?} and {:?} do not agree",
            l.shape, r.shape
        ));
    }
    let lt = if lperm.iter().enumerate().all(|(i, &p)| i == p) {
        l
    } else {
        Cow::Owned(transpose(&l, &lperm)?)
    };
    let rt = if rperm.iter().enumerate().all(|(i, &p)| i == p) {
        r
    } else {
        Cow::Owned(transpose(&r, &rperm)?)
    };
    if acc.len() != b * m * n {
        return Err(format!(
            "accumulator shape {:?} does not fit {b}x{m}x{n}",
            acc.shape
        ));
    }
    let out_t = acc.elem;
    let data = if out_t.is_float() {
        fn to32(a: &Array) -> Cow<'_, [f32]> {
            match &a.data {
                Data::F32(v) => Cow::Borrowed(v.as_slice()),
                d => Cow::Owned((0..d.len()).map(|i| d.get_f64(i) as f32).collect()),
            }
        }
        if out_t == ElemType::F64 {
            let lv: Vec<f64> = lt.to_f64_vec();
            let rv: Vec<f64> = rt.to_f64_vec();
            let mut c = vec![0f64; b * m * n];
            for bi in 0..b {
                // SAFETY: the slices hold m*k, k*n and m*n elements with the
                // row-major strides given.
                unsafe {
                    matrixmultiply::dgemm(
                        m,
                        k,
                        n,
                        1.0,
                        lv[bi * m * k..].as_ptr(),
                        k as isize,
                        1,
                        rv[bi * k * n..].as_ptr(),
                        n as isize,
                        1,
                        0.0,
                        c[bi * m * n..].as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
            Data::F64(c)
        } else {
            let lv = to32(&lt);
            let rv = to32(&rt);
            let mut c = vec![0f32; b * m * n];
            for bi in 0..b {
                // SAFETY: as above.
                unsafe {
                    matrixmultiply::sgemm(
                        m,
                        k,
                        n,
                        1.0,
                        lv[bi * m * k..].as_ptr(),
                        k as isize,
                        1,
                        rv[bi * k * n..].as_ptr(),
                        n as isize,
                        1,
                        0.0,
                        c[bi * m * n..].as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
            Data::F32(c)
        }
    } else {
        let lv: Vec<i64> = (0..lt.len()).map(|i| lt.data.get_i64(i)).collect();
        let rv: Vec<i64> = (0..rt.len()).map(|i| rt.data.get_i64(i)).collect();
        let mut c = vec![0i64; b * m * n];
        for bi in 0..b {
            for i in 0..m {
                for p in 0..k {
                    let x = lv[bi * m * k + i * k + p];
                    if x == 0 {
                        continue;
                    }
                    let row = &rv[bi * k * n + p * n..bi * k * n + p * n + n];
                    let out = &mut c[bi * m * n + i * n..bi * m * n + i * n + n];
                    for (o, &y) in out.iter_mut().zip(row) {
                        *o = o.wrapping_add(x.wrapping_mul(y));
                    }
                }
            }
        }
        Data::I64(c)
    };
    let prod = Array::new(out_t, vec![b * m * n], data);
    // Output dims in [batch, m, n] order; permute to the requested order.
    let sum = add_acc(&prod, acc)?;
    order_output(sum, dims, acc)
}

fn add_acc(prod: &Array, acc: &Array) -> R<Array> {
    let t = acc.elem;
    let n = prod.len();
    let data = match (&prod.data, &acc.data) {
        (Data::F32(p), Data::F32(a)) => {
            Data::F32(p.iter().zip(a).map(|(&x, &y)| t.round_f32(x + y)).collect())
        }
        (Data::F64(p), Data::F64(a)) => Data::F64(p.iter().zip(a).map(|(&x, &y)| x + y).collect()),
        (Data::I64(p), Data::I64(a)) => Data::I64(
            p.iter()
                .zip(a)
                .map(|(&x, &y)| t.wrap(x.wrapping_add(y)))
                .collect(),
        ),
        _ => return Err("accumulator type does not match".into()),
    };
    Ok(Array::new(t, vec![n], data))
}

fn order_output(sum: Array, dims: &DotDims, acc: &Array) -> R<Array> {
    // The accumulator's shape is the output's. Pallas emits batch, lhs
    // non-contracting, rhs non-contracting in order; anything else is
    // reordered from that canonical layout.
    let canonical: Vec<(usize, usize)> = dims
        .lhs_batch
        .iter()
        .map(|&d| (0, d))
        .chain(dims.lhs_non_contracting.iter().map(|&d| (0, d)))
        .chain(dims.rhs_non_contracting.iter().map(|&d| (1, d)))
        .collect();
    if dims.output.is_empty()
        || dims.output == canonical
        || dims.output.len() == canonical.len()
            && dims
                .output
                .iter()
                .skip(dims.lhs_batch.len())
                .eq(canonical.iter().skip(dims.lhs_batch.len()))
    {
        return Ok(sum.reshaped(acc.shape.clone()));
    }
    // A permutation of the canonical dims.
    let perm: Option<Vec<usize>> = dims
        .output
        .iter()
        .map(|o| canonical.iter().position(|c| c == o))
        .collect();
    let perm = perm.ok_or("unsupported matmul output order")?;
    let canon_shape: Vec<usize> = perm
        .iter()
        .enumerate()
        .map(|(i, _)| {
            let p = perm.iter().position(|&x| x == i).unwrap_or(i);
            acc.shape[p]
        })
        .collect();
    let t = transpose(&sum.reshaped(canon_shape), &perm)?;
    Ok(t.reshaped(acc.shape.clone()))
}

fn bits_of(t: ElemType, d: &Data, i: usize) -> u64 {
    if t.is_float() {
        t.float_bits(d.get_f64(i))
    } else {
        t.unsigned(d.get_i64(i))
    }
}

fn from_bits(t: ElemType, bits: u64) -> f64 {
    if t.is_float() {
        t.float_from_bits(bits)
    } else {
        t.wrap(bits as i64) as f64
    }
}

fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `tpu.pack_elementwise`: each source converted to `target` (floats
/// rounded to nearest even, integers truncated) and packed into the
/// result's integers, source 0 in the lowest bits.
pub(crate) fn pack_elementwise(
    sources: &[std::rc::Rc<Array>],
    target: ElemType,
    out: ElemType,
) -> R<Array> {
    let first = sources.first().ok_or("nothing to pack")?;
    let b = target.bits();
    if sources.iter().any(|s| s.shape != first.shape)
        || (b as usize) * sources.len() > out.bits() as usize
    {
        return Err(format!(
            "cannot pack {} {} value(s) into {out}",
            sources.len(),
            target
        ));
    }
    let n = first.len();
    let mut words = vec![0u64; n];
    for (k, src) in sources.iter().enumerate() {
        for (i, w) in words.iter_mut().enumerate() {
            let part = if target.is_float() {
                target.float_bits(target.round(src.data.get_f64(i)))
            } else if src.elem.is_float() {
                // Through the integer conversion (truncating toward zero).
                (src.data.get_f64(i).trunc() as i64) as u64
            } else {
                src.data.get_i64(i) as u64
            } & low_mask(b);
            *w |= part << (k as u32 * b);
        }
    }
    Ok(Array::new(
        out,
        first.shape.clone(),
        Data::I64(words.into_iter().map(|w| out.wrap(w as i64)).collect()),
    ))
}

/// `tpu.unpack_elementwise`: sub-element `index` (0: lowest bits) of type
/// `source` of each integer, converted to `out` (floats exactly, integers
/// sign-extended).
pub(crate) fn unpack_elementwise(
    a: &Array,
    index: usize,
    source: ElemType,
    out: ElemType,
) -> R<Array> {
    let b = source.bits();
    if (index as u32 + 1) * b > a.elem.bits() {
        return Err(format!(
            "sub-element {index} of {source} is outside {}",
            a.elem
        ));
    }
    let n = a.len();
    let mut d = Data::filled(out, n, 0.0);
    for i in 0..n {
        let bits = (a.elem.unsigned(a.data.get_i64(i)) >> (index as u32 * b)) & low_mask(b);
        let v = from_bits(source.signless(), bits);
        if out.is_float() {
            d.set_f64(i, out.round(v));
        } else if let Data::I64(o) = &mut d {
            o[i] = out.wrap(v as i64);
        }
    }
    Ok(Array::new(out, a.shape.clone(), d))
}

/// `tpu.dynamic_gather`: along `dim`, each element takes the source
/// element at its index (modulo the dimension).
pub(crate) fn dynamic_gather(x: &Array, idx: &Array, dim: usize) -> R<Array> {
    if idx.shape != x.shape || dim >= x.shape.len() {
        return Err(format!(
            "gather of {:?} with indices {:?} along {dim}",
            x.shape, idx.shape
        ));
    }
    let n = x.shape[dim] as i64;
    let strides = Array::strides(&x.shape);
    let mut pos = Vec::with_capacity(x.len());
    let mut k = 0;
    for_each_index(&x.shape, |i| {
        let j = idx.data.get_i64(k).rem_euclid(n.max(1)) as usize;
        let mut o = 0;
        for (d, &x) in i.iter().enumerate() {
            o += if d == dim { j } else { x } * strides[d];
        }
        pos.push(o);
        k += 1;
    });
    Ok(Array::new(x.elem, x.shape.clone(), x.data.gather(&pos)))
}

/// Bitcasts: same width, elementwise; else along the minor dimension
/// (`vector.bitcast`, like NumPy's `view`) or the second-minor one
/// (`tpu.bitcast`), little-endian: narrowing, part `k` of element `j` goes
/// to `j * r + k` (part 0 the lowest bits); widening is the inverse.
pub(crate) fn vector_bitcast(a: &Array, out: ElemType, shape: &[usize], minor: bool) -> R<Array> {
    let (bi, bo) = (a.elem.bits(), out.bits());
    let n_out: usize = shape.iter().product();
    if (a.len() as u64) * u64::from(bi) != (n_out as u64) * u64::from(bo)
        || shape.len() != a.shape.len()
        || shape.is_empty()
    {
        return Err(format!(
            "cannot bitcast {}{:?} to {out}{shape:?}",
            a.elem, a.shape
        ));
    }
    let rank = shape.len();
    let axis = if minor || rank < 2 {
        rank - 1
    } else {
        rank - 2
    };
    let in_strides = Array::strides(&a.shape);
    let mut d = Data::filled(out, n_out, 0.0);
    let mut k = 0;
    let mut err = None;
    for_each_index(shape, |i| {
        let mut word: u64 = 0;
        if bo <= bi {
            let r = (bi / bo) as usize;
            let mut src = 0;
            for (dd, &x) in i.iter().enumerate() {
                src += if dd == axis { x / r } else { x } * in_strides[dd];
            }
            let part = (i[axis] % r) as u32;
            word = (bits_of(a.elem, &a.data, src) >> (part * bo)) & low_mask(bo);
        } else {
            let q = (bo / bi) as usize;
            for part in 0..q {
                let mut src = 0;
                for (dd, &x) in i.iter().enumerate() {
                    src += if dd == axis { x * q + part } else { x } * in_strides[dd];
                }
                if src >= a.len() {
                    err = Some("bitcast reads past its source".to_string());
                    return;
                }
                word |= bits_of(a.elem, &a.data, src) << (part as u32 * bi);
            }
        }
        d.set_f64(k, 0.0);
        if out.is_float() {
            d.set_f64(k, out.float_from_bits(word));
        } else if let Data::I64(o) = &mut d {
            o[k] = out.wrap(word as i64);
        }
        k += 1;
    });
    match err {
        Some(e) => Err(e),
        None => Ok(Array::new(out, shape.to_vec(), d)),
    }
}

/// `tpu.sort` along the minor dimension: the lanes with `mask` set first,
/// ordered by key (stable; integer keys compared unsigned, as the
/// hardware does; float keys in IEEE total order), then the others in
/// their order; the mask result marks the first `count` lanes.
pub(crate) fn sort(
    keys: &Array,
    values: &Array,
    mask: Option<&Array>,
    descending: bool,
) -> R<(Array, Array, Array)> {
    if keys.shape != values.shape
        || mask.is_some_and(|m| m.shape != keys.shape)
        || keys.shape.is_empty()
    {
        return Err("sort operands differ in shape".into());
    }
    let lanes = *keys.shape.last().unwrap_or(&1);
    let rows = keys.len() / lanes.max(1);
    let mut order = Vec::with_capacity(keys.len());
    let mut out_mask = Vec::with_capacity(keys.len());
    for r in 0..rows {
        let base = r * lanes;
        let on = |i: usize| mask.is_none_or(|m| m.data.get_i64(base + i) != 0);
        let mut valid: Vec<usize> = (0..lanes).filter(|&i| on(i)).collect();
        let cmp = |x: &usize, y: &usize| {
            let (a, b) = (base + x, base + y);
            let o = if keys.elem.is_float() {
                keys.data.get_f64(a).total_cmp(&keys.data.get_f64(b))
            } else {
                keys.elem
                    .unsigned(keys.data.get_i64(a))
                    .cmp(&keys.elem.unsigned(keys.data.get_i64(b)))
            };
            if descending { o.reverse() } else { o }
        };
        valid.sort_by(cmp);
        let count = valid.len();
        valid.extend((0..lanes).filter(|&i| !on(i)));
        order.extend(valid.into_iter().map(|i| base + i));
        out_mask.extend((0..lanes).map(|i| i64::from(i < count)));
    }
    Ok((
        Array::new(ElemType::Int(1), keys.shape.clone(), Data::I64(out_mask)),
        Array::new(keys.elem, keys.shape.clone(), keys.data.gather(&order)),
        Array::new(
            values.elem,
            values.shape.clone(),
            values.data.gather(&order),
        ),
    ))
}

/// `tpu.scan_count` along the minor dimension: for each lane with `mask`
/// set, how many set lanes up to it hold its value, and whether it is the
/// last set lane with that value.
pub(crate) fn scan_count(mask: &Array, values: &Array) -> R<(Array, Array)> {
    if mask.shape != values.shape || values.shape.is_empty() {
        return Err("scan_count operands differ in shape".into());
    }
    let lanes = *values.shape.last().unwrap_or(&1);
    let mut last = vec![0i64; values.len()];
    let mut counts = vec![0i64; values.len()];
    for r in 0..values.len() / lanes.max(1) {
        let base = r * lanes;
        let on = |i: usize| mask.data.get_i64(base + i) != 0;
        let bits = |i: usize| bits_of(values.elem, &values.data, base + i);
        for i in (0..lanes).filter(|&i| on(i)) {
            counts[base + i] = (0..=i).filter(|&j| on(j) && bits(j) == bits(i)).count() as i64;
            last[base + i] = i64::from(!(i + 1..lanes).any(|j| on(j) && bits(j) == bits(i)));
        }
    }
    Ok((
        Array::new(ElemType::Int(1), values.shape.clone(), Data::I64(last)),
        Array::new(ElemType::Int(32), values.shape.clone(), Data::I64(counts)),
    ))
}

/// `tpu.all_reduce` along `dim`: every element of the result (of `shape`)
/// holds the reduction of its line along `dim`. `sum` of a mask counts its
/// set lanes; `find_first_set` is the first set lane's index, or the line's
/// length when none is set; the other kinds as in `tpu.reduce`.
pub(crate) fn all_reduce(
    kind: &str,
    a: &Array,
    dim: usize,
    out: ElemType,
    shape: &[usize],
) -> R<Array> {
    if dim >= a.shape.len() || shape.len() != a.shape.len() {
        return Err(format!(
            "all-reduce along {dim} of {:?} to {shape:?}",
            a.shape
        ));
    }
    let n = a.shape[dim];
    let strides = Array::strides(&a.shape);
    let mut line_shape = a.shape.clone();
    line_shape[dim] = 1;
    let red = match kind {
        "find_first_set" => None,
        k => Some(Red::parse(k).ok_or_else(|| format!("reduction kind `{k}` is not supported"))?),
    };
    let mut values = Vec::new();
    for_each_index(&line_shape, |i| {
        let base: usize = i.iter().zip(&strides).map(|(x, s)| x * s).sum();
        let at = |k: usize| base + k * strides[dim];
        let v = match red {
            None => (0..n).find(|&k| a.data.get_i64(at(k)) != 0).unwrap_or(n) as f64,
            Some(Red::Add) if a.elem == ElemType::Int(1) => {
                (0..n).filter(|&k| a.data.get_i64(at(k)) != 0).count() as f64
            }
            Some(r) => {
                let mut acc = a.data.get_f64(at(0));
                for k in 1..n {
                    let x = a.data.get_f64(at(k));
                    acc = if a.elem.is_float() {
                        combine_f(r, acc, x)
                    } else {
                        combine_i(r, a.elem, acc as i64, x as i64) as f64
                    };
                }
                acc
            }
        };
        values.push(v);
    });
    let total: usize = shape.iter().product();
    let mut d = Data::filled(out, total, 0.0);
    let mut out_line = shape.to_vec();
    out_line[dim] = 1;
    let out_strides = Array::strides(&out_line);
    let mut k = 0;
    for_each_index(shape, |i| {
        let line: usize = i
            .iter()
            .enumerate()
            .filter(|(dd, _)| *dd != dim)
            .map(|(dd, &x)| x * out_strides[dd])
            .sum();
        let v = values.get(line).copied().unwrap_or(0.0);
        if out.is_float() {
            d.set_f64(k, out.round(v));
        } else if let Data::I64(o) = &mut d {
            o[k] = out.wrap(v as i64);
        }
        k += 1;
    });
    Ok(Array::new(out, shape.to_vec(), d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `plsc.all_reduce_population_count` and `all_reduce_ffs` (JAX's
    /// docstrings: the count of set lanes in every lane; the first set
    /// lane's index, or the size when none is set).
    #[test]
    fn mask_all_reduce_counts_and_finds_the_first_set_lane() {
        let mask = Array::new(
            ElemType::Int(1),
            vec![8],
            Data::I64(vec![0, 0, 1, 0, 1, 1, 0, 0]),
        );
        let count = all_reduce("sum", &mask, 0, ElemType::Int(32), &[8]).unwrap();
        assert_eq!(count.data, Data::I64(vec![3; 8]));
        let first = all_reduce("find_first_set", &mask, 0, ElemType::Int(32), &[4]).unwrap();
        assert_eq!(first.data, Data::I64(vec![2; 4]));
        let none = Array::new(ElemType::Int(1), vec![8], Data::I64(vec![0; 8]));
        let first = all_reduce("find_first_set", &none, 0, ElemType::Int(32), &[8]).unwrap();
        assert_eq!(first.data, Data::I64(vec![8; 8]));
    }
}
