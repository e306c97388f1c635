//! Shared test helpers: where the reference material is, golden cases, blessing.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared` beside the repository (or `TCC_SHARED_DIR`).
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("TCC_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// The JAX goldens folder.
pub fn goldens_dir() -> PathBuf {
    shared_dir().join("jax-goldens")
}

/// Every golden case folder (those with a `case.json`), sorted by name.
pub fn golden_cases() -> Vec<PathBuf> {
    let dir = goldens_dir();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read goldens at {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.join("case.json").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 30,
        "expected the JAX goldens, found {} cases",
        cases.len()
    );
    cases
}

/// The case's folder name.
pub fn case_name(case: &Path) -> String {
    case.file_name().unwrap().to_string_lossy().into_owned()
}

/// This repository's `mlir-fixtures` folder.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir-fixtures")
}

/// The python of the jaxref venv, when it is set up (`REFCHECK_VENV`, else
/// `../shared/jaxref/.venv`); `None` prints why the caller is skipping.
pub fn jaxref_python(test: &str) -> Option<PathBuf> {
    let venv = std::env::var_os("REFCHECK_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| shared_dir().join("jaxref/.venv"));
    let python = venv.join("bin/python");
    if python.is_file() {
        Some(python)
    } else {
        eprintln!(
            "SKIPPED {test}: real jaxlib not set up (no {}); run `bash ../shared/jaxref/setup.sh` \
             or set REFCHECK_VENV",
            python.display()
        );
        None
    }
}
