"""Writes mlir-fixtures/hlo-pretty/: JAX programs lowered by jaxlib, each as
NAME.pretty.mlir (jaxlib's pretty print) and NAME.generic.mlir (jaxlib's
generic print of the same module), both without debug info.

Run with the reference venv (jaxlib 0.12, CPU):
  XLA_FLAGS=--xla_force_host_platform_device_count=4 \
    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/hlo_pretty_fixtures.py [CORPUS_MODULE.mlir ...]
Extra arguments are module files already printed by JAX (e.g. from the suite
corpus); each is re-printed both ways under the name corpus_<stem>.
"""
import os
import sys
import pathlib

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")
import jax
import jax.numpy as jnp
import numpy as np
from jax._src.lib.mlir import ir
from jax._src.interpreters import mlir as jm
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

OUT = pathlib.Path(__file__).resolve().parents[2] / "mlir-fixtures" / "hlo-pretty"


def elementwise(x, y):
    a = jnp.broadcast_to(x[0], (4, 8)) + y
    b = jnp.where(a > 0, a * 2.0, -a) - jnp.exp(a) / 3.0
    c = jnp.sum(b, axis=1) + jnp.max(b, axis=0)[:4]
    d = jnp.transpose(b) @ b
    return c, d.astype(jnp.int32) % 3, jnp.concatenate([c, c])


def integer(x, y):
    i = x.astype(jnp.int32)
    u = jax.lax.shift_right_logical(i, 2) | (i & 7)
    s = jnp.sign(y) + jnp.minimum(x, y) - jnp.maximum(x, y)
    b = jax.lax.bitcast_convert_type(s, jnp.int32)
    io = jax.lax.iota(jnp.int32, 8)
    return u + io, b, jnp.reshape(s, (8, 4))


def loops(x, i):
    def body(c):
        k, v = c
        v = jax.lax.dynamic_update_slice(v, jax.lax.dynamic_slice(v, (k, 0), (1, 8)) * 2, (k, 0))
        return k + 1, v
    _, v = jax.lax.while_loop(lambda c: c[0] < 4, body, (i, x))
    r = jax.lax.reduce(v, (jnp.float32(0), jnp.int32(0)) if False else jnp.float32(0),
                       lambda a, b: a * b + 1.0, (0,))
    return v, r


def argmax(x):
    return jnp.argmax(x, axis=1), jnp.cumsum(x, axis=0)


def scatter(x, idx):
    return x.at[idx].add(1.0), x[idx]


def sharded(x):
    return jnp.sin(x) * 2


def shard_mapped(x):
    mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
    f = jax.shard_map(lambda a: a * 2 + jax.lax.psum(a, "x"), mesh=mesh,
                      in_specs=P("x"), out_specs=P("x"))
    return f(x)


def constraint(x):
    mesh = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("a", "b"))
    y = jax.lax.with_sharding_constraint(x * 3, NamedSharding(mesh, P("a", "b")))
    return y + 1


def programs():
    f32 = jnp.ones((4, 8), jnp.float32)
    yield "elementwise", jax.jit(elementwise).lower(f32, f32)
    yield "integer", jax.jit(integer).lower(f32, f32)
    yield "loops", jax.jit(loops).lower(f32, jnp.int32(0))
    yield "argmax", jax.jit(argmax).lower(f32)
    yield "scatter", jax.jit(scatter).lower(f32, jnp.array([1, 2], jnp.int32))
    mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
    yield "sharded", jax.jit(sharded, in_shardings=NamedSharding(mesh, P("x")),
                             out_shardings=NamedSharding(mesh, P(None, "x"))).lower(
        jnp.ones((8, 8), jnp.float32))
    yield "shard_map", jax.jit(shard_mapped).lower(jnp.ones((8, 8), jnp.float32))
    yield "constraint", jax.jit(constraint).lower(jnp.ones((8, 8), jnp.float32))


def write(name, text):
    ctx = jm.make_ir_context()
    with ctx:
        m = ir.Module.parse(text)
        pretty = m.operation.get_asm(print_generic_op_form=False, enable_debug_info=False)
        generic = m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    (OUT / f"{name}.pretty.mlir").write_text(pretty)
    (OUT / f"{name}.generic.mlir").write_text(generic)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, lowered in programs():
        write(name, lowered.as_text())
    for path in sys.argv[1:]:
        p = pathlib.Path(path)
        write("corpus_" + p.stem[:16], p.read_text())


if __name__ == "__main__":
    main()
