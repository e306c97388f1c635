"""Lowers a few hundred varied jnp/lax programs with JAX on the CPU and writes
each lowered module as JAX prints it (`jax.jit(f).lower(...).as_text()`, and
`Exported.mlir_module()` for the `export_*` cases): a corpus rich in ordinary
StableHLO and Shardy (`sdy`) ops, for scripts/jaxref/pretty/measure.py.

Usage (the jaxref venv; four host devices for the sharded programs):
  XLA_FLAGS=--xla_force_host_platform_device_count=4 \
  ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/pretty/gen_programs.py OUT_DIR [--big N]

Writes OUT_DIR/<name>.mlir (one module each) and OUT_DIR/ops.tsv (op counts over
the corpus). `--big N` also writes OUT_DIR/big.mlir: one unrolled program of
about N StableHLO ops (the benchmark's module).
"""
import collections
import os
import re
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

S = jax.ShapeDtypeStruct

F32, BF16, F16, I32, I8, U32, BOOL = (jnp.float32, jnp.bfloat16, jnp.float16, jnp.int32, jnp.int8,
                                      jnp.uint32, jnp.bool_)


def programs():
    """Yields (name, function, argument specs, kwargs for jit)."""
    unary = {
        "exp": jnp.exp, "log": jnp.log, "tanh": jnp.tanh, "sin": jnp.sin, "cos": jnp.cos, "sqrt": jnp.sqrt,
        "rsqrt": lax.rsqrt, "abs": jnp.abs, "neg": jnp.negative, "sign": jnp.sign, "floor": jnp.floor,
        "ceil": jnp.ceil, "round": jnp.round, "logistic": jax.nn.sigmoid, "log1p": jnp.log1p,
        "expm1": jnp.expm1, "erf": jax.scipy.special.erf, "isfinite": jnp.isfinite, "tan": jnp.tan,
        "relu": jax.nn.relu, "gelu": jax.nn.gelu, "silu": jax.nn.silu, "square": jnp.square,
        "reciprocal": jnp.reciprocal, "cbrt": jnp.cbrt, "exp2": jnp.exp2, "atan": jnp.arctan,
        "sinh": jnp.sinh, "erf_inv": jax.scipy.special.erfinv, "lgamma": jax.scipy.special.gammaln,
    }
    for dt in (F32, BF16, F16):
        for name, fn in unary.items():
            yield f"unary_{name}_{jnp.dtype(dt).name}", fn, [S((8, 128), dt)]
    for name, fn in {"not": jnp.logical_not, "popcount": lax.population_count, "clz": lax.clz,
                     "invert": jnp.invert, "abs": jnp.abs, "neg": jnp.negative, "sign": jnp.sign}.items():
        for dt in (I32, I8, U32):
            if name in ("abs", "neg", "sign") and dt == U32:
                continue
            yield f"unary_{name}_{jnp.dtype(dt).name}", fn, [S((16, 32), dt)]
    binary = {
        "add": jnp.add, "sub": jnp.subtract, "mul": jnp.multiply, "div": jnp.divide, "max": jnp.maximum,
        "min": jnp.minimum, "pow": jnp.power, "atan2": jnp.arctan2, "rem": jnp.remainder, "fmod": jnp.fmod,
        "lt": jnp.less, "le": jnp.less_equal, "eq": jnp.equal, "ne": jnp.not_equal, "gt": jnp.greater,
        "nextafter": jnp.nextafter, "hypot": jnp.hypot, "where_gt": lambda x, y: jnp.where(x > y, x, y),
        "floordiv": jnp.floor_divide, "copysign": jnp.copysign,
    }
    for dt in (F32, BF16):
        for name, fn in binary.items():
            yield f"binary_{name}_{jnp.dtype(dt).name}", fn, [S((8, 128), dt), S((8, 128), dt)]
    ibinary = {
        "add": jnp.add, "mul": jnp.multiply, "and": jnp.bitwise_and, "or": jnp.bitwise_or,
        "xor": jnp.bitwise_xor, "shl": jnp.left_shift, "shr": jnp.right_shift,
        "shrl": lax.shift_right_logical, "floordiv": jnp.floor_divide, "rem": jnp.remainder,
        "max": jnp.maximum, "lt": jnp.less, "pow": lambda x, y: lax.integer_pow(x, 3) + y,
    }
    for dt in (I32, U32, I8):
        for name, fn in ibinary.items():
            yield f"ibinary_{name}_{jnp.dtype(dt).name}", fn, [S((4, 64), dt), S((4, 64), dt)]
    # Broadcasting.
    yield "bcast_row", lambda x, y: x + y[None, :], [S((8, 128), F32), S((128,), F32)]
    yield "bcast_col", lambda x, y: x * y[:, None], [S((8, 128), F32), S((8,), F32)]
    yield "bcast_outer", lambda x, y: x[:, None] * y[None, :], [S((64,), F32), S((32,), F32)]
    yield "bcast_scalar", lambda x: x * 2.5 + 1.0, [S((3, 5, 7), F32)]
    yield "bcast_to", lambda x: jnp.broadcast_to(x, (4, 8, 16)), [S((8, 1), F32)]
    yield "bcast_3d", lambda x, y: x + y, [S((2, 1, 16), F32), S((1, 8, 16), F32)]
    # Reductions.
    reds = {"sum": jnp.sum, "max": jnp.max, "min": jnp.min, "prod": jnp.prod, "mean": jnp.mean,
            "argmax": jnp.argmax, "argmin": jnp.argmin, "var": jnp.var, "std": jnp.std,
            "logsumexp": jax.scipy.special.logsumexp, "softmax": jax.nn.softmax,
            "log_softmax": jax.nn.log_softmax, "norm": jnp.linalg.norm}
    for name, fn in reds.items():
        for axis in (0, 1, None):
            if name in ("softmax", "log_softmax") and axis is None:
                continue
            yield f"reduce_{name}_{axis}", (lambda fn, axis: lambda x: fn(x, axis=axis))(fn, axis), [S((16, 64), F32)]
    yield "reduce_any", lambda x: jnp.any(x > 0, axis=1), [S((8, 32), F32)]
    yield "reduce_all", lambda x: jnp.all(x, axis=0), [S((8, 32), BOOL)]
    yield "reduce_sum_bf16", lambda x: jnp.sum(x, axis=-1, dtype=F32), [S((8, 256), BF16)]
    yield "reduce_sum_i32", lambda x: jnp.sum(x, axis=(0, 2)), [S((4, 8, 16), I32)]
    yield "reduce_multi", lambda x: (jnp.max(x, 1), jnp.argmax(x, 1)), [S((8, 32), F32)]
    yield "layernorm", lambda x, g, b: (x - x.mean(-1, keepdims=True)) * lax.rsqrt(x.var(-1, keepdims=True) + 1e-5) * g + b, [S((16, 256), F32), S((256,), F32), S((256,), F32)]
    yield "reduce_window_max", lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), [S((2, 16, 16, 4), F32)]
    yield "reduce_window_sum", lambda x: lax.reduce_window(x, 0.0, lax.add, (3, 3), (1, 1), "SAME"), [S((16, 16), F32)]
    yield "reduce_precision", lambda x: lax.reduce_precision(x, 5, 10), [S((8, 8), F32)]
    # dot_general / einsum.
    for dt in (F32, BF16):
        n = jnp.dtype(dt).name
        yield f"matmul_{n}", jnp.matmul, [S((64, 128), dt), S((128, 32), dt)]
        yield f"matmul_batched_{n}", jnp.matmul, [S((4, 16, 32), dt), S((4, 32, 8), dt)]
        yield f"dot_pref_{n}", lambda x, y: jnp.dot(x, y, preferred_element_type=F32), [S((16, 32), dt), S((32, 16), dt)]
        yield f"dot_highest_{n}", lambda x, y: jnp.dot(x, y, precision=lax.Precision.HIGHEST), [S((16, 32), dt), S((32, 16), dt)]
        yield f"vdot_{n}", jnp.vdot, [S((32,), dt), S((32,), dt)]
    for spec, shapes in {"ij,jk->ik": [(8, 16), (16, 4)], "bij,bjk->bik": [(2, 8, 16), (2, 16, 4)],
                         "ij,kj->ik": [(8, 16), (4, 16)], "bhqd,bhkd->bhqk": [(1, 2, 8, 16), (1, 2, 8, 16)],
                         "i,i->": [(8,), (8,)], "ij,j->i": [(8, 16), (16,)], "abc,cd->abd": [(2, 3, 4), (4, 5)],
                         "ij,ij->ij": [(4, 4), (4, 4)], "ii->i": [(4, 4)], "ij->ji": [(3, 5)]}.items():
        name = re.sub(r"[^a-z]", "_", spec)
        yield f"einsum_{name}", (lambda spec: lambda *a: jnp.einsum(spec, *a))(spec), [S(s, F32) for s in shapes]
    yield "dot_general_int8", lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=I32), [S((16, 32), I8), S((32, 16), I8)]
    yield "attention", lambda q, k, v: jax.nn.softmax(q @ k.T / 8.0) @ v, [S((16, 64), F32), S((16, 64), F32), S((16, 64), F32)]
    yield "mlp", lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2, [S((8, 32), F32), S((32, 64), F32), S((64, 16), F32)]
    # Slicing, indexing.
    yield "slice_basic", lambda x: x[1:5, 2:10], [S((8, 16), F32)]
    yield "slice_strided", lambda x: x[::2, 1::3], [S((8, 16), F32)]
    yield "slice_index", lambda x: x[..., 3], [S((4, 8, 16), F32)]
    yield "slice_neg", lambda x: x[-3:], [S((8, 16), F32)]
    yield "lax_slice", lambda x: lax.slice(x, (0, 1), (4, 9), (2, 2)), [S((8, 16), F32)]
    yield "dynamic_slice", lambda x, i: lax.dynamic_slice(x, (i, 0), (2, 16)), [S((8, 16), F32), S((), I32)]
    yield "dynamic_slice_in_dim", lambda x, i: lax.dynamic_slice_in_dim(x, i, 4, axis=1), [S((8, 16), F32), S((), I32)]
    yield "dynamic_update_slice", lambda x, u, i: lax.dynamic_update_slice(x, u, (i, i)), [S((8, 16), F32), S((2, 4), F32), S((), I32)]
    yield "dynamic_index", lambda x, i: x[i], [S((8, 16), F32), S((), I32)]
    yield "at_set", lambda x, i: x.at[i].set(0.0), [S((8, 16), F32), S((), I32)]
    yield "at_add_static", lambda x: x.at[2:4].add(1.0), [S((8, 16), F32)]
    # Gather / scatter.
    yield "gather_take", lambda x, idx: jnp.take(x, idx, axis=0), [S((16, 8), F32), S((4,), I32)]
    yield "gather_take_axis1", lambda x, idx: jnp.take(x, idx, axis=1), [S((16, 8), F32), S((4,), I32)]
    yield "gather_fancy", lambda x, i, j: x[i, j], [S((16, 8), F32), S((4,), I32), S((4,), I32)]
    yield "gather_take_along", lambda x, idx: jnp.take_along_axis(x, idx, axis=1), [S((4, 8), F32), S((4, 3), I32)]
    yield "scatter_set", lambda x, idx, u: x.at[idx].set(u), [S((16, 8), F32), S((4,), I32), S((4, 8), F32)]
    yield "scatter_add", lambda x, idx, u: x.at[idx].add(u), [S((16, 8), F32), S((4,), I32), S((4, 8), F32)]
    yield "scatter_max", lambda x, idx, u: x.at[idx].max(u), [S((16,), F32), S((4,), I32), S((4,), F32)]
    yield "scatter_mul", lambda x, idx, u: x.at[idx].multiply(u), [S((16,), F32), S((4,), I32), S((4,), F32)]
    yield "segment_sum", lambda x, s: jax.ops.segment_sum(x, s, num_segments=4), [S((16,), F32), S((16,), I32)]
    yield "one_hot", lambda i: jax.nn.one_hot(i, 10), [S((8,), I32)]
    # Shapes.
    yield "concat", lambda x, y: jnp.concatenate([x, y], axis=1), [S((8, 16), F32), S((8, 8), F32)]
    yield "concat3", lambda x, y, z: jnp.concatenate([x, y, z], axis=0), [S((2, 4), F32), S((3, 4), F32), S((1, 4), F32)]
    yield "stack", lambda x, y: jnp.stack([x, y]), [S((8, 16), F32), S((8, 16), F32)]
    yield "pad", lambda x: jnp.pad(x, ((1, 2), (0, 3))), [S((8, 16), F32)]
    yield "pad_interior", lambda x: lax.pad(x, 0.0, ((1, 1, 1), (0, 0, 2))), [S((4, 4), F32)]
    yield "pad_edge", lambda x: jnp.pad(x, 2, mode="edge"), [S((4, 4), F32)]
    yield "reverse", lambda x: jnp.flip(x, axis=0), [S((8, 16), F32)]
    yield "transpose", lambda x: jnp.transpose(x, (2, 0, 1)), [S((2, 3, 4), F32)]
    yield "reshape", lambda x: x.reshape(4, 32), [S((8, 16), F32)]
    yield "squeeze", lambda x: jnp.squeeze(x, 1), [S((8, 1, 16), F32)]
    yield "expand_dims", lambda x: jnp.expand_dims(x, (0, 2)), [S((8, 16), F32)]
    yield "roll", lambda x: jnp.roll(x, 3, axis=1), [S((8, 16), F32)]
    yield "tile", lambda x: jnp.tile(x, (2, 3)), [S((4, 4), F32)]
    yield "repeat", lambda x: jnp.repeat(x, 2, axis=0), [S((4, 4), F32)]
    yield "tril", jnp.tril, [S((8, 8), F32)]
    yield "diag", jnp.diag, [S((8, 8), F32)]
    yield "split", lambda x: jnp.split(x, 4, axis=1), [S((8, 16), F32)]
    # Control flow.
    yield "fori_loop", lambda x: lax.fori_loop(0, 10, lambda i, c: c * 1.5 + i, x), [S((8, 16), F32)]
    yield "fori_loop_dyn", lambda x, n: lax.fori_loop(0, n, lambda i, c: c + 1.0, x), [S((8,), F32), S((), I32)]
    yield "while_loop", lambda x: lax.while_loop(lambda c: c[0] < 100.0, lambda c: c * 2.0, x), [S((4,), F32)]
    yield "scan_cumsum", lambda x: lax.scan(lambda c, v: (c + v, c * v), 0.0, x), [S((16,), F32)]
    yield "scan_rnn", lambda h, xs, w: lax.scan(lambda h, x: (jnp.tanh(h @ w + x), h), h, xs), [S((8,), F32), S((5, 8), F32), S((8, 8), F32)]
    yield "cond", lambda p, x: lax.cond(p, lambda x: x + 1.0, lambda x: x * 2.0, x), [S((), BOOL), S((8,), F32)]
    yield "cond_multi", lambda p, x, y: lax.cond(p > 0, lambda a, b: (a, b), lambda a, b: (b, a), x, y), [S((), I32), S((8,), F32), S((8,), F32)]
    yield "switch", lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x), [S((), I32), S((8,), F32)]
    yield "select_n", lambda i, x, y, z: lax.select_n(i, x, y, z), [S((8,), I32), S((8,), F32), S((8,), F32), S((8,), F32)]
    yield "clamp", lambda x: jnp.clip(x, -1.0, 1.0), [S((8, 16), F32)]
    yield "lax_clamp", lambda lo, x, hi: lax.clamp(lo, x, hi), [S((), F32), S((8,), F32), S((), F32)]
    yield "map", lambda x: lax.map(lambda r: jnp.sum(r * r), x), [S((4, 8), F32)]
    yield "vmap_matvec", jax.vmap(lambda m, v: m @ v), [S((4, 8, 8), F32), S((4, 8), F32)]
    yield "grad_mlp", jax.grad(lambda w, x: jnp.sum(jnp.tanh(x @ w) ** 2)), [S((16, 8), F32), S((4, 16), F32)]
    yield "jvp_sin", lambda x, t: jax.jvp(jnp.sin, (x,), (t,)), [S((8,), F32), S((8,), F32)]
    yield "remat", jax.checkpoint(lambda x: jnp.sin(jnp.sin(x))), [S((8,), F32)]
    yield "nested_jit", lambda x: jax.jit(lambda y: y * 2)(x) + 1, [S((8,), F32)]
    yield "custom_jvp_softplus", jax.nn.softplus, [S((8,), F32)]
    yield "optimization_barrier", lambda x: lax.optimization_barrier((x, x + 1)), [S((8,), F32)]
    # Iota, converts, bitcasts.
    yield "iota", lambda: jnp.arange(16), []
    yield "iota_2d", lambda: lax.broadcasted_iota(I32, (4, 8), 1), []
    yield "linspace", lambda: jnp.linspace(0.0, 1.0, 11), []
    yield "eye", lambda: jnp.eye(8), []
    for src, dst in ((F32, BF16), (BF16, F32), (F32, I32), (I32, F32), (F32, F16), (I8, I32), (I32, I8),
                     (BOOL, F32), (F32, BOOL), (U32, F32), (F32, U32), (I32, U32)):
        yield f"convert_{jnp.dtype(src).name}_{jnp.dtype(dst).name}", (lambda dst: lambda x: x.astype(dst))(dst), [S((8, 16), src)]
    for src, dst in ((F32, I32), (I32, F32), (F32, U32), (BF16, jnp.int16), (F32, I8), (I8, F32)):
        yield f"bitcast_{jnp.dtype(src).name}_{jnp.dtype(dst).name}", (lambda dst: lambda x: lax.bitcast_convert_type(x, dst))(dst), [S((8, 16), src)]
    # Sorting, scans.
    yield "sort", jnp.sort, [S((8, 16), F32)]
    yield "sort_axis0", lambda x: jnp.sort(x, axis=0), [S((8, 16), F32)]
    yield "argsort", jnp.argsort, [S((16,), F32)]
    yield "sort_keyval", lambda k, v: lax.sort((k, v), num_keys=1), [S((16,), I32), S((16,), F32)]
    yield "top_k", lambda x: lax.top_k(x, 4), [S((8, 32), F32)]
    yield "cumsum", lambda x: jnp.cumsum(x, axis=1), [S((8, 16), F32)]
    yield "cumsum_i32", jnp.cumsum, [S((16,), I32)]
    yield "cumprod", jnp.cumprod, [S((16,), F32)]
    yield "cummax", lambda x: lax.cummax(x, axis=0), [S((16, 4), F32)]
    yield "cumlogsumexp", lambda x: lax.cumlogsumexp(x, axis=0), [S((16,), F32)]
    yield "unique_counts", lambda x: jnp.bincount(x, length=8), [S((16,), I32)]
    yield "searchsorted", lambda a, v: jnp.searchsorted(a, v), [S((16,), F32), S((4,), F32)]
    # Convolutions, random, misc.
    yield "conv2d", lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), [S((1, 16, 16, 3), F32), S((3, 3, 3, 8), F32)]
    yield "conv1d_strided", lambda x, w: lax.conv_general_dilated(x, w, (2,), "VALID"), [S((1, 4, 32), F32), S((8, 4, 3), F32)]
    yield "conv_transpose", lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), [S((1, 8, 8, 4), F32), S((3, 3, 4, 2), F32)]
    yield "random_normal", lambda k: jax.random.normal(jax.random.wrap_key_data(k), (8, 16)), [S((2,), U32)]
    yield "random_uniform", lambda k: jax.random.uniform(jax.random.wrap_key_data(k), (16,)), [S((2,), U32)]
    yield "random_bits", lambda k: jax.random.bits(jax.random.wrap_key_data(k), (4, 4)), [S((2,), U32)]
    yield "random_split", lambda k: jax.random.key_data(jax.random.split(jax.random.wrap_key_data(k), 3)), [S((2,), U32)]
    yield "rng_bit_generator", lambda k: lax.rng_bit_generator(k, (8, 8)), [S((4,), U32)]
    yield "complex_mul", lambda x, y: (lax.complex(x, y) * lax.complex(y, x)).real, [S((8,), F32), S((8,), F32)]
    yield "fft", lambda x: jnp.abs(jnp.fft.fft(x)), [S((16,), F32)]
    yield "cholesky", jnp.linalg.cholesky, [S((4, 4), F32)]
    yield "triangular_solve", lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True), [S((4, 4), F32), S((4, 2), F32)]
    yield "nan_to_num", jnp.nan_to_num, [S((8,), F32)]
    yield "isclose", lambda x, y: jnp.isclose(x, y), [S((8,), F32), S((8,), F32)]
    yield "polyval", lambda x: jnp.polyval(jnp.array([1.0, 2.0, 3.0]), x), [S((8,), F32)]
    yield "constant_array", lambda x: x + jnp.array([[1.0, 2.0], [3.0, 4.0]]), [S((2, 2), F32)]
    yield "constant_splat_i8", lambda x: x + jnp.ones((4,), I8), [S((4,), I8)]
    yield "constant_bool", lambda x: jnp.logical_and(x, jnp.array([True, False, True, False])), [S((4,), BOOL)]
    yield "tuple_out", lambda x: (x, x + 1, (x * 2, x - 1)), [S((4,), F32)]
    yield "no_args_scalar", lambda: jnp.float32(3.0), []
    yield "f64_disabled", lambda x: x.astype(jnp.float32) * 1e-3, [S((4,), F32)]
    yield "dynamic_shape_poly_free", lambda x: x.sum() / x.size, [S((7, 9), F32)]
    yield "debug_callback_free", lambda x: jnp.where(jnp.isnan(x), 0.0, x), [S((8,), F32)]


def sharded_programs():
    """Programs on a 4-device mesh: NamedSharding, with_sharding_constraint, shard_map."""
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    try:
        from jax import shard_map
    except ImportError:  # older spelling
        from jax.experimental.shard_map import shard_map
    devs = np.array(jax.devices()[:4])
    mesh2 = Mesh(devs.reshape(2, 2), ("x", "y"))
    mesh1 = Mesh(devs, ("i",))

    def jit_sharded(fn, mesh, ins, outs=None):
        ins = tuple(NamedSharding(mesh, p) for p in ins)
        kw = {"in_shardings": ins}
        if outs is not None:
            kw["out_shardings"] = NamedSharding(mesh, outs)
        return jax.jit(fn, **kw)

    yield "sdy_matmul", jit_sharded(jnp.matmul, mesh2, [P("x", None), P(None, "y")], P("x", "y")), [S((16, 32), F32), S((32, 16), F32)]
    yield "sdy_add", jit_sharded(jnp.add, mesh1, [P("i"), P("i")]), [S((16, 8), F32), S((16, 8), F32)]
    yield "sdy_replicated", jit_sharded(lambda x: x * 2, mesh2, [P()], P()), [S((8, 8), F32)]
    yield "sdy_constraint", jax.jit(lambda x: jax.lax.with_sharding_constraint(jnp.sin(x), NamedSharding(mesh2, P("y", "x"))) * 2), [S((16, 16), F32)]
    yield "sdy_constraint_1d", jax.jit(lambda x: jax.lax.with_sharding_constraint(x + 1, NamedSharding(mesh1, P(None, "i")))), [S((4, 16), F32)]

    def sm(fn, mesh, in_specs, out_specs, **kw):
        return jax.jit(shard_map(fn, mesh=mesh, in_specs=in_specs, out_specs=out_specs, **kw))

    yield "sdy_shard_map_psum", sm(lambda x: jax.lax.psum(x, "i"), mesh1, (P("i"),), P()), [S((16, 8), F32)]
    yield "sdy_shard_map_elementwise", sm(lambda x, y: x * y + 1, mesh2, (P("x", "y"), P("x", "y")), P("x", "y")), [S((16, 16), F32), S((16, 16), F32)]
    yield "sdy_shard_map_allgather", sm(lambda x: jax.lax.all_gather(x, "i", tiled=True), mesh1, (P("i"),), P()), [S((16, 4), F32)]
    yield "sdy_shard_map_ppermute", sm(lambda x: jax.lax.ppermute(x, "i", [(k, (k + 1) % 4) for k in range(4)]), mesh1, (P("i"),), P("i")), [S((16, 4), F32)]
    yield "sdy_shard_map_psum_scatter", sm(lambda x: jax.lax.psum_scatter(x, "i", tiled=True), mesh1, (P(),), P("i")), [S((16, 4), F32)]
    yield "sdy_shard_map_all_to_all", sm(lambda x: jax.lax.all_to_all(x, "i", 0, 0, tiled=True), mesh1, (P("i"),), P("i")), [S((16, 4), F32)]
    yield "sdy_shard_map_axis_index", sm(lambda x: x + jax.lax.axis_index("i").astype(F32), mesh1, (P("i"),), P("i")), [S((16, 4), F32)]
    yield "sdy_shard_map_matmul", sm(lambda a, b: jax.lax.psum(a @ b, "y"), mesh2, (P("x", "y"), P("y", None)), P("x", None)), [S((16, 32), F32), S((32, 8), F32)]
    yield "sdy_shard_map_pmax", sm(lambda x: jax.lax.pmax(x, ("x", "y")), mesh2, (P("x", "y"),), P()), [S((8, 8), F32)]
    yield "sdy_mlp", jit_sharded(lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2, mesh2, [P("x", None), P(None, "y"), P("y", None)], P("x", None)), [S((16, 32), F32), S((32, 64), F32), S((64, 16), F32)]


def big_program(n_ops):
    """An unrolled program of about `n_ops` StableHLO ops: layers of matmul,
    bias, activation, normalization and slicing, unrolled in Python."""
    layers = max(1, n_ops // 25)

    def f(x, w):
        for i in range(layers):
            y = x @ w + (i % 7) * 0.5
            y = jnp.tanh(y) if i % 2 else jax.nn.relu(y)
            y = y - jnp.max(y, axis=-1, keepdims=True)
            y = y * lax.rsqrt(jnp.mean(y * y, axis=-1, keepdims=True) + 1e-5)
            x = jnp.concatenate([y[:, 1:], y[:, :1]], axis=1).astype(jnp.bfloat16).astype(jnp.float32)
        return x

    return f, [S((8, 128), F32), S((128, 128), F32)]


def count_ops(text, counts):
    for m in re.finditer(r'(?:^|[=\s(])"?((?:stablehlo|sdy|chlo|mhlo|func|tpu|shape)\.[a-z_0-9]+)"?[\s(<{@:]', text, re.M):
        counts[m.group(1)] += 1
    for m in re.finditer(r"#sdy\.[a-z_]+", text):
        counts[m.group(0)] += 1


def main(argv):
    out = argv[1]
    big = None
    if "--big" in argv:
        big = int(argv[argv.index("--big") + 1])
    os.makedirs(out, exist_ok=True)
    counts = collections.Counter()
    ok = failed = 0
    from jax import export
    for gen in (programs(), sharded_programs()):
        while True:
            try:
                name, fn, specs = next(gen)
            except StopIteration:
                break
            try:
                jitted = fn if hasattr(fn, "lower") else jax.jit(fn)
                text = jitted.lower(*specs).as_text()
            except Exception as e:  # noqa: BLE001 (a program JAX refuses is skipped, said on stderr)
                print(f"skip {name}: {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
                failed += 1
                continue
            with open(os.path.join(out, name + ".mlir"), "w") as f:
                f.write(text)
            count_ops(text, counts)
            ok += 1
            if name in ("matmul_float32", "while_loop", "scatter_add", "sort_keyval", "cond", "sdy_matmul",
                        "sdy_shard_map_psum", "conv2d"):
                exp = export.export(jitted if hasattr(jitted, "trace") else jax.jit(fn))(*specs)
                text = str(exp.mlir_module())
                with open(os.path.join(out, "export_" + name + ".mlir"), "w") as f:
                    f.write(text)
                count_ops(text, counts)
                ok += 1
    if big:
        f, specs = big_program(big)
        text = jax.jit(f).lower(*specs).as_text()
        with open(os.path.join(out, "big.mlir"), "w") as fh:
            fh.write(text)
    with open(os.path.join(out, "ops.tsv"), "w") as f:
        for op, n in counts.most_common():
            f.write(f"{op}\t{n}\n")
    print(f"{ok} modules written to {out}, {failed} skipped; {len(counts)} distinct ops", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
