// What the mlir-opt plugin (plugin/, built by `make plugin`) needs from C++:
// the dialects it registers with the host's DialectRegistry, its passes, and a
// check that the host runs the MLIR the plugin was built against.
//
// The plugin's entry points (`mlirGetDialectPluginInfo`,
// `mlirGetPassPluginInfo`) are defined in Rust (plugin/src/lib.rs): a Rust
// cdylib exports only its own `#[no_mangle]` symbols. They call these.

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir-c/IR.h"
#include "llvm/Config/llvm-config.h"
#include "asm_format.h"
#include "tcc.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <string>

// `22.1`: the version in the soname of Debian's libMLIR.so.22.1.
#define TCC_STRINGIFY_(x) #x
#define TCC_STRINGIFY(x) TCC_STRINGIFY_(x)
#define TCC_LLVM_SONAME_VERSION                                                \
  TCC_STRINGIFY(LLVM_VERSION_MAJOR) "." TCC_STRINGIFY(LLVM_VERSION_MINOR)


namespace tcc {
namespace placeholder {

/// `tpu_custom_call`: the dialect of the `tpu_custom_call.call` placeholder
/// the lower pass replaces. The crate's contexts allow unregistered dialects;
/// mlir-opt does not (without `--allow-unregistered-dialect`), so the plugin
/// registers the namespace, op-less, allowing its unknown ops.
class Dialect : public mlir::Dialect {
public:
  explicit Dialect(mlir::MLIRContext *context)
      : mlir::Dialect(getDialectNamespace(), context,
                      mlir::TypeID::get<Dialect>()) {
    allowUnknownOperations();
  }
  static llvm::StringRef getDialectNamespace() { return "tpu_custom_call"; }
};

} // namespace placeholder
} // namespace tcc

MLIR_DECLARE_EXPLICIT_TYPE_ID(tcc::placeholder::Dialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(tcc::placeholder::Dialect)

namespace {

/// The shared object file that defines `address`, or "" if none.
std::string objectOf(void *address) {
  Dl_info info;
  if (address && dladdr(address, &info) && info.dli_fname)
    return info.dli_fname;
  return "";
}

/// Every loaded `libMLIR.so*` other than `ours` (a second MLIR in the process).
int otherMlir(struct dl_phdr_info *info, size_t, void *data) {
  auto *found = static_cast<std::string *>(data);
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  const char *base = std::strrchr(name, '/');
  base = base ? base + 1 : name;
  if (std::strncmp(base, "libMLIR.so", 10) == 0 &&
      std::strcmp(base, "libMLIR.so." TCC_LLVM_SONAME_VERSION) != 0 &&
      found->empty())
    *found = name;
  return 0;
}

} // namespace

extern "C" {

/// Registers the plugin's dialects with the host's registry (an
/// `mlir::DialectRegistry *`): `tpu`, `stablehlo`, `sdy` and `chlo` (the pass-through
/// dialects every crate context loads, with their custom assembly) and the
/// `tpu_custom_call` placeholder namespace.
void tcc_plugin_register_dialects(void *host) {
  auto *registry = static_cast<mlir::DialectRegistry *>(host);
  tcc_register_passthrough_dialects(*registry);
  registry->insert<tcc::placeholder::Dialect>();
}

/// Writes into `message` (size `size`) why the host process cannot use the
/// plugin, and returns true; returns false if it can. The plugin links
/// `libMLIR.so.<major>.<minor>` of the LLVM it was built with; it works only
/// in a program whose MLIR is that very library (one MLIR, one set of
/// TypeIDs): Debian's `mlir-opt-22`. A program with another MLIR (another
/// version's `libMLIR.so`, or MLIR linked into the executable) would hand the
/// plugin objects of a different MLIR: a crash, not an error.
bool tcc_plugin_host_problem(char *message, size_t size) {
  const char *ours = "libMLIR.so." TCC_LLVM_SONAME_VERSION;
  std::string problem;
  std::string other;
  dl_iterate_phdr(otherMlir, &other);
  if (!other.empty()) {
    problem = "this program has loaded another MLIR (" + other + ")";
  } else {
    // The definition the program uses (the first in its global scope) must be
    // the one in our libMLIR, not one linked into the executable.
    const char *symbol = "_ZN4mlir11MLIRContext17getLoadedDialectsEv";
    void *library = dlopen(ours, RTLD_LAZY | RTLD_NOLOAD);
    void *mine = library ? dlsym(library, symbol) : nullptr;
    void *used = dlsym(RTLD_DEFAULT, symbol);
    if (library)
      dlclose(library);
    if (!mine)
      problem = std::string(ours) + " is not loaded";
    else if (used != mine)
      problem = "this program carries its own MLIR (in " + objectOf(used) + ")";
  }
  if (problem.empty())
    return false;
  std::snprintf(message, size,
                "tpu-custom-call plugin: built against MLIR %s (%s), but %s. "
                "Load it into the mlir-opt of the same LLVM (Debian's "
                "mlir-opt-%d, package mlir-%d-tools), or rebuild it against "
                "this program's MLIR (make plugin).",
                LLVM_VERSION_STRING, ours, problem.c_str(), LLVM_VERSION_MAJOR,
                LLVM_VERSION_MAJOR);
  return true;
}

/// The LLVM version the plugin was built with (`22.1.8`).
const char *tcc_plugin_llvm_version(void) { return LLVM_VERSION_STRING; }
}
