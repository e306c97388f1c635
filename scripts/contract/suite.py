#!/usr/bin/env python3
"""Runs chosen tests of JAX's Pallas TPU test files on a CPU host and records every module with a
`tpu_custom_call` that JAX 0.12 lowers for a TPU: the test module's `jax.jit` and `pl.pallas_call` are
replaced by versions that lower for TPU (`lowering_platforms=("tpu",)`), write the module text and return
zeros of the output shapes; numeric assertions are no-ops and `jtu.is_device_tpu*` answer yes, so each test
reaches its kernels. `tpu_info` answers for a TPU v6e.

Usage (the CPU venv, with absl-py and hypothesis importable, e.g. `pip install --target DIR absl-py hypothesis`
and PYTHONPATH=DIR; XLA_FLAGS=--xla_force_host_platform_device_count=8 for the multi-device tests):
  suite.py JAX_GIT_DIR COMMIT OUT_DIR FILE[:TestClass.test_name,...] ...
(classes named *Interpret* are left out: they lower no tpu_custom_call)
e.g. suite.py /work/.mirror/jax-ml+jax/repo cec06d116c tests/data/contract-jax/async tpu_pallas_async_test.py
A FILE without tests runs every test of the file. Prints one line per test (`ok`, `skipped`, or the error).
Test helpers newer than the installed jax (`pallas_test_util.py`, `hypothesis_test_util.py`) are taken from the
same revision. Measured with it (v6e): tpu_pallas_test.py, tpu_ops_test.py, tpu_pallas_memory_space_test.py,
tpu_pallas_state_test.py and tpu_pallas_pipeline_test.py give 3,821 distinct modules (3,832 calls, 372 with
unsigned types); the call contract (without a chip) refuses none (blocks outside an operand: 2 calls, warned).
"""
import importlib.util, inspect, os, subprocess, sys, tempfile, types, unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jaxtpu  # noqa: E402

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import test_util as jtu
from jax.experimental import pallas as pl

OUT = None
SEEN = set()
COUNTER = [0]
CURRENT = ["?"]


def record(text):
    if "tpu_custom_call" not in text or text in SEEN:
        return
    SEEN.add(text)
    COUNTER[0] += 1
    name = f"{CURRENT[0]}_{COUNTER[0]}.mlir"
    with open(os.path.join(OUT, name), "w") as fh:
        fh.write(text)


def zeros_like_out(f, args, kwargs):
    out = jax.eval_shape(f, *args, **kwargs)
    return jax.tree.map(lambda s: jnp.zeros(s.shape, s.dtype)
                        if hasattr(s, "shape") and not jax.dtypes.issubdtype(s.dtype, jax.dtypes.extended)
                        else s, out)


class Lowered:
    """What `.lower(...)` returns here: `.compile()` gives back a callable returning zeros."""

    def __init__(self, text, zeros):
        self.text, self.zeros = text, zeros

    def as_text(self):
        return self.text

    def compile(self):
        return lambda *a, **k: self.zeros


class Recording:
    """A jitted function or pallas_call that records its TPU module instead of running."""

    def __init__(self, f):
        self.f = f

    def lower(self, *args, **kwargs):
        text = jax.jit(self.f).trace(*args, **kwargs).lower(lowering_platforms=("tpu",)).as_text()
        record(text)
        return Lowered(text, zeros_like_out(self.f, args, kwargs))

    def __call__(self, *args, **kwargs):
        if any(isinstance(a, jax.core.Tracer) for a in jax.tree.leaves((args, kwargs))):
            return self.f(*args, **kwargs)
        return self.lower(*args, **kwargs).zeros

    def __getattr__(self, name):
        return getattr(self.f, name)


def recording(f):
    return Recording(f)


class Proxy(types.ModuleType):
    def __init__(self, inner, **over):
        super().__init__(inner.__name__)
        self._inner, self._over = inner, over

    def __getattr__(self, name):
        return self._over[name] if name in self._over else getattr(self._inner, name)


def fake_jit(f=None, **kw):
    if f is None:
        return lambda g: fake_jit(g, **kw)
    return recording(jax.jit(f, **kw))


PALLAS_CALL = pl.pallas_call


def fake_pallas_call(*a, **kw):
    return recording(PALLAS_CALL(*a, **kw))


def main():
    global OUT
    git, commit, OUT = sys.argv[1:4]
    os.makedirs(OUT, exist_ok=True)
    jaxtpu.pretend("TPU v6e")
    jtu.is_device_tpu_at_least = lambda *a, **k: True
    jtu.is_device_tpu = lambda *a, **k: True
    jtu.test_device_matches = lambda devices: "tpu" in devices
    jtu.device_under_test = lambda: "tpu"
    pl.pallas_call = fake_pallas_call
    from jax._src.pallas import pallas_call as pallas_call_module
    pallas_call_module.pallas_call = fake_pallas_call
    np.testing.assert_array_equal = np.testing.assert_allclose = lambda *a, **k: None
    tmp = tempfile.mkdtemp()
    # Test helpers newer than the installed jax: taken from the same revision as the tests.
    for helper in ["pallas/pallas_test_util.py", "hypothesis_test_util.py"]:
        name = "jax._src." + helper[:-3].replace("/", ".")
        try:
            importlib.import_module(name)
        except ImportError:
            src = subprocess.run(["git", "-C", git, "show", f"{commit}:jax/_src/{helper}"], check=True,
                                 capture_output=True, text=True).stdout
            path = os.path.join(tmp, os.path.basename(helper))
            with open(path, "w") as fh:
                fh.write(src)
            spec_ = importlib.util.spec_from_file_location(name, path)
            helper_mod = importlib.util.module_from_spec(spec_)
            sys.modules[name] = helper_mod
            spec_.loader.exec_module(helper_mod)
            setattr(importlib.import_module(name.rsplit(".", 1)[0]), name.rsplit(".", 1)[1], helper_mod)
    for spec in sys.argv[4:]:
        fname, _, tests = spec.partition(":")
        src = subprocess.run(["git", "-C", git, "show", f"{commit}:tests/pallas/{fname}"], check=True,
                             capture_output=True, text=True).stdout
        path = os.path.join(tmp, fname)
        with open(path, "w") as fh:
            fh.write(src)
        modname = fname[:-3]
        spec_ = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec_)
        spec_.loader.exec_module(mod)
        mod.jax = Proxy(jax, jit=fake_jit)
        mod.pl = Proxy(pl, pallas_call=fake_pallas_call)
        wanted = tests.split(",") if tests else None
        for cname, cls in inspect.getmembers(mod, inspect.isclass):
            if not issubclass(cls, unittest.TestCase) or "Interpret" in cname:
                continue
            for tname in unittest.TestLoader().getTestCaseNames(cls):
                full = f"{cname}.{tname}"
                if wanted and full not in wanted and tname not in wanted:
                    continue
                CURRENT[0] = f"{modname.replace('tpu_pallas_', '').replace('_test', '')}.{full}"
                result = unittest.TestResult()
                cls(tname).run(result)
                if result.errors or result.failures:
                    err = (result.errors + result.failures)[0][1].strip().splitlines()[-1]
                    print(f"{full}: {err[:200]}")
                elif result.skipped:
                    print(f"{full}: skipped: {result.skipped[0][1][:100]}")
                else:
                    print(f"{full}: ok")
    print(f"{COUNTER[0]} modules written to {OUT}")


if __name__ == "__main__":
    main()
