//! Arrays in and out as NumPy `.npy` files (the header read and written by
//! the `npyz` crate).
//!
//! NumPy has no `bfloat16`: a `bf16` array is written as its 16-bit
//! patterns (`uint16`), and read from `uint16` patterns or from
//! `ml_dtypes.bfloat16` arrays (which NumPy saves as two-byte void, `<V2`).
//! The `f8` types are written and read as their 8-bit patterns (`uint8`).

use std::io::{Cursor, Read};
use std::path::Path;

use npyz::{TypeChar, WriterBuilder};

use super::array::{Array, Data};
use super::dtype::ElemType;

/// Why an `.npy` file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    /// The file is not an `.npy` file npyz can read.
    #[error("{path}: not a NumPy .npy file: {message}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Its dtype or shape is not the one expected.
    #[error("{path}: {message}")]
    Mismatch {
        /// The file.
        path: String,
        /// What differs.
        message: String,
    },
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// The NumPy type string an element type is written with.
pub fn descr(elem: ElemType) -> &'static str {
    match elem {
        ElemType::F64 => "<f8",
        ElemType::F32 => "<f4",
        ElemType::F16 => "<f2",
        ElemType::BF16 => "<u2",
        ElemType::F8E4M3FN | ElemType::F8E5M2 | ElemType::F8E4M3B11FNUZ => "|u1",
        ElemType::Int(1) => "|b1",
        ElemType::Int(8) => "|i1",
        ElemType::Int(16) => "<i2",
        ElemType::Int(32) | ElemType::Semaphore | ElemType::DmaSemaphore => "<i4",
        ElemType::UInt(8) => "|u1",
        ElemType::UInt(16) => "<u2",
        ElemType::UInt(32) => "<u4",
        ElemType::UInt(_) => "<u8",
        ElemType::Int(_) | ElemType::Index => "<i8",
    }
}

fn mismatch(path: &str, message: String) -> NpyError {
    NpyError::Mismatch {
        path: path.to_string(),
        message,
    }
}

/// The element type a file's dtype holds when none is asked for: NumPy's
/// own types by their meaning (`<f4` f32, `<i8` i64, `|u1` ui8, `|b1` i1,
/// ...), and what `np.save` writes for `ml_dtypes` arrays (measured with
/// ml_dtypes 0.6 and NumPy 2.5): `bfloat16` as two-byte void (`<V2`),
/// `float8_e5m2` as `<f1`. `None` for a dtype that does not say its type:
/// one-byte void (`<V1`, which `np.save` writes for `float8_e4m3fn` and
/// `float8_e4m3b11fnuz` alike) and the rest.
fn elem_of_dtype(tc: TypeChar, width: usize) -> Option<ElemType> {
    Some(match (tc, width) {
        (TypeChar::Float, 8) => ElemType::F64,
        (TypeChar::Float, 4) => ElemType::F32,
        (TypeChar::Float, 2) => ElemType::F16,
        (TypeChar::Float, 1) => ElemType::F8E5M2,
        (TypeChar::RawData, 2) => ElemType::BF16,
        (TypeChar::Bool, 1) => ElemType::Int(1),
        (TypeChar::Int, 1 | 2 | 4 | 8) => ElemType::Int(width as u32 * 8),
        (TypeChar::Uint, 1 | 2 | 4 | 8) => ElemType::UInt(width as u32 * 8),
        _ => return None,
    })
}

/// Reads an array from `.npy` bytes: of element type `elem` (the call
/// operand's: the file's dtype must hold it, see the module docs), or, with
/// `None`, of the type the file's dtype says (bf16 from `ml_dtypes`'
/// `<V2`; a `uint16` file is `ui16` then: ask for
/// [`ElemType::BF16`] to read bit patterns).
pub fn from_bytes(
    bytes: &[u8],
    elem: impl Into<Option<ElemType>>,
    path: &str,
) -> Result<Array, NpyError> {
    from_bytes_as(bytes, elem.into(), path)
}

fn from_bytes_as(bytes: &[u8], elem: Option<ElemType>, path: &str) -> Result<Array, NpyError> {
    // ml_dtypes' float8_e5m2 is saved as `<f1`, a size npyz refuses: read
    // as `|u1` (the same length in the header), the type kept.
    let header_end = bytes.len().min(4096);
    let f1 = [&b"'<f1'"[..], b"'|f1'"]
        .iter()
        .find_map(|t| memchr::memmem::find(&bytes[..header_end], t));
    let patched;
    let bytes = match f1 {
        Some(at) => {
            let mut copy = bytes.to_vec();
            copy[at..at + 5].copy_from_slice(b"'|u1'");
            patched = copy;
            &patched[..]
        }
        None => bytes,
    };
    let elem = match (elem, f1) {
        (None, Some(_)) => Some(ElemType::F8E5M2),
        (elem, _) => elem,
    };
    let npy = npyz::NpyFile::new(Cursor::new(bytes)).map_err(|e| NpyError::Format {
        path: path.to_string(),
        message: e.to_string(),
    })?;
    let npyz::DType::Plain(ts) = npy.dtype() else {
        return Err(mismatch(path, "structured arrays are not supported".into()));
    };
    if npy.order() != npyz::Order::C && npy.shape().iter().filter(|&&d| d > 1).count() > 1 {
        return Err(mismatch(
            path,
            "Fortran-ordered arrays are not supported: save with np.ascontiguousarray".into(),
        ));
    }
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let n: usize = shape.iter().product();
    let width = ts.num_bytes().unwrap_or(0);
    let big = matches!(ts.endianness(), npyz::Endianness::Big);
    let tc = ts.type_char();
    let text = ts.to_string();
    let elem = match elem {
        Some(elem) => elem,
        None => elem_of_dtype(tc, width).ok_or_else(|| {
            mismatch(
                path,
                format!(
                    "has dtype {text}, which does not say its element type{}: read it with the type \
                     (npy::read(path, ElemType::...))",
                    if tc == TypeChar::RawData && width == 1 {
                        " (np.save writes every one-byte ml_dtypes float8 type but float8_e5m2 as <V1)"
                    } else {
                        ""
                    }
                ),
            )
        })?,
    };
    let mut raw = Vec::new();
    npy.into_inner()
        .read_to_end(&mut raw)
        .map_err(|e| NpyError::Io {
            path: path.to_string(),
            source: e,
        })?;
    if raw.len() < n * width {
        return Err(mismatch(
            path,
            format!(
                "holds {} data bytes, its header promises {}",
                raw.len(),
                n * width
            ),
        ));
    }
    let word = |i: usize| -> u64 {
        let b = &raw[i * width..(i + 1) * width];
        let mut v = 0u64;
        for k in 0..width {
            let byte = if big { b[width - 1 - k] } else { b[k] };
            v |= u64::from(byte) << (8 * k);
        }
        v
    };
    let want = descr(elem);
    let ok = match elem {
        ElemType::BF16 => width == 2 && matches!(tc, TypeChar::Uint | TypeChar::RawData),
        ElemType::F8E4M3FN | ElemType::F8E5M2 | ElemType::F8E4M3B11FNUZ => {
            width == 1 && matches!(tc, TypeChar::Uint | TypeChar::RawData)
        }
        t if t.is_float() => tc == TypeChar::Float && width == t.bytes(),
        ElemType::Int(1) => tc == TypeChar::Bool,
        ElemType::Int(w) => tc == TypeChar::Int && width * 8 == w as usize,
        ElemType::UInt(w) => tc == TypeChar::Uint && width * 8 == w as usize,
        ElemType::Index => tc == TypeChar::Int && width == 8,
        _ => false,
    };
    if !ok {
        let hint = if elem == ElemType::BF16 {
            " (bf16 operands are read from uint16 bit patterns or ml_dtypes.bfloat16 arrays)"
        } else {
            ""
        };
        return Err(mismatch(
            path,
            format!("has dtype {text}, the operand is {elem} (expected {want}){hint}"),
        ));
    }
    let data = if elem.is_float() {
        let mut d = Data::filled(elem, n, 0.0);
        for i in 0..n {
            d.set_f64(i, elem.float_from_bits(word(i)));
        }
        d
    } else {
        Data::I64(
            (0..n)
                .map(|i| {
                    let w = word(i);
                    match elem {
                        ElemType::UInt(_) => w as i64,
                        ElemType::Int(1) => i64::from(w != 0),
                        t => t.wrap(w as i64),
                    }
                })
                .collect(),
        )
    };
    Ok(Array::new(elem, shape, data))
}

/// Reads an `.npy` file, as [`from_bytes`]: `read(path, ElemType::F32)`, or
/// `read(path, None)` for the type the file's dtype says.
pub fn read(path: &Path, elem: impl Into<Option<ElemType>>) -> Result<Array, NpyError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| NpyError::Io {
        path: name.clone(),
        source: e,
    })?;
    from_bytes(&bytes, elem, &name)
}

fn write_typed<T: npyz::Serialize + npyz::AutoSerialize + Copy>(
    shape: &[u64],
    vals: impl Iterator<Item = T>,
) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut w = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(shape)
        .writer(&mut out)
        .begin_nd()?;
    for v in vals {
        w.push(&v)?;
    }
    w.finish()?;
    Ok(out)
}

/// An array as `.npy` bytes (see [`descr`] for the dtype of each type).
pub fn to_bytes(a: &Array) -> std::io::Result<Vec<u8>> {
    let shape: Vec<u64> = a.shape.iter().map(|&d| d as u64).collect();
    let n = a.len();
    let d = &a.data;
    match a.elem {
        ElemType::F64 => write_typed(&shape, (0..n).map(|i| d.get_f64(i))),
        ElemType::F32 => write_typed(&shape, (0..n).map(|i| d.get_f64(i) as f32)),
        ElemType::F16 => write_typed(&shape, (0..n).map(|i| half::f16::from_f64(d.get_f64(i)))),
        ElemType::BF16 => write_typed(
            &shape,
            (0..n).map(|i| a.elem.float_bits(d.get_f64(i)) as u16),
        ),
        ElemType::F8E4M3FN | ElemType::F8E5M2 | ElemType::F8E4M3B11FNUZ => write_typed(
            &shape,
            (0..n).map(|i| a.elem.float_bits(d.get_f64(i)) as u8),
        ),
        ElemType::Int(1) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) != 0)),
        ElemType::Int(8) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as i8)),
        ElemType::Int(16) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as i16)),
        ElemType::Int(32) | ElemType::Semaphore | ElemType::DmaSemaphore => {
            write_typed(&shape, (0..n).map(|i| d.get_i64(i) as i32))
        }
        ElemType::UInt(8) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as u8)),
        ElemType::UInt(16) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as u16)),
        ElemType::UInt(32) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as u32)),
        ElemType::UInt(_) => write_typed(&shape, (0..n).map(|i| d.get_i64(i) as u64)),
        ElemType::Int(_) | ElemType::Index => write_typed(&shape, (0..n).map(|i| d.get_i64(i))),
    }
}

/// Writes an array to an `.npy` file, whole or not at all (a temporary file
/// renamed into place).
pub fn write(path: &Path, a: &Array) -> Result<(), NpyError> {
    let name = path.display().to_string();
    let io = |e| NpyError::Io {
        path: name.clone(),
        source: e,
    };
    let bytes = to_bytes(a).map_err(io)?;
    let tmp = path.with_extension("npy.partial");
    std::fs::write(&tmp, &bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `np.save` writes for an `ml_dtypes.bfloat16` array: two-byte
    /// void elements (`<V2`), the bf16 bit patterns.
    #[test]
    fn ml_dtypes_bfloat16_arrays_are_read_as_bf16() {
        let header = "{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }";
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        let pad = 64 - (10 + header.len() + 1) % 64;
        let len = (header.len() + pad + 1) as u16;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend(std::iter::repeat_n(b' ', pad));
        bytes.push(b'\n');
        for v in [1.0f32, -2.5, 0.15625] {
            bytes.extend_from_slice(&((v.to_bits() >> 16) as u16).to_le_bytes());
        }
        let a = from_bytes(&bytes, ElemType::BF16, "mem").expect("reads");
        assert_eq!(a.data, Data::F32(vec![1.0, -2.5, 0.15625]));
        let e = from_bytes(&bytes, ElemType::F32, "mem")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has dtype <V2, the operand is f32"), "{e}");
    }

    #[test]
    fn arrays_round_trip_through_npy() {
        let cases = [
            Array::new(
                ElemType::F32,
                vec![2, 3],
                Data::F32(vec![1.0, -2.5, 3.0, f32::NAN, 0.0, 1e-3]),
            ),
            Array::new(ElemType::BF16, vec![3], Data::F32(vec![1.0, -2.5, 3.0])),
            Array::new(ElemType::Int(8), vec![2], Data::I64(vec![-128, 127])),
            Array::new(ElemType::UInt(8), vec![2], Data::I64(vec![0, 255])),
            Array::new(ElemType::Int(1), vec![2], Data::I64(vec![0, 1])),
            Array::new(ElemType::F16, vec![1], Data::F32(vec![0.5])),
        ];
        for a in cases {
            let bytes = to_bytes(&a).expect("write");
            let b = from_bytes(&bytes, a.elem, "mem").expect("read");
            assert_eq!(
                format!("{:?}", a.data),
                format!("{:?}", b.data),
                "{}",
                a.elem
            );
            assert_eq!(a.shape, b.shape);
        }
    }
}
