"""Lowers whole-model JAX programs for TPU (`jax.jit(f).trace(...).lower(lowering_platforms=('tpu',))`,
on this CPU-only machine) and writes each module as JAX prints it (`Lowered.as_text()`): the
generated programs of scripts/jaxref/pretty/gen_programs.py (jnp, lax, shard_map) lowered for
TPU, plus model blocks (a transformer MLP with a Pallas RMS-norm kernel and exact GELU, attention,
MoE routing with top_k, a Pallas matmul inside shard_map) and every jax.nn activation and
jax.scipy.special function, so that `chlo` ops (erf, erfc, top_k, lgamma, digamma, erf_inv, ...)
and `tpu_custom_call`s appear inside ordinary StableHLO (issue 41).

Usage (the jaxref venv; four host devices for the sharded programs):
  ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/models/gen_models.py OUT_DIR

Writes OUT_DIR/<name>.mlir and OUT_DIR/ops.tsv (op counts). Measure with
  scripts/jaxref/pretty/measure.py --cli target/release/tpu-custom-call models='OUT_DIR/*.mlir'
"""
import collections
import functools
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=4")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.special as sp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pretty"))
import gen_programs  # noqa: E402

S = jax.ShapeDtypeStruct
F32, BF16, I32 = jnp.float32, jnp.bfloat16, jnp.int32


def rms_norm_kernel(x_ref, g_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = x * lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g_ref[...]


def pallas_rms_norm(x, g):
    rows, d = x.shape
    block = min(rows, 8)
    return pl.pallas_call(
        rms_norm_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows // block,),
        in_specs=[pl.BlockSpec((block, d), lambda i: (i, 0)), pl.BlockSpec((1, d), lambda i: (0, 0))],
        out_specs=pl.BlockSpec((block, d), lambda i: (i, 0)))(x, g.reshape(1, d))


def matmul_kernel(a_ref, b_ref, o_ref):
    o_ref[...] = jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32).astype(o_ref.dtype)


def pallas_matmul(a, b):
    return pl.pallas_call(matmul_kernel, out_shape=jax.ShapeDtypeStruct((a.shape[0], b.shape[1]), a.dtype))(a, b)


def mlp_block(x, g, w1, w2, approximate=False):
    h = pallas_rms_norm(x, g)
    return x + jax.nn.gelu(h @ w1, approximate=approximate) @ w2


def attention(x, wq, wk, wv, causal=True):
    q, k, v = x @ wq, x @ wk, x @ wv
    s = q @ k.T / jnp.sqrt(q.shape[-1]).astype(x.dtype)
    if causal:
        n = s.shape[0]
        s = jnp.where(jnp.tril(jnp.ones((n, n), bool)), s, -1e9)
    return jax.nn.softmax(s, axis=-1) @ v


def moe(x, router, w_experts, k=2):
    logits = x @ router
    vals, idx = lax.top_k(logits, k)
    gates = jax.nn.softmax(vals, axis=-1)
    out = jnp.zeros_like(x)
    for j in range(k):
        w = w_experts[idx[:, j]]
        out = out + gates[:, j:j + 1] * jnp.einsum("td,tdf->tf", x, w)
    return out


def models():
    d, f, t = 128, 256, 16
    yield "model_mlp_pallas_gelu_exact", mlp_block, [S((t, d), F32), S((d,), F32), S((d, f), F32), S((f, d), F32)]
    yield "model_mlp_pallas_gelu_tanh", functools.partial(mlp_block, approximate=True), [S((t, d), F32), S((d,), F32), S((d, f), F32), S((f, d), F32)]
    yield "model_mlp_bf16_gelu_exact", lambda x, w1, w2: jax.nn.gelu((x @ w1).astype(F32), approximate=False).astype(BF16) @ w2, [S((t, d), BF16), S((d, f), BF16), S((f, d), BF16)]
    yield "model_attention", attention, [S((t, d), F32)] + [S((d, d), F32)] * 3
    yield "model_attention_nocausal", functools.partial(attention, causal=False), [S((t, d), F32)] + [S((d, d), F32)] * 3
    yield "model_moe_top2", moe, [S((t, d), F32), S((d, 8), F32), S((8, d, d), F32)]
    yield "model_moe_top1", functools.partial(moe, k=1), [S((t, d), F32), S((d, 4), F32), S((4, d, d), F32)]
    yield "model_block", lambda x, g, wq, wk, wv, w1, w2: mlp_block(x + attention(pallas_rms_norm(x, g), wq, wk, wv), g, w1, w2), [S((t, d), F32), S((d,), F32)] + [S((d, d), F32)] * 3 + [S((d, f), F32), S((f, d), F32)]
    yield "model_pallas_matmul_gelu", lambda a, b: jax.nn.gelu(pallas_matmul(a, b), approximate=False), [S((128, 128), F32), S((128, 128), F32)]
    yield "model_loss_grad", jax.grad(lambda w, x, y: jnp.mean(optax_like_ce(x @ w, y))), [S((d, 10), F32), S((t, d), F32), S((t,), I32)]
    yield "model_sampling_topk", lambda logits, u: lax.top_k(logits, 8)[1][jnp.arange(logits.shape[0]), jnp.argmax(u, -1)], [S((4, 1000), F32), S((4, 8), F32)]
    yield "model_erfinv_init", lambda u: jnp.sqrt(2.0) * sp.erfinv(2 * u - 1), [S((64, 64), F32)]
    yield "model_gaussian_cdf", lambda x: 0.5 * sp.erfc(-x / jnp.sqrt(2.0)), [S((8, 128), F32)]


def optax_like_ce(logits, labels):
    return -jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=-1)[:, 0]


def special():
    unary = {
        "erf": sp.erf, "erfc": sp.erfc, "erfinv": sp.erfinv, "gammaln": sp.gammaln, "digamma": sp.digamma,
        "i0e": sp.i0e, "i1e": sp.i1e, "i0": sp.i0, "i1": sp.i1, "ndtr": sp.ndtr, "ndtri": sp.ndtri,
        "log_ndtr": sp.log_ndtr, "expit": sp.expit, "logit": sp.logit, "entr": sp.entr, "gamma": sp.gamma,
        "spence": sp.spence, "rgamma": lambda x: 1.0 / sp.gamma(x), "sinc": jnp.sinc,
        "tan": jnp.tan, "sinh": jnp.sinh, "cosh": jnp.cosh, "tanh": jnp.tanh, "asin": jnp.arcsin,
        "acos": jnp.arccos, "atan": jnp.arctan, "asinh": jnp.arcsinh, "acosh": jnp.arccosh, "atanh": jnp.arctanh,
        "square": jnp.square, "isinf": jnp.isinf, "isposinf": jnp.isposinf, "isneginf": jnp.isneginf,
        "lgamma": lax.lgamma, "lax_digamma": lax.digamma, "bessel_i1e": lax.bessel_i1e, "lax_erf_inv": lax.erf_inv,
    }
    for dt in (F32, BF16):
        for name, fn in unary.items():
            yield f"special_{name}_{jnp.dtype(dt).name}", fn, [S((8, 128), dt)]
    binary = {
        "polygamma": lambda n, x: sp.polygamma(jnp.abs(n).astype(I32), x), "zeta": sp.zeta, "xlogy": sp.xlogy,
        "xlog1py": sp.xlog1py, "gammainc": sp.gammainc, "gammaincc": sp.gammaincc, "betaln": sp.betaln,
        "igamma": lax.igamma, "nextafter": jnp.nextafter, "kl_div": sp.kl_div, "rel_entr": sp.rel_entr,
        "logaddexp": jnp.logaddexp, "hypot": jnp.hypot,
    }
    for name, fn in binary.items():
        yield f"special_{name}_float32", fn, [S((8, 128), F32), S((8, 128), F32)]
    yield "special_betainc_float32", sp.betainc, [S((8, 128), F32)] * 3
    yield "special_complex_square", lambda x, y: jnp.square(lax.complex(x, y)).real, [S((8, 128), F32)] * 2
    yield "special_complex_tan", lambda x, y: jnp.abs(jnp.tan(lax.complex(x, y))), [S((8, 128), F32)] * 2
    yield "special_complex_asin", lambda x, y: jnp.abs(jnp.arcsin(lax.complex(x, y))), [S((8, 128), F32)] * 2
    yield "special_mulhi", lambda x, y: (x.astype(jnp.uint64) * y.astype(jnp.uint64) >> 32).astype(jnp.uint32) if jax.config.x64_enabled else lax.mul(x, y), [S((8, 128), jnp.uint32)] * 2


def nn():
    acts = {name: getattr(jax.nn, name) for name in (
        "relu", "relu6", "sigmoid", "softplus", "soft_sign", "silu", "swish", "log_sigmoid", "leaky_relu",
        "hard_sigmoid", "hard_silu", "hard_tanh", "elu", "celu", "selu", "glu", "squareplus", "mish",
        "sparse_plus", "sparse_sigmoid") if hasattr(jax.nn, name)}
    acts["gelu_exact"] = functools.partial(jax.nn.gelu, approximate=False)
    acts["gelu_tanh"] = functools.partial(jax.nn.gelu, approximate=True)
    acts["softmax"] = jax.nn.softmax
    acts["log_softmax"] = jax.nn.log_softmax
    acts["standardize"] = jax.nn.standardize
    acts["logsumexp"] = jax.nn.logsumexp
    for name, fn in acts.items():
        for dt in (F32, BF16):
            yield f"nn_{name}_{jnp.dtype(dt).name}", fn, [S((8, 128), dt)]
    yield "nn_one_hot", lambda i: jax.nn.one_hot(i, 128), [S((16,), I32)]
    yield "nn_dot_product_attention", lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True), [S((1, 16, 2, 64), F32)] * 3


def sharded_pallas():
    from jax.sharding import Mesh, PartitionSpec as P
    try:
        from jax import shard_map
    except ImportError:
        from jax.experimental.shard_map import shard_map
    mesh = Mesh(np.array(jax.devices()[:4]), ("i",))
    yield "shard_map_pallas_matmul", jax.jit(shard_map(lambda a, b: pallas_matmul(a, b), mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"), check_vma=False)), [S((512, 128), F32), S((128, 128), F32)]
    yield "shard_map_pallas_rms_gelu", jax.jit(shard_map(lambda x, g: jax.nn.gelu(pallas_rms_norm(x, g), approximate=False), mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"), check_vma=False)), [S((64, 128), F32), S((128,), F32)]
    yield "shard_map_topk_psum", jax.jit(shard_map(lambda x: jax.lax.psum(lax.top_k(x, 4)[0], "i"), mesh=mesh, in_specs=(P("i"),), out_specs=P())), [S((16, 128), F32)]


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    counts = collections.Counter()
    ok = failed = 0
    gens = (models(), special(), nn(), sharded_pallas(), gen_programs.programs(), gen_programs.sharded_programs())
    for gen in gens:
        for name, fn, specs in gen:
            try:
                jitted = fn if hasattr(fn, "trace") else jax.jit(fn)
                text = jitted.trace(*specs).lower(lowering_platforms=("tpu",)).as_text()
            except Exception as e:  # noqa: BLE001 (a program JAX refuses is skipped, said on stderr)
                print(f"skip {name}: {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
                failed += 1
                continue
            with open(os.path.join(out, name + ".mlir"), "w") as f:
                f.write(text)
            gen_programs.count_ops(text, counts)
            ok += 1
    with open(os.path.join(out, "ops.tsv"), "w") as f:
        for op, n in counts.most_common():
            f.write(f"{op}\t{n}\n")
    print(f"{ok} modules written to {out}, {failed} skipped; {len(counts)} distinct ops", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
