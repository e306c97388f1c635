//! Host arrays of the executor as XLA's dense row-major bytes, and back:
//! for PJRT buffers ([`super::CpuClient`]) and FFI buffers
//! ([`super::ffi::Buffer`]).

use crate::exec::{Array, Data, ElemType};

/// An array's elements as XLA holds them: dense, row-major, little-endian.
pub(crate) fn host_bytes(array: &Array) -> Result<Vec<u8>, String> {
    let elem = array.elem;
    let width = elem.bytes();
    let n = array.data.len();
    let mut out = Vec::with_capacity(n * width);
    match elem {
        ElemType::F64 => (0..n).for_each(|i| out.extend(array.data.get_f64(i).to_le_bytes())),
        ElemType::F32 => {
            (0..n).for_each(|i| out.extend((array.data.get_f64(i) as f32).to_le_bytes()))
        }
        t if t.is_float() => (0..n).for_each(|i| {
            let bits = t.float_bits(array.data.get_f64(i));
            out.extend(&bits.to_le_bytes()[..width]);
        }),
        ElemType::Int(1) => (0..n).for_each(|i| out.push(u8::from(array.data.get_i64(i) != 0))),
        ElemType::Int(8 | 16 | 32 | 64) | ElemType::UInt(8 | 16 | 32 | 64) | ElemType::Index => {
            (0..n).for_each(|i| out.extend(&array.data.get_i64(i).to_le_bytes()[..width]))
        }
        other => return Err(format!("element type {other} cannot be copied to XLA")),
    }
    Ok(out)
}

/// XLA's bytes (dense, row-major, little-endian) as an array of `elem` and
/// `shape`; `bytes` holds at least the shape's elements.
pub(crate) fn array_from_bytes(elem: ElemType, shape: Vec<usize>, bytes: &[u8]) -> Array {
    let width = elem.bytes();
    let n: usize = shape.iter().product();
    let word = |i: usize| -> u64 {
        let mut b = [0u8; 8];
        b[..width].copy_from_slice(&bytes[i * width..(i + 1) * width]);
        u64::from_le_bytes(b)
    };
    let data = match elem {
        ElemType::F64 => Data::F64((0..n).map(|i| f64::from_bits(word(i))).collect()),
        t if t.is_float() => Data::F32((0..n).map(|i| t.float_from_bits(word(i)) as f32).collect()),
        ElemType::Int(1) => Data::I64((0..n).map(|i| i64::from(word(i) != 0)).collect()),
        ElemType::UInt(_) => Data::I64((0..n).map(|i| word(i) as i64).collect()),
        t => Data::I64((0..n).map(|i| t.wrap(word(i) as i64)).collect()),
    };
    Array::new(elem, shape, data)
}
