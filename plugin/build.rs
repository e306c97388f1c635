//! Links the plugin against the host's MLIR as shared libraries.
//!
//! mlir-sys links MLIR statically unless `MLIR_SYS_LINK_SHARED=1`; in shared
//! mode it asks for `libMLIR` (Debian ships it: `libMLIR.so.22.1`, the MLIR
//! `mlir-opt-22` runs on) and `libMLIR-C`, which Debian does not ship: the C
//! API comes only as static archives (`libMLIRCAPI*.a`, position-independent).
//! This writes a `libMLIR-C.so` *linker script* naming those archives, so the
//! C API functions the crate calls are copied into the plugin while every
//! MLIR class, TypeID and registry they use is the host's `libMLIR.so`: one
//! MLIR in the process. `make plugin` (scripts/build-plugin.sh) sets the
//! environment.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    if std::env::var("MLIR_SYS_LINK_SHARED").as_deref() != Ok("1") {
        panic!(
            "the plugin must link MLIR as a shared library: build it with `make plugin` \
             (scripts/build-plugin.sh), which sets MLIR_SYS_LINK_SHARED=1 and its own target folder"
        );
    }
    let prefix = PathBuf::from(
        std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string()),
    );
    let config = prefix.join("bin/llvm-config");
    let version = std::process::Command::new(&config)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| panic!("cannot run {}: install llvm-22-dev", config.display()));
    if !version.starts_with("22.") {
        panic!(
            "{} is LLVM {version}; the plugin needs LLVM 22",
            config.display()
        );
    }
    let lib = prefix.join("lib");
    let mut archives: Vec<PathBuf> = std::fs::read_dir(&lib)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", lib.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libMLIRCAPI") && n.ends_with(".a"))
        })
        .collect();
    archives.sort();
    if archives.is_empty() {
        panic!(
            "no MLIR C API archives (libMLIRCAPI*.a) in {}: install libmlir-22-dev",
            lib.display()
        );
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let names: Vec<String> = archives.iter().map(|p| p.display().to_string()).collect();
    let script = format!(
        "/* The MLIR C API from its static archives (see plugin/build.rs). */\nGROUP ( {} )\n",
        names.join(" ")
    );
    std::fs::write(out.join("libMLIR-C.so"), script).expect("write the linker script");
    println!("cargo:rustc-link-search=native={}", out.display());
    // The host has libMLIR loaded already; the run path only makes the plugin
    // loadable by tools that do not (`ldd`, a test program).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-rpath,{}", lib.display());
    // A symbol the plugin needs and the host lacks is an error at link time,
    // not a failed dlopen.
    println!("cargo:rustc-cdylib-link-arg=-Wl,--no-undefined");
}
