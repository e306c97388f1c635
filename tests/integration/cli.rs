//! The command line, run as a user would: exit codes, stdout, stderr.

use crate::common::*;

/// The signature of `mlir-fixtures/kernels/add.mlir`.
const ADD_SIGNATURE: &str = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";

/// The input files of a `mlir-fixtures/bad/` folder (not the `.stderr` files), sorted.
fn bad_inputs(folder: &str) -> Vec<String> {
    let dir = fixtures_dir().join("bad").join(folder);
    let mut inputs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "stderr"))
        .map(|p| {
            format!(
                "mlir-fixtures/bad/{folder}/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    inputs.sort();
    inputs
}

/// Runs `args` (with `-o <file>` appended when `output` is set) and checks
/// the bad-input contract: exit code 1, nothing on stdout, no output file,
/// and the stderr blessed in `golden` (relative to the repository).
fn check_bad_input(args: &[&str], output: bool, golden: &str, failures: &mut Failures) {
    let out_dir = std::env::temp_dir().join(format!("tcc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let out_file = out_dir.join("out");
    let _ = std::fs::remove_file(&out_file);
    let mut args = args.to_vec();
    let out_path = out_file.to_str().unwrap().to_string();
    if output {
        args.extend(["-o", &out_path]);
    }
    let (code, stdout, stderr) = run_cli(&args);
    let what = args.join(" ");
    failures.check(code == 1, || {
        format!("{what}: exit code {code}, not 1; stderr: {stderr}")
    });
    failures.check(stdout.is_empty(), || format!("{what}: wrote to stdout"));
    failures.check(!out_file.exists(), || {
        format!("{what}: left an output file")
    });
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(diff) = check_golden(&root.join(golden), &stderr) {
        failures.fail(format!("{what}:\n{diff}"));
    }
}

/// The bad-input catalogue (`mlir-fixtures/bad/`, see its README): every
/// bad kernel fails `kernel`, `emit` and `validate --kernel`; every bad
/// PARAMS.json fails `emit --params` and `validate`; every bad module fails
/// `inspect` (summary, `--json`, `--kernel`). Each time: exit code 1, nothing
/// on stdout, no output file, and the stderr blessed next to the input
/// (`<input>.stderr`, or `<input>.emit.stderr` / `<input>.validate.stderr`
/// for parameters, whose two commands word their reports differently).
#[test]
fn bad_inputs_fail_cleanly() {
    let mut failures = Failures::new();
    let kernels = bad_inputs("kernels");
    assert!(kernels.len() >= 11, "bad kernel fixtures missing");
    for input in &kernels {
        let golden = format!("{input}.stderr");
        check_bad_input(&["kernel", input], true, &golden, &mut failures);
        check_bad_input(
            &["emit", input, "--signature", ADD_SIGNATURE],
            true,
            &golden,
            &mut failures,
        );
        check_bad_input(
            &[
                "validate",
                "mlir-fixtures/params/add_basic.json",
                "--kernel",
                input,
            ],
            false,
            &golden,
            &mut failures,
        );
    }
    let params = bad_inputs("params");
    assert!(params.len() >= 15, "bad PARAMS.json fixtures missing");
    for input in &params {
        check_bad_input(
            &[
                "emit",
                "mlir-fixtures/kernels/add.mlir",
                "--signature",
                ADD_SIGNATURE,
                "--params",
                input,
            ],
            true,
            &format!("{input}.emit.stderr"),
            &mut failures,
        );
        check_bad_input(
            &[
                "validate",
                input,
                "--kernel",
                "mlir-fixtures/kernels/add.mlir",
                "--signature",
                ADD_SIGNATURE,
            ],
            false,
            &format!("{input}.validate.stderr"),
            &mut failures,
        );
    }
    let modules = bad_inputs("modules");
    assert!(modules.len() >= 15, "bad module fixtures missing");
    for input in &modules {
        let golden = format!("{input}.stderr");
        check_bad_input(&["inspect", input], true, &golden, &mut failures);
        check_bad_input(&["inspect", input, "--json"], true, &golden, &mut failures);
        check_bad_input(
            &["inspect", input, "--kernel"],
            true,
            &golden,
            &mut failures,
        );
    }
    failures.assert_none();
}

#[test]
fn usage_errors_exit_2() {
    let (code, stdout, stderr) = run_cli(&["kernel"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    let (code, _, _) = run_cli(&["no-such-subcommand"]);
    assert_eq!(code, 2);
}

#[test]
fn kernel_from_stdin_prints_the_same_module() {
    let text = std::fs::read(fixtures_dir().join("kernels/add.mlir")).unwrap();
    let (code, from_stdin, stderr) =
        run_cli_stdin(&["kernel", "-", "--generic", "--debug-info"], Some(&text));
    assert_eq!(code, 0, "{stderr}");
    let golden =
        std::fs::read(goldens_dir().join("add_basic/kernel_pre_serde.generic.mlir")).unwrap();
    assert!(from_stdin == golden, "{}", bytes_diff(&golden, &from_stdin));
}

/// Every `tpu-custom-call ...` line of the README's command-line section runs
/// and succeeds, in order, in a scratch folder that has `mlir-fixtures`.
#[test]
fn readme_command_lines_run() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("## Command line")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let commands: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("tpu-custom-call "))
        .collect();
    assert!(
        commands.len() >= 14,
        "README command lines: {}",
        commands.len()
    );
    let dir = std::env::temp_dir().join(format!("tcc-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root.join("mlir-fixtures"), dir.join("mlir-fixtures")).unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_tpu-custom-call"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Failures::new();
    let pretty_hlo = pretty_hlo_syntax();
    for command in &commands {
        // `estimate` runs libtpu.
        if command.contains(" estimate ") && tpu_custom_call::compile::find_libtpu(None).is_err() {
            eprintln!("SKIPPED README line (no libtpu.so): {command}");
            continue;
        }
        // `run` without `--call` (or `--signature`) runs @main through the
        // PJRT CPU plugin.
        if command.starts_with("tpu-custom-call run ")
            && !command.contains("--call")
            && !command.contains("--signature")
            && tpu_custom_call::pjrt::find_cpu_plugin(None).is_err()
        {
            eprintln!("SKIPPED README line (no PJRT CPU plugin): {command}");
            continue;
        }
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        // The lines reading JAX's pretty StableHLO need its syntax (issue 31);
        // without it, they must fail naming the op.
        if !pretty_hlo
            && String::from_utf8_lossy(&out.stderr).contains("` is in pretty (custom) form")
        {
            eprintln!("SKIPPED README line (no pretty StableHLO syntax in this build): {command}");
            continue;
        }
        // `validate` of the 64 MiB vmem_limit params on v6e (128 MiB) passes.
        failures.check(out.status.success(), || {
            format!("{command}\n{}", String::from_utf8_lossy(&out.stderr))
        });
    }
    failures.assert_none();
    // The outputs are what they claim: JAX's exact backend_config.
    let ctx = tpu_custom_call::Context::new();
    let jax = std::fs::read(dir.join("add.jax.mlir")).unwrap();
    let calls = tpu_custom_call::decode::find_calls(&ctx, &jax, "add.jax.mlir").unwrap();
    let golden = std::fs::read(goldens_dir().join("add_basic/backend_config.json")).unwrap();
    let ours = calls[0].backend_config.as_bytes();
    assert!(ours == golden.as_slice(), "{}", bytes_diff(&golden, ours));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The errors of `errors.json` that a PARAMS.json (or a target) can trigger,
/// through `emit`: exit 1, nothing written, JAX's message verbatim (read from
/// errors.json, not typed here).
#[test]
fn emit_reproduces_jax_errors_verbatim() {
    let errors: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(goldens_dir().join("errors.json")).unwrap())
            .unwrap();
    let message = |case: &str| -> String {
        errors
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["case"] == case)
            .and_then(|e| e["message"].as_str())
            .unwrap_or_else(|| panic!("errors.json has no {case}"))
            .to_string()
    };
    let add = goldens_dir().join("add_basic/kernel_pre_serde.generic.mlir");
    let barrier = goldens_dir().join("barrier_semaphore_tag/kernel_pre_serde.generic.mlir");
    let add_sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let one_sig = "(tensor<8x128xf32>) -> tensor<8x128xf32>";
    let cases: &[(&str, &std::path::Path, &str, &str)] = &[
        (
            "collective_id_without_custom_barrier",
            &add,
            add_sig,
            r#"{"collective_id": 3}"#,
        ),
        (
            "custom_barrier_without_collective_id",
            &barrier,
            one_sig,
            r#"{}"#,
        ),
        (
            "vmem_limit_bytes_float",
            &add,
            add_sig,
            r#"{"vmem_limit_bytes": 1.5}"#,
        ),
        (
            "vmem_limit_bytes_str_direct",
            &add,
            add_sig,
            r#"{"vmem_limit_bytes": "1024"}"#,
        ),
        (
            "explicit_tiling_on_tensorcore_direct",
            &add,
            add_sig,
            r#"{"tiling": "compact"}"#,
        ),
        (
            "explicit_tiling_sparse_core_on_tensorcore_direct",
            &add,
            add_sig,
            r#"{"tiling": "sparse_core"}"#,
        ),
        (
            "opt_level_on_tensorcore",
            &add,
            add_sig,
            r#"{"opt_level": "O1"}"#,
        ),
        (
            "use_tc_tiling_on_sc_on_tensorcore",
            &add,
            add_sig,
            r#"{"use_tc_tiling_on_sc": true}"#,
        ),
        (
            "use_tc_tiling_on_sc_false_on_tensorcore",
            &add,
            add_sig,
            r#"{"use_tc_tiling_on_sc": false}"#,
        ),
        (
            "flag_value_str",
            &add,
            add_sig,
            r#"{"flags": {"xla_tpu_flag": "yes"}}"#,
        ),
        (
            "flag_value_none",
            &add,
            add_sig,
            r#"{"flags": {"xla_tpu_flag": null}}"#,
        ),
        (
            "input_memory_space_semaphore_direct",
            &add,
            add_sig,
            r#"{"input_memory_spaces": ["semaphore_mem", null]}"#,
        ),
        (
            "invalid_side_effect_type",
            &add,
            add_sig,
            r#"{"has_side_effects": "yes"}"#,
        ),
        (
            "cost_estimate_non_int",
            &add,
            add_sig,
            r#"{"cost_estimate": {"flops": 1.5, "transcendentals": 0, "bytes_accessed": 0}}"#,
        ),
    ];
    let dir = std::env::temp_dir().join(format!("tcc-jax-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Failures::new();
    for (case, kernel, sig, params) in cases {
        let params_path = dir.join(format!("{case}.json"));
        std::fs::write(&params_path, params).unwrap();
        let out = dir.join(format!("{case}.out.mlir"));
        let (code, stdout, stderr) = run_cli(&[
            "emit",
            kernel.to_str().unwrap(),
            "--signature",
            sig,
            "--params",
            params_path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let expected = message(case);
        failures.check(
            code == 1 && stdout.is_empty() && !out.exists() && stderr.contains(&expected),
            || format!("{case}: exit {code}, expected `{expected}` in:\n{stderr}"),
        );
    }
    // The serde version limit, through --ir-version.
    let (code, _, stderr) = run_cli(&[
        "emit",
        add.to_str().unwrap(),
        "--signature",
        add_sig,
        "--ir-version",
        "19",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains(
            "The highest supported version is 18 but requested serialization at version 19"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    failures.assert_none();
}

/// `validate` reports every problem it finds, not just the first (exit 1),
/// and `ok` for good parameters (exit 0).
#[test]
fn validate_reports_every_problem() {
    let dir = std::env::temp_dir().join(format!("tcc-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("params.json");
    std::fs::write(&params, r#"{"vmem_limit_bytes": 300000000, "tiling": "compact", "collective_id": 3, "opt_level": "O2"}"#).unwrap();
    let kernel = fixtures_dir().join("kernels/add.mlir");
    let sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let (code, stdout, stderr) = run_cli(&[
        "validate",
        params.to_str().unwrap(),
        "--kernel",
        kernel.to_str().unwrap(),
        "--signature",
        sig,
        "--target",
        "v6e",
    ]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    let mut failures = Failures::new();
    for expected in [
        "3 problems",
        "warning: `vmem_limit_bytes` = 286.10 MiB (300000000 bytes) exceeds the 128 MiB of VMEM on v6e",
        "collective_id has to be unspecified or None when not using a custom barrier",
        "explicit tiling is only supported for SparseCore kernels.",
        "explicit opt_level is only supported for SparseCore kernels.",
    ] {
        failures.check(stderr.contains(expected), || {
            format!("missing `{expected}`")
        });
    }
    if !failures.is_empty() {
        failures.fail(format!("in:\n{stderr}"));
    }
    failures.assert_none();
    let good = fixtures_dir().join("params/add_basic.json");
    let (code, stdout, stderr) = run_cli(&[
        "validate",
        good.to_str().unwrap(),
        "--kernel",
        kernel.to_str().unwrap(),
        "--signature",
        sig,
        "--target",
        "v6e",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        "ok: JAX's rules and libtpu's for v6e (parameters, windows, single block, static and 32-bit types; lowering of 10 of the kernel's 11 ops); the call against kernel @_add_kernel: 3 operand(s) and result(s) whole against its arguments (no grid and no window_params: no blocks or index maps to check); scoped VMEM 12.0K of 32.00M (v6e's default limit); not checked: layouts and the lowering of tpu.vector_store (--compile-check asks libtpu)\n"
    );
    // A vmem_limit_bytes above the chip's VMEM (1 GiB on v5e's 128 MiB): a
    // warning, as libtpu compiles it; the ok line says which limit applies.
    let big = dir.join("big_limit.json");
    std::fs::write(&big, r#"{"vmem_limit_bytes": 1073741824}"#).unwrap();
    let (code, stdout, stderr) = run_cli(&[
        "validate",
        big.to_str().unwrap(),
        "--kernel",
        kernel.to_str().unwrap(),
        "--signature",
        sig,
        "--target",
        "v5e",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let stdout = String::from_utf8_lossy(&stdout);
    assert!(
        stdout.contains(
            "scoped VMEM 12.0K of 128.00M (v5e's usable VMEM: vmem_limit_bytes 1024.00M is above it)"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("default limit"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `validate MODULE`: every call of an emitted module (or JAX's) is decoded
/// and validated whole, each reported with what was checked; a call a chip
/// refuses is named with the problem.
#[test]
fn validate_takes_a_module() {
    let matmul = goldens_dir().join("matmul_grid/module.mlir");
    let (code, stdout, stderr) =
        run_cli(&["validate", matmul.to_str().unwrap(), "--target", "v5e"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        "tpu_custom_call #0 (kernel): ok: JAX's rules and libtpu's for v5e (parameters, windows, single block, static and 32-bit types; lowering of 23 of the kernel's 41 ops); the call against kernel @kernel: 3 operand(s) and result(s) against its arguments, 3 by block window, 3 index map(s) evaluated over grid (2, 3, 4); scoped VMEM 320.0K of 16.00M (v5e's default limit); compiles with libtpu 0.0.50 or newer (serialization version 15, `debug_locations` field, MLIR 24 encodings); not checked: layouts and the lowering of arith.cmpi, arith.constant, arith.extui, scf.if and 2 more op(s) (--compile-check asks libtpu)\n"
    );
    let sc = goldens_dir().join("sparsecore_vector_1core/module.mlir");
    let (code, stdout, stderr) = run_cli(&["validate", sc.to_str().unwrap(), "--target", "v5e"]);
    assert_eq!(code, 1, "{}", String::from_utf8_lossy(&stdout));
    assert!(
        stderr.contains("tpu_custom_call #0 (sc_copy): "),
        "{stderr}"
    );
    let (code, _, stderr) = run_cli(&["validate", matmul.to_str().unwrap(), "--kernel", "k.mlir"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("--kernel and --signature go with a PARAMS.json"),
        "{stderr}"
    );
}

/// `-o` onto something that is not a regular file writes into it: a FIFO stays
/// a FIFO (the atomic temp-file rename must not replace it, as it once replaced
/// `/dev/null`), and a symlink stays a link to the file that gets the output.
#[test]
fn output_to_fifos_and_symlinks_keeps_them() {
    use std::os::unix::fs::FileTypeExt;
    let dir = std::env::temp_dir().join(format!("tcc-special-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let add = "mlir-fixtures/kernels/add.mlir";
    let sig = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>";
    let emit = |out: Option<&std::path::Path>| {
        let mut args = vec!["emit", add, "--signature", sig];
        args.extend(
            out.map(|p| ["-o", p.to_str().unwrap()])
                .into_iter()
                .flatten(),
        );
        let (code, stdout, stderr) = run_cli(&args);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let expected = emit(None);

    let fifo = dir.join("out.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    emit(Some(&fifo));
    // Checked before joining: a replaced FIFO would leave the reader blocked.
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    let read = reader.join().unwrap();
    assert!(read == expected, "{}", bytes_diff(&expected, &read));

    let real = dir.join("real.mlir");
    std::fs::write(&real, "old").unwrap();
    let link = dir.join("link.mlir");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    emit(Some(&link));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let written = std::fs::read(&real).unwrap();
    assert!(written == expected, "{}", bytes_diff(&expected, &written));
    // A dangling link gets the file it names created.
    std::fs::remove_file(&real).unwrap();
    emit(Some(&link));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let written = std::fs::read(&real).unwrap();
    assert!(written == expected, "{}", bytes_diff(&expected, &written));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `emit` prints every validation error, each on its own `error:` line
/// (exit 1, nothing on stdout), in check order.
#[test]
fn emit_prints_every_validation_error() {
    let dir = std::env::temp_dir().join(format!("tcc-emit-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("params.json");
    std::fs::write(
        &params,
        r#"{"tiling": "compact", "collective_id": 3, "opt_level": "O2"}"#,
    )
    .unwrap();
    let kernel = fixtures_dir().join("kernels/add.mlir");
    let (code, stdout, stderr) = run_cli(&[
        "emit",
        kernel.to_str().unwrap(),
        "--signature",
        ADD_SIGNATURE,
        "--params",
        params.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    let lines: Vec<&str> = stderr.lines().collect();
    let mut failures = Failures::new();
    for expected in [
        "collective_id has to be unspecified or None when not using a custom barrier",
        "explicit tiling is only supported for SparseCore kernels.",
        "explicit opt_level is only supported for SparseCore kernels.",
    ] {
        failures.check(
            lines
                .iter()
                .any(|l| l.starts_with("error: ") && l.contains(expected)),
            || format!("no `error: ...{expected}` line"),
        );
    }
    if !failures.is_empty() {
        failures.fail(format!("in:\n{stderr}"));
    }
    failures.assert_none();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("error: ")).count(),
        3,
        "{stderr}"
    );
}
