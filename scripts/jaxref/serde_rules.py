#!/usr/bin/env python3
"""Runs real jaxlib 0.12's mosaic-serde on small kernels exercising every op
with an upgrade/downgrade rule, at every target version from 11 to 18, and
records what it does: the serialized module (generic form, no locations) or the
error message, and the kernel jaxlib deserializes from that serialized module.

Usage: /work/venvs/jaxref/bin/python scripts/jaxref/serde_rules.py \
           > mlir-fixtures/serde/rules.json
"""
import json
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib import tpu as tpu_lib  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402
from jaxlib.mlir.passmanager import PassManager  # noqa: E402

VMEM = "#tpu.memory_space<vmem>"
HBM = "#tpu.memory_space<hbm>"
DMA_SEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
SEM = "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>"


def kernel(args, body, core="tc", results=()):
  arg_types = ", ".join(t for _, t in args)
  block = ", ".join(f"{n}: {t}" for n, t in args)
  res = ", ".join(results)
  return f""""builtin.module"() <{{sym_name = "k"}}> ({{
  "func.func"() <{{function_type = ({arg_types}) -> ({res}), sym_name = "k"}}> ({{
  ^bb0({block}):
{body}
  }}) {{tpu.core_type = #tpu.core_type<{core}>}} : () -> ()
}}) : () -> ()
"""


def scan(kind, elem, dim):
  v = f"vector<8x128x{elem}>"
  return kernel([("%arg0", v)], f"""    %0 = "tpu.scan"(%arg0) <{{dimension = {dim} : i64, kind = #tpu.reduction_kind<{kind}>}}> : ({v}) -> {v}
    "func.return"() : () -> ()""")


def reduce(kind, elem):
  v = f"vector<8x128x{elem}>"
  return kernel([("%arg0", v)], f"""    %0 = "tpu.reduce"(%arg0) <{{dimensions = array<i64: 1>, kind = #tpu.reduction_kind<{kind}>}}> : ({v}) -> vector<8x1x{elem}>
    "func.return"() : () -> ()""")


def matmul(hint):
  v = "vector<128x128xf32>"
  return kernel([("%arg0", v), ("%arg1", v), ("%arg2", v)], f"""    %0 = "tpu.matmul"(%arg0, %arg1, %arg2) <{{dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = {hint}}}> : ({v}, {v}, {v}) -> {v}
    "func.return"() : () -> ()""")


def reinterpret_cast(segments, operands, result):
  m = f"memref<1024xf32, {VMEM}>"
  args = [("%arg0", m), ("%arg1", "i32"), ("%arg2", "i32")]
  ops = ", ".join(operands)
  types = ", ".join([m] + ["i32"] * (len(operands) - 1))
  return kernel(args, f"""    %0 = "tpu.reinterpret_cast"({ops}) <{{operandSegmentSizes = array<i32: {segments}>}}> : ({types}) -> {result}
    "func.return"() : () -> ()""")


def dma(op, core, segments, ids, with_sem=True):
  src, dst = f"memref<16xf32, {HBM}>", f"memref<16xf32, {VMEM}>"
  args = [("%arg0", src), ("%arg1", dst), ("%arg2", DMA_SEM), ("%arg3", "i32"),
          ("%arg4", "i32"), ("%arg5", "i32"), ("%arg6", DMA_SEM)]
  # Remote or cross-core DMAs need a source semaphore (segment 1).
  src_sem = ["%arg6"] if ids else []
  operands = ["%arg0"] + src_sem + ["%arg1"] + (["%arg2"] if with_sem else []) + ids
  types = [src] + [DMA_SEM] * len(src_sem) + [dst] + ([DMA_SEM] if with_sem else []) + ["i32"] * len(ids)
  extra = ", wait_target = true" if op == "tpu.wait_dma" else ""
  return kernel(args, f"""    "{op}"({", ".join(operands)}) <{{operandSegmentSizes = array<i32: {segments}>, priority = 0 : i32, strict_ordering = false{extra}}}> : ({", ".join(types)}) -> ()
    "func.return"() : () -> ()""", core=core)


def sem_signal(core, segments, ids):
  args = [("%arg0", SEM), ("%arg1", "i32"), ("%arg2", "i32"), ("%arg3", "i32"), ("%arg4", "i32")]
  operands = ["%arg0", "%arg1"] + ids
  types = [SEM, "i32"] + ["i32"] * len(ids)
  return kernel(args, f"""    "tpu.sem_signal"({", ".join(operands)}) <{{operandSegmentSizes = array<i32: {segments}>}}> : ({", ".join(types)}) -> ()
    "func.return"() : () -> ()""", core=core)


KERNELS = {
    "scan_maxf": scan("maxf", "f32", 1),
    "scan_minf": scan("minf", "f32", 1),
    "scan_maxsi": scan("maxsi", "i32", 1),
    "scan_minsi": scan("minsi", "i32", 1),
    "scan_maxui": scan("maxui", "i32", 1),
    "scan_minui": scan("minui", "i32", 1),
    "scan_sum_dim0": scan("sum", "f32", 0),
    "scan_sum_dim1": scan("sum", "f32", 1),
    "reduce_maxf": reduce("maxf", "f32"),
    "reduce_minf": reduce("minf", "f32"),
    "reduce_maxsi": reduce("maxsi", "i32"),
    "reduce_minsi": reduce("minsi", "i32"),
    "reduce_maxui": reduce("maxui", "i32"),
    "reduce_minui": reduce("minui", "i32"),
    "reduce_sum": reduce("sum", "f32"),
    "matmul_hint_false": matmul("false"),
    "matmul_hint_true": matmul("true"),
    "reinterpret_cast_static": reinterpret_cast("1, 0, 0, 0", ["%arg0"], f"memref<8x128xf32, {VMEM}>"),
    "reinterpret_cast_offset": reinterpret_cast("1, 1, 0, 0", ["%arg0", "%arg1"], f"memref<8x128xf32, {VMEM}>"),
    "reinterpret_cast_sizes": reinterpret_cast("1, 0, 1, 0", ["%arg0", "%arg1"], f"memref<?x128xf32, {VMEM}>"),
    "reinterpret_cast_strides": reinterpret_cast("1, 0, 0, 1", ["%arg0", "%arg1"], f"memref<8x128xf32, strided<[?, 1]>, {VMEM}>"),
    "enqueue_dma_local": dma("tpu.enqueue_dma", "tc", "1, 0, 1, 1, 0, 0, 0", []),
    "enqueue_dma_remote_core": dma("tpu.enqueue_dma", "tc", "1, 1, 1, 1, 1, 1, 0", ["%arg3", "%arg4"]),
    "enqueue_dma_subcore_sc": dma("tpu.enqueue_dma", "sc_vector_subcore", "1, 1, 1, 1, 1, 1, 1", ["%arg3", "%arg4", "%arg5"]),
    "wait_dma_local": dma("tpu.wait_dma", "tc", "1, 0, 1, 1, 0, 0, 0", []),
    "wait_dma_subcore_sc": dma("tpu.wait_dma", "sc_vector_subcore", "1, 1, 1, 1, 1, 1, 1", ["%arg3", "%arg4", "%arg5"]),
    "sem_signal_local": sem_signal("tc", "1, 1, 0, 0, 0", []),
    "sem_signal_remote": sem_signal("tc", "1, 1, 1, 1, 0", ["%arg2", "%arg3"]),
    "sem_signal_subcore_sc": sem_signal("sc_vector_subcore", "1, 1, 1, 1, 1", ["%arg2", "%arg3", "%arg4"]),
}


def context():
  ctx = jmlir.make_ir_context()
  tpu_lib.register_dialect(ctx)
  ctx.allow_unregistered_dialects = True
  return ctx


def messages(e):
  diags = getattr(e, "error_diagnostics", None)
  if diags:
    return [d.message for d in diags]
  return [str(e)]


def run(text):
  # The input is recorded as jaxlib prints it back (default-valued attributes
  # of registered tpu ops made explicit), which is what JAX's kernels look like.
  with context(), ir.Location.unknown():
    try:
      text = ir.Module.parse(text).operation.get_asm(print_generic_op_form=True)
    except Exception as e:
      return {"kernel": text, "parse_error": messages(e)}
  out = {"kernel": text, "versions": {}}
  for v in range(11, 19):
    rec = {}
    with context(), ir.Location.unknown():
      module = ir.Module.parse(text)
      pm = PassManager.parse(f"builtin.module(mosaic-serde{{serialize=true target-version={v}}})")
      pm.enable_verifier(False)
      try:
        pm.run(module.operation)
      except Exception as e:
        rec["error"] = messages(e)
        out["versions"][str(v)] = rec
        continue
      rec["serialized"] = module.operation.get_asm(print_generic_op_form=True)
      try:
        PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
        rec["deserialized"] = module.operation.get_asm(print_generic_op_form=True)
      except Exception as e:
        rec["deserialize_error"] = messages(e)
    out["versions"][str(v)] = rec
  return out


def main():
  result = {
      "generated_by": "scripts/jaxref/serde_rules.py with jaxlib 0.12.0.1 (mosaic-serde "
                      "serialize=true target-version=V, then serialize=false)",
      "cases": {name: run(text) for name, text in KERNELS.items()},
  }
  json.dump(result, sys.stdout, indent=1, sort_keys=False)
  sys.stdout.write("\n")
  return 0


if __name__ == "__main__":
  sys.exit(main())
