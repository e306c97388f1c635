//! The host side of a run, for tools and test harnesses: choosing the call
//! of a module, reading its operands from `.npy` files (split along a
//! leading device axis), joining per-device results, and comparing results
//! with reference files. `tpu-custom-call run` is these functions plus
//! argument parsing and printing.

use std::path::{Path, PathBuf};

use super::npy;
use super::{Array, CallShape, ExecError, Execution, TensorType};
use crate::{Context, Kernel, decode};

/// A compiled call and the name messages give it
/// (`module.mlir: tpu_custom_call #0 (kernel)`).
pub struct LoadedCall {
    /// The compiled call.
    pub execution: Execution,
    /// What messages call it.
    pub label: String,
}

/// Compiles call `index` of a module (any module the crate decodes: JAX's
/// text, exports, ours, bytecode); without an index the module must have
/// exactly one call.
pub fn load_call(
    ctx: &Context,
    bytes: &[u8],
    name: &str,
    index: Option<usize>,
) -> Result<LoadedCall, ExecError> {
    let calls =
        decode::decode_module(ctx, bytes, name).map_err(|e| ExecError::new(e.to_string()))?;
    if calls.is_empty() {
        return Err(ExecError::new(format!("{name}: no tpu_custom_call to run")));
    }
    let index = match index {
        Some(i) if i < calls.len() => i,
        Some(i) => {
            return Err(ExecError::new(format!(
                "{name}: --call {i}, but the module has {} call(s)",
                calls.len()
            )));
        }
        None if calls.len() == 1 => 0,
        None => {
            return Err(ExecError::new(format!(
                "{name}: the module has {} tpu_custom_calls: choose one with --call N (0..{})",
                calls.len(),
                calls.len() - 1
            )));
        }
    };
    let call = &calls[index];
    let kname = call
        .found
        .kernel_name
        .clone()
        .unwrap_or_else(|| "kernel".into());
    let label = format!("{name}: tpu_custom_call #{index} ({kname})");
    let execution = Execution::of_call(call).map_err(|e| labelled(&label, e))?;
    Ok(LoadedCall { execution, label })
}

/// The error with `label: ` before its message, and the op after it
/// (`m.mlir: tpu_custom_call #0 (k): \`tpu.barrier\`: ...`).
fn labelled(label: &str, e: ExecError) -> ExecError {
    let message = match &e.op {
        Some(op) if !e.message.starts_with(&format!("`{op}`")) => {
            format!("{label}: `{op}`: {}", e.message)
        }
        _ => format!("{label}: {}", e.message),
    };
    ExecError { message, ..e }
}

/// Compiles a bare kernel (text or bytecode) for a call of these types.
pub fn load_kernel(
    ctx: &Context,
    bytes: &[u8],
    name: &str,
    shape: CallShape,
) -> Result<LoadedCall, ExecError> {
    let kernel = Kernel::load(ctx, bytes, name).map_err(|e| ExecError::new(e.to_string()))?;
    let execution = Execution::new(&kernel, shape).map_err(|e| labelled(name, e))?;
    Ok(LoadedCall {
        execution,
        label: name.to_string(),
    })
}

/// Bytes the host needs for a call's operands and results on `devices`
/// devices: the host's arrays and the run's copies, elements held as 4 or 8
/// bytes (dynamic dimensions count as 1).
pub fn host_bytes(shape: &CallShape, devices: usize) -> u128 {
    shape
        .operands
        .iter()
        .chain(&shape.results)
        .map(|t| {
            let n = t
                .shape
                .iter()
                .filter(|&&d| d != super::DYNAMIC_DIM)
                .map(|&d| d as u128)
                .product::<u128>();
            n * if t.elem == super::ElemType::F64 || t.elem.is_int() {
                8
            } else {
                4
            }
        })
        .sum::<u128>()
        * 2
        * devices as u128
}

/// Reads a call's operands from `.npy` files, one per operand in order
/// (the trailing result-shape operands may be given or left out), each with
/// a leading axis of `devices` when there are several; returns them per
/// device.
pub fn read_operands(
    execution: &Execution,
    paths: &[PathBuf],
    devices: usize,
) -> Result<Vec<Vec<Array>>, ExecError> {
    let shape = execution.call_shape();
    let shapes = execution.shape_operands();
    let types: Vec<&TensorType> = if paths.len() == shape.operands.len() + shapes.len() {
        shape.operands.iter().chain(shapes).collect()
    } else {
        shape.operands.iter().collect()
    };
    if paths.len() != types.len() {
        let alt = if shapes.is_empty() {
            String::new()
        } else {
            format!(
                " (or {}: the last {} hold the result shapes, `indices_of_shape_operands`)",
                shape.operands.len() + shapes.len(),
                shapes.len()
            )
        };
        return Err(ExecError::new(format!(
            "the call takes {} operand(s){alt}, {} --input given",
            shape.operands.len(),
            paths.len()
        )));
    }
    let mut per_device: Vec<Vec<Array>> = vec![Vec::new(); devices.max(1)];
    for (k, (path, t)) in paths.iter().zip(types).enumerate() {
        let a = npy::read(path, t.elem).map_err(|e| ExecError::new(e.to_string()))?;
        let parts = if devices > 1 {
            a.split_leading(devices).ok_or_else(|| {
                ExecError::new(format!(
                    "{}: with --devices {devices} every input needs a leading axis of {devices}, it has shape {:?}",
                    path.display(),
                    a.shape
                ))
            })?
        } else {
            vec![a]
        };
        for (d, mut p) in parts.into_iter().enumerate() {
            if p.shape != t.shape && p.len() == 1 && t.shape.iter().product::<usize>() == 1 {
                p = p.reshaped(t.shape.clone());
            }
            let fits = p.shape.len() == t.shape.len()
                && p.shape
                    .iter()
                    .zip(&t.shape)
                    .all(|(&x, &d)| d == super::DYNAMIC_DIM || d == x);
            if !fits {
                return Err(ExecError::new(format!(
                    "{}: operand {k} has shape {:?}, the call takes {:?}",
                    path.display(),
                    p.shape,
                    t.shape
                )));
            }
            per_device[d].push(p);
        }
    }
    Ok(per_device)
}

/// Joins per-device arrays (`per_device[d][k]`) into one array per position
/// `k` with a leading device axis; one device's arrays are returned as
/// they are.
pub fn join_devices(per_device: &[Vec<Array>]) -> Vec<Array> {
    let n = per_device.first().map_or(0, Vec::len);
    (0..n)
        .map(|k| {
            if per_device.len() > 1 {
                let parts: Vec<Array> = per_device.iter().map(|o| o[k].clone()).collect();
                Array::stack(&parts).unwrap_or_else(|| parts[0].clone())
            } else {
                per_device[0][k].clone()
            }
        })
        .collect()
}

/// One result compared with a reference file.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The result's position.
    pub result: usize,
    /// The reference file (`result<k>.npy` or `out<k>.npy`).
    pub reference: PathBuf,
    /// `None` when equal within the tolerance; else the first difference.
    pub mismatch: Option<String>,
}

/// Compares each result with `dir/result<k>.npy` (or `dir/out<k>.npy`,
/// JAX reference folders' name) within `rtol`/`atol` (NaN equal to NaN).
pub fn compare_with_dir(
    results: &[Array],
    dir: &Path,
    rtol: f64,
    atol: f64,
) -> Result<Vec<Comparison>, ExecError> {
    results
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let path = [format!("result{k}.npy"), format!("out{k}.npy")]
                .into_iter()
                .map(|n| dir.join(n))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    ExecError::new(format!(
                        "{}: no result{k}.npy or out{k}.npy to compare with",
                        dir.display()
                    ))
                })?;
            let expected = npy::read(&path, r.elem).map_err(|e| ExecError::new(e.to_string()))?;
            Ok(Comparison {
                result: k,
                mismatch: super::compare(r, &expected, rtol, atol)
                    .err()
                    .map(|m| m.to_string()),
                reference: path,
            })
        })
        .collect()
}
