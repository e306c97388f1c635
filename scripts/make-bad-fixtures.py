#!/usr/bin/env python3
"""Makes the bad StableHLO modules of mlir-fixtures/bad/modules/ (inputs of `inspect`).

Each fixture is the module `tpu-custom-call emit` writes for the bundled add kernel (text, or bytecode), with one
thing broken. Run from the repository root after `cargo build --release`:

    python3 scripts/make-bad-fixtures.py

The expected stderr next to each fixture is blessed from our CLI (`BLESS=1 cargo test --test integration
bad_inputs`), not made here. The kernel and PARAMS.json fixtures (mlir-fixtures/bad/kernels, .../params) are
hand-written; see mlir-fixtures/bad/README.md.
"""
import base64
import json
import os
import re
import subprocess
import tempfile

CLI = "target/release/tpu-custom-call"
KERNEL = "mlir-fixtures/kernels/add.mlir"
SIG = "(tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>"
OUT = "mlir-fixtures/bad/modules"


def emit(*extra):
    return subprocess.run(
        [CLI, "emit", KERNEL, "--signature", SIG, "--debug-locations", "strip", *extra],
        check=True, capture_output=True).stdout


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def with_config(text, edit):
    """The module text with its backend_config JSON replaced by edit(config) (a str)."""
    match = re.search(r'backend_config = "((?:[^"\\]|\\.)*)"', text)
    config = json.loads(match.group(1).replace("\\22", '"'))
    new = edit(config)
    escaped = new.replace("\\", "\\5C").replace('"', "\\22")
    return text[:match.start(1)] + escaped + text[match.end(1):]


def dumps(config):
    return json.dumps(config)


def main():
    os.makedirs(OUT, exist_ok=True)
    text = emit().decode()
    bytecode = emit("--emit", "bytecode")
    write("empty.mlir", b"")
    write("garbage.bin", bytes(range(256))[::7] * 3)
    write("truncated.mlirbc", bytecode[: len(bytecode) // 2])
    write("wrong_magic.mlirbc", b"ML\xefX" + bytecode[4:])
    # The version varint follows the magic: the byte 49 reads as version 24, newer than any MLIR writes.
    write("future_version.mlirbc", bytecode[:4] + bytes([49]) + bytecode[5:])
    write("config_not_json.mlir", with_config(text, lambda c: "custom_call_config: body"))

    def dup(c):
        s = dumps(c)
        return s.replace('"body":', '"serialization_format": 1, "body":', 1)
    write("config_duplicate_key.mlir", with_config(text, dup))

    def beyond_i64(c):
        c["custom_call_config"]["cost_estimate"] = {"flops": 99999999999999999999}
        return dumps(c)
    write("config_integer_beyond_i64.mlir", with_config(text, beyond_i64))

    def negative(c):
        c["scoped_memory_configs"] = [{"memory_space": 1, "offset": 0, "size": -4096}]
        return dumps(c)
    write("config_negative_size.mlir", with_config(text, negative))

    def unknown_space(c):
        c["custom_call_config"]["output_memory_space_colors"] = [{"color": 3, "shape_index": [0]}]
        return dumps(c)
    write("config_unknown_memory_space.mlir", with_config(text, unknown_space))

    def sparse_core(c):
        c["sparse_core_config"] = {"tiling": "TILING_SPARSE_CORE"}
        return dumps(c)
    write("config_sparsecore_on_tensorcore.mlir", with_config(text, sparse_core))

    # Invalid UTF-8 inside the JSON string: MLIR string escapes can hold any byte.
    t = with_config(text, lambda c: dumps(c).replace('"serialization_format"', '"serialization_formatXX"'))
    write("config_invalid_utf8.mlir", t.replace("serialization_formatXX", "serialization_format\\FF"))

    def truncated_body(c):
        body = base64.b64decode(c["custom_call_config"]["body"])
        c["custom_call_config"]["body"] = base64.b64encode(body[: len(body) // 2]).decode()
        return dumps(c)
    write("body_truncated.mlir", with_config(text, truncated_body))

    # A body at stable_mosaic.version 99: JAX's serialized add kernel with the
    # version changed, written as bytecode v0 by our CLI (LLVM 22).
    golden = "tests/data/jax-goldens/add_basic/kernel_serialized.mlir"
    serialized = open(golden).read()
    serialized = re.sub(r"stable_mosaic\.version = \d+", "stable_mosaic.version = 99", serialized)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.mlir")
        dst = os.path.join(tmp, "k.mlirbc")
        open(src, "w").write(serialized)
        subprocess.run([CLI, "kernel", src, "--emit", "bytecode", "--bytecode-version", "0", "-o", dst],
                       check=True)
        body99 = open(dst, "rb").read()

    def future_body(c):
        c["custom_call_config"]["body"] = base64.b64encode(body99).decode()
        return dumps(c)
    write("body_future_stable_mosaic_version.mlir", with_config(text, future_body))

    aliases = text.replace("output_operand_aliases = []",
                           "output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], "
                           "operand_index = 5, operand_tuple_indices = []>]")
    assert aliases != text
    write("aliases_out_of_range.mlir", aliases)


if __name__ == "__main__":
    main()
