//! `compile`: the real TPU compiler (libtpu 0.0.50.1 through PJRT, in a
//! worker process) gives the same verdict as JAX's own ahead-of-time compile
//! (`scripts/jaxref/ref/tpu_compile.py`) on every module `emit` makes for the
//! goldens; refusals carry libtpu's messages; a libtpu crash is one module's
//! verdict, not the caller's end.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::common::oneshot::{self as lower, LowerOptions};
use serde_json::Value as Json;
use tpu_custom_call::compile::{CompileOptions, Compiler, Verdict};
use tpu_custom_call::target::Chip;
use tpu_custom_call::{Context, Kernel, PrintOptions, kernel};

use crate::common::*;
use crate::lower::golden_calls;

/// One libtpu process at a time from these tests (each takes GBs).
pub(crate) static LIBTPU: Mutex<()> = Mutex::new(());

fn tpu_venv() -> PathBuf {
    std::env::var_os("TPU_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/tpu-custom-call/jaxref-tpu-venv")
        })
}

/// libtpu.so: the usual lookup, else the TPU venv's; `None` prints why the
/// test is skipped.
pub(crate) fn libtpu(test: &str) -> Option<PathBuf> {
    if let Ok(path) = tpu_custom_call::compile::find_libtpu(None) {
        return Some(path);
    }
    let venv = tpu_venv().join("lib/python3.12/site-packages/libtpu/libtpu.so");
    if venv.is_file() {
        return Some(venv);
    }
    eprintln!(
        "SKIPPED {test}: no libtpu.so (run scripts/install-deps.sh, or set TPU_LIBRARY_PATH)"
    );
    None
}

/// [`libtpu`] with [`LIBTPU`] held for as long as the guard lives.
pub(crate) fn locked_libtpu(test: &str) -> Option<(PathBuf, MutexGuard<'static, ()>)> {
    let path = libtpu(test)?;
    Some((path, LIBTPU.lock().unwrap_or_else(|e| e.into_inner())))
}

/// The TPU venv's python (jax[tpu] 0.12.0.1); `None` prints why the test is
/// skipped.
fn tpu_python(test: &str) -> Option<PathBuf> {
    let python = tpu_venv().join("bin/python");
    if python.is_file() {
        Some(python)
    } else {
        eprintln!(
            "SKIPPED {test}: no TPU venv at {} (bash scripts/jaxref/ref/setup-tpu.sh, or set TPU_VENV)",
            python.display()
        );
        None
    }
}

pub(crate) fn options(chip: Chip, devices: usize, libtpu: &Path) -> CompileOptions {
    CompileOptions {
        chip,
        devices,
        libtpu: Some(libtpu.to_path_buf()),
        worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_tpu-custom-call"))),
        ..Default::default()
    }
}

/// The module `emit` writes for every golden call (default options), in `dir`.
fn emitted_modules(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut modules = Vec::new();
    for call in golden_calls() {
        let name = call.name();
        let ctx = Context::new();
        let text = std::fs::read_to_string(call.kernel_path()).unwrap();
        let kernel = Kernel::from_text(&ctx, &text, &name).unwrap();
        let types = |types: Vec<String>| -> Vec<_> {
            types
                .iter()
                .map(|t| tpu_custom_call::melior::ir::Type::parse(&ctx, t).unwrap())
                .collect()
        };
        let (operands, results) = (types(call.operand_types()), types(call.result_types()));
        let module = lower::emit_module(
            &ctx,
            &kernel,
            &call.params(),
            &operands,
            &results,
            &LowerOptions {
                jax_rules_only: true,
                ..LowerOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let path = dir.join(format!("{name}.mlir"));
        std::fs::write(
            &path,
            kernel::print_module(&module, PrintOptions::default()).unwrap(),
        )
        .unwrap();
        modules.push((name, path));
    }
    modules
}

/// `tpu_compile.py --json` over all modules at once: path -> error (`None`
/// when it compiled).
fn jax_verdicts(
    python: &Path,
    chip: Chip,
    devices: usize,
    paths: &[&PathBuf],
) -> Vec<Option<String>> {
    let out = std::process::Command::new(python)
        .arg(jaxref_dir().join("tpu_compile.py"))
        .args([
            "--chip",
            chip.name(),
            "--devices",
            &devices.to_string(),
            "--json",
        ])
        .args(paths)
        .output()
        .unwrap();
    let lines: Vec<Json> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        paths.len(),
        "tpu_compile.py --chip {chip}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines
        .iter()
        .map(|l| l["error"].as_str().map(str::to_string))
        .collect()
}

/// The first non-empty line of a message (JAX and PJRT wrap it differently).
fn first_line(message: &str) -> &str {
    message
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// A chip, a device count, and the (name, path) of the modules to compile.
type Run<'m> = (Chip, usize, Vec<&'m (String, PathBuf)>);

/// Cases whose kernels address other devices: compiled on 4 partitions too.
fn communicates(name: &str) -> bool {
    ["remote_dma", "collective", "barrier", "tensorcore_mesh"]
        .iter()
        .any(|k| name.contains(k))
}

/// For every golden call and each of v5e, v5p, v6e, v7x (the crashing
/// shape-polymorphic module on v5e only; kernels that communicate on v5e with
/// 4 devices too): our compile's verdict is
/// tpu_compile.py's on the same module, compiled or refused with the same
/// message (first line), or crashed in both.
#[test]
fn every_emitted_golden_module_gets_jaxs_verdict() {
    let test = "every_emitted_golden_module_gets_jaxs_verdict";
    let (Some(libtpu), Some(python)) = (libtpu(test), tpu_python(test)) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("tcc-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let modules = emitted_modules(&dir);
    let mut runs: Vec<Run> = [Chip::V5e, Chip::V5p, Chip::V6e, Chip::V7x]
        .into_iter()
        .map(|chip| {
            // libtpu aborts on the shape-polymorphic module: a worker restart
            // on each side (seconds for JAX's); once is enough.
            let modules = modules
                .iter()
                .filter(|(name, _)| chip == Chip::V5e || !name.starts_with("shape_poly"))
                .collect();
            (chip, 1, modules)
        })
        .collect();
    runs.push((
        Chip::V5e,
        4,
        modules
            .iter()
            .filter(|(name, _)| communicates(name))
            .collect(),
    ));
    let mut failures = Failures::new();
    let (mut ours_seconds, mut jax_seconds) = (0.0, 0.0);
    let (mut compiled, mut refused, mut crashed) = (0, 0, 0);
    for (chip, devices, modules) in &runs {
        let paths: Vec<&PathBuf> = modules.iter().map(|(_, p)| p).collect();
        let started = std::time::Instant::now();
        let jax = jax_verdicts(&python, *chip, *devices, &paths);
        jax_seconds += started.elapsed().as_secs_f64();
        let started = std::time::Instant::now();
        let mut compiler = Compiler::new(options(*chip, *devices, &libtpu)).unwrap();
        for ((name, path), jax) in modules.iter().zip(jax) {
            let Some(verdict) = failures.ok(
                format!("{name} on {chip} x{devices}"),
                compiler.compile(&std::fs::read(path).unwrap()),
            ) else {
                continue;
            };
            match &verdict {
                Verdict::Compiled { .. } => compiled += 1,
                Verdict::Crashed { .. } => crashed += 1,
                _ => refused += 1,
            }
            let ours = verdict.error();
            let same = match (&ours, &jax) {
                (None, None) => true,
                (Some(ours), Some(jax)) if ours.starts_with("libtpu crashed") => {
                    jax.starts_with("libtpu crashed")
                }
                (Some(ours), Some(jax)) => jax.contains(first_line(ours)),
                _ => false,
            };
            failures.check(same, || {
                format!("{name} on {chip} x{devices}: ours {ours:?}, tpu_compile.py {jax:?}")
            });
        }
        drop(compiler);
        ours_seconds += started.elapsed().as_secs_f64();
    }
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!(
        "{test}: {compiled} compiled, {refused} refused, {crashed} crashed, over {} runs; \
         ours {ours_seconds:.1} s, tpu_compile.py {jax_seconds:.1} s",
        runs.len()
    );
    failures.assert_none();
    assert!(compiled >= 4 * 20 + 9, "only {compiled} modules compiled");
}

/// The modules of the issue (tests/data/compile/README.md) are refused with
/// libtpu's messages, located at the call; the shape-polymorphic export
/// crashes libtpu, is reported as such, and the next module still compiles.
#[test]
fn refusals_and_a_crash_through_the_cli() {
    let test = "refusals_and_a_crash_through_the_cli";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        "tests/data/compile/unknown_op.mlir",
        "tests/data/compile/scoped_vmem_oom.mlir",
        "tests/data/compile/missing_operand.mlir",
        "tests/data/jax-goldens/shape_poly_export/module.mlir",
        "tests/data/jax-goldens/add_basic/module.mlir",
        "--target",
        "v5e",
        "--json",
        "--libtpu",
        libtpu.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("libtpu refused 4 of 5 modules"), "{stderr}");
    let lines: Vec<Json> = String::from_utf8_lossy(&stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    let expected = [
        "Failed to deserialize the Mosaic module: INTERNAL: unregistered operation 'tpu.vector_stor'",
        "E1001: CompileTimeScopedVmemOom:",
        "Mosaic failed to compile TPU kernel with MLIR module name `_add_kernel`",
        "libtpu crashed: ",
    ];
    let mut failures = Failures::new();
    for (i, (line, expected)) in lines.iter().zip(expected).enumerate() {
        let error = line["error"].as_str().unwrap_or_default();
        failures.check(error.starts_with(expected), || {
            format!("module {i}: expected `{expected}...` in {line}")
        });
        failures.eq(format!("module {i}: ok"), &line["ok"], &Json::Bool(false));
    }
    failures.assert_none();
    assert!(lines[1]["error"].as_str().unwrap().contains(
        "Scoped allocation with size 24.00M and limit 16.00M exceeded scoped vmem limit"
    ));
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("RET_CHECK failure (platforms/xla/mosaic/python/custom_call_emitter.cc:2251) main.getNumArguments() ==")
    );
    assert!(
        lines[2]["located_error"]
            .as_str()
            .unwrap()
            .starts_with("tests/data/compile/missing_operand.mlir: tpu_custom_call #0 kernel `_add_kernel`: Mosaic"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3]["error"]
            .as_str()
            .unwrap()
            .contains("Check failed: !count_overflow")
    );
    assert_eq!(lines[3]["crashed"], true);
    assert!(lines[3]["call"].is_null());
    assert_eq!(lines[2]["call"]["index"], 0);
    assert_eq!(lines[2]["call"]["kernel_name"], "_add_kernel");
    assert_eq!(lines[4]["ok"], true, "{}", lines[4]);
    assert!(lines[4]["stats"]["generated_code_size"].as_i64().unwrap() > 0);
    assert!(lines[4]["stats"]["argument_size"].as_i64().unwrap() >= 8192);
}

/// Usage and set-up errors need no libtpu: a chip without a topology, a
/// device count, a missing libtpu (exit 1 saying how to get it).
#[test]
fn compile_usage_and_missing_libtpu() {
    let (code, _, stderr) = run_cli(&[
        "compile",
        "tests/data/compile/unknown_op.mlir",
        "--target",
        "v5e",
        "--devices",
        "0",
    ]);
    assert_eq!(code, 2, "{stderr}");
    let (code, stdout, stderr) = run_cli(&[
        "compile",
        "tests/data/compile/unknown_op.mlir",
        "--target",
        "v5e",
        "--libtpu",
        "/nonexistent/libtpu.so",
    ]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("libtpu.so not found (looked at /nonexistent/libtpu.so)")
            && stderr.contains("scripts/install-deps.sh"),
        "{stderr}"
    );
    let (code, _, stderr) = run_cli(&[
        "compile",
        "tests/data/compile/unknown_op.mlir",
        "--target",
        "v3",
        "--libtpu",
        "/nonexistent/libtpu.so",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("target `v3` cannot be compiled for"),
        "{stderr}"
    );
}

/// `emit --compile-check`: libtpu compiles what `emit` made before it is
/// written; a refusal is exit 1 with libtpu's message and no output file.
#[test]
fn emit_compile_check() {
    let test = "emit_compile_check";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("tcc-compile-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("add.mlir");
    let emit = |kernel: &str, signature: &str, params: &str| {
        run_cli(&[
            "emit",
            kernel,
            "--signature",
            signature,
            "--params",
            params,
            "--target",
            "v6e",
            "--compile-check",
            "--libtpu",
            libtpu.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
    };
    // This SparseCore scan without layout passes is refused with libtpu's
    // message: by our SparseCore vector rule since issue 38 (libtpu refuses it
    // too; see tests/data/compile/README.md).
    let (code, _, stderr) = emit(
        "tests/data/jax-goldens/sparsecore_scan_reduce/kernel_pre_serde.generic.mlir",
        "(tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xi32>)",
        "tests/data/compile/scan_no_layout_passes.json",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("Result type is not a valid vmask or vreg type"),
        "{stderr}"
    );
    assert!(!out.exists());
    // A call with one operand for two inputs is refused by the call contract
    // before libtpu is asked.
    let (code, _, stderr) = emit(
        "mlir-fixtures/kernels/add.mlir",
        "(tensor<8x128xf32>) -> tensor<8x128xf32>",
        "mlir-fixtures/params/add_basic.json",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("kernel `_add_kernel` takes 3 argument(s)"),
        "{stderr}"
    );
    assert!(!out.exists());
    let (code, _, stderr) = emit(
        "mlir-fixtures/kernels/add.mlir",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "mlir-fixtures/params/add_basic.json",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("tpu_custom_call")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tpu-custom-call-verify{target=... compile=true}` compiles the module with
/// libtpu after its own checks (libtpu found as `compile` finds it).
#[test]
fn verify_pass_compile_option() {
    let test = "verify_pass_compile_option";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let opt = |module: &str, pipeline: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
            .args([
                "opt",
                module,
                "--pass-pipeline",
                pipeline,
                "-o",
                "/dev/null",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TPU_LIBRARY_PATH", &libtpu)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // JAX's rules only: our SparseCore vector rule (which refuses the module
    // first) is left out, and libtpu's own verdict comes through.
    let (code, stderr) = opt(
        "tests/data/compile/scan_no_layout_passes.mlir",
        "builtin.module(tpu-custom-call-verify{target=v6e compile=true jax-rules-only=true})",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("error: libtpu (v6e): Result type is not a valid vmask or vreg type"),
        "{stderr}"
    );
    let (code, stderr) = opt(
        "tests/data/compile/scan_no_layout_passes.mlir",
        "builtin.module(tpu-custom-call-verify{compile=true})",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("compile: needs `target`"), "{stderr}");
    let (code, stderr) = opt(
        "tests/data/compile/scan_no_layout_passes.mlir",
        "builtin.module(tpu-custom-call-verify{target=v6e jax-rules-only=true})",
    );
    assert_eq!(
        code, 0,
        "without compile=true libtpu is not asked: {stderr}"
    );
    let (code, stderr) = opt(
        "tests/data/compile/scan_no_layout_passes.mlir",
        "builtin.module(tpu-custom-call-verify{target=v6e})",
    );
    assert_eq!(code, 1, "our SparseCore vector rule: {stderr}");
    assert!(
        stderr.contains("a v6e SparseCore vector register holds 8 32-bit elements"),
        "{stderr}"
    );
}

/// A worker that hangs is killed after the timeout; the verdict says so and
/// the next compile starts a fresh worker. Needs no libtpu: a fake worker
/// (a shell script) answers `ready` and then never answers again.
#[test]
fn hanging_worker_times_out() {
    let dir = std::env::temp_dir().join(format!("tcc-hanging-worker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let worker = dir.join("worker.sh");
    std::fs::write(
        &worker,
        "#!/bin/sh\necho '{\"ready\": \"0.116\"}'\nexec sleep 60\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut compiler = Compiler::new(CompileOptions {
        chip: Chip::V5e,
        devices: 1,
        // Never loaded by the fake worker; it only has to exist.
        libtpu: Some(worker.clone()),
        worker: Some(worker.clone()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        compiler.timeout(),
        tpu_custom_call::compile::default_timeout()
    );
    compiler.set_timeout(std::time::Duration::from_millis(300));
    for _ in 0..2 {
        let started = std::time::Instant::now();
        let verdict = compiler.compile(b"module {}").unwrap();
        assert!(matches!(verdict, Verdict::TimedOut { .. }), "{verdict:?}");
        assert_eq!(verdict.error().unwrap(), "libtpu timed out after 0.3 s");
        assert!(!verdict.is_ok());
        assert!(verdict.seconds() >= 0.3);
        assert!(started.elapsed().as_secs_f64() < 10.0);
    }
    compiler.set_timeout(std::time::Duration::from_secs(2));
    let verdict = compiler.compile(b"module {}").unwrap();
    assert_eq!(verdict.error().unwrap(), "libtpu timed out after 2 s");
}

/// With libtpu: a tiny timeout on a real compile kills the worker mid-compile;
/// with the default one the next module compiles in a fresh worker.
#[test]
fn real_compile_times_out() {
    let test = "real_compile_times_out";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let module = std::fs::read("tests/data/jax-goldens/add_basic/module.mlir").unwrap();
    let mut compiler = Compiler::new(options(Chip::V5e, 1, &libtpu)).unwrap();
    let warm = compiler.compile(&module).unwrap();
    assert!(warm.is_ok(), "{warm:?}");
    compiler.set_timeout(std::time::Duration::from_micros(1));
    let verdict = compiler.compile(&module).unwrap();
    assert_eq!(
        verdict.error().as_deref(),
        Some("libtpu timed out after 0.001 s"),
        "{verdict:?}"
    );
    compiler.set_timeout(tpu_custom_call::compile::default_timeout());
    let again = compiler.compile(&module).unwrap();
    assert!(again.is_ok(), "{again:?}");
}

/// What `src/contract/memory.rs` decides about memory spaces, against
/// libtpu: a data result colored `semaphore_mem` aborts it, a `host` result of
/// an `any` kernel argument is refused, the mismatches the contract only notes
/// compile. The refused modules cannot be emitted (the contract refuses
/// them), so their color is patched into an emitted module.
#[test]
fn memory_space_verdicts_are_libtpus() {
    let test = "memory_space_verdicts_are_libtpus";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let dir = std::env::temp_dir().join(format!("tcc-memory-spaces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = "tensor<8x128xf32>";
    let emit = |name: &str, case: &str, signature: &str, params: &str| -> String {
        let params_path = dir.join(format!("{name}.json"));
        std::fs::write(&params_path, params).unwrap();
        let out = dir.join(format!("{name}.mlir"));
        let kernel = format!("tests/data/jax-goldens/{case}/kernel.mlir");
        let (code, _, stderr) = run_cli(&[
            "emit",
            &kernel,
            "--signature",
            signature,
            "--params",
            params_path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{name}: {stderr}");
        std::fs::read_to_string(out).unwrap()
    };
    let add_sig = format!("({t}, {t}) -> {t}");
    let any_sig = format!("({t}) -> ({t}, {t})");
    let semaphore = emit(
        "semaphore",
        "add_basic",
        &add_sig,
        r#"{"kernel_name": "_add_kernel", "output_memory_spaces": ["hbm"]}"#,
    )
    .replacen(r"\22color\22:0}", r"\22color\22:2}", 1);
    let host = emit(
        "host",
        "memory_spaces",
        &any_sig,
        r#"{"kernel_name": "kernel", "output_memory_spaces": [null, "hbm"]}"#,
    )
    .replacen(
        r"\22color\22:0,\22shape_index\22:[1]",
        r"\22color\22:5,\22shape_index\22:[1]",
        1,
    );
    let noted = emit(
        "noted",
        "add_basic",
        &add_sig,
        r#"{"kernel_name": "_add_kernel", "input_memory_spaces": ["smem", "hbm"], "output_memory_spaces": ["hbm"]}"#,
    );
    let host_of_vmem = emit(
        "host_of_vmem",
        "add_basic",
        &add_sig,
        r#"{"kernel_name": "_add_kernel", "output_memory_spaces": ["host"]}"#,
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(semaphore.contains(r"\22color\22:2}") && host.contains(r"\22color\22:5,"));
    let mut compiler = Compiler::new(options(Chip::V5e, 1, &libtpu)).unwrap();
    let verdict = compiler.compile(semaphore.as_bytes()).unwrap();
    assert!(
        matches!(verdict, Verdict::Crashed { .. })
            && verdict
                .error()
                .unwrap()
                .contains("Unsupported source memory space"),
        "{verdict:?}"
    );
    let verdict = compiler.compile(host.as_bytes()).unwrap();
    assert!(
        verdict
            .error()
            .unwrap_or_default()
            .contains("Failed to convert a memory space to MLIR"),
        "{verdict:?}"
    );
    let mut failures = Failures::new();
    for (what, module) in [("noted", noted), ("host_of_vmem", host_of_vmem)] {
        if let Some(verdict) = failures.ok(what, compiler.compile(module.as_bytes())) {
            failures.check(verdict.is_ok(), || format!("{what}: {verdict:?}"));
        }
    }
    failures.assert_none();
}

/// `TPU_CUSTOM_CALL_COMPILE_TIMEOUT` reaches the CLI: with 1 ms the worker
/// cannot even load libtpu, and `compile` exits 1 saying so and how to raise it.
#[test]
fn compile_timeout_from_the_environment() {
    let test = "compile_timeout_from_the_environment";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
        .args([
            "compile",
            "tests/data/jax-goldens/add_basic/module.mlir",
            "--target",
            "v5e",
            "--libtpu",
            libtpu.to_str().unwrap(),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env(tpu_custom_call::compile::TIMEOUT_ENV, "0.001")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("did not load libtpu within 0.001 s")
            && stderr.contains("TPU_CUSTOM_CALL_COMPILE_TIMEOUT"),
        "{stderr}"
    );
}

/// `CompileOptions::timeout` sets the compiler's timeout (checked without
/// libtpu: a fake worker that never answers); `compile --timeout SECS` and
/// `emit --compile-check --timeout SECS` pass theirs on (with libtpu: 1 ms
/// is too short to load it); a timeout that is not a positive number is a
/// usage error.
#[test]
fn compile_timeout_option() {
    let test = "compile_timeout_option";
    let dir = std::env::temp_dir().join(format!("tcc-timeout-option-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let worker = dir.join("worker.sh");
    std::fs::write(
        &worker,
        "#!/bin/sh\necho '{\"ready\": \"0.116\"}'\nexec sleep 60\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut compiler = Compiler::new(CompileOptions {
        libtpu: Some(worker.clone()),
        worker: Some(worker.clone()),
        timeout: Some(std::time::Duration::from_millis(200)),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(compiler.timeout(), std::time::Duration::from_millis(200));
    let verdict = compiler.compile(b"module {}").unwrap();
    assert_eq!(verdict.error().unwrap(), "libtpu timed out after 0.2 s");
    drop(compiler);
    std::fs::remove_dir_all(&dir).unwrap();
    let mut failures = Failures::new();
    for bad in ["0", "-1", "soon"] {
        let (code, _, stderr) = run_cli(&[
            "compile",
            "tests/data/jax-goldens/add_basic/module.mlir",
            "--target",
            "v5e",
            &format!("--timeout={bad}"),
        ]);
        failures.check(
            code == 2 && stderr.contains("positive number of seconds"),
            || format!("--timeout {bad}: exit {code} (not 2): {stderr}"),
        );
    }
    failures.assert_none();
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    let libtpu = libtpu.to_str().unwrap();
    let (code, _, stderr) = run_cli(&[
        "compile",
        "tests/data/jax-goldens/add_basic/module.mlir",
        "--target",
        "v5e",
        "--libtpu",
        libtpu,
        "--timeout",
        "0.001",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("within 0.001 s"), "{stderr}");
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        "mlir-fixtures/kernels/add.mlir",
        "--signature",
        "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>",
        "--target",
        "v5e",
        "--compile-check",
        "--libtpu",
        libtpu,
        "--timeout",
        "0.001",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("within 0.001 s"), "{stderr}");
}

/// A one-row block (a bias, a scale) is not modelled, but the other blocks
/// already exceed the limit: refused when validated, with the lower bound,
/// as libtpu refuses it ("Scoped allocation with size 32.00M and limit
/// 16.00M").
#[test]
fn a_one_row_block_does_not_hide_a_scoped_vmem_overflow() {
    let kernel = "tests/data/compile/bias_row_block.mlir";
    let sig = "(tensor<4096x1024xf32>, tensor<1x1024xf32>) -> tensor<4096x1024xf32>";
    let dir = std::env::temp_dir().join(format!("tcc-bias-row-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("p.json");
    std::fs::write(&params, "{}").unwrap();
    let p = params.to_str().unwrap();
    let (code, _, stderr) = run_cli(&[
        "validate",
        p,
        "--kernel",
        kernel,
        "--signature",
        sig,
        "--target",
        "v5e",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("needs 32.00M of scoped VMEM (at least:")
            && stderr.contains("not counting kernel argument(s) [2]")
            && stderr.contains("the limit on v5e is 16.00M"),
        "{stderr}"
    );
    // With a 40 MiB vmem_limit_bytes it fits.
    std::fs::write(&params, r#"{"vmem_limit_bytes": 41943040}"#).unwrap();
    let (code, _, stderr) = run_cli(&[
        "validate",
        p,
        "--kernel",
        kernel,
        "--signature",
        sig,
        "--target",
        "v5e",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let test = "a_one_row_block_does_not_hide_a_scoped_vmem_overflow";
    let Some(libtpu) = libtpu(test) else {
        return;
    };
    let _guard = LIBTPU.lock().unwrap_or_else(|e| e.into_inner());
    std::fs::write(&params, "{}").unwrap();
    let module = dir.join("m.mlir");
    let (code, _, stderr) = run_cli(&[
        "emit",
        kernel,
        "--signature",
        sig,
        "--params",
        p,
        "-o",
        module.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run_cli(&[
        "compile",
        module.to_str().unwrap(),
        "--target",
        "v5e",
        "--libtpu",
        libtpu.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("Scoped allocation with size 32.00M and limit 16.00M"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
