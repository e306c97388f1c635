"""Production Pallas TPU kernels (jax.experimental.pallas.ops.tpu) as executor reference cases.

Each production entry point is run once eagerly (jax.disable_jit) in interpret mode with every
pl.pallas_call intercepted (refs_lib.pallas_mode(capture=...)): that gives each pallas_call's kernel,
arguments and concrete operands. A case is then exactly one of those pallas_calls applied to its
captured operands, so the custom call's operands are the kernel's inputs in order.
"""
from __future__ import annotations

import functools
import inspect
import textwrap
import types

import jax
import jax.numpy as jnp
import numpy as np

import refs_lib as rl


def capture(fn, *args, **kwargs) -> list[dict]:
  cap: list[dict] = []
  with jax.disable_jit(), rl.pallas_mode(True, cap):
    jax.block_until_ready(fn(*args, **kwargs))
  for c in cap:
    leaves, c["treedef"] = jax.tree.flatten(tuple(c["operands"]))
    c["operands"] = [np.asarray(o) for o in leaves]
  return cap


def rebuild(call: dict, kernel=None, **kw_over):
  """build(interpret) for one captured pallas_call (optionally with another kernel / arguments)."""
  args = list(call["args"])
  kwargs = dict(call["kwargs"])
  kwargs.update(kw_over)
  if kernel is not None:
    if args:
      args[0] = kernel
    else:
      kwargs["kernel"] = kernel

  def build(interpret):
    kw = dict(kwargs)
    kw["interpret"] = rl.interp(interpret)
    treedef = call["treedef"]
    return lambda *ops: rl.REAL_PALLAS_CALL(*args, **kw)(*jax.tree.unflatten(treedef, ops))
  return build


def fresh(kernel):
  """The same kernel as a new function object (so no trace cache can hand back the original)."""
  @functools.wraps(kernel if not isinstance(kernel, functools.partial) else kernel.func)
  def k(*a, **kw):
    return kernel(*a, **kw)
  return k


def mutate_source(fn, replacements: list[tuple[str, str]], extra_globals=None):
  """fn recompiled from its source with textual replacements, in its own module's globals.
  Each `old` must occur exactly once."""
  src = textwrap.dedent(inspect.getsource(fn))
  for old, new in replacements:
    n = src.count(old)
    if n != 1:
      raise ValueError(f"mutation {old!r} occurs {n} times in {fn.__name__}")
    src = src.replace(old, new)
  # drop decorators (the kernels here are plain functions)
  lines = src.splitlines()
  while lines[0].lstrip().startswith("@"):
    lines.pop(0)
  src = "\n".join(lines) + "\n"
  glb = dict(fn.__globals__)
  if extra_globals:
    glb.update(extra_globals)
  code = compile(src, inspect.getsourcefile(fn), "exec")
  ns: dict = {}
  exec(code, glb, ns)
  new = ns[fn.__name__]
  return new


class patch_module:
  """Context manager: temporarily sets module attributes."""

  def __init__(self, module, **attrs):
    self.module, self.attrs, self.old = module, attrs, {}

  def __enter__(self):
    for k, v in self.attrs.items():
      self.old[k] = getattr(self.module, k)
      setattr(self.module, k, v)

  def __exit__(self, *exc):
    for k, v in self.old.items():
      setattr(self.module, k, v)


def with_patch(build, module, **attrs):
  """build(interpret) whose function runs (and so traces its kernel) with module attributes patched."""
  def b(interpret):
    fn = build(interpret)

    def f(*a):
      with patch_module(module, **attrs):
        return fn(*a)
    return f
  return b
