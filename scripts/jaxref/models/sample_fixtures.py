"""Writes the committed fixtures of issue 41 from gen_models.py's OUT_DIR:

- mlir-fixtures/jax-models/: the model blocks (MUST), then greedily the modules that add a `chlo` op
  not yet covered (smallest first), each as `<name>.mlir` (JAX's `as_text()`, which is jaxlib's pretty
  print) and `<name>.generic.mlir` (jaxlib's generic print, no locations);
- mlir-fixtures/hlo-pretty/chlo_ops.{pretty,generic}.mlir: every `chlo` op of jaxlib 0.12 that has a
  custom form (and the two without), written by hand in generic form (CHLO_OPS), printed pretty by
  jaxlib, and that print printed by jaxlib both ways.

Usage: ~/.cache/tpu-custom-call/jaxref-venv/bin/python scripts/jaxref/models/sample_fixtures.py OUT_DIR
"""
import glob
import os
import re
import sys

from jax._src.interpreters import mlir as jm
from jax._src.lib.mlir import ir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CHLO = re.compile(r"\bchlo\.[a-z_0-9]+")
MUST = ["model_mlp_pallas_gelu_exact", "model_moe_top2", "model_block", "model_attention",
        "shard_map_pallas_rms_gelu", "shard_map_topk_psum", "model_gaussian_cdf"]

T = "tensor<4x8xf32>"
B = "tensor<4x8xi1>"
I = "tensor<4x8xi32>"
C = "tensor<4x8xcomplex<f32>>"
UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj", "cosh", "sinh", "tan",
         "digamma", "erf", "erf_inv", "erfc", "lgamma", "square"]
BCAST = ["add", "atan2", "divide", "maximum", "minimum", "multiply", "next_after", "polygamma", "power",
         "remainder", "subtract", "zeta"]
CHLO_OPS = "\n".join(
    [f'%u_{n} = "chlo.{n}"(%a) : ({T}) -> {T}' for n in UNARY]
    + [f'%uc_{n} = "chlo.{n}"(%z) : ({C}) -> {C}' for n in ("acos", "asin", "conj", "square", "tan")]
    + [f'%k = "chlo._asin_acos_kernel"(%z) : ({C}) -> {C}']
    + [f'%p_{n} = "chlo.{n}"(%a) : ({T}) -> {B}' for n in ("is_inf", "is_neg_inf", "is_pos_inf")]
    + [f'%b_{n} = "chlo.broadcast_{n}"(%a, %a) : ({T}, {T}) -> {T}' for n in BCAST]
    + [f'%bd_{n} = "chlo.broadcast_{n}"(%a, %r) <{{broadcast_dimensions = array<i64: 1>}}> : ({T}, tensor<8xf32>) -> {T}'
       for n in ("add", "multiply")]
    + [f'%bi_{n} = "chlo.broadcast_{n}"(%i, %i) : ({I}, {I}) -> {I}'
       for n in ("and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical")]
    + [f'%bc = "chlo.broadcast_complex"(%a, %a) : ({T}, {T}) -> {C}',
       f'%cmp = "chlo.broadcast_compare"(%a, %a) <{{comparison_direction = #chlo<comparison_direction LT>}}> : ({T}, {T}) -> {B}',
       f'%cmp2 = "chlo.broadcast_compare"(%a, %r) <{{broadcast_dimensions = array<i64: 1>, compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>}}> : ({T}, tensor<8xf32>) -> {B}',
       f'%sel = "chlo.broadcast_select"(%cmp, %a, %a) : ({B}, {T}, {T}) -> {T}',
       f'%na = "chlo.next_after"(%a, %a) : ({T}, {T}) -> {T}',
       f'%pg = "chlo.polygamma"(%a, %a) : ({T}, {T}) -> {T}',
       f'%ze = "chlo.zeta"(%a, %a) : ({T}, {T}) -> {T}',
       f'%mh = "chlo.mulhi"(%i, %i) : ({I}, {I}) -> {I}',
       f'%cst = "chlo.constant"() <{{value = dense<1.500000e+00> : {T}}}> : () -> {T}',
       f'%cl = "chlo.constant_like"(%a) <{{value = 1.000000e+00 : f32}}> : ({T}) -> {T}',
       f'%tk:2 = "chlo.top_k"(%a) <{{k = 4 : i64}}> : ({T}) -> (tensor<4x4xf32>, tensor<4x4xi32>)',
       f'%tk2:2 = "chlo.top_k"(%a) <{{is_stable = false, k = 2 : i64}}> : ({T}) -> (tensor<4x2xf32>, tensor<4x2xi32>)',
       f'%tk3:2 = "chlo.top_k"(%a) <{{is_stable = true, k = 3 : i64}}> : ({T}) -> (tensor<4x3xf32>, tensor<4x3xi32>)',
       f'%tk4:2 = "chlo.top_k"(%a) <{{k = 1 : i64}}> {{mhlo.frontend_attributes = {{x = "y"}}}} : ({T}) -> (tensor<4x1xf32>, tensor<4x1xi32>)',
       f'%rd = "chlo.ragged_dot"(%a, %w, %g) <{{precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}}> : ({T}, tensor<2x8x16xf32>, tensor<2xi32>) -> tensor<4x16xf32>'])
CHLO_MODULE = (f"module {{\n  func.func @chlo_ops(%a: {T}, %z: {C}, %i: {I}, %r: tensor<8xf32>, %w: tensor<2x8x16xf32>, "
               f"%g: tensor<2xi32>) {{\n" + "\n".join("    " + l for l in CHLO_OPS.splitlines())
               + "\n    \"func.return\"() : () -> ()\n  }\n}\n")


def prints(text):
    with jm.make_ir_context():
        m = ir.Module.parse(text)
        assert m.operation.verify()
        return (m.operation.get_asm(enable_debug_info=False),
                m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False))


def main(src):
    out = os.path.join(ROOT, "mlir-fixtures", "jax-models")
    os.makedirs(out, exist_ok=True)
    files = {}
    for p in sorted(glob.glob(os.path.join(src, "*.mlir"))):
        text = open(p).read()
        files[os.path.basename(p)[:-5]] = (text, set(CHLO.findall(text)))
    chosen = [n for n in MUST if n in files]
    covered = set().union(*(files.pop(n)[1] for n in chosen))
    while files:
        best = max(files, key=lambda n: (len(files[n][1] - covered), -len(files[n][0])))
        if not files[best][1] - covered:
            break
        covered |= files[best][1]
        chosen.append(best)
        del files[best]
    total = 0
    for name in sorted(chosen):
        text = open(os.path.join(src, name + ".mlir")).read()
        pretty, generic = prints(text)
        assert pretty == text, name
        for suffix, body in (("", text), (".generic", generic)):
            with open(os.path.join(out, name + suffix + ".mlir"), "w") as f:
                f.write(body)
            total += len(body)
    print(f"jax-models: {len(chosen)} modules, {total} bytes, {sorted(covered)}", file=sys.stderr)
    # Printed pretty, then both prints of that (a pretty `top_k` leaves out `is_stable = true`).
    pretty, generic = prints(prints(CHLO_MODULE)[0])
    hlo = os.path.join(ROOT, "mlir-fixtures", "hlo-pretty")
    for suffix, body in ((".pretty", pretty), (".generic", generic)):
        with open(os.path.join(hlo, "chlo_ops" + suffix + ".mlir"), "w") as f:
            f.write(body)


if __name__ == "__main__":
    main(sys.argv[1])
