//! Compiles the C++ of `cpp/` against the LLVM 22 headers: the pass-through
//! dialects and C API gap fillers (`passthrough.cpp`), their custom assembly
//! (`asm_format.cpp`), the pass registration (`passes.cpp`), the
//! serialization / printing loops (`serde.cpp`), the upstream attributes the
//! C API cannot build (`upstream.cpp`) and what the mlir-opt plugin needs from
//! C++ (`plugin.cpp`) and the compiled engine's vector bufferization
//! (`vecloops.cpp`, the `tcc-bufferize-vectors` pass) and f32 math
//! (`mathapprox.cpp`, the `tcc-approximate-math` pass).
//! Nothing else happens here: MLIR itself is linked by mlir-sys.

use std::path::PathBuf;

fn main() {
    let prefix = PathBuf::from(
        std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string()),
    );
    let include = prefix.join("include");
    if !include.join("mlir/IR/Dialect.h").exists() {
        panic!(
            "MLIR 22 headers not found under {}: run scripts/install-deps.sh \
             (or set MLIR_SYS_220_PREFIX)",
            include.display()
        );
    }
    println!("cargo:rerun-if-changed=cpp/tcc.h");
    println!("cargo:rerun-if-changed=cpp/passthrough.cpp");
    println!("cargo:rerun-if-changed=cpp/asm_format.h");
    println!("cargo:rerun-if-changed=cpp/asm_format.cpp");
    println!("cargo:rerun-if-changed=cpp/passes.cpp");
    println!("cargo:rerun-if-changed=cpp/serde.cpp");
    println!("cargo:rerun-if-changed=cpp/interop.cpp");
    println!("cargo:rerun-if-changed=cpp/upstream.cpp");
    println!("cargo:rerun-if-changed=cpp/plugin.cpp");
    println!("cargo:rerun-if-changed=cpp/verify.cpp");
    println!("cargo:rerun-if-changed=cpp/vecloops.cpp");
    println!("cargo:rerun-if-changed=cpp/mathapprox.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    cc::Build::new()
        .cpp(true)
        .file("cpp/passthrough.cpp")
        .file("cpp/asm_format.cpp")
        .file("cpp/passes.cpp")
        .file("cpp/serde.cpp")
        .file("cpp/interop.cpp")
        .file("cpp/upstream.cpp")
        .file("cpp/plugin.cpp")
        .file("cpp/verify.cpp")
        .file("cpp/vecloops.cpp")
        .file("cpp/mathapprox.cpp")
        .include(&include)
        .include("cpp")
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-comment")
        .warnings(false)
        .compile("tcc_passthrough");
}
