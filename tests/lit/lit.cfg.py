# lit configuration of the pass tests as MLIR projects write them: each test runs upstream
# `mlir-opt-22` with our plugin loaded (`--load-dialect-plugin=%plugin --load-pass-plugin=%plugin`)
# and checks its output with FileCheck or `--verify-diagnostics`.
#
# Run by `make lit` (part of `make test`), which builds the plugin and the CLI first:
#   /usr/lib/llvm-22/bin/lit tests/lit --param plugin=PATH --param tcc=PATH
# Parameters (or the environment variables TCC_PLUGIN / TCC_CLI):
#   plugin  the plugin library `make plugin` prints
#   tcc     the tpu-custom-call binary (tests that compare with `tpu-custom-call opt`)
import os

import lit.formats

config.name = "tpu-custom-call"
# bash, not lit's internal shell: the fixture comparisons loop over files.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "same_output.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    lit_config.params.get("exec_root", os.environ.get("TCC_LIT_EXEC_ROOT", "/tmp/tcc-lit"))
)

repo = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")


def required(name, env):
    value = lit_config.params.get(name, os.environ.get(env))
    if not value or not os.path.exists(value):
        lit_config.fatal(
            f"--param {name}=PATH (or {env}) must name an existing file, got {value!r}: run `make lit`"
        )
    return os.path.abspath(value)


plugin = required("plugin", "TCC_PLUGIN")
tcc = required("tcc", "TCC_CLI")

# `mlir-opt-22` (Debian's name, in /usr/bin) and LLVM's FileCheck, not, split-file.
config.environment["PATH"] = os.pathsep.join([llvm_bin, "/usr/bin", os.environ.get("PATH", "")])
# Diagnostics and fixtures' paths as the tests expect them.
config.environment["LC_ALL"] = "C"
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%llvm_bin", llvm_bin))
config.substitutions.append(("%tcc", tcc))
config.substitutions.append(("%fixtures", os.path.join(repo, "mlir-fixtures")))
config.substitutions.append(("%data", os.path.join(repo, "tests", "data")))
config.substitutions.append(
    ("%same-output", "python3 " + os.path.join(config.test_source_root, "same_output.py"))
)
