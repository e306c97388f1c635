//! The compiled engine (`exec::Engine::Jit`) against the interpreter: the
//! same results bit for bit on the exec cases (within a few ulp where a
//! kernel computes approximated transcendentals), and a kernel with an op it
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

/// The distance in units in the last place of two results of the same
/// element type (f32 and bf16 are held as f32, f64 as f64; NaNs equal each
/// other; integers: their difference).
fn ulps(a: &Array, b: &Array) -> u64 {
    let key32 = |v: f64| {
        let b = (v as f32).to_bits() as i64;
        if b < 0 { -(b & 0x7fff_ffff) } else { b }
    };
    let key64 = |v: f64| {
        let b = v.to_bits() as i128;
        if v.is_sign_negative() { -(b & 0x7fff_ffff_ffff_ffff) } else { b }
    };
    let f64s = a.elem == tpu_custom_call::exec::ElemType::F64;
    a.to_f64_vec()
        .iter()
        .zip(b.to_f64_vec())
        .map(|(&x, y)| {
            if x.is_nan() && y.is_nan() {
                0
            } else if x.is_nan() || y.is_nan() {
                u64::MAX
            } else if a.elem.is_float() && !f64s {
                key32(x).abs_diff(key32(y))
            } else if f64s {
                key64(x).abs_diff(key64(y)) as u64
            } else {
                (x as i64).abs_diff(y as i64)
            }
        })
        .max()
        .unwrap_or(0)
}

/// The exec cases whose kernels compute f32 transcendentals (`math.exp`,
/// `log`, `tanh`, `erf`): the compiled engine uses MLIR's polynomial
/// approximations for them (docs/jit.md, "Math"), so their results are
/// compared within [`KERNEL_ULPS`], every other case bit for bit.
const TRANSCENDENTAL_CASES: [&str; 2] = ["sem_transcendentals", "erf_special"];

/// The largest distance allowed between the engines' results of a kernel
/// computing approximated transcendentals (one approximated op, then at
/// most a few exact ops on its result): docs/jit.md's table.
const KERNEL_ULPS: u64 = 8;

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
        "sem_fori_loop",
        "sem_reductions_keepdims",
    ] {
        let dir = case(name);
        let (j, je) = run(&dir, Engine::Jit);
        let (i, ie) = run(&dir, Engine::Interpreter);
        assert_eq!(je.engine, Engine::Jit, "{name}: {:?}", je.fallback);
        assert_eq!(ie.engine, Engine::Interpreter);
        assert_eq!(j.len(), i.len());
        for (k, (a, b)) in j.iter().zip(&i).enumerate() {
            assert_eq!(a.shape, b.shape, "{name} result {k}");
            if TRANSCENDENTAL_CASES.contains(&name) {
                let d = ulps(a, b);
                eprintln!("{name} result {k}: {d} ulp");
                assert!(d <= KERNEL_ULPS, "{name} result {k}: {d} ulp apart");
            } else {
                assert_eq!(bits(a), bits(b), "{name} result {k} differs");
            }
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
/// runs on a test thread (2 MiB of stack), equal to the interpreter within
/// [`KERNEL_ULPS`] (its `exp` is approximated).
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
    // `exp` is approximated, then summed over 1024 lanes and divided.
    let d = ulps(&j.results[0][0], &i.results[0][0]);
    eprintln!("softmax 256x1024: {d} ulp");
    assert!(d <= KERNEL_ULPS, "softmax: {d} ulp apart");
}
