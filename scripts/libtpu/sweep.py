#!/usr/bin/env python3
"""Sweep: every golden call x parameter variant x chip, emitted by our CLI without a target (JAX's rules only) and
compiled by libtpu; writes data/libtpu/sweep.json, what tests/integration/libtpu_rules.rs compares `emit --target`
with.

Usage: scripts/libtpu/sweep.py [--cli target/debug/tpu-custom-call] [--chips v5e,v5p,v6e,v7x] [--out FILE]
Needs the TPU venv (scripts/jaxref/ref/setup-tpu.sh; $TPU_VENV or ~/.cache/tpu-custom-call/jaxref-tpu-venv) and
runs one libtpu process at a time (scripts/jaxref/ref/tpu_compile.py's worker). Calls whose golden config has
`has_communication` are compiled for 4 SPMD partitions, the others for 1.

A variant is a patch of the golden call's PARAMS.json (mlir-fixtures/params/CALL.json): a key set to a value, or
removed (value null in `remove`). "@operands:X" / "@results:X" expand to a list with X once per operand / result.
The output keeps, per call and variant, our emit error (no compile then) or each chip's libtpu verdict: null when
it compiled, else libtpu's message (first line that says why, at most 600 characters).
"""
import argparse, copy, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts/jaxref/ref"))

MIB = 1024 * 1024
VARIANTS = {
    "golden": {},
    "scratch_0": {"internal_scratch_in_bytes": 0},
    "scratch_8192": {"internal_scratch_in_bytes": 8192},
    "scratch_32768": {"internal_scratch_in_bytes": 32768},
    "scratch_36352": {"internal_scratch_in_bytes": 36352},
    "scratch_36353": {"internal_scratch_in_bytes": 36353},
    "scratch_36863": {"internal_scratch_in_bytes": 36863},
    "scratch_36864": {"internal_scratch_in_bytes": 36864},
    "scratch_64k": {"internal_scratch_in_bytes": 65536},
    "scratch_1m": {"internal_scratch_in_bytes": MIB},
    "scratch_1g": {"internal_scratch_in_bytes": 1024 * MIB},
    "serialization_format_0": {"serialization_format": 0},
    "serialization_format_1": {"serialization_format": 1},
    "serialization_format_2": {"serialization_format": 2},
    "serialization_format_null": {"serialization_format": None},
    "flag_unknown": {"flags": {"xla_tpu_no_such_flag": True}},
    "flag_known_bool": {"flags": {"XLA_TPU_FORCE_LP_LLO_SCHEDULER": True}},
    "flag_known_int": {"flags": {"XLA_TPU_MAX_VMREG_LIVE_RANGE": 10}},
    "flag_known_lowercase": {"flags": {"xla_tpu_force_lp_llo_scheduler": True}},
    "flag_cli_flag": {"flags": {"xla_tpu_enable_outfeed_sanity": True}},
    "flag_unknown_enum_0": {"flags": {"UNKNOWN": True}},
    "flags_none": {"flags": {}},
    "needs_layout_passes_true": {"needs_layout_passes": True},
    "needs_layout_passes_false": {"needs_layout_passes": False},
    "in_vmem": {"input_memory_spaces": "@operands:vmem"},
    "in_hbm": {"input_memory_spaces": "@operands:hbm"},
    "in_smem": {"input_memory_spaces": "@operands:smem"},
    "out_vmem": {"output_memory_spaces": "@results:vmem"},
    "out_hbm": {"output_memory_spaces": "@results:hbm"},
    "out_smem": {"output_memory_spaces": "@results:smem"},
    "out_sc_vector_smem": {"output_memory_spaces": "@results:sc_vector_smem"},
    "out_sc_scalar_smem": {"output_memory_spaces": "@results:sc_scalar_smem"},
    "collective_id_allowed": {"collective_id": 3, "allow_collective_id_without_custom_barrier": True},
    "opt_level_O0": {"opt_level": "O0"},
    "opt_level_O1": {"opt_level": "O1"},
    "opt_level_O2": {"opt_level": "O2"},
    "opt_level_O3": {"opt_level": "O3"},
    "tiling_sparse_core": {"tiling": "sparse_core"},
    "tiling_compact": {"tiling": "compact"},
    "vmem_limit_1k": {"vmem_limit_bytes": 1024},
    "vmem_limit_64k": {"vmem_limit_bytes": 65536},
    "vmem_limit_16m": {"vmem_limit_bytes": 16 * MIB},
    "vmem_limit_100m": {"vmem_limit_bytes": 100 * MIB},
    "vmem_limit_112_5m": {"vmem_limit_bytes": 117964800},
    "vmem_limit_200m": {"vmem_limit_bytes": 200 * MIB},
    "side_effecting": {"has_side_effects": "side_effecting"},
    "dataflow_side_effecting": {"has_side_effects": "dataflow_side_effecting"},
    "disable_bounds_checks": {"disable_bounds_checks": True},
    "disable_semaphore_checks": {"disable_semaphore_checks": True},
    "skip_device_barrier": {"skip_device_barrier": True},
    "shape_invariant_numerics_false": {"shape_invariant_numerics": False},
    "needs_hlo_passes": {"needs_hlo_passes": True},
    "allow_input_fusion": {"allow_input_fusion": "@operands:true"},
    "cost_estimate": {"cost_estimate": {"flops": 1000, "transcendentals": 0, "bytes_accessed": 4096,
                                        "remote_bytes_transferred": 0}},
    "ir_version_11": {"ir_version": 11},
    "ir_version_18": {"ir_version": 18},
    "forward_compatible": {"forward_compatible": True},
    "debug_locations_strip": {"debug_locations": "strip"},
}


def golden_calls():
    gdir = os.path.join(ROOT, "tests/data/jax-goldens")
    for case in sorted(os.listdir(gdir)):
        path = os.path.join(gdir, case, "custom_calls.json")
        if not os.path.exists(path):
            continue
        calls = json.load(open(path))
        for i, call in enumerate(calls):
            sfx = "" if i == 0 else f".{i}"
            operands = list(call["operand_types"])
            if "indices_of_shape_operands" in call["attributes"]:
                operands = operands[:len(operands) - len(call["result_types"])]
            config = json.load(open(os.path.join(gdir, case, f"backend_config{sfx}.json")))
            yield {
                "name": case + sfx,
                "kernel": os.path.join(gdir, case, f"kernel_pre_serde{sfx}.generic.mlir"),
                "params": os.path.join(ROOT, "mlir-fixtures/params", f"{case}{sfx}.json"),
                "signature": f"({', '.join(operands)}) -> ({', '.join(call['result_types'])})",
                "operands": len(operands), "results": len(call["result_types"]),
                "communication": bool(config["custom_call_config"].get("has_communication")),
            }


def patched(params, patch, call):
    p = copy.deepcopy(params)
    for key, value in patch.items():
        if value is None and key != "serialization_format":
            p.pop(key, None)
            continue
        if isinstance(value, str) and value.startswith("@"):
            what, item = value[1:].split(":")
            item = {"true": True}.get(item, item)
            value = [item] * call[what]
        p[key] = value
    return p


def why(err):
    lines = [l for l in err.splitlines() if l.strip()]
    for l in lines:  # the line that names the problem, not the stack of contexts around it
        if any(k in l for k in ("error", "Error", "RET_CHECK", "failed", "not", "Unsupported", "unknown",
                                 "crashed", "needs", "must", "E1001", "Used")):
            return l.strip()[:600]
    return (lines[0] if lines else err).strip()[:600]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/debug/tpu-custom-call"))
    ap.add_argument("--chips", default="v5e,v5p,v6e,v7x")
    ap.add_argument("--out", default=os.path.join(ROOT, "data/libtpu/sweep.json"))
    ap.add_argument("--only", help="comma-separated call names")
    a = ap.parse_args()
    import tpu_compile
    tmp = tempfile.mkdtemp(prefix="tcc-sweep-")
    rows, jobs = [], []
    calls = [c for c in golden_calls() if not a.only or c["name"] in a.only.split(",")]
    for call in calls:
        base = json.load(open(call["params"]))
        for vname, patch in VARIANTS.items():
            params = patched(base, patch, call)
            stem = os.path.join(tmp, f"{call['name']}--{vname}")
            json.dump(params, open(stem + ".json", "w"))
            r = subprocess.run([a.cli, "emit", call["kernel"], "--signature", call["signature"], "--params",
                                stem + ".json", "-o", stem + ".mlir", "--jax-rules-only"], capture_output=True, text=True)
            row = {"call": call["name"], "variant": vname,
                   "emit_error": r.stderr.strip().splitlines()[0][:600] if r.returncode else None, "libtpu": {}}
            rows.append(row)
            if not r.returncode:
                jobs.append((row, stem + ".mlir", 4 if call["communication"] else 1))
    print(f"{len(rows)} combinations, {len(jobs)} emitted", file=sys.stderr)
    for chip in a.chips.split(","):
        for devices in (1, 4):
            todo = [j for j in jobs if j[2] == devices]
            if not todo:
                continue
            w = tpu_compile.Worker(chip, devices)
            t = time.time()
            for row, path, _ in todo:
                err = w.compile(path)
                row["libtpu"][chip] = None if err is None else why(err)
            if w.p is not None:
                w.p.stdin.close(); w.p.wait()
            print(f"{chip} x{devices}: {len(todo)} compiles in {time.time() - t:.0f} s", file=sys.stderr)
    out = {
        "about": "golden calls x parameter variants x chips: our emit without a target, then libtpu's verdict "
                 "(null = compiled). Made by scripts/libtpu/sweep.py.",
        "libtpu": "0.0.50.1", "jax": "0.12.0.1", "chips": a.chips.split(","),
        "variants": VARIANTS, "results": rows,
    }
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    main()
