"""Picks the committed sample of the generated corpus (gen_programs.py's
OUT_DIR) into mlir-fixtures/jax-programs/: one module for each op of issue 31
(MUST), then greedily the modules that add the
most ops not yet covered (smallest first on ties), as long as each adds one,
skipping `export_*` (their locations make jaxlib's print differ from the
file) and big.mlir; each with its jaxlib 0.12 generic print beside it
(`<name>.generic.mlir`, `get_asm(print_generic_op_form=True,
enable_debug_info=False)`). Each `<name>.mlir` is exactly JAX's `as_text()`,
which is also jaxlib's pretty print of it.

Usage: ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/pretty/sample_fixtures.py OUT_DIR
"""
import glob
import os
import re
import sys

from jax._src.interpreters import mlir as jm
from jax._src.lib.mlir import ir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OP = re.compile(r'(?:^|[=\s(])((?:stablehlo|sdy|chlo|func)\.[a-z_0-9]+)[\s(<{@:]|(#sdy\.[a-z_]+)|( (?:dims|contracting_dims|batching_dims|across dimensions|applies|comparator|precision|window|dim|sizes) =?)', re.M)


MUST = ["matmul_float32", "attention", "layernorm", "while_loop", "fori_loop_dyn", "cond", "scatter_add",
        "gather_take", "sort_keyval", "dynamic_slice", "dynamic_update_slice", "concat", "cumsum", "iota_2d",
        "bitcast_float32_int32", "convert_float32_bfloat16", "ibinary_shrl_uint32", "ibinary_rem_int32",
        "unary_sign_float32", "transpose", "reshape", "reduce_argmax_1", "nested_jit", "conv2d",
        "reduce_window_max", "sdy_matmul", "sdy_constraint", "sdy_shard_map_psum", "sdy_shard_map_matmul",
        "sdy_mlp"]


def ops(text):
    return {next(g for g in m.groups() if g).strip() for m in OP.finditer(text)}


def main(src):
    out = os.path.join(ROOT, "mlir-fixtures", "jax-programs")
    os.makedirs(out, exist_ok=True)
    files = {}
    for p in sorted(glob.glob(os.path.join(src, "*.mlir"))):
        name = os.path.basename(p)[:-5]
        if name.startswith("export_") or name == "big":
            continue
        text = open(p).read()
        files[name] = (text, ops(text))
    # The ops first (one module each), then the greedy cover.
    chosen = [n for n in MUST if n in files]
    covered = set().union(*(files.pop(n)[1] for n in chosen))
    while True:
        best = max(files, key=lambda n: (len(files[n][1] - covered), -len(files[n][0])))
        if not files[best][1] - covered:
            break
        covered |= files[best][1]
        chosen.append(best)
        del files[best]
    total = 0
    for name in sorted(chosen):
        text = open(os.path.join(src, name + ".mlir")).read()
        with jm.make_ir_context():
            m = ir.Module.parse(text)
            pretty = m.operation.get_asm(enable_debug_info=False)
            generic = m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
        assert pretty == text, name
        for suffix, body in (("", text), (".generic", generic)):
            with open(os.path.join(out, name + suffix + ".mlir"), "w") as f:
                f.write(body)
            total += len(body)
    print(f"{len(chosen)} modules, {total} bytes, {len(covered)} ops and syntaxes covered", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
