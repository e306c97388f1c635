// The C interface between tpu-custom-call's C++ (this directory) and its Rust
// (src/ffi.rs declares the same functions, each with its safety contract).
// Every function here fills one gap of MLIR's C API and nothing more.

#ifndef TCC_H
#define TCC_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ----- passthrough.cpp: dialects and C API gap fillers -----

/// The properties of `op` as one attribute, or null when it has none.
MlirAttribute tcc_operation_get_properties(MlirOperation op);
/// Fills a registered op's missing default-valued properties.
void tcc_operation_populate_default_properties(MlirOperation op);
/// Replaces the properties of `op` with `attr`; false if the op rejects it.
bool tcc_operation_set_properties(MlirOperation op, MlirAttribute attr);
/// Whether `op` is a registered operation (known to a loaded dialect).
bool tcc_operation_is_registered(MlirOperation op);
/// The text after `#tpu.` of a pass-through `tpu` attribute; null otherwise.
MlirStringRef tcc_tpu_attr_text(MlirAttribute attr);
/// The pass-through `tpu` attribute `#tpu.<text>`, as parsing it gives.
MlirAttribute tcc_tpu_attr_get(MlirContext ctx, MlirStringRef text);
/// The pass-through `tpu` type `!tpu.<text>`.
MlirType tcc_tpu_type_get(MlirContext ctx, MlirStringRef text);
/// The producer string the bytecode writer uses by default (static).
const char *tcc_default_producer(void);
/// The bytecode format version this MLIR writes by default.
int64_t tcc_current_bytecode_version(void);
/// A number naming `ctx` for as long as it lives, never reused for another
/// context in this process (0: the `tpu` dialect is not loaded in it).
uint64_t tcc_context_serial(MlirContext ctx);
/// Prints `type` as `mlirTypePrint` does, handing the whole text to
/// `callback` at once (through a printer state the context keeps).
void tcc_print_type(MlirType type, MlirStringCallback callback, void *user_data);
/// Prints `attr` as `mlirAttributePrint` does, handing the whole text to
/// `callback` at once (through a printer state the context keeps).
void tcc_print_attribute(MlirAttribute attr, MlirStringCallback callback,
                         void *user_data);

// ----- upstream.cpp: upstream dialects' attributes -----

/// `#vector.kind<..>` of the `vector::CombiningKind` numbered `kind` (the
/// vector dialect must be loaded in `ctx`); null for an unknown number.
MlirAttribute tcc_vector_combining_kind_get(MlirContext ctx, uint32_t kind);

// ----- interop.cpp: bytecode exchanged with other MLIRs -----

/// A detached copy of `op` whose unregistered ops carry their properties as
/// discardable attributes; null when no op has properties, or (with
/// `*conflict_op` set) when an op's properties cannot be moved.
MlirOperation tcc_properties_as_attributes(MlirOperation op,
                                           MlirOperation *conflict_op);
/// Parses MLIR text into a module, naming the buffer `name` in locations;
/// null on failure. `source` must be followed by a NUL byte in memory.
MlirModule tcc_parse_module_named(MlirContext ctx, MlirStringRef source,
                                  MlirStringRef name);
/// Replaces every file location of `file` in `op` (nested included) by
/// `loc(unknown)`.
void tcc_forget_file_locations(MlirOperation op, MlirStringRef file);
/// Whether `ctx` reads the dialect `ns`'s own bytecode encoding.
bool tcc_dialect_reads_bytecode(MlirContext ctx, MlirStringRef ns);

// ----- serde.cpp: serialization and printing loops -----

/// The mangled copy of the kernel module `kernel` (owned by the caller), with
/// `found(copy, name index, user_data)` for each op named in `rule_names`.
MlirOperation tcc_serde_mangle(MlirOperation kernel, int64_t version,
                               const MlirStringRef *rule_names,
                               intptr_t num_rule_names,
                               void (*found)(MlirOperation, intptr_t, void *),
                               void *user_data);
/// Replaces every location slot of `module` by `loc(unknown)`; with
/// `collect`, returns the replaced locations as an array attribute.
MlirAttribute tcc_serde_take_locations(MlirOperation module, bool collect);
/// Prints `op` as text, handing the whole text to `callback` at once.
void tcc_print_operation(MlirOperation op, bool generic, bool debug_info,
                         bool assume_verified, MlirStringCallback callback,
                         void *user_data);
/// Writes `op` as bytecode; false when the writer refuses (its diagnostics go
/// to the context's handlers, where the Rust side collects them).
bool tcc_write_bytecode(MlirOperation op, MlirStringRef producer,
                        int64_t version, MlirStringCallback callback,
                        void *user_data);

// ----- verify.cpp: MLIR's verifier, repeated ops checked once -----

/// `mlirModuleCreateParse` (text or bytecode; `source` followed by a NUL in
/// memory), verified by the memoizing verifier: MLIR's verdict and
/// diagnostics; null on failure.
MlirModule tcc_parse_module(MlirContext ctx, MlirStringRef source);
/// `mlirOperationVerify` with the memoizing verifier.
bool tcc_operation_verify(MlirOperation op);
/// A hash of `op`'s name, attribute dictionary, properties, operand and
/// result types and parent op.
uint64_t tcc_op_signature_hash(MlirOperation op);
/// Whether `a` and `b` agree in all that `tcc_op_signature_hash` hashes.
bool tcc_op_same_signature(MlirOperation a, MlirOperation b);
/// Whether `value` is an `arith.constant` integer or index of at most 64
/// bits; its value in `*out`.
bool tcc_value_int_constant(MlirValue value, int64_t *out);
/// Every op of `root` (itself first) in pre-order, each as `{op, name
/// identifier, pre-order end of its subtree, post-order rank}`, handed to
/// `done` in one array of `count` entries.
void tcc_op_index(MlirOperation root,
                  void (*done)(const void *entries, size_t count, void *user),
                  void *user);

// ----- passes.cpp: pass registration -----

/// The options of `tpu-custom-call-lower`, as data. Strings are not
/// NUL-terminated; an empty string (and `ir_version` = INT32_MIN) means "not
/// given".
typedef struct TccLowerPassOptions {
  int64_t ir_version;
  MlirStringRef debug_locations;
  MlirStringRef target;
  MlirStringRef producer;
  bool jax_rules_only;
  MlirStringRef libtpu_version;
} TccLowerPassOptions;

/// The options of `tpu-custom-call-verify`, as data (`target` empty: none).
typedef struct TccVerifyPassOptions {
  MlirStringRef target;
  bool compile;
  bool jax_rules_only;
} TccVerifyPassOptions;

/// Registers the passes (`tpu-custom-call-lower`, `-verify` and
/// `tcc-bufferize-vectors`) with MLIR's global pass registry. Call once.
void tcc_register_passes(void);
/// A new lower pass with default options (owned by the caller).
MlirPass tcc_create_lower_pass(void);
/// A new verify pass with default options (owned by the caller).
MlirPass tcc_create_verify_pass(void);
/// Emits `message` as a warning diagnostic at `location` (the C API has
/// `mlirEmitError` only).
void tcc_emit_warning(MlirLocation location, MlirStringRef message);

// ----- vecloops.cpp: the compiled engine's vector bufferization -----

/// Registers `tcc-bufferize-vectors` with MLIR's global pass registry (called
/// by `tcc_register_passes`).
void tcc_register_bufferize_vectors_pass(void);
/// A new `tcc-bufferize-vectors` pass (owned by the caller).
MlirPass tcc_create_bufferize_vectors_pass(void);
/// Runs `tcc-bufferize-vectors` on every `func.func` of the `builtin.module`
/// `module`: vector values wider than 64 bytes become memref buffers and
/// loop nests over native-width vectors (docs/jit.md). Returns false, with
/// an error diagnostic on the offending op, when a function holds an op the
/// pass does not handle on a big vector; the module is then partly
/// rewritten and must be discarded.
bool tcc_jit_bufferize_vectors(MlirOperation module);

// ----- mathapprox.cpp: the compiled engine's f32 math -----

/// Registers `tcc-approximate-math` with MLIR's global pass registry (called
/// by `tcc_register_passes`).
void tcc_register_approximate_math_pass(void);
/// Runs `tcc-approximate-math` on the `builtin.module` `module`: f32
/// `math.exp`/`log`/`tanh`/`erf` become MLIR's polynomial approximations
/// (docs/jit.md). False, with an error diagnostic, if the rewrite fails.
bool tcc_jit_approximate_math(MlirOperation module);

// ----- implemented in Rust (src/pretty/ops.rs) -----

/// One entry of the crate's `tpu` op table (src/pretty/ops.rs `OpDef`, each
/// field in that file's mini-language).
typedef struct TccTpuOpDef {
  MlirStringRef name, operands, results, attrs, implied, format;
  bool segments;
} TccTpuOpDef;
/// The crate's `tpu` op table (alive for the process); writes its length to
/// `count`. asm_format.cpp reads it once: MLIR's parser then reads those
/// ops' custom form.
const TccTpuOpDef *tcc_rust_tpu_op_table(size_t *count);

// ----- implemented in Rust (src/pass.rs) -----

/// Runs `tpu-custom-call-lower` on the module `op`. Returns false when the
/// pass fails (it has emitted its diagnostics on the op).
bool tcc_rust_run_lower_pass(MlirOperation op,
                             const TccLowerPassOptions *options);
/// Runs `tpu-custom-call-verify` on the module `op`; with `compile`, also
/// compiles it with libtpu for `target` (in a worker process).
bool tcc_rust_run_verify_pass(MlirOperation op,
                              const TccVerifyPassOptions *options);

#ifdef __cplusplus
}
#endif

#endif // TCC_H
