//! Issue 52's benchmark kernels (`tests/data/bench`, lowered for TPU by
//! `scripts/jaxref/exec/bench_kernels.py lower`): each decodes to one call
//! the executor compiles, with the operands its `case.json` states; the
//! smallest runs and equals JAX 0.12's interpret mode on the script's inputs
//! (the others are checked by `bench/kernels.sh` at their full size).

use std::path::{Path, PathBuf};

use tpu_custom_call::exec::{Engine, Execution, RunOptions, compare, npy};
use tpu_custom_call::{Context, decode};

use crate::common::jaxref_python;

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench")
}

fn case_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("case.json")).expect("case.json");
    serde_json::from_str(&text).expect("case.json parses")
}

/// `float32[256, 1024]` (NumPy's dtype and shape) as MLIR's tensor type.
fn numpy_type_text(operand: &str) -> String {
    let (dtype, dims) = operand.split_once('[').expect("dtype[dims]");
    let elem = match dtype {
        "float32" => "f32",
        "bfloat16" => "bf16",
        "uint32" => "ui32",
        "int32" => "i32",
        other => panic!("dtype {other} not mapped"),
    };
    let dims: Vec<&str> = dims.trim_end_matches(']').split(", ").collect();
    format!("tensor<{}x{elem}>", dims.join("x"))
}

#[test]
fn bench_kernels_decode_and_compile_with_their_operands() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(bench_dir()).expect("tests/data/bench") {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let case = case_json(&dir);
        let bytes = std::fs::read(dir.join("module.mlir")).expect("module.mlir");
        let ctx = Context::new();
        let calls = decode::decode_module(&ctx, &bytes, &name).expect("decodes");
        assert_eq!(calls.len(), 1, "{name}: one tpu_custom_call");
        let execution = Execution::of_call(&calls[0]).expect("compiles");
        let operands: Vec<String> = execution
            .call_shape()
            .operands
            .iter()
            .map(|t| t.text())
            .collect();
        let stated: Vec<String> = case["operands"]
            .as_array()
            .expect("operands")
            .iter()
            .map(|o| numpy_type_text(o.as_str().unwrap()))
            .collect();
        assert_eq!(operands, stated, "{name}: operands");
        assert!(
            case["rtol"].is_f64() && case["atol"].is_f64(),
            "{name}: tolerances"
        );
        names.push(name);
    }
    names.sort();
    assert_eq!(names.len(), 8, "the eight kernels of issue 52: {names:?}");
}

#[test]
fn bench_softmax_256_equals_interpret_mode() {
    let Some(python) = jaxref_python("bench_softmax_256_equals_interpret_mode") else {
        return;
    };
    let name = "softmax_256x1024";
    let tmp = std::env::temp_dir().join(format!("tcc-bench-kernels-{}", std::process::id()));
    let status = std::process::Command::new(python)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["scripts/jaxref/exec/bench_kernels.py", "time"])
        .arg(&tmp)
        .args(["--later", "1", "--only", name])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("runs the script");
    assert!(status.success(), "bench_kernels.py time failed");
    let dir = bench_dir().join(name);
    let case = case_json(&dir);
    let bytes = std::fs::read(dir.join("module.mlir")).unwrap();
    let ctx = Context::new();
    let calls = decode::decode_module(&ctx, &bytes, name).unwrap();
    let execution = Execution::of_call(&calls[0]).unwrap();
    let t = &execution.call_shape().operands[0];
    let input = npy::read(&tmp.join(name).join("in0.npy"), t.elem).unwrap();
    let expected = npy::read(&tmp.join(name).join("out0.npy"), t.elem).unwrap();
    // The interpreter (the reference): the compiled engine's equality is
    // its own tests' business, and it takes minutes to compile this kernel
    // at the `jit` merge.
    let options = RunOptions {
        engine: Engine::Interpreter,
        ..RunOptions::default()
    };
    let out = execution.run(&[input], &options).unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
    let (rtol, atol) = (
        case["rtol"].as_f64().unwrap(),
        case["atol"].as_f64().unwrap(),
    );
    compare(&out[0], &expected, rtol, atol).unwrap_or_else(|m| panic!("{name}: {m}"));
}
