//! The command line, run as a user would: exit codes, stdout, stderr.

use crate::common::*;

/// Every file in `mlir-fixtures/bad/` fails to load with exit code 1, nothing
/// on stdout, no output file, and the stderr blessed in its `.stderr` sibling.
#[test]
fn bad_kernel_inputs_fail_cleanly() {
    let dir = fixtures_dir().join("bad");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_none_or(|e| e != "stderr"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 8, "bad-input fixtures missing");
    let out_dir = std::env::temp_dir().join(format!("tcc-bad-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for input in inputs {
        let rel = format!(
            "mlir-fixtures/bad/{}",
            input.file_name().unwrap().to_string_lossy()
        );
        let out_file = out_dir.join("out.mlir");
        let (code, stdout, stderr) = run_cli(&["kernel", &rel, "-o", out_file.to_str().unwrap()]);
        assert_eq!(code, 1, "{rel}: exit code; stderr: {stderr}");
        assert!(stdout.is_empty(), "{rel}: wrote to stdout");
        assert!(!out_file.exists(), "{rel}: left an output file");
        let golden = input.with_file_name(format!(
            "{}.stderr",
            input.file_name().unwrap().to_string_lossy()
        ));
        if let Some(diff) = check_golden(&golden, &stderr) {
            failures.push(diff);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
    assert_eq!(from_stdin, golden);
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
    let mut failures = Vec::new();
    for command in &commands {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        // `validate` of the 64 MiB vmem_limit params on v6e (128 MiB) passes.
        if !out.status.success() {
            failures.push(format!(
                "{command}\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The outputs are what they claim: JAX's exact backend_config.
    let ctx = tpu_custom_call::Context::new();
    let jax = std::fs::read(dir.join("add.jax.mlir")).unwrap();
    let calls = tpu_custom_call::decode::find_calls(&ctx, &jax, "add.jax.mlir").unwrap();
    let golden = std::fs::read(goldens_dir().join("add_basic/backend_config.json")).unwrap();
    assert_eq!(calls[0].backend_config.as_bytes(), golden.as_slice());
    std::fs::remove_dir_all(&dir).unwrap();
}
