//! Leak-checker canary for `scripts/leak-check.sh`: loads a kernel and
//! forgets its module (an MLIR operation tree) without destroying it. Under
//! LeakSanitizer this must be reported (exit code 23): that proves the
//! checker sees MLIR's allocations even though MLIR is linked statically.
//! (A leaked *context* is not reported: MLIR keeps it reachable from
//! thread-local caches.) Not a part of the library.

/// Loads a kernel and leaks its module on purpose.
#[inline(never)]
fn leak_a_module(ctx: &tpu_custom_call::Context) {
    let text = "func.func @f() {\n  return\n}\n";
    let kernel = tpu_custom_call::Kernel::from_text(ctx, text, "canary").expect("canary kernel");
    std::mem::forget(kernel.into_module());
}

/// Overwrites the stack the call above used, so no stale copy of the
/// context's pointer keeps it reachable (LeakSanitizer scans stacks
/// conservatively).
#[inline(never)]
fn clobber_stack() {
    let zeros = std::hint::black_box([0u8; 256 * 1024]);
    std::hint::black_box(&zeros);
}

fn main() {
    let ctx = tpu_custom_call::Context::new();
    leak_a_module(&ctx);
    clobber_stack();
}
