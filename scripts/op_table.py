"""The op table both builder generators read (scripts/gen_builders.py writes
src/mosaic/ops.rs from it, scripts/gen_builder_instances.py
tests/integration/builders_all_ops.rs): data/mosaic/tpu-ops.json, the table the
verifier uses, and the Rust keywords an op or operand name must avoid.
"""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLE = "data/mosaic/tpu-ops.json"
RUST_KEYWORDS = {"yield", "in", "type", "fn", "mod", "ref", "move", "match", "loop", "use", "as"}


def load_table():
    """The op table the verifier uses, as {op: {class, operands: [(name, kind)],
    segmented, results: [(name, kind)], infer, req_attrs: [(name, kind)],
    opt_attrs: [(name, kind)], regions}} plus {op: {attr: default text}}."""
    table = json.load(open(os.path.join(ROOT, TABLE)))["ops"]
    ops, defaults = {}, {}
    for name, op in table.items():
        ops[name] = {
            "class": op["class"],
            "operands": [(o["name"], o["kind"]) for o in op["operands"]],
            "segmented": op["attributed_sized_operands"],
            "results": [(r["name"], r["kind"]) for r in op["results"]],
            "infer": op["infers_result_types"],
            "req_attrs": [(a["name"], a["kind"]) for a in op["attributes"] if a["required"]],
            "opt_attrs": [(a["name"], a["kind"]) for a in op["attributes"] if not a["required"]],
            "regions": op["regions"],
        }
        defaults[name] = {a["name"]: a["default"] for a in op["attributes"] if a["default"] is not None}
    return ops, defaults
