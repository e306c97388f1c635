"""Dump JAX's TPU chip table and its core-mesh errors as JSON (the reference for src/target.rs).

Run with the jaxref venv (real jax 0.12.0.1; no TPU needed):

    /work/venvs/jaxref/bin/python scripts/jaxref/dump_tpu_info.py > mlir-fixtures/targets/jax_tpu_info.json

(run it from any folder but jax/_src, whose typing.py would shadow the standard one). The output is
deterministic. `tests/integration/target.rs` compares the table in `src/target.rs` with the committed
dump, and, when the venv is there (REFCHECK_VENV), runs this script again and compares its output with
the committed file.

What it records:
- `chips`: for every `jax._src.tpu_info.ChipVersion`, the chip properties and `_get_tpu_info_impl(chip, 1)`
  (values per TensorCore; `num_cores` is left out: it is the device's logical core count, not a chip fact);
- `device_kinds`: what `chip_version_from_device_kind` returns for each known `device_kind` string and for
  a few respellings (it matches exactly, so the respellings map to null);
- `mesh_errors`: what Pallas' SparseCore meshes raise under an abstract mesh of each chip, for core and
  subcore counts at and above the chip's;
- `cores_per_device_errors`: what `get_tpu_info_for_chip(chip, n)` raises for n = 1, 2, 3 TensorCores per
  logical device.
"""

import dataclasses
import json
import sys

import jax
from jax._src import tpu_info
from jax._src.pallas.mosaic import sc_core

# Every spelling in `chip_version_from_device_kind` (reference section 9.1), plus respellings.
DEVICE_KINDS = [
    "TPU v2", "TPU v3", "TPU v4", "TPU v4 lite", "TPU v5e", "TPU v5 lite", "TPU v5", "TPU v5p",
    "TPU v6e", "TPU v6 lite", "TPU7", "TPU7x", "TPU8i", "TPU8t",
]
RESPELLINGS = ["tpu v5 lite", "TPU V5E", "tpu7x", "v5e", "TPU v7x", "TPU v4i", "TPU  v5e", " TPU v5e"]


def chip_entry(cv):
    info = tpu_info._get_tpu_info_impl(cv, 1)
    d = dataclasses.asdict(info)
    d.pop("chip_version")
    d.pop("num_cores")
    return {
        "chip_version": cv.value,
        "num_physical_tensor_cores_per_chip": cv.num_physical_tensor_cores_per_chip,
        "supports_megacore": cv.supports_megacore,
        "is_lite": cv.is_lite,
        **d,
    }


def outcome(fn):
    try:
        fn()
        return {"ok": True}
    except Exception as e:  # record the exception JAX raises, verbatim
        return {"ok": False, "exception_type": type(e).__name__, "message": str(e)}


def mesh_errors(cv, device_kind):
    info = tpu_info._get_tpu_info_impl(cv, 1)
    sc = info.sparse_core
    cores = sc.num_cores if sc else 1
    subcores = sc.num_subcores if sc else 1
    device = jax.sharding.AbstractDevice(device_kind=device_kind, num_cores=1, platform="tpu")
    mesh = jax.sharding.AbstractMesh((1,), ("x",), abstract_device=device)
    rows = []
    with jax.sharding.use_abstract_mesh(mesh):
        for n in sorted({1, cores, cores + 1}):
            rows.append({
                "mesh": "ScalarSubcoreMesh", "num_cores": n, "num_subcores": None,
                **outcome(lambda: sc_core.ScalarSubcoreMesh(axis_name="c", num_cores=n)),
            })
        for n, m in [(cores, subcores), (cores + 1, subcores), (cores, subcores + 1), (cores + 1, subcores + 1)]:
            rows.append({
                "mesh": "VectorSubcoreMesh", "num_cores": n, "num_subcores": m,
                **outcome(lambda: sc_core.VectorSubcoreMesh(
                    core_axis_name="c", subcore_axis_name="s", num_cores=n, num_subcores=m)),
            })
    return rows


def cores_per_device_errors(cv):
    rows = []
    for n in (1, 2, 3):
        rows.append({"num_tensor_cores_per_logical_device": n, **outcome(lambda: tpu_info.get_tpu_info_for_chip(cv, n))})
    return rows


def main():
    kinds = {}
    for kind in DEVICE_KINDS + RESPELLINGS:
        cv = tpu_info.chip_version_from_device_kind(kind)
        kinds[kind] = cv.value if cv is not None else None
    first_kind = {}
    for kind in DEVICE_KINDS:
        first_kind.setdefault(kinds[kind], kind)
    out = {
        "_generated_by": (
            f"scripts/jaxref/dump_tpu_info.py with jax {jax.__version__}: "
            "jax._src.tpu_info._get_tpu_info_impl(chip, 1) per ChipVersion, "
            "chip_version_from_device_kind, the SparseCore mesh constructors under an abstract mesh, "
            "and get_tpu_info_for_chip(chip, n)"
        ),
        "chips": [chip_entry(cv) for cv in tpu_info.ChipVersion],
        "device_kinds": kinds,
        "mesh_errors": {
            cv.value: mesh_errors(cv, first_kind[cv.value]) for cv in tpu_info.ChipVersion
        },
        "cores_per_device_errors": {cv.value: cores_per_device_errors(cv) for cv in tpu_info.ChipVersion},
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
