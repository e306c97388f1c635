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


def unary_ops(x, c):
    lax = jax.lax
    i = x.astype(jnp.int32)
    return (lax.abs(x), lax.cbrt(x), lax.ceil(x), lax.floor(x), lax.clz(i), lax.cos(x), lax.sin(x),
            lax.tan(x), lax.tanh(x), lax.exp(x), lax.expm1(x), lax.log(x), lax.log1p(x),
            lax.logistic(x), lax.rsqrt(x), lax.sqrt(x), lax.round(x), lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
            lax.population_count(i), lax.bitwise_not(i), lax.is_finite(x), lax.real(c), lax.imag(c),
            lax.complex(x, x), lax.atan2(x, x), lax.pow(x, x), lax.shift_left(i, i),
            lax.shift_right_arithmetic(i, i), lax.bitwise_xor(i, i), lax.clamp(0.0, x, 1.0),
            lax.reduce_precision(x, exponent_bits=5, mantissa_bits=10))


def shape_ops(x):
    lax = jax.lax
    a = lax.pad(x, 0.0, ((1, 2, 0), (0, 0, 1)))
    b = lax.rev(x, (0,))
    c = lax.broadcast(x, (2,))
    d = lax.optimization_barrier((x, b))
    e = lax.conv_general_dilated(x[None, None], jnp.ones((1, 1, 3, 3), x.dtype), (1, 1), "SAME")
    f = jnp.fft.fft(x.astype(jnp.complex64))
    g = lax.dot_general(x[None], x[None], (((2,), (2,)), ((0,), (0,))))
    h = jax.lax.sort(x, dimension=1)
    k = lax.cond(x[0, 0] > 0, lambda: x * 2, lambda: x - 1)
    m = lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), "VALID")
    n = x[jnp.array([0, 2])]
    key = jax.random.key(0)
    r = jax.random.uniform(key, (4,))
    s = x[1:3:2, ::3]
    return a, b, c, d, e, f, g, h, k, m, n, r, s


def programs():
    f32 = jnp.ones((4, 8), jnp.float32)
    yield "elementwise", jax.jit(elementwise).lower(f32, f32)
    yield "integer", jax.jit(integer).lower(f32, f32)
    yield "unary_ops", jax.jit(unary_ops).lower(f32, f32.astype(jnp.complex64))
    yield "shape_ops", jax.jit(shape_ops).lower(f32)
    yield "loops", jax.jit(loops).lower(f32, jnp.int32(0))
    yield "argmax", jax.jit(argmax).lower(f32)
    yield "scatter", jax.jit(scatter).lower(f32, jnp.array([1, 2], jnp.int32))
    mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
    yield "sharded", jax.jit(sharded, in_shardings=NamedSharding(mesh, P("x")),
                             out_shardings=NamedSharding(mesh, P(None, "x"))).lower(
        jnp.ones((8, 8), jnp.float32))
    yield "shard_map", jax.jit(shard_mapped).lower(jnp.ones((8, 8), jnp.float32))
    yield "constraint", jax.jit(constraint).lower(jnp.ones((8, 8), jnp.float32))


# Ops JAX rarely lowers to, written by hand in generic form (jaxlib verifies
# them); the fixture is jaxlib's print of jaxlib's pretty print of it, so that
# defaults the pretty form leaves out are left out of both.
MISC_OPS = """
module @misc {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<?xf32>, %arg2: tensor<i32>, %arg3: tensor<2xi64>) -> (tensor<4xf32>) {
    %t = "stablehlo.create_token"() : () -> !stablehlo.token
    %t2 = "stablehlo.after_all"(%t, %t) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    %tup = "stablehlo.tuple"(%arg0, %arg2) : (tensor<4xf32>, tensor<i32>) -> tuple<tensor<4xf32>, tensor<i32>>
    %g = "stablehlo.get_tuple_element"(%tup) <{index = 0 : i32}> : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %d = "stablehlo.get_dimension_size"(%arg1) <{dimension = 0 : i64}> : (tensor<?xf32>) -> tensor<i32>
    %s = "stablehlo.set_dimension_size"(%arg1, %d) <{dimension = 0 : i64}> : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
    %i = "stablehlo.dynamic_iota"(%arg3) <{iota_dimension = 0 : i64}> : (tensor<2xi64>) -> tensor<?x?xf32>
    %r = "stablehlo.dynamic_reshape"(%arg0, %arg3) : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %e = "stablehlo.einsum"(%arg0, %arg0) <{einsum_config = "i,i->i"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %ue = "stablehlo.unary_einsum"(%arg0) <{einsum_config = "i->i"}> : (tensor<4xf32>) -> tensor<4xf32>
    %c0 = stablehlo.constant dense<0.0> : tensor<f32>
    %c1 = stablehlo.constant dense<1.0> : tensor<f32>
    %sh = stablehlo.constant dense<4> : tensor<1xi64>
    %rng = "stablehlo.rng"(%c0, %c1, %sh) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %st = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
    %o:2 = "stablehlo.rng_bit_generator"(%st) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %comp = "stablehlo.composite"(%arg0) <{name = "my.op", decomposition = @dec, composite_attributes = {k = 1 : i64}, version = 2 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
    %comp2 = "stablehlo.composite"(%arg0) <{name = "my.op2", decomposition = @dec}> : (tensor<4xf32>) -> tensor<4xf32>
    %rid = "stablehlo.replica_id"() : () -> tensor<ui32>
    %pid = "stablehlo.partition_id"() : () -> tensor<ui32>
    %b = "stablehlo.broadcast"(%arg0) <{broadcast_sizes = array<i64: 4>}> : (tensor<4xf32>) -> tensor<4x4xf32>
    %ch = "stablehlo.cholesky"(%b) <{lower = true}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %ch2 = "stablehlo.cholesky"(%b) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %dot = "stablehlo.dot"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %dot2 = "stablehlo.dot"(%arg0, %arg0) <{precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    "stablehlo.optimization_barrier"() : () -> ()
    %pr = "stablehlo.compare"(%arg2, %arg2) <{comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %sel = "stablehlo.select"(%pr, %arg0, %arg0) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %cvt = "stablehlo.convert"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %add2 = "stablehlo.add"(%arg0, %g) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %cmp = "stablehlo.compare"(%arg0, %arg0) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cc:2 = "stablehlo.custom_call"(%arg0) <{call_target_name = "foo", has_side_effect = true, api_version = 4 : i32, backend_config = {a = 1 : i32}, called_computations = [@dec]}> {x = 1} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    "stablehlo.custom_call"() <{call_target_name = "foo bar", has_side_effect = false}> : () -> ()
    %dg = "stablehlo.dot_general"(%arg0, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
    %ex = "stablehlo.exponential"(%arg0) <{result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 0.000000e+00, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}> : (tensor<4xf32>) -> tensor<4xf32>
    %w:2 = "stablehlo.while"(%arg2, %arg0) ({
    ^bb0(%a: tensor<i32>, %b2: tensor<4xf32>):
      %p = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<i32>, %b2: tensor<4xf32>):
      "stablehlo.return"(%a, %b2) : (tensor<i32>, tensor<4xf32>) -> ()
    }) {foo = 1 : i32} : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    %rd:2 = "stablehlo.reduce"(%arg0, %arg0, %c0, %c0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>, %q: tensor<f32>):
      %m = "stablehlo.add"(%x, %z) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m, %m) : (tensor<f32>, tensor<f32>) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    return %arg0 : tensor<4xf32>
  }
  func.func private @dec(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
"""


# Shardy's ops, written by hand in pretty form (jaxlib verifies them).
SDY_OPS = """
module @sdy_ops {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
    %e = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
    %0 = sdy.data_flow_edge %e sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %e2 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
    %1 = sdy.data_flow_edge %e2 : tensor<8x8xf32>
    %2 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %3 = sdy.all_slice [{"x"}, {}] %2 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %4 = sdy.collective_permute %3 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
    %5 = sdy.all_reduce {"x"} %4 out_sharding=<@mesh, [{"y"}, {}]> : tensor<8x8xf32>
    %6 = sdy.all_to_all [{"y"}: 0->1] %5 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %7 = sdy.reshard %6 <@mesh, [{}, {}]> : tensor<8x8xf32>
    sdy.sharding_group %7 group_id=3 : tensor<8x8xf32>
    %8 = sdy.propagation_barrier %7 allowed_direction=BACKWARD : tensor<8x8xf32>
    %9 = sdy.named_computation<"foo">(%8) (%a: tensor<8x8xf32>) {
      sdy.return %a : tensor<8x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %10 = sdy.named_computation<"bar">(%9) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] (%a: tensor<8x8xf32>) {
      sdy.return %a : tensor<8x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %11 = sdy.constant dense<1.0> : tensor<8x8xf32>
    return %10 : tensor<8x8xf32>
  }
}
"""


def pretty_of(text):
    with jm.make_ir_context():
        return ir.Module.parse(text).operation.get_asm(enable_debug_info=False)


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
    write("misc_ops", pretty_of(MISC_OPS))
    write("sdy_ops", pretty_of(SDY_OPS))
    for path in sys.argv[1:]:
        p = pathlib.Path(path)
        write("corpus_" + p.stem[:16], p.read_text())


if __name__ == "__main__":
    main()
