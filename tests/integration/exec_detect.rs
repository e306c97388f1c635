//! What only a TPU would show, shown by the executor: DMA races and
//! schedules, revisited output blocks, reads of uninitialised memory, two
//! TensorCores splitting a grid (megacore); and the host side of a run
//! (`exec::host`: result-shape operands). Kernels here are small and
//! hand-written, each the shape of a bug JAX's interpret mode reports
//! (`tests/pallas/tpu_pallas_interpret_test.py`).

use tpu_custom_call::exec::{
    self, Array, CallShape, DmaTiming, ExecError, Execution, RunOptions, RunReport, host,
};
use tpu_custom_call::{Context, Kernel};

use crate::common::*;

fn compile(kernel: &str, operands: &[&str], results: &[&str]) -> Execution {
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, kernel, "test.mlir").expect("kernel parses");
    let parse = |t: &&str| exec::TensorType::parse(t).unwrap();
    let shape = CallShape {
        operands: operands.iter().map(parse).collect(),
        results: results.iter().map(parse).collect(),
        aliases: Vec::new(),
    };
    Execution::new(&k, shape).expect("compiles")
}

/// The CLI: exit code, stdout and stderr as text.
fn cli(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = run_cli(args);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

fn run(e: &Execution, inputs: Vec<Array>, options: &RunOptions) -> Result<RunReport, ExecError> {
    e.run_report(&[inputs], options)
}

fn iota(shape: &[usize]) -> Array {
    let mut a = Array::filled(exec::ElemType::F32, shape, 0.0);
    for i in 0..a.len() {
        a.data.set_f64(i, i as f64);
    }
    a
}

const VMEM: &str = "memref<8x128xf32, #tpu.memory_space<vmem>>";
const ANY: &str = "memref<8x128xf32, #tpu.memory_space<any>>";
const SEM: &str = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>";

/// `copy = make_async_copy(x_hbm, t, sem); copy.start(); v = t[...]; copy.wait(); o[...] = v`:
/// the load reads the DMA's destination while it is in flight (or, with
/// `after_wait`, the race-free order).
fn dma_kernel(after_wait: bool) -> String {
    let start = format!(
        "tpu.enqueue_dma source(%x : {ANY}) target(%t : {VMEM}) target_semaphore(%s : {SEM})"
    );
    let wait = format!("tpu.wait_dma2 semaphore(%s : {SEM}) src(%x : {ANY}) dst(%t : {VMEM})");
    let load = format!("%v = vector.load %t[%c0, %c0] : {VMEM}, vector<8x128xf32>");
    let (first, second) = if after_wait {
        (wait, load)
    } else {
        (load, wait)
    };
    format!(
        r#"module {{
  func.func @k(%x: {ANY}, %o: {VMEM}, %t: {VMEM}, %s: {SEM}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    %c0 = arith.constant 0 : index
    {start}
    {first}
    {second}
    vector.store %v, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
}}"#
    )
}

#[test]
fn a_read_of_a_dma_destination_in_flight_is_a_race_with_both_ops_named() {
    let t = ["tensor<8x128xf32>"];
    let racy = compile(&dma_kernel(false), &t, &t);
    let x = iota(&[8, 128]);
    // Unwatched, the earliest schedule computes plausible numbers...
    let r = run(&racy, vec![x.clone()], &RunOptions::default()).unwrap();
    assert_eq!(r.results[0][0], x);
    // ... and the latest (interpret mode's) reads what the scratch held.
    let late = RunOptions {
        dma: DmaTiming::AtWait,
        ..RunOptions::default()
    };
    let r = run(&racy, vec![x.clone()], &late).unwrap();
    assert!(r.results[0][0].data.get_f64(0).is_nan());
    // Watched, under every schedule: the race, both ops, the buffer.
    for dma in [
        DmaTiming::AtStart,
        DmaTiming::AtWait,
        DmaTiming::Random(1),
        DmaTiming::Random(2),
    ] {
        let o = RunOptions {
            detect_races: true,
            dma,
            ..RunOptions::default()
        };
        let e = run(&racy, vec![x.clone()], &o).unwrap_err().to_string();
        assert!(e.contains("1 race(s) found"), "{dma:?}: {e}");
        assert!(
            e.contains("`vector.load`") && e.contains("reads scratch operand 0 (VMEM)"),
            "{e}"
        );
        assert!(
            e.contains("the DMA `tpu.enqueue_dma`") && e.contains("into it is in flight"),
            "{e}"
        );
        assert!(e.contains("grid point ()"), "{e}");
    }
    // The same ops in the right order: no race, the copy's numbers, under
    // every schedule.
    let fine = compile(&dma_kernel(true), &t, &t);
    for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(7)] {
        let o = RunOptions {
            detect_races: true,
            dma,
            ..RunOptions::default()
        };
        let r = run(&fine, vec![x.clone()], &o).unwrap();
        assert_eq!(r.results[0][0], x, "{dma:?}");
    }
}

/// A write to a DMA's source while the DMA is in flight.
#[test]
fn a_write_of_a_dma_source_in_flight_is_a_race() {
    let kernel = format!(
        r#"module {{
  func.func @k(%x: {VMEM}, %o: {ANY}, %s: {SEM}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<0.0> : vector<8x128xf32>
    tpu.enqueue_dma source(%x : {VMEM}) target(%o : {ANY}) target_semaphore(%s : {SEM})
    vector.store %z, %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    tpu.wait_dma2 semaphore(%s : {SEM}) src(%x : {VMEM}) dst(%o : {ANY})
    return
  }}
}}"#
    );
    let t = ["tensor<8x128xf32>"];
    let e = compile(&kernel, &t, &t);
    let o = RunOptions {
        detect_races: true,
        ..RunOptions::default()
    };
    let err = run(&e, vec![iota(&[8, 128])], &o).unwrap_err().to_string();
    assert!(
        err.contains("`vector.store`") && err.contains("writes input 0's block (VMEM)"),
        "{err}"
    );
    assert!(err.contains("out of it is in flight"), "{err}");
    // The schedule decides the numbers: zeros when the copy is late.
    let late = RunOptions {
        dma: DmaTiming::AtWait,
        ..RunOptions::default()
    };
    let r = run(&e, vec![iota(&[8, 128])], &late).unwrap();
    assert_eq!(r.results[0][0].data.get_f64(5), 0.0);
    let early = run(&e, vec![iota(&[8, 128])], &RunOptions::default()).unwrap();
    assert_eq!(early.results[0][0].data.get_f64(5), 5.0);
}

/// A 4x4 grid whose output index map is `(j // 2, i % 2)` (the issue's):
/// output block (0, 0) is left at grid point (0, 1) and visited again at
/// (2, 0).
#[test]
fn a_revisited_output_block_is_an_error_naming_the_output_block_and_points() {
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %j: i32, %o: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 4, 4>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %z = arith.constant dense<1.0> : vector<8x128xf32>
    vector.store %z, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t(%i: i32, %j: i32) -> (i32, i32) {{
    %c2 = arith.constant 2 : i32
    %a = arith.divsi %j, %c2 : i32
    %b = arith.remsi %i, %c2 : i32
    return %a, %b : i32, i32
  }}
}}"#
    );
    let e = compile(&kernel, &[], &["tensor<16x256xf32>"]);
    let err = run(&e, vec![], &RunOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("Revisited block: output 0's block [0, 0]"),
        "{text}"
    );
    assert!(
        text.contains("grid points (0, 0) to (0, 1)")
            && text.contains("again at grid point (2, 0)"),
        "{text}"
    );
    assert_eq!(err.grid_point, Some(vec![2, 0]));
    // `validate` evaluates the same index map over the grid: the same words,
    // whether the dimensions are `arbitrary` or `parallel` (one TensorCore
    // runs a parallel dimension in order too), as a warning: libtpu compiles
    // the kernel.
    for kernel in [kernel.clone(), kernel.replacen("arbitrary", "parallel", 2)] {
        let ctx = Context::new();
        let k = Kernel::from_text(&ctx, &kernel, "test.mlir").unwrap();
        let ty = tpu_custom_call::melior::ir::Type::parse(&ctx, "tensor<16x256xf32>").unwrap();
        let params = tpu_custom_call::Params::from_json(b"{}").unwrap();
        let signature = tpu_custom_call::Signature::new(Vec::new(), vec![ty]);
        let found = tpu_custom_call::validate::report(
            Some(&k),
            Some(&signature),
            &params,
            None,
            &tpu_custom_call::ValidateOptions::all_rules(),
        );
        assert!(found.errors.is_empty(), "{:?}", found.errors);
        let warnings = found.contract.expect("the contract ran").warnings;
        assert!(
            warnings.iter().any(|e| e.to_string() == err.message),
            "{warnings:?}\n{text}"
        );
    }
}

/// `acc[...] += x` with no `pl.when(k == 0)` initialisation: the first read
/// of the accumulator names the op, the buffer, the element and the point.
#[test]
fn a_read_of_unwritten_scratch_names_the_op_buffer_element_and_point() {
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %x: {VMEM}, %o: {VMEM}, %acc: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t0, window_bounds = array<i64: 8, 128>}}, {{transform_indices = @t1, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %a = vector.load %acc[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %s = arith.addf %a, %v : vector<8x128xf32>
    vector.store %s, %acc[%c0, %c0] : {VMEM}, vector<8x128xf32>
    vector.store %s, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t0(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
  func.func @t1(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %c0, %c0 : i32, i32
  }}
}}"#
    );
    let e = compile(&kernel, &["tensor<16x128xf32>"], &["tensor<8x128xf32>"]);
    let x = iota(&[16, 128]);
    // Untracked: NaN everywhere, and nothing says why.
    let r = run(&e, vec![x.clone()], &RunOptions::default()).unwrap();
    assert!(r.results[0][0].data.get_f64(0).is_nan());
    assert_eq!(r.unwritten, vec![None]);
    let o = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let err = run(&e, vec![x], &o).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.op.as_deref(), Some("vector.load"), "{text}");
    assert!(
        text.contains("reads uninitialised memory: element [0, 0] of scratch operand 0 (VMEM)"),
        "{text}"
    );
    assert!(text.contains("grid point (0)"), "{text}");
}

/// Result elements nothing wrote are counted per output.
#[test]
fn unwritten_result_elements_are_counted_per_output() {
    let kernel = format!(
        r#"module {{
  func.func @k(%x: {VMEM}, %o: {VMEM}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<3x128xf32>
    vector.store %v, %o[%c0, %c0] : {VMEM}, vector<3x128xf32>
    return
  }}
}}"#
    );
    let t = ["tensor<8x128xf32>"];
    let e = compile(&kernel, &t, &t);
    let o = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let r = run(&e, vec![iota(&[8, 128])], &o).unwrap();
    assert_eq!(r.unwritten, vec![Some(5 * 128)]);
    assert_eq!(r.results[0][0].data.get_f64(130), 130.0);
    assert!(r.results[0][0].data.get_f64(3 * 128).is_nan());
}

/// A kernel that carries a scratch accumulator across its `parallel`
/// dimension (initialised only at grid point (0, 0)): right on one core,
/// and on a megacore chip the second core's scratch is never initialised.
fn carried_accumulator() -> String {
    format!(
        r#"module {{
  func.func @k(%i: i32, %j: i32, %x: {VMEM}, %o: {VMEM}, %acc: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2, 2>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t0, window_bounds = array<i64: 8, 128>}}, {{transform_indices = @t1, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %first = arith.addi %i, %j : i32
    %init = arith.cmpi eq, %first, %z : i32
    scf.if %init {{
      %zero = arith.constant dense<0.0> : vector<8x128xf32>
      vector.store %zero, %acc[%c0, %c0] : {VMEM}, vector<8x128xf32>
    }}
    %a = vector.load %acc[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %s = arith.addf %a, %v : vector<8x128xf32>
    vector.store %s, %acc[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %last = arith.cmpi eq, %j, %one : i32
    scf.if %last {{
      vector.store %s, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    }}
    return
  }}
  func.func @t0(%i: i32, %j: i32) -> (i32, i32) {{
    %c2 = arith.constant 2 : i32
    %r = arith.muli %i, %c2 : i32
    %b = arith.addi %r, %j : i32
    %c0 = arith.constant 0 : i32
    return %b, %c0 : i32, i32
  }}
  func.func @t1(%i: i32, %j: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}"#
    )
}

#[test]
fn megacore_splits_the_leading_parallel_dimension_with_separate_scratch() {
    let e = compile(
        &carried_accumulator(),
        &["tensor<32x128xf32>"],
        &["tensor<16x128xf32>"],
    );
    let mut x = Array::filled(exec::ElemType::F32, &[32, 128], 0.0);
    for r in 0..32 {
        for c in 0..128 {
            x.data.set_f64(r * 128 + c, (r / 8 + 1) as f64);
        }
    }
    // One core: block rows 1+2 = 3, then 3+3+4 = 10.
    let one = run(&e, vec![x.clone()], &RunOptions::default()).unwrap();
    assert_eq!(one.results[0][0].data.get_f64(0), 3.0);
    assert_eq!(one.results[0][0].data.get_f64(8 * 128), 10.0);
    // Two cores (v4, v5p): core 1 starts at i = 1 with its own scratch,
    // never initialised: what the TPU computes is garbage, here NaN.
    let two = RunOptions {
        cores: exec::cores_of("v5p".parse().unwrap()),
        ..RunOptions::default()
    };
    assert_eq!(two.cores, 2);
    let r = run(&e, vec![x.clone()], &two).unwrap();
    assert_eq!(r.results[0][0].data.get_f64(0), 3.0);
    assert!(r.results[0][0].data.get_f64(8 * 128).is_nan());
    // ... and the uninitialised read is named on core 1's first point.
    let tracked = RunOptions {
        detect_uninitialized: true,
        ..two.clone()
    };
    let err = run(&e, vec![x.clone()], &tracked).unwrap_err();
    assert!(
        err.to_string()
            .contains("scratch operand 0 (VMEM) of core 1"),
        "{err}"
    );
    assert_eq!(err.grid_point, Some(vec![1, 0]));
    // v6e and v7x: one TensorCore per device.
    assert_eq!(exec::cores_of("v6e".parse().unwrap()), 1);
    assert_eq!(exec::cores_of("v7x".parse().unwrap()), 1);
    assert_eq!(exec::cores_of("v4".parse().unwrap()), 2);
}

/// Two cores writing one output block lose one core's writes.
#[test]
fn an_output_block_written_by_both_cores_is_a_revisit() {
    // The carried accumulator's output mapped to block 0 for both i.
    let kernel = carried_accumulator().replace(
        "  func.func @t1(%i: i32, %j: i32) -> (i32, i32) {\n    %c0 = arith.constant 0 : i32\n    return %i, %c0 : i32, i32",
        "  func.func @t1(%i: i32, %j: i32) -> (i32, i32) {\n    %c0 = arith.constant 0 : i32\n    return %c0, %c0 : i32, i32",
    );
    let e = compile(&kernel, &["tensor<32x128xf32>"], &["tensor<8x128xf32>"]);
    let x = Array::filled(exec::ElemType::F32, &[32, 128], 1.0);
    run(&e, vec![x.clone()], &RunOptions::default()).unwrap();
    let two = RunOptions {
        cores: 2,
        ..RunOptions::default()
    };
    let err = run(&e, vec![x], &two).unwrap_err().to_string();
    assert!(
        err.contains("Revisited block") && err.contains("on core 0") && err.contains("on core 1"),
        "{err}"
    );
}

/// JAX's shape-polymorphic export passes a result-shape operand after the
/// data operands (`indices_of_shape_operands`): accepted and checked.
#[test]
fn result_shape_operands_are_accepted_and_checked() {
    let dir = data_dir().join("exec/shape_poly_export");
    let ctx = Context::new();
    let bytes = std::fs::read(dir.join("module.mlir")).unwrap();
    let call = host::load_call(&ctx, &bytes, "module.mlir", None).unwrap();
    let e = &call.execution;
    assert_eq!(e.shape_operands().len(), 1, "{:?}", e.shape_operands());
    let n = e.call_shape().operands.len();
    let all: Vec<_> = (0..=n).map(|k| dir.join(format!("in{k}.npy"))).collect();
    for given in [&all[..n], &all[..]] {
        let inputs = host::read_operands(e, given, 1).unwrap();
        let out = e.run_devices(&inputs, &RunOptions::default()).unwrap();
        let cmp = host::compare_with_dir(&out[0], &dir, 0.0, 0.0).unwrap();
        assert!(cmp.iter().all(|c| c.mismatch.is_none()), "{cmp:?}");
    }
    let mut inputs = host::read_operands(e, &all, 1).unwrap();
    let last = inputs[0].last_mut().unwrap();
    last.data.set_f64(0, 99.0);
    let err = e
        .run_devices(&inputs, &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!(
            "operand {n} is the result-shape operand of result 0"
        )),
        "{err}"
    );
    let err = host::read_operands(e, &all[..1], 1)
        .unwrap_err()
        .to_string();
    assert!(err.contains("the last 1 hold the result shapes"), "{err}");
}

/// A negative block dimension is refused when the call is validated (and
/// by the executor), never a panic or a huge memref.
#[test]
fn a_negative_block_dimension_is_refused() {
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %x: {VMEM}, %o: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t, window_bounds = array<i64: -8, 128>}}, {{transform_indices = @t, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}"#
    );
    let dir = std::env::temp_dir().join(format!("tcc-negblock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("k.mlir");
    std::fs::write(&path, &kernel).unwrap();
    let params = dir.join("p.json");
    std::fs::write(&params, "{}").unwrap();
    let sig = "(tensor<16x128xf32>) -> tensor<16x128xf32>";
    let (code, stdout, stderr) = cli(&[
        "validate",
        params.to_str().unwrap(),
        "--kernel",
        path.to_str().unwrap(),
        "--signature",
        sig,
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("negative size (-8) in dimension 0"),
        "{stderr}"
    );
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, &kernel, "k.mlir").unwrap();
    let t = exec::TensorType::parse("tensor<16x128xf32>").unwrap();
    let shape = CallShape {
        operands: vec![t.clone()],
        results: vec![t],
        aliases: Vec::new(),
    };
    let err = Execution::new(&k, shape).err().unwrap().to_string();
    assert!(err.contains("negative dimension"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CLI's flags reach the run: `--detect-races` exits 1 naming the race,
/// `--detect-uninitialized` counts unwritten results, `--target v5p` runs
/// two cores.
#[test]
fn run_cli_flags_reach_the_detectors() {
    let dir = std::env::temp_dir().join(format!("tcc-detect-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("race.mlir");
    std::fs::write(&k, dma_kernel(false)).unwrap();
    let sig = "(tensor<8x128xf32>) -> tensor<8x128xf32>";
    let (code, stdout, stderr) = cli(&[
        "run",
        k.to_str().unwrap(),
        "--signature",
        sig,
        "--detect-races",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("race(s) found"), "{stderr}");
    let (code, stdout, stderr) = cli(&[
        "run",
        k.to_str().unwrap(),
        "--signature",
        sig,
        "--dma",
        "at-wait",
        "--detect-uninitialized",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("reads uninitialised memory"), "{stderr}");
    let m = dir.join("acc.mlir");
    std::fs::write(&m, carried_accumulator()).unwrap();
    let sig2 = "(tensor<32x128xf32>) -> tensor<16x128xf32>";
    let (code, stdout, stderr) = cli(&["run", m.to_str().unwrap(), "--signature", sig2, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"cores\": 1"), "{stdout}");
    let (code, stdout, stderr) = cli(&[
        "run",
        m.to_str().unwrap(),
        "--signature",
        sig2,
        "--target",
        "v5p",
        "--detect-uninitialized",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("of core 1"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Both TensorCores DMA into the same rows of an HBM output: ordered on
/// one core (each DMA waited for before the next point), unordered on two.
#[test]
fn hbm_writes_of_two_cores_to_one_region_are_a_race() {
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %x: {VMEM}, %o: {ANY}, %s: {SEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{transform_indices = @t0, window_bounds = array<i64: 8, 128>}}, {{}}]}} {{
    tpu.enqueue_dma source(%x : {VMEM}) target(%o : {ANY}) target_semaphore(%s : {SEM})
    tpu.wait_dma2 semaphore(%s : {SEM}) src(%x : {VMEM}) dst(%o : {ANY})
    return
  }}
  func.func @t0(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}"#
    );
    let e = compile(&kernel, &["tensor<16x128xf32>"], &["tensor<8x128xf32>"]);
    let x = iota(&[16, 128]);
    let one = RunOptions {
        detect_races: true,
        ..RunOptions::default()
    };
    let r = run(&e, vec![x.clone()], &one).unwrap();
    assert_eq!(
        r.results[0][0].data.get_f64(0),
        1024.0,
        "the last point's rows"
    );
    let two = RunOptions {
        cores: 2,
        ..one.clone()
    };
    let err = run(&e, vec![x], &two).unwrap_err().to_string();
    assert!(
        err.contains("core 0 (`tpu.enqueue_dma`")
            && err.contains("writes output 0 (HBM) and core 1"),
        "{err}"
    );
    assert!(err.contains("the TensorCores are not ordered"), "{err}");
}

/// Runs a `tests/data/exec-detect` case (made by
/// `scripts/jaxref/exec/make_findings.py` with JAX 0.12's interpret mode).
fn detect_case(name: &str, options: &RunOptions) -> Result<Vec<Array>, ExecError> {
    let dir = data_dir().join("exec-detect").join(name);
    let ctx = Context::new();
    let bytes = std::fs::read(dir.join("module.mlir")).unwrap();
    let call = host::load_call(&ctx, &bytes, name, None).unwrap();
    let n = call.execution.call_shape().operands.len();
    let paths: Vec<_> = (0..n).map(|k| dir.join(format!("in{k}.npy"))).collect();
    let inputs = host::read_operands(&call.execution, &paths, 1).unwrap();
    Ok(call
        .execution
        .run_report(&inputs, options)?
        .results
        .remove(0))
}

/// Compares with a reference file of the case (`out0.npy`, `eager_out0.npy`, ...).
fn equals_reference(name: &str, results: &[Array], file: &str, rtol: f64, atol: f64) {
    let path = data_dir().join("exec-detect").join(name).join(file);
    let want = exec::npy::read(&path, results[0].elem).unwrap();
    if let Err(m) = exec::compare(&results[0], &want, rtol, atol) {
        panic!("{name}: differs from {file}: {m}");
    }
}

/// The kernels JAX's interpret mode flags (or computes schedule-dependent
/// numbers for), run here: the same numbers under the same schedule, and
/// the executor's report where interpret mode's detectors report.
#[test]
fn every_detection_case_computes_and_reports_what_interpret_mode_does() {
    let at = |dma| RunOptions {
        dma,
        ..RunOptions::default()
    };
    let watched = |dma| RunOptions {
        dma,
        detect_races: true,
        ..RunOptions::default()
    };
    // Races: interpret mode's default schedule copies at the wait (out0),
    // its eager one at the start (eager_out0); with detect_races it raises.
    for name in ["race_dma_read", "race_dma_write"] {
        let late = detect_case(name, &at(DmaTiming::AtWait)).unwrap();
        equals_reference(name, &late, "out0.npy", 0.0, 0.0);
        let early = detect_case(name, &at(DmaTiming::AtStart)).unwrap();
        equals_reference(name, &early, "eager_out0.npy", 0.0, 0.0);
        for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(5)] {
            let e = detect_case(name, &watched(dma)).unwrap_err().to_string();
            assert!(e.contains("1 race(s) found"), "{name} {dma:?}: {e}");
        }
    }
    for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(5)] {
        let r = detect_case("race_free_dma", &watched(dma)).unwrap();
        equals_reference("race_free_dma", &r, "out0.npy", 0.0, 0.0);
    }
    // Interpret mode: "Revisited block (slice(0, 8, 1), slice(0, 128, 1)) of
    // output 0 in iteration (2, 0). The block was previously visited in
    // iterations (0, 0) through (0, 1)."
    let e = detect_case("revisited_block", &RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("output 0's block [0, 0]")
            && e.contains("grid points (0, 0) to (0, 1)")
            && e.contains("again at grid point (2, 0)"),
        "{e}"
    );
    // The accumulator never initialised: NaN (interpret mode's default), the
    // product with zero-filled memory, and here the read named.
    let r = detect_case("uninit_accumulator", &RunOptions::default()).unwrap();
    equals_reference("uninit_accumulator", &r, "out0.npy", 0.0, 0.0);
    let zero = RunOptions {
        uninitialized: exec::Uninitialized::Zero,
        ..RunOptions::default()
    };
    let r = detect_case("uninit_accumulator", &zero).unwrap();
    // JAX's Pallas matmul tests' f32 tolerance.
    equals_reference("uninit_accumulator", &r, "zero_out0.npy", 1e-5, 1e-5);
    let tracked = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let e = detect_case("uninit_accumulator", &tracked)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("reads uninitialised memory") && e.contains("output 0's block (VMEM)"),
        "{e}"
    );
    assert!(e.contains("grid point (0)"), "{e}");
    // One core, and two (interpret mode's num_cores_or_threads=2).
    let one = detect_case("megacore_dependent", &RunOptions::default()).unwrap();
    equals_reference("megacore_dependent", &one, "out0.npy", 0.0, 0.0);
    let two = RunOptions {
        cores: 2,
        ..RunOptions::default()
    };
    let r = detect_case("megacore_dependent", &two).unwrap();
    equals_reference("megacore_dependent", &r, "megacore_out0.npy", 0.0, 0.0);
    let e = detect_case(
        "megacore_dependent",
        &RunOptions {
            detect_uninitialized: true,
            ..two
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("of core 1"), "{e}");
}

/// `pl.Buffered(1, revisit=pltpu.RevisitMode.ANY)`: an output block may be
/// visited again; the pipeline reads it back, so `o += 1` over the issue's
/// 4x4 grid with the `(j // 2, i % 2)` map counts every visit.
#[test]
fn an_output_block_with_revisit_mode_any_is_read_back() {
    let kernel = format!(
        r#"module {{
  func.func @k(%i: i32, %j: i32, %x: memref<16x256xf32, #tpu.memory_space<any>>, %o: {VMEM}) attributes {{dimension_semantics = [#tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 4, 4>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{}}, {{pipeline_mode = #tpu.pipeline_mode<synchronous>, revisit_mode = #tpu.revisit_mode<any>, transform_indices = @t, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %one = arith.constant dense<1.0> : vector<8x128xf32>
    %v = vector.load %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    %s = arith.addf %v, %one : vector<8x128xf32>
    vector.store %s, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @t(%i: i32, %j: i32) -> (i32, i32) {{
    %c2 = arith.constant 2 : i32
    %a = arith.divsi %j, %c2 : i32
    %b = arith.remsi %i, %c2 : i32
    return %a, %b : i32, i32
  }}
}}"#
    );
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, &kernel, "test.mlir").expect("kernel parses");
    let t = exec::TensorType::parse("tensor<16x256xf32>").unwrap();
    let shape = CallShape {
        operands: vec![t.clone()],
        results: vec![t],
        aliases: vec![(0, 0)],
    };
    let e = Execution::new(&k, shape).unwrap();
    let zeros = Array::filled(exec::ElemType::F32, &[16, 256], 0.0);
    let o = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let r = run(&e, vec![zeros], &o).unwrap();
    // 16 grid points over 4 blocks: each block visited 4 times.
    assert!(
        (0..r.results[0][0].len()).all(|i| r.results[0][0].data.get_f64(i) == 4.0),
        "{:?}",
        &r.results[0][0].data.get_f64(0)
    );
    assert_eq!(r.unwritten, vec![Some(0)]);
}

/// Under every schedule a DMA no wait takes is an error when the call
/// returns (judged by its semaphore: the copy itself happens by then).
#[test]
fn an_unwaited_dma_is_an_error_under_every_schedule() {
    let kernel = format!(
        r#"module {{
  func.func @k(%x: {ANY}, %o: {VMEM}, %t: {VMEM}, %s: {SEM}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    tpu.enqueue_dma source(%x : {ANY}) target(%t : {VMEM}) target_semaphore(%s : {SEM})
    return
  }}
}}"#
    );
    let t = ["tensor<8x128xf32>"];
    let e = compile(&kernel, &t, &t);
    for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(3)] {
        let o = RunOptions {
            dma,
            ..RunOptions::default()
        };
        let err = run(&e, vec![iota(&[8, 128])], &o).unwrap_err().to_string();
        assert!(
            err.contains("a DMA was still in flight") && err.contains("4096 byte"),
            "{dma:?}: {err}"
        );
    }
}

/// A DMA semaphore of `pl.run_scoped` whose scope ends while a copy
/// signalling it is in flight (found by the exec fuzz target: the late copy
/// signalled the freed semaphore and the executor panicked): an error under
/// every schedule and core count, naming the semaphore's op.
#[test]
fn a_scoped_dma_semaphore_freed_with_a_copy_in_flight_is_an_error() {
    let hbm = "memref<16x128xf32, #tpu.memory_space<any>>";
    let kernel = |wait: bool| {
        let wait = if wait {
            format!("tpu.wait_dma2 semaphore(%s : {SEM}) src(%x : {hbm}) dst(%y : {hbm})")
        } else {
            String::new()
        };
        format!(
            r#"module {{
  func.func @k(%i: i32, %x: {hbm}, %y: {hbm}) attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{{}}, {{}}]}} {{
    "tpu.region"() ({{
      %s = tpu.sem_alloc : {SEM}
      tpu.enqueue_dma source(%x : {hbm}) target(%y : {hbm}) target_semaphore(%s : {SEM})
      {wait}
      tpu.yield
    }}) : () -> ()
    return
  }}
}}"#
        )
    };
    let t = ["tensor<16x128xf32>"];
    let x = iota(&[16, 128]);
    for cores in [1, 2] {
        for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(5)] {
            let o = RunOptions {
                dma,
                cores,
                // Both cores copy the whole array: a race of its own.
                detect_races: cores == 1,
                ..RunOptions::default()
            };
            let err = run(&compile(&kernel(false), &t, &t), vec![x.clone()], &o)
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("tpu.sem_alloc")
                    && err.contains("its scope ended with 8192 byte(s) of DMA never waited for"),
                "{dma:?} x {cores}: {err}"
            );
            let ok = run(&compile(&kernel(true), &t, &t), vec![x.clone()], &o)
                .unwrap_or_else(|e| panic!("{dma:?} x {cores}: {e}"));
            assert_eq!(ok.results[0][0], x, "{dma:?} x {cores}");
        }
    }
}

/// A vector-subcore kernel (`plsc.VectorSubcoreMesh`, two subcores): each
/// subcore copies its input row into its row of `VMEM_SHARED` scratch, and
/// the last one copies the whole shared scratch out. `vmem_shared` is one
/// buffer per SparseCore, whatever the subcore (the executor gave each
/// subcore its own copy: the output's row 0 came back unwritten). With a
/// `plsc.subcore_barrier` between the two phases, the kernel is refused: the
/// executor runs subcores one after another and cannot hold one at a
/// barrier (numbers exchanged across it would be wrong).
fn subcore_kernel(barrier: bool) -> String {
    let hbm = "memref<2x128xi32, #tpu.memory_space<hbm>>";
    let row = "memref<1x128xi32, #tpu.memory_space<hbm>>";
    let shared = "memref<2x128xi32, #tpu.memory_space<vmem_shared>>";
    let srow = "memref<1x128xi32, #tpu.memory_space<vmem_shared>>";
    let barrier = if barrier {
        "%b = arith.constant 0 : index\n    tpu.barrier barrier_id(%b)"
    } else {
        ""
    };
    format!(
        r#"#map = affine_map<(d0, d1) -> (0, 0)>
module {{
  func.func @k(%c: i32, %s: i32, %x: {hbm}, %o: {hbm}, %sh: {shared}) attributes {{dimension_semantics = [#tpu.dimension_semantics<core_parallel>, #tpu.dimension_semantics<subcore_parallel>], iteration_bounds = array<i64: 1, 2>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<sc_vector_subcore>, window_params = [{{transform_indices = #map}}, {{transform_indices = #map}}]}} {{
    %z = arith.constant 0 : i32
    "tpu.region"() ({{
      %sem = tpu.sem_alloc : {SEM}
      %xs = tpu.memref_slice %x[%s, %z] : {hbm} -> {row}
      %ss = tpu.memref_slice %sh[%s, %z] : {shared} -> {srow}
      tpu.enqueue_dma source(%xs : {row}) target(%ss : {srow}) target_semaphore(%sem : {SEM})
      tpu.wait_dma2 semaphore(%sem : {SEM}) src(%xs : {row}) dst(%ss : {srow})
      tpu.yield
    }}) : () -> ()
    {barrier}
    %one = arith.constant 1 : i32
    %last = arith.cmpi eq, %s, %one : i32
    scf.if %last {{
      "tpu.region"() ({{
        %sem = tpu.sem_alloc : {SEM}
        tpu.enqueue_dma source(%sh : {shared}) target(%o : {hbm}) target_semaphore(%sem : {SEM})
        tpu.wait_dma2 semaphore(%sem : {SEM}) src(%sh : {shared}) dst(%o : {hbm})
        tpu.yield
      }}) : () -> ()
    }}
    return
  }}
}}"#
    )
}

#[test]
fn vector_subcores_share_vmem_shared_and_meet_at_barriers() {
    let t = ["tensor<2x128xi32>"];
    let mut x = Array::filled(exec::ElemType::Int(32), &[2, 128], 0.0);
    for i in 0..x.len() {
        x.data.set_f64(i, i as f64 + 1.0);
    }
    for barrier in [false, true] {
        let e = compile(&subcore_kernel(barrier), &t, &t);
        for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(9)] {
            let o = RunOptions {
                detect_uninitialized: true,
                detect_races: barrier,
                dma,
                ..RunOptions::default()
            };
            let r =
                run(&e, vec![x.clone()], &o).unwrap_or_else(|e| panic!("{barrier} {dma:?}: {e}"));
            assert_eq!(r.results[0][0], x, "{barrier} {dma:?}");
            assert_eq!(r.unwritten, vec![Some(0)]);
            // Without the barrier, subcore 1's copy of the whole shared
            // scratch is not ordered after subcore 0's write of its row
            // (the numbers above are right only because the executor runs
            // subcore 0 first): a race, under every schedule.
            let watched = RunOptions {
                detect_races: true,
                ..o
            };
            let r = run(&e, vec![x.clone()], &watched);
            if barrier {
                r.unwrap_or_else(|e| panic!("{dma:?}: {e}"));
            } else {
                let err = r.unwrap_err().message;
                assert!(
                    err.contains("1 race(s) found")
                        && err.contains(
                            "the DMA `tpu.enqueue_dma` at loc(\"-\":9:7) [grid point (0, 0)] writes scratch operand 0 (VMEM_SHARED)"
                        )
                        && err.contains(
                            "the DMA `tpu.enqueue_dma` at loc(\"-\":19:9) [grid point (0, 1)] reads it"
                        ),
                    "{dma:?}: {err}"
                );
            }
        }
    }
    // A barrier only subcore 0 reaches never opens: an error, not a hang.
    let lone = subcore_kernel(true).replace(
        "%b = arith.constant 0 : index\n    tpu.barrier barrier_id(%b)",
        "%b = arith.constant 0 : index\n    %z0 = arith.cmpi eq, %s, %z : i32\n    scf.if %z0 {\n      tpu.barrier barrier_id(%b)\n    }",
    );
    assert_ne!(lone, subcore_kernel(true));
    let err = run(
        &compile(&lone, &t, &t),
        vec![x.clone()],
        &RunOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.op.as_deref(), Some("tpu.barrier"), "{err}");
    assert!(
        err.message.contains(
            "a barrier that can never open: 1 of the 2 vector subcores returned without reaching it"
        ),
        "{err}"
    );
    // Subcores that also step through a sequential grid dimension cannot
    // each have a thread: a barrier there is refused.
    let sequential = subcore_kernel(true)
        .replace("(d0, d1) -> (0, 0)", "(d0, d1, d2) -> (0, 0)")
        .replace("%c: i32, %s: i32,", "%c: i32, %s: i32, %a: i32,")
        .replace(
            "#tpu.dimension_semantics<subcore_parallel>]",
            "#tpu.dimension_semantics<subcore_parallel>, #tpu.dimension_semantics<arbitrary>]",
        )
        .replace("array<i64: 1, 2>", "array<i64: 1, 2, 3>");
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, &sequential, "test.mlir").expect("kernel parses");
    let shape = CallShape {
        operands: vec![exec::TensorType::parse(t[0]).unwrap()],
        results: vec![exec::TensorType::parse(t[0]).unwrap()],
        aliases: Vec::new(),
    };
    let err = Execution::new(&k, shape).unwrap_err();
    assert_eq!(err.op.as_deref(), Some("tpu.barrier"));
    assert!(
        err.message.starts_with("a barrier across vector subcores (plsc.subcore_barrier) is supported only in a kernel whose grid is all core_parallel / subcore_parallel"),
        "{err}"
    );
}

/// JAX's SparseCore tests whose 16 vector subcores exchange data through
/// `VMEM_SHARED` across `plsc.subcore_barrier()` (tests/data/exec-sc), run
/// with the JAX test's inputs against the JAX test's own assertion, under
/// every DMA schedule, with the detectors on: the same numbers every run.
#[test]
fn sparsecore_barrier_kernels_compute_what_jax_tests_assert() {
    let ctx = Context::new();
    let load = |name: &str| {
        let bytes =
            std::fs::read(data_dir().join("exec-sc").join(name).join("module.mlir")).unwrap();
        host::load_call(&ctx, &bytes, name, None).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    // test_scatter_add: x[0] + x.sum(0)[::-1].
    let scatter = load("scatter_add");
    let mut x = Array::filled(exec::ElemType::F32, &[16, 32], 0.0);
    for i in 0..x.len() {
        x.data.set_f64(i, i as f64);
    }
    let mut indices = Array::filled(exec::ElemType::Int(32), &[32], 0.0);
    for i in 0..32 {
        indices.data.set_f64(i, (31 - i) as f64);
    }
    let mut want = Array::filled(exec::ElemType::F32, &[32], 0.0);
    for j in 0..32 {
        let column: f64 = (0..16).map(|r| (r * 32 + (31 - j)) as f64).sum();
        want.data.set_f64(j, j as f64 + column);
    }
    // test_tiled_dma_hbm_vmem_shared: kernel(x_pad)[:, :16] == x + 1.
    let tiled = load("tiled_dma_hbm_vmem_shared");
    let mut xp = Array::filled(exec::ElemType::Int(32), &[16, 128], 0.0);
    for r in 0..16 {
        for c in 0..16 {
            xp.data.set_f64(r * 128 + c, ((r * 16 + c) / 4) as f64);
        }
    }
    for dma in [DmaTiming::AtStart, DmaTiming::AtWait, DmaTiming::Random(5)] {
        let o = RunOptions {
            dma,
            detect_races: true,
            detect_uninitialized: true,
            ..RunOptions::default()
        };
        let got = scatter
            .execution
            .run(&[x.clone(), indices.clone()], &o)
            .unwrap_or_else(|e| panic!("scatter_add {dma:?}: {e}"));
        assert_eq!(got[0], want, "scatter_add {dma:?}");
        let got = tiled
            .execution
            .run(&[xp.clone()], &o)
            .unwrap_or_else(|e| panic!("tiled {dma:?}: {e}"));
        for r in 0..16 {
            for c in 0..16 {
                let i = r * 128 + c;
                assert_eq!(
                    got[0].data.get_f64(i),
                    xp.data.get_f64(i) + 1.0,
                    "tiled {dma:?} [{r}, {c}]"
                );
            }
        }
    }
}

/// Pallas's SparseCore `store_compressed` loads its window with
/// `tpu.expand_load_vreg` and discards the value; jaxlib's canonicalizer
/// (checked here with real jaxlib) erases that load before a TPU runs the
/// kernel, so it must not count as a read of unwritten memory (12 kernels
/// of JAX's SparseCore tests were reported).
#[test]
fn an_unused_expand_load_is_not_a_read() {
    let v = "memref<8xi32, #tpu.memory_space<vmem>>";
    let h = "memref<8xi32, #tpu.memory_space<hbm>>";
    let kernel = format!(
        r#"#map = affine_map<(d0, d1) -> (0)>
module {{
  func.func @k(%c: i32, %s: i32, %x: {h}, %o: {h}, %t: {v}, %u: {v}) attributes {{dimension_semantics = [#tpu.dimension_semantics<core_parallel>, #tpu.dimension_semantics<subcore_parallel>], iteration_bounds = array<i64: 1, 1>, scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<sc_vector_subcore>, window_params = [{{transform_indices = #map}}, {{transform_indices = #map}}]}} {{
    "tpu.region"() ({{
      %sem = tpu.sem_alloc : {SEM}
      tpu.enqueue_dma source(%x : {h}) target(%t : {v}) target_semaphore(%sem : {SEM})
      tpu.wait_dma2 semaphore(%sem : {SEM}) src(%x : {h}) dst(%t : {v})
      tpu.yield
    }}) : () -> ()
    %c0 = arith.constant 0 : index
    %w = tpu.load %t[%c0] sublanes [true, true, true, true, true, true, true, true] : {v}, vector<8xi32>
    %four = arith.constant dense<4> : vector<8xi32>
    %m = arith.cmpi slt, %w, %four : vector<8xi32>
    %e = tpu.expand_load_vreg %u[%c0], %m : {v}, vector<8xi32>, vector<8xi1>
    "tpu.region"() ({{
      %sem = tpu.sem_alloc : {SEM}
      tpu.enqueue_dma source(%t : {v}) target(%o : {h}) target_semaphore(%sem : {SEM})
      tpu.wait_dma2 semaphore(%sem : {SEM}) src(%t : {v}) dst(%o : {h})
      tpu.yield
    }}) : () -> ()
    return
  }}
}}"#
    );
    let t = ["tensor<8xi32>"];
    let e = compile(&kernel, &t, &t);
    let mut x = Array::filled(exec::ElemType::Int(32), &[8], 0.0);
    for i in 0..8 {
        x.data.set_f64(i, i as f64);
    }
    let o = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let r = run(&e, vec![x.clone()], &o).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.results[0][0], x);
    // The reference: jaxlib's canonicalizer erases the unused load.
    let Some(python) = jaxref_python("an_unused_expand_load_is_not_a_read") else {
        return;
    };
    let path = std::env::temp_dir().join(format!("tcc-expand-load-{}.mlir", std::process::id()));
    std::fs::write(&path, &kernel).unwrap();
    let out = std::process::Command::new(python)
        .arg(jaxref_dir().join("canonicalize.py"))
        .arg(&path)
        .args(["tpu.expand_load_vreg", "tpu.enqueue_dma"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "tpu.expand_load_vreg absent\ntpu.enqueue_dma present\n"
    );
}

/// `make_async_copy(scratch, o_hbm, sem)` of scratch nothing wrote: under
/// `detect_uninitialized` the DMA's read is an error exactly like a
/// `vector.load` of the same scratch (the issue's reproducer: it used to end
/// with "1024 element(s) never written" and exit 0).
#[test]
fn a_dma_of_unwritten_scratch_is_an_uninitialised_read_like_a_load() {
    let kernel = |by_dma: bool| {
        let body = if by_dma {
            format!(
                "tpu.enqueue_dma source(%t : {VMEM}) target(%o : {ANY}) target_semaphore(%s : {SEM})\n    \
                 tpu.wait_dma2 semaphore(%s : {SEM}) src(%t : {VMEM}) dst(%o : {ANY})"
            )
        } else {
            format!(
                "%v = vector.load %t[%c0, %c0] : {VMEM}, vector<8x128xf32>\n    \
                 vector.store %v, %o[%c0, %c0] : {ANY}, vector<8x128xf32>"
            )
        };
        format!(
            r#"module {{
  func.func @k(%o: {ANY}, %t: {VMEM}, %s: {SEM}) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    %c0 = arith.constant 0 : index
    {body}
    return
  }}
}}"#
        )
    };
    let o = RunOptions {
        detect_uninitialized: true,
        ..RunOptions::default()
    };
    let dma = compile(&kernel(true), &[], &["tensor<8x128xf32>"]);
    let err = run(&dma, vec![], &o).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.op.as_deref(), Some("tpu.enqueue_dma"), "{text}");
    assert!(
        text.contains("reads uninitialised memory: element [0, 0] of scratch operand 0 (VMEM)"),
        "{text}"
    );
    let load = compile(&kernel(false), &[], &["tensor<8x128xf32>"]);
    let err = run(&load, vec![], &o).unwrap_err().to_string();
    assert!(
        err.contains("reads uninitialised memory: element [0, 0] of scratch operand 0 (VMEM)"),
        "{err}"
    );
    // Untracked, the DMA copies what the scratch held.
    let r = run(&dma, vec![], &RunOptions::default()).unwrap();
    assert!(r.results[0][0].data.get_f64(0).is_nan());
}
