//! `estimate`: libtpu's static performance model of each tpu_custom_call
//! (no TPU), long grids simulated reduced and extrapolated, candidates
//! ranked; bad input ends as a clear error with nothing on stdout. The tests
//! that need libtpu print `SKIPPED ...` and pass without it.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::Value as Json;
use tpu_custom_call::compile::estimate::{self, EstimateOptions};
use tpu_custom_call::compile::{CompileOptions, EstimateError};
use tpu_custom_call::target::Chip;

use crate::common::*;
use crate::compile::locked_libtpu;

const MATMUL_GRID: &str = "tests/data/jax-goldens/matmul_grid/module.mlir";
/// The Pallas TPU matmul guide's kernel, bf16 1024x1024x1024, blocks 128.
const GUIDE_128_1024: &str = "tests/data/estimate/mm_plain_b128x128x128_1024.mlir";
/// The same at 8192 (a 64x64x64 = 262,144-step grid).
const GUIDE_128_8192: &str = "tests/data/estimate/mm_plain_b128x128x128_8192.mlir";
/// The guide's blocks (512, 1024, 1024) at 1024 (2 steps).
const GUIDE_512_1024: &str = "tests/data/estimate/mm_plain_b512x1024x1024_1024.mlir";

fn estimate_json(test: &str, args: &[&str]) -> Option<Json> {
    estimate_json_timed(test, args).map(|(json, _)| json)
}

/// The `estimate --json` output and its wall time (libtpu's lock held).
fn estimate_json_timed(test: &str, args: &[&str]) -> Option<(Json, f64)> {
    let (libtpu, _guard) = locked_libtpu(test)?;
    let mut all = vec!["estimate"];
    all.extend_from_slice(args);
    all.extend(["--json", "--libtpu", libtpu.to_str().unwrap()]);
    let started = Instant::now();
    let (code, stdout, stderr) = run_cli(&all);
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(code, 0, "{stderr}");
    Some((serde_json::from_slice(&stdout).unwrap(), seconds))
}

#[test]
fn estimate_matmul_grid_every_step() {
    let Some(json) = estimate_json(
        "estimate_matmul_grid_every_step",
        &[MATMUL_GRID, "--target", "v5e"],
    ) else {
        return;
    };
    let call = &json["calls"][0];
    assert_eq!(json["calls"].as_array().unwrap().len(), 1);
    assert_eq!(call["index"], 0);
    assert_eq!(call["grid"], serde_json::json!([2, 3, 4]));
    assert_eq!(call["steps"], 24);
    assert_eq!(call["extrapolated"], false);
    let cycles = call["cycles"].as_f64().unwrap();
    let seconds = call["seconds"].as_f64().unwrap();
    let clock = call["clock_hz"].as_f64().unwrap();
    assert!(cycles > 10_000.0 && cycles < 40_000.0, "{call}");
    assert!((seconds * clock - cycles).abs() < 1.0, "{call}");
    assert!((clock - 1.503e9).abs() < 1e6, "{call}");
    assert!(call["clock_source"].as_str().unwrap().contains("TpuInfo"));
    assert!(call["bound"].is_string());
    assert!(call["utilization"]["MXU"].is_number(), "{call}");
    assert!(call["loop_bundles"].as_u64().unwrap() > 0, "{call}");
    assert_eq!(call["vmem_bytes"], 327_680, "{call}");
    assert_eq!(call["dma_bytes_per_step"], 131_072, "{call}");
}

#[test]
fn estimate_long_grid_is_extrapolated_within_a_minute() {
    let test = "estimate_long_grid_is_extrapolated_within_a_minute";
    let Some((json, seconds)) = estimate_json_timed(test, &[GUIDE_128_8192, "--target", "v5e"])
    else {
        return;
    };
    let call = &json["calls"][0];
    assert_eq!(call["steps"], 262_144);
    assert_eq!(call["extrapolated"], true);
    assert_eq!(call["simulations"].as_array().unwrap().len(), 2, "{call}");
    assert!(seconds < 60.0, "took {seconds} s");
    // The Pallas guide measured 91.8 ms on a v5e (host dispatch included);
    // the DMA-latency-bound 128 blocks are overestimated by about 1.4x.
    let estimate = call["seconds"].as_f64().unwrap();
    assert!(
        (0.0918 / 1.5..0.0918 * 1.5).contains(&estimate),
        "{estimate}"
    );
    assert_eq!(call["bound"], "dma-latency", "{call}");
}

#[test]
fn estimate_ranks_block_sizes() {
    let Some(json) = estimate_json(
        "estimate_ranks_block_sizes",
        &[GUIDE_128_1024, GUIDE_512_1024, "--target", "v5e"],
    ) else {
        return;
    };
    let modules = json["modules"].as_array().unwrap();
    assert_eq!(modules.len(), 2);
    // The guide: (512, 1024, 1024) blocks beat 128 ones (0.127 vs 0.298 ms).
    assert_eq!(modules[0]["module"], GUIDE_512_1024);
    assert_eq!(modules[0]["rank"], 1);
    assert_eq!(modules[1]["module"], GUIDE_128_1024);
    assert!(modules[0]["seconds"].as_f64() < modules[1]["seconds"].as_f64());
}

#[test]
fn estimate_table_and_compile_report() {
    let test = "estimate_table_and_compile_report";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let lib = libtpu.to_str().unwrap();
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        MATMUL_GRID,
        GUIDE_128_1024,
        "--target",
        "v5e",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = String::from_utf8_lossy(&stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("rank"), "{text}");
    assert!(lines[1].trim_start().starts_with("1  "), "{text}");
    assert!(lines[1].contains(MATMUL_GRID), "{text}");
    assert!(lines[2].contains(GUIDE_128_1024), "{text}");
    assert!(text.contains("libtpu's static model"), "{text}");
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        MATMUL_GRID,
        "--target",
        "v5e",
        "--estimate",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = String::from_utf8_lossy(&stdout);
    assert!(text.contains("compiled for v5e"), "{text}");
    assert!(
        text.contains("  estimate: call 0 `kernel` on v5e: "),
        "{text}"
    );
    assert!(text.contains("  estimate: bound: "), "{text}");
}

#[test]
fn estimate_library_ranks_in_parallel_workers() {
    let test = "estimate_library_ranks_in_parallel_workers";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let modules: Vec<(String, Vec<u8>)> = [GUIDE_128_1024, MATMUL_GRID, GUIDE_512_1024]
        .iter()
        .map(|p| (p.to_string(), std::fs::read(p).unwrap()))
        .collect();
    let options = EstimateOptions {
        compile: CompileOptions {
            chip: Chip::V5e,
            libtpu: Some(libtpu),
            worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_tpu-custom-call"))),
            ..Default::default()
        },
        ..Default::default()
    };
    let results = estimate::estimate_many(&modules, &options, 2);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let order = estimate::rank(&results);
    assert_eq!(order, vec![1, 2, 0]);
    // The same numbers one at a time (deterministic).
    let one = estimate::estimate(&modules[1].1, &modules[1].0, &options).unwrap();
    assert_eq!(
        one.calls[0].cycles,
        results[1].as_ref().unwrap().calls[0].cycles
    );
}

#[test]
fn estimate_bad_input_is_a_clear_error() {
    // v4: no model (no libtpu needed to say so).
    let (code, stdout, stderr) = run_cli(&["estimate", MATMUL_GRID, "--target", "v4"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("no performance model"), "{stderr}");
    assert!(stderr.contains("Dma latency model"), "{stderr}");
    let (code, stdout, stderr) = run_cli(&["compile", MATMUL_GRID, "--target", "v4", "--estimate"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("no performance model"), "{stderr}");
    let options = EstimateOptions {
        compile: CompileOptions {
            chip: Chip::V4,
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(matches!(
        estimate::estimate(b"", "x", &options),
        Err(EstimateError::NoModel { chip: Chip::V4 })
    ));

    let test = "estimate_bad_input_is_a_clear_error";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let lib = libtpu.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("tcc-estimate-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let no_calls = dir.join("no_calls.mlir");
    std::fs::write(
        &no_calls,
        "func.func public @main(%arg0: tensor<8x128xf32>) -> tensor<8x128xf32> {\n  return %arg0 : tensor<8x128xf32>\n}\n",
    )
    .unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &[no_calls.to_str().unwrap()],
            "no tpu_custom_call to estimate",
        ),
        (
            &[MATMUL_GRID, "--call", "3"],
            "--call 3, but the module has 1",
        ),
        // libtpu refuses: a SparseCore kernel on a chip without SparseCores.
        (
            &["tests/data/jax-goldens/sparsecore_vector_1core/module.mlir"],
            "call 0 (`sc_copy`): Mosaic failed to compile TPU kernel",
        ),
        // libtpu's profiler aborts on the Pallas sparse guide's block-sparse
        // matmul on v5e (the kernel itself compiles).
        (
            &["tests/data/estimate/dsd_b512_107blocks_16384.mlir"],
            "libtpu's performance model cannot simulate this kernel",
        ),
        // libtpu refuses: scoped VMEM overflow.
        (
            &["tests/data/compile/scoped_vmem_oom.mlir"],
            "CompileTimeScopedVmemOom",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["estimate"];
        all.extend_from_slice(args);
        all.extend(["--target", "v5e", "--libtpu", lib]);
        let (code, stdout, stderr) = run_cli(&all);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // One bad module among good ones: nothing printed at all.
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        MATMUL_GRID,
        no_calls.to_str().unwrap(),
        "--target",
        "v5e",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    // On v7x the same kernel is estimated: the kernel's own op, not the copy
    // XLA adds for its aliased operand (152,056 cycles, listed first by
    // libtpu half of the time).
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        "tests/data/estimate/dsd_b512_107blocks_16384.mlir",
        "--target",
        "v7x",
        "--json",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: Json = serde_json::from_slice(&stdout).unwrap();
    let cycles = json["calls"][0]["cycles"].as_f64().unwrap();
    assert!((3.0e6..4.0e6).contains(&cycles), "{json}");
    // libtpu aborting its process (here at start, on a flag it does not
    // know): a clear error from the worker, the caller alive.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
        .args(["estimate", MATMUL_GRID, "--target", "v5e", "--libtpu", lib])
        .env("LIBTPU_INIT_ARGS", "--xla_no_such_flag_at_all=1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("libtpu worker") && stderr.contains("xla_no_such_flag_at_all"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn estimate_extrapolation_matches_the_full_simulation() {
    let test = "estimate_extrapolation_matches_the_full_simulation";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let bytes = std::fs::read(GUIDE_128_1024).unwrap();
    let mut options = EstimateOptions {
        compile: CompileOptions {
            chip: Chip::V5e,
            libtpu: Some(libtpu),
            worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_tpu-custom-call"))),
            ..Default::default()
        },
        ..Default::default()
    };
    let full = estimate::estimate(&bytes, GUIDE_128_1024, &options).unwrap();
    assert!(!full.calls[0].extrapolated);
    assert_eq!(full.calls[0].steps, 512);
    // Force the reduced grids: 8x8x8 simulated as 16 and 32 steps after the probe.
    options.max_full_bundles = 1_000;
    options.sample_bundles = 6_000;
    let reduced = estimate::estimate(&bytes, GUIDE_128_1024, &options).unwrap();
    let call = &reduced.calls[0];
    assert!(call.extrapolated);
    assert!(call.simulations.iter().all(|s| s.steps < 512), "{call:?}");
    let ratio = call.cycles / full.calls[0].cycles;
    assert!((0.98..1.02).contains(&ratio), "{ratio}: {call:?}");
    assert!(call.describe().contains("extrapolated: simulated"));
    // The memory bound alone (bundles x steps x 1.5 KB above 1 MB) also
    // sends the grid to the reduced simulations.
    options.max_full_bundles = estimate::DEFAULT_MAX_FULL_BUNDLES;
    options.max_full_bytes = 1_000_000;
    let bounded = estimate::estimate(&bytes, GUIDE_128_1024, &options).unwrap();
    let call = &bounded.calls[0];
    assert!(call.extrapolated, "{call:?}");
    let ratio = call.cycles / full.calls[0].cycles;
    assert!((0.98..1.02).contains(&ratio), "{ratio}: {call:?}");
}

/// The dump flags are libtpu internals: every installed release of the
/// libtpu-version table that `make refs` installs honours them (the call
/// re-emitted for that release); one not installed prints SKIPPED.
#[test]
fn estimate_with_other_libtpu_releases() {
    let _guard = crate::compile::LIBTPU
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    for release in ["0.0.42.1", "0.0.47.1", "0.0.52"] {
        let installed =
            tpu_custom_call::compile::release_libtpu_path(release).is_some_and(|p| p.is_file());
        if !installed {
            eprintln!("SKIPPED estimate_with_other_libtpu_releases {release}: not installed");
            continue;
        }
        let (code, stdout, stderr) = run_cli(&[
            "estimate",
            MATMUL_GRID,
            "--target",
            "v5e",
            "--libtpu-version",
            release,
            "--json",
        ]);
        assert_eq!(code, 0, "{release}: {stderr}");
        let json: Json = serde_json::from_slice(&stdout).unwrap();
        let cycles = json["calls"][0]["cycles"].as_f64().unwrap();
        // 0.0.42.1: 18,871; 0.0.47.1: 18,832; 0.0.52: 18,976 (0.0.50.1: 18,964).
        assert!(
            (18_000.0..20_000.0).contains(&cycles),
            "{release}: {cycles}"
        );
        assert!(json["libtpu"].as_str().unwrap().contains(release), "{json}");
    }
}

/// Every chip with libtpu's model: an estimate, its clock, and the megacore
/// v5p's per-core steps (its MXU utilisation at most 100%).
#[test]
fn estimate_every_chip_with_a_model() {
    let test = "estimate_every_chip_with_a_model";
    for (chip, clock) in [
        ("v5e", 1.503e9),
        ("v5p", 1.751e9),
        ("v6e", 1.755e9),
        ("v7x", 2.203e9),
    ] {
        let Some(json) = estimate_json(test, &[GUIDE_512_1024, "--target", chip]) else {
            return;
        };
        let call = &json["calls"][0];
        assert_eq!(call["chip"], chip);
        let hz = call["clock_hz"].as_f64().unwrap();
        assert!((hz - clock).abs() < 1e6, "{chip}: {hz}");
        assert!(call["cycles"].as_f64().unwrap() > 1_000.0, "{chip}: {call}");
        for (unit, used) in call["utilization"].as_object().unwrap() {
            assert!(used.as_f64().unwrap() <= 1.0, "{chip}: {unit} {call}");
        }
    }
}

/// A bf16 1024^3 matmul over HBM operands, `emit_pipeline` (256 blocks, 32
/// inner steps) inside each of 2 parallel grid steps (issue 49; real JAX's
/// lowering, scripts/estimate/pipeline_kernels.py).
const PIPELINE: &str = "tests/data/estimate/pipeline_matmul.mlir";
/// A 2-step grid whose body is a `fori_loop` of 8 dot products, each of a
/// 128-row slice of its 1024x512 block with a 512x512 block.
const FORI: &str = "tests/data/estimate/fori_matmul.mlir";

/// The MXU share of a kernel's cycles its multiply-adds need: MACs over
/// (cycles per core x the MACs per cycle the clock is derived from).
fn mxu_share(macs: f64, call: &Json) -> f64 {
    let per_cycle = match call["chip"].as_str().unwrap() {
        "v5e" | "v5p" => 65_536.0,
        _ => 262_144.0,
    };
    let cores = if call["chip"] == "v5p" { 2.0 } else { 1.0 };
    macs / (call["cycles"].as_f64().unwrap() * cores * per_cycle)
}

/// Loops inside a grid step are counted in the per-step breakdown: the
/// MXU utilisation libtpu's unrolled simulation gives is the share of the
/// cycles the kernel's own multiply-adds need (v5e, v7x); on v6e libtpu's
/// profile gives the pipeline 0 cycles and the estimate refuses, saying why.
#[test]
fn estimate_pipeline_kernel_counts_its_loop_or_refuses() {
    let test = "estimate_pipeline_kernel_counts_its_loop_or_refuses";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let lib = libtpu.to_str().unwrap();
    for (kernel, macs, chips) in [
        (PIPELINE, 1024.0f64.powi(3), &["v5e", "v7x"][..]),
        (FORI, 2048.0 * 512.0 * 512.0, &["v5e", "v6e"][..]),
    ] {
        for chip in chips {
            let (code, stdout, stderr) = run_cli(&[
                "estimate", kernel, "--target", chip, "--json", "--libtpu", lib,
            ]);
            assert_eq!(code, 0, "{kernel} {chip}: {stderr}");
            let json: Json = serde_json::from_slice(&stdout).unwrap();
            let call = &json["calls"][0];
            assert!(call["cycles"].as_f64().unwrap() > 0.0, "{call}");
            let mxu = call["utilization"]["MXU"].as_f64().unwrap();
            let want = mxu_share(macs, call);
            // The bundles' MXU slots (pushes and matmuls) against the
            // arithmetic: at least what the multiply-adds need (a loop
            // counted once would be far below), and on v5e, whose 128x128
            // MXUs these blocks fill, within 5 points of it (v6e and v7x
            // run 128-row operands on 256-wide MXUs in more slots).
            assert!(
                mxu > want - 0.05,
                "{kernel} {chip}: MXU {mxu} vs {want}: {call}"
            );
            if *chip == "v5e" {
                assert!(
                    (mxu - want).abs() < 0.05,
                    "{kernel} {chip}: MXU {mxu} vs {want}: {call}"
                );
            }
            for (unit, used) in call["utilization"].as_object().unwrap() {
                assert!(
                    used.as_f64().unwrap() <= 1.0,
                    "{kernel} {chip}: {unit} {call}"
                );
            }
        }
    }
    let (code, stdout, stderr) =
        run_cli(&["estimate", PIPELINE, "--target", "v6e", "--libtpu", lib]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    for words in [
        "no estimate",
        "0 cycles",
        "DMA_INSTRUCTION_TYPE_LOCAL_AND_REMOTE",
        "`dma.general`",
    ] {
        assert!(stderr.contains(words), "{words}: {stderr}");
    }
    // In a ranking: refused, never ranked first.
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        PIPELINE,
        MATMUL_GRID,
        "--target",
        "v6e",
        "--skip-refused",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = String::from_utf8_lossy(&stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].contains(MATMUL_GRID), "{text}");
    assert!(
        lines[2].contains(PIPELINE)
            && lines[2].contains("refused: ")
            && lines[2].contains("no estimate"),
        "{text}"
    );
}

mod sound {
    use super::*;
    use proptest::prelude::*;

    const KERNELS: [&str; 5] = [MATMUL_GRID, GUIDE_128_1024, GUIDE_512_1024, PIPELINE, FORI];
    const CHIPS: [Chip; 4] = [Chip::V5e, Chip::V5p, Chip::V6e, Chip::V7x];

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("ESTIMATE_PROPTEST_CASES")
                .ok()
                .and_then(|c| c.parse().ok())
                .unwrap_or(4),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// No estimate answers with 0 cycles or a unit over 100%: it is a
        /// number that holds or a refusal.
        #[test]
        fn estimate_is_never_zero_or_over_full(kernel in 0..KERNELS.len(), chip in 0..CHIPS.len()) {
            let Some((libtpu, _guard)) = locked_libtpu("estimate_is_never_zero_or_over_full") else {
                return Ok(());
            };
            let options = EstimateOptions {
                compile: CompileOptions {
                    chip: CHIPS[chip],
                    libtpu: Some(libtpu),
                    worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_tpu-custom-call"))),
                    ..Default::default()
                },
                ..Default::default()
            };
            let path = KERNELS[kernel];
            match estimate::estimate(&std::fs::read(path).unwrap(), path, &options) {
                Ok(e) => {
                    for call in &e.calls {
                        prop_assert!(call.cycles > 0.0 && call.seconds > 0.0, "{path} {:?}: {call:?}", CHIPS[chip]);
                        for (unit, used) in &call.utilization {
                            prop_assert!(*used <= 1.0, "{path} {:?}: {unit} {used}", CHIPS[chip]);
                        }
                    }
                }
                Err(error) => {
                    let text = error.to_string();
                    prop_assert!(!text.is_empty());
                }
            }
        }
    }
}

/// A SparseCore kernel (v7x, JAX's scatter-add test): libtpu compiles it but
/// writes no profile for SparseCore code; the refusal says so and blames no
/// flag or release.
#[test]
fn estimate_sparsecore_kernel_refuses_with_the_true_reason() {
    let test = "estimate_sparsecore_kernel_refuses_with_the_true_reason";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        "tests/data/exec-sc/scatter_add/module.mlir",
        "--target",
        "v7x",
        "--libtpu",
        libtpu.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("SparseCore kernel"), "{stderr}");
    assert!(stderr.contains("sc_vector_subcore"), "{stderr}");
    assert!(!stderr.contains("xla_jf_dump"), "{stderr}");
    assert!(!stderr.contains("measured with libtpu"), "{stderr}");
}

/// A 4-device ring (the `remote_dma_collective` golden): without
/// `--devices` libtpu cannot compile it and the error says to give it; with
/// `--devices 4` it compiles, and libtpu's static profile gives its remote
/// DMAs 0 cycles: refused, saying remote DMAs are not timed. A local kernel
/// compiled as 1 of 4 partitions is estimated and says what it covers.
#[test]
fn estimate_multi_device_kernels() {
    let test = "estimate_multi_device_kernels";
    let Some((libtpu, _guard)) = locked_libtpu(test) else {
        return;
    };
    let lib = libtpu.to_str().unwrap();
    let ring = "tests/data/jax-goldens/remote_dma_collective/module.mlir";
    let (code, stdout, stderr) = run_cli(&["estimate", ring, "--target", "v6e", "--libtpu", lib]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("--devices N"), "{stderr}");
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        ring,
        "--target",
        "v6e",
        "--devices",
        "4",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("DMA_INSTRUCTION_TYPE_REMOTE"), "{stderr}");
    assert!(stderr.contains("does not time remote DMAs"), "{stderr}");
    let (code, stdout, stderr) = run_cli(&[
        "estimate",
        MATMUL_GRID,
        "--target",
        "v6e",
        "--devices",
        "4",
        "--libtpu",
        lib,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let text = String::from_utf8_lossy(&stdout);
    assert!(
        text.contains("compiled as 1 of 4 SPMD partitions"),
        "{text}"
    );
    assert!(
        text.contains("does not time remote DMAs or barriers"),
        "{text}"
    );
}
