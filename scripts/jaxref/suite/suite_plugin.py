"""pytest plugin: run JAX's Pallas TPU tests on a CPU jaxlib and record what JAX lowers for a TPU.

Loaded by `capture.py` as `-p suite_plugin` (this folder on PYTHONPATH). Environment:
  SUITE_CHIP   v6e | v7x: the TPU the tests believe they run on (default v6e)
  SUITE_OUT    folder to write into: modules/<sha256>.mlir (every lowered StableHLO module that holds a
               tpu_custom_call, as `Lowered.as_text()` prints it), kernels/<sha256 of body, NUL, debug_locations>.{mlir,
               generic.mlir,json} (each Mosaic kernel as JAX printed it before serialization, with the
               arguments JAX lowered it with) and records-<chip>-<pid>.jsonl (test id, chip, module).
  SUITE_JAXSRC folder with JAX's test-only modules the wheel lacks (hypothesis_test_util.py,
               pallas_test_util.py), taken from JAX's repository at the pinned revision.

What it changes, and why (nothing here runs a kernel):
- `jax._src.test_util` believes the device under test is a TPU of kind SUITE_CHIP (`jax_test_dut=tpu`,
  `is_device_tpu`, `is_device_tpu_at_least`, `get_tpu_version`), so TPU tests are not skipped and take
  their TPU branches;
- `jax._src.tpu_info.get_device_kind` / `get_num_device_cores` answer for that chip (one core per device)
  when no abstract mesh names a device: Pallas' `get_tpu_info()` and the SparseCore meshes then work;
- every jit lowering whose jaxpr holds a Pallas primitive is lowered with `lowering_platforms=('tpu',)`;
  the lowered module is recorded when it holds a `tpu_custom_call`;
- executing such a jit returns zeros of the output types instead of compiling (`compile()` of such a
  lowering raises SkipTest); jits without Pallas run normally on the CPU;
- numeric assertions (assertAllClose, assertEqual, np.testing.*, ...) are no-ops, so that a test goes on
  to its later kernels. assertRaises stays: a test expecting an error JAX raises while lowering still
  gets it.
"""

import base64
import hashlib
import importlib.util
import json
import os
import sys
import unittest

import numpy as np

CHIP = os.environ.get("SUITE_CHIP", "v6e")
DEVICE_KINDS = {"v5e": "TPU v5 lite", "v5p": "TPU v5", "v6e": "TPU v6 lite", "v7x": "TPU7x"}
TPU_VERSIONS = {"v5e": 5, "v5p": 5, "v6e": 6, "v7x": 7}
OUT = os.environ.get("SUITE_OUT", "/tmp/suite-out")
JAXSRC = os.environ.get("SUITE_JAXSRC", "")

_current_test = {"id": None}
_records = None


def _write_once(path, data):
  if os.path.exists(path):
    return
  tmp = f"{path}.{os.getpid()}.tmp"
  with open(tmp, "wb") as f:
    f.write(data if isinstance(data, bytes) else data.encode())
  os.replace(tmp, path)


def _load_test_only_modules():
  """JAX's wheel lacks its test-only helpers; load them from the pinned sources."""
  import jax._src
  import jax._src.pallas

  for name, parent, attr in [
      ("jax._src.hypothesis_test_util", jax._src, "hypothesis_test_util"),
      ("jax._src.pallas.pallas_test_util", jax._src.pallas, "pallas_test_util"),
  ]:
    if name in sys.modules:
      continue
    path = os.path.join(JAXSRC, attr + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    setattr(parent, attr, module)


def _pallas_primitives():
  """Every Primitive object defined by a jax._src.pallas module (by identity: names collide with lax)."""
  import jax._src.pallas.mosaic.pallas_call_registration  # noqa: F401 (registers the TPU lowering)
  import jax._src.pallas.mosaic.sc_primitives  # noqa: F401
  import jax._src.pallas.mosaic.primitives  # noqa: F401
  import jax._src.pallas.mosaic.pipeline  # noqa: F401
  import jax._src.pallas.mpmd  # noqa: F401
  from jax._src import core as jax_core

  prims = set()
  for name, module in list(sys.modules.items()):
    if not name.startswith("jax._src.pallas") or module is None:
      continue
    for value in list(vars(module).values()):
      if isinstance(value, jax_core.Primitive):
        prims.add(id(value))
  return prims


def _install():
  global _records
  import jax
  from jax._src import config
  from jax._src import core as jax_core
  from jax._src import pjit
  from jax._src import test_util as jtu
  from jax._src import tpu_custom_call
  from jax._src import tpu_info
  from jax._src.interpreters import pxla
  from jax._src.lib.mlir import ir
  from jax._src import mesh as mesh_lib

  _load_test_only_modules()
  os.makedirs(os.path.join(OUT, "modules"), exist_ok=True)
  os.makedirs(os.path.join(OUT, "kernels"), exist_ok=True)
  _records = open(os.path.join(OUT, f"records-{CHIP}-{os.getpid()}.jsonl"), "a")

  # --- the device under test -------------------------------------------------
  jax.config.update("jax_test_dut", "tpu")
  kind = DEVICE_KINDS[CHIP]
  version = TPU_VERSIONS[CHIP]

  def is_device_tpu(version_=None, variant=""):
    if version_ is None:
      return True
    expected = f"v{version_}{variant}"
    return {"v5e": "v5 lite" in kind, "v6e": "v6 lite" in kind, "v5p": kind.endswith("v5"),
            "v7x": "TPU7x" in kind, "v8i": "TPU8i" in kind}.get(expected, expected in kind)

  jtu.is_device_tpu = is_device_tpu
  jtu.get_tpu_version = lambda: version
  jtu.is_device_tpu_at_least = lambda v: version >= v
  jtu.is_cloud_tpu = lambda: False

  def get_device_kind():
    if abstract_device := mesh_lib.get_abstract_mesh().abstract_device:
      return abstract_device.device_kind
    return kind

  def get_num_device_cores():
    if abstract_device := mesh_lib.get_abstract_mesh().abstract_device:
      return abstract_device.num_cores
    return 1

  tpu_info.get_device_kind = get_device_kind
  tpu_info.get_num_device_cores = get_num_device_cores
  import jax._src.pallas.mosaic.tpu_info as pallas_tpu_info
  pallas_tpu_info.get_device_kind = get_device_kind
  pallas_tpu_info.get_num_device_cores = get_num_device_cores

  # TensorCoreMesh's default core count asks jax.devices()[0] (a CPU device here): one core per device.
  # The function is a dataclass default_factory (captured at class creation), so swap its code.
  import jax._src.pallas.mosaic.core as mosaic_core

  def _one_core_unless_abstract():
    import jax
    abstract_device = jax.sharding.get_abstract_mesh().abstract_device
    return 1 if abstract_device is None else abstract_device.num_cores

  mosaic_core._get_default_num_cores.__code__ = _one_core_unless_abstract.__code__

  # --- kernels as JAX printed them before serialization ----------------------
  orig_to_asm = tpu_custom_call._lower_mosaic_module_to_asm

  def lower_mosaic_module_to_asm(module, **kwargs):
    result = orig_to_asm(module, **kwargs)
    try:
      # Keyed by body and debug locations: kernels differing only in their locations (the same kernel
      # written in two tests) have the same body.
      asm, debug_locations = result[0], result[2]
      sha = hashlib.sha256(asm + b"\0" + (debug_locations or b"")).hexdigest()
      base = os.path.join(OUT, "kernels", sha)
      if not os.path.exists(base + ".generic.mlir"):
        with module.context:
          pretty = module.operation.get_asm(enable_debug_info=False)
          generic = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
        _write_once(base + ".mlir", pretty)
        _write_once(base + ".json", json.dumps({"lower_kwargs": {k: repr(v) for k, v in kwargs.items()},
                                                "test": _current_test["id"], "chip": CHIP}))
        _write_once(base + ".generic.mlir", generic)
    except Exception as e:  # never disturb the lowering itself
      print(f"suite_plugin: kernel capture failed: {e!r}", file=sys.stderr)
    return result

  tpu_custom_call._lower_mosaic_module_to_asm = lower_mosaic_module_to_asm

  # --- force TPU lowering of Pallas jits, record the modules -------------------
  pallas_prims = _pallas_primitives()

  def params_jaxprs(value):
    if isinstance(value, jax_core.Jaxpr):
      yield value
    elif isinstance(value, (tuple, list)):
      for v in value:
        yield from params_jaxprs(v)

  def has_pallas(jaxpr, seen=None):
    seen = set() if seen is None else seen
    if id(jaxpr) in seen:
      return False
    seen.add(id(jaxpr))
    for eqn in jaxpr.eqns:
      if id(eqn.primitive) in pallas_prims:
        return True
      for value in eqn.params.values():
        for sub in params_jaxprs(value):
          if has_pallas(sub, seen):
            return True
    return False

  orig_lower = pxla.lower_sharding_computation

  def lower_sharding_computation(closed_jaxpr, *args, **kwargs):
    platforms = kwargs.get("lowering_platforms")
    if platforms is None and has_pallas(closed_jaxpr):
      kwargs["lowering_platforms"] = platforms = ("tpu",)
    computation = orig_lower(closed_jaxpr, *args, **kwargs)
    if platforms and "tpu" in platforms:
      try:
        text = computation.as_text()
      except Exception as e:
        print(f"suite_plugin: as_text failed: {e!r}", file=sys.stderr)
        text = ""
      if "tpu_custom_call" in text:
        sha = hashlib.sha256(text.encode()).hexdigest()
        _write_once(os.path.join(OUT, "modules", sha + ".mlir"), text)
        _records.write(json.dumps({"test": _current_test["id"], "chip": CHIP, "module": sha,
                                   "platforms": list(platforms)}) + "\n")
        _records.flush()
    return computation

  pxla.lower_sharding_computation = lower_sharding_computation

  orig_compile = pxla.MeshComputation.compile

  def compile_(self, *args, **kwargs):
    if "tpu" in (getattr(self, "_platforms", None) or ()):
      raise unittest.SkipTest("suite_plugin: no TPU to compile for")
    return orig_compile(self, *args, **kwargs)

  pxla.MeshComputation.compile = compile_

  orig_impl = pjit._pjit_call_impl_python

  def zeros_like_aval(aval):
    dtype = aval.dtype
    from jax._src import dtypes
    if dtypes.issubdtype(dtype, dtypes.extended):
      raise unittest.SkipTest(f"suite_plugin: no zeros for {dtype}")
    return jax.device_put(np.zeros(aval.shape, dtype))

  def pjit_call_impl_python(*args, jaxpr, **params):
    if not has_pallas(jaxpr):
      return orig_impl(*args, jaxpr=jaxpr, **params)
    arg_types = list(map(pjit.convert_to_metaty, args))
    from jax._src.interpreters import mlir
    pjit._resolve_and_lower(
        arg_types, jaxpr=jaxpr, in_shardings=params["in_shardings"],
        out_shardings=params["out_shardings"], in_layouts=params["in_layouts"],
        out_layouts=params["out_layouts"], donated_invars=params["donated_invars"],
        ctx_mesh=params["ctx_mesh"], name=params["name"], keep_unused=params["keep_unused"],
        inline=params["inline"], lowering_platforms=("tpu",),
        lowering_parameters=mlir.LoweringParameters(), pgle_profiler=None,
        compiler_options_kvs=params["compiler_options_kvs"])
    outs = [zeros_like_aval(aval) for aval in jaxpr.out_avals]
    return outs, None, None, []

  pjit._pjit_call_impl_python = pjit_call_impl_python

  # --- numeric assertions: no-ops ------------------------------------------------
  def noop(*args, **kwargs):
    return None

  for name in ["assertAllClose", "assertArraysEqual", "assertArraysAllClose", "assertDtypesMatch",
               "assertEqual", "assertNotEqual", "assertTrue", "assertFalse", "assertLess",
               "assertLessEqual", "assertGreater", "assertGreaterEqual", "assertIn", "assertNotIn",
               "assertLen", "assertRegex", "assertNotRegex", "assertSequenceEqual", "assertListEqual",
               "assertTupleEqual", "assertAlmostEqual", "assertNotAlmostEqual", "assertIsNone",
               "assertIsNotNone", "assertCountEqual", "assertDictEqual", "assertSameElements",
               "assertStartsWith", "assertEndsWith", "assertContainsSubset", "assertMultiLineEqual",
               "assertMultiLineStrippedEqual", "assertIs", "assertIsNot", "assertIsInstance"]:
    if hasattr(jtu.JaxTestCase, name):
      setattr(jtu.JaxTestCase, name, noop)
  for name in ["assert_allclose", "assert_array_equal", "assert_array_almost_equal", "assert_equal",
               "assert_almost_equal", "assert_array_less", "assert_array_max_ulp"]:
    setattr(np.testing, name, noop)


_install()


def pytest_runtest_setup(item):
  _current_test["id"] = item.nodeid


def pytest_runtest_teardown(item):
  _current_test["id"] = None
