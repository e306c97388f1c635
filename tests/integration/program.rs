//! Whole programs on the CPU (issue 48): XLA's CPU compiler (the PJRT CPU
//! plugin) for the StableHLO, the executor for every kernel call, against
//! JAX's results for the same functions with every `pallas_call` in TPU
//! interpret mode (`tests/data/program`, made by
//! `scripts/jaxref/program/make_programs.py`).

use std::path::{Path, PathBuf};

use tpu_custom_call::Context;
use tpu_custom_call::exec::{self, Array, ElemType, RunOptions, npy};
use tpu_custom_call::program::{self, Program, ProgramError, ProgramOptions};

use crate::common::run_cli;

fn data(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/program")
        .join(case)
}

/// The plugin, or `SKIPPED` and false.
fn plugin(test: &str) -> bool {
    match tpu_custom_call::pjrt::find_cpu_plugin(None) {
        Ok(_) => true,
        Err(e) => {
            eprintln!("SKIPPED {test}: {e}");
            false
        }
    }
}

struct Case {
    module: Vec<u8>,
    inputs: Vec<Array>,
    expected: Vec<Array>,
    rtol: f64,
    atol: f64,
    kernels: usize,
    devices: usize,
}

/// Reads a case: @main's argument types give the inputs' element types.
fn case(name: &str) -> Case {
    let dir = data(name);
    let module = std::fs::read(dir.join("module.mlir")).unwrap();
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("case.json")).unwrap()).unwrap();
    let ctx = Context::new();
    let sig = program::main_signature(&ctx, &module, name).unwrap();
    let elem = |t: &str| exec::TensorType::parse(t).unwrap().elem;
    let inputs = sig
        .arguments
        .iter()
        .enumerate()
        .map(|(k, t)| npy::read(&dir.join(format!("in{k}.npy")), elem(t)).unwrap())
        .collect();
    let expected = sig
        .results
        .iter()
        .enumerate()
        .map(|(k, t)| npy::read(&dir.join(format!("out{k}.npy")), elem(t)).unwrap())
        .collect();
    Case {
        module,
        inputs,
        expected,
        rtol: meta["rtol"].as_f64().unwrap(),
        atol: meta["atol"].as_f64().unwrap(),
        kernels: meta["kernels"].as_u64().unwrap() as usize,
        devices: meta["devices"].as_u64().unwrap_or(1) as usize,
    }
}

const CASES: &[&str] = &[
    "no_kernel",
    "one_kernel",
    "two_kernels",
    "aliased",
    "stale_scratch",
    "ring_4dev",
    "psum_unannotated_4dev",
    "device_id_4dev",
];

#[test]
fn programs_compute_what_jax_computes_with_interpret_mode() {
    if !plugin("programs_compute_what_jax_computes_with_interpret_mode") {
        return;
    }
    for name in CASES {
        let c = case(name);
        let ctx = Context::new();
        let options = ProgramOptions {
            devices: c.devices,
            ..ProgramOptions::default()
        };
        let p = Program::load(&ctx, &c.module, name, &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.calls(), c.kernels, "{name}");
        // Twice: the kernels were decoded once, at load; each run runs each call once.
        for _ in 0..2 {
            let out = p.run(&c.inputs).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out.results.len(), c.expected.len(), "{name}");
            for (k, (r, e)) in out.results.iter().zip(&c.expected).enumerate() {
                if let Err(m) = exec::compare(r, e, c.rtol, c.atol) {
                    panic!("{name}: result {k}: {m}");
                }
            }
            assert_eq!(out.report.calls.len(), c.kernels, "{name}");
            // One executor run per call and device; a kernel that talks
            // across devices runs once for all of them (the rendezvous).
            let runs: Vec<u64> = out.report.calls.iter().map(|r| r.runs).collect();
            let want: Vec<u64> = match *name {
                "ring_4dev" => vec![4, 1],
                "psum_unannotated_4dev" => vec![4],
                // tpu.device_id without communication: all devices at once.
                "device_id_4dev" => vec![1],
                _ => vec![1; c.kernels],
            };
            assert_eq!(runs, want, "{name}");
            eprintln!(
                "{name}: {} call(s), decode {:.4} s, XLA compile {:.4} s, run {:.4} s",
                c.kernels,
                out.report.decode_seconds,
                out.report.compile_seconds,
                out.report.run_seconds
            );
        }
        if c.devices == 1 {
            tpu_custom_call::testing::assert_program_computes(
                &c.module,
                &c.inputs,
                &c.expected,
                c.rtol,
                c.atol,
            );
        }
    }
}

#[test]
fn an_executor_error_inside_a_kernel_names_the_call() {
    if !plugin("an_executor_error_inside_a_kernel_names_the_call") {
        return;
    }
    let c = case("stale_scratch");
    let ctx = Context::new();
    let options = ProgramOptions {
        run: RunOptions {
            detect_uninitialized: true,
            ..RunOptions::default()
        },
        ..ProgramOptions::default()
    };
    let p = Program::load(&ctx, &c.module, "stale_scratch", &options).unwrap();
    match p.run(&c.inputs) {
        Err(ProgramError::Call {
            index,
            kernel,
            location,
            error,
        }) => {
            assert_eq!(index, 0);
            assert_eq!(kernel, "_stale_scratch_kernel");
            assert!(location.unwrap().ends_with(":6"));
            assert!(
                error.message.contains("reads uninitialised memory"),
                "{error}"
            );
        }
        other => panic!("expected the call's error, got {other:?}"),
    }
    // The same program runs again (the error did not poison it): the
    // detector fires again, naming the same call.
    assert!(matches!(
        p.run(&c.inputs),
        Err(ProgramError::Call { index: 0, .. })
    ));
}

#[test]
fn bad_inputs_are_refused_naming_the_argument() {
    if !plugin("bad_inputs_are_refused_naming_the_argument") {
        return;
    }
    let c = case("two_kernels");
    let ctx = Context::new();
    let p = Program::load(&ctx, &c.module, "two_kernels", &ProgramOptions::default()).unwrap();
    let message = |inputs: &[Array]| match p.run(inputs) {
        Err(ProgramError::Input(m)) => m,
        other => panic!("expected an input error, got {other:?}"),
    };
    assert_eq!(
        message(&c.inputs[..2]),
        "two_kernels: @main takes 3 argument(s), 2 given"
    );
    let mut wrong = c.inputs.clone();
    wrong[1] = Array::filled(ElemType::F32, &[128, 256], 0.0);
    assert_eq!(
        message(&wrong),
        "two_kernels: argument 1 of @main is `tensor<256x128xf32>`, the input has shape [128, 256]"
    );
    wrong[1] = Array::filled(ElemType::Int(32), &[256, 128], 0.0);
    assert_eq!(
        message(&wrong),
        "two_kernels: argument 1 of @main is `tensor<256x128xf32>`, the input has element type i32"
    );
}

#[test]
fn call_sites_live_as_long_as_their_program_and_never_collide() {
    if !plugin("call_sites_live_as_long_as_their_program_and_never_collide") {
        return;
    }
    // Two programs on two threads at once, each run several times.
    let ids: Vec<Vec<u64>> = std::thread::scope(|s| {
        let handles: Vec<_> = ["one_kernel", "two_kernels"]
            .into_iter()
            .map(|name| {
                s.spawn(move || {
                    let c = case(name);
                    let ctx = Context::new();
                    let p =
                        Program::load(&ctx, &c.module, name, &ProgramOptions::default()).unwrap();
                    let ids = p.site_ids();
                    assert!(ids.iter().all(|&id| program::site_is_registered(id)));
                    for _ in 0..3 {
                        let out = p.run(&c.inputs).unwrap();
                        for (r, e) in out.results.iter().zip(&c.expected) {
                            exec::compare(r, e, c.rtol, c.atol).unwrap();
                        }
                    }
                    ids
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let all: Vec<u64> = ids.concat();
    let mut unique = all.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), all.len(), "site ids collide: {ids:?}");
    assert!(all.iter().all(|&id| !program::site_is_registered(id)));
}

#[test]
fn the_rewrite_makes_each_call_a_typed_ffi_call_and_keeps_aliases() {
    let c = case("aliased");
    let ctx = Context::new();
    let sites = [program::rewrite::SiteRewrite { site: 77 }];
    let text = String::from_utf8(c.module.clone()).unwrap();
    let out = program::rewrite::rewrite_module(&ctx, text.as_bytes(), "aliased", &sites).unwrap();
    assert!(!out.contains("@tpu_custom_call("));
    let call = out
        .lines()
        .find(|l| l.contains(program::rewrite::FFI_TARGET))
        .unwrap();
    assert!(call.contains("api_version = 4 : i32"), "{call}");
    assert!(
        call.contains("backend_config = {tcc_site = 77 : i64}"),
        "{call}"
    );
    assert!(
        call.contains("output_operand_aliases = [#stablehlo.output_operand_alias<"),
        "{call}"
    );
    assert!(
        call.contains("operand_layouts") && call.contains("result_layouts"),
        "{call}"
    );
    // Everything but the call statement is byte for byte JAX's.
    let (a, b): (Vec<&str>, Vec<&str>) = (text.lines().collect(), out.lines().collect());
    assert_eq!(a.len(), b.len());
    let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert_eq!(changed, 1);
    // Too few sites for the module's calls: an error, not a half-rewritten module.
    assert!(program::rewrite::rewrite_module(&ctx, text.as_bytes(), "aliased", &[]).is_err());
}

#[test]
fn cli_runs_main_whole_and_writes_nothing_on_error() {
    if !plugin("cli_runs_main_whole_and_writes_nothing_on_error") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("tcc-program-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = data("two_kernels");
    let module = d.join("module.mlir");
    let ins: Vec<String> = (0..3)
        .map(|k| d.join(format!("in{k}.npy")).display().to_string())
        .collect();
    let out = dir.join("out");
    let mut args = vec!["run", module.to_str().unwrap()];
    for i in &ins {
        args.extend(["--input", i.as_str()]);
    }
    let cmp = d.display().to_string();
    args.extend([
        "-o",
        out.to_str().unwrap(),
        "--compare",
        &cmp,
        "--rtol",
        "1e-5",
        "--atol",
        "1e-5",
        "--json",
    ]);
    let (code, stdout, stderr) = run_cli(&args);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    let kernels: Vec<&str> = doc["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kernel"].as_str().unwrap())
        .collect();
    assert_eq!(kernels, ["_matmul_kernel", "_rowsum_kernel", "_add_kernel"]);
    for k in 0..3 {
        assert!(out.join(format!("result{k}.npy")).is_file());
    }
    // An executor error: exit 1 naming the call, no output folder.
    let s = data("stale_scratch");
    let bad_out = dir.join("bad");
    let (module, input) = (s.join("module.mlir"), s.join("in0.npy"));
    let (code, _, stderr) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--input",
        input.to_str().unwrap(),
        "--detect-uninitialized",
        "-o",
        bad_out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("error: tpu_custom_call #0 (_stale_scratch_kernel) at ")
            && stderr.contains("reads uninitialised memory"),
        "{stderr}"
    );
    assert!(!bad_out.exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "a staging folder was left"
    );
    // `--call 0` keeps running the one call on the executor.
    let (code, stdout, stderr) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--call",
        "0",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(String::from_utf8_lossy(&stdout).contains("result 0: f32[8, 128]"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The programs of the corpus (`tests/data/programs`: JAX's production
/// kernels lowered whole, model blocks, sharded programs over 4 devices),
/// each against JAX's results with interpret mode, within its tolerances.
#[test]
fn corpus_programs_compute_what_jax_computes() {
    if !plugin("corpus_programs_compute_what_jax_computes") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/programs");
    let Ok(entries) = std::fs::read_dir(&root) else {
        eprintln!(
            "SKIPPED corpus_programs_compute_what_jax_computes: no {}",
            root.display()
        );
        return;
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("program.json").is_file())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("program.json")).unwrap()).unwrap();
        let module = std::fs::read(dir.join("module.mlir")).unwrap();
        let devices = meta["devices"].as_u64().unwrap_or(1) as usize;
        let ctx = Context::new();
        let options = ProgramOptions {
            devices,
            ..ProgramOptions::default()
        };
        let loaded = Program::load(&ctx, &module, &name, &options);
        // Refusals measured and explained in docs/execute.md.
        if let ("export_shape_poly", Err(ProgramError::Input(m))) = (name.as_str(), &loaded) {
            assert!(
                m.contains("@main has symbolic dimensions (`tensor<?x128xf32>`)"),
                "{m}"
            );
            continue;
        }
        let p = match loaded {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let sig = p.signature().clone();
        let elem = |t: &str| exec::TensorType::parse(t).unwrap().elem;
        let inputs: Vec<Array> = meta["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&sig.arguments)
            .map(|(i, t)| npy::read(&dir.join(i["file"].as_str().unwrap()), elem(t)).unwrap())
            .collect();
        let out = match p.run(&inputs) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        eprintln!(
            "{name}: {} device(s), {} call(s), XLA compile {:.3} s, run {:.3} s",
            devices,
            p.calls(),
            out.report.compile_seconds,
            out.report.run_seconds
        );
        for (k, (r, spec)) in out
            .results
            .iter()
            .zip(meta["results"].as_array().unwrap())
            .enumerate()
        {
            let e = npy::read(&dir.join(spec["file"].as_str().unwrap()), r.elem).unwrap();
            let (rtol, atol) = (
                spec["rtol"].as_f64().unwrap_or(0.0),
                spec["atol"].as_f64().unwrap_or(0.0),
            );
            if let Err(m) = exec::compare(r, &e, rtol, atol) {
                failures.push(format!("{name}: result {k}: {m}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Generic text and bytecode take the parsed path of the rewrite: the same
/// numbers as JAX's pretty text of the same program.
#[test]
fn generic_text_and_bytecode_run_as_pretty_text_does() {
    if !plugin("generic_text_and_bytecode_run_as_pretty_text_does") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures/jax-programs");
    let pretty = std::fs::read(root.join("pallas_add.mlir")).unwrap();
    let generic = std::fs::read(root.join("pallas_add.generic.mlir")).unwrap();
    let ctx = Context::new();
    let load = |bytes: &[u8]| {
        Program::load(&ctx, bytes, "pallas_add", &ProgramOptions::default()).unwrap()
    };
    let p = load(&pretty);
    let shape = exec::CallShape {
        operands: vec![exec::TensorType::parse("tensor<8x128xf32>").unwrap(); 2],
        results: Vec::new(),
        aliases: Vec::new(),
    };
    let inputs = exec::random_inputs(&shape, 5).unwrap();
    let want = p.run(&inputs).unwrap().results;
    assert_eq!(load(&generic).run(&inputs).unwrap().results, want);
    let module = tpu_custom_call::kernel::parse_module_bytes(
        &ctx,
        &generic,
        "pallas_add.generic.mlir",
        tpu_custom_call::kernel::ModuleFormat::Text,
    )
    .unwrap();
    let bytecode = tpu_custom_call::kernel::module_bytecode(
        &module,
        &tpu_custom_call::BytecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(load(&bytecode).run(&inputs).unwrap().results, want);
    // x + y, as the kernel computes it.
    for i in 0..want[0].len() {
        assert_eq!(
            want[0].data.get_f64(i),
            f64::from((inputs[0].data.get_f64(i) + inputs[1].data.get_f64(i)) as f32)
        );
    }
}

/// `run --devices 4` on a sharded program: global arrays in and out, the
/// report naming each call with its executor runs (the add kernel once per
/// device, the ring kernel once for all four).
#[test]
fn cli_runs_a_sharded_program_over_four_devices() {
    if !plugin("cli_runs_a_sharded_program_over_four_devices") {
        return;
    }
    let d = data("ring_4dev");
    let (module, x, y) = (d.join("module.mlir"), d.join("in0.npy"), d.join("in1.npy"));
    let cmp = d.display().to_string();
    let (code, stdout, stderr) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--input",
        x.to_str().unwrap(),
        "--input",
        y.to_str().unwrap(),
        "--devices",
        "4",
        "--compare",
        &cmp,
        "--rtol",
        "1e-6",
        "--atol",
        "1e-6",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
    let calls: Vec<(String, u64)> = doc["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kernel"].as_str().unwrap().to_string(),
                c["runs"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("_add_kernel".to_string(), 4),
            ("_ring_kernel".to_string(), 1)
        ]
    );
    assert!(
        doc["compare"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["equal"] == true)
    );
    // The module is partitioned for 4: another count is refused, naming both.
    let (code, _, stderr) = run_cli(&[
        "run",
        module.to_str().unwrap(),
        "--input",
        x.to_str().unwrap(),
        "--input",
        y.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            "the module is partitioned for 4 device(s) (mhlo.num_partitions = 4), 1 asked for"
        ),
        "{stderr}"
    );
}

/// One program run from several threads at once: the runs take turns and
/// each gets JAX's numbers.
#[test]
fn one_program_from_several_threads() {
    if !plugin("one_program_from_several_threads") {
        return;
    }
    let c = case("ring_4dev");
    let ctx = Context::new();
    let options = ProgramOptions {
        devices: 4,
        ..ProgramOptions::default()
    };
    let p = Program::load(&ctx, &c.module, "ring_4dev", &options).unwrap();
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                for _ in 0..3 {
                    let out = p.run(&c.inputs).unwrap();
                    for (r, e) in out.results.iter().zip(&c.expected) {
                        exec::compare(r, e, c.rtol, c.atol).unwrap();
                    }
                }
            });
        }
    });
}

/// A sharded program in generic text: @main's shardings are the
/// executable's own (XLA's), so it runs as JAX's pretty text does.
#[test]
fn a_sharded_program_in_generic_text_runs_as_pretty_text_does() {
    if !plugin("a_sharded_program_in_generic_text_runs_as_pretty_text_does") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures/jax-programs");
    let ctx = Context::new();
    let options = ProgramOptions {
        devices: 4,
        ..ProgramOptions::default()
    };
    let x = exec::random_inputs(
        &exec::CallShape {
            operands: vec![exec::TensorType::parse("tensor<16x8xf32>").unwrap()],
            results: Vec::new(),
            aliases: Vec::new(),
        },
        9,
    )
    .unwrap();
    let run = |file: &str| {
        let bytes = std::fs::read(root.join(file)).unwrap();
        Program::load(&ctx, &bytes, file, &options)
            .unwrap()
            .run(&x)
            .unwrap()
            .results
    };
    let pretty = run("sdy_shard_map_psum.mlir");
    assert_eq!(run("sdy_shard_map_psum.generic.mlir"), pretty);
    // psum over the 4 row blocks of x.
    let r = &pretty[0];
    assert_eq!(r.shape, [4, 8]);
    for i in 0..32 {
        let sum: f32 = (0..4).map(|b| x[0].data.get_f64(b * 32 + i) as f32).sum();
        assert!((r.data.get_f64(i) as f32 - sum).abs() <= 1e-5 * sum.abs().max(1.0));
    }
}

/// A kernel that talks across devices, from generic text: the devices'
/// calls meet as from JAX's pretty text (XLA names each call's device).
#[test]
fn a_ring_kernel_in_generic_text_meets_its_devices() {
    if !plugin("a_ring_kernel_in_generic_text_meets_its_devices") {
        return;
    }
    let c = case("ring_4dev");
    let ctx = Context::new();
    let module = tpu_custom_call::interop::read_module(&ctx, &c.module, "ring_4dev").unwrap();
    let generic = tpu_custom_call::kernel::print_module(
        &module,
        tpu_custom_call::PrintOptions {
            generic: true,
            debug_info: false,
        },
    )
    .unwrap();
    assert!(generic.contains("\"stablehlo.custom_call\""));
    let options = ProgramOptions {
        devices: 4,
        ..ProgramOptions::default()
    };
    let p = Program::load(&ctx, generic.as_bytes(), "ring_4dev.generic", &options).unwrap();
    let out = p.run(&c.inputs).unwrap();
    for (r, e) in out.results.iter().zip(&c.expected) {
        exec::compare(r, e, c.rtol, c.atol).unwrap();
    }
    let runs: Vec<u64> = out.report.calls.iter().map(|r| r.runs).collect();
    assert_eq!(runs, [4, 1]);
}
