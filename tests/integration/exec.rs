//! Executing kernels on the CPU (`tpu_custom_call::exec`), checked against
//! JAX 0.12's Pallas TPU interpret mode: `tests/data/exec/<case>/` holds the
//! module JAX lowers for TPU, seeded inputs and the outputs interpret mode
//! computed from them (made by `scripts/jaxref/exec/make_refs.py`).

use std::path::{Path, PathBuf};

use serde_json::Value;
use tpu_custom_call::exec::{self, Array, CallShape, ExecError, Execution, RunOptions, npy};
use tpu_custom_call::{Context, Kernel, decode};

use crate::common::*;

fn exec_dir() -> PathBuf {
    data_dir().join("exec")
}

/// Every case folder with a module.
fn cases() -> Vec<PathBuf> {
    cases_in(&exec_dir())
}

/// Every case folder with a module in `root`.
fn cases_in(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("a folder of cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("module.mlir").is_file())
        .collect();
    out.sort();
    out
}

fn numbered(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            let name = p.file_name()?.to_str()?.to_string();
            let k = name
                .strip_prefix(prefix)?
                .strip_suffix(".npy")?
                .parse()
                .ok()?;
            Some((k, p))
        })
        .collect();
    files.sort();
    files.into_iter().map(|(_, p)| p).collect()
}

/// Splits an array along a leading device axis.
fn split(a: &Array, n: usize) -> Vec<Array> {
    a.split_leading(n).expect("a leading device axis")
}

/// Runs a module's calls in order (each call after the first takes the
/// previous call's results) on `devices` devices, with JAX interpret mode's
/// arithmetic (fused multiply-adds, as XLA on CPU computes them).
fn run_module(
    module: &Path,
    inputs: &[PathBuf],
    devices: usize,
) -> Result<Vec<Vec<Array>>, String> {
    let options = RunOptions {
        fuse_multiply_add: true,
        ..RunOptions::default()
    };
    run_module_with(module, inputs, devices, &options)
}

/// [`run_module`] with other options.
fn run_module_with(
    module: &Path,
    inputs: &[PathBuf],
    devices: usize,
    options: &RunOptions,
) -> Result<Vec<Vec<Array>>, String> {
    let ctx = Context::new();
    let bytes = std::fs::read(module).map_err(|e| e.to_string())?;
    let calls = decode::decode_module(&ctx, &bytes, &module.display().to_string())
        .map_err(|e| e.to_string())?;
    let mut current: Option<Vec<Vec<Array>>> = None;
    for (i, call) in calls.iter().enumerate() {
        let e = Execution::of_call(call).map_err(|e| format!("call {i}: {e}"))?;
        let shape = e.call_shape().clone();
        let per_device = match current.take() {
            Some(prev) => prev,
            None => {
                // The first call takes the files, in order (trailing files
                // beyond its operands are JAX's result-shape operands).
                let mut per: Vec<Vec<Array>> = vec![Vec::new(); devices];
                for (k, t) in shape.operands.iter().enumerate() {
                    let path = inputs.get(k).ok_or_else(|| format!("no in{k}.npy"))?;
                    let a = npy::read(path, t.elem).map_err(|e| e.to_string())?;
                    let parts = if devices > 1 {
                        split(&a, devices)
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
                per
            }
        };
        current = Some(
            e.run_devices(&per_device, options)
                .map_err(|e| format!("call {i}: {e}"))?,
        );
    }
    current.ok_or_else(|| "no tpu_custom_call".to_string())
}

/// TensorCores a case's kernel was written for (`"cores"` in case.json:
/// megacore kernels; interpret mode ran them with `num_cores_or_threads`).
fn cores_of_case(case: &Value) -> usize {
    case["cores"].as_u64().unwrap_or(1) as usize
}

fn tolerance(case: &Value, k: usize) -> (f64, f64) {
    let o = &case["outputs"][k];
    (
        o["rtol"].as_f64().unwrap_or(0.0),
        o["atol"].as_f64().unwrap_or(0.0),
    )
}

/// Compares a run's results with `out<k>.npy` (leading device axis when
/// `devices > 1`). `Ok(None)` equal; `Ok(Some(why))` different.
fn compare_outputs(
    dir: &Path,
    case: &Value,
    results: &[Vec<Array>],
) -> Result<Option<String>, String> {
    let devices = results.len();
    let name = case_name(dir);
    for (k, path) in numbered(dir, "out").iter().enumerate() {
        let known = KNOWN_DIFFERENCES
            .iter()
            .find(|(c, r, _)| *c == name && *r == k);
        let elem = results[0]
            .get(k)
            .ok_or_else(|| format!("no result {k}"))?
            .elem;
        let expected = npy::read(path, elem).map_err(|e| e.to_string())?;
        let expected = if devices > 1 {
            split(&expected, devices)
        } else {
            vec![expected]
        };
        let (rtol, atol) = tolerance(case, k);
        for (d, want) in expected.iter().enumerate() {
            match (exec::compare(&results[d][k], want, rtol, atol), known) {
                (Err(m), None) => {
                    return Ok(Some(format!(
                        "result {k} (device {d}, rtol {rtol}, atol {atol}): {m}"
                    )));
                }
                (Ok(()), Some((_, _, why))) => {
                    return Ok(Some(format!(
                        "result {k} is listed as a known difference ({why}) but now equals interpret mode's"
                    )));
                }
                _ => {}
            }
        }
    }
    Ok(None)
}

/// Cases the executor refuses by design, and the op it names: the hardware
/// PRNG's bits are the chip's (JAX's interpret mode returns zeros for them,
/// which no TPU computes), so running them would give a wrong result.
const REFUSED: &[(&str, &str)] = &[("op_prng_random_bits", "tpu.prng_set_seed_32")];

/// Results where the executor computes what the lowered kernel states and
/// JAX's interpret mode (which evaluates the jaxpr with XLA on a CPU, not
/// the lowered kernel) computes something else (docs/execute.md): (case,
/// result, why). Each must still differ, so that a change on either side
/// is noticed.
const KNOWN_DIFFERENCES: &[(&str, usize, &str)] = &[(
    "gen_s0_0007_masked_store",
    0,
    "`where(isfinite(a*a), a*a, -1)*b + c*d`: XLA on a CPU contracts the right-hand product there \
     (LLVM's choice after XLA's rewrites), the executor the left-hand one, as in `a*b + c*d`: one ulp \
     (tests/data/exec-gen/README.md)",
)];

#[test]
fn every_case_computes_what_jax_interpret_mode_computes() {
    let all = cases();
    assert!(all.len() >= 70, "only {} exec cases", all.len());
    check_cases(&all).assert_none();
}

/// The differential sample: kernels `scripts/jaxref/exec/gen_diff.py`
/// generated from a seed (ops, dtypes, grids, index maps, DMAs), lowered by
/// JAX 0.12, with the outputs of its interpret mode (tests/data/exec-gen).
#[test]
fn every_generated_kernel_computes_what_jax_interpret_mode_computes() {
    let all = cases_in(&data_dir().join("exec-gen"));
    assert!(all.len() >= 20, "only {} generated cases", all.len());
    check_cases(&all).assert_none();
}

/// Runs reference cases and compares with their outputs.
fn check_cases(all: &[PathBuf]) -> Failures {
    let mut f = Failures::new();
    for dir in all {
        let name = case_name(dir);
        if let Some((_, op)) = REFUSED.iter().find(|(n, _)| *n == name) {
            match run_module(&dir.join("module.mlir"), &numbered(dir, "in"), 1) {
                Err(e) if e.contains(&format!("`{op}`: this op has no CPU semantics")) => {}
                other => f.fail(format!(
                    "{name}: expected a refusal naming {op}, got {other:?}"
                )),
            }
            continue;
        }
        let case: Value =
            serde_json::from_slice(&std::fs::read(dir.join("case.json")).unwrap()).unwrap();
        let devices = case["devices"].as_u64().unwrap_or(1) as usize;
        let options = RunOptions {
            fuse_multiply_add: true,
            cores: cores_of_case(&case),
            ..RunOptions::default()
        };
        let results = match run_module_with(
            &dir.join("module.mlir"),
            &numbered(dir, "in"),
            devices,
            &options,
        ) {
            Ok(r) => r,
            Err(e) => {
                f.fail(format!("{name}: {e}"));
                continue;
            }
        };
        match compare_outputs(dir, &case, &results) {
            Ok(None) => {}
            Ok(Some(why)) => f.fail(format!("{name}: {why}")),
            Err(e) => f.fail(format!("{name}: {e}")),
        }
    }
    f
}

/// Reads of memory nothing wrote that a kernel makes on purpose (and what
/// discards them): reported by `detect_uninitialized`, as they are reads.
const READS_UNWRITTEN: &[(&str, &str)] = &[(
    "megablox_gmm",
    "`_store_accum` reads the output block before its first write and discards it with a select",
)];

/// Every reference case under the detectors and the latest DMA schedule:
/// no race, no read of unwritten memory (but the listed ones), and the
/// same numbers.
#[test]
fn every_case_is_race_free_and_reads_only_written_memory_under_the_latest_schedule() {
    let mut f = Failures::new();
    for dir in cases() {
        let name = case_name(&dir);
        if REFUSED.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let case: Value =
            serde_json::from_slice(&std::fs::read(dir.join("case.json")).unwrap()).unwrap();
        let devices = case["devices"].as_u64().unwrap_or(1) as usize;
        let options = RunOptions {
            fuse_multiply_add: true,
            cores: cores_of_case(&case),
            detect_races: true,
            detect_uninitialized: true,
            dma: exec::DmaTiming::AtWait,
            ..RunOptions::default()
        };
        let expected = READS_UNWRITTEN.iter().find(|(n, _)| *n == name);
        match (
            run_module_with(
                &dir.join("module.mlir"),
                &numbered(&dir, "in"),
                devices,
                &options,
            ),
            expected,
        ) {
            (Ok(results), None) => match compare_outputs(&dir, &case, &results) {
                Ok(None) => {}
                Ok(Some(why)) => f.fail(format!("{name} (watched, at-wait): {why}")),
                Err(e) => f.fail(format!("{name}: {e}")),
            },
            (Err(e), None) => f.fail(format!("{name} (watched, at-wait): {e}")),
            (Err(e), Some(_)) if e.contains("reads uninitialised memory") => {}
            (other, Some((_, why))) => f.fail(format!(
                "{name}: listed as reading unwritten memory ({why}), got {:?}",
                other.map(|_| "a clean run")
            )),
        }
    }
    f.assert_none();
}

/// Every golden JAX lowered is executed (or listed with the reason interpret
/// mode cannot run it, in tests/data/exec/README.md).
#[test]
fn every_golden_call_has_an_execution_case() {
    let readme = std::fs::read_to_string(exec_dir().join("README.md")).unwrap();
    let mut f = Failures::new();
    for golden in golden_cases() {
        let name = case_name(&golden);
        let ran = exec_dir().join(&name).join("module.mlir").is_file();
        f.check(ran || readme.contains(&format!("`{name}`")), || {
            format!("golden {name} has no tests/data/exec case and no reason in its README")
        });
    }
    f.assert_none();
}

/// The semantic mutants of the production kernels (an index map shifted
/// within bounds, swapped operands, a flipped mask, a removed accumulator
/// reset): each passes JAX's lowering, and the executor's results differ
/// from the original kernel's reference outputs.
#[test]
fn semantic_mutants_compute_different_numbers() {
    let mut f = Failures::new();
    let mut seen = 0;
    for dir in cases() {
        let Ok(text) = std::fs::read(dir.join("mutants.json")) else {
            continue;
        };
        let name = case_name(&dir);
        let case: Value =
            serde_json::from_slice(&std::fs::read(dir.join("case.json")).unwrap()).unwrap();
        let devices = case["devices"].as_u64().unwrap_or(1) as usize;
        let mutants: Value = serde_json::from_slice(&text).unwrap();
        for m in mutants.as_array().into_iter().flatten() {
            let mname = m["name"].as_str().unwrap_or_default();
            let module = dir.join(format!("mutant_{mname}.mlir"));
            if !module.is_file() {
                continue;
            }
            seen += 1;
            match run_module(&module, &numbered(&dir, "in"), devices) {
                // An error (an out-of-bounds block, a NaN read) also catches it.
                Err(_) => {}
                Ok(results) => match compare_outputs(&dir, &case, &results) {
                    Ok(Some(_)) => {}
                    Ok(None) => f.fail(format!(
                        "{name}: mutant {mname} computes the reference outputs"
                    )),
                    Err(e) => f.fail(format!("{name}: mutant {mname}: {e}")),
                },
            }
        }
    }
    assert!(seen >= 5, "only {seen} mutants");
    f.assert_none();
}

fn run_text(
    kernel: &str,
    signature: (&[&str], &[&str]),
    inputs: Vec<Array>,
) -> Result<Vec<Array>, ExecError> {
    let ctx = Context::new();
    let k = Kernel::from_text(&ctx, kernel, "test.mlir").expect("kernel parses");
    let shape = CallShape {
        operands: signature
            .0
            .iter()
            .map(|t| exec::TensorType::parse(t).unwrap())
            .collect(),
        results: signature
            .1
            .iter()
            .map(|t| exec::TensorType::parse(t).unwrap())
            .collect(),
        aliases: Vec::new(),
    };
    Execution::new(&k, shape)?.run(&inputs, &RunOptions::default())
}

const COPY_GRID: &str = r#"module {
  func.func @k(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @t0, window_bounds = array<i64: 8, 128>}, {transform_indices = @t1, window_bounds = array<i64: 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }
  func.func @t0(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %j = arith.addi %i, %c1 : i32
    return %j, %c0 : i32, i32
  }
  func.func @t1(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }
}"#;

/// What JAX's interpret mode reports, reported here too, naming the op and
/// the grid point: an index map that leaves the array.
#[test]
fn out_of_bounds_blocks_are_errors_naming_the_operand_and_grid_point() {
    let x = Array::filled(exec::ElemType::F32, &[16, 128], 1.0);
    let e = run_text(
        COPY_GRID,
        (&["tensor<16x128xf32>"], &["tensor<16x128xf32>"]),
        vec![x],
    )
    .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("out-of-bounds block index [2, 0] for input 0"),
        "{text}"
    );
    assert_eq!(e.grid_point, Some(vec![1]), "{text}");
}

/// A wait no one can satisfy is an error (not a hang); a DMA never waited
/// for is an error when the kernel returns; an op without CPU semantics is
/// refused before anything runs, naming it.
#[test]
fn deadlocks_unwaited_dmas_and_unknown_ops_are_errors() {
    let wait = r#"module {
  func.func @k(%x: memref<8x128xf32, #tpu.memory_space<any>>, %o: memref<8x128xf32, #tpu.memory_space<any>>, %s: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 1 : i64, tpu.core_type = #tpu.core_type<tc>} {
    tpu.wait_dma2 semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%x : memref<8x128xf32, #tpu.memory_space<any>>) dst(%o : memref<8x128xf32, #tpu.memory_space<any>>)
    return
  }
}"#;
    let x = Array::filled(exec::ElemType::F32, &[8, 128], 1.0);
    let sig: (&[&str], &[&str]) = (&["tensor<8x128xf32>"], &["tensor<8x128xf32>"]);
    let e = run_text(wait, sig, vec![x.clone()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tpu.wait_dma2") && e.contains("can never be satisfied"),
        "{e}"
    );

    let unwaited = wait.replace(
        "tpu.wait_dma2 semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%x : memref<8x128xf32, #tpu.memory_space<any>>) dst(%o : memref<8x128xf32, #tpu.memory_space<any>>)",
        "tpu.enqueue_dma source(%x : memref<8x128xf32, #tpu.memory_space<any>>) target(%o : memref<8x128xf32, #tpu.memory_space<any>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)",
    );
    let e = run_text(&unwaited, sig, vec![x.clone()])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("still in flight") && e.contains("4096 byte"),
        "{e}"
    );

    let unknown = COPY_GRID
        .replace(
            "vector.store %v,",
            "%w = math.cbrt %v : vector<8x128xf32>\n    vector.store %w,",
        )
        .replace("%j = arith.addi %i, %c1 : i32\n    return %j", "return %i");
    let ok = run_text(
        &unknown,
        (&["tensor<16x128xf32>"], &["tensor<16x128xf32>"]),
        vec![Array::filled(exec::ElemType::F32, &[16, 128], 8.0)],
    )
    .unwrap();
    assert_eq!(ok[0].data.get_f64(0), 2.0);
    let refused = COPY_GRID.replace(
        "vector.store %v,",
        "%w = \"tpu.gather\"(%v) <{dimension = 0 : i32, indices = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>}> : (vector<8x128xf32>) -> vector<8x128xf32>\n    vector.store %w,",
    );
    let e = run_text(
        &refused,
        (&["tensor<16x128xf32>"], &["tensor<16x128xf32>"]),
        vec![Array::filled(exec::ElemType::F32, &[16, 128], 8.0)],
    )
    .unwrap_err();
    assert_eq!(e.op.as_deref(), Some("tpu.gather"), "{e}");
    assert!(e.to_string().contains("no CPU semantics"), "{e}");
}

/// `run` writes results (and the random inputs it made) as .npy; running
/// again on those inputs reproduces them (`--compare` exit 0); a changed
/// reference is named with its worst element (exit 1).
#[test]
fn run_cli_writes_npy_results_and_compares_them() {
    let tmp = std::env::temp_dir().join(format!("tcc-exec-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let module = goldens_dir().join("matmul_grid/module.mlir");
    let out = tmp.join("a");
    // `--call 0`: the call alone on the executor (without it, `run` runs
    // @main through XLA; tests/integration/program.rs).
    let (code, _, err) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "-o",
        out.to_str().unwrap(),
        "--seed",
        "7",
    ]);
    assert_eq!(code, 0, "{err}");
    for f in ["input0.npy", "input1.npy", "result0.npy"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let (code, stdout, err) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "--input",
        out.join("input0.npy").to_str().unwrap(),
        "--input",
        out.join("input1.npy").to_str().unwrap(),
        "--compare",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        String::from_utf8_lossy(&stdout).contains("result 0: equal to"),
        "{}",
        String::from_utf8_lossy(&stdout)
    );
    // Change one element of the reference.
    let r = npy::read(&out.join("result0.npy"), exec::ElemType::F32).unwrap();
    let mut changed = r.clone();
    changed.data.set_f64(385, r.data.get_f64(385) + 1.0);
    let refdir = tmp.join("ref");
    std::fs::create_dir_all(&refdir).unwrap();
    npy::write(&refdir.join("result0.npy"), &changed).unwrap();
    let (code, _, err) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "--input",
        out.join("input0.npy").to_str().unwrap(),
        "--input",
        out.join("input1.npy").to_str().unwrap(),
        "--compare",
        refdir.to_str().unwrap(),
        "--rtol",
        "1e-6",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("result 0 differs")
            && err.contains("1 of 98304 element(s) differ; worst at index [1, 1]"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `diff --run`: a production kernel equals itself by behaviour (exit 0) and
/// differs from its mutant (exit 1, naming the result and the element), on
/// the same seeded inputs; two modules that differ as text but compute the
/// same (ours and JAX's emission of add) are equal.
#[test]
fn diff_run_compares_calls_by_behaviour() {
    let dir = exec_dir().join("matmul_f32");
    let module = dir.join("module.mlir");
    let m = module.to_str().unwrap();
    let (code, out, err) = run_cli(&["diff", m, m, "--run"]);
    assert_eq!(code, 0, "{err}{}", String::from_utf8_lossy(&out));
    let mutant = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("mutant_")
        })
        .expect("a mutant");
    let (code, out, err) = run_cli(&[
        "diff",
        m,
        mutant.to_str().unwrap(),
        "--run",
        "--rtol",
        "1e-5",
        "--atol",
        "1e-3",
    ]);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, 1, "{err}{out}");
    assert!(
        out.contains("tpu_custom_call #0: result 0 differs on the inputs of seed 0"),
        "{out}"
    );
    // JAX's module and the same call in generic form: other text, same numbers.
    let golden = goldens_dir().join("add_basic/module.mlir");
    let jax = fixtures_dir().join("jax-modules/add_basic.mlir");
    let (code, out, err) = run_cli(&[
        "diff",
        golden.to_str().unwrap(),
        jax.to_str().unwrap(),
        "--run",
    ]);
    assert_eq!(code, 0, "{err}{}", String::from_utf8_lossy(&out));
}

/// A call validated from a kernel file and PARAMS.json executes like JAX's
/// lowering of the same Pallas kernel (the golden module), on the same
/// random inputs.
#[test]
fn a_validated_call_computes_what_jax_lowering_computes() {
    use tpu_custom_call::melior::ir::Type;
    use tpu_custom_call::{Params, Signature, validate};
    let ctx = Context::new();
    let text = std::fs::read_to_string(fixtures_dir().join("kernels/matmul.mlir")).unwrap();
    let kernel = Kernel::from_text(&ctx, &text, "matmul.mlir").unwrap();
    let params =
        Params::from_json(&std::fs::read(fixtures_dir().join("params/matmul_grid.json")).unwrap())
            .unwrap();
    let ty = |t: &str| Type::parse(&ctx, t).unwrap();
    let signature = Signature::new(
        [ty("tensor<256x512xbf16>"), ty("tensor<512x384xbf16>")],
        [ty("tensor<256x384xf32>")],
    );
    let call = validate(&kernel, signature, &params, None)
        .map_err(|e| e[0].to_string())
        .unwrap();
    let ours = Execution::of_validated(&call).unwrap();
    let golden = std::fs::read(goldens_dir().join("matmul_grid/module.mlir")).unwrap();
    let calls = decode::decode_module(&ctx, &golden, "matmul_grid").unwrap();
    let jax = Execution::of_call(&calls[0]).unwrap();
    let verdict =
        exec::compare_behaviour(&ours, &jax, 3, &RunOptions::default(), 0.0, 0.0).unwrap();
    assert_eq!(verdict, None);
}

/// Several devices all waiting on semaphores nothing will signal: an error
/// naming the wait (not a hang), decided from the semaphores' values, not
/// from timing; a device signalled before it ran is not a deadlock.
#[test]
fn multi_device_deadlocks_are_errors_and_signals_are_never_lost() {
    let kernel = |signal: &str| {
        format!(
            r#"module {{
  func.func @k(%x: memref<8x128xf32, #tpu.memory_space<vmem>>, %o: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {{dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %d = tpu.device_id : i32
    %n = arith.addi %d, %c1 : i32
    %r = arith.remsi %n, %c2 : i32
    %s = tpu.sem_barrier : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    {signal}
    tpu.sem_wait %s, %c1 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    return
  }}
}}"#
        )
    };
    let ctx = Context::new();
    let shape = CallShape {
        operands: vec![exec::TensorType::parse("tensor<8x128xf32>").unwrap()],
        results: vec![exec::TensorType::parse("tensor<8x128xf32>").unwrap()],
        aliases: Vec::new(),
    };
    let inputs = vec![vec![Array::filled(exec::ElemType::F32, &[8, 128], 1.0)]; 2];
    let waits = Kernel::from_text(&ctx, &kernel(""), "wait.mlir").unwrap();
    let e = Execution::new(&waits, shape.clone())
        .unwrap()
        .run_devices(&inputs, &RunOptions::default())
        .unwrap_err();
    assert!(e.to_string().contains("can never be satisfied"), "{e}");
    let signal = "tpu.sem_signal %s, %c1 device_id %r : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>";
    let pairs = Kernel::from_text(&ctx, &kernel(signal), "pairs.mlir").unwrap();
    let run = Execution::new(&pairs, shape).unwrap();
    for _ in 0..20 {
        let out = run.run_devices(&inputs, &RunOptions::default()).unwrap();
        assert_eq!(out.len(), 2);
    }
}

/// A call too big for the machine is refused with the figures before
/// anything is allocated (not killed by the kernel's OOM killer).
#[test]
fn run_refuses_calls_beyond_its_memory_budget() {
    let module = goldens_dir().join("matmul_grid/module.mlir");
    let (code, _, err) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "--max-memory",
        "0.0001",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("its operands and results need 0.0 GiB here") || err.contains("GiB here"),
        "{err}"
    );
    assert!(
        err.contains("over the 0.0 GiB this run may use (--max-memory"),
        "{err}"
    );
}
