//! `tpu-custom-call run MODULE` without `--call`: the module's `@main` run
//! whole (`tpu_custom_call::program`), one `.npy` per argument and result.

use std::path::{Path, PathBuf};

use serde_json::json;
use tpu_custom_call::Context;
use tpu_custom_call::exec::{self, Array, CallShape, TensorType, host, npy};
use tpu_custom_call::program::{Outputs, Program, ProgramError, ProgramOptions};

use super::run::{Args, summary};
use super::{CliResult, read_input, source_name};

/// Runs `@main` with the flags of `run`.
pub fn run(args: &Args, budget: Option<u64>) -> CliResult {
    let bytes = read_input(&args.input)?;
    let name = source_name(&args.input);
    let ctx = Context::new();
    let mut run = args.run_options(budget)?;
    run.progress = None;
    let options = ProgramOptions {
        run,
        devices: args.devices,
        plugin: args.pjrt_plugin.clone(),
        ..ProgramOptions::default()
    };
    let program = Program::load(&ctx, &bytes, &name, &options).map_err(|e| {
        let hint = if matches!(e, ProgramError::Xla(_))
            && e.to_string().contains("plugin was not found")
        {
            " (without it, `run --call N` runs one call alone on the executor)"
        } else {
            ""
        };
        format!("{e}{hint}")
    })?;
    // @main's arguments and results (host arrays and XLA's copies) must fit
    // before anything is allocated.
    let sig = program.signature();
    let shape = CallShape {
        operands: sig
            .arguments
            .iter()
            .filter_map(|t| TensorType::parse(t))
            .collect(),
        results: sig
            .results
            .iter()
            .filter_map(|t| TensorType::parse(t))
            .collect(),
        aliases: Vec::new(),
    };
    let need = host::host_bytes(&shape, 1);
    if let Some(max) = budget
        && need > u128::from(max)
    {
        return Err(format!(
            "{name}: @main's arguments and results need {:.1} GiB here (host arrays and their copies), \
             over the {:.1} GiB this run may use (--max-memory, default 80% of the memory available)",
            need as f64 / 2f64.powi(30),
            max as f64 / 2f64.powi(30)
        ));
    }
    let seed = args.seed.unwrap_or(0);
    let random = args.inputs.is_empty();
    let inputs = if random {
        let types: Vec<TensorType> = program
            .signature()
            .arguments
            .iter()
            .filter_map(|t| TensorType::parse(t))
            .collect();
        let shape = CallShape {
            operands: types,
            results: Vec::new(),
            aliases: Vec::new(),
        };
        exec::random_inputs(&shape, seed).map_err(|e| format!("{name}: {e}"))?
    } else {
        read_inputs(&program, &args.inputs)?
    };
    let mut outputs = program.run(&inputs).map_err(|e| e.to_string())?;
    let mut later = Vec::new();
    for _ in 1..args.repeat {
        let again = program.run(&inputs).map_err(|e| e.to_string())?;
        later.push(again.report.run_seconds);
        outputs.report.calls = again.report.calls;
    }
    later.sort_by(f64::total_cmp);
    let comparisons = match &args.compare {
        Some(dir) => host::compare_with_dir(&outputs.results, dir, args.rtol, args.atol)
            .map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    if let Some(dir) = &args.output {
        let mut files: Vec<(String, &Array)> = outputs
            .results
            .iter()
            .enumerate()
            .map(|(k, r)| (format!("result{k}.npy"), r))
            .collect();
        if random {
            files.extend(
                inputs
                    .iter()
                    .enumerate()
                    .map(|(k, a)| (format!("input{k}.npy"), a)),
            );
        }
        write_dir(dir, &files)?;
    }
    print(
        args,
        &name,
        random.then_some(seed),
        &outputs,
        &later,
        &comparisons,
    );
    let failed: Vec<String> = comparisons
        .iter()
        .filter_map(|c| {
            c.mismatch.as_ref().map(|m| {
                format!(
                    "result {} differs from {}: {m}",
                    c.result,
                    c.reference.display()
                )
            })
        })
        .collect();
    if !failed.is_empty() {
        return Err(format!("{name}: {}", failed.join("; ")));
    }
    Ok(())
}

/// Reads one `.npy` per argument of `@main`, typed as the argument.
fn read_inputs(program: &Program, paths: &[PathBuf]) -> Result<Vec<Array>, String> {
    let args = &program.signature().arguments;
    if paths.len() != args.len() {
        return Err(format!(
            "{}: @main takes {} argument(s), {} --input given",
            program.name(),
            args.len(),
            paths.len()
        ));
    }
    paths
        .iter()
        .zip(args)
        .enumerate()
        .map(|(k, (p, t))| {
            let elem = TensorType::parse(t).map(|t| t.elem).ok_or_else(|| {
                format!("{}: argument {k} of @main has type `{t}`", program.name())
            })?;
            npy::read(p, elem).map_err(|e| e.to_string())
        })
        .collect()
}

/// Writes `files` into `dir` all or nothing: into a fresh folder beside it
/// that is renamed into place (or, when `dir` exists, a hidden folder in it
/// whose files are then moved in).
fn write_dir(dir: &Path, files: &[(String, &Array)]) -> CliResult {
    let exists = dir.is_dir();
    let staging = if exists {
        dir.join(format!(".tcc-run.tmp{}", std::process::id()))
    } else {
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let leaf = dir
            .file_name()
            .ok_or_else(|| format!("{}: not a folder path", dir.display()))?;
        parent.join(format!(
            ".{}.tmp{}",
            leaf.to_string_lossy(),
            std::process::id()
        ))
    };
    let result = (|| -> Result<(), String> {
        std::fs::create_dir_all(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
        for (file, a) in files {
            npy::write(&staging.join(file), a).map_err(|e| e.to_string())?;
        }
        if exists {
            for (file, _) in files {
                std::fs::rename(staging.join(file), dir.join(file))
                    .map_err(|e| format!("{}: {e}", dir.join(file).display()))?;
            }
            let _ = std::fs::remove_dir(&staging);
        } else {
            std::fs::rename(&staging, dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Prints the run: one JSON object with `--json`, else a line per result
/// and per call.
fn print(
    args: &Args,
    name: &str,
    random: Option<u64>,
    out: &Outputs,
    later: &[f64],
    comparisons: &[host::Comparison],
) {
    let r = &out.report;
    let later_median = later.get(later.len() / 2).copied();
    if args.json {
        let doc = json!({
            "module": name,
            "devices": r.devices,
            "random_inputs": random,
            "decode_seconds": r.decode_seconds,
            "xla_compile_seconds": r.compile_seconds,
            "run_seconds": r.run_seconds,
            "later_run_seconds": later_median,
            "calls": r.calls.iter().map(|c| json!({
                "index": c.index,
                "kernel": c.kernel,
                "location": c.location,
                "runs": c.runs,
                "executor_seconds": c.seconds,
                "decode_seconds": c.decode_seconds,
                "unwritten_elements": c.unwritten,
            })).collect::<Vec<_>>(),
            "results": out.results.iter().enumerate().map(|(k, a)| json!({
                "index": k,
                "dtype": a.elem.to_string(),
                "shape": a.shape,
                "path": args.output.as_ref().map(|d| d.join(format!("result{k}.npy")).display().to_string()),
            })).collect::<Vec<_>>(),
            "compare": args.compare.as_ref().map(|_| comparisons.iter().map(|c| json!({
                "result": c.result,
                "reference": c.reference.display().to_string(),
                "equal": c.mismatch.is_none(),
                "mismatch": c.mismatch,
            })).collect::<Vec<_>>()),
        });
        println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return;
    }
    if let Some(seed) = random {
        eprintln!(
            "note: random inputs (seed {seed}){}",
            if args.output.is_some() {
                ", written as input<k>.npy beside the results"
            } else {
                ""
            }
        );
    }
    for (k, a) in out.results.iter().enumerate() {
        println!("result {k}: {}", summary(a));
    }
    for c in &r.calls {
        let mut line = format!(
            "call {} ({}){}: {} run(s), {:.4} s in the executor",
            c.index,
            c.kernel,
            c.location
                .as_ref()
                .map(|l| format!(" at {l}"))
                .unwrap_or_default(),
            c.runs,
            c.seconds
        );
        for (k, u) in c.unwritten.iter().enumerate() {
            if let Some(n) = u {
                line.push_str(&format!("; result {k}: {n} element(s) never written"));
            }
        }
        println!("{line}");
    }
    println!(
        "time: decode {:.4} s, XLA compile {:.4} s, run {:.4} s{}",
        r.decode_seconds,
        r.compile_seconds,
        r.run_seconds,
        later_median
            .map(|m| format!(", later runs {m:.4} s (median of {})", later.len()))
            .unwrap_or_default()
    );
    for c in comparisons.iter().filter(|c| c.mismatch.is_none()) {
        println!("result {}: equal to {}", c.result, c.reference.display());
    }
}
