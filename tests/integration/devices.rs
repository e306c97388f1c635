//! Device counts: what `compile --devices` takes per chip (libtpu 0.0.50.1's
//! deviceless topologies, `tests/data/compile/devices.json`, made by
//! `scripts/libtpu/devices_sweep.py`), `mhlo.num_partitions` against
//! `--devices`, and the bounds of `run --devices` and `--cores`.

use serde_json::Value;
use tpu_custom_call::Chip;
use tpu_custom_call::compile::{device_counts, topology_for};

use crate::common::*;

fn rows() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join("compile/devices.json")).unwrap();
    let data: Value = serde_json::from_str(&text).unwrap();
    data["verdicts"].as_array().unwrap().clone()
}

/// Every measured count: accepted exactly when libtpu compiled it, on the
/// topology it compiled on.
#[test]
fn device_counts_are_the_ones_libtpu_compiles_for() {
    let rows = rows();
    assert!(rows.len() >= 90, "{} rows", rows.len());
    let mut failures = Failures::new();
    for v in &rows {
        let chip: Chip = v["chip"].as_str().unwrap().parse().unwrap();
        let n = v["devices"].as_u64().unwrap() as usize;
        let ours = topology_for(chip, n);
        if v["ok"].as_bool().unwrap() {
            failures.check(
                ours.is_some_and(|t| t.name == v["topology"].as_str().unwrap()),
                || format!("{v}: ours {ours:?}"),
            );
        } else {
            failures.check(ours.is_none(), || format!("{v}: ours {ours:?}"));
        }
    }
    failures.assert_none();
    // At least 8 on v5e and v6e (2x4 topologies), not 17 on v5e.
    assert_eq!(topology_for(Chip::V5e, 8).unwrap().name, "v5e:2x4");
    assert_eq!(topology_for(Chip::V6e, 8).unwrap().name, "v6e:2x4");
    assert!(topology_for(Chip::V5e, 17).is_none());
    assert!(topology_for(Chip::V5e, 0).is_none());
    assert_eq!(
        device_counts(Chip::V5e).unwrap(),
        "1 to 16, 32, 64, 128 and 256"
    );
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-devices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The add kernel emitted by our CLI, its module saying `partitions`.
fn add_module(partitions: usize) -> std::path::PathBuf {
    let path = temp(&format!("add{partitions}.mlir"));
    let t = "tensor<8x128xf32>";
    let (code, _, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        &format!("({t}, {t}) -> {t}"),
        "--params",
        "mlir-fixtures/params/add_basic.json",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "mhlo.num_partitions = 1 : i32",
        &format!("mhlo.num_partitions = {partitions} : i32"),
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// A device count no topology takes, and `--devices` against the module's
/// `mhlo.num_partitions`: clear errors before libtpu is asked.
#[test]
fn compile_device_count_errors() {
    let four = add_module(4);
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        four.to_str().unwrap(),
        "--target",
        "v5e",
        "--devices",
        "24",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(
            "--devices 24: libtpu 0.0.50.1's deviceless v5e topologies compile for 1 to 16, 32, 64, \
             128 and 256 devices"
        ),
        "{stderr}"
    );
    if crate::compile::libtpu("compile_device_count_errors").is_none() {
        return;
    }
    let (code, _, stderr) = run_cli(&[
        "compile",
        four.to_str().unwrap(),
        "--target",
        "v5e",
        "--devices",
        "2",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "the module has mhlo.num_partitions = 4 but --devices is 2; compile it with --devices 4"
        ),
        "{stderr}"
    );
}

/// 8 devices (2x4 topologies) on v5e and v6e.
#[test]
fn compile_eight_devices() {
    if crate::compile::libtpu("compile_eight_devices").is_none() {
        return;
    }
    let eight = add_module(8);
    for chip in ["v5e", "v6e"] {
        let (code, stdout, stderr) = run_cli(&[
            "compile",
            eight.to_str().unwrap(),
            "--target",
            chip,
            "--devices",
            "8",
            "--json",
        ]);
        assert_eq!(code, 0, "{chip}: {stderr}");
        let line: Value = serde_json::from_slice(&stdout).unwrap();
        assert_eq!(line["ok"], true, "{line}");
        assert_eq!(line["devices"], 8, "{line}");
    }
}

/// The f32 values of a little-endian `.npy` file.
fn npy_f32(path: &std::path::Path) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    let header = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    bytes[10 + header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The `remote_dma_collective` golden's ring kernel made for 8 devices
/// (its device count 4 -> 8): libtpu compiles it for 8 partitions and
/// `run --devices 8` gives each device its left neighbour's block.
#[test]
fn ring_kernel_on_eight_devices_compiles_and_runs() {
    let golden = goldens_dir().join("remote_dma_collective/kernel.mlir");
    let kernel = std::fs::read_to_string(golden)
        .unwrap()
        .replace("arith.constant 4 : i32", "arith.constant 8 : i32");
    let kpath = temp("ring8.kernel.mlir");
    std::fs::write(&kpath, kernel).unwrap();
    let params = temp("ring8.json");
    std::fs::write(&params, r#"{"kernel_name": "kernel", "collective_id": 7}"#).unwrap();
    let module = temp("ring8.mlir");
    let t = "tensor<8x128xf32>";
    let (code, _, stderr) = run_cli(&[
        "emit",
        kpath.to_str().unwrap(),
        "--signature",
        &format!("({t}) -> {t}"),
        "--params",
        params.to_str().unwrap(),
        "-o",
        module.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&module).unwrap().replace(
        "mhlo.num_partitions = 1 : i32",
        "mhlo.num_partitions = 8 : i32",
    );
    std::fs::write(&module, text).unwrap();
    let out = temp("ring8-out");
    let (code, _, stderr) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "--devices",
        "8",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (input, result) = (
        npy_f32(&out.join("input0.npy")),
        npy_f32(&out.join("result0.npy")),
    );
    let block = 8 * 128;
    assert_eq!(result.len(), 8 * block);
    for d in 0..8 {
        let left = (d + 7) % 8;
        assert_eq!(
            result[d * block..(d + 1) * block],
            input[left * block..(left + 1) * block],
            "device {d}"
        );
    }
    if crate::compile::libtpu("ring_kernel_on_eight_devices_compiles_and_runs").is_some() {
        let (code, _, stderr) = run_cli(&[
            "compile",
            module.to_str().unwrap(),
            "--target",
            "v6e",
            "--devices",
            "8",
        ]);
        assert_eq!(code, 0, "{stderr}");
    }
}

/// `run --devices` beyond the largest topology and `--cores` beyond the
/// chip's TensorCores: refused with the bound, no abort.
#[test]
fn run_devices_and_cores_are_bounded() {
    let module = add_module(1);
    let m = module.to_str().unwrap();
    for (args, message) in [
        (
            vec!["run", m, "--devices", "30000"],
            "--devices 30000 exceeds the 256 devices of the largest TPU topology libtpu compiles for",
        ),
        (
            vec!["run", m, "--devices", "129", "--target", "v7x"],
            "--devices 129 exceeds the 128 devices of the largest v7x topology",
        ),
        (
            vec!["run", m, "--cores", "100000"],
            "--cores 100000: no TPU chip has more than 2 TensorCores",
        ),
        (
            vec!["run", m, "--cores", "2", "--target", "v5e"],
            "--cores 2: v5e has 1 TensorCore(s) per chip",
        ),
    ] {
        let (code, stdout, stderr) = run_cli(&args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = run_cli(&["run", m, "--call", "0", "--cores", "2", "--target", "v5p"]);
    assert_eq!(code, 0, "{stderr}");
}
