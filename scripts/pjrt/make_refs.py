"""Reference data for the PJRT CPU runtime tests (tests/integration/pjrt_cpu.rs): kernel-free JAX programs
lowered as JAX 0.12 lowers them (`jax.jit(f).lower(...).as_text()`), their inputs, and JAX's CPU results.

    ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/pjrt/make_refs.py --out tests/data/pjrt-cpu

Writes, per case NAME: NAME.mlir (and elementwise.mlirbc, the same program as `jax.export` serializes it), NAME.in<i>.npy, NAME.out<i>.npy (global arrays), and cases.json: for each case
its partitions, the element types of inputs and outputs as MLIR spells them (bf16 and f8 arrays are saved as their
uint16/uint8 bit patterns), and for sharded cases the axis each input and output is split along over the devices
(null: replicated). Deterministic: fixed seeds, no timestamps.
"""
import argparse
import json
import os

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

jax.config.update("jax_enable_x64", True)

MLIR_NAMES = {
    "float64": "f64", "float32": "f32", "bfloat16": "bf16", "float16": "f16",
    "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "float8_e4m3b11fnuz": "f8E4M3B11FNUZ",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "bool": "i1",
}


def mlir_name(dtype):
    return MLIR_NAMES[np.dtype(dtype).name]


def savable(a):
    a = np.asarray(a)
    if a.dtype == ml_dtypes.bfloat16:
        return a.view(np.uint16)
    if a.dtype.itemsize == 1 and a.dtype.kind == "V" or "float8" in a.dtype.name:
        return a.view(np.uint8)
    return a


def values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        return rng.integers(lo, hi + 1, size=shape).astype(dtype)
    return rng.standard_normal(size=shape).astype(np.float32).astype(dtype)


def cases():
    rng = np.random.default_rng(48)
    out = []

    def case(name, f, args, partitions=1, in_axes=None, out_axes=None, jit=None, shardy=True):
        out.append(dict(name=name, f=f, args=args, partitions=partitions, in_axes=in_axes, out_axes=out_axes,
                        jit=jit, shardy=shardy))

    f32 = np.float32
    case("elementwise", lambda x, y: jnp.sin(x) * y + 1.0, [values(rng, (8, 128), f32), values(rng, (8, 128), f32)])
    case("matmul_reduce", lambda a, b: ((a @ b).sum(axis=0), jnp.max(a, axis=1)),
         [values(rng, (16, 32), f32), values(rng, (32, 8), f32)])
    case("integers", lambda x, y: ((x * 3 + y) // 2, x > y, jnp.bitwise_xor(x, y)),
         [values(rng, (4, 5), np.int32), values(rng, (4, 5), np.int32)])
    case("bf16", lambda x, w: (x * x + 1, (x @ w).astype(jnp.bfloat16)),
         [values(rng, (8, 16), ml_dtypes.bfloat16), values(rng, (16, 4), ml_dtypes.bfloat16)])
    case("scalars", lambda x, n: (x * n.astype(jnp.float32), n + 1), [np.float32(2.5), np.int32(7)])
    case("chlo", lambda x: (jax.nn.gelu(x, approximate=False), *jax.lax.top_k(x, 3)), [values(rng, (4, 16), f32)])
    case("control_flow", lambda x: jax.lax.fori_loop(0, 5, lambda i, c: c * 0.5 + jnp.cos(c) * i, x),
         [values(rng, (32,), f32)])
    dtypes = [np.float64, np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn,
              ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3b11fnuz, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]
    case("dtypes", lambda *xs: tuple(jnp.flip(x, axis=-1) for x in xs), [values(rng, (2, 3), t) for t in dtypes])

    mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
    rows = NamedSharding(mesh, P("x"))
    replicated = NamedSharding(mesh, P())
    case("sharded", lambda x, w: (jnp.tanh(x @ w) + x.sum(), (x * 2).sum(axis=0)),
         [values(rng, (16, 8), f32), values(rng, (8, 8), f32)], partitions=4, in_axes=[0, None],
         out_axes=[0, None], jit=dict(in_shardings=(rows, replicated), out_shardings=(rows, replicated)))

    case("sharded_gspmd", lambda x: (jnp.exp(x) / jnp.exp(x).sum(axis=0), x.max()), [values(rng, (8, 4), f32)],
         partitions=4, in_axes=[0], out_axes=[None, None],
         jit=dict(in_shardings=(rows,), out_shardings=(replicated, replicated)), shardy=False)

    def with_index(x):
        return x + jax.lax.axis_index("x").astype(x.dtype)

    ids = jax.shard_map(with_index, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    case("partition_ids", ids, [np.zeros((8, 2), np.int32)], partitions=4, in_axes=[0], out_axes=[0],
         jit=dict(in_shardings=(rows,), out_shardings=rows))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    index = []
    for c in cases():
        jax.config.update("jax_use_shardy_partitioner", c["shardy"])
        jitted = jax.jit(c["f"], **(c["jit"] or {}))
        inputs = [np.asarray(a) for a in c["args"]]
        lowered = jitted.lower(*inputs)
        results = jitted(*inputs)
        if c["name"] == "elementwise":
            # The same program as JAX serializes an export: StableHLO bytecode (a portable artifact).
            exported = jax.export.export(jitted)(*inputs)
            with open(os.path.join(args.out, "elementwise.mlirbc"), "wb") as f:
                f.write(exported.mlir_module_serialized)
        if not isinstance(results, (tuple, list)):
            results = (results,)
        results = [np.asarray(r) for r in results]
        with open(os.path.join(args.out, c["name"] + ".mlir"), "w") as f:
            f.write(lowered.as_text())
        for i, a in enumerate(inputs):
            np.save(os.path.join(args.out, f"{c['name']}.in{i}.npy"), savable(a))
        for i, r in enumerate(results):
            np.save(os.path.join(args.out, f"{c['name']}.out{i}.npy"), savable(r))
        index.append(dict(
            name=c["name"], partitions=c["partitions"],
            inputs=[mlir_name(a.dtype) for a in inputs], outputs=[mlir_name(r.dtype) for r in results],
            in_axes=c["in_axes"], out_axes=c["out_axes"]))
    with open(os.path.join(args.out, "cases.json"), "w") as f:
        json.dump(dict(jax=jax.__version__, jaxlib=jax.lib.__version__ if hasattr(jax.lib, "__version__") else None,
                       cases=index), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
