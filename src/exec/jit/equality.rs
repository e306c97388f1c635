//! The compiled engine against the interpreter: the equality policy and a
//! sweep over case folders (issue 52: "the compiled engine equals the
//! interpreter on every case you have").
//!
//! Policy ([`compare_engines`]): integer results bit for bit; float results
//! bit for bit (any NaN equals any NaN: NaN payloads are not part of the
//! policy), except in a kernel with an `f32` transcendental op
//! ([`ULP_BOUNDS`]), where each float element may differ by at most the
//! largest bound of the kernel's transcendental ops, in units in the last
//! place of the element type (`bf16` results in `bf16` ulps), or by
//! [`NORM_ULPS_PER_ULP`] times that many ulps of the result's largest
//! magnitude (errors of terms that cancel in a sum). Errors: both
//! engines fail with the same message, or it is a difference.
//!
//! `tests/integration/jit_equality.rs` sweeps the committed cases with it;
//! `scripts/jit-equality.sh` (the `jit_equality` example) sweeps any folder,
//! e.g. fresh cases of `scripts/jaxref/exec/gen_diff.py`.

use std::collections::BTreeSet;
use std::path::Path;

use crate::exec::{Array, Data, ElemType, Engine, Execution, RunOptions, npy, random_inputs};

/// The documented error bound of each `f32` math op the compiled engine may
/// compute differently from the interpreter: at most this many ulps apart
/// (docs/jit.md, "Measured ulp error of f32 math"). An op not listed must
/// match bit for bit (`math.sqrt`, `math.floor`, ... are correctly rounded
/// in both engines).
///
/// Measured (`scripts/jit-ulp.sh --stride 64`, 2^26 patterns per op): the
/// polynomial approximations of `exp`, `tanh`, `erf` at most 5 ulps, `log`
/// 1; the libm f32 functions of `sin`, `cos`, `exp2` at most 1 (the
/// interpreter rounds the f64 function). The ops the engine runs through
/// its runtime (the interpreter's own code: 0 by construction) keep 4, so
/// that lowering one of them natively is covered until it is measured.
pub const ULP_BOUNDS: &[(&str, u64)] = &[
    ("math.exp", 5),
    ("math.exp2", 1),
    ("math.expm1", 4),
    ("math.log", 1),
    ("math.log1p", 4),
    ("math.log2", 4),
    ("math.log10", 4),
    ("math.tanh", 5),
    ("math.erf", 5),
    ("math.erfc", 4),
    ("math.rsqrt", 4),
    ("math.powf", 4),
    ("math.sin", 1),
    ("math.cos", 1),
    ("math.tan", 4),
    ("math.atan", 4),
    ("math.atan2", 4),
    ("math.sinh", 4),
    ("math.cosh", 4),
    ("math.asin", 4),
    ("math.acos", 4),
    ("math.asinh", 4),
    ("math.acosh", 4),
    ("math.atanh", 4),
    ("math.cbrt", 4),
];

/// The ulp bound of a kernel: the largest [`ULP_BOUNDS`] entry among its
/// ops (0: every float result bit for bit).
pub fn ulp_bound(execution: &Execution) -> u64 {
    let ops: BTreeSet<&str> = execution
        .program()
        .sites
        .iter()
        .map(|s| s.op.as_str())
        .collect();
    ULP_BOUNDS
        .iter()
        .filter(|(op, _)| ops.contains(op))
        .map(|&(_, u)| u)
        .max()
        .unwrap_or(0)
}

/// Position of an `f32` on the number line: adjacent floats differ by 1,
/// both zeros are 0.
fn ordinal(x: f32) -> i64 {
    let b = x.to_bits() as i32;
    if b < 0 {
        i64::from(i32::MIN) - i64::from(b)
    } else {
        i64::from(b)
    }
}

/// Ulps between two `f32`s (0 for two NaNs or the two zeros; `u64::MAX`
/// when exactly one is NaN).
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => ordinal(a).abs_diff(ordinal(b)),
        _ => u64::MAX,
    }
}

/// Ulps between two values of element type `e` held as `f32` (a `bf16`
/// in `bf16` ulps, rounded up).
fn elem_ulps(e: ElemType, a: f32, b: f32) -> u64 {
    let d = ulp_distance(a, b);
    if e == ElemType::BF16 && d != u64::MAX {
        d.div_ceil(1 << 16)
    } else {
        d
    }
}

/// How many ulps of a result's largest magnitude an element of a kernel
/// with approximated transcendentals may differ by, per ulp of the
/// kernel's bound: the normwise part of the policy. A sum or a matmul after
/// an approximated op adds the terms' few-ulp errors, and where the terms
/// cancel (an attention output near zero, `out += cos(x)`), a small
/// absolute error is a large relative one: measured on JAX's flash and
/// splash attention kernels and the generator's accumulations (docs/jit.md).
pub const NORM_ULPS_PER_ULP: f32 = 16.0;

/// The absolute difference allowed anywhere in a result whose interpreter
/// values are `y` ([`NORM_ULPS_PER_ULP`] x `bound` ulps of its largest
/// finite magnitude, in the element type's precision).
fn norm_slack(e: ElemType, y: &[f32], bound: u64) -> f32 {
    let scale = y
        .iter()
        .filter(|v| v.is_finite())
        .fold(0f32, |m, v| m.max(v.abs()));
    if scale == 0.0 {
        return 0.0;
    }
    let mantissa = if e == ElemType::BF16 { 7 } else { 23 };
    let ulp = 2f32.powi(scale.log2().floor() as i32 - mantissa);
    ulp * NORM_ULPS_PER_ULP * bound as f32
}

/// Compares the compiled engine's results with the interpreter's (per
/// device, per result) under the policy of this module, `bound` ulps for
/// floats; `Err` names the first difference (device, result, flat index,
/// both values) and how many elements differ.
pub fn compare_engines(
    jit: &[Vec<Array>],
    interp: &[Vec<Array>],
    bound: u64,
) -> Result<(), String> {
    if jit.len() != interp.len() {
        return Err(format!(
            "{} device(s) of results against {}",
            jit.len(),
            interp.len()
        ));
    }
    for (d, (js, is)) in jit.iter().zip(interp).enumerate() {
        if js.len() != is.len() {
            return Err(format!(
                "device {d}: {} result(s) against {}",
                js.len(),
                is.len()
            ));
        }
        for (k, (a, b)) in js.iter().zip(is).enumerate() {
            if a.shape != b.shape || a.elem != b.elem {
                return Err(format!(
                    "device {d} result {k}: {}{:?} against {}{:?}",
                    a.elem, a.shape, b.elem, b.shape
                ));
            }
            let mut first: Option<String> = None;
            let mut count = 0usize;
            let mut worst = 0u64;
            match (&a.data, &b.data) {
                (Data::F32(x), Data::F32(y)) => {
                    let slack = if bound > 0 {
                        norm_slack(a.elem, y, bound)
                    } else {
                        0.0
                    };
                    for (i, (&u, &v)) in x.iter().zip(y).enumerate() {
                        let bit_equal = u.to_bits() == v.to_bits() || (u.is_nan() && v.is_nan());
                        if bit_equal {
                            continue;
                        }
                        let ulps = elem_ulps(a.elem, u, v);
                        if ulps <= bound || (u - v).abs() <= slack {
                            continue;
                        }
                        count += 1;
                        worst = worst.max(ulps);
                        first.get_or_insert_with(|| {
                            format!(
                                "index {i}: jit {u:e} ({:#010x}) interpreter {v:e} ({:#010x}), {} ulp",
                                u.to_bits(),
                                v.to_bits(),
                                if ulps == u64::MAX {
                                    "NaN against a number".to_string()
                                } else {
                                    ulps.to_string()
                                }
                            )
                        });
                    }
                }
                (Data::F64(x), Data::F64(y)) => {
                    for (i, (&u, &v)) in x.iter().zip(y).enumerate() {
                        if u.to_bits() != v.to_bits() && !(u.is_nan() && v.is_nan()) {
                            count += 1;
                            first.get_or_insert_with(|| {
                                format!("index {i}: jit {u:e} interpreter {v:e}")
                            });
                        }
                    }
                }
                (Data::I64(x), Data::I64(y)) => {
                    for (i, (&u, &v)) in x.iter().zip(y).enumerate() {
                        if u != v {
                            count += 1;
                            first.get_or_insert_with(|| {
                                format!("index {i}: jit {u} interpreter {v}")
                            });
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "device {d} result {k}: storage differs ({}{:?})",
                        a.elem, a.shape
                    ));
                }
            }
            if let Some(first) = first {
                let worst = if worst > 0 && worst != u64::MAX {
                    format!(", worst {worst} ulp")
                } else {
                    String::new()
                };
                return Err(format!(
                    "device {d} result {k} ({}{:?}): {count} of {} element(s) differ \
                     (bound {bound} ulp{worst}); first at {first}",
                    a.elem,
                    a.shape,
                    a.len()
                ));
            }
        }
    }
    Ok(())
}

/// The class of a fallback reason, for counting: ``op `X`: why`` for an
/// op the engine does not compile (its location left out), `build failed:
/// ...` (the first 100 characters) when lowering failed, else the reason up
/// to its first colon.
pub fn fallback_class(why: &str) -> String {
    if let Some(rest) = why.strip_prefix("the op `") {
        let op = rest.split('`').next().unwrap_or_default();
        let reason = rest
            .rfind(" is not compiled (")
            .map(|at| rest[at + " is not compiled (".len()..].trim_end_matches(')'))
            .unwrap_or_default();
        return format!("op `{op}`: {reason}");
    }
    if let Some(rest) = why.strip_prefix("the compiled engine failed to build it: ") {
        let short: String = rest.chars().take(100).collect();
        return format!("build failed: {short}");
    }
    why.split(':').next().unwrap_or(why).trim().to_string()
}

/// Arrays per device.
type PerDevice = Vec<Vec<Array>>;

/// What a case's sweep found.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// Calls of the module (each run by both engines).
    pub calls: usize,
    /// Calls the compiled engine ran (the others fell back).
    pub compiled: usize,
    /// Fallback reasons of the other calls.
    pub fallbacks: Vec<String>,
    /// The kernel's ulp bound (the largest over its calls).
    pub bound: u64,
    /// `None`: equal under the policy; `Some`: the first difference.
    pub difference: Option<String>,
    /// Both engines failed with this same error (equal, but not a run).
    pub error: Option<String>,
}

/// Runs every call of a case folder (`module.mlir`; `in<k>.npy` when
/// present, else seeded random inputs; `case.json`'s `devices` and `cores`
/// when present) with [`Engine::Jit`] and [`Engine::Interpreter`] (a call
/// after the first takes the previous call's results, as
/// tests/data/exec's cases chain them) and compares the results
/// ([`compare_engines`]). `fuse_multiply_add` is on, as for interpret
/// mode's references. `Err`: the case does not load.
pub fn sweep_case(dir: &Path) -> Result<CaseOutcome, String> {
    let module = dir.join("module.mlir");
    let bytes = std::fs::read(&module).map_err(|e| format!("{}: {e}", module.display()))?;
    let case: serde_json::Value = std::fs::read(dir.join("case.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(serde_json::Value::Null);
    let devices = case["devices"].as_u64().unwrap_or(1).max(1) as usize;
    let cores = case["cores"].as_u64().unwrap_or(1).max(1) as usize;
    let ctx = crate::Context::new();
    let calls = crate::decode::decode_module(&ctx, &bytes, &module.display().to_string())
        .map_err(|e| e.to_string())?;
    if calls.is_empty() {
        return Err("no tpu_custom_call".into());
    }
    let mut out = CaseOutcome {
        calls: calls.len(),
        compiled: 0,
        fallbacks: Vec::new(),
        bound: 0,
        difference: None,
        error: None,
    };
    // The previous call's results (per device), of each engine.
    let mut current: Option<(PerDevice, PerDevice)> = None;
    for (i, call) in calls.iter().enumerate() {
        let e = Execution::of_call(call).map_err(|e| format!("call {i}: {e}"))?;
        let bound = ulp_bound(&e);
        out.bound = out.bound.max(bound);
        let (jin, iin) = match current.take() {
            Some(prev) => prev,
            None => {
                let inputs = first_inputs(dir, &e, devices)?;
                (inputs.clone(), inputs)
            }
        };
        let run = |engine, inputs: &[Vec<Array>]| {
            let options = RunOptions {
                engine,
                fuse_multiply_add: true,
                cores,
                ..RunOptions::default()
            };
            e.run_report(inputs, &options)
        };
        let (j, it) = (run(Engine::Jit, &jin), run(Engine::Interpreter, &iin));
        match (j, it) {
            (Ok(j), Ok(it)) => {
                if j.engine.engine == Engine::Jit {
                    out.compiled += 1;
                } else {
                    out.fallbacks
                        .push(j.engine.fallback.unwrap_or_else(|| "(no reason)".into()));
                }
                if let Err(d) = compare_engines(&j.results, &it.results, bound) {
                    out.difference = Some(format!("call {i}: {d}"));
                    return Ok(out);
                }
                current = Some((j.results, it.results));
            }
            (Err(a), Err(b)) => {
                let (a, b) = (a.to_string(), b.to_string());
                if a == b {
                    out.error = Some(format!("call {i}: {a}"));
                } else {
                    out.difference = Some(format!(
                        "call {i}: jit error `{a}`, interpreter error `{b}`"
                    ));
                }
                return Ok(out);
            }
            (Err(a), Ok(_)) => {
                out.difference = Some(format!("call {i}: only the jit fails: {a}"));
                return Ok(out);
            }
            (Ok(_), Err(b)) => {
                out.difference = Some(format!("call {i}: only the interpreter fails: {b}"));
                return Ok(out);
            }
        }
    }
    Ok(out)
}

/// The first call's inputs per device: the case's `in<k>.npy` files
/// (split along a leading device axis), else seeded random inputs.
fn first_inputs(dir: &Path, e: &Execution, devices: usize) -> Result<Vec<Vec<Array>>, String> {
    let shape = e.call_shape();
    if !dir.join("in0.npy").is_file() {
        let inputs = random_inputs(shape, 0).map_err(|e| e.to_string())?;
        return Ok(vec![inputs; devices]);
    }
    let mut per: Vec<Vec<Array>> = vec![Vec::new(); devices];
    for (k, t) in shape.operands.iter().enumerate() {
        let path = dir.join(format!("in{k}.npy"));
        let a = npy::read(&path, t.elem).map_err(|e| e.to_string())?;
        let parts = if devices > 1 {
            a.split_leading(devices)
                .ok_or_else(|| format!("in{k}.npy has no leading axis of {devices} devices"))?
        } else {
            vec![a]
        };
        for (d, p) in parts.into_iter().enumerate() {
            let p = if p.len() == 1 && t.shape.iter().product::<usize>() == 1 {
                p.reshaped(t.shape.clone())
            } else {
                p
            };
            per[d].push(p);
        }
    }
    Ok(per)
}
