//! The equality sweep of the compiled engine against the interpreter on
//! folders of cases (`scripts/jit-equality.sh` runs it; docs/jit.md,
//! "Equality"). Each argument is a case folder (with `module.mlir`) or a
//! folder of them. Prints one line per case and the counts: calls compiled,
//! fell back (by reason), equal, differing; exits 1 if any case differs.
//!
//!     cargo run --example jit_equality -- tests/data/exec-gen /tmp/gen7

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use tpu_custom_call::exec::equality::{fallback_class, sweep_case};

fn main() -> ExitCode {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for arg in std::env::args_os().skip(1) {
        let p = PathBuf::from(arg);
        if p.join("module.mlir").is_file() {
            dirs.push(p);
        } else {
            let Ok(rd) = std::fs::read_dir(&p) else {
                eprintln!("jit_equality: {} is not a folder", p.display());
                return ExitCode::from(2);
            };
            let mut found: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("module.mlir").is_file())
                .collect();
            found.sort();
            dirs.extend(found);
        }
    }
    let (mut calls, mut compiled, mut equal, mut equal_errors, mut not_run) = (0, 0, 0, 0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut differ: Vec<String> = Vec::new();
    for dir in &dirs {
        let name = dir.display();
        let started = std::time::Instant::now();
        match sweep_case(dir) {
            Err(e) => {
                not_run += 1;
                println!("{name}: not run: {e}");
            }
            Ok(o) => {
                calls += o.calls;
                compiled += o.compiled;
                for f in &o.fallbacks {
                    *reasons.entry(fallback_class(f)).or_default() += 1;
                }
                let verdict = match (&o.difference, &o.error) {
                    (Some(d), _) => {
                        differ.push(format!("{name}: {d}"));
                        format!("DIFFERS: {d}")
                    }
                    (None, Some(e)) => {
                        equal_errors += 1;
                        format!("equal (both fail: {e})")
                    }
                    (None, None) => {
                        equal += 1;
                        "equal".to_string()
                    }
                };
                let fell = o
                    .fallbacks
                    .first()
                    .map(|f| format!(", fell back: {}", fallback_class(f)))
                    .unwrap_or_default();
                println!(
                    "{name}: {}/{} compiled{fell}, bound {} ulp, {verdict} ({:.2} s)",
                    o.compiled,
                    o.calls,
                    o.bound,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    println!(
        "jit equality: {} cases ({not_run} not run), {calls} calls: {compiled} compiled, {} fell back; \
         {equal} cases equal, {equal_errors} equal errors, {} differ",
        dirs.len(),
        calls - compiled,
        differ.len()
    );
    for (r, n) in &reasons {
        println!("  fell back: {n:4}  {r}");
    }
    for d in &differ {
        println!("  DIFFERS {d}");
    }
    if differ.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
