#!/usr/bin/env python3
"""Writes fuzz/dicts/*.dict (libFuzzer dictionaries) from the JAX 0.12 goldens
and mlir-fixtures/params. Usage: fuzz/make_dicts.py [GOLDENS_DIR] (default as fuzz/seed.sh)"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
G = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "tests", "data", "jax-goldens")


def keys(o, acc):
    if isinstance(o, dict):
        for k, v in o.items():
            acc.add(k)
            keys(v, acc)
    elif isinstance(o, list):
        for v in o:
            keys(v, acc)
    elif isinstance(o, str) and len(o) < 40:
        acc.add(("V", o))


def esc(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


JSON_EDGES = ["{", "}", "[", "]", "true", "false", "null", "-0", "1e309",
              "9223372036854775808", "-9223372036854775809", "\\u0000",
              "\\ud800", '"', "0.5", "NaN", "Infinity"]


def write_json_dict(path, header, ks):
    lines = [f"# {header} (made by fuzz/make_dicts.py)"]
    lines += ['"' + esc('"' + k + '":') + '"' for k in sorted(x for x in ks if isinstance(x, str))]
    lines += ['"' + esc('"' + v[1] + '"') + '"' for v in sorted(x for x in ks if isinstance(x, tuple))]
    lines += ['"' + esc(e) + '"' for e in JSON_EDGES]
    with open(path, "w") as f:
        f.write("\n".join(dict.fromkeys(lines)) + "\n")


ck = set()
for f in sorted(glob.glob(G + "/*/backend_config.json")):
    keys(json.load(open(f)), ck)
pk = set()
for f in sorted(glob.glob(REPO + "/mlir-fixtures/params/*.json")):
    keys(json.load(open(f)), pk)
os.makedirs(HERE + "/dicts", exist_ok=True)
write_json_dict(HERE + "/dicts/config.dict", "backend_config keys and values of the JAX 0.12 goldens, JSON edge tokens", ck)
write_json_dict(HERE + "/dicts/params.dict", "PARAMS.json keys and values of mlir-fixtures/params, JSON edge tokens", pk)

TOKEN = re.compile(
    r'"?[a-z_]+\.[a-z_.0-9]+"?|#[a-z_]+\.[a-z_]+|![a-z_]+\.[a-z_]+'
    r"|\b(?:memref|vector|tensor|affine_map|func|module|loc|dense|array|strided|index"
    r"|i1|i8|i32|i64|f32|bf16|f16|tuple)\b|<|>|\(|\)|\{|\}|->|:|=|\^bb0|%[a-z]+")
tok = set()
for pattern in ("kernel.mlir", "kernel_pre_serde.generic.mlir", "module.mlir"):
    for f in sorted(glob.glob(f"{G}/*/{pattern}")):
        tok.update(m for m in TOKEN.findall(open(f).read()) if len(m) < 40)
lines = ["# MLIR tokens of the JAX 0.12 golden kernels and modules (made by fuzz/make_dicts.py)"]
lines += ['"' + esc(t) + '"' for t in sorted(tok)]
lines += ['"' + esc(x) + '"' for x in ["stablehlo.custom_call @tpu_custom_call", "backend_config = ",
                                      "stable_mosaic.version", "jax.uses_shape_polymorphism", "#loc",
                                      "loc(unknown)", "dense_resource", "<<", ">>", "[[[[", "(((("]]
lines.append('"ML\\xEFR"')
with open(HERE + "/dicts/mlir.dict", "w") as f:
    f.write("\n".join(dict.fromkeys(lines)) + "\n")
