//! The compiled engine (`exec::Engine::Jit`) against the interpreter: the
//! same results bit for bit on the exec cases, and a kernel with an op it
//! does not compile runs on the interpreter, saying so with the op's name.

use std::path::{Path, PathBuf};

use tpu_custom_call::exec::{Array, Engine, Execution, RunOptions, npy};
use tpu_custom_call::{Context, decode};

use crate::common::*;

fn case(name: &str) -> PathBuf {
    data_dir().join("exec").join(name)
}

/// Runs a case's first call with `engine`: results and the engine report.
fn run(dir: &Path, engine: Engine) -> (Vec<Array>, tpu_custom_call::exec::EngineReport) {
    let ctx = Context::new();
    let module = dir.join("module.mlir");
    let bytes = std::fs::read(&module).unwrap();
    let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string()).unwrap();
    let e = Execution::of_call(&calls[0]).unwrap();
    let inputs: Vec<Array> = e
        .call_shape()
        .operands
        .iter()
        .enumerate()
        .map(|(k, t)| npy::read(&dir.join(format!("in{k}.npy")), t.elem).unwrap())
        .collect();
    let options = RunOptions {
        engine,
        ..RunOptions::default()
    };
    let report = e.run_report(&[inputs], &options).unwrap();
    (report.results.into_iter().next().unwrap(), report.engine)
}

fn bits(a: &Array) -> Vec<u64> {
    a.to_f64_vec()
        .iter()
        .map(|v| if v.is_nan() { u64::MAX } else { v.to_bits() })
        .collect()
}

#[test]
fn jit_equals_interpreter_bit_for_bit() {
    for name in [
        "add_basic",
        "matmul_f32",
        "matmul_grid",
        "scalar_prefetch",
        "sem_program_id_2d",
        "sem_int_wraparound",
        "sem_when_accumulator",
        "sem_transcendentals",
        "subnormal_f32",
        "erf_special",
        "uint32_signed",
        "isfinite",
    ] {
        let dir = case(name);
        let (j, je) = run(&dir, Engine::Jit);
        let (i, ie) = run(&dir, Engine::Interpreter);
        assert_eq!(je.engine, Engine::Jit, "{name}: {:?}", je.fallback);
        assert_eq!(ie.engine, Engine::Interpreter);
        assert_eq!(j.len(), i.len());
        for (k, (a, b)) in j.iter().zip(&i).enumerate() {
            assert_eq!(a.shape, b.shape, "{name} result {k}");
            assert_eq!(bits(a), bits(b), "{name} result {k} differs");
        }
    }
}

#[test]
fn jit_falls_back_naming_the_op() {
    let (_, e) = run(&case("masked_store_edge"), Engine::Jit);
    assert_eq!(e.engine, Engine::Interpreter);
    let why = e.fallback.expect("a reason");
    assert!(why.contains("`tpu.vector_store`"), "{why}");
}

/// Issue 52's 256x1024 softmax (JAX 0.12's lowering, whole-block vectors:
/// 1 MiB each) runs compiled: `tcc-bufferize-vectors` turns its vectors into
/// loops and its runtime ops' whole-block operands live on the heap, so it
/// runs on a test thread (2 MiB of stack), bit for bit as the interpreter.
#[test]
fn jit_runs_whole_block_kernels_bit_for_bit() {
    let ctx = Context::new();
    let module = data_dir().join("bench/softmax_256x1024/module.mlir");
    let bytes = std::fs::read(&module).unwrap();
    let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string()).unwrap();
    let e = Execution::of_call(&calls[0]).unwrap();
    let inputs = tpu_custom_call::exec::random_inputs(e.call_shape(), 7).unwrap();
    let run = |engine| {
        let options = RunOptions {
            engine,
            ..RunOptions::default()
        };
        e.run_report(std::slice::from_ref(&inputs), &options)
            .unwrap()
    };
    let (j, i) = (run(Engine::Jit), run(Engine::Interpreter));
    assert_eq!(j.engine.engine, Engine::Jit, "{:?}", j.engine.fallback);
    assert_eq!(bits(&j.results[0][0]), bits(&i.results[0][0]));
}
