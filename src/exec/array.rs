//! Host arrays: the values of a call's operands and results, and of the
//! kernel's vectors and scalars while it runs.

use super::dtype::ElemType;

/// Element storage: narrow floats are held as `f32` (rounded to their
/// type), integers of every width as `i64` (wrapped to theirs).
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `f32`, `bf16`, `f16` and `f8*` values.
    F32(Vec<f32>),
    /// `f64` values.
    F64(Vec<f64>),
    /// Integer (`i1` .. `i64`, `ui*`, `index`) and semaphore values.
    I64(Vec<i64>),
}

impl Data {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
            Data::I64(v) => v.len(),
        }
    }

    /// No elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Storage for `n` elements of `elem`, each `value` (rounded/wrapped).
    pub fn filled(elem: ElemType, n: usize, value: f64) -> Data {
        match elem {
            ElemType::F64 => Data::F64(vec![value; n]),
            t if t.is_float() => Data::F32(vec![t.round_f32(value as f32); n]),
            t => Data::I64(vec![t.wrap(value as i64); n]),
        }
    }

    /// Sets every element to `value` in place (as [`Data::filled`] would
    /// make it, without a new allocation).
    pub fn fill(&mut self, elem: ElemType, value: f64) {
        match self {
            Data::F64(v) => v.fill(value),
            Data::F32(v) => v.fill(elem.round_f32(value as f32)),
            Data::I64(v) => v.fill(elem.wrap(value as i64)),
        }
    }

    /// Element `i` as `f64`.
    #[inline]
    pub fn get_f64(&self, i: usize) -> f64 {
        match self {
            Data::F32(v) => f64::from(v[i]),
            Data::F64(v) => v[i],
            Data::I64(v) => v[i] as f64,
        }
    }

    /// Element `i` as `i64` (floats truncated).
    #[inline]
    pub fn get_i64(&self, i: usize) -> i64 {
        match self {
            Data::F32(v) => v[i] as i64,
            Data::F64(v) => v[i] as i64,
            Data::I64(v) => v[i],
        }
    }

    /// The elements at `idx`, in order.
    pub(crate) fn gather(&self, idx: &[usize]) -> Data {
        match self {
            Data::F32(v) => Data::F32(idx.iter().map(|&i| v[i]).collect()),
            Data::F64(v) => Data::F64(idx.iter().map(|&i| v[i]).collect()),
            Data::I64(v) => Data::I64(idx.iter().map(|&i| v[i]).collect()),
        }
    }

    /// The rows of `inner` elements starting at each of `rows`, in order.
    pub(crate) fn gather_rows(&self, rows: &[usize], inner: usize) -> Data {
        fn g<T: Copy>(v: &[T], rows: &[usize], inner: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(rows.len() * inner);
            for &r in rows {
                out.extend_from_slice(&v[r..r + inner]);
            }
            out
        }
        match self {
            Data::F32(v) => Data::F32(g(v, rows, inner)),
            Data::F64(v) => Data::F64(g(v, rows, inner)),
            Data::I64(v) => Data::I64(g(v, rows, inner)),
        }
    }

    /// Writes `src` (`rows.len() * inner` elements) as rows of `inner`
    /// elements starting at each of `rows`; false (nothing written) when
    /// the kinds differ.
    pub(crate) fn scatter_rows(&mut self, rows: &[usize], inner: usize, src: &Data) -> bool {
        fn s<T: Copy>(d: &mut [T], rows: &[usize], inner: usize, src: &[T]) {
            for (k, &r) in rows.iter().enumerate() {
                d[r..r + inner].copy_from_slice(&src[k * inner..(k + 1) * inner]);
            }
        }
        match (self, src) {
            (Data::F32(d), Data::F32(v)) => s(d, rows, inner, v),
            (Data::F64(d), Data::F64(v)) => s(d, rows, inner, v),
            (Data::I64(d), Data::I64(v)) => s(d, rows, inner, v),
            _ => return false,
        }
        true
    }

    /// Writes `src`'s elements at positions `idx` (lengths equal, same kind).
    pub(crate) fn scatter(&mut self, idx: &[usize], src: &Data) {
        match (self, src) {
            (Data::F32(d), Data::F32(s)) => idx.iter().zip(s).for_each(|(&i, &x)| d[i] = x),
            (Data::F64(d), Data::F64(s)) => idx.iter().zip(s).for_each(|(&i, &x)| d[i] = x),
            (Data::I64(d), Data::I64(s)) => idx.iter().zip(s).for_each(|(&i, &x)| d[i] = x),
            (d, s) => {
                for (k, &i) in idx.iter().enumerate() {
                    d.set_f64(i, s.get_f64(k));
                }
            }
        }
    }

    /// Sets element `i` from an `f64`, converted to the storage (`as`) but
    /// not rounded to a narrower element type: round first with
    /// [`ElemType::round`].
    #[inline]
    pub fn set_f64(&mut self, i: usize, x: f64) {
        match self {
            Data::F32(v) => v[i] = x as f32,
            Data::F64(v) => v[i] = x,
            Data::I64(v) => v[i] = x as i64,
        }
    }
}

/// An array: element type, shape (row-major) and elements. A scalar has an
/// empty shape and one element.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Element type.
    pub elem: ElemType,
    /// Dimensions, outermost first.
    pub shape: Vec<usize>,
    /// `shape.iter().product()` elements, row-major.
    pub data: Data,
}

impl Array {
    /// An array of `shape` filled with `value` (rounded/wrapped to `elem`).
    pub fn filled(elem: ElemType, shape: &[usize], value: f64) -> Array {
        Array {
            elem,
            shape: shape.to_vec(),
            data: Data::filled(elem, shape.iter().product(), value),
        }
    }

    /// An array from elements (their count must match the shape).
    pub fn new(elem: ElemType, shape: Vec<usize>, data: Data) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array { elem, shape, data }
    }

    /// A scalar integer.
    pub fn int(elem: ElemType, v: i64) -> Array {
        Array::new(elem, Vec::new(), Data::I64(vec![elem.wrap(v)]))
    }

    /// A scalar float.
    pub fn float(elem: ElemType, v: f64) -> Array {
        Array::filled(elem, &[], v)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// No elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The first element as `i64` (a scalar's value).
    pub fn scalar_i64(&self) -> i64 {
        self.data.get_i64(0)
    }

    /// The first element as `f64`.
    pub fn scalar_f64(&self) -> f64 {
        self.data.get_f64(0)
    }

    /// Row-major strides of a shape.
    pub fn strides(shape: &[usize]) -> Vec<usize> {
        let mut s = vec![1; shape.len()];
        for i in (0..shape.len().saturating_sub(1)).rev() {
            s[i] = s[i + 1] * shape[i + 1];
        }
        s
    }

    /// The same elements under another shape of equal size.
    pub fn reshaped(&self, shape: Vec<usize>) -> Array {
        Array::new(self.elem, shape, self.data.clone())
    }

    /// The arrays along the leading axis (of size `n`): one per device in
    /// a multi-device run. `None` if the leading axis is not `n`.
    pub fn split_leading(&self, n: usize) -> Option<Vec<Array>> {
        if self.shape.first() != Some(&n) {
            return None;
        }
        let inner = self.shape[1..].to_vec();
        let m: usize = inner.iter().product();
        Some(
            (0..n)
                .map(|d| {
                    let idx: Vec<usize> = (d * m..(d + 1) * m).collect();
                    Array::new(self.elem, inner.clone(), self.data.gather(&idx))
                })
                .collect(),
        )
    }

    /// Arrays of one type and shape stacked along a new leading axis (the
    /// inverse of [`Array::split_leading`]); `None` if they differ or there
    /// are none.
    pub fn stack(parts: &[Array]) -> Option<Array> {
        let first = parts.first()?;
        if parts
            .iter()
            .any(|p| p.shape != first.shape || p.elem != first.elem)
        {
            return None;
        }
        let mut shape = vec![parts.len()];
        shape.extend_from_slice(&first.shape);
        let mut data = first.data.clone();
        for p in &parts[1..] {
            match (&mut data, &p.data) {
                (Data::F32(d), Data::F32(s)) => d.extend_from_slice(s),
                (Data::F64(d), Data::F64(s)) => d.extend_from_slice(s),
                (Data::I64(d), Data::I64(s)) => d.extend_from_slice(s),
                _ => return None,
            }
        }
        Some(Array::new(first.elem, shape, data))
    }

    /// Elements as `f64`, in order.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.data.get_f64(i)).collect()
    }
}

/// Calls `f` with every multi-index of `shape` in row-major order.
pub(crate) fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        f(&idx);
        let mut d = shape.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}
