//! Element types of executed values, and the rounding of narrow floats.
//!
//! Every float narrower than `f64` is held as an `f32` and rounded to its
//! format (round to nearest, ties to even) after each operation, so a value
//! is always one the format can represent. Integers are held as `i64`,
//! sign-extended from their width (`i1` as 0 or 1), and wrap at their width.

use std::fmt;

/// The element type of a buffer or vector, as the kernel (or the call) names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `f64`.
    F64,
    /// `f32`.
    F32,
    /// `bf16`.
    BF16,
    /// `f16`.
    F16,
    /// `f8E4M3FN`.
    F8E4M3FN,
    /// `f8E5M2`.
    F8E5M2,
    /// `f8E4M3B11FNUZ`.
    F8E4M3B11FNUZ,
    /// A signless (or signed) integer of this width, `i1` included.
    Int(u32),
    /// An unsigned integer of this width (call operands only: `ui8`; a
    /// kernel sees it as the signless integer of the same width).
    UInt(u32),
    /// `index` (64 bits here).
    Index,
    /// `!tpu.semaphore`.
    Semaphore,
    /// `!tpu.dma_semaphore`.
    DmaSemaphore,
}

/// Where each narrow float format differs from IEEE binary32.
struct Format {
    mantissa: i32,
    min_exp: i32,
    max: f64,
    has_inf: bool,
}

impl ElemType {
    /// Reads an element type as MLIR prints it (`f32`, `bf16`, `i8`, `ui8`,
    /// `si32`, `index`, `!tpu.dma_semaphore`).
    pub fn parse(text: &str) -> Option<ElemType> {
        let t = text.trim();
        Some(match t {
            "f64" => ElemType::F64,
            "f32" => ElemType::F32,
            "bf16" => ElemType::BF16,
            "f16" => ElemType::F16,
            "f8E4M3FN" => ElemType::F8E4M3FN,
            "f8E5M2" => ElemType::F8E5M2,
            "f8E4M3B11FNUZ" => ElemType::F8E4M3B11FNUZ,
            "index" => ElemType::Index,
            "!tpu.semaphore" => ElemType::Semaphore,
            "!tpu.dma_semaphore" => ElemType::DmaSemaphore,
            _ => {
                let (unsigned, digits) = if let Some(d) = t.strip_prefix("ui") {
                    (true, d)
                } else if let Some(d) = t.strip_prefix("si") {
                    (false, d)
                } else {
                    (false, t.strip_prefix('i')?)
                };
                let w: u32 = digits.parse().ok()?;
                if !(1..=64).contains(&w) {
                    return None;
                }
                if unsigned {
                    ElemType::UInt(w)
                } else {
                    ElemType::Int(w)
                }
            }
        })
    }

    /// A float type (held as `f32` unless `f64`).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElemType::F64
                | ElemType::F32
                | ElemType::BF16
                | ElemType::F16
                | ElemType::F8E4M3FN
                | ElemType::F8E5M2
                | ElemType::F8E4M3B11FNUZ
        )
    }

    /// An integer type (`index` and semaphores included: held as `i64`).
    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Width in bits (semaphores: 32, `index`: 64).
    pub fn bits(self) -> u32 {
        match self {
            ElemType::F64 | ElemType::Index => 64,
            ElemType::F32 | ElemType::Semaphore | ElemType::DmaSemaphore => 32,
            ElemType::BF16 | ElemType::F16 => 16,
            ElemType::F8E4M3FN | ElemType::F8E5M2 | ElemType::F8E4M3B11FNUZ => 8,
            ElemType::Int(w) | ElemType::UInt(w) => w,
        }
    }

    /// Bytes an element takes in memory (DMA sizes, bitcasts); `i1` takes one.
    pub fn bytes(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }

    /// The type a kernel sees for a call's element type (`ui8` is `i8`).
    pub fn signless(self) -> ElemType {
        match self {
            ElemType::UInt(w) => ElemType::Int(w),
            t => t,
        }
    }

    /// The integer width for wrapping (`index` 64).
    pub(crate) fn int_width(self) -> u32 {
        match self {
            ElemType::Int(w) | ElemType::UInt(w) => w,
            _ => 64,
        }
    }

    fn format(self) -> Option<Format> {
        Some(match self {
            ElemType::BF16 => Format {
                mantissa: 7,
                min_exp: -126,
                max: f64::from(f32::from_bits(0x7f7f_0000)),
                has_inf: true,
            },
            ElemType::F16 => Format {
                mantissa: 10,
                min_exp: -14,
                max: 65504.0,
                has_inf: true,
            },
            ElemType::F8E4M3FN => Format {
                mantissa: 3,
                min_exp: -6,
                max: 448.0,
                has_inf: false,
            },
            ElemType::F8E5M2 => Format {
                mantissa: 2,
                min_exp: -14,
                max: 57344.0,
                has_inf: true,
            },
            ElemType::F8E4M3B11FNUZ => Format {
                mantissa: 3,
                min_exp: -10,
                max: 30.0,
                has_inf: false,
            },
            _ => return None,
        })
    }

    /// Rounds a value to this float type (to nearest, ties to even; overflow
    /// to infinity, or NaN for formats without one). `f32` and `f64` values
    /// pass through (an `f64` argument is rounded to `f32` for `f32`).
    pub fn round(self, x: f64) -> f64 {
        match self {
            ElemType::F64 => x,
            ElemType::F32 => f64::from(x as f32),
            ElemType::BF16 => f64::from(round_bf16(x as f32)),
            _ => match self.format() {
                Some(f) => round_to(x, &f),
                None => x,
            },
        }
    }

    /// Rounds an `f32` to this type, as an `f32` (the storage of narrow floats).
    #[inline]
    pub(crate) fn round_f32(self, x: f32) -> f32 {
        match self {
            ElemType::F32 => x,
            ElemType::BF16 => round_bf16(x),
            _ => match self.format() {
                Some(f) => round_to(f64::from(x), &f) as f32,
                None => x,
            },
        }
    }

    /// Wraps an integer to this type's width: sign-extended (`i1`: 0 or 1).
    #[inline]
    pub(crate) fn wrap(self, v: i64) -> i64 {
        wrap_int(self.int_width(), v)
    }

    /// The bits of a stored value, zero-extended from the width.
    #[inline]
    pub(crate) fn unsigned(self, v: i64) -> u64 {
        let w = self.int_width();
        if w >= 64 {
            v as u64
        } else {
            (v as u64) & ((1u64 << w) - 1)
        }
    }

    /// The bit pattern of a float held as `f32`/`f64`, in this type's width.
    pub(crate) fn float_bits(self, x: f64) -> u64 {
        match self {
            ElemType::F64 => x.to_bits(),
            ElemType::F32 => u64::from((x as f32).to_bits()),
            ElemType::BF16 => u64::from((x as f32).to_bits() >> 16),
            ElemType::F16 => u64::from(f16_bits(x as f32)),
            _ => match self.format() {
                Some(f) => u64::from(f8_bits(x, &f, self)),
                None => 0,
            },
        }
    }

    /// The float a bit pattern of this type's width stands for.
    pub(crate) fn float_from_bits(self, bits: u64) -> f64 {
        match self {
            ElemType::F64 => f64::from_bits(bits),
            ElemType::F32 => f64::from(f32::from_bits(bits as u32)),
            ElemType::BF16 => f64::from(f32::from_bits((bits as u32 & 0xffff) << 16)),
            ElemType::F16 => f64::from(f16_value(bits as u16)),
            _ => match self.format() {
                Some(f) => f8_value(bits as u8, &f, self),
                None => 0.0,
            },
        }
    }

    /// The largest finite value (floats) or largest integer: what JAX's
    /// interpret mode fills uninitialised integer memory with.
    pub(crate) fn max_value(self) -> f64 {
        match self {
            ElemType::Int(1) => 1.0,
            ElemType::Int(w) => ((1u64 << (w.min(64) - 1)) - 1) as f64,
            ElemType::UInt(w) => {
                if w >= 64 {
                    u64::MAX as f64
                } else {
                    ((1u64 << w) - 1) as f64
                }
            }
            _ => self.format().map_or(f64::MAX, |f| f.max),
        }
    }
}

/// Wraps `v` to `w` bits, sign-extended (`w == 1`: 0 or 1).
#[inline]
pub(crate) fn wrap_int(w: u32, v: i64) -> i64 {
    match w {
        1 => v & 1,
        64.. => v,
        _ => {
            let s = 64 - w;
            (v << s) >> s
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ElemType::F64 => "f64",
            ElemType::F32 => "f32",
            ElemType::BF16 => "bf16",
            ElemType::F16 => "f16",
            ElemType::F8E4M3FN => "f8E4M3FN",
            ElemType::F8E5M2 => "f8E5M2",
            ElemType::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            ElemType::Index => "index",
            ElemType::Semaphore => "!tpu.semaphore",
            ElemType::DmaSemaphore => "!tpu.dma_semaphore",
            ElemType::Int(w) => return write!(f, "i{w}"),
            ElemType::UInt(w) => return write!(f, "ui{w}"),
        };
        f.write_str(s)
    }
}

/// `f32` to the nearest `bf16` (ties to even), NaN kept quiet.
#[inline]
pub(crate) fn round_bf16(x: f32) -> f32 {
    let b = x.to_bits();
    if x.is_nan() {
        return f32::from_bits((b | 0x0040_0000) & 0xffff_0000);
    }
    let lsb = (b >> 16) & 1;
    let r = b.wrapping_add(0x7fff + lsb) & 0xffff_0000;
    f32::from_bits(r)
}

fn round_to(x: f64, f: &Format) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.is_infinite() {
        return if f.has_inf { x } else { f64::NAN };
    }
    if x == 0.0 {
        return x;
    }
    let a = x.abs();
    let e = (a.log2().floor() as i32).max(f.min_exp);
    let quantum = (2f64).powi(e - f.mantissa);
    // Dividing by a power of two is exact: this is the rounding itself.
    let q = (a / quantum).round_ties_even();
    let r = q * quantum;
    let r = if r > f.max {
        if f.has_inf { f64::INFINITY } else { f64::NAN }
    } else {
        r
    };
    r.copysign(x)
}

fn f16_bits(x: f32) -> u16 {
    let f = ElemType::F16.format().expect("f16 format");
    let r = round_to(f64::from(x), &f);
    let sign = if r.is_sign_negative() { 0x8000u16 } else { 0 };
    if r.is_nan() {
        return 0x7e00;
    }
    let a = r.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a == 0.0 {
        return sign;
    }
    let e = a.log2().floor() as i32;
    if e < -14 {
        return sign | (a / (2f64).powi(-24)).round() as u16;
    }
    let m = ((a / (2f64).powi(e) - 1.0) * 1024.0).round() as u16;
    sign | (((e + 15) as u16) << 10) | m
}

fn f16_value(b: u16) -> f32 {
    let sign = if b & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((b >> 10) & 0x1f);
    let m = f64::from(b & 0x3ff);
    let v = match e {
        0 => m * (2f64).powi(-24),
        31 => {
            if m == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * (2f64).powi(e - 15),
    };
    (sign * v) as f32
}

fn f8_bias(t: ElemType) -> i32 {
    match t {
        ElemType::F8E4M3FN => 7,
        ElemType::F8E5M2 => 15,
        _ => 11,
    }
}

fn f8_bits(x: f64, f: &Format, t: ElemType) -> u8 {
    let r = round_to(x, f);
    let ebits = 7 - f.mantissa as u32;
    let bias = f8_bias(t);
    let nan: u8 = match t {
        ElemType::F8E4M3FN => 0x7f,
        ElemType::F8E5M2 => 0x7e,
        _ => 0x80,
    };
    if r.is_nan() {
        return nan;
    }
    // FNUZ formats have no negative zero.
    let negative_zero_unsigned = t == ElemType::F8E4M3B11FNUZ && r == 0.0;
    let sign = if r.is_sign_negative() && !negative_zero_unsigned {
        0x80u8
    } else {
        0
    };
    let a = r.abs();
    if a.is_infinite() {
        return sign | ((((1u32 << ebits) - 1) as u8) << f.mantissa);
    }
    if a == 0.0 {
        return sign;
    }
    let e = (a.log2().floor() as i32).max(f.min_exp);
    let scale = (2f64).powi(f.mantissa);
    if e == f.min_exp && a < (2f64).powi(f.min_exp) {
        return sign | (a / (2f64).powi(f.min_exp - f.mantissa)).round() as u8;
    }
    let m = ((a / (2f64).powi(e) - 1.0) * scale).round() as u8;
    sign | (((e + bias) as u8) << f.mantissa) | m
}

fn f8_value(b: u8, f: &Format, t: ElemType) -> f64 {
    let ebits = 7 - f.mantissa as u32;
    let bias = f8_bias(t);
    let neg = b & 0x80 != 0;
    let e = i32::from((b >> f.mantissa) & ((1 << ebits) - 1) as u8);
    let m = f64::from(b & ((1u8 << f.mantissa) - 1));
    let scale = (2f64).powi(f.mantissa);
    match t {
        ElemType::F8E4M3FN if b & 0x7f == 0x7f => return f64::NAN,
        ElemType::F8E5M2 if e == 31 => {
            return if m == 0.0 {
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            } else {
                f64::NAN
            };
        }
        ElemType::F8E4M3B11FNUZ if b == 0x80 => return f64::NAN,
        _ => {}
    }
    let v = if e == 0 {
        m / scale * (2f64).powi(1 - bias)
    } else {
        (1.0 + m / scale) * (2f64).powi(e - bias)
    };
    if neg { -v } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_floats_round_to_nearest_even() {
        // bf16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7.
        assert_eq!(round_bf16(1.0 + 2f32.powi(-8)), 1.0);
        assert_eq!(round_bf16(1.0 + 3.0 * 2f32.powi(-8)), 1.0 + 2f32.powi(-6));
        assert_eq!(ElemType::F16.round(65520.0), f64::INFINITY);
        assert_eq!(ElemType::F16.round(65519.0), 65504.0);
        assert!(ElemType::F8E4M3FN.round(480.0).is_nan());
        assert_eq!(ElemType::F8E4M3FN.round(0.3), 0.3125);
        for t in [
            ElemType::F16,
            ElemType::F8E4M3FN,
            ElemType::F8E5M2,
            ElemType::BF16,
        ] {
            for x in [0.0, 1.0, -2.5, 0.001, 100.0, 1e-7] {
                let r = t.round(x);
                assert_eq!(t.float_from_bits(t.float_bits(r)), r, "{t} {x}");
            }
        }
        assert_eq!(wrap_int(8, 200), -56);
        assert_eq!(ElemType::Int(8).unsigned(-56), 200);
    }
}
