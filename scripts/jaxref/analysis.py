#!/usr/bin/env python3
"""Runs JAX 0.12's own kernel analyses on every golden kernel and on small
kernels that trigger each analysis error, and records the results.

For each golden call (kernel_pre_serde[.N].generic.mlir): jaxlib's
tpu.private_has_communication, and jax._src.tpu_custom_call's _get_device_type
and _get_active_core_count. For each error kernel defined below: the exception
type and message those functions raise.

Usage: /work/venvs/jaxref/bin/python scripts/jaxref/analysis.py \
           tests/data/jax-goldens > mlir-fixtures/serde/analysis.json
"""
import glob
import json
import os
import re
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src import tpu_custom_call as tcc  # noqa: E402
from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib import tpu as tpu_lib  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402


def context():
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  ctx.allow_unregistered_dialects = True
  return ctx


def analyze(text):
  with context(), ir.Location.unknown():
    module = ir.Module.parse(text)
    out = {}
    try:
      comm, barrier = tpu_lib.private_has_communication(module.operation)
      out["has_communication"], out["has_custom_barrier"] = comm, barrier
      out["device_type"] = tcc._get_device_type(module)
      out["active_core_count"] = tcc._get_active_core_count(module)
    except Exception as e:  # ValueError
      out = {"error_type": type(e).__name__, "error": str(e)}
      # A ValueError raised inside module.operation.walk() reaches Python
      # wrapped in a RuntimeError whose text ends with the original.
      inner = str(e).rsplit("\nValueError: ", 1)
      if len(inner) == 2:
        out = {"error_type": "ValueError", "error": inner[1]}
    return out


def func(attrs, core="tc", name="k"):
  return f"""  "func.func"() <{{function_type = () -> (), sym_name = "{name}"}}> ({{
    "func.return"() : () -> ()
  }}) {{{attrs}tpu.core_type = #tpu.core_type<{core}>}} : () -> ()
"""


def module(*funcs):
  return '"builtin.module"() ({\n' + "".join(funcs) + "}) : () -> ()\n"


CP = "#tpu.dimension_semantics<core_parallel>"
SP = "#tpu.dimension_semantics<subcore_parallel>"
PA = "#tpu.dimension_semantics<parallel>"

KERNELS = {
    "unknown_core_type": module(
        func("", core="tc").replace("#tpu.core_type<tc>", '"bogus"')),
    "unknown_core_type_int": module(
        func("", core="tc").replace("#tpu.core_type<tc>", "1 : i32")),
    "mixed_tensorcore_and_sparsecore_funcs": module(
        func("", core="tc", name="a"), func("", core="sc_vector_subcore", name="b")),
    "mixed_sparsecore_then_tensorcore_funcs": module(
        func("", core="sc_scalar_subcore", name="a"), func("", core="tc", name="b")),
    "iteration_bounds_semantics_length_mismatch": module(
        func(f"dimension_semantics = [{CP}], iteration_bounds = array<i64: 2, 2>, ")),
    "core_parallel_dynamic_bound": module(
        func(f"dimension_semantics = [{PA}, {CP}], iteration_bounds = array<i64: 4, -9223372036854775808>, ")),
    "multiple_core_parallel_dims": module(
        func(f"dimension_semantics = [{CP}, {CP}], iteration_bounds = array<i64: 2, 2>, ")),
    "core_parallel_bound_differs_across_subkernels": module(
        func(f"dimension_semantics = [{CP}], iteration_bounds = array<i64: 2>, ", name="a"),
        func(f"dimension_semantics = [{CP}], iteration_bounds = array<i64: 4>, ", name="b")),
    "iteration_bounds_not_array": module(
        func(f"dimension_semantics = [{CP}], iteration_bounds = 4 : i64, ")),
    "dimension_semantics_not_array": module(
        func("dimension_semantics = 1 : i64, iteration_bounds = array<i64: 4>, ")),
    "sparsecore_two_cores_sixteen_subcores": module(
        func(f"dimension_semantics = [{CP}, {SP}], iteration_bounds = array<i64: 2, 16>, ",
             core="sc_vector_subcore")),
    "core_parallel_then_none": module(
        func(f"dimension_semantics = [{CP}], iteration_bounds = array<i64: 2>, ", name="a"),
        func(f"dimension_semantics = [{PA}], iteration_bounds = array<i64: 2>, ", name="b")),
    "tensorcore_mesh_parallel": module(
        func(f"dimension_semantics = [{PA}], iteration_bounds = array<i64: 2>, ")),
}


def main(goldens):
  out = {
      "generated_by": "scripts/jaxref/analysis.py with jax/jaxlib 0.12.0.1 "
                      "(tpu.private_has_communication, tcc._get_device_type, "
                      "tcc._get_active_core_count)",
      "goldens": {},
      "kernels": {},
  }
  for path in sorted(glob.glob(os.path.join(goldens, "*", "kernel_pre_serde*.generic.mlir"))):
    m = re.fullmatch(r"kernel_pre_serde(\.\d+)?\.generic\.mlir", os.path.basename(path))
    case = os.path.basename(os.path.dirname(path))
    out["goldens"][case + (m.group(1) or "")] = analyze(open(path).read())
  for name, text in KERNELS.items():
    out["kernels"][name] = {"kernel": text, **analyze(text)}
  json.dump(out, sys.stdout, indent=1)
  sys.stdout.write("\n")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1]))
