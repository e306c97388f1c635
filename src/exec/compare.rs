//! Comparing results with reference arrays, within a tolerance.

use std::fmt;

use super::array::{Array, for_each_index};

/// Where two arrays differ most.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Elements outside the tolerance.
    pub count: usize,
    /// Elements compared.
    pub total: usize,
    /// Index of the worst element (largest error beyond the tolerance).
    pub index: Vec<usize>,
    /// Its value here.
    pub actual: f64,
    /// Its expected value.
    pub expected: f64,
    /// A shape or type difference instead of values, if any.
    pub structure: Option<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.structure {
            return f.write_str(s);
        }
        write!(
            f,
            "{} of {} element(s) differ; worst at index {:?}: {} (expected {})",
            self.count, self.total, self.index, self.actual, self.expected
        )
    }
}

/// Whether `actual` equals `expected` within `|a - e| <= atol + rtol * |e|`
/// elementwise (NumPy's `allclose`); NaN equals NaN, infinities must match.
pub fn compare(actual: &Array, expected: &Array, rtol: f64, atol: f64) -> Result<(), Mismatch> {
    let structural = |s: String| Mismatch {
        count: 0,
        total: 0,
        index: Vec::new(),
        actual: 0.0,
        expected: 0.0,
        structure: Some(s),
    };
    if actual.shape != expected.shape {
        return Err(structural(format!(
            "shape {:?}, expected {:?}",
            actual.shape, expected.shape
        )));
    }
    if actual.elem.signless() != expected.elem.signless() {
        return Err(structural(format!(
            "element type {}, expected {}",
            actual.elem, expected.elem
        )));
    }
    let mut count = 0;
    let mut worst: Option<(f64, usize)> = None;
    for i in 0..actual.len() {
        let (a, e) = if actual.elem.is_float() {
            (actual.data.get_f64(i), expected.data.get_f64(i))
        } else {
            let ua = actual.elem.unsigned(actual.data.get_i64(i));
            let ue = actual.elem.unsigned(expected.data.get_i64(i));
            if ua == ue {
                continue;
            }
            (
                actual.data.get_i64(i) as f64,
                expected.data.get_i64(i) as f64,
            )
        };
        let ok = if a.is_nan() || e.is_nan() {
            a.is_nan() && e.is_nan()
        } else if a.is_infinite() || e.is_infinite() {
            a == e
        } else {
            (a - e).abs() <= atol + rtol * e.abs()
        };
        if !ok {
            count += 1;
            let err = if a.is_nan() || e.is_nan() || a.is_infinite() || e.is_infinite() {
                f64::INFINITY
            } else {
                (a - e).abs() - atol - rtol * e.abs()
            };
            if worst.is_none_or(|(w, _)| err > w) {
                worst = Some((err, i));
            }
        }
    }
    let Some((_, at)) = worst else { return Ok(()) };
    let mut index = Vec::new();
    let mut k = 0;
    for_each_index(&actual.shape, |i| {
        if k == at {
            index = i.to_vec();
        }
        k += 1;
    });
    Err(Mismatch {
        count,
        total: actual.len(),
        index,
        actual: actual.data.get_f64(at),
        expected: expected.data.get_f64(at),
        structure: None,
    })
}

/// Runs two compiled calls on the same seeded random inputs and compares
/// their results: `Ok(None)` when every result is equal within the
/// tolerance, `Ok(Some(why))` naming the first differing result (or the
/// signatures, if the calls do not take and return the same types).
pub fn compare_behaviour(
    a: &super::Execution,
    b: &super::Execution,
    seed: u64,
    options: &super::RunOptions,
    rtol: f64,
    atol: f64,
) -> Result<Option<String>, super::ExecError> {
    let (sa, sb) = (a.call_shape(), b.call_shape());
    if sa.operands != sb.operands || sa.results != sb.results {
        let sig = |s: &super::CallShape| {
            format!(
                "({}) -> ({})",
                s.operands
                    .iter()
                    .map(super::TensorType::text)
                    .collect::<Vec<_>>()
                    .join(", "),
                s.results
                    .iter()
                    .map(super::TensorType::text)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Ok(Some(format!(
            "the calls have different types: {} and {}",
            sig(sa),
            sig(sb)
        )));
    }
    compare_behaviour_on_devices(a, b, seed, options, rtol, atol, 1)
}

/// [`compare_behaviour`] on `devices` devices at once (each call runs as
/// SPMD partitions, [`super::Execution::run_devices`]): device `d` gets the
/// random inputs of seed `seed + d` (as `run --devices` makes them), and the
/// results are compared device by device. A multi-device call (remote DMAs,
/// signals to other devices, `axis_index`) needs the device count its
/// kernel was written for.
pub fn compare_behaviour_on_devices(
    a: &super::Execution,
    b: &super::Execution,
    seed: u64,
    options: &super::RunOptions,
    rtol: f64,
    atol: f64,
    devices: usize,
) -> Result<Option<String>, super::ExecError> {
    if devices == 0 {
        return Err(super::ExecError::new(
            "0 devices: give at least 1".to_string(),
        ));
    }
    let inputs: Vec<Vec<super::Array>> = (0..devices)
        .map(|d| super::random_inputs(a.call_shape(), seed.wrapping_add(d as u64)))
        .collect::<Result<_, _>>()?;
    let ra = a.run_devices(&inputs, options)?;
    let rb = b.run_devices(&inputs, options)?;
    for (d, (ra, rb)) in ra.iter().zip(&rb).enumerate() {
        for (k, (x, y)) in ra.iter().zip(rb).enumerate() {
            if let Err(m) = compare(y, x, rtol, atol) {
                let on = if devices == 1 {
                    String::new()
                } else {
                    format!(" of device {d}")
                };
                return Ok(Some(format!(
                    "result {k}{on} differs on the inputs of seed {seed}: {m}"
                )));
            }
        }
    }
    Ok(None)
}
